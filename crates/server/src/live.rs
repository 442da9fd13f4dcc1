//! Games in play: the actions of the API on one game, the engine's moves through the search
//! pool, the clocks' timer, and the events sent to WebSocket clients.
//!
//! Each game in memory has one [`GameHandle`]: its state behind an async mutex (so that
//! actions on one game happen one at a time, each with its store write), a broadcast channel
//! of events, and a timer task that wakes when the clocks change. The handle has no engine of
//! its own: searches run in the server's [`SearchPool`]. Which games are in memory is the
//! registry's business (`registry.rs`).
//!
//! Every action that changes a game needs its seat ([`Actor::seat`], see `seat.rs`); reading
//! it does not.

use crate::game::{color_name, finish_of, mover, parse_move, GameView, Live, Phase};
use crate::game_error::{GameError, GameResult};
use crate::pool::{SearchPool, Ticket, Urgency};
use chess960_core::{Color, Move, Outcome, Position, Termination};
use chess960_engine::player::DRAW_OFFER_THINK;
use chess960_engine::player::{draw_decline, AnalysisLimit, PlayClock, Player, Score, Thinking};
use chess960_store::{Finish, GameStore};
use serde::Serialize;
use serde_json::json;
use std::net::IpAddr;
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex as StdMutex, Weak};
use std::time::{Duration, Instant};
use tokio::sync::{broadcast, watch, Mutex, MutexGuard, Notify};

/// At most this many `thinking` events a second per search.
const THINKING_INTERVAL: Duration = Duration::from_millis(250);
/// The `clock` event's period.
const CLOCK_TICK: Duration = Duration::from_secs(1);

/// What every game shares: the store, the search pool and the server's shutdown signal.
pub struct Ctx {
    pub store: Arc<dyn GameStore>,
    pub pool: SearchPool,
    pub shutdown: watch::Receiver<bool>,
    /// How long the player has for their first move before the game is aborted.
    pub abandon_after: Duration,
}

impl Ctx {
    fn shutting_down(&self) -> bool {
        *self.shutdown.borrow()
    }
}

/// Runs a store call on a blocking thread.
pub async fn blocking<T: Send + 'static>(
    f: impl FnOnce() -> Result<T, chess960_store::StoreError> + Send + 'static,
) -> GameResult<T> {
    tokio::task::spawn_blocking(f)
        .await
        .map_err(|e| GameError::Worker(e.to_string()))?
        .map_err(GameError::from)
}

/// Who asks for an action: the seat token they sent, if any, and their address.
#[derive(Clone, Copy, Debug)]
pub struct Actor<'a> {
    /// The seat token (`X-Seat-Token`).
    pub seat: Option<&'a str>,
    /// The client's IP address: searches the action starts are queued in its name.
    pub client: IpAddr,
}

/// One game in memory.
pub struct GameHandle {
    ctx: Arc<Ctx>,
    state: Mutex<Live>,
    events: broadcast::Sender<Arc<str>>,
    /// Wakes the timer task: the clocks changed, or the handle is gone.
    wake: Arc<Notify>,
    /// When the game was last asked for (the registry unloads idle games).
    last_used: StdMutex<Instant>,
}

impl Drop for GameHandle {
    fn drop(&mut self) {
        // The timer holds only a weak reference: woken, it finds the game gone and ends.
        self.wake.notify_one();
    }
}

/// A `state` event.
fn state_event(view: &GameView) -> Arc<str> {
    json!({"type": "state", "game": view}).to_string().into()
}

/// A score in the API: `{"cp": 34}` or `{"mate": -3}`.
#[derive(Serialize, Clone, Copy, Debug, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum ScoreJson {
    Cp(i32),
    Mate(i32),
}

impl From<Score> for ScoreJson {
    fn from(s: Score) -> ScoreJson {
        match s {
            Score::Cp(c) => ScoreJson::Cp(c),
            Score::Mate(m) => ScoreJson::Mate(m),
        }
    }
}

