//! What the referee needs from an engine, whatever its protocol: configuration, the turn it is
//! asked to play, its reply, and the faults that cost it the game.

use crate::process::{DebugLog, Spawn};
use crate::timecontrol::{seconds, Clock, Limits};
use crate::uci::UciEngine;
use crate::xboard::XboardEngine;
use chess960_core::{Color, Game, Move, Position};
use std::fmt;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// The engine protocol.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Protocol {
    /// The Universal Chess Interface.
    #[default]
    Uci,
    /// The Chess Engine Communication Protocol (xboard/WinBoard), version 2.
    Xboard,
}

impl fmt::Display for Protocol {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Protocol::Uci => "uci",
            Protocol::Xboard => "xboard",
        })
    }
}

/// How to run one engine of the match (`-engine cmd=… name=… …`).
#[derive(Debug, Clone)]
pub struct EngineConfig {
    /// The name in the PGN and the tables; `None`: the engine's own (`id name`, `myname`), or
    /// the command's file name.
    pub name: Option<String>,
    /// The program, arguments, working directory.
    pub spawn: Spawn,
    /// The protocol.
    pub proto: Protocol,
    /// Engine options to set (`option.NAME=VALUE`), in order.
    pub options: Vec<(String, String)>,
    /// Time control and search limits.
    pub limits: Limits,
    /// Restart the engine before every game (`restart=on`), not only after a fault.
    pub restart: bool,
    /// How long to wait for a reply that no clock limits: the handshake, `readyok`, and moves
    /// under `nodes=`/`depth=` without a clock. Past it the engine has hung.
    pub timeout: Duration,
    /// Lines sent to an xboard engine after the handshake (`initstr=`).
    pub init_strings: Vec<String>,
    /// The xboard engine reports scores from White's point of view (`whitepov=true`).
    pub white_pov: bool,
}

impl EngineConfig {
    /// The `Threads` (UCI) or `cores` option, if set: how many cores the engine will use.
    pub fn threads(&self) -> usize {
        self.options
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case("Threads") || k.eq_ignore_ascii_case("cores"))
            .and_then(|(_, v)| v.trim().parse::<usize>().ok())
            .unwrap_or(1)
            .max(1)
    }

    /// The name to show before the engine has told its own: the configured one, or the
    /// command's file name.
    pub fn fallback_name(&self) -> String {
        if let Some(n) = &self.name {
            return n.clone();
        }
        std::path::Path::new(&self.spawn.cmd)
            .file_name()
            .map(|f| f.to_string_lossy().into_owned())
            .unwrap_or_else(|| self.spawn.cmd.clone())
    }
}

/// An engine's evaluation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Score {
    /// Centipawns, from the engine's point of view.
    Cp(i32),
    /// Mate in `n` moves (`n > 0`: the engine mates; `n <= 0`: it is mated).
    Mate(i32),
}

impl Score {
    /// The score as centipawns, mates as ±30000 less the distance: what adjudication compares.
    pub fn centipawns(self) -> i32 {
        match self {
            Score::Cp(c) => c,
            Score::Mate(n) if n > 0 => 30_000 - n,
            Score::Mate(n) => -30_000 - n,
        }
    }

    /// The score negated (the other side's point of view).
    pub fn flipped(self) -> Score {
        match self {
            Score::Cp(c) => Score::Cp(c.saturating_neg()),
            Score::Mate(n) => Score::Mate(n.saturating_neg()),
        }
    }

    /// As cutechess writes it in PGN comments: `+0.35`, `-1.20`, `+M5`, `-M3`.
    pub fn pgn(self) -> String {
        match self {
            Score::Cp(c) => {
                let sign = if c < 0 { '-' } else { '+' };
                let a = c.unsigned_abs();
                format!("{sign}{}.{:02}", a / 100, a % 100)
            }
            Score::Mate(n) if n > 0 => format!("+M{n}"),
            Score::Mate(n) => format!("-M{}", n.unsigned_abs()),
        }
    }
}

/// What an engine said about its search for one move.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SearchInfo {
    /// The last score (engine's point of view).
    pub score: Option<Score>,
    /// The depth reached.
    pub depth: Option<u32>,
    /// The selective depth.
    pub seldepth: Option<u32>,
    /// Nodes searched.
    pub nodes: Option<u64>,
    /// The time the engine says it used, in milliseconds.
    pub time_ms: Option<u64>,
    /// The principal variation, as the engine wrote it.
    pub pv: Vec<String>,
}

