//! `chess960-engine datagen`: self-play games from random Chess960 starts, writing quiet
//! positions with the game's result, the training data for `chess960-engine tune` (Texel
//! tuning, see `tune.rs` and the "Tuning" section of `docs/engine.md`).
//!
//! Each game starts from a random Chess960 position, plays a few random plies (so that games
//! from the same start differ), then lets the engine play both sides with a fixed node budget
//! per move. A position is recorded when the side to move is not in check and the engine's
//! best move is quiet (no capture or promotion) and the score is not a mate: the static
//! evaluation is only meant to judge such positions; tactics are the search's business.
//!
//! Each line is `FEN;result;score`: the result 1.0, 0.5 or 0.0 and the search score in
//! centipawns, both from White's point of view. The tuner reads the first two fields; the
//! score is for `chess960-engine wdl-fit`, which fits the win/draw/loss model shown with
//! `UCI_ShowWDL` (see `wdl.rs`).

use crate::search::{is_tactical, Limits, Searcher, Shared, MATE_BOUND};
use crate::time::Deadlines;
use crate::tt::Table;
use chess960_core::{Color, StartId};
use std::io::Write;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

/// Settings of a data-generation run.
#[derive(Clone, Debug)]
pub struct Config {
    /// Games to play.
    pub games: u64,
    /// Node budget per move.
    pub nodes: u64,
    /// Seed of the random starts and opening plies (same seed, same games).
    pub seed: u64,
}

/// A small, fast, seedable generator (xorshift64*): reproducible data without a dependency.
pub struct Rng(u64);

impl Rng {
    /// A generator from `seed` (any value, 0 included).
    pub fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// A number in `0..n` (`n` > 0).
    pub fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n
    }
}

/// Plays `config.games` games and writes `FEN;result;score` lines (result 1.0, 0.5 or 0.0 and
/// the search score in centipawns, both from White's point of view) to `out`, flushing after every game so a run cut short still leaves
/// usable data. Returns (games, positions).
pub fn run(config: &Config, out: &mut impl Write) -> std::io::Result<(u64, u64)> {
    let mut rng = Rng::new(config.seed);
    let shared = Shared {
        tt: Table::new(16),
        stop: AtomicBool::new(false),
        nodes: AtomicU64::new(0),
    };
    let mut positions = 0;
    for game in 0..config.games {
        shared.tt.clear();
        let (fens, result) = play_game(&shared, config.nodes, &mut rng);
        let label = match result {
            Some(Color::White) => "1.0",
            Some(Color::Black) => "0.0",
            None => "0.5",
        };
        for (fen, score) in &fens {
            writeln!(out, "{fen};{label};{score}")?;
        }
        out.flush()?;
        positions += fens.len() as u64;
        if (game + 1) % 50 == 0 {
            eprintln!("datagen: {} games, {positions} positions", game + 1);
        }
    }
    Ok((config.games, positions))
}

/// One game; returns the recorded FENs with the search score for White, and the winner
/// (`None` for a draw).
fn play_game(shared: &Shared, nodes: u64, rng: &mut Rng) -> (Vec<(String, i32)>, Option<Color>) {
    let start = StartId::new(rng.below(960) as u32).expect("0..960 is a valid id");
    let mut pos = start.position();
    let mut hashes: Vec<u64> = Vec::new();
    let mut fens = Vec::new();
    // 4 to 9 random plies: enough to vary games from one start without wrecking them.
    let random_plies = 4 + rng.below(6);
    let mut winning_streak = 0; // plies in a row with a decisive score for the same side
    let mut quiet_streak = 0; // plies in a row with a score near zero
    let mut last_winner = None;
    for ply in 0.. {
        let legal = pos.legal_moves();
        if legal.is_empty() {
            return (fens, pos.is_check().then_some(!pos.turn()));
        }
        if pos.halfmoves() >= 100
            || pos.is_insufficient_material()
            || hashes.iter().filter(|&&h| h == pos.hash()).count() >= 2
            || ply >= 400
        {
            return (fens, None);
        }
        let m = if ply < random_plies {
            legal.as_slice()[rng.below(legal.len() as u64) as usize]
        } else {
            shared.stop.store(false, Ordering::SeqCst);
            shared.nodes.store(0, Ordering::SeqCst);
            shared.tt.new_search();
            let mut s = Searcher::new(shared, 0, hashes.clone(), Deadlines::default());
            let limits = Limits {
                nodes: Some(nodes),
                multipv: 1,
                ..Limits::default()
            };
            let outcome = s.run(&pos, &limits, |_| {});
            let best = outcome.best.expect("the position has legal moves");
            let score = outcome.score;
            let white_score = if pos.turn() == Color::White {
                score
            } else {
                -score
            };
            if !pos.is_check() && !is_tactical(&pos, best) && score.abs() < MATE_BOUND {
                fens.push((pos.fen(), white_score));
            }
            // Adjudication saves time without changing the label: a side 10 pawns up for
            // eight plies wins, a long game stuck near 0 is a draw.
            let leader = if white_score >= 1000 {
                Some(Color::White)
            } else if white_score <= -1000 {
                Some(Color::Black)
            } else {
                None
            };
            if leader.is_some() && leader == last_winner {
                winning_streak += 1;
            } else {
                winning_streak = usize::from(leader.is_some());
            }
            last_winner = leader;
            quiet_streak = if score.abs() <= 10 {
                quiet_streak + 1
            } else {
                0
            };
            if winning_streak >= 8 {
                return (fens, leader);
            }
            if ply >= 120 && quiet_streak >= 16 {
                return (fens, None);
            }
            best
        };
        hashes.push(pos.hash());
        pos = pos.play(m);
    }
    unreachable!("the loop returns")
}
