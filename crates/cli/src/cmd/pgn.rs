//! `chess960 pgn`: checking, converting and counting PGN files of Chess960 (and classical)
//! games with `chess960-pgn`.
//!
//! Unlike the other subcommands these have three outcomes: success (exit 0), games with
//! errors (exit 1: the errors are the answer, not a failure of the command), and bad usage or
//! unreadable files (exit 2, one `chess960: …` line on standard error). So [`main`] prints
//! its own output and returns the exit code.

use crate::cmd::file_name as name;
use crate::cmd::json_line;
use crate::error::{CliError, CliResult};
use crate::progress::GameProgress;
use crate::source::{Compression, ReadCounter};
use chess960_core::StartId;
use chess960_pgn::{GameResult, PgnError, Reader};
use clap::{Args, Subcommand};
use serde::Serialize;
use std::fmt::Write as _;
use std::io;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Arguments of `chess960 pgn`.
#[derive(Debug, Args)]
#[command(
    about = "Check, convert and count PGN files of Chess960 games",
    long_about = "Read PGN files of Chess960 (and classical) games, checking every move \
against the rules: 'check' reports broken games with their place, 'convert' rewrites the good \
games in normalised PGN, 'stats' counts results per start position.\n\n\
The reader is tolerant of what real files contain: Variant tags such as Chess960, chess 960, \
fischerandom, FRC (or none, when the FEN's castling rights only make sense as Chess960); FEN \
tags in X-FEN or Shredder-FEN, with or without SetUp; comments, NAGs, variations, % escape \
lines, byte-order marks, CRLF; tag sections with no moves (header-only collections). A broken \
game is reported with file, line, column, game number, move and reason, and reading goes on \
with the next game. Files are read as streams, in constant memory; '-' is standard input. On a \
terminal, a progress bar appears on standard error when a file takes longer than a second."
)]
pub struct PgnArgs {
    #[command(subcommand)]
    pub command: PgnCommand,
}

/// The `pgn` subcommands.
#[derive(Debug, Subcommand)]
pub enum PgnCommand {
    Check(CheckArgs),
    Convert(ConvertArgs),
    Stats(StatsArgs),
}

/// Arguments of `chess960 pgn check`.
#[derive(Debug, Args)]
#[command(
    about = "Read PGN files and report every game with an error",
    long_about = "Read every game of the files, checking tags, start position and every move \
(variations too) against the rules, and report each game that has an error: file, line, \
column, game number (from 1 in each file), move and reason. Prints one line per error, \
'FILE:LINE:COLUMN: game N, at MOVE: REASON', then a summary line.\n\n\
Exit status: 0 if every game is good, 1 if any game has an error or a file has no games at \
all ('chess960: no games found in FILE' on standard error), 2 if a file cannot be read.",
    after_help = "Examples:\n  chess960 pgn check games.pgn\n  \
chess960 pgn check a.pgn b.pgn --json\n  \
zcat games.pgn.gz | chess960 pgn check -"
)]
pub struct CheckArgs {
    /// PGN files ('-' for standard input).
    #[arg(value_name = "FILE", required = true)]
    pub files: Vec<PathBuf>,
    /// Print one line of JSON: {"games":200,"errors":[{"file":"a.pgn","game":5,"line":77,
    /// "column":12,"move":"3. Qz9","reason":"…"}]}. "games" counts every game found, good or
    /// bad; "move" is null for errors in the tag section.
    #[arg(long)]
    pub json: bool,
}

