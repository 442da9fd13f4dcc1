//! `chess960 db`: the game database (`chess960-store`): import PGN files, export, list and
//! show games, and summarise results per start position with confidence intervals.
//!
//! Like `chess960 pgn`, these print their own output and choose their exit code: 0 on
//! success, 1 when `import` skipped games with errors, 2 (one `chess960: …` line on standard
//! error) when the command cannot do its work.

use crate::cmd::file_name as name;
use crate::cmd::json_line;
use crate::error::{quote, CliError, CliResult};
use crate::input::{parse_count, parse_id, ID_HELP};
use crate::progress::GameProgress;
use crate::source::Source;
use chess960_core::{Color, Position};
use chess960_pgn::{PgnError, Reader};
use chess960_store::pgn::{from_pgn, to_pgn, ImportGame};
use chess960_store::stats::{all_stats, back_rank, chart_svg, counts_from_file, PositionStats};
use chess960_store::{
    GameFilter, GameId, GameKey, GameResult, GameStore, ImportOutcome, PositionCounts, StoreError,
    StoredGame,
};
use clap::{Args, Subcommand};
use serde::Serialize;
use serde_json::{json, Value};
use std::fmt::Write as _;
use std::io;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::mpsc;
use std::time::Instant;

/// Arguments of `chess960 db`.
#[derive(Debug, Args)]
#[command(
    about = "The game database: import, export, list, show, summarise and delete games",
    long_about = "Keep games in a database: every game with the ID of its start position \
(none for a set-up position that is not one of the 960 starts), start FEN, moves, result and \
reason, players, time control, dates and all PGN tags. Programs that play games (the web \
server) save them there move by move through the same library; 'import' adds PGN files.\n\n\
The database is one SQLite file: the one given with --db PATH, else the one named by the \
environment variable CHESS960_DB, else games.sqlite3 in the user's data directory \
($XDG_DATA_HOME/chess960/, by default ~/.local/share/chess960/). A file that is not a chess960 \
database (another program's SQLite file, or not SQLite at all) is refused and left untouched; \
so is a damaged one.",
    after_help = "Examples:\n  \
chess960 db import games.pgn more.pgn\n  \
chess960 db list --start-id 518 --limit 20\n  \
chess960 db show 42\n  \
chess960 db delete 42 43\n  \
chess960 db export --player Carlsen -o carlsen.pgn\n  \
chess960 db stats --chart scores.svg\n  \
chess960 db stats --from-file per_position_stats.csv --dataset selfplay\n  \
chess960 db --db /tmp/test.sqlite3 import games.pgn"
)]
pub struct DbArgs {
    /// The game database: a SQLite file, created when it does not exist, or a PostgreSQL
    /// database, postgres://user@host/dbname (default: $CHESS960_DB, else games.sqlite3 in
    /// the user's data directory, ~/.local/share/chess960/ on Linux).
    #[arg(long, value_name = "PATH|URL", global = true)]
    pub db: Option<PathBuf>,
    #[command(subcommand)]
    pub command: DbCommand,
}

/// The `db` subcommands.
#[derive(Debug, Subcommand)]
pub enum DbCommand {
    Import(ImportArgs),
    Export(ExportArgs),
    List(ListArgs),
    Show(ShowArgs),
    Stats(StatsArgs),
    Check(CheckArgs),
    Delete(DeleteArgs),
}

/// Which games: the same options for `list`, `export` and (in part) `stats`.
#[derive(Debug, Args, Default)]
pub struct FilterArgs {
    /// Only games from this start position (0..959; 518 = classical).
    #[arg(long, value_name = "N", long_help = ID_HELP)]
    pub start_id: Option<String>,
    /// Only games in which P played either colour (exact name, case-insensitive for ASCII).
    #[arg(long, value_name = "P")]
    pub player: Option<String>,
    /// Only games with this result: 1-0, 0-1, 1/2-1/2 (or draw) or * (unfinished).
    #[arg(long, value_name = "R")]
    pub result: Option<String>,
    /// Only games on or after this date: YYYY.MM.DD, YYYY-MM-DD, YYYY.MM or YYYY. A game's
    /// date is its PGN Date tag, else the day it was stored.
    #[arg(long = "from", value_name = "DATE")]
    pub date_from: Option<String>,
    /// Only games on or before this date (same forms; a year or month includes all of it).
    #[arg(long = "to", value_name = "DATE")]
    pub date_to: Option<String>,
}

/// Arguments of `chess960 db import`.
#[derive(Debug, Args)]
#[command(
    about = "Add the games of PGN files to the database",
    long_about = "Read PGN files as streams (any size, in constant memory), plain or \
compressed with gzip or Zstandard (told by their first bytes: lichess's monthly \
.pgn.zst databases are read as published, never unpacked to disk), and store every \
good game: tags, start position, main line, result, the clocks of [%clk] comments, and every \
other comment, NAG and variation (kept as 'chess960 pgn convert' writes them, so that \
'db export' gives them back). A game already in the database is counted as a duplicate and \
not added again: the same start position, moves and result, and the same Event, Site, Date, \
Round, White and Black tags (a missing tag and '?' are the same); an unfinished game (*) is \
never a duplicate. A game with an error is reported on standard error as \
'chess960: FILE:LINE:COLUMN: game N, at MOVE: REASON' and skipped. Games are committed in \
batches, so an interrupted import keeps every batch before the interruption, and importing \
the same file again adds only what is missing (and its unfinished games again).\n\n\
A summary line goes to standard output. On a terminal, a progress bar appears on standard \
error when a file takes longer than a second: the bytes of the file read of its size \
(compressed bytes for a compressed file), the games read and games per second. A finished \
game's moves are stored packed in its row (schema version 7); the explorer's index of the \
imported games is written once at the end.\n\n\
Exit status: 0 if every game was good, 1 if any was skipped or a file has no games at all \
('chess960: no games found in FILE' on standard error), 2 if a file or the database cannot \
be read or written.",
    after_help = "JSON (--json), one line:\n  \
{\"games\":440,\"added\":430,\"duplicates\":10,\"errors\":0}\n\n\
Examples:\n  chess960 db import tcec.pgn lichess.pgn\n  \
chess960 db import lichess_db_chess960_rated_2024-01.pgn.zst\n  \
curl -s https://example.org/games.pgn.gz | chess960 db import -"
)]
pub struct ImportArgs {
    /// PGN files ('-' for standard input).
    #[arg(value_name = "FILE", required = true)]
    pub files: Vec<PathBuf>,
    /// Games per transaction (1..100000): larger is faster (fewer writes of the pages of the
    /// random-key indexes), smaller takes less memory and loses less when interrupted.
    #[arg(long, value_name = "N", default_value = "10000")]
    pub batch: String,
    /// Print the summary as one line of JSON (see below).
    #[arg(long)]
    pub json: bool,
}

