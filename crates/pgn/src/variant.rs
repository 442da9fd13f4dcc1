//! Chess960 or classical chess: deciding from the `Variant`, `SetUp` and `FEN` tags (spec §3),
//! and the start position of a game.
//!
//! The rules are:
//!
//! - A `Variant` naming Chess960 in any of the spellings seen in the wild (`Chess960`,
//!   `chess 960`, `Fischerandom`, `fischer random`, `Fischer Random Chess`, `FRC`, `960`;
//!   case, spaces, dashes and underscores do not matter) makes the game Chess960. Its `FEN`
//!   may use X-FEN or Shredder-FEN castling.
//! - A `Variant` naming classical chess (`Standard`, `Chess`, `Normal`, `Classical`,
//!   `From Position`) or no `Variant` at all: the game starts from its `FEN` when there is one
//!   (with or without `SetUp "1"`: FICS writes no `SetUp`), else from the classical start.
//!   It is Chess960 when its position only makes sense as Chess960: a castling right whose
//!   king is not on the e-file or whose rook is not in a corner, or a start arrangement other
//!   than the classical one (518). Otherwise it is classical chess, whose rules are those of
//!   Chess960 from such a position anyway.
//! - A Chess960 game (tagged or inferred) whose FEN is a start arrangement (every pawn and
//!   piece on its first two ranks) must start from one of the 960 start positions: Double
//!   Fischer Random starts (different back ranks for White and Black), tagged `fischerandom`
//!   in TCEC's files, are refused with that reason.
//! - Any other `Variant` (crazyhouse, atomic, …) is an error: its moves cannot be checked.
//! - `SetUp "1"` without a `FEN` is an error: the start position is unknown. A Chess960
//!   `Variant` without `SetUp "1"` and `FEN` is a game from start position 518, the classical
//!   arrangement (python-chess writes such games so).

use crate::error::ErrorKind;
use chess960_core::{
    BackRank, Bitboard, Color, File, Piece, Position, Rank, Role, Square, StartId,
};

/// The rules a game is played by.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Variant {
    /// Chess960 (Fischer Random Chess).
    Chess960,
    /// Classical chess (from the classical start or from a set-up position).
    Standard,
}

/// What a `Variant` tag value means.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum VariantTag {
    /// A name of Chess960.
    Chess960,
    /// A name of classical chess.
    Standard,
    /// Something else.
    Other,
}

/// Classifies a `Variant` tag value, ignoring case, spaces, dashes and underscores.
pub fn classify(value: &str) -> VariantTag {
    let key: String = value
        .chars()
        .filter(|c| !matches!(c, ' ' | '-' | '_' | '\t'))
        .flat_map(char::to_lowercase)
        .collect();
    match key.as_str() {
        "chess960"
        | "960"
        | "fischerandom"
        | "fischerrandom"
        | "fischerandomchess"
        | "fischerrandomchess"
        | "frc"
        | "chess960fischerrandom" => VariantTag::Chess960,
        "" | "standard" | "chess" | "normal" | "classical" | "classic" | "orthodox"
        | "fromposition" => VariantTag::Standard,
        _ => VariantTag::Other,
    }
}

/// True if `pos` only makes sense as a Chess960 position: some castling right has its king
/// off the e-file or its rook off the corner, or the pieces stand in a Chess960 start
/// arrangement other than the classical one.
pub fn needs_chess960(pos: &Position) -> bool {
    for color in Color::ALL {
        let rights = pos.castling_rights() & Bitboard::from_rank(color.back_rank());
        if rights.is_empty() {
            continue;
        }
        if pos.king_of(color).file() != File::E {
            return true;
        }
        for sq in rights {
            if !matches!(sq.file(), File::A | File::H) {
                return true;
            }
        }
    }
    matches!(StartId::of_board(pos.board()), Some(id) if id != StartId::CLASSICAL)
}

