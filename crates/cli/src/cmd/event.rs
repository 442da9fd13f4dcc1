//! `chess960 event`: tournaments for arbiters. An event lives in the game database (the same
//! file as `chess960 db`); each subcommand loads it, changes it through the checks of
//! `chess960-events`, and saves it whole (or not at all, with a one-line error).

use crate::cmd::json_line;
use crate::error::{quote, CliError, CliResult};
use chess960_core::StartId;
use chess960_draw::rng::SplitMix64;
use chess960_events::accel::Acceleration;
use chess960_events::event::{
    BoardResult, ByeRequest, DrawSpec, Event, EventRound, Format, Player, RoundBye, Side, Tiebreak,
};
use chess960_events::export::{to_json, to_pgn, to_trf};
use chess960_events::standings::{crosstable_cell, show, standings};
use chess960_events::trf;
use chess960_store::{EventStore, GameStore, StoreError, StoredEvent};
use clap::{Args, Subcommand};
use serde_json::json;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

mod knockout;
mod run;

/// Arguments of `chess960 event`.
#[derive(Debug, Args)]
#[command(
    about = "Tournaments for arbiters: players, one drawn position per round, FIDE pairings, results, standings",
    long_about = "Run a Chess960 event: a Swiss by the FIDE Dutch system (C.04.3), a round \
robin by the Berger tables (C.05), single or double, or a knockout of mini-matches with \
tiebreak stages ('chess960 event new --help'). Enter players (late entries, withdrawals \
and byes in a Swiss), draw each round's start position (by the computer, optionally without \
518 or without repeating a position; by a physical method with its steps; from what was rolled \
at the board; set by hand; or from a list fixed before the event), pair the round, enter the \
results, and print standings with tie-breaks, the crosstable, pairing lists and result sheets. \
Export as FIDE TRF, PGN (every game with its round's start position) or JSON (the whole event, \
for 'import').\n\n\
Events are kept in the game database (see 'chess960 db --help' for where it is); the web \
server shows them at /events. EVENT is the event's number or key ('chess960 event list'); \
PLAYER is the player's number (in the order of entry) or exact name.",
    after_help = "A Swiss from start to finish:\n  \
chess960 event new \"Club 960 Open\" --swiss --rounds 5 --no-518\n  \
chess960 event add 1 \"Carlsen, Magnus\" --rating 2830 --federation NOR\n  \
chess960 event add 1 \"Nakamura, Hikaru\" --rating 2800 --federation USA   (and so on)\n  \
chess960 event draw 1                        # round 1's position, by the computer\n  \
chess960 event draw 1 --method die --outcomes 2,3,3,2,4 --replace   # or what the die said\n  \
chess960 event pair 1\n  \
chess960 event result 1 --round 1 1 1-0 2 1/2 3 0-1\n  \
chess960 event standings 1\n  \
chess960 event export 1 --format trf -o club.trf\n\n\
A knockout: 'chess960 event new \"Cup 960\" --knockout', then add, draw, pair and result as \
above; 'chess960 event tiebreaks 2 --round 1' adds the next tiebreak stage to every tied match, \
'chess960 event draw 2 --round 1 --stage 1' draws that stage's position."
)]
pub struct EventArgs {
    /// The game database: a SQLite file, created when it does not exist, or a PostgreSQL
    /// database, postgres://user@host/dbname (default: $CHESS960_DB, else games.sqlite3 in
    /// the user's data directory, ~/.local/share/chess960/ on Linux).
    #[arg(long, value_name = "PATH|URL", global = true)]
    pub db: Option<PathBuf>,
    #[command(subcommand)]
    pub command: EventCommand,
}

/// The `event` subcommands.
#[derive(Debug, Subcommand)]
pub enum EventCommand {
    New(NewArgs),
    List(ListArgs),
    Show(ShowArgs),
    Add(AddArgs),
    Withdraw(WithdrawArgs),
    Bye(ByeArgs),
    Draw(DrawArgs),
    Pair(PairArgs),
    Tiebreaks(TiebreaksArgs),
    Unpair(UnpairArgs),
    Result(ResultArgs),
    Standings(StandingsArgs),
    Sheet(SheetArgs),
    Export(ExportArgs),
    Import(ImportArgs),
    Verify(VerifyArgs),
    Delete(DeleteArgs),
    Run(run::RunArgs),
}

