//! The checks of a whole event document: what every operation of a live [`Event`] keeps true,
//! checked at once for an event that did not come through those operations (a JSON or TRF
//! import, a document written by an older version).
//!
//! [`Event::validate`] checks, cheapest first: the counts and sizes against the limits the
//! live operations enforce ([`MAX_PLAYERS`], [`MAX_ROUNDS`], [`MAX_TEXT`], [`MAX_POINTS`],
//! [`MAX_STEPS`], …), every text (length, no control character, names not empty, no two
//! players of one name), the format, rounds, points, tie-breaks and position plan, each
//! player's entry, withdrawal and byes asked for, the pairing order, every round (paired
//! rounds first, player indices in range, nobody twice in a round, nobody on a board before
//! joining or after withdrawing, game keys, positions), and last every recorded draw, repeated
//! ([`Event::verify_draws`]). The first problem found is returned as a [`DocumentError`]
//! that names its place: `round 3, board 7: player index 412 names no player (the event has
//! 120: 0 to 119)`.

use crate::accel::Acceleration;
use crate::event::{
    Event, EventRound, Format, Tiebreak, MAX_PLAYERS, MAX_POINTS, MAX_ROUNDS, MAX_TEXT,
};
use crate::position::{DrawKind, PositionDraw, PositionError, MAX_OUTCOMES, MAX_STEP, MAX_STEPS};
use std::collections::HashMap;
use std::fmt;

/// The most virtual points (tenths) one round may give a player: what the four columns of a
/// TRF `XXA` score hold (99.9 points).
pub const MAX_VIRTUAL_POINTS: u32 = 999;

/// Where in an event document a problem is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Place {
    /// The event's own fields (name, dates, format, rounds, points, tie-breaks, positions).
    Event,
    /// A player, by the arbiter's number (index + 1).
    Player(usize),
    /// An entry of the pairing order (from 1).
    Order(usize),
    /// A round (from 1).
    Round(u32),
    /// A board of a round (both from 1).
    Board {
        /// The round.
        round: u32,
        /// The board.
        board: u32,
    },
    /// An entry of a round's players without a board (both from 1).
    Bye {
        /// The round.
        round: u32,
        /// The entry.
        entry: usize,
    },
}

impl fmt::Display for Place {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Place::Event => f.write_str("the event"),
            Place::Player(n) => write!(f, "player {n}"),
            Place::Order(k) => write!(f, "the pairing order, entry {k}"),
            Place::Round(r) => write!(f, "round {r}"),
            Place::Board { round, board } => write!(f, "round {round}, board {board}"),
            Place::Bye { round, entry } => {
                write!(
                    f,
                    "round {round}, entry {entry} of the players without a board"
                )
            }
        }
    }
}

/// What is wrong at a [`Place`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Problem {
    /// A player index (as the document writes it, from 0) that names no player.
    NoSuchPlayer {
        /// The index.
        index: usize,
        /// How many players the event has.
        players: usize,
    },
    /// A player twice in one round (on two boards, or on a board and without one).
    PlayerTwice {
        /// The player's index.
        index: usize,
    },
    /// A board whose two players are one.
    AgainstHimself {
        /// The player's index.
        index: usize,
    },
    /// More of something than a live event can have.
    TooMany {
        /// What (`players`, `rounds`, …).
        what: &'static str,
        /// How many there are.
        count: u64,
        /// The most allowed.
        max: u64,
    },
    /// A text longer than a live event allows.
    TooLong {
        /// Which text.
        what: &'static str,
        /// Its length in characters.
        chars: usize,
        /// The most allowed.
        max: usize,
    },
    /// A text with a control character (a line break, an escape sequence).
    ControlCharacter {
        /// Which text.
        what: &'static str,
    },
    /// A text that a live event never leaves empty.
    Empty {
        /// Which text.
        what: &'static str,
    },
    /// A player whose name another player has already (letter case aside).
    SameName {
        /// The other player's number (index + 1).
        other: usize,
    },
    /// A recorded position draw that does not give its position when repeated.
    Draw(PositionError),
    /// Anything else, said in words.
    Inconsistent(String),
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Problem::NoSuchPlayer { index, players: 0 } => {
                write!(
                    f,
                    "player index {index} names no player (the event has none)"
                )
            }
            Problem::NoSuchPlayer { index, players } => write!(
                f,
                "player index {index} names no player (the event has {players}: 0 to {})",
                players - 1
            ),
            Problem::PlayerTwice { index } => {
                write!(f, "player index {index} is in this round twice")
            }
            Problem::AgainstHimself { index } => write!(f, "player index {index} plays himself"),
            Problem::TooMany { what, count, max } => write!(f, "{count} {what}: at most {max}"),
            Problem::TooLong { what, chars, max } => {
                write!(f, "{what} has {chars} characters: at most {max}")
            }
            Problem::ControlCharacter { what } => write!(f, "{what} has a control character"),
            Problem::Empty { what } => write!(f, "{what} is empty"),
            Problem::SameName { other } => write!(f, "the same name as player {other}"),
            Problem::Draw(e) => write!(f, "{e}"),
            Problem::Inconsistent(m) => f.write_str(m),
        }
    }
}

