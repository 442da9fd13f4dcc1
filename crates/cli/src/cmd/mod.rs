//! The subcommands, one module each. Every `run` function returns the text to print on
//! standard output, or the error to report.

pub mod db;
pub mod draw;
pub mod fairness;
pub mod fen;
pub mod id;
pub mod list;
pub mod matchcmd;
pub mod moves;
pub mod perft;
pub mod pgn;
pub mod play;
pub mod position;
pub mod serve;
pub mod tables;
pub mod uci;

use clap::Args;

/// Where a position comes from: `--fen FEN` or `--id ID`, exactly one.
#[derive(Debug, Args)]
#[group(required = true, multiple = false)]
pub struct Source {
    #[arg(long, value_name = "FEN", help = "The position, in FEN (quoted)", long_help = crate::input::FEN_HELP)]
    pub fen: Option<String>,
    #[arg(long, value_name = "ID", allow_negative_numbers = true,
          help = "A start position instead: its ID, 0..959 (518 = classical)",
          long_help = crate::input::ID_HELP)]
    pub id: Option<String>,
}

impl Source {
    /// The position, read strictly unless `lenient`.
    pub fn position(&self, lenient: bool) -> crate::error::CliResult<chess960_core::Position> {
        crate::input::source_position(self.fen.as_deref(), self.id.as_deref(), lenient)
    }
}

/// Serializes `value` as compact one-line JSON followed by a line break.
pub fn json_line<T: serde::Serialize>(value: &T) -> crate::error::CliResult<String> {
    let mut s = serde_json::to_string(value)
        .map_err(|e| crate::error::CliError::new(format!("cannot write JSON: {e}")))?;
    s.push('\n');
    Ok(s)
}
