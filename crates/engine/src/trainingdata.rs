//! The binary training-data format that `chess960-engine datagen` writes and `chess960-train`
//! reads: one fixed-size record of 32 bytes per position, so that a file can be split,
//! concatenated, counted (`size / 32`) and shuffled without parsing.
//!
//! | bytes | content |
//! |---|---|
//! | 8 | occupied squares, u64 (bit i = square i, a1 = 0) |
//! | 16 | one nibble per occupied square in increasing square order, low nibble first: `colour·8 + role` (colour 0 White, 1 Black; role 0 pawn … 5 king) |
//! | 2 | search score in centipawns from White's point of view, i16 |
//! | 1 | game result: 0 Black won, 1 draw, 2 White won |
//! | 1 | side to move: 0 White, 1 Black |
//! | 2 | full-move number, u16 (saturating) |
//! | 2 | reserved, 0 |
//!
//! All numbers are little-endian. At most 32 pieces fit, which every legal position satisfies.

use chess960_core::{Bitboard, Board, Color, Piece, Role, Square};
use std::fmt;

/// Bytes per record.
pub const RECORD_SIZE: usize = 32;

/// How the game that a position comes from ended, from White's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Black won.
    BlackWins = 0,
    /// Drawn.
    Draw = 1,
    /// White won.
    WhiteWins = 2,
}

impl Outcome {
    /// The game's winner, `None` for a draw.
    pub fn from_winner(winner: Option<Color>) -> Outcome {
        match winner {
            Some(Color::White) => Outcome::WhiteWins,
            Some(Color::Black) => Outcome::BlackWins,
            None => Outcome::Draw,
        }
    }

    /// The result as a score for White: 0, 0.5 or 1.
    pub fn white_score(self) -> f32 {
        f32::from(self as u8) / 2.0
    }
}

/// One training position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Record {
    /// The pieces.
    pub board: Board,
    /// The side to move.
    pub turn: Color,
    /// The search score in centipawns, from White's point of view.
    pub white_score: i16,
    /// How the game ended.
    pub outcome: Outcome,
    /// The full-move number of the position.
    pub fullmove: u16,
}

/// A record that cannot be decoded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RecordError {
    /// More than 32 pieces.
    TooManyPieces(u32),
    /// A nibble that names no piece.
    Piece(u8),
    /// A result byte other than 0, 1, 2.
    Outcome(u8),
    /// A side-to-move byte other than 0, 1.
    Turn(u8),
}

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RecordError::TooManyPieces(n) => write!(f, "{n} pieces (at most 32 fit)"),
            RecordError::Piece(p) => write!(f, "piece code {p} names no piece"),
            RecordError::Outcome(r) => write!(f, "result byte {r} (0, 1 or 2 expected)"),
            RecordError::Turn(t) => write!(f, "side-to-move byte {t} (0 or 1 expected)"),
        }
    }
}

impl std::error::Error for RecordError {}

impl Record {
    /// The 32 bytes of this record. Boards with more than 32 pieces cannot be stored.
    pub fn encode(&self) -> Result<[u8; RECORD_SIZE], RecordError> {
        let occupied = self.board.occupied();
        if occupied.count() > 32 {
            return Err(RecordError::TooManyPieces(occupied.count()));
        }
        let mut out = [0u8; RECORD_SIZE];
        out[..8].copy_from_slice(&occupied.0.to_le_bytes());
        for (i, square) in occupied.enumerate() {
            let piece = self
                .board
                .piece_at(square)
                .expect("an occupied square has a piece");
            let code = (piece.color.index() * 8 + piece.role.index()) as u8;
            out[8 + i / 2] |= code << (4 * (i % 2));
        }
        out[24..26].copy_from_slice(&self.white_score.to_le_bytes());
        out[26] = self.outcome as u8;
        out[27] = self.turn.index() as u8;
        out[28..30].copy_from_slice(&self.fullmove.to_le_bytes());
        Ok(out)
    }

