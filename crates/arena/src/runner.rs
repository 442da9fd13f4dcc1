//! The match runner: worker threads (`-concurrency`), each with its own engine processes,
//! play the scheduled games; the main thread collects the results, appends the PGN, prints
//! progress, keeps the standings and the SPRT, and stops the match on a decision, on a crash
//! without `-recover`, or on Ctrl-C, writing what was played.

use crate::engine::{Engine, EngineConfig, Fault};
use crate::openings::{Openings, OpeningsSpec};
use crate::pgnout::{pgn_text, PgnContext};
use crate::process::DebugLog;
use crate::referee::{play_game, Adjudication, GameRecord, GameResult, GameSetup};
use crate::schedule::{encounters, schedule, ScheduledGame, Tournament};
use crate::stats::{Pentanomial, Sprt, SprtState, Tally};
use chess960_core::Color;
use std::collections::{HashMap, VecDeque};
use std::fmt;
use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{channel, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

/// `-pgnout FILE [min]`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PgnOut {
    /// The file; games are appended as they finish.
    pub path: PathBuf,
    /// Without per-move comments.
    pub minimal: bool,
}

/// Everything a match needs.
#[derive(Debug, Clone)]
pub struct MatchConfig {
    /// The engines, two or more.
    pub engines: Vec<EngineConfig>,
    /// Round robin or gauntlet.
    pub tournament: Tournament,
    /// Games per encounter per round.
    pub games: u32,
    /// Rounds.
    pub rounds: u32,
    /// Games per opening (colours alternate); 2 plays each opening with both colours.
    pub repeat: u32,
    /// Games played at the same time.
    pub concurrency: usize,
    /// Where games start.
    pub openings: OpeningsSpec,
    /// The seed of random openings.
    pub seed: u64,
    /// `-draw`, `-resign`, `-maxmoves`.
    pub adjudication: Adjudication,
    /// `-sprt`.
    pub sprt: Option<Sprt>,
    /// Restart crashed engines and go on (`-recover`).
    pub recover: bool,
    /// `-pgnout`.
    pub pgnout: Option<PgnOut>,
    /// The PGN `Event`.
    pub event: String,
    /// The PGN `Site`.
    pub site: String,
    /// Print the Elo estimate every N games (0: never).
    pub rating_interval: u32,
    /// Echo all engine traffic to standard error (`-debug`).
    pub debug: bool,
    /// No progress output on standard error.
    pub quiet: bool,
}

impl Default for MatchConfig {
    fn default() -> MatchConfig {
        MatchConfig {
            engines: Vec::new(),
            tournament: Tournament::RoundRobin,
            games: 2,
            rounds: 1,
            repeat: 2,
            concurrency: 1,
            openings: OpeningsSpec::Random,
            seed: 0,
            adjudication: Adjudication::default(),
            sprt: None,
            recover: false,
            pgnout: None,
            event: "Chess960 match".to_string(),
            site: String::new(),
            rating_interval: 10,
            debug: false,
            quiet: false,
        }
    }
}

/// A match that could not be run at all.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MatchError {
    /// An engine failed before the first game (missing program, not an engine, no Chess960).
    Engine {
        /// How the engine is known (its `name=` or command).
        engine: String,
        /// What went wrong.
        fault: Fault,
    },
    /// The openings could not be read.
    Openings(String),
    /// The PGN file could not be opened.
    Pgn(String),
    /// Something else about the configuration.
    Config(String),
}

impl fmt::Display for MatchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MatchError::Engine { engine, fault } => write!(f, "engine '{engine}' {fault}"),
            MatchError::Openings(m) | MatchError::Pgn(m) | MatchError::Config(m) => f.write_str(m),
        }
    }
}

impl std::error::Error for MatchError {}

/// One finished (or stopped) game with its place in the schedule.
#[derive(Debug, Clone)]
pub struct Played {
    /// The encounter (pairing) index.
    pub encounter: usize,
    /// The place in the encounter's sequence.
    pub index: u64,
    /// White's engine index.
    pub white: usize,
    /// Black's engine index.
    pub black: usize,
    /// The game.
    pub record: GameRecord,
}

