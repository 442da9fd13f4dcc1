//! The HTTP handlers of docs/api.md.

use crate::catalog;
use crate::create;
use crate::create::request::{
    name_of, NewGameBody, NewGameRequest, FULL_MOVETIME_MS_DEFAULT, FULL_MOVETIME_MS_MAX,
    FULL_MOVETIME_MS_MIN, MAX_DEPTH,
};
use crate::error::{ApiError, ApiResult, JsonBody};
use crate::game::seat;
use crate::game::GameView;
use crate::http::socket::{self, Next, Session};
use crate::registry::Located;
use crate::round::broadcast::{first_message, Protocol};
use crate::round::{
    blocking, Actor, Answer, ForceResult, GameHandle, RematchAction, RematchStep, Reply,
    TakebackAction,
};
use crate::AppState;
use axum::extract::ws::{Message, WebSocket};
use axum::extract::{ConnectInfo, FromRequestParts, Path, Query, State};
use axum::http::request::Parts;
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use chess960_core::{Color, StartId};
use chess960_draw::rng::SplitMix64;
use chess960_engine::levels::{ELO_MAX, ELO_MIN};
use chess960_engine::player::AnalysisLimit;
use chess960_store::players::{User, UserId};
use chess960_store::GameFilter;
use serde::Deserialize;
use serde_json::json;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::sync::Arc;
use std::time::Duration;

/// The longest analysis.
const MAX_MOVETIME_MS: u64 = 60_000;
/// The most games one list answer holds.
const MAX_LIMIT: u32 = 500;

// ---- engine levels -------------------------------------------------------------------------

/// `GET /api/levels`: the levels a new game accepts, so that the UI offers exactly the range
/// the engine is calibrated for (docs/strength.md) instead of a copy of it.
pub async fn levels() -> Json<serde_json::Value> {
    let default = crate::game::LevelJson::from(crate::game::DEFAULT_LEVEL);
    Json(json!({
        "elo": {"min": ELO_MIN, "max": ELO_MAX},
        "depth": {"min": 1, "max": MAX_DEPTH},
        "full": {"movetime_ms": {
            "min": FULL_MOVETIME_MS_MIN,
            "max": FULL_MOVETIME_MS_MAX,
            "default": FULL_MOVETIME_MS_DEFAULT,
        }},
        "default": default,
    }))
}

/// `GET /api/server`: how loaded the server is: games in memory, engine searches waiting and
/// running, search threads.
pub async fn server_load(State(state): State<AppState>) -> Json<serde_json::Value> {
    let (waiting, running) = state.searches();
    Json(json!({
        "games_in_memory": state.games_in_memory(),
        "searches": {
            "waiting": waiting,
            "running": running,
            "threads": state.capacity().search_threads,
        },
    }))
}

// ---- start positions ----------------------------------------------------------------------

/// `GET /api/positions`.
pub async fn positions() -> Json<Vec<catalog::PositionJson>> {
    Json(catalog::positions())
}

/// `GET /api/positions/{id}`.
pub async fn position(Path(id): Path<String>) -> ApiResult<Json<catalog::PositionJson>> {
    Ok(Json(catalog::position(catalog::parse_id(&id)?)))
}

/// `GET /api/tables`.
pub async fn tables() -> Json<catalog::TablesJson> {
    Json(catalog::tables(StartId::CLASSICAL))
}

/// `GET /api/fairness`.
pub async fn fairness() -> ApiResult<Response> {
    let text = tokio::task::spawn_blocking(catalog::fairness)
        .await
        .map_err(|e| ApiError::internal(format!("a worker thread failed: {e}")))??;
    Ok(([(header::CONTENT_TYPE, "application/json")], text).into_response())
}

/// `POST /api/draw`.
pub async fn draw(
    JsonBody(req): JsonBody<catalog::DrawRequest>,
) -> ApiResult<Json<catalog::DrawJson>> {
    Ok(Json(catalog::draw(&req)?))
}

// ---- new game ------------------------------------------------------------------------------

