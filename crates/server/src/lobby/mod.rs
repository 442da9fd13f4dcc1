//! The lobby: the open challenges anyone may accept, listed live on the home page. A challenge
//! is listed when its creator asks for it (`"lobby": true` with `"opponent": "human"`), and only
//! while its creator has the game's page open (a WebSocket with their seat, or reading the game
//! over HTTP at least every [`POLLED_FOR`], as the terminal does), as lichess's seeks vanish
//! when their author leaves; it stays joinable by its link either way. Whoever accepts
//! it joins it like anyone with the link (`POST …/join`). Listing is not stored: after a
//! restart a challenge is joinable by its link only.
//!
//! Clients follow the list on `GET /api/lobby/ws`: the whole list on connecting and after each
//! change (at most a few times a second), so a client never has to merge events.
//!
//! With several servers on one database (`cluster/`), each lists the others' challenges too:
//! a server publishes each change of its own entries, and all of them again every few seconds
//! ([`Lobby::republish`]); an entry heard of from another server that is not repeated within
//! [`REMOTE_TTL`] (its server died) leaves the list.

mod socket;

pub use socket::websocket;

use crate::game::ratings::RatingView;
use crate::game::{ColorJson, Live, Phase, TimeControl};
use serde::Serialize;
use std::collections::HashMap;
use std::sync::{Arc, Mutex as StdMutex, OnceLock, Weak};
use std::time::{Duration, Instant};
use tokio::sync::watch;

/// The most challenges the lobby lists (the newest).
pub const MAX_LISTED: usize = 100;
/// The most lobby WebSockets one address may hold open.
pub const MAX_SOCKETS_PER_CLIENT: usize = 16;
/// How long an entry of another server stays listed without being heard of again.
pub const REMOTE_TTL: Duration = Duration::from_secs(15);
/// How long a challenge stays listed after its creator last read it over HTTP (a client that
/// polls, as the terminal does every half second, instead of holding a WebSocket open).
pub const POLLED_FOR: Duration = Duration::from_secs(3);

/// One challenge in the lobby.
#[derive(Serialize, Clone, Debug, PartialEq, Eq)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct LobbyEntry {
    pub key: String,
    /// The creator's name.
    pub name: String,
    /// The colour the creator plays (the one who accepts plays the other).
    pub color: ColorJson,
    pub start_id: Option<u16>,
    pub back_rank: Option<String>,
    pub time_control: Option<TimeControl>,
    /// When the challenge was created, milliseconds since the Unix epoch.
    pub created_ms: i64,
    /// A rated game: only a logged-in player other than its creator may accept it.
    pub rated: bool,
    /// The creator's account name, when they are logged in.
    pub account: Option<String>,
    /// The creator's rating in the game's speed class, when they are logged in.
    pub rating: Option<RatingView>,
}

impl Live {
    /// The game as a line of the lobby: a challenge listed by its creator, who is here.
    pub fn lobby_entry(&self, now: Instant) -> Option<LobbyEntry> {
        if !self.listed || self.round.phase() != Phase::Open || self.finished() || self.deleted {
            return None;
        }
        let creator = self.sides.open_seat().map(|open| !open)?;
        let here = self.presence.away_for(creator, now).is_none()
            || self.polled_until.is_some_and(|until| now < until);
        here.then(|| LobbyEntry {
            key: self.key.to_string(),
            name: match creator {
                chess960_core::Color::White => self.meta.white.clone(),
                chess960_core::Color::Black => self.meta.black.clone(),
            },
            color: creator.into(),
            start_id: self.meta.start_id,
            back_rank: self
                .meta
                .start_id
                .and_then(|n| chess960_core::StartId::new(n.into()).ok())
                .map(|id| id.back_rank().to_string()),
            time_control: self.round.tc(),
            created_ms: self.created_ms,
            rated: self.sides.accounts.rated.is_some(),
            account: self.sides.accounts.get(creator).map(|_| match creator {
                chess960_core::Color::White => self.meta.white.clone(),
                chess960_core::Color::Black => self.meta.black.clone(),
            }),
            rating: self.ratings[creator.index()],
        })
    }
}

