//! Events for arbiters over HTTP (docs/api.md, "Events"): anyone with an event's key sees it
//! (players, each round's position with its draw, pairings, results, standings: what the
//! hall's projector and the players' phones show); changing it needs the arbiter's token that
//! `POST /api/events` gave its creator, in the `X-Arbiter-Token` header. The server keeps only
//! the token's SHA-256, as for seats.
//!
//! Every change loads the event, applies one checked operation of `chess960-events` and saves
//! it over the revision it read: a refused operation writes nothing, and two arbiters cannot
//! overwrite each other unseen (409).

use crate::api::Client;
use crate::error::{ApiError, ApiResult, JsonBody};
use crate::game::seat;
use crate::secret::same_secret;
use crate::AppState;
use axum::extract::rejection::PathRejection;
use axum::extract::{Path, Query, State};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use chess960_core::StartId;
use chess960_events::accel::Acceleration;
use chess960_events::event::{
    BoardResult, ByeRequest, DrawSpec, Event, EventError, Format, Player, Side, Tiebreak,
};
use chess960_events::export::{to_pgn, to_trf};
use chess960_events::knockout::{KnockoutPlan, MatchState, MatchView, Seeding, Stage, StageKind};
use chess960_events::standings::{crosstable_cell, standings};
use chess960_events::swiss::Progress;
use chess960_events::trf;
use chess960_players::speed::Speed;
use chess960_store::events::write_lock;
use chess960_store::{GameStore, StoredEvent};
use serde::Deserialize;
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// The request header that carries the arbiter's token.
pub const HEADER: &str = "x-arbiter-token";

/// The pairings this process is computing, by event key: how far each has come, for the
/// event's view (a round of a thousand players takes most of a minute).
static PAIRING_NOW: Mutex<BTreeMap<String, PairingNow>> = Mutex::new(BTreeMap::new());

/// One pairing under way.
#[derive(Clone, Copy)]
struct PairingNow {
    round: u32,
    progress: Progress,
    started: Instant,
}

/// Shows a pairing in the event's view while it lives (also when the pairing fails or
/// panics).
struct PairingShown(String);

impl PairingShown {
    fn start(key: &str, round: u32, players: usize) -> PairingShown {
        let now = PairingNow {
            round,
            progress: Progress {
                settled: 0,
                players,
            },
            started: Instant::now(),
        };
        pairing_now().insert(key.to_string(), now);
        PairingShown(key.to_string())
    }

    fn update(&self, progress: Progress) {
        if let Some(p) = pairing_now().get_mut(&self.0) {
            p.progress = progress;
        }
    }
}

impl Drop for PairingShown {
    fn drop(&mut self) {
        pairing_now().remove(&self.0);
    }
}

fn pairing_now() -> std::sync::MutexGuard<'static, BTreeMap<String, PairingNow>> {
    PAIRING_NOW.lock().unwrap_or_else(|p| p.into_inner())
}

/// The view's `pairing`: the pairing of this event under way in this process, or null.
fn pairing_json(key: &str) -> Value {
    match pairing_now().get(key) {
        Some(p) => json!({
            "round": p.round,
            "settled": p.progress.settled,
            "players": p.progress.players,
            "seconds": (p.started.elapsed().as_secs_f64() * 10.0).round() / 10.0,
        }),
        None => Value::Null,
    }
}

/// Pairings computed at once: a round of a big open takes seconds of a core, so they run
/// on a bounded number of the blocking pool's threads, the others waiting their turn.
static PAIRINGS: tokio::sync::Semaphore = tokio::sync::Semaphore::const_new(2);

pub(crate) fn event_err(e: EventError) -> ApiError {
    match e {
        EventError::UnknownPlayer(_)
        | EventError::NoSuchRound(_)
        | EventError::NoSuchBoard { .. } => ApiError::not_found(e.to_string()),
        EventError::AlreadyPaired(_)
        | EventError::NotPaired(_)
        | EventError::NotNext { .. }
        | EventError::ResultsMissing { .. }
        | EventError::MatchUndecided { .. }
        | EventError::NothingTied(_)
        | EventError::Pairing(_) => ApiError::conflict(e.to_string()),
        EventError::Position(_) | EventError::Invalid(_) => ApiError::bad_request(e.to_string()),
    }
}

pub(crate) fn no_events() -> ApiError {
    ApiError::new(
        StatusCode::NOT_IMPLEMENTED,
        "this server's database keeps no events",
    )
}

pub(crate) fn load(store: &dyn GameStore, key: &str) -> Result<StoredEvent, ApiError> {
    let events = store.event_store().ok_or_else(no_events)?;
    if key.len() != 32 || !key.bytes().all(|b| b.is_ascii_hexdigit()) {
        return Err(ApiError::not_found(format!("no event {key}")));
    }
    events.event(key).map_err(ApiError::from)
}

/// Checks the arbiter's token against the event's.
pub(crate) fn check_arbiter(stored: &StoredEvent, headers: &HeaderMap) -> Result<(), ApiError> {
    let Some(hash) = &stored.arbiter_hash else {
        return Err(ApiError::new(
            StatusCode::FORBIDDEN,
            "this event was made on the command line: change it there (chess960 event)",
        ));
    };
    let given = headers
        .get(HEADER)
        .and_then(|v| v.to_str().ok())
        .map(str::trim)
        .unwrap_or("");
    if given.is_empty() {
        return Err(ApiError::new(
            StatusCode::FORBIDDEN,
            "changing an event needs its arbiter token (header X-Arbiter-Token)",
        ));
    }
    if !same_secret(seat::hash(given).as_bytes(), hash.as_bytes()) {
        return Err(ApiError::new(
            StatusCode::FORBIDDEN,
            "the arbiter token is not this event's",
        ));
    }
    Ok(())
}

/// The arbiter's token as sent (checked by [`check_arbiter`] before it is used).
fn given_token(headers: &HeaderMap) -> String {
    headers
        .get(HEADER)
        .and_then(|v| v.to_str().ok())
        .map(str::trim)
        .unwrap_or("")
        .to_string()
}

/// HMAC-SHA256 (RFC 2104) of `message` under `key`.
fn hmac_sha256(key: &[u8], message: &[u8]) -> [u8; 32] {
    use sha2::{Digest, Sha256};
    let mut block = [0u8; 64];
    if key.len() > block.len() {
        block[..32].copy_from_slice(&Sha256::digest(key));
    } else {
        block[..key.len()].copy_from_slice(key);
    }
    let mut inner = Sha256::new();
    inner.update(block.map(|b| b ^ 0x36));
    inner.update(message);
    let inner = inner.finalize();
    let mut outer = Sha256::new();
    outer.update(block.map(|b| b ^ 0x5c));
    outer.update(inner);
    let mut out = [0u8; 32];
    out.copy_from_slice(&outer.finalize());
    out
}

