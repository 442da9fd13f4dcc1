//! Several `chess960 serve` processes on one PostgreSQL database, behind one address.
//!
//! Each game runs in exactly one process at a time: the one holding its lease in the database
//! ([`chess960_store::cluster`]). The others
//! - **forward** every HTTP action on the game to the holder (`forward.rs`), with a secret
//!   every server of the database shares, so that the holder trusts the client's address the
//!   first server saw and its checks are not made twice;
//! - **follow** it for their own WebSocket clients (`follow.rs`): the holder publishes each
//!   event of the game with PostgreSQL's `NOTIFY` ([`Node::publish`]), every server listens,
//!   and a server with clients of that game sends it on to them.
//!
//! Every process sends a heartbeat each [`BEAT`]; a process silent for [`TTL`] (killed, its
//! host gone, cut off from the database) counts as dead, and every other process takes its
//! unfinished games over ([`Node::spawn_watch`]) from the store, that is from the last
//! acknowledged move. A game taken over starts paused, as after a restart: the clocks stand
//! as stored with the last move and run again with the next move or the player's return.
//!
//! A process that stalled past [`TTL`] may find, at its next heartbeat, that another took some
//! of its games: it lets them go at once (their sockets close and the browsers reconnect).
//! Until then, a write of the stale copy to a game moved on is refused by the store's rules
//! (a move only at the next half-move, one result per game).

mod follow;
mod forward;

pub(crate) use follow::session as follow_session;
pub(crate) use forward::{forward, game_route};

use crate::game::error::{GameError, GameResult};
use crate::registry::Games;
use crate::round::blocking;
use crate::round::broadcast::{Audience, Outgoing};
use chess960_store::cluster::{Cluster, Holder, Member, NOTICE_MAX};
use chess960_store::{GameKey, GameStore, StoreError};
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc, Mutex as StdMutex, MutexGuard, Weak};
use std::time::Duration;
use tokio::sync::{broadcast, watch};

/// How often each process says it is alive.
pub const BEAT: Duration = Duration::from_secs(1);
/// How long a process counts as alive after its last heartbeat: a dead process's games are
/// taken over this long (plus at most one [`BEAT`]) after its last heartbeat.
pub const TTL: Duration = Duration::from_secs(3);

/// The header that marks a request forwarded by another server of the database: its value
/// is the shared secret.
pub const FORWARDED: &str = "x-chess960-forwarded";
/// The header of a forwarded request that gives the client's address as the first server
/// saw it.
pub const FORWARDED_CLIENT: &str = "x-chess960-client";

/// The text a follower gets instead of an event: read the whole state again (a notice was
/// too long to publish, or notices may have been missed).
pub(crate) const RESYNC: &str = "!";

/// The event that tells a follower to read the state again.
fn resync() -> Outgoing {
    Outgoing {
        text: Arc::from(RESYNC),
        only: None,
        to: Audience::All,
    }
}

/// The prefix of a lobby notice's key (game keys are hexadecimal: no clash).
const LOBBY: &str = "lobby:";

/// How many heartbeats between two republications of this server's lobby entries.
const LOBBY_EVERY: u32 = 5;

/// This process among the servers of one database.
pub struct Node {
    store: Arc<dyn GameStore>,
    me: Member,
    secret: String,
    http: reqwest::Client,
    /// The games of other servers that clients of this one follow: their events' channels.
    follows: StdMutex<HashMap<String, broadcast::Sender<Arc<Outgoing>>>>,
    /// Where the other servers run games, as last found (a failed forward forgets it).
    holders: StdMutex<HashMap<String, String>>,
    /// Notices waiting for the publisher thread.
    outbox: StdMutex<Option<mpsc::Sender<String>>>,
    /// Set when the server stops: the threads end.
    stopping: Arc<AtomicBool>,
    /// The server's lobby, which lists the other servers' challenges too.
    lobby: Arc<crate::lobby::Lobby>,
    /// Heartbeats so far.
    beats: std::sync::atomic::AtomicU32,
    /// When the last heartbeat got through, and until when this server leaves other servers'
    /// games alone after it was cut off from the database (see [`Node::watch_once`]).
    last_beat: StdMutex<(std::time::Instant, std::time::Instant)>,
}