/// An event document that no live event could be: where, and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DocumentError {
    /// Where.
    pub place: Place,
    /// What.
    pub problem: Problem,
}

impl DocumentError {
    /// A problem at a place.
    pub fn new(place: Place, problem: Problem) -> DocumentError {
        DocumentError { place, problem }
    }
}

impl fmt::Display for DocumentError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.place, self.problem)
    }
}

impl std::error::Error for DocumentError {}

type Checked = Result<(), DocumentError>;

fn fail(place: Place, problem: Problem) -> Checked {
    Err(DocumentError { place, problem })
}

fn inconsistent(place: Place, message: String) -> Checked {
    fail(place, Problem::Inconsistent(message))
}

fn too_many(place: Place, what: &'static str, count: usize, max: usize) -> Checked {
    if count > max {
        return fail(
            place,
            Problem::TooMany {
                what,
                count: count as u64,
                max: max as u64,
            },
        );
    }
    Ok(())
}

/// A text as live events keep them: at most `max` characters, no control character.
pub(crate) fn text_problem(what: &'static str, s: &str, max: usize) -> Option<Problem> {
    // Counting stops early: a 10 MB name costs no more than a long one.
    if s.chars().nth(max).is_some() {
        return Some(Problem::TooLong {
            what,
            chars: s.chars().count(),
            max,
        });
    }
    if s.chars().any(char::is_control) {
        return Some(Problem::ControlCharacter { what });
    }
    None
}

fn text(place: &Place, what: &'static str, s: &str) -> Checked {
    match text_problem(what, s, MAX_TEXT) {
        Some(p) => fail(place.clone(), p),
        None => Ok(()),
    }
}

fn name(place: &Place, what: &'static str, s: &str) -> Checked {
    text(place, what, s)?;
    if s.trim().is_empty() {
        return fail(place.clone(), Problem::Empty { what });
    }
    Ok(())
}

/// `YYYY-MM-DD`, as the command line and the server take dates (or empty).
pub(crate) fn is_date(d: &str) -> bool {
    d.len() == 10
        && d.bytes().enumerate().all(|(i, c)| {
            if i == 4 || i == 7 {
                c == b'-'
            } else {
                c.is_ascii_digit()
            }
        })
}

fn date(what: &'static str, d: &str) -> Checked {
    text(&Place::Event, what, d)?;
    if !d.is_empty() && !is_date(d) {
        return inconsistent(Place::Event, format!("{what} {d:?} is not YYYY-MM-DD"));
    }
    Ok(())
}

/// A game key as the server writes it: 32 lowercase hexadecimal digits.
fn is_game_key(k: &str) -> bool {
    k.len() == 32
        && k.bytes()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
}

