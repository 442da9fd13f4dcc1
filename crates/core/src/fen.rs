//! FEN reading and writing in the three castling dialects of §3: classical `KQkq`, X-FEN and
//! Shredder-FEN (and mixtures of them, as some programs write).

use crate::attacks::between;
use crate::bitboard::Bitboard;
use crate::board::Board;
use crate::position::Position;
use crate::types::{CastlingSide, Color, File, Piece, Rank, Role, Square};
use std::fmt;

/// How castling rights are written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum CastlingDialect {
    /// `KQkq` for the outermost rooks, the rook's file letter for an inner rook. Equals
    /// classical FEN for every Chess960 start position. The default.
    #[default]
    XFen,
    /// Always the rook's file letter (`HAha`).
    Shredder,
}

impl CastlingDialect {
    /// Parses `xfen` or `shredder` (as on the command line).
    pub fn parse(s: &str) -> Option<CastlingDialect> {
        match s.to_ascii_lowercase().as_str() {
            "xfen" | "x-fen" => Some(CastlingDialect::XFen),
            "shredder" | "shredder-fen" => Some(CastlingDialect::Shredder),
            _ => None,
        }
    }
}

/// How strictly a FEN is checked.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Validation {
    /// Reject every position that cannot arise in a game (the default).
    #[default]
    Strict,
    /// Accept what can still be played: drop castling rights and en-passant squares that are
    /// impossible, allow more pieces than a game can have. Kings and checks are still checked,
    /// because move generation depends on them. Used for published test positions that are
    /// deliberately impossible.
    Lenient,
}

/// What is wrong with a FEN. The `Display` text says what and where.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FenError {
    /// Nothing but white space.
    Empty,
    /// Not 4 to 6 space-separated fields.
    FieldCount {
        /// How many fields there were.
        found: usize,
    },
    /// The piece placement field is malformed.
    Placement {
        /// The rank being read (rank 8 is the first one in a FEN), if the problem is on one.
        rank: Option<Rank>,
        /// What is wrong.
        reason: String,
    },
    /// The side-to-move field is not `w` or `b`.
    Turn {
        /// The field as found.
        found: String,
    },
    /// The castling field is malformed or names a right the position cannot have.
    Castling {
        /// The field as found.
        field: String,
        /// What is wrong.
        reason: String,
    },
    /// The en-passant field is malformed or impossible.
    EnPassant {
        /// The field as found.
        field: String,
        /// What is wrong.
        reason: String,
    },
    /// A move counter is not a number in range.
    Counter {
        /// `half-move clock` or `full-move number`.
        which: &'static str,
        /// The field as found.
        found: String,
    },
    /// A colour has no king.
    MissingKing(Color),
    /// A colour has more than one king.
    TooManyKings(Color),
    /// A pawn stands on rank 1 or 8.
    PawnOnBackRank(Square),
    /// More pieces than a game can produce.
    TooManyPieces {
        /// Whose pieces.
        color: Color,
        /// What is too many.
        reason: String,
    },
    /// The side that just moved is in check.
    OppositeCheck(Color),
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FenError::Empty => write!(f, "empty FEN"),
            FenError::FieldCount { found } => write!(
                f,
                "expected 6 fields (placement, side to move, castling, en passant, half-move clock, full-move number; the last two may be omitted), found {found}"
            ),
            FenError::Placement { rank: Some(r), reason } => {
                write!(f, "piece placement, rank {}: {reason}", r.char())
            }
            FenError::Placement { rank: None, reason } => write!(f, "piece placement: {reason}"),
            FenError::Turn { found } => {
                write!(f, "side to move: expected 'w' or 'b', found '{found}'")
            }
            FenError::Castling { field, reason } => write!(f, "castling field '{field}': {reason}"),
            FenError::EnPassant { field, reason } => {
                write!(f, "en-passant field '{field}': {reason}")
            }
            FenError::Counter { which, found } => {
                write!(f, "{which}: expected a number from 0 to 4294967295, found '{found}'")
            }
            FenError::MissingKing(c) => write!(f, "{c} has no king"),
            FenError::TooManyKings(c) => write!(f, "{c} has more than one king"),
            FenError::PawnOnBackRank(sq) => {
                write!(f, "pawn on {sq}: pawns cannot stand on rank 1 or 8")
            }
            FenError::TooManyPieces { color, reason } => write!(f, "too many {color} pieces: {reason}"),
            FenError::OppositeCheck(c) => write!(
                f,
                "{c} is in check but it is not {c}'s move: the side that just moved cannot be in check"
            ),
        }
    }
}

