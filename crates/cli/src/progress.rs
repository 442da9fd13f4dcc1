//! A progress bar on standard error that appears only when it helps: standard error is a
//! terminal and the work is still going after one second.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;
use std::sync::mpsc;
use std::time::Duration;

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