impl Event {
    /// Checks the whole document: that it is an event the live operations could have made
    /// (module [`crate::validate`] lists what is checked). The first problem found names its
    /// place.
    pub fn validate(&self) -> Result<(), DocumentError> {
        self.check_counts()?;
        self.check_sizes()?;
        self.check_fields()?;
        self.check_players()?;
        self.check_order()?;
        for (k, r) in self.played.iter().enumerate() {
            let round = k as u32 + 1;
            self.check_round_indices(round, r)?;
            self.check_round(round, r)?;
        }
        if let Err((round, why)) = self.knockout_check() {
            return inconsistent(Place::Round(round), why);
        }
        self.verify_draws()
            .map_err(|(round, e)| DocumentError::new(Place::Round(round), Problem::Draw(e)))
    }

    /// What a pairing reads without risk: the counts, the pairing order, and every round's
    /// player indices (in range, nobody twice). [`Event::pair`] checks this first, so that a
    /// stored document written by an older version gets an error, not a wrong pairing.
    pub(crate) fn check_indices(&self) -> Result<(), DocumentError> {
        self.check_counts()?;
        self.check_order()?;
        for (k, r) in self.played.iter().enumerate() {
            self.check_round_indices(k as u32 + 1, r)?;
        }
        Ok(())
    }

    /// The counts a pairing reads: players and rounds.
    fn check_counts(&self) -> Checked {
        let at = Place::Event;
        too_many(at.clone(), "players", self.players.len(), MAX_PLAYERS)?;
        too_many(at, "rounds", self.played.len(), MAX_ROUNDS as usize)
    }

    /// The other counts (not for [`Event::check_indices`]: an event made before they were
    /// checked is still paired).
    fn check_sizes(&self) -> Checked {
        let at = Place::Event;
        too_many(
            at.clone(),
            "tie-breaks",
            self.tiebreaks.len(),
            Tiebreak::ALL.len(),
        )?;
        too_many(
            at,
            "positions in the list fixed before the event",
            self.positions.list.len(),
            MAX_ROUNDS as usize,
        )
    }

    fn check_fields(&self) -> Checked {
        let at = Place::Event;
        name(&at, "the name", &self.name)?;
        text(&at, "the city", &self.city)?;
        text(&at, "the federation", &self.federation)?;
        text(&at, "the arbiter", &self.arbiter)?;
        text(&at, "the time control", &self.time_control)?;
        text(&at, "the note on the pairing order", &self.order_note)?;
        date("the start date", &self.start_date)?;
        date("the end date", &self.end_date)?;
        match &self.format {
            &Format::RoundRobin { cycles } if !(1..=2).contains(&cycles) => {
                return inconsistent(at, format!("a round robin has 1 or 2 cycles, not {cycles}"))
            }
            Format::RoundRobin { .. } if self.rounds > MAX_ROUNDS => {
                return inconsistent(at, format!("{} rounds: at most {MAX_ROUNDS}", self.rounds))
            }
            Format::Swiss if !(1..=MAX_ROUNDS).contains(&self.rounds) => {
                return inconsistent(
                    at,
                    format!("a Swiss has 1 to {MAX_ROUNDS} rounds, not {}", self.rounds),
                )
            }
            Format::Knockout(plan) => {
                if let Err(why) = plan.check() {
                    return inconsistent(at, why);
                }
                if self.positions.per_board {
                    return inconsistent(
                        at,
                        "a knockout plays one position per round and stage, not one per board"
                            .into(),
                    );
                }
            }
            _ => {}
        }
        for (what, v) in [("a win", self.points.win), ("a draw", self.points.draw)] {
            if v > MAX_POINTS {
                return inconsistent(
                    at,
                    format!(
                        "{what} gives {v} tenths of a point: at most {MAX_POINTS} ({} points)",
                        MAX_POINTS / 10
                    ),
                );
            }
        }
        for (k, &id) in self.positions.list.iter().enumerate() {
            if id >= 960 {
                return inconsistent(
                    at,
                    format!(
                        "entry {} of the positions fixed before the event is {id}: positions are 0 to 959",
                        k + 1
                    ),
                );
            }
        }
        if self.positions.second_cycle_repeats && self.format != (Format::RoundRobin { cycles: 2 })
        {
            return inconsistent(
                at,
                "only a double round robin's second cycle can repeat the first cycle's positions"
                    .into(),
            );
        }
        self.check_acceleration()
    }

