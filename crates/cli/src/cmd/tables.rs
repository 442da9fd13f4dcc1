//! `chess960 tables`: the king table and the bishop table of spec §1.2, with a worked example.

use crate::cmd::json_line;
use crate::error::CliResult;
use crate::input::{parse_id, ID_HELP};
use chess960_core::{File, StartId};
use chess960_draw::row::square_list;
use chess960_draw::tables::{bishop_table, compose, king_table, split};
use clap::Args;
use std::fmt::Write as _;

/// Arguments of `chess960 tables`.
#[derive(Debug, Args)]
#[command(
    about = "Print the king table and the bishop table (two-table form of the numbering)",
    long_about = "Print the two tables with which a person turns a start position ID into a \
back rank by hand (spec §1.2): ID = K + B, where B = ID mod 16 picks a row of the bishop \
table (the two bishop squares) and K = ID − B, a multiple of 16, a row of the king table (the \
order of queen, knights, rooks and king on the six squares the bishops leave free). Put the \
bishops on their squares, then the six pieces of the king row on the free squares from left \
to right. Both tables are derived from the numbering, not typed in. A worked example follows \
(518 unless --id names another position).",
    after_help = "Examples:\n  chess960 tables\n  chess960 tables --id 740\n  \
chess960 tables --json"
)]
pub struct TablesArgs {
    /// The position of the worked example, 0..959 (default 518, the classical start).
    #[arg(long, value_name = "ID", allow_negative_numbers = true, long_help = ID_HELP)]
    pub id: Option<String>,
    /// Print one line of JSON: {"king_table":[{"row":0,"pieces":"QNNRKR"},...],
    /// "bishop_table":[{"row":0,"squares":["a1","b1"]},...],"example":{...}}.
    #[arg(long)]
    pub json: bool,
}

/// `R N Q K N R`.
fn spaced(letters: &str) -> String {
    letters
        .chars()
        .map(String::from)
        .collect::<Vec<_>>()
        .join(" ")
}

/// Runs `chess960 tables`.
pub fn run(args: &TablesArgs) -> CliResult<String> {
    let id = match &args.id {
        Some(text) => parse_id(text)?,
        None => StartId::CLASSICAL,
    };
    let kings = king_table();
    let bishops = bishop_table();
    let (k, b) = split(id);
    let king = &kings[k as usize / 16];
    let bishop = &bishops[b as usize];
    let rank = compose(king, bishop);
    debug_assert_eq!(rank, id.back_rank());

    if args.json {
        // The same JSON as the web server's /api/tables.
        return json_line(&chess960_server::catalog::tables(id));
    }

    let mut out = String::new();
    let _ = writeln!(
        out,
        "King table: row K = ID − (ID mod 16); the order of the six pieces on the squares the \
         bishops leave free, from the left"
    );
    for row in &kings {
        let _ = writeln!(out, "{:>4}  {}", row.k, spaced(&row.letters()));
    }
    let _ = writeln!(
        out,
        "(the 1..960 form of the table also lists 960, the same as 0)\n"
    );
    let _ = writeln!(
        out,
        "Bishop table: row B = ID mod 16; the two bishop squares"
    );
    for row in &bishops {
        let _ = writeln!(
            out,
            "{:>4}  {}   {}1 {}1",
            row.b,
            row.diagram(),
            row.files[0],
            row.files[1]
        );
    }
    let free: Vec<usize> = File::ALL
        .iter()
        .filter(|f| !bishop.files.contains(f))
        .map(|f| f.index())
        .collect();
    let _ = writeln!(out, "\nWorked example: {} = {k} + {b}", id.get());
    let _ = writeln!(
        out,
        "  {:<22}{}",
        format!("king table, row {k}:"),
        spaced(&king.letters())
    );
    let _ = writeln!(
        out,
        "  {:<22}{}   (bishops on {}1 and {}1)",
        format!("bishop table, row {b}:"),
        bishop.diagram(),
        bishop.files[0],
        bishop.files[1]
    );
    let _ = writeln!(
        out,
        "  the six pieces of row {k}, left to right, on the free squares {}:",
        square_list(&free)
    );
    let _ = writeln!(
        out,
        "  {}   ({} = {rank})",
        spaced(&rank.to_string()),
        id.get()
    );
    Ok(out)
}