/// Arguments of `chess960 db export`.
#[derive(Debug, Args)]
#[command(
    about = "Write games of the database to a PGN file",
    long_about = "Write the games that match the filters (all games without filters) to a \
PGN file, oldest first, in the normalised PGN of 'chess960 pgn convert': seven-tag roster, \
Variant/SetUp/FEN for Chess960 games, the other tags, a Termination tag with the reason when \
the game had none, the moves with the comments, NAGs and variations they were imported with \
(the clocks as [%clk] comments), the result. Exporting, importing the export into another \
database and exporting again gives the same bytes.\n\n\
A summary line goes to standard output (unless OUT is '-').",
    after_help = "Examples:\n  chess960 db export -o all.pgn\n  \
chess960 db export --start-id 518 --result 1-0 -o white-wins-518.pgn\n  \
chess960 db export --player Carlsen --from 2024 -o - | less"
)]
pub struct ExportArgs {
    #[command(flatten)]
    pub filter: FilterArgs,
    /// Export at most N games (the newest N that match).
    #[arg(long, value_name = "N")]
    pub limit: Option<String>,
    /// The file to write ('-' for standard output); it is replaced.
    #[arg(short, long, value_name = "OUT")]
    pub output: PathBuf,
    /// Castling notation of the FEN tags: xfen (the default) or shredder.
    #[arg(long, value_name = "DIALECT", default_value = "xfen")]
    pub fen_dialect: String,
}

/// Arguments of `chess960 db list`.
#[derive(Debug, Args)]
#[command(
    about = "List games, newest first",
    long_about = "List the games that match the filters, newest first: ID (for 'db show'), \
start position ID ('-' for a set-up position), players, result, date, number of half-moves \
and the reason of the result.",
    after_help = "JSON (--json), one line:\n  \
{\"total\":4444,\"games\":[{\"id\":4444,\"key\":\"9f…\",\"start_id\":518,\"white\":\"A\",\
\"black\":\"B\",\"result\":\"1-0\",\"reason\":null,\"date\":\"2024.02.09\",\"plies\":0},…]}\n\
\"total\" counts every match; \"games\" holds at most --limit of them.\n\n\
Examples:\n  chess960 db list\n  chess960 db list --start-id 0 --result 0-1\n  \
chess960 db list --player Nakamura --limit 0 --json"
)]
pub struct ListArgs {
    #[command(flatten)]
    pub filter: FilterArgs,
    /// Show at most N games (0 for all).
    #[arg(long, value_name = "N", default_value = "50")]
    pub limit: String,
    /// Skip the first N matches (for paging).
    #[arg(long, value_name = "N", default_value = "0")]
    pub offset: String,
    /// Print one line of JSON (see below).
    #[arg(long)]
    pub json: bool,
}

/// Arguments of `chess960 db show`.
#[derive(Debug, Args)]
#[command(
    about = "Show one game: tags, final board and moves",
    long_about = "Show one game: players, result and reason, start position, tags, the \
board after the last move, and the moves in SAN with the clocks when the game has them.",
    after_help = "JSON (--json): one line with every stored field: {\"id\":…,\"key\":…,\
\"start_id\":…,\"start_fen\":…,\"white\":…,\"black\":…,\"time_control\":…,\"clocks\":\
{\"white_ms\":…,\"black_ms\":…}|null,\"tags\":[[name,value],…],\"moves\":[{\"uci\":…,\"san\":…,\
\"white_ms\":…,\"black_ms\":…,\"played_at_ms\":…}],\"result\":…,\"reason\":…,\
\"created_at_ms\":…,\"updated_at_ms\":…,\"final_fen\":…}\n\n\
Examples:\n  chess960 db show 42\n  chess960 db show 42 --json"
)]
pub struct ShowArgs {
    /// The game: its ID (as 'db list' shows) or its 32-digit key.
    #[arg(value_name = "ID")]
    pub id: String,
    /// Print one line of JSON (see below).
    #[arg(long)]
    pub json: bool,
}