/// The seat token of one colour of an event's game, derived from the arbiter's token: the
/// first 128 bits of HMAC-SHA256 under the arbiter's token of the event, the round, the board,
/// both players and the colour, as 32 hex digits (a seat token's form). Only whoever holds the
/// arbiter's token can make it, and the server stores neither (only their SHA-256), so the
/// arbiter can show a board's links again (`GET …/rounds/{r}/links`) without the server
/// keeping a secret it could leak. A board paired anew with other players gets other tokens.
fn event_seat_token(
    arbiter_token: &str,
    event: &str,
    round: u32,
    board: u32,
    players: (usize, usize),
    white: bool,
) -> String {
    let message = format!(
        "chess960 event seat 1\n{event}\n{round}\n{board}\n{}\n{}\n{}",
        players.0,
        players.1,
        if white { "white" } else { "black" }
    );
    let mac = hmac_sha256(arbiter_token.as_bytes(), message.as_bytes());
    crate::secret::hex(&mac[..16])
}

/// A player's link to their seat.
fn seat_link(game: &str, token: &str, white: bool) -> String {
    let color = if white { "white" } else { "black" };
    format!("/game/{game}#seat={token}&color={color}")
}

/// Runs `f` on a blocking thread (the store is synchronous).
pub(crate) async fn job<T: Send + 'static>(
    f: impl FnOnce() -> Result<T, ApiError> + Send + 'static,
) -> ApiResult<T> {
    tokio::task::spawn_blocking(f)
        .await
        .map_err(|e| ApiError::internal(format!("worker: {e}")))?
}

/// Loads, checks the token, applies `change`, saves; the event's view after the change.
async fn change(
    state: &AppState,
    key: String,
    headers: HeaderMap,
    change: impl FnOnce(&mut Event) -> Result<(), EventError> + Send + 'static,
) -> ApiResult<Json<Value>> {
    let (view, ()) = change_with(state, key, headers, change).await?;
    Ok(Json(view))
}

/// As [`change`], giving also what `change` answered.
pub(crate) async fn change_with<T: Send + 'static>(
    state: &AppState,
    key: String,
    headers: HeaderMap,
    change: impl FnOnce(&mut Event) -> Result<T, EventError> + Send + 'static,
) -> ApiResult<(Value, T)> {
    let store = Arc::clone(&state.games().ctx().store);
    let event = key.clone();
    let (view, out) = job(move || {
        let _one = write_lock(&key);
        let mut stored = load(store.as_ref(), &key)?;
        check_arbiter(&stored, &headers)?;
        chess960_store::events::take_results(store.as_ref(), &mut stored.event)?;
        let out = change(&mut stored.event).map_err(event_err)?;
        let events = store.event_store().ok_or_else(no_events)?;
        stored.revision = events.save_event(stored.id, stored.revision, &stored.event)?;
        Ok((view(&stored), out))
    })
    .await?;
    // An engine event that waited for its arbiter (a person's result, a tiebreak entered by
    // hand) goes on by itself once the arbiter has acted.
    if view["engines_play"] == true {
        // Refused only while too many events play: this one starts with its next change, or
        // the next start of the server.
        let _ = state.championships().start(&event);
    }
    Ok((view, out))
}

/// As [`change`], for a change that takes long (a pairing): computed under no lock, on one
/// of [`PAIRINGS`]' places, and saved over the revision it read, so that other events, and
/// other requests on this one, never wait for it; an arbiter who changed the event
/// meanwhile wins the race, and the pairing is refused (409) to be asked for again.
async fn change_long(
    state: &AppState,
    key: String,
    headers: HeaderMap,
    change: impl FnOnce(&mut Event) -> Result<(), EventError> + Send + 'static,
) -> ApiResult<Json<Value>> {
    let _place = PAIRINGS
        .acquire()
        .await
        .map_err(|e| ApiError::internal(format!("pairing: {e}")))?;
    let store = Arc::clone(&state.games().ctx().store);
    let view = job(move || {
        let mut stored = load(store.as_ref(), &key)?;
        check_arbiter(&stored, &headers)?;
        chess960_store::events::take_results(store.as_ref(), &mut stored.event)?;
        change(&mut stored.event).map_err(event_err)?;
        let _one = write_lock(&key);
        let events = store.event_store().ok_or_else(no_events)?;
        stored.revision = events
            .save_event(stored.id, stored.revision, &stored.event)
            .map_err(|e| match e {
                chess960_store::StoreError::Conflict(_) => ApiError::conflict(
                    "the event changed while this round was paired (another change came \
                     first): pair it again",
                ),
                e => ApiError::from(e),
            })?;
        Ok(view(&stored))
    })
    .await?;
    Ok(Json(view))
}

/// A position as the pages show it.
fn position_json(id: u16) -> Value {
    // A stored document is read as it is: a number out of range shows as none.
    let Ok(s) = StartId::new(id as u32) else {
        return Value::Null;
    };
    json!({"id": id, "back_rank": s.back_rank().to_string(), "fen": s.position().fen()})
}

/// A position's draw as the view shows it: the position, how it was drawn and the steps.
fn draw_json(d: &chess960_events::position::PositionDraw) -> Value {
    json!({
        "position": position_json(d.id),
        "how": d.how,
        "steps": d.steps,
    })
}

/// A stage's name as the pages title it: `Games` for a match's regular games.
fn stage_label(kind: Option<StageKind>) -> &'static str {
    match kind {
        None => "Games",
        Some(StageKind::Rapid) => "Rapid",
        Some(StageKind::Blitz) => "Blitz",
        Some(StageKind::Armageddon) => "Armageddon",
        Some(StageKind::Games) => "More games",
    }
}

/// One match of the bracket, players as their numbers (entry order, from 1).
fn match_json(m: &MatchView) -> Value {
    let (state, stage) = match m.state {
        MatchState::Waiting => ("waiting", None),
        MatchState::Bye { .. } => ("bye", None),
        MatchState::Unpaired => ("unpaired", None),
        MatchState::Playing { stage } => ("playing", Some(stage)),
        MatchState::Tied { next_stage } => ("tied", Some(next_stage)),
        MatchState::Won { stage, .. } => ("won", Some(stage)),
    };
    json!({
        "number": m.number,
        "first": m.first.map(|p| p + 1),
        "second": m.second.map(|p| p + 1),
        "state": state,
        "stage": stage,
        "winner": m.winner().map(|p| p + 1),
        "stages": m.stages.iter().map(|s| json!({
            "stage": s.stage,
            "kind": s.kind.map(StageKind::name),
            "label": stage_label(s.kind),
            "boards": s.boards,
            "points": [s.points.0 as f64 / 10.0, s.points.1 as f64 / 10.0],
            "complete": s.complete,
        })).collect::<Vec<_>>(),
    })
}

