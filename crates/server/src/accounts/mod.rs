//! Players' accounts on the server (docs/api.md, "Accounts"): registration, login and logout,
//! the player's sessions and password. Guests play as before, without any of it.
//!
//! A login gives the browser a session cookie ([`COOKIE`]: `HttpOnly`, `SameSite=Lax`,
//! `Secure` when the server is reached through HTTPS); the database keeps only the SHA-256 of
//! the session's id (`chess960_store::players`). Passwords are hashed with Argon2id
//! (`chess960_players::password`) on a blocking thread, never on the runtime's. A wrong
//! password and an unknown name get the same answer in the same time. Who may register is the
//! server's owner's choice ([`Registration`]).

pub mod limits;

use crate::api::Client;
use crate::error::{ApiError, ApiResult, JsonBody};
use crate::AppState;
use axum::extract::{FromRequestParts, Path, State};
use axum::http::request::Parts;
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use chess960_players::name::UserName;
use chess960_players::password::{self, NewPassword};
use chess960_players::registration::Registration;
use chess960_players::token;
use chess960_store::players::{NewUser, PlayerStore, Session, SessionId, User};
use chess960_store::{GameStore, StoreError};
use limits::LoginLimits;
use serde::{Deserialize, Serialize};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The session cookie's name.
pub const COOKIE: &str = "chess960_session";
/// How long a browser keeps the cookie (as long as an unused session lasts, 60 days).
const COOKIE_MAX_AGE: i64 = chess960_store::rules::SESSION_IDLE_MS / 1000;

/// The accounts' settings and state, shared by every request.
pub struct Accounts {
    /// Who may register.
    pub registration: Registration,
    /// Cookies are `Secure` (the server is reached through HTTPS).
    pub secure_cookies: bool,
    limits: LoginLimits,
    /// Passwords hashed or checked at once: each takes 19 MiB and tens of milliseconds of a
    /// core, so that many logins at once wait their turn instead of taking the machine's
    /// memory ([`HASHING_AT_ONCE`]).
    hashing: tokio::sync::Semaphore,
}

/// Passwords hashed or checked at once.
pub const HASHING_AT_ONCE: usize = 4;

impl Accounts {
    /// The accounts of a server with these settings.
    pub fn new(registration: Registration, secure_cookies: bool) -> Accounts {
        // An unknown user's login would otherwise make the decoy hash first (twice as long).
        password::prepare();
        Accounts {
            registration,
            secure_cookies,
            limits: LoginLimits::default(),
            hashing: tokio::sync::Semaphore::new(HASHING_AT_ONCE),
        }
    }

    /// The `Set-Cookie` value that gives the browser `session`'s id.
    fn cookie(&self, id: &str) -> HeaderValue {
        let secure = if self.secure_cookies { "; Secure" } else { "" };
        let text = format!(
            "{COOKIE}={id}; Path=/; HttpOnly; SameSite=Lax; Max-Age={COOKIE_MAX_AGE}{secure}"
        );
        HeaderValue::from_str(&text).expect("hex and ASCII")
    }

    /// The `Set-Cookie` value that removes the cookie.
    fn cleared(&self) -> HeaderValue {
        let secure = if self.secure_cookies { "; Secure" } else { "" };
        let text = format!("{COOKIE}=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0{secure}");
        HeaderValue::from_str(&text).expect("ASCII")
    }
}

/// A user as the API shows them: never a hash, a session or an email.
#[derive(Serialize, Debug)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct UserJson {
    /// The name, as its owner wrote it.
    pub name: String,
    /// The server's admin.
    pub admin: bool,
    /// When they registered (Unix milliseconds).
    pub created_ms: i64,
}

impl From<&User> for UserJson {
    fn from(u: &User) -> UserJson {
        UserJson {
            name: u.name.as_str().to_string(),
            admin: u.admin,
            created_ms: u.created_ms,
        }
    }
}

/// `GET /api/account`'s answer, and the answer to a login or a registration.
#[derive(Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct AccountJson {
    /// The user logged in, `null` for a guest.
    pub user: Option<UserJson>,
    /// Who may register on this server: `open`, `invite` or `closed`.
    pub registration: String,
}