/// `event new`.
#[derive(Debug, Args)]
#[command(
    about = "Make an event",
    after_help = "Formats: --swiss --rounds N; --round-robin [--double]; --knockout.\n\n\
A knockout is a bracket of mini-matches: the players are seeded (--seeding rating, the \
default, or lot), the top seeds get the byes of a field that is not a power of two, and each \
match plays --games N games (2 by default) on the round's drawn position, colours swapped. A \
tied match goes on to the tiebreak stages, each on a position of its own: by default 2 rapid \
games (10+5), then 2 blitz games (3+2), then an Armageddon (5+0: a draw counts as Black's win, \
colours by lot). --tiebreak KIND:GAMES:TIME, given once per stage in order, replaces that list \
(KIND: rapid, blitz, games, or armageddon, written armageddon:TIME; TIME may give each side \
its own, White's first: armageddon:5+0/4+0); --no-tiebreaks leaves none. \
The last stage repeats until the match is decided, unless it is the Armageddon.\n\n\
Example: chess960 event new \"Cup 960\" --knockout --games 2 --tiebreak rapid:2:10+5 \
--tiebreak armageddon:5+0 --time-control 45+10"
)]
pub struct NewArgs {
    /// The event's name.
    pub name: String,
    /// A Swiss by the FIDE Dutch system (needs --rounds).
    #[arg(long, conflicts_with = "round_robin")]
    pub swiss: bool,
    /// A round robin by the Berger tables (the rounds follow from the players).
    #[arg(long)]
    pub round_robin: bool,
    /// With --round-robin: everyone meets everyone twice, colours reversed.
    #[arg(long, requires = "round_robin")]
    pub double: bool,
    /// A knockout: a seeded bracket of mini-matches with tiebreak stages (see below; the
    /// rounds follow from the players).
    #[arg(long)]
    pub knockout: bool,
    /// With --knockout: games of each match before any tiebreak, 1 to 12 (default 2).
    #[arg(long, value_name = "N")]
    pub games: Option<u32>,
    /// With --knockout: how the bracket is seeded, rating (default) or lot.
    #[arg(long, value_name = "HOW")]
    pub seeding: Option<String>,
    /// With --knockout: a tiebreak stage, KIND:GAMES:TIME (rapid:2:10+5, blitz:2:3+2,
    /// games:2:45+10, armageddon:5+0); once per stage, in order; replaces the default stages.
    #[arg(long, value_name = "KIND:GAMES:TIME")]
    pub tiebreak: Vec<String>,
    /// With --knockout: no tiebreak stages (a tied match plays its games again).
    #[arg(long)]
    pub no_tiebreaks: bool,
    /// Rounds of a Swiss (1 to 99).
    #[arg(long, value_name = "N")]
    pub rounds: Option<u32>,
    /// Time control as announced, e.g. 90+30.
    #[arg(long, value_name = "TC", default_value = "")]
    pub time_control: String,
    /// City.
    #[arg(long, default_value = "")]
    pub city: String,
    /// Federation of the organiser (three letters).
    #[arg(long, default_value = "")]
    pub federation: String,
    /// First and last day: 2026-12-01..2026-12-03 (or one day).
    #[arg(long, value_name = "FROM..TO")]
    pub dates: Option<String>,
    /// Chief arbiter.
    #[arg(long, default_value = "")]
    pub arbiter: String,
    /// Tie-breaks in order, from bh (Buchholz), bh-c1 (Buchholz cut 1), sb (Sonneborn-Berger),
    /// de (direct encounter), wins. Default: Swiss bh-c1,bh,de,wins; round robin de,sb,wins.
    #[arg(long, value_name = "LIST")]
    pub tiebreaks: Option<String>,
    /// Never draw 518, the classical start.
    #[arg(long)]
    pub no_518: bool,
    /// Never draw a position the event has played already.
    #[arg(long)]
    pub no_repeat: bool,
    /// A new position for each board instead of one per round (drawn by the computer).
    #[arg(long)]
    pub per_board: bool,
    /// Double round robin: the second cycle plays each pairing on its first game's position.
    #[arg(long, requires = "double")]
    pub second_cycle_repeats: bool,
    /// Positions fixed before the event, one per round: 12,518,300,...
    #[arg(long, value_name = "IDS")]
    pub positions: Option<String>,
    /// Colour of pairing number 1 in round 1 (Swiss): white or black. Default: drawn by lot.
    #[arg(long, value_name = "COLOUR")]
    pub first_color: Option<String>,
    /// Accelerated pairings (Swiss): none (the default) or baku, the Baku Acceleration
    /// Method of FIDE C.04.5.1. The first half of the players (rounded up to an even number)
    /// get 1 virtual point in the first rounds and 0.5 in the next ones, so that the
    /// stronger half meets itself early: with N rounds, the first ⌈N/2⌉ are accelerated, the
    /// first half of those (rounded up) with 1 point. Virtual points count for pairing only,
    /// never in standings, tie-breaks or the TRF's points (the TRF gets them as XXA lines).
    #[arg(long, value_name = "METHOD")]
    pub accelerated: Option<String>,
    /// Print the new event as JSON.
    #[arg(long)]
    pub json: bool,
}

/// `event list`.
#[derive(Debug, Args)]
#[command(about = "List the events")]
pub struct ListArgs {
    /// One JSON line.
    #[arg(long)]
    pub json: bool,
}

/// `event show`.
#[derive(Debug, Args)]
#[command(about = "Show an event: players, rounds, positions, pairings and results")]
pub struct ShowArgs {
    /// The event.
    pub event: String,
    /// The whole event as JSON.
    #[arg(long)]
    pub json: bool,
}

/// `event add`.
#[derive(Debug, Args)]
#[command(about = "Enter a player (in a Swiss under way: a late entry from the next round)")]
pub struct AddArgs {
    /// The event.
    pub event: String,
    /// The player's name, as `Surname, Given name` for a TRF.
    pub name: String,
    /// FIDE rating.
    #[arg(long)]
    pub rating: Option<u16>,
    /// FIDE ID.
    #[arg(long)]
    pub fide_id: Option<u64>,
    /// Federation, three letters.
    #[arg(long, default_value = "")]
    pub federation: String,
    /// Title (GM, IM, WGM, ...).
    #[arg(long, default_value = "")]
    pub title: String,
    /// The player is this engine, registered with 'chess960 engine add': 'chess960 event run'
    /// (or the server) plays its games.
    #[arg(long, value_name = "ENGINE")]
    pub engine: Option<String>,
}

/// `event withdraw`.
#[derive(Debug, Args)]
#[command(about = "Withdraw a player (not paired from the next round on)")]
pub struct WithdrawArgs {
    /// The event.
    pub event: String,
    /// The player.
    pub player: String,
    /// From this round (default: the next one to pair).
    #[arg(long, value_name = "R")]
    pub from_round: Option<u32>,
}

/// `event bye`.
#[derive(Debug, Args)]
#[command(about = "Record a bye a player asked for in a round not paired yet (Swiss)")]
pub struct ByeArgs {
    /// The event.
    pub event: String,
    /// The player.
    pub player: String,
    /// The round.
    #[arg(long, value_name = "R")]
    pub round: u32,
    /// Half a point (the default).
    #[arg(long, conflicts_with_all = ["zero", "full"])]
    pub half: bool,
    /// No point.
    #[arg(long, conflicts_with = "full")]
    pub zero: bool,
    /// A full point.
    #[arg(long)]
    pub full: bool,
}