impl Node {
    /// Joins the servers of `store`'s database as the server reached at `address`
    /// (`http://host:port`): registers it, reads the shared secret, and starts the threads
    /// that publish and listen. `None` when the database is not one several servers can share.
    /// Blocks (database calls): call it off the async runtime.
    pub fn join(
        store: Arc<dyn GameStore>,
        address: String,
        lobby: Arc<crate::lobby::Lobby>,
    ) -> Result<Option<Arc<Node>>, StoreError> {
        let Some(cluster) = store.cluster() else {
            return Ok(None);
        };
        let mut id = [0u8; 8];
        getrandom::fill(&mut id)
            .map_err(|e| StoreError::Backend(format!("no random numbers for a server id: {e}")))?;
        let me = Member {
            id: id.iter().map(|b| format!("{b:02x}")).collect(),
            address: address.trim_end_matches('/').to_owned(),
        };
        let secret = cluster.shared_secret()?;
        cluster.heartbeat(&me, TTL)?;
        let http = reqwest::Client::builder()
            .connect_timeout(Duration::from_secs(1))
            .pool_idle_timeout(Duration::from_secs(30))
            .build()
            .map_err(|e| StoreError::Backend(format!("cannot make an HTTP client: {e}")))?;
        let (tx, rx) = mpsc::channel();
        let node = Arc::new(Node {
            store,
            me,
            secret,
            http,
            follows: StdMutex::default(),
            holders: StdMutex::default(),
            outbox: StdMutex::new(Some(tx)),
            stopping: Arc::default(),
            lobby,
            beats: Default::default(),
            last_beat: StdMutex::new((std::time::Instant::now(), std::time::Instant::now())),
        });
        node.lobby.publish_to(&node);
        let publisher = Arc::downgrade(&node);
        std::thread::Builder::new()
            .name("chess960-publish".into())
            .spawn(move || publish_loop(publisher, rx))
            .map_err(|e| StoreError::Backend(format!("cannot start a thread: {e}")))?;
        let listener = Arc::downgrade(&node);
        std::thread::Builder::new()
            .name("chess960-listen".into())
            .spawn(move || listen_loop(listener))
            .map_err(|e| StoreError::Backend(format!("cannot start a thread: {e}")))?;
        Ok(Some(node))
    }

    fn cluster(&self) -> &dyn Cluster {
        self.store
            .cluster()
            .expect("a node exists only over a database with a cluster")
    }

    /// This server's id and address.
    pub fn member(&self) -> &Member {
        &self.me
    }

    /// The secret every server of the database shares.
    pub fn secret(&self) -> &str {
        &self.secret
    }

    /// Takes the game's lease if nobody alive holds it; says who runs the game. A holder
    /// found recently is answered from memory.
    pub async fn claim(self: &Arc<Self>, key: &GameKey) -> GameResult<Holder> {
        if let Some(address) = self.holders().get(key.as_str()) {
            return Ok(Holder::Other {
                address: address.clone(),
            });
        }
        let (node, k) = (Arc::clone(self), key.clone());
        let holder = blocking(move || node.cluster().claim(&k, &node.me)).await?;
        if let Holder::Other { address } = &holder {
            let mut holders = self.holders();
            // A bound on what is remembered: forgetting costs one query.
            if holders.len() >= 10_000 {
                holders.clear();
            }
            holders.insert(key.to_string(), address.clone());
        }
        Ok(holder)
    }

    /// Forgets where the game was run (a forward to it failed).
    pub fn forget(&self, key: &str) {
        self.holders().remove(key);
    }