/// Arguments of `chess960 pgn convert`.
#[derive(Debug, Args)]
#[command(
    about = "Rewrite the good games of a PGN file in normalised PGN",
    long_about = "Read every game of IN and write each good one to OUT in normalised PGN: the \
seven-tag roster in order, then Variant \"Chess960\", SetUp \"1\" and FEN for Chess960 games \
(SetUp and FEN alone for a classical game from a set-up position), then the other tags; moves \
in SAN with move numbers, comments, NAGs and variations kept, lines of at most 80 columns, \
the result last, a blank line after each game.\n\n\
Games with an error are skipped and reported on standard error, one line each: \
'chess960: FILE:LINE:COLUMN: game N, at MOVE: REASON'. A summary line goes to standard output \
(unless OUT is '-').\n\n\
Exit status: 0 if every game was written, 1 if any was skipped or IN has no games at all \
('chess960: no games found in IN' on standard error), 2 if a file cannot be read or written.",
    after_help = "Examples:\n  chess960 pgn convert tcec.pgn -o clean.pgn\n  \
chess960 pgn convert lichess.pgn -o - --fen-dialect shredder | less"
)]
pub struct ConvertArgs {
    /// The PGN file to read ('-' for standard input).
    #[arg(value_name = "IN")]
    pub input: PathBuf,
    /// The file to write ('-' for standard output); it is replaced.
    #[arg(short, long, value_name = "OUT")]
    pub output: PathBuf,
    /// Castling notation of the FEN tags: xfen (KQkq, a rook's file letter only for an inner
    /// rook; the default) or shredder (rook files, HAha).
    #[arg(long, value_name = "DIALECT", default_value = "xfen")]
    pub fen_dialect: String,
}

/// Arguments of `chess960 pgn stats`.
#[derive(Debug, Args)]
#[command(
    about = "Count games and results per Chess960 start position",
    long_about = "Read every game of the files and count, per start position (Scharnagl ID \
0..959 of the game's start arrangement; a classical game from the usual start is 518), the \
games, White wins, draws, Black wins and unfinished games (*), and White's score: (wins + \
draws/2) / finished games. Games that start from any other position (a set-up position in \
the middle of a game) are counted together as 'other starts'. Games with an error are not \
counted; they are reported on standard error like 'pgn convert' does.\n\n\
Exit status: 0, or 1 if any game had an error or a file has no games at all ('chess960: no \
games found in FILE' on standard error), 2 if a file cannot be read.",
    after_help = "JSON (--json), one line:\n  \
{\"games\":4444,\"errors\":0,\
\"positions\":[{\"id\":0,\"back_rank\":\"BBQNNRKR\",\"games\":3,\"white_wins\":1,\"draws\":2,\
\"black_wins\":0,\"unfinished\":0,\"white_score\":0.667},...],\
\"other_starts\":{\"games\":0,\"white_wins\":0,\"draws\":0,\"black_wins\":0,\"unfinished\":0,\
\"white_score\":null},\"total\":{...same keys...}}\n\
\"games\" counts every game found, good or bad; \"errors\" the bad ones, which are in no other \
count. \"positions\" lists the start positions that occur, by ID; \"white_score\" is null when \
no game there is finished, else rounded to 3 decimals.\n\n\
Examples:\n  chess960 pgn stats games.pgn\n  chess960 pgn stats a.pgn b.pgn --json"
)]
pub struct StatsArgs {
    /// PGN files ('-' for standard input).
    #[arg(value_name = "FILE", required = true)]
    pub files: Vec<PathBuf>,
    /// Print one line of JSON (see below).
    #[arg(long)]
    pub json: bool,
}

/// Runs `chess960 pgn …`, prints its output and returns the exit code.
pub fn main(args: &PgnArgs) -> ExitCode {
    let result = match &args.command {
        PgnCommand::Check(a) => check(a),
        PgnCommand::Convert(a) => convert(a),
        PgnCommand::Stats(a) => stats(a),
    };
    crate::cmd::print_with_failures(result)
}

/// `FILE:LINE:COLUMN: game N, at MOVE: REASON`.
fn describe(path: &Path, e: &PgnError) -> String {
    let mut s = format!("{}:{}:{}: game {}", name(path), e.line, e.column, e.game);
    if let Some(m) = &e.at_move {
        let _ = write!(s, ", at {m}");
    }
    let _ = write!(s, ": {}", e.reason());
    CliError::new(s).to_string()
}

/// A PGN file opened for reading (plain, gzip or Zstandard), with its progress bar, the
/// counter of its bytes read and its compression (for error messages).
struct Opened {
    reader: Reader<Box<dyn std::io::Read + Send>>,
    progress: GameProgress,
    read: ReadCounter,
    compression: Compression,
}

/// Opens `path` ('-' is standard input) for reading PGN.
fn open_pgn(path: &Path) -> CliResult<Opened> {
    let src = crate::source::open(path)?;
    Ok(Opened {
        progress: read_progress(path, src.size),
        read: src.read,
        compression: src.compression,
        reader: Reader::new(src.reader),
    })
}

