//! Errors as the API reports them (`{"error": "...", "code": "..."}` with a 4xx or 5xx
//! status), and the JSON body extractor whose rejections name the field at fault. The message
//! is for people and may change; the code is for programs and does not (docs/api.md lists
//! them): a refused action on a game has a code of its own ([`code_of`]), any other error the
//! code of its status ([`status_code`]).

use crate::game::error::GameError;
use axum::extract::{FromRequest, Request};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::de::DeserializeOwned;

/// The largest request body accepted.
pub const BODY_LIMIT: usize = 1 << 20;

/// An error answer: a status and a message saying what went wrong, and where.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApiError {
    /// The HTTP status.
    pub status: StatusCode,
    /// The message.
    pub message: String,
    /// What went wrong, as a stable name for programs (`illegal_move`, `not_found`, ...).
    pub code: &'static str,
}

impl ApiError {
    /// Any status, with the code of that status.
    pub fn new(status: StatusCode, message: impl Into<String>) -> ApiError {
        ApiError {
            status,
            message: message.into(),
            code: status_code(status),
        }
    }

    /// The same error with a code of its own.
    pub fn with_code(mut self, code: &'static str) -> ApiError {
        self.code = code;
        self
    }

    /// 400: a malformed request.
    pub fn bad_request(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::BAD_REQUEST, message)
    }

    /// 413: a request body over [`BODY_LIMIT`].
    pub fn too_large() -> ApiError {
        ApiError::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            format!("the request body is larger than {BODY_LIMIT} bytes"),
        )
    }

    /// 404: no such game or route.
    pub fn not_found(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::NOT_FOUND, message)
    }

    /// 409: the request does not fit the game's state.
    pub fn conflict(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::CONFLICT, message)
    }

    /// 422: well-formed but illegal or invalid (a move, a FEN, a PGN).
    pub fn unprocessable(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::UNPROCESSABLE_ENTITY, message)
    }

    /// 429: too many of something from one client.
    pub fn too_many_requests(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::TOO_MANY_REQUESTS, message)
    }

    /// 500: the server's own failure (the store, a worker thread).
    pub fn internal(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, message)
    }
}

impl std::fmt::Display for ApiError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.status, self.message)
    }
}

impl From<chess960_store::StoreError> for ApiError {
    fn from(e: chess960_store::StoreError) -> ApiError {
        use chess960_store::StoreError;
        match e {
            StoreError::NoSuchGame(what) => {
                ApiError::not_found(format!("no game {what}")).with_code("no_such_game")
            }
            StoreError::NoSuchEvent(what) => {
                ApiError::not_found(format!("no event {what}")).with_code("no_such_event")
            }
            StoreError::NoSuchUser(what) => {
                ApiError::not_found(format!("no user {what}")).with_code("no_such_user")
            }
            StoreError::Conflict(what) => ApiError::conflict(what),
            other => ApiError::internal(format!("game database: {other}")).with_code("database"),
        }
    }
}

impl From<GameError> for ApiError {
    /// The edge between the game and HTTP: each refusal's status.
    fn from(e: GameError) -> ApiError {
        match e {
            // The store's own errors keep their mapping (unknown game, conflict, failure).
            GameError::Store(s) => ApiError::from(s),
            e => ApiError::new(status_of(&e), e.to_string()).with_code(code_of(&e)),
        }
    }
}

/// The code of an error that has none of its own: its status's.
pub fn status_code(status: StatusCode) -> &'static str {
    match status.as_u16() {
        400 => "bad_request",
        401 => "unauthorized",
        403 => "forbidden",
        404 => "not_found",
        405 => "method_not_allowed",
        408 => "request_timeout",
        409 => "conflict",
        413 => "too_large",
        415 => "unsupported_media_type",
        422 => "unprocessable",
        429 => "too_many_requests",
        503 => "unavailable",
        500..=599 => "internal",
        _ => "error",
    }
}

