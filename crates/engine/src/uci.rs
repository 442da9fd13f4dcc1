//! The UCI protocol: reads commands, runs searches on a background thread, prints results.
//!
//! What cannot be read is skipped with a reason in an `info string` on standard output, where
//! GUIs and python-chess show it. Two promises hold
//! whatever the input: every `go` is answered by exactly one `bestmove`, and that move is
//! legal in the position of the last `position` command: a move list is applied as far as it
//! is legal, and after a `position` that cannot be read at all the engine has no position and
//! answers `go` with `bestmove 0000`. `isready` is answered at once even while a search runs,
//! because the search has its own thread.

use crate::levels::{nodes_for_elo, ELO_MAX, ELO_MIN};
use crate::nnue::{self, Network};
use crate::search::{Limits, Outcome, Report, Searcher, Shared, TableEval, MATE, MATE_BOUND};
use crate::time::{self, Clock, Deadlines};
use crate::tt::{Bound, Table};
use crate::wdl;
use chess960_core::{CastlingMode, Move, Position, StartId, UciError, Validation};
use std::io::{BufRead, Read, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// `EvalFile`'s value for the net built into the binary.
pub const EMBEDDED: &str = "<embedded>";

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
    /// Add `wdl W D L` to `info` lines (the model in [`crate::wdl`]).
    pub show_wdl: bool,
    /// `UCI_AnalyseMode`: accepted and remembered; the search is the same either way.
    pub analyse_mode: bool,
    /// `UseNNUE`: evaluate with the net (the built-in one or `EvalFile`'s) rather than the
    /// hand-crafted evaluation. Limited strength always uses the hand-crafted one, on which
    /// the `UCI_Elo` table was measured ([`crate::levels`]).
    pub use_nnue: bool,
    /// `EvalFile`: a net read from a file, `None` for the built-in one.
    pub eval_file: Option<Arc<Network>>,
}

impl Options {
    /// The net searches evaluate with, `None` for the hand-crafted evaluation.
    pub fn net(&self) -> Option<Arc<Network>> {
        if !self.use_nnue || self.limit_strength {
            return None;
        }
        self.eval_file.clone().or_else(nnue::default_net)
    }
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
            show_wdl: false,
            analyse_mode: false,
            use_nnue: true,
            eval_file: None,
        }
    }
}

/// The protocol state.
pub struct Uci<W: Write + Send + 'static> {
    out: Arc<Mutex<W>>,
    options: Options,
    shared: Arc<Shared>,
    /// The position to search; `None` after a `position` command that could not be read, as
    /// there is then no position in which a move could be known to be legal.
    position: Option<Position>,
    /// Hashes of the positions before the current one, oldest first.
    history: Vec<u64>,
    search: Option<JoinHandle<()>>,
    /// Set while the search must not print `bestmove` by itself (infinite, ponder).
    hold: Arc<AtomicBool>,
    /// The current search has a limit of its own (see [`Uci::run`]).
    bounded: bool,
    last_clock: Option<Clock>,
    /// The evaluation the table's entries come from.
    table_eval: TableEval,
}

