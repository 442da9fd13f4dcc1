//! What a game's searches learn and keep from one move to the next: the history of quiet
//! moves, the continuation history, the counter moves, and how far the static evaluation
//! proved off per pawn structure and per set of pieces (correction history). A search that
//! starts from scratch every move spends its first iterations relearning which quiet moves cut
//! off in positions much like those of the last search; kept, the ordering is good from the
//! first iteration.
//! `ucinewgame` (and a new game of a [`crate::player::Player`]) forgets it, so that one
//! game's lessons do not steer the next and a game replayed gives the same moves.

use crate::search::MATE_BOUND;
use chess960_core::{Color, Move, Position, Role};
use std::sync::Mutex;

/// A move as the continuation history knows it: the piece that moves (colour and role) and
/// its destination, `(colour * 6 + role) * 64 + to`, below [`PIECE_TO`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PieceTo(u16);

/// The number of [`PieceTo`] values.
const PIECE_TO: usize = 2 * 6 * 64;

impl PieceTo {
    /// Move `m` of the side to move in `pos`.
    pub fn of(pos: &Position, m: Move) -> PieceTo {
        let role = pos.board().role_at(m.from()).map_or(0, |r| r.index());
        PieceTo(((pos.turn().index() * 6 + role) * 64 + m.to().index()) as u16)
    }
}

/// One search thread's memory of moves.
pub struct Memory {
    /// Per side, from-square and to-square: how often a quiet move cut off (up), or was
    /// tried before the move that did (down); gravity keeps it within ±16,384.
    pub history: [[[i32; 64]; 64]; 2],
    /// Per previous move's from- and to-square: the quiet move that last refuted it.
    pub counter: [[Option<Move>; 64]; 64],
    /// Per side to move and pawn structure (hashed), in 1/[`CORRECTION_GRAIN`] centipawns: a
    /// running average of what searches found the position worth beyond its static
    /// evaluation. A net misjudges some pawn structures the same way wherever they occur; once
    /// searches have found the error, every later node with that structure prunes with the
    /// corrected value.
    correction: [[i32; CORRECTION_SIZE]; 2],
    /// The same per side to move and one colour's pieces other than pawns (hashed), for each
    /// colour: what the net misjudges about a set of pieces (a bishop pair against rooks, a
    /// king that has castled) wherever the pawns stand. The three corrections add up, and
    /// each learns what the sum still misses.
    material: [[[i32; CORRECTION_SIZE]; 2]; 2],
    /// Continuation history: per earlier move (piece and destination) and quiet move (the
    /// same), how often the second cut off when played one or two plies after the first; the
    /// same gravity as `history`. Where `history` knows that a move is good, this knows after
    /// what: a defence against the opponent's last move, or the follow-up to our own.
    cont: Box<[i16]>,
}

const CORRECTION_SIZE: usize = 16384;
const CORRECTION_GRAIN: i32 = 256;
/// How the squares of one colour's pieces of each role other than the pawn are hashed into the
/// pieces' correction: multiplied by an odd constant, then turned by a number of bits.
const PIECE_KEYS: [(Role, u64, u32); 5] = [
    (Role::Knight, 0x9E37_79B9_7F4A_7C15, 0),
    (Role::Bishop, 0xC2B2_AE3D_27D4_EB4F, 13),
    (Role::Rook, 0x1656_67B1_9E37_79F9, 29),
    (Role::Queen, 0x85EB_CA77_C2B2_AE63, 41),
    (Role::King, 0x27D4_EB2F_1656_67C5, 53),
];
/// The largest correction, in centipawns.
const CORRECTION_LIMIT: i32 = 64;

impl Memory {
    /// An empty memory.
    pub fn new() -> Box<Memory> {
        Box::new(Memory {
            history: [[[0; 64]; 64]; 2],
            counter: [[None; 64]; 64],
            correction: [[0; CORRECTION_SIZE]; 2],
            material: [[[0; CORRECTION_SIZE]; 2]; 2],
            cont: vec![0; PIECE_TO * PIECE_TO].into_boxed_slice(),
        })
    }

