//! The UCI protocol: reads commands, runs searches on a background thread, prints results.
//!
//! Malformed commands are ignored with a reason on stderr; `isready` is answered at once even
//! while a search runs, because the search has its own thread.

use crate::search::{Limits, Outcome, Report, Searcher, Shared, MATE, MATE_BOUND};
use crate::time::{self, Clock, Deadlines};
use crate::tt::{Bound, Table};
use chess960_core::{CastlingMode, Move, Position, StartId, Validation};
use std::io::{BufRead, Write};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// Engine name and version as reported to GUIs.
pub const NAME: &str = concat!("chess960-engine ", env!("CARGO_PKG_VERSION"));

/// UCI options.
#[derive(Clone, Debug)]
pub struct Options {
    /// Transposition table size in MiB.
    pub hash_mb: usize,
    /// Search threads.
    pub threads: usize,
    /// Lines to report.
    pub multipv: usize,
    /// Milliseconds kept in reserve per move for GUI and network delays.
    pub move_overhead: u64,
    /// The GUI may send `go ponder`.
    pub ponder: bool,
    /// Castling as king onto rook (true) or the king's destination (false).
    pub chess960: bool,
    /// Play weaker, at about `elo`.
    pub limit_strength: bool,
    /// Target strength when `limit_strength` is on.
    pub elo: u32,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            hash_mb: 16,
            threads: 1,
            multipv: 1,
            move_overhead: 10,
            ponder: false,
            chess960: false,
            limit_strength: false,
            elo: ELO_MAX,
        }
    }
}

/// The calibration of `UCI_Elo`: nodes per move and the strength they showed in Chess960 at
/// 10s+0.1s against Stockfish 15.1 limited by its own `UCI_Elo` (docs/strength.md, "Calibration
/// of UCI_Elo"), weakest first. One node means a complete 1-ply search and nothing more (the
/// node limit waits for depth 1). Between two points the node count grows geometrically.
pub const ELO_CALIBRATION: [(u32, u64); 6] = [
    (1110, 1),
    (1250, 200),
    (1430, 1_024),
    (1790, 10_000),
    (1890, 100_000),
    (1950, 300_000),
];

/// Lowest `UCI_Elo`: the weakest calibrated point.
pub const ELO_MIN: u32 = ELO_CALIBRATION[0].0;
/// Highest `UCI_Elo`: the largest calibrated budget (the unlimited engine is stronger still).
pub const ELO_MAX: u32 = ELO_CALIBRATION[ELO_CALIBRATION.len() - 1].0;

/// Nodes per move allowed at a given `UCI_Elo` (clamped to [`ELO_MIN`]..=[`ELO_MAX`]),
/// interpolated in [`ELO_CALIBRATION`].
pub fn nodes_for_elo(elo: u32) -> u64 {
    let elo = elo.clamp(ELO_MIN, ELO_MAX);
    let upper = ELO_CALIBRATION
        .iter()
        .position(|&(e, _)| e >= elo)
        .unwrap_or(ELO_CALIBRATION.len() - 1)
        .max(1);
    let (e0, n0) = ELO_CALIBRATION[upper - 1];
    let (e1, n1) = ELO_CALIBRATION[upper];
    let t = (elo - e0) as f64 / (e1 - e0) as f64;
    let (l0, l1) = ((n0 as f64).ln(), (n1 as f64).ln());
    (l0 + t * (l1 - l0)).exp().round() as u64
}

/// The protocol state.
pub struct Uci<W: Write + Send + 'static> {
    out: Arc<Mutex<W>>,
    options: Options,
    shared: Arc<Shared>,
    position: Position,
    /// Hashes of the positions before the current one, oldest first.
    history: Vec<u64>,
    search: Option<JoinHandle<()>>,
    /// Set while the search must not print `bestmove` by itself (infinite, ponder).
    hold: Arc<AtomicBool>,
    last_clock: Option<Clock>,
}

fn new_shared(mb: usize) -> Arc<Shared> {
    Arc::new(Shared {
        tt: Table::new(mb),
        stop: AtomicBool::new(false),
        nodes: AtomicU64::new(0),
    })
}

