//! The xboard side (Chess Engine Communication Protocol, version 2).
//!
//! Handshake `xboard` / `protover 2` and the `feature` replies (`done=0` extends the wait, as
//! the protocol asks); a game is `new`, `variant fischerandom`, `force`, `setboard <X-FEN>`,
//! `level`/`st`/`sd`; moves go in coordinate notation or SAN as the engine's `san` feature says,
//! always with castling as `O-O`/`O-O-O` (the protocol's form for Fischer Random); `time` and
//! `otim` in centiseconds before each move. The engine's moves are read in either notation, as
//! the protocol allows, castling also as king onto rook or the king's destination.

use crate::engine::{Action, EngineConfig, Fault, Reply, Score, SearchInfo, Turn};
use crate::process::{excerpt, DebugLog, Process, ReadError};
use crate::timecontrol::{Clock, Limits};
use crate::uci::{crash_fault, MAX_UNKNOWN_LINES};
use chess960_core::{
    CastlingDialect, CastlingMode, CastlingSide, Color, Move, Position, SanError, UciError,
};
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

/// How long a protocol-2 engine gets to send its features when it does not say `done=0`
/// (the protocol's own figure).
const FEATURE_WAIT: Duration = Duration::from_secs(2);

/// The features this interface understands (and so accepts).
const KNOWN_FEATURES: &[&str] = &[
    "ping",
    "setboard",
    "playother",
    "san",
    "usermove",
    "time",
    "draw",
    "sigint",
    "sigterm",
    "reuse",
    "analyze",
    "myname",
    "variants",
    "colors",
    "ics",
    "name",
    "pause",
    "nps",
    "debug",
    "memory",
    "smp",
    "egt",
    "option",
    "exclude",
    "setscore",
    "highlight",
    "done",
];

/// What the engine announced with `feature`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Features {
    /// `ping=1`: `ping N` is answered with `pong N`.
    pub ping: bool,
    /// `setboard=1`.
    pub setboard: bool,
    /// `san=1`: moves are sent in SAN.
    pub san: bool,
    /// `usermove=1`: moves are sent as `usermove MOVE`.
    pub usermove: bool,
    /// `time=0` turns off `time`/`otim`.
    pub time: bool,
    /// The `variants` list, if sent.
    pub variants: Option<Vec<String>>,
    /// `myname`.
    pub myname: Option<String>,
    /// Option names from `feature option="NAME -type …"`.
    pub options: Vec<String>,
}

impl Default for Features {
    fn default() -> Features {
        Features {
            ping: false,
            setboard: false,
            san: false,
            usermove: false,
            time: true,
            variants: None,
            myname: None,
            options: Vec::new(),
        }
    }
}

/// A running xboard engine.
#[derive(Debug)]
pub struct XboardEngine {
    process: Process,
    features: Features,
    limits: Limits,
    timeout: Duration,
    white_pov: bool,
    warnings: Vec<String>,
    color: Color,
    /// How many moves of the current game the engine knows.
    sent: usize,
    /// Whether the engine is in force mode (it does not move by itself).
    forced: bool,
    last_sent: String,
    ping: u32,
}

impl XboardEngine {
    /// Starts the engine: `xboard`, `protover 2`, features, options, init strings.
    pub fn start(
        config: &EngineConfig,
        debug: Option<DebugLog>,
        stop: &AtomicBool,
    ) -> Result<XboardEngine, Fault> {
        let process =
            Process::spawn(&config.spawn, debug).map_err(|e| Fault::Startup(e.to_string()))?;
        let mut engine = XboardEngine {
            process,
            features: Features::default(),
            limits: config.limits,
            timeout: config.timeout,
            white_pov: config.white_pov,
            warnings: Vec::new(),
            color: Color::White,
            sent: 0,
            forced: true,
            last_sent: String::new(),
            ping: 0,
        };
        engine.handshake(config, stop)?;
        Ok(engine)
    }

