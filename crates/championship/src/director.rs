//! Plays an engine event to its end: the steps of [`crate::step`] one after the other, each
//! saved to the database before the next, the games of a round on the threads that
//! [`Slots`] allows. Everything lives in the database: a director stopped (or its process
//! killed) loses at most the games in progress, which the next one plays again.

use crate::entrant::{engine_config, limits_of_sides};
use crate::live::Broadcast;
use crate::record::{board_result, to_import};
use crate::slots::Slots;
use crate::step::{next_step, Step};
use chess960_arena::engine::{Engine, EngineConfig};
use chess960_arena::referee::{play_game_watched, Adjudication, GameRecord, GameSetup, Opening};
use chess960_core::{Color, StartId};
use chess960_draw::rng::SplitMix64;
use chess960_events::event::{DrawSpec, EventError};
use chess960_store::events::take_results;
use chess960_store::{EventStore, GameStore, ImportOutcome, StoreError, StoredEvent};
use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// Why a director stopped without finishing the event.
#[derive(Debug)]
pub enum DirectorError {
    /// The database failed (or keeps no events).
    Store(StoreError),
    /// The event refused a step (a damaged event, or one the arbiter changed meanwhile).
    Event(EventError),
}

impl fmt::Display for DirectorError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DirectorError::Store(e) => write!(f, "{e}"),
            DirectorError::Event(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for DirectorError {}

impl From<StoreError> for DirectorError {
    fn from(e: StoreError) -> Self {
        DirectorError::Store(e)
    }
}

impl From<EventError> for DirectorError {
    fn from(e: EventError) -> Self {
        DirectorError::Event(e)
    }
}

/// How a director's run ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ended {
    /// Every round is played.
    Finished,
    /// The event cannot go on by itself: why (a person's board, an engine not registered, a
    /// time control that is no clock).
    Waiting(String),
    /// Stopped from outside (Ctrl-C, a pause); the games in progress were not kept.
    Stopped,
}

/// A game finished and stored.
#[derive(Clone, Debug)]
pub struct GameDone {
    /// The round.
    pub round: u32,
    /// The board.
    pub board: u32,
    /// White's name.
    pub white: String,
    /// Black's name.
    pub black: String,
    /// `1-0`, `0-1`, `1/2-1/2`.
    pub result: String,
    /// Why it ended, in words.
    pub reason: String,
    /// The moves played.
    pub plies: usize,
    /// The game's key in the database.
    pub key: String,
    /// The engine at fault and the kind of fault (`crash`, `illegal-move`, …), if any.
    pub fault: Option<(Color, &'static str)>,
}

/// What a director tells as it goes.
#[derive(Clone, Debug)]
pub enum Progress {
    /// A step done, in words: `round 2 paired`, `round 2: position 421 drawn`.
    Step(String),
    /// A game begins.
    Started {
        /// The round.
        round: u32,
        /// The board.
        board: u32,
        /// White's and Black's names.
        names: [String; 2],
        /// The start position.
        start_id: u16,
    },
    /// A game ended and is stored.
    Game(GameDone),
}

/// One board to play, with all it needs.
struct Job {
    /// The event's name, for the game's `Event` tag.
    event: String,
    round: u32,
    board: u32,
    players: (usize, usize),
    names: [String; 2],
    engines: [EngineConfig; 2],
    start: StartId,
    /// White's and Black's clocks.
    clocks: [chess960_arena::timecontrol::Limits; 2],
}

/// Plays an event's engine games.
pub struct Director {
    /// The database with the event, its games and the registered engines.
    pub store: Arc<dyn GameStore>,
    /// The event's key (or number).
    pub event: String,
    /// The bound on games at once.
    pub slots: Arc<Slots>,
    /// Set to stop: games in progress end unfinished and are not kept.
    pub stop: Arc<AtomicBool>,
    /// The live view of the games.
    pub broadcast: Arc<Broadcast>,
    /// The games' `Site` tag.
    pub site: String,
    /// How long an engine may take to answer when no clock runs (its start-up).
    pub timeout: Duration,
    /// Told of each step and game.
    pub progress: Box<dyn Fn(&Progress) + Send + Sync>,
}

fn seed() -> u64 {
    SplitMix64::from_entropy().next_u64()
}

impl Director {
    fn events(&self) -> Result<&dyn EventStore, DirectorError> {
        self.store.event_store().ok_or_else(|| {
            DirectorError::Store(StoreError::Backend(format!(
                "the database {} keeps no events",
                self.store.describe()
            )))
        })
    }