/// The results of one pairing, from the first engine's point of view.
#[derive(Debug, Clone, Default)]
pub struct Standing {
    /// The first engine.
    pub a: usize,
    /// The second engine.
    pub b: usize,
    /// All games.
    pub total: Tally,
    /// Games with `a` as White.
    pub a_white: Tally,
    /// Games with `a` as Black.
    pub a_black: Tally,
    /// All games from White's point of view.
    pub white_black: Tally,
    /// Game pairs (same opening, colours reversed).
    pub pairs: Pentanomial,
    pending: HashMap<u64, f64>,
}

impl Standing {
    fn add(&mut self, p: &Played, paired: bool) {
        let white_points = match p.record.result {
            GameResult::WhiteWins => 1.0,
            GameResult::BlackWins => 0.0,
            GameResult::Draw => 0.5,
            GameResult::Unknown => {
                // An unfinished game breaks its pair.
                self.pending.remove(&(p.index / 2));
                return;
            }
        };
        let a_points = if p.white == self.a {
            white_points
        } else {
            1.0 - white_points
        };
        self.total.add(a_points);
        if p.white == self.a {
            self.a_white.add(a_points);
        } else {
            self.a_black.add(a_points);
        }
        self.white_black.add(white_points);
        if paired {
            let key = p.index / 2;
            if let Some(first) = self.pending.remove(&key) {
                self.pairs.add(first, a_points);
            } else {
                self.pending.insert(key, a_points);
            }
        }
    }
}

/// What a match produced.
#[derive(Debug, Clone)]
pub struct MatchReport {
    /// The engines' names, in `-engine` order.
    pub names: Vec<String>,
    /// The games, in the order they finished.
    pub played: Vec<Played>,
    /// How many games the schedule had.
    pub planned: usize,
    /// Why the match ended early, if it did.
    pub stopped: Option<String>,
    /// One per pairing.
    pub standings: Vec<Standing>,
    /// The SPRT parameters.
    pub sprt: Option<Sprt>,
    /// The seed used.
    pub seed: u64,
    /// Warnings for the user (engine options, oversubscription).
    pub warnings: Vec<String>,
    /// How long the match took.
    pub elapsed: Duration,
    /// The tournament kind.
    pub tournament: Tournament,
}

/// Installs a Ctrl-C handler: the first Ctrl-C sets `stop` (games in progress are abandoned,
/// what was played is written); a second one exits at once with status 130.
pub fn stop_on_ctrl_c(stop: Arc<AtomicBool>) -> Result<(), String> {
    let presses = AtomicUsize::new(0);
    ctrlc::set_handler(move || {
        if presses.fetch_add(1, Ordering::SeqCst) == 0 {
            stop.store(true, Ordering::SeqCst);
            eprintln!(
                "\nchess960: stopping the match (games in progress are abandoned; the PGN and \
                 summary of finished games are written). Ctrl-C again quits at once."
            );
        } else {
            std::process::exit(130);
        }
    })
    .map_err(|e| format!("cannot install the Ctrl-C handler: {e}"))
}

enum Msg {
    Started,
    /// A finished game, and where to say it has been taken into account: the worker waits for
    /// that before its next game, so that a decision (SPRT, a crash without -recover) stops
    /// the match before a game that would only be abandoned.
    Done(Box<Played>, Sender<()>),
}

