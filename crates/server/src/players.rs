//! Players' pages in the API (docs/api.md, "Players"): `GET /api/players/{name}`, a player's
//! ratings per speed class with their history, for the page `/@/name` and anyone else.

use crate::accounts::{blocking, players};
use crate::error::{ApiError, ApiResult};
use crate::AppState;
use axum::extract::{Path, State};
use axum::Json;
use chess960_players::name::UserName;
use serde::Serialize;

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

/// `GET /api/players/{name}`: the player (any case of the name), 404 for none.
pub async fn player(
    State(state): State<AppState>,
    Path(name): Path<String>,
) -> ApiResult<Json<PlayerJson>> {
    let unknown = || ApiError::not_found("no such player").with_code("no_such_player");
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