    /// A receiver of the events of the game `key`, run by another server.
    pub fn follow(&self, key: &str) -> broadcast::Receiver<Arc<Outgoing>> {
        lock(&self.follows)
            .entry(key.to_owned())
            .or_insert_with(|| broadcast::channel(64).0)
            .subscribe()
    }

    /// A follower of `key` went away: the channel goes with the last one.
    pub fn unfollow(&self, key: &str) {
        let mut follows = lock(&self.follows);
        if follows.get(key).is_some_and(|tx| tx.receiver_count() == 0) {
            follows.remove(key);
        }
    }

    /// Hands a notice to the followers here (not our own: our clients have the event).
    fn deliver(&self, notice: &str) {
        let mut parts = notice.splitn(3, ' ');
        let (Some(from), Some(key), Some(text)) = (parts.next(), parts.next(), parts.next()) else {
            return;
        };
        if from == self.me.id {
            return;
        }
        if let Some(game) = key.strip_prefix(LOBBY) {
            let entry = (text != "-")
                .then(|| serde_json::from_str(text).ok())
                .flatten();
            self.lobby.update_remote(game, entry);
            return;
        }
        let event = if text == RESYNC {
            Some(resync())
        } else {
            text.split_once(' ')
                .and_then(|(tag, text)| Outgoing::from_tag(tag, text))
        };
        if let (Some(tx), Some(event)) = (lock(&self.follows).get(key), event) {
            let _ = tx.send(Arc::new(event));
        }
    }

    /// Publishes a change of this server's lobby: the game `key` listed as `entry`, or no
    /// longer listed.
    pub fn publish_lobby(&self, key: &str, entry: Option<&crate::lobby::LobbyEntry>) {
        let text = entry
            .and_then(|e| serde_json::to_string(e).ok())
            .unwrap_or_else(|| "-".into());
        let notice = format!("{} {LOBBY}{key} {text}", self.me.id);
        if notice.len() <= NOTICE_MAX {
            if let Some(tx) = lock(&self.outbox).as_ref() {
                let _ = tx.send(notice);
            }
        }
    }

    /// Tells every follower to read the state again (notices may have been missed).
    fn resync_all(&self) {
        for tx in lock(&self.follows).values() {
            let _ = tx.send(Arc::new(resync()));
        }
    }

    fn holders(&self) -> MutexGuard<'_, HashMap<String, String>> {
        lock(&self.holders)
    }

    /// The heartbeat and the watch for dead servers, every [`BEAT`] until the server stops:
    /// games this process lost are let go, games of dead servers are taken over.
    pub fn spawn_watch(self: &Arc<Self>, games: Weak<Games>, mut shutdown: watch::Receiver<bool>) {
        let node = Arc::clone(self);
        tokio::spawn(async move {
            loop {
                tokio::select! {
                    _ = tokio::time::sleep(BEAT) => {}
                    _ = shutdown.changed() => return,
                }
                let Some(g) = games.upgrade() else { return };
                node.watch_once(&g).await;
            }
        });
    }

    async fn watch_once(self: &Arc<Self>, games: &Games) {
        let started = tokio::time::Instant::now().into_std();
        let node = Arc::clone(self);
        match blocking(move || node.cluster().heartbeat(&node.me, TTL)).await {
            Ok(held) => {
                // Back after being cut off for longer than the time to live: the others were
                // probably cut off too (the database went away), and look dead only until
                // their own next heartbeat. Wait that long before taking their games.
                let now = std::time::Instant::now();
                let mut beat = lock(&self.last_beat);
                if now.duration_since(beat.0) > TTL {
                    beat.1 = now + TTL + BEAT;
                }
                beat.0 = now;
                drop(beat);
                let lost = games.let_go_except(&held, started);
                for key in lost {
                    tracing::warn!("game {key}: another server took it over; let go here");
                }
            }
            Err(e) => {
                tracing::warn!("heartbeat: {e}");
                return;
            }
        }
        if self.beats.fetch_add(1, Ordering::Relaxed) % LOBBY_EVERY == 0 {
            self.lobby.republish(self);
        }
        self.lobby.expire_remote();
        if std::time::Instant::now() < lock(&self.last_beat).1 {
            return;
        }
        let node = Arc::clone(self);
        match blocking(move || node.cluster().take_orphans(&node.me, 200)).await {
            Ok(keys) => {
                for key in keys {
                    self.forget(key.as_str());
                    match games.get(key.as_str()).await {
                        Ok(_) => tracing::info!("game {key}: taken over from a dead server"),
                        Err(e) => tracing::warn!("game {key}: cannot take it over: {e}"),
                    }
                }
            }
            Err(e) => tracing::warn!("looking for games of dead servers: {e}"),
        }
    }

    /// The server stops: its threads end, and its leases go, so that the others take its
    /// games at once when asked (blocks: a database call).
    pub fn leave(&self) {
        self.stopping.store(true, Ordering::Release);
        lock(&self.outbox).take();
        if let Err(e) = self.cluster().leave(&self.me) {
            tracing::warn!("leaving the servers of the database: {e}");
        }
    }

    /// The HTTP client for the other servers.
    fn http(&self) -> &reqwest::Client {
        &self.http
    }

    /// Refuses an action when the game moved (for [`GameError`]).
    pub fn moved(key: &str) -> GameError {
        GameError::moved(key)
    }
}