/// The view's `knockout`: the plan, the bracket, the champion and the placings; null for
/// other formats.
fn knockout_json(e: &Event) -> Value {
    let Some(plan) = e.knockout_plan() else {
        return Value::Null;
    };
    // Computed once: the champion is the final's winner (as `knockout::champion` has it).
    let br = e.bracket();
    let champion = br
        .last()
        .and_then(|f| f.first())
        .and_then(MatchView::winner);
    json!({
        "games": plan.games,
        "seeding": match plan.seeding {
            Seeding::Rating => "rating",
            Seeding::Lot => "lot",
        },
        "tiebreaks": plan.tiebreaks.iter().map(|t| json!({
            "kind": t.kind.name(),
            "games": t.games,
            "time_control": t.time_control,
            "label": t.to_string(),
        })).collect::<Vec<_>>(),
        "description": plan.describe(),
        "bracket": br
            .iter()
            .map(|ms| ms.iter().map(match_json).collect::<Vec<_>>())
            .collect::<Vec<_>>(),
        "champion": champion.map(|p| p + 1),
        "placings": e.placings().iter().map(|&(p, first, last)| json!({
            "player": p + 1,
            "first": first,
            "last": last,
        })).collect::<Vec<_>>(),
    })
}

/// The event as the pages read it.
pub fn view(s: &StoredEvent) -> Value {
    let e = &s.event;
    let table = standings(e);
    let number = |i: usize| e.pairing_number(i).unwrap_or(i + 1);
    let next = e.rounds_paired() + 1;
    json!({
        "key": s.key,
        "revision": s.revision,
        "name": e.name,
        "city": e.city,
        "start_date": e.start_date,
        "end_date": e.end_date,
        "arbiter": e.arbiter,
        "time_control": e.time_control,
        "format": match e.format {
            Format::Swiss => "swiss",
            Format::RoundRobin { cycles: 1 } => "round_robin",
            Format::RoundRobin { .. } => "double_round_robin",
            Format::Knockout(_) => "knockout",
        },
        "knockout": knockout_json(e),
        "rounds": e.total_rounds(),
        "rounds_paired": e.rounds_paired(),
        "pairing": pairing_json(&s.key),
        "next_round": (next <= e.total_rounds()).then_some(next),
        "positions": {
            "exclude_518": e.positions.rules.exclude_518,
            "no_repeat": e.positions.rules.no_repeat,
            "per_board": e.positions.per_board,
            "second_cycle_repeats": e.positions.second_cycle_repeats,
            "list": e.positions.list,
        },
        "tiebreaks": e.tiebreaks.iter().map(|t| t.name()).collect::<Vec<_>>(),
        "acceleration": e.acceleration.name(),
        "engines_play": e.engines_play,
        "players": e.players.iter().enumerate().map(|(i, p)| json!({
            "number": i + 1,
            "name": p.name,
            "engine": p.engine,
            "rating": p.rating,
            "fide_id": p.fide_id,
            "federation": p.federation,
            "title": p.title,
            "account": p.account,
            "pairing_number": e.pairing_number(i),
            "joined": p.joined,
            "withdrawn": p.withdrawn,
            "byes": p.byes.iter().map(|(r, k)| json!({"round": r, "kind": k})).collect::<Vec<_>>(),
            "points": e.score(i) as f64 / 10.0,
        })).collect::<Vec<_>>(),
        "round_list": e.played.iter().enumerate().map(|(k, r)| {
            let round = k as u32 + 1;
            json!({
                "round": round,
                "paired": r.paired,
                "draw": r.draw.as_ref().map(draw_json),
                // A knockout's tiebreak stages' positions (stage 1 first).
                "stage_draws": r.stage_draws.iter().enumerate().map(|(k, d)| {
                    let mut v = draw_json(d);
                    v["stage"] = json!(k + 1);
                    v
                }).collect::<Vec<_>>(),
                "boards": r.boards.iter().enumerate().map(|(j, b)| json!({
                    "board": j + 1,
                    "white": b.white.saturating_add(1),
                    "black": b.black.saturating_add(1),
                    "result": b.result.map(BoardResult::text),
                    "position": e.board_position(round, j as u32 + 1).map(position_json),
                    "game": b.game,
                    "match": b.slot.map(|s| s.match_no),
                    "stage": b.slot.map(|s| s.stage),
                    "time_control": e.board_time_control(round, j as u32 + 1),
                })).collect::<Vec<_>>(),
                "byes": r.byes.iter().map(|(p, k)| json!({"player": p + 1, "kind": k})).collect::<Vec<_>>(),
            })
        }).collect::<Vec<_>>(),
        "standings": table.iter().map(|t| json!({
            "place": t.place,
            "player": t.player + 1,
            "points": t.points as f64 / 10.0,
            "tiebreaks": t.tiebreaks.iter().map(|v| v.map(|x| x as f64 / 100.0)).collect::<Vec<_>>(),
            // Per paired round: the opponent's pairing number, colour and result (`12w1`).
            "crosstable": (0..e.rounds_paired() as usize)
                .map(|r| crosstable_cell(e, r, t.player, &number))
                .collect::<Vec<_>>(),
        })).collect::<Vec<_>>(),
    })
}

/// `POST /api/events` body.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewEventIn {
    name: String,
    /// `swiss`, `round_robin`, `double_round_robin` or `knockout`.
    format: String,
    rounds: Option<u32>,
    /// A knockout's plan (`format: knockout` only); missing fields take the defaults.
    #[serde(default)]
    knockout: Option<KnockoutIn>,
    #[serde(default)]
    time_control: String,
    #[serde(default)]
    city: String,
    #[serde(default)]
    start_date: String,
    #[serde(default)]
    end_date: String,
    #[serde(default)]
    arbiter: String,
    tiebreaks: Option<Vec<String>>,
    #[serde(default)]
    exclude_518: bool,
    #[serde(default)]
    no_repeat: bool,
    #[serde(default)]
    per_board: bool,
    #[serde(default)]
    second_cycle_repeats: bool,
    #[serde(default)]
    positions: Vec<u16>,
    /// Accelerated pairings of a Swiss: `none` (the default) or `baku` (FIDE C.04.5.1).
    #[serde(default)]
    acceleration: Option<String>,
}

/// `POST /api/events`' `knockout`: how a knockout is played ([`KnockoutPlan`]); what is left
/// out is the plan's default (2 games, by rating, rapid, blitz and Armageddon tiebreaks).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct KnockoutIn {
    /// Games of a match before its tiebreaks.
    games: Option<u32>,
    /// `rating` or `lot`.
    seeding: Option<Seeding>,
    /// The tiebreak stages in order (`[]`: none; the regular games repeat).
    tiebreaks: Option<Vec<StageIn>>,
}

/// One tiebreak stage of [`KnockoutIn`].
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StageIn {
    /// `rapid`, `blitz`, `armageddon` or `games`.
    kind: StageKind,
    /// Its games: 1 for an Armageddon, 2 for the others when left out.
    games: Option<u32>,
    /// As announced (`10+5`).
    #[serde(default)]
    time_control: String,
}