    /// Where `pos`'s corrections lie: the side to move, its pawn structure's hash, and each
    /// colour's other pieces' hash.
    fn correction_index(pos: &Position) -> (usize, usize, [usize; 2]) {
        let b = pos.board();
        let pawns = b.by_role(Role::Pawn);
        let white = (pawns & b.by_color(Color::White)).0;
        let black = (pawns & b.by_color(Color::Black)).0;
        let key = white.wrapping_mul(0x9E37_79B9_7F4A_7C15)
            ^ black.wrapping_mul(0xC2B2_AE3D_27D4_EB4F).rotate_left(29);
        let bits = CORRECTION_SIZE.trailing_zeros();
        let pieces = [Color::White, Color::Black].map(|c| {
            let mine = b.by_color(c);
            let key = PIECE_KEYS.iter().fold(0u64, |key, &(role, factor, turn)| {
                key ^ (b.by_role(role) & mine)
                    .0
                    .wrapping_mul(factor)
                    .rotate_left(turn)
            });
            (key >> (64 - bits)) as usize
        });
        (pos.turn().index(), (key >> (64 - bits)) as usize, pieces)
    }

    /// The sum of the corrections at `correction_index`'s place, in 1/[`CORRECTION_GRAIN`]
    /// centipawns.
    fn correction_at(&self, (side, pawns, pieces): (usize, usize, [usize; 2])) -> i32 {
        self.correction[side][pawns]
            + self.material[0][side][pieces[0]]
            + self.material[1][side][pieces[1]]
    }

    /// `eval`, the side to move's static evaluation of `pos`, corrected.
    pub fn corrected(&self, pos: &Position, eval: i32) -> i32 {
        (eval + self.correction_at(Self::correction_index(pos)) / CORRECTION_GRAIN)
            .clamp(-MATE_BOUND + 1, MATE_BOUND - 1)
    }

    /// A search of `depth` found `pos` worth `error` centipawns more than its static
    /// evaluation: each correction moves by what their sum still misses, more for deeper
    /// searches (with one correction, a running average of the errors).
    pub fn learn_correction(&mut self, pos: &Position, error: i32, depth: i32) {
        let weight = (depth + 1).min(16);
        let target = error.clamp(-CORRECTION_LIMIT, CORRECTION_LIMIT) * CORRECTION_GRAIN;
        let place = Self::correction_index(pos);
        let missing = target - self.correction_at(place);
        let (side, pawns, pieces) = place;
        let limit = CORRECTION_LIMIT * CORRECTION_GRAIN;
        let step = |slot: &mut i32| *slot = (*slot + missing * weight / 256).clamp(-limit, limit);
        step(&mut self.correction[side][pawns]);
        let [white, black] = &mut self.material;
        step(&mut white[side][pieces[0]]);
        step(&mut black[side][pieces[1]]);
    }

    /// The continuation history of a move `now` played after `before`.
    pub fn cont_of(&self, before: PieceTo, now: PieceTo) -> i32 {
        i32::from(self.cont[before.0 as usize * PIECE_TO + now.0 as usize])
    }

    /// Moves the continuation history of `now` after `before` by `delta`, with gravity: the
    /// further from zero, the less it moves, and never beyond ±16,384.
    pub fn update_cont(&mut self, before: PieceTo, now: PieceTo, delta: i32) {
        let entry = &mut self.cont[before.0 as usize * PIECE_TO + now.0 as usize];
        *entry = gravity(i32::from(*entry), delta).clamp(-16384, 16384) as i16;
    }

    /// The history score of quiet move `m` for the side to move in `pos`.
    pub fn history_of(&self, pos: &Position, m: Move) -> i32 {
        self.history[pos.turn().index()][m.from().index()][m.to().index()]
    }
}

/// A history entry `value` moved by `delta`: the further it is from zero, the less it moves
/// in its own direction, so that it stays within ±16,384 for any `delta` of at most that size.
pub fn gravity(value: i32, delta: i32) -> i32 {
    value + delta - value * delta.abs() / 16384
}

/// The memories of a table's search threads between searches, by thread.
#[derive(Default)]
pub struct Memories {
    slots: Mutex<Vec<Option<Box<Memory>>>>,
}

impl Memories {
    /// Thread `thread`'s memory, empty if it has none (the first search, after
    /// [`Memories::clear`], or while another search with the same thread number runs).
    pub fn take(&self, thread: usize) -> Box<Memory> {
        let mut slots = self.slots.lock().unwrap_or_else(|e| e.into_inner());
        slots
            .get_mut(thread)
            .and_then(Option::take)
            .unwrap_or_else(Memory::new)
    }

    /// Gives thread `thread`'s memory back at the end of its search.
    pub fn give(&self, thread: usize, memory: Box<Memory>) {
        let mut slots = self.slots.lock().unwrap_or_else(|e| e.into_inner());
        if slots.len() <= thread {
            slots.resize_with(thread + 1, || None);
        }
        slots[thread] = Some(memory);
    }

