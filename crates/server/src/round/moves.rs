//! Moves: a person's move, the premove they queue for their next turn, and storing and
//! applying any move (the engine's too) before anyone is told of it.

use super::{blocking, over, waiting, Actor, GameHandle};
use crate::game::{parse_move, GameView, Live, Phase, Premove};
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
    ) -> GameResult<GameView> {
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
        let answer = g.view(Instant::now());
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
        // Durable before anything is acknowledged or shown.
        blocking(move || store.append_move(id, ply, &rec)).await?;
        let end = g.apply(m, record, now);
        match end {
            Some(f) => self.finish(g, f).await?,
            None => {
                self.start_engine(g);
                self.changed(g);
            }
        }
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
            Err(_) => self.changed(g),
        }
    }

    /// `POST /premove`.
    pub async fn premove(
        self: &Arc<Self>,
        who: &Actor<'_>,
        text: Option<String>,
    ) -> GameResult<GameView> {
        let (mut g, color) = self.seated(who).await?;
        over(&g)?;
        waiting(&g)?;
        match text {
            None => g.premove = None,
            Some(t) => {
                let t = t.trim().to_string();
                if !plausible_move(&t) {
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
        self.resume(&mut g);
        self.changed(&mut g);
        let mut v = g.view(Instant::now());
        // Its player sees it also in a game between people (see `Live::view`).
        v.premove = g.premove.as_ref().map(|p| p.text.clone());
        Ok(v)
    }
}

/// A premove must look like a move: its legality is only known once the engine has replied.
fn plausible_move(t: &str) -> bool {
    if t.is_empty() || t.len() > 10 || !t.is_ascii() {
        return false;
    }
    let core = t.trim_end_matches(['+', '#']);
    if matches!(core, "O-O" | "O-O-O" | "0-0" | "0-0-0") {
        return true;
    }
    let is_file = |c: u8| (b'a'..=b'h').contains(&c);
    let is_rank = |c: u8| (b'1'..=b'8').contains(&c);
    let b = core.as_bytes();
    let uci = (b.len() == 4 || (b.len() == 5 && b"nbrq".contains(&b[4])))
        && is_file(b[0])
        && is_rank(b[1])
        && is_file(b[2])
        && is_rank(b[3]);
    // SAN: a piece letter, disambiguation and capture, a square, optionally a promotion.
    let body = core
        .strip_suffix(['Q', 'R', 'B', 'N'])
        .map_or(core, |c| c.trim_end_matches('='));
    let sb = body.as_bytes();
    let san = sb.len() >= 2
        && is_file(sb[sb.len() - 2])
        && is_rank(sb[sb.len() - 1])
        && sb[..sb.len() - 2]
            .iter()
            .all(|c| b"KQRBNabcdefgh12345678x".contains(c));
    uci || san
}

#[cfg(test)]
mod tests {
    use super::plausible_move;

    #[test]
    fn premoves_that_look_like_moves() {
        for ok in [
            "g1f3", "e7e8q", "Nf3", "exd5", "e8=Q", "O-O", "0-0-0", "Qxh7#", "e4",
        ] {
            assert!(plausible_move(ok), "{ok}");
        }
        for bad in ["", "hello", "z9z9", "e2e4k", "Nf", "12345678901"] {
            assert!(!plausible_move(bad), "{bad}");
        }
    }
}
