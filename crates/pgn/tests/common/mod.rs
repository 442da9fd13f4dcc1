//! Helpers shared by the integration tests.
#![allow(dead_code)]

use chess960_core::{Move, Position, Role, StartId};
use chess960_pgn::{Game, GameResult, Line, Node, PgnError, Reader, Summary, Variant};
use std::path::{Path, PathBuf};

/// `shared/data`, beside the repository (or `CHESS960_SHARED_DATA`).
pub fn data_dir() -> PathBuf {
    if let Ok(p) = std::env::var("CHESS960_SHARED_DATA") {
        return PathBuf::from(p);
    }
    let manifest = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let p = manifest.join("../../../shared/data");
    assert!(
        p.is_dir(),
        "test data not found at {} (set CHESS960_SHARED_DATA)",
        p.display()
    );
    p
}

/// A file under `shared/data/pgn`.
pub fn pgn_file(rel: &str) -> PathBuf {
    data_dir().join("pgn").join(rel)
}

/// Every game of a file, full model.
pub fn read_all(path: &Path) -> Vec<Result<Game, PgnError>> {
    let f = std::fs::File::open(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut r = Reader::new(f);
    let mut out = Vec::new();
    while let Some(g) = r.read_game().unwrap() {
        out.push(g);
    }
    assert_eq!(r.games(), out.len() as u64);
    out
}

/// Every game of a file, summaries only.
pub fn summaries(path: &Path) -> Vec<Result<Summary, PgnError>> {
    let f = std::fs::File::open(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut r = Reader::new(f);
    let mut out = Vec::new();
    while let Some(g) = r.read_summary().unwrap() {
        out.push(g);
    }
    out
}

/// Every game of a text.
pub fn read_str(text: &str) -> Vec<Result<Game, PgnError>> {
    let mut r = Reader::new(text.as_bytes());
    let mut out = Vec::new();
    while let Some(g) = r.read_game().unwrap() {
        out.push(g);
    }
    out
}

/// Where `pgn-extract` is: on the PATH, or in /usr/games where Debian puts it.
pub fn pgn_extract() -> Option<PathBuf> {
    if let Ok(path) = std::env::var("PATH") {
        for dir in std::env::split_paths(&path) {
            let p = dir.join("pgn-extract");
            if p.is_file() {
                return Some(p);
            }
        }
    }
    let p = PathBuf::from("/usr/games/pgn-extract");
    p.is_file().then_some(p)
}

// ---------------------------------------------------------------------------------------
// Random games for round trips: Chess960 starts (some classical, some from the middle of a
// game), moves biased toward castling and toward emptying the back rank (so that every
// castling shape occurs), comments (awkward ones too), NAGs and nested variations.
// ---------------------------------------------------------------------------------------

/// xorshift64: the tests' own random numbers.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    pub fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }
}

pub const COMMENTS: &[&str] = &[
    "a comment",
    "[%clk 0:01:02]",
    "%not an escape line",
    "[Event \"not a tag\"] inside a comment",
    "quote \" and backslash \\ inside",
    "Ünïcödé ½ – ok",
    "multi\nline\r\ncomment",
    "a-very-long-word-that-does-not-fit-on-any-line-of-eighty-columns-at-all-so-it-stands-alone-on-its-line",
];

/// A move biased toward castling and toward emptying the back rank.
pub fn pick(pos: &Position, rng: &mut Rng) -> Option<Move> {
    let moves = pos.legal_moves();
    if moves.is_empty() {
        return None;
    }
    let castles: Vec<Move> = moves.iter().copied().filter(|m| m.is_castle()).collect();
    if !castles.is_empty() && rng.chance(60) {
        return Some(castles[rng.below(castles.len())]);
    }
    let home = pos.turn().back_rank();
    let develop: Vec<Move> = moves
        .iter()
        .copied()
        .filter(|m| {
            m.from().rank() == home
                && !m.is_castle()
                && matches!(
                    pos.board().role_at(m.from()),
                    Some(Role::Knight | Role::Bishop | Role::Queen)
                )
        })
        .collect();
    if !develop.is_empty() && rng.chance(60) {
        return Some(develop[rng.below(develop.len())]);
    }
    Some(moves[rng.below(moves.len())])
}

pub fn random_line(pos: &Position, rng: &mut Rng, plies: usize, depth: u32) -> Line {
    let mut line = Line::default();
    let mut pos = *pos;
    for i in 0..plies {
        let Some(m) = pick(&pos, rng) else { break };
        let mut node = Node::new(m);
        if rng.chance(15) {
            node.comments
                .push(COMMENTS[rng.below(COMMENTS.len())].to_string());
        }
        if rng.chance(10) {
            node.nags
                .push([1, 2, 3, 4, 5, 6, 14, 18, 132][rng.below(9)]);
        }
        if depth < 2 && (depth == 0 || i > 0) && rng.chance(8) {
            let others: Vec<Move> = pos
                .legal_moves()
                .iter()
                .copied()
                .filter(|&o| o != m)
                .collect();
            if !others.is_empty() {
                let alt = others[rng.below(others.len())];
                let after = pos.play(alt);
                let mut v = Line::default();
                if rng.chance(30) {
                    v.comment
                        .push(COMMENTS[rng.below(COMMENTS.len())].to_string());
                }
                v.nodes.push(Node::new(alt));
                let plies = rng.below(6);
                let mut rest = random_line(&after, rng, plies, depth + 1);
                v.nodes.append(&mut rest.nodes);
                node.variations.push(v);
            }
        }
        line.nodes.push(node);
        pos = pos.play(m);
    }
    line
}

pub fn random_game(rng: &mut Rng, n: usize) -> Game {
    let classical = rng.chance(5);
    let id = if classical || rng.chance(5) {
        StartId::CLASSICAL
    } else {
        StartId::new(rng.below(960) as u32).unwrap()
    };
    let mut start = id.position();
    if rng.chance(25) {
        for _ in 0..1 + rng.below(30) {
            match pick(&start, rng) {
                Some(m) => start = start.play(m),
                None => break,
            }
        }
    }
    let variant = if classical {
        Variant::Standard
    } else {
        Variant::Chess960
    };
    let mut game = Game::new(start, variant);
    game.tags.set("Event", format!("writer {n}"));
    game.tags.set(
        "White",
        ["Quote \"Q\" \\ Backslash", "Ünïcödé, Ä", "A"][rng.below(3)],
    );
    if rng.chance(50) {
        game.tags.set("Annotator", "chess960-pgn test");
    }
    if rng.chance(10) {
        game.moves
            .comment
            .push(COMMENTS[rng.below(COMMENTS.len())].to_string());
    }
    let plies = rng.below(120);
    let mut line = random_line(&start, rng, plies, 0);
    game.moves.nodes = std::mem::take(&mut line.nodes);
    // Any result, but never one that contradicts a mate or stalemate on the board.
    let end = game.end_position();
    game.result = if end.is_checkmate() {
        if end.turn() == chess960_core::Color::White {
            GameResult::BlackWins
        } else {
            GameResult::WhiteWins
        }
    } else if end.is_stalemate() {
        GameResult::Draw
    } else {
        [
            GameResult::WhiteWins,
            GameResult::BlackWins,
            GameResult::Draw,
            GameResult::Unknown,
        ][rng.below(4)]
    };
    game
}