/// `event draw`.
#[derive(Debug, Args)]
#[command(
    about = "Draw (or set) a round's start position, with its steps",
    long_about = "Draw the start position of a round and record how, so that anyone can check \
it later ('chess960 event verify'). By default the computer draws it uniformly among the \
positions the event allows (see --no-518 and --no-repeat of 'new'). --method draws it by a \
physical method of the spec (die, coins, bag, bag-wheeler, cards, platonic) with its steps: \
from --seed, or replaying --outcomes, what was rolled at the board (see 'chess960 draw --help' \
for what each method's outcomes are). --set gives the position by hand; --from-list takes the \
round's entry of the list fixed when the event was made."
)]
pub struct DrawArgs {
    /// The event.
    pub event: String,
    /// The round (default: the next one to pair).
    #[arg(long, value_name = "R")]
    pub round: Option<u32>,
    /// computer (default), die, coins, bag, bag-wheeler, cards or platonic.
    #[arg(long, default_value = "computer")]
    pub method: String,
    /// Seed for the draw (default: from the operating system; recorded either way).
    #[arg(long)]
    pub seed: Option<u64>,
    /// The outcomes rolled at the board, for --method.
    #[arg(long, conflicts_with = "seed")]
    pub outcomes: Option<String>,
    /// Set the position by hand: its ID, 0..959.
    #[arg(long, value_name = "ID", conflicts_with_all = ["outcomes", "from_list"])]
    pub set: Option<u32>,
    /// Take the round's position from the event's list.
    #[arg(long)]
    pub from_list: bool,
    /// Draw again over an earlier draw of the round (before any result is in).
    #[arg(long)]
    pub replace: bool,
    /// A knockout's tiebreak stage (from 1): draw that stage's position for the round
    /// (default round: the last paired one) instead of the round's own.
    #[arg(long, value_name = "S")]
    pub stage: Option<u32>,
    /// One JSON line.
    #[arg(long)]
    pub json: bool,
}

/// `event tiebreaks`.
#[derive(Debug, Args)]
#[command(
    about = "Knockout: add the next tiebreak stage to every tied match of a round",
    long_about = "Add the next tiebreak stage to every match of a knockout's round that is tied \
after its last stage: the stage's games as new boards of the round (colours alternating; an \
Armageddon's colours by lot), printed with their board numbers. Each stage plays a position of \
its own: draw it with 'chess960 event draw EVENT --round R --stage S' (before or after).",
    after_help = "Example: chess960 event tiebreaks 2 --round 1 && chess960 event draw 2 --round 1 --stage 1"
)]
pub struct TiebreaksArgs {
    /// The event.
    pub event: String,
    /// The round (default: the last paired one).
    #[arg(long, value_name = "R")]
    pub round: Option<u32>,
    /// Seed for the lots of an Armageddon's colours (default: the system).
    #[arg(long)]
    pub seed: Option<u64>,
    /// One JSON line.
    #[arg(long)]
    pub json: bool,
}

/// `event pair`.
#[derive(Debug, Args)]
#[command(about = "Pair the next round (every result of the round before must be in)")]
pub struct PairArgs {
    /// The event.
    pub event: String,
    /// The round (default: the next one).
    #[arg(long, value_name = "R")]
    pub round: Option<u32>,
    /// Seed for the lots of a round robin's pairing numbers or a knockout's seeds with
    /// --seeding lot (round 1; default: the system).
    #[arg(long)]
    pub seed: Option<u64>,
    /// One JSON line.
    #[arg(long)]
    pub json: bool,
}

/// `event unpair`.
#[derive(Debug, Args)]
#[command(about = "Take back the last round's pairing (before any result is in)")]
pub struct UnpairArgs {
    /// The event.
    pub event: String,
    /// The round (the last paired one).
    #[arg(long, value_name = "R")]
    pub round: u32,
}

/// `event result`.
#[derive(Debug, Args)]
#[command(
    about = "Enter results: BOARD RESULT pairs (1-0, 0-1, 1/2, +/-, -/+, -/-, or 'none' to clear)",
    after_help = "Example: chess960 event result 1 --round 3 1 1-0 2 1/2 3 -/+"
)]
pub struct ResultArgs {
    /// The event.
    pub event: String,
    /// The round.
    #[arg(long, value_name = "R")]
    pub round: u32,
    /// BOARD RESULT [BOARD RESULT ...]
    #[arg(required = true, num_args = 2.., value_name = "BOARD RESULT", allow_hyphen_values = true)]
    pub results: Vec<String>,
}

/// `event standings`.
#[derive(Debug, Args)]
#[command(about = "Standings with tie-breaks, and the crosstable")]
pub struct StandingsArgs {
    /// The event.
    pub event: String,
    /// With the crosstable (per round the opponent's pairing number, colour and result).
    #[arg(long)]
    pub crosstable: bool,
    /// One JSON line.
    #[arg(long)]
    pub json: bool,
}

/// `event sheet`.
#[derive(Debug, Args)]
#[command(about = "A round's pairing list and result sheet, to print or pin up")]
pub struct SheetArgs {
    /// The event.
    pub event: String,
    /// The round (default: the last paired one).
    #[arg(long, value_name = "R")]
    pub round: Option<u32>,
}

/// `event export`.
#[derive(Debug, Args)]
#[command(
    about = "Export an event: trf (FIDE), pgn (every game with its start position) or json (whole, for import)"
)]
pub struct ExportArgs {
    /// The event.
    pub event: String,
    /// trf, pgn or json.
    #[arg(long, default_value = "json")]
    pub format: String,
    /// Write to this file instead of standard output.
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,
}

/// `event import`.
#[derive(Debug, Args)]
#[command(
    about = "Import an event: a JSON file from 'export' (whole), or a FIDE TRF file (players, pairings, results)",
    long_about = "Import an event: a JSON file from 'export' (whole), or a FIDE TRF file (players, \
pairings, results). The event is kept only if it passes every check a live event passes (at most \
1,000 players and 99 rounds, texts of at most 200 characters, player numbers that exist, nobody \
twice in a round, rounds in order, every recorded draw repeated); otherwise one line names the \
file and the place of the first problem, and nothing is saved."
)]
pub struct ImportArgs {
    /// The file (.json or .trf).
    pub file: PathBuf,
}

/// `event verify`.
#[derive(Debug, Args)]
#[command(about = "Check every recorded position draw by repeating it")]
pub struct VerifyArgs {
    /// The event.
    pub event: String,
}

/// `event delete`.
#[derive(Debug, Args)]
#[command(about = "Delete an event (games played for it stay in the database)")]
pub struct DeleteArgs {
    /// The event.
    pub event: String,
}

/// The game database, seen as its events (and its games, for the results played on the
/// server).
struct Db(std::sync::Arc<dyn GameStore>);

