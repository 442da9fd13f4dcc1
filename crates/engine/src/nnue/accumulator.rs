//! The accumulators of a search: one per ply, each remembering the board it was computed for,
//! so that the next one is the previous one plus the pieces that appeared minus those that
//! went. Diffing boards rather than decoding moves makes every move shape the same update:
//! a Chess960 castle where the king lands on its rook's square, or a rook that does not move,
//! needs no special case.

use super::{feature, simd, Network};
use chess960_core::{Bitboard, Board, Color, Piece, Position, Role, Square};
use std::sync::Arc;

/// More changed squares than this and a fresh computation (about 32 rows of weights) is cheaper
/// than an update (each changed square is at most one row out and one row in).
const MAX_SQUARES: usize = 8;

/// How many plies below its own an accumulator looks for the closest board to update from.
const SOURCES_BELOW: usize = 4;

struct Entry {
    board: Board,
    valid: bool,
}

/// The accumulators of one search thread, indexed by ply.
pub struct AccumulatorStack {
    net: Arc<Network>,
    entries: Vec<Entry>,
    /// `entries.len() × 2 × hidden` values: per ply, White's perspective then Black's.
    values: Vec<i16>,
    /// A copy of one ply's values, for updating an accumulator in place.
    scratch: Vec<i16>,
}

impl AccumulatorStack {
    /// Accumulators for searches up to `plies` deep with `net`.
    pub fn new(net: Arc<Network>, plies: usize) -> AccumulatorStack {
        let hidden = net.hidden;
        AccumulatorStack {
            net,
            entries: (0..plies)
                .map(|_| Entry {
                    board: Board::empty(),
                    valid: false,
                })
                .collect(),
            values: vec![0; plies * 2 * hidden],
            scratch: vec![0; 2 * hidden],
        }
    }

    /// The evaluation of `pos` in centipawns for the side to move, using the accumulator of
    /// `ply` (updated from whichever board is closest: its own last one, or that of one of the
    /// four plies below it).
    pub fn evaluate(&mut self, pos: &Position, ply: usize) -> i32 {
        let ply = ply.min(self.entries.len() - 1);
        self.refresh(pos.board(), ply);
        let hidden = self.net.hidden;
        let base = ply * 2 * hidden;
        let (white, black) = self.values[base..base + 2 * hidden].split_at(hidden);
        let (us, them) = match pos.turn() {
            Color::White => (white, black),
            Color::Black => (black, white),
        };
        let (w_us, w_them) = self.net.output_weights.split_at(hidden);
        let sum = simd::screlu_dot(us, w_us) + simd::screlu_dot(them, w_them);
        self.net.scale_output(sum)
    }

    /// Brings the accumulator of `ply` to `board`.
    fn refresh(&mut self, board: &Board, ply: usize) {
        // Any accumulator whose board is known can be the source, since the update diffs
        // boards: its own last board (a sibling's), or one of the plies below. The parent's
        // may be stale (a node whose evaluation came from the table computes none), so a
        // few plies further down are looked at too.
        let mut best: Option<(usize, Bitboard)> = None;
        for source in (ply.saturating_sub(SOURCES_BELOW)..=ply).rev() {
            let entry = &self.entries[source];
            if !entry.valid {
                continue;
            }
            let squares = differing_squares(&entry.board, board);
            if source == ply && squares.is_empty() {
                return;
            }
            if best.is_none_or(|(_, b)| squares.count() < b.count()) {
                best = Some((source, squares));
            }
        }
        match best {
            Some((source, squares)) if squares.count() as usize <= MAX_SQUARES => {
                self.update(source, squares, board, ply)
            }
            _ => self.compute_fresh(board, ply),
        }
        self.entries[ply].board = *board;
        self.entries[ply].valid = true;
    }

    fn compute_fresh(&mut self, board: &Board, ply: usize) {
        let hidden = self.net.hidden;
        let base = ply * 2 * hidden;
        for (i, perspective) in Color::ALL.into_iter().enumerate() {
            let acc = self.net.accumulate(board, perspective);
            self.values[base + i * hidden..base + (i + 1) * hidden].copy_from_slice(&acc);
        }
    }

