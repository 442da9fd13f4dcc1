//! Speed classes: a game's time control sorts it into one, as lichess sorts its games, by the
//! game's estimated duration (the initial time plus 40 times the increment, in seconds, for a
//! game of 40 moves). A player has one rating per class; a game without a clock has none and is
//! never rated.

use std::fmt;
use std::str::FromStr;

/// How fast a game is played.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Speed {
    /// Under 3 minutes estimated (lichess's ultrabullet, under 30 seconds, counts here).
    Bullet,
    /// 3 to 8 minutes.
    Blitz,
    /// 8 to 25 minutes.
    Rapid,
    /// 25 minutes and more.
    Classical,
}

impl Speed {
    /// Every class, fastest first.
    pub const ALL: [Speed; 4] = [Speed::Bullet, Speed::Blitz, Speed::Rapid, Speed::Classical];

    /// The class of a game with this time control (milliseconds): by its estimated duration,
    /// `initial + 40 × increment`: under 180 s bullet, under 480 s blitz, under 1,500 s rapid,
    /// else classical (lichess's limits).
    pub fn of(initial_ms: u64, increment_ms: u64) -> Speed {
        let estimated_s = initial_ms.saturating_add(increment_ms.saturating_mul(40)) / 1000;
        match estimated_s {
            0..180 => Speed::Bullet,
            180..480 => Speed::Blitz,
            480..1500 => Speed::Rapid,
            _ => Speed::Classical,
        }
    }

    /// The class's name in the API, the database and the command line.
    pub fn name(self) -> &'static str {
        match self {
            Speed::Bullet => "bullet",
            Speed::Blitz => "blitz",
            Speed::Rapid => "rapid",
            Speed::Classical => "classical",
        }
    }
}

impl fmt::Display for Speed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A name that is not a speed class.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownSpeed(pub String);

impl fmt::Display for UnknownSpeed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "'{}' is not a speed class (bullet, blitz, rapid, classical)",
            self.0.chars().take(20).collect::<String>()
        )
    }
}

impl std::error::Error for UnknownSpeed {}

impl FromStr for Speed {
    type Err = UnknownSpeed;

    fn from_str(s: &str) -> Result<Speed, UnknownSpeed> {
        Speed::ALL
            .into_iter()
            .find(|c| c.name().eq_ignore_ascii_case(s.trim()))
            .ok_or_else(|| UnknownSpeed(s.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Lichess's own examples: 1+0 and 2+1 are bullet, 3+0 and 5+3 blitz, 10+0 and 15+10
    /// rapid, 30+0 classical.
    #[test]
    fn the_usual_time_controls_fall_where_lichess_puts_them() {
        let min = 60_000;
        let cases = [
            (min, 0, Speed::Bullet),
            (30_000, 0, Speed::Bullet),
            (2 * min, 1_000, Speed::Bullet),
            (3 * min, 0, Speed::Blitz),
            (3 * min, 2_000, Speed::Blitz),
            (5 * min, 3_000, Speed::Blitz),
            (8 * min, 0, Speed::Rapid),
            (10 * min, 0, Speed::Rapid),
            (15 * min, 10_000, Speed::Rapid),
            (25 * min, 0, Speed::Classical),
            (30 * min, 0, Speed::Classical),
            (90 * min, 30_000, Speed::Classical),
        ];
        for (initial, increment, speed) in cases {
            assert_eq!(
                Speed::of(initial, increment),
                speed,
                "{initial}+{increment}"
            );
        }
        // The limits: 179 s bullet, 180 s blitz; 479 s blitz, 480 s rapid; 1,499 s rapid.
        assert_eq!(Speed::of(179_999, 0), Speed::Bullet);
        assert_eq!(Speed::of(180_000, 0), Speed::Blitz);
        assert_eq!(Speed::of(0, 12_000), Speed::Rapid);
        assert_eq!(Speed::of(1_499_999, 0), Speed::Rapid);
        assert_eq!(Speed::of(u64::MAX, u64::MAX), Speed::Classical);
    }

    #[test]
    fn a_class_is_read_back_by_its_name() {
        for speed in Speed::ALL {
            assert_eq!(speed.name().parse::<Speed>(), Ok(speed));
            assert_eq!(speed.to_string().to_uppercase().parse::<Speed>(), Ok(speed));
        }
        let e = "hyperbullet".parse::<Speed>().unwrap_err();
        assert!(e.to_string().contains("not a speed class"), "{e}");
    }
}
