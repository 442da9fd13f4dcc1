//! `chess960 moves`: the legal moves of a position.

use crate::cmd::{json_line, Source};
use crate::error::CliResult;
use crate::input::LENIENT_HELP;
use chess960_core::CastlingMode;
use clap::Args;
use serde::Serialize;

/// Arguments of `chess960 moves`.
#[derive(Debug, Args)]
#[command(
    about = "List the legal moves of a position in UCI and SAN",
    long_about = "List the legal moves of a position, one per line: the move in UCI notation, \
then in SAN (with + for check and # for mate), sorted by the UCI text.\n\n\
UCI is written in its Chess960 form: castling is the king moving onto its own rook, e.g. \
e1h1 for classical O-O and e1a1 for O-O-O, which is unambiguous in every start position. \
SAN writes castling as O-O (with the rook on the h-side of the king) and O-O-O (a-side).",
    after_help = "Examples:\n  chess960 moves --id 518\n  \
chess960 moves --fen '1r4kr/8/8/8/8/8/8/1R4KR w KQkq - 0 1' --json"
)]
pub struct MovesArgs {
    #[command(flatten)]
    pub source: Source,
    #[arg(long, help = "Accept impossible positions (see --help)", long_help = LENIENT_HELP)]
    pub lenient: bool,
    /// Print one line of JSON: {"moves":[{"uci":"e1h1","san":"O-O"},...]}.
    #[arg(long)]
    pub json: bool,
}

#[derive(Serialize)]
struct MoveJson {
    uci: String,
    san: String,
}

#[derive(Serialize)]
struct MovesJson {
    moves: Vec<MoveJson>,
}

/// Runs `chess960 moves`.
pub fn run(args: &MovesArgs) -> CliResult<String> {
    let pos = args.source.position(args.lenient)?;
    let mut moves: Vec<MoveJson> = pos
        .legal_moves()
        .iter()
        .map(|&m| MoveJson {
            uci: m.to_uci(CastlingMode::Chess960),
            san: pos.san(m),
        })
        .collect();
    moves.sort_by(|a, b| a.uci.cmp(&b.uci));
    if args.json {
        return json_line(&MovesJson { moves });
    }
    Ok(moves
        .iter()
        .map(|m| format!("{:<5} {}\n", m.uci, m.san))
        .collect())
}
