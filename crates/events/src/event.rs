//! An event as the arbiter runs it: its players, its format, and round by round the start
//! position, the pairings and the results. Every change goes through a method that checks it
//! and returns an [`EventError`] naming the player, round or board at fault; a failed change
//! leaves the event as it was. The whole event is one serialisable value: the store keeps it
//! as one document, export and import move it whole.

use crate::accel::{baku_group_size, baku_row, Acceleration};
use crate::knockout::{Field, KnockoutPlan, MatchState, MatchView, StageKind};
use crate::model::{ByeKind, Color, Outcome, PointSystem, Round, SwissHistory, SwissPlayer};
use crate::position::{DrawKind, PositionDraw, PositionError, PositionRules};
pub use crate::round::{Board, BoardResult, EventRound, RoundBye, Slot};
use crate::roundrobin::berger;
use crate::swiss::{pair_dutch_with_progress, PairingError, Progress};
use chess960_core::StartId;
use serde::{Deserialize, Serialize};
use std::fmt;

/// The format of the event.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "system")]
pub enum Format {
    /// Swiss by the FIDE Dutch system.
    Swiss,
    /// Round robin by the Berger tables: `cycles` 1 (single) or 2 (double).
    RoundRobin {
        /// 1 or 2.
        cycles: u32,
    },
    /// A knockout: mini-matches in a bracket, with tiebreak stages ([`crate::knockout`]).
    Knockout(KnockoutPlan),
}

/// How positions are drawn in this event.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PositionPlan {
    /// What every draw must respect.
    #[serde(default)]
    pub rules: PositionRules,
    /// A new position for each board instead of one per round.
    #[serde(default)]
    pub per_board: bool,
    /// A double round robin's second cycle plays each pairing on the position of its first
    /// game, colours swapped.
    #[serde(default)]
    pub second_cycle_repeats: bool,
    /// Positions fixed before the event, one per round (as FIDE's Freestyle events publish).
    #[serde(default)]
    pub list: Vec<u16>,
}

/// A tie-break (FIDE C.07).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Tiebreak {
    /// Buchholz: the opponents' scores.
    Buchholz,
    /// Buchholz without the least significant value.
    BuchholzCut1,
    /// Sonneborn-Berger: the scores of the opponents beaten, half of those drawn.
    SonnebornBerger,
    /// Direct encounter: points among the tied players, when all of them have met.
    DirectEncounter,
    /// Games won over the board.
    Wins,
}

impl Tiebreak {
    /// Every tie-break, by its name.
    pub const ALL: [Tiebreak; 5] = [
        Tiebreak::Buchholz,
        Tiebreak::BuchholzCut1,
        Tiebreak::SonnebornBerger,
        Tiebreak::DirectEncounter,
        Tiebreak::Wins,
    ];

    /// The short name (`bh`, `bh-c1`, `sb`, `de`, `wins`).
    pub fn name(self) -> &'static str {
        match self {
            Tiebreak::Buchholz => "bh",
            Tiebreak::BuchholzCut1 => "bh-c1",
            Tiebreak::SonnebornBerger => "sb",
            Tiebreak::DirectEncounter => "de",
            Tiebreak::Wins => "wins",
        }
    }

    /// By short name.
    pub fn parse(s: &str) -> Option<Tiebreak> {
        Tiebreak::ALL.into_iter().find(|t| t.name() == s.trim())
    }

    /// The usual list for a format: Swiss BH-C1, BH, DE, wins; round robin DE, SB, wins.
    pub fn defaults(format: &Format) -> Vec<Tiebreak> {
        match format {
            Format::Swiss => vec![
                Tiebreak::BuchholzCut1,
                Tiebreak::Buchholz,
                Tiebreak::DirectEncounter,
                Tiebreak::Wins,
            ],
            Format::RoundRobin { .. } => vec![
                Tiebreak::DirectEncounter,
                Tiebreak::SonnebornBerger,
                Tiebreak::Wins,
            ],
            // A knockout's ties are broken by the games of its tiebreak stages.
            Format::Knockout(_) => Vec::new(),
        }
    }
}

/// A bye a player asked for, or an absence.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ByeRequest {
    /// A half-point bye.
    Half,
    /// A zero-point bye.
    Zero,
    /// A full-point bye.
    Full,
}

/// A player of the event.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Player {
    /// `Surname, Given name` as the TRF writes it, or any name.
    pub name: String,
    /// FIDE rating.
    #[serde(default)]
    pub rating: Option<u16>,
    /// FIDE ID.
    #[serde(default)]
    pub fide_id: Option<u64>,
    /// Federation, three letters.
    #[serde(default)]
    pub federation: String,
    /// Title.
    #[serde(default)]
    pub title: String,
    /// The first round the player can be paired in (a late entry: later than 1).
    #[serde(default = "one")]
    pub joined: u32,
    /// Withdrawn from this round on.
    #[serde(default)]
    pub withdrawn: Option<u32>,
    /// Byes asked for, by round.
    #[serde(default)]
    pub byes: Vec<(u32, ByeRequest)>,
    /// The player's account on the server that runs the event, if they have one: the event's
    /// games played on the server are bound to it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub account: Option<String>,
    /// The engine that plays for this player: the name of an engine the server's owner
    /// registered (`chess960 engine add`). The server (or `chess960 event run`) plays a board
    /// whose two players are engines by itself.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub engine: Option<String>,
}

impl Player {
    /// A player of this name, with nothing else known: no rating, no FIDE ID, federation or
    /// title, entered from round 1, no byes asked for.
    pub fn named(name: impl Into<String>) -> Player {
        Player {
            name: name.into(),
            rating: None,
            fide_id: None,
            federation: String::new(),
            title: String::new(),
            joined: 1,
            withdrawn: None,
            byes: Vec::new(),
            account: None,
            engine: None,
        }
    }
}

fn one() -> u32 {
    1
}

/// The event.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Event {
    /// The name.
    pub name: String,
    /// City.
    #[serde(default)]
    pub city: String,
    /// Federation of the organiser.
    #[serde(default)]
    pub federation: String,
    /// First day, `YYYY-MM-DD`.
    #[serde(default)]
    pub start_date: String,
    /// Last day.
    #[serde(default)]
    pub end_date: String,
    /// Chief arbiter.
    #[serde(default)]
    pub arbiter: String,
    /// Time control, as announced (`90+30`).
    #[serde(default)]
    pub time_control: String,
    /// Swiss or round robin.
    pub format: Format,
    /// Rounds planned.
    pub rounds: u32,
    /// Tie-breaks in order.
    pub tiebreaks: Vec<Tiebreak>,
    /// Position drawing.
    #[serde(default)]
    pub positions: PositionPlan,
    /// Points (tenths).
    #[serde(default = "default_points")]
    pub points: Points,
    /// The colour of pairing number 1 in round 1 (Swiss; drawn by lot when the event is made).
    pub initial_color: Side,
    /// The players, in the order they were entered (the number the arbiter uses is index + 1).
    pub players: Vec<Player>,
    /// Pairing order (player indexes), fixed when round 1 is paired; how it was made.
    #[serde(default)]
    pub order: Vec<usize>,
    /// How the pairing order was made (by rating, or the drawing of lots with its seed).
    #[serde(default)]
    pub order_note: String,
    /// The rounds so far (index 0 is round 1).
    #[serde(default)]
    pub played: Vec<EventRound>,
    /// Accelerated pairings (a Swiss only): `none`, `baku` (C.04.5.1, [`crate::accel`]) or
    /// `custom` (the virtual points of [`Event::virtual_points`], from a TRF's `XXA` lines).
    /// Documents from before the option read as `none`.
    #[serde(default)]
    pub acceleration: Acceleration,
    /// With `custom` acceleration: `(player index, virtual points by round in tenths, index 0
    /// round 1)`; players not listed have none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub virtual_points: Vec<(usize, Vec<u32>)>,
    /// The arbiter asked the server to play the engines' games (and has not paused it): a
    /// server that starts finds the event here and goes on playing it.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub engines_play: bool,
}

