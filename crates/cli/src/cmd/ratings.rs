//! `chess960 ratings`: a rating list with error margins over games in the database, computed
//! as engine rating lists compute one (`chess960_arena::ratings`: maximum likelihood in the
//! logistic Elo model), and each player's performance per start position.
//!
//! This module only selects the games and prints; the model and its reasons are in the
//! library, which knows nothing of the database.

use crate::cmd::db::{open, parse_date};
use crate::cmd::json_line;
use crate::error::{quote, CliError, CliResult};
use crate::input::{parse_id, ID_HELP};
use chess960_arena::ratings::{rating_list, Anchor, NamedGame, Options, Prior, RatingError};
use chess960_store::{GameFilter, GameResult, GameStore, StoreError};
use clap::Args;
use std::collections::HashSet;
use std::fmt::Write as _;
use std::path::PathBuf;

/// Arguments of `chess960 ratings`.
#[derive(Debug, Args)]
#[command(
    about = "A rating list with error margins over games in the database (as Ordo, BayesElo, CCRL)",
    long_about = "Rate the players of a set of games in the game database the way engine rating \
lists do: one rating per player, by maximum likelihood over all the games at once.\n\n\
Model: the logistic Elo model, White's expected score F(Rw - Rb) = 1/(1+10^(-(Rw-Rb)/400)); a \
draw counts as half a win and half a loss (as Ordo does by default). The ratings maximise the \
likelihood of the results (Newton's method, to 1e-6 Elo); at the maximum every player's \
expected score equals their actual score. Only differences are determined: the average of the \
listed players is 0 (--average R to choose another), or one player is fixed (--anchor \
NAME=RATING).\n\n\
Margins: ± is a 95 % interval, 1.96 standard errors from the inverse of the Fisher information \
(the Hessian of the log-likelihood at the maximum) under the anchor's constraint: the \
uncertainty of each player's distance to the average, or to the anchored player (whose margin \
is then 0). --bootstrap N adds margins from N resamples of the games (1.96 standard \
deviations, seeded by --seed).\n\n\
Perfect scores: a player (or group) who won every game against the rest (or lost every one) \
has no finite maximum-likelihood rating. Then, and only then, every player gets one virtual \
draw against a virtual opponent at the pool's average (a prior like BayesElo's), and the list \
says so; --prior D sets the number of virtual draws (0 refuses such a pool).\n\n\
--per-start adds each player's performance per start position: games, points and the \
performance rating (the rating at which the expected score against that position's opponents, \
rated as in the list, equals the points; 0 % and 100 % are shown as the opponents' average \
∓/± 800, marked < and >).\n\n\
Games: finished games (1-0, 0-1, 1/2-1/2) of the database; unfinished and aborted games are \
left out. --event takes an event of the database (its key or number, 'chess960 event list') or \
else the PGN Event tag of imported games.",
    after_help = "JSON (--json), one line:\n  \
{\"games\":112,\"players\":[{\"rank\":1,\"name\":\"Stockfish 260614\",\"rating\":403.1,\
\"error\":102.2,\"margin\":200.4,\"bootstrap_margin\":null,\"games\":28,\"wins\":23,\"draws\":4,\
\"losses\":1,\"points\":25.0,\"score\":0.893,\"draw_rate\":0.143,\"opponents_average\":-57.6,\
\"per_start\":[{\"start_id\":16,\"games\":1,\"points\":1.0,\"score\":1.0,\
\"opponents_average\":271.2,\"performance\":1071.2,\"bounded\":true}]}],\
\"anchor_player\":null,\"anchor_rating\":0.0,\"prior_draws\":0.0,\"iterations\":7,\
\"bootstrap\":null}\n\
(per_start is empty without --per-start; rank is null for players under --min-games, who are \
rated but not listed; bootstrap is {\"resamples\",\"used\",\"seed\"} with --bootstrap)\n\n\
Examples:\n  \
chess960 db import TCEC_Season_6_-_FRC.pgn && chess960 ratings\n  \
chess960 ratings --event \"TCEC Season 6 - FRC\" --anchor \"Stockfish 260614=3200\"\n  \
chess960 ratings --player Stockfish --player Komodo --player Houdini --since 2024\n  \
chess960 ratings --min-games 20 --bootstrap 1000 --per-start --json"
)]
pub struct RatingsArgs {
    /// The game database: a SQLite file or a postgres:// address (default: $CHESS960_DB,
    /// else games.sqlite3 in the user's data directory).
    #[arg(long, value_name = "PATH|URL")]
    pub db: Option<PathBuf>,
    /// Only the games of this event: an event of the database (key or number), else games
    /// whose PGN Event tag is this (case-insensitive).
    #[arg(long, value_name = "KEY")]
    pub event: Option<String>,
    /// Only games among these players (repeat the option); one name alone: that player's
    /// games, with their opponents. Names are matched case-insensitively.
    #[arg(long, value_name = "NAME")]
    pub player: Vec<String>,
    /// Only games on or after this date: YYYY.MM.DD, YYYY-MM-DD, YYYY.MM or YYYY (the PGN
    /// Date tag, else the day the game was stored).
    #[arg(long, value_name = "DATE")]
    pub since: Option<String>,
    /// Only games on or before this date (same forms; a year or month includes all of it).
    #[arg(long, value_name = "DATE")]
    pub until: Option<String>,
    /// Only games from this start position (0..959; 518 = classical).
    #[arg(long, value_name = "N", long_help = ID_HELP)]
    pub start_id: Option<String>,
    /// Fix one player's rating instead of the average: NAME=RATING.
    #[arg(long, value_name = "NAME=RATING", conflicts_with = "average")]
    pub anchor: Option<String>,
    /// The average rating of the listed players.
    #[arg(
        long,
        value_name = "R",
        default_value_t = 0.0,
        allow_negative_numbers = true
    )]
    pub average: f64,
    /// List only players with at least N games (the others are rated, as their games count
    /// for their opponents, but not listed nor part of the average).
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub min_games: u32,
    /// Virtual draws per player against the pool's average: auto (one, only when some
    /// player's rating would be infinite) or a number (0: never).
    #[arg(
        long,
        value_name = "auto|D",
        default_value = "auto",
        allow_negative_numbers = true
    )]
    pub prior: String,
    /// Also margins from N bootstrap resamples of the games.
    #[arg(long, value_name = "N")]
    pub bootstrap: Option<u32>,
    /// The bootstrap's seed.
    #[arg(long, value_name = "S", default_value_t = 1, requires = "bootstrap")]
    pub seed: u64,
    /// Add each player's performance per start position.
    #[arg(long)]
    pub per_start: bool,
    /// Print one line of JSON (shape below).
    #[arg(long)]
    pub json: bool,
}

