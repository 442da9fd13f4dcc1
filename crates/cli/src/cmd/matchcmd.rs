//! `chess960 match`: engine-vs-engine Chess960 matches with cutechess-cli's options.
//!
//! cutechess's single-dash options (`-engine cmd=… name=…`, `-each`, `-games`) do not fit
//! clap's model, so clap hands the raw words to `chess960-arena`'s own parser, which names the
//! bad option in every error.

use crate::cmd::json_line;
use crate::error::{CliError, CliResult};
use chess960_arena::options::parse_args;
use chess960_arena::report;
use chess960_arena::runner::{run_match, stop_on_ctrl_c};
use clap::Args;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

const LONG_ABOUT: &str = "Play a match between two or more engines (UCI or xboard) in \
Chess960, with the options of cutechess-cli. By default every start position is played twice \
with colours reversed (-repeat), start positions are drawn at random from -seed, and the runner \
is the referee: every move is checked, the clocks are kept here, and an engine that crashes, \
hangs, runs out of time, sends an illegal move (castling in the wrong notation included) or \
garbage loses the game with the reason recorded and is restarted for its next game.\n\n\
Progress goes to standard error (a line per finished game); the final table per engine pair \
(W/D/L, score, Elo with 95% error bar, LOS, pentanomial game pairs, SPRT) to standard output, \
or one JSON document with --json. Ctrl-C stops the match: games in progress are abandoned, and \
the PGN and summary of the finished ones are still written.";

const OPTIONS_HELP: &str = "\
Options (cutechess-cli syntax):
  -engine KEY=VALUE...   an engine (repeat for each; two or more; 3+ play a round robin):
       cmd=PROGRAM          the engine program (required; words after the first are arguments)
       name=NAME            its name in the PGN and tables (default: the engine's own)
       arg=ARG              one more argument (repeatable)      dir=DIR  working directory
       proto=uci|xboard     the protocol (default uci; xboard engines need variant fischerandom)
       option.NAME=VALUE    an engine option, e.g. option.Hash=16 option.Threads=1
       tc=[MOVES/]TIME[+INC] time control, TIME in seconds or MIN:SEC: 40/60+0.6, 60+0.6, inf
       st=SECONDS           fixed time per move         nodes=N / depth=N  search limits
       timemargin=MS        how late a move may come before it loses on time (default 50)
       timeout=SECONDS      wait for replies no clock limits (handshake, nodes=/depth=
                            moves) before the engine counts as hung (default 60)
       restart=on|off       restart the engine before every game (default off)
       initstr=TEXT         a line sent to an xboard engine after the handshake (repeatable)
       whitepov=true        the xboard engine reports scores from White's point of view
       stderr=FILE          append the engine's standard error to FILE
  -each KEY=VALUE...     settings for every engine (an engine's own settings win)
  -games N               games per pairing per round (default 2)
  -rounds N              rounds (default 1)
  -repeat [N]            play each opening N times, colours alternating (default 2: every
                         start position with both colours); -norepeat = -repeat 1
  -openings ...          where games start (default: random start positions from -seed):
       ids=518,0,100-110    these start positions          order=sequential|random
       file=FILE format=epd|pgn [order=…] [plies=N] [start=N]   positions or PGN book lines
  -concurrency N         games at the same time (default 1; warns when engines' Threads
                         would oversubscribe the cores)
  -draw movenumber=N movecount=M score=CP   adjudicate a draw when both scores stay within
                         CP for M moves each, from move N on
  -resign movecount=M score=CP [twosided=true]   adjudicate a loss when an engine's score is
                         at or below -CP for M consecutive moves
  -maxmoves N            adjudicate a draw after N moves
  -sprt elo0=E0 elo1=E1 [alpha=0.05] [beta=0.05]   sequential test; the match stops when it
                         decides (two engines only)
  -pgnout FILE [min]     append every game to FILE (min: without per-move comments)
  -recover               restart a crashed or hung engine and go on (without it the match
                         stops after such a game, and the summary is written)
  -seed N                seed of the random start positions (printed in the summary)
  -tournament round-robin|gauntlet   -event NAME   -site NAME   -ratinginterval N
  -variant fischerandom  accepted for compatibility (the only variant)
  -debug                 echo all engine traffic to standard error
  -quiet                 no progress on standard error
  --json                 print the summary as JSON

Examples:
  chess960 match -engine cmd=stockfish -engine cmd=glaurung -each nodes=5000 -games 10
  chess960 match -engine cmd=stockfish name=SF option.Hash=16 -engine cmd=ethereal-chess \\
      -each tc=10+0.1 -rounds 50 -concurrency 2 -pgnout games.pgn -sprt elo0=0 elo1=10
  chess960 match -engine cmd=polyglot arg=sf.ini proto=xboard -engine cmd=stockfish \\
      -each tc=40/20 -openings ids=518,0,959 -draw movenumber=40 movecount=8 score=10";

/// Arguments of `chess960 match`: everything after `match`, parsed by the arena's parser.
#[derive(Debug, Args)]
#[command(
    about = "Play an engine-vs-engine Chess960 match (cutechess-cli options)",
    long_about = LONG_ABOUT,
    after_help = OPTIONS_HELP,
    arg_required_else_help = true
)]
pub struct MatchArgs {
    /// The match options, in cutechess-cli syntax (see below).
    #[arg(
        trailing_var_arg = true,
        allow_hyphen_values = true,
        num_args = 0..,
        value_name = "OPTIONS"
    )]
    pub args: Vec<String>,
}

/// Runs `chess960 match`.
pub fn run(args: &MatchArgs) -> CliResult<String> {
    // The default seed is random; the summary prints it so the match can be replayed.
    let seed = chess960_arena::openings::entropy_seed();
    let parsed = parse_args(&args.args, seed).map_err(|e| CliError::new(e.to_string()))?;
    let stop = Arc::new(AtomicBool::new(false));
    stop_on_ctrl_c(Arc::clone(&stop)).map_err(CliError::new)?;
    let report = run_match(&parsed.config, stop).map_err(|e| CliError::new(e.to_string()))?;
    if parsed.json {
        json_line(&report::json(&report))
    } else {
        Ok(report::table(&report))
    }
}