    fn handshake(&mut self, config: &EngineConfig, stop: &AtomicBool) -> Result<(), Fault> {
        let startup = |f: Fault| match f {
            Fault::Crashed { detail } => {
                Fault::Startup(format!("it exited during the handshake ({detail})"))
            }
            Fault::NoReply { waited, .. } => Fault::Startup(format!(
                "no 'feature done=1' within {}s (timeout= waits longer)",
                crate::timecontrol::seconds(waited)
            )),
            other => other,
        };
        self.send("xboard").map_err(startup)?;
        self.send("protover 2").map_err(startup)?;
        let mut deadline = Instant::now() + FEATURE_WAIT;
        loop {
            let line = match self.process.read_line(deadline, stop) {
                Ok(line) => line,
                // A protocol-1 engine sends no features: the wait simply ends.
                Err(ReadError::Timeout) => break,
                Err(ReadError::Eof) => return Err(startup(self.crashed())),
                Err(ReadError::Stopped) => return Err(Fault::Stopped),
            };
            let Some(rest) = line.trim().strip_prefix("feature ") else {
                continue;
            };
            let mut done = None;
            for (key, value) in parse_features(rest) {
                let known = KNOWN_FEATURES.contains(&key.as_str());
                self.send(&format!(
                    "{} {key}",
                    if known { "accepted" } else { "rejected" }
                ))
                .map_err(startup)?;
                let on = value == "1";
                match key.as_str() {
                    "ping" => self.features.ping = on,
                    "setboard" => self.features.setboard = on,
                    "san" => self.features.san = on,
                    "usermove" => self.features.usermove = on,
                    "time" => self.features.time = on,
                    "myname" => self.features.myname = Some(value.clone()),
                    "variants" => {
                        self.features.variants =
                            Some(value.split(',').map(|v| v.trim().to_string()).collect())
                    }
                    "option" => {
                        if let Some(name) = value.split(" -").next() {
                            self.features.options.push(name.trim().to_string());
                        }
                    }
                    "done" => done = Some(on),
                    _ => {}
                }
            }
            match done {
                Some(true) => break,
                // The engine needs time to start (polyglot starts its UCI engine now).
                Some(false) => deadline = Instant::now() + self.timeout.max(FEATURE_WAIT),
                None => {}
            }
        }
        match &self.features.variants {
            None => {
                return Err(Fault::Unsupported(
                    "it announced no variants (feature variants=\"…,fischerandom\")".to_string(),
                ))
            }
            Some(v) if !v.iter().any(|v| v.eq_ignore_ascii_case("fischerandom")) => {
                return Err(Fault::Unsupported(format!(
                    "its variants ({}) do not include fischerandom",
                    v.join(",")
                )))
            }
            Some(_) => {}
        }
        if !self.features.setboard {
            return Err(Fault::Unsupported(
                "it lacks feature setboard=1, needed to set up a start position".to_string(),
            ));
        }
        for (key, value) in &config.options {
            if !self.features.options.iter().any(|o| o == key) {
                self.warnings.push(format!(
                    "announced no option '{key}' (sent anyway; it offers: {})",
                    self.features.options.join(", ")
                ));
            }
            self.send(&format!("option {key}={value}"))?;
        }
        for line in &config.init_strings {
            self.send(line)?;
        }
        self.sync(stop).map_err(startup)
    }

    /// The name from `feature myname`.
    pub fn reported_name(&self) -> Option<&str> {
        self.features.myname.as_deref()
    }

    /// Start-up warnings.
    pub fn warnings(&self) -> &[String] {
        &self.warnings
    }

    /// The announced features.
    pub fn features(&self) -> &Features {
        &self.features
    }

    /// Sets up a new game from `start`, the engine playing `color`, in force mode.
    pub fn new_game(
        &mut self,
        start: &Position,
        color: Color,
        stop: &AtomicBool,
    ) -> Result<(), Fault> {
        self.process.drain();
        self.send("new")?;
        self.send("variant fischerandom")?;
        self.send("force")?;
        self.send(&format!("setboard {}", start.to_fen(CastlingDialect::XFen)))?;
        // After `new`: it resets the time control and the depth limit.
        if let Some(tc) = self.limits.clock {
            let base = tc.base.as_secs();
            let inc = crate::timecontrol::seconds(tc.increment);
            self.send(&format!(
                "level {} {}:{:02} {inc}",
                tc.moves,
                base / 60,
                base % 60
            ))?;
        } else if let Some(st) = self.limits.st {
            self.send(&format!("st {}", st.as_secs().max(1)))?;
        }
        if let Some(d) = self.limits.depth {
            self.send(&format!("sd {d}"))?;
        }
        self.send("post")?;
        self.send("easy")?;
        self.send("computer")?;
        self.color = color;
        self.sent = 0;
        self.forced = true;
        self.sync(stop)
    }

