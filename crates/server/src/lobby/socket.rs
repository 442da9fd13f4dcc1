//! `GET /api/lobby/ws`: the lobby's list, live. The client sends nothing of meaning: like a
//! game's socket, it is held to `ws_limits.rs`.

use super::Lobby;
use crate::api::Client;
use crate::error::{ApiError, ApiResult};
use crate::http::socket::{self, Next, Session};
use crate::http::ws_limits::{self, Flood};
use crate::AppState;
use axum::extract::ws::{Message, WebSocket};
use axum::extract::State;
use axum::response::Response;
use serde_json::json;
use std::sync::Arc;
use std::time::Duration;

/// At most this often a client is sent the list (changes in between are sent together).
const MIN_INTERVAL: Duration = Duration::from_millis(200);

/// `GET /api/lobby/ws`.
pub async fn websocket(
    State(state): State<AppState>,
    Client(client): Client,
    ws: ws_limits::Upgrade,
) -> ApiResult<Response> {
    let ws = ws_limits::accept(ws)?;
    let lobby = Arc::clone(state.lobby());
    let Some(guard) = state.sockets().lobby.enter(client) else {
        return Err(ApiError::too_many_requests(format!(
            "this address has {} lobby connections open already",
            super::MAX_SOCKETS_PER_CLIENT
        )));
    };
    let shutdown = state.shutdown_signal();
    Ok(ws_limits::limited(ws).on_upgrade(move |socket| async move {
        session(lobby, socket, shutdown).await;
        drop(guard);
    }))
}

/// The list as sent: `{"type": "lobby", "challenges": [...]}`.
pub fn message(lobby: &Lobby) -> String {
    json!({"type": "lobby", "challenges": lobby.list()}).to_string()
}

/// A client of the lobby: the list at once, then after each change (at most every
/// [`MIN_INTERVAL`]); what the client says means nothing.
struct LobbySocket {
    lobby: Arc<Lobby>,
    changes: tokio::sync::watch::Receiver<u64>,
}

impl Session for LobbySocket {
    type Handoff = ();

    async fn next(&mut self) -> Next<()> {
        if self.changes.changed().await.is_err() {
            return Next::End(());
        }
        // Changes close together go in one message.
        tokio::time::sleep(MIN_INTERVAL).await;
        self.changes.mark_unchanged();
        Next::Send(message(&self.lobby))
    }

    async fn heard(&mut self, _: String) -> Next<()> {
        Next::Quiet
    }
}

async fn session(
    lobby: Arc<Lobby>,
    mut socket: WebSocket,
    shutdown: tokio::sync::watch::Receiver<bool>,
) {
    let mut changes = lobby.subscribe();
    changes.mark_unchanged();
    if socket
        .send(Message::Text(message(&lobby).into()))
        .await
        .is_err()
    {
        return;
    }
    let mut session = LobbySocket { lobby, changes };
    socket::serve(&mut socket, &mut session, shutdown, Some(Flood::default())).await;
}