impl KnockoutIn {
    /// The plan, checked; the error names the field.
    fn plan(self) -> Result<KnockoutPlan, ApiError> {
        let default = KnockoutPlan::default();
        let plan = KnockoutPlan {
            games: self.games.unwrap_or(default.games),
            seeding: self.seeding.unwrap_or(default.seeding),
            tiebreaks: match self.tiebreaks {
                None => default.tiebreaks,
                Some(t) => t
                    .into_iter()
                    .map(|s| Stage {
                        games: s.games.unwrap_or(if s.kind == StageKind::Armageddon {
                            1
                        } else {
                            2
                        }),
                        kind: s.kind,
                        time_control: s.time_control.trim().to_string(),
                    })
                    .collect(),
            },
        };
        plan.check().map_err(|why| {
            let field = if !(1..=chess960_events::knockout::MAX_STAGE_GAMES).contains(&plan.games) {
                "knockout.games"
            } else {
                "knockout.tiebreaks"
            };
            ApiError::bad_request(format!("{field}: {why}"))
        })?;
        Ok(plan)
    }
}

fn date(what: &str, d: &str) -> Result<String, ApiError> {
    let d = d.trim();
    let ok = d.is_empty()
        || (d.len() == 10
            && d.chars().enumerate().all(|(i, c)| {
                if i == 4 || i == 7 {
                    c == '-'
                } else {
                    c.is_ascii_digit()
                }
            }));
    if !ok {
        return Err(ApiError::bad_request(format!("{what}: YYYY-MM-DD")));
    }
    Ok(d.to_string())
}

fn short(what: &str, s: &str) -> Result<String, ApiError> {
    if s.chars().count() > chess960_events::event::MAX_TEXT || s.chars().any(char::is_control) {
        return Err(ApiError::bad_request(format!(
            "{what}: at most {} characters, no control characters",
            chess960_events::event::MAX_TEXT
        )));
    }
    Ok(s.trim().to_string())
}

/// `POST /api/events`: a new event; the answer holds the arbiter's token, once.
pub async fn create(
    State(state): State<AppState>,
    JsonBody(body): JsonBody<NewEventIn>,
) -> ApiResult<(StatusCode, Json<Value>)> {
    let mut knockout = body.knockout;
    let format = match body.format.trim() {
        "swiss" => Format::Swiss,
        "round_robin" => Format::RoundRobin { cycles: 1 },
        "double_round_robin" => Format::RoundRobin { cycles: 2 },
        "knockout" => Format::Knockout(
            knockout
                .take()
                .map_or_else(|| Ok(KnockoutPlan::default()), KnockoutIn::plan)?,
        ),
        other => {
            return Err(ApiError::bad_request(format!(
                "format: {:?} (swiss, round_robin, double_round_robin or knockout)",
                crate::create::request::clip(other)
            )))
        }
    };
    if knockout.is_some() {
        return Err(ApiError::bad_request(
            "knockout: a plan for format knockout only",
        ));
    }
    let rounds = match (&format, body.rounds) {
        (Format::Swiss, Some(r)) => r,
        (Format::Swiss, None) => {
            return Err(ApiError::bad_request(
                "rounds: a Swiss needs its number of rounds",
            ))
        }
        _ => 0,
    };
    let mut coin = [0u8; 1];
    getrandom::fill(&mut coin)
        .map_err(|e| ApiError::internal(format!("no random numbers: {e}")))?;
    let side = if coin[0] & 1 == 0 {
        Side::White
    } else {
        Side::Black
    };
    let mut e = Event::new(&body.name, format, rounds, side).map_err(event_err)?;
    e.time_control = short("time_control", &body.time_control)?;
    e.city = short("city", &body.city)?;
    e.arbiter = short("arbiter", &body.arbiter)?;
    e.start_date = date("start_date", &body.start_date)?;
    e.end_date = date("end_date", &body.end_date)?;
    if let Some(t) = &body.tiebreaks {
        if t.len() > Tiebreak::ALL.len() {
            return Err(ApiError::bad_request("tiebreaks: at most one of each"));
        }
        e.tiebreaks = t
            .iter()
            .map(|x| {
                Tiebreak::parse(x).ok_or_else(|| {
                    ApiError::bad_request(format!("tiebreaks: {x:?} (bh, bh-c1, sb, de, wins)"))
                })
            })
            .collect::<ApiResult<_>>()?;
    }
    e.positions.rules.exclude_518 = body.exclude_518;
    e.positions.rules.no_repeat = body.no_repeat;
    e.positions.per_board = body.per_board;
    e.positions.second_cycle_repeats =
        body.second_cycle_repeats && e.format == Format::RoundRobin { cycles: 2 };
    if body.positions.len() > chess960_events::event::MAX_ROUNDS as usize
        || body.positions.iter().any(|&p| p > 959)
    {
        return Err(ApiError::bad_request(
            "positions: at most 99 IDs, each 0..959",
        ));
    }
    e.positions.list = body.positions;
    if let Some(a) = &body.acceleration {
        let method = match Acceleration::parse(a) {
            Some(x @ (Acceleration::None | Acceleration::Baku)) => x,
            _ => {
                return Err(ApiError::bad_request(format!(
                    "acceleration: {:?} (none or baku)",
                    crate::create::request::clip(a)
                )))
            }
        };
        e.set_acceleration(method)
            .map_err(|x| ApiError::bad_request(format!("acceleration: {x}")))?;
    }
    let token =
        seat::new_token().map_err(|x| ApiError::internal(format!("no random numbers: {x}")))?;
    let hash = seat::hash(&token);
    let store = Arc::clone(&state.games().ctx().store);
    let stored = job(move || {
        let events = store.event_store().ok_or_else(no_events)?;
        Ok(events.create_event(&e, Some(&hash))?)
    })
    .await?;
    let mut v = view(&stored);
    v["arbiter_token"] = json!(token);
    Ok((StatusCode::CREATED, Json(v)))
}

/// `GET /api/events`.
pub async fn list(State(state): State<AppState>) -> ApiResult<Json<Value>> {
    let store = Arc::clone(&state.games().ctx().store);
    let list = job(move || match store.event_store() {
        Some(s) => Ok(s.events()?),
        None => Ok(Vec::new()),
    })
    .await?;
    Ok(Json(json!({"events": list.iter().map(|s| json!({
        "key": s.key, "name": s.name, "format": s.format, "players": s.players,
        "rounds_paired": s.rounds_paired, "rounds": s.rounds, "updated_ms": s.updated_ms,
    })).collect::<Vec<_>>()})))
}