/// What the engine did on its turn.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Action {
    /// A legal move.
    Move(Move),
    /// It resigned.
    Resign,
    /// It claimed a result (xboard: `1-0 {White mates}`); the referee checks the claim.
    Claim {
        /// `1-0`, `0-1` or `1/2-1/2`.
        result: String,
        /// The engine's comment.
        comment: String,
    },
}

/// An engine's reply on its turn.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reply {
    /// What it did.
    pub action: Action,
    /// What it said about its search.
    pub info: SearchInfo,
    /// From the moment the engine was told to move to its reply, as the referee measured it.
    pub elapsed: Duration,
}

/// Why an engine lost the game (or could not play it). The text is what follows "White's
/// engine …" in the game's reason.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Fault {
    /// The process exited, crashed or closed its output.
    Crashed {
        /// `exit status 3`, `killed by signal 11 (SIGSEGV)`, or what is known.
        detail: String,
    },
    /// No reply before the deadline. With a clock this is a time forfeit, without one a hang.
    NoReply {
        /// What the referee was waiting for (`bestmove`, `uciok`, …).
        waiting_for: String,
        /// How long it waited.
        waited: Duration,
    },
    /// A move that is not legal in the position (wrong castling notation included).
    IllegalMove {
        /// The move as the engine sent it.
        text: String,
        /// Why it is not legal.
        reason: String,
    },
    /// Output that is not the protocol where a protocol reply was required, or a flood of
    /// unreadable lines.
    Garbage {
        /// The offending line (shortened).
        line: String,
    },
    /// An xboard engine refused a legal move with `Illegal move`.
    RejectedMove {
        /// The move it refused.
        mv: String,
        /// Its reply.
        line: String,
    },
    /// The engine could not be started or failed its handshake.
    Startup(String),
    /// The engine cannot play Chess960 this way (e.g. no `variant fischerandom`): a
    /// configuration error, not a game fault.
    Unsupported(String),
    /// The match is being stopped; no one's fault.
    Stopped,
}

impl Fault {
    /// Whether the engine process is dead or unresponsive (crash, hang, failed start): the
    /// faults after which cutechess stops the match unless `-recover` is given.
    pub fn is_crash(&self) -> bool {
        matches!(
            self,
            Fault::Crashed { .. } | Fault::NoReply { .. } | Fault::Startup(_)
        )
    }
}

impl Fault {
    /// A short stable name of the kind of fault, for JSON and tallies: `crash`, `no-reply`,
    /// `illegal-move`, `garbage`, `rejected-move`, `startup`, `unsupported`, `stopped`.
    pub fn kind(&self) -> &'static str {
        match self {
            Fault::Crashed { .. } => "crash",
            Fault::NoReply { .. } => "no-reply",
            Fault::IllegalMove { .. } => "illegal-move",
            Fault::Garbage { .. } => "garbage",
            Fault::RejectedMove { .. } => "rejected-move",
            Fault::Startup(_) => "startup",
            Fault::Unsupported(_) => "unsupported",
            Fault::Stopped => "stopped",
        }
    }
}

impl fmt::Display for Fault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Fault::Crashed { detail } => write!(f, "crashed ({detail})"),
            Fault::NoReply {
                waiting_for,
                waited,
            } => write!(
                f,
                "stopped responding (no {waiting_for} within {}s)",
                seconds(*waited)
            ),
            Fault::IllegalMove { text, reason } => {
                write!(f, "made an illegal move: {text} ({reason})")
            }
            Fault::Garbage { line } => write!(f, "sent garbage: '{line}'"),
            Fault::RejectedMove { mv, line } => {
                write!(f, "rejected the legal move {mv} ('{line}')")
            }
            Fault::Startup(why) => write!(f, "could not be started: {why}"),
            Fault::Unsupported(why) => write!(f, "cannot play Chess960: {why}"),
            Fault::Stopped => f.write_str("was stopped with the match"),
        }
    }
}

/// Who follows a game as it is played (a broadcast): told of each search report while an
/// engine thinks, and of each move once the referee has accepted it. Calls come from the
/// referee's thread, between reads of the engine's output: they must be quick.
pub trait Watch: Sync {
    /// `side`'s engine reported `info` (everything it said about this search so far), `elapsed`
    /// after it was asked to move.
    fn thinking(&self, side: Color, info: &SearchInfo, elapsed: Duration);
    /// `mv` (`san`) was played: what its engine said about it, the time it took, and both
    /// clocks after it (White first: time left, the increment added).
    fn moved(
        &self,
        mv: Move,
        san: &str,
        info: &SearchInfo,
        elapsed: Duration,
        clocks: [Duration; 2],
    );
}