impl Db {
    fn games(&self) -> &dyn GameStore {
        &*self.0
    }
}

impl Db {
    /// The events (`open` made sure the database keeps them).
    fn ev(&self) -> &dyn EventStore {
        self.0
            .event_store()
            .expect("open() checked that the database keeps events")
    }
}

fn open(db: Option<&Path>) -> CliResult<Db> {
    let store = chess960_store::open(db).map_err(|e| CliError::new(e.to_string()))?;
    if store.event_store().is_none() {
        return Err(CliError::new(format!(
            "the database {} keeps no events",
            store.describe()
        )));
    }
    Ok(Db(std::sync::Arc::from(store)))
}

/// Loads an event, with the results of its games finished on the server since (kept).
fn load(store: &Db, which: &str) -> CliResult<StoredEvent> {
    let mut s = store.ev().event(which).map_err(|e| match e {
        StoreError::NoSuchEvent(_) => CliError::new(format!(
            "no event {} (see 'chess960 event list')",
            quote(which)
        )),
        other => CliError::new(other.to_string()),
    })?;
    let taken = chess960_store::events::take_results(store.games(), &mut s.event)
        .map_err(|e| CliError::new(e.to_string()))?;
    if taken > 0 {
        s.revision = store
            .ev()
            .save_event(s.id, s.revision, &s.event)
            .map_err(|e| CliError::new(e.to_string()))?;
    }
    Ok(s)
}

fn save(store: &Db, s: &StoredEvent) -> CliResult<()> {
    store
        .ev()
        .save_event(s.id, s.revision, &s.event)
        .map(|_| ())
        .map_err(|e| CliError::new(e.to_string()))
}

fn ev_err(e: chess960_events::event::EventError) -> CliError {
    CliError::new(e.to_string())
}

fn entropy() -> u64 {
    SplitMix64::from_entropy().next_u64()
}

/// Runs `chess960 event`.
pub fn run(args: &EventArgs) -> CliResult<String> {
    let store = open(args.db.as_deref())?;
    match &args.command {
        EventCommand::New(a) => new(&store, a),
        EventCommand::List(a) => list(&store, a),
        EventCommand::Show(a) => {
            let s = load(&store, &a.event)?;
            if a.json {
                let mut v =
                    json!({"id": s.id, "key": s.key, "revision": s.revision, "event": s.event});
                if let Some(k) = knockout::knockout_json(&s.event) {
                    v["knockout"] = k;
                }
                return json_line(&v);
            }
            Ok(describe(&s))
        }
        EventCommand::Add(a) => {
            let engine = a
                .engine
                .as_deref()
                .map(|e| run::registered(&store, e))
                .transpose()?;
            let mut s = load(&store, &a.event)?;
            let n = s
                .event
                .add_player(Player {
                    name: a.name.clone(),
                    rating: a.rating,
                    fide_id: a.fide_id,
                    federation: a.federation.clone(),
                    title: a.title.clone(),
                    joined: 1,
                    withdrawn: None,
                    byes: Vec::new(),
                    account: None,
                    engine,
                })
                .map_err(ev_err)?;
            save(&store, &s)?;
            let p = &s.event.players[n - 1];
            let late = if p.joined > 1 {
                format!(" (late entry: paired from round {})", p.joined)
            } else {
                String::new()
            };
            let engine = p
                .engine
                .as_ref()
                .map(|e| format!(" (the engine {e})"))
                .unwrap_or_default();
            Ok(format!("player {n}: {}{engine}{late}\n", p.name))
        }
        EventCommand::Withdraw(a) => {
            let mut s = load(&store, &a.event)?;
            let p = s.event.player(&a.player).map_err(ev_err)?;
            let from = s.event.withdraw(p, a.from_round).map_err(ev_err)?;
            save(&store, &s)?;
            Ok(format!(
                "{} is withdrawn from round {from} on\n",
                s.event.players[p].name
            ))
        }
        EventCommand::Bye(a) => {
            let mut s = load(&store, &a.event)?;
            let p = s.event.player(&a.player).map_err(ev_err)?;
            let kind = if a.zero {
                ByeRequest::Zero
            } else if a.full {
                ByeRequest::Full
            } else {
                ByeRequest::Half
            };
            s.event.request_bye(p, a.round, kind).map_err(ev_err)?;
            save(&store, &s)?;
            let what = match kind {
                ByeRequest::Half => "a half-point bye",
                ByeRequest::Zero => "a zero-point bye",
                ByeRequest::Full => "a full-point bye",
            };
            Ok(format!(
                "{} has {what} in round {}\n",
                s.event.players[p].name, a.round
            ))
        }
        EventCommand::Draw(a) => draw(&store, a),
        EventCommand::Pair(a) => {
            let mut s = load(&store, &a.event)?;
            let round = a.round.unwrap_or(s.event.rounds_paired() + 1);
            s.event
                .pair(round, a.seed.unwrap_or_else(entropy))
                .map_err(ev_err)?;
            save(&store, &s)?;
            if a.json {
                return json_line(&round_json(&s.event, round));
            }
            if s.event.knockout_plan().is_some() {
                return Ok(knockout::round_sheet(&s.event, round, false));
            }
            Ok(sheet(&s.event, round, false))
        }
        EventCommand::Tiebreaks(a) => knockout::tiebreaks(&store, a),
        EventCommand::Unpair(a) => {
            let mut s = load(&store, &a.event)?;
            s.event.unpair(a.round).map_err(ev_err)?;
            save(&store, &s)?;
            Ok(format!("round {} is no longer paired\n", a.round))
        }
        EventCommand::Result(a) => {
            let mut s = load(&store, &a.event)?;
            if a.results.len() % 2 != 0 {
                return Err(CliError::new(
                    "results come in pairs: BOARD RESULT [BOARD RESULT ...]",
                ));
            }
            let mut out = String::new();
            for pair in a.results.chunks(2) {
                let board: u32 = pair[0].trim().parse().map_err(|_| {
                    CliError::new(format!("{} is not a board number", quote(&pair[0])))
                })?;
                let result = if pair[1].trim().eq_ignore_ascii_case("none") {
                    None
                } else {
                    Some(BoardResult::parse(&pair[1]).ok_or_else(|| {
                        CliError::new(format!(
                            "board {board}: {} is not a result (1-0, 0-1, 1/2, +/-, -/+, -/-, none)",
                            quote(&pair[1])
                        ))
                    })?)
                };
                s.event.set_result(a.round, board, result).map_err(ev_err)?;
                // `set_result` found the board: the round and board exist.
                let (white, black) = s
                    .event
                    .played
                    .get(a.round as usize - 1)
                    .and_then(|r| r.boards.get(board as usize - 1))
                    .map_or((usize::MAX, usize::MAX), |b| (b.white, b.black));
                let _ = writeln!(
                    out,
                    "round {} board {board}: {} – {}  {}",
                    a.round,
                    name_of(&s.event, white),
                    name_of(&s.event, black),
                    result.map_or("(cleared)", BoardResult::text)
                );
            }
            // All or nothing: the event is saved once every pair has been checked.
            save(&store, &s)?;
            let boards: Vec<u32> = a
                .results
                .chunks(2)
                .filter_map(|p| p[0].trim().parse().ok())
                .collect();
            out += &knockout::after_results(&s.event, a.round, &boards);
            Ok(out)
        }
        EventCommand::Standings(a) => {
            let s = load(&store, &a.event)?;
            if a.json {
                return json_line(&standings_json(&s.event));
            }
            if s.event.knockout_plan().is_some() {
                // A knockout's order is its bracket's: the places it gives so far.
                return Ok(format!(
                    "{} — after round {}\n\n{}",
                    s.event.name,
                    s.event.rounds_paired(),
                    knockout::placings_text(&s.event)
                ));
            }
            Ok(standings_text(&s.event, a.crosstable))
        }
        EventCommand::Sheet(a) => {
            let s = load(&store, &a.event)?;
            let round = a.round.unwrap_or(s.event.rounds_paired());
            if round == 0 || round > s.event.rounds_paired() {
                return Err(CliError::new(format!("round {round} is not paired")));
            }
            if s.event.knockout_plan().is_some() {
                return Ok(knockout::round_sheet(&s.event, round, true));
            }
            Ok(sheet(&s.event, round, true))
        }
        EventCommand::Export(a) => export(&store, a),
        EventCommand::Import(a) => import(&store, a),
        EventCommand::Verify(a) => {
            let s = load(&store, &a.event)?;
            s.event
                .verify_draws()
                .map_err(|(round, e)| CliError::new(format!("round {round}: {e}")))?;
            let n = s.event.played.iter().filter(|r| r.draw.is_some()).count()
                + s.event
                    .played
                    .iter()
                    .map(|r| r.stage_draws.len())
                    .sum::<usize>()
                + s.event
                    .played
                    .iter()
                    .flat_map(|r| &r.boards)
                    .filter(|b| b.position.is_some())
                    .count();
            Ok(format!(
                "{n} recorded draws repeated: every one gives its position\n"
            ))
        }
        EventCommand::Run(a) => run::run(&store, a),
        EventCommand::Delete(a) => {
            let s = load(&store, &a.event)?;
            store
                .ev()
                .delete_event(s.id)
                .map_err(|e| CliError::new(e.to_string()))?;
            Ok(format!("event {} ({}) deleted\n", s.id, s.event.name))
        }
    }
}