/// The moves of `pv` in SAN from `pos` (stopping at an illegal one).
pub(crate) fn pv_san(pos: &Position, pv: &[Move]) -> Vec<String> {
    let mut p = *pos;
    let mut out = Vec::with_capacity(pv.len());
    for &m in pv {
        if !p.is_legal(m) {
            break;
        }
        out.push(p.san(m));
        p = p.play(m);
    }
    out
}

/// The answer to `POST /analysis`.
#[derive(Serialize)]
pub struct AnalysisJson {
    ply: usize,
    score: ScoreJson,
    depth: u32,
    pv: Vec<String>,
    pv_san: Vec<String>,
}

/// Cancels a search when the request waiting for it goes away (the client disconnected).
pub(crate) struct CancelOnDrop(pub(crate) Ticket);

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        self.0.cancel();
    }
}

impl GameHandle {
    /// A handle for `live`, with its timer running (and the deadline of the player's first
    /// move, if the game waits for it: see [`Live::rearm_abandon`]).
    pub fn new(ctx: Arc<Ctx>, mut live: Live) -> Arc<GameHandle> {
        live.abandon_after = ctx.abandon_after;
        live.rearm_abandon(Instant::now());
        let (events, _) = broadcast::channel(64);
        let wake = Arc::new(Notify::new());
        let h = Arc::new(GameHandle {
            ctx,
            state: Mutex::new(live),
            events,
            wake: Arc::clone(&wake),
            last_used: StdMutex::new(Instant::now()),
        });
        let shutdown = h.ctx.shutdown.clone();
        tokio::spawn(timer(Arc::downgrade(&h), wake, shutdown));
        h
    }

