//! The games in memory, by key. A game is loaded from the store when first asked for and
//! unloaded again once it has been idle for a while with nothing pending (no search, no
//! running clock, nobody connected, nobody holding it), so the server's memory follows the
//! games being played, not every game ever opened. A game read back after unloading gives
//! exactly the view it had (`Live::unloadable`).

use crate::cluster::Node;
use crate::game::error::{GameError, GameResult};
use crate::game::Live;
use crate::round::{blocking, Actor, Ctx, GameHandle};
use chess960_store::cluster::Holder;
use chess960_store::{Finish, GameKey};
use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex as StdMutex, MutexGuard};
use std::time::{Duration, Instant};

/// Where a game runs ([`Games::locate`]).
pub enum Located {
    /// In this process.
    Here(Arc<GameHandle>),
    /// In another server of the same database, reached at this address (`cluster/`).
    Elsewhere(String),
}

/// The games in memory.
pub struct Games {
    ctx: Arc<Ctx>,
    /// This process among several servers of one database (`cluster/`), once it has joined
    /// them; never set over a database only one process uses.
    node: std::sync::OnceLock<Arc<Node>>,
    map: StdMutex<HashMap<String, Arc<GameHandle>>>,
    /// Challenges being created, per address: counted with the open ones, so that the check
    /// of the cap and the creation are one step ([`Games::reserve_challenge`]).
    creating: Arc<crate::http::rate::Places>,
}

impl Games {
    /// No games loaded yet.
    pub fn new(ctx: Arc<Ctx>) -> Games {
        Games {
            ctx,
            node: std::sync::OnceLock::new(),
            map: StdMutex::new(HashMap::new()),
            creating: crate::http::rate::Places::new(crate::create::MAX_OPEN_CHALLENGES, true),
        }
    }

    /// The shared context.
    pub fn ctx(&self) -> &Arc<Ctx> {
        &self.ctx
    }

    /// This process among the servers of its database, if several share it.
    pub fn node(&self) -> Option<&Arc<Node>> {
        self.node.get()
    }

    /// This server joined the others of its database as `node`: the games' events go to them
    /// too from now on.
    pub fn joined(&self, node: Arc<Node>) {
        let publisher: Arc<dyn crate::round::broadcast::Publisher> = node.clone();
        let _ = self.ctx.publisher.set(publisher);
        let _ = self.node.set(node);
    }

    /// The game with this key, from memory or the store; `NoSuchGame` for a malformed or
    /// unknown key, `Moved` for a game another server of the database runs.
    pub async fn get(&self, key: &str) -> GameResult<Arc<GameHandle>> {
        match self.locate(key).await? {
            Located::Here(h) => Ok(h),
            Located::Elsewhere(_) => Err(Node::moved(key)),
        }
    }

    /// The game with this key if it is in memory here.
    pub fn here(&self, key: &str) -> Option<Arc<GameHandle>> {
        self.lock().get(key).cloned()
    }

    /// True if the game with this key is in memory here.
    pub fn is_here(&self, key: &str) -> bool {
        self.lock().contains_key(key)
    }

    /// Where the game with this key runs: here (from memory, or loaded from the store, taking
    /// its lease when several servers share the database and nobody alive holds it), or in
    /// another server; `NoSuchGame` for a malformed or unknown key.
    pub async fn locate(&self, key: &str) -> GameResult<Located> {
        let unknown = || GameError::NoSuchGame {
            key: key.chars().take(40).collect(),
        };
        let key = GameKey::parse(key).ok_or_else(unknown)?;
        if let Some(h) = self.lock().get(key.as_str()) {
            h.touch();
            return Ok(Located::Here(Arc::clone(h)));
        }
        if let Some(node) = self.node() {
            match node.claim(&key).await? {
                Holder::Me => {}
                Holder::Other { address } => return Ok(Located::Elsewhere(address)),
                Holder::NoSuchGame => return Err(unknown()),
            }
        }
        let store = Arc::clone(&self.ctx.store);
        let k = key.clone();
        // The logged-in players' ratings are read in the same blocking call.
        let (stored, ratings) = blocking(move || {
            let Some(stored) = store.game_by_key(&k)? else {
                return Ok(None);
            };
            let tc = stored.game.time_control.as_deref();
            let tc = tc.and_then(crate::game::TimeControl::parse);
            let ratings = crate::round::ratings::read(&*store, stored.id, stored.players, tc);
            Ok(Some((stored, ratings)))
        })
        .await?
        .ok_or_else(unknown)?;
        let mut live = Live::from_stored(stored).map_err(|detail| GameError::Unreadable {
            key: key.to_string(),
            detail,
        })?;
        live.ratings = ratings;
        // The game is locked before anyone else can find it, so that no request sees it (or
        // plays in it) before the fix-ups below.
        let handle = GameHandle::new(Arc::clone(&self.ctx), live);
        let mut g = handle.lock().await;
        {
            // Another request may have loaded it meanwhile: keep the first.
            let mut map = self.lock();
            if let Some(h) = map.get(key.as_str()) {
                h.touch();
                return Ok(Located::Here(Arc::clone(h)));
            }
            map.insert(key.to_string(), Arc::clone(&handle));
        }
        // A game whose last move ended it by the rules but whose result was not stored (the
        // server stopped between the two writes) gets it now.
        if !g.finished() {
            if let Some(o) = g.round.game().outcome() {
                handle.finish(&mut g, Finish::of(o)).await?;
            } else if g.placement_interrupted() {
                // The server stopped while the players placed the pieces: the placement is
                // not stored, so the game cannot go on.
                handle.finish(&mut g, Finish::aborted()).await?;
            }
        }
        drop(g);
        Ok(Located::Here(handle))
    }