impl std::error::Error for FenError {}

fn castling_err(field: &str, reason: impl Into<String>) -> FenError {
    FenError::Castling {
        field: field.to_string(),
        reason: reason.into(),
    }
}

fn parse_placement(field: &str) -> Result<Board, FenError> {
    let mut board = Board::empty();
    let rows: Vec<&str> = field.split('/').collect();
    if rows.len() != 8 {
        return Err(FenError::Placement {
            rank: None,
            reason: format!("expected 8 ranks separated by '/', found {}", rows.len()),
        });
    }
    for (i, row) in rows.iter().enumerate() {
        let rank = Rank::ALL[7 - i];
        let err = |reason: String| FenError::Placement {
            rank: Some(rank),
            reason,
        };
        let mut file = 0u32;
        let mut prev_digit = false;
        for c in row.chars() {
            if let Some(d) = c.to_digit(10) {
                if !(1..=8).contains(&d) || prev_digit {
                    return Err(err(format!("'{row}' has a bad empty-square count")));
                }
                prev_digit = true;
                file += d;
            } else if let Some(piece) = Piece::from_fen_char(c) {
                prev_digit = false;
                if file >= 8 {
                    return Err(err(format!("'{row}' describes more than 8 squares")));
                }
                board.put(
                    Square::from_coords(File::ALL[file as usize], rank),
                    piece.color,
                    piece.role,
                );
                file += 1;
            } else {
                return Err(err(format!(
                    "'{c}' is not a piece letter (PNBRQK, pnbrqk) or a digit"
                )));
            }
            if file > 8 {
                return Err(err(format!("'{row}' describes more than 8 squares")));
            }
        }
        if file != 8 {
            return Err(err(format!("'{row}' describes {file} squares, not 8")));
        }
    }
    Ok(board)
}

/// One castling letter, not yet resolved against the board.
#[derive(Clone, Copy)]
enum CastlingToken {
    Outermost(Color, CastlingSide),
    File(Color, File),
}

fn parse_castling_tokens(field: &str) -> Result<Vec<CastlingToken>, FenError> {
    if field == "-" {
        return Ok(Vec::new());
    }
    field
        .chars()
        .map(|c| {
            let color = if c.is_ascii_uppercase() {
                Color::White
            } else {
                Color::Black
            };
            match c {
                'K' | 'k' => Ok(CastlingToken::Outermost(color, CastlingSide::HSide)),
                'Q' | 'q' => Ok(CastlingToken::Outermost(color, CastlingSide::ASide)),
                'A'..='H' | 'a'..='h' => Ok(CastlingToken::File(
                    color,
                    File::from_char(c).expect("a..h is a file"),
                )),
                _ => Err(castling_err(
                    field,
                    format!("'{c}' is not a castling letter (K, Q, A-H for White; k, q, a-h for Black; or '-')"),
                )),
            }
        })
        .collect()
}