    /// Locks the game's state.
    pub async fn lock(&self) -> MutexGuard<'_, Live> {
        self.state.lock().await
    }

    /// Subscribes to the game's events.
    pub fn subscribe(&self) -> broadcast::Receiver<Arc<str>> {
        self.events.subscribe()
    }

    /// Marks the game as used now.
    pub fn touch(&self) {
        *self.last_used.lock().unwrap_or_else(|e| e.into_inner()) = Instant::now();
    }

    /// How long the game has not been asked for.
    pub fn idle_for(&self, now: Instant) -> Duration {
        now.saturating_duration_since(*self.last_used.lock().unwrap_or_else(|e| e.into_inner()))
    }

    /// True if the game could leave memory now ([`Live::unloadable`]); false while an action
    /// holds it.
    pub fn unloadable_now(&self) -> bool {
        self.state.try_lock().is_ok_and(|g| g.unloadable())
    }

    /// Wakes the timer (at shutdown, so that it ends).
    pub fn wake_timer(&self) {
        self.wake.notify_one();
    }

    /// The game view now, after checking the flag.
    pub async fn view(self: &Arc<Self>) -> GameResult<GameView> {
        let mut g = self.lock().await;
        self.settle(&mut g).await?;
        Ok(g.view(Instant::now()))
    }

    /// Locks the game for an action of `who`: their seat is checked, the flag too, and the
    /// engine's searches will be queued in their name.
    async fn seated(&self, who: &Actor<'_>) -> GameResult<MutexGuard<'_, Live>> {
        let mut g = self.lock().await;
        g.seat.check(who.seat, g.id.0)?;
        g.client = who.client;
        self.settle(&mut g).await?;
        Ok(g)
    }

    /// Sends the state to every client and wakes the timer.
    fn changed(&self, g: &Live) {
        let _ = self.events.send(state_event(&g.view(Instant::now())));
        self.wake.notify_one();
    }

    /// Stores a result and ends the game.
    pub async fn finish(&self, g: &mut Live, finish: Finish) -> GameResult<()> {
        let store = Arc::clone(&self.ctx.store);
        let (id, f) = (g.id, finish.clone());
        blocking(move || store.finish_game(id, &f)).await?;
        g.set_finished(finish, Instant::now());
        self.changed(g);
        Ok(())
    }

    /// Ends the game on time if the running side's flag has fallen.
    async fn settle(&self, g: &mut Live) -> GameResult<()> {
        if let Some(f) = g.flag_fall(Instant::now()) {
            self.finish(g, f).await?;
        }
        Ok(())
    }

    /// Starts the clocks of a game that was paused or in study time, and the engine if it is
    /// to move. Returns whether anything changed.
    fn resume(self: &Arc<Self>, g: &mut Live) -> bool {
        if g.finished() || !(g.paused || matches!(g.phase, Phase::Study { .. })) {
            return false;
        }
        g.paused = false;
        g.phase = Phase::Playing;
        g.generation += 1;
        g.start_clock(Instant::now());
        g.rearm_abandon(Instant::now());
        self.start_engine(g);
        true
    }

    /// A WebSocket client connected: with the seat, a paused game resumes; without it, the
    /// client only watches.
    pub async fn client_connected(self: &Arc<Self>, who: &Actor<'_>) -> GameResult<GameView> {
        let mut g = self.lock().await;
        self.settle(&mut g).await?;
        if g.paused && g.seat.check(who.seat, g.id.0).is_ok() {
            g.client = who.client;
            if self.resume(&mut g) {
                self.changed(&g);
            }
        }
        Ok(g.view(Instant::now()))
    }

    /// Starts a new game: its study time, or its clocks and (if it moves first) the engine.
    pub fn begin(self: &Arc<Self>, g: &mut Live, study: Option<Duration>) {
        if g.finished() {
            return;
        }
        // The first move's deadline counts from the end of the study time.
        g.abandon_at = None;
        match study {
            Some(d) if !d.is_zero() => {
                g.phase = Phase::Study {
                    until: Instant::now() + d,
                };
                self.wake.notify_one();
            }
            _ => {
                g.phase = Phase::Playing;
                g.start_clock(Instant::now());
                g.rearm_abandon(Instant::now());
                self.start_engine(g);
                self.wake.notify_one();
            }
        }
    }

    /// `POST /moves`: the human's move at half-move `ply`.
    pub async fn human_move(
        self: &Arc<Self>,
        who: &Actor<'_>,
        text: &str,
        ply: u64,
    ) -> GameResult<GameView> {
        let mut g = self.seated(who).await?;
        over(&g)?;
        if ply != g.ply() as u64 {
            return Err(GameError::StalePly {
                sent: ply,
                played: g.ply(),
            });
        }
        if g.turn() != g.human {
            return Err(GameError::NotYourTurn { to_move: g.turn() });
        }
        let m = parse_move(g.game.position(), text).map_err(GameError::IllegalMove)?;
        // A move in study time or in a paused game starts the clocks first, so that it costs
        // the mover nothing.
        self.resume(&mut g);
        g.premove = None;
        self.play(&mut g, m).await?;
        Ok(g.view(Instant::now()))
    }

    /// Stores and applies a legal move of the side to move, then lets the engine reply (or
    /// plays the human's premove after the engine's move).
    async fn play(self: &Arc<Self>, g: &mut Live, m: Move) -> GameResult<()> {
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

    /// Queues the engine's search in the pool if it is to move in an active game and has no
    /// search yet; a task plays its move when the search returns.
    fn start_engine(self: &Arc<Self>, g: &mut Live) {
        if !g.active() || g.turn() != g.engine_color() || g.engine.is_some() {
            return;
        }
        if self.ctx.shutting_down() {
            return;
        }
        let generation = g.generation;
        let start = *g.game.start();
        let moves: Vec<Move> = g.game.moves().to_vec();
        let root = *g.game.position();
        let level = g.level;
        // The engine's clock runs while its search waits for a worker: the search gets what
        // is left when it starts.
        let clock = match (g.tc, g.clocks_at(Instant::now())) {
            (Some(tc), Some(c)) => Some(PlayClock {
                remaining: Duration::from_millis(match g.engine_color() {
                    Color::White => c.white_ms,
                    Color::Black => c.black_ms,
                }),
                increment: Duration::from_millis(tc.increment_ms),
            }),
            _ => None,
        };
        let events = self.events.clone();
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
                        let _ = events.send(thinking_event(&root, t));
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
                    handle.changed(&g);
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
            if let Err(e) = handle.play(&mut g, chosen.mv).await {
                tracing::error!("game {}: cannot store the engine's move: {e}", g.key);
                handle.changed(&g);
                return;
            }
            handle.play_premove(&mut g).await;
        });
    }

    /// Plays the human's queued move if it is their turn and the move is legal now; an
    /// illegal one is dropped.
    async fn play_premove(self: &Arc<Self>, g: &mut Live) {
        let Some(text) = g.premove.take() else {
            return;
        };
        if !g.active() || g.turn() != g.human {
            return;
        }
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
        let mut g = self.seated(who).await?;
        over(&g)?;
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
                if g.turn() == g.human && g.phase == Phase::Playing && !g.paused {
                    return Err(GameError::YourTurn);
                }
                g.premove = Some(t);
            }
        }
        self.resume(&mut g);
        self.changed(&g);
        Ok(g.view(Instant::now()))
    }

    /// `POST /takeback`: the human's last move and the engine's reply to it.
    pub async fn takeback(self: &Arc<Self>, who: &Actor<'_>) -> GameResult<GameView> {
        let mut g = self.seated(who).await?;
        if g.finished() && g.game.outcome().is_none() {
            let reason = g.finish.as_ref().map_or("", |f| f.reason.as_str());
            return Err(GameError::TakebackAfter(reason.to_string()));
        }
        let first = g.game.start().turn();
        let human = g.human;
        let Some(keep) = (0..g.ply()).rev().find(|&i| mover(first, i) == human) else {
            return Err(GameError::NothingToTakeBack);
        };
        g.stop_engine();
        let store = Arc::clone(&self.ctx.store);
        let id = g.id;
        blocking(move || store.truncate_moves(id, keep as u32)).await?;
        g.paused = false;
        g.phase = Phase::Playing;
        g.truncate(keep, Instant::now());
        self.changed(&g);
        Ok(g.view(Instant::now()))
    }

    /// `POST /abort`: ends a game before both sides have moved, with no result (see
    /// [`Finish::aborted`]).
    pub async fn abort(self: &Arc<Self>, who: &Actor<'_>) -> GameResult<GameView> {
        let mut g = self.seated(who).await?;
        over(&g)?;
        if !g.abortable() {
            return Err(GameError::NotAbortable);
        }
        self.finish(&mut g, Finish::aborted()).await?;
        Ok(g.view(Instant::now()))
    }

    /// Deletes the game from the store for `who`: a game with a seat needs its token, one
    /// without (imported, or played on the terminal) only the server's access. Whatever was
    /// pending in it stops. The registry forgets the handle (`registry.rs`).
    pub async fn delete(self: &Arc<Self>, who: &Actor<'_>) -> GameResult<()> {
        let mut g = self.lock().await;
        if g.deleted {
            return Err(GameError::NoSuchGame {
                key: g.key.to_string(),
            });
        }
        if matches!(g.seat, crate::seat::Seat::Held { .. }) {
            g.seat.check(who.seat, g.id.0)?;
        }
        let store = Arc::clone(&self.ctx.store);
        let id = g.id;
        blocking(move || store.delete_game(id)).await?;
        g.deleted = true;
        g.stop_clock(Instant::now());
        g.stop_engine();
        g.premove = None;
        g.abandon_at = None;
        g.generation += 1;
        let _ = self.events.send(
            json!({"type": "deleted", "key": g.key.as_str()})
                .to_string()
                .into(),
        );
        self.wake.notify_one();
        Ok(())
    }

    /// `POST /resign`.
    pub async fn resign(self: &Arc<Self>, who: &Actor<'_>) -> GameResult<GameView> {
        let mut g = self.seated(who).await?;
        over(&g)?;
        let f = finish_of(Outcome::Win {
            winner: g.engine_color(),
            reason: Termination::Resignation,
        });
        self.finish(&mut g, f).await?;
        Ok(g.view(Instant::now()))
    }

    /// `POST /draw` with `claim`.
    pub async fn claim_draw(self: &Arc<Self>, who: &Actor<'_>) -> GameResult<GameView> {
        let mut g = self.seated(who).await?;
        over(&g)?;
        let Some(t) = g.draw_claim() else {
            return Err(GameError::NoDrawToClaim);
        };
        self.finish(&mut g, finish_of(Outcome::Draw { reason: t }))
            .await?;
        Ok(g.view(Instant::now()))
    }

    /// `POST /draw` with `offer`: the engine accepts when its evaluation of the position is
    /// within ±0.3 pawns after move 30.
    pub async fn offer_draw(self: &Arc<Self>, who: &Actor<'_>) -> GameResult<GameView> {
        let (pos, history, generation) = {
            let g = self.seated(who).await?;
            over(&g)?;
            // Declined at once when no evaluation could make the engine accept.
            if let Some(why) = draw_decline(None, g.game.position().fullmoves()) {
                let mut v = g.view(Instant::now());
                v.draw_offer = Some("declined");
                v.draw_offer_reason = Some(why.to_string());
                return Ok(v);
            }
            (*g.game.start(), g.game.moves().to_vec(), g.generation)
        };
        // Evaluate without holding the game, so that clocks and the engine's own search go
        // on meanwhile. A short, bounded search: it goes before the client's other searches.
        let analysis = self
            .ask_engine(who, Urgency::Quick, move |player, stop| {
                let limit = AnalysisLimit::Movetime(DRAW_OFFER_THINK);
                player.analyse(&pos, &history, limit, stop, |_| {})
            })
            .await?;
        let mut g = self.lock().await;
        self.settle(&mut g).await?;
        over(&g)?;
        let decline = if g.generation == generation {
            draw_decline(Some(analysis.score), g.game.position().fullmoves())
                .map(|why| why.to_string())
        } else {
            Some("the position changed while the engine considered the offer".to_string())
        };
        let accept = decline.is_none();
        if accept {
            let f = finish_of(Outcome::Draw {
                reason: Termination::Agreement,
            });
            self.finish(&mut g, f).await?;
        }
        let mut v = g.view(Instant::now());
        v.draw_offer = Some(if accept { "accepted" } else { "declined" });
        v.draw_offer_reason = decline;
        Ok(v)
    }

    /// `POST /start`: ends the study time.
    pub async fn start(self: &Arc<Self>, who: &Actor<'_>) -> GameResult<GameView> {
        let mut g = self.seated(who).await?;
        over(&g)?;
        if self.resume(&mut g) {
            self.changed(&g);
        }
        Ok(g.view(Instant::now()))
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
            let g = self.seated(who).await?;
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
            (*g.game.start(), g.game.moves()[..ply as usize].to_vec())
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
                    .map(|m| m.to_uci(chess960_core::CastlingMode::Chess960))
                    .collect(),
                pv_san: pv_san(&pos, &a.pv),
            }
        })
        .await
    }

    /// Runs `work` in the search pool for the request of `who` and waits for it; the search is
    /// dropped if the request goes away first (the client disconnected).
    async fn ask_engine<T: Send + 'static>(
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
        result
            .await
            .map_err(|_| GameError::EngineUnavailable("the server is shutting down".into()))
    }

    /// The game as stored, for a PGN export (after recording a fallen flag).
    pub async fn stored(self: &Arc<Self>) -> GameResult<chess960_store::StoredGame> {
        let (id, key) = {
            let mut g = self.lock().await;
            self.settle(&mut g).await?;
            (g.id, g.key.to_string())
        };
        let store = Arc::clone(&self.ctx.store);
        blocking(move || store.game(id))
            .await?
            .ok_or(GameError::NoSuchGame { key })
    }

    /// One step of the timer: what to do now, and when to wake next (`None`: only when
    /// woken). `next_tick` is the next one-second `clock` event while a clock runs.
    async fn tick(self: &Arc<Self>, next_tick: &mut Option<Instant>) -> Option<Instant> {
        let mut g = self.lock().await;
        let now = Instant::now();
        if g.deleted {
            return None;
        }
        if g.abandoned(now) {
            if let Err(e) = self.finish(&mut g, Finish::aborted()).await {
                tracing::error!("game {}: cannot store the abort: {e}", g.key);
            }
        }
        if let Phase::Study { until } = g.phase {
            if now >= until && !g.finished() {
                self.resume(&mut g);
                self.changed(&g);
            }
        }
        if let Err(e) = self.settle(&mut g).await {
            tracing::error!("game {}: cannot store the time forfeit: {e}", g.key);
        }
        if g.finished() {
            *next_tick = None;
            return None;
        }
        if next_tick.is_some_and(|t| now >= t) {
            *next_tick = Some(now + CLOCK_TICK);
            if let Some(c) = g.clocks_at(now) {
                let msg = json!({
                    "type": "clock",
                    "white_ms": c.white_ms,
                    "black_ms": c.black_ms,
                    "running": g.running().map(color_name),
                });
                let _ = self.events.send(msg.to_string().into());
            }
        }
        let mut wake = g.abandon_at;
        if let Phase::Study { until } = g.phase {
            wake = Some(wake.map_or(until, |w| w.min(until)));
        }
        if let Some(flag) = g.flag_time() {
            let tick = *next_tick.get_or_insert_with(|| now + CLOCK_TICK);
            let at = flag.min(tick);
            wake = Some(wake.map_or(at, |w| w.min(at)));
        } else {
            *next_tick = None;
        }
        wake
    }
}