/// Arguments of `chess960 db stats`.
#[derive(Debug, Args)]
#[command(
    about = "Results per start position with 95% confidence intervals",
    long_about = "For each start position with finished games: games, White wins, draws, \
Black wins, White's score (wins + draws/2, per game) with a 95% confidence interval, and \
whether the interval excludes 1/2, i.e. the position significantly favours White or Black.\n\n\
The interval is Wilson's score interval with the variance of a win/draw/loss game at the \
observed draw rate (it is exactly Wilson's interval when there are no draws; draws narrow it, \
since they keep the score near 1/2). With many positions, about 5% of them look significant \
by chance alone: the summary says how many that is.\n\n\
The data: the finished games of the database (only those from one of the 960 starts; \
--player, --from and --to narrow them down), or with --from-file a CSV file of results per \
position instead of the database. The CSV has a header and an 'id' column (0..959), and \
either counts in columns 'white_wins', 'draws', 'black_wins', or percentages as in \
shared/data/positions/derived/per_position_stats.csv, whose two data sets --dataset picks: \
'lichess' (about 4.57 million human games, the default) or 'selfplay' (20,000 Stockfish 16 \
games per position); counts are rebuilt from games x percentage.\n\n\
--chart FILE.svg draws White's score for every position, ordered by ID, with its interval \
(red: favours White, blue: favours Black).",
    after_help = "JSON (--json), one line:\n  \
{\"source\":\"database\",\"positions\":[{\"id\":0,\"back_rank\":\"BBQNNRKR\",\"games\":3,\
\"white_wins\":1,\"draws\":2,\"black_wins\":0,\"white_score\":0.6667,\"low\":0.2,\"high\":0.9,\
\"favours\":null},…],\"total\":{\"games\":…,\"white_wins\":…,\"draws\":…,\"black_wins\":…,\
\"white_score\":…,\"low\":…,\"high\":…},\"favour_white\":[ids],\"favour_black\":[ids]}\n\
Scores and bounds are rounded to 4 decimals; \"favours\" is \"white\", \"black\" or null.\n\n\
Examples:\n  chess960 db stats\n  chess960 db stats --min-games 20 --chart scores.svg\n  \
chess960 db stats --from-file ../shared/data/positions/derived/per_position_stats.csv \
--dataset selfplay --chart selfplay.svg"
)]
pub struct StatsArgs {
    /// Print one line of JSON (see below).
    #[arg(long)]
    pub json: bool,
    /// Also draw the chart as an SVG file.
    #[arg(long, value_name = "FILE.svg")]
    pub chart: Option<PathBuf>,
    /// Only positions with at least N finished games (in the table, the chart and the counts
    /// of significant positions; the total counts every game).
    #[arg(long, value_name = "N", default_value = "1")]
    pub min_games: String,
    /// Read per-position results from this CSV file instead of the database.
    #[arg(long, value_name = "CSV")]
    pub from_file: Option<PathBuf>,
    /// Which percentages of the CSV file to use: lichess or selfplay.
    #[arg(long, value_name = "NAME", requires = "from_file")]
    pub dataset: Option<String>,
    /// Only games in which P played either colour.
    #[arg(long, value_name = "P", conflicts_with = "from_file")]
    pub player: Option<String>,
    /// Only games on or after this date (YYYY.MM.DD, YYYY.MM or YYYY).
    #[arg(long = "from", value_name = "DATE", conflicts_with = "from_file")]
    pub date_from: Option<String>,
    /// Only games on or before this date.
    #[arg(long = "to", value_name = "DATE", conflicts_with = "from_file")]
    pub date_to: Option<String>,
}

/// Arguments of `chess960 db delete`.
#[derive(Debug, Args)]
#[command(
    about = "Delete games",
    long_about = "Delete games from the database, given by ID (as 'db list' shows) or by \
32-digit key (as in the web server's addresses), with their moves and tags. Every game named \
is looked up first: if one is malformed or not in the database, nothing is deleted (exit \
status 2); so is a game an event's board was played in, while the event exists. Deleting a game \
that a running 'chess960 serve' holds in memory is not seen by the \
server until it reloads the game; delete games being played through the server instead \
(DELETE /api/games/KEY, or the games list of the web UI).",
    after_help = "Exit status: 0 when every game named was deleted; 2 with one line on \
stderr when an argument is not a game ID or key, a game is not in the database, or the \
database cannot be opened or written (then nothing was deleted).\n\n\
JSON (--json): one line {\"deleted\":[{\"id\":…,\"key\":…}]}\n\n\
Examples:\n  chess960 db delete 42\n  chess960 db delete 42 43 0123456789abcdef0123456789abcdef"
)]
pub struct DeleteArgs {
    /// The games: IDs (as 'db list' shows) or 32-digit keys.
    #[arg(value_name = "ID|KEY", required = true)]
    pub games: Vec<String>,
    /// Print one line of JSON (see below).
    #[arg(long)]
    pub json: bool,
}

/// Arguments of `chess960 db check`.
#[derive(Debug, Args)]
#[command(
    about = "Check the database file for damage",
    long_about = "Run SQLite's consistency check over the whole database file (time \
proportional to its size) and print the number of games. Exit status 2 with the findings if \
the file is damaged."
)]
pub struct CheckArgs {}

/// Runs `chess960 db …`, prints its output and returns the exit code.
pub fn main(args: &DbArgs) -> ExitCode {
    let db = args.db.as_deref();
    let result = match &args.command {
        DbCommand::Import(a) => import(db, a),
        DbCommand::Export(a) => export(db, a),
        DbCommand::List(a) => list(db, a).map(|t| (t, false)),
        DbCommand::Show(a) => show(db, a).map(|t| (t, false)),
        DbCommand::Stats(a) => stats(db, a).map(|t| (t, false)),
        DbCommand::Check(_) => check(db).map(|t| (t, false)),
        DbCommand::Delete(a) => delete(db, a).map(|t| (t, false)),
    };
    crate::cmd::print_with_failures(result)
}

/// A store error as a command error, naming the database file when the message does not.
fn store_err(path: &Path, e: StoreError) -> CliError {
    match e {
        StoreError::NotOurDatabase { .. } | StoreError::TooNew { .. } => {
            CliError::new(e.to_string())
        }
        other => {
            let name = path.display().to_string();
            let message = other.to_string();
            // PostgreSQL's errors name the database (without its password) themselves.
            if message.contains(&name) {
                CliError::new(message)
            } else {
                CliError::new(format!("{}: {message}", quote(&name)))
            }
        }
    }
}

/// Opens the database chosen by `--db`, `$CHESS960_DB` or the default location: a SQLite
/// file, or PostgreSQL for a `postgres://` address.
pub(crate) fn open(db: Option<&Path>) -> CliResult<Box<dyn GameStore>> {
    let address = chess960_store::resolve_address(db).map_err(|e| CliError::new(e.to_string()))?;
    chess960_store::open(db).map_err(|e| {
        if chess960_store::is_postgres_address(&address) {
            // PostgreSQL's errors name the database (without its password) themselves.
            CliError::new(e.to_string())
        } else {
            store_err(Path::new(&address), e)
        }
    })
}