/// White's and Black's time controls when they differ: `5+0/4+0` (an Armageddon's five
/// minutes for White and four for Black) is `("5+0", "4+0")`. A slash counts so only when both
/// sides of it have a `+`: cutechess's `40/60+0.6` (40 moves in 60 seconds) is one time
/// control. `None`: one time control for both.
pub fn sides_of(tc: &str) -> Option<(&str, &str)> {
    let (white, black) = tc.split_once('/')?;
    let (white, black) = (white.trim(), black.trim());
    (white.contains('+') && black.contains('+') && !black.contains('/')).then_some((white, black))
}

/// A side, as the event document writes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Side {
    /// White.
    White,
    /// Black.
    Black,
}

impl From<Side> for Color {
    fn from(s: Side) -> Color {
        match s {
            Side::White => Color::White,
            Side::Black => Color::Black,
        }
    }
}

/// Points for results, in tenths.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Points {
    /// A win (10).
    pub win: u32,
    /// A draw (5).
    pub draw: u32,
}

fn default_points() -> Points {
    Points { win: 10, draw: 5 }
}

impl Points {
    /// As the pairing reads them (a PAB and a forfeit win count as a win).
    pub fn system(self) -> PointSystem {
        PointSystem {
            win: self.win,
            draw: self.draw,
            loss: 0,
            zero_bye: 0,
            forfeit_loss: 0,
            pab: self.win,
        }
    }
}

/// What is wrong with a change to an event.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EventError {
    /// A number that names no player.
    UnknownPlayer(String),
    /// A round outside the event.
    NoSuchRound(u32),
    /// A board the round does not have.
    NoSuchBoard {
        /// The round.
        round: u32,
        /// The board.
        board: u32,
    },
    /// The round has its pairing already.
    AlreadyPaired(u32),
    /// The round is not paired yet.
    NotPaired(u32),
    /// Rounds are paired in order.
    NotNext {
        /// The round asked for.
        round: u32,
        /// The round that comes next.
        next: u32,
    },
    /// Results are missing in the round before.
    ResultsMissing {
        /// That round.
        round: u32,
        /// Its boards without a result.
        boards: Vec<u32>,
    },
    /// A knockout's round cannot be paired: a match of the round before is undecided.
    MatchUndecided {
        /// The round asked for.
        round: u32,
        /// The undecided match (of round `round − 1`).
        match_no: u32,
        /// The tiebreak stage it waits for when tied; `None` when it waits for results.
        next_stage: Option<u32>,
    },
    /// A knockout's round has no tied match to give a tiebreak stage.
    NothingTied(u32),
    /// The pairing engine found no pairing.
    Pairing(PairingError),
    /// A position that cannot be drawn or set.
    Position(PositionError),
    /// Anything else, said in words.
    Invalid(String),
}

impl fmt::Display for EventError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EventError::UnknownPlayer(p) => write!(f, "no player {p} in this event"),
            EventError::NoSuchRound(r) => write!(f, "no round {r} in this event"),
            EventError::NoSuchBoard { round, board } => {
                write!(f, "round {round} has no board {board}")
            }
            EventError::AlreadyPaired(r) => write!(f, "round {r} is paired already"),
            EventError::NotPaired(r) => write!(f, "round {r} is not paired yet"),
            EventError::NotNext { round, next } => write!(
                f,
                "round {round} cannot be paired: round {next} comes first"
            ),
            EventError::ResultsMissing { round, boards } => write!(
                f,
                "round {round} still needs results on board{} {}",
                if boards.len() == 1 { "" } else { "s" },
                boards
                    .iter()
                    .map(u32::to_string)
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            EventError::MatchUndecided {
                round,
                match_no,
                next_stage,
            } => {
                write!(
                    f,
                    "round {round} cannot be paired: match {match_no} of round {} ",
                    round.saturating_sub(1)
                )?;
                match next_stage {
                    Some(s) => write!(f, "is tied: its tiebreak stage {s} comes first"),
                    None => write!(f, "still needs results"),
                }
            }
            EventError::NothingTied(r) => write!(
                f,
                "no match of round {r} is tied after its games: no tiebreak to add"
            ),
            EventError::Pairing(e) => write!(f, "{e}"),
            EventError::Position(e) => write!(f, "{e}"),
            EventError::Invalid(m) => f.write_str(m),
        }
    }
}

impl std::error::Error for EventError {}

/// The most players an event takes: a Swiss round of 1,000 players takes under a minute of a
/// core to pair (docs/performance.md), about as long as bbpPairings takes.
pub const MAX_PLAYERS: usize = 1000;
/// The most rounds.
pub const MAX_ROUNDS: u32 = 99;
/// The longest name or text field.
pub const MAX_TEXT: usize = 200;
/// The most points (in tenths) a win or a draw gives: 10 points. TRF files set the points
/// (`162`), JSON documents carry them; the bound keeps every sum of points far from overflow.
pub const MAX_POINTS: u32 = 100;

/// Tenths as points (`5` → `0.5`).
fn tenths(p: u32) -> String {
    format!("{}.{}", p / 10, p % 10)
}

fn text(what: &str, s: &str) -> Result<String, EventError> {
    let t = s.trim();
    // `nth` rather than `count`: a 10 MB text is refused as fast as a short one.
    if t.chars().nth(MAX_TEXT).is_some() {
        return Err(EventError::Invalid(format!(
            "{what} is longer than {MAX_TEXT} characters"
        )));
    }
    if t.chars().any(|c| c.is_control()) {
        return Err(EventError::Invalid(format!(
            "{what} has a control character"
        )));
    }
    Ok(t.to_string())
}

