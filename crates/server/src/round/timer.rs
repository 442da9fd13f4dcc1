//! The clocks' timer of one game: ends study time, sends a `clock` event every second while a
//! clock runs, ends the game when a flag falls, and aborts it when a person's first move is
//! overdue.

use super::GameHandle;
use crate::game::Phase;
use std::sync::{Arc, Weak};
use std::time::{Duration, Instant};
use tokio::sync::{watch, Notify};

/// The `clock` event's period.
const CLOCK_TICK: Duration = Duration::from_secs(1);

impl GameHandle {
    /// One step of the timer: what to do now, and when to wake next (`None`: only when
    /// woken). `next_tick` is the next one-second `clock` event while a clock runs.
    async fn tick(self: &Arc<Self>, next_tick: &mut Option<Instant>) -> Option<Instant> {
        let mut g = self.lock().await;
        let now = self.now();
        if g.deleted || self.is_gone() {
            return None;
        }
        if let Phase::Study { until } = g.round.phase() {
            if now >= until && !g.finished() {
                self.resume(&mut g);
                self.changed(&mut g);
            }
        }
        if let Err(e) = self.place_on_time(&mut g).await {
            tracing::error!("game {}: cannot store the placement: {e}", g.key);
        }
        // A fallen flag, or an overdue first move.
        if let Err(e) = self.settle(&mut g).await {
            tracing::error!("game {}: cannot store the game's end: {e}", g.key);
        }
        if g.finished() {
            *next_tick = None;
            return None;
        }
        if next_tick.is_some_and(|t| now >= t) {
            *next_tick = Some(now + CLOCK_TICK);
            if let Some(c) = g.round.clocks_at(now) {
                self.broadcast.clock(c, g.round.running());
            }
        }
        let mut wake = g.round.abandon_at();
        if let Some(until) = g.polled_until {
            if now >= until {
                // The challenge's creator stopped reading it: out of the lobby.
                g.polled_until = None;
                if g.listed {
                    self.ctx.lobby.update(g.key.as_str(), g.lobby_entry(now));
                }
            } else {
                wake = Some(wake.map_or(until, |w| w.min(until)));
            }
        }
        if let Phase::Study { until } = g.round.phase() {
            wake = Some(wake.map_or(until, |w| w.min(until)));
        }
        if let Some(until) = g.placing.as_ref().and_then(|p| p.until) {
            wake = Some(wake.map_or(until, |w| w.min(until)));
        }
        if let Some(flag) = g.round.flag_time() {
            let tick = *next_tick.get_or_insert_with(|| now + CLOCK_TICK);
            let at = flag.min(tick);
            wake = Some(wake.map_or(at, |w| w.min(at)));
        } else {
            *next_tick = None;
        }
        wake
    }
}

/// The timer task of one game. It sleeps until the next thing to do or until woken, and holds
/// the game only while it works, so that an idle game can leave memory; it ends when the game
/// has.
pub(super) async fn run(
    game: Weak<GameHandle>,
    wake: Arc<Notify>,
    mut shutdown: watch::Receiver<bool>,
) {
    let mut next_tick: Option<Instant> = None;
    loop {
        if *shutdown.borrow() {
            return;
        }
        // How long to sleep, in the time the game's clocks read (a test's clock may stand
        // still: then the timer waits for it to be moved, not for the wall clock).
        let delay = {
            let Some(h) = game.upgrade() else { return };
            let at = h.tick(&mut next_tick).await;
            at.map(|at| at.saturating_duration_since(h.now()))
        };
        let woken = wake.notified();
        match delay {
            Some(delay) => {
                tokio::select! {
                    _ = tokio::time::sleep(delay) => {}
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