/// `POST /api/games`: 201 with the game view and its seat token. The body is read and checked
/// in `create/request.rs`.
pub async fn create_game(
    State(state): State<AppState>,
    client: Client,
    viewer: crate::accounts::Viewer,
    JsonBody(body): JsonBody<NewGameBody>,
) -> ApiResult<(StatusCode, Versioned)> {
    let spec = NewGameRequest::read(body)?.spec(&mut SplitMix64::from_entropy())?;
    let account = viewer.0.as_ref().map(|(user, _)| user);
    let view = create::create_game(state.games(), spec, client.0, account).await?;
    Ok((StatusCode::CREATED, Versioned(view)))
}

// ---- games being played now ---------------------------------------------------------------

/// The most games `GET /api/games/now` lists.
const MAX_NOW_PLAYING: usize = 100;

/// `GET /api/games/now`: the games being played now, for spectators: `{"games": [...]}`, the
/// latest move first.
/// `GET /api/lobby`: the challenges listed in the lobby, the newest first.
pub async fn lobby(State(state): State<AppState>) -> Json<serde_json::Value> {
    Json(json!({"challenges": state.lobby().list()}))
}

pub async fn games_now(State(state): State<AppState>) -> Json<serde_json::Value> {
    Json(json!({"games": state.games().playing_now(MAX_NOW_PLAYING)}))
}

// ---- game list -----------------------------------------------------------------------------

/// `GET /api/games` query. Numbers are read by hand so that a bad one is named.
#[derive(Deserialize)]
pub struct ListQuery {
    start_id: Option<String>,
    result: Option<String>,
    player: Option<String>,
    account: Option<String>,
    limit: Option<String>,
    offset: Option<String>,
    aborted: Option<String>,
}

fn number<T: std::str::FromStr>(name: &str, v: &Option<String>) -> ApiResult<Option<T>> {
    match v.as_deref().map(str::trim) {
        None | Some("") => Ok(None),
        Some(t) => t.parse().map(Some).map_err(|_| {
            ApiError::bad_request(format!(
                "{name}: '{}' is not a number",
                t.chars().take(20).collect::<String>()
            ))
        }),
    }
}

/// `GET /api/games`.
pub async fn list_games(
    State(state): State<AppState>,
    query: Result<Query<ListQuery>, axum::extract::rejection::QueryRejection>,
) -> ApiResult<Json<serde_json::Value>> {
    let Query(q) = query.map_err(|e| ApiError::bad_request(e.body_text()))?;
    let start_id: Option<u16> = number("start_id", &q.start_id)?;
    if start_id.is_some_and(|n| n > 959) {
        return Err(ApiError::bad_request("start_id: must be 0..959"));
    }
    let result = match q.result.as_deref().map(str::trim) {
        None | Some("") => None,
        Some(r) if chess960_core::GameResult::parse(r).is_some() => {
            chess960_core::GameResult::parse(r)
        }
        Some(_) => {
            return Err(ApiError::bad_request(
                "result: must be 1-0, 0-1, 1/2-1/2 or *",
            ))
        }
    };
    let limit: u32 = number("limit", &q.limit)?.unwrap_or(50);
    if !(1..=MAX_LIMIT).contains(&limit) {
        return Err(ApiError::bad_request(format!(
            "limit: must be 1..{MAX_LIMIT}"
        )));
    }
    let offset: u32 = number("offset", &q.offset)?.unwrap_or(0);
    // Aborted games are no results: the list leaves them out unless asked.
    let aborted = match q.aborted.as_deref().map(str::trim) {
        None | Some("") | Some("exclude") => Some(false),
        Some("include") => None,
        Some("only") => Some(true),
        Some(_) => {
            return Err(ApiError::bad_request(
                "aborted: must be exclude (the default), include or only",
            ))
        }
    };
    let account = crate::players::account_name(q.account.as_deref())?;
    let mut filter = GameFilter {
        start_id,
        player: q.player.filter(|p| !p.trim().is_empty()),
        result,
        aborted,
        limit: Some(limit),
        offset,
        ..GameFilter::default()
    };
    let store = Arc::clone(&state.games().ctx().store);
    let found = blocking(move || {
        if let Some(name) = account {
            match crate::players::account_id(&*store, &name)? {
                Some(id) => filter.account = Some(id),
                None => return Ok(None),
            }
        }
        Ok(Some((store.count(&filter)?, store.list(&filter)?)))
    })
    .await?;
    let (total, games) = found.ok_or_else(crate::players::no_such_player)?;
    let games: Vec<serde_json::Value> = games.iter().map(summary_json).collect();
    Ok(Json(json!({"total": total, "games": games})))
}

