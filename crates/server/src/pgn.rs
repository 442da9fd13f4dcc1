//! PGN export of a game (`GET /api/games/{key}/pgn`) and the start of a new game from a PGN.

use crate::error::{ApiError, ApiResult};
use chess960_core::{Move, Position};
use chess960_pgn::{game_to_string, Reader, WriteOptions};
use chess960_store::StoredGame;

/// The stored game as PGN, written by the store's own conversion (the same text as
/// `chess960 db export`): the seven-tag roster, `Variant`/`SetUp`/`FEN`, `TimeControl`, a
/// `Termination` tag for results the board does not show, each move's clock as `[%clk]`.
pub fn export(stored: &StoredGame) -> ApiResult<String> {
    let game = chess960_store::pgn::to_pgn(stored).map_err(ApiError::from)?;
    Ok(game_to_string(&game, &WriteOptions::default()))
}

/// The start position and main-line moves of the first game of a PGN text; 422 with the
/// reader's reason (and place) if it cannot be read. Variations are checked but not kept, so
/// a body nested as deep as 1 MiB allows costs memory for its main line only.
pub fn import(text: &str) -> ApiResult<(Position, Vec<Move>)> {
    let mut reader = Reader::new(text.as_bytes());
    match reader.read_main_line() {
        Ok(Some(Ok(line))) => Ok((line.summary.start, line.moves)),
        Ok(Some(Err(e))) => Err(ApiError::unprocessable(format!("start.pgn: {e}"))),
        Ok(None) => Err(ApiError::unprocessable(
            "start.pgn: there is no game in the text",
        )),
        Err(e) => Err(ApiError::unprocessable(format!("start.pgn: {e}"))),
    }
}
