//! Games in play: loading them from the store, the actions of the API, the engine's moves on a
//! blocking thread, the clocks' timer, and the events sent to WebSocket clients.
//!
//! Each game has one [`GameHandle`]: its state behind an async mutex (so that actions on one
//! game happen one at a time, each with its store write), a broadcast channel of events, a
//! `Notify` that wakes its timer task when the clocks change, and the engine's player with
//! its hash table.

use crate::error::{ApiError, ApiResult};
use crate::game::{color_name, finish_of, mover, parse_move, GameView, Live, Phase};
use chess960_core::{Color, Move, Outcome, Position, Termination};
use chess960_engine::player::{
    accepts_draw, AnalysisLimit, PlayClock, Player, Score, Thinking, DRAW_OFFER_THINK,
};
use chess960_store::{Finish, GameKey, GameStore};
use serde::Serialize;
use serde_json::json;
use std::collections::HashMap;
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex as StdMutex};
use std::time::{Duration, Instant};
use tokio::sync::{broadcast, watch, Mutex, MutexGuard, Notify};

/// Hash table of each game's engine, MiB. Small: the levels people play against search few
/// nodes, and many games may be open at once.
const GAME_HASH_MB: usize = 8;
/// Hash table for analysis, MiB.
const ANALYSIS_HASH_MB: usize = 32;
/// At most this many `thinking` events a second per search.
const THINKING_INTERVAL: Duration = Duration::from_millis(250);
/// The `clock` event's period.
const CLOCK_TICK: Duration = Duration::from_secs(1);

/// What every game shares: the store and the server's shutdown signal.
pub struct Ctx {
    pub store: Arc<dyn GameStore>,
    pub shutdown: watch::Receiver<bool>,
}

impl Ctx {
    fn shutting_down(&self) -> bool {
        *self.shutdown.borrow()
    }
}

/// Runs a store call on a blocking thread.
pub async fn blocking<T: Send + 'static>(
    f: impl FnOnce() -> Result<T, chess960_store::StoreError> + Send + 'static,
) -> ApiResult<T> {
    tokio::task::spawn_blocking(f)
        .await
        .map_err(|e| ApiError::internal(format!("a worker thread failed: {e}")))?
        .map_err(ApiError::from)
}

/// One game in memory.
pub struct GameHandle {
    ctx: Arc<Ctx>,
    state: Mutex<Live>,
    events: broadcast::Sender<Arc<str>>,
    notify: Notify,
    player: Player,
    /// The stop flag of the engine's current search, reachable without the game's lock (at
    /// shutdown).
    search_stop: StdMutex<Arc<AtomicBool>>,
}

/// The games in memory, by key; others are loaded from the store when first asked for.
pub struct Games {
    ctx: Arc<Ctx>,
    map: StdMutex<HashMap<String, Arc<GameHandle>>>,
}

impl Games {
    /// No games loaded yet.
    pub fn new(ctx: Arc<Ctx>) -> Games {
        Games {
            ctx,
            map: StdMutex::new(HashMap::new()),
        }
    }

    /// The shared context.
    pub fn ctx(&self) -> &Arc<Ctx> {
        &self.ctx
    }

    /// The game with this key, from memory or the store; 404 for a malformed or unknown key.
    pub async fn get(&self, key: &str) -> ApiResult<Arc<GameHandle>> {
        let unknown = || ApiError::not_found(format!("no game with key '{key}'"));
        let key = GameKey::parse(key).ok_or_else(unknown)?;
        if let Some(h) = self.lock().get(key.as_str()) {
            return Ok(Arc::clone(h));
        }
        let store = Arc::clone(&self.ctx.store);
        let k = key.clone();
        let stored = blocking(move || store.game_by_key(&k))
            .await?
            .ok_or_else(unknown)?;
        let live = Live::from_stored(stored).map_err(|e| {
            ApiError::internal(format!("game {key} cannot be read from the database: {e}"))
        })?;
        // Another request may have loaded it meanwhile: keep the first.
        let handle = {
            let mut map = self.lock();
            if let Some(h) = map.get(key.as_str()) {
                return Ok(Arc::clone(h));
            }
            let h = GameHandle::new(Arc::clone(&self.ctx), live);
            map.insert(key.to_string(), Arc::clone(&h));
            h
        };
        // A game whose last move ended it by the rules but whose result was not stored (the
        // server stopped between the two writes) gets it now.
        let mut g = handle.state.lock().await;
        if g.finish.is_none() {
            if let Some(o) = g.game.outcome() {
                handle.finish(&mut g, finish_of(o)).await?;
            }
        }
        drop(g);
        Ok(handle)
    }

