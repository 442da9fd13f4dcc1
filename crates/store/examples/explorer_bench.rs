//! Times explorer lookups on a game database (see docs/performance.md, "Explorer"):
//!
//! ```text
//! cargo run --profile ci -p chess960-store --example explorer_bench -- /tmp/perf/1m.sqlite3
//! ```
//!
//! Opening the database migrates it first when it is older (the time is printed: on a
//! version 3 database that is the back-fill of the position index). Then, each timed as one
//! `GameStore::explore` call with the newest 20 games, as the web server makes it:
//! - every start position of the 960 that has games (its moves, most played first);
//! - positions after 2, 6 and 12 half-moves of 500 stored games spread over the database;
//! - the positions of one game from start to end, at every ply.
//!
//! For each group: count, median, 99th percentile and maximum in milliseconds, and the
//! games found. Deterministic: the same database gives the same lookups.

use chess960_core::{CastlingMode, Position, StartId};
use chess960_store::{GameFilter, GameId, GameStore, SqliteStore};
use std::time::Instant;

fn main() {
    let Some(path) = std::env::args().nth(1) else {
        eprintln!("usage: explorer_bench DATABASE");
        std::process::exit(2);
    };
    let t = Instant::now();
    let store = match SqliteStore::open(&path) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("explorer_bench: {e}");
            std::process::exit(1);
        }
    };
    println!(
        "open (with any migration): {:.2} s",
        t.elapsed().as_secs_f64()
    );
    let total = store.count(&GameFilter::default()).unwrap_or(0);
    println!("games: {total}");

    let starts: Vec<Position> = StartId::all().map(|id| id.position()).collect();
    report("start positions", &store, &starts);

    let ids: Vec<i64> = (0..500)
        .map(|i| 1 + i * (total as i64 / 500).max(1))
        .collect();
    for plies in [2usize, 6, 12] {
        let positions: Vec<Position> = ids
            .iter()
            .filter_map(|&id| position_after(&store, id, plies))
            .collect();
        report(&format!("after {plies} half-moves"), &store, &positions);
    }
    let longest: Vec<Position> = (0..200usize)
        .filter_map(|p| position_after(&store, ids[ids.len() / 2], p))
        .collect();
    report("one game, every ply", &store, &longest);
}

/// The position after `plies` half-moves of game `id`, if it has that many.
fn position_after(store: &SqliteStore, id: i64, plies: usize) -> Option<Position> {
    let g = store.game(GameId(id)).ok()??;
    if g.moves.len() < plies {
        return None;
    }
    let mut pos = Position::from_fen(&g.game.start_fen).ok()?;
    for m in &g.moves[..plies] {
        pos = pos.play(pos.parse_uci(&m.uci, CastlingMode::Chess960).ok()?);
    }
    Some(pos)
}

fn report(what: &str, store: &SqliteStore, positions: &[Position]) {
    let mut times = Vec::with_capacity(positions.len());
    let mut games = 0u64;
    let mut most = 0u64;
    for pos in positions {
        let t = Instant::now();
        match store.explore(pos, 20) {
            Ok(e) => {
                games += e.results.games;
                most = most.max(e.results.games);
            }
            Err(e) => {
                eprintln!("explorer_bench: {e}");
                std::process::exit(1);
            }
        }
        times.push(t.elapsed().as_secs_f64() * 1000.0);
    }
    if times.is_empty() {
        println!("{what}: no positions");
        return;
    }
    times.sort_by(f64::total_cmp);
    let at = |q: f64| times[((times.len() - 1) as f64 * q).round() as usize];
    println!(
        "{what}: {} lookups, median {:.2} ms, p99 {:.2} ms, max {:.2} ms; {:.1} games per position on average, at most {most}",
        times.len(),
        at(0.5),
        at(0.99),
        at(1.0),
        games as f64 / times.len() as f64,
    );
}
