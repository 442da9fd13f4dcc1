//! `chess960-random-engine`: a tiny UCI and xboard engine that plays Chess960 legally and
//! badly (a mate in one if it sees one, else the most valuable capture, else a random move),
//! with switches that make it misbehave on purpose. It is the sparring partner of the match
//! runner's tests, and a quick way to check a match set-up without a real engine.
//!
//! ```text
//! chess960-random-engine [--proto uci|xboard] [--name NAME] [--seed N] [--score CP]
//!     [--slow MS] [--crash-after N] [--hang-after N] [--illegal-after N] [--garbage-after N]
//!     [--resign-after N] [--claim-after N] [--reject-after N] [--wrong-castling] [--no960]
//!     [--san] [--once FILE]
//! ```
//!
//! `--X-after N` misbehaves instead of making move N+1 of the process. With `--once FILE`
//! the fault happens only if FILE does not exist yet (it is created then), so a restarted
//! engine plays normally: the tests use it to check that a match goes on after a fault.
//! `--wrong-castling` prefers castling and writes it as the king's destination (`e1g1`) even
//! though `UCI_Chess960` is on. `--no960` does not offer `UCI_Chess960`.

use chess960_arena::xboard::parse_move;
use chess960_core::{CastlingMode, Move, Position, Role, StartId};
use std::io::{BufRead, Write};
use std::path::PathBuf;
use std::time::Duration;

#[derive(Default)]
struct Opts {
    xboard: bool,
    name: String,
    seed: u64,
    score: Option<i32>,
    slow: u64,
    crash_after: Option<u32>,
    hang_after: Option<u32>,
    illegal_after: Option<u32>,
    garbage_after: Option<u32>,
    resign_after: Option<u32>,
    claim_after: Option<u32>,
    reject_after: Option<u32>,
    wrong_castling: bool,
    no960: bool,
    san: bool,
    once: Option<PathBuf>,
}

struct Engine {
    opts: Opts,
    pos: Position,
    chess960: bool,
    rng: u64,
    moves_made: u32,
    received: u32,
    force: bool,
}

fn main() {
    let mut opts = Opts {
        name: "Chess960 Random".to_string(),
        seed: u64::from(std::process::id()),
        ..Opts::default()
    };
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut i = 0;
    let num = |i: usize| -> u32 {
        args.get(i + 1)
            .and_then(|v| v.parse().ok())
            .unwrap_or_else(|| usage(&args[i]))
    };
    while i < args.len() {
        match args[i].as_str() {
            "--proto" => {
                opts.xboard = args.get(i + 1).map(String::as_str) == Some("xboard");
                i += 1;
            }
            "--name" => {
                opts.name = args.get(i + 1).cloned().unwrap_or_default();
                i += 1;
            }
            "--seed" => {
                opts.seed = u64::from(num(i));
                i += 1;
            }
            "--score" => {
                opts.score = args.get(i + 1).and_then(|v| v.parse().ok());
                i += 1;
            }
            "--slow" => {
                opts.slow = u64::from(num(i));
                i += 1;
            }
            "--crash-after" => {
                opts.crash_after = Some(num(i));
                i += 1;
            }
            "--hang-after" => {
                opts.hang_after = Some(num(i));
                i += 1;
            }
            "--illegal-after" => {
                opts.illegal_after = Some(num(i));
                i += 1;
            }
            "--garbage-after" => {
                opts.garbage_after = Some(num(i));
                i += 1;
            }
            "--resign-after" => {
                opts.resign_after = Some(num(i));
                i += 1;
            }
            "--claim-after" => {
                opts.claim_after = Some(num(i));
                i += 1;
            }
            "--reject-after" => {
                opts.reject_after = Some(num(i));
                i += 1;
            }
            "--once" => {
                opts.once = args.get(i + 1).map(PathBuf::from);
                i += 1;
            }
            "--wrong-castling" => opts.wrong_castling = true,
            "--no960" => opts.no960 = true,
            "--san" => opts.san = true,
            other => usage(other),
        }
        i += 1;
    }
    let mut e = Engine {
        rng: opts.seed ^ 0x5DEE_CE66_D1CE_4E5B,
        opts,
        pos: StartId::CLASSICAL.position(),
        chess960: false,
        moves_made: 0,
        received: 0,
        force: false,
    };
    let stdin = std::io::stdin();
    for line in stdin.lock().lines() {
        let Ok(line) = line else { break };
        let line = line.trim().to_string();
        if line == "quit" {
            break;
        }
        if e.opts.xboard {
            e.xboard(&line);
        } else {
            e.uci(&line);
        }
    }
}

