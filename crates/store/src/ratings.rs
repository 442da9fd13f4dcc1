//! Ratings: a player's Glicko-2 rating per speed class (`chess960_players::glicko2`), and its
//! history, one point per rated game.
//!
//! A game is rated when its two players' accounts are bound to it with a speed class
//! ([`crate::PlayerStore::bind_players`]). When such a game ends with a result, both ratings
//! are updated in the same transaction as the result ([`rate`], called by `write::finish`):
//! the result is stored once (a finish of a finished game changes nothing), so a rating is
//! updated once, whatever kills the process or however many servers finish the game. Each
//! player is rated against the other's rating before the game, widened for the time since
//! their last rated game ([`Rating::idle`]); an aborted game rates nobody.
//!
//! Ratings are kept as integers (thousandths of a point, billionths of volatility), so that
//! both backends store and return exactly the same values.

use crate::backend::R;
use crate::players::UserId;
use crate::sql::{Arg, Cells, Tx};
use crate::{rules, Finish, GameId, GameResult, StoreError};
use chess960_core::Color;
use chess960_players::glicko2::{self, Game, Rating, Score};
use chess960_players::speed::Speed;

/// Thousandths of a point: the stored unit of ratings and deviations.
pub(crate) const POINT: f64 = 1000.0;
/// Billionths: the stored unit of volatilities.
const VOLATILITY: f64 = 1e9;
/// Milliseconds a day, for the widening of a deviation with time.
const DAY_MS: f64 = 86_400_000.0;

/// A player's rating in one speed class.
#[derive(Clone, Debug, PartialEq)]
pub struct PlayerRating {
    /// The speed class.
    pub speed: Speed,
    /// The rating as of the time asked for (its deviation widened for the time since
    /// `rated_ms`).
    pub rating: Rating,
    /// Rated games played.
    pub games: u32,
    /// When the last rated game ended (Unix milliseconds).
    pub rated_ms: i64,
}

/// One point of a rating's history: after a rated game.
#[derive(Clone, Debug, PartialEq)]
pub struct RatingPoint {
    /// The game.
    pub game: GameId,
    /// The rating after it.
    pub rating: f64,
    /// The deviation after it.
    pub deviation: f64,
    /// When it ended (Unix milliseconds).
    pub at_ms: i64,
}

/// A player's rating in one game, as a game's page shows it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GameRating {
    /// The rating before the game: as of now while it is not rated yet, else the one its
    /// rating changed from (a new player's for their first game).
    pub rating: f64,
    /// The deviation with it.
    pub deviation: f64,
    /// The rating after the game, once it was rated.
    pub after: Option<f64>,
}

/// Who plays a game, by account, and whether it is rated.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GamePlayers {
    /// White's account, if White is logged in.
    pub white: Option<UserId>,
    /// Black's account.
    pub black: Option<UserId>,
    /// The speed class of a rated game; `None` for a casual one.
    pub rated: Option<Speed>,
}

impl GamePlayers {
    /// Nobody's: a game of guests, imported, or played on the terminal.
    pub const NONE: GamePlayers = GamePlayers {
        white: None,
        black: None,
        rated: None,
    };

    /// The account of `color`'s player.
    pub fn get(&self, color: Color) -> Option<UserId> {
        match color {
            Color::White => self.white,
            Color::Black => self.black,
        }
    }

    /// The account of `color`'s player, to change.
    pub fn get_mut(&mut self, color: Color) -> &mut Option<UserId> {
        match color {
            Color::White => &mut self.white,
            Color::Black => &mut self.black,
        }
    }

    /// The colour `user` plays, if one (the first, White, when the account plays both).
    pub fn color_of(&self, user: UserId) -> Option<Color> {
        Color::ALL.into_iter().find(|&c| self.get(c) == Some(user))
    }
}

fn stored(value: f64, unit: f64) -> i64 {
    (value * unit).round() as i64
}

/// A stored rating, checked (a damaged row is `Corrupt`, never a panic or a NaN).
fn rating_of(user: UserId, rating: i64, deviation: i64, volatility: i64) -> R<Rating> {
    let r = Rating {
        rating: rating as f64 / POINT,
        deviation: deviation as f64 / POINT,
        volatility: volatility as f64 / VOLATILITY,
    };
    if r.is_valid() {
        Ok(r)
    } else {
        Err(StoreError::Corrupt {
            detail: format!("user {user}: a rating of {r:?}"),
        })
    }
}

/// The stored rating of `user` in `speed`: the rating, its games and when it was last rated.
fn read(tx: &mut dyn Tx, user: UserId, speed: Speed) -> R<Option<(Rating, u32, i64)>> {
    let row = tx.one(
        "SELECT rating, deviation, volatility, games, rated_ms FROM ratings
         WHERE user_id = $1 AND speed = $2",
        &[user.0.into(), speed.name().into()],
    )?;
    row.map(|mut r| {
        let rating = rating_of(user, r.int(0)?, r.int(1)?, r.int(2)?)?;
        Ok((
            rating,
            r.int(3)?.clamp(0, i64::from(u32::MAX)) as u32,
            r.int(4)?,
        ))
    })
    .transpose()
}

