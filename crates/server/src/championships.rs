//! Engine events played by the server: one director ([`chess960_championship::director`]) per
//! event whose arbiter pressed play, on its own thread, its games on the [`Slots`] the server
//! was given (`serve --engine-games N`), apart from the search threads of the games people
//! play against the engine. Each event's live broadcast is kept here for
//! `GET /api/events/{key}/live`.
//!
//! The arbiter's wish is in the event itself (`engines_play`): a server that starts takes up
//! every event that has it; a pause clears it. With several servers on one database, each
//! takes up such events: start an engine event's play on one of them (docs/events.md).

use chess960_championship::director::{Director, Ended, Progress};
use chess960_championship::live::{Broadcast, LiveView};
use chess960_championship::slots::Slots;
use chess960_store::{GameStore, StoreError};
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// How long an engine may take to start.
const ENGINE_START: Duration = Duration::from_secs(10);

/// The most engine events played at once (each has a director thread, and threads that wait
/// for game slots): an arbiter's play beyond it is refused until one ends or is paused.
pub(crate) const MAX_PLAYING: usize = 32;

/// The most events whose broadcast is kept (the latest ones played): the others' live views
/// are empty, their games are in the database.
const MAX_KEPT: usize = 256;

/// Why an event's play did not start.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum NotStarted {
    /// The server plays no engine games, or is going down.
    Disabled,
    /// [`MAX_PLAYING`] events are being played.
    Busy,
}

/// One event's director and broadcast.
struct Entry {
    broadcast: Arc<Broadcast>,
    stop: Arc<AtomicBool>,
    /// A director thread runs for the event.
    alive: bool,
}

/// The engine events of this server.
pub(crate) struct Championships {
    store: Arc<dyn GameStore>,
    slots: Arc<Slots>,
    /// Engine games may be played at all (`--engine-games` above 0).
    enabled: bool,
    events: Arc<Mutex<HashMap<String, Entry>>>,
    closed: Arc<AtomicBool>,
}

impl Championships {
    /// Engine events over `store`, `games` of them played at once (0: none).
    pub(crate) fn new(store: Arc<dyn GameStore>, games: usize) -> Championships {
        Championships {
            store,
            slots: Arc::new(Slots::new(games)),
            enabled: games > 0,
            events: Arc::default(),
            closed: Arc::new(AtomicBool::new(false)),
        }
    }