impl Event {
    /// A new event with no player. `initial_color`: the lot for pairing number 1's colour.
    pub fn new(
        name: &str,
        format: Format,
        rounds: u32,
        initial_color: Side,
    ) -> Result<Event, EventError> {
        let name = text("the name", name)?;
        if name.is_empty() {
            return Err(EventError::Invalid("an event needs a name".into()));
        }
        let rounds = match format {
            Format::RoundRobin { cycles } if !(1..=2).contains(&cycles) => {
                return Err(EventError::Invalid(format!(
                    "a round robin has 1 or 2 cycles, not {cycles}"
                )));
            }
            // A round robin's rounds follow from its players; 0 until they are known.
            Format::RoundRobin { .. } => rounds,
            Format::Swiss if !(1..=MAX_ROUNDS).contains(&rounds) => {
                return Err(EventError::Invalid(format!(
                    "a Swiss has 1 to {MAX_ROUNDS} rounds, not {rounds}"
                )));
            }
            Format::Swiss => rounds,
            Format::Knockout(ref plan) => {
                plan.check().map_err(EventError::Invalid)?;
                rounds
            }
        };
        let tiebreaks = Tiebreak::defaults(&format);
        Ok(Event {
            name,
            city: String::new(),
            federation: String::new(),
            start_date: String::new(),
            end_date: String::new(),
            arbiter: String::new(),
            time_control: String::new(),
            format,
            rounds,
            tiebreaks,
            positions: PositionPlan::default(),
            points: default_points(),
            initial_color,
            players: Vec::new(),
            order: Vec::new(),
            order_note: String::new(),
            played: Vec::new(),
            acceleration: Acceleration::None,
            virtual_points: Vec::new(),
            engines_play: false,
        })
    }

    /// Sets the acceleration of a Swiss before round 1 is paired. `custom` is not set this
    /// way (it comes with its virtual points from a TRF import). The Baku method presumes
    /// that a draw gives half a win's points (C.04.5.1, premise).
    pub fn set_acceleration(&mut self, a: Acceleration) -> Result<(), EventError> {
        if a == self.acceleration {
            return Ok(());
        }
        if self.format != Format::Swiss && a != Acceleration::None {
            return Err(EventError::Invalid(
                "only a Swiss has accelerated pairings".into(),
            ));
        }
        if self.rounds_paired() > 0 {
            return Err(EventError::Invalid(
                "the acceleration is chosen before round 1 is paired".into(),
            ));
        }
        match a {
            Acceleration::Custom => {
                return Err(EventError::Invalid(
                    "custom virtual points come only from a TRF file's XXA lines".into(),
                ))
            }
            Acceleration::Baku if 2 * self.points.draw != self.points.win => {
                return Err(EventError::Invalid(format!(
                    "the Baku acceleration needs a draw to give half a win's points (here a \
                     win gives {}, a draw {})",
                    tenths(self.points.win),
                    tenths(self.points.draw)
                )))
            }
            _ => {}
        }
        self.acceleration = a;
        self.virtual_points.clear();
        Ok(())
    }

    /// Each player's virtual points by round (index 0: round 1, in tenths; an empty list:
    /// none), indexed like [`Event::players`]. Baku (C.04.5.1): GA is the first
    /// `2 · ⌈n / 4⌉` of the `n` players entered for round 1 (`joined` 1, not withdrawn from
    /// round 1) in the pairing order; a later entry placed above GA's last player is in GA
    /// too, since "the last GA-player shall be the same as in the previous round". One point
    /// is a win's points, half a point a draw's.
    pub fn acceleration_table(&self) -> Vec<Vec<u32>> {
        let n = self.players.len();
        let mut table = vec![Vec::new(); n];
        match self.acceleration {
            Acceleration::None => {}
            Acceleration::Custom => {
                for (i, v) in &self.virtual_points {
                    if let Some(row) = table.get_mut(*i) {
                        row.clone_from(v);
                    }
                }
            }
            Acceleration::Baku => {
                let order: Vec<usize> = self
                    .pairing_order()
                    .into_iter()
                    .filter(|&i| i < n)
                    .collect();
                // Round 1's pairing list: entered for round 1, not withdrawn before it.
                let initial_player = |i: usize| {
                    let p = &self.players[i];
                    p.joined <= 1 && p.withdrawn.is_none_or(|w| w > 1)
                };
                let initial = order.iter().filter(|&&i| initial_player(i)).count();
                let ga = baku_group_size(initial);
                // The GA player ranked last among the initial players; everyone above him
                // in the pairing order is in GA.
                let last = order
                    .iter()
                    .enumerate()
                    .filter(|&(_, &i)| initial_player(i))
                    .nth(ga.saturating_sub(1))
                    .map(|(k, _)| k);
                let total = self.total_rounds() as usize;
                for (k, &i) in order.iter().enumerate() {
                    let in_ga = ga > 0 && last.is_some_and(|l| k <= l);
                    table[i] = baku_row(in_ga, total, self.points.win, self.points.draw);
                }
            }
        }
        table
    }

    /// Rounds paired so far.
    pub fn rounds_paired(&self) -> u32 {
        self.played.iter().take_while(|r| r.paired).count() as u32
    }

    /// The rounds the event will have: planned for a Swiss; for a round robin, what its
    /// players make.
    pub fn total_rounds(&self) -> u32 {
        match self.format {
            Format::Swiss => self.rounds,
            Format::Knockout(_) => crate::knockout::rounds_for(self.players.len()),
            Format::RoundRobin { cycles } => {
                // Saturating: a stored document may hold any count (`validate` bounds them).
                let n = u32::try_from(self.players.len()).unwrap_or(u32::MAX);
                if n < 2 {
                    0
                } else {
                    (n.saturating_add(n % 2) - 1).saturating_mul(cycles)
                }
            }
        }
    }

    /// The player by the arbiter's number (1-based, in entry order) or by exact name.
    pub fn player(&self, who: &str) -> Result<usize, EventError> {
        let w = who.trim();
        if let Ok(n) = w.parse::<usize>() {
            if (1..=self.players.len()).contains(&n) {
                return Ok(n - 1);
            }
            return Err(EventError::UnknownPlayer(w.to_string()));
        }
        let found: Vec<usize> = (0..self.players.len())
            .filter(|&i| self.players[i].name.eq_ignore_ascii_case(w))
            .collect();
        match found.as_slice() {
            [i] => Ok(*i),
            [] => Err(EventError::UnknownPlayer(format!("{w:?}"))),
            _ => Err(EventError::Invalid(format!(
                "{} players are called {w:?}: use their number",
                found.len()
            ))),
        }
    }

    fn round_mut(&mut self, round: u32) -> Result<&mut EventRound, EventError> {
        let total = self.total_rounds();
        if round == 0 || (total > 0 && round > total) || round > MAX_ROUNDS {
            return Err(EventError::NoSuchRound(round));
        }
        while self.played.len() < round as usize {
            self.played.push(EventRound::default());
        }
        Ok(&mut self.played[round as usize - 1])
    }