/// The bar for reading a PGN file: bytes when its size is known.
fn read_progress(path: &Path, size: Option<u64>) -> GameProgress {
    let template = if size.is_some() {
        "{spinner} {prefix} [{elapsed_precise}] {wide_bar} {bytes}/{total_bytes} ({bytes_per_sec}) {msg}"
    } else {
        "{spinner} {prefix} [{elapsed_precise}] {bytes} ({bytes_per_sec}) {msg}"
    };
    GameProgress::new(name(path), size, template)
}

/// One error in `pgn check --json`.
#[derive(Serialize)]
struct ErrorJson {
    file: String,
    game: u64,
    line: u64,
    column: u64,
    #[serde(rename = "move")]
    at_move: Option<String>,
    reason: String,
}

#[derive(Serialize)]
struct CheckJson {
    games: u64,
    errors: Vec<ErrorJson>,
}

fn check(args: &CheckArgs) -> CliResult<(String, bool)> {
    let mut games = 0;
    let mut empty = false;
    let mut errors = Vec::new();
    let mut lines = String::new();
    for path in &args.files {
        let Opened {
            mut reader,
            mut progress,
            read,
            compression,
        } = open_pgn(path)?;
        let read_failed = |e| compression.read_error(path, e);
        while let Some(game) = reader.read_summary().map_err(read_failed)? {
            if let Err(e) = game {
                let _ = writeln!(lines, "{}", describe(path, &e));
                errors.push(ErrorJson {
                    file: path.display().to_string(),
                    game: e.game,
                    line: e.line,
                    column: e.column,
                    reason: e.reason(),
                    at_move: e.at_move,
                });
            }
            progress.tick(read.get(), reader.games());
        }
        progress.finish();
        games += reader.games();
        empty |= reader.games() == 0 && report_no_games(path);
    }
    let failed = !errors.is_empty() || empty;
    if args.json {
        return Ok((json_line(&CheckJson { games, errors })?, failed));
    }
    let _ = writeln!(
        lines,
        "{games} {}, {} with errors",
        if games == 1 { "game" } else { "games" },
        errors.len()
    );
    Ok((lines, failed))
}

fn convert(args: &ConvertArgs) -> CliResult<(String, bool)> {
    let dialect = crate::cmd::fen_dialect(&args.fen_dialect)?;
    let to_stdout = args.output.as_os_str() == "-";
    if !to_stdout && args.input.as_os_str() != "-" {
        // Writing over the file being read would destroy it before it is read.
        if let (Ok(a), Ok(b)) = (args.input.canonicalize(), args.output.canonicalize()) {
            if a == b {
                return Err(CliError::new(format!(
                    "the output {} is the input file; write to another file",
                    name(&args.output)
                )));
            }
        }
    }
    let Opened {
        mut reader,
        mut progress,
        read,
        compression,
    } = open_pgn(&args.input)?;
    let read_failed = |e| compression.read_error(&args.input, e);
    let write_failed = |e: io::Error| crate::cmd::write_error(&args.output, e);
    let mut writer = crate::cmd::pgn_writer(&args.output, dialect)?;
    let (mut written, mut skipped) = (0u64, 0u64);
    while let Some(game) = reader.read_game().map_err(read_failed)? {
        match game {
            Ok(g) => match writer.write_game(&g) {
                Ok(()) => written += 1,
                Err(e) if to_stdout && e.kind() == io::ErrorKind::BrokenPipe => {
                    progress.finish();
                    return Ok((String::new(), skipped > 0));
                }
                Err(e) => return Err(write_failed(e)),
            },
            Err(e) => {
                eprintln!("chess960: {}", describe(&args.input, &e));
                skipped += 1;
            }
        }
        progress.tick(read.get(), reader.games());
    }
    progress.finish();
    crate::cmd::finish_pgn(writer, &args.output)?;
    let empty = reader.games() == 0 && report_no_games(&args.input);
    let summary = if to_stdout {
        String::new()
    } else {
        format!(
            "wrote {written} {} to {}, skipped {skipped} with errors\n",
            if written == 1 { "game" } else { "games" },
            name(&args.output)
        )
    };
    Ok((summary, skipped > 0 || empty))
}

/// Says on standard error that `path` has no games; true.
fn report_no_games(path: &Path) -> bool {
    eprintln!("chess960: {}", crate::cmd::no_games(path));
    true
}

