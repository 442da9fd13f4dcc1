//! The data model of a game: tags in their order, the start position, the moves as a tree
//! with comments, NAGs and variations, and the result.

use crate::variant::Variant;
use chess960_core::{Color, Move, Position, StartId};
use std::fmt;

/// How a game ended, as PGN writes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum GameResult {
    /// `1-0`.
    WhiteWins,
    /// `0-1`.
    BlackWins,
    /// `1/2-1/2`.
    Draw,
    /// `*`: unfinished, unknown or abandoned.
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

    /// The winner, if there is one.
    pub fn winner(self) -> Option<Color> {
        match self {
            GameResult::WhiteWins => Some(Color::White),
            GameResult::BlackWins => Some(Color::Black),
            _ => None,
        }
    }
}

impl fmt::Display for GameResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The tag pairs of a game, in the order they were read (or added). A name occurs at most
/// once: setting an existing name replaces its value in place (when a file repeats a tag,
/// the last value wins, as in python-chess).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Tags(Vec<(String, String)>);

impl Tags {
    /// No tags.
    pub fn new() -> Tags {
        Tags(Vec::new())
    }

    /// The value of `name` (case-sensitive, as PGN tag names are).
    pub fn get(&self, name: &str) -> Option<&str> {
        self.0
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// Sets `name` to `value`, keeping its place if it is already there.
    pub fn set(&mut self, name: impl Into<String>, value: impl Into<String>) {
        let name = name.into();
        let value = value.into();
        match self.0.iter_mut().find(|(n, _)| *n == name) {
            Some(slot) => slot.1 = value,
            None => self.0.push((name, value)),
        }
    }

    /// Removes `name`; returns its value if it was there.
    pub fn remove(&mut self, name: &str) -> Option<String> {
        let i = self.0.iter().position(|(n, _)| n == name)?;
        Some(self.0.remove(i).1)
    }

    /// The pairs in order.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &str)> {
        self.0.iter().map(|(n, v)| (n.as_str(), v.as_str()))
    }

    /// The number of tags.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// True if there are none.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

/// A move of a line with what is attached to it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Node {
    /// The move (legal in the position before it).
    pub mv: Move,
    /// Numeric annotation glyphs, in order: `$1` … ; `!`, `?`, `!!`, `??`, `!?`, `?!` are read
    /// as 1 to 6.
    pub nags: Vec<u16>,
    /// Comments after the move, in order.
    pub comments: Vec<String>,
    /// Alternatives to this move: each line starts from the position before it.
    pub variations: Vec<Line>,
}

impl Node {
    /// A move with nothing attached.
    pub fn new(mv: Move) -> Node {
        Node {
            mv,
            nags: Vec::new(),
            comments: Vec::new(),
            variations: Vec::new(),
        }
    }
}

/// A sequence of moves: the main line of a game or a variation.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Line {
    /// Comments before the first move (for the main line: the game's opening comment).
    pub comment: Vec<String>,
    /// The moves.
    pub nodes: Vec<Node>,
}

impl Line {
    /// The moves alone.
    pub fn moves(&self) -> impl Iterator<Item = Move> + '_ {
        self.nodes.iter().map(|n| n.mv)
    }
}

/// A game: tags, start position, moves with their annotations, result.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Game {
    /// The tags as read, in their order (including `Variant`, `SetUp` and `FEN`; the writer
    /// replaces those with normalised ones).
    pub tags: Tags,
    /// Chess960 or classical chess, decided from the tags (see [`crate::variant`]).
    pub variant: Variant,
    /// The position before the first move.
    pub start: Position,
    /// The main line.
    pub moves: Line,
    /// The result: the game termination marker, or the `Result` tag for a tag section with
    /// no moves and no marker.
    pub result: GameResult,
}

impl Game {
    /// A game from `start` with no tags and no moves, result `*`.
    pub fn new(start: Position, variant: Variant) -> Game {
        Game {
            tags: Tags::new(),
            variant,
            start,
            moves: Line::default(),
            result: GameResult::Unknown,
        }
    }

    /// The Chess960 start position ID of the start position, if it is a start arrangement
    /// (looking only at the pieces, see [`StartId::of_board`]).
    pub fn start_id(&self) -> Option<StartId> {
        StartId::of_board(self.start.board())
    }

    /// The position after the last move of the main line.
    pub fn end_position(&self) -> Position {
        self.moves.moves().fold(self.start, |p, m| p.play(m))
    }

    /// Appends a move to the main line. `m` must be legal in [`Game::end_position`]; this is
    /// checked, and an illegal move is refused (returned back).
    pub fn push(&mut self, m: Move) -> Result<&mut Node, Move> {
        if !self.end_position().is_legal(m) {
            return Err(m);
        }
        self.moves.nodes.push(Node::new(m));
        Ok(self.moves.nodes.last_mut().expect("just pushed"))
    }
}
