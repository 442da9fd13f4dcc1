//! `perft-bench`: perft throughput of `chess960-core` against two peer
//! libraries, [`shakmaty`](mod@shakmaty) and [`cozy_chess`], measured in one run.
//!
//! Every library counts perft on the same fixed set of Chess960 start
//! positions, single-threaded, in the same binary (so the same build profile
//! and flags). Each library uses its own fastest idiomatic perft with bulk
//! counting at depth 1. Every count is checked against the published count
//! embedded below, and the run aborts on a mismatch, so a fast but wrong
//! move generator cannot win.
//!
//! The libraries take turns position by position, in an order that rotates
//! with every position and every round, so that all of them see the same
//! machine conditions. With `--rounds R` the whole set is run `R` times and
//! each library's fastest round (sum of its per-position times) is reported.
//!
//! ```text
//! cargo run --release -p chess960-bench -- --depth 6 --rounds 3
//! ```

use std::fmt::Write as _;
use std::hint::black_box;
use std::process::ExitCode;
use std::time::{Duration, Instant};

/// Deepest depth with a published count in [`POSITIONS`].
const MAX_DEPTH: u32 = 6;

/// Depth used when `--depth` is not given.
const DEFAULT_DEPTH: u32 = 6;

/// One embedded Chess960 start position and its published perft counts.
struct StartPos {
    /// Scharnagl number (0..=959; 518 is the standard chess start position).
    id: u16,
    /// FEN with Shredder-FEN castling rights (rook files), as published.
    fen: &'static str,
    /// Published perft counts for depths 1..=[`MAX_DEPTH`] (index `depth - 1`).
    counts: [u64; MAX_DEPTH as usize],
}

/// The benchmark set: twelve start positions spread over the 960 IDs.
///
/// FENs and counts are copied from the project's perft data,
/// `chess960_startpos_perft_by_id.epd` (derived from LastEmperor's
/// `perft_960_starting_pos.txt`); they are embedded so that the benchmark
/// reads no file at run time.
const POSITIONS: [StartPos; 12] = [
    StartPos {
        id: 0,
        fen: "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1",
        counts: [20, 400, 9006, 201_143, 4_975_808, 121_983_565],
    },
    StartPos {
        id: 87,
        fen: "nnbrkrqb/pppppppp/8/8/8/8/PPPPPPPP/NNBRKRQB w FDfd - 0 1",
        counts: [19, 361, 7630, 160_541, 3_802_312, 89_231_420],
    },
    StartPos {
        id: 166,
        fen: "nrbnkbqr/pppppppp/8/8/8/8/PPPPPPPP/NRBNKBQR w HBhb - 0 1",
        counts: [19, 361, 7803, 167_958, 4_038_012, 96_308_721],
    },
    StartPos {
        id: 250,
        fen: "nrkqbbnr/pppppppp/8/8/8/8/PPPPPPPP/NRKQBBNR w HBhb - 0 1",
        counts: [19, 361, 7737, 165_204, 3_955_976, 94_099_385],
    },
    StartPos {
        id: 321,
        fen: "bnrbqkrn/pppppppp/8/8/8/8/PPPPPPPP/BNRBQKRN w GCgc - 0 1",
        counts: [20, 400, 8860, 194_986, 4_722_799, 113_577_509],
    },
    StartPos {
        id: 402,
        fen: "brqnnbkr/pppppppp/8/8/8/8/PPPPPPPP/BRQNNBKR w HBhb - 0 1",
        counts: [20, 400, 8974, 200_545, 4_969_945, 122_292_012],
    },
    StartPos {
        id: 518,
        fen: "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1",
        counts: [20, 400, 8902, 197_281, 4_865_609, 119_060_324],
    },
    StartPos {
        id: 599,
        fen: "rqbnkrnb/pppppppp/8/8/8/8/PPPPPPPP/RQBNKRNB w FAfa - 0 1",
        counts: [20, 400, 8974, 200_459, 4_945_829, 121_021_019],
    },
    StartPos {
        id: 683,
        fen: "qrknbnrb/pppppppp/8/8/8/8/PPPPPPPP/QRKNBNRB w GBgb - 0 1",
        counts: [20, 400, 8956, 199_275, 4_922_565, 120_551_920],
    },
    StartPos {
        id: 744,
        fen: "rbknbnqr/pppppppp/8/8/8/8/PPPPPPPP/RBKNBNQR w HAha - 0 1",
        counts: [20, 400, 8992, 201_369, 5_013_640, 123_724_036],
    },
    StartPos {
        id: 855,
        fen: "rkbnrnqb/pppppppp/8/8/8/8/PPPPPPPP/RKBNRNQB w EAea - 0 1",
        counts: [20, 400, 8986, 200_007, 4_901_125, 119_041_627],
    },
    StartPos {
        id: 959,
        fen: "rkrnnqbb/pppppppp/8/8/8/8/PPPPPPPP/RKRNNQBB w CAca - 0 1",
        counts: [20, 400, 9006, 201_143, 4_973_573, 121_872_948],
    },
];