/// Resolves castling letters against the board: the set of castling rook squares.
fn resolve_castling(
    field: &str,
    tokens: &[CastlingToken],
    board: &Board,
    validation: Validation,
) -> Result<Bitboard, FenError> {
    let mut rights = Bitboard::EMPTY;
    for &token in tokens {
        let color = match token {
            CastlingToken::Outermost(c, _) | CastlingToken::File(c, _) => c,
        };
        let back = Bitboard::from_rank(color.back_rank());
        let rooks = board.by_piece(Piece {
            color,
            role: Role::Rook,
        }) & back;
        let king = board.king_of(color).filter(|k| back.contains(*k));
        let lenient = validation == Validation::Lenient;
        let Some(king) = king else {
            if lenient {
                continue;
            }
            return Err(castling_err(
                field,
                format!(
                    "{color} has a castling right but its king is not on rank {}",
                    color.back_rank().char()
                ),
            ));
        };
        if matches!(king.file(), File::A | File::H) && !lenient {
            // A king with castling rights stands between its rooks, never in a corner; but the
            // right can still be played, so lenient reading keeps it.
            return Err(castling_err(
                field,
                format!("{color} has a castling right but its king stands on {king}, a corner file; a king that may castle stands between its rooks"),
            ));
        }
        let rook = match token {
            CastlingToken::Outermost(_, CastlingSide::HSide) => rooks.filter_above(king).last(),
            CastlingToken::Outermost(_, CastlingSide::ASide) => rooks.filter_below(king).first(),
            CastlingToken::File(_, file) => {
                let sq = Square::from_coords(file, color.back_rank());
                if sq == king {
                    if lenient {
                        continue;
                    }
                    return Err(castling_err(
                        field,
                        format!("{color}'s castling file {file} is the king's own file"),
                    ));
                }
                rooks.contains(sq).then_some(sq)
            }
        };
        let Some(rook) = rook else {
            if lenient {
                continue;
            }
            let what = match token {
                CastlingToken::Outermost(c, side) => {
                    format!("{c} has no rook on the {side} of its king on {king}")
                }
                CastlingToken::File(c, file) => {
                    format!(
                        "{c} has no rook on {}",
                        Square::from_coords(file, c.back_rank())
                    )
                }
            };
            return Err(castling_err(
                field,
                format!("castling right without a rook: {what}"),
            ));
        };
        let side = CastlingSide::from_king_rook(king, rook);
        let same_side = match side {
            CastlingSide::ASide => rights.filter_below(king) & back,
            CastlingSide::HSide => rights.filter_above(king) & back,
        };
        if same_side.any() && !same_side.contains(rook) {
            if lenient {
                continue;
            }
            return Err(castling_err(
                field,
                format!("{color} has two castling rights on the {side}"),
            ));
        }
        rights = rights.with(rook);
    }
    if validation == Validation::Strict {
        check_castling_symmetry(field, board, rights)?;
    }
    Ok(rights)
}

/// Chess960 start positions mirror each other and castling pieces have not moved, so when
/// both colours keep rights their kings, and their rooks on a common side, share files.
fn check_castling_symmetry(field: &str, board: &Board, rights: Bitboard) -> Result<(), FenError> {
    let white = rights & Bitboard::from_rank(Rank::First);
    let black = rights & Bitboard::from_rank(Rank::Eighth);
    if white.is_empty() || black.is_empty() {
        return Ok(());
    }
    let (Some(wk), Some(bk)) = (board.king_of(Color::White), board.king_of(Color::Black)) else {
        return Ok(());
    };
    if wk.file() != bk.file() {
        return Err(castling_err(
            field,
            format!("both sides keep castling rights but the kings stand on different files ({wk}, {bk}); in Chess960 they start on the same file"),
        ));
    }
    for side in CastlingSide::ALL {
        let pick = |bb: Bitboard, k: Square| match side {
            CastlingSide::ASide => bb.filter_below(k).first(),
            CastlingSide::HSide => bb.filter_above(k).first(),
        };
        if let (Some(w), Some(b)) = (pick(white, wk), pick(black, bk)) {
            if w.file() != b.file() {
                return Err(castling_err(
                    field,
                    format!("the {side} castling rooks stand on different files ({w}, {b}); in Chess960 they start on the same file"),
                ));
            }
        }
    }
    Ok(())
}

fn check_material(board: &Board, validation: Validation) -> Result<(), FenError> {
    for color in Color::ALL {
        let kings = board.by_piece(Piece {
            color,
            role: Role::King,
        });
        if kings.is_empty() {
            return Err(FenError::MissingKing(color));
        }
        if kings.more_than_one() {
            return Err(FenError::TooManyKings(color));
        }
    }
    if let Some(sq) = (board.by_role(Role::Pawn) & Bitboard::BACK_RANKS).first() {
        return Err(FenError::PawnOnBackRank(sq));
    }
    if validation == Validation::Lenient {
        return Ok(());
    }
    for color in Color::ALL {
        let ours = board.by_color(color);
        let count = |r: Role| (ours & board.by_role(r)).count();
        let pawns = count(Role::Pawn);
        if ours.count() > 16 {
            return Err(FenError::TooManyPieces {
                color,
                reason: format!("{} pieces, at most 16", ours.count()),
            });
        }
        if pawns > 8 {
            return Err(FenError::TooManyPieces {
                color,
                reason: format!("{pawns} pawns, at most 8"),
            });
        }
        let promoted = count(Role::Queen).saturating_sub(1)
            + count(Role::Rook).saturating_sub(2)
            + count(Role::Knight).saturating_sub(2)
            + (ours & board.by_role(Role::Bishop) & Bitboard::LIGHT_SQUARES)
                .count()
                .saturating_sub(1)
            + (ours & board.by_role(Role::Bishop) & Bitboard::DARK_SQUARES)
                .count()
                .saturating_sub(1);
        if pawns + promoted > 8 {
            return Err(FenError::TooManyPieces {
                color,
                reason: format!(
                    "{pawns} pawns and {promoted} promoted pieces, but only 8 pawns can promote"
                ),
            });
        }
    }
    Ok(())
}

