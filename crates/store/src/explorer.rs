//! The position index and the opening explorer: for any position, the moves played from it in
//! the stored games, with White's wins, draws and Black's wins after each, and the games that
//! reached it.
//!
//! **What is indexed.** For every game, every position of its main line from the start to the
//! position after its last move, under the position's Zobrist key
//! ([`chess960_core::Position::hash`]: placement, side to move, castling rights by rook square,
//! and an en-passant square only when a legal en-passant capture exists, so two positions share
//! a key exactly when they are the same for the repetition rule), with the move the game played
//! from it (none for the position after its last move) and the game's result. A game that
//! reaches a position more than once counts once there, with the move it played the **first**
//! time: the explorer counts games, not visits. The moves are followed as far as they are legal
//! from the start FEN (stored moves always are; a game whose start FEN cannot be read has no
//! entries).
//!
//! **Keys are persisted.** The index stores core's Zobrist keys, so they must stay the same
//! from one version of the program to the next: a change of `crates/core/src/zobrist.rs` (its
//! seed, its generator or what it hashes) needs a schema migration that rebuilds the index
//! (`tests/explorer.rs` pins the key of a few positions, so such a change cannot pass
//! unnoticed).
//!
//! **Which results count.** Only `1-0`, `0-1` and `1/2-1/2`; the other games (in progress,
//! abandoned) are counted apart as unfinished and never in the percentages. Aborted games
//! (result `*`, reason [`crate::ABORTED`]) keep their rows but are not counted or listed at
//! all, as they count nowhere else: the backend's reads leave them out.
//!
//! This module holds the rules every backend shares (what the entries of a game are, how a
//! move and a result are encoded, how the counts become an [`Explorer`]); the backend only
//! stores the entries and counts them by key.

use crate::{GameResult, GameStore, GameSummary, StoreError};
use chess960_core::{CastlingMode, Position};
use std::collections::HashSet;
use std::hash::BuildHasherDefault;

/// The most games an explorer answer lists.
pub const MAX_GAMES: u32 = 100;

/// One row of the position index of a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IndexEntry {
    /// The position's Zobrist key.
    pub key: u64,
    /// The move the game played from it ([`encode_move`]); `None` where the game ended.
    pub mv: Option<u16>,
}

/// The index entries of a game (see the module documentation), in the order the game reached
/// them; at most one per key.
pub fn entries<'a>(start_fen: &str, ucis: impl IntoIterator<Item = &'a str>) -> Vec<IndexEntry> {
    let Ok(mut pos) = Position::from_fen(start_fen) else {
        return Vec::new();
    };
    let mut walk = IndexWalk::new(&pos);
    for uci in ucis {
        let Ok(m) = pos.parse_uci(uci, CastlingMode::Chess960) else {
            break;
        };
        let Some(code) = encode_move(&m.to_uci(CastlingMode::Chess960)) else {
            break;
        };
        pos.play_mut(m);
        walk.step(code, &pos);
    }
    walk.finish()
}

/// A hasher for Zobrist keys, which are uniformly random already: the key is its own hash
/// (SipHash cost as much as the rest of a replay's bookkeeping).
#[derive(Default)]
struct KeyHasher(u64);

impl std::hash::Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        // Only u64 keys are hashed (`write_u64`); anything else is folded in, never lost.
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(b);
        }
    }

    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }
}

/// The index entries of a game built move by move by whoever plays its moves anyway (the PGN
/// reader of an import: [`crate::pgn::from_pgn`]), so that nobody replays it again for them.
#[derive(Clone, Debug)]
pub struct IndexWalk {
    out: Vec<IndexEntry>,
    seen: HashSet<u64, BuildHasherDefault<KeyHasher>>,
    /// Index in `out` of the entry of the current position when this game put it there.
    current: Option<usize>,
}

impl IndexWalk {
    /// A game at its start position `start`.
    pub fn new(start: &Position) -> IndexWalk {
        let mut walk = IndexWalk {
            out: Vec::new(),
            seen: HashSet::default(),
            current: None,
        };
        walk.reach(start);
        walk
    }

    fn reach(&mut self, pos: &Position) {
        self.current = self.seen.insert(pos.hash()).then(|| {
            self.out.push(IndexEntry {
                key: pos.hash(),
                mv: None,
            });
            self.out.len() - 1
        });
    }

    /// The game played the move encoded as `code` ([`encode_move`]) and reached `after`.
    pub fn step(&mut self, code: u16, after: &Position) {
        if let Some(i) = self.current {
            self.out[i].mv = Some(code);
        }
        self.reach(after);
    }

    /// The entries, in the order the game reached them.
    pub fn finish(self) -> Vec<IndexEntry> {
        self.out
    }
}

/// One move as the index sees it, from whoever played it: the Zobrist keys
/// ([`Position::hash`]) of the position the move was played from and of the position it
/// reached. Handed to [`GameStore::append_move_indexed`], it spares the store the replay of
/// the whole game that [`GameStore::append_move`] needs to find the index rows of a move.
/// Keys that are not those of the game's positions would make the explorer wrong.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IndexStep {
    /// The key of the position before the move.
    pub from: u64,
    /// The key of the position after it.
    pub to: u64,
}

