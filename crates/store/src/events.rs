//! Events (tournaments) in the game database: each event is one document (the
//! `chess960_events::event::Event`, as JSON) with a revision number. A save names the revision
//! it read, so two arbiters' changes cannot overwrite each other unseen, and a change is
//! written whole or not at all.

use crate::StoreError;
use chess960_events::event::Event;
use std::sync::{Mutex, MutexGuard};

/// One change at a time per event in this process (another process is held off by the
/// revision): the events are spread over these locks by key, so that a change to one event
/// never waits for another's beyond a short save.
static WRITES: [Mutex<()>; 64] = [const { Mutex::new(()) }; 64];

/// The write lock of the event `key` in this process. Whoever loads, changes and saves an
/// event holds it from the load to the save, so that an arbiter's change is not refused
/// because the server's own engine games saved the event meanwhile; a long computation (a
/// pairing) holds it only for its save, and is refused when the event changed meanwhile.
pub fn write_lock(key: &str) -> MutexGuard<'static, ()> {
    let stripe = key
        .bytes()
        .fold(0usize, |h, b| h.wrapping_mul(31).wrapping_add(b as usize));
    WRITES[stripe % WRITES.len()]
        .lock()
        .unwrap_or_else(|p| p.into_inner())
}

/// An event as stored.
#[derive(Clone, Debug, PartialEq)]
pub struct StoredEvent {
    /// The row id.
    pub id: i64,
    /// The key in addresses (unguessable).
    pub key: String,
    /// Bumped by each save.
    pub revision: u64,
    /// SHA-256 (hex) of the arbiter's token, for the server; `None`: no token (made from the
    /// command line).
    pub arbiter_hash: Option<String>,
    /// When it was last saved (Unix milliseconds).
    pub updated_ms: i64,
    /// The event.
    pub event: Event,
}

/// A line of the list of events.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EventSummary {
    /// The row id.
    pub id: i64,
    /// The key.
    pub key: String,
    /// The name.
    pub name: String,
    /// `swiss`, `round robin`, `double round robin`.
    pub format: String,
    /// Players entered.
    pub players: usize,
    /// Rounds paired.
    pub rounds_paired: u32,
    /// Rounds the event has.
    pub rounds: u32,
    /// Last saved (Unix milliseconds).
    pub updated_ms: i64,
}

impl EventSummary {
    /// The summary of an event.
    pub fn of(id: i64, key: &str, updated_ms: i64, e: &Event) -> EventSummary {
        use chess960_events::event::Format;
        EventSummary {
            id,
            key: key.to_string(),
            name: e.name.clone(),
            format: match e.format {
                Format::Swiss => "swiss".into(),
                Format::RoundRobin { cycles: 1 } => "round robin".into(),
                Format::RoundRobin { .. } => "double round robin".into(),
                Format::Knockout(_) => "knockout".into(),
            },
            players: e.players.len(),
            rounds_paired: e.rounds_paired(),
            rounds: e.total_rounds(),
            updated_ms,
        }
    }
}

/// Where events are kept.
pub trait EventStore: Send + Sync {
    /// Stores a new event.
    fn create_event(
        &self,
        event: &Event,
        arbiter_hash: Option<&str>,
    ) -> Result<StoredEvent, StoreError>;

    /// An event by row id (digits) or key.
    fn event(&self, id_or_key: &str) -> Result<StoredEvent, StoreError>;

    /// All events, the latest saved first.
    fn events(&self) -> Result<Vec<EventSummary>, StoreError>;

    /// Saves `event` over revision `revision`; `Conflict` if it was saved meanwhile. Returns
    /// the new revision.
    fn save_event(&self, id: i64, revision: u64, event: &Event) -> Result<u64, StoreError>;

    /// Deletes an event (its games stay).
    fn delete_event(&self, id: i64) -> Result<(), StoreError>;
}

/// The event as the document column holds it.
pub(crate) fn to_doc(e: &Event) -> Result<String, StoreError> {
    serde_json::to_string(e).map_err(|x| StoreError::Backend(format!("event to JSON: {x}")))
}

/// The event from the document column.
pub(crate) fn from_doc(doc: &str, what: &str) -> Result<Event, StoreError> {
    serde_json::from_str(doc).map_err(|x| StoreError::Corrupt {
        detail: format!("event {what}: {x}"),
    })
}

/// Takes into `event` the results of its boards' games played on the server (a board with a
/// game key and no result, whose game has finished with a result). Returns how many.
pub fn take_results(games: &dyn crate::GameStore, event: &mut Event) -> Result<usize, StoreError> {
    use chess960_events::event::BoardResult;
    let mut taken = 0;
    for round in &mut event.played {
        for board in round.boards.iter_mut().filter(|b| b.result.is_none()) {
            let Some(key) = board.game.as_deref().and_then(crate::GameKey::parse) else {
                continue;
            };
            let Some(stored) = games.game_by_key(&key)? else {
                continue;
            };
            let result = match stored.finish.map(|f| f.result) {
                Some(crate::GameResult::WhiteWins) => BoardResult::WhiteWins,
                Some(crate::GameResult::BlackWins) => BoardResult::BlackWins,
                Some(crate::GameResult::Draw) => BoardResult::Draw,
                // Unfinished, or aborted: the arbiter decides.
                _ => continue,
            };
            board.result = Some(result);
            taken += 1;
        }
    }
    Ok(taken)
}