fn new(store: &Db, a: &NewArgs) -> CliResult<String> {
    knockout::check_new_flags(a)?;
    let format = if a.knockout {
        Format::Knockout(knockout::plan_from_args(a)?)
    } else if a.round_robin {
        Format::RoundRobin {
            cycles: if a.double { 2 } else { 1 },
        }
    } else if a.swiss || a.rounds.is_some() {
        Format::Swiss
    } else {
        return Err(CliError::new(
            "choose the format: --swiss --rounds N, --round-robin [--double], or --knockout",
        ));
    };
    let rounds = match (&format, a.rounds) {
        (Format::Swiss, None) => return Err(CliError::new("a Swiss needs --rounds N")),
        (Format::Swiss, Some(r)) => r,
        (Format::Knockout(_), _) => 0,
        (_, Some(_)) => {
            return Err(CliError::new(
                "a round robin's rounds follow from its players: leave out --rounds",
            ))
        }
        (_, None) => 0,
    };
    let first = match a.first_color.as_deref().map(str::trim) {
        None => {
            if entropy() & 1 == 0 {
                Side::White
            } else {
                Side::Black
            }
        }
        Some("white" | "w") => Side::White,
        Some("black" | "b") => Side::Black,
        Some(other) => {
            return Err(CliError::new(format!(
                "--first-color: {} (white or black)",
                quote(other)
            )))
        }
    };
    let mut e = Event::new(&a.name, format, rounds, first).map_err(ev_err)?;
    e.time_control = a.time_control.trim().to_string();
    e.city = a.city.trim().to_string();
    e.federation = a.federation.trim().to_string();
    e.arbiter = a.arbiter.trim().to_string();
    if let Some(d) = &a.dates {
        let (from, to) = d.split_once("..").unwrap_or((d, d));
        for day in [from, to] {
            let ok = day.len() == 10
                && day.chars().enumerate().all(|(i, c)| {
                    if i == 4 || i == 7 {
                        c == '-'
                    } else {
                        c.is_ascii_digit()
                    }
                });
            if !ok {
                return Err(CliError::new(format!(
                    "--dates: {} is not YYYY-MM-DD",
                    quote(day)
                )));
            }
        }
        e.start_date = from.to_string();
        e.end_date = to.to_string();
    }
    if let Some(t) = &a.tiebreaks {
        e.tiebreaks = t
            .split(',')
            .filter(|x| !x.trim().is_empty())
            .map(|x| {
                Tiebreak::parse(x).ok_or_else(|| {
                    CliError::new(format!(
                        "--tiebreaks: {} (bh, bh-c1, sb, de, wins)",
                        quote(x.trim())
                    ))
                })
            })
            .collect::<CliResult<_>>()?;
    }
    e.positions.rules.exclude_518 = a.no_518;
    e.positions.rules.no_repeat = a.no_repeat;
    e.positions.per_board = a.per_board;
    e.positions.second_cycle_repeats = a.second_cycle_repeats;
    if let Some(m) = &a.accelerated {
        let method = match Acceleration::parse(m) {
            Some(x @ (Acceleration::None | Acceleration::Baku)) => x,
            _ => {
                return Err(CliError::new(format!(
                    "--accelerated: {} (none or baku)",
                    quote(m.trim())
                )))
            }
        };
        e.set_acceleration(method)
            .map_err(|x| CliError::new(format!("--accelerated: {x}")))?;
    }
    if let Some(list) = &a.positions {
        e.positions.list = list
            .split(',')
            .map(|x| {
                let id = crate::input::parse_id(x.trim())?;
                Ok(id.get())
            })
            .collect::<CliResult<_>>()?;
    }
    // The checks of an imported event, so that what `new` makes imports again (the lengths
    // of the texts, the number of tie-breaks and listed positions).
    e.validate().map_err(|x| CliError::new(x.to_string()))?;
    let s = store
        .ev()
        .create_event(&e, None)
        .map_err(|e| CliError::new(e.to_string()))?;
    if a.json {
        return json_line(&json!({"id": s.id, "key": s.key, "event": s.event}));
    }
    Ok(format!(
        "event {} \"{}\" made (key {}): {}\nnext: chess960 event add {} NAME --rating R\n",
        s.id,
        e.name,
        s.key,
        format_text(&e),
        s.id
    ))
}

