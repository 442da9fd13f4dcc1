//! `chess960 uci`: the engine of `chess960-engine`, speaking UCI on standard input/output.

use clap::Args;
use std::process::ExitCode;

/// `chess960 uci`.
#[derive(Debug, Args)]
#[command(
    about = "Run the engine: speak UCI on standard input/output (for chess GUIs)",
    long_about = "Run the chess960 engine, speaking the UCI protocol on standard input and \
output until 'quit' or the end of input: the same engine as the 'chess960-engine' binary. \
Set the UCI option UCI_Chess960 to true for Chess960 (castling written king onto rook, \
e.g. e1h1). See docs/engine.md for the options and search."
)]
pub struct UciArgs {}

/// Runs the protocol loop.
pub fn main(_args: &UciArgs) -> ExitCode {
    let stdin = std::io::stdin();
    let mut uci = chess960_engine::uci::Uci::new(std::io::stdout());
    uci.run(stdin.lock());
    ExitCode::SUCCESS
}
