//! Games in play: the actions of the API on one game, the engine's moves through the search
//! pool, the clocks' timer, and the events sent to WebSocket clients.
//!
//! Each game in memory has one [`GameHandle`]: its state behind an async mutex (so that
//! actions on one game happen one at a time, each with its store write), its event channel
//! (`broadcast.rs`), and a timer task that wakes when the clocks change. The handle has no engine
//! of its own: searches run in the server's [`SearchPool`]. Which games are in memory is the
//! registry's business (`registry.rs`).
//!
//! The game's duties are split by concern: moves and premoves (`moves.rs`), the engine's turn
//! and its analyses (`engine.rs`), draws (`draws.rs`), takebacks (`takeback.rs`), the ends of
//! a game that a player asks for (`ending.rs`), players who leave (`away.rs`), rematches
//! (`rematch.rs`), the clocks' timer (`timer.rs`) and the chat (`chat.rs`). This file
//! holds what they share: locking the game for an actor, telling the clients, finishing.
//!
//! Every action that changes a game needs a seat ([`Actor::seat`], see `seat.rs` and
//! `sides.rs`): the colour whose seat the actor holds is the colour it acts for. Reading a
//! game needs none.

mod away;
pub mod broadcast;
pub mod chat;
mod draws;
mod ending;
mod engine;
mod join;
mod moves;
mod placement;
pub(crate) mod ratings;
mod rematch;
mod takeback;
mod timer;

pub use away::ForceResult;
pub use engine::AnalysisJson;
pub use rematch::{RematchAction, RematchPlan, RematchStep};
pub use takeback::TakebackAction;

use crate::game::error::{GameError, GameResult};
use crate::game::ratings::Ratings;
use crate::game::{GameView, Live, Phase};
use crate::pool::{SearchPool, Ticket};
use broadcast::Broadcast;
use chess960_core::{Color, Move, Position};
use chess960_engine::player::Score;
use chess960_round::{Command, Event};
use chess960_store::explorer::IndexStep;
use chess960_store::players::UserId;
use chess960_store::MoveRecord;
use chess960_store::{Finish, GameStore, Offers};
use serde::Serialize;
use std::net::IpAddr;
use std::sync::{Arc, Mutex as StdMutex};
use std::time::{Duration, Instant};
use tokio::sync::{watch, Mutex, MutexGuard, Notify};

/// What every game shares: the store, the search pool and the server's shutdown signal.
pub struct Ctx {
    pub store: Arc<dyn GameStore>,
    pub pool: SearchPool,
    pub shutdown: watch::Receiver<bool>,
    /// How long the player has for their first move before the game is aborted.
    pub abandon_after: Duration,
    /// How long a player between people may be away before the opponent may end the game.
    pub away_after: Duration,
    /// The open challenges anyone may accept (`lobby/`): each game keeps its entry there.
    pub lobby: Arc<crate::lobby::Lobby>,
    /// Where the games' events go besides this server's sockets (the other servers of one
    /// database, `cluster/`), once this one has joined them; never set over a database only
    /// one process uses.
    pub publisher: std::sync::OnceLock<Arc<dyn broadcast::Publisher>>,
    /// Where the games' clocks read the time.
    pub time: chess960_round::now::TimeSource,
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

/// Who asks for an action: the seat token they sent, if any, their account if they are
/// logged in, and their address.
#[derive(Clone, Copy, Debug)]
pub struct Actor<'a> {
    /// The seat token (`X-Seat-Token`).
    pub seat: Option<&'a str>,
    /// The account of the session the request came with (looked up only when it came
    /// without a seat token).
    pub user: Option<UserId>,
    /// The client's IP address: searches the action starts are queued in its name.
    pub client: IpAddr,
    /// When the client of the request goes away, if it is a request (not a socket's).
    pub gone: Option<&'a ClientGone>,
    /// What the answer to the action is to be: the whole view or an acknowledgement.
    pub reply: Reply,
}