// ---------------------------------------------------------------------------
// The three perft implementations under test.
// ---------------------------------------------------------------------------

/// Perft with our library, `chess960-core`.
///
/// This is the only place that uses `chess960_core`; adapt it here if that
/// API changes. FEN parsing is included in the timed region for every
/// library; it costs microseconds against perft runs of milliseconds or more.
fn ours(fen: &str, depth: u32) -> Result<u64, String> {
    let pos = chess960_core::Position::from_fen(fen).map_err(|e| format!("{e}"))?;
    Ok(chess960_core::perft::perft(&pos, depth))
}

/// Perft with `shakmaty`: its own bulk-counting [`shakmaty::perft`] on a
/// [`shakmaty::Chess`] set up in Chess960 castling mode.
fn shakmaty(fen: &str, depth: u32) -> Result<u64, String> {
    use shakmaty::fen::Fen;
    use shakmaty::{CastlingMode, Chess};

    let fen: Fen = fen.parse().map_err(|e| format!("{e}"))?;
    let pos: Chess = fen
        .into_position(CastlingMode::Chess960)
        .map_err(|e| format!("{e}"))?;
    Ok(shakmaty::perft(&pos, depth))
}

/// Perft with `cozy-chess`, parsing the FEN with Shredder castling rights.
fn cozy(fen: &str, depth: u32) -> Result<u64, String> {
    let board = cozy_chess::Board::from_fen(fen, true).map_err(|e| format!("{e:?}"))?;
    Ok(cozy_perft(&board, depth))
}

/// The perft of cozy-chess's own `examples/perft.rs` (`perft_bulk`): moves
/// come in per-piece sets from `generate_moves`, and at depth 1 only the set
/// sizes are summed (bulk counting), without playing the moves.
fn cozy_perft(board: &cozy_chess::Board, depth: u32) -> u64 {
    let mut nodes = 0;
    match depth {
        0 => nodes += 1,
        1 => {
            board.generate_moves(|moves| {
                nodes += moves.len() as u64;
                false
            });
        }
        _ => {
            board.generate_moves(|moves| {
                for mv in moves {
                    let mut child = board.clone();
                    child.play_unchecked(mv);
                    nodes += cozy_perft(&child, depth - 1);
                }
                false
            });
        }
    }
    nodes
}

// ---------------------------------------------------------------------------
// Benchmark driver.
// ---------------------------------------------------------------------------

/// A library under test.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Lib {
    /// `chess960-core`, this project's library.
    Ours,
    /// The `shakmaty` crate.
    Shakmaty,
    /// The `cozy-chess` crate.
    Cozy,
}

impl Lib {
    /// All libraries, in report order.
    const ALL: [Lib; 3] = [Lib::Ours, Lib::Shakmaty, Lib::Cozy];