/// One of the player's sessions.
#[derive(Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct SessionJson {
    /// How to name it to end it.
    pub id: i64,
    /// When it began (Unix milliseconds).
    pub created_ms: i64,
    /// When it was last used, to the minute.
    pub seen_ms: i64,
    /// The program that logged in, as it named itself.
    pub agent: String,
    /// The session of this request.
    pub current: bool,
}

/// `POST /api/account/register`'s body.
#[derive(Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(deny_unknown_fields)]
pub struct RegisterRequest {
    name: String,
    password: String,
    /// The invitation's code, on a server that asks for one.
    #[cfg_attr(test, ts(optional))]
    invite: Option<String>,
}

/// `POST /api/account/login`'s body.
#[derive(Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(deny_unknown_fields)]
pub struct LoginRequest {
    name: String,
    password: String,
}

/// `POST /api/account/password`'s body.
#[derive(Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(deny_unknown_fields)]
pub struct PasswordRequest {
    current: String,
    new: String,
}

/// The session of a request, from its cookie: the user and the session, or nobody.
pub struct Viewer(pub Option<(User, Session)>, Option<String>);

impl Viewer {
    /// The logged-in user's account; `None` for a guest.
    pub fn user(&self) -> Option<chess960_store::players::UserId> {
        self.0.as_ref().map(|(u, _)| u.id)
    }

    /// The user and session, or 401 for a guest.
    fn required(self) -> ApiResult<(User, Session)> {
        self.0.ok_or_else(|| {
            ApiError::new(StatusCode::UNAUTHORIZED, "log in first").with_code("not_logged_in")
        })
    }
}

/// The session id in the request's `Cookie` headers, if one looks like one.
fn session_cookie(headers: &HeaderMap) -> Option<String> {
    crate::http::guard::cookie_values(headers, COOKIE)
        .into_iter()
        .map(str::trim)
        .find(|v| v.len() == 64 && v.bytes().all(|b| b.is_ascii_hexdigit()))
        .map(str::to_string)
}

impl FromRequestParts<AppState> for Viewer {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> ApiResult<Viewer> {
        Viewer::of_headers(state, &parts.headers).await
    }
}

impl Viewer {
    /// The viewer of a request with these headers: its session cookie's user, if the session
    /// is alive.
    pub(crate) async fn of_headers(state: &AppState, headers: &HeaderMap) -> ApiResult<Viewer> {
        let Some(id) = session_cookie(headers) else {
            return Ok(Viewer(None, None));
        };
        let store = state.store();
        let hash = token::hash(&id);
        let found = blocking(move || players(&*store)?.session(&hash, now_ms())).await?;
        Ok(Viewer(found, Some(id)))
    }
}

/// The store's players, or a failure for a database that keeps none.
pub(crate) fn players(store: &dyn GameStore) -> Result<&dyn PlayerStore, StoreError> {
    store
        .player_store()
        .ok_or_else(|| StoreError::Backend("this database keeps no players".into()))
}

fn now_ms() -> i64 {
    chess960_round::record::now_ms()
}

/// Runs `f` (a store call, or a password's hashing) on a blocking thread: the games' helper
/// (`round::blocking`), its errors answered as the API answers the store's.
pub(crate) async fn blocking<T: Send + 'static>(
    f: impl FnOnce() -> Result<T, StoreError> + Send + 'static,
) -> ApiResult<T> {
    Ok(crate::round::blocking(f).await?)
}

/// [`blocking`] for work that hashes or checks a password: one of [`HASHING_AT_ONCE`].
async fn hashing<T: Send + 'static>(
    state: &AppState,
    f: impl FnOnce() -> Result<T, StoreError> + Send + 'static,
) -> ApiResult<T> {
    let _turn = state
        .accounts()
        .hashing
        .acquire()
        .await
        .map_err(|e| ApiError::internal(format!("the password workers stopped: {e}")))?;
    blocking(f).await
}

/// 429 with `Retry-After` for a wait.
fn too_soon(wait: Duration) -> Response {
    let secs = wait.as_secs_f64().ceil().max(1.0) as u64;
    let mut resp = ApiError::too_many_requests(format!(
        "too many wrong passwords for this account: try again in {secs} s"
    ))
    .with_code("login_delayed")
    .into_response();
    resp.headers_mut()
        .insert(header::RETRY_AFTER, HeaderValue::from(secs));
    resp
}