    /// `ping N` … `pong N`, when the engine supports it.
    fn sync(&mut self, stop: &AtomicBool) -> Result<(), Fault> {
        if !self.features.ping {
            return Ok(());
        }
        self.ping += 1;
        let n = self.ping;
        self.send(&format!("ping {n}"))?;
        let deadline = Instant::now() + self.timeout;
        let want = format!("pong {n}");
        loop {
            match self.process.read_line(deadline, stop) {
                Ok(line) if line.trim() == want => return Ok(()),
                Ok(_) => {}
                Err(ReadError::Timeout) => {
                    return Err(Fault::NoReply {
                        waiting_for: want,
                        waited: self.timeout,
                    })
                }
                Err(ReadError::Eof) => return Err(self.crashed()),
                Err(ReadError::Stopped) => return Err(Fault::Stopped),
            }
        }
    }

    fn move_text(&self, pos: &Position, m: Move) -> String {
        let text = if let Some(side) = m.castling_side() {
            side.san().to_string()
        } else if self.features.san {
            pos.san(m)
        } else {
            m.to_uci(CastlingMode::Chess960)
        };
        if self.features.usermove {
            format!("usermove {text}")
        } else {
            text
        }
    }

    fn send_clocks(&mut self, turn: &Turn) -> Result<(), Fault> {
        if !self.features.time || self.limits.clock.is_none() {
            return Ok(());
        }
        let cs = |c: &Clock| c.left().as_millis() / 10;
        let own = cs(turn.clock(self.color));
        let opp = cs(turn.clock(!self.color));
        self.send(&format!("time {own}"))?;
        self.send(&format!("otim {opp}"))
    }

    /// Sends what the engine has not seen yet and reads its move.
    pub fn think(&mut self, turn: &Turn) -> Result<Reply, Fault> {
        let game = turn.game;
        let moves = game.moves();
        let positions = game.positions();
        let unsent = moves.len().saturating_sub(self.sent);
        if self.forced || unsent != 1 {
            // First move of the engine in this game (or out of step): feed the moves in force
            // mode, then `go`.
            if !self.forced {
                self.send("force")?;
            }
            for i in self.sent..moves.len() {
                let text = self.move_text(&positions[i], moves[i]);
                self.last_sent = text.clone();
                self.send(&text)?;
            }
            self.send_clocks(turn)?;
            self.send("go")?;
            self.forced = false;
        } else {
            // In play mode the opponent's move starts the engine thinking.
            self.send_clocks(turn)?;
            let i = moves.len() - 1;
            let text = self.move_text(&positions[i], moves[i]);
            self.last_sent = text.clone();
            self.send(&text)?;
        }
        self.sent = moves.len();
        let started = Instant::now();
        let deadline = started + turn.wait;
        let pos = game.position();
        let mut info = SearchInfo::default();
        let mut unknown = 0usize;
        loop {
            let line = match self.process.read_line(deadline, turn.stop) {
                Ok(line) => line,
                Err(ReadError::Timeout) => {
                    return Err(Fault::NoReply {
                        waiting_for: "move".to_string(),
                        waited: turn.wait,
                    })
                }
                Err(ReadError::Eof) => return Err(self.crashed()),
                Err(ReadError::Stopped) => return Err(Fault::Stopped),
            };
            let elapsed = started.elapsed();
            let trimmed = line.trim();
            let reply = |action| Reply {
                action,
                info: info.clone(),
                elapsed,
            };
            if let Some(text) = move_of(trimmed) {
                let m = parse_move(pos, text, &line)?;
                self.sent += 1;
                return Ok(reply(Action::Move(m)));
            }
            if trimmed == "resign" {
                return Ok(reply(Action::Resign));
            }
            if let Some((result, comment)) = parse_claim(trimmed) {
                return Ok(reply(Action::Claim { result, comment }));
            }
            if trimmed.starts_with("Illegal move") {
                return Err(Fault::RejectedMove {
                    mv: self.last_sent.trim_start_matches("usermove ").to_string(),
                    line: excerpt(trimmed, 80),
                });
            }
            if parse_thinking(trimmed, self.white_pov, self.color, &mut info) {
                turn.report(&info, started);
                continue;
            }
            let first = trimmed.split_whitespace().next().unwrap_or("");
            let harmless = trimmed.is_empty()
                || trimmed.starts_with('#')
                || matches!(
                    first,
                    "pong"
                        | "feature"
                        | "Error"
                        | "tellics"
                        | "tellicsnoalias"
                        | "telluser"
                        | "tellusererror"
                        | "tellopponent"
                        | "tellothers"
                        | "tellall"
                        | "askuser"
                        | "offer"
                        | "hint:"
                        | "Hint:"
                        | "setscore"
                );
            if !harmless {
                unknown += 1;
                if unknown > MAX_UNKNOWN_LINES {
                    return Err(Fault::Garbage {
                        line: format!(
                            "{} (and {MAX_UNKNOWN_LINES} more lines that are not xboard)",
                            excerpt(trimmed, 60)
                        ),
                    });
                }
            }
        }
    }