impl<W: Write + Send + 'static> Uci<W> {
    /// A protocol handler writing to `out`.
    pub fn new(out: W) -> Self {
        let options = Options::default();
        Uci {
            out: Arc::new(Mutex::new(out)),
            shared: new_shared(options.hash_mb),
            options,
            position: StartId::CLASSICAL.position(),
            history: Vec::new(),
            search: None,
            hold: Arc::new(AtomicBool::new(false)),
            last_clock: None,
        }
    }

    fn say(&self, line: &str) {
        let mut out = self.out.lock().unwrap_or_else(|e| e.into_inner());
        let _ = writeln!(out, "{line}");
        let _ = out.flush();
    }

    /// Runs the protocol on `input` until `quit` or end of input.
    pub fn run(&mut self, input: impl BufRead) {
        for line in input.lines() {
            let Ok(line) = line else { break };
            if !self.handle(&line) {
                break;
            }
        }
        self.stop_search();
    }

    /// Handles one command line; false on `quit`.
    pub fn handle(&mut self, line: &str) -> bool {
        let tokens: Vec<&str> = line.split_whitespace().collect();
        let Some((&cmd, args)) = tokens.split_first() else {
            return true;
        };
        match cmd {
            "uci" => self.cmd_uci(),
            "isready" => self.say("readyok"),
            "ucinewgame" => {
                self.stop_search();
                self.shared.tt.clear();
            }
            "setoption" => self.cmd_setoption(args),
            "position" => {
                self.stop_search();
                if let Err(e) = self.cmd_position(args) {
                    complain(&format!("position ignored: {e}"));
                }
            }
            "go" => self.cmd_go(args),
            "stop" => self.stop_search(),
            "ponderhit" => self.cmd_ponderhit(),
            "quit" => return false,
            "d" => {
                let text = format!(
                    "{}\n{}",
                    self.position.board().to_unicode(false),
                    self.position.fen()
                );
                self.say(&text);
            }
            "debug" | "register" => {}
            other => complain(&format!("unknown command '{other}' ignored")),
        }
        true
    }

    fn cmd_uci(&self) {
        self.say(&format!("id name {NAME}"));
        self.say("id author the chess960 developers");
        self.say("option name Hash type spin default 16 min 1 max 65536");
        self.say("option name Threads type spin default 1 min 1 max 256");
        self.say("option name MultiPV type spin default 1 min 1 max 256");
        self.say("option name Move Overhead type spin default 10 min 0 max 5000");
        self.say("option name Ponder type check default false");
        self.say("option name UCI_Chess960 type check default false");
        self.say("option name UCI_LimitStrength type check default false");
        self.say(&format!(
            "option name UCI_Elo type spin default {ELO_MAX} min {ELO_MIN} max {ELO_MAX}"
        ));
        self.say("uciok");
    }

    fn cmd_setoption(&mut self, args: &[&str]) {
        // setoption name <words…> [value <words…>]
        let text = args.join(" ");
        let Some(rest) = text.strip_prefix("name ") else {
            complain("setoption needs 'name <option> [value <value>]'");
            return;
        };
        let (name, value) = match rest.split_once(" value ") {
            Some((n, v)) => (n.trim(), Some(v.trim())),
            None => (rest.trim(), None),
        };
        let num = |lo: u64, hi: u64| -> Option<u64> {
            let v = value?.parse::<u64>().ok()?;
            (lo..=hi).contains(&v).then_some(v)
        };
        let flag = || match value.map(str::to_ascii_lowercase).as_deref() {
            Some("true") => Some(true),
            Some("false") => Some(false),
            _ => None,
        };
        let ok = match name.to_ascii_lowercase().as_str() {
            "hash" => num(1, 65536).map(|v| {
                self.stop_search();
                self.options.hash_mb = v as usize;
                self.shared = new_shared(self.options.hash_mb);
            }),
            "threads" => num(1, 256).map(|v| self.options.threads = v as usize),
            "multipv" => num(1, 256).map(|v| self.options.multipv = v as usize),
            "move overhead" => num(0, 5000).map(|v| self.options.move_overhead = v),
            "ponder" => flag().map(|v| self.options.ponder = v),
            "uci_chess960" => flag().map(|v| self.options.chess960 = v),
            "uci_limitstrength" => flag().map(|v| self.options.limit_strength = v),
            "uci_elo" => num(ELO_MIN as u64, ELO_MAX as u64).map(|v| self.options.elo = v as u32),
            _ => {
                complain(&format!("unknown option '{name}' ignored"));
                return;
            }
        };
        if ok.is_none() {
            complain(&match value {
                Some(v) => format!(
                    "bad value '{v}' for option '{name}' ignored ('uci' lists its type and range)"
                ),
                None => format!("option '{name}' needs a value; ignored"),
            });
        }
    }

    fn mode(&self) -> CastlingMode {
        if self.options.chess960 {
            CastlingMode::Chess960
        } else {
            CastlingMode::Standard
        }
    }

    fn parse_move(&self, pos: &Position, text: &str) -> Result<Move, String> {
        pos.parse_uci(text, self.mode())
            // A two-square king move is unambiguous castling in any mode: accept it even with
            // UCI_Chess960 on, as some GUIs send it for the classical start.
            .or_else(|e| pos.parse_uci(text, CastlingMode::Standard).map_err(|_| e))
            .map_err(|e| e.to_string())
    }

    fn cmd_position(&mut self, args: &[&str]) -> Result<(), String> {
        let (start, rest) = match args.first() {
            Some(&"startpos") => (StartId::CLASSICAL.position(), &args[1..]),
            Some(&"fen") => {
                let end = args
                    .iter()
                    .position(|&t| t == "moves")
                    .unwrap_or(args.len());
                let fen = args[1..end].join(" ");
                let pos = Position::from_fen(&fen)
                    .or_else(|_| Position::from_fen_with(&fen, Validation::Lenient))
                    .map_err(|e| format!("bad FEN '{fen}': {e}"))?;
                (pos, &args[end..])
            }
            _ => return Err("expected 'startpos' or 'fen <FEN>'".into()),
        };
        let moves = match rest.split_first() {
            None => &[][..],
            Some((&"moves", m)) => m,
            Some((t, _)) => return Err(format!("expected 'moves', found '{t}'")),
        };
        let mut pos = start;
        let mut history = Vec::with_capacity(moves.len());
        for (i, text) in moves.iter().enumerate() {
            let m = self
                .parse_move(&pos, text)
                .map_err(|e| format!("move {} ({text}): {e}", i + 1))?;
            history.push(pos.hash());
            pos = pos.play(m);
        }
        self.position = pos;
        self.history = history;
        Ok(())
    }

    fn cmd_go(&mut self, args: &[&str]) {
        self.stop_search();
        let pos = self.position;
        let us_white = pos.turn() == chess960_core::Color::White;
        let mut clock = Clock::default();
        let mut limits = Limits {
            multipv: self.options.multipv,
            ..Limits::default()
        };
        let mut infinite = false;
        let mut ponder = false;
        let mut i = 0;
        let ms = |v: Option<&&str>| -> Result<Duration, String> {
            let t = v.ok_or("missing number")?;
            let n: i64 = t.parse().map_err(|_| format!("'{t}' is not a number"))?;
            Ok(Duration::from_millis(n.max(0) as u64))
        };
        let num = |v: Option<&&str>| -> Result<u64, String> {
            let t = v.ok_or("missing number")?;
            t.parse::<u64>()
                .map_err(|_| format!("'{t}' is not a number"))
        };
        let result: Result<(), String> = (|| {
            while i < args.len() {
                let key = args[i];
                let val = args.get(i + 1);
                match key {
                    "wtime" | "btime" => {
                        let t = ms(val)?;
                        if (key == "wtime") == us_white {
                            clock.time = Some(t);
                        }
                        i += 1;
                    }
                    "winc" | "binc" => {
                        let t = ms(val)?;
                        if (key == "winc") == us_white {
                            clock.inc = t;
                        }
                        i += 1;
                    }
                    "movestogo" => {
                        clock.movestogo = Some(num(val)? as u32);
                        i += 1;
                    }
                    "movetime" => {
                        clock.movetime = Some(ms(val)?);
                        i += 1;
                    }
                    "depth" => {
                        limits.depth = Some(num(val)?.min(1000) as i32);
                        i += 1;
                    }
                    "nodes" => {
                        limits.nodes = Some(num(val)?);
                        i += 1;
                    }
                    "mate" => {
                        limits.mate = Some(num(val)?.min(500) as i32);
                        i += 1;
                    }
                    "infinite" => infinite = true,
                    "ponder" => ponder = true,
                    "searchmoves" => {
                        while let Some(t) = args.get(i + 1) {
                            match self.parse_move(&pos, t) {
                                Ok(m) => limits.searchmoves.push(m),
                                Err(_) => break,
                            }
                            i += 1;
                        }
                    }
                    other => return Err(format!("unknown go parameter '{other}'")),
                }
                i += 1;
            }
            Ok(())
        })();
        if let Err(e) = result {
            complain(&format!("go ignored: {e}"));
            return;
        }
        if self.options.limit_strength {
            let cap = nodes_for_elo(self.options.elo);
            limits.nodes = Some(limits.nodes.map_or(cap, |n| n.min(cap)));
        }
        self.last_clock = Some(clock);
        let start = Instant::now();
        let overhead = Duration::from_millis(self.options.move_overhead);
        let deadlines = if infinite || ponder {
            Deadlines::default()
        } else {
            time::deadlines(&clock, start, overhead)
        };
        self.hold.store(infinite || ponder, Ordering::SeqCst);
        self.shared.stop.store(false, Ordering::SeqCst);
        self.shared.nodes.store(0, Ordering::SeqCst);
        self.shared.tt.new_search();

        let shared = Arc::clone(&self.shared);
        let out = Arc::clone(&self.out);
        let hold = Arc::clone(&self.hold);
        // The search adds the root's hash itself; these are the positions before it.
        let hashes = self.history.clone();
        let threads = self.options.threads;
        let mode = self.mode();
        self.search = Some(std::thread::spawn(move || {
            let outcome = std::thread::scope(|scope| {
                for t in 1..threads {
                    let shared = &shared;
                    let hashes = hashes.clone();
                    let limits = limits.clone();
                    scope.spawn(move || {
                        let mut s = Searcher::new(shared, t, hashes, Deadlines::default());
                        s.run(&pos, &limits, |_| {});
                    });
                }
                let mut main = Searcher::new(&shared, 0, hashes.clone(), deadlines);
                let out2 = Arc::clone(&out);
                let o = main.run(&pos, &limits, |r| print_report(&out2, r, mode));
                shared.stop.store(true, Ordering::SeqCst);
                o
            });
            // In infinite and ponder mode, bestmove waits for `stop` or `ponderhit`.
            while hold.load(Ordering::SeqCst) {
                std::thread::sleep(Duration::from_millis(1));
            }
            print_bestmove(&out, &pos, &outcome, mode);
        }));
    }

    fn cmd_ponderhit(&mut self) {
        if !self.hold.load(Ordering::SeqCst) {
            return;
        }
        // The opponent played the expected move: go on searching on our own clock.
        let clock = self.last_clock.unwrap_or_default();
        let d = time::deadlines(
            &clock,
            Instant::now(),
            Duration::from_millis(self.options.move_overhead),
        );
        self.hold.store(false, Ordering::SeqCst);
        if let Some(hard) = d.hard {
            let shared = Arc::clone(&self.shared);
            // Stop at the soft deadline: the ponder time already spent counts as thinking.
            let until = d.soft.unwrap_or(hard);
            std::thread::spawn(move || {
                let now = Instant::now();
                if until > now {
                    std::thread::sleep(until - now);
                }
                shared.stop.store(true, Ordering::SeqCst);
            });
        }
    }

    fn stop_search(&mut self) {
        self.shared.stop.store(true, Ordering::SeqCst);
        self.hold.store(false, Ordering::SeqCst);
        if let Some(h) = self.search.take() {
            let _ = h.join();
        }
    }
}