/// If `board` is a start arrangement (eight pawns on each side's second rank, eight pieces
/// on each back rank, nothing else) that is not a Chess960 start position, says why.
pub fn start_arrangement_problem(board: &chess960_core::Board) -> Option<String> {
    let white_pawns = board.by_piece(Piece {
        color: Color::White,
        role: Role::Pawn,
    });
    let black_pawns = board.by_piece(Piece {
        color: Color::Black,
        role: Role::Pawn,
    });
    let rank1 = Bitboard::from_rank(Rank::First);
    let rank8 = Bitboard::from_rank(Rank::Eighth);
    let shaped = white_pawns == Bitboard::from_rank(Rank::Second)
        && black_pawns == Bitboard::from_rank(Rank::Seventh)
        && board.by_color(Color::White) & !white_pawns == rank1
        && board.by_color(Color::Black) & !black_pawns == rank8;
    if !shaped || StartId::of_board(board).is_some() {
        return None;
    }
    let rank_text = |rank: Rank| -> String {
        File::ALL
            .iter()
            .map(|&f| {
                board
                    .role_at(Square::from_coords(f, rank))
                    .map_or('?', |r| r.upper_char())
            })
            .collect()
    };
    let white = rank_text(Rank::First);
    let black = rank_text(Rank::Eighth);
    Some(match BackRank::of_board(board) {
        Err(e) => format!("White's back rank {white} is no Chess960 arrangement: {e}"),
        Ok(_) => format!(
            "Black's back rank {black} (a8 to h8) does not mirror White's {white}; in Chess960 \
             both sides start with the same arrangement (this is a Double Fischer Random start)"
        ),
    })
}