    /// Enters a player; in a Swiss already under way, a late entry from the next round.
    /// Returns the player's number (index + 1).
    pub fn add_player(&mut self, mut p: Player) -> Result<usize, EventError> {
        p.name = text("the player's name", &p.name)?;
        p.federation = text("the federation", &p.federation)?;
        p.title = text("the title", &p.title)?;
        if p.name.is_empty() {
            return Err(EventError::Invalid("a player needs a name".into()));
        }
        if let Some(engine) = &p.engine {
            let engine = text("the engine's name", engine)?;
            if engine.is_empty() {
                return Err(EventError::Invalid(
                    "an engine player needs the engine's name".into(),
                ));
            }
            if p.account.is_some() {
                return Err(EventError::Invalid(
                    "a player is a person with an account or an engine, not both".into(),
                ));
            }
            p.engine = Some(engine);
        }
        if self.players.len() >= MAX_PLAYERS {
            return Err(EventError::Invalid(format!(
                "an event takes at most {MAX_PLAYERS} players"
            )));
        }
        if let Some(account) = &p.account {
            if let Some(k) = self.players.iter().position(|q| {
                q.account
                    .as_deref()
                    .is_some_and(|a| a.eq_ignore_ascii_case(account))
            }) {
                return Err(EventError::Invalid(format!(
                    "the account {account:?} is entered already (number {})",
                    k + 1
                )));
            }
        }
        if let Some(k) = self
            .players
            .iter()
            .position(|q| q.name.eq_ignore_ascii_case(&p.name))
        {
            return Err(EventError::Invalid(format!(
                "a player called {:?} is entered already (number {}): add something to tell them apart",
                p.name,
                k + 1
            )));
        }
        let paired = self.rounds_paired();
        if paired > 0 && matches!(self.format, Format::RoundRobin { .. }) {
            return Err(EventError::Invalid(
                "a round robin under way takes no new player".into(),
            ));
        }
        if paired > 0 && matches!(self.format, Format::Knockout(_)) {
            return Err(EventError::Invalid(
                "a knockout under way takes no new player: its bracket is drawn".into(),
            ));
        }
        if paired >= self.total_rounds() && paired > 0 {
            return Err(EventError::Invalid(
                "every round is paired: the event takes no new player".into(),
            ));
        }
        p.joined = p.joined.max(paired + 1);
        p.withdrawn = None;
        p.byes.clear();
        self.players.push(p);
        let i = self.players.len() - 1;
        if !self.order.is_empty() {
            // A late entry takes the place its rating gives it in the pairing order.
            let key = |e: &Event, j: usize| {
                std::cmp::Reverse(e.players.get(j).and_then(|p| p.rating).unwrap_or(0))
            };
            let at = self
                .order
                .iter()
                .position(|&j| key(self, j) > key(self, i))
                .unwrap_or(self.order.len());
            self.order.insert(at, i);
        }
        Ok(i + 1)
    }

    /// Withdraws a player from `from` on (the next round to pair at the earliest).
    pub fn withdraw(&mut self, player: usize, from: Option<u32>) -> Result<u32, EventError> {
        if matches!(self.format, Format::Knockout(_)) {
            return Err(EventError::Invalid(
                "a knockout has no withdrawals: a player who leaves loses his match by forfeit (enter a forfeit on each of his games)".into(),
            ));
        }
        let next = self.rounds_paired() + 1;
        let from = from.unwrap_or(next);
        if from < next {
            return Err(EventError::AlreadyPaired(from));
        }
        let p = self
            .players
            .get_mut(player)
            .ok_or_else(|| EventError::UnknownPlayer((player + 1).to_string()))?;
        p.withdrawn = Some(from);
        Ok(from)
    }

    /// Records a bye a player asked for in a round not paired yet (Swiss).
    pub fn request_bye(
        &mut self,
        player: usize,
        round: u32,
        kind: ByeRequest,
    ) -> Result<(), EventError> {
        if !matches!(self.format, Format::Swiss) {
            return Err(EventError::Invalid(
                "byes are for Swiss events; in a round robin or a knockout enter a forfeit".into(),
            ));
        }
        if round == 0 || round > self.rounds {
            return Err(EventError::NoSuchRound(round));
        }
        if round <= self.rounds_paired() {
            return Err(EventError::AlreadyPaired(round));
        }
        let p = self
            .players
            .get_mut(player)
            .ok_or_else(|| EventError::UnknownPlayer((player + 1).to_string()))?;
        p.byes.retain(|(r, _)| *r != round);
        p.byes.push((round, kind));
        p.byes.sort_by_key(|(r, _)| *r);
        Ok(())
    }

    /// Positions played so far (rounds before `round`), for "no repeat".
    fn positions_before(&self, round: u32) -> Vec<u16> {
        let mut out = Vec::new();
        for r in self.played.iter().take(round.saturating_sub(1) as usize) {
            if let Some(d) = &r.draw {
                out.push(d.id);
            }
            out.extend(
                r.boards
                    .iter()
                    .filter_map(|b| b.position.as_ref().map(|d| d.id)),
            );
            out.extend(r.stage_draws.iter().map(|d| d.id));
        }
        out
    }

    /// Draws (or sets) the position of `round`. `replace`: draw again over an earlier draw
    /// (not once a result is in).
    pub fn draw_position(
        &mut self,
        round: u32,
        how: DrawSpec,
        replace: bool,
    ) -> Result<&PositionDraw, EventError> {
        let total = self.total_rounds();
        if round == 0 || (total > 0 && round > total) {
            return Err(EventError::NoSuchRound(round));
        }
        let next = self.rounds_paired() + 1;
        if round > next {
            // The positions come in order, so that "no repeat" sees every earlier round.
            return Err(EventError::Invalid(format!(
                "round {next} comes first: draw its position before round {round}'s"
            )));
        }
        let rules = self.positions.rules;
        if rules.no_repeat {
            // A later round's draw left out this round's position: a new one here could be
            // that round's, and its recorded draw would no longer repeat (`verify_draws`).
            let later = self
                .played
                .iter()
                .enumerate()
                .skip(round as usize)
                .find(|(_, r)| r.draw.is_some() || r.boards.iter().any(|b| b.position.is_some()));
            if let Some((k, _)) = later {
                return Err(EventError::Invalid(format!(
                    "round {} has its position already, drawn without repeating round {round}'s: round {round}'s position stays",
                    k + 1
                )));
            }
            if self
                .played
                .get(round as usize - 1)
                .is_some_and(|r| !r.stage_draws.is_empty())
            {
                return Err(EventError::Invalid(format!(
                    "round {round}'s tiebreak positions are drawn already, without repeating its position: it stays"
                )));
            }
        }
        let before = self.positions_before(round);
        let list = self.positions.list.clone();
        let repeat_of = self.repeat_source(round);
        let per_board = self.positions.per_board;
        let r = self.round_mut(round)?;
        if r.boards.iter().any(|b| b.result.is_some()) {
            return Err(EventError::Invalid(format!(
                "round {round} has results already: its position stays"
            )));
        }
        if (r.draw.is_some() || r.boards.iter().any(|b| b.position.is_some())) && !replace {
            return Err(EventError::Invalid(format!(
                "round {round} has its position already (draw again with replace)"
            )));
        }
        let pos = |e: PositionError| EventError::Position(e);
        if per_board {
            let DrawSpec::Computer { seed } = how else {
                return Err(EventError::Invalid(
                    "with a position per board, the computer draws them".into(),
                ));
            };
            if !r.paired {
                return Err(EventError::NotPaired(round));
            }
            let mut played = before;
            for (k, b) in r.boards.iter_mut().enumerate() {
                let d = PositionDraw::computer(seed.wrapping_add(k as u64), rules, &played)
                    .map_err(pos)?;
                played.push(d.id);
                b.position = Some(d);
            }
            r.draw = None;
            return r
                .boards
                .first()
                .and_then(|b| b.position.as_ref())
                .ok_or(EventError::Invalid("the round has no board".into()));
        }
        let d = match (how, repeat_of) {
            (_, Some((src, id))) => PositionDraw {
                id,
                how: DrawKind::Repeat { round: src },
                steps: vec![format!("the position of round {src}, where these pairings played with the other colours")],
            },
            (DrawSpec::Computer { seed }, None) => PositionDraw::computer(seed, rules, &before).map_err(pos)?,
            (DrawSpec::Physical { method, seed, outcomes }, None) => {
                PositionDraw::physical(&method, seed, outcomes.as_deref(), rules, &before).map_err(pos)?
            }
            (DrawSpec::Set(id), None) => PositionDraw::set(id, rules, &before).map_err(pos)?,
            (DrawSpec::List, None) => PositionDraw::listed(&list, round as usize - 1).map_err(pos)?,
        };
        r.draw = Some(d);
        Ok(r.draw.as_ref().expect("just set"))
    }

