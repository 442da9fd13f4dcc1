//! A progress bar on standard error that appears only when it helps: standard error is a
//! terminal and the work is still going after one second.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// Runs `work` with a bar of `len` steps drawn with the indicatif `template`; the bar is
/// cleared when `work` returns.
pub fn with_progress<T>(len: u64, template: &str, work: impl FnOnce(&ProgressBar) -> T) -> T {
    let bar = ProgressBar::with_draw_target(Some(len), ProgressDrawTarget::hidden());
    if let Ok(style) = ProgressStyle::with_template(template) {
        bar.set_style(style);
    }
    let show = std::io::stderr().is_terminal();
    let (done_tx, done_rx) = mpsc::channel::<()>();
    let result = std::thread::scope(|scope| {
        let watcher = {
            let bar = bar.clone();
            scope.spawn(move || {
                if show && done_rx.recv_timeout(Duration::from_secs(1)).is_err() {
                    bar.set_draw_target(ProgressDrawTarget::stderr());
                    bar.enable_steady_tick(Duration::from_millis(200));
                }
            })
        };
        let result = work(&bar);
        // The watcher may already have finished; then nobody listens, which is fine.
        let _ = done_tx.send(());
        let _ = watcher.join();
        result
    });
    bar.finish_and_clear();
    result
}

/// A bar for streaming through games (PGN reading, database import), driven by the caller
/// after every game rather than by a thread: shown only on a terminal and only once the work
/// has taken a second, redrawn at most five times a second, with the games read and their
/// rate as its message.
pub struct GameProgress {
    bar: ProgressBar,
    show: bool,
    shown: bool,
    start: Instant,
    last: Instant,
}

impl GameProgress {
    /// A hidden bar of `size` units (unknown: a spinner) drawn with the indicatif `template`.
    pub fn new(prefix: String, size: Option<u64>, template: &str) -> GameProgress {
        let bar = ProgressBar::with_draw_target(size, ProgressDrawTarget::hidden());
        if let Ok(style) = ProgressStyle::with_template(template) {
            bar.set_style(style);
        }
        bar.set_prefix(prefix);
        let now = Instant::now();
        GameProgress {
            bar,
            show: std::io::stderr().is_terminal(),
            shown: false,
            start: now,
            last: now,
        }
    }

    /// Called after every game (a clock reading is nothing beside reading a game).
    pub fn tick(&mut self, position: u64, games: u64) {
        if !self.show {
            return;
        }
        let now = Instant::now();
        if now.duration_since(self.last) < Duration::from_millis(200) {
            return;
        }
        self.last = now;
        if !self.shown {
            if now.duration_since(self.start) < Duration::from_secs(1) {
                return;
            }
            self.bar.set_draw_target(ProgressDrawTarget::stderr());
            self.shown = true;
        }
        let secs = now.duration_since(self.start).as_secs_f64().max(1e-9);
        self.bar.set_position(position);
        self.bar
            .set_message(format!("{games} games, {:.0} games/s", games as f64 / secs));
    }

    /// Runs `f` (which prints to the terminal) with the bar out of the way.
    pub fn suspend<T>(&self, f: impl FnOnce() -> T) -> T {
        self.bar.suspend(f)
    }

    /// Clears the bar.
    pub fn finish(&self) {
        self.bar.finish_and_clear();
    }
}
