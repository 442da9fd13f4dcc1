//! The ends a player asks for: resigning, aborting before both sides have moved, and deleting
//! the game from the database.

use super::{blocking, Actor, Answer, GameHandle};
use crate::game::error::{GameError, GameResult};
use chess960_round::Command;
use std::sync::Arc;

impl GameHandle {
    /// `POST /resign`: the actor's colour loses.
    pub async fn resign(self: &Arc<Self>, who: &Actor<'_>) -> GameResult<Answer> {
        let (mut g, color) = self.seated(who).await?;
        self.judged(&mut g, Command::Resign(color)).await?;
        Ok(who.answer(&g))
    }

    /// `POST /abort`: ends a game before both sides have moved, with no result (see
    /// [`chess960_store::Finish::aborted`]); also withdraws a challenge nobody has taken yet.
    pub async fn abort(self: &Arc<Self>, who: &Actor<'_>) -> GameResult<Answer> {
        let (mut g, _) = self.seated(who).await?;
        self.judged(&mut g, Command::Abort).await?;
        Ok(who.answer(&g))
    }

    /// Deletes the game from the store for `who`: a game with a seat needs the token of one
    /// of its seats, and no other person may have a part in it ([`Sides::one_person`]: a
    /// game against the engine, at one device, or a challenge nobody joined); a game between
    /// two people, an event's among them, is never one player's to erase. A game without a
    /// seat (imported, or played on the terminal) needs only the server's access. Whatever
    /// was pending in it stops. The registry forgets the handle (`registry.rs`).
    ///
    /// [`Sides::one_person`]: crate::game::sides::Sides::one_person
    pub async fn delete(self: &Arc<Self>, who: &Actor<'_>) -> GameResult<()> {
        let mut g = self.lock().await;
        if g.deleted {
            return Err(GameError::NoSuchGame {
                key: g.key.to_string(),
            });
        }
        if g.sides.has_seat() {
            g.sides.seat_of(who.seat, who.user, g.id.0)?;
            if !g.sides.one_person() {
                return Err(GameError::NotDeletable);
            }
        }
        let store = Arc::clone(&self.ctx.store);
        let id = g.id;
        blocking(move || store.delete_game(id)).await?;
        g.deleted = true;
        self.note_challenge(&g);
        if g.listed {
            self.ctx.lobby.update(g.key.as_str(), None);
        }
        let now = g.now();
        g.round.halt(now);
        g.stop_engine();
        g.generation += 1;
        self.broadcast.deleted(g.key.as_str());
        self.wake.notify_one();
        Ok(())
    }
}