/// `GET /api/events/{key}`.
pub async fn get(State(state): State<AppState>, Path(key): Path<String>) -> ApiResult<Json<Value>> {
    let store = Arc::clone(&state.games().ctx().store);
    let v = job(move || {
        let mut s = load(store.as_ref(), &key)?;
        // Results of games finished on the server since the last look go in (and are kept).
        if s.event
            .played
            .iter()
            .flat_map(|r| &r.boards)
            .any(|b| b.game.is_some() && b.result.is_none())
        {
            let _one = write_lock(&key);
            s = load(store.as_ref(), &key)?;
            if chess960_store::events::take_results(store.as_ref(), &mut s.event)? > 0 {
                let events = store.event_store().ok_or_else(no_events)?;
                s.revision = events.save_event(s.id, s.revision, &s.event)?;
            }
        }
        Ok(view(&s))
    })
    .await?;
    Ok(Json(v))
}

/// `POST /api/events/{key}/players` body.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlayerIn {
    /// The name; the account's when left out with `account`.
    #[serde(default)]
    name: String,
    /// A player's account on this server: the event's games on the server are bound to it,
    /// and its rating in the event's speed class is the pairing rating unless `rating` is
    /// given.
    account: Option<String>,
    rating: Option<u16>,
    fide_id: Option<u64>,
    #[serde(default)]
    federation: String,
    #[serde(default)]
    title: String,
    /// An engine registered on this server (`chess960 engine add`) that plays for the
    /// player, named as the engine unless `name` is given.
    engine: Option<String>,
}

/// `POST /api/events/{key}/players`. A player entered by `account` (404 `no_such_player` for
/// none, or a disabled one) is named as the account unless `name` is given, and rated with the
/// account's rating in the event's speed class (when it has rated games there) unless `rating`
/// is given.
pub async fn add_player(
    State(state): State<AppState>,
    Path(key): Path<String>,
    headers: HeaderMap,
    JsonBody(p): JsonBody<PlayerIn>,
) -> ApiResult<Json<Value>> {
    let account = crate::players::account_name(p.account.as_deref())?;
    let engine = match p.engine.clone() {
        None => None,
        Some(name) => Some(crate::engine_events::registered(&state, name).await?),
    };
    let store = state.store();
    let now = chess960_round::record::now_ms();
    // The account and its ratings, read before the event is locked.
    let found = match account {
        None => None,
        Some(name) => Some(
            job(move || {
                let players = crate::accounts::players(&*store)?;
                let user = players
                    .user_by_name(name.as_str())?
                    .filter(|u| !u.disabled)
                    .ok_or_else(crate::players::no_such_player)?;
                let ratings = players.ratings(user.id, now)?;
                Ok((user.name.to_string(), ratings))
            })
            .await?,
        ),
    };
    change(&state, key, headers, move |e| {
        let (name, rating, account) = match found {
            None if p.name.trim().is_empty() && engine.is_some() => {
                (engine.clone().unwrap_or_default(), p.rating, None)
            }
            None => (p.name, p.rating, None),
            Some((account, ratings)) => {
                // The speed class of the event's games, from its announced time control.
                let speed = time_control(&e.time_control)
                    .map(|tc| Speed::of(tc.initial_ms, tc.increment_ms));
                let server = ratings
                    .iter()
                    .find(|r| Some(r.speed) == speed)
                    .map(|r| r.rating.rating.round().clamp(0.0, f64::from(u16::MAX)) as u16);
                let name = if p.name.trim().is_empty() {
                    account.clone()
                } else {
                    p.name
                };
                (name, p.rating.or(server), Some(account))
            }
        };
        e.add_player(Player {
            name,
            rating,
            fide_id: p.fide_id,
            federation: p.federation,
            title: p.title,
            joined: 1,
            withdrawn: None,
            byes: Vec::new(),
            account,
            engine,
        })
        .map(|_| ())
    })
    .await
}

/// `POST /api/events/{key}/players/{n}/withdraw` body.
#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct WithdrawIn {
    from_round: Option<u32>,
}

fn player_index(e: &Event, n: usize) -> Result<usize, EventError> {
    if (1..=e.players.len()).contains(&n) {
        Ok(n - 1)
    } else {
        Err(EventError::UnknownPlayer(n.to_string()))
    }
}

/// `POST /api/events/{key}/players/{n}/withdraw`.
pub async fn withdraw(
    State(state): State<AppState>,
    path: Result<Path<(String, usize)>, PathRejection>,
    headers: HeaderMap,
    JsonBody(w): JsonBody<WithdrawIn>,
) -> ApiResult<Json<Value>> {
    let Path((key, n)) = path.map_err(|e| ApiError::bad_request(e.body_text()))?;
    change(&state, key, headers, move |e| {
        let p = player_index(e, n)?;
        e.withdraw(p, w.from_round).map(|_| ())
    })
    .await
}

/// `POST /api/events/{key}/players/{n}/bye` body.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ByeIn {
    round: u32,
    /// `half`, `zero` or `full`.
    kind: String,
}

/// `POST /api/events/{key}/players/{n}/bye`.
pub async fn bye(
    State(state): State<AppState>,
    path: Result<Path<(String, usize)>, PathRejection>,
    headers: HeaderMap,
    JsonBody(b): JsonBody<ByeIn>,
) -> ApiResult<Json<Value>> {
    let Path((key, n)) = path.map_err(|e| ApiError::bad_request(e.body_text()))?;
    let kind = match b.kind.as_str() {
        "half" => ByeRequest::Half,
        "zero" => ByeRequest::Zero,
        "full" => ByeRequest::Full,
        other => {
            return Err(ApiError::bad_request(format!(
                "kind: {other:?} (half, zero or full)"
            )))
        }
    };
    change(&state, key, headers, move |e| {
        let p = player_index(e, n)?;
        e.request_bye(p, b.round, kind)
    })
    .await
}

/// `POST /api/events/{key}/rounds/{r}/draw` body.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DrawIn {
    /// `computer` (default), a physical method's name, `set` or `list`.
    #[serde(default)]
    method: Option<String>,
    seed: Option<u64>,
    outcomes: Option<String>,
    /// With `set`: the position.
    id: Option<u32>,
    #[serde(default)]
    replace: bool,
}

/// A random seed, where the request gives none.
fn seed_or_random(seed: Option<u64>) -> Result<u64, ApiError> {
    match seed {
        Some(s) => Ok(s),
        None => {
            let mut b = [0u8; 8];
            getrandom::fill(&mut b)
                .map_err(|e| ApiError::internal(format!("no random numbers: {e}")))?;
            Ok(u64::from_le_bytes(b))
        }
    }
}