/// `1-0`, `0-1`, `1/2-1/2` or `*`, from what a user may type.
fn parse_result(text: &str) -> CliResult<GameResult> {
    match text.trim().to_ascii_lowercase().as_str() {
        "draw" | "=" => Ok(GameResult::Draw),
        t => GameResult::parse(t).ok_or_else(|| {
            CliError::new(format!(
                "invalid --result '{}': expected 1-0, 0-1, 1/2-1/2 (or draw) or *",
                quote(text)
            ))
        }),
    }
}

/// A date bound as the database compares it: `YYYY.MM.DD`. A year or month alone is the
/// start of it for `--from`, and all of it for `--to` (`?` sorts after digits, so a partial
/// PGN date such as `2019.??.??` falls inside `--to 2019`).
pub(crate) fn parse_date(text: &str, option: &str, upper: bool) -> CliResult<String> {
    let t = text.trim().replace('-', ".");
    let parts: Vec<&str> = t.split('.').collect();
    let ok = !parts.is_empty()
        && parts.len() <= 3
        && parts[0].len() == 4
        && parts[1..].iter().all(|p| p.len() == 2)
        && parts.iter().all(|p| p.bytes().all(|b| b.is_ascii_digit()));
    if !ok {
        return Err(CliError::new(format!(
            "invalid {option} '{}': expected a date YYYY.MM.DD, YYYY-MM-DD, YYYY.MM or YYYY",
            quote(text)
        )));
    }
    let mut s = parts.join(".");
    for _ in parts.len()..3 {
        s.push_str(if upper { ".??" } else { ".00" });
    }
    Ok(s)
}

impl FilterArgs {
    fn to_filter(&self) -> CliResult<GameFilter> {
        Ok(GameFilter {
            start_id: self
                .start_id
                .as_deref()
                .map(parse_id)
                .transpose()?
                .map(|id| id.get()),
            player: self.player.clone(),
            account: None,
            result: self.result.as_deref().map(parse_result).transpose()?,
            date_from: self
                .date_from
                .as_deref()
                .map(|d| parse_date(d, "--from", false))
                .transpose()?,
            date_to: self
                .date_to
                .as_deref()
                .map(|d| parse_date(d, "--to", true))
                .transpose()?,
            aborted: None,
            limit: None,
            offset: 0,
        })
    }
}

// ---------------------------------------------------------------------------------------
// import
// ---------------------------------------------------------------------------------------