impl crate::round::broadcast::Publisher for Node {
    /// Publishes `event`, an event of the game `key` run here, to the other servers: its tag
    /// (protocol and audience, [`Outgoing::tag`]) and its text.
    fn publish(&self, key: &str, event: &Outgoing) {
        let mut notice = format!("{} {key} {} {}", self.me.id, event.tag(), event.text);
        if notice.len() > NOTICE_MAX {
            // Too long for a notice: the followers read the state from the holder.
            notice = format!("{} {key} {RESYNC}", self.me.id);
        }
        if let Some(tx) = lock(&self.outbox).as_ref() {
            let _ = tx.send(notice);
        }
    }
}

fn lock<T>(m: &StdMutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// Publishes the notices as they come, in batches of what has piled up meanwhile.
fn publish_loop(node: Weak<Node>, rx: mpsc::Receiver<String>) {
    // Ends when the node is gone or stops (the sender is dropped).
    while let Ok(first) = rx.recv() {
        let mut batch = vec![first];
        while batch.len() < 500 {
            match rx.try_recv() {
                Ok(n) => batch.push(n),
                Err(_) => break,
            }
        }
        let Some(node) = node.upgrade() else { return };
        if let Err(e) = node.cluster().publish(&batch) {
            // The followers read the state again when their listener reconnects.
            tracing::warn!("cannot publish {} notices: {e}", batch.len());
        }
    }
}

/// Listens for notices and hands them to the followers here; reconnects after a failure
/// (every follower then reads the state again).
fn listen_loop(node: Weak<Node>) {
    let mut backoff = Duration::from_millis(100);
    loop {
        let Some(n) = node.upgrade() else { return };
        if n.stopping.load(Ordering::Acquire) {
            return;
        }
        let listener = n.cluster().listen();
        drop(n);
        let mut listener = match listener {
            Ok(l) => {
                backoff = Duration::from_millis(100);
                l
            }
            Err(e) => {
                tracing::warn!("cannot listen for the other servers' events: {e}");
                std::thread::sleep(backoff);
                backoff = (backoff * 2).min(Duration::from_secs(2));
                continue;
            }
        };
        if let Some(n) = node.upgrade() {
            n.resync_all();
        }
        loop {
            let got = listener.next(Duration::from_millis(500));
            let Some(n) = node.upgrade() else { return };
            if n.stopping.load(Ordering::Acquire) {
                return;
            }
            match got {
                Ok(Some(notice)) => n.deliver(&notice),
                Ok(None) => {}
                Err(e) => {
                    tracing::warn!("{e}");
                    break;
                }
            }
        }
    }
}
