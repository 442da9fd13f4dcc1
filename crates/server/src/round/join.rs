//! Joining a game between people: whoever opens its link first and asks to play takes the open
//! seat, with a token of their own; anyone later can only watch.

use super::{blocking, over, Actor, GameHandle};
use crate::game::error::{GameError, GameResult};
use crate::game::seat::{self, Seat};
use crate::game::sides::Side;
use crate::game::GameView;
use chess960_core::Color;
use chess960_store::StoreError;
use std::sync::Arc;

impl GameHandle {
    /// `POST /join`: the open seat goes to `who`, who plays under `name`; the game begins. The
    /// answer carries the seat's token and colour (the only time they are shown).
    pub async fn join(self: &Arc<Self>, who: &Actor<'_>, name: String) -> GameResult<GameView> {
        let mut g = self.lock().await;
        over(&g)?;
        if let Ok(color) = g.sides.seat_of(who.seat, who.user, g.id.0) {
            return Err(GameError::AlreadySeated { color });
        }
        let Some(color) = g.sides.open_seat() else {
            return Err(GameError::NoOpenSeat);
        };
        let token = seat::new_token()
            .map_err(|e| GameError::Worker(format!("no random numbers for a seat token: {e}")))?;
        let hash = seat::hash(&token);
        let store = Arc::clone(&self.ctx.store);
        let (id, h, n) = (g.id, hash.clone(), name.clone());
        // A logged-in player's account is bound to their seat (the creator's own account
        // found its seat above). A rated game's seat is for a logged-in player only.
        let user = who.user;
        if g.sides.accounts.rated.is_some() && user.is_none() {
            return Err(GameError::RatedNeedsAccount);
        }
        let mut accounts = g.sides.accounts;
        *accounts.get_mut(color) = user;
        let tc = g.round.tc();
        let ratings = blocking(move || {
            match user {
                None => store.claim_seat(id, color, &h, &n)?,
                Some(u) => {
                    crate::accounts::players(&*store)?.claim_seat_for(id, color, &h, &n, Some(u))?
                }
            }
            Ok(super::ratings::read(&*store, id, accounts, tc))
        })
        .await
        .map_err(|e| match e {
            // Another process took it meanwhile (one server holds a game; this is the
            // store's guarantee all the same).
            GameError::Store(StoreError::Conflict(_)) => GameError::NoOpenSeat,
            e => e,
        })?;
        *g.sides.get_mut(color) = Side::Human(Seat::Held { hash });
        g.sides.accounts = accounts;
        g.ratings = ratings;
        match color {
            Color::White => g.meta.white = name,
            Color::Black => g.meta.black = name,
        }
        g.client = who.client;
        g.round.seat_taken();
        self.begin(&mut g, None);
        self.changed(&mut g);
        let mut v = g.view(g.now());
        v.seat_token = Some(token);
        v.seat_color = Some(color.into());
        Ok(v)
    }
}