    /// In a double round robin whose second cycle repeats positions: the first-cycle round
    /// with the same pairings, and its position (drawn already).
    fn repeat_source(&self, round: u32) -> Option<(u32, u16)> {
        let Format::RoundRobin { cycles: 2 } = &self.format else {
            return None;
        };
        if !self.positions.second_cycle_repeats {
            return None;
        }
        let per_cycle = self.total_rounds() / 2;
        if round <= per_cycle {
            return None;
        }
        let table = berger(u32::try_from(self.players.len()).ok()?, 2)?;
        let key = |r: usize| {
            let mut v: Vec<(u32, u32)> = table
                .get(r)?
                .boards
                .iter()
                .map(|&(w, b)| (w.min(b), w.max(b)))
                .collect();
            v.sort_unstable();
            Some(v)
        };
        let want = key(round.checked_sub(1)? as usize)?;
        let src = (0..per_cycle as usize).find(|&r| key(r).as_ref() == Some(&want))?;
        // A position outside 0..959 (a damaged document) is not repeated: drawn anew.
        let id = self.played.get(src)?.draw.as_ref()?.id;
        StartId::new(id as u32).ok()?;
        let src = src as u32 + 1;
        Some((src, id))
    }

    /// The pairing order: fixed once round 1 is paired; before that, for a Swiss the order
    /// round 1 will use (by rating, then name), for a round robin the order of entry (the
    /// lots are drawn when round 1 is paired).
    pub fn pairing_order(&self) -> Vec<usize> {
        if !self.order.is_empty() {
            return self.order.clone();
        }
        let mut order: Vec<usize> = (0..self.players.len()).collect();
        let by_rating = match &self.format {
            Format::Swiss => true,
            Format::Knockout(plan) => plan.seeding == crate::knockout::Seeding::Rating,
            Format::RoundRobin { .. } => false,
        };
        if by_rating {
            order.sort_by(|&a, &b| {
                let (pa, pb) = (&self.players[a], &self.players[b]);
                pb.rating
                    .unwrap_or(0)
                    .cmp(&pa.rating.unwrap_or(0))
                    .then(pa.name.cmp(&pb.name))
            });
        }
        order
    }

    /// The pairing order, made when round 1 is paired: a Swiss by rating (then name), a
    /// round robin by drawing lots from `seed`.
    fn fix_order(&mut self, seed: u64) {
        if !self.order.is_empty() {
            return;
        }
        let mut order: Vec<usize> = (0..self.players.len()).collect();
        match &self.format {
            Format::Swiss => {
                order = self.pairing_order();
                self.order_note = "by rating, then name (C.04.2)".into();
            }
            Format::Knockout(plan) if plan.seeding == crate::knockout::Seeding::Rating => {
                order = self.pairing_order();
                self.order_note = "seeded by rating, then name".into();
            }
            Format::Knockout(_) => {
                let mut rng = crate::position::SplitMix(seed);
                for i in (1..order.len()).rev() {
                    order.swap(i, rng.below(i as u64 + 1) as usize);
                }
                self.order_note = format!("seeds drawn by lot (seed {seed})");
            }
            Format::RoundRobin { .. } => {
                // Fisher-Yates with the generator of the computer's draws: anyone can redo the
                // lots from the seed.
                let mut rng = crate::position::SplitMix(seed);
                for i in (1..order.len()).rev() {
                    order.swap(i, rng.below(i as u64 + 1) as usize);
                }
                self.order_note = format!("pairing numbers drawn by lot (seed {seed})");
            }
        }
        self.order = order;
    }

    /// What a player did in a paired round, as the Swiss pairing reads it. `pos` gives the
    /// position of each player index in the pairing order. A board without a result, or
    /// with an opponent that is no player (neither happens in a checked event: see
    /// [`Event::pair`]), counts as a round without a game.
    fn round_of(&self, round: &EventRound, player: usize, pos: &[usize]) -> Round {
        for b in &round.boards {
            let (me_white, opp) = if b.white == player {
                (true, b.black)
            } else if b.black == player {
                (false, b.white)
            } else {
                continue;
            };
            let color = if me_white { Color::White } else { Color::Black };
            let (Some(&opponent), Some(result)) = (pos.get(opp), b.result) else {
                break;
            };
            return match result {
                BoardResult::WhiteWins | BoardResult::Draw | BoardResult::BlackWins => {
                    let outcome = match (result, me_white) {
                        (BoardResult::Draw, _) => Outcome::Draw,
                        (BoardResult::WhiteWins, true) | (BoardResult::BlackWins, false) => {
                            Outcome::Win
                        }
                        _ => Outcome::Loss,
                    };
                    Round::Played {
                        opponent,
                        color,
                        outcome,
                    }
                }
                BoardResult::WhiteForfeit => Round::Forfeit {
                    opponent,
                    color: Some(color),
                    won: me_white,
                },
                BoardResult::BlackForfeit => Round::Forfeit {
                    opponent,
                    color: Some(color),
                    won: !me_white,
                },
                BoardResult::DoubleForfeit => Round::Forfeit {
                    opponent,
                    color: Some(color),
                    won: false,
                },
            };
        }
        match round
            .byes
            .iter()
            .find(|(p, _)| *p == player)
            .map(|(_, k)| *k)
        {
            Some(RoundBye::Pab) => Round::PairingBye,
            Some(RoundBye::Half) => Round::Bye(ByeKind::Half),
            Some(RoundBye::Full) => Round::Bye(ByeKind::Full),
            _ => Round::Bye(ByeKind::Zero),
        }
    }

    /// What keeps a player out of `round`: a bye asked for, a withdrawal, a later entry.
    fn absence(&self, player: usize, round: u32) -> Option<RoundBye> {
        let p = self.players.get(player)?;
        if p.withdrawn.is_some_and(|w| round >= w) || round < p.joined {
            return Some(RoundBye::Zero);
        }
        p.byes
            .iter()
            .find(|(r, _)| *r == round)
            .map(|(_, k)| match k {
                ByeRequest::Half => RoundBye::Half,
                ByeRequest::Zero => RoundBye::Zero,
                ByeRequest::Full => RoundBye::Full,
            })
    }

