//! Both clocks of a timed game: the time each side has left and the one that runs.

use chess960_core::Color;
use chess960_store::Clocks;
use std::time::{Duration, Instant};

/// The clocks of a timed game (an untimed game has none: every reading is `None`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct GameClock {
    /// The time left on both clocks as of the moment the running one started.
    left: Option<Clocks>,
    /// The clock that runs, and since when.
    running: Option<(Color, Instant)>,
}

impl GameClock {
    /// Stopped clocks showing `left` (`None`: an untimed game).
    pub(crate) fn stopped(left: Option<Clocks>) -> GameClock {
        GameClock {
            left,
            running: None,
        }
    }

    /// The time left on both clocks at `now`.
    pub(crate) fn at(&self, now: Instant) -> Option<Clocks> {
        let mut c = self.left?;
        if let Some((color, since)) = self.running {
            let used = now.saturating_duration_since(since).as_millis() as u64;
            let side = side_mut(&mut c, color);
            *side = side.saturating_sub(used);
        }
        Some(c)
    }

    /// The clock that runs.
    pub(crate) fn running(&self) -> Option<Color> {
        self.running.map(|(c, _)| c)
    }

    /// When the running side's flag falls.
    pub(crate) fn flag_time(&self) -> Option<Instant> {
        let (color, since) = self.running?;
        let left = side(&self.left?, color);
        Some(since + Duration::from_millis(left))
    }

    /// Stops the running clock, keeping the time used.
    pub(crate) fn stop(&mut self, now: Instant) {
        self.left = self.at(now);
        self.running = None;
    }

    /// Starts `color`'s clock at `now` (a timed game only).
    pub(crate) fn start(&mut self, color: Color, now: Instant) {
        self.stop(now);
        if self.left.is_some() {
            self.running = Some((color, now));
        }
    }

    /// Sets both clocks to `left`, stopped.
    pub(crate) fn reset(&mut self, left: Option<Clocks>) {
        *self = GameClock::stopped(left);
    }
}

/// `color`'s time in `c`.
pub(crate) fn side(c: &Clocks, color: Color) -> u64 {
    match color {
        Color::White => c.white_ms,
        Color::Black => c.black_ms,
    }
}

/// `color`'s time in `c`, to change.
pub(crate) fn side_mut(c: &mut Clocks, color: Color) -> &mut u64 {
    match color {
        Color::White => &mut c.white_ms,
        Color::Black => &mut c.black_ms,
    }
}
