//! The engine's turn (its search queued in the server's pool, its move played when the search
//! returns) and the searches a person asks of it: the analysis of a finished game, and the
//! evaluation behind its answer to a draw offer (`draws.rs`).

use super::{pv_san, Actor, CancelOnDrop, GameHandle, ScoreJson};
use crate::game::error::{GameError, GameResult};
use crate::game::Live;
use crate::pool::Urgency;
use chess960_core::{CastlingMode, Move};
use chess960_engine::player::{AnalysisLimit, PlayClock, Player, Thinking};
use serde::Serialize;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// At most this many `thinking` events a second per search.
const THINKING_INTERVAL: Duration = Duration::from_millis(250);

/// The answer to `POST /analysis`.
#[derive(Serialize)]
pub struct AnalysisJson {
    ply: usize,
    score: ScoreJson,
    depth: u32,
    pv: Vec<String>,
    pv_san: Vec<String>,
}

impl GameHandle {
    /// Queues the engine's search in the pool if it is to move in an active game and has no
    /// search yet; a task plays its move when the search returns.
    pub(super) fn start_engine(self: &Arc<Self>, g: &mut Live) {
        if !g.active() || g.engine.is_some() {
            return;
        }
        let Some(level) = g.engine_to_move() else {
            return;
        };
        if self.ctx.shutting_down() {
            return;
        }
        let generation = g.generation;
        let start = *g.round.game().start();
        let moves: Vec<Move> = g.round.game().moves().to_vec();
        let root = *g.round.game().position();
        // The engine's clock runs while its search waits for a worker: the search gets what
        // is left when it starts.
        let clock = g.round.play_clock(g.turn(), g.now());
        let events = self.broadcast.clone();
        let (ticket, result) =
            self.ctx
                .pool
                .submit(g.client, Urgency::Normal, move |player, stop, waited| {
                    let clock = clock.map(|c| PlayClock {
                        remaining: c.remaining.saturating_sub(waited),
                        ..c
                    });
                    let mut last: Option<Instant> = None;
                    player.choose_move(&start, &moves, level, clock, stop, |t: &Thinking| {
                        if last.is_some_and(|l| l.elapsed() < THINKING_INTERVAL) {
                            return;
                        }
                        last = Some(Instant::now());
                        events.thinking(&root, t);
                    })
                });
        g.engine = Some(crate::game::EngineJob { generation, ticket });
        let handle = Arc::clone(self);
        tokio::spawn(async move {
            let chosen = result.await;
            let mut g = handle.lock().await;
            if g.engine.as_ref().map(|j| j.generation) != Some(generation) {
                return; // taken back, resigned, ... meanwhile
            }
            g.engine = None;
            if handle.ctx.shutting_down() {
                return;
            }
            let chosen = match chosen {
                Ok(Some(c)) => c,
                Ok(None) => return, // no legal move: the game is already over
                Err(_) => {
                    tracing::error!("game {}: the engine's search failed", g.key);
                    handle.changed(&mut g);
                    return;
                }
            };
            if let Err(e) = handle.settle(&mut g).await {
                tracing::error!("game {}: {e}", g.key);
                return;
            }
            if g.finished() {
                return; // the engine's flag fell while it thought
            }
            let color = g.turn();
            if let Err(e) = handle.engine_played(&mut g, color, chosen.mv).await {
                tracing::error!("game {}: cannot store the engine's move: {e}", g.key);
                handle.changed(&mut g);
            }
        });
    }

    /// `POST /analysis`: the engine's evaluation after `ply` moves of a finished game. The
    /// search waits its turn in the pool like any other; it is dropped if the client goes.
    pub async fn analyse(
        self: &Arc<Self>,
        who: &Actor<'_>,
        ply: Option<u64>,
        limit: AnalysisLimit,
    ) -> GameResult<AnalysisJson> {
        let (start, moves) = {
            let (g, _) = self.seated(who).await?;
            if !g.finished() {
                return Err(GameError::StillPlaying);
            }
            let n = g.ply() as u64;
            let ply = ply.unwrap_or(n);
            if ply > n {
                return Err(GameError::BeyondGame {
                    ply,
                    plies: g.ply(),
                });
            }
            (
                *g.round.game().start(),
                g.round.game().moves()[..ply as usize].to_vec(),
            )
        };
        self.ask_engine(who, Urgency::Normal, move |player, stop| {
            let a = player.analyse(&start, &moves, limit, stop, |_| {});
            let pos = moves.iter().fold(start, |p, &m| p.play(m));
            AnalysisJson {
                ply: moves.len(),
                score: a.score.for_white(pos.turn()).into(),
                depth: a.depth,
                pv: a
                    .pv
                    .iter()
                    .map(|m| m.to_uci(CastlingMode::Chess960))
                    .collect(),
                pv_san: pv_san(&pos, &a.pv),
            }
        })
        .await
    }

    /// Runs `work` in the search pool for the request of `who` and waits for it; the search is
    /// dropped if the request goes away first (the client disconnected).
    pub(super) async fn ask_engine<T: Send + 'static>(
        &self,
        who: &Actor<'_>,
        urgency: Urgency,
        work: impl FnOnce(&Player, &AtomicBool) -> T + Send + 'static,
    ) -> GameResult<T> {
        let (ticket, result) = self
            .ctx
            .pool
            .submit(who.client, urgency, move |player, stop, _| {
                work(player, stop)
            });
        let _cancel = CancelOnDrop(ticket);
        let gone = async {
            match who.gone {
                Some(g) => g.wait().await,
                None => std::future::pending().await,
            }
        };
        let unavailable = |why: &str| GameError::EngineUnavailable(why.into());
        tokio::select! {
            r = result => r.map_err(|_| unavailable("the server is shutting down")),
            () = gone => Err(unavailable("the client went away")),
        }
    }
}