/// A game of a list (`GET /api/games`, the explorer's games) as JSON.
pub(crate) fn summary_json(g: &chess960_store::GameSummary) -> serde_json::Value {
    json!({
        "key": g.key.as_str(),
        "id": g.id.0,
        "start_id": g.start_id,
        "white": g.white,
        "black": g.black,
        "result": g.result.as_str(),
        "reason": g.reason,
        "date": g.date,
        "created_ms": g.created_at_ms,
        "plies": g.plies,
    })
}

// ---- one game -----------------------------------------------------------------------------

async fn handle(state: &AppState, key: &str) -> ApiResult<Arc<GameHandle>> {
    Ok(state.games().get(key).await?)
}

/// The client's IP address (unspecified when the server runs without connection info, as
/// when the router is called directly).
pub struct Client(pub IpAddr);

impl<S: Send + Sync> FromRequestParts<S> for Client {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, Self::Rejection> {
        Ok(Client(
            parts
                .extensions
                .get::<ConnectInfo<SocketAddr>>()
                .map_or(IpAddr::V4(Ipv4Addr::UNSPECIFIED), |c| c.0.ip()),
        ))
    }
}

/// Who acts on a game: the seat token of the `X-Seat-Token` header, the account of the
/// session cookie when no token came, and the client's address.
pub struct Seated {
    token: Option<String>,
    account: Option<User>,
    client: IpAddr,
    gone: Option<crate::round::ClientGone>,
    reply: Reply,
}

impl Seated {
    fn actor(&self) -> Actor<'_> {
        Actor {
            seat: self.token.as_deref(),
            user: self.account.as_ref().map(|u| u.id),
            client: self.client,
            gone: self.gone.as_ref(),
            reply: self.reply,
        }
    }
}

impl FromRequestParts<AppState> for Seated {
    type Rejection = ApiError;

    async fn from_request_parts(
        parts: &mut Parts,
        state: &AppState,
    ) -> Result<Self, Self::Rejection> {
        let Ok(Client(client)) = Client::from_request_parts(parts, state).await;
        let token = parts
            .headers
            .get(seat::HEADER)
            .and_then(|v| v.to_str().ok())
            .map(|t| t.trim().to_string())
            .filter(|t| !t.is_empty());
        // The session is looked up only without a token: the browser that holds the seat's
        // token acts with it, at no cost to the database.
        let account = match token {
            Some(_) => None,
            None => crate::accounts::Viewer::from_request_parts(parts, state)
                .await?
                .0
                .map(|(user, _)| user),
        };
        let gone = parts.extensions.get::<crate::round::ClientGone>().cloned();
        let reply = match parts.headers.get(PROTOCOL_HEADER).map(|v| v.as_bytes()) {
            Some(b"2") => Reply::Ack,
            _ => Reply::View,
        };
        Ok(Seated {
            token,
            account,
            client,
            gone,
            reply,
        })
    }
}

/// A game view as an HTTP answer: the JSON view, and its version (`Live::version`) in the
/// `X-Game-Version` header, so that a client can order it with the WebSocket's events. The
/// version is not in the view itself, so that a game reloaded from the store gives the same
/// view.
pub struct Versioned(pub GameView);

/// The header of [`Versioned`].
pub const VERSION_HEADER: &str = "x-game-version";

