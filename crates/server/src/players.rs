//! Players' pages in the API (docs/api.md, "Players"): `GET /api/players/{name}`, a player's
//! ratings per speed class with their history, for the page `/@/name` and anyone else;
//! `GET /api/players/{name}/starts`, their results per start position; and `GET /api/players`,
//! the leaderboard of a speed class.

use crate::accounts::{blocking, players};
use crate::error::{ApiError, ApiResult};
use crate::AppState;
use axum::extract::{Path, Query, State};
use axum::Json;
use chess960_players::name::UserName;
use chess960_players::results::{self, Tally};
use chess960_players::speed::Speed;
use chess960_store::players::UserId;
use chess960_store::{GameStore, StoreError};
use serde::{Deserialize, Serialize};

/// One point of a rating's history: after a rated game.
#[derive(Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct RatingPointJson {
    /// The rating after the game, rounded.
    pub rating: i64,
    /// Its deviation, rounded.
    pub deviation: i64,
    /// When the game ended (Unix milliseconds).
    pub at_ms: i64,
}

/// A player's rating in one speed class.
#[derive(Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct RatingJson {
    /// `bullet`, `blitz`, `rapid` or `classical`.
    pub speed: String,
    /// The rating now, rounded (its deviation widened for the time since the last game).
    pub rating: i64,
    /// Its deviation now, rounded.
    pub deviation: i64,
    /// Provisional: the deviation is above 110 (shown with `?`).
    pub provisional: bool,
    /// Rated games played.
    pub games: u32,
    /// The rating after each rated game, oldest first.
    pub history: Vec<RatingPointJson>,
}

/// `GET /api/players/{name}`.
#[derive(Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct PlayerJson {
    /// The name, as its owner wrote it.
    pub name: String,
    /// When they registered (Unix milliseconds).
    pub created_ms: i64,
    /// The account is disabled.
    pub disabled: bool,
    /// One per speed class with a rated game, fastest first.
    pub ratings: Vec<RatingJson>,
}

/// 404 `no_such_player`.
pub(crate) fn no_such_player() -> ApiError {
    ApiError::not_found("no such player").with_code("no_such_player")
}

/// The account name of a query's `account` (none when absent or blank); 404 for a text that
/// is no user name (it is nobody's, and is not sent to the database).
pub(crate) fn account_name(text: Option<&str>) -> ApiResult<Option<UserName>> {
    match text.map(str::trim).filter(|t| !t.is_empty()) {
        None => Ok(None),
        Some(t) => t.parse().map(Some).map_err(|_| no_such_player()),
    }
}

/// The account named `name` (any case), if there is one. For a blocking thread.
pub(crate) fn account_id(
    store: &dyn GameStore,
    name: &UserName,
) -> Result<Option<UserId>, StoreError> {
    Ok(players(store)?.user_by_name(name.as_str())?.map(|u| u.id))
}

/// `GET /api/players/{name}`: the player (any case of the name), 404 for none.
pub async fn player(
    State(state): State<AppState>,
    Path(name): Path<String>,
) -> ApiResult<Json<PlayerJson>> {
    let unknown = no_such_player;
    // A text that is no user name is nobody's (and is not sent to the database).
    let name: UserName = name.parse().map_err(|_| unknown())?;
    let store = state.store();
    let now = chess960_round::record::now_ms();
    let found = blocking(move || {
        let players = players(&*store)?;
        let Some(user) = players.user_by_name(name.as_str())? else {
            return Ok(None);
        };
        let mut ratings = Vec::new();
        for r in players.ratings(user.id, now)? {
            let history = players.rating_history(user.id, r.speed)?;
            ratings.push(RatingJson {
                speed: r.speed.name().to_string(),
                rating: r.rating.rating.round() as i64,
                deviation: r.rating.deviation.round() as i64,
                provisional: r.rating.is_provisional(),
                games: r.games,
                history: history
                    .into_iter()
                    .map(|p| RatingPointJson {
                        rating: p.rating.round() as i64,
                        deviation: p.deviation.round() as i64,
                        at_ms: p.at_ms,
                    })
                    .collect(),
            });
        }
        Ok(Some(PlayerJson {
            name: user.name.as_str().to_string(),
            created_ms: user.created_ms,
            disabled: user.disabled,
            ratings,
        }))
    })
    .await?;
    found.map(Json).ok_or_else(unknown)
}

/// A tally of games in JSON.
#[derive(Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct TallyJson {
    pub games: u32,
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
    /// Points: a win is 1, a draw ½.
    pub score: f64,
}

impl From<&Tally> for TallyJson {
    fn from(t: &Tally) -> TallyJson {
        TallyJson {
            games: t.games,
            wins: t.wins,
            draws: t.draws,
            losses: t.losses,
            score: t.points(),
        }
    }
}