/// The timer of one game: ends study time, sends a `clock` event every second while a clock
/// runs, and ends the game when a flag falls. It sleeps until the next of these or until
/// woken, and holds the game only while it works, so that an idle game can leave memory; it
/// ends when the game has.
async fn timer(game: Weak<GameHandle>, wake: Arc<Notify>, mut shutdown: watch::Receiver<bool>) {
    let mut next_tick: Option<Instant> = None;
    loop {
        if *shutdown.borrow() {
            return;
        }
        let at = {
            let Some(h) = game.upgrade() else { return };
            h.tick(&mut next_tick).await
        };
        let woken = wake.notified();
        match at {
            Some(at) => {
                tokio::select! {
                    _ = tokio::time::sleep_until(at.into()) => {}
                    _ = woken => {}
                    _ = shutdown.changed() => return,
                }
            }
            None => {
                tokio::select! {
                    _ = woken => {}
                    _ = shutdown.changed() => return,
                }
            }
        }
    }
}

/// Refuses an action on a finished (or deleted) game.
fn over(g: &Live) -> GameResult<()> {
    if g.deleted {
        return Err(GameError::NoSuchGame {
            key: g.key.to_string(),
        });
    }
    match &g.finish {
        Some(f) => Err(GameError::Over {
            result: f.result.clone(),
            reason: f.reason.clone(),
        }),
        None => Ok(()),
    }
}

/// A `thinking` event: the engine's line so far, from White's point of view.
fn thinking_event(root: &Position, t: &Thinking) -> Arc<str> {
    json!({
        "type": "thinking",
        "depth": t.depth,
        "score": ScoreJson::from(t.score.for_white(root.turn())),
        "pv": t.pv.iter().map(|m| m.to_uci(chess960_core::CastlingMode::Chess960)).collect::<Vec<_>>(),
        "pv_san": pv_san(root, &t.pv),
        "nodes": t.nodes,
    })
    .to_string()
    .into()
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