    /// Tells the engine the result (`result 1-0 {reason}`) and puts it in force mode.
    pub fn game_over(&mut self, result: &str, reason: &str) {
        let reason: String = reason.chars().filter(|&c| c != '}').collect();
        let _ = self.process.send(&format!("result {result} {{{reason}}}"));
        let _ = self.process.send("force");
        self.forced = true;
    }

    /// `quit`, then a kill if the engine does not exit.
    pub fn quit(&mut self) {
        self.process
            .shutdown(Some("quit"), Duration::from_millis(500));
    }

    fn send(&mut self, line: &str) -> Result<(), Fault> {
        self.process
            .send(line)
            .map_err(|_| crash_fault(&mut self.process))
    }

    fn crashed(&mut self) -> Fault {
        crash_fault(&mut self.process)
    }
}

/// The move of a `move X` (or old-style `My move is: X`) line.
fn move_of(line: &str) -> Option<&str> {
    if let Some(rest) = line.strip_prefix("move ") {
        return rest.split_whitespace().next();
    }
    for prefix in ["My move is:", "My move is :"] {
        if let Some(rest) = line.strip_prefix(prefix) {
            return rest.split_whitespace().next();
        }
    }
    None
}

/// Reads an engine's move in any notation the protocol allows: `O-O`, coordinates (`e2e4`,
/// `e7e8q`, castling as king onto rook or the king's destination), or SAN.
pub fn parse_move(pos: &Position, text: &str, line: &str) -> Result<Move, Fault> {
    let illegal = |reason: String| Fault::IllegalMove {
        text: excerpt(text, 20),
        reason,
    };
    let garbage = || Fault::Garbage {
        line: excerpt(line, 80),
    };
    let b = text.as_bytes();
    let coordinate = (4..=6).contains(&b.len())
        && (b'a'..=b'h').contains(&b[0])
        && (b'1'..=b'8').contains(&b[1])
        && (b'a'..=b'h').contains(&b[2])
        && (b'1'..=b'8').contains(&b[3]);
    if coordinate {
        // `e7e8=q` and `e7e8Q` are seen in the wild.
        let norm: String = text
            .chars()
            .filter(|&c| c != '=')
            .map(|c| c.to_ascii_lowercase())
            .collect();
        // Standard mode reads both castling forms; a one-square king move stays a king move.
        return pos
            .parse_uci(&norm, CastlingMode::Standard)
            .map_err(|e| match e {
                UciError::Syntax { .. } => garbage(),
                UciError::Illegal { reason, .. } => illegal(reason),
            });
    }
    pos.parse_san(text).map_err(|e| match e {
        SanError::Syntax { .. } => garbage(),
        other => illegal(other.to_string()),
    })
}

/// A result claim: `1-0 {White mates}`.
fn parse_claim(line: &str) -> Option<(String, String)> {
    for result in ["1-0", "0-1", "1/2-1/2"] {
        if let Some(rest) = line.strip_prefix(result) {
            if rest.is_empty() || rest.starts_with(' ') {
                let comment = rest
                    .trim()
                    .trim_start_matches('{')
                    .trim_end_matches('}')
                    .trim()
                    .to_string();
                return Some((result.to_string(), comment));
            }
        }
    }
    None
}

/// Reads a thinking line `PLY SCORE TIME NODES PV…` (time in centiseconds, score in
/// centipawns, mates as ±(100000 + N)). Returns whether the line was one.
fn parse_thinking(line: &str, white_pov: bool, color: Color, info: &mut SearchInfo) -> bool {
    let mut t = line.split_whitespace();
    let num = |s: Option<&str>| -> Option<i64> {
        let s = s?.trim_end_matches(['.', '&', '!', '?']);
        s.parse().ok()
    };
    let (Some(ply), Some(score), Some(time), Some(nodes)) =
        (num(t.next()), num(t.next()), num(t.next()), num(t.next()))
    else {
        return false;
    };
    let score = i32::try_from(score.clamp(-1_000_000, 1_000_000)).unwrap_or(0);
    let mut score = if score.abs() >= 100_000 {
        let n = score.abs() - 100_000;
        Score::Mate(if score > 0 { n } else { -n })
    } else {
        Score::Cp(score)
    };
    if white_pov && color == Color::Black {
        score = score.flipped();
    }
    info.score = Some(score);
    info.depth = u32::try_from(ply).ok();
    info.time_ms = u64::try_from(time).ok().map(|cs| cs.saturating_mul(10));
    info.nodes = u64::try_from(nodes).ok();
    info.pv = t.map(str::to_string).collect();
    true
}