/// The answer that logs `user` in: a new session, its cookie, and the account.
async fn logged_in(
    state: &AppState,
    user: User,
    agent: String,
    status: StatusCode,
) -> ApiResult<Response> {
    let id = token::new_session_id()
        .map_err(|e| ApiError::internal(format!("no random numbers for a session: {e}")))?;
    let (store, hash, uid) = (state.store(), token::hash(&id), user.id);
    blocking(move || players(&*store)?.create_session(uid, &hash, &agent, now_ms())).await?;
    let accounts = state.accounts();
    let body = AccountJson {
        user: Some(UserJson::from(&user)),
        registration: accounts.registration.name().to_string(),
    };
    let mut resp = (status, Json(body)).into_response();
    resp.headers_mut()
        .insert(header::SET_COOKIE, accounts.cookie(&id));
    resp.headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    Ok(resp)
}

/// The program that asks, as it names itself (`User-Agent`).
fn agent_of(headers: &HeaderMap) -> String {
    headers
        .get(header::USER_AGENT)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
        .to_string()
}

/// `GET /api/account`: the user logged in (or `null`) and who may register.
pub async fn account(State(state): State<AppState>, viewer: Viewer) -> Json<AccountJson> {
    Json(AccountJson {
        user: viewer.0.as_ref().map(|(u, _)| UserJson::from(u)),
        registration: state.accounts().registration.name().to_string(),
    })
}

/// `POST /api/account/register`: 201 with the account and a session cookie.
pub async fn register(
    State(state): State<AppState>,
    client: Client,
    headers: HeaderMap,
    JsonBody(req): JsonBody<RegisterRequest>,
) -> ApiResult<Response> {
    let mode = state.accounts().registration;
    let invite = match (mode, req.invite.as_deref().map(str::trim)) {
        (Registration::Closed, _) => {
            return Err(ApiError::new(
                StatusCode::FORBIDDEN,
                "registration is closed on this server: its owner adds players (chess960 user add)",
            )
            .with_code("registration_closed"))
        }
        (Registration::Invite, None | Some("")) => {
            return Err(ApiError::new(
                StatusCode::FORBIDDEN,
                "this server registers by invitation: give the code its owner made (chess960 user invite)",
            )
            .with_code("invitation_needed"))
        }
        (Registration::Invite, Some(code)) => Some(token::hash(code)),
        (Registration::Open, _) => None,
    };
    let name: UserName = req
        .name
        .parse()
        .map_err(|e| ApiError::bad_request(format!("name: {e}")).with_code("bad_name"))?;
    let new = NewPassword::check(&req.password, &name)
        .map_err(|e| ApiError::bad_request(format!("password: {e}")).with_code("weak_password"))?;
    let store = state.store();
    let (n2, now) = (name.clone(), now_ms());
    let user = hashing(&state, move || {
        let hash = new.hash().map_err(|e| StoreError::Backend(e.to_string()))?;
        let new_user = NewUser {
            name: &n2,
            password: &hash,
            admin: false,
            invite: invite.as_deref(),
        };
        players(&*store)?.create_user(&new_user, now)
    })
    .await
    .map_err(|e| match e.status {
        StatusCode::CONFLICT if e.message.contains("invitation") => {
            ApiError::new(StatusCode::FORBIDDEN, e.message).with_code("bad_invitation")
        }
        StatusCode::CONFLICT => e.with_code("name_taken"),
        _ => e,
    })?;
    // Registering from an address is as good as a login from it.
    state.accounts().limits.succeeded(&name.key(), client.0);
    logged_in(&state, user, agent_of(&headers), StatusCode::CREATED).await
}

/// `POST /api/account/login`: the account and a session cookie; 401 for a wrong name or
/// password (the same answer for both).
pub async fn login(
    State(state): State<AppState>,
    client: Client,
    headers: HeaderMap,
    JsonBody(req): JsonBody<LoginRequest>,
) -> ApiResult<Response> {
    let wrong =
        || ApiError::new(StatusCode::UNAUTHORIZED, "wrong name or password").with_code("bad_login");
    // A text that is no user name is no account: it is answered as an unknown name would be
    // (after the same work), and never kept, so that the limits hold only real names.
    let Ok(name) = req.name.parse::<UserName>() else {
        let password = req.password;
        hashing(&state, move || Ok(password::verify(&password, None))).await?;
        return Err(wrong());
    };
    let key = name.key();
    let limits = &state.accounts().limits;
    if let Err(wait) = limits.account(&key, client.0, Instant::now()) {
        return Ok(too_soon(wait));
    }
    let store = state.store();
    let name = name.as_str().to_string();
    let password = req.password;
    // The record is read and the password checked on one blocking thread: an unknown name
    // is checked against the decoy hash, in the same time.
    let found = hashing(&state, move || {
        let record = players(&*store)?.login_record(&name)?;
        let right = password::verify(&password, record.as_ref().map(|(_, h)| h));
        Ok(record.filter(|_| right).map(|(u, _)| u))
    })
    .await?;
    let Some(user) = found else {
        limits.failed(&key, Instant::now());
        return Err(wrong());
    };
    limits.succeeded(&key, client.0);
    logged_in(&state, user, agent_of(&headers), StatusCode::OK).await
}

