//! A player's finished games as their results per start position count them
//! (`chess960_players::results`): the start, the player's score, the opponent's rating before
//! a rated game, and how the player castled. Three statements, whatever the number of games.
//!
//! Castling is read from the moves' SAN (`O-O`, `O-O-O`): the games of accounts are played on
//! the server, whose moves are kept as rows, never packed (only imported games are).

use crate::backend::R;
use crate::players::UserId;
use crate::ratings::POINT;
use crate::sql::Tx;
use crate::{GameResult, StoreError};
use chess960_players::glicko2::{Score, INITIAL};
use chess960_players::results::{Castled, PlayedGame};
use std::collections::HashMap;

/// The most games a player's results count: their latest.
pub const MAX_PLAYED: u32 = 5_000;

/// `user`'s latest finished games (at most `limit`, and [`MAX_PLAYED`]), newest first.
pub(crate) fn played(tx: &mut dyn Tx, user: UserId, limit: u32) -> R<Vec<PlayedGame>> {
    let limit = limit.min(MAX_PLAYED);
    let rows = tx.query(
        &format!(
            "SELECT id, start_id, start_fen, white_user, black_user, result, rated FROM games
             WHERE (white_user = $1 OR black_user = $1) AND result <> '*'
             ORDER BY id DESC LIMIT {limit}"
        ),
        &[user.0.into()],
    )?;
    struct Row {
        id: i64,
        start_id: Option<u16>,
        white: bool,
        white_first: bool,
        result: GameResult,
        rated: Option<String>,
        opponent: Option<i64>,
    }
    let mut games = Vec::with_capacity(rows.len());
    for mut r in rows {
        // (A cell is read once.)
        let (white_user, black_user) = (r.opt_int(3)?, r.opt_int(4)?);
        let white = white_user == Some(user.0);
        let opponent = if white { black_user } else { white_user };
        games.push(Row {
            id: r.int(0)?,
            start_id: r.opt_u16(1)?,
            white_first: r.text(2)?.split(' ').nth(1) != Some("b"),
            white,
            result: r.result(5)?,
            rated: r.opt_text(6)?,
            opponent,
        });
    }
    let Some(oldest) = games.last().map(|g| g.id) else {
        return Ok(Vec::new());
    };
    // The first castling of each side, by game.
    let mut castled: HashMap<(i64, bool), Castled> = HashMap::new();
    let moves = tx.query(
        "SELECT m.game_id, m.ply, m.san FROM moves m JOIN games g ON g.id = m.game_id
         WHERE (g.white_user = $1 OR g.black_user = $1) AND g.id >= $2 AND m.san LIKE 'O-O%'
         ORDER BY m.game_id, m.ply",
        &[user.0.into(), oldest.into()],
    )?;
    let first: HashMap<i64, bool> = games.iter().map(|g| (g.id, g.white_first)).collect();
    for mut m in moves {
        let (id, ply, san) = (m.int(0)?, m.int(1)?, m.text(2)?);
        let Some(&white_first) = first.get(&id) else {
            continue;
        };
        let by_white = (ply % 2 == 0) == white_first;
        let side = if san.starts_with("O-O-O") {
            Castled::Long
        } else {
            Castled::Short
        };
        castled.entry((id, by_white)).or_insert(side);
    }
    // The opponents' rating histories in rated games, for their ratings before each game.
    let history = tx.query(
        "SELECT h.user_id, h.speed, h.game_id, h.rating FROM rating_history h
         WHERE h.user_id IN (
             SELECT CASE WHEN g.white_user = $1 THEN g.black_user ELSE g.white_user END
             FROM games g
             WHERE (g.white_user = $1 OR g.black_user = $1) AND g.rated IS NOT NULL
               AND g.id >= $2)
         ORDER BY h.user_id, h.speed, h.at_ms, h.game_id",
        &[user.0.into(), oldest.into()],
    )?;
    // (opponent, speed, game) → the opponent's rating before that game.
    let mut before: HashMap<(i64, String, i64), f64> = HashMap::new();
    let mut last: Option<(i64, String, f64)> = None;
    for mut h in history {
        let (who, speed, game) = (h.int(0)?, h.text(1)?, h.int(2)?);
        let rating = h.int(3)? as f64 / POINT;
        let previous = match &last {
            Some((w, s, r)) if *w == who && *s == speed => *r,
            _ => INITIAL.rating,
        };
        before.insert((who, speed.clone(), game), previous);
        last = Some((who, speed, rating));
    }
    games
        .into_iter()
        .map(|g| {
            let score = match (g.result, g.white) {
                (GameResult::WhiteWins, true) | (GameResult::BlackWins, false) => Score::Win,
                (GameResult::WhiteWins, false) | (GameResult::BlackWins, true) => Score::Loss,
                (GameResult::Draw, _) => Score::Draw,
                (GameResult::Unknown, _) => {
                    return Err(StoreError::Corrupt {
                        detail: format!("game {}: listed as finished without a result", g.id),
                    })
                }
            };
            let opponent_rating = match (&g.rated, g.opponent) {
                (Some(speed), Some(o)) => before.get(&(o, speed.clone(), g.id)).copied(),
                _ => None,
            };
            Ok(PlayedGame {
                start_id: g.start_id,
                score,
                opponent_rating,
                castled: castled
                    .get(&(g.id, g.white))
                    .copied()
                    .unwrap_or(Castled::Not),
            })
        })
        .collect()
}