    /// Forgets every thread's memory (a new game).
    pub fn clear(&self) {
        self.slots.lock().unwrap_or_else(|e| e.into_inner()).clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_correction_follows_what_searches_found_within_its_limit() {
        let mut m = Memory::new();
        let start = chess960_core::StartId::new(518).unwrap().position();
        let after = start.play(start.legal_moves()[0]);
        assert_eq!(m.corrected(&start, 37), 37);
        // Deep searches finding the position 40 cp better: the average gets close to 40.
        for _ in 0..200 {
            m.learn_correction(&start, 40, 20);
        }
        assert!(
            (38..=40).contains(&(m.corrected(&start, 0))),
            "{}",
            m.corrected(&start, 0)
        );
        // Far off: no more than the limit, in either direction.
        for _ in 0..400 {
            m.learn_correction(&start, -900, 20);
        }
        // (The average's rounding towards zero keeps it a fraction of a centipawn inside.)
        let limited = m.corrected(&start, 100);
        assert!(
            (100 - CORRECTION_LIMIT..=101 - CORRECTION_LIMIT).contains(&limited),
            "{limited}"
        );
        // Another pawn structure, or the same one with the other side to move: untouched.
        assert_eq!(m.corrected(&after, 100), 100);
        // Never into the mate scores.
        assert_eq!(m.corrected(&start, -MATE_BOUND + 5), -MATE_BOUND + 1);
    }

    #[test]
    fn the_pawns_and_the_pieces_each_carry_their_share_of_a_correction() {
        let start = chess960_core::StartId::new(518).unwrap().position();
        let line = |moves: &[&str]| {
            moves.iter().fold(start, |pos, m| {
                pos.play(pos.parse_uci(m, Default::default()).unwrap())
            })
        };
        let mut m = Memory::new();
        for _ in 0..200 {
            m.learn_correction(&start, 40, 20);
        }
        let whole = m.corrected(&start, 0);
        assert!((38..=40).contains(&whole), "{whole}");
        // The same pawns, other pieces' squares (White to move again): the pawns' share only.
        let pawns = m.corrected(&line(&["g1f3", "g8f6"]), 0);
        // The same pieces, other pawns: the pieces' share only.
        let pieces = m.corrected(&line(&["e2e4", "e7e5"]), 0);
        assert!(pawns > 0 && pieces > 0, "{pawns} {pieces}");
        assert!(
            (whole - 1..=whole + 1).contains(&(pawns + pieces)),
            "{pawns} + {pieces}"
        );
        // A white piece moved, the black ones not: the pawns' share and Black's pieces' share.
        let one = m.corrected(&line(&["g1f3", "b8c6", "h1g1", "c6b8"]), 0);
        assert!(pawns < one && one < whole, "{pawns} {one} {whole}");
    }

    #[test]
    fn continuation_history_is_per_pair_and_bounded() {
        let start = chess960_core::StartId::new(518).unwrap().position();
        let moves = start.legal_moves();
        let (a, b) = (PieceTo::of(&start, moves[0]), PieceTo::of(&start, moves[1]));
        assert_ne!(a, b);
        let reply = start.play(moves[0]);
        let c = PieceTo::of(&reply, reply.legal_moves()[0]);
        // A black move differs from every white one.
        assert!(c.0 as usize >= PIECE_TO / 2 && (a.0 as usize) < PIECE_TO / 2);
        let mut m = Memory::new();
        for _ in 0..1000 {
            m.update_cont(a, c, 400 * 32);
        }
        assert!(
            (16000..=16384).contains(&m.cont_of(a, c)),
            "{}",
            m.cont_of(a, c)
        );
        // The pair, not either move alone.
        assert_eq!(m.cont_of(b, c), 0);
        assert_eq!(m.cont_of(c, a), 0);
        for _ in 0..1000 {
            m.update_cont(a, c, -400 * 32);
        }
        assert!(
            (-16384..=-16000).contains(&m.cont_of(a, c)),
            "{}",
            m.cont_of(a, c)
        );
    }

    #[test]
    fn a_memory_given_back_is_taken_again_until_cleared() {
        let memories = Memories::default();
        let mut m = memories.take(2);
        assert_eq!(m.history[0][12][28], 0);
        m.history[0][12][28] = 77;
        memories.give(2, m);
        // Another thread's slot is its own.
        assert_eq!(memories.take(0).history[0][12][28], 0);
        let m = memories.take(2);
        assert_eq!(m.history[0][12][28], 77);
        // Taken: a second search on thread 2 meanwhile starts empty.
        assert_eq!(memories.take(2).history[0][12][28], 0);
        memories.give(2, m);
        memories.clear();
        assert_eq!(memories.take(2).history[0][12][28], 0);
    }
}