/// Protocol 2 of an action's answer: asked for with this request header set to `2`, the
/// answer is an acknowledgement (`{"version": V, ...}`) instead of the whole view.
pub const PROTOCOL_HEADER: &str = "x-game-protocol";

impl axum::response::IntoResponse for Answer {
    fn into_response(self) -> Response {
        match self {
            Answer::View(v) => Versioned(*v).into_response(),
            Answer::Ack(a) => ([(VERSION_HEADER, a.version.to_string())], Json(a)).into_response(),
        }
    }
}

impl axum::response::IntoResponse for Versioned {
    fn into_response(self) -> Response {
        let version = self.0.version.to_string();
        ([(VERSION_HEADER, version)], Json(self.0)).into_response()
    }
}

/// `GET /api/games/{key}`: the view; with a valid seat token also the colour of that seat,
/// in the `X-Seat-Color` header.
pub async fn get_game(
    State(state): State<AppState>,
    Path(key): Path<String>,
    who: Seated,
) -> ApiResult<Response> {
    let (view, seat) = handle(&state, &key).await?.view_for(&who.actor()).await?;
    let mut resp = Versioned(view).into_response();
    if let Some(c) = seat {
        resp.headers_mut().insert(
            SEAT_COLOR_HEADER,
            axum::http::HeaderValue::from_static(crate::game::color_name(c)),
        );
    }
    Ok(resp)
}

/// The header of [`get_game`]'s answer that names the colour of the reader's seat.
pub const SEAT_COLOR_HEADER: &str = "x-seat-color";

#[derive(Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct MoveRequest {
    #[serde(rename = "move")]
    mv: String,
    ply: u64,
}

/// `POST /api/games/{key}/moves`.
pub async fn post_move(
    State(state): State<AppState>,
    Path(key): Path<String>,
    who: Seated,
    JsonBody(req): JsonBody<MoveRequest>,
) -> ApiResult<Answer> {
    let h = handle(&state, &key).await?;
    Ok(h.human_move(&who.actor(), &req.mv, req.ply).await?)
}

#[derive(Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct PremoveRequest {
    #[serde(rename = "move")]
    mv: Option<String>,
    /// With `"move": null`: clear the premove only if it is this one.
    #[cfg_attr(test, ts(optional))]
    clears: Option<String>,
}

/// `POST /api/games/{key}/premove`.
pub async fn post_premove(
    State(state): State<AppState>,
    Path(key): Path<String>,
    who: Seated,
    JsonBody(req): JsonBody<PremoveRequest>,
) -> ApiResult<Answer> {
    let h = handle(&state, &key).await?;
    Ok(h.premove(&who.actor(), req.mv, req.clears).await?)
}

/// An action without parameters: the body, if any, must be a JSON object.
#[derive(Deserialize)]
pub struct Empty {}

/// `POST /api/games/{key}/takeback` body: `{}` (propose), or `{"action": "propose" |
/// "accept" | "decline"}`.
#[derive(Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct TakebackRequest {
    #[serde(default)]
    #[cfg_attr(test, ts(optional))]
    action: Option<TakebackAction>,
}

/// `POST /api/games/{key}/takeback`.
pub async fn post_takeback(
    State(state): State<AppState>,
    Path(key): Path<String>,
    who: Seated,
    JsonBody(req): JsonBody<TakebackRequest>,
) -> ApiResult<Answer> {
    let action = req.action.unwrap_or_default();
    Ok(handle(&state, &key)
        .await?
        .takeback(&who.actor(), action)
        .await?)
}

/// `POST /api/games/{key}/join` body.
#[derive(Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(deny_unknown_fields)]
pub struct JoinRequest {
    #[cfg_attr(test, ts(optional))]
    name: Option<String>,
}

/// `POST /api/games/{key}/join`: takes the open seat of a game between people; the answer
/// carries the seat's token and colour.
pub async fn post_join(
    State(state): State<AppState>,
    Path(key): Path<String>,
    who: Seated,
    JsonBody(req): JsonBody<JoinRequest>,
) -> ApiResult<Versioned> {
    // A logged-in player joins under their account's name, bound to the seat.
    let name = match &who.account {
        Some(user) => user.name.to_string(),
        None => name_of(req.name)?,
    };
    Ok(Versioned(
        handle(&state, &key).await?.join(&who.actor(), name).await?,
    ))
}

