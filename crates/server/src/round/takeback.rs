//! Takebacks. Against the engine: the person's last move and the engine's reply to it, at once
//! (the engine always agrees). Between people: a proposal that the opponent accepts or declines
//! (a move declines it); accepted, the proposer's last move goes back with whatever was played
//! after it.

use super::{Actor, Answer, GameHandle};
use crate::game::error::{GameError, GameResult};
use crate::game::mover;
use chess960_round::Command;
use std::sync::Arc;

/// What a player does about a takeback.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "lowercase")]
pub enum TakebackAction {
    /// Take one's last move back (at once against the engine, asked of a person).
    #[default]
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
        let against_engine = g.sides.engine(!color).is_some();
        let command = if g.sides.hotseat() {
            // At one device: the last move goes back at once, whoever made it.
            if action != TakebackAction::Propose {
                return Err(GameError::NoOffer {
                    what: "takeback proposal",
                });
            }
            let first = g.round.game().start().turn();
            let last = g.ply().checked_sub(1).map_or(color, |i| mover(first, i));
            Command::TakeBack(last)
        } else {
            match action {
                TakebackAction::Propose if against_engine => Command::TakeBack(color),
                TakebackAction::Propose => Command::ProposeTakeback(color),
                TakebackAction::Accept | TakebackAction::Decline => Command::AnswerTakeback {
                    by: color,
                    accept: action == TakebackAction::Accept,
                },
            }
        };
        self.judged(&mut g, command).await?;
        Ok(who.answer(&g))
    }
}
