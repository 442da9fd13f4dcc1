//! Quick perft speed check: `cargo run --release -p chess960-core --example perft_speed -- <depth> [fen]`.
use chess960_core::{perft::perft, Position};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let depth: u32 = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(6);
    let fen = args
        .get(2)
        .map(String::as_str)
        .unwrap_or("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    let pos = Position::from_fen(fen).expect("valid FEN");
    let t = std::time::Instant::now();
    let n = perft(&pos, depth);
    let s = t.elapsed().as_secs_f64();
    println!("{n} nodes in {s:.3} s: {:.1} Mnps", n as f64 / s / 1e6);
}