    /// The event as stored, with the results of its games finished on the server since.
    fn load(&self) -> Result<StoredEvent, DirectorError> {
        let mut s = self.events()?.event(&self.event)?;
        take_results(&*self.store, &mut s.event)?;
        Ok(s)
    }

    /// Saves a step; `false` when someone else saved the event meanwhile (the step is then
    /// taken again from what they saved).
    fn save(&self, s: &StoredEvent) -> Result<bool, DirectorError> {
        // Held for the save only: an arbiter's change on this server (which holds it from its
        // load to its save) then never meets a save of ours in between and is never refused
        // for it; ours, refused, is taken again.
        let _one = chess960_store::events::write_lock(&s.key);
        match self.events()?.save_event(s.id, s.revision, &s.event) {
            Ok(_) => Ok(true),
            Err(StoreError::Conflict(_)) => Ok(false),
            Err(e) => Err(e.into()),
        }
    }

    fn status(&self, text: impl Into<String>) {
        let running = !self.stop.load(Ordering::SeqCst);
        self.broadcast.set_status(running, text);
    }

    /// Plays the event until it is over, waits for its arbiter, or is stopped.
    pub fn run(&self) -> Result<Ended, DirectorError> {
        let ended = self.steps();
        match &ended {
            Ok(Ended::Finished) => self.broadcast.set_status(false, "finished"),
            Ok(Ended::Waiting(why)) => self.broadcast.set_status(false, format!("waiting: {why}")),
            Ok(Ended::Stopped) => self.broadcast.set_status(false, "paused"),
            Err(e) => self.broadcast.set_status(false, format!("stopped: {e}")),
        }
        ended
    }

    /// What would stop the event at its first game, found before anything is done: a time
    /// control that is no clock, an engine that is not registered.
    fn preflight(&self, s: &StoredEvent) -> Result<(), String> {
        let e = &s.event;
        limits_of_sides(&e.time_control)?;
        if let Some(plan) = e.knockout_plan() {
            for (k, stage) in plan.tiebreaks.iter().enumerate() {
                if !stage.time_control.trim().is_empty() {
                    limits_of_sides(&stage.time_control)
                        .map_err(|x| format!("tiebreak stage {}: {x}", k + 1))?;
                }
            }
        }
        let registry = self
            .store
            .engine_store()
            .ok_or_else(|| format!("the database {} keeps no engines", self.store.describe()))?;
        for p in &e.players {
            if let Some(name) = &p.engine {
                if registry.engine(name).map_err(|x| x.to_string())?.is_none() {
                    return Err(format!(
                        "{}'s engine {name:?} is not registered (chess960 engine list)",
                        p.name
                    ));
                }
            }
        }
        Ok(())
    }

    fn steps(&self) -> Result<Ended, DirectorError> {
        let s = self.load()?;
        match next_step(&s.event) {
            Step::Wait(why) => return Ok(Ended::Waiting(why)),
            // Over: whatever became of its engines since.
            Step::Finished => return Ok(Ended::Finished),
            _ => {}
        }
        if let Err(why) = self.preflight(&s) {
            return Ok(Ended::Waiting(why));
        }
        loop {
            if self.stop.load(Ordering::SeqCst) {
                return Ok(Ended::Stopped);
            }
            let mut s = self.load()?;
            let step = next_step(&s.event);
            let done = match &step {
                Step::Finished => return Ok(Ended::Finished),
                Step::Wait(why) => return Ok(Ended::Waiting(why.clone())),
                Step::Play(round, boards) => {
                    match self.jobs(&s, *round, boards) {
                        Ok(jobs) => {
                            self.status(format!("playing round {round}"));
                            self.play(jobs)?;
                        }
                        Err(why) => return Ok(Ended::Waiting(why)),
                    }
                    continue;
                }
                Step::Pair(r) => {
                    self.status(format!("pairing round {r}"));
                    s.event.pair(*r, seed())?;
                    format!("round {r} paired")
                }
                Step::DrawRound(r) => {
                    let how = if s.event.positions.list.is_empty() {
                        DrawSpec::Computer { seed: seed() }
                    } else {
                        DrawSpec::List
                    };
                    let id = s.event.draw_position(*r, how, false)?.id;
                    if s.event.positions.per_board {
                        format!("round {r}: a position drawn for each board")
                    } else {
                        format!("round {r}: position {id} drawn")
                    }
                }
                Step::DrawStage(r, stage) => {
                    let id = s
                        .event
                        .draw_stage_position(
                            *r,
                            *stage,
                            DrawSpec::Computer { seed: seed() },
                            false,
                        )?
                        .id;
                    format!("round {r}, tiebreak stage {stage}: position {id} drawn")
                }
                Step::Tiebreaks(r) => {
                    let matches = s.event.add_tiebreaks(*r, seed())?;
                    format!("round {r}: tiebreak games for match(es) {matches:?}")
                }
            };
            if self.save(&s)? {
                (self.progress)(&Progress::Step(done));
            }
        }
    }