    /// The Swiss history before `round`, players in pairing order. (Entries of the order
    /// that name no player are left out; a checked event has none.)
    pub fn swiss_history(&self, round: u32) -> SwissHistory {
        let n = self.players.len();
        let order: Vec<usize> = self.order.iter().copied().filter(|&i| i < n).collect();
        let mut pos = vec![0usize; n];
        for (k, &i) in order.iter().enumerate() {
            pos[i] = k;
        }
        let before = round.saturating_sub(1) as usize;
        let table = self.acceleration_table();
        let players = order
            .iter()
            .map(|&i| SwissPlayer {
                acceleration: table[i].clone(),
                rounds: self
                    .played
                    .iter()
                    .take(before)
                    .map(|r| self.round_of(r, i, &pos))
                    .collect(),
                absent: self.absence(i, round).is_some(),
            })
            .collect();
        SwissHistory {
            players,
            total_rounds: self.rounds as usize,
            points: self.points.system(),
            initial_color: self.initial_color.into(),
        }
    }

    /// Pairs `round`: the next one, once every result of the round before is in. `seed`
    /// draws the lots of a round robin's pairing numbers (round 1 only).
    pub fn pair(&mut self, round: u32, seed: u64) -> Result<&EventRound, EventError> {
        self.pair_with_progress(round, seed, &mut |_| {})
    }

    /// [`Event::pair`], telling `progress` how far a Swiss pairing has come (after each game
    /// it settles).
    pub fn pair_with_progress(
        &mut self,
        round: u32,
        seed: u64,
        progress: &mut dyn FnMut(Progress),
    ) -> Result<&EventRound, EventError> {
        let next = self.rounds_paired() + 1;
        if round < next {
            return Err(EventError::AlreadyPaired(round));
        }
        if round > next {
            return Err(EventError::NotNext { round, next });
        }
        if self.players.len() < 2 {
            return Err(EventError::Invalid(
                "an event needs at least two players to pair".into(),
            ));
        }
        let total = self.total_rounds();
        if round > total {
            return Err(EventError::NoSuchRound(round));
        }
        // A document from elsewhere (an older version's, say) is paired only once its
        // indices are sound: the pairing reads them without further checks.
        self.check_indices()
            .map_err(|e| EventError::Invalid(format!("the event's record is damaged: {e}")))?;
        if matches!(self.format, Format::Knockout(_)) && round > 1 {
            let br = self.bracket();
            if let Some(m) = br
                .get(round as usize - 2)
                .and_then(|ms| ms.iter().find(|m| m.winner().is_none()))
            {
                return Err(EventError::MatchUndecided {
                    round,
                    match_no: m.number,
                    next_stage: match m.state {
                        MatchState::Tied { next_stage } => Some(next_stage),
                        _ => None,
                    },
                });
            }
        }
        // Every earlier round, not only the last: a result cleared in round 1 after round 2
        // was paired leaves a game the pairing cannot read.
        for (k, prev) in self.played.iter().enumerate().take(round as usize - 1) {
            let missing = prev.boards_without_result();
            if !missing.is_empty() {
                return Err(EventError::ResultsMissing {
                    round: k as u32 + 1,
                    boards: missing,
                });
            }
        }
        let mut trial = self.clone();
        trial.fix_order(seed);
        // The order is a permutation of the players (checked above, or made by `fix_order`);
        // a position outside it would be the pairing's own error.
        let lost = || EventError::Invalid("the pairing named a player outside the order".into());
        let (boards, byes) = match &trial.format {
            Format::Knockout(plan) => {
                let field = trial
                    .knockout_field()
                    .ok_or(EventError::Invalid("the knockout has no plan".into()))?;
                let pairs: Vec<(u32, usize, usize)> = crate::knockout::bracket_pairs(&field, round)
                    .into_iter()
                    .filter_map(|(k, a, b)| Some((k, a?, b?)))
                    .collect();
                let first_white = trial.initial_color == Side::White;
                let boards = crate::knockout::regular_boards(plan, &pairs, first_white);
                let byes = if round == 1 {
                    crate::knockout::round_one_byes(&field)
                } else {
                    Vec::new()
                };
                (boards, byes)
            }
            Format::Swiss => {
                let h = trial.swiss_history(round);
                let p = pair_dutch_with_progress(&h, progress).map_err(EventError::Pairing)?;
                let at = |k: usize| trial.order.get(k).copied().ok_or_else(lost);
                let boards: Vec<Board> = p
                    .boards
                    .iter()
                    .map(|&(w, b)| Ok(Board::paired(at(w)?, at(b)?)))
                    .collect::<Result<_, EventError>>()?;
                let mut byes: Vec<(usize, RoundBye)> = match p.bye {
                    Some(b) => vec![(at(b)?, RoundBye::Pab)],
                    None => Vec::new(),
                };
                for i in 0..trial.players.len() {
                    if let Some(k) = trial.absence(i, round) {
                        byes.push((i, k));
                    }
                }
                (boards, byes)
            }
            &Format::RoundRobin { cycles } => {
                let no_table = || EventError::Invalid("no Berger table".into());
                let table = u32::try_from(trial.players.len())
                    .ok()
                    .and_then(|n| berger(n, cycles))
                    .ok_or_else(no_table)?;
                let r = table.get(round as usize - 1).ok_or_else(no_table)?;
                let at = |k: u32| {
                    (k as usize)
                        .checked_sub(1)
                        .and_then(|k| trial.order.get(k).copied())
                        .ok_or_else(lost)
                };
                let boards = r
                    .boards
                    .iter()
                    .map(|&(w, b)| Ok(Board::paired(at(w)?, at(b)?)))
                    .collect::<Result<_, EventError>>()?;
                let byes = match r.bye {
                    Some(b) => vec![(at(b)?, RoundBye::Zero)],
                    None => Vec::new(),
                };
                (boards, byes)
            }
        };
        let er = trial.round_mut(round)?;
        er.paired = true;
        er.boards = boards;
        er.byes = byes;
        *self = trial;
        Ok(&self.played[round as usize - 1])
    }

    /// Takes back the pairing of the last paired round (before any result is in), so that a
    /// late bye or entry can be taken into account.
    pub fn unpair(&mut self, round: u32) -> Result<(), EventError> {
        let paired = self.rounds_paired();
        if round != paired || round == 0 {
            return Err(EventError::Invalid(format!(
                "only the last paired round ({paired}) can be unpaired"
            )));
        }
        let r = &mut self.played[round as usize - 1];
        if r.boards.iter().any(|b| b.result.is_some()) {
            return Err(EventError::Invalid(format!(
                "round {round} has results: clear them first"
            )));
        }
        if r.boards.iter().any(|b| b.game.is_some()) {
            return Err(EventError::Invalid(format!(
                "round {round} is being played on the server: it stays paired"
            )));
        }
        r.paired = false;
        r.boards.clear();
        r.byes.clear();
        r.stage_draws.clear();
        if round == 1 {
            self.order.clear();
            self.order_note.clear();
        }
        Ok(())
    }

