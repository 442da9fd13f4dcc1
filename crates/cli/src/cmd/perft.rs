//! `chess960 perft`: counting the leaves of the legal move tree.

use crate::cmd::{json_line, Source};
use crate::error::CliResult;
use crate::input::{parse_count, LENIENT_HELP};
use crate::progress::with_progress;
use chess960_core::perft::{divide_parallel, MAX_DEPTH};
use chess960_core::{CastlingMode, Position};
use clap::Args;
use serde::ser::{Serialize, Serializer};
use std::fmt::Write as _;
use std::time::Instant;

/// The most threads `--threads` accepts (more than there are root moves are never started).
const MAX_THREADS: usize = 1024;

/// Arguments of `chess960 perft`.
#[derive(Debug, Args)]
#[command(
    about = "Count the leaf nodes of the legal move tree to a given depth",
    long_about = "Perft: count the legal move sequences of DEPTH plies from a position, the \
standard test of a move generator (depth 0 counts 1 node). The classical start gives 20, 400, \
8902, 197281, 4865609, ... nodes at depths 1, 2, 3, 4, 5.\n\n\
Prints the node count, the time taken and the speed in nodes per second; with --divide, first \
the count below each root move (in Chess960 UCI form, castling as king onto rook, sorted), \
which is how two move generators are compared to find a bug. The root moves can be shared out \
among --threads threads. On a terminal, a progress bar over the root moves appears on standard \
error once a run has taken longer than a second.",
    after_help = "Examples:\n  chess960 perft --id 518 5\n  \
chess960 perft --id 0 3 --divide --json\n  \
chess960 perft --id 0 6 --threads 2\n  \
chess960 perft --fen 'bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9' 5"
)]
pub struct PerftArgs {
    #[command(flatten)]
    pub source: Source,
    /// The number of plies to search, 0 to 20; 0 counts the position itself (1 node).
    #[arg(value_name = "DEPTH", allow_negative_numbers = true)]
    pub depth: String,
    /// Also print the node count below each root move.
    #[arg(long)]
    pub divide: bool,
    /// The number of threads to share the root moves among (at least 1).
    #[arg(
        long,
        value_name = "N",
        default_value = "1",
        allow_negative_numbers = true
    )]
    pub threads: String,
    #[arg(long, help = "Accept impossible positions (see --help)", long_help = LENIENT_HELP)]
    pub lenient: bool,
    /// Print one line of JSON: {"depth":5,"nodes":4865609,"seconds":0.02,"divide":{"a2a3":...}}
    /// ("divide" only with --divide; "seconds" is the wall-clock time).
    #[arg(long)]
    pub json: bool,
}

/// The per-root-move counts, serialized as a JSON object in their order.
struct Divide<'a>(&'a [(String, u64)]);

impl Serialize for Divide<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_map(self.0.iter().map(|(uci, n)| (uci, n)))
    }
}

#[derive(serde::Serialize)]
struct PerftJson<'a> {
    depth: u32,
    nodes: u64,
    seconds: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    divide: Option<Divide<'a>>,
}

/// Runs `chess960 perft`.
pub fn run(args: &PerftArgs) -> CliResult<String> {
    let pos = args.source.position(args.lenient)?;
    // Deeper would never finish, and would overflow the stack on the way down.
    let depth = parse_count(&args.depth, "depth", 0, u64::from(MAX_DEPTH))? as u32;
    let threads = parse_count(&args.threads, "--threads", 1, MAX_THREADS as u64)? as usize;

    let start = Instant::now();
    let (nodes, mut divide) = if depth == 0 {
        (1, Vec::new())
    } else {
        let divide = divide_with_progress(&pos, depth, threads);
        let nodes = divide.iter().map(|(_, n)| n).sum();
        (nodes, divide)
    };
    let elapsed = start.elapsed();
    divide.sort();

    if args.json {
        return json_line(&PerftJson {
            depth,
            nodes,
            seconds: (elapsed.as_secs_f64() * 1e6).round() / 1e6,
            divide: args.divide.then_some(Divide(&divide)),
        });
    }
    let mut out = String::new();
    if args.divide {
        for (uci, n) in &divide {
            let _ = writeln!(out, "{uci}: {n}");
        }
    }
    let nps = u128::from(nodes) * 1_000_000_000 / elapsed.as_nanos().max(1);
    let _ = writeln!(out, "nodes {nodes}");
    let _ = writeln!(out, "time {:.3} s", elapsed.as_secs_f64());
    let _ = writeln!(out, "nps {nps}");
    Ok(out)
}

/// Divide at `depth` (at least 1) on `threads` threads, with UCI moves; shows a progress bar
/// on standard error if it is a terminal and the run takes longer than a second.
fn divide_with_progress(pos: &Position, depth: u32, threads: usize) -> Vec<(String, u64)> {
    let total = pos.legal_moves().len() as u64;
    let template =
        "{spinner} perft depth {msg} [{elapsed_precise}] {wide_bar} {pos}/{len} root moves";
    let result = with_progress(total, template, |bar| {
        bar.set_message(depth.to_string());
        let progress = |done: usize, _total: usize| bar.set_position(done as u64);
        divide_parallel(pos, depth, threads, &progress)
    });
    result
        .into_iter()
        .map(|(m, n)| (m.to_uci(CastlingMode::Chess960), n))
        .collect()
}
