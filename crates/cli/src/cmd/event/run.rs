//! `chess960 event run`: an engine event played to its end from the terminal, by the same
//! director as the server's ([`chess960_championship::director`]).

use super::{load, standings_text, Db};
use crate::error::{quote, CliError, CliResult};
use chess960_arena::runner::stop_on_ctrl_c;
use chess960_championship::director::{Director, Ended, Progress};
use chess960_championship::live::Broadcast;
use chess960_championship::slots::Slots;
use clap::Args;
use std::io::Write as _;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

/// `event run`.
#[derive(Debug, Args)]
#[command(
    about = "Play an engine event to its end: pairings, positions and every engine game",
    long_about = "Play the games of an event whose players are engines ('chess960 engine add', \
then 'chess960 event add EVENT NAME --engine ENGINE'): round after round, the command pairs, \
draws each position by the computer (or takes the event's list), adds a knockout's tiebreak \
games, and has every board whose two players are engines played by the match runner's referee \
at the board's time control, both colours where the format gives them. Each game is stored in \
the database with its moves, clocks and each engine's evaluation, and its result entered as \
soon as it ends; an engine that crashes, hangs, plays an illegal move or loses on time loses \
the game, with the reason in the game. The time control is the event's: 90+30 is 90 minutes \
and 30 seconds a move, 0:10+0.1 (cutechess's minutes:seconds) 10 seconds and 0.1 s a move.\n\n\
Stopped (Ctrl-C) or killed, it loses only the games in progress: run it again and it goes on \
where the database stands. It stops when the event is over (exit 0), or when a board waits for \
its arbiter (a person's game; an engine that is no longer registered), saying which.",
    after_help = "Example, a round robin of three engines:\n  \
chess960 engine add Stockfish --cmd /usr/games/stockfish --option Hash=64\n  \
chess960 engine add Ethereal --cmd /usr/games/ethereal-chess\n  \
chess960 engine add Random --cmd chess960-random-engine\n  \
chess960 event new \"Engines 960\" --round-robin --double --time-control 0:10+0.1\n  \
chess960 event add 1 Stockfish --engine Stockfish   (and the two others)\n  \
chess960 event run 1 --threads 2"
)]
pub struct RunArgs {
    /// The event.
    pub event: String,
    /// Games played at once (each keeps about one core busy).
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub threads: usize,
    /// Seconds an engine may take to start (and to answer where no clock runs).
    #[arg(long, value_name = "SECS", default_value_t = 10)]
    pub timeout: u64,
}

/// The most games at once.
const MAX_THREADS: usize = 256;

/// Runs `chess960 event run`.
pub(super) fn run(store: &Db, a: &RunArgs) -> CliResult<String> {
    if a.threads == 0 || a.threads > MAX_THREADS {
        return Err(CliError::new(format!(
            "--threads {}: 1 to {MAX_THREADS} games at once",
            a.threads
        )));
    }
    if a.timeout == 0 || a.timeout > 3600 {
        return Err(CliError::new(format!(
            "--timeout {}: 1 to 3600 seconds",
            a.timeout
        )));
    }
    // The event must exist; its key names it from here on (a number could be reused).
    let key = load(store, &a.event)?.key;
    let stop = Arc::new(AtomicBool::new(false));
    stop_on_ctrl_c(Arc::clone(&stop)).map_err(CliError::new)?;
    let director = Director {
        store: Arc::clone(&store.0),
        event: key.clone(),
        slots: Arc::new(Slots::new(a.threads)),
        stop,
        broadcast: Arc::new(Broadcast::new()),
        site: "chess960 event run".into(),
        timeout: Duration::from_secs(a.timeout),
        progress: Box::new(print_progress),
    };
    let ended = director
        .run()
        .map_err(|e| CliError::new(format!("event {}: {e}", quote(&a.event))))?;
    let s = load(store, &key)?;
    match ended {
        // A knockout's order is its bracket's, as `event standings` prints it.
        Ended::Finished if s.event.knockout_plan().is_some() => Ok(format!(
            "\n{} — final placings\n\n{}",
            s.event.name,
            super::knockout::placings_text(&s.event)
        )),
        Ended::Finished => Ok(format!("\n{}", standings_text(&s.event, true))),
        Ended::Waiting(why) => Err(CliError::new(format!(
            "event {} waits for its arbiter: {why}",
            quote(&a.event)
        ))),
        Ended::Stopped => Err(CliError::new(format!(
            "stopped: the games in progress were not kept; 'chess960 event run {}' goes on",
            a.event
        ))),
    }
}

/// One line per step and per game, as they happen.
fn print_progress(p: &Progress) {
    let line = match p {
        Progress::Step(what) => what.clone(),
        Progress::Started {
            round,
            board,
            names,
            start_id,
        } => format!(
            "round {round}, board {board}: {} – {} begins (position {start_id})",
            names[0], names[1]
        ),
        Progress::Game(g) => format!(
            "round {}, board {}: {} – {} {} ({}, {} moves)",
            g.round,
            g.board,
            g.white,
            g.black,
            g.result,
            g.reason,
            g.plies.div_ceil(2)
        ),
    };
    let mut out = std::io::stdout().lock();
    let _ = writeln!(out, "{line}");
    let _ = out.flush();
}

/// The registered engine `name` (its name as registered, whatever the case given).
pub(super) fn registered(store: &Db, name: &str) -> CliResult<String> {
    let registry = store.0.engine_store().ok_or_else(|| {
        CliError::new(format!(
            "the database {} keeps no engines",
            store.0.describe()
        ))
    })?;
    match registry.engine(name) {
        Ok(Some(e)) => Ok(e.name),
        Ok(None) => Err(CliError::new(format!(
            "no engine {} is registered (see 'chess960 engine list'; 'chess960 engine add' registers one)",
            quote(name)
        ))),
        Err(e) => Err(CliError::new(e.to_string())),
    }
}