fn complain(msg: &str) {
    eprintln!("info string {msg}");
}

fn score_text(score: i32) -> String {
    if score >= MATE_BOUND {
        format!("mate {}", (MATE - score + 1) / 2)
    } else if score <= -MATE_BOUND {
        format!("mate -{}", (MATE + score) / 2)
    } else {
        format!("cp {score}")
    }
}

fn print_report<W: Write>(out: &Arc<Mutex<W>>, r: &Report, mode: CastlingMode) {
    let ms = r.elapsed.as_millis().max(1) as u64;
    let nps = r.nodes * 1000 / ms;
    let mut out = out.lock().unwrap_or_else(|e| e.into_inner());
    for (i, line) in r.lines.iter().enumerate() {
        let bound = match line.bound {
            Some(Bound::Lower) => " lowerbound",
            Some(Bound::Upper) => " upperbound",
            _ => "",
        };
        let pv: Vec<String> = line.pv.iter().map(|m| m.to_uci(mode)).collect();
        let _ = writeln!(
            out,
            "info depth {} seldepth {} multipv {} score {}{} nodes {} nps {} hashfull {} time {} pv {}",
            r.depth,
            r.seldepth,
            i + 1,
            score_text(line.score),
            bound,
            r.nodes,
            nps,
            r.hashfull,
            ms,
            pv.join(" ")
        );
    }
    let _ = out.flush();
}

