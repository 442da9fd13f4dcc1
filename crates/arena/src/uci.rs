//! The UCI side: handshake, options, positions, `go`, and reading `info` and `bestmove`.
//!
//! Positions are always sent as `position fen <start> moves …` with the start in Shredder-FEN
//! (`HAha`), as cutechess does: X-FEN's `K`/`Q` are misread by some engines (Glaurung) when the
//! castling rook is not on a corner. Castling is written and read in the engine's notation:
//! king onto its own rook when `UCI_Chess960` is on, the king's destination otherwise. The move
//! the engine returns is checked against the rules core in that notation and no other, so an
//! engine that answers `e1g1` while `UCI_Chess960` is on is caught.

use crate::engine::{Action, EngineConfig, Fault, Reply, Score, SearchInfo, Turn};
use crate::process::{excerpt, DebugLog, Process, ReadError};
use crate::timecontrol::Limits;
use chess960_core::{CastlingDialect, CastlingMode, UciError};
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

/// Lines that are not UCI tolerated while waiting for one reply. The protocol says unknown
/// output is to be ignored, and engines print banners and debug lines; but a flood is garbage.
pub const MAX_UNKNOWN_LINES: usize = 10_000;

/// A UCI option the engine offers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UciOption {
    /// Its name.
    pub name: String,
    /// Its type (`spin`, `check`, `combo`, `button`, `string`).
    pub kind: String,
}

/// A running UCI engine.
#[derive(Debug)]
pub struct UciEngine {
    process: Process,
    name: Option<String>,
    author: Option<String>,
    options: Vec<UciOption>,
    chess960: bool,
    limits: Limits,
    timeout: Duration,
    warnings: Vec<String>,
}

impl UciEngine {
    /// Starts the engine: `uci` … `uciok`, `UCI_Chess960` when offered, the configured
    /// options, `isready` … `readyok`.
    pub fn start(
        config: &EngineConfig,
        debug: Option<DebugLog>,
        stop: &AtomicBool,
    ) -> Result<UciEngine, Fault> {
        let process =
            Process::spawn(&config.spawn, debug).map_err(|e| Fault::Startup(e.to_string()))?;
        let mut engine = UciEngine {
            process,
            name: None,
            author: None,
            options: Vec::new(),
            chess960: false,
            limits: config.limits,
            timeout: config.timeout,
            warnings: Vec::new(),
        };
        engine.handshake(config, stop)?;
        Ok(engine)
    }