fn store_error(e: StoreError) -> CliError {
    CliError::new(e.to_string())
}

/// White's score of a finished game (`None` for `*`).
fn white_score(result: GameResult) -> Option<f64> {
    match result {
        GameResult::WhiteWins => Some(1.0),
        GameResult::Draw => Some(0.5),
        GameResult::BlackWins => Some(0.0),
        GameResult::Unknown => None,
    }
}

/// The games of `event`: an event of the database by key or number, else the PGN Event tag.
/// `None` keeps every game.
fn event_games(store: &dyn GameStore, event: &str) -> CliResult<EventSelection> {
    if let Some(events) = store.event_store() {
        match events.event(event) {
            Ok(stored) => {
                let keys = stored
                    .event
                    .played
                    .iter()
                    .flat_map(|r| &r.boards)
                    .filter_map(|b| b.game.clone())
                    .collect();
                return Ok(EventSelection::Keys(keys));
            }
            Err(StoreError::NoSuchEvent(_)) => {}
            Err(e) => return Err(store_error(e)),
        }
    }
    Ok(EventSelection::Tag(event.to_owned()))
}

/// How `--event` selects games.
enum EventSelection {
    /// The games of an event of the database, by key.
    Keys(HashSet<String>),
    /// Games whose PGN Event tag is this.
    Tag(String),
}

