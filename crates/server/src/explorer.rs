//! `GET /api/explorer`: the opening explorer of the game database for a start position (or a
//! FEN) and the moves played from it, with the database statistics of the start position.
//! The counting is the store's (`chess960_store::explorer`); this module reads and bounds the
//! query and writes the JSON.

use crate::catalog;
use crate::error::{ApiError, ApiResult};
use crate::round::blocking;
use crate::AppState;
use axum::extract::{Query, RawQuery, State};
use axum::Json;
use chess960_core::{CastlingMode, Position};
use chess960_store::explorer::MAX_GAMES;
use chess960_store::{stats, GameFilter, Results};
use serde::Deserialize;
use serde_json::{json, Value};
use std::sync::Arc;

/// The most half-moves a query may play from the start.
pub const MAX_MOVES: usize = 300;
/// The longest query string accepted (300 moves of 5 letters and their commas fit).
pub const MAX_QUERY: usize = 4096;
/// Games listed when the query does not say.
const DEFAULT_GAMES: u32 = 20;

/// The query of `GET /api/explorer`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExplorerQuery {
    start: Option<String>,
    fen: Option<String>,
    moves: Option<String>,
    games: Option<String>,
    account: Option<String>,
}

fn results_json(r: &Results) -> Value {
    json!({
        "games": r.games,
        "white": r.white,
        "draws": r.draws,
        "black": r.black,
        "unfinished": r.unfinished,
        "score": r.score(),
    })
}

/// `GET /api/explorer?start=<0..959>&moves=<uci,...>` (or `fen=` instead of `start=`;
/// `games=` 0..100, default 20).
pub async fn explore(
    State(state): State<AppState>,
    RawQuery(raw): RawQuery,
    query: Result<Query<ExplorerQuery>, axum::extract::rejection::QueryRejection>,
) -> ApiResult<Json<Value>> {
    if raw.as_ref().is_some_and(|q| q.len() > MAX_QUERY) {
        return Err(ApiError::bad_request(format!(
            "the query is longer than {MAX_QUERY} bytes"
        )));
    }
    let Query(q) = query.map_err(|e| ApiError::bad_request(e.body_text()))?;
    let (start_id, mut pos) = match (&q.start, &q.fen) {
        (Some(id), None) => {
            let id = catalog::parse_id(id).map_err(|_| {
                ApiError::bad_request(format!(
                    "start: '{}' is not a start position number (0..959)",
                    id.chars().take(20).collect::<String>()
                ))
            })?;
            (Some(id.get()), id.position())
        }
        (None, Some(fen)) => {
            let pos = Position::from_fen(fen)
                .map_err(|e| ApiError::unprocessable(format!("fen: {e}")))?;
            (None, pos)
        }
        _ => return Err(ApiError::bad_request("give exactly one of start or fen")),
    };
    let games = match q.games.as_deref().map(str::trim) {
        None | Some("") => DEFAULT_GAMES,
        Some(t) => t
            .parse::<u32>()
            .ok()
            .filter(|&n| n <= MAX_GAMES)
            .ok_or_else(|| ApiError::bad_request(format!("games: must be 0..{MAX_GAMES}")))?,
    };
    let ucis: Vec<&str> = q
        .moves
        .as_deref()
        .map(|m| {
            m.split(',')
                .map(str::trim)
                .filter(|u| !u.is_empty())
                .collect()
        })
        .unwrap_or_default();
    if ucis.len() > MAX_MOVES {
        return Err(ApiError::bad_request(format!(
            "moves: at most {MAX_MOVES} half-moves"
        )));
    }
    let mut line = Vec::with_capacity(ucis.len());
    for (i, uci) in ucis.iter().enumerate() {
        let m = pos.parse_uci(uci, CastlingMode::Chess960).map_err(|e| {
            ApiError::unprocessable(format!(
                "moves: half-move {} ('{}'): {e}",
                i + 1,
                uci.chars().take(10).collect::<String>()
            ))
        })?;
        line.push(json!({"uci": m.to_uci(CastlingMode::Chess960), "san": pos.san(m)}));
        pos = pos.play(m);
    }
    let account = crate::players::account_name(q.account.as_deref())?;
    let store = Arc::clone(&state.games().ctx().store);
    let found = blocking(move || {
        // One player's games only, when an account is named.
        let user = match account {
            None => None,
            Some(name) => match crate::players::account_id(&*store, &name)? {
                Some(id) => Some(id),
                None => return Ok(None),
            },
        };
        let explorer = match user {
            None => store.explore(&pos, games)?,
            Some(u) => crate::accounts::players(&*store)?.explore_account(&pos, games, u)?,
        };
        let counts = match start_id {
            Some(id) => store
                .position_counts(&GameFilter {
                    start_id: Some(id),
                    account: user,
                    ..GameFilter::default()
                })?
                .into_iter()
                .next(),
            None => None,
        };
        Ok(Some((explorer, counts)))
    })
    .await?;
    let (explorer, counts) = found.ok_or_else(crate::players::no_such_player)?;
    // The database statistics of the start position, as `chess960 db stats` gives them.
    let stats = start_id.map(|id| {
        let c = counts.unwrap_or(chess960_store::PositionCounts {
            start_id: id,
            ..Default::default()
        });
        let s = stats::position_stats(&c);
        json!({
            "white_wins": c.white_wins,
            "draws": c.draws,
            "black_wins": c.black_wins,
            "games": c.white_wins + c.draws + c.black_wins,
            "score": s.map(|s| s.score),
            "low": s.map(|s| s.low),
            "high": s.map(|s| s.high),
            "favours": s.and_then(|s| s.favours).map(|f| f.as_str()),
        })
    });
    let moves: Vec<Value> = explorer
        .moves
        .iter()
        .map(|m| {
            let mut v = results_json(&m.results);
            v["uci"] = json!(m.uci);
            v["san"] = json!(m.san);
            v
        })
        .collect();
    Ok(Json(json!({
        "start_id": start_id,
        "fen": pos.fen(),
        "line": line,
        "key": format!("{:016x}", explorer.key),
        "total": results_json(&explorer.results),
        "ended": results_json(&explorer.ended),
        "moves": moves,
        "games": explorer.games.iter().map(crate::api::summary_json).collect::<Vec<_>>(),
        "stats": stats,
    })))
}