impl fmt::Debug for dyn Watch + '_ {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Watch")
    }
}

/// The turn an engine is asked to play.
#[derive(Debug)]
pub struct Turn<'a> {
    /// The game so far (start position, moves, positions).
    pub game: &'a Game,
    /// White's clock.
    pub white: &'a Clock,
    /// Black's clock.
    pub black: &'a Clock,
    /// How long to wait for the reply before giving up on the engine.
    pub wait: Duration,
    /// The match's stop flag.
    pub stop: &'a AtomicBool,
    /// Who follows the engine's search as it goes, if anyone.
    pub watch: Option<&'a dyn Watch>,
}

impl Turn<'_> {
    /// Passes `info` to the watcher, if there is one.
    pub(crate) fn report(&self, info: &SearchInfo, started: std::time::Instant) {
        if let Some(w) = self.watch {
            w.thinking(self.side(), info, started.elapsed());
        }
    }

    /// The side to move.
    pub fn side(&self) -> Color {
        self.game.position().turn()
    }

    /// The clock of `color`.
    pub fn clock(&self, color: Color) -> &Clock {
        match color {
            Color::White => self.white,
            Color::Black => self.black,
        }
    }
}

/// A running engine of either protocol.
#[derive(Debug)]
pub enum Engine {
    /// A UCI engine.
    Uci(UciEngine),
    /// An xboard engine.
    Xboard(XboardEngine),
}

impl Engine {
    /// Starts the engine and completes the handshake.
    pub fn start(
        config: &EngineConfig,
        debug: Option<DebugLog>,
        stop: &AtomicBool,
    ) -> Result<Engine, Fault> {
        match config.proto {
            Protocol::Uci => UciEngine::start(config, debug, stop).map(Engine::Uci),
            Protocol::Xboard => XboardEngine::start(config, debug, stop).map(Engine::Xboard),
        }
    }

    /// The engine's name as it reports it (`id name`, `myname`), if it does.
    pub fn reported_name(&self) -> Option<&str> {
        match self {
            Engine::Uci(e) => e.reported_name(),
            Engine::Xboard(e) => e.reported_name(),
        }
    }

    /// The engine's author as it reports it (UCI's `id author`), if it does.
    pub fn reported_author(&self) -> Option<&str> {
        match self {
            Engine::Uci(e) => e.reported_author(),
            Engine::Xboard(_) => None,
        }
    }

    /// Warnings gathered at start-up (unknown options, no `UCI_Chess960`), for the user.
    pub fn warnings(&self) -> &[String] {
        match self {
            Engine::Uci(e) => e.warnings(),
            Engine::Xboard(e) => e.warnings(),
        }
    }

    /// Prepares a new game from `start`, the engine playing `color`.
    pub fn new_game(
        &mut self,
        start: &Position,
        color: Color,
        stop: &AtomicBool,
    ) -> Result<(), Fault> {
        match self {
            Engine::Uci(e) => e.new_game(stop),
            Engine::Xboard(e) => e.new_game(start, color, stop),
        }
    }

    /// Asks for a move.
    pub fn think(&mut self, turn: &Turn) -> Result<Reply, Fault> {
        match self {
            Engine::Uci(e) => e.think(turn),
            Engine::Xboard(e) => e.think(turn),
        }
    }

    /// Tells the engine the game is over.
    pub fn game_over(&mut self, result: &str, reason: &str) {
        match self {
            Engine::Uci(_) => {}
            Engine::Xboard(e) => e.game_over(result, reason),
        }
    }

    /// Stops the engine process (politely, then by force).
    pub fn quit(&mut self) {
        match self {
            Engine::Uci(e) => e.quit(),
            Engine::Xboard(e) => e.quit(),
        }
    }
}

/// The name of the side, for messages.
pub fn side_name(c: Color) -> &'static str {
    match c {
        Color::White => "White",
        Color::Black => "Black",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_as_cutechess_writes_them() {
        assert_eq!(Score::Cp(35).pgn(), "+0.35");
        assert_eq!(Score::Cp(-120).pgn(), "-1.20");
        assert_eq!(Score::Cp(0).pgn(), "+0.00");
        assert_eq!(Score::Cp(-5).pgn(), "-0.05");
        assert_eq!(Score::Mate(5).pgn(), "+M5");
        assert_eq!(Score::Mate(-3).pgn(), "-M3");
        assert!(Score::Mate(3).centipawns() > Score::Mate(5).centipawns());
        assert!(Score::Mate(-3).centipawns() < Score::Cp(-2000).centipawns());
    }
}
