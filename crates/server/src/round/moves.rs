//! Moves: a person's move, the premove they queue for their next turn, and any move (the
//! engine's too) judged by the referee and stored before anyone is told of it.

use super::{gone, Actor, Answer, GameHandle};
use crate::game::error::{GameError, GameResult};
use crate::game::{Live, Phase};
use chess960_core::{Color, Move};
use chess960_round::{Command, MoveInput};
use std::sync::Arc;

impl GameHandle {
    /// `POST /moves`: the move of the actor's colour at half-move `ply`.
    pub async fn human_move(
        self: &Arc<Self>,
        who: &Actor<'_>,
        text: &str,
        ply: u64,
    ) -> GameResult<Answer> {
        let (mut g, color) = self.seated(who).await?;
        gone(&g)?;
        // (A finished game, or one still waiting to begin, is refused by the referee, in its
        // words.)
        let begun = !matches!(g.round.phase(), Phase::Open | Phase::Placing);
        if ply != g.ply() as u64 && begun && !g.finished() {
            return Err(GameError::StalePly {
                sent: ply,
                played: g.ply(),
            });
        }
        let command = Command::Move {
            by: color,
            mv: MoveInput::Typed(text.to_string()),
        };
        // A move in study time or in a paused game starts the clocks first (it costs the mover
        // nothing): the referee begins the game with the move.
        self.play(&mut g, command).await?;
        let answer = who.answer(&g);
        self.play_premove(&mut g).await;
        Ok(answer)
    }

    /// The engine's move `m` for `color`, judged, stored and told like a person's.
    pub(super) async fn engine_played(
        self: &Arc<Self>,
        g: &mut Live,
        color: Color,
        m: Move,
    ) -> GameResult<()> {
        let command = Command::Move {
            by: color,
            mv: MoveInput::Chosen(m),
        };
        self.play(g, command).await?;
        self.play_premove(g).await;
        Ok(())
    }

    /// Judges, stores and applies a move, tells the clients, and lets the engine reply.
    async fn play(self: &Arc<Self>, g: &mut Live, command: Command) -> GameResult<()> {
        let events = self.referee(g, command).await?;
        self.told(g, &events);
        Ok(())
    }

    /// Plays the queued premove if its player is to move and the move is legal now; an
    /// illegal one is dropped.
    pub(super) async fn play_premove(self: &Arc<Self>, g: &mut Live) {
        if g.deleted {
            return;
        }
        if let Err(e) = self.play(g, Command::PlayPremove).await {
            tracing::error!("game {}: cannot store the premove: {e}", g.key);
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
        gone(&g)?;
        let command = match text {
            None => Command::ClearPremove { by: color, clears },
            Some(text) => Command::SetPremove { by: color, text },
        };
        self.referee(&mut g, command).await?;
        if self.resume(&mut g) {
            self.changed(&mut g);
        } else {
            // A clear of nothing is told too: the client learns the version it acts on.
            self.premove_changed(&mut g);
        }
        // Its player sees it also in a game between people (see `Live::view`).
        let own = g
            .round
            .premove()
            .filter(|p| p.color == color)
            .map(|p| p.text.clone());
        Ok(who.answer(&g).with_premove(own))
    }
}