fn parse_counter(which: &'static str, s: &str) -> Result<u32, FenError> {
    // Any u32 is accepted: `Position::play` saturates at u32::MAX, so everything this library
    // writes reads back.
    if !s.bytes().all(|b| b.is_ascii_digit()) {
        return Err(FenError::Counter {
            which,
            found: s.to_string(),
        });
    }
    s.parse().map_err(|_| FenError::Counter {
        which,
        found: s.to_string(),
    })
}

impl Position {
    /// Reads a FEN (any castling dialect), rejecting impossible positions.
    pub fn from_fen(fen: &str) -> Result<Position, FenError> {
        Position::from_fen_with(fen, Validation::Strict)
    }

    /// Reads a FEN with the given strictness.
    pub fn from_fen_with(fen: &str, validation: Validation) -> Result<Position, FenError> {
        let fields: Vec<&str> = fen.split_ascii_whitespace().collect();
        if fields.is_empty() {
            return Err(FenError::Empty);
        }
        if !(4..=6).contains(&fields.len()) {
            return Err(FenError::FieldCount {
                found: fields.len(),
            });
        }
        let board = parse_placement(fields[0])?;
        let turn = match fields[1] {
            "w" => Color::White,
            "b" => Color::Black,
            other => {
                return Err(FenError::Turn {
                    found: other.to_string(),
                })
            }
        };
        let tokens = parse_castling_tokens(fields[2])?;
        let ep_field = fields[3];
        let ep = if ep_field == "-" {
            None
        } else {
            Some(Square::parse(ep_field).ok_or_else(|| FenError::EnPassant {
                field: ep_field.to_string(),
                reason: "expected '-' or a square such as e3".to_string(),
            })?)
        };
        let halfmoves = match fields.get(4) {
            Some(s) => parse_counter("half-move clock", s)?,
            None => 0,
        };
        let mut fullmoves = match fields.get(5) {
            Some(s) => parse_counter("full-move number", s)?,
            None => 1,
        };
        if fullmoves == 0 {
            if validation == Validation::Strict {
                return Err(FenError::Counter {
                    which: "full-move number",
                    found: "0".to_string(),
                });
            }
            fullmoves = 1;
        }

        check_material(&board, validation)?;
        let castling = resolve_castling(fields[2], &tokens, &board, validation)?;

        let mut pos = Position {
            board,
            turn,
            castling,
            ep_square: None,
            halfmoves,
            fullmoves,
            hash: 0,
            checkers: Bitboard::EMPTY,
            pinned: Bitboard::EMPTY,
        };

        // The side that just moved must not be in check.
        let their_king = pos.king_of(!turn);
        if pos.attackers(their_king, turn, pos.board.occupied()).any() {
            return Err(FenError::OppositeCheck(!turn));
        }
        pos.update_check_info();

        if let Some(ep) = ep {
            let problem = ep_structure_problem(&pos, ep)
                .map(|r| (r, true))
                .or_else(|| ep_check_problem(&pos, ep).map(|r| (r, false)));
            match problem {
                Some((reason, _)) if validation == Validation::Strict => {
                    return Err(FenError::EnPassant {
                        field: ep_field.to_string(),
                        reason,
                    })
                }
                // Lenient: an ep square that cannot exist is dropped; one that only clashes
                // with an impossible check is kept, as published test positions expect.
                Some((_, true)) => {}
                // A possible en-passant square is kept only if a capture is legal, so that
                // equal positions compare and hash equal.
                Some((_, false)) | None => {
                    if pos.ep_capture_exists(ep) {
                        pos.ep_square = Some(ep);
                    }
                }
            }
        }
        pos.hash = pos.compute_hash();
        Ok(pos)
    }