/// Runs a match. `stop` may be set from outside (Ctrl-C) to end it early.
pub fn run_match(config: &MatchConfig, stop: Arc<AtomicBool>) -> Result<MatchReport, MatchError> {
    let t0 = Instant::now();
    if config.engines.len() < 2 {
        return Err(MatchError::Config(
            "a match needs at least two engines (-engine cmd=… twice)".to_string(),
        ));
    }
    let mut openings = Openings::load(&config.openings, config.seed)
        .map_err(|e| MatchError::Openings(e.to_string()))?;
    let games = schedule(
        config.engines.len(),
        config.tournament,
        config.games,
        config.rounds,
        config.repeat,
        &mut openings,
    );
    let planned = games.len();

    let mut pgn_file = match &config.pgnout {
        Some(out) => Some(
            std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(&out.path)
                .map_err(|e| MatchError::Pgn(format!("cannot open {}: {e}", out.path.display())))?,
        ),
        None => None,
    };

    // Start every engine once before the match: a wrong command, a program that is not an
    // engine or an engine without Chess960 is reported now, as a usage error, not as a
    // match of forfeits. It also gives the engines' own names.
    let mut warnings = Vec::new();
    let mut names = Vec::new();
    for cfg in &config.engines {
        let label = cfg.fallback_name();
        let mut engine =
            Engine::start(cfg, debug_log(config, &label, t0), &stop).map_err(|fault| {
                MatchError::Engine {
                    engine: label.clone(),
                    fault,
                }
            })?;
        let name = cfg
            .name
            .clone()
            .or_else(|| engine.reported_name().map(str::to_string))
            .unwrap_or(label);
        for w in engine.warnings() {
            warnings.push(format!("engine '{name}' {w}"));
        }
        engine.quit();
        names.push(name);
    }
    unique_names(&mut names);

    let cores = thread::available_parallelism().map_or(1, |n| n.get());
    let per_game = config
        .engines
        .iter()
        .map(EngineConfig::threads)
        .max()
        .unwrap_or(1);
    let concurrency = config.concurrency.max(1).min(planned.max(1));
    if concurrency * per_game > cores {
        warnings.push(format!(
            "-concurrency {concurrency} with engines using up to {per_game} thread(s) needs \
             {} cores, this machine has {cores}: engines will compete for cores, which \
             distorts timed games",
            concurrency * per_game
        ));
    }
    if !config.quiet {
        for w in &warnings {
            eprintln!("warning: {w}");
        }
    }

    let pairings = encounters(config.engines.len(), config.tournament);
    let mut standings: Vec<Standing> = pairings
        .iter()
        .map(|&(a, b)| Standing {
            a,
            b,
            ..Standing::default()
        })
        .collect();
    let paired = config.repeat % 2 == 0;

    let queue: Arc<Mutex<VecDeque<ScheduledGame>>> = Arc::new(Mutex::new(games.into()));
    let names = Arc::new(names);
    let (tx, rx) = channel::<Msg>();
    let mut workers = Vec::new();
    for _ in 0..concurrency {
        let queue = Arc::clone(&queue);
        let names = Arc::clone(&names);
        let stop = Arc::clone(&stop);
        let tx = tx.clone();
        let config = config.clone();
        workers.push(thread::spawn(move || {
            worker(&config, &names, &queue, &stop, &tx, t0);
        }));
    }
    drop(tx);

    let ctx = PgnContext {
        event: config.event.clone(),
        site: config.site.clone(),
        minimal: config.pgnout.as_ref().is_some_and(|p| p.minimal),
    };
    let mut progress = Progress::new(config.quiet);
    let mut played: Vec<Played> = Vec::new();
    let mut stopped: Option<String> = None;
    let mut running = 0usize;
    loop {
        match rx.recv_timeout(Duration::from_millis(250)) {
            Ok(Msg::Started) => running += 1,
            Ok(Msg::Done(p, ack)) => {
                running = running.saturating_sub(1);
                let p = *p;
                if let Some(f) = pgn_file.as_mut() {
                    if let Err(e) = f.write_all(pgn_text(&p.record, &ctx).as_bytes()) {
                        warnings.push(format!("cannot write the PGN file: {e}"));
                    }
                }
                if let Some(s) = standings.get_mut(p.encounter) {
                    s.add(&p, paired);
                }
                progress.finished(&p, &names, played.len() + 1, planned);
                if let Some((color, fault)) = &p.record.fault {
                    // A hang under a clock is a time forfeit, not a crash.
                    let crash = fault.is_crash()
                        && p.record.termination != crate::referee::TerminationKind::TimeForfeit;
                    if crash && !config.recover && stopped.is_none() {
                        let idx = if *color == Color::White {
                            p.white
                        } else {
                            p.black
                        };
                        stopped = Some(format!(
                            "engine '{}' {fault} in game {}; use -recover to restart crashed \
                             engines and go on",
                            names[idx], p.record.setup.number
                        ));
                        stop.store(true, Ordering::SeqCst);
                    }
                }
                played.push(p);
                if config.engines.len() == 2 {
                    progress.score(&names, &standings[0], config.sprt.as_ref());
                }
                let finished = played
                    .iter()
                    .filter(|p| p.record.result != GameResult::Unknown)
                    .count();
                if config.rating_interval > 0
                    && finished > 0
                    && finished % config.rating_interval as usize == 0
                {
                    for s in &standings {
                        progress.elo(&names, s);
                    }
                }
                if let (Some(sprt), Some(s)) = (config.sprt.as_ref(), standings.first()) {
                    let st = sprt.status(&s.total, &s.pairs);
                    if st.state != SprtState::Continue && stopped.is_none() {
                        stopped = Some(format!("SPRT: {}", st.state.describe()));
                        stop.store(true, Ordering::SeqCst);
                    }
                }
                progress.status(&names, &standings, played.len(), planned, running, t0);
                let _ = ack.send(());
            }
            Err(RecvTimeoutError::Timeout) => {
                progress.status(&names, &standings, played.len(), planned, running, t0)
            }
            Err(RecvTimeoutError::Disconnected) => break,
        }
    }
    for w in workers {
        let _ = w.join();
    }
    progress.clear();
    if let Some(f) = pgn_file.as_mut() {
        let _ = f.flush();
    }
    if stopped.is_none() && stop.load(Ordering::SeqCst) {
        stopped = Some("interrupted".to_string());
    }
    Ok(MatchReport {
        names: names.to_vec(),
        played,
        planned,
        stopped,
        standings,
        sprt: config.sprt,
        seed: config.seed,
        warnings,
        elapsed: t0.elapsed(),
        tournament: config.tournament,
    })
}