/// The start position and variant of a game from its `Variant`, `SetUp` and `FEN` tags, by
/// the rules of this module's documentation. The error says which tag is at fault (the
/// caller knows where it is): `Err((tag name, kind))`.
pub(crate) fn start_position(
    variant: Option<&str>,
    setup: Option<&str>,
    fen: Option<&str>,
) -> Result<(Position, Variant), (&'static str, ErrorKind)> {
    let tagged = match variant {
        Some(v) => match classify(v) {
            VariantTag::Other => {
                return Err((
                    "Variant",
                    ErrorKind::UnsupportedVariant {
                        variant: v.to_string(),
                    },
                ))
            }
            t => t,
        },
        None => VariantTag::Standard,
    };
    let fen = fen.map(str::trim).filter(|f| !f.is_empty());
    let Some(fen) = fen else {
        if setup.map(str::trim) == Some("1") {
            return Err((
                "SetUp",
                ErrorKind::MissingFen {
                    because: "SetUp \"1\"".to_string(),
                },
            ));
        }
        // A Chess960 game without a FEN started from the classical arrangement, 518:
        // python-chess writes such games so (it drops a FEN equal to the usual start).
        let variant = if tagged == VariantTag::Chess960 {
            Variant::Chess960
        } else {
            Variant::Standard
        };
        return Ok((StartId::CLASSICAL.position(), variant));
    };
    if tagged == VariantTag::Chess960 {
        // Judge the arrangement before the strict FEN checks: for a Double Fischer Random
        // start they would only complain about castling rights, which hides the real reason.
        if let Ok(lenient) = Position::from_fen_with(fen, chess960_core::Validation::Lenient) {
            if let Some(reason) = start_arrangement_problem(lenient.board()) {
                return Err((
                    "FEN",
                    ErrorKind::NotChess960Start {
                        fen: fen.to_string(),
                        reason,
                    },
                ));
            }
        }
    }
    let pos = Position::from_fen(fen).map_err(|error| {
        (
            "FEN",
            ErrorKind::BadFen {
                fen: fen.to_string(),
                error,
            },
        )
    })?;
    let variant = if tagged == VariantTag::Chess960 || needs_chess960(&pos) {
        Variant::Chess960
    } else {
        Variant::Standard
    };
    // Chess960 by inference too: castling rights that need Chess960 on a start arrangement
    // that is none of the 960 is no Chess960 game either.
    if variant == Variant::Chess960 {
        if let Some(reason) = start_arrangement_problem(pos.board()) {
            return Err((
                "FEN",
                ErrorKind::NotChess960Start {
                    fen: fen.to_string(),
                    reason,
                },
            ));
        }
    }
    Ok((pos, variant))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn variant_names() {
        for v in [
            "Chess960",
            "chess 960",
            "Fischerandom",
            "fischerandom",
            "fischer random",
            "Fischer-Random",
            "FRC",
            "frc",
            "CHESS-960",
            "Fischer Random Chess",
            " chess_960 ",
        ] {
            assert_eq!(classify(v), VariantTag::Chess960, "{v}");
        }
        for v in [
            "Standard",
            "standard",
            "From Position",
            "Normal",
            "chess",
            "",
        ] {
            assert_eq!(classify(v), VariantTag::Standard, "{v}");
        }
        for v in [
            "Crazyhouse",
            "Atomic",
            "Three-check",
            "double fischer random",
        ] {
            assert_eq!(classify(v), VariantTag::Other, "{v}");
        }
    }

    #[test]
    fn decisions() {
        let classical = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        let frc = "bqrnkrnb/pppppppp/8/8/8/8/PPPPPPPP/BQRNKRNB w KQkq - 0 1";
        let dfrc = "nrnbkrbq/pppppppp/8/8/8/8/PPPPPPPP/BQNBRNKR w KQkq - 0 1";
        let (_, v) = start_position(None, None, None).unwrap();
        assert_eq!(v, Variant::Standard);
        let (_, v) = start_position(None, Some("1"), Some(classical)).unwrap();
        assert_eq!(v, Variant::Standard);
        let (_, v) = start_position(Some("chess 960"), Some("1"), Some(classical)).unwrap();
        assert_eq!(v, Variant::Chess960);
        // No Variant, no SetUp (FICS), a Chess960 start: Chess960.
        let (p, v) = start_position(None, None, Some(frc)).unwrap();
        assert_eq!(v, Variant::Chess960);
        assert!(matches!(StartId::of_board(p.board()), Some(id) if id != StartId::CLASSICAL));
        // Shredder-FEN castling, inner-rook rights only make sense as Chess960.
        let (_, v) =
            start_position(None, Some("1"), Some("4k3/8/8/8/8/8/8/1R2K1R1 w GB - 0 1")).unwrap();
        assert_eq!(v, Variant::Chess960);
        let e = start_position(Some("fischerandom"), Some("1"), Some(dfrc)).unwrap_err();
        assert!(
            matches!(&e.1, ErrorKind::NotChess960Start { reason, .. } if reason.contains("Double Fischer Random")),
            "{e:?}"
        );
        // Not tagged, but castling rights that need Chess960 on a Double Fischer Random
        // arrangement: refused as well (the writer would tag it Chess960).
        let e = start_position(
            None,
            None,
            Some("bbrkqnrn/pppppppp/8/8/8/8/PPPPPPPP/BBRKQRNN w Qkq - 0 1"),
        )
        .unwrap_err();
        assert!(matches!(e.1, ErrorKind::NotChess960Start { .. }), "{e:?}");
        // Without castling rights such an arrangement is just a classical set-up position.
        let (_, v) = start_position(
            None,
            None,
            Some("bbrkqnrn/pppppppp/8/8/8/8/PPPPPPPP/BBRKQRNN w - - 0 1"),
        )
        .unwrap();
        assert_eq!(v, Variant::Standard);
        let e = start_position(Some("Atomic"), None, None).unwrap_err();
        assert!(matches!(e.1, ErrorKind::UnsupportedVariant { .. }));
        let e = start_position(None, Some("1"), None).unwrap_err();
        assert!(matches!(e.1, ErrorKind::MissingFen { .. }));
        let (p, v) = start_position(Some("Chess960"), None, None).unwrap();
        assert_eq!((p, v), (StartId::CLASSICAL.position(), Variant::Chess960));
        let e = start_position(None, Some("1"), Some("not a fen")).unwrap_err();
        assert!(matches!(e.1, ErrorKind::BadFen { .. }));
    }
}
