//! Time controls in cutechess-cli's syntax, and the clocks the referee keeps.
//!
//! `tc=40/60+0.6` (40 moves in 60 s, then again, 0.6 s added per move), `tc=60+0.6`,
//! `tc=0:30+0.1` (minutes:seconds), `tc=inf`; `st=0.5` (seconds per move), `nodes=N` and
//! `depth=N` search limits; `timemargin=MS`, how far past its time an engine may answer before
//! it forfeits (the pipe and the operating system take their share of every move).

use std::fmt;
use std::time::Duration;

/// A game clock: `moves` moves (0 = the whole game) in `base`, plus `increment` per move.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TimeControl {
    /// Moves per period; 0 means the period is the whole game (sudden death).
    pub moves: u32,
    /// Time per period.
    pub base: Duration,
    /// Time added after each move.
    pub increment: Duration,
}

/// Everything that limits an engine's thinking.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Limits {
    /// The game clock; `None` for `tc=inf` (or none given).
    pub clock: Option<TimeControl>,
    /// Fixed time per move (`st=`); excludes a clock.
    pub st: Option<Duration>,
    /// Node limit per move.
    pub nodes: Option<u64>,
    /// Depth limit per move.
    pub depth: Option<u32>,
    /// Grace past the allowed time before a time forfeit.
    pub margin: Duration,
}

impl Limits {
    /// Whether time is measured at all (a clock or `st=`): otherwise a slow engine is a hang,
    /// not a time loss.
    pub fn is_timed(&self) -> bool {
        self.clock.is_some() || self.st.is_some()
    }

    /// Whether a search would ever end on its own: some limit must be given.
    pub fn is_bounded(&self) -> bool {
        self.is_timed() || self.nodes.is_some() || self.depth.is_some()
    }

    /// The value of the PGN `TimeControl` tag (PGN standard §9.6.1): `40/60`, `60+0.6`,
    /// `40/60+0.6`; `-` when there is no game clock (`st=`, `nodes=`, `depth=` and `inf` are not
    /// clocks).
    pub fn pgn(&self) -> String {
        match self.clock {
            Some(tc) => tc.to_string(),
            None => "-".to_string(),
        }
    }

    /// The limits in cutechess syntax, for messages: `tc=40/60+0.6 nodes=1000`.
    pub fn describe(&self) -> String {
        let mut parts = Vec::new();
        if let Some(tc) = self.clock {
            parts.push(format!("tc={tc}"));
        }
        if let Some(st) = self.st {
            parts.push(format!("st={}", seconds(st)));
        }
        if let Some(n) = self.nodes {
            parts.push(format!("nodes={n}"));
        }
        if let Some(d) = self.depth {
            parts.push(format!("depth={d}"));
        }
        if parts.is_empty() {
            parts.push("tc=inf".to_string());
        }
        parts.join(" ")
    }
}

impl fmt::Display for TimeControl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.moves > 0 {
            write!(f, "{}/", self.moves)?;
        }
        f.write_str(&seconds(self.base))?;
        if !self.increment.is_zero() {
            write!(f, "+{}", seconds(self.increment))?;
        }
        Ok(())
    }
}

/// A duration in seconds with up to three decimals and no trailing zeros: `60`, `0.6`.
pub fn seconds(d: Duration) -> String {
    let ms = d.as_millis();
    let (s, frac) = (ms / 1000, ms % 1000);
    if frac == 0 {
        format!("{s}")
    } else {
        let f = format!("{frac:03}");
        format!("{s}.{}", f.trim_end_matches('0'))
    }
}

/// Why a time control was not understood.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TimeControlError(pub String);

impl fmt::Display for TimeControlError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for TimeControlError {}

/// Parses a `tc=` value: `40/60+0.6`, `60+0.6`, `0:30+0.1`, `40/1:30`, `inf`. `Ok(None)` is
/// the infinite time control.
pub fn parse_tc(text: &str) -> Result<Option<TimeControl>, TimeControlError> {
    let t = text.trim();
    if t.eq_ignore_ascii_case("inf") || t.eq_ignore_ascii_case("infinite") {
        return Ok(None);
    }
    let bad = |why: &str| {
        TimeControlError(format!(
            "invalid time control '{text}': {why} (expected [MOVES/]TIME[+INC] with TIME in \
             seconds or MIN:SEC, e.g. 40/60+0.6, 60+0.6, 0:30+0.1, or inf)"
        ))
    };
    let (moves, rest) = match t.split_once('/') {
        Some((m, rest)) => {
            let m: u32 = m
                .parse()
                .map_err(|_| bad("the number of moves is not a whole number"))?;
            (m, rest)
        }
        None => (0, t),
    };
    let (base, inc) = match rest.split_once('+') {
        Some((b, i)) => (b, Some(i)),
        None => (rest, None),
    };
    let base = match base.split_once(':') {
        Some((min, sec)) => {
            let min: u64 = min
                .parse()
                .map_err(|_| bad("the minutes are not a whole number"))?;
            let sec = parse_seconds(sec).ok_or_else(|| bad("the seconds are not a number"))?;
            Duration::from_secs(min.saturating_mul(60)).saturating_add(sec)
        }
        None => parse_seconds(base).ok_or_else(|| bad("the time is not a number"))?,
    };
    let increment = match inc {
        Some(i) => parse_seconds(i).ok_or_else(|| bad("the increment is not a number"))?,
        None => Duration::ZERO,
    };
    if base.is_zero() {
        return Err(bad("the time must be more than 0"));
    }
    Ok(Some(TimeControl {
        moves,
        base,
        increment,
    }))
}

