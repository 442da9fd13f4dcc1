//! Piece placement: which piece stands on which square, nothing else.

use crate::bitboard::Bitboard;
use crate::types::{Color, Piece, Rank, Role, Square};
use std::fmt;

/// Piece placement as one bitboard per role and per colour.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Board {
    by_role: [Bitboard; 6],
    by_color: [Bitboard; 2],
}

impl Board {
    /// A board with no pieces.
    pub const fn empty() -> Board {
        Board {
            by_role: [Bitboard::EMPTY; 6],
            by_color: [Bitboard::EMPTY; 2],
        }
    }

    /// All occupied squares.
    #[inline(always)]
    pub fn occupied(&self) -> Bitboard {
        self.by_color[0] | self.by_color[1]
    }

    /// Squares occupied by `color`.
    #[inline(always)]
    pub fn by_color(&self, color: Color) -> Bitboard {
        self.by_color[color.index()]
    }

    /// Squares occupied by pieces of `role` (both colours).
    #[inline(always)]
    pub fn by_role(&self, role: Role) -> Bitboard {
        self.by_role[role.index()]
    }

    /// Squares occupied by `piece`.
    #[inline(always)]
    pub fn by_piece(&self, piece: Piece) -> Bitboard {
        self.by_role(piece.role) & self.by_color(piece.color)
    }

    /// Rooks and queens (both colours).
    #[inline(always)]
    pub fn rooks_and_queens(&self) -> Bitboard {
        self.by_role[Role::Rook.index()] | self.by_role[Role::Queen.index()]
    }

    /// Bishops and queens (both colours).
    #[inline(always)]
    pub fn bishops_and_queens(&self) -> Bitboard {
        self.by_role[Role::Bishop.index()] | self.by_role[Role::Queen.index()]
    }

    /// The king of `color`, if there is one.
    #[inline]
    pub fn king_of(&self, color: Color) -> Option<Square> {
        (self.by_role(Role::King) & self.by_color(color)).first()
    }

    /// The colour of the piece on `sq`, if any.
    #[inline]
    pub fn color_at(&self, sq: Square) -> Option<Color> {
        if self.by_color[0].contains(sq) {
            Some(Color::White)
        } else if self.by_color[1].contains(sq) {
            Some(Color::Black)
        } else {
            None
        }
    }

    /// The role of the piece on `sq`, if any.
    #[inline]
    pub fn role_at(&self, sq: Square) -> Option<Role> {
        if !self.occupied().contains(sq) {
            return None;
        }
        Role::ALL
            .into_iter()
            .find(|r| self.by_role[r.index()].contains(sq))
    }

    /// The piece on `sq`, if any.
    #[inline]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        let color = self.color_at(sq)?;
        let role = self.role_at(sq)?;
        Some(Piece { color, role })
    }

    /// Puts `piece` on the empty square `sq`.
    #[inline(always)]
    pub(crate) fn put(&mut self, sq: Square, color: Color, role: Role) {
        let b = Bitboard::from_square(sq);
        self.by_role[role.index()] |= b;
        self.by_color[color.index()] |= b;
    }

    /// Removes the given piece from `sq`, where it must stand.
    #[inline(always)]
    pub(crate) fn take(&mut self, sq: Square, color: Color, role: Role) {
        let b = Bitboard::from_square(sq);
        self.by_role[role.index()] ^= b;
        self.by_color[color.index()] ^= b;
    }

    /// Sets or clears `sq`, whatever stood there before.
    pub fn set_piece_at(&mut self, sq: Square, piece: Option<Piece>) {
        if let Some(old) = self.piece_at(sq) {
            self.take(sq, old.color, old.role);
        }
        if let Some(p) = piece {
            self.put(sq, p.color, p.role);
        }
    }

    /// Iterates over all pieces with their squares, a1 first.
    pub fn pieces(&self) -> impl Iterator<Item = (Square, Piece)> + '_ {
        self.occupied()
            .map(move |sq| (sq, self.piece_at(sq).expect("occupied square has a piece")))
    }

    /// The piece placement field of FEN (`rnbqkbnr/pppppppp/8/…`).
    pub fn board_fen(&self) -> String {
        let mut s = String::with_capacity(72);
        for rank in Rank::ALL.iter().rev() {
            let mut empty = 0;
            for file in crate::types::File::ALL {
                match self.piece_at(Square::from_coords(file, *rank)) {
                    Some(p) => {
                        if empty > 0 {
                            s.push(char::from(b'0' + empty));
                            empty = 0;
                        }
                        s.push(p.fen_char());
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                s.push(char::from(b'0' + empty));
            }
            if *rank != Rank::First {
                s.push('/');
            }
        }
        s
    }

    /// A text diagram with Unicode pieces, rank 8 on top (or rank 1 when `flipped`), with
    /// coordinates.
    pub fn to_unicode(&self, flipped: bool) -> String {
        let mut s = String::new();
        let ranks: Vec<Rank> = if flipped {
            Rank::ALL.to_vec()
        } else {
            Rank::ALL.iter().rev().copied().collect()
        };
        let files: Vec<crate::types::File> = if flipped {
            crate::types::File::ALL.iter().rev().copied().collect()
        } else {
            crate::types::File::ALL.to_vec()
        };
        for rank in &ranks {
            s.push(rank.char());
            s.push(' ');
            for file in &files {
                let sq = Square::from_coords(*file, *rank);
                s.push(self.piece_at(sq).map_or('·', Piece::unicode));
                s.push(' ');
            }
            s.pop();
            s.push('\n');
        }
        s.push_str("  ");
        for file in &files {
            s.push(file.char());
            s.push(' ');
        }
        s.pop();
        s.push('\n');
        s
    }
}

impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Board({})", self.board_fen())
    }
}