/// `POST /api/games/{key}/resign`.
pub async fn post_resign(
    State(state): State<AppState>,
    Path(key): Path<String>,
    who: Seated,
    JsonBody(_): JsonBody<Empty>,
) -> ApiResult<Answer> {
    Ok(handle(&state, &key).await?.resign(&who.actor()).await?)
}

/// `POST /api/games/{key}/abort`: ends the game with no result before both sides have moved.
pub async fn post_abort(
    State(state): State<AppState>,
    Path(key): Path<String>,
    who: Seated,
    JsonBody(_): JsonBody<Empty>,
) -> ApiResult<Answer> {
    Ok(handle(&state, &key).await?.abort(&who.actor()).await?)
}

/// `GET /api/games/{key}/chat`: the chat lines kept (`round/chat.rs`); the players' room only
/// for a player.
pub async fn get_chat(
    State(state): State<AppState>,
    Path(key): Path<String>,
    who: Seated,
) -> ApiResult<Json<crate::round::chat::ChatLog>> {
    let h = handle(&state, &key).await?;
    Ok(Json(h.chat_log(&who.actor()).await?))
}

/// `POST /api/games/{key}/chat`: a line in the players' room (a player) or the spectators'
/// room (anyone else). A body over [`CHAT_BODY_LIMIT`] is 413.
pub async fn post_chat(
    State(state): State<AppState>,
    Path(key): Path<String>,
    who: Seated,
    body: axum::body::Body,
) -> ApiResult<Json<crate::round::chat::ChatLine>> {
    let body = crate::http::body::read(body).await?;
    if body.len() > CHAT_BODY_LIMIT {
        return Err(ApiError::too_large());
    }
    let req: crate::round::chat::ChatRequest = crate::error::parse_json(&body)?;
    let h = handle(&state, &key).await?;
    let account = who.account.as_ref().map(|u| u.name.to_string());
    Ok(Json(h.chat(&who.actor(), account, req).await?))
}

/// The most bytes of a chat line's request body (a line is at most 140 characters).
pub const CHAT_BODY_LIMIT: usize = 2048;

/// `DELETE /api/games/{key}`: removes the game from the database. A game with a seat needs
/// its token (`X-Seat-Token`); one without (imported, or played on the terminal) only the
/// server's access.
pub async fn delete_game(
    State(state): State<AppState>,
    Path(key): Path<String>,
    who: Seated,
) -> ApiResult<StatusCode> {
    state.games().delete(&key, &who.actor()).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// `POST /api/games/{key}/start`.
pub async fn post_start(
    State(state): State<AppState>,
    Path(key): Path<String>,
    who: Seated,
    JsonBody(_): JsonBody<Empty>,
) -> ApiResult<Answer> {
    Ok(handle(&state, &key).await?.start(&who.actor()).await?)
}

/// `POST /api/games/{key}/draw` body.
#[derive(Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct DrawActionRequest {
    action: DrawAction,
}

/// What a player does about a draw.
#[derive(Deserialize, Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "lowercase")]
pub enum DrawAction {
    /// Offer one (the engine answers at once; a person is asked).
    Offer,
    /// Claim the draw the rules allow now.
    Claim,
    /// Accept the opponent's offer.
    Accept,
    /// Decline it.
    Decline,
}

/// `POST /api/games/{key}/draw`.
pub async fn post_draw(
    State(state): State<AppState>,
    Path(key): Path<String>,
    who: Seated,
    JsonBody(req): JsonBody<DrawActionRequest>,
) -> ApiResult<Answer> {
    let h = handle(&state, &key).await?;
    Ok(match req.action {
        DrawAction::Offer => h.offer_draw(&who.actor()).await?,
        DrawAction::Claim => h.claim_draw(&who.actor()).await?,
        DrawAction::Accept => h.answer_draw(&who.actor(), true).await?,
        DrawAction::Decline => h.answer_draw(&who.actor(), false).await?,
    })
}

