//! A game's result as the score sheet writes it: the one result type of every crate (the PGN
//! reader and writer, the match runner, the game database, the server).

use crate::game::Outcome;
use crate::types::Color;
use std::fmt;

/// How a game ended, as PGN and the score sheet write it: `1-0`, `0-1`, `1/2-1/2`, or `*` for
/// a game that has no result (unfinished, aborted, unknown).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum GameResult {
    /// `1-0`.
    WhiteWins,
    /// `0-1`.
    BlackWins,
    /// `1/2-1/2`.
    Draw,
    /// `*`: unfinished, aborted or unknown.
    #[default]
    Unknown,
}

impl GameResult {
    /// The PGN text: `1-0`, `0-1`, `1/2-1/2` or `*`.
    pub fn as_str(self) -> &'static str {
        match self {
            GameResult::WhiteWins => "1-0",
            GameResult::BlackWins => "0-1",
            GameResult::Draw => "1/2-1/2",
            GameResult::Unknown => "*",
        }
    }

    /// Reads a result as written in the wild: `1-0`, `0-1`, `1/2-1/2`, `½-½`, `*`.
    pub fn parse(s: &str) -> Option<GameResult> {
        match s.trim() {
            "1-0" => Some(GameResult::WhiteWins),
            "0-1" => Some(GameResult::BlackWins),
            "1/2-1/2" | "½-½" => Some(GameResult::Draw),
            "*" => Some(GameResult::Unknown),
            _ => None,
        }
    }

    /// The win of `c`.
    pub fn win(c: Color) -> GameResult {
        match c {
            Color::White => GameResult::WhiteWins,
            Color::Black => GameResult::BlackWins,
        }
    }

    /// The winner, if there is one.
    pub fn winner(self) -> Option<Color> {
        match self {
            GameResult::WhiteWins => Some(Color::White),
            GameResult::BlackWins => Some(Color::Black),
            _ => None,
        }
    }

    /// True for a decided game: a win or a draw, not `*`.
    pub fn is_decided(self) -> bool {
        self != GameResult::Unknown
    }

    /// White's points: 1, ½ or 0; `None` for `*`.
    pub fn white_points(self) -> Option<f64> {
        match self {
            GameResult::WhiteWins => Some(1.0),
            GameResult::BlackWins => Some(0.0),
            GameResult::Draw => Some(0.5),
            GameResult::Unknown => None,
        }
    }
}

impl From<Outcome> for GameResult {
    fn from(o: Outcome) -> GameResult {
        match o {
            Outcome::Win { winner, .. } => GameResult::win(winner),
            Outcome::Draw { .. } => GameResult::Draw,
        }
    }
}

impl fmt::Display for GameResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Termination;

    #[test]
    fn reads_back_what_it_writes() {
        for r in [
            GameResult::WhiteWins,
            GameResult::BlackWins,
            GameResult::Draw,
            GameResult::Unknown,
        ] {
            assert_eq!(GameResult::parse(r.as_str()), Some(r));
            assert_eq!(r.to_string(), r.as_str());
        }
        assert_eq!(GameResult::parse(" ½-½ "), Some(GameResult::Draw));
        assert_eq!(GameResult::parse("1-1"), None);
        assert_eq!(GameResult::parse("1/2"), None);
    }

    #[test]
    fn from_an_outcome_and_in_points() {
        let mate = Outcome::Win {
            winner: Color::Black,
            reason: Termination::Checkmate,
        };
        assert_eq!(GameResult::from(mate), GameResult::BlackWins);
        assert_eq!(GameResult::from(mate).as_str(), mate.result());
        let draw = Outcome::Draw {
            reason: Termination::Stalemate,
        };
        assert_eq!(GameResult::from(draw).white_points(), Some(0.5));
        assert_eq!(GameResult::win(Color::White).winner(), Some(Color::White));
        assert_eq!(GameResult::Unknown.white_points(), None);
        assert!(!GameResult::Unknown.is_decided());
    }
}