impl Actor<'_> {
    /// The answer to this actor's action on `g`, as it stands now.
    fn answer(&self, g: &Live) -> Answer {
        match self.reply {
            Reply::View => Answer::View(Box::new(g.view(g.now()))),
            Reply::Ack => Answer::Ack(Ack {
                version: g.version,
                premove: None,
                draw_answer: Default::default(),
            }),
        }
    }
}

/// How an action is answered: with the whole game view (protocol 1, the default), or with an
/// acknowledgement that names the new version (protocol 2: the change itself comes on the
/// game's WebSocket; docs/api.md, "Protocol 2").
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Reply {
    #[default]
    View,
    Ack,
}

/// An action's answer (see [`Reply`]).
#[derive(Debug)]
pub enum Answer {
    View(Box<GameView>),
    Ack(Ack),
}

/// Protocol 2's answer to an action: the version of the game's state after it, and what only
/// the answer tells.
#[derive(Serialize, Debug, Clone, PartialEq, Eq)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct Ack {
    pub version: u64,
    /// The actor's premove after a premove request (`null`: none).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, ts(optional))]
    pub premove: Option<Option<String>>,
    /// The engine's answer to a draw offer.
    #[serde(flatten)]
    pub draw_answer: crate::game::DrawAnswer,
}

impl Answer {
    /// The engine's answer to a draw offer (`accepted`, `declined`), and why it declined.
    fn with_draw_offer(mut self, offer: &'static str, reason: Option<String>) -> Answer {
        let answer = crate::game::DrawAnswer {
            draw_offer: Some(offer),
            draw_offer_reason: reason,
        };
        match &mut self {
            Answer::View(v) => v.draw_answer = answer,
            Answer::Ack(a) => a.draw_answer = answer,
        }
        self
    }

    /// The actor's own premove (also between people, where the view leaves it out).
    fn with_premove(mut self, premove: Option<String>) -> Answer {
        match &mut self {
            Answer::View(v) => v.now.premove = premove,
            Answer::Ack(a) => a.premove = Some(premove),
        }
        self
    }
}

/// Tells when the client of a request has gone away (its connection closed). The request
/// itself runs to its end all the same (`run_to_end` in `lib.rs`), so that nothing is left
/// half done; a search made only for that client's answer (an analysis, a draw offer's
/// evaluation) stops then, instead of taking a worker for nothing.
#[derive(Clone, Debug)]
pub struct ClientGone(tokio::sync::watch::Receiver<()>);

impl ClientGone {
    /// A signal, and what makes it fire when dropped (held for as long as the client waits).
    pub fn new() -> (ClientGone, tokio::sync::watch::Sender<()>) {
        let (tx, rx) = tokio::sync::watch::channel(());
        (ClientGone(rx), tx)
    }

    /// Resolves once the client has gone; never while it waits.
    pub async fn wait(&self) {
        let mut rx = self.0.clone();
        // Nothing is ever sent: `changed` fails when the sender is dropped.
        while rx.changed().await.is_ok() {}
    }
}

/// One game in memory.
pub struct GameHandle {
    ctx: Arc<Ctx>,
    state: Mutex<Live>,
    broadcast: Broadcast,
    /// Wakes the timer task: the clocks changed, or the handle is gone.
    wake: Arc<Notify>,
    /// When the game was last asked for (the registry unloads idle games).
    last_used: StdMutex<Instant>,
    /// When the game was loaded (or made).
    loaded_at: Instant,
    /// Set when another server took the game over (`cluster/`): nothing more is done with
    /// it here, and its clients are sent away (to reconnect where it runs now).
    gone: watch::Sender<bool>,
    /// The address whose open challenge this is, while it is one (waiting for its second
    /// player): kept beside the state so that the registry counts an address's challenges
    /// without waiting for, or skipping, games an action holds ([`GameHandle::note_challenge`]).
    challenge_of: StdMutex<Option<IpAddr>>,
    /// The game's chat (`chat.rs`): in memory only, for as long as the game is.
    chat: StdMutex<chat::Chat>,
}

impl Drop for GameHandle {
    fn drop(&mut self) {
        // The timer holds only a weak reference: woken, it finds the game gone and ends.
        self.wake.notify_one();
    }
}

