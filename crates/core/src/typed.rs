//! A move as a person types it, in a GUI's text box or at the terminal: UCI in either castling
//! form (`e1h1`, `e1g1`) or SAN (`Nf3`, `O-O`, `0-0-0`, `e8=Q`). Servers and front ends read
//! typed moves here, so that every program of the project accepts the same forms.

use crate::moves::Move;
use crate::position::Position;
use crate::san::SanError;
use crate::uci::{CastlingMode, UciError};
use std::fmt;

/// Why a typed move was not accepted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TypedMoveError {
    /// Nothing was typed.
    Empty,
    /// Read as UCI (it has UCI's shape), and not legal here.
    Uci(UciError),
    /// Read as SAN, and not accepted.
    San(SanError),
}

impl fmt::Display for TypedMoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TypedMoveError::Empty => f.write_str("no move given"),
            TypedMoveError::Uci(e) => e.fmt(f),
            TypedMoveError::San(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for TypedMoveError {}

/// Whether `s` has UCI's shape: two squares and an optional lowercase promotion letter. No SAN
/// move has it, so the two notations never compete for the same text.
fn uci_shaped(s: &[u8]) -> bool {
    let square = |f: u8, r: u8| (b'a'..=b'h').contains(&f) && (b'1'..=b'8').contains(&r);
    match s {
        [f1, r1, f2, r2] => square(*f1, *r1) && square(*f2, *r2),
        [f1, r1, f2, r2, p] => square(*f1, *r1) && square(*f2, *r2) && b"qrbn".contains(p),
        _ => false,
    }
}

/// Whether `text` looks like a move in UCI (`g1f3`, `e7e8q`) or SAN (`Nf3`, `O-O`, `e8=Q`),
/// without a position to judge it in: a premove is such a text, whose legality is known only
/// once the opponent has moved. At most 10 ASCII characters.
pub fn looks_like_move(text: &str) -> bool {
    if text.is_empty() || text.len() > 10 || !text.is_ascii() {
        return false;
    }
    let core = text.trim_end_matches(['+', '#']);
    if matches!(core, "O-O" | "O-O-O" | "0-0" | "0-0-0") {
        return true;
    }
    let is_file = |c: u8| (b'a'..=b'h').contains(&c);
    let is_rank = |c: u8| (b'1'..=b'8').contains(&c);
    // SAN: a piece letter, disambiguation and capture, a square, optionally a promotion.
    let body = core
        .strip_suffix(['Q', 'R', 'B', 'N'])
        .map_or(core, |c| c.trim_end_matches('='));
    let sb = body.as_bytes();
    let san = sb.len() >= 2
        && is_file(sb[sb.len() - 2])
        && is_rank(sb[sb.len() - 1])
        && sb[..sb.len() - 2]
            .iter()
            .all(|c| b"KQRBNabcdefgh12345678x".contains(c));
    uci_shaped(core.as_bytes()) || san
}

impl Position {
    /// Reads a typed move: UCI with castling written either way (king onto rook, or the king's
    /// destination when the king moves two or more files; a one-square king move is always a
    /// king move, §4), or SAN with the usual tolerance (`0-0`, missing `x`, `+`, `#`).
    /// Surrounding white space is ignored.
    pub fn parse_typed_move(&self, text: &str) -> Result<Move, TypedMoveError> {
        let t = text.trim();
        if t.is_empty() {
            return Err(TypedMoveError::Empty);
        }
        if uci_shaped(t.as_bytes()) {
            // Standard mode reads the king-onto-rook form as well as the classical one.
            return self
                .parse_uci(t, CastlingMode::Standard)
                .map_err(TypedMoveError::Uci);
        }
        self.parse_san(t).map_err(TypedMoveError::San)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::StartId;

    fn uci(pos: &Position, text: &str) -> String {
        pos.parse_typed_move(text)
            .unwrap()
            .to_uci(CastlingMode::Chess960)
    }

    #[test]
    fn every_form_of_the_same_castle() {
        // Start 518 with f1 and g1 cleared: White may castle king-side.
        let pos =
            Position::from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQK2R w KQkq - 0 1").unwrap();
        for text in ["e1h1", "e1g1", "O-O", "0-0", " O-O+ "] {
            assert_eq!(uci(&pos, text), "e1h1", "{text}");
        }
    }

    #[test]
    fn a_one_square_king_move_is_never_a_castle() {
        // King b1 with its king-side rook beside it on c1: b1c1 is castling (king onto rook),
        // and so is b1g1, the king's destination five files away.
        let pos = Position::from_fen("r5k1/8/8/8/8/8/8/1KR5 w C - 0 1").unwrap();
        assert_eq!(uci(&pos, "b1c1"), "b1c1");
        assert_eq!(uci(&pos, "b1g1"), "b1c1");
        assert_eq!(uci(&pos, "O-O"), "b1c1");
        // Kc2 is a king step, not castling.
        assert_eq!(uci(&pos, "b1c2"), "b1c2");
    }

    #[test]
    fn moves_that_look_like_moves() {
        for ok in [
            "g1f3", "e7e8q", "Nf3", "exd5", "e8=Q", "O-O", "0-0-0", "Qxh7#", "e4",
        ] {
            assert!(super::looks_like_move(ok), "{ok}");
        }
        for bad in ["", "hello", "z9z9", "e2e4k", "Nf", "12345678901"] {
            assert!(!super::looks_like_move(bad), "{bad}");
        }
    }

    #[test]
    fn san_and_uci_and_errors() {
        let pos = StartId::CLASSICAL.position();
        assert_eq!(uci(&pos, "Nf3"), "g1f3");
        assert_eq!(uci(&pos, "g1f3"), "g1f3");
        assert_eq!(pos.parse_typed_move("  "), Err(TypedMoveError::Empty));
        assert!(matches!(
            pos.parse_typed_move("e2e5"),
            Err(TypedMoveError::Uci(UciError::Illegal { .. }))
        ));
        assert!(matches!(
            pos.parse_typed_move("Nf6"),
            Err(TypedMoveError::San(_))
        ));
        assert!(matches!(
            pos.parse_typed_move("hello"),
            Err(TypedMoveError::San(SanError::Syntax { .. }))
        ));
    }
}
