//! Moves and move lists.

use crate::types::{CastlingSide, Role, Square};
use std::fmt;
use std::mem::MaybeUninit;

/// What kind of move a [`Move`] is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MoveKind {
    /// Any move that is not one of the others, including captures and double pawn pushes.
    Normal,
    /// A pawn capturing en passant; `to` is the square the capturing pawn lands on.
    EnPassant,
    /// Castling; `from` is the king's square and `to` is the castling rook's square.
    Castle,
    /// A pawn promotion to the given role.
    Promotion(Role),
}

/// A move, packed in 16 bits: from (6), to (6), kind (3).
///
/// Castling is stored as "king takes own rook" (`from` = king, `to` = rook), the one encoding
/// that is unambiguous for every Chess960 position: with king b1 and rook a1, the castle is
/// b1→a1 and cannot be mistaken for the king step b1→c1.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Move(u16);

const KIND_NORMAL: u16 = 0;
const KIND_EP: u16 = 1;
const KIND_CASTLE: u16 = 2;
const KIND_PROMO: u16 = 4; // + role - 1 (knight = 4 … queen = 7)

impl Move {
    #[inline]
    const fn pack(from: Square, to: Square, kind: u16) -> Move {
        Move(from.index() as u16 | (to.index() as u16) << 6 | kind << 12)
    }

    /// A normal move (also captures and double pushes).
    #[inline]
    pub const fn normal(from: Square, to: Square) -> Move {
        Move::pack(from, to, KIND_NORMAL)
    }

    /// An en-passant capture landing on `to`.
    #[inline]
    pub const fn en_passant(from: Square, to: Square) -> Move {
        Move::pack(from, to, KIND_EP)
    }

    /// Castling of the king on `king` with the rook on `rook`.
    #[inline]
    pub const fn castle(king: Square, rook: Square) -> Move {
        Move::pack(king, rook, KIND_CASTLE)
    }

    /// A promotion to `role`, which must be knight, bishop, rook or queen.
    #[inline]
    pub const fn promotion(from: Square, to: Square, role: Role) -> Move {
        debug_assert!(matches!(
            role,
            Role::Knight | Role::Bishop | Role::Rook | Role::Queen
        ));
        Move::pack(from, to, KIND_PROMO + role as u16 - 1)
    }

    /// The square the moving piece (the king, for castling) starts on.
    #[inline]
    pub const fn from(self) -> Square {
        Square::new_unchecked((self.0 & 63) as u32)
    }

    /// The destination; for castling the castling rook's square.
    #[inline]
    pub const fn to(self) -> Square {
        Square::new_unchecked((self.0 >> 6 & 63) as u32)
    }

    #[inline]
    const fn kind_bits(self) -> u16 {
        self.0 >> 12
    }

    /// The kind of move.
    #[inline]
    pub const fn kind(self) -> MoveKind {
        match self.kind_bits() {
            KIND_NORMAL => MoveKind::Normal,
            KIND_EP => MoveKind::EnPassant,
            KIND_CASTLE => MoveKind::Castle,
            k => MoveKind::Promotion(Role::ALL[(k - KIND_PROMO + 1) as usize]),
        }
    }

    /// The promotion role, if this is a promotion.
    #[inline]
    pub const fn promotion_role(self) -> Option<Role> {
        match self.kind() {
            MoveKind::Promotion(r) => Some(r),
            _ => None,
        }
    }

    /// True for castling.
    #[inline]
    pub const fn is_castle(self) -> bool {
        self.kind_bits() == KIND_CASTLE
    }

    /// True for en passant.
    #[inline]
    pub const fn is_en_passant(self) -> bool {
        self.kind_bits() == KIND_EP
    }

    /// True for promotions.
    #[inline]
    pub const fn is_promotion(self) -> bool {
        self.kind_bits() >= KIND_PROMO
    }

    /// The castling side, if this is castling.
    #[inline]
    pub fn castling_side(self) -> Option<CastlingSide> {
        self.is_castle()
            .then(|| CastlingSide::from_king_rook(self.from(), self.to()))
    }

    /// The 16-bit encoding (stable within a version; handy for hash tables).
    #[inline]
    pub const fn to_u16(self) -> u16 {
        self.0
    }

