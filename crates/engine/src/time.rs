//! Time management: how long to think about one move.

use std::time::{Duration, Instant};

/// When to stop: `soft` is checked between iterations (do not start another after it),
/// `hard` during the search (stop at once).
#[derive(Clone, Copy, Debug, Default)]
pub struct Deadlines {
    /// Do not start a new iteration after this.
    pub soft: Option<Instant>,
    /// Stop searching at this moment.
    pub hard: Option<Instant>,
}

/// The clock situation given by `go`.
#[derive(Clone, Copy, Debug, Default)]
pub struct Clock {
    /// Our remaining time.
    pub time: Option<Duration>,
    /// Our increment per move.
    pub inc: Duration,
    /// Moves until the next time control, if any.
    pub movestogo: Option<u32>,
    /// A fixed time for this move.
    pub movetime: Option<Duration>,
}

/// Deadlines for a search starting at `start`, keeping `overhead` in reserve for the
/// communication delay to the GUI on every move, so that the engine never forfeits.
pub fn deadlines(clock: &Clock, start: Instant, overhead: Duration) -> Deadlines {
    if let Some(mt) = clock.movetime {
        let t = mt.saturating_sub(overhead).max(Duration::from_millis(1));
        return Deadlines {
            soft: Some(start + t),
            hard: Some(start + t),
        };
    }
    let Some(time) = clock.time else {
        return Deadlines::default();
    };
    // Reserve the overhead for this move and a little for each of the next few.
    let left = time
        .saturating_sub(overhead * 2)
        .max(Duration::from_millis(1));
    let mtg = clock.movestogo.unwrap_or(30).clamp(1, 50);
    let base = left / mtg + clock.inc.mul_f64(0.75);
    let soft = base.min(left.mul_f64(if mtg == 1 { 0.8 } else { 0.4 }));
    let hard = (soft * 4).min(left.mul_f64(if mtg == 1 { 0.9 } else { 0.6 }));
    Deadlines {
        soft: Some(start + soft.max(Duration::from_millis(1))),
        hard: Some(start + hard.max(Duration::from_millis(1))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn never_beyond_the_clock() {
        let start = Instant::now();
        for ms in [1u64, 10, 50, 100, 1000, 60_000] {
            for inc in [0u64, 10, 100, 1000] {
                for mtg in [None, Some(1), Some(2), Some(40)] {
                    let clock = Clock {
                        time: Some(Duration::from_millis(ms)),
                        inc: Duration::from_millis(inc),
                        movestogo: mtg,
                        movetime: None,
                    };
                    let d = deadlines(&clock, start, Duration::from_millis(10));
                    let hard = d.hard.unwrap() - start;
                    assert!(d.soft.unwrap() <= d.hard.unwrap());
                    assert!(
                        hard <= Duration::from_millis(ms).max(Duration::from_millis(1)),
                        "{ms}+{inc} mtg {mtg:?}: hard {hard:?}"
                    );
                }
            }
        }
    }
}