/// `user`'s rating in `speed` as of `now_ms`: the stored one widened for the days since, or
/// a new player's.
fn current(tx: &mut dyn Tx, user: UserId, speed: Speed, now_ms: i64) -> R<(Rating, u32)> {
    Ok(match read(tx, user, speed)? {
        Some((r, games, at)) => (r.idle((now_ms - at).max(0) as f64 / DAY_MS), games),
        None => (glicko2::INITIAL, 0),
    })
}

/// Writes `user`'s rating after `game`, and its point in the history.
fn write(
    tx: &mut dyn Tx,
    user: UserId,
    speed: Speed,
    game: GameId,
    r: Rating,
    games: u32,
    now_ms: i64,
) -> R<()> {
    let (rating, deviation) = (stored(r.rating, POINT), stored(r.deviation, POINT));
    let volatility = stored(r.volatility, VOLATILITY);
    let args: [Arg<'_>; 7] = [
        user.0.into(),
        speed.name().into(),
        rating.into(),
        deviation.into(),
        volatility.into(),
        i64::from(games).into(),
        now_ms.into(),
    ];
    tx.exec(
        "INSERT INTO ratings (user_id, speed, rating, deviation, volatility, games, rated_ms)
         VALUES ($1, $2, $3, $4, $5, $6, $7)
         ON CONFLICT (user_id, speed) DO UPDATE SET rating = $3, deviation = $4,
             volatility = $5, games = $6, rated_ms = $7",
        &args,
    )?;
    tx.exec(
        "INSERT INTO rating_history (user_id, speed, game_id, rating, deviation, at_ms)
         VALUES ($1, $2, $3, $4, $5, $6)",
        &[
            user.0.into(),
            speed.name().into(),
            game.into(),
            rating.into(),
            deviation.into(),
            now_ms.into(),
        ],
    )
    .map(drop)
}

/// A game's players and whether it is rated, as stored.
pub(crate) fn players_of(tx: &mut dyn Tx, id: GameId) -> R<GamePlayers> {
    let row = tx.one(
        "SELECT white_user, black_user, rated FROM games WHERE id = $1",
        &[id.into()],
    )?;
    let Some(mut r) = row else {
        return Err(StoreError::NoSuchGame(format!("with id {id}")));
    };
    players_from(&mut r, 0)
}

/// The players of a game's row: its `white_user`, `black_user` and `rated` columns, from
/// column `at` on.
pub(crate) fn players_from(r: &mut Cells, at: usize) -> R<GamePlayers> {
    let rated = match r.opt_text(at + 2)? {
        None => None,
        Some(text) => Some(text.parse::<Speed>().map_err(|e| StoreError::Corrupt {
            detail: format!("a game's rated class: {e}"),
        })?),
    };
    Ok(GamePlayers {
        white: r.opt_int(at)?.map(UserId),
        black: r.opt_int(at + 1)?.map(UserId),
        rated,
    })
}

/// Binds `players` to game `id` (checked by [`rules::check_bind`]).
pub(crate) fn bind(tx: &mut dyn Tx, id: GameId, players: GamePlayers) -> R<()> {
    rules::check_bind(id, &tx.lock_state(id)?, &players)?;
    set_players(tx, id, players)
}

/// Writes `players` to game `id`'s row, unchecked (the caller checked them).
pub(crate) fn set_players(tx: &mut dyn Tx, id: GameId, players: GamePlayers) -> R<()> {
    tx.exec(
        "UPDATE games SET white_user = $2, black_user = $3, rated = $4 WHERE id = $1",
        &[
            id.into(),
            players.white.map(|u| u.0).into(),
            players.black.map(|u| u.0).into(),
            players.rated.map(Speed::name).into(),
        ],
    )
    .map(drop)
}

/// Rates game `id`, which has just ended with `finish` (it was not over before), if it is
/// rated: both players' ratings and their history, in the caller's transaction.
pub(crate) fn rate(tx: &mut dyn Tx, id: GameId, finish: &Finish, now_ms: i64) -> R<()> {
    let players = players_of(tx, id)?;
    let (Some(speed), Some(white), Some(black)) = (players.rated, players.white, players.black)
    else {
        return Ok(());
    };
    let white_score = match finish.result {
        GameResult::WhiteWins => Score::Win,
        GameResult::BlackWins => Score::Loss,
        GameResult::Draw => Score::Draw,
        // Aborted: no result, nobody is rated.
        GameResult::Unknown => return Ok(()),
    };
    let (w, w_games) = current(tx, white, speed, now_ms)?;
    let (b, b_games) = current(tx, black, speed, now_ms)?;
    let w_after = w.rate(&[Game {
        opponent: b,
        score: white_score,
    }]);
    let b_after = b.rate(&[Game {
        opponent: w,
        score: white_score.reversed(),
    }]);
    write(
        tx,
        white,
        speed,
        id,
        w_after,
        w_games.saturating_add(1),
        now_ms,
    )?;
    write(
        tx,
        black,
        speed,
        id,
        b_after,
        b_games.saturating_add(1),
        now_ms,
    )
}