/// Splits `a=1 b="x y" c=z` into pairs; quotes group values with spaces.
pub fn parse_features(text: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut rest = text.trim();
    while !rest.is_empty() {
        let Some(eq) = rest.find('=') else { break };
        let key = rest[..eq].trim().to_string();
        let after = &rest[eq + 1..];
        let (value, remaining) = if let Some(q) = after.strip_prefix('"') {
            match q.find('"') {
                Some(end) => (q[..end].to_string(), &q[end + 1..]),
                None => (q.to_string(), ""),
            }
        } else {
            match after.find(char::is_whitespace) {
                Some(end) => (after[..end].to_string(), &after[end..]),
                None => (after.to_string(), ""),
            }
        };
        out.push((key, value));
        rest = remaining.trim_start();
    }
    out
}

/// The castling side named by `O-O`/`O-O-O` text, if it is one.
pub fn castling_text(text: &str) -> Option<CastlingSide> {
    match text.trim_end_matches(['+', '#']) {
        "O-O" | "0-0" => Some(CastlingSide::HSide),
        "O-O-O" | "0-0-0" => Some(CastlingSide::ASide),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chess960_core::StartId;

    #[test]
    fn features() {
        let f = parse_features(
            r#"ping=1 setboard=1 myname="Stockfish 15.1" variants="normal,fischerandom" done=0"#,
        );
        assert_eq!(f[2], ("myname".into(), "Stockfish 15.1".into()));
        assert_eq!(f[3].1, "normal,fischerandom");
        assert_eq!(f[4], ("done".into(), "0".into()));
        assert!(parse_features("garbage").is_empty());
        assert_eq!(parse_features(r#"x="unterminated"#)[0].1, "unterminated");
    }

    #[test]
    fn moves_in_every_notation() {
        let pos = Position::from_fen(
            "rnbqk2r/pppp1ppp/5n2/2b1p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
        )
        .unwrap();
        let castle = pos.parse_san("O-O").unwrap();
        for text in ["O-O", "0-0", "e1h1", "e1g1"] {
            assert_eq!(parse_move(&pos, text, text).unwrap(), castle, "{text}");
        }
        assert_eq!(
            parse_move(&pos, "Nxe5", "").unwrap(),
            pos.parse_san("Nxe5").unwrap()
        );
        assert!(matches!(
            parse_move(&pos, "e1e3", ""),
            Err(Fault::IllegalMove { .. })
        ));
        assert!(matches!(
            parse_move(&pos, "@@@", ""),
            Err(Fault::Garbage { .. })
        ));
        let start = StartId::new(518).unwrap().position();
        assert!(parse_move(&start, "e2e4", "").is_ok());
    }

    #[test]
    fn thinking_and_claims() {
        let mut info = SearchInfo::default();
        assert!(parse_thinking(
            "12 35 80 12345 e4 e5",
            false,
            Color::White,
            &mut info
        ));
        assert_eq!(info.score, Some(Score::Cp(35)));
        assert_eq!(info.time_ms, Some(800));
        assert!(parse_thinking(
            "9 -100003 5 10 Qh5",
            false,
            Color::White,
            &mut info
        ));
        assert_eq!(info.score, Some(Score::Mate(-3)));
        assert!(parse_thinking("9 50 5 10", true, Color::Black, &mut info));
        assert_eq!(info.score, Some(Score::Cp(-50)));
        assert!(!parse_thinking("move e2e4", false, Color::White, &mut info));
        assert_eq!(
            parse_claim("1-0 {White mates}"),
            Some(("1-0".into(), "White mates".into()))
        );
        assert_eq!(parse_claim("1-0x"), None);
        assert_eq!(move_of("move e2e4"), Some("e2e4"));
        assert_eq!(move_of("My move is: Nf3"), Some("Nf3"));
        assert_eq!(castling_text("O-O-O+"), Some(CastlingSide::ASide));
    }
}