impl IndexStep {
    /// The step of a move that led from `before` to `after`.
    pub fn of(before: &Position, after: &Position) -> IndexStep {
        IndexStep {
            from: before.hash(),
            to: after.hash(),
        }
    }
}

/// What changes in the index when a game's entries go from `old` to `new`: the entries to
/// write (new, or with another move) and the keys to remove. With the result unchanged, the
/// rows of the other keys stay as they are.
pub fn diff(old: &[IndexEntry], new: &[IndexEntry]) -> (Vec<IndexEntry>, Vec<u64>) {
    let before: std::collections::HashMap<u64, Option<u16>> =
        old.iter().map(|e| (e.key, e.mv)).collect();
    let after: HashSet<u64> = new.iter().map(|e| e.key).collect();
    let write = new
        .iter()
        .filter(|e| before.get(&e.key) != Some(&e.mv))
        .copied()
        .collect();
    let remove = old
        .iter()
        .filter(|e| !after.contains(&e.key))
        .map(|e| e.key)
        .collect();
    (write, remove)
}

/// A move as the index stores it: from square, to square (UCI in Chess960 form, so castling is
/// the king's square then its rook's) and promotion, `from + 64·to + 4096·promotion` with
/// promotion 0 none, 1 knight, 2 bishop, 3 rook, 4 queen, 5 king. Stored, so it never
/// changes. `None` for text that is not a UCI move.
pub fn encode_move(uci: &str) -> Option<u16> {
    let b = uci.as_bytes();
    if !(b.len() == 4 || b.len() == 5) {
        return None;
    }
    let square = |f: u8, r: u8| -> Option<u16> {
        ((b'a'..=b'h').contains(&f) && (b'1'..=b'8').contains(&r))
            .then(|| u16::from(f - b'a') + 8 * u16::from(r - b'1'))
    };
    let from = square(b[0], b[1])?;
    let to = square(b[2], b[3])?;
    let promo = match b.get(4) {
        None => 0,
        Some(b'n') => 1,
        Some(b'b') => 2,
        Some(b'r') => 3,
        Some(b'q') => 4,
        Some(b'k') => 5,
        Some(_) => return None,
    };
    Some(from + 64 * to + 4096 * promo)
}

/// The UCI text of an [`encode_move`] code; `None` for a number no move encodes to.
pub fn decode_move(code: u16) -> Option<String> {
    let square = |s: u16| -> [char; 2] {
        [
            char::from(b'a' + (s % 8) as u8),
            char::from(b'1' + (s / 8) as u8),
        ]
    };
    let promo = match code / 4096 {
        0 => None,
        1 => Some('n'),
        2 => Some('b'),
        3 => Some('r'),
        4 => Some('q'),
        5 => Some('k'),
        _ => return None,
    };
    let mut s: String = square(code % 64).iter().collect();
    s.extend(square((code / 64) % 64));
    s.extend(promo);
    Some(s)
}

/// A game's result as the index stores it: White's points doubled (2 for `1-0`, 1 for
/// `1/2-1/2`, 0 for `0-1`); `None` for a game that is not finished with a result.
pub fn result_code(result: GameResult) -> Option<u8> {
    match result {
        GameResult::WhiteWins => Some(2),
        GameResult::Draw => Some(1),
        GameResult::BlackWins => Some(0),
        GameResult::Unknown => None,
    }
}

/// The games behind one (move, result) pair of a position, as a backend counts them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KeyCount {
    /// The move played (UCI, Chess960 form); `None` for games that ended in the position.
    pub uci: Option<String>,
    /// [`result_code`] of the games' result; `None` for unfinished games.
    pub result: Option<u8>,
    /// How many games.
    pub games: u64,
}

/// Results of a set of games: finished ones by result, the others apart.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Results {
    /// All games, finished or not.
    pub games: u64,
    pub white: u64,
    pub draws: u64,
    pub black: u64,
    /// Games without a result (in progress, abandoned; aborted games are not counted at all):
    /// never in the percentages.
    pub unfinished: u64,
}

impl Results {
    fn add(&mut self, result: Option<u8>, n: u64) {
        self.games += n;
        match result {
            Some(2) => self.white += n,
            Some(1) => self.draws += n,
            Some(0) => self.black += n,
            _ => self.unfinished += n,
        }
    }

    /// Finished games.
    pub fn finished(&self) -> u64 {
        self.white + self.draws + self.black
    }

    /// White's average score over the finished games, 0..1 (`None` without any).
    pub fn score(&self) -> Option<f64> {
        let n = self.finished();
        (n > 0).then(|| (self.white as f64 + self.draws as f64 / 2.0) / n as f64)
    }
}

/// One move of an explorer answer.
#[derive(Clone, Debug, PartialEq)]
pub struct ExplorerMove {
    /// UCI, Chess960 form.
    pub uci: String,
    /// SAN in the explored position.
    pub san: String,
    /// The games that played it, by result.
    pub results: Results,
}