    /// The boards of a round to play, each with its engines and clock; `Err` says why the
    /// event must wait for its arbiter.
    fn jobs(&self, s: &StoredEvent, round: u32, boards: &[u32]) -> Result<Vec<Job>, String> {
        let e = &s.event;
        let registry = self
            .store
            .engine_store()
            .ok_or_else(|| format!("the database {} keeps no engines", self.store.describe()))?;
        let mut jobs = Vec::new();
        for &b in boards {
            let board = &e.played[round as usize - 1].boards[b as usize - 1];
            let mut engines = Vec::new();
            for p in [board.white, board.black] {
                let player = &e.players[p];
                let name = player.engine.as_deref().unwrap_or_default();
                let found = registry
                    .engine(name)
                    .map_err(|x| format!("{}'s engine {name:?}: {x}", player.name))?
                    .ok_or_else(|| {
                        format!(
                            "{}'s engine {name:?} is not registered (chess960 engine list)",
                            player.name
                        )
                    })?;
                engines.push(engine_config(&found, self.timeout));
            }
            let tc = e.board_time_control(round, b);
            let clocks =
                limits_of_sides(tc).map_err(|x| format!("round {round}, board {b}: {x}"))?;
            let id = e.board_position(round, b).unwrap_or(518);
            let start = StartId::new(u32::from(id))
                .map_err(|x| format!("round {round}, board {b}: {x}"))?;
            for (config, limits) in engines.iter_mut().zip(clocks) {
                // The engine is told its clock from these (UCI `wtime`, xboard `level`).
                config.limits = limits;
            }
            let black = engines.pop().expect("two engines");
            let white = engines.pop().expect("two engines");
            jobs.push(Job {
                event: e.name.clone(),
                round,
                board: b,
                players: (board.white, board.black),
                names: [
                    e.players[board.white].name.clone(),
                    e.players[board.black].name.clone(),
                ],
                engines: [white, black],
                start,
                clocks,
            });
        }
        Ok(jobs)
    }

