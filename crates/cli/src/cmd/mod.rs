//! The subcommands, one module each. Every `run` function returns the text to print on
//! standard output, or the error to report.

pub mod db;
pub mod draw;
pub mod engine;
pub mod event;
pub mod fairness;
pub mod fen;
pub mod id;
pub mod join;
pub mod list;
pub mod login;
pub mod matchcmd;
pub mod moves;
pub mod perft;
pub mod pgn;
pub mod play;
pub mod position;
pub mod ratings;
pub mod serve;
pub mod tables;
pub mod uci;
pub mod user;

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

/// Prints the output of a subcommand with three outcomes (`pgn`, `db`): exit 0, exit 1 when
/// the work was done but some input was bad and skipped (`failed`), exit 2 with one line on
/// standard error when it could not be done. A closed pipe (`… | head`) is not an error.
pub fn print_with_failures(
    result: Result<(String, bool), impl std::fmt::Display>,
) -> std::process::ExitCode {
    use std::io::Write;
    use std::process::ExitCode;
    match result {
        Ok((text, failed)) => {
            let mut out = std::io::stdout().lock();
            match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
                Ok(()) => {}
                Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => {}
                Err(e) => {
                    eprintln!("chess960: cannot write the output: {e}");
                    return ExitCode::from(2);
                }
            }
            if failed {
                ExitCode::from(1)
            } else {
                ExitCode::SUCCESS
            }
        }
        Err(e) => {
            eprintln!("chess960: {e}");
            ExitCode::from(2)
        }
    }
}

/// A file name for messages, control characters escaped.
pub fn file_name(path: &std::path::Path) -> String {
    crate::error::quote(&path.display().to_string())
}

/// The message for an input with no game at all (empty, or only white space and comments):
/// `no games found in FILE`. The PGN subcommands and `db import` print it on standard error
/// and exit with 1, as for a game with an error: the file was read, but it is not what was
/// asked for.
pub fn no_games(path: &std::path::Path) -> String {
    let name = if path.as_os_str() == "-" {
        "standard input".to_string()
    } else {
        file_name(path)
    };
    format!("no games found in {name}")
}

/// The value of `--fen-dialect`: `xfen` or `shredder`.
pub fn fen_dialect(text: &str) -> crate::error::CliResult<chess960_core::CastlingDialect> {
    chess960_core::CastlingDialect::parse(text).ok_or_else(|| {
        crate::error::CliError::new(format!(
            "invalid --fen-dialect '{}': expected xfen or shredder",
            crate::error::quote(text)
        ))
    })
}

/// The error for a failed write to `output`.
pub fn write_error(output: &std::path::Path, e: std::io::Error) -> crate::error::CliError {
    crate::error::CliError::new(format!("cannot write {}: {e}", file_name(output)))
}

/// Flushes what [`pgn_writer`] buffered. A reader of standard output that went away (`| head`)
/// is not an error: it has all it wanted.
pub fn finish_pgn(
    writer: chess960_pgn::Writer<std::io::BufWriter<Box<dyn std::io::Write>>>,
    output: &std::path::Path,
) -> crate::error::CliResult<()> {
    match writer.into_inner() {
        Ok(_) => Ok(()),
        Err(e) if output.as_os_str() == "-" && e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        Err(e) => Err(write_error(output, e)),
    }
}

/// A buffered PGN writer on `output` (`-` is standard output), castling written in `dialect`.
pub fn pgn_writer(
    output: &std::path::Path,
    dialect: chess960_core::CastlingDialect,
) -> crate::error::CliResult<chess960_pgn::Writer<std::io::BufWriter<Box<dyn std::io::Write>>>> {
    let sink: Box<dyn std::io::Write> = if output.as_os_str() == "-" {
        Box::new(std::io::stdout().lock())
    } else {
        Box::new(std::fs::File::create(output).map_err(|e| write_error(output, e))?)
    };
    Ok(chess960_pgn::Writer::new(
        std::io::BufWriter::with_capacity(1 << 16, sink),
        chess960_pgn::WriteOptions {
            dialect,
            ..chess960_pgn::WriteOptions::default()
        },
    ))
}