fn usage(arg: &str) -> ! {
    eprintln!("chess960-random-engine: bad argument '{arg}' (see the source's doc comment)");
    std::process::exit(2);
}

fn out(s: &str) {
    let mut o = std::io::stdout().lock();
    let _ = writeln!(o, "{s}");
    let _ = o.flush();
}

impl Engine {
    fn next(&mut self) -> u64 {
        self.rng = self.rng.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.rng;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Whether fault `after` fires now (before making move `moves_made + 1`).
    fn fires(&self, after: Option<u32>) -> bool {
        let Some(n) = after else { return false };
        if self.moves_made != n {
            return false;
        }
        match &self.opts.once {
            Some(f) if f.exists() => false,
            Some(f) => std::fs::write(f, b"fired").is_ok(),
            None => true,
        }
    }

    fn choose(&mut self) -> Option<Move> {
        let moves = self.pos.legal_moves();
        if moves.is_empty() {
            return None;
        }
        if self.opts.wrong_castling {
            if let Some(m) = moves.iter().find(|m| m.is_castle()) {
                return Some(*m);
            }
        }
        if let Some(m) = moves.iter().find(|m| self.pos.play(**m).is_checkmate()) {
            return Some(*m);
        }
        let value = |r: Option<Role>| match r {
            Some(Role::Queen) => 9,
            Some(Role::Rook) => 5,
            Some(Role::Bishop | Role::Knight) => 3,
            Some(Role::Pawn) => 1,
            _ => 0,
        };
        let best = moves
            .iter()
            .map(|m| value(self.pos.board().role_at(m.to())) * u32::from(!m.is_castle()))
            .max()
            .unwrap_or(0);
        let pool: Vec<Move> = moves
            .iter()
            .copied()
            .filter(|m| value(self.pos.board().role_at(m.to())) * u32::from(!m.is_castle()) == best)
            .collect();
        let k = (self.next() % pool.len() as u64) as usize;
        Some(pool[k])
    }

    fn score(&mut self) -> i32 {
        match self.opts.score {
            Some(s) => s,
            None => (self.next() % 61) as i32 - 30,
        }
    }

    /// An illegal but well-formed move: a pawn (or else any piece) moving backwards.
    fn illegal(&self) -> String {
        let us = self.pos.turn();
        for sq in chess960_core::Square::all() {
            if let Some(p) = self.pos.piece_at(sq) {
                if p.color == us && p.role == Role::Pawn {
                    let back = if us == chess960_core::Color::White {
                        -8
                    } else {
                        8
                    };
                    if let Some(to) = sq.offset(back) {
                        return format!("{sq}{to}");
                    }
                }
            }
        }
        "a1a1".to_string()
    }

    /// Injected faults shared by both protocols; returns true if one replaced the move.
    fn misbehave(&mut self) -> bool {
        if self.fires(self.opts.crash_after) {
            eprintln!("random engine: crashing on purpose");
            std::process::exit(3);
        }
        if self.fires(self.opts.hang_after) {
            loop {
                std::thread::sleep(Duration::from_secs(3600));
            }
        }
        if self.opts.slow > 0 {
            std::thread::sleep(Duration::from_millis(self.opts.slow));
        }
        false
    }

    fn uci(&mut self, line: &str) {
        let mut t = line.split_whitespace();
        match t.next() {
            Some("uci") => {
                out(&format!("id name {}", self.opts.name));
                out("id author the chess960 project");
                if !self.opts.no960 {
                    out("option name UCI_Chess960 type check default false");
                }
                out("option name Hash type spin default 1 min 1 max 64");
                out("uciok");
            }
            Some("isready") => out("readyok"),
            Some("setoption") => {
                let rest: Vec<&str> = t.collect();
                if rest.len() >= 4 && rest[1] == "UCI_Chess960" && rest[2] == "value" {
                    self.chess960 = rest[3] == "true";
                }
            }
            Some("position") => self.set_position(line),
            Some("go") => self.uci_go(),
            _ => {}
        }
    }

    fn mode(&self) -> CastlingMode {
        if self.chess960 {
            CastlingMode::Chess960
        } else {
            CastlingMode::Standard
        }
    }

    fn set_position(&mut self, line: &str) {
        let rest = line.trim_start_matches("position").trim();
        let (fen, moves) = match rest.split_once(" moves ") {
            Some((f, m)) => (f, m),
            None => (rest, ""),
        };
        self.pos = if let Some(f) = fen.strip_prefix("fen ") {
            match Position::from_fen(f.trim()) {
                Ok(p) => p,
                Err(e) => {
                    out(&format!("info string bad fen: {e}"));
                    return;
                }
            }
        } else {
            StartId::CLASSICAL.position()
        };
        for m in moves.split_whitespace() {
            match self.pos.parse_uci(m, self.mode()) {
                Ok(mv) => self.pos = self.pos.play(mv),
                Err(e) => {
                    out(&format!("info string bad move: {e}"));
                    return;
                }
            }
        }
    }

    fn uci_go(&mut self) {
        if self.misbehave() {
            return;
        }
        if self.fires(self.opts.garbage_after) {
            out("this is not UCI");
            out("bestmove ~~garbage~~");
            return;
        }
        if self.fires(self.opts.illegal_after) {
            out(&format!("bestmove {}", self.illegal()));
            return;
        }
        let Some(m) = self.choose() else {
            out("bestmove 0000");
            return;
        };
        let score = self.score();
        let text = if self.opts.wrong_castling && m.is_castle() {
            m.to_uci(CastlingMode::Standard)
        } else {
            m.to_uci(self.mode())
        };
        out(&format!(
            "info depth 1 seldepth 1 score cp {score} nodes {} time 0 pv {text}",
            self.pos.legal_moves().len()
        ));
        self.moves_made += 1;
        out(&format!("bestmove {text}"));
    }

    fn xboard(&mut self, line: &str) {
        let mut t = line.split_whitespace();
        let Some(cmd) = t.next() else { return };
        match cmd {
            "protover" => out(&format!(
                "feature ping=1 setboard=1 usermove=1 san={} sigint=0 sigterm=0 \
                 variants=\"normal,fischerandom\" myname=\"{}\" done=1",
                u8::from(self.opts.san),
                self.opts.name
            )),
            "new" => {
                self.pos = StartId::CLASSICAL.position();
                self.force = false;
            }
            "force" => self.force = true,
            "result" => self.force = true,
            "setboard" => match Position::from_fen(line["setboard".len()..].trim()) {
                Ok(p) => self.pos = p,
                Err(e) => out(&format!("tellusererror Illegal position: {e}")),
            },
            "ping" => out(&format!("pong {}", t.next().unwrap_or("0"))),
            "go" => {
                self.force = false;
                self.xboard_move();
            }
            "usermove" => {
                let text = t.next().unwrap_or("");
                self.received += 1;
                if self.fires_reject() {
                    out(&format!("Illegal move: {text}"));
                    return;
                }
                match parse_move(&self.pos, text, line) {
                    Ok(m) => {
                        self.pos = self.pos.play(m);
                        if !self.force {
                            self.xboard_move();
                        }
                    }
                    Err(_) => out(&format!("Illegal move: {text}")),
                }
            }
            _ => {}
        }
    }

    fn fires_reject(&self) -> bool {
        match self.opts.reject_after {
            Some(n) if self.received == n + 1 => match &self.opts.once {
                Some(f) if f.exists() => false,
                Some(f) => std::fs::write(f, b"fired").is_ok(),
                None => true,
            },
            _ => false,
        }
    }

    fn xboard_move(&mut self) {
        if self.misbehave() {
            return;
        }
        if self.fires(self.opts.garbage_after) {
            out("move ~~garbage~~");
            return;
        }
        if self.fires(self.opts.illegal_after) {
            out(&format!("move {}", self.illegal()));
            return;
        }
        if self.fires(self.opts.resign_after) {
            out("resign");
            return;
        }
        if self.fires(self.opts.claim_after) {
            let claim = if self.pos.turn() == chess960_core::Color::White {
                "1-0"
            } else {
                "0-1"
            };
            out(&format!("{claim} {{I say I won}}"));
            return;
        }
        let Some(m) = self.choose() else { return };
        let score = self.score();
        let text = if let Some(side) = m.castling_side() {
            side.san().to_string()
        } else if self.opts.san {
            self.pos.san(m)
        } else {
            m.to_uci(CastlingMode::Chess960)
        };
        out(&format!("1 {score} 0 1 {text}"));
        self.pos = self.pos.play(m);
        self.moves_made += 1;
        out(&format!("move {text}"));
    }
}
