//! The players' ratings a game's page shows beside their names: each logged-in player's rating
//! in the game's speed class (the class it is rated in, or the one its clock falls in for a
//! casual game) before the game, and its change once a rated game has ended. `round/` reads
//! them from the store when the game is made, joined, loaded and ended (in the same blocking
//! call as the write), so that a view never waits for the database.

use chess960_players::glicko2::PROVISIONAL_DEVIATION;
use chess960_players::speed::Speed;
use chess960_store::{GamePlayers, GameRating};
use serde::{Deserialize, Serialize};

use crate::game::TimeControl;

/// A player's rating on a game's page.
#[derive(Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct RatingView {
    /// The rating before the game, rounded.
    pub rating: i64,
    /// Provisional (shown with `?`): its deviation is above 110.
    pub provisional: bool,
    /// The change the game made, once it was rated.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, ts(optional))]
    pub change: Option<i64>,
}

impl From<GameRating> for RatingView {
    fn from(r: GameRating) -> RatingView {
        let rating = r.rating.round() as i64;
        RatingView {
            rating,
            provisional: r.deviation > PROVISIONAL_DEVIATION,
            change: r.after.map(|after| after.round() as i64 - rating),
        }
    }
}

/// Both players' ratings (White's first), as a game's page shows them.
pub type Ratings = [Option<RatingView>; 2];

/// The speed class a game's ratings are shown in: the one it is rated in, else its clock's;
/// none for an untimed casual game.
pub fn speed_of(accounts: &GamePlayers, tc: Option<TimeControl>) -> Option<Speed> {
    accounts
        .rated
        .or_else(|| tc.map(|tc| Speed::of(tc.initial_ms, tc.increment_ms)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_rating_is_shown_rounded_with_its_change() {
        let shown = RatingView::from(GameRating {
            rating: 1500.4,
            deviation: 350.0,
            after: Some(1662.31),
        });
        assert_eq!(
            shown,
            RatingView {
                rating: 1500,
                provisional: true,
                change: Some(162)
            }
        );
        let settled = RatingView::from(GameRating {
            rating: 1812.6,
            deviation: 60.0,
            after: None,
        });
        assert_eq!(
            (settled.rating, settled.provisional, settled.change),
            (1813, false, None)
        );
        // A rated game's class, else the clock's; none without either.
        let rated = GamePlayers {
            rated: Some(Speed::Rapid),
            ..GamePlayers::NONE
        };
        let blitz = Some(TimeControl {
            initial_ms: 180_000,
            increment_ms: 2_000,
        });
        assert_eq!(speed_of(&rated, blitz), Some(Speed::Rapid));
        assert_eq!(speed_of(&GamePlayers::NONE, blitz), Some(Speed::Blitz));
        assert_eq!(speed_of(&GamePlayers::NONE, None), None);
    }
}