    /// Accelerated pairings: a Swiss's; Baku with a draw worth half a win (C.04.5.1);
    /// custom virtual points for players of the event, once each, within its rounds and the
    /// four columns of a TRF `XXA` score (at most 99.9 points).
    fn check_acceleration(&self) -> Checked {
        let at = Place::Event;
        if self.acceleration != Acceleration::None && self.format != Format::Swiss {
            return inconsistent(at, "only a Swiss has accelerated pairings".into());
        }
        if self.acceleration == Acceleration::Baku && 2 * self.points.draw != self.points.win {
            return inconsistent(
                at,
                "the Baku acceleration needs a draw to give half a win's points".into(),
            );
        }
        if self.acceleration != Acceleration::Custom && !self.virtual_points.is_empty() {
            return inconsistent(
                at,
                "virtual points are listed only with the acceleration `custom`".into(),
            );
        }
        too_many(
            at.clone(),
            "players with virtual points",
            self.virtual_points.len(),
            self.players.len(),
        )?;
        let mut seen = vec![false; self.players.len()];
        for (k, (i, v)) in self.virtual_points.iter().enumerate() {
            let entry = k + 1;
            if *i >= self.players.len() {
                return inconsistent(
                    at,
                    format!(
                        "entry {entry} of the virtual points: player index {i} names no player"
                    ),
                );
            }
            if std::mem::replace(&mut seen[*i], true) {
                return inconsistent(
                    at,
                    format!(
                        "entry {entry} of the virtual points: player index {i} is listed twice"
                    ),
                );
            }
            if v.len() > self.rounds as usize {
                return inconsistent(
                    at,
                    format!(
                        "entry {entry} of the virtual points has {} rounds: the event has {}",
                        v.len(),
                        self.rounds
                    ),
                );
            }
            if let Some(x) = v.iter().find(|&&x| x > MAX_VIRTUAL_POINTS) {
                return inconsistent(
                    at,
                    format!(
                        "entry {entry} of the virtual points gives {x} tenths: at most {MAX_VIRTUAL_POINTS}"
                    ),
                );
            }
        }
        Ok(())
    }

    fn check_players(&self) -> Checked {
        let mut names: HashMap<String, usize> = HashMap::with_capacity(self.players.len());
        for (i, p) in self.players.iter().enumerate() {
            let at = Place::Player(i + 1);
            name(&at, "the name", &p.name)?;
            text(&at, "the federation", &p.federation)?;
            text(&at, "the title", &p.title)?;
            if let Some(engine) = &p.engine {
                name(&at, "the engine's name", engine)?;
                if p.account.is_some() {
                    return inconsistent(at, "both an account and an engine".into());
                }
            }
            // The live check: `add_player` refuses a name already entered, letter case aside.
            if let Some(first) = names.insert(p.name.trim().to_ascii_lowercase(), i) {
                return fail(at, Problem::SameName { other: first + 1 });
            }
            if !(1..=MAX_ROUNDS).contains(&p.joined) {
                return inconsistent(
                    at,
                    format!("joins in round {}: rounds are 1 to {MAX_ROUNDS}", p.joined),
                );
            }
            if p.withdrawn == Some(0) {
                return inconsistent(at, "withdrawn from round 0: rounds start at 1".into());
            }
            if p.byes.is_empty() {
                continue;
            }
            if self.format != Format::Swiss {
                return inconsistent(at, "byes asked for in a round robin".into());
            }
            too_many(
                at.clone(),
                "byes asked for",
                p.byes.len(),
                MAX_ROUNDS as usize,
            )?;
            let mut seen = [false; MAX_ROUNDS as usize + 1];
            for &(r, _) in &p.byes {
                if r == 0 || r > self.rounds {
                    return inconsistent(
                        at,
                        format!(
                            "a bye asked for in round {r}: the event has rounds 1 to {}",
                            self.rounds
                        ),
                    );
                }
                let twice = seen
                    .get_mut(r as usize)
                    .is_some_and(|s| std::mem::replace(s, true));
                if twice {
                    return inconsistent(at, format!("two byes asked for in round {r}"));
                }
            }
        }
        Ok(())
    }

