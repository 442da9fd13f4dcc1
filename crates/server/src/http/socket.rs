//! One loop for every WebSocket the server holds (a game's, a game followed on another server,
//! the lobby's, the analysis board's): it sends what the session has to send, hands it what the
//! client says, holds the client to the flood limit where the session asks for it
//! (`ws_limits.rs`), and closes the connection when the server stops. Each kind of socket is a
//! [`Session`]: what it waits for and what it answers.

use super::ws_limits::Flood;
use axum::extract::ws::{Message, WebSocket};
use std::future::Future;
use tokio::sync::watch;

/// What a session has the loop do next.
pub(crate) enum Next<H> {
    /// Send this text to the client.
    Send(String),
    /// Nothing to send now.
    Quiet,
    /// Close the connection (a close frame first: the client may reconnect).
    Close,
    /// Stop serving the socket, without a close frame, handing the caller `H` (a followed
    /// game now run here goes on with its own session on the same socket).
    End(H),
}

/// A kind of socket.
pub(crate) trait Session {
    /// What the session may end with ([`Next::End`]).
    type Handoff: Send;

    /// Waits for the next thing to do.
    fn next(&mut self) -> impl Future<Output = Next<Self::Handoff>> + Send;

    /// The client sent the text `text`.
    fn heard(&mut self, text: String) -> impl Future<Output = Next<Self::Handoff>> + Send;

    /// The client sent a binary message (by default: nothing to do).
    fn heard_binary(&mut self) -> Next<Self::Handoff> {
        Next::Quiet
    }
}

/// How a socket's loop ended.
pub(crate) enum Ended<H> {
    /// The client went (or was closed: flood, shutdown, the session's [`Next::Close`]).
    Closed,
    /// The session handed over ([`Next::End`]).
    Handoff(H),
}

/// Serves `socket` with `session` until the client goes, the session ends or `shutdown` turns
/// true. With `flood`, a client that sends more than [`super::ws_limits::MAX_PER_SECOND`]
/// messages a second is closed (code 1008).
pub(crate) async fn serve<S: Session + Send>(
    socket: &mut WebSocket,
    session: &mut S,
    mut shutdown: watch::Receiver<bool>,
    mut flood: Option<Flood>,
) -> Ended<S::Handoff> {
    loop {
        let next = tokio::select! {
            next = session.next() => next,
            incoming = socket.recv() => {
                let heard = match &mut flood {
                    Some(f) => f.hear(socket, incoming).await,
                    None => super::ws_limits::Heard::of(incoming),
                };
                match heard {
                    super::ws_limits::Heard::Gone => return Ended::Closed,
                    super::ws_limits::Heard::Text(t) => session.heard(t).await,
                    super::ws_limits::Heard::Binary => session.heard_binary(),
                    super::ws_limits::Heard::Nothing => Next::Quiet,
                }
            }
            _ = shutdown.changed() => Next::Close,
        };
        match next {
            Next::Send(text) => {
                if socket.send(Message::Text(text.into())).await.is_err() {
                    return Ended::Closed;
                }
            }
            Next::Quiet => {}
            Next::Close => {
                let _ = socket.send(Message::Close(None)).await;
                return Ended::Closed;
            }
            Next::End(h) => return Ended::Handoff(h),
        }
    }
}