/// A non-negative number of seconds, possibly fractional (`0.05`), at millisecond precision.
pub fn parse_seconds(text: &str) -> Option<Duration> {
    let t = text.trim();
    if t.is_empty() || !t.bytes().all(|b| b.is_ascii_digit() || b == b'.') {
        return None;
    }
    let v: f64 = t.parse().ok()?;
    if !v.is_finite() || !(0.0..=1e9).contains(&v) {
        return None;
    }
    Some(Duration::from_millis((v * 1000.0).round() as u64))
}

/// One side's clock during a game.
#[derive(Debug, Clone)]
pub struct Clock {
    limits: Limits,
    left: Duration,
    moves_made: u32,
}

/// A move came too late.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Forfeit {
    /// How long the engine took.
    pub used: Duration,
    /// What it had (time left, or the `st=` time), not counting the margin.
    pub allowed: Duration,
}

impl Clock {
    /// A clock at the start of a game.
    pub fn new(limits: Limits) -> Clock {
        Clock {
            limits,
            left: limits.clock.map_or(Duration::ZERO, |tc| tc.base),
            moves_made: 0,
        }
    }

    /// The limits this clock applies.
    pub fn limits(&self) -> &Limits {
        &self.limits
    }

    /// Time left on the clock (zero without a clock).
    pub fn left(&self) -> Duration {
        self.left
    }

    /// Moves until the next time control, for UCI `movestogo` and xboard's `level`.
    pub fn moves_to_go(&self) -> Option<u32> {
        match self.limits.clock {
            Some(tc) if tc.moves > 0 => Some(tc.moves - self.moves_made % tc.moves),
            _ => None,
        }
    }

    /// How long the engine may take for the coming move before forfeiting on time, margin
    /// included; `None` when the move is not timed.
    pub fn budget(&self) -> Option<Duration> {
        if self.limits.clock.is_some() {
            Some(self.left + self.limits.margin)
        } else {
            self.limits.st.map(|st| st + self.limits.margin)
        }
    }

    /// Charges a move that took `used`: the time is taken off, the increment and, at the end of
    /// a period, the next period's time are added. A move beyond the allowance (margin
    /// included) is a forfeit.
    pub fn charge(&mut self, used: Duration) -> Result<(), Forfeit> {
        if let Some(tc) = self.limits.clock {
            if used > self.left + self.limits.margin {
                return Err(Forfeit {
                    used,
                    allowed: self.left,
                });
            }
            self.left = self.left.saturating_sub(used) + tc.increment;
            self.moves_made += 1;
            if tc.moves > 0 && self.moves_made % tc.moves == 0 {
                self.left += tc.base;
            }
        } else if let Some(st) = self.limits.st {
            if used > st + self.limits.margin {
                return Err(Forfeit { used, allowed: st });
            }
            self.moves_made += 1;
        } else {
            self.moves_made += 1;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn parses_cutechess_forms() {
        let tc = parse_tc("40/60+0.6").unwrap().unwrap();
        assert_eq!((tc.moves, tc.base, tc.increment), (40, ms(60_000), ms(600)));
        let tc = parse_tc("0:30+0.1").unwrap().unwrap();
        assert_eq!((tc.moves, tc.base, tc.increment), (0, ms(30_000), ms(100)));
        let tc = parse_tc("40/1:30").unwrap().unwrap();
        assert_eq!((tc.moves, tc.base), (40, ms(90_000)));
        assert_eq!(parse_tc("inf").unwrap(), None);
        assert_eq!(parse_tc("10").unwrap().unwrap().to_string(), "10");
        assert_eq!(
            parse_tc("40/60+0.6").unwrap().unwrap().to_string(),
            "40/60+0.6"
        );
        for bad in ["", "x", "40/", "/60", "60+", "0", "1:x", "-5", "60+-1"] {
            assert!(parse_tc(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn clock_with_moves_and_increment() {
        let limits = Limits {
            clock: parse_tc("2/10+1").unwrap(),
            margin: ms(50),
            ..Limits::default()
        };
        let mut c = Clock::new(limits);
        assert_eq!(c.moves_to_go(), Some(2));
        assert_eq!(c.budget(), Some(ms(10_050)));
        c.charge(ms(4_000)).unwrap();
        assert_eq!(c.left(), ms(7_000));
        assert_eq!(c.moves_to_go(), Some(1));
        c.charge(ms(7_030)).unwrap(); // inside the margin: on time, clock at zero
        assert_eq!(c.left(), ms(11_000)); // 0 + 1 increment + 10 new period
        assert_eq!(c.moves_to_go(), Some(2));
        assert!(c.charge(ms(11_051)).is_err());
    }

    #[test]
    fn fixed_time_per_move() {
        let limits = Limits {
            st: Some(ms(100)),
            margin: ms(20),
            ..Limits::default()
        };
        let mut c = Clock::new(limits);
        assert_eq!(c.budget(), Some(ms(120)));
        c.charge(ms(119)).unwrap();
        assert_eq!(
            c.charge(ms(121)),
            Err(Forfeit {
                used: ms(121),
                allowed: ms(100)
            })
        );
        assert_eq!(limits.pgn(), "-");
        assert_eq!(limits.describe(), "st=0.1");
    }
}
