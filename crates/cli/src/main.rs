//! `chess960`: the command-line face of `chess960-core`: Chess960 start positions by ID, IDs of
//! back ranks, legal moves, FEN conversion and perft.
//!
//! Parses the command line with clap and dispatches to one module per subcommand in [`cmd`].
//! Bad input anywhere ends the program with exit code 2 and a single line on standard error,
//! `chess960: MESSAGE`.

mod cmd;
mod error;
mod input;
mod progress;
mod source;

use clap::{Parser, Subcommand};
use std::io::Write;
use std::process::ExitCode;

/// mimalloc rather than glibc's malloc: a bulk import allocates each game on the reading thread
/// and frees it on the storing one, and glibc's arena locks made that a tenth of the import's
/// time (docs/performance.md).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// mimalloc's options as its header (`mimalloc.h`, version 3, the one `libmimalloc-sys` 0.1.49
/// builds) numbers them; the Rust bindings name neither. A test checks their defaults.
mod mimalloc_options {
    pub const PURGE_DELAY: libmimalloc_sys::mi_option_t = 15;
    pub const ALLOW_THP: libmimalloc_sys::mi_option_t = 43;
}

/// Tunes the allocator for a long-running server: memory freed goes back to the system at
/// once, in small pages. By default mimalloc purges freed memory only after a delay, and only
/// when the thread that freed it allocates again, in whole 2 MiB transparent huge pages: a
/// server that goes idle after a burst kept what the burst used (193 MB after a flood of
/// hostile requests, against 70 MB after the 2,000-game benchmark; issue 37). Measured with
/// `scripts/server-load.py --flood`: idle afterwards within a few MiB of the benchmark's
/// figure. The bulk import keeps the defaults, which it is faster with.
pub fn tune_allocator_for_serving() {
    // SAFETY: mi_option_set only stores a value that mimalloc reads when it purges.
    unsafe {
        libmimalloc_sys::mi_option_set(mimalloc_options::PURGE_DELAY, 0);
        libmimalloc_sys::mi_option_set(mimalloc_options::ALLOW_THP, 0);
    }
    // mimalloc asked for huge pages on its arena before main ran; the option above does not
    // take that back, the process's own setting does (for memory touched from now on).
    #[cfg(target_os = "linux")]
    // SAFETY: PR_SET_THP_DISABLE takes an integer and touches no memory of ours.
    unsafe {
        libc::prctl(libc::PR_SET_THP_DISABLE, 1, 0, 0, 0);
    }
}

/// The top-level command line.
#[derive(Debug, Parser)]
#[command(
    name = "chess960",
    version,
    about = "Chess960 (Fischer Random Chess): play in the browser or on the terminal; engine, \
matches, game database; start positions, moves, FEN, PGN",
    long_about = None,
    after_help = "Start positions are numbered 0..959 (Scharnagl's numbering; 518 is the classical \
RNBQKBNR, 960 is accepted as 0). FENs may write castling in X-FEN (KQkq) or Shredder-FEN (HAha); \
see 'chess960 fen --help'. Bad input exits with status 2 and one line on standard error.\n\n\
Examples:\n  \
chess960 serve                     # play in the browser at http://127.0.0.1:8960/\n  \
chess960 play --random --level 1500 # play on the terminal ('help' there lists commands)\n  \
chess960 db import games.pgn       # into the game database; then 'db list', 'db stats'\n  \
chess960 position 518              # the classical start: board, ID, back rank, X-FEN\n  \
chess960 position --random --json  # a random start position, as JSON\n  \
chess960 id RKRNNQBB               # prints 959\n  \
chess960 moves --id 0              # the legal moves of start position 0\n  \
chess960 perft --id 518 5 --divide --threads 2",
    arg_required_else_help = true
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
enum Command {
    // The main jobs first, as `--help` lists them in this order.
    Serve(cmd::serve::ServeArgs),
    Play(cmd::play::PlayArgs),
    Db(cmd::db::DbArgs),
    Event(cmd::event::EventArgs),
    User(cmd::user::UserArgs),
    Engine(cmd::engine::EngineArgs),
    Login(cmd::login::LoginArgs),
    Logout(cmd::login::LogoutArgs),
    Uci(cmd::uci::UciArgs),
    Match(cmd::matchcmd::MatchArgs),
    Ratings(cmd::ratings::RatingsArgs),
    Pgn(cmd::pgn::PgnArgs),
    Position(cmd::position::PositionArgs),
    Id(cmd::id::IdArgs),
    Moves(cmd::moves::MovesArgs),
    Perft(cmd::perft::PerftArgs),
    Fen(cmd::fen::FenArgs),
    Draw(cmd::draw::DrawArgs),
    Tables(cmd::tables::TablesArgs),
    List(cmd::list::ListArgs),
    Fairness(cmd::fairness::FairnessArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match &cli.command {
        Command::Position(args) => cmd::position::run(args),
        Command::Id(args) => cmd::id::run(args),
        Command::Moves(args) => cmd::moves::run(args),
        Command::Perft(args) => cmd::perft::run(args),
        Command::Fen(args) => cmd::fen::run(args),
        Command::Draw(args) => cmd::draw::run(args),
        Command::Tables(args) => cmd::tables::run(args),
        Command::List(args) => cmd::list::run(args),
        Command::Fairness(args) => cmd::fairness::run(args),
        Command::Match(args) => cmd::matchcmd::run(args),
        Command::Ratings(args) => cmd::ratings::run(args),
        Command::Event(args) => cmd::event::run(args),
        Command::User(args) => cmd::user::run(args),
        Command::Login(args) => cmd::login::run(args),
        Command::Logout(args) => cmd::login::run_logout(args),
        // `pgn` has a third outcome (exit 1: games with errors), so it prints for itself.
        Command::Pgn(args) => return cmd::pgn::main(args),
        // The engine talks on standard input/output until `quit`.
        Command::Uci(args) => return cmd::uci::main(args),
        // These three report for themselves (exit codes, progress, long-running loops).
        Command::Db(args) => return cmd::db::main(args),
        Command::Serve(args) => return cmd::serve::main(args),
        Command::Play(args) => return cmd::play::main(args),
        // `engine check` exits with 1 when the engine fails it, so it prints for itself.
        Command::Engine(args) => return cmd::engine::main(args),
    };
    match result {
        Ok(text) => write_stdout(&text),
        Err(e) => {
            eprintln!("chess960: {e}");
            ExitCode::from(2)
        }
    }
}

/// Writes the output; a closed pipe (`chess960 ... | head`) is not an error.
fn write_stdout(text: &str) -> ExitCode {
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("chess960: cannot write the output: {e}");
            ExitCode::FAILURE
        }
    }
}

#[cfg(test)]
mod allocator_tests {
    use super::mimalloc_options::{ALLOW_THP, PURGE_DELAY};

    #[test]
    fn the_allocator_options_are_the_ones_meant() {
        // The defaults of mimalloc 3 for these numbers: a 1,000 ms purge delay, huge pages
        // allowed. Another numbering (another version) fails here, not silently in a server.
        unsafe {
            assert_eq!(libmimalloc_sys::mi_option_get(PURGE_DELAY), 1000);
            assert_eq!(libmimalloc_sys::mi_option_get(ALLOW_THP), 1);
        }
    }
}