/// `POST /api/account/logout`: ends the session of the request; 204, the cookie removed.
pub async fn logout(State(state): State<AppState>, viewer: Viewer) -> ApiResult<Response> {
    if let Some(id) = viewer.1 {
        let (store, hash) = (state.store(), token::hash(&id));
        blocking(move || players(&*store)?.end_session_by_hash(&hash)).await?;
    }
    let mut resp = StatusCode::NO_CONTENT.into_response();
    resp.headers_mut()
        .insert(header::SET_COOKIE, state.accounts().cleared());
    Ok(resp)
}

/// `GET /api/account/sessions`: the player's sessions, the most recently used first.
pub async fn sessions(
    State(state): State<AppState>,
    viewer: Viewer,
) -> ApiResult<Json<Vec<SessionJson>>> {
    let (user, current) = viewer.required()?;
    let store = state.store();
    let list = blocking(move || players(&*store)?.sessions(user.id)).await?;
    Ok(Json(
        list.into_iter()
            .map(|s| SessionJson {
                id: s.id.0,
                created_ms: s.created_ms,
                seen_ms: s.seen_ms,
                current: s.id == current.id,
                agent: s.agent,
            })
            .collect(),
    ))
}

/// `DELETE /api/account/sessions/{id}`: ends one of the player's sessions; 204, or 404.
pub async fn end_session(
    State(state): State<AppState>,
    Path(id): Path<String>,
    viewer: Viewer,
) -> ApiResult<StatusCode> {
    let (user, _) = viewer.required()?;
    let id: i64 = id
        .trim()
        .parse()
        .map_err(|_| ApiError::not_found("no such session"))?;
    let store = state.store();
    let ended = blocking(move || players(&*store)?.end_session(user.id, SessionId(id))).await?;
    if ended {
        Ok(StatusCode::NO_CONTENT)
    } else {
        Err(ApiError::not_found("no such session").with_code("no_such_session"))
    }
}

/// `POST /api/account/password`: a new password, given the current one; the player's other
/// sessions end. 204.
pub async fn change_password(
    State(state): State<AppState>,
    client: Client,
    viewer: Viewer,
    JsonBody(req): JsonBody<PasswordRequest>,
) -> ApiResult<Response> {
    let (user, session) = viewer.required()?;
    let key = user.name.key();
    let limits = &state.accounts().limits;
    if let Err(wait) = limits.account(&key, client.0, Instant::now()) {
        return Ok(too_soon(wait));
    }
    let new = NewPassword::check(&req.new, &user.name)
        .map_err(|e| ApiError::bad_request(format!("new: {e}")).with_code("weak_password"))?;
    let store = state.store();
    let name = user.name.as_str().to_string();
    let changed = hashing(&state, move || {
        let players = players(&*store)?;
        let record = players.login_record(&name)?;
        if !password::verify(&req.current, record.as_ref().map(|(_, h)| h)) {
            return Ok(false);
        }
        let hash = new.hash().map_err(|e| StoreError::Backend(e.to_string()))?;
        players.set_password(user.id, &hash)?;
        players.end_sessions(user.id, Some(session.id))?;
        Ok(true)
    })
    .await?;
    if !changed {
        limits.failed(&key, Instant::now());
        return Err(
            ApiError::new(StatusCode::UNAUTHORIZED, "current: wrong password")
                .with_code("bad_login"),
        );
    }
    Ok(StatusCode::NO_CONTENT.into_response())
}

/// The shared accounts of a state.
pub(crate) type Shared = Arc<Accounts>;
