//! Takebacks in a game against the engine: the person's last move and the engine's reply to
//! it, at once (the engine always agrees).

use super::{blocking, Actor, GameHandle};
use crate::game::{mover, GameView, Phase};
use crate::game_error::{GameError, GameResult};
use std::sync::Arc;
use std::time::Instant;

impl GameHandle {
    /// `POST /takeback`: the actor's last move and the engine's reply to it.
    pub async fn takeback(self: &Arc<Self>, who: &Actor<'_>) -> GameResult<GameView> {
        let (mut g, color) = self.seated(who).await?;
        if g.sides.engine(!color).is_none() {
            return Err(GameError::NotAgainstEngine {
                action: "a takeback",
            });
        }
        if g.finished() && g.game.outcome().is_none() {
            let reason = g.finish.as_ref().map_or("", |f| f.reason.as_str());
            return Err(GameError::TakebackAfter(reason.to_string()));
        }
        let first = g.game.start().turn();
        let Some(keep) = (0..g.ply()).rev().find(|&i| mover(first, i) == color) else {
            return Err(GameError::NothingToTakeBack);
        };
        g.stop_engine();
        let store = Arc::clone(&self.ctx.store);
        let id = g.id;
        blocking(move || store.truncate_moves(id, keep as u32)).await?;
        g.paused = false;
        g.phase = Phase::Playing;
        g.truncate(keep, Instant::now());
        self.changed(&mut g);
        Ok(g.view(Instant::now()))
    }
}
