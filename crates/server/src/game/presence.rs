//! Who of a game's players is here: their open connections and when each was last seen. A
//! player between people who stays away long enough lets the opponent end the game (the win,
//! or a draw: `round/away.rs`), as lichess offers "force resignation" after a countdown.
//!
//! A player is here while a WebSocket of theirs is open (the browser), and for
//! [`Capacity::away_after`](crate::Capacity) after any action with their seat token (a client
//! that only polls over HTTP, such as the terminal). Nothing of this is stored: after a restart
//! or a reload, both players count as seen at the load time.

use chess960_core::Color;
use std::time::{Duration, Instant};

/// Each colour's open connections and when it was last seen.
#[derive(Clone, Debug)]
pub struct Presence {
    open: [u32; 2],
    seen: [Instant; 2],
}

impl Presence {
    /// Nobody connected, both seen `now` (a new game, or one just loaded).
    pub fn new(now: Instant) -> Presence {
        Presence {
            open: [0; 2],
            seen: [now; 2],
        }
    }

    /// A connection of `c`'s player opened. True if they were away until now.
    pub fn connect(&mut self, c: Color, now: Instant) -> bool {
        let was_away = self.open[c.index()] == 0;
        self.open[c.index()] += 1;
        self.seen[c.index()] = now;
        was_away
    }

    /// A connection of `c`'s player closed. True if it was their last.
    pub fn disconnect(&mut self, c: Color, now: Instant) -> bool {
        let n = &mut self.open[c.index()];
        *n = n.saturating_sub(1);
        self.seen[c.index()] = now;
        *n == 0
    }

    /// `c`'s player acted (an action with their seat token).
    pub fn seen(&mut self, c: Color, now: Instant) {
        self.seen[c.index()] = now;
    }

    /// How long `c`'s player has been away at `now`: `None` while a connection of theirs is
    /// open.
    pub fn away_for(&self, c: Color, now: Instant) -> Option<Duration> {
        (self.open[c.index()] == 0).then(|| now.saturating_duration_since(self.seen[c.index()]))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn away_from_the_last_connection_or_action() {
        let t0 = Instant::now();
        let s = |n| t0 + Duration::from_secs(n);
        let mut p = Presence::new(t0);
        assert_eq!(p.away_for(Color::White, s(5)), Some(Duration::from_secs(5)));
        assert!(p.connect(Color::White, s(5)));
        assert!(!p.connect(Color::White, s(6)), "a second tab");
        assert_eq!(p.away_for(Color::White, s(100)), None);
        assert!(!p.disconnect(Color::White, s(101)));
        assert_eq!(
            p.away_for(Color::White, s(200)),
            None,
            "one tab is still open"
        );
        assert!(p.disconnect(Color::White, s(201)));
        assert_eq!(
            p.away_for(Color::White, s(231)),
            Some(Duration::from_secs(30))
        );
        p.seen(Color::White, s(240));
        assert_eq!(
            p.away_for(Color::White, s(241)),
            Some(Duration::from_secs(1))
        );
        // Black was never here: away since the start.
        assert_eq!(
            p.away_for(Color::Black, s(241)),
            Some(Duration::from_secs(241))
        );
        // More closes than opens (never happens) do not wrap.
        assert!(p.disconnect(Color::Black, s(242)));
        assert!(p.away_for(Color::Black, s(242)).is_some());
    }
}
