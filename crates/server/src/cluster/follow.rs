//! A WebSocket client of a game that another server runs: it gets the state from the holder
//! (over HTTP, forwarded), then the game's events as the holder publishes them
//! (`NOTIFY`, [`Node::follow`]). A player's socket here also tells the holder every few
//! seconds that the player is present (a read with their seat token counts as being here,
//! `presence.rs`). When the game comes to this server (its holder died and this one took it
//! over), the socket carries on as a local one ([`session`] hands it back).

use super::forward::TAKEOVER_WAIT;
use super::{Node, FORWARDED, FORWARDED_CLIENT, RESYNC};
use crate::api::Viewer;
use crate::http::socket::{self, Ended, Next, Session};
use crate::registry::Located;
use crate::round::broadcast::Protocol;
use crate::round::GameHandle;
use crate::AppState;
use axum::extract::ws::{Message, WebSocket};
use chess960_core::Color;
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
    /// The state, as the first message of a socket, its version, and the colour of the
    /// client's seat, if it holds one.
    State(String, u64, Option<Color>),
    /// The game runs here now.
    Here(Arc<GameHandle>),
}

/// The version an event carries.
#[derive(Deserialize)]
struct Versioned {
    version: Option<u64>,
}

/// Removes the game's channel when its last follower here goes.
struct Unfollow<'a>(&'a Node, &'a str);

impl Drop for Unfollow<'_> {
    fn drop(&mut self) {
        self.0.unfollow(self.1);
    }
}

/// Serves `socket` for the game `key` run by another server, until it closes or the server
/// stops (`None`), or until the game runs here (the socket and the game's handle, for the
/// local session to go on with).
pub(crate) async fn session(
    state: AppState,
    node: Arc<Node>,
    key: String,
    mut socket: WebSocket,
    shutdown: watch::Receiver<bool>,
    viewer: &Viewer,
) -> Option<(WebSocket, Arc<GameHandle>)> {
    let (seat, client, protocol) = (viewer.seat.as_deref(), viewer.client, viewer.protocol);
    let rx = node.follow(&key);
    let _unfollow = Unfollow(&node, &key);
    let fetched = fetch(&state, &node, &key, seat, client, protocol).await;
    let (version, color) = match fetched {
        Ok(Fetched::State(text, v, color)) => {
            if socket.send(Message::Text(text.into())).await.is_err() {
                return None;
            }
            (v, color)
        }
        Ok(Fetched::Here(h)) => return Some((socket, h)),
        Err(e) => {
            let text = crate::round::broadcast::first_message(Err(e));
            let _ = socket.send(Message::Text(text.to_string().into())).await;
            return None;
        }
    };
    let mut tick = tokio::time::interval(Duration::from_secs(1));
    tick.tick().await;
    let mut follower = Follower {
        state,
        node: Arc::clone(&node),
        key: key.clone(),
        seat: seat.map(str::to_owned),
        client,
        protocol,
        color,
        version,
        rx,
        tick,
        ticks: 0,
    };
    let flood = Some(crate::http::ws_limits::Flood::default());
    match socket::serve(&mut socket, &mut follower, shutdown, flood).await {
        Ended::Handoff(Some(h)) => Some((socket, h)),
        Ended::Handoff(None) | Ended::Closed => None,
    }
}

/// A socket following a game another server runs.
struct Follower {
    state: AppState,
    node: Arc<Node>,
    key: String,
    seat: Option<String>,
    client: IpAddr,
    protocol: Protocol,
    /// The colour whose seat the client holds.
    color: Option<Color>,
    /// The newest version the client has.
    version: u64,
    rx: tokio::sync::broadcast::Receiver<Arc<crate::round::broadcast::Outgoing>>,
    tick: tokio::time::Interval,
    ticks: u32,
}

impl Follower {
    /// Reads the state from the holder again and sends it: always, or (`always` false: the
    /// read only tells the holder that the player is here) only if it is newer than what the
    /// client has. The game may have come here meanwhile.
    async fn refetch(&mut self, always: bool) -> Next<Option<Arc<GameHandle>>> {
        let seat = self.seat.as_deref();
        match fetch(
            &self.state,
            &self.node,
            &self.key,
            seat,
            self.client,
            self.protocol,
        )
        .await
        {
            Ok(Fetched::State(text, v, _)) => {
                if always || v > self.version {
                    self.version = self.version.max(v);
                    Next::Send(text)
                } else {
                    Next::Quiet
                }
            }
            Ok(Fetched::Here(h)) => Next::End(Some(h)),
            // The game is gone (deleted) or no server answers: the client reconnects.
            Err(_) => Next::End(None),
        }
    }
}

impl Session for Follower {
    /// The game's handle once it runs here.
    type Handoff = Option<Arc<GameHandle>>;

    async fn next(&mut self) -> Next<Self::Handoff> {
        tokio::select! {
            event = self.rx.recv() => match event {
                Ok(e) if &*e.text == RESYNC => self.refetch(true).await,
                Ok(e) if e.for_socket(self.protocol, self.color) => {
                    if let Ok(Versioned { version: Some(v) }) = serde_json::from_str(&e.text) {
                        self.version = self.version.max(v);
                    }
                    Next::Send(e.text.to_string())
                }
                Ok(_) => Next::Quiet,
                Err(RecvError::Lagged(_)) => self.refetch(true).await,
                Err(RecvError::Closed) => Next::End(None),
            },
            _ = self.tick.tick() => {
                if let Some(h) = self.state.games().here(&self.key) {
                    return Next::End(Some(h));
                }
                self.ticks += 1;
                if self.seat.is_some() && self.ticks % PRESENCE_EVERY == 0 {
                    self.refetch(false).await
                } else {
                    Next::Quiet
                }
            }
        }
    }

    async fn heard(&mut self, text: String) -> Next<Self::Handoff> {
        if self.protocol == Protocol::V2 && crate::api::wants_state(&text) {
            self.refetch(true).await
        } else {
            Next::Quiet
        }
    }
}

/// The game's state from its holder (with the seat token, so that the player counts as
/// here), waiting up to [`TAKEOVER_WAIT`] for a holder that went away to be replaced.
async fn fetch(
    state: &AppState,
    node: &Arc<Node>,
    key: &str,
    seat: Option<&str>,
    client: IpAddr,
    protocol: Protocol,
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
        if protocol == Protocol::V2 {
            // A player's view then shows their own premove.
            rb = rb.header(crate::api::PROTOCOL_HEADER, "2");
        }
        let why = match rb.send().await {
            Ok(resp) if resp.status().is_success() => {
                let header = |name: &str| {
                    resp.headers()
                        .get(name)
                        .and_then(|v| v.to_str().ok())
                        .map(str::to_owned)
                };
                let version = header(crate::api::VERSION_HEADER)
                    .and_then(|v| v.parse::<u64>().ok())
                    .unwrap_or(0);
                let color = match header(crate::api::SEAT_COLOR_HEADER).as_deref() {
                    Some("white") => Some(Color::White),
                    Some("black") => Some(Color::Black),
                    _ => None,
                };
                let view: serde_json::Value = resp.json().await.map_err(|e| e.to_string())?;
                let text = serde_json::json!({"type": "state", "version": version, "game": view});
                return Ok(Fetched::State(text.to_string(), version, color));
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