    /// Adds a game just created.
    pub fn insert(&self, live: Live) -> Arc<GameHandle> {
        let key = live.key.to_string();
        let h = GameHandle::new(Arc::clone(&self.ctx), live);
        self.lock().insert(key, Arc::clone(&h));
        h
    }

    /// Stops every search (at shutdown).
    pub fn stop_all(&self) {
        for h in self.lock().values() {
            h.notify.notify_one();
            let stop = h.search_stop.lock().unwrap_or_else(|e| e.into_inner());
            stop.store(true, std::sync::atomic::Ordering::SeqCst);
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, Arc<GameHandle>>> {
        self.map.lock().unwrap_or_else(|e| e.into_inner())
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
fn pv_san(pos: &Position, pv: &[Move]) -> Vec<String> {
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

impl GameHandle {
    fn new(ctx: Arc<Ctx>, live: Live) -> Arc<GameHandle> {
        let (events, _) = broadcast::channel(64);
        let h = Arc::new(GameHandle {
            ctx,
            state: Mutex::new(live),
            events,
            notify: Notify::new(),
            player: Player::new(GAME_HASH_MB),
            search_stop: StdMutex::new(Arc::new(AtomicBool::new(false))),
        });
        tokio::spawn(Arc::clone(&h).timer());
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

    /// The game view now, after checking the flag.
    pub async fn view(self: &Arc<Self>) -> ApiResult<GameView> {
        let mut g = self.lock().await;
        self.settle(&mut g).await?;
        Ok(g.view(Instant::now()))
    }

    /// Sends the state to every client and wakes the timer.
    fn changed(&self, g: &Live) {
        let _ = self.events.send(state_event(&g.view(Instant::now())));
        self.notify.notify_one();
    }

    /// Stores a result and ends the game.
    async fn finish(&self, g: &mut Live, finish: Finish) -> ApiResult<()> {
        let store = Arc::clone(&self.ctx.store);
        let (id, f) = (g.id, finish.clone());
        blocking(move || store.finish_game(id, &f)).await?;
        g.set_finished(finish, Instant::now());
        self.changed(g);
        Ok(())
    }

    /// Ends the game on time if the running side's flag has fallen.
    async fn settle(&self, g: &mut Live) -> ApiResult<()> {
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
        self.start_engine(g);
        true
    }

    /// A client connected: a paused game resumes.
    pub async fn client_connected(self: &Arc<Self>) -> ApiResult<GameView> {
        let mut g = self.lock().await;
        self.settle(&mut g).await?;
        if g.paused && self.resume(&mut g) {
            self.changed(&g);
        }
        Ok(g.view(Instant::now()))
    }

    /// Starts a new game: its study time, or its clocks and (if it moves first) the engine.
    pub fn begin(self: &Arc<Self>, g: &mut Live, study: Option<Duration>) {
        if g.finished() {
            return;
        }
        match study {
            Some(d) if !d.is_zero() => {
                g.phase = Phase::Study {
                    until: Instant::now() + d,
                };
                self.notify.notify_one();
            }
            _ => {
                g.phase = Phase::Playing;
                g.start_clock(Instant::now());
                self.start_engine(g);
            }
        }
    }

    /// `POST /moves`: the human's move at half-move `ply`.
    pub async fn human_move(self: &Arc<Self>, text: &str, ply: u64) -> ApiResult<GameView> {
        let mut g = self.lock().await;
        self.settle(&mut g).await?;
        if let Some(f) = &g.finish {
            return Err(ApiError::conflict(format!(
                "the game is over ({} by {})",
                f.result, f.reason
            )));
        }
        if ply != g.ply() as u64 {
            return Err(ApiError::conflict(format!(
                "ply: {ply} moves were expected to be played, but the game has {} (reload it)",
                g.ply()
            )));
        }
        if g.turn() != g.human {
            return Err(ApiError::conflict(format!(
                "it is not your turn: {} (the engine) is to move",
                color_name(g.turn())
            )));
        }
        let m = parse_move(g.game.position(), text)
            .map_err(|e| ApiError::unprocessable(format!("move: {e}")))?;
        // A move in study time or in a paused game starts the clocks first, so that it costs
        // the mover nothing.
        self.resume(&mut g);
        g.premove = None;
        self.play(&mut g, m).await?;
        Ok(g.view(Instant::now()))
    }

    /// Stores and applies a legal move of the side to move, then lets the engine reply (or
    /// plays the human's premove after the engine's move).
    async fn play(self: &Arc<Self>, g: &mut Live, m: Move) -> ApiResult<()> {
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

    /// Starts the engine's search if it is to move in an active game and not searching yet.
    fn start_engine(self: &Arc<Self>, g: &mut Live) {
        if !g.active() || g.turn() != g.engine_color() || g.engine.is_some() {
            return;
        }
        if self.ctx.shutting_down() {
            return;
        }
        let stop = Arc::new(AtomicBool::new(false));
        let generation = g.generation;
        g.engine = Some(crate::game::EngineJob {
            generation,
            stop: Arc::clone(&stop),
        });
        *self.search_stop.lock().unwrap_or_else(|e| e.into_inner()) = Arc::clone(&stop);
        let start = *g.game.start();
        let moves: Vec<Move> = g.game.moves().to_vec();
        let root = *g.game.position();
        let level = g.level;
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
        let handle = Arc::clone(self);
        tokio::spawn(async move {
            let h = Arc::clone(&handle);
            let chosen = tokio::task::spawn_blocking(move || {
                let mut last: Option<Instant> = None;
                let events = &h.events;
                h.player
                    .choose_move(&start, &moves, level, clock, &stop, |t: &Thinking| {
                        if last.is_some_and(|l| l.elapsed() < THINKING_INTERVAL) {
                            return;
                        }
                        last = Some(Instant::now());
                        let msg = json!({
                            "type": "thinking",
                            "depth": t.depth,
                            "score": ScoreJson::from(t.score.for_white(root.turn())),
                            "pv": t.pv.iter().map(|m| m.to_uci(chess960_core::CastlingMode::Chess960)).collect::<Vec<_>>(),
                            "pv_san": pv_san(&root, &t.pv),
                            "nodes": t.nodes,
                        });
                        let _ = events.send(msg.to_string().into());
                    })
            })
            .await;
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
                Err(e) => {
                    tracing::error!("game {}: the engine's thread failed: {e}", g.key);
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
    pub async fn premove(self: &Arc<Self>, text: Option<String>) -> ApiResult<GameView> {
        let mut g = self.lock().await;
        self.settle(&mut g).await?;
        if g.finished() {
            return Err(ApiError::conflict("the game is over"));
        }
        match text {
            None => g.premove = None,
            Some(t) => {
                let t = t.trim().to_string();
                if !plausible_move(&t) {
                    return Err(ApiError::unprocessable(format!(
                        "move: '{}' is not a move in UCI (g1f3, e7e8q) or SAN (Nf3, O-O)",
                        t.chars().take(20).collect::<String>()
                    )));
                }
                if g.turn() == g.human && g.phase == Phase::Playing && !g.paused {
                    return Err(ApiError::conflict(
                        "it is your turn: play the move instead of queuing it",
                    ));
                }
                g.premove = Some(t);
            }
        }
        self.resume(&mut g);
        self.changed(&g);
        Ok(g.view(Instant::now()))
    }

    /// `POST /takeback`: the human's last move and the engine's reply to it.
    pub async fn takeback(self: &Arc<Self>) -> ApiResult<GameView> {
        let mut g = self.lock().await;
        self.settle(&mut g).await?;
        if g.finished() && g.game.outcome().is_none() {
            let reason = g.finish.as_ref().map_or("", |f| f.reason.as_str());
            return Err(ApiError::conflict(format!(
                "the game ended by {reason}: only a game ended on the board can be taken back"
            )));
        }
        let first = g.game.start().turn();
        let human = g.human;
        let Some(keep) = (0..g.ply()).rev().find(|&i| mover(first, i) == human) else {
            return Err(ApiError::conflict("you have no move to take back"));
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

    /// `POST /resign`.
    pub async fn resign(self: &Arc<Self>) -> ApiResult<GameView> {
        let mut g = self.lock().await;
        self.settle(&mut g).await?;
        if g.finished() {
            return Err(ApiError::conflict("the game is over"));
        }
        let f = finish_of(Outcome::Win {
            winner: g.engine_color(),
            reason: Termination::Resignation,
        });
        self.finish(&mut g, f).await?;
        Ok(g.view(Instant::now()))
    }

    /// `POST /draw` with `claim`.
    pub async fn claim_draw(self: &Arc<Self>) -> ApiResult<GameView> {
        let mut g = self.lock().await;
        self.settle(&mut g).await?;
        if g.finished() {
            return Err(ApiError::conflict("the game is over"));
        }
        let Some(t) = g.draw_claim() else {
            return Err(ApiError::conflict(
                "no draw to claim: the position has not occurred three times and there were \
                 fewer than 50 moves by each side without a capture or pawn move",
            ));
        };
        self.finish(&mut g, finish_of(Outcome::Draw { reason: t }))
            .await?;
        Ok(g.view(Instant::now()))
    }

    /// `POST /draw` with `offer`: the engine accepts when its evaluation of the position is
    /// within ±0.3 pawns after move 30.
    pub async fn offer_draw(self: &Arc<Self>) -> ApiResult<GameView> {
        let (pos, history, generation) = {
            let mut g = self.lock().await;
            self.settle(&mut g).await?;
            if g.finished() {
                return Err(ApiError::conflict("the game is over"));
            }
            // Declined at once when no evaluation could make the engine accept.
            if !accepts_draw(Score::Cp(0), g.game.position().fullmoves()) {
                let mut v = g.view(Instant::now());
                v.draw_offer = Some("declined");
                return Ok(v);
            }
            (*g.game.start(), g.game.moves().to_vec(), g.generation)
        };
        // Evaluate without holding the game, so that clocks and the engine's own search go
        // on meanwhile.
        let analysis = tokio::task::spawn_blocking(move || {
            let player = Player::new(4);
            let stop = AtomicBool::new(false);
            player.analyse(
                &pos,
                &history,
                AnalysisLimit::Movetime(DRAW_OFFER_THINK),
                &stop,
                |_| {},
            )
        })
        .await
        .map_err(|e| ApiError::internal(format!("a worker thread failed: {e}")))?;
        let mut g = self.lock().await;
        self.settle(&mut g).await?;
        if g.finished() {
            return Err(ApiError::conflict("the game is over"));
        }
        let accept = g.generation == generation
            && accepts_draw(analysis.score, g.game.position().fullmoves());
        if accept {
            let f = finish_of(Outcome::Draw {
                reason: Termination::Agreement,
            });
            self.finish(&mut g, f).await?;
        }
        let mut v = g.view(Instant::now());
        v.draw_offer = Some(if accept { "accepted" } else { "declined" });
        Ok(v)
    }

    /// `POST /start`: ends the study time.
    pub async fn start(self: &Arc<Self>) -> ApiResult<GameView> {
        let mut g = self.lock().await;
        self.settle(&mut g).await?;
        if g.finished() {
            return Err(ApiError::conflict("the game is over"));
        }
        if self.resume(&mut g) {
            self.changed(&g);
        }
        Ok(g.view(Instant::now()))
    }

    /// `POST /analysis`: the engine's evaluation after `ply` moves of a finished game.
    pub async fn analyse(
        self: &Arc<Self>,
        ply: Option<u64>,
        limit: AnalysisLimit,
    ) -> ApiResult<AnalysisJson> {
        let (start, moves) = {
            let mut g = self.lock().await;
            self.settle(&mut g).await?;
            if !g.finished() {
                return Err(ApiError::conflict(
                    "analysis is only for finished games (it would help one side)",
                ));
            }
            let n = g.ply() as u64;
            let ply = ply.unwrap_or(n);
            if ply > n {
                return Err(ApiError::bad_request(format!(
                    "ply: {ply} is beyond the game's {n} half-moves"
                )));
            }
            (*g.game.start(), g.game.moves()[..ply as usize].to_vec())
        };
        tokio::task::spawn_blocking(move || {
            let player = Player::new(ANALYSIS_HASH_MB);
            let stop = AtomicBool::new(false);
            let a = player.analyse(&start, &moves, limit, &stop, |_| {});
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
        .map_err(|e| ApiError::internal(format!("a worker thread failed: {e}")))
    }

    /// The game as stored, for a PGN export (after recording a fallen flag).
    pub async fn stored(self: &Arc<Self>) -> ApiResult<chess960_store::StoredGame> {
        let id = {
            let mut g = self.lock().await;
            self.settle(&mut g).await?;
            g.id
        };
        let store = Arc::clone(&self.ctx.store);
        blocking(move || store.game(id))
            .await?
            .ok_or_else(|| ApiError::not_found(format!("no game {id}")))
    }

    /// The timer: ends study time, sends a `clock` event every second while a clock runs,
    /// and ends the game when a flag falls. Sleeps until the next of these, or until woken by
    /// a change of the game.
    async fn timer(self: Arc<Self>) {
        let mut shutdown = self.ctx.shutdown.clone();
        let mut next_tick: Option<Instant> = None;
        loop {
            if *shutdown.borrow() {
                return;
            }
            let wake = {
                let g = self.lock().await;
                if g.finished() {
                    None
                } else {
                    let mut wake = None;
                    if let Phase::Study { until } = g.phase {
                        wake = Some(until);
                    }
                    if let Some(flag) = g.flag_time() {
                        let tick = *next_tick.get_or_insert_with(|| Instant::now() + CLOCK_TICK);
                        wake = Some(flag.min(tick));
                    } else {
                        next_tick = None;
                    }
                    wake
                }
            };
            let notified = self.notify.notified();
            match wake {
                Some(at) => {
                    tokio::select! {
                        _ = tokio::time::sleep_until(at.into()) => {}
                        _ = notified => continue,
                        _ = shutdown.changed() => return,
                    }
                }
                None => {
                    tokio::select! {
                        _ = notified => continue,
                        _ = shutdown.changed() => return,
                    }
                }
            }
            let mut g = self.lock().await;
            let now = Instant::now();
            if let Phase::Study { until } = g.phase {
                if now >= until && !g.finished() {
                    self.resume(&mut g);
                    self.changed(&g);
                    continue;
                }
            }
            if let Err(e) = self.settle(&mut g).await {
                tracing::error!("game {}: cannot store the time forfeit: {e}", g.key);
            }
            if g.finished() {
                continue;
            }
            if next_tick.is_some_and(|t| now >= t) {
                next_tick = Some(now + CLOCK_TICK);
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
        }
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
