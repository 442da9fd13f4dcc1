//! UCI move notation in both castling conventions (§3).

use crate::moves::{Move, MoveKind};
use crate::position::Position;
use crate::types::{CastlingSide, Role, Square};
use std::fmt;

/// How castling is written in UCI.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum CastlingMode {
    /// King onto its own rook (`e1h1`, `b1a1`): unambiguous in every position. UCI with
    /// `UCI_Chess960` true.
    #[default]
    Chess960,
    /// The king's destination (`e1g1`, `e1c1`), as classical UCI writes it, whenever the king
    /// moves two or more files; other Chess960 castles are written king onto rook, as they
    /// have no classical form. When reading, the king-onto-rook form is accepted too, and a
    /// one-square king move is always a king move.
    Standard,
}

/// Why a UCI move string was not accepted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum UciError {
    /// Not of the form `e2e4` / `e7e8q`.
    Syntax {
        /// The text given.
        uci: String,
    },
    /// Well formed, but not a legal move here.
    Illegal {
        /// The text given.
        uci: String,
        /// Why.
        reason: String,
    },
}

impl fmt::Display for UciError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            UciError::Syntax { uci } => write!(
                f,
                "'{uci}' is not a UCI move (from-square, to-square, optional promotion letter: e2e4, e7e8q)"
            ),
            UciError::Illegal { uci, reason } => write!(f, "illegal move '{uci}': {reason}"),
        }
    }
}

impl std::error::Error for UciError {}

impl Move {
    /// The king's destination square of a castling move.
    fn standard_castle_to(self) -> Square {
        let side = CastlingSide::from_king_rook(self.from(), self.to());
        let color = if self.from().rank() == crate::types::Rank::First {
            crate::types::Color::White
        } else {
            crate::types::Color::Black
        };
        side.king_to(color)
    }

    /// The move in UCI notation, castling written as `mode` says. In `Standard` mode a castle
    /// in which the king moves fewer than two files (Chess960 only) is written king onto rook,
    /// as in `Chess960` mode: its king-destination form would read as a king step, or as no
    /// move at all.
    pub fn to_uci(self, mode: CastlingMode) -> String {
        let mut s = String::with_capacity(5);
        match (self.kind(), mode) {
            (MoveKind::Castle, CastlingMode::Standard)
                if self
                    .from()
                    .file()
                    .index()
                    .abs_diff(self.standard_castle_to().file().index())
                    >= 2 =>
            {
                self.from().push_name(&mut s);
                self.standard_castle_to().push_name(&mut s);
            }
            _ => {
                self.from().push_name(&mut s);
                self.to().push_name(&mut s);
                if let Some(r) = self.promotion_role() {
                    s.push(r.lower_char());
                }
            }
        }
        s
    }
}

impl Position {
    /// Reads a UCI move and checks that it is legal here.
    pub fn parse_uci(&self, uci: &str, mode: CastlingMode) -> Result<Move, UciError> {
        let syntax = || UciError::Syntax {
            uci: uci.to_string(),
        };
        if !uci.is_ascii() || !(4..=5).contains(&uci.len()) {
            return Err(syntax());
        }
        let from = Square::parse(&uci[0..2]).ok_or_else(syntax)?;
        let to = Square::parse(&uci[2..4]).ok_or_else(syntax)?;
        let promotion = match uci.as_bytes().get(4) {
            None => None,
            Some(&c) => match Role::from_char(c as char) {
                Some(r @ (Role::Knight | Role::Bishop | Role::Rook | Role::Queen))
                    if (c as char).is_ascii_lowercase() =>
                {
                    Some(r)
                }
                _ => return Err(syntax()),
            },
        };
        let illegal = |reason: String| UciError::Illegal {
            uci: uci.to_string(),
            reason,
        };
        let moves = self.legal_moves();
        let found = moves.iter().copied().find(|m| {
            if m.from() != from || m.promotion_role() != promotion {
                return false;
            }
            if m.to() == to {
                // King onto own rook is castling in both modes; everything else matches plainly.
                return true;
            }
            if mode == CastlingMode::Standard && m.is_castle() {
                let side = CastlingSide::from_king_rook(m.from(), m.to());
                let king_to = side.king_to(self.turn());
                // A one-square king move is a king move (§4), never a castle.
                return king_to == to && from.file().index().abs_diff(to.file().index()) >= 2;
            }
            false
        });
        if let Some(m) = found {
            return Ok(m);
        }
        let reason = match self.piece_at(from) {
            None => format!("there is no piece on {from}"),
            Some(p) if p.color != self.turn() => {
                format!("the piece on {from} is not {}'s", self.turn())
            }
            Some(p)
                if p.role == Role::Pawn
                    && promotion.is_none()
                    && moves.iter().any(|m| m.from() == from && m.to() == to) =>
            {
                "a promotion needs a piece letter (q, r, b or n)".to_string()
            }
            Some(p)
                if p.role == Role::King
                    && mode == CastlingMode::Chess960
                    && moves.iter().any(|m| {
                        m.is_castle() && m.from() == from && {
                            let side = CastlingSide::from_king_rook(m.from(), m.to());
                            side.king_to(self.turn()) == to
                        }
                    }) =>
            {
                "in Chess960 notation castling is written king onto rook".to_string()
            }
            Some(_) => "not a legal move in this position".to_string(),
        };
        Err(illegal(reason))
    }
}