/// The bar for reading PGN: bytes of the file when its size is known, else games.
fn import_progress(prefix: String, size: Option<u64>) -> GameProgress {
    let template = if size.is_some() {
        "{spinner} {prefix} [{elapsed_precise}] {wide_bar} {bytes}/{total_bytes} {msg}"
    } else {
        "{spinner} {prefix} [{elapsed_precise}] {bytes} {msg}"
    };
    GameProgress::new(prefix, size, template)
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

#[derive(Default, Serialize)]
struct ImportJson {
    games: u64,
    added: u64,
    duplicates: u64,
    errors: u64,
}

fn flush(
    store: &dyn GameStore,
    db: &Path,
    batch: &[ImportGame],
    tally: &mut ImportJson,
) -> CliResult<()> {
    if batch.is_empty() {
        return Ok(());
    }
    // The explorer's position index is written once at the end (index_pending): in bulk it
    // costs a fraction of batch-by-batch inserts of random keys.
    for outcome in store
        .import_games_unindexed(batch)
        .map_err(|e| store_err(db, e))?
    {
        match outcome {
            ImportOutcome::Added(_) => tally.added += 1,
            ImportOutcome::Duplicate(_) => tally.duplicates += 1,
        }
    }
    Ok(())
}

/// What the reading side of an import counted.
#[derive(Default)]
struct ReadTally {
    games: u64,
    errors: u64,
    empty: bool,
}

/// Reads every source's games, reports the ones with errors, and sends the others to the
/// storing side in batches of `batch_size`. Stops early, without an error, when the storing
/// side has stopped listening (it failed and says why).
fn read_sources(
    sources: Vec<(&PathBuf, Source)>,
    batch_size: usize,
    to_store: mpsc::SyncSender<Vec<ImportGame>>,
) -> CliResult<ReadTally> {
    let mut tally = ReadTally::default();
    let mut batch: Vec<ImportGame> = Vec::with_capacity(batch_size);
    for (path, source) in sources {
        let compression = source.compression;
        let read = source.read.clone();
        let mut reader = Reader::new(source.reader);
        let mut progress = import_progress(name(path), source.size);
        while let Some(game) = reader
            .read_game()
            .map_err(|e| compression.read_error(path, e))?
        {
            match game {
                Ok(g) => {
                    batch.push(from_pgn(&g));
                    if batch.len() >= batch_size {
                        let full = std::mem::replace(&mut batch, Vec::with_capacity(batch_size));
                        if to_store.send(full).is_err() {
                            return Ok(tally);
                        }
                    }
                }
                Err(e) => {
                    progress.suspend(|| eprintln!("chess960: {}", describe(path, &e)));
                    tally.errors += 1;
                }
            }
            progress.tick(read.get(), tally.games + reader.games());
        }
        tally.games += reader.games();
        if reader.games() == 0 {
            progress.suspend(|| eprintln!("chess960: {}", crate::cmd::no_games(path)));
            tally.empty = true;
        }
        progress.finish();
    }
    if !batch.is_empty() {
        let _ = to_store.send(batch);
    }
    Ok(tally)
}

fn import(db: Option<&Path>, args: &ImportArgs) -> CliResult<(String, bool)> {
    let batch_size = parse_count(&args.batch, "--batch", 1, 100_000)? as usize;
    // Open every file before touching the database, so that a mistyped name costs nothing.
    let mut sources: Vec<(&PathBuf, Source)> = Vec::new();
    for path in &args.files {
        sources.push((path, crate::source::open(path)?));
    }
    let store = open(db)?;
    let db_path = std::path::PathBuf::from(store.describe());
    let started = Instant::now();
    let mut tally = ImportJson::default();
    // Reading and checking the PGN runs on a thread of its own and storing on this one, two
    // batches apart at most: on two cores each side has one, and memory stays bounded.
    let (to_store, batches) = mpsc::sync_channel::<Vec<ImportGame>>(2);
    let read = std::thread::scope(|scope| -> CliResult<ReadTally> {
        let reading = scope.spawn(move || read_sources(sources, batch_size, to_store));
        let mut stored = Ok(());
        for batch in batches.iter() {
            stored = flush(&*store, &db_path, &batch, &mut tally);
            if stored.is_err() {
                break;
            }
        }
        // Dropping the receiver lets the reader see that nobody listens any more.
        drop(batches);
        let read = reading
            .join()
            .unwrap_or_else(|_| Err(CliError::new("the PGN reader failed")));
        stored?;
        read
    })?;
    tally.games = read.games;
    tally.errors = read.errors;
    let pending = store.pending_index().map_err(|e| store_err(&db_path, e))?;
    if pending >= 20_000 {
        eprintln!("chess960: writing the explorer's position index of {pending} games");
    }
    store
        .index_pending(&mut |done| {
            if pending >= 20_000 {
                eprintln!("chess960: {done} of {pending} games indexed");
            }
        })
        .map_err(|e| store_err(&db_path, e))?;
    let failed = tally.errors > 0 || read.empty;
    if args.json {
        return Ok((json_line(&tally)?, failed));
    }
    let secs = started.elapsed().as_secs_f64();
    Ok((
        format!(
            "{} {} read: {} added, {} {}, {} skipped with errors ({:.1} s, {:.0} games/s) into {}\n",
            tally.games,
            if tally.games == 1 { "game" } else { "games" },
            tally.added,
            tally.duplicates,
            if tally.duplicates == 1 { "duplicate" } else { "duplicates" },
            tally.errors,
            secs,
            tally.games as f64 / secs.max(1e-9),
            name(&db_path)
        ),
        failed,
    ))
}

// ---------------------------------------------------------------------------------------
// export
// ---------------------------------------------------------------------------------------

fn export(db: Option<&Path>, args: &ExportArgs) -> CliResult<(String, bool)> {
    let dialect = crate::cmd::fen_dialect(&args.fen_dialect)?;
    let mut filter = args.filter.to_filter()?;
    filter.limit = args
        .limit
        .as_deref()
        .map(|l| parse_count(l, "--limit", 0, u64::from(u32::MAX)))
        .transpose()?
        .map(|l| l as u32);
    let store = open(db)?;
    let db_path = std::path::PathBuf::from(store.describe());
    if let (Ok(a), Ok(b)) = (db_path.canonicalize(), args.output.canonicalize()) {
        if a == b {
            return Err(CliError::new(format!(
                "the output {} is the database; write to another file",
                name(&args.output)
            )));
        }
    }
    let total = store.count(&filter).map_err(|e| store_err(&db_path, e))?;
    let total = filter.limit.map_or(total, |l| total.min(u64::from(l)));
    let to_stdout = args.output.as_os_str() == "-";
    let write_failed = |e: io::Error| crate::cmd::write_error(&args.output, e);
    let mut writer = crate::cmd::pgn_writer(&args.output, dialect)?;
    let mut progress = GameProgress::new(
        name(&args.output),
        Some(total),
        "{spinner} {prefix} [{elapsed_precise}] {wide_bar} {pos}/{len} games {msg}",
    );
    let mut written = 0u64;
    let mut failure: Option<CliError> = None;
    let mut pipe_closed = false;
    store
        .for_each_game(&filter, &mut |stored| {
            let game = match to_pgn(&stored) {
                Ok(g) => g,
                Err(e) => {
                    failure = Some(store_err(&db_path, e));
                    return false;
                }
            };
            match writer.write_game(&game) {
                Ok(()) => {
                    written += 1;
                    progress.tick(written, written);
                    true
                }
                Err(e) if to_stdout && e.kind() == io::ErrorKind::BrokenPipe => {
                    pipe_closed = true;
                    false
                }
                Err(e) => {
                    failure = Some(write_failed(e));
                    false
                }
            }
        })
        .map_err(|e| store_err(&db_path, e))?;
    progress.finish();
    if let Some(e) = failure {
        return Err(e);
    }
    if pipe_closed {
        return Ok((String::new(), false));
    }
    crate::cmd::finish_pgn(writer, &args.output)?;
    let summary = if to_stdout {
        String::new()
    } else {
        format!(
            "wrote {written} {} to {}\n",
            if written == 1 { "game" } else { "games" },
            name(&args.output)
        )
    };
    Ok((summary, false))
}

// ---------------------------------------------------------------------------------------
// list
// ---------------------------------------------------------------------------------------

#[derive(Serialize)]
struct SummaryJson {
    id: i64,
    key: String,
    start_id: Option<u16>,
    white: String,
    black: String,
    result: &'static str,
    reason: Option<String>,
    date: String,
    plies: u32,
}

#[derive(Serialize)]
struct ListJson {
    total: u64,
    games: Vec<SummaryJson>,
}

fn list(db: Option<&Path>, args: &ListArgs) -> CliResult<String> {
    let mut filter = args.filter.to_filter()?;
    let limit = parse_count(&args.limit, "--limit", 0, u64::from(u32::MAX))? as u32;
    filter.limit = (limit > 0).then_some(limit);
    filter.offset = parse_count(&args.offset, "--offset", 0, u64::from(u32::MAX))? as u32;
    let store = open(db)?;
    let label = std::path::PathBuf::from(store.describe());
    let err = |e| store_err(&label, e);
    let total = store.count(&filter).map_err(err)?;
    let games = store.list(&filter).map_err(err)?;
    if args.json {
        return json_line(&ListJson {
            total,
            games: games
                .into_iter()
                .map(|g| SummaryJson {
                    id: g.id.0,
                    key: g.key.to_string(),
                    start_id: g.start_id,
                    white: g.white,
                    black: g.black,
                    result: g.result.as_str(),
                    reason: g.reason,
                    date: g.date,
                    plies: g.plies,
                })
                .collect(),
        });
    }
    let mut out = String::new();
    if games.is_empty() {
        let _ = writeln!(out, "no games");
        return Ok(out);
    }
    let w_id = games
        .iter()
        .map(|g| g.id.to_string().len())
        .max()
        .unwrap_or(2)
        .max(2);
    let width = |f: &dyn Fn(&chess960_store::GameSummary) -> usize| {
        games.iter().map(f).max().unwrap_or(0).clamp(5, 24)
    };
    let w_white = width(&|g| g.white.chars().count());
    let w_black = width(&|g| g.black.chars().count());
    let cut = |s: &str, w: usize| -> String {
        if s.chars().count() > w {
            let mut t: String = s.chars().take(w - 1).collect();
            t.push('…');
            t
        } else {
            s.to_owned()
        }
    };
    let _ = writeln!(
        out,
        "{:>w_id$}  {:>5}  {:<w_white$}  {:<w_black$}  {:<7}  {:<10}  {:>5}  reason",
        "id", "start", "white", "black", "result", "date", "plies"
    );
    for g in &games {
        let _ = writeln!(
            out,
            "{:>w_id$}  {:>5}  {:<w_white$}  {:<w_black$}  {:<7}  {:<10}  {:>5}  {}",
            g.id.0,
            g.start_id
                .map_or_else(|| "-".to_string(), |s| s.to_string()),
            cut(&quote(&g.white), w_white),
            cut(&quote(&g.black), w_black),
            g.result,
            g.date,
            g.plies,
            g.reason.as_deref().map(quote).unwrap_or_default()
        );
    }
    let shown = games.len() as u64;
    if shown < total {
        let _ = writeln!(
            out,
            "{shown} of {total} games (games {}..{}; --limit and --offset show others)",
            u64::from(filter.offset) + 1,
            u64::from(filter.offset) + shown
        );
    } else {
        let _ = writeln!(out, "{total} {}", if total == 1 { "game" } else { "games" });
    }
    Ok(out)
}

// ---------------------------------------------------------------------------------------
// show
// ---------------------------------------------------------------------------------------

/// `M:SS` or `H:MM:SS`, tenths under ten seconds.
fn clock_text(ms: u64) -> String {
    let (h, m, s) = (ms / 3_600_000, ms / 60_000 % 60, ms / 1000 % 60);
    if h > 0 {
        format!("{h}:{m:02}:{s:02}")
    } else if ms < 10_000 {
        format!("{m}:{s:02}.{}", ms / 100 % 10)
    } else {
        format!("{m}:{s:02}")
    }
}

/// The position after the stored moves (as far as they replay).
fn final_position(g: &StoredGame) -> Option<Position> {
    let mut pos = Position::from_fen(&g.game.start_fen).ok()?;
    for m in &g.moves {
        let mv = pos
            .parse_uci(&m.uci, chess960_core::CastlingMode::Chess960)
            .ok()?;
        pos = pos.play(mv);
    }
    Some(pos)
}

/// The stored game that `text` names: a game ID (as 'db list' shows) or a 32-digit key.
fn find_game(store: &dyn GameStore, text: &str) -> CliResult<StoredGame> {
    let text = text.trim();
    let label = std::path::PathBuf::from(store.describe());
    let err = |e| store_err(&label, e);
    let found = if let Some(key) = GameKey::parse(text) {
        store.game_by_key(&key).map_err(err)?
    } else {
        let id: i64 = text.parse().ok().filter(|&n: &i64| n > 0).ok_or_else(|| {
            CliError::new(format!(
                "invalid game '{}': expected a game ID (a number, as 'db list' shows) or a 32-digit key",
                quote(text)
            ))
        })?;
        store.game(GameId(id)).map_err(err)?
    };
    found.ok_or_else(|| {
        CliError::new(format!(
            "no game {} in {}",
            quote(text),
            name(Path::new(&store.describe()))
        ))
    })
}

/// `chess960 db delete`: every game is looked up before any is deleted.
fn delete(db: Option<&Path>, args: &DeleteArgs) -> CliResult<String> {
    let store = open(db)?;
    let mut games: Vec<StoredGame> = Vec::with_capacity(args.games.len());
    for text in &args.games {
        let g = find_game(&*store, text)?;
        // The same game named twice (by ID and by key) is deleted once.
        if !games.iter().any(|o| o.id == g.id) {
            games.push(g);
        }
    }
    // An event keeps its games while it exists: its boards name them, and a result can come
    // only from the game (docs/events.md).
    if let Some(events) = store.event_store() {
        let summaries = events
            .events()
            .map_err(|e| store_err(Path::new(&store.describe()), e))?;
        for summary in summaries {
            let stored = events
                .event(&summary.key)
                .map_err(|e| store_err(Path::new(&store.describe()), e))?;
            for (r, round) in stored.event.played.iter().enumerate() {
                for (b, board) in round.boards.iter().enumerate() {
                    let Some(key) = board.game.as_deref() else {
                        continue;
                    };
                    if games.iter().any(|g| g.key.as_str() == key) {
                        return Err(CliError::new(format!(
                            "game {key} is the game of round {}, board {} of event {} ({}): an \
                             event keeps its games; delete the event first (chess960 event \
                             delete {}); nothing was deleted",
                            r + 1,
                            b + 1,
                            quote(&stored.event.name),
                            summary.key,
                            summary.id
                        )));
                    }
                }
            }
        }
    }
    let mut out = String::new();
    for g in &games {
        store
            .delete_game(g.id)
            .map_err(|e| store_err(Path::new(&store.describe()), e))?;
        if !args.json {
            let _ = writeln!(
                out,
                "deleted game {} ({} - {}, {})",
                g.id.0,
                g.game.white,
                g.game.black,
                g.finish.as_ref().map_or("*", |f| f.result.as_str())
            );
        }
    }
    if args.json {
        let deleted: Vec<Value> = games
            .iter()
            .map(|g| json!({"id": g.id.0, "key": g.key.to_string()}))
            .collect();
        out = format!("{}\n", json!({ "deleted": deleted }));
    }
    Ok(out)
}

fn show(db: Option<&Path>, args: &ShowArgs) -> CliResult<String> {
    let text = args.id.trim();
    let store = open(db)?;
    let g = find_game(&*store, text)?;
    let end = final_position(&g);
    if args.json {
        let moves: Vec<Value> = g
            .moves
            .iter()
            .map(|m| {
                json!({
                    "uci": m.uci,
                    "san": m.san,
                    "white_ms": m.clocks.map(|c| c.white_ms),
                    "black_ms": m.clocks.map(|c| c.black_ms),
                    "played_at_ms": m.played_at_ms,
                })
            })
            .collect();
        let v = json!({
            "id": g.id.0,
            "key": g.key.to_string(),
            "start_id": g.game.start_id,
            "start_fen": g.game.start_fen,
            "white": g.game.white,
            "black": g.game.black,
            "time_control": g.game.time_control,
            "clocks": g.game.clocks.map(|c| json!({"white_ms": c.white_ms, "black_ms": c.black_ms})),
            "tags": g.game.tags,
            "moves": moves,
            "result": g.finish.as_ref().map_or("*", |f| f.result.as_str()),
            "reason": g.finish.as_ref().map(|f| f.reason.as_str()).filter(|r| !r.is_empty()),
            "created_at_ms": g.created_at_ms,
            "updated_at_ms": g.updated_at_ms,
            "final_fen": end.map(|p| p.fen()),
        });
        return json_line(&v);
    }
    let mut out = String::new();
    let result = g.finish.as_ref().map_or("*", |f| f.result.as_str());
    let _ = write!(
        out,
        "Game {}: {} - {}, {}",
        g.id,
        quote(&g.game.white),
        quote(&g.game.black),
        result
    );
    match &g.finish {
        Some(f) if !f.reason.is_empty() => {
            let _ = writeln!(out, " ({})", quote(&f.reason));
        }
        Some(_) => out.push('\n'),
        None => out.push_str(" (in progress or unfinished)\n"),
    }
    match g.game.start_id {
        Some(id) => {
            let _ = writeln!(out, "Start:  {id} {}", back_rank(id));
        }
        None => {
            let _ = writeln!(out, "Start:  set-up position {}", g.game.start_fen);
        }
    }
    if let Some(tc) = &g.game.time_control {
        let _ = writeln!(out, "Time:   {}", quote(tc));
    }
    for (n, v) in &g.game.tags {
        let _ = writeln!(out, "{:<7} {}", format!("{n}:"), quote(v));
    }
    let _ = writeln!(out, "Key:    {}", g.key);
    out.push('\n');
    match &end {
        Some(p) => {
            out.push_str(&p.board().to_unicode(false));
            let _ = writeln!(
                out,
                "{} to move; FEN {}",
                if p.turn() == Color::White {
                    "White"
                } else {
                    "Black"
                },
                p.fen()
            );
        }
        None => out.push_str("(the stored moves do not replay from the start position)\n"),
    }
    out.push('\n');
    if g.moves.is_empty() {
        out.push_str("No moves.\n");
        return Ok(out);
    }
    // Moves: one line per move number, with each mover's clock after the move if timed.
    let start = Position::from_fen(&g.game.start_fen).ok();
    let black_first = start.is_some_and(|p| p.turn() == Color::Black);
    let mut number = start.map_or(1, |p| p.fullmoves());
    let mut line = String::new();
    let mut white_to_move = !black_first;
    if black_first {
        line = format!("{number:>3}. {:<14}", "...");
    }
    for m in &g.moves {
        let mut cell = m.san.clone();
        if let Some(c) = m.clocks {
            let t = if white_to_move {
                c.white_ms
            } else {
                c.black_ms
            };
            let _ = write!(cell, " ({})", clock_text(t));
        }
        if white_to_move {
            line = format!("{number:>3}. {cell:<14}");
        } else {
            line.push_str(&cell);
            let _ = writeln!(out, "{}", line.trim_end());
            line.clear();
            number += 1;
        }
        white_to_move = !white_to_move;
    }
    if !line.is_empty() {
        let _ = writeln!(out, "{}", line.trim_end());
    }
    if g.finish.is_none() {
        if let Some(c) = g.moves.last().and_then(|m| m.clocks).or(g.game.clocks) {
            let _ = writeln!(
                out,
                "Clocks: White {}, Black {}",
                clock_text(c.white_ms),
                clock_text(c.black_ms)
            );
        }
    }
    Ok(out)
}

// ---------------------------------------------------------------------------------------
// stats
// ---------------------------------------------------------------------------------------

fn round4(x: f64) -> f64 {
    (x * 10_000.0).round() / 10_000.0
}

#[derive(Serialize)]
struct PositionJson {
    id: u16,
    back_rank: String,
    games: u64,
    white_wins: u64,
    draws: u64,
    black_wins: u64,
    white_score: f64,
    low: f64,
    high: f64,
    favours: Option<&'static str>,
}

#[derive(Serialize)]
struct TotalJson {
    games: u64,
    white_wins: u64,
    draws: u64,
    black_wins: u64,
    white_score: Option<f64>,
    low: Option<f64>,
    high: Option<f64>,
}

#[derive(Serialize)]
struct StatsJson {
    source: String,
    positions: Vec<PositionJson>,
    total: TotalJson,
    favour_white: Vec<u16>,
    favour_black: Vec<u16>,
}

fn stats(db: Option<&Path>, args: &StatsArgs) -> CliResult<String> {
    let min_games = parse_count(&args.min_games, "--min-games", 1, u64::MAX)?;
    let (counts, source): (Vec<PositionCounts>, String) = match &args.from_file {
        Some(file) => {
            let counts = counts_from_file(file, args.dataset.as_deref())
                .map_err(|e| CliError::new(e.to_string()))?;
            let label = match &args.dataset {
                Some(d) => format!("{} ({d})", file.display()),
                None => file.display().to_string(),
            };
            (counts, label)
        }
        None => {
            let filter = FilterArgs {
                player: args.player.clone(),
                date_from: args.date_from.clone(),
                date_to: args.date_to.clone(),
                ..FilterArgs::default()
            }
            .to_filter()?;
            let store = open(db)?;
            let counts = store
                .position_counts(&filter)
                .map_err(|e| store_err(Path::new(&store.describe()), e))?;
            (counts, "database".to_string())
        }
    };
    let shown: Vec<PositionStats> = all_stats(&counts, min_games);
    let (tw, td, tb) = counts.iter().fold((0, 0, 0), |(w, d, b), c| {
        (w + c.white_wins, d + c.draws, b + c.black_wins)
    });
    let total = chess960_store::stats::score_interval(tw, td, tb, chess960_store::stats::Z95);
    let favour = |side| -> Vec<u16> {
        shown
            .iter()
            .filter(|s| s.favours == Some(side))
            .map(|s| s.counts.start_id)
            .collect()
    };
    let favour_white = favour(chess960_store::stats::Favours::White);
    let favour_black = favour(chess960_store::stats::Favours::Black);
    let mut chart_note = String::new();
    if let Some(path) = &args.chart {
        let title = if let Some(file) = &args.from_file {
            let file = file
                .file_name()
                .unwrap_or(file.as_os_str())
                .to_string_lossy();
            match &args.dataset {
                Some(d) => format!("White's score per Chess960 start position: {file} ({d})"),
                None => format!("White's score per Chess960 start position: {file}"),
            }
        } else {
            "White's score per Chess960 start position".to_string()
        };
        let svg = chart_svg(&shown, &title).map_err(|e| CliError::new(e.to_string()))?;
        std::fs::write(path, svg)
            .map_err(|e| CliError::new(format!("cannot write {}: {e}", name(path))))?;
        chart_note = format!("chart: {}\n", name(path));
    }
    if args.json {
        return json_line(&StatsJson {
            source,
            positions: shown
                .iter()
                .map(|s| PositionJson {
                    id: s.counts.start_id,
                    back_rank: back_rank(s.counts.start_id),
                    games: s.games,
                    white_wins: s.counts.white_wins,
                    draws: s.counts.draws,
                    black_wins: s.counts.black_wins,
                    white_score: round4(s.score),
                    low: round4(s.low),
                    high: round4(s.high),
                    favours: s.favours.map(|f| f.as_str()),
                })
                .collect(),
            total: TotalJson {
                games: tw + td + tb,
                white_wins: tw,
                draws: td,
                black_wins: tb,
                white_score: total.map(|t| round4(t.0)),
                low: total.map(|t| round4(t.1)),
                high: total.map(|t| round4(t.2)),
            },
            favour_white,
            favour_black,
        });
    }
    let mut out = String::new();
    if shown.is_empty() {
        let _ = writeln!(
            out,
            "no start position has {} finished games ({source})",
            if min_games > 1 {
                format!("{min_games}")
            } else {
                "any".into()
            }
        );
        out.push_str(&chart_note);
        return Ok(out);
    }
    let _ = writeln!(
        out,
        "{:>3} {:<8} {:>8} {:>8} {:>8} {:>8} {:>6}  {:<15}  favours",
        "id", "start", "games", "1-0", "draws", "0-1", "White", "95% interval"
    );
    for s in &shown {
        let _ = writeln!(
            out,
            "{:>3} {:<8} {:>8} {:>8} {:>8} {:>8} {:>6.3}  [{:.3}, {:.3}]   {}",
            s.counts.start_id,
            back_rank(s.counts.start_id),
            s.games,
            s.counts.white_wins,
            s.counts.draws,
            s.counts.black_wins,
            s.score,
            s.low,
            s.high,
            s.favours.map_or("", |f| f.as_str())
        );
    }
    if let Some((p, lo, hi)) = total {
        let _ = writeln!(
            out,
            "all {:<8} {:>8} {:>8} {:>8} {:>8} {:>6.3}  [{:.3}, {:.3}]",
            "",
            tw + td + tb,
            tw,
            td,
            tb,
            p,
            lo,
            hi
        );
    }
    let list = |ids: &[u16]| -> String {
        if ids.is_empty() {
            String::new()
        } else if ids.len() <= 20 {
            format!(
                ": {}",
                ids.iter().map(u16::to_string).collect::<Vec<_>>().join(" ")
            )
        } else {
            format!(
                ": {} …",
                ids[..20]
                    .iter()
                    .map(u16::to_string)
                    .collect::<Vec<_>>()
                    .join(" ")
            )
        }
    };
    let _ = writeln!(
        out,
        "{} positions ({source}); significantly favouring White (interval above 0.5): {}{}",
        shown.len(),
        favour_white.len(),
        list(&favour_white)
    );
    let _ = writeln!(
        out,
        "significantly favouring Black (interval below 0.5): {}{}",
        favour_black.len(),
        list(&favour_black)
    );
    let _ = writeln!(
        out,
        "(at 95%, about {:.0} of {} positions would look significant by chance alone)",
        shown.len() as f64 * 0.05,
        shown.len()
    );
    out.push_str(&chart_note);
    Ok(out)
}

// ---------------------------------------------------------------------------------------
// check
// ---------------------------------------------------------------------------------------

fn check(db: Option<&Path>) -> CliResult<String> {
    let store = open(db)?;
    let label = std::path::PathBuf::from(store.describe());
    let err = |e| store_err(&label, e);
    store.check().map_err(err)?;
    let games = store.count(&GameFilter::default()).map_err(err)?;
    Ok(format!(
        "{}: ok, {games} {}\n",
        name(Path::new(&store.describe())),
        if games == 1 { "game" } else { "games" }
    ))
}
