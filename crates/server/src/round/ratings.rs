//! Reading the players' ratings a game's page shows (`game/ratings.rs`) from the store.

use crate::game::ratings::{speed_of, RatingView, Ratings};
use crate::game::TimeControl;
use chess960_store::{GameId, GamePlayers, GameStore, StoreError};

/// Reads the ratings of game `id`'s players with `accounts` (no database access for a game of
/// guests), for a blocking thread, right after a write the game depends on (its creation, a
/// seat taken, its end): the write stands whatever happens here, so a failure to read only
/// leaves the ratings unshown (and is logged), never the write unapplied in memory.
pub(crate) fn read(
    store: &dyn GameStore,
    id: GameId,
    accounts: GamePlayers,
    tc: Option<TimeControl>,
) -> Ratings {
    try_read(store, id, accounts, tc).unwrap_or_else(|e| {
        tracing::warn!("game {id}: the players' ratings cannot be read: {e}");
        [None, None]
    })
}

fn try_read(
    store: &dyn GameStore,
    id: GameId,
    accounts: GamePlayers,
    tc: Option<TimeControl>,
) -> Result<Ratings, StoreError> {
    let Some(speed) = speed_of(&accounts, tc) else {
        return Ok([None, None]);
    };
    if accounts.white.is_none() && accounts.black.is_none() {
        return Ok([None, None]);
    }
    let players = crate::accounts::players(store)?;
    let [w, b] = players.game_ratings(id, accounts, speed, chess960_round::record::now_ms())?;
    Ok([w.map(RatingView::from), b.map(RatingView::from)])
}