fn format_text(e: &Event) -> String {
    let mut t = match &e.format {
        Format::Swiss => format!("Swiss (FIDE Dutch), {} rounds", e.rounds),
        Format::RoundRobin { cycles: 1 } => "round robin (Berger tables)".into(),
        Format::RoundRobin { .. } => "double round robin (Berger tables)".into(),
        Format::Knockout(plan) => format!("knockout: {}", plan.describe()),
    };
    let mut pos = Vec::new();
    if e.positions.rules.exclude_518 {
        pos.push("no 518");
    }
    if e.positions.rules.no_repeat {
        pos.push("no position twice");
    }
    if e.positions.per_board {
        pos.push("a position per board");
    }
    if e.positions.second_cycle_repeats {
        pos.push("second cycle on the first cycle's positions");
    }
    if !e.positions.list.is_empty() {
        pos.push("positions fixed in advance");
    }
    match e.acceleration {
        Acceleration::None => {}
        Acceleration::Baku => t += "; accelerated (Baku, C.04.5.1)",
        Acceleration::Custom => t += "; accelerated (virtual points from the TRF)",
    }
    if !pos.is_empty() {
        t += &format!("; {}", pos.join(", "));
    }
    if !e.tiebreaks.is_empty() {
        t += &format!(
            "; tie-breaks {}",
            e.tiebreaks
                .iter()
                .map(|t| t.name())
                .collect::<Vec<_>>()
                .join(", ")
        );
    }
    t
}

fn list(store: &Db, a: &ListArgs) -> CliResult<String> {
    let events = store
        .ev()
        .events()
        .map_err(|e| CliError::new(e.to_string()))?;
    if a.json {
        let v: Vec<_> = events
            .iter()
            .map(|s| {
                json!({"id": s.id, "key": s.key, "name": s.name, "format": s.format, "players": s.players,
                       "rounds_paired": s.rounds_paired, "rounds": s.rounds})
            })
            .collect();
        return json_line(&v);
    }
    if events.is_empty() {
        return Ok("no events yet (chess960 event new --help)\n".into());
    }
    let mut out = String::new();
    for s in events {
        let _ = writeln!(
            out,
            "{:>4}  {:<30}  {:<19}  {:>3} players  round {}/{}",
            s.id, s.name, s.format, s.players, s.rounds_paired, s.rounds
        );
    }
    Ok(out)
}

fn draw(store: &Db, a: &DrawArgs) -> CliResult<String> {
    let mut s = load(store, &a.event)?;
    if a.stage == Some(0) {
        return Err(CliError::new(
            "--stage counts a knockout's tiebreak stages from 1 (the round's own position: leave out --stage)",
        ));
    }
    let round = match a.stage {
        // A tiebreak stage belongs to a round being played: the last paired one.
        Some(_) => a.round.unwrap_or(s.event.rounds_paired()),
        None => a.round.unwrap_or(s.event.rounds_paired() + 1),
    };
    let spec = if let Some(id) = a.set {
        DrawSpec::Set(id)
    } else if a.from_list {
        DrawSpec::List
    } else if a.method.trim() == "computer" {
        if a.outcomes.is_some() {
            return Err(CliError::new(
                "--outcomes go with a physical --method (die, coins, ...)",
            ));
        }
        DrawSpec::Computer {
            seed: a.seed.unwrap_or_else(entropy),
        }
    } else {
        DrawSpec::Physical {
            method: a.method.trim().to_string(),
            seed: if a.outcomes.is_some() {
                None
            } else {
                Some(a.seed.unwrap_or_else(entropy))
            },
            outcomes: a.outcomes.clone(),
        }
    };
    let d = match a.stage {
        Some(stage) => s
            .event
            .draw_stage_position(round, stage, spec, a.replace)
            .map_err(ev_err)?
            .clone(),
        None => s
            .event
            .draw_position(round, spec, a.replace)
            .map_err(ev_err)?
            .clone(),
    };
    save(store, &s)?;
    if a.json {
        if let Some(stage) = a.stage {
            return json_line(&json!({"round": round, "stage": stage, "draw": d}));
        }
        return json_line(&json!({"round": round, "draw": d}));
    }
    let mut out = match (a.stage, s.event.knockout_plan()) {
        (Some(stage), Some(plan)) => {
            let (_, games, tc) = plan.stage(stage, &s.event.time_control);
            format!(
                "Round {round}, tiebreak stage {stage} ({games} game{}{}) of {}\n",
                if games == 1 { "" } else { "s" },
                if tc.is_empty() {
                    String::new()
                } else {
                    format!(", {tc}")
                },
                s.event.name
            )
        }
        _ => format!("Round {round} of {}\n", s.event.name),
    };
    for (i, step) in d.steps.iter().enumerate() {
        let _ = writeln!(out, "{:>3}. {step}", i + 1);
    }
    // Every draw gives 0..959 (a repeat takes an earlier round's, checked the same way).
    if let Ok(id) = StartId::new(d.id as u32) {
        let _ = write!(
            out,
            "\n{}\nPosition {}: {}   X-FEN {}\n",
            id.position().board().to_unicode(false),
            d.id,
            id.back_rank(),
            id.position().fen()
        );
    }
    if s.event.positions.per_board {
        let r = s.event.played.get(round as usize - 1);
        for (k, b) in r.iter().flat_map(|r| r.boards.iter().enumerate()) {
            if let Some(p) = &b.position {
                let _ = writeln!(out, "board {}: position {}", k + 1, p.id);
            }
        }
    }
    Ok(out)
}

