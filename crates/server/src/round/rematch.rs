//! A rematch between people: once a game is over, either player may offer one; when the other
//! accepts, a new game starts from the same start position with the same time control and the
//! colours swapped. Each player keeps their seat token: the new game's seats are bound to the
//! same tokens, so that neither needs a new secret (the browser copies its token to the new
//! game's key). Offers are not stored: a restart forgets them (the new game, once made, is in
//! the database like any other).

use super::{Actor, GameHandle};
use crate::game::error::{GameError, GameResult};
use crate::game::seat::Seat;
use crate::game::sides::Side;
use crate::game::{GameView, Live, Rematch};
use chess960_core::{Color, Position, StartId};
use chess960_store::{GameKey, GamePlayers, NewGame, SeatRecord, Seats};
use std::sync::Arc;

/// What a player does about a rematch (`POST …/rematch`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "lowercase")]
pub enum RematchAction {
    /// Ask for one (accepts the opponent's offer if there is one).
    Offer,
    /// Accept the opponent's offer.
    Accept,
    /// Decline it.
    Decline,
}

/// The answer to a rematch action: the game's view, or the new game to create.
pub enum RematchStep {
    /// Nothing to create (an offer made or declined, or the rematch already made).
    View(Box<GameView>),
    /// Both agreed: create this game, then tell the old one ([`GameHandle::rematch_made`]).
    Create(Box<RematchPlan>),
}

/// The game a rematch creates.
pub struct RematchPlan {
    /// The start position (the old game's).
    pub start: Position,
    /// Its number, if it is a Chess960 start.
    pub start_id: Option<StartId>,
    /// The new game's record: the players' names swapped.
    pub meta: NewGame,
    /// The new game's seats: each bound to its player's old token.
    pub seats: Seats,
    /// The new game's accounts, colours swapped; rated as the old game was.
    pub players: GamePlayers,
    /// The colour (in the old game) of the player who accepted.
    pub acceptor: Color,
}

impl GameHandle {
    /// `POST /rematch`.
    pub async fn rematch(
        self: &Arc<Self>,
        who: &Actor<'_>,
        action: RematchAction,
    ) -> GameResult<RematchStep> {
        let (mut g, color) = self.seated(who).await?;
        if !g.finished() {
            return Err(GameError::NoRematch {
                why: "the game is not over".into(),
            });
        }
        if let Some(event) = crate::game::EventRef::of(&g.meta.tags) {
            return Err(GameError::NoRematch {
                why: format!(
                    "this is a game of the event '{}' (round {}): its arbiter pairs the next \
                     round, a game of an event is not replayed",
                    event.name, event.round
                ),
            });
        }
        let plan = rematch_plan(&g, color)?;
        if matches!(g.rematch, Rematch::Made(_) | Rematch::Creating) {
            // Made (or being made): the view names it.
            return Ok(RematchStep::View(Box::new(g.view(g.now()))));
        }
        // At one device, both players are there to agree.
        let offered_by_opponent = g.rematch == Rematch::Offered(!color) || g.sides.hotseat();
        match action {
            RematchAction::Offer if offered_by_opponent => {}
            RematchAction::Offer => {
                if g.rematch == Rematch::None {
                    g.rematch = Rematch::Offered(color);
                    self.changed(&mut g);
                }
                return Ok(RematchStep::View(Box::new(g.view(g.now()))));
            }
            RematchAction::Accept | RematchAction::Decline if !offered_by_opponent => {
                return Err(GameError::NoOffer {
                    what: "rematch offer",
                })
            }
            RematchAction::Decline => {
                g.rematch = Rematch::None;
                self.changed(&mut g);
                return Ok(RematchStep::View(Box::new(g.view(g.now()))));
            }
            RematchAction::Accept => {}
        }
        // Accepted: only one request creates the game.
        g.rematch = Rematch::Creating;
        Ok(RematchStep::Create(Box::new(plan)))
    }

    /// The rematch was created (the clients are sent its key), or could not be (the offer
    /// stands again for the accepting player, who may retry).
    pub async fn rematch_made(&self, made: Result<GameKey, Color>) {
        let mut g = self.lock().await;
        g.rematch = match made {
            Ok(key) => Rematch::Made(key),
            Err(offerer) => Rematch::Offered(offerer),
        };
        self.changed(&mut g);
    }
}

/// The new game of a rematch of `g`, or why there is none.
fn rematch_plan(g: &Live, acceptor: Color) -> GameResult<RematchPlan> {
    let held = |c: Color| match g.sides.get(c) {
        Side::Human(Seat::Held { hash }) => Some(hash.clone()),
        _ => None,
    };
    let (Some(white), Some(black)) = (held(Color::White), held(Color::Black)) else {
        return Err(GameError::NoRematch {
            why: "only a game between two people who both took their seats can be replayed".into(),
        });
    };
    let start = *g.round.game().start();
    let start_id = g.round.game().start_id();
    let meta = crate::game::people_pair(
        &start,
        start_id,
        (g.meta.black.clone(), g.meta.white.clone()),
        g.round.tc(),
        crate::create::SITE,
    );
    Ok(RematchPlan {
        start,
        start_id,
        meta,
        seats: Seats {
            white: SeatRecord::Held { hash: black },
            black: SeatRecord::Held { hash: white },
        },
        players: GamePlayers {
            white: g.sides.accounts.black,
            black: g.sides.accounts.white,
            rated: g.sides.accounts.rated,
        },
        acceptor,
    })
}