    /// Enters (or corrects, or with `None` clears) a board's result.
    pub fn set_result(
        &mut self,
        round: u32,
        board: u32,
        result: Option<BoardResult>,
    ) -> Result<(), EventError> {
        let total = self.total_rounds();
        if round == 0 || round > total.max(1) {
            return Err(EventError::NoSuchRound(round));
        }
        let Some(r) = self.played.get_mut(round as usize - 1).filter(|r| r.paired) else {
            return Err(EventError::NotPaired(round));
        };
        let b = board
            .checked_sub(1)
            .and_then(|k| r.boards.get_mut(k as usize))
            .ok_or(EventError::NoSuchBoard { round, board })?;
        let before = std::mem::replace(&mut b.result, result);
        if self.knockout_plan().is_some() {
            // A result that would change a decided match whose consequences are paired (a
            // tiebreak stage after it, the next round) is refused: clear those first.
            if let Err((r, why)) = self.knockout_check() {
                if let Some(b) = self
                    .played
                    .get_mut(round as usize - 1)
                    .and_then(|r| r.boards.get_mut(board as usize - 1))
                {
                    b.result = before;
                }
                return Err(EventError::Invalid(format!(
                    "that result would leave round {r} wrong ({why}): take back what follows the match first"
                )));
            }
        }
        Ok(())
    }

    /// Points (tenths) a player has after the rounds played.
    pub fn score(&self, player: usize) -> u32 {
        // Saturating: a stored document's points are not bounded until it is validated.
        self.played
            .iter()
            .filter(|r| r.paired)
            .map(|r| self.points_in(r, player))
            .fold(0, u32::saturating_add)
    }

    /// Points (tenths) from one round.
    pub fn points_in(&self, r: &EventRound, player: usize) -> u32 {
        let (w, d) = (self.points.win, self.points.draw);
        for b in &r.boards {
            let white = b.white == player;
            if !white && b.black != player {
                continue;
            }
            return match (b.result, white) {
                (None, _) => 0,
                (Some(BoardResult::Draw), _) => d,
                (Some(BoardResult::WhiteWins | BoardResult::WhiteForfeit), true) => w,
                (Some(BoardResult::BlackWins | BoardResult::BlackForfeit), false) => w,
                _ => 0,
            };
        }
        match r.byes.iter().find(|(p, _)| *p == player).map(|(_, k)| *k) {
            Some(RoundBye::Pab | RoundBye::Full) => w,
            Some(RoundBye::Half) => d,
            _ => 0,
        }
    }

    /// The pairing number of a player (1-based), once the order is fixed.
    pub fn pairing_number(&self, player: usize) -> Option<usize> {
        self.order.iter().position(|&i| i == player).map(|k| k + 1)
    }

    /// The position a board plays (a knockout's tiebreak game: its stage's, once drawn).
    pub fn board_position(&self, round: u32, board: u32) -> Option<u16> {
        let r = self.played.get(round.checked_sub(1)? as usize)?;
        let b = r.boards.get(board.checked_sub(1)? as usize)?;
        match b.slot {
            Some(Slot { stage, .. }) if stage > 0 => {
                r.stage_draws.get(stage as usize - 1).map(|d| d.id)
            }
            _ => b.position.as_ref().or(r.draw.as_ref()).map(|d| d.id),
        }
    }

    /// The time control a board plays at: a knockout's tiebreak stage has its own. White's and
    /// Black's may differ (an Armageddon's `5+0/4+0`: [`sides_of`]).
    pub fn board_time_control(&self, round: u32, board: u32) -> &str {
        let slot = self
            .played
            .get(round.saturating_sub(1) as usize)
            .and_then(|r| r.boards.get(board.saturating_sub(1) as usize))
            .and_then(|b| b.slot);
        match (&self.format, slot) {
            // A stage without a time control of its own plays the event's.
            (Format::Knockout(plan), Some(Slot { stage, .. })) if stage > 0 => plan
                .tiebreaks
                .get((stage as usize - 1).min(plan.tiebreaks.len().saturating_sub(1)))
                .map(|s| s.time_control.as_str())
                .filter(|tc| !tc.trim().is_empty())
                .unwrap_or(self.time_control.as_str()),
            _ => &self.time_control,
        }
    }