    /// Name used in the report.
    fn name(self) -> &'static str {
        match self {
            Lib::Ours => "ours",
            Lib::Shakmaty => "shakmaty",
            Lib::Cozy => "cozy-chess",
        }
    }

    /// Parses a `--lib` value.
    fn from_arg(s: &str) -> Option<Lib> {
        match s {
            "ours" | "chess960-core" => Some(Lib::Ours),
            "shakmaty" => Some(Lib::Shakmaty),
            "cozy" | "cozy-chess" => Some(Lib::Cozy),
            _ => None,
        }
    }

    /// Runs this library's perft on `fen` to `depth`.
    fn perft(self, fen: &str, depth: u32) -> Result<u64, String> {
        match self {
            Lib::Ours => ours(fen, depth),
            Lib::Shakmaty => shakmaty(fen, depth),
            Lib::Cozy => cozy(fen, depth),
        }
    }
}

/// Command-line options.
#[derive(Debug)]
struct Options {
    /// Perft depth, 1..=[`MAX_DEPTH`].
    depth: u32,
    /// Positions to run, as indices into [`POSITIONS`], in the given order.
    positions: Vec<usize>,
    /// Libraries to run, in report order.
    libs: Vec<Lib>,
    /// Number of rounds over the whole set.
    rounds: u32,
    /// Print JSON instead of the table.
    json: bool,
}

/// Usage text for `--help`.
fn usage() -> String {
    let ids: Vec<String> = POSITIONS.iter().map(|p| p.id.to_string()).collect();
    format!(
        "perft-bench: perft nodes per second of chess960-core, shakmaty and cozy-chess

USAGE:
    perft-bench [OPTIONS]

OPTIONS:
    --depth N        perft depth, 1..={MAX_DEPTH} [default: {DEFAULT_DEPTH}]
    --ids A,B,...    start-position IDs to run, a subset of the embedded set
                     [default: all: {ids}]
    --lib LIB        library to run: ours | shakmaty | cozy; repeat to run
                     several [default: all three]
    --rounds R       run the whole set R times, alternating the library
                     order, and report each library's fastest round [default: 1]
    --json           print the result as JSON
    -h, --help       print this help

Build with `cargo build --release -p chess960-bench`; add
`--features cozy-pext` for cozy-chess's PEXT tables (needs BMI2, e.g.
RUSTFLAGS=\"-C target-cpu=native\").",
        ids = ids.join(",")
    )
}

/// What the command line asks for.
enum Command {
    /// Run the benchmark.
    Run(Options),
    /// Print the usage text.
    Help,
}

