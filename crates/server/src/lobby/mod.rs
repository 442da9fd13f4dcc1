//! The lobby: the open challenges anyone may accept, listed live on the home page. A challenge
//! is listed when its creator asks for it (`"lobby": true` with `"opponent": "human"`), and only
//! while its creator has the game's page open (a WebSocket with their seat), as lichess's seeks
//! vanish when their author leaves; it stays joinable by its link either way. Whoever accepts
//! it joins it like anyone with the link (`POST …/join`). Listing is not stored: after a
//! restart a challenge is joinable by its link only.
//!
//! Clients follow the list on `GET /api/lobby/ws`: the whole list on connecting and after each
//! change (at most a few times a second), so a client never has to merge events.

mod socket;

pub use socket::websocket;

use crate::game::{color_name, Live, Phase, TimeControl};
use serde::Serialize;
use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex as StdMutex};
use std::time::Instant;
use tokio::sync::watch;

/// The most challenges the lobby lists (the newest).
pub const MAX_LISTED: usize = 100;
/// The most lobby WebSockets one address may hold open.
pub const MAX_SOCKETS_PER_CLIENT: usize = 16;

/// One challenge in the lobby.
#[derive(Serialize, Clone, Debug, PartialEq, Eq)]
pub struct LobbyEntry {
    pub key: String,
    /// The creator's name.
    pub name: String,
    /// The colour the creator plays (the one who accepts plays the other).
    pub color: &'static str,
    pub start_id: Option<u16>,
    pub back_rank: Option<String>,
    pub time_control: Option<TimeControl>,
    /// When the challenge was created, milliseconds since the Unix epoch.
    pub created_ms: i64,
}

impl Live {
    /// The game as a line of the lobby: a challenge listed by its creator, who is here.
    pub fn lobby_entry(&self, now: Instant) -> Option<LobbyEntry> {
        if !self.listed || self.phase != Phase::Open || self.finished() || self.deleted {
            return None;
        }
        let creator = self.sides.open_seat().map(|open| !open)?;
        self.presence
            .away_for(creator, now)
            .is_none()
            .then(|| LobbyEntry {
                key: self.key.to_string(),
                name: match creator {
                    chess960_core::Color::White => self.meta.white.clone(),
                    chess960_core::Color::Black => self.meta.black.clone(),
                },
                color: color_name(creator),
                start_id: self.meta.start_id,
                back_rank: self
                    .meta
                    .start_id
                    .and_then(|n| chess960_core::StartId::new(n.into()).ok())
                    .map(|id| id.back_rank().to_string()),
                time_control: self.tc,
                created_ms: self.created_ms,
            })
    }
}

/// The listed challenges, kept up to date by their games (each game tells the lobby its entry
/// whenever it changes), the clients' wake-up, and their sockets.
#[derive(Default)]
pub struct Lobby {
    entries: StdMutex<HashMap<String, LobbyEntry>>,
    changes: watch::Sender<u64>,
    sockets: StdMutex<HashMap<IpAddr, usize>>,
}

impl Lobby {
    /// The game `key` is now listed as `entry`, or not listed (`None`). Wakes the clients when
    /// that changes the list.
    pub fn update(&self, key: &str, entry: Option<LobbyEntry>) {
        let mut entries = self.entries.lock().unwrap_or_else(|e| e.into_inner());
        let changed = match entry {
            Some(e) => entries.insert(key.to_string(), e.clone()).as_ref() != Some(&e),
            None => entries.remove(key).is_some(),
        };
        drop(entries);
        if changed {
            self.changes.send_modify(|n| *n += 1);
        }
    }

    /// The listed challenges, the newest first, at most [`MAX_LISTED`].
    pub fn list(&self) -> Vec<LobbyEntry> {
        let mut list: Vec<LobbyEntry> = self
            .entries
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .values()
            .cloned()
            .collect();
        list.sort_by(|a, b| b.created_ms.cmp(&a.created_ms).then(a.key.cmp(&b.key)));
        list.truncate(MAX_LISTED);
        list
    }

    /// Wakes on each change.
    pub fn subscribe(&self) -> watch::Receiver<u64> {
        self.changes.subscribe()
    }

    /// A socket for `client`, unless it has [`MAX_SOCKETS_PER_CLIENT`] open already; counted
    /// until the returned guard is dropped.
    pub fn enter(self: &Arc<Self>, client: IpAddr) -> Option<SocketGuard> {
        let mut sockets = self.sockets.lock().unwrap_or_else(|e| e.into_inner());
        let n = sockets.entry(client).or_insert(0);
        if *n >= MAX_SOCKETS_PER_CLIENT {
            return None;
        }
        *n += 1;
        Some(SocketGuard {
            lobby: Arc::clone(self),
            client,
        })
    }
}

/// One open lobby socket of a client.
pub struct SocketGuard {
    lobby: Arc<Lobby>,
    client: IpAddr,
}

impl Drop for SocketGuard {
    fn drop(&mut self) {
        let mut sockets = self.lobby.sockets.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(n) = sockets.get_mut(&self.client) {
            *n -= 1;
            if *n == 0 {
                sockets.remove(&self.client);
            }
        }
    }
}
