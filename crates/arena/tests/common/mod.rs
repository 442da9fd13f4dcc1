//! Helpers shared by the integration tests: the fake engine, running a match from a
//! cutechess-style command line, and reading its games.
#![allow(dead_code)]

use chess960_arena::options::parse_args;
use chess960_arena::runner::{run_match, MatchError, MatchReport, Played};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

/// The random-mover fake engine built with this crate.
pub fn fake() -> &'static str {
    env!("CARGO_BIN_EXE_chess960-random-engine")
}

/// A fake-engine script of `tests/engines/`.
pub fn script(name: &str) -> String {
    format!("{}/tests/engines/{name}", env!("CARGO_MANIFEST_DIR"))
}

/// Splits a command line at spaces (test lines have no quoted spaces).
pub fn words(line: &str) -> Vec<String> {
    line.split_whitespace().map(str::to_string).collect()
}

/// Runs a match quietly; panics on a configuration error.
pub fn run(args: Vec<String>) -> MatchReport {
    try_run(args).unwrap_or_else(|e| panic!("match failed: {e}"))
}

/// Runs a match quietly.
pub fn try_run(args: Vec<String>) -> Result<MatchReport, MatchError> {
    let mut parsed = parse_args(&args, 1).unwrap_or_else(|e| panic!("bad arguments: {e}"));
    parsed.config.quiet = true;
    run_match(&parsed.config, Arc::new(AtomicBool::new(false)))
}

/// (result, reason, name of the engine at fault, kind of fault) of every game, in order.
pub fn outcomes(r: &MatchReport) -> Vec<(String, String, Option<String>, Option<String>)> {
    let mut games: Vec<&Played> = r.played.iter().collect();
    games.sort_by_key(|p| p.record.setup.number);
    games
        .iter()
        .map(|p| {
            let rec = &p.record;
            let (who, kind) = match &rec.fault {
                Some((c, f)) => {
                    let idx = if *c == chess960_core::Color::White {
                        p.white
                    } else {
                        p.black
                    };
                    (Some(r.names[idx].clone()), Some(f.kind().to_string()))
                }
                None => (None, None),
            };
            (
                rec.result.as_str().to_string(),
                rec.reason.clone(),
                who,
                kind,
            )
        })
        .collect()
}

/// The engine path, searched in `PATH` and in Debian's `/usr/games` (not on root's `PATH`).
pub fn installed(name: &str) -> Option<String> {
    let path = std::env::var("PATH").unwrap_or_default();
    let found = path
        .split(':')
        .chain(["/usr/games", "/usr/local/games"])
        .map(|d| std::path::Path::new(d).join(name))
        .find(|p| p.is_file());
    found.map(|p| p.display().to_string())
}

/// Like [`installed`], but a missing engine fails the test with the way to install it.
pub fn require(name: &str, package: &str) -> String {
    installed(name).unwrap_or_else(|| {
        panic!(
            "the real-engine test needs '{name}', which is not installed: apt-get install \
             {package} (scripts/test.sh installs it)"
        )
    })
}
