//! `chess960 fen`: FEN conversion between castling dialects.

use crate::cmd::json_line;
use crate::error::{quote, CliError, CliResult};
use crate::input::{parse_fen, FEN_HELP, LENIENT_HELP};
use chess960_core::CastlingDialect;
use clap::Args;
use serde::Serialize;

/// Arguments of `chess960 fen`.
#[derive(Debug, Args)]
#[command(
    about = "Convert a FEN between the X-FEN and Shredder-FEN castling dialects",
    long_about = "Read a FEN (in any castling dialect) and write it again in the one asked for, \
normalised: an en-passant square is kept only when an en-passant capture is legal, and the \
move counters are always written.\n\n\
Classical FEN writes castling rights as KQkq. Chess960 needs more, and there are two \
conventions:\n\n\
X-FEN: KQkq for the outermost rook on each side of the king, so every Chess960 start position \
reads KQkq, as in classical FEN; the rook's file letter (e.g. D, d) only for an inner rook when \
another rook stands further out on the same side.\n\n\
Shredder-FEN: always the castling rooks' file letters, upper case for White: HAha for the \
classical start, HFhf for BBQNNRKR.",
    after_help = "Examples:\n  \
chess960 fen 'bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1' --to xfen\n  \
chess960 fen 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1' --to shredder"
)]
pub struct FenArgs {
    /// The FEN to convert (quoted; a FEN given as several words is joined).
    #[arg(value_name = "FEN", required = true, num_args = 1.., long_help = FEN_HELP)]
    pub fen: Vec<String>,
    /// The castling dialect to write: xfen (also x-fen) or shredder (also shredder-fen).
    #[arg(long, value_name = "DIALECT", default_value = "xfen")]
    pub to: String,
    #[arg(long, help = "Accept impossible positions (see --help)", long_help = LENIENT_HELP)]
    pub lenient: bool,
    /// Print one line of JSON: {"fen":"..."}.
    #[arg(long)]
    pub json: bool,
}

#[derive(Serialize)]
struct FenJson {
    fen: String,
}

/// Runs `chess960 fen`.
pub fn run(args: &FenArgs) -> CliResult<String> {
    let dialect = CastlingDialect::parse(args.to.trim()).ok_or_else(|| {
        CliError::new(format!(
            "invalid --to '{}': expected xfen (or x-fen) or shredder (or shredder-fen)",
            quote(&args.to)
        ))
    })?;
    let pos = parse_fen(&args.fen.join(" "), args.lenient)?;
    let fen = pos.to_fen(dialect);
    if args.json {
        return json_line(&FenJson { fen });
    }
    Ok(format!("{fen}\n"))
}
