//! Reading the values given on the command line: start IDs, back ranks, FENs and numbers.
//! Every failure is a [`CliError`] whose message names the value and what is wrong with it.

use crate::error::{quote, CliError, CliResult};
use chess960_core::{BackRank, Position, StartId, Validation};

/// Help text shared by every `--id` / `<ID>` argument.
pub const ID_HELP: &str = "Chess960 start position ID in Scharnagl's numbering, 0..959 (518 is \
the classical RNBQKBNR; 960 is accepted as a synonym of 0, as in the 1..960 numbering)";

/// Help text shared by every FEN argument.
pub const FEN_HELP: &str = "Position in FEN: piece placement, side to move, castling rights, \
en-passant square, half-move clock, full-move number (the last two may be omitted). Castling \
may be written in X-FEN (KQkq, with a rook's file letter only when it is not the outermost \
rook) or Shredder-FEN (the rook files, HAha); quote the FEN, it contains spaces";

/// Help text of `--lenient`.
pub const LENIENT_HELP: &str = "Accept positions that cannot arise in a game (too many pieces, \
impossible castling rights or en-passant squares are dropped), as some published perft test \
positions need; kings and checks are still checked";

/// Parses a start position ID: a decimal number 0..959, or 960 for 0.
pub fn parse_id(text: &str) -> CliResult<StartId> {
    let t = text.trim();
    if t.is_empty() || !t.bytes().all(|b| b.is_ascii_digit()) {
        return Err(CliError::new(format!(
            "invalid start position ID '{}': expected a number in 0..959 (960 is accepted as 0)",
            quote(text)
        )));
    }
    t.parse::<StartId>()
        .map_err(|e| CliError::new(quote(&e.to_string())))
}

/// Parses a back rank such as `RNBQKBNR`.
pub fn parse_back_rank(text: &str) -> CliResult<BackRank> {
    BackRank::parse(text)
        .map_err(|e| CliError::new(format!("invalid back rank '{}': {e}", quote(text))))
}

/// Parses a FEN, strictly unless `lenient`.
pub fn parse_fen(text: &str, lenient: bool) -> CliResult<Position> {
    let validation = if lenient {
        Validation::Lenient
    } else {
        Validation::Strict
    };
    Position::from_fen_with(text, validation)
        .map_err(|e| CliError::new(format!("invalid FEN '{}': {e}", quote(text))))
}

/// The position named by `--fen` or `--id` (exactly one of them is given; clap checks that).
pub fn source_position(fen: Option<&str>, id: Option<&str>, lenient: bool) -> CliResult<Position> {
    match (fen, id) {
        (Some(fen), _) => parse_fen(fen, lenient),
        (None, Some(id)) => Ok(parse_id(id)?.position()),
        (None, None) => Err(CliError::new("give a position with --fen FEN or --id ID")),
    }
}

/// Parses a whole number from `min` to `max` (inclusive); `what` names the argument in the
/// message, e.g. `depth`.
pub fn parse_count(text: &str, what: &str, min: u64, max: u64) -> CliResult<u64> {
    let t = text.trim();
    let bad = || {
        CliError::new(format!(
            "invalid {what} '{}': expected a whole number from {min} to {max}",
            quote(text)
        ))
    };
    if t.is_empty() || !t.bytes().all(|b| b.is_ascii_digit()) {
        return Err(bad());
    }
    match t.parse::<u64>() {
        Ok(n) if (min..=max).contains(&n) => Ok(n),
        _ => Err(bad()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids() {
        assert_eq!(parse_id("518").unwrap().get(), 518);
        assert_eq!(parse_id(" 960 ").unwrap().get(), 0);
        assert!(parse_id("961").unwrap_err().to_string().contains("0..959"));
        assert!(parse_id("-1").unwrap_err().to_string().contains("0..959"));
        assert!(parse_id("99999999999999999999")
            .unwrap_err()
            .to_string()
            .contains("0..959"));
        assert!(parse_id("").is_err());
    }

    #[test]
    fn counts() {
        assert_eq!(parse_count("5", "depth", 0, 10).unwrap(), 5);
        assert!(parse_count("-5", "depth", 0, 10).is_err());
        assert!(parse_count("5.0", "depth", 0, 10).is_err());
        assert!(parse_count("11", "depth", 0, 10).is_err());
        assert!(parse_count("0", "--threads", 1, 10).is_err());
        assert!(parse_count("184467440737095516150", "seed", 0, u64::MAX).is_err());
    }
}