/// The code of a refused action on a game.
pub fn code_of(e: &GameError) -> &'static str {
    use crate::game::seat::SeatError;
    use GameError as E;
    match e {
        E::NoSuchGame { .. } => "no_such_game",
        E::Over { .. } => "game_over",
        E::StalePly { .. } => "stale_ply",
        E::NotYourTurn { .. } => "not_your_turn",
        E::WaitingForOpponent => "waiting_for_opponent",
        E::TooManyChallenges { .. } => "too_many_challenges",
        E::NotDeletable => "not_deletable",
        E::NoOpenSeat => "no_open_seat",
        E::RatedNeedsAccount => "rated_needs_account",
        E::AlreadySeated { .. } => "already_seated",
        E::NoOffer { .. } => "no_offer",
        E::NotAway { .. } => "not_away",
        E::NoRematch { .. } => "no_rematch",
        E::StillPlacing => "still_placing",
        E::StartNotPlaced => "start_not_placed",
        E::NotPlacing => "not_placing",
        E::NotYourPlacement => "not_your_placement",
        E::BadPlacement(_) => "bad_placement",
        E::YourTurn => "your_turn",
        E::NotAbortable => "not_abortable",
        E::BadStart(_) => "bad_start",
        E::IllegalMove(_) => "illegal_move",
        E::TakebackAfter(_) => "no_takeback",
        E::NothingToTakeBack => "nothing_to_take_back",
        E::NoDrawToClaim => "no_draw_to_claim",
        E::StillPlaying => "still_playing",
        E::BeyondGame { .. } => "beyond_game",
        E::Seat(SeatError::Missing) => "seat_missing",
        E::Seat(SeatError::Wrong) => "seat_wrong",
        E::Seat(SeatError::Unclaimed { .. }) => "no_seat",
        E::EngineUnavailable(_) => "engine_unavailable",
        E::Unreadable { .. } => "unreadable_game",
        E::Moved { .. } => "moved",
        E::Store(_) => "database",
        E::Worker(_) => "internal",
    }
}

/// The HTTP status of a refused action on a game.
fn status_of(e: &GameError) -> StatusCode {
    use GameError as E;
    match e {
        E::NoSuchGame { .. } => StatusCode::NOT_FOUND,
        E::Over { .. }
        | E::StalePly { .. }
        | E::NotYourTurn { .. }
        | E::WaitingForOpponent
        | E::NoOpenSeat
        | E::AlreadySeated { .. }
        | E::NoOffer { .. }
        | E::YourTurn
        | E::NotAbortable
        | E::NotAway { .. }
        | E::StillPlacing
        | E::StartNotPlaced
        | E::NotPlacing
        | E::NotYourPlacement
        | E::NoRematch { .. }
        | E::TakebackAfter(_)
        | E::NothingToTakeBack
        | E::NoDrawToClaim
        | E::StillPlaying => StatusCode::CONFLICT,
        E::BadStart(_) | E::IllegalMove(_) | E::BadPlacement(_) => StatusCode::UNPROCESSABLE_ENTITY,
        E::BeyondGame { .. } => StatusCode::BAD_REQUEST,
        E::Seat(_) | E::NotDeletable | E::RatedNeedsAccount => StatusCode::FORBIDDEN,
        E::EngineUnavailable(_) | E::Moved { .. } => StatusCode::SERVICE_UNAVAILABLE,
        E::TooManyChallenges { .. } => StatusCode::TOO_MANY_REQUESTS,
        E::Unreadable { .. } | E::Worker(_) | E::Store(_) => StatusCode::INTERNAL_SERVER_ERROR,
    }
}

impl ApiError {
    /// The JSON body of the answer: `{"error": ..., "code": ...}`.
    pub fn body(&self) -> serde_json::Value {
        serde_json::json!({ "error": self.message, "code": self.code })
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (self.status, Json(self.body())).into_response()
    }
}

/// The result of a handler.
pub type ApiResult<T> = Result<T, ApiError>;

/// A JSON request body of type `T`. Unlike axum's `Json`, every rejection is a JSON error:
/// 413 over [`BODY_LIMIT`], 400 for a body that is not JSON or does not fit `T`, naming the
/// field (`level.elo: invalid type: string "x", expected u32`). An empty body reads as `{}`,
/// so that actions without parameters may be posted without one. The content type is checked
/// before the request gets here, by the guard layer (`crate::http::guard`): a POST body that is not
/// `application/json` never reaches a handler.
pub struct JsonBody<T>(pub T);

impl<S: Send + Sync, T: DeserializeOwned> FromRequest<S> for JsonBody<T> {
    type Rejection = ApiError;

    async fn from_request(req: Request, _state: &S) -> Result<Self, Self::Rejection> {
        let bytes = crate::http::body::read(req.into_body()).await?;
        parse_json(&bytes).map(JsonBody)
    }
}

/// Reads `bytes` as a `T`, naming the field at fault in the error.
pub fn parse_json<T: DeserializeOwned>(bytes: &[u8]) -> ApiResult<T> {
    let text = if bytes.iter().all(u8::is_ascii_whitespace) {
        &b"{}"[..]
    } else {
        bytes
    };
    let de = &mut serde_json::Deserializer::from_slice(text);
    serde_path_to_error::deserialize(de).map_err(|e| {
        let path = e.path().to_string();
        let inner = e.into_inner();
        let what = if inner.is_syntax() || inner.is_eof() {
            format!("the request body is not valid JSON: {inner}")
        } else if path == "." || path.is_empty() {
            format!("the request body: {inner}")
        } else {
            format!("{path}: {inner}")
        };
        ApiError::bad_request(what)
    })
}