/// Parses the command line (without the program name).
fn parse_args(args: impl IntoIterator<Item = String>) -> Result<Command, String> {
    let mut depth = DEFAULT_DEPTH;
    let mut positions: Option<Vec<usize>> = None;
    let mut libs: Vec<Lib> = Vec::new();
    let mut rounds = 1;
    let mut json = false;

    let mut args = args.into_iter();
    while let Some(arg) = args.next() {
        // Accept both `--opt value` and `--opt=value`.
        let (flag, inline) = match arg.split_once('=') {
            Some((f, v)) if f.starts_with("--") => (f.to_string(), Some(v.to_string())),
            _ => (arg, None),
        };
        let mut value = |name: &str| {
            inline
                .clone()
                .or_else(|| args.next())
                .ok_or_else(|| format!("{name} needs a value"))
        };
        match flag.as_str() {
            "-h" | "--help" => return Ok(Command::Help),
            "--json" => json = true,
            "--depth" => {
                let v = value("--depth")?;
                depth = v
                    .parse()
                    .ok()
                    .filter(|d| (1..=MAX_DEPTH).contains(d))
                    .ok_or_else(|| {
                        format!("--depth must be 1..={MAX_DEPTH} (published counts), got {v:?}")
                    })?;
            }
            "--rounds" => {
                let v = value("--rounds")?;
                rounds = v
                    .parse()
                    .ok()
                    .filter(|&r| r >= 1)
                    .ok_or_else(|| format!("--rounds must be a positive integer, got {v:?}"))?;
            }
            "--lib" => {
                let v = value("--lib")?;
                let lib = Lib::from_arg(&v).ok_or_else(|| {
                    format!("unknown --lib {v:?} (expected ours, shakmaty or cozy)")
                })?;
                if !libs.contains(&lib) {
                    libs.push(lib);
                }
            }
            "--ids" => {
                let v = value("--ids")?;
                let mut chosen = Vec::new();
                for part in v.split(',').map(str::trim).filter(|s| !s.is_empty()) {
                    let id: u16 = part
                        .parse()
                        .map_err(|_| format!("--ids: {part:?} is not a number"))?;
                    let index = POSITIONS.iter().position(|p| p.id == id).ok_or_else(|| {
                        let ids: Vec<String> = POSITIONS.iter().map(|p| p.id.to_string()).collect();
                        format!("--ids: {id} is not in the embedded set ({})", ids.join(","))
                    })?;
                    if chosen.contains(&index) {
                        return Err(format!("--ids: {id} given twice"));
                    }
                    chosen.push(index);
                }
                if chosen.is_empty() {
                    return Err("--ids: no ID given".to_string());
                }
                positions = Some(chosen);
            }
            _ => return Err(format!("unexpected argument {flag:?} (see --help)")),
        }
    }

    // Report in a fixed order whatever order `--lib` was given in.
    let libs = if libs.is_empty() {
        Lib::ALL.to_vec()
    } else {
        Lib::ALL
            .iter()
            .copied()
            .filter(|l| libs.contains(l))
            .collect()
    };
    Ok(Command::Run(Options {
        depth,
        positions: positions.unwrap_or_else(|| (0..POSITIONS.len()).collect()),
        libs,
        rounds,
        json,
    }))
}

/// Timing of one library over all rounds.
struct LibResult {
    /// The library.
    lib: Lib,
    /// Wall time of each round over the whole position set.
    rounds: Vec<Duration>,
}

impl LibResult {
    /// The fastest round.
    fn best(&self) -> Duration {
        self.rounds.iter().copied().min().unwrap_or_default()
    }
}

/// Times one perft of `lib` on `POSITIONS[index]` and checks the count
/// against the published one.
fn time_one(lib: Lib, index: usize, depth: u32) -> Result<Duration, String> {
    let p = &POSITIONS[index];
    let start = Instant::now();
    let nodes = black_box(lib.perft(black_box(p.fen), black_box(depth)));
    let elapsed = start.elapsed();

    let got = nodes.map_err(|e| {
        format!(
            "{} failed to set up id {} ({}): {e}",
            lib.name(),
            p.id,
            p.fen
        )
    })?;
    let want = p.counts[depth as usize - 1];
    if got != want {
        return Err(format!(
            "node count mismatch: {} gives {got} for id {} ({}) at depth {depth}, published {want}",
            lib.name(),
            p.id,
            p.fen,
        ));
    }
    Ok(elapsed)
}

/// Runs the benchmark: `rounds` rounds over the whole set, each library's
/// round time being the sum of its per-position times.
///
/// The libraries take turns position by position, and the order in which
/// they do rotates by one with every position and every round. So no library
/// always runs first (cold caches, CPU frequency ramp-up) or last, and slow
/// drifts in background load hit all libraries alike rather than whichever
/// one happened to run during them.
fn run(opts: &Options) -> Result<Vec<LibResult>, String> {
    let mut results: Vec<LibResult> = opts
        .libs
        .iter()
        .map(|&lib| LibResult {
            lib,
            rounds: Vec::with_capacity(opts.rounds as usize),
        })
        .collect();
    let n = results.len();
    for round in 0..opts.rounds as usize {
        let mut totals = vec![Duration::ZERO; n];
        for (j, &index) in opts.positions.iter().enumerate() {
            for k in 0..n {
                let slot = (round + j + k) % n;
                totals[slot] += time_one(results[slot].lib, index, opts.depth)?;
            }
        }
        for (r, total) in results.iter_mut().zip(totals) {
            eprintln!(
                "round {}/{}: {:<10} {:>9.3} s",
                round + 1,
                opts.rounds,
                r.lib.name(),
                total.as_secs_f64()
            );
            r.rounds.push(total);
        }
    }
    Ok(results)
}

