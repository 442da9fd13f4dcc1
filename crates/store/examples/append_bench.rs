//! Times the store's write of one move, as a game being played makes it (docs/performance.md,
//! "Games being played"): `append_move`, which finds the explorer's index rows of the move by
//! replaying the game, against `append_move_indexed`, which is handed the keys of the two
//! positions by the caller (the server knows them).
//!
//! ```text
//! cargo run --profile ci -p chess960-store --example append_bench                 # SQLite, a temporary file
//! cargo run --profile ci -p chess960-store --example append_bench -- postgres://postgres@127.0.0.1:5432/bench
//! ```
//!
//! Plays GAMES games (`--games`, 40) of 80 half-moves each way on the same database, move
//! after move, each write durable before the next, and prints the median and the 99th
//! percentile per move, by the number of moves already played (the replay grows with the
//! game). The games are the same both ways: random legal moves from a fixed seed.

use chess960_core::{Position, StartId};
use chess960_store::explorer::IndexStep;
use chess960_store::{MoveRecord, NewGame};
use std::time::{Duration, Instant};

const PLIES: usize = 80;

fn main() {
    let mut args = std::env::args().skip(1);
    let mut address = None;
    let mut games = 40usize;
    while let Some(a) = args.next() {
        match a.as_str() {
            "--games" => {
                games = args
                    .next()
                    .and_then(|v| v.parse().ok())
                    .unwrap_or_else(|| fail("--games takes a number"))
            }
            "-h" | "--help" => fail("usage: append_bench [POSTGRES_ADDRESS] [--games N]"),
            _ => address = Some(a),
        }
    }
    let dir = tempfile::tempdir().expect("a temporary directory");
    let path = match &address {
        Some(a) => std::path::PathBuf::from(a),
        None => dir.path().join("bench.sqlite3"),
    };
    let store = chess960_store::open(Some(&path)).unwrap_or_else(|e| fail(&e.to_string()));
    println!(
        "{} games of {PLIES} half-moves each way, on {}",
        games,
        if address.is_some() {
            "PostgreSQL"
        } else {
            "SQLite (a temporary file)"
        }
    );
    for indexed in [false, true] {
        let mut times: Vec<Vec<Duration>> = vec![Vec::new(); PLIES / 20];
        let mut seed = 0x9E37_79B9_7F4A_7C15u64;
        for n in 0..games {
            let start = StartId::new((n * 37 % 960) as u32)
                .expect("a start")
                .position();
            let new = NewGame {
                start_fen: start.fen(),
                start_id: None,
                white: "A".into(),
                black: "B".into(),
                time_control: None,
                clocks: None,
                tags: Vec::new(),
            };
            let (id, _) = store
                .create_game(&new)
                .unwrap_or_else(|e| fail(&e.to_string()));
            let mut pos: Position = start;
            for ply in 0..PLIES {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                let m = moves[(seed % moves.len() as u64) as usize];
                let record = MoveRecord::of(&pos, m, None, 0);
                let after = pos.play(m);
                let t = Instant::now();
                let done = if indexed {
                    store.append_move_indexed(id, ply as u32, &record, IndexStep::of(&pos, &after))
                } else {
                    store.append_move(id, ply as u32, &record)
                };
                let took = t.elapsed();
                done.unwrap_or_else(|e| fail(&e.to_string()));
                times[ply / 20].push(took);
                pos = after;
            }
        }
        let name = if indexed {
            "append_move_indexed"
        } else {
            "append_move (replay)"
        };
        for (i, t) in times.iter_mut().enumerate() {
            t.sort();
            println!(
                "{name:22} moves {:3}-{:3}: median {:.3} ms, p99 {:.3} ms ({} writes)",
                i * 20 + 1,
                i * 20 + 20,
                ms(percentile(t, 50)),
                ms(percentile(t, 99)),
                t.len()
            );
        }
    }
}

fn percentile(sorted: &[Duration], p: usize) -> Duration {
    if sorted.is_empty() {
        return Duration::ZERO;
    }
    sorted[((sorted.len() - 1) * p / 100).min(sorted.len() - 1)]
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

fn fail(why: &str) -> ! {
    eprintln!("append_bench: {why}");
    std::process::exit(2)
}
