//! `GET /api/fen?fen=...`: what the rules library says about a position written as FEN, for
//! the board editor (`/editor`). The FEN is read by `chess960-core`'s reader (any castling
//! dialect: classical `KQkq`, X-FEN, Shredder-FEN) with its strict checks, and written back by
//! its writer in both dialects; nothing here reads FEN itself. A FEN the reader refuses is 422
//! with the reader's own reason.

use crate::error::ApiError;
use axum::extract::rejection::QueryRejection;
use axum::extract::{Query, RawQuery};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use chess960_core::{CastlingDialect, Game, Position, StartId};
use serde::Deserialize;
use serde_json::json;

/// The longest FEN accepted (as the analysis board's).
pub const MAX_FEN: usize = 200;
/// The longest query string accepted: a FEN of [`MAX_FEN`] characters fits, percent-encoded.
pub const MAX_QUERY: usize = 1024;

/// The query of `GET /api/fen`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FenQuery {
    fen: Option<String>,
}

/// A refusal about the `fen` parameter: the API's error body with the field it concerns.
fn refused(status: StatusCode, message: impl Into<String>) -> Response {
    let error = ApiError::new(status, message);
    let mut body = error.body();
    body["field"] = json!("fen");
    (status, Json(body)).into_response()
}

/// `GET /api/fen?fen=<FEN>`.
pub async fn check(
    RawQuery(raw): RawQuery,
    query: Result<Query<FenQuery>, QueryRejection>,
) -> Response {
    if raw.as_ref().is_some_and(|q| q.len() > MAX_QUERY) {
        return refused(
            StatusCode::BAD_REQUEST,
            format!("the query is longer than {MAX_QUERY} bytes"),
        );
    }
    let q = match query {
        Ok(Query(q)) => q,
        Err(e) => return ApiError::bad_request(e.body_text()).into_response(),
    };
    let Some(fen) = q.fen else {
        return refused(StatusCode::BAD_REQUEST, "fen: missing (give ?fen=<FEN>)");
    };
    let fen = fen.trim();
    if fen.chars().count() > MAX_FEN {
        return refused(
            StatusCode::BAD_REQUEST,
            format!("fen: longer than {MAX_FEN} characters"),
        );
    }
    match Position::from_fen(fen) {
        Ok(pos) => Json(describe(&pos)).into_response(),
        Err(e) => refused(StatusCode::UNPROCESSABLE_ENTITY, format!("fen: {e}")),
    }
}

/// The answer for a position the reader took.
fn describe(pos: &Position) -> serde_json::Value {
    // The start's number only when the position is exactly that start position, as a new
    // game from this FEN gets it.
    let start_id = StartId::of_board(pos.board())
        .filter(|id| id.position() == *pos)
        .map(StartId::get);
    let game = Game::from_position(*pos);
    json!({
        "ok": true,
        "xfen": pos.to_fen(CastlingDialect::XFen),
        "shredder": pos.to_fen(CastlingDialect::Shredder),
        "start_id": start_id,
        "turn": crate::game::color_name(pos.turn()),
        "legal_moves": pos.legal_moves().len(),
        "check": pos.is_check(),
        "outcome": game.outcome().map(|o| o.reason().describe()),
    })
}