/// Total published node count of the selected set at the selected depth.
fn total_nodes(opts: &Options) -> u64 {
    opts.positions
        .iter()
        .map(|&i| POSITIONS[i].counts[opts.depth as usize - 1])
        .sum()
}

/// Million nodes per second.
fn mnps(nodes: u64, time: Duration) -> f64 {
    nodes as f64 / time.as_secs_f64() / 1e6
}

/// `ours` nodes per second divided by each peer's, as `(peer, ratio)`.
/// Empty unless `ours` was run.
fn ratios(results: &[LibResult]) -> Vec<(Lib, f64)> {
    let Some(ours) = results.iter().find(|r| r.lib == Lib::Ours) else {
        return Vec::new();
    };
    results
        .iter()
        .filter(|r| r.lib != Lib::Ours)
        .map(|r| (r.lib, r.best().as_secs_f64() / ours.best().as_secs_f64()))
        .collect()
}

/// Formats `n` with `,` thousands separators.
fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// Build settings that matter for the comparison, for the report.
fn build_note() -> String {
    format!(
        "profile {}, target bmi2 {}, cozy-chess pext {}",
        if cfg!(debug_assertions) {
            "debug"
        } else {
            "release"
        },
        if cfg!(target_feature = "bmi2") {
            "on"
        } else {
            "off"
        },
        if cfg!(feature = "cozy-pext") {
            "on"
        } else {
            "off"
        },
    )
}

/// The ids of the selected positions, comma-separated.
fn id_list(opts: &Options) -> String {
    let ids: Vec<String> = opts
        .positions
        .iter()
        .map(|&i| POSITIONS[i].id.to_string())
        .collect();
    ids.join(",")
}

/// The human-readable report.
fn table(opts: &Options, results: &[LibResult]) -> String {
    let nodes = total_nodes(opts);
    let mut out = String::new();
    let _ = writeln!(
        out,
        "perft depth {}, {} Chess960 start positions (ids {}), single-threaded, best of {} round(s)",
        opts.depth,
        opts.positions.len(),
        id_list(opts),
        opts.rounds
    );
    let _ = writeln!(out, "{}", build_note());
    let _ = writeln!(out);
    let _ = writeln!(
        out,
        "{:<12} {:>15} {:>10} {:>9}",
        "library", "nodes", "seconds", "Mnps"
    );
    for r in results {
        let best = r.best();
        let _ = writeln!(
            out,
            "{:<12} {:>15} {:>10.4} {:>9.1}",
            r.lib.name(),
            thousands(nodes),
            best.as_secs_f64(),
            mnps(nodes, best)
        );
    }
    let ratios = ratios(results);
    if !ratios.is_empty() {
        let _ = writeln!(out);
        for (peer, ratio) in ratios {
            let _ = writeln!(out, "ours / {} = {ratio:.2}x", peer.name());
        }
    }
    out
}

/// The report as JSON (hand-written: every string here is plain ASCII
/// without quotes or backslashes).
fn json(opts: &Options, results: &[LibResult]) -> String {
    let nodes = total_nodes(opts);
    let libs: Vec<String> = results
        .iter()
        .map(|r| {
            let rounds: Vec<String> = r
                .rounds
                .iter()
                .map(|d| format!("{:.6}", d.as_secs_f64()))
                .collect();
            format!(
                "{{\"library\":\"{}\",\"nodes\":{nodes},\"seconds\":{:.6},\"mnps\":{:.3},\"round_seconds\":[{}]}}",
                r.lib.name(),
                r.best().as_secs_f64(),
                mnps(nodes, r.best()),
                rounds.join(",")
            )
        })
        .collect();
    let ratios: Vec<String> = ratios(results)
        .into_iter()
        .map(|(peer, ratio)| format!("{{\"peer\":\"{}\",\"ratio\":{ratio:.4}}}", peer.name()))
        .collect();
    format!(
        "{{\"depth\":{},\"ids\":[{}],\"rounds\":{},\"release\":{},\"target_bmi2\":{},\"cozy_pext\":{},\"results\":[{}],\"ours_over\":[{}]}}",
        opts.depth,
        id_list(opts),
        opts.rounds,
        !cfg!(debug_assertions),
        cfg!(target_feature = "bmi2"),
        cfg!(feature = "cozy-pext"),
        libs.join(","),
        ratios.join(",")
    )
}