/// `POST /api/games/{key}/force` body.
#[derive(Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct ForceRequest {
    result: ForceResult,
}

/// `POST /api/games/{key}/force`: the win or a draw against an opponent who stayed away.
pub async fn post_force(
    State(state): State<AppState>,
    Path(key): Path<String>,
    who: Seated,
    JsonBody(req): JsonBody<ForceRequest>,
) -> ApiResult<Answer> {
    let h = handle(&state, &key).await?;
    Ok(h.force(&who.actor(), req.result).await?)
}

#[derive(Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(deny_unknown_fields)]
pub struct PlaceRequest {
    piece: String,
    square: String,
}

/// `POST /api/games/{key}/place`: a piece of the start position the players place (Northam).
pub async fn post_place(
    State(state): State<AppState>,
    Path(key): Path<String>,
    who: Seated,
    JsonBody(req): JsonBody<PlaceRequest>,
) -> ApiResult<Answer> {
    if req.piece.len() > 10 || req.square.len() > 10 {
        return Err(ApiError::bad_request(
            "piece and square: a piece (B, N or Q) and a file or square (c or c1)",
        ));
    }
    let h = handle(&state, &key).await?;
    let text = format!("{} {}", req.piece.trim(), req.square.trim());
    Ok(h.place(&who.actor(), &text).await?)
}

/// `POST /api/games/{key}/rematch` body.
#[derive(Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct RematchRequest {
    action: RematchAction,
}

