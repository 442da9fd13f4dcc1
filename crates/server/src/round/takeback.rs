//! Takebacks. Against the engine: the person's last move and the engine's reply to it, at once
//! (the engine always agrees). Between people: a proposal that the opponent accepts or declines
//! (a move declines it); accepted, the proposer's last move goes back with whatever was played
//! after it.

use super::{blocking, over, waiting, Actor, Answer, GameHandle};
use crate::game::{mover, Live, Phase};
use crate::game_error::{GameError, GameResult};
use chess960_core::Color;
use std::sync::Arc;
use std::time::Instant;

/// What a player does about a takeback.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TakebackAction {
    /// Take one's last move back (at once against the engine, asked of a person).
    Propose,
    /// Agree to the opponent's proposal.
    Accept,
    /// Refuse it.
    Decline,
}

impl GameHandle {
    /// `POST /takeback`.
    pub async fn takeback(
        self: &Arc<Self>,
        who: &Actor<'_>,
        action: TakebackAction,
    ) -> GameResult<Answer> {
        let (mut g, color) = self.seated(who).await?;
        waiting(&g)?;
        let against_engine = g.sides.engine(!color).is_some();
        if g.sides.hotseat() {
            // At one device: the last move goes back at once, whoever made it.
            if action != TakebackAction::Propose {
                return Err(GameError::NoOffer {
                    what: "takeback proposal",
                });
            }
            let last = g
                .ply()
                .checked_sub(1)
                .map(|i| mover(g.game.start().turn(), i));
            let Some(last) = last else {
                return Err(GameError::NothingToTakeBack);
            };
            let keep = takeback_point(&g, last)?;
            self.take_back(&mut g, keep).await?;
            return Ok(who.answer(&g));
        }
        match action {
            TakebackAction::Propose if against_engine => {
                let keep = takeback_point(&g, color)?;
                self.take_back(&mut g, keep).await?;
            }
            TakebackAction::Propose => {
                over(&g)?;
                takeback_point(&g, color)?;
                if g.takeback_offer != Some(color) {
                    g.takeback_offer = Some(color);
                    self.changed(&mut g);
                }
            }
            TakebackAction::Accept | TakebackAction::Decline => {
                over(&g)?;
                if g.takeback_offer != Some(!color) {
                    return Err(GameError::NoOffer {
                        what: "takeback proposal",
                    });
                }
                g.takeback_offer = None;
                if action == TakebackAction::Accept {
                    let keep = takeback_point(&g, !color)?;
                    self.take_back(&mut g, keep).await?;
                } else {
                    self.changed(&mut g);
                }
            }
        }
        Ok(who.answer(&g))
    }

    /// Takes the game back to `keep` half-moves, in the store first.
    async fn take_back(self: &Arc<Self>, g: &mut Live, keep: usize) -> GameResult<()> {
        g.stop_engine();
        let store = Arc::clone(&self.ctx.store);
        let id = g.id;
        blocking(move || store.truncate_moves(id, keep as u32)).await?;
        g.paused = false;
        g.phase = Phase::Playing;
        g.truncate(keep, Instant::now());
        self.changed(g);
        Ok(())
    }
}

/// How many half-moves remain when `color`'s last move is taken back: refused after a game
/// that did not end on the board, and when `color` has not moved.
fn takeback_point(g: &Live, color: Color) -> GameResult<usize> {
    if g.finished() && g.game.outcome().is_none() {
        let reason = g.finish.as_ref().map_or("", |f| f.reason.as_str());
        return Err(GameError::TakebackAfter(reason.to_string()));
    }
    let first = g.game.start().turn();
    (0..g.ply())
        .rev()
        .find(|&i| mover(first, i) == color)
        .ok_or(GameError::NothingToTakeBack)
}
