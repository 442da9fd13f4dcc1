//! A round's record, below the event that holds it: its boards with their results, the
//! players without a board, its position draws. The event ([`crate::event`]) changes them
//! through its checked methods; the knockout's bracket ([`crate::knockout`]) reads them.

use crate::position::PositionDraw;
use serde::{Deserialize, Serialize};

/// A board's result.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum BoardResult {
    /// `1-0`.
    #[serde(rename = "1-0")]
    WhiteWins,
    /// `1/2-1/2`.
    #[serde(rename = "1/2-1/2")]
    Draw,
    /// `0-1`.
    #[serde(rename = "0-1")]
    BlackWins,
    /// `+/-`: White wins by forfeit.
    #[serde(rename = "+/-")]
    WhiteForfeit,
    /// `-/+`: Black wins by forfeit.
    #[serde(rename = "-/+")]
    BlackForfeit,
    /// `-/-`: both lose by forfeit.
    #[serde(rename = "-/-")]
    DoubleForfeit,
}

impl BoardResult {
    /// Every result.
    pub const ALL: [BoardResult; 6] = [
        BoardResult::WhiteWins,
        BoardResult::Draw,
        BoardResult::BlackWins,
        BoardResult::WhiteForfeit,
        BoardResult::BlackForfeit,
        BoardResult::DoubleForfeit,
    ];

    /// As written on a result sheet.
    pub fn text(self) -> &'static str {
        match self {
            BoardResult::WhiteWins => "1-0",
            BoardResult::Draw => "1/2-1/2",
            BoardResult::BlackWins => "0-1",
            BoardResult::WhiteForfeit => "+/-",
            BoardResult::BlackForfeit => "-/+",
            BoardResult::DoubleForfeit => "-/-",
        }
    }

    /// From `1-0`, `0-1`, `1/2-1/2` (also `1/2`, `=`, `½-½`), `+/-`, `-/+`, `-/-`.
    pub fn parse(s: &str) -> Option<BoardResult> {
        match s.trim() {
            "1-0" => Some(BoardResult::WhiteWins),
            "0-1" => Some(BoardResult::BlackWins),
            "1/2-1/2" | "1/2" | "=" | "½-½" | "0.5-0.5" => Some(BoardResult::Draw),
            "+/-" | "+-" | "1F-0F" => Some(BoardResult::WhiteForfeit),
            "-/+" | "-+" | "0F-1F" => Some(BoardResult::BlackForfeit),
            "-/-" | "--" | "0F-0F" => Some(BoardResult::DoubleForfeit),
            _ => None,
        }
    }

    /// Whether the game was played.
    pub fn played(self) -> bool {
        matches!(
            self,
            BoardResult::WhiteWins | BoardResult::Draw | BoardResult::BlackWins
        )
    }
}

/// One board of a round.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Board {
    /// White (a player index).
    pub white: usize,
    /// Black.
    pub black: usize,
    /// The result, once in.
    #[serde(default)]
    pub result: Option<BoardResult>,
    /// The board's own position when the event draws one per board.
    #[serde(default)]
    pub position: Option<PositionDraw>,
    /// The key of the game played on the server for this board, if any.
    #[serde(default)]
    pub game: Option<String>,
    /// In a knockout: the match and stage the game belongs to.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub slot: Option<Slot>,
}

impl Board {
    /// A board just paired: `white` against `black` (player indices), nothing played yet.
    pub fn paired(white: usize, black: usize) -> Board {
        Board {
            white,
            black,
            result: None,
            position: None,
            game: None,
            slot: None,
        }
    }
}

/// What a player without a board got in a round.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RoundBye {
    /// The pairing-allocated bye.
    Pab,
    /// A requested half-point bye.
    Half,
    /// A requested full-point bye.
    Full,
    /// A zero-point bye, an absence or a withdrawal.
    Zero,
}

/// One round: its position and, once paired, its boards.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct EventRound {
    /// The round's position (one for every board).
    #[serde(default)]
    pub draw: Option<PositionDraw>,
    /// Whether the round is paired.
    #[serde(default)]
    pub paired: bool,
    /// The boards, board 1 first.
    #[serde(default)]
    pub boards: Vec<Board>,
    /// The players without a board.
    #[serde(default)]
    pub byes: Vec<(usize, RoundBye)>,
    /// In a knockout: the positions of the tiebreak stages (index 0: stage 1), one for every
    /// match of the round that reaches the stage.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub stage_draws: Vec<PositionDraw>,
}

impl EventRound {
    /// The numbers (from 1) of the boards without a result yet.
    pub fn boards_without_result(&self) -> Vec<u32> {
        self.boards
            .iter()
            .enumerate()
            .filter(|(_, b)| b.result.is_none())
            .map(|(k, _)| k as u32 + 1)
            .collect()
    }
}

/// Which game of which match a board is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Slot {
    /// The match, 1 first, in bracket order.
    #[serde(rename = "match")]
    pub match_no: u32,
    /// 0 for the regular games, then 1, 2, … for the tiebreak stages.
    pub stage: u32,
}
