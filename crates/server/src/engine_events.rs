//! Engine events over HTTP (docs/api.md, "Engine events"): the engines this server may run
//! (their names only: what they run is the owner's, set on the command line), the arbiter's
//! play and pause, and the live broadcast anyone with the event's key may watch.

use crate::championships::{NotStarted, MAX_PLAYING};
use crate::error::{ApiError, ApiResult};
use crate::tournaments::{change_with, job, load};
use crate::AppState;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::Json;
use chess960_championship::live::LiveView;
use chess960_events::event::EventError;
use serde_json::{json, Value};

/// The registered engine `name`, as registered (whatever the case given); 404 for none.
pub(crate) async fn registered(state: &AppState, name: String) -> ApiResult<String> {
    let store = state.store();
    job(move || {
        let registry = store
            .engine_store()
            .ok_or_else(|| ApiError::not_found("this server's database keeps no engines"))?;
        registry
            .engine(&name)
            .map_err(|e| ApiError::internal(e.to_string()))?
            .map(|e| e.name)
            .ok_or_else(|| {
                ApiError::not_found(format!("no engine {name:?} is registered on this server"))
            })
    })
    .await
}

/// `GET /api/engines`: the names of the engines an event on this server can enter, and how
/// many of their games it plays at once (none: `games_at_once` 0, an empty list).
pub async fn engines(State(state): State<AppState>) -> ApiResult<Json<Value>> {
    let games = state.capacity().engine_games;
    let store = state.store();
    let names: Vec<String> = if games == 0 {
        Vec::new()
    } else {
        job(move || match store.engine_store() {
            None => Ok(Vec::new()),
            Some(r) => r
                .engines()
                .map(|list| list.into_iter().map(|e| e.name).collect())
                .map_err(|e| ApiError::internal(e.to_string())),
        })
        .await?
    };
    Ok(Json(json!({
        "engines": names.iter().map(|n| json!({"name": n})).collect::<Vec<_>>(),
        "games_at_once": games,
    })))
}

/// `GET /api/events/{key}/live`: the boards being played, their clocks, moves and the
/// searches of the engines to move ([`LiveView`]).
pub async fn live(
    State(state): State<AppState>,
    Path(key): Path<String>,
) -> ApiResult<Json<LiveView>> {
    if let Some(v) = state.championships().view(&key) {
        return Ok(Json(v));
    }
    let store = state.store();
    let stored = job(move || load(store.as_ref(), &key)).await?;
    let status = if !state.championships().enabled() {
        "this server plays no engine games"
    } else if stored.event.engines_play {
        "starting"
    } else {
        "not started"
    };
    Ok(Json(LiveView {
        running: false,
        status: status.into(),
        boards: Vec::new(),
    }))
}

/// `POST /api/events/{key}/engines/play` (arbiter): the server plays every board whose two
/// players are engines, round after round (pairing, drawing the positions, adding a
/// knockout's tiebreaks itself), until the event is over, waits for its arbiter, or is
/// paused; and again after a restart. 409 when this server plays no engine games.
pub async fn play(
    State(state): State<AppState>,
    Path(key): Path<String>,
    headers: HeaderMap,
) -> ApiResult<Json<Value>> {
    if !state.championships().enabled() {
        return Err(ApiError::new(
            StatusCode::CONFLICT,
            "this server plays no engine games (chess960 serve --engine-games N)",
        ));
    }
    change_with(&state, key.clone(), headers, |e| {
        if !e.players.iter().any(|p| p.engine.is_some()) {
            return Err(EventError::Invalid(
                "no player of this event is an engine".into(),
            ));
        }
        e.engines_play = true;
        Ok(())
    })
    .await?;
    match state.championships().start(&key) {
        Ok(()) => Ok(Json(json!({"running": true}))),
        Err(NotStarted::Busy) => Err(ApiError::new(
            StatusCode::CONFLICT,
            format!(
                "{MAX_PLAYING} engine events are being played on this server: play this one \
                 once one of them has ended or is paused"
            ),
        )),
        Err(NotStarted::Disabled) => Err(ApiError::new(
            StatusCode::CONFLICT,
            "this server plays no engine games (chess960 serve --engine-games N)",
        )),
    }
}

/// `POST /api/events/{key}/engines/pause` (arbiter): the games in progress stop, unfinished
/// and not kept (they are played again from their start when play resumes).
pub async fn pause(
    State(state): State<AppState>,
    Path(key): Path<String>,
    headers: HeaderMap,
) -> ApiResult<Json<Value>> {
    change_with(&state, key.clone(), headers, |e| {
        e.engines_play = false;
        Ok(())
    })
    .await?;
    state.championships().pause(&key);
    Ok(Json(json!({"running": false})))
}
