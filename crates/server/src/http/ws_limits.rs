//! The limits every WebSocket whose client has nothing to say is held to (a game's socket and
//! the lobby's): small messages only, and a client that sends more than a few a second is
//! disconnected, so that a flood closes one connection instead of slowing the server. (How many
//! of each kind a client address may hold is counted by `rate::Places`.)

use crate::error::ApiError;
use axum::extract::ws::rejection::WebSocketUpgradeRejection;
use axum::extract::ws::{CloseFrame, Message, WebSocket, WebSocketUpgrade};
use std::time::{Duration, Instant};

/// What a WebSocket route extracts: the upgrade, or why the request was not one.
pub type Upgrade = Result<WebSocketUpgrade, WebSocketUpgradeRejection>;

/// The upgrade, or a 400 that says the address only takes WebSocket connections (a plain
/// `GET` from a browser's address bar lands here).
pub fn accept(ws: Upgrade) -> Result<WebSocketUpgrade, ApiError> {
    ws.map_err(|e| ApiError::bad_request(format!("this address takes WebSocket connections: {e}")))
}

/// The largest message such a client may send.
pub const MAX_MESSAGE: usize = 4096;
/// More messages than this within a second close the connection (code 1008, policy).
pub const MAX_PER_SECOND: u32 = 20;

/// The upgrade with the message size limit.
pub fn limited(ws: WebSocketUpgrade) -> WebSocketUpgrade {
    ws.max_message_size(MAX_MESSAGE).max_frame_size(MAX_MESSAGE)
}

/// What a client sent, as [`Flood::hear`] sorts it.
#[derive(Debug)]
pub enum Heard {
    /// The connection is over.
    Gone,
    /// A text message.
    Text(String),
    /// A binary message.
    Binary,
    /// Nothing to act on (a ping or pong: axum answers pings).
    Nothing,
}

impl Heard {
    /// What the client sent (`socket.recv()`), with no limit on how often.
    pub fn of(incoming: Option<Result<Message, axum::Error>>) -> Heard {
        match incoming {
            None | Some(Err(_)) | Some(Ok(Message::Close(_))) => Heard::Gone,
            Some(Ok(Message::Text(t))) => Heard::Text(t.to_string()),
            Some(Ok(Message::Binary(_))) => Heard::Binary,
            Some(Ok(_)) => Heard::Nothing,
        }
    }
}

/// Counts a client's messages per one-second window.
#[derive(Default)]
pub struct Flood {
    since: Option<Instant>,
    n: u32,
}

impl Flood {
    /// Counts one at `now`; returns the count of the current second.
    fn count(&mut self, now: Instant) -> u32 {
        match self.since {
            Some(t) if now.saturating_duration_since(t) < Duration::from_secs(1) => self.n += 1,
            _ => {
                self.since = Some(now);
                self.n = 1;
            }
        }
        self.n
    }

    /// What the client sent (`socket.recv()`): a text message, a binary one, nothing to act
    /// on (a ping), or the end of the connection (closed, broken, or flooding: then closed
    /// with 1008 here).
    pub async fn hear(
        &mut self,
        socket: &mut WebSocket,
        incoming: Option<Result<Message, axum::Error>>,
    ) -> Heard {
        match incoming {
            None | Some(Err(_)) | Some(Ok(Message::Close(_))) => Heard::Gone,
            Some(Ok(_)) if self.count(Instant::now()) > MAX_PER_SECOND => {
                let _ = socket
                    .send(Message::Close(Some(CloseFrame {
                        code: axum::extract::ws::close_code::POLICY,
                        reason: "too many messages".into(),
                    })))
                    .await;
                Heard::Gone
            }
            incoming => Heard::of(incoming),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_per_second() {
        let t = Instant::now();
        let mut f = Flood::default();
        assert_eq!(f.count(t), 1);
        assert_eq!(f.count(t + Duration::from_millis(999)), 2);
        assert_eq!(f.count(t + Duration::from_millis(1000)), 1, "a new second");
    }
}