    fn handshake(&mut self, config: &EngineConfig, stop: &AtomicBool) -> Result<(), Fault> {
        let startup = |f: Fault| match f {
            Fault::Crashed { detail } => {
                Fault::Startup(format!("it exited during the handshake ({detail})"))
            }
            Fault::NoReply {
                waiting_for,
                waited,
            } => Fault::Startup(format!(
                "no {waiting_for} within {}s: is it a UCI engine? (proto=xboard for xboard \
                 engines; timeout= waits longer)",
                crate::timecontrol::seconds(waited)
            )),
            other => other,
        };
        self.send("uci").map_err(startup)?;
        let deadline = Instant::now() + self.timeout;
        loop {
            let line = self
                .read(deadline, stop, "uciok", self.timeout)
                .map_err(startup)?;
            let line = line.trim();
            if line == "uciok" {
                break;
            }
            if let Some(rest) = line.strip_prefix("id name ") {
                self.name = Some(rest.trim().to_string());
            } else if let Some(rest) = line.strip_prefix("id author ") {
                self.author = Some(rest.trim().to_string());
            } else if let Some(rest) = line.strip_prefix("option ") {
                if let Some(opt) = parse_option(rest) {
                    self.options.push(opt);
                }
            }
        }

        let offers = |name: &str, options: &[UciOption]| {
            options
                .iter()
                .find(|o| o.name.eq_ignore_ascii_case(name))
                .map(|o| o.name.clone())
        };
        let user_sets_960 = config
            .options
            .iter()
            .any(|(k, _)| k.eq_ignore_ascii_case("UCI_Chess960"));
        match offers("UCI_Chess960", &self.options) {
            Some(name) => {
                if !user_sets_960 {
                    self.send(&format!("setoption name {name} value true"))?;
                    self.chess960 = true;
                }
            }
            None => self.warnings.push(
                "does not offer the option UCI_Chess960: it is sent positions and moves in \
                 classical UCI notation and may not play Chess960 correctly"
                    .to_string(),
            ),
        }
        for (key, value) in &config.options {
            match offers(key, &self.options) {
                Some(name) => {
                    if name.eq_ignore_ascii_case("UCI_Chess960") {
                        self.chess960 = value.trim().eq_ignore_ascii_case("true");
                    }
                    let kind = self
                        .options
                        .iter()
                        .find(|o| o.name == name)
                        .map(|o| o.kind.as_str());
                    if kind == Some("button") {
                        self.send(&format!("setoption name {name}"))?;
                    } else {
                        self.send(&format!("setoption name {name} value {value}"))?;
                    }
                }
                None => self.warnings.push(format!(
                    "has no option '{key}' (not set; it offers: {})",
                    self.options
                        .iter()
                        .map(|o| o.name.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                )),
            }
        }
        self.ready(stop).map_err(startup)
    }

    /// The name from `id name`.
    pub fn reported_name(&self) -> Option<&str> {
        self.name.as_deref()
    }

    /// The author from `id author`.
    pub fn reported_author(&self) -> Option<&str> {
        self.author.as_deref()
    }

    /// Start-up warnings.
    pub fn warnings(&self) -> &[String] {
        &self.warnings
    }

    /// Whether castling is spoken king-onto-rook (`UCI_Chess960` on).
    pub fn chess960(&self) -> bool {
        self.chess960
    }

    /// The options the engine offers.
    pub fn options(&self) -> &[UciOption] {
        &self.options
    }

    /// `ucinewgame`, then `isready` … `readyok`.
    pub fn new_game(&mut self, stop: &AtomicBool) -> Result<(), Fault> {
        self.process.drain();
        self.send("ucinewgame")?;
        self.ready(stop)
    }

    fn ready(&mut self, stop: &AtomicBool) -> Result<(), Fault> {
        self.send("isready")?;
        let deadline = Instant::now() + self.timeout;
        loop {
            if self.read(deadline, stop, "readyok", self.timeout)?.trim() == "readyok" {
                return Ok(());
            }
        }
    }

    /// Sends the position and `go`, and reads until `bestmove`.
    pub fn think(&mut self, turn: &Turn) -> Result<Reply, Fault> {
        let mode = if self.chess960 {
            CastlingMode::Chess960
        } else {
            CastlingMode::Standard
        };
        let dialect = if self.chess960 {
            CastlingDialect::Shredder
        } else {
            CastlingDialect::XFen
        };
        let game = turn.game;
        let mut position = format!("position fen {}", game.start().to_fen(dialect));
        if !game.moves().is_empty() {
            position.push_str(" moves");
            for m in game.moves() {
                position.push(' ');
                position.push_str(&m.to_uci(mode));
            }
        }
        self.send(&position)?;
        let go = go_command(turn, &self.limits);
        self.send(&go)?;
        let started = Instant::now();
        let deadline = started + turn.wait;
        let pos = game.position();
        let mut info = SearchInfo::default();
        let mut unknown = 0usize;
        loop {
            let line = self.read(deadline, turn.stop, "bestmove", turn.wait)?;
            let mut tokens = line.split_whitespace();
            match tokens.next() {
                Some("info") => {
                    parse_info(&line, &mut info);
                    turn.report(&info, started);
                }
                Some("bestmove") => {
                    let elapsed = started.elapsed();
                    let Some(text) = tokens.next() else {
                        return Err(Fault::Garbage {
                            line: excerpt(&line, 80),
                        });
                    };
                    return match pos.parse_uci(text, mode) {
                        Ok(m) => Ok(Reply {
                            action: Action::Move(m),
                            info,
                            elapsed,
                        }),
                        Err(UciError::Syntax { .. }) if text == "(none)" || text == "0000" => {
                            Err(Fault::IllegalMove {
                                text: excerpt(text, 20),
                                reason: "a null move, but there are legal moves".to_string(),
                            })
                        }
                        Err(UciError::Syntax { .. }) => Err(Fault::Garbage {
                            line: excerpt(&line, 80),
                        }),
                        Err(UciError::Illegal { reason, .. }) => Err(Fault::IllegalMove {
                            text: excerpt(text, 20),
                            reason,
                        }),
                    };
                }
                // Protocol lines out of place (a late readyok, a repeated id) are harmless.
                None
                | Some("id" | "option" | "uciok" | "readyok" | "copyprotection")
                | Some("registration") => {}
                Some(_) => {
                    unknown += 1;
                    if unknown > MAX_UNKNOWN_LINES {
                        return Err(Fault::Garbage {
                            line: format!(
                                "{} (and {MAX_UNKNOWN_LINES} more lines that are not UCI)",
                                excerpt(&line, 60)
                            ),
                        });
                    }
                }
            }
        }
    }

    /// `quit`, then a kill if the engine does not exit.
    pub fn quit(&mut self) {
        self.process
            .shutdown(Some("quit"), Duration::from_millis(500));
    }

    fn send(&mut self, line: &str) -> Result<(), Fault> {
        self.process.send(line).map_err(|_| self.crashed())
    }

    fn read(
        &mut self,
        deadline: Instant,
        stop: &AtomicBool,
        waiting_for: &str,
        waited: Duration,
    ) -> Result<String, Fault> {
        match self.process.read_line(deadline, stop) {
            Ok(line) => Ok(line),
            Err(ReadError::Timeout) => Err(Fault::NoReply {
                waiting_for: waiting_for.to_string(),
                waited,
            }),
            Err(ReadError::Eof) => Err(self.crashed()),
            Err(ReadError::Stopped) => Err(Fault::Stopped),
        }
    }

    fn crashed(&mut self) -> Fault {
        crash_fault(&mut self.process)
    }
}

/// The fault for a process that closed its output: how it exited, and its last stderr lines.
pub(crate) fn crash_fault(process: &mut Process) -> Fault {
    let mut detail = process
        .exit_description(Duration::from_millis(300))
        .unwrap_or_else(|| "it closed its output".to_string());
    let tail = process.stderr_tail();
    if !tail.is_empty() {
        detail.push_str("; stderr: ");
        detail.push_str(&excerpt(&tail, 200));
    }
    Fault::Crashed { detail }
}

/// `go wtime … btime … winc … binc … movestogo …`, `go movetime …`, with `nodes`/`depth`.
pub fn go_command(turn: &Turn, limits: &Limits) -> String {
    let mut go = String::from("go");
    let own = turn.clock(turn.side());
    if let Some(st) = limits.st {
        go.push_str(&format!(" movetime {}", st.as_millis().max(1)));
    } else if limits.clock.is_some() {
        // The opponent's clock, when it has none (a handicap match), is shown as ours.
        let w = if turn.white.limits().clock.is_some() {
            turn.white
        } else {
            own
        };
        let b = if turn.black.limits().clock.is_some() {
            turn.black
        } else {
            own
        };
        let inc = |c: &crate::timecontrol::Clock| {
            c.limits().clock.map_or(0, |tc| tc.increment.as_millis())
        };
        go.push_str(&format!(
            " wtime {} btime {}",
            w.left().as_millis().max(1),
            b.left().as_millis().max(1)
        ));
        let (wi, bi) = (inc(w), inc(b));
        if wi > 0 || bi > 0 {
            go.push_str(&format!(" winc {wi} binc {bi}"));
        }
        if let Some(mtg) = own.moves_to_go() {
            go.push_str(&format!(" movestogo {mtg}"));
        }
    }
    if let Some(n) = limits.nodes {
        go.push_str(&format!(" nodes {n}"));
    }
    if let Some(d) = limits.depth {
        go.push_str(&format!(" depth {d}"));
    }
    if go == "go" {
        // Unreachable with a validated configuration (some limit is required).
        go.push_str(" infinite");
    }
    go
}

/// Reads `name <NAME> type <TYPE> …` (after `option `).
pub fn parse_option(rest: &str) -> Option<UciOption> {
    let rest = rest.trim().strip_prefix("name ")?;
    // The name may contain spaces; it ends at the token `type`.
    let (name, after) = match rest.find(" type ") {
        Some(i) => (&rest[..i], &rest[i + " type ".len()..]),
        None => (rest, ""),
    };
    let kind = after.split_whitespace().next().unwrap_or("").to_string();
    let name = name.trim();
    if name.is_empty() {
        return None;
    }
    Some(UciOption {
        name: name.to_string(),
        kind,
    })
}

/// Folds one `info` line into `info`. Score, depth and PV are taken only from lines that
/// carry a score or a PV (a `currmove` line's depth is not a finished iteration); lines of a
/// secondary `multipv` are skipped. Malformed numbers are ignored, never fatal.
pub fn parse_info(line: &str, info: &mut SearchInfo) {
    let mut t = line.split_whitespace().skip(1).peekable();
    let mut depth = None;
    let mut seldepth = None;
    let mut score = None;
    let mut pv: Option<Vec<String>> = None;
    while let Some(tok) = t.next() {
        match tok {
            "depth" => depth = t.next().and_then(|v| v.parse().ok()),
            "seldepth" => seldepth = t.next().and_then(|v| v.parse().ok()),
            "nodes" => {
                if let Some(n) = t.next().and_then(|v| v.parse().ok()) {
                    info.nodes = Some(n);
                }
            }
            "time" => {
                if let Some(n) = t.next().and_then(|v| v.parse().ok()) {
                    info.time_ms = Some(n);
                }
            }
            // Lines of a secondary PV are not the engine's choice.
            "multipv" if t.next().and_then(|v| v.parse::<u32>().ok()).unwrap_or(1) != 1 => return,
            "score" => match (t.next(), t.next().and_then(|v| v.parse::<i32>().ok())) {
                (Some("cp"), Some(v)) => score = Some(Score::Cp(v)),
                (Some("mate"), Some(v)) => score = Some(Score::Mate(v)),
                _ => {}
            },
            "pv" => {
                pv = Some(t.by_ref().map(str::to_string).collect());
            }
            "string" | "refutation" | "currline" => break,
            "wdl" => {
                t.next();
                t.next();
                t.next();
            }
            "currmove" | "currmovenumber" | "hashfull" | "nps" | "tbhits" | "sbhits"
            | "cpuload" => {
                t.next();
            }
            _ => {}
        }
    }
    if score.is_some() || pv.is_some() {
        if score.is_some() {
            info.score = score;
        }
        if depth.is_some() {
            info.depth = depth;
        }
        if seldepth.is_some() {
            info.seldepth = seldepth;
        }
        if let Some(pv) = pv {
            info.pv = pv;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn info_lines() {
        let mut info = SearchInfo::default();
        parse_info(
            "info depth 12 seldepth 18 multipv 1 score cp 35 nodes 12345 nps 1 time 800 pv e2e4 e7e5",
            &mut info,
        );
        assert_eq!(info.score, Some(Score::Cp(35)));
        assert_eq!(info.depth, Some(12));
        assert_eq!(info.seldepth, Some(18));
        assert_eq!(info.nodes, Some(12345));
        assert_eq!(info.time_ms, Some(800));
        assert_eq!(info.pv, vec!["e2e4", "e7e5"]);
        parse_info("info depth 13 currmove d2d4 currmovenumber 2", &mut info);
        assert_eq!(info.depth, Some(12), "a currmove line is not an iteration");
        parse_info("info multipv 2 depth 14 score cp -300 pv d2d4", &mut info);
        assert_eq!(
            info.score,
            Some(Score::Cp(35)),
            "secondary lines are skipped"
        );
        parse_info(
            "info depth 14 score mate -3 lowerbound nodes x pv a",
            &mut info,
        );
        assert_eq!(info.score, Some(Score::Mate(-3)));
        parse_info("info string score cp 999 pv junk", &mut info);
        assert_eq!(info.score, Some(Score::Mate(-3)));
        parse_info("info score cp", &mut info);
        parse_info("info depth -1 score cp 99999999999", &mut info);
    }

    #[test]
    fn options() {
        let o = parse_option("name Skill Level type spin default 20 min 0 max 20").unwrap();
        assert_eq!(o.name, "Skill Level");
        assert_eq!(o.kind, "spin");
        let o = parse_option("name Clear Hash type button").unwrap();
        assert_eq!((o.name.as_str(), o.kind.as_str()), ("Clear Hash", "button"));
        assert_eq!(parse_option("garbage"), None);
    }
}
