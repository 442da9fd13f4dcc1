//! `chess960 id`: the ID of a start arrangement, from its back rank or a FEN.

use crate::cmd::json_line;
use crate::error::{quote, CliError, CliResult};
use crate::input::{parse_back_rank, parse_fen};
use chess960_core::{BackRank, Board, File, Position, Rank, Square, StartId, Validation};
use clap::Args;
use serde::Serialize;

/// Arguments of `chess960 id`.
#[derive(Debug, Args)]
#[command(
    about = "Give the ID of a start arrangement, from its back rank or a FEN",
    long_about = "Print the Scharnagl ID (0..959; 518 = classical) of a Chess960 start \
arrangement.\n\n\
The argument is either White's back rank, eight letters from K, Q, R, B, N such as RNBQKBNR \
(either case), or a FEN (recognised by its '/'). For a FEN only the placement of the pieces \
counts: side to move, castling rights and counters are ignored, so a start position with \
castling rights dropped still has its ID. A bare piece-placement field is accepted too.",
    after_help = "Examples:\n  chess960 id RNBQKBNR\n  chess960 id bbqnnrkr\n  \
chess960 id 'rkrnnqbb/pppppppp/8/8/8/8/PPPPPPPP/RKRNNQBB w KQkq - 0 1' --json"
)]
pub struct IdArgs {
    /// A back rank such as RNBQKBNR, or a FEN (quoted; a FEN given as several words is joined).
    #[arg(value_name = "BACK_RANK|FEN", required = true, num_args = 1..)]
    pub arrangement: Vec<String>,
    /// Print one line of JSON: {"id":518,"back_rank":"RNBQKBNR"}.
    #[arg(long)]
    pub json: bool,
}

#[derive(Serialize)]
struct IdJson {
    id: u16,
    back_rank: String,
}

/// Runs `chess960 id`.
pub fn run(args: &IdArgs) -> CliResult<String> {
    let text = args.arrangement.join(" ");
    let back_rank = if text.contains('/') {
        back_rank_of_fen(&text)?
    } else {
        parse_back_rank(&text)?
    };
    let id = back_rank.id();
    if args.json {
        return json_line(&IdJson {
            id: id.get(),
            back_rank: back_rank.to_string(),
        });
    }
    Ok(format!("{id}\n"))
}

/// The back rank of the start arrangement on the board of `fen`.
fn back_rank_of_fen(fen: &str) -> CliResult<BackRank> {
    let trimmed = fen.trim();
    // A bare placement field: complete it with neutral fields.
    let full = if trimmed.split_ascii_whitespace().count() == 1 {
        format!("{trimmed} w - - 0 1")
    } else {
        trimmed.to_string()
    };
    // Only the placement matters, so a FEN that is strictly wrong elsewhere (say impossible
    // castling rights) is still accepted when the lenient reading succeeds.
    let position = match parse_fen(&full, false) {
        Ok(p) => p,
        Err(strict) => Position::from_fen_with(&full, Validation::Lenient).map_err(|_| {
            // Report the strict error, but against the text as given.
            if full == trimmed {
                strict
            } else {
                CliError::new(
                    strict
                        .to_string()
                        .replacen(&quote(&full), &quote(trimmed), 1),
                )
            }
        })?,
    };
    let board = position.board();
    match StartId::of_board(board) {
        Some(id) => Ok(id.back_rank()),
        None => {
            let why = match BackRank::of_board(board) {
                Err(e) => format!(
                    "White's first rank '{}' is not a back rank: {e}",
                    first_rank(board)
                ),
                Ok(_) => "the pawns or Black's pieces are not on their start squares \
                          (Black must mirror White, with all sixteen pawns on ranks 2 and 7)"
                    .to_string(),
            };
            Err(CliError::new(format!(
                "'{}' is not a Chess960 start arrangement: {why}",
                quote(trimmed)
            )))
        }
    }
}

/// White's first rank as letters, `-` for an empty square (Black's pieces in lower case).
fn first_rank(board: &Board) -> String {
    File::ALL
        .iter()
        .map(|&f| {
            board
                .piece_at(Square::from_coords(f, Rank::First))
                .map_or('-', |p| p.fen_char())
        })
        .collect()
}
