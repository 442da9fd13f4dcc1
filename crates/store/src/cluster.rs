//! What several servers on one database share: which server holds which game (a lease), who
//! is alive (a heartbeat), and a channel on which the holder of a game tells the others what
//! happened to it. Only a database that several processes can reach offers this
//! ([`GameStore::cluster`](crate::GameStore::cluster)): PostgreSQL does, SQLite does not (one
//! process holds every game).
//!
//! The rules every implementation follows:
//! - A server is **alive** until the time of its last heartbeat plus the time to live it gave;
//!   the database's clock decides, so the servers' clocks need not agree.
//! - A game has at most one **lease**. A server may take a game's lease when nobody holds it,
//!   when it holds it already, or when its holder is no longer alive. Taking it is one atomic
//!   statement, so two servers asking at once cannot both get it.
//! - A lease outlives the game's stay in memory: the holder keeps it until it leaves (or dies),
//!   so that a game never runs in two processes, even for a moment.
//! - **Notices** are short texts (at most [`NOTICE_MAX`] bytes) delivered to every listening
//!   server, in the order one server published them, and only while it listens: a listener
//!   that lost its connection has missed some and must read the state again.

use crate::{GameKey, StoreError};
use std::time::Duration;

/// The longest notice: PostgreSQL's `NOTIFY` takes up to 8,000 bytes.
pub const NOTICE_MAX: usize = 7_900;

/// One server process: an id unique among the servers of the database, and the address at
/// which the others reach it (`http://host:port`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Member {
    /// Unique among the servers (random, chosen at start).
    pub id: String,
    /// Where the other servers send it the requests of its games.
    pub address: String,
}

/// Who holds a game's lease, as [`Cluster::claim`] found it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Holder {
    /// The asking server: it holds the lease now.
    Me,
    /// Another server, alive, reached at this address.
    Other {
        /// The holder's [`Member::address`].
        address: String,
    },
    /// There is no game with this key.
    NoSuchGame,
}

/// Leases, heartbeats and notices over one database. Implementations are safe to share.
pub trait Cluster: Send + Sync {
    /// Says that `me` is alive for `ttl` from now (registering it the first time); returns
    /// the keys of the games whose leases it holds now (a server that stalled past its time to
    /// live may have lost some to another).
    fn heartbeat(&self, me: &Member, ttl: Duration) -> Result<Vec<GameKey>, StoreError>;

    /// Takes the lease of the game with this key for `me` if nobody alive holds it; says who
    /// holds it.
    fn claim(&self, key: &GameKey, me: &Member) -> Result<Holder, StoreError>;

    /// Takes over up to `limit` unfinished games whose holder is no longer alive (and drops
    /// the leases of such finished games); returns the keys of the games taken.
    fn take_orphans(&self, me: &Member, limit: u32) -> Result<Vec<GameKey>, StoreError>;

    /// `me` stops: its leases go and it is no longer listed.
    fn leave(&self, me: &Member) -> Result<(), StoreError>;

    /// A secret shared by every server of the database (made on first use): a request
    /// forwarded from one server to another carries it.
    fn shared_secret(&self) -> Result<String, StoreError>;

    /// Sends `notices` (each at most [`NOTICE_MAX`] bytes, longer ones are refused) to every
    /// listener, in order.
    fn publish(&self, notices: &[String]) -> Result<(), StoreError>;

    /// A listener of the notices published from now on, on a connection of its own.
    fn listen(&self) -> Result<Box<dyn Listener>, StoreError>;
}

/// The notices of [`Cluster::publish`] as they arrive.
pub trait Listener: Send {
    /// The next notice, waiting up to `wait` (`None`: none came). An error means the
    /// connection broke: notices may have been missed, and this listener is done.
    fn next(&mut self, wait: Duration) -> Result<Option<String>, StoreError>;
}