/// A player's results from one start position.
#[derive(Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct StartJson {
    pub start_id: u16,
    /// The back rank, `RNBQKBNR` for 518.
    pub back_rank: String,
    #[serde(flatten)]
    #[cfg_attr(test, ts(flatten))]
    pub tally: TallyJson,
    /// Over the rated games from it: the opponents' average rating before them plus 400 ×
    /// (wins − losses) / games, rounded; `null` without rated games.
    pub performance: Option<i64>,
}

/// How a player's games went by how they castled.
#[derive(Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct CastlingJson {
    /// Towards the h-file rook (`O-O`).
    pub short: TallyJson,
    /// Towards the a-file rook (`O-O-O`).
    pub long: TallyJson,
    /// Not at all.
    pub none: TallyJson,
}

/// `GET /api/players/{name}/starts`.
#[derive(Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct StartsJson {
    pub name: String,
    /// The finished games counted: the player's latest, at most 5,000.
    pub games: u32,
    /// Per start position, by number.
    pub starts: Vec<StartJson>,
    /// The positions where the player scores best (half the points or more; at least two
    /// games), best first, at most three.
    pub best: Vec<u16>,
    /// Where they score worst (under half the points; at least two games), worst first.
    pub worst: Vec<u16>,
    pub castling: CastlingJson,
}

/// `GET /api/players/{name}/starts`: the player's results per start position, their best and
/// worst positions, and their results by how they castled; 404 for no such player.
pub async fn starts(
    State(state): State<AppState>,
    Path(name): Path<String>,
) -> ApiResult<Json<StartsJson>> {
    let name: UserName = name.parse().map_err(|_| no_such_player())?;
    let store = state.store();
    let found = blocking(move || {
        let players = players(&*store)?;
        let Some(user) = players.user_by_name(name.as_str())? else {
            return Ok(None);
        };
        let played = players.played_games(user.id, chess960_store::MAX_PLAYED)?;
        Ok(Some((user, played)))
    })
    .await?;
    let (user, played) = found.ok_or_else(no_such_player)?;
    let r = results::results(&played);
    let back_rank = |id: u16| {
        chess960_core::StartId::new(id.into())
            .map_or_else(|_| String::new(), |s| s.back_rank().to_string())
    };
    Ok(Json(StartsJson {
        name: user.name.as_str().to_string(),
        games: r.games,
        starts: r
            .starts
            .iter()
            .map(|s| StartJson {
                start_id: s.start_id,
                back_rank: back_rank(s.start_id),
                tally: (&s.tally).into(),
                performance: s.performance.map(|p| p.round() as i64),
            })
            .collect(),
        best: r.best,
        worst: r.worst,
        castling: CastlingJson {
            short: (&r.castling[0]).into(),
            long: (&r.castling[1]).into(),
            none: (&r.castling[2]).into(),
        },
    }))
}

/// One line of a leaderboard.
#[derive(Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct LeaderJson {
    pub name: String,
    /// As of now, rounded.
    pub rating: i64,
    pub deviation: i64,
    pub provisional: bool,
    /// Rated games in the class.
    pub games: u32,
}

/// `GET /api/players?speed=blitz&limit=100`.
#[derive(Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct LeaderboardJson {
    pub speed: String,
    /// The highest rating first.
    pub players: Vec<LeaderJson>,
}

/// `GET /api/players` query.
#[derive(Deserialize)]
pub struct LeaderboardQuery {
    speed: Option<String>,
    limit: Option<String>,
}

/// The longest leaderboard one request gets.
pub const MAX_LEADERS: u32 = 200;

/// `GET /api/players?speed=blitz&limit=100`: the leaderboard of a speed class (blitz when
/// none is named), at most `limit` players (100 by default, at most 200).
pub async fn leaderboard(
    State(state): State<AppState>,
    query: Result<Query<LeaderboardQuery>, axum::extract::rejection::QueryRejection>,
) -> ApiResult<Json<LeaderboardJson>> {
    let Query(q) = query.map_err(|e| ApiError::bad_request(e.body_text()))?;
    let speed: Speed = match q.speed.as_deref().map(str::trim) {
        None | Some("") => Speed::Blitz,
        Some(s) => s.parse().map_err(|_| {
            ApiError::bad_request("speed: must be bullet, blitz, rapid or classical")
        })?,
    };
    let limit = match q.limit.as_deref().map(str::trim) {
        None | Some("") => 100,
        Some(t) => t
            .parse::<u32>()
            .ok()
            .filter(|n| (1..=MAX_LEADERS).contains(n))
            .ok_or_else(|| ApiError::bad_request(format!("limit: must be 1..{MAX_LEADERS}")))?,
    };
    let store = state.store();
    let now = chess960_round::record::now_ms();
    let leaders = blocking(move || players(&*store)?.leaderboard(speed, now, limit)).await?;
    Ok(Json(LeaderboardJson {
        speed: speed.name().to_string(),
        players: leaders
            .into_iter()
            .map(|(name, r)| LeaderJson {
                name,
                rating: r.rating.rating.round() as i64,
                deviation: r.rating.deviation.round() as i64,
                provisional: r.rating.is_provisional(),
                games: r.games,
            })
            .collect(),
    }))
}