/// A score in the API: `{"cp": 34}` or `{"mate": -3}`.
#[derive(Serialize, Clone, Copy, Debug, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
#[cfg_attr(test, derive(ts_rs::TS))]
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

/// The address whose challenge `g` is, if it is one still waiting for its second player.
/// Only its creator holds a seat then, so the last client to act is the creator.
fn open_challenge(g: &Live) -> Option<IpAddr> {
    (g.round.phase() == Phase::Open && !g.finished() && !g.deleted).then_some(g.client)
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
        live.away_after = ctx.away_after;
        live.time = ctx.time.clone();
        live.round.set_abandon_after(ctx.abandon_after);
        let now = live.now();
        live.round.rearm_abandon(now);
        let mut broadcast = Broadcast::new(64, live.version);
        if let Some(publisher) = ctx.publisher.get() {
            broadcast = broadcast.published(Arc::clone(publisher), live.key.to_string());
        }
        let wake = Arc::new(Notify::new());
        let challenge_of = StdMutex::new(open_challenge(&live));
        let h = Arc::new(GameHandle {
            ctx,
            challenge_of,
            state: Mutex::new(live),
            broadcast,
            wake: Arc::clone(&wake),
            last_used: StdMutex::new(Instant::now()),
            loaded_at: Instant::now(),
            gone: watch::Sender::new(false),
            chat: StdMutex::default(),
        });
        let shutdown = h.ctx.shutdown.clone();
        tokio::spawn(timer::run(Arc::downgrade(&h), wake, shutdown));
        h
    }

    /// Locks the game's state.
    pub async fn lock(&self) -> MutexGuard<'_, Live> {
        self.state.lock().await
    }

    /// Subscribes a socket of `protocol` to the game's events (`broadcast.rs`).
    pub fn subscribe(&self, protocol: broadcast::Protocol) -> broadcast::Subscription {
        self.broadcast.subscribe(protocol)
    }

    /// When the game was loaded (or made).
    pub fn loaded_at(&self) -> Instant {
        self.loaded_at
    }

    /// Another server runs the game now: its timer stops, actions are refused as `Moved`,
    /// and its clients' sockets close.
    pub fn let_go(&self) {
        self.gone.send_replace(true);
        self.wake.notify_one();
    }

    /// True once [`GameHandle::let_go`] was called.
    pub fn is_gone(&self) -> bool {
        *self.gone.borrow()
    }

    /// Changes to true when the game is let go.
    pub fn gone_signal(&self) -> watch::Receiver<bool> {
        self.gone.subscribe()
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

    /// True if this is a challenge still waiting for its second player, created from `client`'s
    /// address (an IPv6 address counts by its /64 network, as for rate limits), as of the
    /// game's last change.
    pub fn open_challenge_of(&self, client: IpAddr) -> bool {
        self.challenge_of
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .is_some_and(|of| crate::http::rate::same_client(of, client))
    }

    /// Notes whether the game is an open challenge now (after each change).
    fn note_challenge(&self, g: &Live) {
        *self.challenge_of.lock().unwrap_or_else(|e| e.into_inner()) = open_challenge(g);
    }

    /// The game as a line of the list of games being played now ([`Live::now_playing`]);
    /// `None` also while an action holds it.
    pub fn now_playing(&self) -> Option<crate::game::NowPlaying> {
        self.state
            .try_lock()
            .ok()
            .and_then(|g| g.now_playing(g.now()))
    }

    /// Wakes the timer (at shutdown, so that it ends).
    pub fn wake_timer(&self) {
        self.wake.notify_one();
    }

    /// The game view now, after checking the flag.
    pub async fn view(self: &Arc<Self>) -> GameResult<GameView> {
        let mut g = self.lock().await;
        self.settle(&mut g).await?;
        Ok(g.view(g.now()))
    }

    /// The game view now for a reader who may hold a seat: a player's reading counts as being
    /// here (`presence.rs`, for clients that poll instead of holding a WebSocket open). Any
    /// other token only reads.
    /// Also returns the colour of the reader's seat; in protocol 2 ([`Reply::Ack`]) the
    /// player's view shows their own premove, as their sockets do.
    pub async fn view_for(
        self: &Arc<Self>,
        who: &Actor<'_>,
    ) -> GameResult<(GameView, Option<Color>)> {
        let mut g = self.lock().await;
        let seat = g.sides.seat_of(who.seat, who.user, g.id.0).ok();
        if let Some(c) = seat {
            let now = g.now();
            g.presence.seen(c, now);
            if g.listed && g.round.phase() == Phase::Open {
                // The creator of a listed challenge who reads it over HTTP keeps it listed
                // for a while (the timer takes it out after).
                g.polled_until = Some(now + crate::lobby::POLLED_FOR);
                self.ctx.lobby.update(g.key.as_str(), g.lobby_entry(now));
                self.wake.notify_one();
            }
        }
        self.settle(&mut g).await?;
        let protocol = match who.reply {
            Reply::View => broadcast::Protocol::V1,
            Reply::Ack => broadcast::Protocol::V2,
        };
        Ok((socket_view(&g, seat, protocol, g.now()), seat))
    }

    /// The game view now for a socket of `protocol` whose client plays `seat`: in protocol 2
    /// a player's view shows their own premove, which protocol 2 sends them alone.
    pub async fn view_for_socket(
        self: &Arc<Self>,
        seat: Option<Color>,
        protocol: broadcast::Protocol,
    ) -> GameResult<GameView> {
        let mut g = self.lock().await;
        self.settle(&mut g).await?;
        Ok(socket_view(&g, seat, protocol, g.now()))
    }

    /// Locks the game for an action of `who`: their seat is checked (the colour it plays is
    /// returned), the flag too, and the engine's searches will be queued in their name.
    async fn seated(
        self: &Arc<Self>,
        who: &Actor<'_>,
    ) -> GameResult<(MutexGuard<'_, Live>, Color)> {
        let mut g = self.lock().await;
        if self.is_gone() {
            return Err(GameError::moved(g.key.as_str()));
        }
        let mut color = g.sides.seat_of(who.seat, who.user, g.id.0)?;
        if g.sides.hotseat() {
            // Two people at one device: the side to move (or to place) acts.
            color = g
                .placing
                .as_ref()
                .and_then(|p| p.to_place())
                .unwrap_or(g.turn());
        }
        g.client = who.client;
        let now = g.now();
        g.presence.seen(color, now);
        self.settle(&mut g).await?;
        Ok((g, color))
    }

    /// Counts a change, sends the state to every client and wakes the timer; a listed
    /// challenge's line in the lobby follows.
    fn changed(&self, g: &mut Live) {
        g.bump();
        self.note_challenge(g);
        let now = g.now();
        self.broadcast.state(g, now);
        self.after_change(g, now);
    }

    /// Counts a move just played (and the end of the game, if it ended with it): protocol 1's
    /// clients get the state, protocol 2's the move.
    fn moved(&self, g: &mut Live) {
        g.bump();
        self.note_challenge(g);
        let now = g.now();
        self.broadcast.moved(g, now);
        self.after_change(g, now);
    }

    /// Counts a change of a premove alone: protocol 2 tells only its player.
    fn premove_changed(&self, g: &mut Live) {
        g.bump();
        let now = g.now();
        self.broadcast.premove_changed(g, now);
        self.after_change(g, now);
    }

    /// What follows every change: the lobby's line of a listed challenge, and the timer.
    fn after_change(&self, g: &Live, now: Instant) {
        if g.listed {
            self.ctx.lobby.update(g.key.as_str(), g.lobby_entry(now));
        }
        self.wake.notify_one();
    }

    /// The time now, as the games' clocks read it.
    pub(crate) fn now(&self) -> Instant {
        self.ctx.time.now()
    }

    /// Asks the referee (`chess960-round`) to judge `command`, stores what it decided (a move
    /// with its explorer index step, the end, a takeback) and then applies it: nothing is
    /// applied, shown or acknowledged before the store has it. Telling the clients is the
    /// caller's (see [`GameHandle::told`]). Returns the events (none: nothing changed).
    pub(crate) async fn referee(&self, g: &mut Live, command: Command) -> GameResult<Vec<Event>> {
        let now = self.now();
        let events = g.round.decide(&command, now)?;
        if let Some(ratings) = self.store_events(g, &events).await? {
            g.ratings = ratings;
        }
        g.commit(&events, now);
        Ok(events)
    }

    /// [`GameHandle::referee`], then [`GameHandle::told`]: a command judged, stored, applied
    /// and told (refused on a deleted game).
    pub(crate) async fn judged(self: &Arc<Self>, g: &mut Live, command: Command) -> GameResult<()> {
        gone(g)?;
        let events = self.referee(g, command).await?;
        self.told(g, &events);
        Ok(())
    }

    /// Writes what `events` change in the store, in order, in one blocking call: moves, the
    /// end, a takeback, and last the offers standing after them when those change (a draw
    /// offer or takeback proposal is kept with the game, so that it survives a restart). When
    /// they end a rated game, the same call reads back both players' ratings: the view of the
    /// end shows their changes.
    async fn store_events(&self, g: &Live, events: &[Event]) -> GameResult<Option<Ratings>> {
        enum Write {
            Move(u32, MoveRecord, IndexStep),
            Finish(Finish),
            Truncate(u32),
            Offers(Offers),
        }
        let mut ply = g.ply() as u32;
        let mut pos = *g.round.game().position();
        let mut writes = Vec::new();
        for e in events {
            match e {
                Event::Moved { mv, record } => {
                    // The explorer's index rows of the move from the two positions' keys: the
                    // store need not replay the game for them.
                    let after = pos.play(*mv);
                    writes.push(Write::Move(
                        ply,
                        record.clone(),
                        IndexStep::of(&pos, &after),
                    ));
                    pos = after;
                    ply += 1;
                }
                Event::Ended(f) => writes.push(Write::Finish(f.clone())),
                Event::TookBack { keep } => writes.push(Write::Truncate(*keep as u32)),
                _ => {}
            }
        }
        // The offers the referee will hold, written unless the store holds them already: it
        // takes them back itself with the end or a takeback.
        let offers = g.round.offers_after(events);
        let cleared = (writes.iter()).any(|w| matches!(w, Write::Finish(_) | Write::Truncate(_)));
        let stored = if cleared {
            Offers::NONE
        } else {
            g.round.offers()
        };
        if offers != stored {
            writes.push(Write::Offers(offers));
        }
        if writes.is_empty() {
            return Ok(None);
        }
        let store = Arc::clone(&self.ctx.store);
        let (id, accounts, tc) = (g.id, g.sides.accounts, g.round.tc());
        let ends = writes.iter().any(|w| matches!(w, Write::Finish(_)));
        blocking(move || {
            for w in writes {
                match w {
                    Write::Move(ply, rec, step) => {
                        store.append_move_indexed(id, ply, &rec, step)?
                    }
                    Write::Finish(f) => store.finish_game(id, &f)?,
                    Write::Truncate(keep) => store.truncate_moves(id, keep)?,
                    Write::Offers(offers) => store.set_offers(id, offers)?,
                }
            }
            // Only a rated game's end changes the ratings its view shows.
            if ends && accounts.rated.is_some() {
                return Ok(Some(ratings::read(&*store, id, accounts, tc)));
            }
            Ok(None)
        })
        .await
    }

    /// Tells the clients what `events` changed: a move as a move event (with the end, if it
    /// ended the game), a premove to its player alone, anything else as the whole state. The
    /// engine starts if it is to move after it.
    pub(crate) fn told(self: &Arc<Self>, g: &mut Live, events: &[Event]) {
        if events.is_empty() {
            return;
        }
        if events.iter().any(|e| matches!(e, Event::Moved { .. })) {
            if !g.finished() {
                self.start_engine(g);
            }
            self.moved(g);
        } else if events
            .iter()
            .all(|e| matches!(e, Event::PremoveSet(_) | Event::PremoveCleared))
        {
            self.premove_changed(g);
        } else {
            if events.iter().any(|e| matches!(e, Event::TookBack { .. })) {
                self.start_engine(g);
            }
            self.changed(g);
        }
    }

    /// Stores a result the server found (a game whose last move ended it but whose result was
    /// not stored, a placement cut short) and ends the game.
    pub async fn finish(&self, g: &mut Live, finish: Finish) -> GameResult<()> {
        let events = [Event::Ended(finish)];
        if let Some(ratings) = self.store_events(g, &events).await? {
            g.ratings = ratings;
        }
        g.commit(&events, self.now());
        self.changed(g);
        Ok(())
    }

    /// Ends the game on time if the running side's flag has fallen, or aborts it if a
    /// person's first move is overdue.
    async fn settle(self: &Arc<Self>, g: &mut Live) -> GameResult<()> {
        if g.deleted {
            return Ok(());
        }
        let events = self.referee(g, Command::Tick).await?;
        self.told(g, &events);
        Ok(())
    }

    /// Starts the clocks of a game that was paused or in study time, and the engine if it is
    /// to move. Returns whether anything changed.
    fn resume(self: &Arc<Self>, g: &mut Live) -> bool {
        if !g.round.resume(self.now()) {
            return false;
        }
        g.generation += 1;
        self.start_engine(g);
        true
    }

    /// Starts a new game: its placement, its study time, or its clocks and (if it moves
    /// first) the engine. A game whose second seat is open waits for its player (`join.rs`
    /// begins it then).
    pub fn begin(self: &Arc<Self>, g: &mut Live, study: Option<Duration>) {
        if g.finished() || g.round.phase() == Phase::Open {
            return;
        }
        g.round.begin(g.placing.is_some(), study, self.now());
        if let Some(p) = &mut g.placing {
            // First the players place the pieces (`placement.rs`).
            p.start_turn(self.now());
        } else if g.round.phase() == Phase::Playing {
            self.start_engine(g);
        }
        self.wake.notify_one();
    }

    /// `POST /start`: ends the study time.
    pub async fn start(self: &Arc<Self>, who: &Actor<'_>) -> GameResult<Answer> {
        let (mut g, _) = self.seated(who).await?;
        over(&g)?;
        if self.resume(&mut g) {
            self.changed(&mut g);
        }
        Ok(who.answer(&g))
    }

    /// The game as stored, for a PGN export (after recording a fallen flag).
    pub async fn stored(self: &Arc<Self>) -> GameResult<chess960_store::StoredGame> {
        let (id, key) = {
            let mut g = self.lock().await;
            self.settle(&mut g).await?;
            // Until the players have placed the start, the store holds a placeholder.
            if !g.start_known() {
                return Err(GameError::StartNotPlaced);
            }
            (g.id, g.key.to_string())
        };
        let store = Arc::clone(&self.ctx.store);
        blocking(move || store.game(id))
            .await?
            .ok_or(GameError::NoSuchGame { key })
    }
}

/// The view for a socket (see [`GameHandle::view_for_socket`]).
fn socket_view(
    g: &Live,
    seat: Option<Color>,
    protocol: broadcast::Protocol,
    now: Instant,
) -> GameView {
    let mut v = g.view(now);
    if protocol == broadcast::Protocol::V2 && seat.is_some() {
        v.now.premove = g
            .round
            .premove()
            .filter(|p| Some(p.color) == seat)
            .map(|p| p.text.clone());
    }
    v
}

/// Refuses an action on a deleted game.
fn gone(g: &Live) -> GameResult<()> {
    if g.deleted {
        return Err(GameError::NoSuchGame {
            key: g.key.to_string(),
        });
    }
    Ok(())
}

/// Refuses an action on a finished (or deleted) game, for the actions the referee does not
/// judge (study time, placement).
fn over(g: &Live) -> GameResult<()> {
    gone(g)?;
    match g.round.finish() {
        Some(f) => Err(GameError::Over {
            result: f.result,
            reason: f.reason.clone(),
        }),
        None => Ok(()),
    }
}
