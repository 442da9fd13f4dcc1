//! Finding the legal move a SAN token names: the core reader, which has a fast path for the
//! usual forms, so PGN reading needs no SAN code of its own.

use chess960_core::{Move, Position, SanError};

/// The legal move `san` names in `pos`.
pub(crate) fn find_move(pos: &Position, san: &[u8]) -> Result<Move, SanError> {
    match std::str::from_utf8(san) {
        Ok(s) => pos.parse_san(s),
        Err(_) => pos.parse_san(&String::from_utf8_lossy(san)),
    }
}