    /// Writes FEN with castling rights in the given dialect.
    pub fn to_fen(&self, dialect: CastlingDialect) -> String {
        let mut s = self.board.board_fen();
        s.push(' ');
        s.push(self.turn.fen_char());
        s.push(' ');
        s.push_str(&self.castling_field(dialect));
        s.push(' ');
        match self.ep_square {
            Some(sq) => s.push_str(&sq.to_string()),
            None => s.push('-'),
        }
        s.push_str(&format!(" {} {}", self.halfmoves, self.fullmoves));
        s
    }

    /// Writes X-FEN (the default dialect).
    pub fn fen(&self) -> String {
        self.to_fen(CastlingDialect::XFen)
    }

    /// The castling field alone (`KQkq`, `HFhf`, `-`, …).
    pub fn castling_field(&self, dialect: CastlingDialect) -> String {
        let mut s = String::new();
        for color in Color::ALL {
            let rooks = self.board.by_piece(Piece {
                color,
                role: Role::Rook,
            }) & Bitboard::from_rank(color.back_rank());
            for side in [CastlingSide::HSide, CastlingSide::ASide] {
                let Some(rook) = self.castling_rook(color, side) else {
                    continue;
                };
                let outermost = match side {
                    CastlingSide::HSide => rooks.filter_above(rook).is_empty(),
                    CastlingSide::ASide => rooks.filter_below(rook).is_empty(),
                };
                let c = match (dialect, outermost, side) {
                    (CastlingDialect::XFen, true, CastlingSide::HSide) => 'K',
                    (CastlingDialect::XFen, true, CastlingSide::ASide) => 'Q',
                    _ => rook.file().upper_char(),
                };
                s.push(if color == Color::White {
                    c
                } else {
                    c.to_ascii_lowercase()
                });
            }
        }
        if s.is_empty() {
            s.push('-');
        }
        s
    }

    /// The position with the pieces of `board`, the given side to move and castling rook
    /// squares, no en passant, counters 0 and 1. Used for start positions; validated.
    pub fn from_parts(board: Board, turn: Color, castling: Bitboard) -> Result<Position, FenError> {
        let mut fen = board.board_fen();
        fen.push_str(if turn == Color::White { " w " } else { " b " });
        let mut rights = String::new();
        for sq in castling {
            let c = sq.file().upper_char();
            rights.push(if sq.rank() == Rank::First {
                c
            } else {
                c.to_ascii_lowercase()
            });
        }
        if rights.is_empty() {
            rights.push('-');
        }
        fen.push_str(&rights);
        fen.push_str(" - 0 1");
        Position::from_fen(&fen)
    }
}

/// Why `ep` cannot be an en-passant square in `pos`, judged by the pawns and squares alone.
fn ep_structure_problem(pos: &Position, ep: Square) -> Option<String> {
    let us = pos.turn;
    let them = !us;
    let expected_rank = Rank::Sixth.relative(us);
    if ep.rank() != expected_rank {
        return Some(format!(
            "with {us} to move the en-passant square is on rank {}, not {}",
            expected_rank.char(),
            ep.rank().char()
        ));
    }
    let pushed_to = Square::from_coords(ep.file(), Rank::Fifth.relative(us));
    let pushed_from = Square::from_coords(ep.file(), Rank::Seventh.relative(us));
    if pos.board.piece_at(pushed_to)
        != Some(Piece {
            color: them,
            role: Role::Pawn,
        })
    {
        return Some(format!(
            "no {them} pawn on {pushed_to} that could just have moved two squares"
        ));
    }
    if pos.board.occupied().contains(ep) || pos.board.occupied().contains(pushed_from) {
        return Some(format!(
            "{ep} and {pushed_from} must be empty after a double pawn push"
        ));
    }
    None
}

/// Why the check on the side to move cannot follow the double push to `ep`, if it cannot:
/// every checker must be the pushed pawn or a piece the pawn uncovered by leaving its square.
fn ep_check_problem(pos: &Position, ep: Square) -> Option<String> {
    let us = pos.turn;
    let pushed_to = Square::from_coords(ep.file(), Rank::Fifth.relative(us));
    let pushed_from = Square::from_coords(ep.file(), Rank::Seventh.relative(us));
    let king = pos.king_of(us);
    let unexplained = pos
        .checkers
        .into_iter()
        .find(|&c| c != pushed_to && !between(king, c).contains(pushed_from));
    unexplained.map(|c| {
        format!(
            "{us} is in check from {c}, which the double push to {pushed_to} cannot have given or uncovered"
        )
    })
}
