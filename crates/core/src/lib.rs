//! # chess960-core
//!
//! The rules of Chess960 (Fischer Random Chess), and so of classical chess, which is Chess960
//! start position 518: start positions by number, legal move generation with every castling
//! shape, FEN in three castling dialects, SAN and UCI notation, games with their outcomes, and
//! perft.
//!
//! ```
//! use chess960_core::{CastlingMode, Position, StartId};
//!
//! let pos = StartId::new(518).unwrap().position();
//! assert_eq!(pos.fen(), "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
//! let e4 = pos.parse_san("e4").unwrap();
//! assert_eq!(e4.to_uci(CastlingMode::Chess960), "e2e4");
//! assert_eq!(chess960_core::perft::perft(&pos, 3), 8902);
//! ```
#![warn(missing_docs)]

pub mod attacks;
pub mod bitboard;
pub mod board;
pub mod fen;
pub mod game;
pub mod moves;
pub mod perft;
pub mod position;
pub mod result;
pub mod san;
mod san_fast;
pub mod startpos;
#[cfg(test)]
mod testing;
pub mod typed;
pub mod types;
pub mod uci;
mod zobrist;

pub use bitboard::Bitboard;
pub use board::Board;
pub use fen::{CastlingDialect, FenError, Validation};
pub use game::{Game, GameError, Outcome, Termination};
pub use moves::{Move, MoveKind, MoveList};
pub use position::Position;
pub use result::GameResult;
pub use san::SanError;
pub use startpos::{BackRank, BackRankError, StartId, StartIdError};
pub use typed::TypedMoveError;
pub use types::{CastlingSide, Color, File, Piece, Rank, Role, Square};
pub use uci::{CastlingMode, UciError};

impl std::fmt::Display for Position {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.fen())
    }
}

impl std::fmt::Debug for Position {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Position({})", self.fen())
    }
}