    /// Rebuilds a move from [`Move::to_u16`]; `None` for bit patterns no move has.
    pub fn from_u16(bits: u16) -> Option<Move> {
        let m = Move(bits);
        match bits >> 12 {
            KIND_NORMAL | KIND_EP | KIND_CASTLE | 4..=7 => Some(m),
            _ => None,
        }
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.kind() {
            MoveKind::Normal => write!(f, "{}{}", self.from(), self.to()),
            MoveKind::EnPassant => write!(f, "{}{}ep", self.from(), self.to()),
            MoveKind::Castle => write!(f, "{}{}castle", self.from(), self.to()),
            MoveKind::Promotion(r) => write!(f, "{}{}{}", self.from(), self.to(), r.lower_char()),
        }
    }
}

/// Capacity of a [`MoveList`]. A position reachable in a game has at most 218 legal moves, but
/// leniently read test positions can have more pieces than a game allows (one published
/// position has 270 moves). No position can exceed this bound: each of the 64 squares is
/// reached by at most 16 pieces (the first on each of 8 lines, 8 knights), plus 3 extra
/// promotion choices for up to 3 pawns on each of the 16 back-rank squares, plus castling and en
/// passant; only the part of the list in use is ever touched.
pub const MAX_MOVES: usize = 64 * 16 + 16 * 3 * 3 + 4;

/// A fixed-capacity list of moves on the stack (no allocation in move generation).
pub struct MoveList {
    len: usize,
    moves: [MaybeUninit<Move>; MAX_MOVES],
}

impl MoveList {
    /// An empty list.
    #[inline]
    pub fn new() -> MoveList {
        MoveList {
            len: 0,
            moves: [const { MaybeUninit::uninit() }; MAX_MOVES],
        }
    }

    /// Appends a move. Panics (a bug, not bad input) if the list is full.
    #[inline(always)]
    pub fn push(&mut self, m: Move) {
        assert!(self.len < MAX_MOVES);
        self.moves[self.len] = MaybeUninit::new(m);
        self.len += 1;
    }

    /// Empties the list.
    #[inline]
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// Number of moves.
    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }

    /// True if there are no moves.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The moves as a slice.
    #[inline]
    pub fn as_slice(&self) -> &[Move] {
        // SAFETY: the first `len` elements were written by `push`, and `Move` is `Copy`.
        unsafe { std::slice::from_raw_parts(self.moves.as_ptr().cast::<Move>(), self.len) }
    }

    /// The moves as a mutable slice (for sorting).
    #[inline]
    pub fn as_mut_slice(&mut self) -> &mut [Move] {
        // SAFETY: as in `as_slice`.
        unsafe { std::slice::from_raw_parts_mut(self.moves.as_mut_ptr().cast::<Move>(), self.len) }
    }

    /// Iterates over the moves.
    #[inline]
    pub fn iter(&self) -> std::slice::Iter<'_, Move> {
        self.as_slice().iter()
    }

    /// Keeps only the moves for which `f` is true.
    pub fn retain(&mut self, mut f: impl FnMut(&Move) -> bool) {
        let mut kept = 0;
        for i in 0..self.len {
            // SAFETY: i < len, initialised.
            let m = unsafe { self.moves[i].assume_init() };
            if f(&m) {
                self.moves[kept] = MaybeUninit::new(m);
                kept += 1;
            }
        }
        self.len = kept;
    }

    /// True if the list holds `m`.
    pub fn contains(&self, m: &Move) -> bool {
        self.as_slice().contains(m)
    }
}

impl Default for MoveList {
    fn default() -> Self {
        MoveList::new()
    }
}

impl std::ops::Deref for MoveList {
    type Target = [Move];
    fn deref(&self) -> &[Move] {
        self.as_slice()
    }
}

impl<'a> IntoIterator for &'a MoveList {
    type Item = &'a Move;
    type IntoIter = std::slice::Iter<'a, Move>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl fmt::Debug for MoveList {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn packing_round_trips() {
        for from in Square::all() {
            for to in Square::all() {
                let n = Move::normal(from, to);
                assert_eq!((n.from(), n.to(), n.kind()), (from, to, MoveKind::Normal));
                let c = Move::castle(from, to);
                assert!(c.is_castle());
                for role in [Role::Knight, Role::Bishop, Role::Rook, Role::Queen] {
                    let p = Move::promotion(from, to, role);
                    assert_eq!(p.kind(), MoveKind::Promotion(role));
                    assert_eq!(Move::from_u16(p.to_u16()), Some(p));
                }
            }
        }
        assert_eq!(Move::from_u16(3 << 12), None);
    }
}