    /// The accumulator of `ply` for `board` from that of `source` (which may be `ply` itself),
    /// whose board differs from `board` on `squares` (at most `MAX_SQUARES` of them).
    fn update(&mut self, source: usize, squares: Bitboard, board: &Board, ply: usize) {
        let hidden = self.net.hidden;
        let old = self.entries[source].board;
        // The pieces that went and those that appeared.
        let none = (
            Piece {
                color: Color::White,
                role: Role::Pawn,
            },
            Square::A1,
        );
        let (mut gone, mut came) = ([none; MAX_SQUARES], [none; MAX_SQUARES]);
        let (mut n_gone, mut n_came) = (0, 0);
        for square in squares {
            if let Some(piece) = old.piece_at(square) {
                gone[n_gone] = (piece, square);
                n_gone += 1;
            }
            if let Some(piece) = board.piece_at(square) {
                came[n_came] = (piece, square);
                n_came += 1;
            }
        }
        let src_start = source * 2 * hidden;
        if source == ply {
            // In place: read the source from a copy.
            self.scratch
                .copy_from_slice(&self.values[src_start..src_start + 2 * hidden]);
        }
        let weights = &self.net.feature_weights;
        for (i, perspective) in Color::ALL.into_iter().enumerate() {
            let row = |&(piece, square): &(Piece, Square)| {
                let start = feature(perspective, piece, square) * hidden;
                &weights[start..start + hidden]
            };
            let mut add: [&[i16]; MAX_SQUARES] = [&[]; MAX_SQUARES];
            let mut sub: [&[i16]; MAX_SQUARES] = [&[]; MAX_SQUARES];
            for (slot, change) in add.iter_mut().zip(&came[..n_came]) {
                *slot = row(change);
            }
            for (slot, change) in sub.iter_mut().zip(&gone[..n_gone]) {
                *slot = row(change);
            }
            let offset = i * hidden;
            // Split the buffer at `ply`: the source (below it, or the scratch copy) is read
            // while `ply` is written.
            let (low, high) = self.values.split_at_mut(ply * 2 * hidden);
            let src = if source == ply {
                &self.scratch[offset..offset + hidden]
            } else {
                &low[src_start + offset..src_start + offset + hidden]
            };
            simd::update(
                &mut high[offset..offset + hidden],
                src,
                &add[..n_came],
                &sub[..n_gone],
            );
        }
    }
}

/// The squares whose contents differ between two boards: a square whose piece changed has a
/// different role or a different colour, so the union of the sets' differences is exact.
#[inline]
fn differing_squares(a: &Board, b: &Board) -> Bitboard {
    let mut d = (a.by_color(Color::White) ^ b.by_color(Color::White))
        | (a.by_color(Color::Black) ^ b.by_color(Color::Black));
    for role in Role::ALL {
        d |= a.by_role(role) ^ b.by_role(role);
    }
    d
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nnue::testing::random_net;
    use chess960_core::StartId;

    /// Plays random games from Chess960 starts, castling whenever it can (so the king lands on
    /// its rook's square, passes over it or stays put), and checks at every ply that the
    /// incremental accumulators give the evaluation computed from scratch. The stack is used
    /// as a search uses it: down the line, then back up to a shallower ply for a sibling.
    fn check_incremental(hidden: usize) {
        let net = Arc::new(random_net(hidden, hidden as u64));
        let mut stack = AccumulatorStack::new(net.clone(), 64);
        let mut seed = 12345u64;
        let mut castles = 0;
        let mut checked = 0;
        for id in [0u32, 518, 959, 200, 637, 88] {
            let mut pos = StartId::new(id).unwrap().position();
            let mut line = vec![pos];
            for ply in 0..120 {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1);
                let castle = moves.iter().find(|m| m.is_castle());
                let m = match castle {
                    Some(&m) if seed >> 60 < 12 => {
                        castles += 1;
                        m
                    }
                    _ => moves.as_slice()[(seed >> 33) as usize % moves.len()],
                };
                pos = pos.play(m);
                line.push(pos);
                let depth = (ply % 7) + 1; // plies 1..=7 reused, as siblings in a search
                assert_eq!(
                    stack.evaluate(&pos, depth),
                    net.evaluate_board(pos.board(), pos.turn()),
                    "start {id}, ply {ply}: {}",
                    pos.fen()
                );
                checked += 1;
            }
            // A jump back to the start at ply 0 and a far position at ply 1: fresh computations.
            assert_eq!(
                stack.evaluate(&line[0], 0),
                net.evaluate_board(line[0].board(), line[0].turn())
            );
            let last = line.last().unwrap();
            assert_eq!(
                stack.evaluate(last, 1),
                net.evaluate_board(last.board(), last.turn())
            );
        }
        assert!(castles >= 6, "only {castles} castles were tried");
        assert!(checked > 300);
    }

    #[test]
    fn incremental_updates_match_a_fresh_computation() {
        check_incremental(64); // the SIMD path
        check_incremental(24); // a size the SIMD code leaves to the portable loops
    }
}