/// The games the options select, with what is needed to rate them.
fn select(args: &RatingsArgs, store: &dyn GameStore) -> CliResult<Vec<NamedGame>> {
    let filter = GameFilter {
        start_id: args
            .start_id
            .as_deref()
            .map(parse_id)
            .transpose()?
            .map(|id| id.get()),
        // One name is filtered in the database; several are filtered below.
        player: (args.player.len() == 1).then(|| args.player[0].clone()),
        date_from: args
            .since
            .as_deref()
            .map(|d| parse_date(d, "--since", false))
            .transpose()?,
        date_to: args
            .until
            .as_deref()
            .map(|d| parse_date(d, "--until", true))
            .transpose()?,
        aborted: Some(false),
        ..GameFilter::default()
    };
    let event = args
        .event
        .as_deref()
        .map(|e| event_games(store, e))
        .transpose()?;
    let mut summaries = store.list(&filter).map_err(store_error)?;
    // The list is newest first; rate in the order played (only the bootstrap's draws see it).
    summaries.reverse();
    let mut games = Vec::new();
    for s in summaries {
        let Some(score) = white_score(s.result) else {
            continue;
        };
        let selected = match &event {
            None => true,
            Some(EventSelection::Keys(keys)) => keys.contains(s.key.as_str()),
            // The tag is read only when asked for: a game's tags are not in the list.
            Some(EventSelection::Tag(tag)) => {
                store.game(s.id).map_err(store_error)?.is_some_and(|game| {
                    game.game
                        .tags
                        .iter()
                        .any(|(k, v)| k == "Event" && v.trim().eq_ignore_ascii_case(tag.trim()))
                })
            }
        };
        if !selected {
            continue;
        }
        games.push(NamedGame {
            white: s.white,
            black: s.black,
            score,
            start_id: s.start_id,
        });
    }
    if games.is_empty() {
        let mut what = Vec::new();
        if let Some(e) = &args.event {
            what.push(format!("event {}", quote(e)));
        }
        if let Some(p) = args.player.first().filter(|_| args.player.len() == 1) {
            what.push(format!("player {}", quote(p)));
        }
        if args.since.is_some() || args.until.is_some() {
            what.push("these dates".into());
        }
        if args.start_id.is_some() {
            what.push("this start position".into());
        }
        return Err(CliError::new(if what.is_empty() {
            format!("no finished games in {} to rate", store.describe())
        } else {
            format!(
                "no finished games for {} in {}",
                what.join(", "),
                store.describe()
            )
        }));
    }
    if args.player.len() > 1 {
        // Every name must be a player of the selection: a typing error would otherwise
        // silently shrink the list.
        for name in &args.player {
            let known = games
                .iter()
                .any(|g| g.white.eq_ignore_ascii_case(name) || g.black.eq_ignore_ascii_case(name));
            if !known {
                return Err(CliError::new(format!(
                    "unknown player {}: no finished game in the selection",
                    quote(name)
                )));
            }
        }
        let named = |n: &str| args.player.iter().any(|p| p.eq_ignore_ascii_case(n));
        games.retain(|g| named(&g.white) && named(&g.black));
        if games.is_empty() {
            return Err(CliError::new(
                "the players named played no finished game against each other".to_string(),
            ));
        }
    }
    Ok(games)
}

/// `NAME=RATING` (the last `=` splits, so that a name may hold one).
fn parse_anchor(text: &str) -> CliResult<(String, f64)> {
    let bad = || {
        CliError::new(format!(
            "invalid --anchor '{}': expected NAME=RATING, e.g. 'Stockfish=3500'",
            quote(text)
        ))
    };
    let (name, rating) = text.rsplit_once('=').ok_or_else(bad)?;
    let rating: f64 = rating.trim().parse().map_err(|_| bad())?;
    if name.trim().is_empty() || !rating.is_finite() {
        return Err(bad());
    }
    Ok((name.trim().to_owned(), rating))
}

fn parse_prior(text: &str) -> CliResult<Prior> {
    if text.eq_ignore_ascii_case("auto") {
        return Ok(Prior::Auto);
    }
    match text.trim().parse::<f64>() {
        Ok(d) if d.is_finite() && d >= 0.0 => Ok(Prior::Draws(d)),
        _ => Err(CliError::new(format!(
            "invalid --prior '{}': expected auto or a number of virtual draws (0 or more)",
            quote(text)
        ))),
    }
}

