//! The limits every WebSocket whose client has nothing to say is held to (a game's socket and
//! the lobby's): small messages only, and a client that sends more than a few a second is
//! disconnected, so that a flood closes one connection instead of slowing the server. And the
//! count of each kind of socket per client address ([`Sockets`]), shared by the game's, the
//! lobby's and the analysis board's sockets.

use crate::error::ApiError;
use axum::extract::ws::rejection::WebSocketUpgradeRejection;
use axum::extract::ws::{CloseFrame, Message, WebSocket, WebSocketUpgrade};
use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Sockets of one kind open per client address (IPv6 by its /64, as `rate.rs` counts), at
/// most a number each.
pub struct Sockets {
    max: usize,
    /// Whether the machine's own clients (loopback) are counted: a reverse proxy on the
    /// same machine brings every client from there.
    loopback: bool,
    open: Mutex<HashMap<IpAddr, usize>>,
}

impl Sockets {
    /// At most `max` per address; loopback counted too when `loopback`.
    pub fn new(max: usize, loopback: bool) -> Arc<Sockets> {
        Arc::new(Sockets {
            max,
            loopback,
            open: Mutex::default(),
        })
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<IpAddr, usize>> {
        self.open.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// A place for one more socket of `client`, held until dropped; `None` when it has
    /// [`Sockets::max`] open already.
    pub fn enter(self: &Arc<Self>, client: IpAddr) -> Option<SocketPlace> {
        let client = client.to_canonical();
        if client.is_loopback() && !self.loopback {
            return Some(SocketPlace {
                sockets: Arc::clone(self),
                client: None,
            });
        }
        let key = crate::rate::key_of(client);
        let mut open = self.lock();
        let n = open.entry(key).or_insert(0);
        if *n >= self.max {
            return None;
        }
        *n += 1;
        Some(SocketPlace {
            sockets: Arc::clone(self),
            client: Some(key),
        })
    }
}

/// One open socket's place among its address's ([`Sockets::enter`]).
pub struct SocketPlace {
    sockets: Arc<Sockets>,
    /// The address it counts under; `None` when not counted.
    client: Option<IpAddr>,
}

impl Drop for SocketPlace {
    fn drop(&mut self) {
        let Some(client) = self.client else { return };
        let mut open = self.sockets.lock();
        if let Some(n) = open.get_mut(&client) {
            *n -= 1;
            if *n == 0 {
                open.remove(&client);
            }
        }
    }
}

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

    /// What the client sent (`socket.recv()`); false once the connection is over: the client
    /// closed it, it broke, or it flooded (then it is closed with 1008 here). The client's
    /// messages mean nothing; pings are answered by axum.
    pub async fn on_message(
        &mut self,
        socket: &mut WebSocket,
        incoming: Option<Result<Message, axum::Error>>,
    ) -> bool {
        match incoming {
            None | Some(Err(_)) | Some(Ok(Message::Close(_))) => false,
            Some(Ok(_)) if self.count(Instant::now()) > MAX_PER_SECOND => {
                let _ = socket
                    .send(Message::Close(Some(CloseFrame {
                        code: axum::extract::ws::close_code::POLICY,
                        reason: "too many messages".into(),
                    })))
                    .await;
                false
            }
            Some(Ok(_)) => true,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sockets_are_counted_per_address_and_given_back() {
        let ip = |t: &str| t.parse::<IpAddr>().unwrap();
        let s = Sockets::new(2, false);
        let a = s.enter(ip("192.0.2.1")).unwrap();
        let _b = s.enter(ip("192.0.2.1")).unwrap();
        assert!(s.enter(ip("192.0.2.1")).is_none(), "the third");
        assert!(s.enter(ip("192.0.2.2")).is_some(), "another address");
        drop(a);
        assert!(s.enter(ip("192.0.2.1")).is_some(), "a place given back");
        // One /64 is one client; loopback is not counted here.
        let _c = s.enter(ip("2001:db8::1")).unwrap();
        let _d = s.enter(ip("2001:db8::2")).unwrap();
        assert!(s.enter(ip("2001:db8::3")).is_none());
        let local: Vec<_> = (0..10).filter_map(|_| s.enter(ip("127.0.0.1"))).collect();
        assert_eq!(local.len(), 10);
        assert!(
            !s.lock().contains_key(&ip("127.0.0.1")),
            "loopback is not counted"
        );
        // Counted where asked to be.
        let counted = Sockets::new(1, true);
        let _e = counted.enter(ip("::1")).unwrap();
        assert!(counted.enter(ip("::1")).is_none());
    }

    #[test]
    fn counts_per_second() {
        let t = Instant::now();
        let mut f = Flood::default();
        assert_eq!(f.count(t), 1);
        assert_eq!(f.count(t + Duration::from_millis(999)), 2);
        assert_eq!(f.count(t + Duration::from_millis(1000)), 1, "a new second");
    }
}