fn debug_log(config: &MatchConfig, label: &str, epoch: Instant) -> Option<DebugLog> {
    config.debug.then(|| DebugLog {
        label: label.to_string(),
        epoch,
    })
}

/// Makes names unique for the tables: a repeated name gets ` (2)`, ` (3)`, ….
fn unique_names(names: &mut [String]) {
    for i in 1..names.len() {
        let mut n = 2;
        let base = names[i].clone();
        while names[..i].contains(&names[i]) {
            names[i] = format!("{base} ({n})");
            n += 1;
        }
    }
}

/// One worker: its own engine processes, games from the queue until it is empty or the match
/// stops.
fn worker(
    config: &MatchConfig,
    names: &[String],
    queue: &Mutex<VecDeque<ScheduledGame>>,
    stop: &AtomicBool,
    tx: &Sender<Msg>,
    epoch: Instant,
) {
    let mut engines: Vec<Option<Engine>> = config.engines.iter().map(|_| None).collect();
    let (ack_tx, ack_rx) = channel::<()>();
    loop {
        if stop.load(Ordering::SeqCst) {
            break;
        }
        let Some(g) = queue.lock().ok().and_then(|mut q| q.pop_front()) else {
            break;
        };
        let _ = tx.send(Msg::Started);
        let setup = GameSetup {
            number: g.number,
            round: g.round,
            opening: g.opening.clone(),
            names: [names[g.white].clone(), names[g.black].clone()],
            limits: [
                config.engines[g.white].limits,
                config.engines[g.black].limits,
            ],
            timeouts: [
                config.engines[g.white].timeout,
                config.engines[g.black].timeout,
            ],
            adjudication: config.adjudication,
        };
        let mut failed = None;
        for (color, idx) in [(Color::White, g.white), (Color::Black, g.black)] {
            if engines[idx].is_none() {
                match Engine::start(
                    &config.engines[idx],
                    debug_log(config, &names[idx], epoch),
                    stop,
                ) {
                    Ok(e) => engines[idx] = Some(e),
                    Err(f) => {
                        failed = Some((color, f));
                        break;
                    }
                }
            }
        }
        let record = match failed {
            Some((color, fault)) => GameRecord::forfeited(setup, color, fault),
            None => {
                // Two distinct engines (an engine never plays itself in a schedule).
                let (w, b) = two_mut(&mut engines, g.white, g.black);
                match (w, b) {
                    (Some(Some(w)), Some(Some(b))) => play_game(w, b, setup, stop),
                    _ => GameRecord::forfeited(setup, Color::White, Fault::Stopped),
                }
            }
        };
        if let Some((color, _)) = &record.fault {
            // The engine at fault is restarted for its next game: its state is unknown.
            let idx = if *color == Color::White {
                g.white
            } else {
                g.black
            };
            if let Some(mut e) = engines[idx].take() {
                e.quit();
            }
        }
        for idx in [g.white, g.black] {
            if config.engines[idx].restart {
                if let Some(mut e) = engines[idx].take() {
                    e.quit();
                }
            }
        }
        let played = Played {
            encounter: g.encounter,
            index: g.index,
            white: g.white,
            black: g.black,
            record,
        };
        if tx
            .send(Msg::Done(Box::new(played), ack_tx.clone()))
            .is_err()
            || ack_rx.recv().is_err()
        {
            break;
        }
    }
    for mut e in engines.into_iter().flatten() {
        e.quit();
    }
}

