//! The data model of a game: tags in their order, the start position, the moves as a tree
//! with comments, NAGs and variations, and the result.

use crate::variant::Variant;
pub use chess960_core::GameResult;
use chess960_core::{Move, Position, StartId};
use std::collections::HashMap;
use std::fmt;

/// The tag pairs of a game, in the order they were read (or added). A name occurs at most
/// once: setting an existing name replaces its value in place (when a file repeats a tag,
/// the last value wins, as in python-chess).
///
/// Looking a name up costs constant time however many tags there are: a game of 200,000
/// tags (which a hostile file or request can send) is read in linear time, not quadratic.
#[derive(Clone, Default)]
pub struct Tags {
    pairs: Vec<(String, String)>,
    /// Name to place in `pairs`, built once there are more than [`Tags::SCAN`] tags (a
    /// short list is searched faster than hashed, and most games have a dozen tags).
    index: Option<HashMap<String, usize>>,
}

impl PartialEq for Tags {
    fn eq(&self, other: &Tags) -> bool {
        self.pairs == other.pairs
    }
}

impl Eq for Tags {}

impl fmt::Debug for Tags {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("Tags").field(&self.pairs).finish()
    }
}

impl Tags {
    /// Up to this many tags, names are found by a linear search.
    const SCAN: usize = 16;

    /// No tags.
    pub fn new() -> Tags {
        Tags::default()
    }

    /// The place of `name` in `pairs`.
    fn find(&self, name: &str) -> Option<usize> {
        match &self.index {
            Some(index) => index.get(name).copied(),
            None => self.pairs.iter().position(|(n, _)| n == name),
        }
    }

    /// The value of `name` (case-sensitive, as PGN tag names are).
    pub fn get(&self, name: &str) -> Option<&str> {
        self.find(name).map(|i| self.pairs[i].1.as_str())
    }

    /// Sets `name` to `value`, keeping its place if it is already there.
    pub fn set(&mut self, name: impl Into<String>, value: impl Into<String>) {
        let name = name.into();
        let value = value.into();
        if let Some(i) = self.find(&name) {
            self.pairs[i].1 = value;
            return;
        }
        if let Some(index) = &mut self.index {
            index.insert(name.clone(), self.pairs.len());
        }
        self.pairs.push((name, value));
        if self.index.is_none() && self.pairs.len() > Tags::SCAN {
            self.reindex();
        }
    }

    /// Rebuilds the index (or drops it for a short list).
    fn reindex(&mut self) {
        self.index = (self.pairs.len() > Tags::SCAN).then(|| {
            self.pairs
                .iter()
                .enumerate()
                .map(|(i, (n, _))| (n.clone(), i))
                .collect()
        });
    }

    /// Removes `name`; returns its value if it was there.
    pub fn remove(&mut self, name: &str) -> Option<String> {
        let i = self.find(name)?;
        let (_, value) = self.pairs.remove(i);
        if self.index.is_some() {
            // The places after `i` moved; removing is linear anyway.
            self.reindex();
        }
        Some(value)
    }

    /// The pairs in order.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &str)> {
        self.pairs.iter().map(|(n, v)| (n.as_str(), v.as_str()))
    }

    /// The number of tags.
    pub fn len(&self) -> usize {
        self.pairs.len()
    }

    /// True if there are none.
    pub fn is_empty(&self) -> bool {
        self.pairs.is_empty()
    }
}

/// A move of a line with what is attached to it. (`Clone`, `PartialEq` and `Debug` go one
/// level down to [`Line`]'s, which do not recurse.)
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
///
/// Variations nest as deep as the input does (a PGN text of 100,000 nested `(` is a few
/// hundred kilobytes), so nothing here recurses over the tree: `Drop`, `Clone`, `PartialEq`
/// and `Debug` are written by hand as loops over [`Line::walk`] or an explicit stack. The
/// compiler's derived versions would recurse once per level and overflow the thread's stack
/// (2 MiB on a server worker) long before memory runs out.
#[derive(Default)]
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

    /// The whole tree, depth first in the order PGN writes it, without recursion: see
    /// [`Step`].
    ///
    /// ```
    /// use chess960_pgn::{game::Step, Reader};
    ///
    /// let game = Reader::new("1. e4 (1. d4 d5) e5 *".as_bytes())
    ///     .read_game().unwrap().unwrap().unwrap();
    /// let shape: String = game.moves.walk().map(|s| match s {
    ///     Step::Enter(_) => '(',
    ///     Step::Move(_) => 'm',
    ///     Step::Leave => ')',
    /// }).collect();
    /// assert_eq!(shape, "(m(mm)m)");
    /// ```
    pub fn walk(&self) -> Walk<'_> {
        Walk {
            root: Some(self),
            stack: Vec::new(),
        }
    }
}