/// `POST /api/games/{key}/rematch`: offer, accept or decline a rematch between people. The
/// accepting request creates the new game; every client of the old one is sent its key.
pub async fn post_rematch(
    State(state): State<AppState>,
    Path(key): Path<String>,
    who: Seated,
    JsonBody(req): JsonBody<RematchRequest>,
) -> ApiResult<Versioned> {
    let h = handle(&state, &key).await?;
    let actor = who.actor();
    match h.rematch(&actor, req.action).await? {
        RematchStep::View(v) => Ok(Versioned(*v)),
        RematchStep::Create(plan) => {
            let games = state.games();
            // The offer was the opponent's: it stands again if the game cannot be made.
            let offerer = !plan.acceptor;
            let made = crate::create::create_rematch(games, *plan, actor.client).await;
            h.rematch_made(made.as_ref().map(|k| k.clone()).map_err(|_| offerer))
                .await;
            made?;
            Ok(Versioned(h.view().await?))
        }
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AnalysisRequest {
    depth: Option<u32>,
    movetime_ms: Option<u64>,
    ply: Option<u64>,
}

/// `POST /api/games/{key}/analysis`.
pub async fn post_analysis(
    State(state): State<AppState>,
    Path(key): Path<String>,
    who: Seated,
    JsonBody(req): JsonBody<AnalysisRequest>,
) -> ApiResult<Json<crate::round::AnalysisJson>> {
    let limit = match (req.depth, req.movetime_ms) {
        (Some(_), Some(_)) => {
            return Err(ApiError::bad_request(
                "depth: give either depth or movetime_ms, not both",
            ))
        }
        (Some(d), None) if (1..=MAX_DEPTH).contains(&d) => AnalysisLimit::Depth(d),
        (Some(_), None) => {
            return Err(ApiError::bad_request(format!(
                "depth: must be 1..{MAX_DEPTH}"
            )))
        }
        (None, Some(t)) if (1..=MAX_MOVETIME_MS).contains(&t) => {
            AnalysisLimit::Movetime(Duration::from_millis(t))
        }
        (None, Some(_)) => {
            return Err(ApiError::bad_request(format!(
                "movetime_ms: must be 1..{MAX_MOVETIME_MS}"
            )))
        }
        (None, None) => AnalysisLimit::Depth(12),
    };
    let h = handle(&state, &key).await?;
    Ok(Json(h.analyse(&who.actor(), req.ply, limit).await?))
}

/// `GET /api/games/{key}/pgn`.
pub async fn get_pgn(
    State(state): State<AppState>,
    Path(key): Path<String>,
) -> ApiResult<Response> {
    let stored = handle(&state, &key).await?.stored().await?;
    let text = crate::pgn::export(&stored)?;
    let disposition = format!(
        "attachment; filename=\"{}\"",
        crate::pgn::file_name(&stored)
    );
    Ok((
        [
            (
                header::CONTENT_TYPE,
                "text/plain; charset=utf-8".to_string(),
            ),
            (header::CONTENT_DISPOSITION, disposition),
        ],
        text,
    )
        .into_response())
}

/// `GET /api/games/{key}/ws`.
pub async fn websocket(
    State(state): State<AppState>,
    Path(key): Path<String>,
    Client(client): Client,
    headers: axum::http::HeaderMap,
    query: Result<Query<WsQuery>, axum::extract::rejection::QueryRejection>,
    ws: crate::http::ws_limits::Upgrade,
) -> ApiResult<Response> {
    let Query(query) = query.map_err(|e| ApiError::bad_request(e.body_text()))?;
    let protocol = match query.protocol {
        None | Some(1) => Protocol::V1,
        Some(2) => Protocol::V2,
        Some(n) => {
            return Err(ApiError::bad_request(format!(
                "protocol {n} is not one this server speaks: 1 (the default) or 2"
            )))
        }
    };
    let located = state.games().locate(&key).await?;
    let ws = crate::http::ws_limits::accept(ws)?;
    let place = state.sockets().games.enter(client).ok_or_else(|| {
        ApiError::too_many_requests(format!(
            "this address has {MAX_GAME_SOCKETS_PER_CLIENT} game connections open already: \
             close some of its pages"
        ))
    })?;
    let shutdown = state.shutdown_signal();
    let seat = query.seat.filter(|t| !t.trim().is_empty());
    // As for an action: a logged-in player without the seat's token plays by their account.
    let user = match seat {
        Some(_) => None,
        None => crate::accounts::Viewer::of_headers(&state, &headers)
            .await?
            .user(),
    };
    let viewer = Viewer {
        seat,
        user,
        client,
        protocol,
    };
    // The client has little to say (moves go through HTTP): small messages only.
    let ws = crate::http::ws_limits::limited(ws);
    Ok(match (located, state.node().cloned()) {
        (Located::Here(h), _) => ws.on_upgrade(move |socket| async move {
            session(h, socket, shutdown, &viewer).await;
            drop(place);
        }),
        (Located::Elsewhere(_), Some(node)) => ws.on_upgrade(move |socket| async move {
            // Another server runs the game: follow it, and go on here if it comes here.
            let follow =
                crate::cluster::follow_session(state, node, key, socket, shutdown.clone(), &viewer);
            if let Some((socket, h)) = follow.await {
                session(h, socket, shutdown, &viewer).await;
            }
            drop(place);
        }),
        (Located::Elsewhere(_), None) => return Err(crate::cluster::Node::moved(&key).into()),
    })
}

/// The game WebSockets one client address may have open at once (a page per game watched
/// or played; not counted for loopback, see `lib.rs`).
pub const MAX_GAME_SOCKETS_PER_CLIENT: usize = 64;

/// `GET /api/games/{key}/ws` query: the seat token, for the player (a WebSocket cannot carry
/// the header from a browser), and the protocol (1, the default, or 2).
#[derive(Deserialize)]
pub struct WsQuery {
    seat: Option<String>,
    protocol: Option<u8>,
}

/// Who is at the other end of a game's WebSocket: their seat token or else their account
/// (neither: a spectator), their address, and the protocol they asked for.
pub(crate) struct Viewer {
    pub(crate) seat: Option<String>,
    pub(crate) user: Option<UserId>,
    pub(crate) client: IpAddr,
    pub(crate) protocol: Protocol,
}

/// Tells the game that a player's connection closed when its session ends (also when the
/// session's task is cancelled).
struct LeaveOnDrop {
    handle: Arc<GameHandle>,
    color: Color,
}

impl LeaveOnDrop {
    fn new(handle: Arc<GameHandle>, color: Color) -> LeaveOnDrop {
        LeaveOnDrop { handle, color }
    }
}

impl Drop for LeaveOnDrop {
    fn drop(&mut self) {
        let (h, c) = (Arc::clone(&self.handle), self.color);
        // Drop cannot wait: the game is told from a task of its own (not at all when the
        // runtime is going away, when nobody is left to tell).
        if let Ok(rt) = tokio::runtime::Handle::try_current() {
            rt.spawn(async move { h.client_left(c).await });
        }
    }
}

/// One WebSocket client: the state at once (a paused game resumes if the client holds the
/// seat), then every event of its protocol and audience; in protocol 2 the client may ask for
/// the whole state again (`{"type": "state"}`).
async fn session(
    h: Arc<GameHandle>,
    mut socket: WebSocket,
    shutdown: tokio::sync::watch::Receiver<bool>,
    viewer: &Viewer,
) {
    let protocol = viewer.protocol;
    let sub = h.subscribe(protocol);
    let gone = h.gone_signal();
    let who = Actor {
        seat: viewer.seat.as_deref(),
        user: viewer.user,
        client: viewer.client,
        gone: None,
        reply: Reply::View,
    };
    let (first, color) = match h.client_connected(&who, protocol).await {
        Ok((v, color)) => (first_message(Ok(&v)), color),
        Err(e) => (first_message(Err(e.to_string())), None),
    };
    // The player's presence ends with the connection, however it ends.
    let _presence = color.map(|c| LeaveOnDrop::new(Arc::clone(&h), c));
    if socket
        .send(Message::Text(first.as_ref().into()))
        .await
        .is_err()
    {
        return;
    }
    let mut session = GameSocket {
        h,
        sub,
        gone,
        protocol,
        color,
    };
    let flood = Some(crate::http::ws_limits::Flood::default());
    socket::serve(&mut socket, &mut session, shutdown, flood).await;
}

/// A game's socket: the events of its protocol and audience.
struct GameSocket {
    h: Arc<GameHandle>,
    sub: crate::round::broadcast::Subscription,
    /// Turns true when another server takes the game over.
    gone: tokio::sync::watch::Receiver<bool>,
    protocol: Protocol,
    /// The colour whose seat the client holds.
    color: Option<Color>,
}

impl GameSocket {
    /// The whole state now.
    async fn state(&self) -> Next<()> {
        match self.h.view_for_socket(self.color, self.protocol).await {
            Ok(v) => Next::Send(first_message(Ok(&v)).to_string()),
            Err(_) => Next::Quiet,
        }
    }
}

impl Session for GameSocket {
    type Handoff = ();

    async fn next(&mut self) -> Next<()> {
        tokio::select! {
            event = self.sub.rx.recv() => match event {
                Ok(e) if e.for_socket(self.protocol, self.color) => Next::Send(e.text.to_string()),
                Ok(_) => Next::Quiet,
                // A client too slow for the events gets the whole state instead.
                Err(tokio::sync::broadcast::error::RecvError::Lagged(_)) => self.state().await,
                Err(tokio::sync::broadcast::error::RecvError::Closed) => Next::End(()),
            },
            // Another server took the game over: the client reconnects to it.
            _ = self.gone.changed() => Next::Close,
        }
    }

    async fn heard(&mut self, text: String) -> Next<()> {
        if self.protocol == Protocol::V2 && wants_state(&text) {
            self.state().await
        } else {
            Next::Quiet
        }
    }
}

/// True if a client's message asks for the whole state (`{"type": "state"}`).
pub(crate) fn wants_state(text: &str) -> bool {
    #[derive(Deserialize)]
    struct Ask<'a> {
        #[serde(rename = "type", borrow)]
        kind: std::borrow::Cow<'a, str>,
    }
    serde_json::from_str::<Ask<'_>>(text).is_ok_and(|a| a.kind == "state")
}