/// Two distinct elements of a slice, mutably.
fn two_mut<T>(v: &mut [T], i: usize, j: usize) -> (Option<&mut T>, Option<&mut T>) {
    if i == j || i >= v.len() || j >= v.len() {
        return (None, None);
    }
    if i < j {
        let (lo, hi) = v.split_at_mut(j);
        (Some(&mut lo[i]), Some(&mut hi[0]))
    } else {
        let (lo, hi) = v.split_at_mut(i);
        (Some(&mut hi[0]), Some(&mut lo[j]))
    }
}

/// Progress on standard error: a line per finished game, the score, and (on a terminal) a
/// live status line.
struct Progress {
    quiet: bool,
    tty: bool,
    status_shown: bool,
}

impl Progress {
    fn new(quiet: bool) -> Progress {
        Progress {
            quiet,
            tty: std::io::stderr().is_terminal(),
            status_shown: false,
        }
    }

    fn print(&mut self, line: &str) {
        if self.quiet {
            return;
        }
        self.clear();
        eprintln!("{line}");
    }

    fn clear(&mut self) {
        if self.status_shown {
            eprint!("\r\x1b[K");
            self.status_shown = false;
        }
    }

    fn finished(&mut self, p: &Played, names: &[String], done: usize, planned: usize) {
        let r = &p.record;
        let start = match r.setup.opening.start_id() {
            Some(id) => format!("start {id}"),
            None => r.setup.opening.label.clone(),
        };
        self.print(&format!(
            "Finished game {} ({done}/{planned}) ({} vs {}, {start}): {} {{{}}}",
            r.setup.number,
            names[p.white],
            names[p.black],
            r.result.as_str(),
            r.reason
        ));
    }

    fn score(&mut self, names: &[String], s: &Standing, sprt: Option<&Sprt>) {
        let t = &s.total;
        let mut line = format!(
            "Score of {} vs {}: {} - {} - {}  [{:.3}] {}",
            names[s.a],
            names[s.b],
            t.wins,
            t.losses,
            t.draws,
            t.score().unwrap_or(0.5),
            t.games()
        );
        if let Some(sprt) = sprt {
            let st = sprt.status(&s.total, &s.pairs);
            line.push_str(&format!(
                ", SPRT llr {:.2} ({})",
                st.llr,
                st.state.describe()
            ));
        }
        self.print(&line);
    }

    fn elo(&mut self, names: &[String], s: &Standing) {
        if let Some(e) = s.total.elo() {
            self.print(&format!(
                "Elo difference {} vs {}: {}",
                names[s.a],
                names[s.b],
                crate::report::elo_text(&e)
            ));
        }
    }

    fn status(
        &mut self,
        names: &[String],
        standings: &[Standing],
        done: usize,
        planned: usize,
        running: usize,
        t0: Instant,
    ) {
        if self.quiet || !self.tty {
            return;
        }
        let secs = t0.elapsed().as_secs();
        let mut line = format!(
            "[{done}/{planned} games, {running} running, {}]",
            crate::pgnout::hms(secs)
        );
        if let [s] = standings {
            line.push_str(&format!(
                " {} vs {}: {} - {} - {}",
                names[s.a], names[s.b], s.total.wins, s.total.losses, s.total.draws
            ));
        }
        eprint!("\r\x1b[K{line}");
        let _ = std::io::stderr().flush();
        self.status_shown = true;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_become_unique() {
        let mut n = vec![
            "a".to_string(),
            "a".to_string(),
            "b".to_string(),
            "a".into(),
        ];
        unique_names(&mut n);
        assert_eq!(n, vec!["a", "a (2)", "b", "a (3)"]);
    }

    #[test]
    fn two_mut_works_both_ways() {
        let mut v = vec![1, 2, 3];
        let (a, b) = two_mut(&mut v, 2, 0);
        std::mem::swap(a.unwrap(), b.unwrap());
        assert_eq!(v, vec![3, 2, 1]);
        assert!(two_mut(&mut v, 1, 1).0.is_none());
    }
}