/// `user`'s ratings as of `now_ms`, fastest class first.
pub(crate) fn ratings(tx: &mut dyn Tx, user: UserId, now_ms: i64) -> R<Vec<PlayerRating>> {
    let mut out = Vec::new();
    for speed in Speed::ALL {
        if let Some((r, games, at)) = read(tx, user, speed)? {
            out.push(PlayerRating {
                speed,
                rating: r.idle((now_ms - at).max(0) as f64 / DAY_MS),
                games,
                rated_ms: at,
            });
        }
    }
    Ok(out)
}

/// `user`'s rating in `speed` in game `game` ([`GameRating`]).
pub(crate) fn in_game(
    tx: &mut dyn Tx,
    user: UserId,
    speed: Speed,
    game: GameId,
    now_ms: i64,
) -> R<GameRating> {
    let args = [user.0.into(), speed.name().into(), game.into()];
    let point = tx.one(
        "SELECT rating, at_ms FROM rating_history
         WHERE user_id = $1 AND speed = $2 AND game_id = $3",
        &args,
    )?;
    let Some(mut point) = point else {
        let (now, _) = current(tx, user, speed, now_ms)?;
        return Ok(GameRating {
            rating: now.rating,
            deviation: now.deviation,
            after: None,
        });
    };
    let (after, at) = (point.int(0)? as f64 / POINT, point.int(1)?);
    let previous = tx.one(
        "SELECT rating, deviation FROM rating_history
         WHERE user_id = $1 AND speed = $2 AND (at_ms < $4 OR (at_ms = $4 AND game_id < $3))
         ORDER BY at_ms DESC, game_id DESC LIMIT 1",
        &[args[0], args[1], args[2], at.into()],
    )?;
    let (rating, deviation) = match previous {
        Some(mut r) => (r.int(0)? as f64 / POINT, r.int(1)? as f64 / POINT),
        None => (glicko2::INITIAL.rating, glicko2::INITIAL.deviation),
    };
    Ok(GameRating {
        rating,
        deviation,
        after: Some(after),
    })
}

/// The best-rated players in `speed` as of `now_ms` (disabled accounts left out), at most
/// `limit`: their names as written and ratings, the highest rating first (then the lower
/// deviation, then the earlier name).
pub(crate) fn leaders(
    tx: &mut dyn Tx,
    speed: Speed,
    now_ms: i64,
    limit: u32,
) -> R<Vec<(String, PlayerRating)>> {
    let rows = tx.query(
        &format!(
            "SELECT r.user_id, u.name, r.rating, r.deviation, r.volatility, r.games, r.rated_ms
             FROM ratings r JOIN users u ON u.id = r.user_id
             WHERE r.speed = $1 AND u.disabled = 0
             ORDER BY r.rating DESC, r.deviation, u.name_key LIMIT {limit}"
        ),
        &[speed.name().into()],
    )?;
    rows.into_iter()
        .map(|mut r| {
            let (user, name) = (UserId(r.int(0)?), r.text(1)?);
            let rating = rating_of(user, r.int(2)?, r.int(3)?, r.int(4)?)?;
            let games = r.int(5)?.clamp(0, i64::from(u32::MAX)) as u32;
            let at = r.int(6)?;
            Ok((
                name,
                PlayerRating {
                    speed,
                    rating: rating.idle((now_ms - at).max(0) as f64 / DAY_MS),
                    games,
                    rated_ms: at,
                },
            ))
        })
        .collect()
}

/// `user`'s rating history in `speed`, oldest first.
pub(crate) fn history(tx: &mut dyn Tx, user: UserId, speed: Speed) -> R<Vec<RatingPoint>> {
    let rows = tx.query(
        "SELECT game_id, rating, deviation, at_ms FROM rating_history
         WHERE user_id = $1 AND speed = $2 ORDER BY at_ms, game_id",
        &[user.0.into(), speed.name().into()],
    )?;
    rows.into_iter()
        .map(|mut r| {
            Ok(RatingPoint {
                game: GameId(r.int(0)?),
                rating: r.int(1)? as f64 / POINT,
                deviation: r.int(2)? as f64 / POINT,
                at_ms: r.int(3)?,
            })
        })
        .collect()
}