/// How to draw, from a [`DrawIn`]; and whether to replace a position drawn before.
fn draw_spec(d: DrawIn) -> Result<(DrawSpec, bool), ApiError> {
    if d.outcomes.as_ref().is_some_and(|o| o.len() > 1000) {
        return Err(ApiError::bad_request("outcomes: at most 1000 characters"));
    }
    let seed = seed_or_random(d.seed)?;
    let method = d.method.unwrap_or_else(|| "computer".into());
    let spec = match method.trim() {
        "computer" => DrawSpec::Computer { seed },
        "set" => DrawSpec::Set(
            d.id.ok_or_else(|| ApiError::bad_request("id: the position to set, 0..959"))?,
        ),
        "list" => DrawSpec::List,
        m => DrawSpec::Physical {
            method: m.to_string(),
            seed: if d.outcomes.is_some() {
                None
            } else {
                Some(seed)
            },
            outcomes: d.outcomes,
        },
    };
    Ok((spec, d.replace))
}

/// `POST /api/events/{key}/rounds/{r}/draw`.
pub async fn draw(
    State(state): State<AppState>,
    path: Result<Path<(String, u32)>, PathRejection>,
    headers: HeaderMap,
    JsonBody(d): JsonBody<DrawIn>,
) -> ApiResult<Json<Value>> {
    let Path((key, round)) = path.map_err(|e| ApiError::bad_request(e.body_text()))?;
    let (spec, replace) = draw_spec(d)?;
    change(&state, key, headers, move |e| {
        e.draw_position(round, spec, replace).map(|_| ())
    })
    .await
}

/// `POST /api/events/{key}/rounds/{r}/stages/{s}/draw`: the position of a knockout's
/// tiebreak stage `s` (from 1) in round `r`, drawn as a round's is (same body).
pub async fn draw_stage(
    State(state): State<AppState>,
    path: Result<Path<(String, u32, u32)>, PathRejection>,
    headers: HeaderMap,
    JsonBody(d): JsonBody<DrawIn>,
) -> ApiResult<Json<Value>> {
    let Path((key, round, stage)) = path.map_err(|e| ApiError::bad_request(e.body_text()))?;
    let (spec, replace) = draw_spec(d)?;
    change(&state, key, headers, move |e| {
        e.draw_stage_position(round, stage, spec, replace)
            .map(|_| ())
    })
    .await
}

/// `POST /api/events/{key}/rounds/{r}/tiebreaks` body.
#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct TiebreaksIn {
    /// Draws an Armageddon's colours; random when left out.
    seed: Option<u64>,
}

/// `POST /api/events/{key}/rounds/{r}/tiebreaks`: the next tiebreak stage's games for every
/// match of a knockout's round `r` that is tied; the view plus `added`, those matches'
/// numbers.
pub async fn tiebreaks(
    State(state): State<AppState>,
    path: Result<Path<(String, u32)>, PathRejection>,
    headers: HeaderMap,
    JsonBody(t): JsonBody<TiebreaksIn>,
) -> ApiResult<Json<Value>> {
    let Path((key, round)) = path.map_err(|e| ApiError::bad_request(e.body_text()))?;
    let seed = seed_or_random(t.seed)?;
    let (mut v, added) =
        change_with(&state, key, headers, move |e| e.add_tiebreaks(round, seed)).await?;
    v["added"] = json!(added);
    Ok(Json(v))
}

/// `POST /api/events/{key}/rounds/{r}/pair`.
pub async fn pair(
    State(state): State<AppState>,
    path: Result<Path<(String, u32)>, PathRejection>,
    headers: HeaderMap,
) -> ApiResult<Json<Value>> {
    let Path((key, round)) = path.map_err(|e| ApiError::bad_request(e.body_text()))?;
    let mut b = [0u8; 8];
    getrandom::fill(&mut b).map_err(|e| ApiError::internal(format!("no random numbers: {e}")))?;
    let seed = u64::from_le_bytes(b);
    let shown_as = key.clone();
    change_long(&state, key, headers, move |e| {
        let shown = PairingShown::start(&shown_as, round, e.players.len());
        e.pair_with_progress(round, seed, &mut |p| shown.update(p))
            .map(|_| ())
    })
    .await
}

/// `POST /api/events/{key}/rounds/{r}/unpair`.
pub async fn unpair(
    State(state): State<AppState>,
    path: Result<Path<(String, u32)>, PathRejection>,
    headers: HeaderMap,
) -> ApiResult<Json<Value>> {
    let Path((key, round)) = path.map_err(|e| ApiError::bad_request(e.body_text()))?;
    change(&state, key, headers, move |e| e.unpair(round)).await
}

/// `POST /api/events/{key}/rounds/{r}/boards/{b}/result` body.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ResultIn {
    /// `1-0`, `1/2-1/2`, `0-1`, `+/-`, `-/+`, `-/-`, or null to clear.
    result: Option<String>,
}

/// `POST /api/events/{key}/rounds/{r}/boards/{b}/result`.
pub async fn result(
    State(state): State<AppState>,
    path: Result<Path<(String, u32, u32)>, PathRejection>,
    headers: HeaderMap,
    JsonBody(r): JsonBody<ResultIn>,
) -> ApiResult<Json<Value>> {
    let Path((key, round, board)) = path.map_err(|e| ApiError::bad_request(e.body_text()))?;
    let result = match r.result.as_deref() {
        None => None,
        Some(t) => Some(BoardResult::parse(t).ok_or_else(|| {
            ApiError::bad_request(format!("result: {t:?} (1-0, 1/2-1/2, 0-1, +/-, -/+, -/-)"))
        })?),
    };
    change(&state, key, headers, move |e| {
        e.set_result(round, board, result)
    })
    .await
}

/// `GET /api/events/{key}/export?format=` query.
#[derive(Deserialize)]
pub struct ExportQuery {
    format: Option<String>,
}

/// `GET /api/events/{key}/export?format=trf|pgn|json`: a file to save.
pub async fn export(
    State(state): State<AppState>,
    Path(key): Path<String>,
    query: Result<Query<ExportQuery>, axum::extract::rejection::QueryRejection>,
) -> ApiResult<Response> {
    let Query(q) = query.map_err(|e| ApiError::bad_request(e.body_text()))?;
    let format = q.format.unwrap_or_else(|| "json".into());
    if !["trf", "pgn", "json"].contains(&format.as_str()) {
        return Err(ApiError::bad_request(format!(
            "format: {format:?} (trf, pgn or json)"
        )));
    }
    let store = Arc::clone(&state.games().ctx().store);
    let fmt = format.clone();
    let (text, name) = job(move || {
        let s = load(store.as_ref(), &key)?;
        let text = match fmt.as_str() {
            "trf" if s.event.knockout_plan().is_some() => {
                return Err(ApiError::conflict(
                    "TRF-16 has one game per player and round, which a knockout's \
                     mini-matches are not: export PGN or JSON",
                ))
            }
            "trf" => trf::write(&to_trf(&s.event)),
            "pgn" => {
                let lookup = |k: &str| -> Option<chess960_pgn::Game> {
                    let game = store
                        .game_by_key(&chess960_store::GameKey::parse(k)?)
                        .ok()??;
                    chess960_store::pgn::to_pgn(&game).ok()
                };
                to_pgn(&s.event, &lookup)
            }
            _ => serde_json::to_string_pretty(&json!({"chess960_event": 1, "event": s.event}))
                .unwrap_or_default(),
        };
        // The file name: at most 100 characters of the name, ASCII letters and digits only
        // (a stored name may be megabytes long, and clients refuse such a header; issue 37).
        let safe: String = s
            .event
            .name
            .chars()
            .take(100)
            .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
            .collect();
        let stem = match safe.trim_matches('-') {
            "" => "event",
            stem => stem,
        };
        Ok((text, format!("{stem}.{fmt}")))
    })
    .await?;
    let mut resp = text.into_response();
    let mime = if format == "json" {
        "application/json"
    } else {
        "text/plain; charset=utf-8"
    };
    resp.headers_mut()
        .insert(header::CONTENT_TYPE, HeaderValue::from_static(mime));
    if let Ok(v) = HeaderValue::from_str(&format!("attachment; filename=\"{name}\"")) {
        resp.headers_mut().insert(header::CONTENT_DISPOSITION, v);
    }
    Ok(resp)
}