    fn check_order(&self) -> Checked {
        let n = self.players.len();
        if self.order.is_empty() {
            if self.rounds_paired() > 0 {
                return inconsistent(
                    Place::Event,
                    "rounds are paired, but the pairing order is missing".into(),
                );
            }
            return Ok(());
        }
        if self.order.len() != n {
            return inconsistent(
                Place::Event,
                format!(
                    "the pairing order has {} entries for {n} players",
                    self.order.len()
                ),
            );
        }
        let mut seen = vec![false; n];
        for (k, &i) in self.order.iter().enumerate() {
            let at = Place::Order(k + 1);
            let Some(s) = seen.get_mut(i) else {
                return fail(
                    at,
                    Problem::NoSuchPlayer {
                        index: i,
                        players: n,
                    },
                );
            };
            if std::mem::replace(s, true) {
                return inconsistent(
                    at,
                    format!("player index {i} is in the pairing order twice"),
                );
            }
        }
        Ok(())
    }

    /// A round's player indices: in range, nobody against himself, nobody twice; counts
    /// first, so that the checks cost what the event allows.
    fn check_round_indices(&self, round: u32, r: &EventRound) -> Checked {
        let n = self.players.len();
        let at = Place::Round(round);
        // A knockout's match plays several boards: up to its games in each of its stages.
        let knockout = matches!(self.format, Format::Knockout(_));
        let boards = if knockout {
            (n / 2)
                .saturating_mul(crate::knockout::MAX_STAGE_GAMES as usize)
                .saturating_mul(crate::knockout::MAX_MATCH_STAGES as usize)
        } else {
            n / 2
        };
        too_many(at.clone(), "boards", r.boards.len(), boards)?;
        too_many(at.clone(), "players without a board", r.byes.len(), n)?;
        too_many(
            at.clone(),
            "tiebreak positions",
            r.stage_draws.len(),
            if knockout {
                crate::knockout::MAX_MATCH_STAGES as usize
            } else {
                0
            },
        )?;
        let mut seen = vec![false; n];
        let mut take = |place: &Place, i: usize| -> Checked {
            match seen.get_mut(i) {
                None => fail(
                    place.clone(),
                    Problem::NoSuchPlayer {
                        index: i,
                        players: n,
                    },
                ),
                Some(s) if *s => fail(place.clone(), Problem::PlayerTwice { index: i }),
                Some(s) => {
                    *s = true;
                    Ok(())
                }
            }
        };
        for (j, b) in r.boards.iter().enumerate() {
            let at = Place::Board {
                round,
                board: j as u32 + 1,
            };
            if knockout {
                // A match's players meet on several boards: in range here, in their match
                // by `knockout::check`.
                for i in [b.white, b.black] {
                    if i >= n {
                        return fail(
                            at,
                            Problem::NoSuchPlayer {
                                index: i,
                                players: n,
                            },
                        );
                    }
                }
                if b.white == b.black {
                    return fail(at, Problem::AgainstHimself { index: b.white });
                }
                continue;
            }
            if b.white == b.black {
                // Out of range first: that says more than "plays himself".
                take(&at, b.white)?;
                return fail(at, Problem::AgainstHimself { index: b.white });
            }
            take(&at, b.white)?;
            take(&at, b.black)?;
        }
        for (j, &(p, _)) in r.byes.iter().enumerate() {
            take(
                &Place::Bye {
                    round,
                    entry: j + 1,
                },
                p,
            )?;
        }
        Ok(())
    }

