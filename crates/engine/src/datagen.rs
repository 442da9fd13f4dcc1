//! `chess960-engine datagen`: self-play games from random Chess960 starts, writing quiet
//! positions with the game's result and the search score: the training data for
//! `chess960-engine tune` (Texel tuning, see `tune.rs`), `wdl-fit` and the NNUE trainer
//! `chess960-train` (see the "Tuning" and "NNUE: data and training" sections of
//! `docs/engine.md`).
//!
//! Each game starts from a random Chess960 position (or, for a chosen share of the games, the
//! classical one, id 518), plays a few random plies (so that games from the same start differ),
//! then lets the engine play both sides with a fixed node budget per move, evaluating with
//! whatever [`Searcher`] evaluates with. A game whose first searched score after the random
//! plies is beyond ±[`MAX_OPENING_SCORE`] is dropped: the random plies wrecked it, and a
//! game decided from the start teaches little. A position is recorded when the side to move is
//! not in check and the engine's best move is quiet (no capture or promotion) and the score is
//! not a mate: the evaluation is only meant to judge such positions; tactics are the search's
//! business.
//!
//! Two output formats: text lines `FEN;result;score` (the result 1.0, 0.5 or 0.0 and the search
//! score in centipawns, both from White's point of view; the tuner reads the first two fields,
//! `wdl-fit` all three), or the 32-byte binary records of [`crate::trainingdata`].
//!
//! Games run on `threads` threads, each with its own transposition table. Every game draws its
//! start and opening plies from its own generator, seeded from the run's seed and the game's
//! index, and starts from a cleared table, so a game is the same whichever thread plays it: a
//! run is reproducible for a given seed, whatever the thread count. One writer writes whole
//! games in the order of their index and flushes after each, so a run cut short leaves whole,
//! usable games.

use crate::search::{is_tactical, Limits, Searcher, Shared, MATE_BOUND};
use crate::time::Deadlines;
use crate::trainingdata::{Outcome, Record};
use chess960_core::{Color, Position, StartId};
use std::collections::BTreeMap;
use std::fmt;
use std::io::Write;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// A game whose first searched score after the random plies is beyond this (centipawns, either
/// side) is dropped as a wrecked opening.
pub const MAX_OPENING_SCORE: i32 = 1000;

/// The id of the classical start position.
const CLASSICAL_ID: u32 = 518;

/// How positions are written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// `FEN;result;score` lines.
    Text,
    /// 32-byte [`Record`]s.
    Binary,
}

impl Format {
    /// The format for an output path: binary records for `.bin`, text lines otherwise.
    pub fn for_path(path: &str) -> Format {
        if path.ends_with(".bin") {
            Format::Binary
        } else {
            Format::Text
        }
    }
}

/// Settings of a data-generation run.
#[derive(Clone, Debug)]
pub struct Config {
    /// Games to start (dropped openings included).
    pub games: u64,
    /// Node budget per move.
    pub nodes: u64,
    /// Seed of the random starts and opening plies (same seed, same games).
    pub seed: u64,
    /// Games played at once, each on its own thread with its own table.
    pub threads: usize,
    /// Fewest and most random plies at the start of a game (inclusive).
    pub random_plies: (u32, u32),
    /// Share of the games, in per cent, that start from the classical position.
    pub classical_percent: u32,
    /// How positions are written.
    pub format: Format,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            games: 1000,
            nodes: 5000,
            seed: 1,
            threads: 1,
            random_plies: (4, 9),
            classical_percent: 0,
            format: Format::Text,
        }
    }
}

/// What a run produced.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    /// Games played to the end and written.
    pub games: u64,
    /// Games dropped because the random plies wrecked the opening.
    pub dropped: u64,
    /// Positions written.
    pub positions: u64,
}

/// A `--random-plies` value that cannot be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RangeError(String);

impl fmt::Display for RangeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for RangeError {}