/// What the database knows about one position.
#[derive(Clone, Debug, PartialEq)]
pub struct Explorer {
    /// The position's Zobrist key.
    pub key: u64,
    /// All games that reached it, by result.
    pub results: Results,
    /// Games that ended in it (no move played from it), by result.
    pub ended: Results,
    /// The moves played from it, most games first (then by SAN).
    pub moves: Vec<ExplorerMove>,
    /// The newest games that reached it, at most the number asked for.
    pub games: Vec<GameSummary>,
}

/// The explorer answer for `pos` from the backend's counts: the moves with their SAN, sorted.
/// Moves that are not legal in `pos` (only a key collision could put them there) are left
/// out.
pub fn explore(
    store: &(impl GameStore + ?Sized),
    pos: &Position,
    games: u32,
) -> Result<Explorer, StoreError> {
    explore_with(
        pos,
        games,
        |key| store.index_counts(key),
        |key, limit| store.position_games(key, limit),
    )
}

/// [`explore`] from counts and games read by `counts` and `games_of` (the whole database's,
/// or one player's: [`crate::PlayerStore::explore_account`]).
pub(crate) fn explore_with(
    pos: &Position,
    games: u32,
    counts: impl FnOnce(u64) -> Result<Vec<KeyCount>, StoreError>,
    games_of: impl FnOnce(u64, u32) -> Result<Vec<GameSummary>, StoreError>,
) -> Result<Explorer, StoreError> {
    let key = pos.hash();
    let counts = counts(key)?;
    let mut out = Explorer {
        key,
        results: Results::default(),
        ended: Results::default(),
        moves: Vec::new(),
        games: Vec::new(),
    };
    for c in counts {
        match c.uci {
            None => out.ended.add(c.result, c.games),
            Some(uci) => {
                let Ok(m) = pos.parse_uci(&uci, CastlingMode::Chess960) else {
                    continue;
                };
                let i = match out.moves.iter().position(|x| x.uci == uci) {
                    Some(i) => i,
                    None => {
                        out.moves.push(ExplorerMove {
                            san: pos.san(m),
                            uci,
                            results: Results::default(),
                        });
                        out.moves.len() - 1
                    }
                };
                out.moves[i].results.add(c.result, c.games);
            }
        }
        out.results.add(c.result, c.games);
    }
    out.moves.sort_by(|a, b| {
        b.results
            .games
            .cmp(&a.results.games)
            .then_with(|| a.san.cmp(&b.san))
    });
    out.games = games_of(key, games.min(MAX_GAMES))?;
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_encode_and_decode() {
        for uci in [
            "e2e4", "a1h8", "h8a1", "e7e8q", "b2a1n", "g7g8r", "c7c8b", "e1h1",
        ] {
            let code = encode_move(uci).unwrap();
            assert_eq!(decode_move(code).as_deref(), Some(uci));
        }
        assert_eq!(encode_move("a1a1"), Some(0));
        assert_eq!(encode_move("e2e4"), Some(12 + 64 * 28));
        for bad in ["", "e2", "e2e9", "i2e4", "e2e4x", "e2e4qq", "E2E4"] {
            assert_eq!(encode_move(bad), None, "{bad}");
        }
        assert_eq!(decode_move(6 * 4096), None);
    }

    #[test]
    fn a_repeated_position_counts_once_with_its_first_move() {
        let fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1";
        let line = ["g1f3", "g8f6", "f3g1", "f6g8", "e2e4"];
        let e = entries(fen, line);
        // The start, after Nf3, after Nf6, after Ng1 (Black's knight still on f6), then the
        // start again (not a new entry), then after e4.
        let start = Position::from_fen(fen).unwrap().hash();
        assert_eq!(e[0].key, start);
        assert_eq!(e[0].mv, encode_move("g1f3"));
        assert_eq!(e.iter().filter(|x| x.key == start).count(), 1);
        assert_eq!(e.len(), 5);
        assert_eq!(e.last().unwrap().mv, None);
    }

    #[test]
    fn entries_stop_at_an_illegal_move() {
        let fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1";
        let e = entries(fen, ["e2e4", "e2e4", "d7d5"]);
        assert_eq!(e.len(), 2);
        assert_eq!(e[1].mv, None);
        assert!(entries("not a fen", ["e2e4"]).is_empty());
    }

    #[test]
    fn diff_writes_changed_moves_and_removes_lost_keys() {
        let fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1";
        let two = entries(fen, ["e2e4", "e7e5"]);
        let three = entries(fen, ["e2e4", "e7e5", "g1f3"]);
        let (write, remove) = diff(&two, &three);
        assert_eq!(write, vec![three[2], three[3]]);
        assert!(remove.is_empty());
        let (write, remove) = diff(&three, &two);
        assert_eq!(write, vec![two[2]]);
        assert_eq!(remove, vec![three[3].key]);
    }
}