/// Who a player is on a list: `Name (rating)`. (An index that names no player, in a document
/// an older version stored, is shown as such: the lists never panic.)
fn who(e: &Event, i: usize) -> String {
    let Some(p) = e.players.get(i) else {
        return format!("(no player {})", i.saturating_add(1));
    };
    match p.rating {
        Some(r) => format!("{} ({r})", p.name),
        None => p.name.clone(),
    }
}

fn pts(tenths: u32) -> String {
    if tenths % 10 == 0 {
        (tenths / 10).to_string()
    } else {
        format!("{}.{}", tenths / 10, tenths % 10)
    }
}

/// Points a player had before `round`.
fn points_before(e: &Event, player: usize, round: u32) -> u32 {
    e.played
        .iter()
        .take(round.saturating_sub(1) as usize)
        .map(|r| e.points_in(r, player))
        .fold(0, u32::saturating_add)
}

/// A player's name, or a stand-in for an index that names no player.
fn name_of(e: &Event, i: usize) -> String {
    e.players.get(i).map_or_else(
        || format!("(no player {})", i.saturating_add(1)),
        |p| p.name.clone(),
    )
}

/// A sheet's line for a round's start position: its number, back rank and X-FEN.
pub(crate) fn start_line(id: u16) -> String {
    match StartId::new(id as u32) {
        Ok(s) => format!(
            "Start position {id}: {}  (X-FEN {})\n",
            s.back_rank(),
            s.position().fen()
        ),
        Err(_) => format!("Start position {id}: not one of 0..959\n"),
    }
}

/// The pairing list (and result sheet) of a round.
fn sheet(e: &Event, round: u32, results: bool) -> String {
    let empty = EventRound::default();
    let r: &EventRound = round
        .checked_sub(1)
        .and_then(|k| e.played.get(k as usize))
        .unwrap_or(&empty);
    let mut out = format!("{} — round {round}", e.name);
    if !e.time_control.is_empty() {
        out += &format!(" — {}", e.time_control);
    }
    out.push('\n');
    match &r.draw {
        Some(d) => out += &start_line(d.id),
        None if e.positions.per_board => {}
        None => out += "Start position: not drawn yet (chess960 event draw)\n",
    }
    out.push('\n');
    let _ = writeln!(
        out,
        "{:>5}  {:>4}  {:<32} {:>4}   {:<32} {:>4}  {}",
        "Board",
        "No.",
        "White",
        "Pts",
        "Black",
        "Pts",
        if results { "Result" } else { "" }
    );
    for (k, b) in r.boards.iter().enumerate() {
        let num = |i: usize| e.pairing_number(i).map_or(String::new(), |n| n.to_string());
        let pos = match &b.position {
            Some(d) => format!("  [position {}]", d.id),
            None => String::new(),
        };
        let res = match b.result {
            Some(x) => x.text().to_string(),
            None if results => "______".into(),
            None => String::new(),
        };
        let _ = writeln!(
            out,
            "{:>5}  {:>4}  {:<32} {:>4}   {:<32} {:>4}  {res}{pos}",
            k + 1,
            num(b.white),
            who(e, b.white),
            pts(points_before(e, b.white, round)),
            who(e, b.black),
            pts(points_before(e, b.black, round)),
        );
    }
    for (p, kind) in &r.byes {
        let what = match kind {
            RoundBye::Pab => "pairing-allocated bye (a win's points)",
            RoundBye::Half => "half-point bye",
            RoundBye::Full => "full-point bye",
            RoundBye::Zero => "not paired (zero-point bye, absent or withdrawn)",
        };
        let _ = writeln!(out, "       {}: {what}", who(e, *p));
    }
    out
}

fn round_json(e: &Event, round: u32) -> serde_json::Value {
    let empty = EventRound::default();
    let r = round
        .checked_sub(1)
        .and_then(|k| e.played.get(k as usize))
        .unwrap_or(&empty);
    json!({
        "round": round,
        "position": r.draw.as_ref().map(|d| d.id),
        "boards": r.boards.iter().enumerate().map(|(k, b)| json!({
            "board": k + 1,
            "white": {"player": b.white.saturating_add(1), "name": name_of(e, b.white)},
            "black": {"player": b.black.saturating_add(1), "name": name_of(e, b.black)},
            "result": b.result.map(BoardResult::text),
            "position": e.board_position(round, k as u32 + 1),
            "match": b.slot.map(|s| s.match_no),
            "stage": b.slot.map(|s| s.stage),
            "time_control": e.board_time_control(round, k as u32 + 1),
        })).collect::<Vec<_>>(),
        "stage_positions": r.stage_draws.iter().map(|d| d.id).collect::<Vec<_>>(),
        "byes": r.byes.iter().map(|(p, k)| json!({"player": p.saturating_add(1), "name": name_of(e, *p), "kind": k})).collect::<Vec<_>>(),
    })
}

fn standings_json(e: &Event) -> serde_json::Value {
    let rows = standings(e);
    json!({
        "tiebreaks": e.tiebreaks.iter().map(|t| t.name()).collect::<Vec<_>>(),
        "standings": rows.iter().map(|s| json!({
            "place": s.place,
            "player": s.player + 1,
            "name": name_of(e, s.player),
            "rating": e.players.get(s.player).and_then(|p| p.rating),
            "points": s.points as f64 / 10.0,
            "tiebreaks": s.tiebreaks.iter().map(|v| v.map(|x| x as f64 / 100.0)).collect::<Vec<_>>(),
        })).collect::<Vec<_>>(),
    })
}

