//! The live placement of a game's start position by its two players (Northam's method,
//! `placing.rs`): each placement in turn, Black first; the server places for a player whose
//! time runs out; once the five pieces are placed the start is written to the store and the
//! game begins from it.

use super::{blocking, over, Actor, Answer, GameHandle};
use crate::game::error::{GameError, GameResult};
use crate::game::placing::PENDING_TAG;
use crate::game::{Live, Phase};
use chess960_core::Game;
use chess960_draw::rng::SplitMix64;
use std::sync::Arc;

impl GameHandle {
    /// `POST /place`: the actor places a piece (`{"piece": "B", "file": "c"}` read as `B c`).
    pub async fn place(self: &Arc<Self>, who: &Actor<'_>, text: &str) -> GameResult<Answer> {
        let (mut g, color) = self.seated(who).await?;
        over(&g)?;
        let phase = g.round.phase();
        let placing = match (&mut g.placing, phase) {
            (Some(p), Phase::Placing) => p,
            _ => return Err(GameError::NotPlacing),
        };
        if placing.to_place() != Some(color) {
            return Err(GameError::NotYourPlacement);
        }
        placing
            .place(text, self.now())
            .map_err(GameError::BadPlacement)?;
        self.placed(&mut g).await?;
        Ok(who.answer(&g))
    }

    /// The time of the player to place ran out (the timer): the server places for them.
    pub(super) async fn place_on_time(self: &Arc<Self>, g: &mut Live) -> GameResult<()> {
        let now = self.now();
        let due = g.round.phase() == Phase::Placing
            && g.placing
                .as_ref()
                .and_then(|p| p.until)
                .is_some_and(|u| now >= u);
        if !due || g.finished() {
            return Ok(());
        }
        if let Some(p) = &mut g.placing {
            p.place_for(&mut SplitMix64::from_entropy(), now);
        }
        self.placed(g).await
    }

    /// After a placement: the clients are told; once complete, the game begins.
    async fn placed(self: &Arc<Self>, g: &mut Live) -> GameResult<()> {
        let Some((id, outcomes)) = g.placing.as_ref().and_then(|p| p.result()) else {
            self.changed(g);
            return Ok(());
        };
        let tags = crate::game::drawn::placed_tags(&outcomes, id)
            .map_err(|e| GameError::Worker(format!("the placement does not replay: {e}")))?;
        let start = id.position();
        let store = Arc::clone(&self.ctx.store);
        let (gid, fen, t) = (g.id, start.fen(), tags.clone());
        blocking(move || {
            store.set_start(gid, &fen, Some(id.get()))?;
            for (name, value) in &t {
                store.set_tag(gid, name, Some(value))?;
            }
            store.set_tag(gid, PENDING_TAG, None)
        })
        .await?;
        g.meta.start_fen = start.fen();
        g.meta.start_id = Some(id.get());
        g.meta.tags.retain(|(n, _)| n != PENDING_TAG);
        g.meta.tags.extend(tags);
        g.placing = None;
        g.generation += 1;
        g.round.placed(Game::chess960(id), self.now());
        self.start_engine(g);
        self.changed(g);
        Ok(())
    }
}