    /// What a knockout's bracket reads of this event; `None` for other formats.
    pub fn knockout_field(&self) -> Option<Field<'_>> {
        Some(Field {
            plan: self.knockout_plan()?,
            players: self.players.len(),
            order: &self.order,
            played: &self.played,
        })
    }

    /// A knockout's bracket, round by round ([`crate::knockout::bracket`]); empty for other
    /// formats.
    pub fn bracket(&self) -> Vec<Vec<MatchView>> {
        self.knockout_field()
            .map(|f| crate::knockout::bracket(&f))
            .unwrap_or_default()
    }

    /// A knockout's winner, once its final is decided.
    pub fn champion(&self) -> Option<usize> {
        crate::knockout::champion(&self.knockout_field()?)
    }

    /// A knockout's placings ([`crate::knockout::placings`]); empty for other formats.
    pub fn placings(&self) -> Vec<(usize, u32, u32)> {
        self.knockout_field()
            .map(|f| crate::knockout::placings(&f))
            .unwrap_or_default()
    }

    /// The points (tenths) each player scored in a knockout's games; empty for other formats.
    pub fn knockout_points(&self) -> Vec<u32> {
        self.knockout_field()
            .map(|f| crate::knockout::points_scored(&f))
            .unwrap_or_default()
    }

    /// The first problem of a knockout's rounds ([`crate::knockout::check`]); other formats
    /// have none of these.
    pub fn knockout_check(&self) -> Result<(), (u32, String)> {
        self.knockout_field()
            .map_or(Ok(()), |f| crate::knockout::check(&f))
    }

    /// The knockout's plan, if the event is a knockout.
    pub fn knockout_plan(&self) -> Option<&KnockoutPlan> {
        match &self.format {
            Format::Knockout(plan) => Some(plan),
            _ => None,
        }
    }

    /// Draws (or sets) the position of tiebreak stage `stage` (from 1) of a knockout's
    /// `round`: one position for every match that reaches the stage, drawn as a round's is
    /// (every method but the list fixed before the event), never one played before in the
    /// event when the rules forbid repeats. Stages are drawn in order; `replace` draws again
    /// before any game of the stage has its result.
    pub fn draw_stage_position(
        &mut self,
        round: u32,
        stage: u32,
        how: DrawSpec,
        replace: bool,
    ) -> Result<&PositionDraw, EventError> {
        if self.knockout_plan().is_none() {
            return Err(EventError::Invalid(
                "tiebreak stages are a knockout's".into(),
            ));
        }
        let total = self.total_rounds();
        if round == 0 || round > total {
            return Err(EventError::NoSuchRound(round));
        }
        if round > self.rounds_paired() {
            return Err(EventError::NotPaired(round));
        }
        let r = &self.played[round as usize - 1];
        let have = r.stage_draws.len() as u32;
        if stage == 0 || stage > have + 1 || stage > crate::knockout::MAX_MATCH_STAGES {
            return Err(EventError::Invalid(format!(
                "round {round}: the next tiebreak position to draw is stage {}'s",
                have + 1
            )));
        }
        if stage <= have && !replace {
            return Err(EventError::Invalid(format!(
                "round {round} has the position of tiebreak stage {stage} already (draw again with replace)"
            )));
        }
        if r.boards
            .iter()
            .any(|b| b.slot.is_some_and(|s| s.stage == stage) && b.result.is_some())
        {
            return Err(EventError::Invalid(format!(
                "tiebreak stage {stage} of round {round} has results already: its position stays"
            )));
        }
        if self.positions.rules.no_repeat {
            let later = self
                .played
                .iter()
                .enumerate()
                .skip(round as usize)
                .find(|(_, r)| r.draw.is_some() || !r.stage_draws.is_empty());
            if let Some((k, _)) = later {
                return Err(EventError::Invalid(format!(
                    "round {} has its position already, drawn without repeating round {round}'s tiebreak positions: draw those first",
                    k + 1
                )));
            }
        }
        if stage < have && self.positions.rules.no_repeat {
            return Err(EventError::Invalid(format!(
                "round {round}: stage {} has its position already, drawn without repeating stage {stage}'s: stage {stage}'s position stays",
                have
            )));
        }
        let mut before = self.positions_before(round);
        before.extend(r.draw.iter().map(|d| d.id));
        before.extend(r.stage_draws.iter().take(stage as usize - 1).map(|d| d.id));
        let rules = self.positions.rules;
        let pos = EventError::Position;
        let d = match how {
            DrawSpec::Computer { seed } => {
                PositionDraw::computer(seed, rules, &before).map_err(pos)?
            }
            DrawSpec::Physical {
                method,
                seed,
                outcomes,
            } => PositionDraw::physical(&method, seed, outcomes.as_deref(), rules, &before)
                .map_err(pos)?,
            DrawSpec::Set(id) => PositionDraw::set(id, rules, &before).map_err(pos)?,
            DrawSpec::List => {
                return Err(EventError::Invalid(
                    "the list fixed before the event has one position per round: draw a tiebreak's another way".into(),
                ))
            }
        };
        let r = &mut self.played[round as usize - 1];
        if stage <= have {
            r.stage_draws[stage as usize - 1] = d;
        } else {
            r.stage_draws.push(d);
        }
        Ok(&r.stage_draws[stage as usize - 1])
    }

    /// Adds the next tiebreak stage to every match of a knockout's `round` that is tied after
    /// its last stage: its games at the end of the round's boards (the numbers of boards
    /// already there stay), colours going on alternating from the match's games before; an
    /// Armageddon's colours are drawn by lot from `seed`. Returns the matches given a stage.
    pub fn add_tiebreaks(&mut self, round: u32, seed: u64) -> Result<Vec<u32>, EventError> {
        let Some(plan) = self.knockout_plan().cloned() else {
            return Err(EventError::Invalid(
                "tiebreak stages are a knockout's".into(),
            ));
        };
        if round == 0 || round > self.rounds_paired() {
            return Err(EventError::NotPaired(round));
        }
        if self.played.get(round as usize).is_some_and(|r| r.paired) {
            return Err(EventError::AlreadyPaired(round + 1));
        }
        let br = self.bracket();
        let mut added = Vec::new();
        let mut boards = Vec::new();
        let first_white = self.initial_color == Side::White;
        for m in br.get(round as usize - 1).into_iter().flatten() {
            let (MatchState::Tied { next_stage }, Some(first), Some(second)) =
                (&m.state, m.first, m.second)
            else {
                continue;
            };
            let next_stage = *next_stage;
            if next_stage >= crate::knockout::MAX_MATCH_STAGES {
                return Err(EventError::Invalid(format!(
                    "match {} of round {round} has played {} stages, the most a match may: decide it by hand, with a forfeit on one of its last stage's games",
                    m.number,
                    crate::knockout::MAX_MATCH_STAGES
                )));
            }
            let (kind, games, _) = plan.stage(next_stage, "");
            let played: usize = m.stages.iter().map(|s| s.boards.len()).sum();
            let white_first = if kind == Some(StageKind::Armageddon) {
                let mut rng = crate::position::SplitMix(
                    seed ^ u64::from(m.number).wrapping_mul(0x9E37_79B9_7F4A_7C15),
                );
                rng.below(2) == 0
            } else {
                // The colours of game `played + 1` of the match, as if it went on.
                first_white == (played % 2 == 0)
            };
            boards.extend(crate::knockout::stage_boards(
                m.number,
                next_stage,
                games,
                first,
                second,
                white_first,
            ));
            added.push(m.number);
        }
        if added.is_empty() {
            return Err(EventError::NothingTied(round));
        }
        self.played[round as usize - 1].boards.extend(boards);
        Ok(added)
    }

    /// Checks every recorded draw again (see [`PositionDraw::verify`]).
    pub fn verify_draws(&self) -> Result<(), (u32, PositionError)> {
        for (k, r) in self.played.iter().enumerate() {
            let round = k as u32 + 1;
            let before = self.positions_before(round);
            if let Some(d) = &r.draw {
                d.verify(self.positions.rules, &before, &self.positions.list)
                    .map_err(|e| (round, e))?;
            }
            let mut played = before;
            for b in &r.boards {
                if let Some(d) = &b.position {
                    d.verify(self.positions.rules, &played, &self.positions.list)
                        .map_err(|e| (round, e))?;
                    played.push(d.id);
                }
            }
            played.extend(r.draw.iter().map(|d| d.id));
            for d in &r.stage_draws {
                d.verify(self.positions.rules, &played, &[])
                    .map_err(|e| (round, e))?;
                played.push(d.id);
            }
        }
        Ok(())
    }
}

/// How to choose a round's position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DrawSpec {
    /// The computer, from a seed.
    Computer {
        /// The seed.
        seed: u64,
    },
    /// A physical method with a seed or the outcomes from the board.
    Physical {
        /// `die`, `coins`, `bag`, `bag-wheeler`, `cards` or `platonic`.
        method: String,
        /// A seed for the program's own outcomes.
        seed: Option<u64>,
        /// The outcomes rolled at the board.
        outcomes: Option<String>,
    },
    /// The arbiter's choice.
    Set(u32),
    /// The event's list.
    List,
}

#[cfg(test)]
mod time_control_tests {
    use super::sides_of;

    #[test]
    fn a_slash_between_two_clocks_gives_each_side_its_own() {
        assert_eq!(sides_of("5+0/4+0"), Some(("5+0", "4+0")));
        assert_eq!(sides_of(" 0:05+0 / 0:04+0 "), Some(("0:05+0", "0:04+0")));
        for one in ["90+30", "40/60+0.6", "40/60", "5+0/", "5+0/4+0/3+0", ""] {
            assert_eq!(sides_of(one), None, "{one}");
        }
    }
}