fn standings_text(e: &Event, crosstable: bool) -> String {
    let rows = standings(e);
    let paired = e.rounds_paired();
    let mut out = format!("{} — standings after round {paired}\n\n", e.name);
    let _ = write!(
        out,
        "{:>5} {:>4}  {:<32} {:>5}",
        "Place", "No.", "Player", "Pts"
    );
    for t in &e.tiebreaks {
        let _ = write!(out, " {:>7}", t.name().to_uppercase());
    }
    if crosstable {
        for r in 1..=paired {
            let _ = write!(out, " {:>6}", format!("R{r}"));
        }
    }
    out.push('\n');
    // The crosstable names opponents by pairing number (the No. column).
    let number = |i: usize| e.pairing_number(i).unwrap_or(i.saturating_add(1));
    let mut last_place = 0;
    for s in &rows {
        let place = if s.place == last_place {
            String::new()
        } else {
            s.place.to_string()
        };
        last_place = s.place;
        let _ = write!(
            out,
            "{place:>5} {:>4}  {:<32} {:>5}",
            number(s.player),
            who(e, s.player),
            pts(s.points)
        );
        for v in &s.tiebreaks {
            let _ = write!(out, " {:>7}", show(*v));
        }
        if crosstable {
            for r in 0..paired as usize {
                let _ = write!(out, " {:>6}", crosstable_cell(e, r, s.player, &number));
            }
        }
        out.push('\n');
    }
    out
}

fn describe(s: &StoredEvent) -> String {
    let e = &s.event;
    let mut out = format!(
        "event {} \"{}\" (key {})\n{}\n",
        s.id,
        e.name,
        s.key,
        format_text(e)
    );
    for (k, v) in [
        ("Dates", format!("{} {}", e.start_date, e.end_date)),
        ("City", e.city.clone()),
        ("Arbiter", e.arbiter.clone()),
        ("Time control", e.time_control.clone()),
    ] {
        if !v.trim().is_empty() {
            let _ = writeln!(out, "{k}: {}", v.trim());
        }
    }
    let _ = writeln!(out, "\nPlayers ({}):", e.players.len());
    for (i, p) in e.players.iter().enumerate() {
        let mut notes = Vec::new();
        if let Some(n) = e.pairing_number(i) {
            if e.knockout_plan().is_some() {
                notes.push(format!("seed {n}"));
            } else {
                notes.push(format!("pairing no. {n}"));
            }
        }
        if p.joined > 1 {
            notes.push(format!("from round {}", p.joined));
        }
        if let Some(w) = p.withdrawn {
            notes.push(format!("withdrawn from round {w}"));
        }
        for (r, b) in &p.byes {
            notes.push(format!("{b:?} bye in round {r}").to_lowercase());
        }
        let _ = writeln!(
            out,
            "{:>4}. {}{}",
            i + 1,
            who(e, i),
            if notes.is_empty() {
                String::new()
            } else {
                format!("  [{}]", notes.join("; "))
            }
        );
    }
    for (k, r) in e.played.iter().enumerate() {
        let round = k as u32 + 1;
        let pos = r
            .draw
            .as_ref()
            .map_or("not drawn".to_string(), |d| d.id.to_string());
        let done = r.boards.iter().filter(|b| b.result.is_some()).count();
        let stages: String = r
            .stage_draws
            .iter()
            .enumerate()
            .map(|(k, d)| format!(", tiebreak stage {} position {}", k + 1, d.id))
            .collect();
        let _ = writeln!(
            out,
            "Round {round}: position {pos}{stages}, {}",
            if r.paired {
                format!("{} boards, {done} results in", r.boards.len())
            } else {
                "not paired".into()
            }
        );
    }
    out += &knockout::bracket_text(e);
    out
}

fn export(store: &Db, a: &ExportArgs) -> CliResult<String> {
    let s = load(store, &a.event)?;
    let text = match a.format.trim() {
        "trf" if s.event.knockout_plan().is_some() => {
            return Err(CliError::new(
                "TRF-16 has one game per player and round, which a knockout's mini-matches are not: export PGN or JSON",
            ))
        }
        "trf" => trf::write(&to_trf(&s.event)),
        "json" => to_json(&s.event),
        "pgn" => {
            let lookup = |key: &str| -> Option<chess960_pgn::Game> {
                let game = store
                    .games()
                    .game_by_key(&chess960_store::GameKey::parse(key)?)
                    .ok()??;
                chess960_store::pgn::to_pgn(&game).ok()
            };
            to_pgn(&s.event, &lookup)
        }
        other => {
            return Err(CliError::new(format!(
                "--format {} (trf, pgn or json)",
                quote(other)
            )))
        }
    };
    match &a.output {
        Some(path) => {
            std::fs::write(path, &text)
                .map_err(|e| CliError::new(format!("{}: {e}", path.display())))?;
            Ok(format!("wrote {} ({} bytes)\n", path.display(), text.len()))
        }
        None => Ok(text),
    }
}

/// The most bytes an imported file may have.
const MAX_IMPORT: u64 = 50 << 20;

fn import(store: &Db, a: &ImportArgs) -> CliResult<String> {
    let meta = std::fs::metadata(&a.file)
        .map_err(|e| CliError::new(format!("{}: {e}", a.file.display())))?;
    if meta.len() > MAX_IMPORT {
        return Err(CliError::new(format!(
            "{}: larger than {} MB",
            a.file.display(),
            MAX_IMPORT >> 20
        )));
    }
    let text = std::fs::read_to_string(&a.file)
        .map_err(|e| CliError::new(format!("{}: {e}", a.file.display())))?;
    // JSON or TRF, and every check a live event passes (counts, sizes, names, indices,
    // rounds, results, draws): an imported event is one the live operations could have made.
    let event = chess960_events::import::read(&text)
        .map_err(|e| CliError::new(format!("{}: {e}", a.file.display())))?;
    let s = store
        .ev()
        .create_event(&event, None)
        .map_err(|e| CliError::new(e.to_string()))?;
    Ok(format!(
        "event {} \"{}\" imported: {} players, {} rounds paired\n",
        s.id,
        event.name,
        event.players.len(),
        event.rounds_paired()
    ))
}