/// Runs `chess960 ratings`.
pub fn run(args: &RatingsArgs) -> CliResult<String> {
    let anchor = match &args.anchor {
        Some(text) => {
            let (name, rating) = parse_anchor(text)?;
            Anchor::Player(name, rating)
        }
        None => Anchor::Average(args.average),
    };
    let options = Options {
        anchor,
        prior: parse_prior(&args.prior)?,
        min_games: args.min_games,
        bootstrap: args.bootstrap.map(|n| (n, args.seed)),
    };
    let store = open(args.db.as_deref())?;
    let games = select(args, &*store)?;
    let mut list = rating_list(&games, &options).map_err(|e| match e {
        RatingError::UnknownAnchor(name) => CliError::new(format!(
            "unknown player {} in --anchor: no finished game in the selection",
            quote(&name)
        )),
        other => CliError::new(other.to_string()),
    })?;
    if !args.per_start {
        for p in &mut list.players {
            p.per_start.clear();
        }
    }
    if args.json {
        return json_line(&list);
    }
    Ok(table(&list, args.per_start))
}

/// The list as rating lists print it.
fn table(list: &chess960_arena::ratings::RatingList, per_start: bool) -> String {
    let listed: Vec<_> = list.players.iter().filter(|p| p.rank.is_some()).collect();
    let width = listed
        .iter()
        .map(|p| p.name.chars().count())
        .max()
        .unwrap_or(6)
        .max(6);
    let boot = list.bootstrap.is_some();
    let mut out = String::new();
    let _ = write!(
        out,
        "{:>4}  {:<width$}  {:>8}  {:>6}",
        "Rank", "Player", "Rating", "±"
    );
    if boot {
        let _ = write!(out, "  {:>6}", "boot ±");
    }
    let _ = writeln!(out, "  {:>6}  {:>6}  {:>6}", "Games", "Score", "Draws");
    for p in &listed {
        let _ = write!(
            out,
            "{:>4}  {:<width$}  {:>8.1}  {:>6.1}",
            p.rank.unwrap_or(0),
            p.name,
            p.rating,
            p.margin
        );
        if boot {
            match p.bootstrap_margin {
                Some(m) => {
                    let _ = write!(out, "  {m:>6.1}");
                }
                None => {
                    let _ = write!(out, "  {:>6}", "-");
                }
            }
        }
        let _ = writeln!(
            out,
            "  {:>6}  {:>5.1}%  {:>5.1}%",
            p.games,
            100.0 * p.score,
            100.0 * p.draw_rate
        );
    }
    let _ = writeln!(out);
    let origin = match &list.anchor_player {
        Some(name) => format!("{name} fixed at {:.1}", list.anchor_rating),
        None => format!("average of the listed players {:.1}", list.anchor_rating),
    };
    let _ = writeln!(
        out,
        "{} games, {} players; maximum likelihood, logistic Elo, draws half a win; {origin}.",
        list.games,
        list.players.len()
    );
    let _ = writeln!(
        out,
        "± is a 95 % interval (1.96 standard errors from the Fisher information{}).",
        if boot {
            "; boot ± from the bootstrap"
        } else {
            ""
        }
    );
    if let Some(b) = &list.bootstrap {
        let _ = writeln!(
            out,
            "Bootstrap: {} of {} resamples used (seed {}).",
            b.used, b.resamples, b.seed
        );
    }
    if list.prior_draws > 0.0 {
        let _ = writeln!(
            out,
            "Prior: {} virtual draw(s) per player against the pool's average (some player's \
             maximum-likelihood rating is infinite).",
            list.prior_draws
        );
    }
    let hidden = list.players.len() - listed.len();
    if hidden > 0 {
        let _ = writeln!(
            out,
            "{hidden} player(s) with fewer games rated but not listed (--min-games)."
        );
    }
    if per_start {
        for p in &listed {
            let _ = writeln!(
                out,
                "\n{} ({:.1}): performance per start position",
                p.name, p.rating
            );
            let _ = writeln!(
                out,
                "  {:>5}  {:>5}  {:>7}  {:>6}  {:>8}  {:>8}",
                "Start", "Games", "Points", "Score", "Opp avg", "Perf"
            );
            for s in &p.per_start {
                let start = s.start_id.map_or("-".to_string(), |id| id.to_string());
                let mark = if !s.bounded {
                    " "
                } else if s.performance > s.opponents_average {
                    ">"
                } else {
                    "<"
                };
                let _ = writeln!(
                    out,
                    "  {start:>5}  {:>5}  {:>7}  {:>5.1}%  {:>8.1}  {mark}{:>7.1}",
                    s.games,
                    s.points,
                    100.0 * s.score,
                    s.opponents_average,
                    s.performance
                );
            }
        }
    }
    out
}
