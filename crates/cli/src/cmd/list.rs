//! `chess960 list`: all 960 start positions with ID and back rank.

use crate::cmd::json_line;
use crate::error::CliResult;
use chess960_core::StartId;
use clap::Args;
use serde::Serialize;
use std::fmt::Write as _;

/// Arguments of `chess960 list`.
#[derive(Debug, Args)]
#[command(
    about = "List all 960 start positions with ID and back rank",
    long_about = "List all 960 Chess960 start positions in ID order (Scharnagl's numbering, \
0..959; 518 is the classical start): one line each with the ID and White's back rank, or as \
CSV (id,back_rank,fen) or JSON.",
    after_help = "Examples:\n  chess960 list\n  chess960 list --csv > positions.csv\n  \
chess960 list --json"
)]
pub struct ListArgs {
    /// Print one line of JSON: {"positions":[{"id":0,"back_rank":"BBQNNRKR","fen":"..."},...]}.
    #[arg(long, conflicts_with = "csv")]
    pub json: bool,
    /// Print CSV with the header id,back_rank,fen.
    #[arg(long)]
    pub csv: bool,
}

#[derive(Serialize)]
struct Entry {
    id: u16,
    back_rank: String,
    fen: String,
}

#[derive(Serialize)]
struct ListJson {
    positions: Vec<Entry>,
}

/// Runs `chess960 list`.
pub fn run(args: &ListArgs) -> CliResult<String> {
    let entries = StartId::all().map(|id| {
        let rank = id.back_rank();
        Entry {
            id: id.get(),
            back_rank: rank.to_string(),
            fen: rank.position().fen(),
        }
    });
    if args.json {
        return json_line(&ListJson {
            positions: entries.collect(),
        });
    }
    let mut out = String::new();
    if args.csv {
        out.push_str("id,back_rank,fen\n");
        for e in entries {
            // A FEN holds no comma or quote, so no field needs quoting.
            let _ = writeln!(out, "{},{},{}", e.id, e.back_rank, e.fen);
        }
    } else {
        for id in StartId::all() {
            let _ = writeln!(out, "{} {}", id.get(), id.back_rank());
        }
    }
    Ok(out)
}