    /// The record stored in `bytes`.
    pub fn decode(bytes: &[u8; RECORD_SIZE]) -> Result<Record, RecordError> {
        let occupied = Bitboard(u64::from_le_bytes(bytes[..8].try_into().unwrap()));
        if occupied.count() > 32 {
            return Err(RecordError::TooManyPieces(occupied.count()));
        }
        let mut board = Board::empty();
        for (i, square) in occupied.enumerate() {
            let code = (bytes[8 + i / 2] >> (4 * (i % 2))) & 15;
            board.set_piece_at(square, Some(piece_of(code)?));
        }
        let outcome = match bytes[26] {
            0 => Outcome::BlackWins,
            1 => Outcome::Draw,
            2 => Outcome::WhiteWins,
            r => return Err(RecordError::Outcome(r)),
        };
        let turn = match bytes[27] {
            0 => Color::White,
            1 => Color::Black,
            t => return Err(RecordError::Turn(t)),
        };
        Ok(Record {
            board,
            turn,
            white_score: i16::from_le_bytes([bytes[24], bytes[25]]),
            outcome,
            fullmove: u16::from_le_bytes([bytes[28], bytes[29]]),
        })
    }

    /// The pieces with their squares, in increasing square order (what the trainer needs,
    /// without building a board).
    pub fn pieces(&self) -> impl Iterator<Item = (Square, Piece)> + '_ {
        self.board.pieces()
    }
}

fn piece_of(code: u8) -> Result<Piece, RecordError> {
    let color = match code >> 3 {
        0 => Color::White,
        _ => Color::Black,
    };
    let role = *Role::ALL
        .get(usize::from(code & 7))
        .ok_or(RecordError::Piece(code))?;
    Ok(Piece { color, role })
}

#[cfg(test)]
mod tests {
    use super::*;
    use chess960_core::Position;

    #[test]
    fn records_survive_encoding_for_every_start_position() {
        for id in (0..960).step_by(37) {
            let pos = chess960_core::StartId::new(id).unwrap().position();
            let record = Record {
                board: *pos.board(),
                turn: Color::Black,
                white_score: -1234,
                outcome: Outcome::Draw,
                fullmove: 17,
            };
            let bytes = record.encode().unwrap();
            assert_eq!(Record::decode(&bytes).unwrap(), record);
        }
    }

    #[test]
    fn the_layout_is_the_documented_one() {
        // White king e1, black king e8, white pawn e2: three pieces in square order.
        let pos = Position::from_fen("4k3/8/8/8/8/8/4P3/4K3 w - - 0 40").unwrap();
        let record = Record {
            board: *pos.board(),
            turn: Color::White,
            white_score: 250,
            outcome: Outcome::WhiteWins,
            fullmove: 40,
        };
        let bytes = record.encode().unwrap();
        assert_eq!(
            u64::from_le_bytes(bytes[..8].try_into().unwrap()),
            (1 << 4) | (1 << 12) | (1 << 60)
        );
        assert_eq!(bytes[8], 5); // e1 white king (low nibble), e2 white pawn (code 0, high nibble)
        assert_eq!(bytes[9], 8 + 5); // e8 black king
        assert_eq!(i16::from_le_bytes([bytes[24], bytes[25]]), 250);
        assert_eq!(&bytes[26..30], &[2, 0, 40, 0]);
    }

    #[test]
    fn broken_records_are_refused() {
        let mut bytes = [0u8; RECORD_SIZE];
        bytes[..8].copy_from_slice(&1u64.to_le_bytes());
        bytes[8] = 6; // white "role 6"
        assert_eq!(Record::decode(&bytes).unwrap_err(), RecordError::Piece(6));
        bytes[8] = 5;
        bytes[26] = 3;
        assert_eq!(Record::decode(&bytes).unwrap_err(), RecordError::Outcome(3));
        bytes[26] = 1;
        bytes[27] = 2;
        assert_eq!(Record::decode(&bytes).unwrap_err(), RecordError::Turn(2));
        let full = u64::MAX.to_le_bytes();
        bytes[..8].copy_from_slice(&full);
        assert_eq!(
            Record::decode(&bytes).unwrap_err(),
            RecordError::TooManyPieces(64)
        );
    }
}