fn main() -> ExitCode {
    let opts = match parse_args(std::env::args().skip(1)) {
        Ok(Command::Run(opts)) => opts,
        Ok(Command::Help) => {
            println!("{}", usage());
            return ExitCode::SUCCESS;
        }
        Err(e) => {
            eprintln!("perft-bench: {e}");
            return ExitCode::from(2);
        }
    };
    if cfg!(debug_assertions) {
        eprintln!("perft-bench: warning: not a release build; numbers are meaningless");
    }
    match run(&opts) {
        Ok(results) => {
            if opts.json {
                println!("{}", json(&opts, &results));
            } else {
                print!("{}", table(&opts, &results));
            }
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("perft-bench: error: {e}");
            ExitCode::FAILURE
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(s: &str) -> Vec<String> {
        s.split_whitespace().map(String::from).collect()
    }

    fn opts(s: &str) -> Options {
        match parse_args(args(s)) {
            Ok(Command::Run(o)) => o,
            Ok(Command::Help) => panic!("help"),
            Err(e) => panic!("{e}"),
        }
    }

    #[test]
    fn defaults() {
        let o = opts("");
        assert_eq!(o.depth, DEFAULT_DEPTH);
        assert_eq!(o.positions.len(), POSITIONS.len());
        assert_eq!(o.libs, Lib::ALL);
        assert_eq!(o.rounds, 1);
        assert!(!o.json);
    }

    #[test]
    fn options() {
        let o = opts("--depth 4 --ids 518,0 --lib cozy --lib=ours --rounds=3 --json");
        assert_eq!(o.depth, 4);
        assert_eq!(
            o.positions
                .iter()
                .map(|&i| POSITIONS[i].id)
                .collect::<Vec<_>>(),
            [518, 0]
        );
        assert_eq!(o.libs, [Lib::Ours, Lib::Cozy]);
        assert_eq!(o.rounds, 3);
        assert!(o.json);
    }

    #[test]
    fn bad_options() {
        for bad in [
            "--depth 7",
            "--depth 0",
            "--ids 1",
            "--ids 0,0",
            "--lib stockfish",
            "--rounds 0",
            "--depth",
            "--frobnicate",
        ] {
            assert!(parse_args(args(bad)).is_err(), "{bad}");
        }
    }

    #[test]
    fn embedded_set_is_sane() {
        assert!(POSITIONS.iter().any(|p| p.id == 518));
        for p in &POSITIONS {
            assert!(p.id < 960);
            // Every Chess960 start position has 19..=21 legal first moves.
            assert!((19..=21).contains(&p.counts[0]), "id {}", p.id);
            assert!(p.counts.windows(2).all(|w| w[0] < w[1]), "id {}", p.id);
        }
    }

    #[test]
    fn all_libraries_match_published_counts_to_depth_3() {
        for p in &POSITIONS {
            for depth in 1..=3 {
                let want = p.counts[depth as usize - 1];
                for lib in Lib::ALL {
                    assert_eq!(lib.perft(p.fen, depth), Ok(want), "{lib:?} id {}", p.id);
                }
            }
        }
    }

    #[test]
    fn thousands_separators() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1000), "1,000");
        assert_eq!(thousands(1_427_563_591), "1,427,563,591");
    }
}