    /// Plays the jobs, as many at once as the slots allow; the first error of the database
    /// ends the round (the games already stored stay).
    fn play(&self, jobs: Vec<Job>) -> Result<(), DirectorError> {
        let workers = self.slots.capacity().min(jobs.len()).max(1);
        let queue = Mutex::new(jobs.into_iter());
        let failed: Mutex<Option<DirectorError>> = Mutex::new(None);
        std::thread::scope(|scope| {
            for _ in 0..workers {
                scope.spawn(|| loop {
                    if failed.lock().map(|f| f.is_some()).unwrap_or(true) {
                        break;
                    }
                    let Some(job) = queue.lock().ok().and_then(|mut q| q.next()) else {
                        break;
                    };
                    let Some(_slot) = self.slots.take(&self.stop) else {
                        break;
                    };
                    if let Err(e) = self.play_one(job) {
                        if let Ok(mut f) = failed.lock() {
                            f.get_or_insert(e);
                        }
                        break;
                    }
                });
            }
        });
        match failed.into_inner().unwrap_or(None) {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }

    /// Plays one board's game and stores it with its result.
    fn play_one(&self, job: Job) -> Result<(), DirectorError> {
        let stop = &*self.stop;
        let setup = GameSetup {
            number: job.board as usize,
            round: job.round,
            opening: Opening::from_id(job.start),
            names: job.names.clone(),
            limits: job.clocks,
            timeouts: [job.engines[0].timeout, job.engines[1].timeout],
            adjudication: Adjudication::default(),
        };
        let start = job.start.position();
        let base =
            |l: &chess960_arena::timecontrol::Limits| l.clock.map(|c| c.base).unwrap_or_default();
        let [white, black] = &job.clocks;
        let label = if white.pgn() == black.pgn() {
            white.pgn()
        } else {
            format!("{}/{}", white.pgn(), black.pgn())
        };
        self.broadcast.begin(
            job.round,
            job.board,
            [&job.names[0], &job.names[1]],
            job.start.get(),
            &start,
            label,
            [base(white), base(black)],
        );
        (self.progress)(&Progress::Started {
            round: job.round,
            board: job.board,
            names: job.names.clone(),
            start_id: job.start.get(),
        });
        let record = self.referee(&job, setup, stop);
        let Some(result) = board_result(&record) else {
            // Stopped before its end: played again next time, from the start.
            self.broadcast.abandon(job.round, job.board);
            return Ok(());
        };
        let round = format!("{}.{}", job.round, job.board);
        let import = to_import(&record, &job.event, &self.site, &round);
        let id = match self
            .store
            .import_games(std::slice::from_ref(&import))?
            .first()
        {
            Some(ImportOutcome::Added(id) | ImportOutcome::Duplicate(id)) => *id,
            None => {
                return Err(StoreError::Backend("the game was not stored".into()).into());
            }
        };
        let key = self
            .store
            .game(id)?
            .map(|g| g.key.as_str().to_string())
            .ok_or_else(|| StoreError::Backend("the game just stored is not there".into()))?;
        self.record_result(&job, result, &key)?;
        self.broadcast.finish(
            job.round,
            job.board,
            record.result.as_str(),
            &record.reason,
            Some(key.clone()),
        );
        (self.progress)(&Progress::Game(GameDone {
            round: job.round,
            board: job.board,
            white: job.names[0].clone(),
            black: job.names[1].clone(),
            result: record.result.as_str().to_string(),
            reason: record.reason.clone(),
            plies: record.moves.len(),
            key,
            fault: record.fault.as_ref().map(|(c, f)| (*c, f.kind())),
        }));
        Ok(())
    }

    /// Starts the two engines and has the referee play the game; an engine that cannot start
    /// loses it (with the reason).
    fn referee(&self, job: &Job, setup: GameSetup, stop: &AtomicBool) -> GameRecord {
        let mut white = match Engine::start(&job.engines[0], None, stop) {
            Ok(e) => e,
            Err(f) => return GameRecord::forfeited(setup, Color::White, f),
        };
        let mut black = match Engine::start(&job.engines[1], None, stop) {
            Ok(e) => e,
            Err(f) => {
                white.quit();
                return GameRecord::forfeited(setup, Color::Black, f);
            }
        };
        let watch = self.broadcast.watcher(job.round, job.board);
        let record = play_game_watched(&mut white, &mut black, setup, stop, Some(&watch));
        white.quit();
        black.quit();
        record
    }

    /// Enters the game and its result on its board, unless the arbiter changed the board
    /// meanwhile (another pairing, a result entered by hand): the game then stays in the
    /// database only.
    fn record_result(
        &self,
        job: &Job,
        result: chess960_events::round::BoardResult,
        key: &str,
    ) -> Result<(), DirectorError> {
        loop {
            let mut s = self.load()?;
            let Some(board) = s
                .event
                .played
                .get_mut(job.round as usize - 1)
                .and_then(|r| r.boards.get_mut(job.board as usize - 1))
            else {
                return Ok(());
            };
            if board.result.is_some()
                || board.game.is_some()
                || (board.white, board.black) != job.players
            {
                return Ok(());
            }
            board.game = Some(key.to_string());
            s.event.set_result(job.round, job.board, Some(result))?;
            if self.save(&s)? {
                return Ok(());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chess960_events::event::{BoardResult, Event, Format, Player, Side};

    fn director(store: Arc<dyn GameStore>, key: &str) -> Director {
        Director {
            store,
            event: key.to_string(),
            slots: Arc::new(Slots::new(1)),
            stop: Arc::new(AtomicBool::new(false)),
            broadcast: Arc::new(Broadcast::new()),
            site: "test".into(),
            timeout: Duration::from_secs(1),
            progress: Box::new(|_| {}),
        }
    }

    /// Two engines nobody registered: an event still to play waits, saying so, before it
    /// pairs anything; one already over is over.
    #[test]
    fn an_unregistered_engine_stops_nothing_but_the_games_it_would_play() {
        let dir = tempfile::tempdir().unwrap();
        let store: Arc<dyn GameStore> =
            Arc::from(chess960_store::open(Some(&dir.path().join("g.sqlite3"))).unwrap());
        let events = store.event_store().unwrap();
        let mut e = Event::new("E", Format::RoundRobin { cycles: 1 }, 0, Side::White).unwrap();
        e.time_control = "1+1".into();
        for name in ["A", "B"] {
            e.add_player(Player {
                engine: Some(name.into()),
                ..Player::named(name)
            })
            .unwrap();
        }
        let s = events.create_event(&e, None).unwrap();
        let d = director(Arc::clone(&store), &s.key);
        match d.run().unwrap() {
            Ended::Waiting(why) => {
                assert!(why.contains("A's engine \"A\" is not registered"), "{why}")
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(
            events.event(&s.key).unwrap().event.rounds_paired(),
            0,
            "nothing done"
        );
        assert!(d.broadcast.view().status.starts_with("waiting: "));

        e.pair(1, 1).unwrap();
        e.set_result(1, 1, Some(BoardResult::Draw)).unwrap();
        let s = events.create_event(&e, None).unwrap();
        let d = director(Arc::clone(&store), &s.key);
        assert_eq!(d.run().unwrap(), Ended::Finished);
        assert_eq!(d.broadcast.view().status, "finished");
    }

    /// An arbiter's change on the server (load, change and save under the event's write
    /// lock) is never refused because the director saved the event in between: the director
    /// saves under the same lock, and takes its step again when the arbiter's change came
    /// first. Eight engines that fail at once make a save every few milliseconds.
    #[test]
    fn an_arbiters_change_is_never_refused_for_the_directors_saves() {
        use chess960_store::engines::{EngineProtocol, RegisteredEngine};
        let dir = tempfile::tempdir().unwrap();
        let store: Arc<dyn GameStore> =
            Arc::from(chess960_store::open(Some(&dir.path().join("g.sqlite3"))).unwrap());
        let events = store.event_store().unwrap();
        let mut e = Event::new("E", Format::RoundRobin { cycles: 2 }, 0, Side::White).unwrap();
        e.time_control = "1+1".into();
        for k in 0..8 {
            let name = format!("Gone {k}");
            store
                .engine_store()
                .unwrap()
                .add_engine(&RegisteredEngine {
                    name: name.clone(),
                    command: "false".into(),
                    args: vec![],
                    dir: None,
                    protocol: EngineProtocol::Uci,
                    options: vec![],
                    added_ms: 0,
                })
                .unwrap();
            e.add_player(Player {
                engine: Some(name.clone()),
                ..Player::named(&name)
            })
            .unwrap();
        }
        let key = events.create_event(&e, None).unwrap().key;
        let d = director(Arc::clone(&store), &key);
        let done = AtomicBool::new(false);
        let changes = std::thread::scope(|scope| {
            scope.spawn(|| {
                assert_eq!(d.run().unwrap(), Ended::Finished);
                done.store(true, Ordering::SeqCst);
            });
            let mut changes = 0;
            while !done.load(Ordering::SeqCst) {
                let _one = chess960_store::events::write_lock(&key);
                let mut s = events.event(&key).unwrap();
                std::thread::sleep(Duration::from_millis(2));
                s.event.city = format!("change {changes}");
                if let Err(e) = events.save_event(s.id, s.revision, &s.event) {
                    panic!("the arbiter's change {changes} was refused: {e}");
                }
                changes += 1;
            }
            changes
        });
        assert!(changes > 0);
        let s = events.event(&key).unwrap();
        assert_eq!(s.event.played.len(), 14);
        assert!(s
            .event
            .played
            .iter()
            .all(|r| r.boards_without_result().is_empty()));
    }
}