/// The listed challenges, kept up to date by their games (each game tells the lobby its entry
/// whenever it changes), and the clients' wake-up.
#[derive(Default)]
pub struct Lobby {
    entries: StdMutex<HashMap<String, LobbyEntry>>,
    /// Other servers' entries, with when each was last heard of.
    remote: StdMutex<HashMap<String, (LobbyEntry, Instant)>>,
    /// The other servers of the database, told of each change (`cluster/`).
    publisher: OnceLock<Weak<crate::cluster::Node>>,
    changes: watch::Sender<u64>,
}

impl Lobby {
    /// The game `key` is now listed as `entry`, or not listed (`None`). Wakes the clients when
    /// that changes the list.
    pub fn update(&self, key: &str, entry: Option<LobbyEntry>) {
        let mut entries = self.entries.lock().unwrap_or_else(|e| e.into_inner());
        let changed = match &entry {
            Some(e) => entries.insert(key.to_string(), e.clone()).as_ref() != Some(e),
            None => entries.remove(key).is_some(),
        };
        drop(entries);
        if changed {
            if let Some(node) = self.publisher.get().and_then(Weak::upgrade) {
                node.publish_lobby(key, entry.as_ref());
            }
            self.wake();
        }
    }

    /// Wakes the clients: the list changed.
    fn wake(&self) {
        self.changes.send_modify(|n| *n += 1);
    }

    /// Tells `node` of each change from now on.
    pub fn publish_to(&self, node: &Arc<crate::cluster::Node>) {
        let _ = self.publisher.set(Arc::downgrade(node));
    }

    /// Publishes every entry of this server again (other servers forget the entries they
    /// do not hear of for [`REMOTE_TTL`]).
    pub fn republish(&self, node: &crate::cluster::Node) {
        let entries: Vec<LobbyEntry> = self
            .entries
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .values()
            .cloned()
            .collect();
        for e in &entries {
            node.publish_lobby(&e.key, Some(e));
        }
    }

    /// Another server lists `entry` for the game `key`, or no longer lists it (`None`).
    pub fn update_remote(&self, key: &str, entry: Option<RemoteEntry>) {
        let mut remote = self.remote.lock().unwrap_or_else(|e| e.into_inner());
        let changed = match entry.map(RemoteEntry::into_entry) {
            Some(e) => remote
                .insert(key.to_string(), (e.clone(), Instant::now()))
                .is_none_or(|(old, _)| old != e),
            None => remote.remove(key).is_some(),
        };
        drop(remote);
        if changed {
            self.wake();
        }
    }

    /// Forgets the other servers' entries not heard of for [`REMOTE_TTL`]; wakes the clients
    /// if any went.
    pub fn expire_remote(&self) {
        let mut remote = self.remote.lock().unwrap_or_else(|e| e.into_inner());
        let before = remote.len();
        remote.retain(|_, (_, heard)| heard.elapsed() < REMOTE_TTL);
        let changed = remote.len() != before;
        drop(remote);
        if changed {
            self.wake();
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
        {
            let remote = self.remote.lock().unwrap_or_else(|e| e.into_inner());
            for (key, (e, heard)) in remote.iter() {
                if heard.elapsed() < REMOTE_TTL && !list.iter().any(|l| &l.key == key) {
                    list.push(e.clone());
                }
            }
        }
        list.sort_by(|a, b| b.created_ms.cmp(&a.created_ms).then(a.key.cmp(&b.key)));
        list.truncate(MAX_LISTED);
        list
    }

    /// Wakes on each change.
    pub fn subscribe(&self) -> watch::Receiver<u64> {
        self.changes.subscribe()
    }
}

/// An entry as another server publishes it.
#[derive(serde::Deserialize, Debug)]
pub struct RemoteEntry {
    key: String,
    name: String,
    /// (A notice whose colour is not one fails to read, and counts as no entry.)
    color: ColorJson,
    start_id: Option<u16>,
    back_rank: Option<String>,
    time_control: Option<TimeControl>,
    created_ms: i64,
    #[serde(default)]
    rated: bool,
    #[serde(default)]
    account: Option<String>,
    #[serde(default)]
    rating: Option<RatingView>,
}

impl RemoteEntry {
    fn into_entry(self) -> LobbyEntry {
        LobbyEntry {
            key: self.key,
            name: self.name,
            color: self.color,
            start_id: self.start_id,
            back_rank: self.back_rank,
            time_control: self.time_control,
            created_ms: self.created_ms,
            rated: self.rated,
            account: self.account,
            rating: self.rating,
        }
    }
}