    /// Deletes the game with this key for `who` ([`GameHandle::delete`]) and forgets it.
    pub async fn delete(&self, key: &str, who: &Actor<'_>) -> GameResult<()> {
        let handle = self.get(key).await?;
        handle.delete(who).await?;
        self.lock().remove(key);
        Ok(())
    }

    /// Adds a game just created (taking its lease first when several servers share the
    /// database: nobody else knows its key yet, so only a server taking over a dead one's
    /// games could have it, and then this one refuses it).
    pub async fn insert(&self, live: Live) -> GameResult<Arc<GameHandle>> {
        let key = live.key.to_string();
        if let Some(node) = self.node() {
            if node.claim(&live.key).await? != Holder::Me {
                return Err(Node::moved(&key));
            }
        }
        let h = GameHandle::new(Arc::clone(&self.ctx), live);
        self.lock().insert(key, Arc::clone(&h));
        Ok(h)
    }

    /// Lets go of the games in memory that were loaded before `before` and whose leases are
    /// not among `held` (another server took them over while this one stalled); returns
    /// their keys. Their clients are disconnected, to reconnect to the new holder.
    pub fn let_go_except(&self, held: &[GameKey], before: Instant) -> Vec<String> {
        let held: HashSet<&str> = held.iter().map(GameKey::as_str).collect();
        let mut map = self.lock();
        let lost: Vec<String> = map
            .iter()
            .filter(|(k, h)| !held.contains(k.as_str()) && h.loaded_at() < before)
            .map(|(k, _)| k.clone())
            .collect();
        for k in &lost {
            if let Some(h) = map.remove(k) {
                h.let_go();
            }
        }
        lost
    }

    /// The number of games in memory.
    pub fn loaded(&self) -> usize {
        self.lock().len()
    }

    /// Unloads every game idle for at least `idle` that nothing holds and that has nothing
    /// pending; returns how many.
    pub fn unload_idle(&self, idle: Duration) -> usize {
        let now = Instant::now();
        let mut map = self.lock();
        let before = map.len();
        // Only the map holds the handle (no request, WebSocket, search or timer step has it),
        // and new holders can only get it through the map, whose lock is held here.
        map.retain(|_, h| {
            Arc::strong_count(h) > 1 || h.idle_for(now) < idle || !h.unloadable_now()
        });
        before - map.len()
    }

    /// Unloads idle games every so often until the server shuts down.
    pub fn spawn_unloader(self: &Arc<Self>, idle: Duration) {
        let games = Arc::downgrade(self);
        let mut shutdown = self.ctx.shutdown.clone();
        // Look four times per idle period, but not more often than every 50 ms.
        let period = (idle / 4).max(Duration::from_millis(50));
        tokio::spawn(async move {
            loop {
                tokio::select! {
                    _ = tokio::time::sleep(period) => {}
                    _ = shutdown.changed() => return,
                }
                let Some(games) = games.upgrade() else { return };
                let n = games.unload_idle(idle);
                if n > 0 {
                    tracing::debug!("unloaded {n} idle games; {} in memory", games.loaded());
                }
            }
        });
    }