fn print_bestmove<W: Write>(out: &Arc<Mutex<W>>, pos: &Position, o: &Outcome, mode: CastlingMode) {
    // Never emit an illegal move: fall back to any legal move if the search found none.
    let legal = pos.legal_moves();
    let best = o
        .best
        .filter(|m| legal.contains(m))
        .or_else(|| legal.first().copied());
    let mut out = out.lock().unwrap_or_else(|e| e.into_inner());
    let _ = match best {
        Some(m) => {
            let ponder = o
                .ponder
                .filter(|p| pos.play(m).legal_moves().contains(p))
                .map(|p| format!(" ponder {}", p.to_uci(mode)))
                .unwrap_or_default();
            writeln!(out, "bestmove {}{ponder}", m.to_uci(mode))
        }
        None => writeln!(out, "bestmove 0000"),
    };
    let _ = out.flush();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_elo_mapping_goes_through_the_calibration_points() {
        for &(elo, nodes) in &ELO_CALIBRATION {
            assert_eq!(nodes_for_elo(elo), nodes, "UCI_Elo {elo}");
        }
        assert_eq!(nodes_for_elo(0), nodes_for_elo(ELO_MIN));
        assert_eq!(nodes_for_elo(u32::MAX), nodes_for_elo(ELO_MAX));
        // More Elo never means fewer nodes, and a point in the middle of two is their
        // geometric mean.
        let all: Vec<u64> = (ELO_MIN..=ELO_MAX).map(nodes_for_elo).collect();
        assert!(all.windows(2).all(|w| w[0] <= w[1]));
        assert!(ELO_CALIBRATION
            .windows(2)
            .all(|w| w[0].0 < w[1].0 && w[0].1 < w[1].1));
        for w in ELO_CALIBRATION.windows(2) {
            let ((e0, n0), (e1, n1)) = (w[0], w[1]);
            let mid = nodes_for_elo((e0 + e1) / 2) as f64;
            assert!(
                (mid / ((n0 * n1) as f64).sqrt() - 1.0).abs() < 0.02,
                "{mid} between {n0} and {n1}"
            );
        }
    }

    #[test]
    fn the_documented_calibration_is_the_one_in_force() {
        // docs/strength.md holds the measured table; the code must use the same points.
        let doc = include_str!("../../../docs/strength.md");
        let table: Vec<(u32, u64)> = doc
            .split("<!-- UCI_Elo calibration table -->")
            .nth(1)
            .expect("the calibration table marker in docs/strength.md")
            .lines()
            .skip_while(|l| !l.starts_with('|'))
            .take_while(|l| l.starts_with('|'))
            .skip(2)
            .map(|row| {
                let cells: Vec<String> = row
                    .split('|')
                    .map(|c| c.trim().replace([',', '`', '*'], ""))
                    .collect();
                (cells[1].parse().unwrap(), cells[2].parse().unwrap())
            })
            .collect();
        assert_eq!(table, ELO_CALIBRATION.to_vec());
    }
}