    /// The rest of a round, its indices checked: its place among the paired rounds, who may
    /// be on a board, game keys, positions and their draws' records.
    fn check_round(&self, round: u32, r: &EventRound) -> Checked {
        let at = Place::Round(round);
        let paired = self.rounds_paired();
        let total = self.total_rounds().max(1);
        if round > total {
            return inconsistent(
                at,
                format!(
                    "the event has {total} round{}",
                    if total == 1 { "" } else { "s" }
                ),
            );
        }
        if r.paired && round > paired {
            return inconsistent(at, format!("paired, but round {} is not", paired + 1));
        }
        let has_pairings = !r.boards.is_empty() || !r.byes.is_empty();
        if !r.paired && has_pairings {
            return inconsistent(at, "not paired, but it has pairings".into());
        }
        let knockout = matches!(self.format, Format::Knockout(_));
        if !knockout && !r.stage_draws.is_empty() {
            return inconsistent(
                at,
                "tiebreak positions, but the event is no knockout".into(),
            );
        }
        for d in &r.stage_draws {
            check_draw(&at, round, d)?;
        }
        if let Some(j) = r.boards.iter().position(|b| b.slot.is_some() != knockout) {
            return inconsistent(
                Place::Board {
                    round,
                    board: j as u32 + 1,
                },
                if knockout {
                    "a knockout's board belongs to no match".into()
                } else {
                    "a board of a match, but the event is no knockout".into()
                },
            );
        }
        if let Some(d) = &r.draw {
            if self.positions.per_board {
                return inconsistent(
                    at,
                    "one position for the round, but the event draws one per board".into(),
                );
            }
            check_draw(&at, round, d)?;
        }
        for (j, b) in r.boards.iter().enumerate() {
            let at = Place::Board {
                round,
                board: j as u32 + 1,
            };
            if self.format == Format::Swiss {
                for i in [b.white, b.black] {
                    self.check_present(&at, round, i)?;
                }
            }
            if let Some(k) = &b.game {
                if !is_game_key(k) {
                    return inconsistent(
                        at,
                        "the game's key is not 32 lowercase hexadecimal digits".into(),
                    );
                }
            }
            if let Some(d) = &b.position {
                if !self.positions.per_board {
                    return inconsistent(
                        at,
                        "a position of its own, but the event plays one position per round".into(),
                    );
                }
                check_draw(&at, round, d)?;
            }
        }
        if self.format == Format::Swiss {
            for (j, &(p, kind)) in r.byes.iter().enumerate() {
                if kind == crate::event::RoundBye::Pab {
                    self.check_present(
                        &Place::Bye {
                            round,
                            entry: j + 1,
                        },
                        round,
                        p,
                    )?;
                }
            }
        }
        Ok(())
    }

    /// A Swiss pairs nobody before his first round or from his withdrawal on.
    fn check_present(&self, at: &Place, round: u32, i: usize) -> Checked {
        let Some(p) = self.players.get(i) else {
            return Ok(());
        };
        if round < p.joined {
            return inconsistent(
                at.clone(),
                format!(
                    "player {} is paired, but joins in round {}",
                    i + 1,
                    p.joined
                ),
            );
        }
        if p.withdrawn.is_some_and(|w| round >= w) {
            return inconsistent(
                at.clone(),
                format!(
                    "player {} is paired, but withdrawn from round {}",
                    i + 1,
                    p.withdrawn.unwrap_or(0)
                ),
            );
        }
        Ok(())
    }
}

/// A recorded draw's own fields: the position, its steps, what repeats it.
fn check_draw(at: &Place, round: u32, d: &PositionDraw) -> Checked {
    if d.id >= 960 {
        return inconsistent(
            at.clone(),
            format!("position {}: positions are 0 to 959", d.id),
        );
    }
    too_many(at.clone(), "steps in the draw", d.steps.len(), MAX_STEPS)?;
    for s in &d.steps {
        if let Some(p) = text_problem("a step of the draw", s, MAX_STEP) {
            return fail(at.clone(), p);
        }
    }
    match &d.how {
        DrawKind::Physical {
            method, outcomes, ..
        } => {
            if let Some(p) = text_problem("the draw's method", method, MAX_TEXT) {
                return fail(at.clone(), p);
            }
            if let Some(o) = outcomes {
                if let Some(p) = text_problem("the outcomes text", o, MAX_OUTCOMES) {
                    return fail(at.clone(), p);
                }
            }
        }
        DrawKind::Repeat { round: src } if *src == 0 || *src >= round => {
            return inconsistent(
                at.clone(),
                format!("the position repeats round {src}, which is not an earlier round"),
            );
        }
        _ => {}
    }
    Ok(())
}
