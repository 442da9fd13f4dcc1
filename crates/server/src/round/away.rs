//! A player between people who leaves: the WebSocket connections of each seat are counted
//! (`presence.rs`); when a player has been away for [`Live::away_after`], the opponent may end
//! the game, with the win or a draw (`POST …/force`), as lichess offers "force resignation" and
//! "force draw". The clocks keep running meanwhile, as over the board.

use super::{Actor, Answer, GameHandle};
use crate::game::error::{GameError, GameResult};
use crate::game::{GameView, Live};
use chess960_core::Color;
use chess960_round::Command;
use std::sync::Arc;
use std::time::Instant;

pub use chess960_round::ForceResult;

impl GameHandle {
    /// A WebSocket client connected: with a seat, a paused game resumes; without one, the
    /// client only watches. Returns the view and the colour whose seat the client holds (its
    /// connection counts as that player's presence until [`GameHandle::client_left`]).
    pub async fn client_connected(
        self: &Arc<Self>,
        who: &Actor<'_>,
        protocol: super::broadcast::Protocol,
    ) -> GameResult<(GameView, Option<Color>)> {
        let mut g = self.lock().await;
        self.settle(&mut g).await?;
        let color = g.sides.seat_of(who.seat, who.user, g.id.0).ok();
        if let Some(c) = color {
            g.client = who.client;
            let now = g.now();
            let returned = g.presence.connect(c, now);
            let resumed = g.paused() && self.resume(&mut g);
            if resumed || (returned && (g.presence_counts() || g.listed)) {
                self.changed(&mut g);
            }
        }
        Ok((super::socket_view(&g, color, protocol, g.now()), color))
    }

    /// The WebSocket client of `color`'s seat went away. When it was the player's last, the
    /// others are told (the opponent sees the countdown to a claim).
    pub async fn client_left(&self, color: Color) {
        let mut g = self.lock().await;
        let now = g.now();
        if g.presence.disconnect(color, now) && (g.presence_counts() || g.listed) {
            self.changed(&mut g);
        }
    }

    /// `POST /force`: ends the game of a player whose opponent has been away for
    /// [`Live::away_after`]: the win, or a draw.
    pub async fn force(
        self: &Arc<Self>,
        who: &Actor<'_>,
        claim: ForceResult,
    ) -> GameResult<Answer> {
        let (mut g, color) = self.seated(who).await?;
        super::gone(&g)?;
        let command = Command::Forfeit {
            absent: !color,
            claim,
        };
        // The referee's checks (a game over, or not begun) come first.
        g.round.decide(&command, g.now())?;
        check_away(&g, !color, g.now())?;
        self.judged(&mut g, command).await?;
        Ok(who.answer(&g))
    }
}

/// Refuses a claim unless `opponent` has been away long enough in a game between people that
/// both sides have moved in (before that, the game is aborted instead).
fn check_away(g: &Live, opponent: Color, now: Instant) -> GameResult<()> {
    if !g.between_people() {
        return Err(GameError::NotAway {
            why: "only a game between people can be claimed from an absent opponent".into(),
        });
    }
    if g.abortable() {
        return Err(GameError::NotAway {
            why: "not both sides have moved yet: abort the game instead".into(),
        });
    }
    let after = g.away_after;
    match g.presence.away_for(opponent, now) {
        Some(d) if d >= after => Ok(()),
        Some(d) => Err(GameError::NotAway {
            why: format!(
                "your opponent has been away for {} s; a claim needs {} s",
                d.as_secs(),
                after.as_secs()
            ),
        }),
        None => Err(GameError::NotAway {
            why: "your opponent is connected".into(),
        }),
    }
}