/// The time control of an event's games from its announced form: `M+S` (minutes, seconds of
/// increment) or `M` minutes; anything else gives untimed games.
/// A board's clocks for a game on the server: the time control (White's, when each side has
/// its own: `5+0/4+0`) and, then, both sides' times at the start. `None`: untimed (anything
/// but `M+S`, or sides whose increments differ, which the server's clocks do not keep).
fn board_clocks(text: &str) -> Option<(crate::game::TimeControl, Option<chess960_store::Clocks>)> {
    match chess960_events::event::sides_of(text) {
        None => time_control(text).map(|tc| (tc, None)),
        Some((white, black)) => {
            let (w, b) = (time_control(white)?, time_control(black)?);
            (w.increment_ms == b.increment_ms).then_some((
                w,
                Some(chess960_store::Clocks {
                    white_ms: w.initial_ms,
                    black_ms: b.initial_ms,
                }),
            ))
        }
    }
}

fn time_control(text: &str) -> Option<crate::game::TimeControl> {
    let (m, s) = text.trim().split_once('+').unwrap_or((text.trim(), "0"));
    let minutes: u64 = m.trim().parse().ok().filter(|&m| (1..=600).contains(&m))?;
    let seconds: u64 = s.trim().parse().ok().filter(|&s| s <= 600)?;
    Some(crate::game::TimeControl {
        initial_ms: minutes * 60_000,
        increment_ms: seconds * 1000,
    })
}

/// `POST /api/events/{key}/rounds/{r}/games`: a game on the server for each board of the
/// round that has neither a game nor a result, from the board's start position, with the
/// board's time control (a knockout's tiebreak stage has its own; refused, 409, while a
/// knockout's board has no position drawn). Each player gets a seat of his own: the answer gives the arbiter the
/// link for each (`/game/<key>#seat=<token>&color=white`; [`links`] shows them again, the
/// tokens being derived from the arbiter's: [`event_seat_token`]); a player entered by account has
/// the seat bound to it as well, and plays from wherever they are logged in, without a link.
/// The games are casual: the event's results are its own. The results come into the event by
/// themselves.
pub async fn games(
    State(state): State<AppState>,
    path: Result<Path<(String, u32)>, PathRejection>,
    headers: HeaderMap,
    Client(client): Client,
) -> ApiResult<Json<Value>> {
    let Path((key, round)) = path.map_err(|e| ApiError::bad_request(e.body_text()))?;
    // One such request at a time: two at once would make two games for a board.
    static CREATING: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());
    let _one = CREATING.lock().await;
    let store = Arc::clone(&state.games().ctx().store);
    let k2 = key.clone();
    let h2 = headers.clone();
    // What to create, read under the event's checks.
    let (stored, boards) = job(move || {
        let stored = load(store.as_ref(), &k2)?;
        check_arbiter(&stored, &h2)?;
        let r = (round as usize)
            .checked_sub(1)
            .and_then(|i| stored.event.played.get(i))
            .filter(|r| r.paired)
            .ok_or_else(|| event_err(EventError::NotPaired(round)))?;
        // A stored document is read as it is: an index that names nobody is shown as such.
        let name = |i: usize| {
            stored.event.players.get(i).map_or_else(
                || format!("player {}", i.saturating_add(1)),
                |p| p.name.clone(),
            )
        };
        // A player's account, if they were entered by one that still exists (a disabled one
        // still plays: its seat token does).
        let players = store.player_store();
        let account = |i: usize| -> Result<Option<chess960_store::UserId>, ApiError> {
            let Some(name) = stored
                .event
                .players
                .get(i)
                .and_then(|p| p.account.as_deref())
            else {
                return Ok(None);
            };
            let Some(players) = players else {
                return Ok(None);
            };
            Ok(players.user_by_name(name)?.map(|u| u.id))
        };
        let mut boards = Vec::new();
        for (j, b) in r.boards.iter().enumerate() {
            let engine = |p: usize| {
                stored
                    .event
                    .players
                    .get(p)
                    .is_some_and(|p| p.engine.is_some())
            };
            // Two engines' board is the engines' to play (`engines/play`); a person's against
            // an engine is played elsewhere, its result the arbiter's: neither is a game
            // between people.
            if b.game.is_some() || b.result.is_some() || engine(b.white) || engine(b.black) {
                continue;
            }
            let board = j as u32 + 1;
            let id = match (stored.event.board_position(round, board), b.slot) {
                (Some(id), _) => id,
                // A knockout's tiebreak game waits for its stage's position, and its regular
                // games for the round's: neither is played from 518 by default.
                (None, Some(slot)) if slot.stage > 0 => {
                    let stage = slot.stage;
                    return Err(ApiError::conflict(format!(
                        "round {round}, board {board}: draw the position of tiebreak stage \
                         {stage} first"
                    )));
                }
                (None, _) if stored.event.knockout_plan().is_some() => {
                    return Err(ApiError::conflict(format!(
                        "round {round}, board {board}: draw the round's position first"
                    )))
                }
                (None, _) => 518,
            };
            let clocks = board_clocks(stored.event.board_time_control(round, board));
            let accounts = chess960_store::GamePlayers {
                white: account(b.white)?,
                black: account(b.black)?,
                rated: None,
            };
            boards.push((
                board,
                id,
                clocks,
                (b.white, b.black),
                (name(b.white), name(b.black)),
                accounts,
            ));
        }
        Ok((stored, boards))
    })
    .await?;
    if boards.is_empty() {
        return Err(ApiError::conflict(format!(
            "every board of round {round} between two people has a game or a result already \
             (an engine's boards are not games between people)"
        )));
    }
    // The seats' tokens come from the arbiter's (checked above), so that the arbiter can show
    // the links again later (`links`); the server keeps only their SHA-256, as for any seat.
    let arbiter = given_token(&headers);
    let mut made = Vec::new();
    for (board, id, clocks, players, (white, black), accounts) in boards {
        let start = StartId::new(id as u32)
            .map_err(|e| ApiError::internal(format!("round {round}, board {board}: {e}")))?;
        let tokens = (
            event_seat_token(&arbiter, &key, round, board, players, true),
            event_seat_token(&arbiter, &key, round, board, players, false),
        );
        let mut meta = crate::game::people_pair(
            &start.position(),
            Some(start),
            (white, black),
            clocks.map(|(tc, _)| tc),
            crate::create::SITE,
        );
        if let Some((_, Some(sides))) = clocks {
            meta.clocks = Some(sides);
        }
        meta.tags.push(("Event".into(), stored.event.name.clone()));
        meta.tags.push(("Round".into(), format!("{round}.{board}")));
        let seats = chess960_store::Seats {
            white: chess960_store::SeatRecord::Held {
                hash: seat::hash(&tokens.0),
            },
            black: chess960_store::SeatRecord::Held {
                hash: seat::hash(&tokens.1),
            },
        };
        let game_key =
            crate::create::create_seated(state.games(), start, meta, seats, accounts, client)
                .await?;
        made.push((board, game_key.to_string(), tokens));
    }
    let links: Vec<(u32, String)> = made.iter().map(|(b, k, _)| (*b, k.clone())).collect();
    let store = Arc::clone(&state.games().ctx().store);
    let v = job(move || {
        let _one = write_lock(&key);
        let mut s = load(store.as_ref(), &key)?;
        for (board, game) in &links {
            if let Some(b) = s
                .event
                .played
                .get_mut(round as usize - 1)
                .and_then(|r| r.boards.get_mut(*board as usize - 1))
            {
                b.game = Some(game.clone());
            }
        }
        let events = store.event_store().ok_or_else(no_events)?;
        s.revision = events.save_event(s.id, s.revision, &s.event)?;
        Ok(view(&s))
    })
    .await?;
    let mut v = v;
    v["games"] = json!(made
        .iter()
        .map(|(b, k, (w, bl))| json!({
            "board": b,
            "key": k,
            "white_link": seat_link(k, w, true),
            "black_link": seat_link(k, bl, false),
        }))
        .collect::<Vec<_>>());
    Ok(Json(v))
}

