//! Writes a large PGN file of random legal Chess960 games, for measuring `chess960 db import`
//! at scale (see docs/performance.md):
//!
//! ```text
//! cargo run --release -p chess960-store --example gen_games -- 1000000 /tmp/million.pgn
//! ```
//!
//! Games: a random start position of the 960, random players from a pool of 2,000, a date in
//! 2015..2025, a round number, 10 to 120 half-moves of random legal moves, and a random
//! result (the real one when the game ends in mate or stalemate). Deterministic: the same
//! count gives the same file.

use chess960_core::{Color, StartId};
use chess960_pgn::{Game, GameResult, Node, Variant, WriteOptions, Writer};
use std::io::{BufWriter, Write};

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let (Some(n), Some(path)) = (args.get(1).and_then(|s| s.parse::<u64>().ok()), args.get(2))
    else {
        eprintln!("usage: gen_games COUNT OUT.pgn ('-' for standard output)");
        std::process::exit(2);
    };
    let sink: Box<dyn Write> = if path == "-" {
        Box::new(std::io::stdout().lock())
    } else {
        match std::fs::File::create(path) {
            Ok(f) => Box::new(f),
            Err(e) => {
                eprintln!("gen_games: cannot write {path}: {e}");
                std::process::exit(2);
            }
        }
    };
    let mut w = Writer::new(
        BufWriter::with_capacity(1 << 20, sink),
        WriteOptions::default(),
    );
    let mut rng = Rng(0x2545_f491_4f6c_dd1d);
    for i in 0..n {
        let id = StartId::new(rng.below(960) as u32).expect("below 960");
        let start = id.position();
        let mut game = Game::new(start, Variant::Chess960);
        game.tags.set("Event", "Generated");
        game.tags.set("Site", "chess960 gen_games");
        game.tags.set(
            "Date",
            format!(
                "{}.{:02}.{:02}",
                2015 + rng.below(11),
                1 + rng.below(12),
                1 + rng.below(28)
            ),
        );
        game.tags.set("Round", (i + 1).to_string());
        game.tags
            .set("White", format!("Player {}", rng.below(2000)));
        game.tags
            .set("Black", format!("Player {}", rng.below(2000)));
        let plies = 10 + rng.below(111);
        let mut pos = start;
        for _ in 0..plies {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            let m = moves[rng.below(moves.len() as u64) as usize];
            game.moves.nodes.push(Node::new(m));
            pos = pos.play(m);
        }
        game.result = if pos.is_checkmate() {
            if pos.turn() == Color::White {
                GameResult::BlackWins
            } else {
                GameResult::WhiteWins
            }
        } else if pos.is_stalemate() {
            GameResult::Draw
        } else {
            [
                GameResult::WhiteWins,
                GameResult::Draw,
                GameResult::BlackWins,
            ][rng.below(3) as usize]
        };
        if let Err(e) = w.write_game(&game) {
            eprintln!("gen_games: cannot write {path}: {e}");
            std::process::exit(2);
        }
    }
    if let Err(e) = w.into_inner() {
        eprintln!("gen_games: cannot write {path}: {e}");
        std::process::exit(2);
    }
}
