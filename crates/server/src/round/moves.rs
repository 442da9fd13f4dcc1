//! Moves: a person's move, the premove they queue for their next turn, and storing and
//! applying any move (the engine's too) before anyone is told of it.

use super::{blocking, over, waiting, Actor, Answer, GameHandle};
use crate::game::{parse_move, Live, Phase, Premove};
use crate::game_error::{GameError, GameResult};
use chess960_core::Move;
use std::sync::Arc;
use std::time::Instant;

impl GameHandle {
    /// `POST /moves`: the move of the actor's colour at half-move `ply`.
    pub async fn human_move(
        self: &Arc<Self>,
        who: &Actor<'_>,
        text: &str,
        ply: u64,
    ) -> GameResult<Answer> {
        let (mut g, color) = self.seated(who).await?;
        over(&g)?;
        waiting(&g)?;
        if ply != g.ply() as u64 {
            return Err(GameError::StalePly {
                sent: ply,
                played: g.ply(),
            });
        }
        if g.turn() != color {
            return Err(GameError::NotYourTurn {
                to_move: g.turn(),
                engine: g.engine_to_move().is_some(),
            });
        }
        let m = parse_move(g.game.position(), text).map_err(GameError::IllegalMove)?;
        // A move in study time or in a paused game starts the clocks first, so that it costs
        // the mover nothing.
        self.resume(&mut g);
        // A move of one's own replaces one's premove; the opponent's stays, to be played now.
        if g.premove.as_ref().is_some_and(|p| p.color == color) {
            g.premove = None;
        }
        self.play(&mut g, m).await?;
        let answer = who.answer(&g);
        self.play_premove(&mut g).await;
        Ok(answer)
    }

    /// Stores and applies a legal move of the side to move, then lets the engine reply (or
    /// plays the human's premove after the engine's move).
    pub(super) async fn play(self: &Arc<Self>, g: &mut Live, m: Move) -> GameResult<()> {
        let now = Instant::now();
        let record = g.record_for(m, now);
        let store = Arc::clone(&self.ctx.store);
        let (id, ply, rec) = (g.id, g.ply() as u32, record.clone());
        // The explorer's index rows of the move from the two positions' keys: the store need
        // not replay the game for them.
        let before = *g.game.position();
        let step = chess960_store::explorer::IndexStep::of(&before, &before.play(m));
        // Durable before anything is acknowledged or shown.
        blocking(move || store.append_move_indexed(id, ply, &rec, step)).await?;
        match g.apply(m, record, now) {
            // The move and the end are told together.
            Some(f) => self.end(g, f).await?,
            None => self.start_engine(g),
        }
        self.moved(g);
        Ok(())
    }

    /// Plays the queued premove if its player is to move and the move is legal now; an
    /// illegal one is dropped.
    pub(super) async fn play_premove(self: &Arc<Self>, g: &mut Live) {
        if !g.active() || g.premove.as_ref().is_none_or(|p| p.color != g.turn()) {
            return;
        }
        let Some(Premove { text, .. }) = g.premove.take() else {
            return;
        };
        match parse_move(g.game.position(), &text) {
            Ok(m) => {
                if let Err(e) = self.play(g, m).await {
                    tracing::error!("game {}: cannot store the premove: {e}", g.key);
                }
            }
            Err(_) => self.premove_changed(g),
        }
    }

    /// `POST /premove`: sets the actor's premove to `text`, or clears it (`None`). A clear
    /// that names the premove it clears (`clears`) leaves any other premove alone, so that a
    /// clear sent for an earlier premove cannot undo a later one that overtook it.
    pub async fn premove(
        self: &Arc<Self>,
        who: &Actor<'_>,
        text: Option<String>,
        clears: Option<String>,
    ) -> GameResult<Answer> {
        let (mut g, color) = self.seated(who).await?;
        over(&g)?;
        waiting(&g)?;
        let mine = |g: &Live| {
            g.premove
                .as_ref()
                .filter(|p| p.color == color)
                .map(|p| p.text.clone())
        };
        match text {
            None => {
                let clear = match &clears {
                    Some(c) => mine(&g).is_some_and(|p| p == c.trim()),
                    None => true,
                };
                if clear {
                    g.premove = None;
                }
            }
            Some(t) => {
                let t = t.trim().to_string();
                if !chess960_core::typed::looks_like_move(&t) {
                    return Err(GameError::IllegalMove(format!(
                        "'{}' is not a move in UCI (g1f3, e7e8q) or SAN (Nf3, O-O)",
                        t.chars().take(20).collect::<String>()
                    )));
                }
                if g.turn() == color && g.phase == Phase::Playing && !g.paused {
                    return Err(GameError::YourTurn);
                }
                g.premove = Some(Premove { color, text: t });
            }
        }
        if self.resume(&mut g) {
            self.changed(&mut g);
        } else {
            self.premove_changed(&mut g);
        }
        // Its player sees it also in a game between people (see `Live::view`).
        let own = mine(&g);
        Ok(who.answer(&g).with_premove(own))
    }
}