/// `GET /api/events/{key}/rounds/{r}/links`: the players' links of the round's games on this
/// server, again, for the arbiter only (403 without the event's arbiter token). The tokens
/// are derived anew from the arbiter's ([`event_seat_token`]) and given only where they are
/// the seats the game holds (checked against the stored SHA-256): a game made by an older
/// server, whose tokens were random, has `null` links. Nothing changes: the links handed out
/// before stay valid, so a player in the middle of a game keeps playing.
pub async fn links(
    State(state): State<AppState>,
    path: Result<Path<(String, u32)>, PathRejection>,
    headers: HeaderMap,
) -> ApiResult<Response> {
    let Path((key, round)) = path.map_err(|e| ApiError::bad_request(e.body_text()))?;
    let store = Arc::clone(&state.games().ctx().store);
    let games = job(move || {
        let stored = load(store.as_ref(), &key)?;
        check_arbiter(&stored, &headers)?;
        let arbiter = given_token(&headers);
        let r = (round as usize)
            .checked_sub(1)
            .and_then(|i| stored.event.played.get(i))
            .filter(|r| r.paired)
            .ok_or_else(|| event_err(EventError::NotPaired(round)))?;
        let mut games = Vec::new();
        for (j, b) in r.boards.iter().enumerate() {
            let Some(game) = &b.game else { continue };
            let board = j as u32 + 1;
            let seats = chess960_store::GameKey::parse(game)
                .map(|k| store.game_by_key(&k))
                .transpose()?
                .flatten()
                .map(|g| g.seats);
            let link = |white: bool| -> Value {
                let token =
                    event_seat_token(&arbiter, &key, round, board, (b.white, b.black), white);
                let record = seats
                    .as_ref()
                    .map(|s| if white { &s.white } else { &s.black });
                let holds = matches!(record, Some(r) if seat::Seat::from_record(r).holds(&token));
                if holds {
                    json!(seat_link(game, &token, white))
                } else {
                    Value::Null
                }
            };
            games.push(json!({
                "board": board,
                "key": game,
                "result": b.result.map(BoardResult::text),
                "white_link": link(true),
                "black_link": link(false),
            }));
        }
        Ok(games)
    })
    .await?;
    let mut resp = Json(json!({"round": round, "games": games})).into_response();
    // Secrets: kept by no cache.
    resp.headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    Ok(resp)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pairing_under_way_is_in_the_view_until_it_ends() {
        let key = "pairing-progress-test";
        assert_eq!(pairing_json(key), Value::Null);
        {
            let shown = PairingShown::start(key, 3, 1000);
            assert_eq!(pairing_json(key)["round"], 3);
            assert_eq!(pairing_json(key)["settled"], 0);
            shown.update(Progress {
                settled: 412,
                players: 998,
            });
            let p = pairing_json(key);
            assert_eq!(
                (p["settled"].as_u64(), p["players"].as_u64()),
                (Some(412), Some(998))
            );
            assert!(p["seconds"].as_f64().is_some_and(|s| s >= 0.0));
            assert_eq!(pairing_json("another-event"), Value::Null);
        }
        // Gone once the pairing is over, whatever its outcome.
        assert_eq!(pairing_json(key), Value::Null);
    }

    #[test]
    fn hmac_sha256_is_rfc_4231s() {
        // RFC 4231, test case 2.
        assert_eq!(
            crate::secret::hex(&hmac_sha256(b"Jefe", b"what do ya want for nothing?")),
            "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"
        );
        // Test case 6: a key longer than the block.
        assert_eq!(
            crate::secret::hex(&hmac_sha256(
                &[0xaa; 131],
                b"Test Using Larger Than Block-Size Key - Hash Key First"
            )),
            "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"
        );
    }

    #[test]
    fn event_seat_tokens_differ_by_everything_they_name() {
        let t = |a: &str, r, b, p, w| event_seat_token(a, "ab", r, b, p, w);
        let one = t("arbiter", 1, 1, (0, 1), true);
        assert_eq!(one.len(), 32);
        assert!(one.bytes().all(|c| c.is_ascii_hexdigit()));
        assert_eq!(one, t("arbiter", 1, 1, (0, 1), true), "repeatable");
        for other in [
            t("arbiter2", 1, 1, (0, 1), true),
            t("arbiter", 2, 1, (0, 1), true),
            t("arbiter", 1, 2, (0, 1), true),
            t("arbiter", 1, 1, (1, 0), true),
            t("arbiter", 1, 1, (0, 2), true),
            t("arbiter", 1, 1, (0, 1), false),
            event_seat_token("arbiter", "cd", 1, 1, (0, 1), true),
        ] {
            assert_ne!(one, other);
        }
    }
}