    /// Whether this server plays engine games.
    pub(crate) fn enabled(&self) -> bool {
        self.enabled
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, Entry>> {
        self.events.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Plays event `key`'s engine games from where it stands, unless that is under way.
    pub(crate) fn start(&self, key: &str) -> Result<(), NotStarted> {
        if !self.enabled || self.closed.load(Ordering::SeqCst) {
            return Err(NotStarted::Disabled);
        }
        let mut events = self.lock();
        let playing = events.values().filter(|e| e.alive).count();
        if playing >= MAX_PLAYING && !events.get(key).is_some_and(|e| e.alive) {
            return Err(NotStarted::Busy);
        }
        if events.len() >= MAX_KEPT && !events.contains_key(key) {
            // The broadcast of an event no longer played makes room.
            if let Some(old) = events
                .iter()
                .find(|(_, e)| !e.alive)
                .map(|(k, _)| k.clone())
            {
                events.remove(&old);
            }
        }
        let entry = events.entry(key.to_string()).or_insert_with(|| Entry {
            broadcast: Arc::new(Broadcast::new()),
            stop: Arc::new(AtomicBool::new(false)),
            alive: false,
        });
        // A director that is stopping sees this and goes on (decided under the same lock as
        // its thread's end: see below).
        entry.stop.store(false, Ordering::SeqCst);
        if entry.alive {
            return Ok(());
        }
        entry.alive = true;
        entry.broadcast.set_status(true, "starting");
        let director = Director {
            store: Arc::clone(&self.store),
            event: key.to_string(),
            slots: Arc::clone(&self.slots),
            stop: Arc::clone(&entry.stop),
            broadcast: Arc::clone(&entry.broadcast),
            site: crate::create::SITE.to_string(),
            timeout: ENGINE_START,
            progress: Box::new(log_progress(key.to_string())),
        };
        let (table, closed, name) = (
            Arc::clone(&self.events),
            Arc::clone(&self.closed),
            key.to_string(),
        );
        let spawned = std::thread::Builder::new()
            .name("engine-event".into())
            .spawn(move || loop {
                let ended = director.run();
                match &ended {
                    Ok(Ended::Finished) => tracing::info!(event = %name, "engine event finished"),
                    Ok(Ended::Waiting(why)) => {
                        tracing::info!(event = %name, "engine event waits: {why}")
                    }
                    Ok(Ended::Stopped) => tracing::info!(event = %name, "engine event paused"),
                    Err(e) => tracing::warn!(event = %name, "engine event stopped: {e}"),
                }
                // Decided under the table's lock, as `start` decides: a start that came while
                // this director was stopping has cleared its stop, and it goes on.
                let mut events = table.lock().unwrap_or_else(|p| p.into_inner());
                let again = matches!(ended, Ok(Ended::Stopped))
                    && !director.stop.load(Ordering::SeqCst)
                    && !closed.load(Ordering::SeqCst);
                if !again {
                    if let Some(e) = events.get_mut(&name) {
                        e.alive = false;
                    }
                    break;
                }
            });
        if let Err(e) = spawned {
            tracing::warn!(event = %key, "engine event thread: {e}");
            if let Some(entry) = events.get_mut(key) {
                entry.alive = false;
                entry
                    .broadcast
                    .set_status(false, format!("stopped: no thread ({e})"));
            }
        }
        Ok(())
    }

    /// Stops event `key`'s games (those in progress are played again later).
    pub(crate) fn pause(&self, key: &str) {
        if let Some(e) = self.lock().get(key) {
            e.stop.store(true, Ordering::SeqCst);
            e.broadcast.set_status(false, "pausing");
        }
    }

    /// The live view of event `key`, if this server has played it since it started.
    pub(crate) fn view(&self, key: &str) -> Option<LiveView> {
        let broadcast = self.lock().get(key).map(|e| Arc::clone(&e.broadcast))?;
        Some(broadcast.view())
    }

    /// Takes up every event whose arbiter asked for its engine games to be played.
    pub(crate) fn resume_all(&self) -> Result<usize, StoreError> {
        let Some(events) = self.store.event_store() else {
            return Ok(0);
        };
        let mut taken = 0;
        for summary in events.events()? {
            let stored = events.event(&summary.key)?;
            if stored.event.engines_play {
                match self.start(&summary.key) {
                    Ok(()) => taken += 1,
                    Err(why) => {
                        tracing::warn!(event = %summary.key, "engine event not taken up: {why:?}")
                    }
                }
            }
        }
        Ok(taken)
    }

    /// Stops every director: the server is going down (the events keep `engines_play`, and
    /// the next start takes them up).
    pub(crate) fn stop_all(&self) {
        self.closed.store(true, Ordering::SeqCst);
        for e in self.lock().values() {
            e.stop.store(true, Ordering::SeqCst);
        }
    }
}

/// Each step and game in the server's log.
fn log_progress(key: String) -> impl Fn(&Progress) + Send + Sync {
    move |p| match p {
        Progress::Step(what) => tracing::info!(event = %key, "{what}"),
        Progress::Started {
            round,
            board,
            names,
            ..
        } => {
            tracing::debug!(event = %key, "round {round}, board {board}: {} – {} begins", names[0], names[1])
        }
        Progress::Game(g) => tracing::info!(
            event = %key,
            "round {}, board {}: {} – {} {} ({})",
            g.round, g.board, g.white, g.black, g.result, g.reason
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn store(dir: &tempfile::TempDir) -> Arc<dyn GameStore> {
        Arc::from(chess960_store::open(Some(&dir.path().join("games.sqlite3"))).unwrap())
    }

    fn playing(c: &Championships, key: &str) {
        c.lock().insert(
            key.to_string(),
            Entry {
                broadcast: Arc::new(Broadcast::new()),
                stop: Arc::new(AtomicBool::new(false)),
                alive: true,
            },
        );
    }

    #[test]
    fn no_more_than_max_playing_events_play_at_once() {
        let dir = tempfile::tempdir().unwrap();
        let c = Championships::new(store(&dir), 1);
        for k in 0..MAX_PLAYING {
            playing(&c, &format!("event {k}"));
        }
        assert_eq!(c.start("one more"), Err(NotStarted::Busy));
        // One already playing is left as it is.
        assert_eq!(c.start("event 3"), Ok(()));
        let off = Championships::new(store(&dir), 0);
        assert_eq!(off.start("any"), Err(NotStarted::Disabled));
    }
}