/// One step of [`Line::walk`].
#[derive(Debug, Clone, Copy)]
pub enum Step<'a> {
    /// A line begins: first the walked line itself, then each variation, right after the
    /// [`Step::Move`] of the move it is an alternative to (and after that move's earlier
    /// variations).
    Enter(&'a Line),
    /// A move of the line entered last (its variations follow as `Enter` … `Leave`).
    Move(&'a Node),
    /// The line entered last ends.
    Leave,
}

/// The iterator of [`Line::walk`]: its memory is one small frame per open variation.
pub struct Walk<'a> {
    root: Option<&'a Line>,
    stack: Vec<Frame<'a>>,
}

/// A line being walked: the next node, and whether that node's move was given already
/// (then `var` is its next variation).
struct Frame<'a> {
    line: &'a Line,
    node: usize,
    moved: bool,
    var: usize,
}

impl<'a> Frame<'a> {
    fn new(line: &'a Line) -> Frame<'a> {
        Frame {
            line,
            node: 0,
            moved: false,
            var: 0,
        }
    }
}

impl<'a> Iterator for Walk<'a> {
    type Item = Step<'a>;

    fn next(&mut self) -> Option<Step<'a>> {
        if let Some(root) = self.root.take() {
            self.stack.push(Frame::new(root));
            return Some(Step::Enter(root));
        }
        loop {
            let f = self.stack.last_mut()?;
            let Some(node) = f.line.nodes.get(f.node) else {
                self.stack.pop();
                return Some(Step::Leave);
            };
            if !f.moved {
                f.moved = true;
                f.var = 0;
                return Some(Step::Move(node));
            }
            if let Some(v) = node.variations.get(f.var) {
                f.var += 1;
                self.stack.push(Frame::new(v));
                return Some(Step::Enter(v));
            }
            f.node += 1;
            f.moved = false;
        }
    }
}

impl Drop for Line {
    fn drop(&mut self) {
        // Detach every variation below this line into one list, so that each line is dropped
        // with no variations left in it: the compiler's drop glue then never recurses.
        let mut pending: Vec<Line> = Vec::new();
        for node in &mut self.nodes {
            pending.append(&mut node.variations);
        }
        while let Some(mut line) = pending.pop() {
            for node in &mut line.nodes {
                pending.append(&mut node.variations);
            }
        }
    }
}

impl Clone for Line {
    fn clone(&self) -> Line {
        // Rebuilt from the walk with a stack of the lines being copied, as the reader builds
        // a tree.
        let mut open: Vec<Line> = Vec::new();
        for step in self.walk() {
            match step {
                Step::Enter(line) => open.push(Line {
                    comment: line.comment.clone(),
                    nodes: Vec::with_capacity(line.nodes.len()),
                }),
                Step::Move(node) => {
                    if let Some(line) = open.last_mut() {
                        line.nodes.push(Node {
                            mv: node.mv,
                            nags: node.nags.clone(),
                            comments: node.comments.clone(),
                            variations: Vec::with_capacity(node.variations.len()),
                        });
                    }
                }
                Step::Leave => {
                    let done = open.pop().unwrap_or_default();
                    match open.last_mut().and_then(|l| l.nodes.last_mut()) {
                        Some(parent) => parent.variations.push(done),
                        None => return done,
                    }
                }
            }
        }
        Line::default()
    }
}

impl PartialEq for Line {
    fn eq(&self, other: &Line) -> bool {
        // Two trees are equal when their walks are: the walk gives the shape unambiguously.
        let mut a = self.walk();
        let mut b = other.walk();
        loop {
            match (a.next(), b.next()) {
                (None, None) => return true,
                (Some(Step::Enter(x)), Some(Step::Enter(y))) if x.comment == y.comment => {}
                (Some(Step::Move(x)), Some(Step::Move(y)))
                    if x.mv == y.mv
                        && x.nags == y.nags
                        && x.comments == y.comments
                        && x.variations.len() == y.variations.len() => {}
                (Some(Step::Leave), Some(Step::Leave)) => {}
                _ => return false,
            }
        }
    }
}

impl Eq for Line {}

impl fmt::Debug for Line {
    /// The shape of the derived form (`Line { comment: [..], nodes: [Node { .. }] }`),
    /// written from the walk.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Per open line: `None` before its first node, else whether the open node (whose
        // `variations: [` is written) has a variation written yet.
        let mut open: Vec<Option<bool>> = Vec::new();
        for step in self.walk() {
            match step {
                Step::Enter(line) => {
                    if let Some(Some(written)) = open.last_mut() {
                        if std::mem::replace(written, true) {
                            f.write_str(", ")?;
                        }
                    }
                    write!(f, "Line {{ comment: {:?}, nodes: [", line.comment)?;
                    open.push(None);
                }
                Step::Move(node) => {
                    if let Some(top) = open.last_mut() {
                        if top.is_some() {
                            f.write_str("] }, ")?;
                        }
                        *top = Some(false);
                    }
                    write!(
                        f,
                        "Node {{ mv: {:?}, nags: {:?}, comments: {:?}, variations: [",
                        node.mv, node.nags, node.comments
                    )?;
                }
                Step::Leave => {
                    if let Some(Some(_)) = open.pop() {
                        f.write_str("] }")?;
                    }
                    f.write_str("] }")?;
                }
            }
        }
        Ok(())
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