/// Results of a group of games.
#[derive(Debug, Clone, Copy, Default, Serialize)]
struct Tally {
    games: u64,
    white_wins: u64,
    draws: u64,
    black_wins: u64,
    unfinished: u64,
    white_score: Option<f64>,
}

impl Tally {
    fn add(&mut self, r: GameResult) {
        self.games += 1;
        match r {
            GameResult::WhiteWins => self.white_wins += 1,
            GameResult::Draw => self.draws += 1,
            GameResult::BlackWins => self.black_wins += 1,
            GameResult::Unknown => self.unfinished += 1,
        }
    }

    /// Fills in White's score, rounded to 3 decimals (none without finished games).
    fn scored(mut self) -> Tally {
        let finished = self.white_wins + self.draws + self.black_wins;
        self.white_score = (finished > 0).then(|| {
            let s = (self.white_wins as f64 + self.draws as f64 / 2.0) / finished as f64;
            (s * 1000.0).round() / 1000.0
        });
        self
    }
}

#[derive(Serialize)]
struct PositionJson {
    id: u16,
    back_rank: String,
    #[serde(flatten)]
    tally: Tally,
}

#[derive(Serialize)]
struct StatsJson {
    games: u64,
    errors: u64,
    positions: Vec<PositionJson>,
    other_starts: Tally,
    total: Tally,
}

fn back_rank(id: StartId) -> String {
    id.back_rank()
        .roles()
        .iter()
        .map(|r| r.upper_char())
        .collect()
}

fn stats(args: &StatsArgs) -> CliResult<(String, bool)> {
    let mut per_id = vec![Tally::default(); 960];
    let mut other = Tally::default();
    let mut total = Tally::default();
    let (mut games, mut errors) = (0u64, 0u64);
    let mut empty = false;
    for path in &args.files {
        let Opened {
            mut reader,
            mut progress,
            read,
            compression,
        } = open_pgn(path)?;
        let read_failed = |e| compression.read_error(path, e);
        while let Some(game) = reader.read_summary().map_err(read_failed)? {
            match game {
                Ok(s) => {
                    match s.start_id() {
                        Some(id) => per_id[usize::from(id.get())].add(s.result),
                        None => other.add(s.result),
                    }
                    total.add(s.result);
                }
                Err(e) => {
                    eprintln!("chess960: {}", describe(path, &e));
                    errors += 1;
                }
            }
            progress.tick(read.get(), reader.games());
        }
        progress.finish();
        games += reader.games();
        empty |= reader.games() == 0 && report_no_games(path);
    }
    let positions: Vec<PositionJson> = StartId::all()
        .filter(|id| per_id[usize::from(id.get())].games > 0)
        .map(|id| PositionJson {
            id: id.get(),
            back_rank: back_rank(id),
            tally: per_id[usize::from(id.get())].scored(),
        })
        .collect();
    let failed = errors > 0 || empty;
    if args.json {
        let json = StatsJson {
            games,
            errors,
            positions,
            other_starts: other.scored(),
            total: total.scored(),
        };
        return Ok((json_line(&json)?, failed));
    }
    let mut out = String::new();
    let row = |out: &mut String, label: &str, t: &Tally| {
        let score = t
            .white_score
            .map_or_else(|| "-".to_string(), |s| format!("{:.1}%", s * 100.0));
        let _ = writeln!(
            out,
            "{label:<14} {:>7} {:>7} {:>7} {:>7} {:>7} {:>7}",
            t.games, t.white_wins, t.draws, t.black_wins, t.unfinished, score
        );
    };
    let _ = writeln!(
        out,
        "{:<14} {:>7} {:>7} {:>7} {:>7} {:>7} {:>7}",
        "start", "games", "1-0", "draws", "0-1", "*", "White"
    );
    for p in &positions {
        row(&mut out, &format!("{:>3} {}", p.id, p.back_rank), &p.tally);
    }
    if other.games > 0 {
        row(&mut out, "other starts", &other.scored());
    }
    row(&mut out, "total", &total.scored());
    let _ = writeln!(
        out,
        "{games} {} read, {errors} with errors (not counted)",
        if games == 1 { "game" } else { "games" }
    );
    Ok((out, failed))
}
