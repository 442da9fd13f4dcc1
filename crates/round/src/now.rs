//! Where the referee's callers read the time: the system's clock, or a clock a test moves by
//! hand, so that a scripted game gives the same clocks wherever it is played.

use std::sync::Mutex;
use std::time::{Duration, Instant};

/// A source of the current time.
pub trait Now: Send + Sync {
    /// The time now.
    fn now(&self) -> Instant;
}

/// The system's monotonic clock.
#[derive(Clone, Copy, Debug, Default)]
pub struct SystemNow;

impl Now for SystemNow {
    fn now(&self) -> Instant {
        Instant::now()
    }
}

/// A clock that stands still until it is moved on ([`ManualNow::advance`]): for replaying a
/// game with exact times between its moves.
#[derive(Debug)]
pub struct ManualNow {
    at: Mutex<Instant>,
}

impl ManualNow {
    /// A clock standing at the moment it is made.
    pub fn new() -> ManualNow {
        ManualNow {
            at: Mutex::new(Instant::now()),
        }
    }

    /// Moves the clock on by `d`.
    pub fn advance(&self, d: Duration) {
        *self.at.lock().unwrap_or_else(|e| e.into_inner()) += d;
    }
}

impl Default for ManualNow {
    fn default() -> ManualNow {
        ManualNow::new()
    }
}

impl Now for ManualNow {
    fn now(&self) -> Instant {
        *self.at.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// A shared source of the time, the system's unless set: what a server reads its games' time
/// from.
#[derive(Clone)]
pub struct TimeSource(std::sync::Arc<dyn Now>);

impl TimeSource {
    /// The time from `now`.
    pub fn new(now: std::sync::Arc<dyn Now>) -> TimeSource {
        TimeSource(now)
    }

    /// The time now.
    pub fn now(&self) -> Instant {
        self.0.now()
    }
}

impl Default for TimeSource {
    fn default() -> TimeSource {
        TimeSource(std::sync::Arc::new(SystemNow))
    }
}

impl std::fmt::Debug for TimeSource {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("TimeSource")
    }
}
