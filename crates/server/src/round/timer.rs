//! The clocks' timer of one game: ends study time, sends a `clock` event every second while a
//! clock runs, ends the game when a flag falls, and aborts it when a person's first move is
//! overdue.

use super::GameHandle;
use crate::game::Phase;
use chess960_store::Finish;
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
        let now = Instant::now();
        if g.deleted || self.is_gone() {
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
                self.changed(&mut g);
            }
        }
        if let Err(e) = self.place_on_time(&mut g).await {
            tracing::error!("game {}: cannot store the placement: {e}", g.key);
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
                self.events.clock(c, g.running());
            }
        }
        let mut wake = g.abandon_at;
        if let Phase::Study { until } = g.phase {
            wake = Some(wake.map_or(until, |w| w.min(until)));
        }
        if let Some(until) = g.placing.as_ref().and_then(|p| p.until) {
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