/// Reads `A-B` (or a single number `A`, meaning `A-A`): the fewest and most random plies,
/// `A ≤ B ≤ 100`.
pub fn parse_plies(text: &str) -> Result<(u32, u32), RangeError> {
    let (a, b) = text.split_once('-').unwrap_or((text, text));
    let num = |s: &str| {
        s.trim().parse::<u32>().map_err(|_| {
            RangeError(format!(
                "'{text}': '{s}' is not a number of plies (expected A-B, such as 8-9)"
            ))
        })
    };
    let (a, b) = (num(a)?, num(b)?);
    if a > b {
        return Err(RangeError(format!("'{text}': {a} is more than {b}")));
    }
    if b > 100 {
        return Err(RangeError(format!("'{text}': at most 100 random plies")));
    }
    Ok((a, b))
}

/// A small, fast, seedable generator (xorshift64*): reproducible data without a dependency.
pub struct Rng(u64);

impl Rng {
    /// A generator from `seed` (any value, 0 included).
    pub fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    /// The generator of item `index` of a run seeded with `seed`: streams that do not overlap
    /// in practice, whatever the order in which the items are taken.
    pub fn for_item(seed: u64, index: u64) -> Rng {
        // splitmix64 of the pair, so that neighbouring seeds and indices give unrelated streams.
        let mut z = seed
            .wrapping_add(index.wrapping_mul(0x9E37_79B9_7F4A_7C15))
            .wrapping_add(0xD1B5_4A32_D192_ED03);
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        Rng::new(z ^ (z >> 31))
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

/// One finished game: its recorded positions with the search score for White, and the winner
/// (`None` for a draw); `None` for a dropped opening.
type Game = Option<(Vec<(Position, i32)>, Option<Color>)>;

/// Plays `config.games` games on `config.threads` threads and writes their positions to `out`
/// in `config.format`, whole games in index order, flushing after every game so that a run cut
/// short still leaves usable data. `progress` receives a line at most every few seconds.
pub fn run(
    config: &Config,
    out: &mut impl Write,
    mut progress: impl FnMut(&str),
) -> std::io::Result<Summary> {
    let threads = config.threads.clamp(1, 256);
    let next = AtomicU64::new(0);
    let abort = AtomicBool::new(false);
    let started = Instant::now();
    std::thread::scope(|scope| {
        let (tx, rx) = mpsc::channel::<(u64, Game)>();
        for _ in 0..threads {
            let tx = tx.clone();
            let (next, abort) = (&next, &abort);
            scope.spawn(move || {
                let shared = Shared::new(16);
                while !abort.load(Ordering::Relaxed) {
                    let index = next.fetch_add(1, Ordering::Relaxed);
                    if index >= config.games {
                        break;
                    }
                    shared.clear();
                    let game = play_game(&shared, config, index);
                    if tx.send((index, game)).is_err() {
                        break;
                    }
                }
            });
        }
        drop(tx);
        // Games finish out of order; they wait here until every game before them is written.
        let mut waiting: BTreeMap<u64, Game> = BTreeMap::new();
        let mut written = 0u64;
        let mut summary = Summary::default();
        let mut last_report = Instant::now();
        let result = (|| {
            for (index, game) in rx {
                waiting.insert(index, game);
                while let Some(game) = waiting.remove(&written) {
                    written += 1;
                    match game {
                        None => summary.dropped += 1,
                        Some((positions, winner)) => {
                            write_game(out, config.format, &positions, winner)?;
                            out.flush()?;
                            summary.games += 1;
                            summary.positions += positions.len() as u64;
                        }
                    }
                }
                if last_report.elapsed() >= Duration::from_secs(5) {
                    last_report = Instant::now();
                    progress(&progress_line(&summary, started.elapsed()));
                }
            }
            Ok(())
        })();
        if result.is_err() {
            abort.store(true, Ordering::Relaxed);
        }
        result.map(|()| summary)
    })
}

/// `games, positions, positions per second`, for the progress lines.
fn progress_line(s: &Summary, elapsed: Duration) -> String {
    let secs = elapsed.as_secs_f64().max(1e-9);
    format!(
        "{} games ({} dropped openings), {} positions, {:.0} positions/s, {:.0} s",
        s.games,
        s.dropped,
        s.positions,
        s.positions as f64 / secs,
        secs
    )
}

fn write_game(
    out: &mut impl Write,
    format: Format,
    positions: &[(Position, i32)],
    winner: Option<Color>,
) -> std::io::Result<()> {
    match format {
        Format::Text => {
            let label = match winner {
                Some(Color::White) => "1.0",
                Some(Color::Black) => "0.0",
                None => "0.5",
            };
            for (pos, score) in positions {
                writeln!(out, "{};{label};{score}", pos.fen())?;
            }
        }
        Format::Binary => {
            let outcome = Outcome::from_winner(winner);
            for (pos, score) in positions {
                let record = Record {
                    board: *pos.board(),
                    turn: pos.turn(),
                    white_score: (*score).clamp(-32767, 32767) as i16,
                    outcome,
                    fullmove: pos.fullmoves().min(u16::MAX.into()) as u16,
                };
                let bytes = record
                    .encode()
                    .map_err(|e| std::io::Error::new(std::io::ErrorKind::InvalidData, e))?;
                out.write_all(&bytes)?;
            }
        }
    }
    Ok(())
}

/// A start position's id: the classical one with `classical_percent` per cent probability,
/// otherwise one of the 960 uniformly.
fn start_id(rng: &mut Rng, classical_percent: u32) -> u32 {
    if rng.below(100) < u64::from(classical_percent) {
        CLASSICAL_ID
    } else {
        rng.below(960) as u32
    }
}

/// Game `index` of the run: its recorded positions with the search score for White and the
/// winner, or `None` when the opening was wrecked.
fn play_game(shared: &Shared, config: &Config, index: u64) -> Game {
    let mut rng = Rng::for_item(config.seed, index);
    let id = start_id(&mut rng, config.classical_percent);
    let mut pos = StartId::new(id).expect("0..960 is a valid id").position();
    let (least, most) = config.random_plies;
    let random_plies = u64::from(least) + rng.below(u64::from(most - least) + 1);
    let mut hashes: Vec<u64> = Vec::new();
    let mut recorded = Vec::new();
    let mut winning_streak = 0; // plies in a row with a decisive score for the same side
    let mut quiet_streak = 0; // plies in a row with a score near zero
    let mut last_winner = None;
    for ply in 0.. {
        let legal = pos.legal_moves();
        if legal.is_empty() {
            return Some((recorded, pos.is_check().then_some(!pos.turn())));
        }
        if pos.halfmoves() >= 100
            || pos.is_insufficient_material()
            || hashes.iter().filter(|&&h| h == pos.hash()).count() >= 2
            || ply >= 400
        {
            return Some((recorded, None));
        }
        let m = if ply < random_plies {
            legal.as_slice()[rng.below(legal.len() as u64) as usize]
        } else {
            shared.stop.store(false, Ordering::SeqCst);
            shared.nodes.store(0, Ordering::SeqCst);
            shared.tt.new_search();
            let mut s = Searcher::new(shared, 0, hashes.clone(), Deadlines::default());
            let limits = Limits {
                nodes: Some(config.nodes),
                multipv: 1,
                ..Limits::default()
            };
            let outcome = s.run(&pos, &limits, |_| {});
            let best = outcome.best.expect("the position has legal moves");
            let score = outcome.score;
            if ply == random_plies && score.abs() > MAX_OPENING_SCORE {
                return None;
            }
            let white_score = if pos.turn() == Color::White {
                score
            } else {
                -score
            };
            if !pos.is_check() && !is_tactical(&pos, best) && score.abs() < MATE_BOUND {
                recorded.push((pos, white_score));
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
                return Some((recorded, leader));
            }
            if ply >= 120 && quiet_streak >= 16 {
                return Some((recorded, None));
            }
            best
        };
        hashes.push(pos.hash());
        pos = pos.play(m);
    }
    unreachable!("the loop returns")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::trainingdata::RECORD_SIZE;

    fn small(threads: usize, format: Format) -> Config {
        Config {
            games: 4,
            nodes: 300,
            seed: 11,
            threads,
            random_plies: (8, 9),
            classical_percent: 0,
            format,
        }
    }

    fn generate(config: &Config) -> (Summary, Vec<u8>) {
        let mut out = Vec::new();
        let summary = run(config, &mut out, |_| {}).unwrap();
        (summary, out)
    }

    #[test]
    fn plies_ranges_are_read_or_refused_with_the_reason() {
        assert_eq!(parse_plies("8-9"), Ok((8, 9)));
        assert_eq!(parse_plies("6"), Ok((6, 6)));
        assert_eq!(parse_plies(" 4 - 9 "), Ok((4, 9)));
        for (bad, says) in [
            ("9-8", "9 is more than 8"),
            ("a-9", "'a' is not a number"),
            ("4-", "'' is not a number"),
            ("4-9-12", "'9-12' is not a number"),
            ("-3", "'' is not a number"),
            ("0-101", "at most 100"),
        ] {
            let e = parse_plies(bad).unwrap_err().to_string();
            assert!(e.contains(says), "{bad}: {e}");
        }
    }

    #[test]
    fn a_run_is_the_same_whatever_the_thread_count() {
        let (one, text1) = generate(&small(1, Format::Text));
        let (two, text2) = generate(&small(2, Format::Text));
        assert_eq!(one, two);
        assert_eq!(text1, text2);
        assert_eq!(one.games + one.dropped, 4);
        assert!(one.positions > 20, "{one:?}");
        // Another seed gives other games.
        let (_, other) = generate(&Config {
            seed: 12,
            ..small(2, Format::Text)
        });
        assert_ne!(text1, other);
    }

    #[test]
    fn binary_records_hold_the_text_lines_positions() {
        let (summary, text) = generate(&small(2, Format::Text));
        let (same, bin) = generate(&small(2, Format::Binary));
        assert_eq!(summary, same);
        assert_eq!(bin.len() as u64, RECORD_SIZE as u64 * summary.positions);
        let lines: Vec<&str> = std::str::from_utf8(&text).unwrap().lines().collect();
        for (line, chunk) in lines.iter().zip(bin.chunks_exact(RECORD_SIZE)) {
            let record = Record::decode(chunk.try_into().unwrap()).unwrap();
            let mut fields = line.split(';');
            let pos = Position::from_fen(fields.next().unwrap()).unwrap();
            let result: f32 = fields.next().unwrap().parse().unwrap();
            let score: i16 = fields.next().unwrap().parse().unwrap();
            assert_eq!(&record.board, pos.board());
            assert_eq!(record.turn, pos.turn());
            assert_eq!(u32::from(record.fullmove), pos.fullmoves());
            assert_eq!(record.white_score, score);
            assert_eq!(record.outcome.white_score(), result);
            // What datagen promises about a recorded position.
            assert!(!pos.is_check(), "{line}");
        }
    }

    #[test]
    fn wrecked_openings_are_dropped_and_counted() {
        // Thirty-odd random plies leave many games lost from the start.
        let config = Config {
            games: 6,
            random_plies: (30, 40),
            ..small(2, Format::Binary)
        };
        let (summary, bin) = generate(&config);
        assert!(summary.dropped > 0, "{summary:?}");
        assert_eq!(summary.games + summary.dropped, 6);
        assert_eq!(bin.len() as u64, RECORD_SIZE as u64 * summary.positions);
    }

    #[test]
    fn the_classical_share_starts_from_the_classical_position() {
        // With no random plies, every game from the classical start is the same game (a
        // cleared table and a node budget make the search deterministic).
        let config = Config {
            games: 2,
            random_plies: (0, 0),
            classical_percent: 100,
            ..small(2, Format::Text)
        };
        let (summary, text) = generate(&config);
        assert_eq!(summary.games, 2);
        let text = String::from_utf8(text).unwrap();
        let classical = StartId::new(CLASSICAL_ID).unwrap().position().fen();
        assert!(text.starts_with(&format!("{classical};")), "{text}");
        let (first, second) = text.split_at(text.len() / 2);
        assert_eq!(first, second);
        // A share draws that share of the games' starts (the rest are uniform over 960).
        let mut rng = Rng::new(5);
        let n = 20_000;
        let classical = (0..n)
            .filter(|_| start_id(&mut rng, 25) == CLASSICAL_ID)
            .count();
        assert!((4700..5300).contains(&classical), "{classical} of {n}");
        let none = (0..n)
            .filter(|_| start_id(&mut rng, 0) == CLASSICAL_ID)
            .count();
        assert!(none < 60, "{none} of {n}");
    }
}
