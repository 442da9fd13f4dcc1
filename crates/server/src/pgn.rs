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

/// The file name a game's PGN downloads as: players, date and start position, e.g.
/// `Alice-vs-chess960-engine-1500_2026-11-23_SP518.pgn` (`setup` for a start that is none of
/// the 960, no date when the game has none). Only ASCII letters, digits and `-` within
/// each part, `_` between them: safe in a `Content-Disposition` header and on every file system.
pub fn file_name(stored: &StoredGame) -> String {
    let g = &stored.game;
    let mut name = format!("{}-vs-{}", name_part(&g.white), name_part(&g.black));
    let date = g
        .tags
        .iter()
        .find(|(n, _)| n == "Date")
        .map(|(_, d)| d.replace('.', "-"))
        .filter(|d| d.len() == 10 && d.bytes().all(|b| b.is_ascii_digit() || b == b'-'));
    if let Some(date) = date {
        name.push('_');
        name.push_str(&date);
    }
    match g.start_id {
        Some(id) => name.push_str(&format!("_SP{id}")),
        None => name.push_str("_setup"),
    }
    name.push_str(".pgn");
    name
}

/// A player's name in a file name: runs of other characters become one `-`, at most 40 kept.
fn name_part(name: &str) -> String {
    let mut out = String::new();
    for c in name.chars() {
        if c.is_ascii_alphanumeric() {
            out.push(c);
        } else if !out.is_empty() && !out.ends_with('-') {
            out.push('-');
        }
        if out.len() >= 40 {
            break;
        }
    }
    let out = out.trim_matches('-');
    if out.is_empty() {
        "unknown".to_string()
    } else {
        out.to_string()
    }
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

#[cfg(test)]
mod tests {
    use super::*;
    use chess960_store::{GameId, GameKey, NewGame};

    fn stored(white: &str, black: &str, date: &str, start_id: Option<u16>) -> StoredGame {
        StoredGame {
            id: GameId(1),
            key: GameKey::parse("0123456789abcdef0123456789abcdef").unwrap(),
            game: NewGame {
                start_fen: String::new(),
                start_id,
                white: white.into(),
                black: black.into(),
                time_control: None,
                clocks: None,
                tags: vec![("Date".into(), date.into())],
            },
            moves: Vec::new(),
            finish: None,
            movetext: None,
            created_at_ms: 0,
            updated_at_ms: 0,
            seats: chess960_store::Seats::NONE,
            players: chess960_store::GamePlayers::NONE,
            offers: chess960_store::Offers::NONE,
        }
    }

    #[test]
    fn file_names_carry_players_date_and_start() {
        let cases = [
            (
                stored("Alice", "chess960-engine 1500", "2026.11.23", Some(518)),
                "Alice-vs-chess960-engine-1500_2026-11-23_SP518.pgn",
            ),
            (
                stored("Zoë \"Z\" / ../x", "  ", "????.??.??", None),
                "Zo-Z-x-vs-unknown_setup.pgn",
            ),
            (
                stored(&"a".repeat(100), "b\r\nc;d", "2026.01.02", Some(0)),
                &format!("{}-vs-b-c-d_2026-01-02_SP0.pgn", "a".repeat(40)),
            ),
        ];
        for (game, want) in cases {
            assert_eq!(file_name(&game), want);
        }
    }
}