impl<W: Write + Send + 'static> Uci<W> {
    /// A protocol handler writing to `out`.
    pub fn new(out: W) -> Self {
        let options = Options::default();
        Uci {
            out: Arc::new(Mutex::new(out)),
            shared: Arc::new(Shared::new(options.hash_mb)),
            options,
            position: Some(StartId::CLASSICAL.position()),
            history: Vec::new(),
            search: None,
            hold: Arc::new(AtomicBool::new(false)),
            bounded: false,
            last_clock: None,
            table_eval: TableEval::default(),
        }
    }

    fn say(&self, line: &str) {
        let mut out = self.out.lock().unwrap_or_else(|e| e.into_inner());
        let _ = writeln!(out, "{line}");
        let _ = out.flush();
    }

    /// A diagnostic for the GUI: `info string` on the protocol's output, where GUIs and
    /// python-chess show and log it. Not copied to standard error: run in a terminal, both go
    /// to the same screen and every reason would show twice.
    fn complain(&self, msg: &str) {
        // One line each: a quoted control character must not end or garble the line.
        let msg: String = msg
            .chars()
            .map(|c| if c.is_control() { ' ' } else { c })
            .collect();
        self.say(&format!("info string {msg}"));
    }

    /// Runs the protocol on `input` until `quit` or end of input. At the end of the input a
    /// search with a limit (time, depth, nodes, mate) is let finish, so that
    /// `printf 'position startpos\ngo movetime 300\n' | chess960-engine` answers after 300 ms
    /// with a searched move; one without a limit (`infinite`, `ponder`, a plain `go`) is
    /// stopped. After `quit` every search stops at once.
    ///
    /// A line that is not UTF-8, or longer than [`MAX_LINE`] bytes, is skipped with an `info
    /// string`; an error reading the input is reported and read as its end.
    pub fn run(&mut self, mut input: impl BufRead) {
        let mut quit = false;
        loop {
            let line = match next_line(&mut input, MAX_LINE) {
                Ok(Some(line)) => line,
                Ok(None) => break,
                Err(e) => {
                    self.complain(&format!("reading the input failed ({e}); read as its end"));
                    break;
                }
            };
            match line {
                InputLine::Text(line) => {
                    if !self.handle(&line) {
                        quit = true;
                        break;
                    }
                }
                InputLine::NotUtf8(shown) => {
                    self.complain(&format!("ignored a line that is not UTF-8: '{shown}'"))
                }
                InputLine::TooLong(bytes) => self.complain(&format!(
                    "ignored a line of {bytes} bytes: a command may have at most {MAX_LINE}"
                )),
            }
        }
        if !quit && self.bounded && !self.hold.load(Ordering::SeqCst) {
            if let Some(h) = self.search.take() {
                let _ = h.join();
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
                self.shared.clear();
            }
            "setoption" => self.cmd_setoption(args),
            "position" => {
                self.stop_search();
                self.cmd_position(args);
            }
            "go" => self.cmd_go(args),
            "stop" => self.stop_search(),
            "ponderhit" => self.cmd_ponderhit(),
            "quit" => return false,
            "d" => match &self.position {
                Some(pos) => {
                    self.say(&format!("{}\n{}", pos.board().to_unicode(false), pos.fen()));
                }
                None => self.complain(NO_POSITION),
            },
            "debug" | "register" => {}
            other => self.complain(&format!("unknown command '{other}' ignored")),
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
        self.say("option name UCI_ShowWDL type check default false");
        self.say("option name UCI_AnalyseMode type check default false");
        self.say("option name UseNNUE type check default true");
        self.say(&format!(
            "option name EvalFile type string default {EMBEDDED}"
        ));
        self.say("option name Clear Hash type button");
        self.say("uciok");
    }

    fn cmd_setoption(&mut self, args: &[&str]) {
        // setoption name <words…> [value <words…>]
        let text = args.join(" ");
        let Some(rest) = text.strip_prefix("name ") else {
            self.complain("setoption needs 'name <option> [value <value>]'");
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
            "hash" => num(1, 65536).map(|v| self.set_hash(v as usize)),
            "threads" => num(1, 256).map(|v| self.options.threads = v as usize),
            "multipv" => num(1, 256).map(|v| self.options.multipv = v as usize),
            "move overhead" => num(0, 5000).map(|v| self.options.move_overhead = v),
            "ponder" => flag().map(|v| self.options.ponder = v),
            "uci_chess960" => flag().map(|v| self.options.chess960 = v),
            "uci_limitstrength" => flag().map(|v| self.options.limit_strength = v),
            "uci_elo" => num(ELO_MIN as u64, ELO_MAX as u64).map(|v| self.options.elo = v as u32),
            "uci_showwdl" => flag().map(|v| self.options.show_wdl = v),
            "uci_analysemode" => flag().map(|v| self.options.analyse_mode = v),
            "usennue" => flag().map(|v| self.options.use_nnue = v),
            "evalfile" => value.map(|path| self.set_eval_file(path)),
            // A button: any value is beside the point.
            "clear hash" => {
                self.stop_search();
                self.shared.clear();
                Some(())
            }
            _ => {
                self.complain(&format!("unknown option '{name}' ignored"));
                return;
            }
        };
        if ok.is_none() {
            self.complain(&match value {
                Some(v) => format!(
                    "bad value '{v}' for option '{name}' ignored ('uci' lists its type and range)"
                ),
                None => format!("option '{name}' needs a value; ignored"),
            });
        }
    }

    /// `setoption name Hash value MB`: a new, empty table (and no memories of earlier
    /// searches), or, when its memory cannot be had, the old table as it was, with an `info
    /// string`: the largest `Hash` the option allows is more than many machines hold.
    ///
    /// The new table is allocated before the old one is freed, so that the old one is there
    /// to keep. As a table takes at most half of its `Hash`, the two together take no more
    /// than the larger `Hash` of the two.
    fn set_hash(&mut self, mb: usize) {
        self.stop_search();
        match Shared::try_new(mb) {
            Some(shared) => {
                self.options.hash_mb = mb;
                self.shared = Arc::new(shared);
            }
            None => self.complain(&format!(
                "Hash {mb}: could not allocate its table of {}; Hash stays {} \
                 (its table of {}, entries kept)",
                size_text(Table::bytes_for(mb)),
                self.options.hash_mb,
                size_text(self.shared.tt.bytes())
            )),
        }
    }

    /// `setoption name EvalFile value PATH`: reads the net now, so that a bad file is reported
    /// at once and the previous net stays. `<embedded>` (or an empty value) goes back to the
    /// built-in net.
    fn set_eval_file(&mut self, path: &str) {
        if path.is_empty() || path == EMBEDDED {
            self.options.eval_file = None;
            return;
        }
        match Network::load(std::path::Path::new(path)) {
            Ok(net) => {
                self.complain(&format!("EvalFile '{path}': {net:?} loaded"));
                self.options.eval_file = Some(Arc::new(net));
            }
            Err(e) => self.complain(&format!("EvalFile '{path}': {e}; the previous net stays")),
        }
    }

    fn mode(&self) -> CastlingMode {
        if self.options.chess960 {
            CastlingMode::Chess960
        } else {
            CastlingMode::Standard
        }
    }

    fn parse_move(&self, pos: &Position, text: &str) -> Result<Move, UciError> {
        pos.parse_uci(text, self.mode())
            // A two-square king move is unambiguous castling in any mode: accept it even with
            // UCI_Chess960 on, as some GUIs send it for the classical start.
            .or_else(|e| pos.parse_uci(text, CastlingMode::Standard).map_err(|_| e))
    }

    /// `position startpos|fen <FEN> [moves …]`. The moves are applied as far as they are
    /// legal (as Stockfish does), with an `info string` naming the first one that is not; a
    /// command whose start position cannot be read leaves the engine with no position.
    fn cmd_position(&mut self, args: &[&str]) {
        let (start, rest) = match args.first() {
            Some(&"startpos") => (StartId::CLASSICAL.position(), &args[1..]),
            Some(&"fen") => {
                let end = args
                    .iter()
                    .position(|&t| t == "moves")
                    .unwrap_or(args.len());
                let fen = args[1..end].join(" ");
                match Position::from_fen(&fen)
                    .or_else(|_| Position::from_fen_with(&fen, Validation::Lenient))
                {
                    Ok(pos) => (pos, &args[end..]),
                    Err(e) => return self.lose_position(&format!("bad FEN '{fen}': {e}")),
                }
            }
            Some(other) => {
                return self.lose_position(&format!(
                    "expected 'startpos' or 'fen <FEN>', found '{other}'"
                ))
            }
            None => return self.lose_position("expected 'startpos' or 'fen <FEN>'"),
        };
        let moves = match rest.split_first() {
            None => &[][..],
            Some((&"moves", m)) => m,
            Some((t, _)) => {
                return self.lose_position(&format!(
                    "expected 'moves' after the start position, found '{t}'"
                ))
            }
        };
        let mut pos = start;
        let mut history = Vec::with_capacity(moves.len());
        for (i, text) in moves.iter().enumerate() {
            let m = match self.parse_move(&pos, text) {
                Ok(m) => m,
                Err(e) => {
                    let at = match i {
                        0 => "the start position".to_string(),
                        _ => format!("move {i} ({})", moves[i - 1]),
                    };
                    self.complain(&format!(
                        "position: move {} ({text}) stops the list: {e}; \
                         the position is the one after {at}, {} to move",
                        i + 1,
                        pos.turn()
                    ));
                    break;
                }
            };
            history.push(pos.hash());
            pos = pos.play(m);
        }
        self.position = Some(pos);
        self.history = history;
    }

    /// After a `position` command that cannot be read: no position until the next one.
    fn lose_position(&mut self, why: &str) {
        self.position = None;
        self.history.clear();
        self.complain(&format!(
            "position: {why}; no position until the next 'position' command \
             ('go' answers 'bestmove 0000')"
        ));
    }

    /// Reads a `go` command leniently: whatever cannot be read is skipped with a note, so that
    /// the search still runs with the rest and `bestmove` still comes.
    fn read_go(&self, args: &[&str], pos: Option<&Position>) -> GoRequest {
        let mut r = GoRequest::default();
        let us_white = pos.is_none_or(|p| p.turn() == chess960_core::Color::White);
        let is_key = |t: &str| GO_KEYWORDS.contains(&t);
        let mut i = 0;
        while i < args.len() {
            let key = args[i];
            i += 1;
            match key {
                "infinite" => r.infinite = true,
                "ponder" => r.ponder = true,
                "searchmoves" => i = self.read_searchmoves(args, i, pos, &mut r),
                "wtime" | "btime" | "winc" | "binc" | "movetime" | "movestogo" | "depth"
                | "nodes" | "mate" => {
                    let Some(&text) = args.get(i).filter(|t| !is_key(t)) else {
                        r.skip(format!("'{key}' needs a number; skipped"));
                        continue;
                    };
                    i += 1;
                    let n = match read_number(text) {
                        Ok((n, exact)) => {
                            if !exact {
                                r.note(format!("{key} {text} read as {n}"));
                            }
                            n
                        }
                        Err(why) => {
                            r.skip(format!("{key} {text}: {why}; skipped"));
                            continue;
                        }
                    };
                    // A negative time is what a GUI sends once a clock has run out: nothing
                    // left. A negative count means nothing.
                    let ms = Duration::from_millis(n.max(0) as u64);
                    let count = u64::try_from(n);
                    match (key, count) {
                        ("wtime" | "btime", _) if (key == "wtime") == us_white => {
                            r.clock.time = Some(ms)
                        }
                        ("winc" | "binc", _) if (key == "winc") == us_white => r.clock.inc = ms,
                        ("wtime" | "btime" | "winc" | "binc", _) => {}
                        ("movetime", _) => r.clock.movetime = Some(ms),
                        (_, Err(_)) => r.skip(format!("{key} {text}: negative; skipped")),
                        ("movestogo", Ok(n)) => {
                            r.clock.movestogo = Some(n.min(u32::MAX as u64) as u32)
                        }
                        ("depth", Ok(n)) => r.limits.depth = Some(n.min(1000) as i32),
                        ("nodes", Ok(n)) => r.limits.nodes = Some(n),
                        (_, Ok(n)) => r.limits.mate = Some(n.min(500) as i32),
                    }
                }
                _ => {
                    // An unknown parameter, with whatever values follow it up to the next one
                    // we know.
                    let from = i - 1;
                    while args.get(i).is_some_and(|t| !is_key(t)) {
                        i += 1;
                    }
                    r.skip(format!(
                        "unknown parameter '{}' skipped",
                        args[from..i].join(" ")
                    ));
                }
            }
        }
        let bounded = r.clock.time.is_some()
            || r.clock.movetime.is_some()
            || r.limits.depth.is_some()
            || r.limits.nodes.is_some()
            || r.limits.mate.is_some()
            || r.infinite
            || r.ponder;
        if r.skipped && !bounded {
            // A plain `go` searches until `stop`, as UCI has it. Here a limit was probably
            // among the skipped words, and a GUI waiting for a bestmove that never comes is
            // the failure this avoids.
            r.clock.movetime = Some(FALLBACK_MOVETIME);
            r.note(format!(
                "nothing left that ends the search; searching {} ms",
                FALLBACK_MOVETIME.as_millis()
            ));
        }
        r
    }

    /// Reads the moves of `searchmoves` from `args[i..]` into `r`, as long as the words look
    /// like moves (an illegal one is skipped, and the list goes on); returns where it stopped.
    fn read_searchmoves(
        &self,
        args: &[&str],
        mut i: usize,
        pos: Option<&Position>,
        r: &mut GoRequest,
    ) -> usize {
        // With no position, the start position tells what looks like a move.
        let probe = pos
            .copied()
            .unwrap_or_else(|| StartId::CLASSICAL.position());
        let mut listed = 0;
        while let Some(&text) = args.get(i) {
            match self.parse_move(&probe, text) {
                Err(UciError::Syntax { .. }) => break,
                Ok(m) => {
                    if !r.limits.searchmoves.contains(&m) {
                        r.limits.searchmoves.push(m);
                    }
                }
                Err(e) => {
                    if pos.is_some() {
                        r.skip(format!("searchmoves: {e}; skipped"));
                    }
                }
            }
            listed += 1;
            i += 1;
        }
        if pos.is_none() {
            r.limits.searchmoves.clear();
        } else if listed > 0 && r.limits.searchmoves.is_empty() {
            r.note("no legal move in searchmoves; searching all moves".into());
        }
        i
    }

    fn cmd_go(&mut self, args: &[&str]) {
        self.stop_search();
        let pos = self.position;
        let GoRequest {
            clock,
            mut limits,
            infinite,
            ponder,
            notes,
            ..
        } = self.read_go(args, pos.as_ref());
        for n in &notes {
            self.complain(&format!("go: {n}"));
        }
        if pos.is_none() {
            self.complain(&format!("{NO_POSITION}; bestmove 0000"));
        }
        limits.multipv = self.options.multipv;
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
        self.bounded = !(infinite || ponder)
            && (deadlines.hard.is_some()
                || limits.depth.is_some()
                || limits.nodes.is_some()
                || limits.mate.is_some());
        self.shared.stop.store(false, Ordering::SeqCst);
        self.shared.nodes.store(0, Ordering::SeqCst);
        self.shared.tt.new_search();
        let net = self.options.net();
        // EvalFile, UseNNUE or UCI_LimitStrength may have changed the evaluation.
        self.table_eval.prepare(&self.shared.tt, &net);

        let shared = Arc::clone(&self.shared);
        let out = Arc::clone(&self.out);
        let hold = Arc::clone(&self.hold);
        // The search adds the root's hash itself; these are the positions before it.
        let hashes = self.history.clone();
        let threads = self.options.threads;
        let mode = self.mode();
        let wdl_material = pos
            .filter(|_| self.options.show_wdl)
            .map(|p| wdl::material(&p));
        self.search = Some(std::thread::spawn(move || {
            let outcome = pos.map(|pos| {
                std::thread::scope(|scope| {
                    for t in 1..threads {
                        let shared = &shared;
                        let hashes = hashes.clone();
                        let limits = limits.clone();
                        let net = net.clone();
                        scope.spawn(move || {
                            let mut s = Searcher::new(shared, t, hashes, Deadlines::default())
                                .with_net(net);
                            s.run(&pos, &limits, |_| {});
                        });
                    }
                    let mut main =
                        Searcher::new(&shared, 0, hashes.clone(), deadlines).with_net(net);
                    let out2 = Arc::clone(&out);
                    let o = main.run(&pos, &limits, |r| {
                        print_report(&out2, r, mode, wdl_material)
                    });
                    shared.stop.store(true, Ordering::SeqCst);
                    o
                })
            });
            // In infinite and ponder mode, bestmove waits for `stop` or `ponderhit`.
            while hold.load(Ordering::SeqCst) {
                std::thread::sleep(Duration::from_millis(1));
            }
            print_bestmove(&out, pos.as_ref().zip(outcome.as_ref()), mode);
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

/// The longest input line read, in bytes (its line ending included): 1 MiB. The longest
/// command a GUI sends is `position` with the moves of a game, some 5 bytes a move; 1 MiB
/// holds 200 000 of them. A longer line is skipped as it arrives, unstored, so that no input
/// makes the engine hold more than this.
pub const MAX_LINE: usize = 1 << 20;

/// At most this many characters of a line that is not UTF-8 are shown in the `info string`
/// that reports it.
const SHOWN: usize = 80;

/// A line of input as [`next_line`] read it.
#[derive(Debug, PartialEq, Eq)]
enum InputLine {
    /// A line of text, without its line ending (`\n` or `\r\n`).
    Text(String),
    /// A line that is not UTF-8: its start as text, each byte that is not UTF-8 replaced by
    /// `\u{FFFD}` (at most [`SHOWN`] characters and an ellipsis).
    NotUtf8(String),
    /// A line longer than the limit, of this many bytes with its ending; skipped unstored.
    TooLong(u64),
}

/// Reads the next line of `input`, holding at most `max` bytes of it: `Ok(None)` at the end
/// of the input. A read interrupted by a signal is tried again; any other error ends the
/// reading (the part of a line read before it is lost).
///
/// Bytes, not `BufRead::lines`: that reads a line that is not UTF-8 as an error, which the
/// engine took for the end of its input, and it stores a line of any length.
fn next_line(input: &mut impl BufRead, max: usize) -> std::io::Result<Option<InputLine>> {
    let mut buf = Vec::new();
    // One byte more than the limit tells a line of exactly `max` bytes from a longer one.
    Read::take(&mut *input, max as u64 + 1).read_until(b'\n', &mut buf)?;
    if buf.is_empty() {
        return Ok(None);
    }
    if buf.len() > max {
        // The byte beyond the limit may have been the line's end; if not, the rest of the
        // line is skipped.
        let rest = match buf.last() {
            Some(b'\n') => 0,
            _ => skip_line(input)?,
        };
        return Ok(Some(InputLine::TooLong(buf.len() as u64 + rest)));
    }
    if buf.last() == Some(&b'\n') {
        buf.pop();
        if buf.last() == Some(&b'\r') {
            buf.pop();
        }
    }
    Ok(Some(match String::from_utf8(buf) {
        Ok(text) => InputLine::Text(text),
        Err(e) => {
            let text = String::from_utf8_lossy(e.as_bytes());
            let mut shown: String = text.chars().take(SHOWN).collect();
            if text.chars().nth(SHOWN).is_some() {
                shown.push('…');
            }
            InputLine::NotUtf8(shown)
        }
    }))
}

/// A size in MiB, or in KiB below one MiB (the table of `Hash 1` is 512 KiB).
fn size_text(bytes: usize) -> String {
    if bytes >= 1 << 20 {
        format!("{} MiB", bytes >> 20)
    } else {
        format!("{} KiB", bytes >> 10)
    }
}

/// Skips `input` up to and including the next line end (or to the end of the input) as it
/// comes, storing none of it; the number of bytes skipped.
fn skip_line(input: &mut impl BufRead) -> std::io::Result<u64> {
    let mut skipped = 0;
    loop {
        let chunk = match input.fill_buf() {
            Ok(chunk) => chunk,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if chunk.is_empty() {
            return Ok(skipped);
        }
        let (used, end) = match chunk.iter().position(|&b| b == b'\n') {
            Some(i) => (i + 1, true),
            None => (chunk.len(), false),
        };
        input.consume(used);
        skipped += used as u64;
        if end {
            return Ok(skipped);
        }
    }
}

/// What `info string` says when there is no position to search or show.
const NO_POSITION: &str = "no position: the last 'position' command could not be read";

/// The parameters of `go`.
const GO_KEYWORDS: [&str; 12] = [
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "movetime",
    "depth",
    "nodes",
    "mate",
    "infinite",
    "ponder",
    "searchmoves",
];

/// The search time of a `go` whose limits were all skipped.
const FALLBACK_MOVETIME: Duration = Duration::from_secs(1);

/// A `go` command as read: what to search, and notes for the GUI about what was skipped.
#[derive(Default)]
struct GoRequest {
    clock: Clock,
    limits: Limits,
    infinite: bool,
    ponder: bool,
    notes: Vec<String>,
    /// Something was skipped (not just read approximately).
    skipped: bool,
}

impl GoRequest {
    fn note(&mut self, text: String) {
        self.notes.push(text);
    }

    fn skip(&mut self, text: String) {
        self.skipped = true;
        self.notes.push(text);
    }
}

/// A number of `go`: an integer, or a finite decimal read without its fraction (`300.5` is
/// 300; the flag says whether it was exact).
fn read_number(text: &str) -> Result<(i64, bool), String> {
    if let Ok(n) = text.parse::<i64>() {
        return Ok((n, true));
    }
    match text.parse::<f64>() {
        // `as` saturates: 1e30 nodes are as good as i64::MAX.
        Ok(f) if f.is_finite() => Ok((f.trunc() as i64, false)),
        _ => Err(format!("'{text}' is not a number")),
    }
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

/// ` wdl W D L` for `score` with `material` on the board (see [`crate::wdl`]).
fn wdl_text(score: i32, material: u32) -> String {
    let e = if score >= MATE_BOUND {
        wdl::Wdl {
            win: 1000,
            draw: 0,
            loss: 0,
        }
    } else if score <= -MATE_BOUND {
        wdl::Wdl {
            win: 0,
            draw: 0,
            loss: 1000,
        }
    } else {
        wdl::MODEL.wdl(score, material)
    };
    format!(" wdl {} {} {}", e.win, e.draw, e.loss)
}

/// Prints the `info` lines of an iteration; `wdl_material` is the root's material when
/// `UCI_ShowWDL` is on.
fn print_report<W: Write>(
    out: &Arc<Mutex<W>>,
    r: &Report,
    mode: CastlingMode,
    wdl_material: Option<u32>,
) {
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
        let wdl = wdl_material.map_or(String::new(), |m| wdl_text(line.score, m));
        let _ = writeln!(
            out,
            "info depth {} seldepth {} multipv {} score {}{}{} nodes {} nps {} hashfull {} time {} pv {}",
            r.depth,
            r.seldepth,
            i + 1,
            score_text(line.score),
            bound,
            wdl,
            r.nodes,
            nps,
            r.hashfull,
            ms,
            pv.join(" ")
        );
    }
    let _ = out.flush();
}

/// Prints `bestmove` for a search of `pos` (`None`: there was no position, `bestmove 0000`).
fn print_bestmove<W: Write>(
    out: &Arc<Mutex<W>>,
    searched: Option<(&Position, &Outcome)>,
    mode: CastlingMode,
) {
    let line = searched.map_or("bestmove 0000".to_string(), |(pos, o)| {
        // Never emit an illegal move: fall back to any legal move if the search found none.
        let legal = pos.legal_moves();
        let best = o
            .best
            .filter(|m| legal.contains(m))
            .or_else(|| legal.first().copied());
        match best {
            Some(m) => {
                let ponder = o
                    .ponder
                    .filter(|p| pos.play(m).legal_moves().contains(p))
                    .map(|p| format!(" ponder {}", p.to_uci(mode)))
                    .unwrap_or_default();
                format!("bestmove {}{ponder}", m.to_uci(mode))
            }
            None => "bestmove 0000".to_string(),
        }
    });
    let mut out = out.lock().unwrap_or_else(|e| e.into_inner());
    let _ = writeln!(out, "{line}");
    let _ = out.flush();
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::{BufReader, Cursor};

    /// Every line `next_line` reads from `input` with a limit of `max` bytes.
    fn read_all(input: &[u8], max: usize) -> Vec<InputLine> {
        // A small buffer, so that lines span several fills of it.
        let mut input = BufReader::with_capacity(3, Cursor::new(input));
        std::iter::from_fn(|| next_line(&mut input, max).unwrap()).collect()
    }

    fn text(s: &str) -> InputLine {
        InputLine::Text(s.to_string())
    }

    #[test]
    fn lines_are_read_as_bytes_within_a_limit() {
        use InputLine::{NotUtf8, TooLong};
        assert_eq!(
            read_all(b"uci\r\n\xffa\xfe\nisready\n\nlast", 8),
            [
                text("uci"),
                NotUtf8("\u{FFFD}a\u{FFFD}".into()),
                text("isready"),
                text(""),
                text("last")
            ]
        );
        // The limit counts the line ending: 8 bytes pass, 9 do not, and the rest of a long
        // line is skipped to its end, counted.
        assert_eq!(
            read_all(b"1234567\nabcdefgh\n123456789012345678\nok", 8),
            [text("1234567"), TooLong(9), TooLong(19), text("ok")]
        );
        // A long line that the input ends.
        assert_eq!(read_all(b"ok\n123456789", 8), [text("ok"), TooLong(9)]);
        // What is shown of a line that is not UTF-8 is bounded.
        let mut long = vec![b'x'; 200];
        long[0] = 0xff;
        let shown = format!("\u{FFFD}{}…", "x".repeat(SHOWN - 1));
        assert_eq!(read_all(&long, MAX_LINE), [NotUtf8(shown)]);
    }

    #[test]
    fn a_hash_that_cannot_be_had_keeps_the_table_and_says_its_size() {
        let out = Arc::new(Mutex::new(Vec::new()));
        let mut uci = Uci::new(SharedOut(Arc::clone(&out)));
        uci.handle("setoption name Hash value 1");
        let kept = Arc::as_ptr(&uci.shared);
        // More than any address space, so refused on any machine; only `set_hash` itself
        // can ask for it (the option stops at 65536).
        uci.set_hash(usize::MAX >> 20);
        assert_eq!(Arc::as_ptr(&uci.shared), kept);
        assert_eq!(uci.options.hash_mb, 1);
        let text = String::from_utf8(out.lock().unwrap().clone()).unwrap();
        assert!(
            text.starts_with(&format!(
                "info string Hash {}: could not allocate",
                usize::MAX >> 20
            )) && text.ends_with("; Hash stays 1 (its table of 512 KiB, entries kept)\n"),
            "{text}"
        );
    }

    /// Gives its bytes, then fails.
    struct Failing(&'static [u8]);

    impl Read for Failing {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            if self.0.is_empty() {
                return Err(std::io::Error::other("the device is gone"));
            }
            let n = self.0.len().min(buf.len());
            buf[..n].copy_from_slice(&self.0[..n]);
            self.0 = &self.0[n..];
            Ok(n)
        }
    }

    #[test]
    fn a_read_error_is_reported_and_ends_the_input() {
        let out = Arc::new(Mutex::new(Vec::new()));
        let mut uci = Uci::new(SharedOut(Arc::clone(&out)));
        uci.run(std::io::BufReader::new(Failing(b"\xff\nisready\n")));
        let text = String::from_utf8(out.lock().unwrap().clone()).unwrap();
        assert_eq!(
            text,
            "info string ignored a line that is not UTF-8: '\u{FFFD}'\nreadyok\n\
             info string reading the input failed (the device is gone); read as its end\n"
        );
    }

    /// An output the test can read while `Uci` holds it.
    struct SharedOut(Arc<Mutex<Vec<u8>>>);

    impl Write for SharedOut {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().write(buf)
        }

        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
}
