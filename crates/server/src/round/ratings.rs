//! Reading the players' ratings a game's page shows (`game/ratings.rs`) from the store.

use crate::game::ratings::{speed_of, RatingView, Ratings};
use crate::game::TimeControl;
use chess960_store::{GameId, GamePlayers, GameStore, StoreError};

/// Reads the ratings of game `id`'s players with `accounts` (no database access for a game of
/// guests). For a blocking thread.
pub(crate) fn read(
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
