//! A WebSocket client of a game that another server runs: it gets the state from the holder
//! (over HTTP, forwarded), then the game's events as the holder publishes them
//! (`NOTIFY`, [`Node::follow`]). A player's socket here also tells the holder every few
//! seconds that the player is present (a read with their seat token counts as being here,
//! `presence.rs`). When the game comes to this server (its holder died and this one took it
//! over), the socket carries on as a local one ([`session`] hands it back).

use super::forward::TAKEOVER_WAIT;
use super::{Node, FORWARDED, FORWARDED_CLIENT, RESYNC};
use crate::registry::Located;
use crate::round::GameHandle;
use crate::AppState;
use axum::extract::ws::{Message, WebSocket};
use serde::Deserialize;
use std::net::IpAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::sync::broadcast::error::RecvError;
use tokio::sync::watch;

/// How often a player's socket tells the holder the player is here: well within the time a
/// player may be away (`Capacity::away_after`, 30 s unless set).
const PRESENCE_EVERY: u32 = 5;

/// What [`fetch`] found.
enum Fetched {
    /// The state, as the first message of a socket, and its version.
    State(String, u64),
    /// The game runs here now.
    Here(Arc<GameHandle>),
}

/// Removes the game's channel when its last follower here goes.
struct Unfollow<'a>(&'a Node, &'a str);

impl Drop for Unfollow<'_> {
    fn drop(&mut self) {
        self.0.unfollow(self.1);
    }
}

#[derive(Deserialize)]
struct Versioned {
    version: Option<u64>,
}

/// Serves `socket` for the game `key` run by another server, until it closes or the server
/// stops (`None`), or until the game runs here (the socket and the game's handle, for the
/// local session to go on with).
pub(crate) async fn session(
    state: AppState,
    node: Arc<Node>,
    key: String,
    mut socket: WebSocket,
    mut shutdown: watch::Receiver<bool>,
    seat: Option<String>,
    client: IpAddr,
) -> Option<(WebSocket, Arc<GameHandle>)> {
    let mut rx = node.follow(&key);
    let _unfollow = Unfollow(&node, &key);
    let mut flood = crate::ws_limits::Flood::default();
    let mut version = match fetch(&state, &node, &key, seat.as_deref(), client).await {
        Ok(Fetched::State(text, v)) => {
            if socket.send(Message::Text(text.into())).await.is_err() {
                return None;
            }
            v
        }
        Ok(Fetched::Here(h)) => return Some((socket, h)),
        Err(e) => {
            let text = crate::round::events::first_message(Err(e));
            let _ = socket.send(Message::Text(text.to_string().into())).await;
            return None;
        }
    };
    let mut tick = tokio::time::interval(Duration::from_secs(1));
    tick.tick().await;
    let mut ticks = 0u32;
    loop {
        // Some(true): read the state again and send it; Some(false): read it (the player is
        // here) and send it only if it is newer than what the client has.
        let mut refetch = None;
        tokio::select! {
            event = rx.recv() => match event {
                Ok(text) if &*text == RESYNC => refetch = Some(true),
                Ok(text) => {
                    if let Ok(Versioned { version: Some(v) }) = serde_json::from_str(&text) {
                        version = version.max(v);
                    }
                    if socket.send(Message::Text(text.to_string().into())).await.is_err() {
                        break;
                    }
                }
                Err(RecvError::Lagged(_)) => refetch = Some(true),
                Err(RecvError::Closed) => break,
            },
            _ = tick.tick() => {
                if let Some(h) = state.games().here(&key) {
                    return Some((socket, h));
                }
                ticks += 1;
                if seat.is_some() && ticks % PRESENCE_EVERY == 0 {
                    refetch = Some(false);
                }
            }
            incoming = socket.recv() => {
                if !flood.on_message(&mut socket, incoming).await {
                    break;
                }
            }
            _ = shutdown.changed() => {
                let _ = socket.send(Message::Close(None)).await;
                break;
            }
        }
        let Some(always) = refetch else { continue };
        match fetch(&state, &node, &key, seat.as_deref(), client).await {
            Ok(Fetched::State(text, v)) => {
                if always || v > version {
                    version = version.max(v);
                    if socket.send(Message::Text(text.into())).await.is_err() {
                        break;
                    }
                }
            }
            Ok(Fetched::Here(h)) => return Some((socket, h)),
            // The game is gone (deleted) or no server answers: the client reconnects.
            Err(_) => break,
        }
    }
    None
}

/// The game's state from its holder (with the seat token, so that the player counts as
/// here), waiting up to [`TAKEOVER_WAIT`] for a holder that went away to be replaced.
async fn fetch(
    state: &AppState,
    node: &Arc<Node>,
    key: &str,
    seat: Option<&str>,
    client: IpAddr,
) -> Result<Fetched, String> {
    let deadline = Instant::now() + TAKEOVER_WAIT;
    loop {
        let address = match state.games().locate(key).await {
            Ok(Located::Here(h)) => return Ok(Fetched::Here(h)),
            Ok(Located::Elsewhere(address)) => address,
            Err(e) => return Err(e.to_string()),
        };
        let mut rb = node
            .http()
            .get(format!("{address}/api/games/{key}"))
            .header(FORWARDED, node.secret())
            .header(FORWARDED_CLIENT, client.to_string());
        if let Some(seat) = seat {
            rb = rb.header("x-seat-token", seat);
        }
        let why = match rb.send().await {
            Ok(resp) if resp.status().is_success() => {
                let view: serde_json::Value = resp.json().await.map_err(|e| e.to_string())?;
                let version = view.get("version").and_then(|v| v.as_u64()).unwrap_or(0);
                let text = serde_json::json!({"type": "state", "version": version, "game": view});
                return Ok(Fetched::State(text.to_string(), version));
            }
            Ok(resp) if resp.headers().contains_key(FORWARDED) => "the game left it".to_owned(),
            Ok(resp) => {
                let status = resp.status();
                let body: serde_json::Value = resp.json().await.unwrap_or_default();
                return Err(body
                    .get("error")
                    .and_then(|e| e.as_str())
                    .map_or_else(|| status.to_string(), str::to_owned));
            }
            Err(e) => e.to_string(),
        };
        node.forget(key);
        if Instant::now() >= deadline {
            return Err(format!(
                "game {key} is run by another server, which does not answer ({why})"
            ));
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}