    /// Aborts, in the background, the stored games that wait for their player's first move
    /// (left so by a previous run of the server, which stopped before their deadline):
    /// those idle longer than `abandon_after` at once in the store, the others by loading them,
    /// so that their timer aborts them in time ([`Live::rearm_abandon`]). Only unfinished games
    /// with a seat and fewer than two half-moves are read; games without a seat (terminal,
    /// import) are never touched.
    pub fn spawn_abandoned_sweep(self: &Arc<Self>) {
        let games = Arc::downgrade(self);
        tokio::spawn(async move {
            let Some(g) = games.upgrade() else { return };
            let store = Arc::clone(&g.ctx.store);
            let after = g.ctx.abandon_after;
            let me = g.node().map(|n| n.member().clone());
            drop(g);
            let pending =
                blocking(move || abort_abandoned(store.as_ref(), after, me.as_ref())).await;
            match pending {
                Ok(keys) => {
                    for key in keys {
                        let Some(g) = games.upgrade() else { return };
                        match g.get(&key).await {
                            // Another server of the database runs it: its timer is there.
                            Ok(_) | Err(GameError::Moved { .. }) => {}
                            Err(e) => tracing::warn!("game {key}: {e}"),
                        }
                    }
                }
                Err(e) => tracing::error!("cannot look for abandoned games: {e}"),
            }
        });
    }

    /// The challenges in memory that wait for their second player, created from `client`'s
    /// address. Open challenges stay in memory (`Live::unloadable`), so this counts all of them
    /// since the server started, and those of earlier runs that were opened again.
    pub fn open_challenges(&self, client: std::net::IpAddr) -> usize {
        self.lock()
            .values()
            .filter(|h| h.open_challenge_of(client))
            .count()
    }

    /// A place for one more open challenge from `client`, unless it has
    /// [`crate::create::MAX_OPEN_CHALLENGES`] already (open, or being created): held until
    /// the challenge is in memory, where it counts as open (or given up). Counting and taking
    /// the place are one step, under one lock, so that simultaneous requests cannot all pass
    /// the count (issue 37: 64 at once all passed).
    pub fn reserve_challenge(&self, client: std::net::IpAddr) -> Option<crate::http::rate::Place> {
        self.creating
            .enter_beside(client, || self.open_challenges(client))
    }

    /// The games being played now (in memory, neither open, paused nor over), the latest
    /// move first, at most `limit`.
    pub fn playing_now(&self, limit: usize) -> Vec<crate::game::NowPlaying> {
        let mut games: Vec<_> = self
            .lock()
            .values()
            .filter_map(|h| h.now_playing())
            .collect();
        games.sort_by_key(|g| std::cmp::Reverse(g.last_ms));
        games.truncate(limit);
        games
    }

    /// Stops every search (at shutdown).
    pub fn stop_all(&self) {
        self.ctx.pool.shut_down();
        for h in self.lock().values() {
            h.wake_timer();
        }
    }

    fn lock(&self) -> MutexGuard<'_, HashMap<String, Arc<GameHandle>>> {
        self.map.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// The store's part of [`Games::spawn_abandoned_sweep`]: aborts the unfinished games with a
/// seat that wait for their player's first move and were last changed more than `after` ago;
/// returns the keys of those whose time is not up yet. With several servers on the database
/// (`me` is this one), only games whose lease this server gets are touched: the others run
/// elsewhere, where their timers abort them.
fn abort_abandoned(
    store: &dyn chess960_store::GameStore,
    after: Duration,
    me: Option<&chess960_store::cluster::Member>,
) -> Result<Vec<String>, chess960_store::StoreError> {
    use chess960_store::{Finish, GameFilter};
    const PAGE: u32 = 500;
    let mut pending = Vec::new();
    let mut offset = 0;
    let now = crate::game::now_ms();
    loop {
        let filter = GameFilter {
            result: Some(chess960_core::GameResult::Unknown),
            aborted: Some(false),
            limit: Some(PAGE),
            offset,
            ..GameFilter::default()
        };
        let page = store.list(&filter)?;
        let n = page.len() as u32;
        let mut aborted = 0;
        // A game created from a PGN may have more moves and still wait: the ones under two
        // half-moves are the common case, the others are found when loaded.
        for summary in page.into_iter().filter(|s| s.plies < 2) {
            let Some(stored) = store.game(summary.id)? else {
                continue;
            };
            if stored.seats == chess960_store::Seats::NONE {
                continue;
            }
            let updated = stored.updated_at_ms;
            let Ok(live) = Live::from_stored(stored) else {
                continue;
            };
            if !live.round.waits_for_first_move() {
                continue;
            }
            if let (Some(me), Some(cluster)) = (me, store.cluster()) {
                if cluster.claim(&summary.key, me)? != Holder::Me {
                    continue;
                }
            }
            if now.saturating_sub(updated) >= after.as_millis() as i64 {
                store.finish_game(summary.id, &Finish::aborted())?;
                aborted += 1;
            } else {
                pending.push(summary.key.to_string());
            }
        }
        if n < PAGE {
            return Ok(pending);
        }
        // Aborted games leave the filtered list: the next page starts that much earlier.
        offset += PAGE - aborted;
    }
}
