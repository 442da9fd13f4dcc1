//! Knockout events, as the Chess960 world championships were played: a bracket seeded by
//! rating or by lot (the top seeds get the byes of a field that is not a power of two), and in
//! each round mini-matches of N games (2 by default) on the round's one drawn position, colours
//! swapped from game to game. A tied match goes on to the tiebreak stages the arbiter set (by
//! default two rapid games on a new drawn position, then two blitz games on another, then one
//! Armageddon game where Black's draw counts as a win), each stage scored on its own; the last
//! stage repeats until the match is decided, unless it is the Armageddon, which always
//! decides.
//!
//! The games are the round's [`Board`]s, each marked with its match and stage ([`Slot`]); the
//! bracket, the scores and the winners are computed from them ([`bracket`]), never stored
//! twice. A tiebreak stage's position is drawn once per round and stage
//! ([`crate::event::EventRound::stage_draws`]), with every method a round's position has.

pub use crate::round::Slot;
use crate::round::{Board, BoardResult, EventRound, RoundBye};
use serde::{Deserialize, Serialize};
use std::fmt;

/// The most games in one stage of a match.
pub const MAX_STAGE_GAMES: u32 = 12;
/// The most tiebreak stages the arbiter can set.
pub const MAX_TIEBREAK_STAGES: usize = 8;
/// The most stages one match may play (the regular games and tiebreaks, repeats included):
/// past this the arbiter decides the match by a result entered by hand.
pub const MAX_MATCH_STAGES: u32 = 24;

/// How the players are placed in the bracket.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Seeding {
    /// By rating (then name): seed 1 meets seed 2 in the final at the earliest.
    #[default]
    Rating,
    /// By drawing lots from a seed, recorded in the event's order note.
    Lot,
}

/// What kind of games a tiebreak stage plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum StageKind {
    /// Rapid games.
    Rapid,
    /// Blitz games.
    Blitz,
    /// One game where a draw counts as a win for Black; colours by lot.
    Armageddon,
    /// More games at the time control given.
    Games,
}

impl StageKind {
    /// The name as the command line and the documents write it.
    pub fn name(self) -> &'static str {
        match self {
            StageKind::Rapid => "rapid",
            StageKind::Blitz => "blitz",
            StageKind::Armageddon => "armageddon",
            StageKind::Games => "games",
        }
    }

    /// By name.
    pub fn parse(s: &str) -> Option<StageKind> {
        [
            StageKind::Rapid,
            StageKind::Blitz,
            StageKind::Armageddon,
            StageKind::Games,
        ]
        .into_iter()
        .find(|k| k.name().eq_ignore_ascii_case(s.trim()))
    }
}

/// One tiebreak stage: its kind, its games and their time control.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Stage {
    /// Rapid, blitz, Armageddon or more games.
    pub kind: StageKind,
    /// Games in the stage (1 for the Armageddon), colours alternating.
    pub games: u32,
    /// Its time control as announced (`10+5`: minutes and seconds of increment, which games
    /// on the server use; anything else is shown as written and the server plays untimed).
    #[serde(default)]
    pub time_control: String,
}

impl Stage {
    /// A stage from the command line's `KIND:GAMES:TIME` (`rapid:2:10+5`, `armageddon:1:5+0`;
    /// the Armageddon may leave out its one game: `armageddon:5+0`).
    pub fn parse(s: &str) -> Result<Stage, String> {
        let parts: Vec<&str> = s.trim().split(':').collect();
        let kind = parts
            .first()
            .and_then(|k| StageKind::parse(k))
            .ok_or_else(|| {
                format!(
                    "{:?}: a tiebreak stage starts with rapid, blitz, armageddon or games",
                    clip(s)
                )
            })?;
        let (games, tc) = match (kind, parts.as_slice()) {
            (StageKind::Armageddon, [_, tc]) => (1, *tc),
            (_, [_, g, tc]) => (
                g.trim()
                    .parse::<u32>()
                    .map_err(|_| format!("{:?}: the number of games is not a number", clip(s)))?,
                *tc,
            ),
            _ => {
                return Err(format!(
                    "{:?}: write a tiebreak stage as KIND:GAMES:TIME, e.g. rapid:2:10+5",
                    clip(s)
                ))
            }
        };
        let stage = Stage {
            kind,
            games,
            time_control: tc.trim().to_string(),
        };
        stage.check()?;
        Ok(stage)
    }

    /// The stage's own rules: 1 to [`MAX_STAGE_GAMES`] games, the Armageddon one.
    pub fn check(&self) -> Result<(), String> {
        if self.kind == StageKind::Armageddon && self.games != 1 {
            return Err(format!(
                "an Armageddon stage is one game, not {}",
                self.games
            ));
        }
        if !(1..=MAX_STAGE_GAMES).contains(&self.games) {
            return Err(format!(
                "a stage has 1 to {MAX_STAGE_GAMES} games, not {}",
                self.games
            ));
        }
        if self.time_control.chars().nth(40).is_some()
            || self.time_control.chars().any(char::is_control)
        {
            return Err("a stage's time control is at most 40 characters of text".into());
        }
        Ok(())
    }
}

impl fmt::Display for Stage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let what = match self.kind {
            StageKind::Rapid => "rapid",
            StageKind::Blitz => "blitz",
            StageKind::Armageddon => "Armageddon",
            StageKind::Games => "more",
        };
        if self.kind == StageKind::Armageddon {
            write!(f, "an Armageddon game")?;
        } else {
            write!(
                f,
                "{} {what} game{}",
                self.games,
                if self.games == 1 { "" } else { "s" }
            )?;
        }
        if !self.time_control.is_empty() {
            write!(f, " ({})", self.time_control)?;
        }
        Ok(())
    }
}

fn clip(s: &str) -> String {
    s.chars().take(40).collect()
}

/// How a knockout is played.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct KnockoutPlan {
    /// Games of each match before any tiebreak (2 by default), on the round's position.
    #[serde(default = "two")]
    pub games: u32,
    /// How the bracket is seeded.
    #[serde(default)]
    pub seeding: Seeding,
    /// The tiebreak stages in order, each on a position of its own.
    #[serde(default = "default_tiebreaks")]
    pub tiebreaks: Vec<Stage>,
}

fn two() -> u32 {
    2
}

/// Two rapid games (10+5), two blitz games (3+2), then an Armageddon (5+0): the tiebreaks of
/// a Chess960 knockout unless the arbiter sets others.
pub fn default_tiebreaks() -> Vec<Stage> {
    vec![
        Stage {
            kind: StageKind::Rapid,
            games: 2,
            time_control: "10+5".into(),
        },
        Stage {
            kind: StageKind::Blitz,
            games: 2,
            time_control: "3+2".into(),
        },
        Stage {
            kind: StageKind::Armageddon,
            games: 1,
            time_control: "5+0".into(),
        },
    ]
}

impl Default for KnockoutPlan {
    fn default() -> KnockoutPlan {
        KnockoutPlan {
            games: 2,
            seeding: Seeding::Rating,
            tiebreaks: default_tiebreaks(),
        }
    }
}

impl KnockoutPlan {
    /// The plan's own rules.
    pub fn check(&self) -> Result<(), String> {
        if !(1..=MAX_STAGE_GAMES).contains(&self.games) {
            return Err(format!(
                "a knockout match has 1 to {MAX_STAGE_GAMES} games before its tiebreaks, not {}",
                self.games
            ));
        }
        if self.tiebreaks.len() > MAX_TIEBREAK_STAGES {
            return Err(format!(
                "at most {MAX_TIEBREAK_STAGES} tiebreak stages, not {}",
                self.tiebreaks.len()
            ));
        }
        for (k, s) in self.tiebreaks.iter().enumerate() {
            s.check()
                .map_err(|e| format!("tiebreak stage {}: {e}", k + 1))?;
            if s.kind == StageKind::Armageddon && k + 1 != self.tiebreaks.len() {
                return Err(format!(
                    "tiebreak stage {}: the Armageddon decides, so it comes last",
                    k + 1
                ));
            }
        }
        Ok(())
    }

    /// Stage `stage` of a match (0: the regular games): its kind (`None` for the regular
    /// games), games and time control. Past the last tiebreak stage the last one repeats
    /// (the regular games, when there are no tiebreaks).
    pub fn stage(&self, stage: u32, event_tc: &str) -> (Option<StageKind>, u32, String) {
        if stage == 0 {
            return (None, self.games, event_tc.to_string());
        }
        match self
            .tiebreaks
            .get((stage as usize - 1).min(self.tiebreaks.len().saturating_sub(1)))
        {
            Some(s) => (Some(s.kind), s.games, s.time_control.clone()),
            None => (None, self.games, event_tc.to_string()),
        }
    }

    /// A short description: `2 games, then 2 rapid games (10+5), …`.
    pub fn describe(&self) -> String {
        let mut out = format!(
            "{} game{} a match",
            self.games,
            if self.games == 1 { "" } else { "s" }
        );
        for s in &self.tiebreaks {
            out += &format!(", then {s}");
        }
        if self
            .tiebreaks
            .last()
            .is_none_or(|s| s.kind != StageKind::Armageddon)
        {
            out += ", the last stage repeated until the match is decided";
        }
        out
    }
}

/// What the bracket reads of a knockout: its plan, how many players it has, its seeding order
/// (player indices, seed 1 first; empty until round 1 is paired) and its rounds.
/// [`crate::event::Event::knockout_field`] gives it for an event.
#[derive(Clone, Copy, Debug)]
pub struct Field<'a> {
    /// How the matches are played.
    pub plan: &'a KnockoutPlan,
    /// The players entered.
    pub players: usize,
    /// The seeding order.
    pub order: &'a [usize],
    /// The rounds so far (index 0: round 1).
    pub played: &'a [EventRound],
}

/// The number of rounds a knockout of `n` players has.
pub fn rounds_for(n: usize) -> u32 {
    if n < 2 {
        0
    } else {
        n.next_power_of_two().trailing_zeros()
    }
}

/// The seeds (1-based) of the bracket's lines, top to bottom, for a bracket of `size` (a power
/// of two): `[1, 8, 4, 5, 2, 7, 3, 6]` for 8. Match `k` of round 1 is lines `2k − 1` and `2k`;
/// each pair's seeds sum to `size + 1`, and seeds 1 and 2 meet only in the final.
pub fn bracket_lines(size: usize) -> Vec<usize> {
    let mut lines = vec![1usize];
    while lines.len() < size {
        let n = lines.len() * 2;
        lines = lines.iter().flat_map(|&s| [s, n + 1 - s]).collect();
    }
    lines
}

/// Where a match stands.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case", tag = "state")]
pub enum MatchState {
    /// Its players are not known yet (an earlier match is undecided).
    Waiting,
    /// One player, no opponent: he goes through.
    Bye {
        /// The player.
        winner: usize,
    },
    /// Paired, its games not yet created (the round is not paired).
    Unpaired,
    /// A stage is under way (some of its games lack a result).
    Playing {
        /// The stage.
        stage: u32,
    },
    /// Tied after its last stage: the next stage is to be added.
    Tied {
        /// The stage that comes next.
        next_stage: u32,
    },
    /// Decided.
    Won {
        /// The winner.
        winner: usize,
        /// The loser.
        loser: usize,
        /// The stage that decided it.
        stage: u32,
    },
}

/// One stage of a match as played so far.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct StageScore {
    /// 0: the regular games; then the tiebreak stages.
    pub stage: u32,
    /// The stage's kind (`None`: the regular games).
    pub kind: Option<StageKind>,
    /// Its boards in the round (1-based board numbers), in order.
    pub boards: Vec<u32>,
    /// Points of the match's first player (the higher seed) and of the second, in tenths.
    pub points: (u32, u32),
    /// Whether every game of the stage has its result.
    pub complete: bool,
}

/// One match of the bracket.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct MatchView {
    /// The match's number in its round, 1 first (bracket order).
    pub number: u32,
    /// The higher seed (or the one player of a bye), once known.
    pub first: Option<usize>,
    /// The other player; `None` with a bye or while unknown.
    pub second: Option<usize>,
    /// Its stages so far.
    pub stages: Vec<StageScore>,
    /// Where it stands.
    pub state: MatchState,
}

impl MatchView {
    /// The winner, once decided (or the player of a bye).
    pub fn winner(&self) -> Option<usize> {
        match self.state {
            MatchState::Bye { winner } | MatchState::Won { winner, .. } => Some(winner),
            _ => None,
        }
    }
}

/// A win's, a draw's and a loss's points for the first player (tenths) on a board, with
/// `first` playing White when `first_white`; an Armageddon's draw is Black's win.
fn game_points(result: BoardResult, first_white: bool, armageddon: bool) -> (u32, u32) {
    let (white, black) = match result {
        BoardResult::WhiteWins | BoardResult::WhiteForfeit => (10, 0),
        BoardResult::BlackWins | BoardResult::BlackForfeit => (0, 10),
        BoardResult::Draw if armageddon => (0, 10),
        BoardResult::Draw => (5, 5),
        BoardResult::DoubleForfeit => (0, 0),
    };
    if first_white {
        (white, black)
    } else {
        (black, white)
    }
}

/// A match from its two players (`first`, `second`) and its boards (board number, board);
/// `plan` for the stages.
fn score_match(
    plan: &KnockoutPlan,
    number: u32,
    first: usize,
    second: usize,
    boards: &[(usize, &Board)],
) -> MatchView {
    let mut stages: Vec<StageScore> = Vec::new();
    for &(j, b) in boards {
        let Some(slot) = b.slot else {
            continue;
        };
        let kind = plan.stage(slot.stage, "").0;
        if stages.last().is_none_or(|s| s.stage != slot.stage) {
            stages.push(StageScore {
                stage: slot.stage,
                kind,
                boards: Vec::new(),
                points: (0, 0),
                complete: true,
            });
        }
        let s = stages.last_mut().expect("pushed above");
        s.boards.push(j as u32 + 1);
        match b.result {
            Some(r) => {
                let (p, q) = game_points(r, b.white == first, kind == Some(StageKind::Armageddon));
                s.points.0 += p;
                s.points.1 += q;
            }
            None => s.complete = false,
        }
    }
    let mut state = if stages.is_empty() {
        MatchState::Unpaired
    } else {
        MatchState::Tied {
            next_stage: stages.last().map_or(0, |s| s.stage + 1),
        }
    };
    for s in &stages {
        if !s.complete {
            state = MatchState::Playing { stage: s.stage };
            break;
        }
        if s.points.0 != s.points.1 {
            let (winner, loser) = if s.points.0 > s.points.1 {
                (first, second)
            } else {
                (second, first)
            };
            state = MatchState::Won {
                winner,
                loser,
                stage: s.stage,
            };
            break;
        }
    }
    MatchView {
        number,
        first: Some(first),
        second: Some(second),
        stages,
        state,
    }
}

/// The whole bracket, round by round (index 0: round 1), every match of every round, those
/// not yet known as [`MatchState::Waiting`]. Empty until round 1 is paired (the seeding is
/// fixed then). A damaged document gives what can be read.
pub fn bracket(e: &Field<'_>) -> Vec<Vec<MatchView>> {
    let Some(plan) = Some(e.plan) else {
        return Vec::new();
    };
    let n = e.players;
    if e.order.len() != n || n < 2 {
        return Vec::new();
    }
    let size = n.next_power_of_two();
    let lines = bracket_lines(size);
    let seed_of = |i: usize| e.order.iter().position(|&p| p == i).unwrap_or(usize::MAX);
    // Round 1's lines: a player or a bye.
    let mut line: Vec<Option<usize>> = lines.iter().map(|&s| e.order.get(s - 1).copied()).collect();
    let mut out = Vec::new();
    for r in 0..rounds_for(n) as usize {
        let round = e.played.get(r).filter(|x| x.paired);
        // Each match's boards, gathered once: a round may hold many.
        let mut by_match: Vec<Vec<(usize, &Board)>> = vec![Vec::new(); line.len() / 2];
        for (j, b) in round.iter().flat_map(|x| x.boards.iter().enumerate()) {
            if let Some(v) = b
                .slot
                .and_then(|s| by_match.get_mut((s.match_no as usize).wrapping_sub(1)))
            {
                v.push((j, b));
            }
        }
        let mut matches = Vec::with_capacity(line.len() / 2);
        let mut next = Vec::with_capacity(line.len() / 2);
        for (k, pair) in line.chunks(2).enumerate() {
            let number = k as u32 + 1;
            let (a, b) = (pair[0], pair.get(1).copied().flatten());
            let view = match (a, b) {
                (Some(x), Some(y)) => {
                    let (first, second) = if seed_of(x) <= seed_of(y) {
                        (x, y)
                    } else {
                        (y, x)
                    };
                    match round {
                        Some(_) => score_match(plan, number, first, second, &by_match[k]),
                        None => MatchView {
                            number,
                            first: Some(first),
                            second: Some(second),
                            stages: Vec::new(),
                            state: MatchState::Unpaired,
                        },
                    }
                }
                // A bye only in round 1: later a missing player is an undecided match.
                (Some(x), None) | (None, Some(x)) if r == 0 => MatchView {
                    number,
                    first: Some(x),
                    second: None,
                    stages: Vec::new(),
                    state: MatchState::Bye { winner: x },
                },
                _ => MatchView {
                    number,
                    first: a.filter(|_| r > 0),
                    second: b,
                    stages: Vec::new(),
                    state: MatchState::Waiting,
                },
            };
            next.push(view.winner());
            matches.push(view);
        }
        out.push(matches);
        line = next;
    }
    out
}

/// The event's winner, once the final is decided.
pub fn champion(e: &Field<'_>) -> Option<usize> {
    bracket(e).last()?.first()?.winner()
}

/// The boards of the regular games of a round's matches (`pairs`: first and second player
/// by match number), colours alternating, the first player White in game 1 when
/// `first_white`.
pub(crate) fn regular_boards(
    plan: &KnockoutPlan,
    pairs: &[(u32, usize, usize)],
    first_white: bool,
) -> Vec<Board> {
    let mut boards = Vec::new();
    for &(number, first, second) in pairs {
        boards.extend(stage_boards(
            number,
            0,
            plan.games,
            first,
            second,
            first_white,
        ));
    }
    boards
}

/// A stage's boards: `games` games, the first with `first` White when `first_white`, then
/// alternating.
pub(crate) fn stage_boards(
    number: u32,
    stage: u32,
    games: u32,
    first: usize,
    second: usize,
    first_white: bool,
) -> Vec<Board> {
    (0..games)
        .map(|g| {
            let white_first = first_white == (g % 2 == 0);
            let (w, b) = if white_first {
                (first, second)
            } else {
                (second, first)
            };
            Board {
                slot: Some(Slot {
                    match_no: number,
                    stage,
                }),
                ..Board::paired(w, b)
            }
        })
        .collect()
}

/// The byes of round 1: players whose line has no opponent go through.
pub(crate) fn round_one_byes(e: &Field<'_>) -> Vec<(usize, RoundBye)> {
    bracket_pairs(e, 1)
        .into_iter()
        .filter_map(|(_, a, b)| match (a, b) {
            (Some(x), None) => Some((x, RoundBye::Full)),
            _ => None,
        })
        .collect()
}

/// The matches of `round` (from 1) with their players as the bracket has them (first the
/// higher seed), by match number; needs the order fixed.
pub(crate) fn bracket_pairs(e: &Field<'_>, round: u32) -> Vec<(u32, Option<usize>, Option<usize>)> {
    bracket(e)
        .get(round.saturating_sub(1) as usize)
        .map(|ms| ms.iter().map(|m| (m.number, m.first, m.second)).collect())
        .unwrap_or_default()
}

/// The first problem of a knockout's rounds, said in words with the round and match: boards
/// without their match, players outside their match, stages out of order or of the wrong
/// size, a tiebreak after a decided stage, a round paired before the last was decided.
pub fn check(e: &Field<'_>) -> Result<(), (u32, String)> {
    let Some(plan) = Some(e.plan) else {
        return Ok(());
    };
    let br = bracket(e);
    for (r, round) in e.played.iter().enumerate() {
        let rn = r as u32 + 1;
        if !round.paired {
            continue;
        }
        let Some(matches) = br.get(r) else {
            return Err((
                rn,
                format!(
                    "a knockout of {} players has {} rounds",
                    e.players,
                    br.len()
                ),
            ));
        };
        if r > 0 {
            if let Some(m) = br[r - 1].iter().find(|m| m.winner().is_none()) {
                return Err((
                    rn,
                    format!("paired, but match {} of round {r} is not decided", m.number),
                ));
            }
        }
        for (j, b) in round.boards.iter().enumerate() {
            let board = j + 1;
            let Some(slot) = b.slot else {
                return Err((rn, format!("board {board} belongs to no match")));
            };
            let Some(m) = matches.get((slot.match_no as usize).wrapping_sub(1)) else {
                return Err((
                    rn,
                    format!("board {board}: the round has no match {}", slot.match_no),
                ));
            };
            let players = [m.first, m.second];
            if !players.contains(&Some(b.white)) || !players.contains(&Some(b.black)) {
                return Err((
                    rn,
                    format!(
                        "board {board}: its players are not those of match {}",
                        slot.match_no
                    ),
                ));
            }
        }
        for m in matches {
            let last = m.stages.len();
            for (k, s) in m.stages.iter().enumerate() {
                let expect = k as u32;
                if s.stage != expect {
                    return Err((
                        rn,
                        format!(
                            "match {}: stage {} where stage {expect} comes",
                            m.number, s.stage
                        ),
                    ));
                }
                if s.stage >= MAX_MATCH_STAGES {
                    return Err((
                        rn,
                        format!("match {}: more than {MAX_MATCH_STAGES} stages", m.number),
                    ));
                }
                let want = plan.stage(s.stage, "").1;
                if s.boards.len() != want as usize {
                    return Err((
                        rn,
                        format!(
                            "match {}, stage {}: {} games where the plan has {want}",
                            m.number,
                            s.stage,
                            s.boards.len()
                        ),
                    ));
                }
                if k + 1 < last && (!s.complete || s.points.0 != s.points.1) {
                    return Err((
                        rn,
                        format!(
                            "match {}: stage {} follows stage {}, which is {}",
                            m.number,
                            s.stage + 1,
                            s.stage,
                            if s.complete {
                                "decided"
                            } else {
                                "not finished"
                            }
                        ),
                    ));
                }
            }
            if m.second.is_some() && m.stages.is_empty() {
                return Err((rn, format!("match {} has no games", m.number)));
            }
        }
        let byes: Vec<usize> = round.byes.iter().map(|(p, _)| *p).collect();
        let want: Vec<usize> = matches
            .iter()
            .filter_map(|m| match m.state {
                MatchState::Bye { winner } => Some(winner),
                _ => None,
            })
            .collect();
        if byes != want {
            return Err((rn, "its byes are not the bracket's".into()));
        }
    }
    Ok(())
}

/// Places after the rounds so far: the champion 1, the final's loser 2, each earlier round's
/// losers sharing the places below those still in after it (3–4, then 5–8 in a full
/// bracket; 5–6 when a round of 6 had two matches and two byes); players still in share the
/// places from 1 down to the last one their round can give. `(player, first place, last
/// place)`, best first, then by seed.
pub fn placings(e: &Field<'_>) -> Vec<(usize, u32, u32)> {
    let br = bracket(e);
    let n = e.players;
    let champion = br
        .last()
        .and_then(|ms| ms.first())
        .and_then(MatchView::winner);
    // Each player's last round in the bracket and whether he lost there.
    let mut last: Vec<Option<(usize, bool)>> = vec![None; n];
    for (r, ms) in br.iter().enumerate() {
        for m in ms {
            for p in [m.first, m.second].into_iter().flatten() {
                if let Some(x) = last.get_mut(p) {
                    let lost = matches!(m.state, MatchState::Won { loser, .. } if loser == p);
                    *x = Some((r, lost));
                }
            }
        }
    }
    // After round r, one player goes on from each of its matches: those below them share
    // the places of the round's losers (matches with two players).
    let band = |r: usize| -> (u32, u32) {
        let on = br.get(r).map_or(0, Vec::len) as u32;
        let losers = br
            .get(r)
            .map_or(0, |ms| ms.iter().filter(|m| m.second.is_some()).count())
            as u32;
        (on + 1, on + losers.max(1))
    };
    let seed = |i: usize| e.order.iter().position(|&p| p == i).unwrap_or(usize::MAX);
    let mut out: Vec<(usize, u32, u32)> = Vec::with_capacity(n);
    for (i, at) in last.iter().enumerate() {
        let (lo, hi) = match *at {
            _ if champion == Some(i) => (1, 1),
            Some((r, true)) => band(r),
            Some((r, false)) => (1, band(r).1),
            // Not in the bracket (its order is not fixed yet): anywhere.
            None => (1, n as u32),
        };
        out.push((i, lo, hi));
    }
    out.sort_by_key(|&(i, lo, hi)| (lo, hi, seed(i)));
    out
}

/// Points (tenths) each player scored in his knockout games, an Armageddon's draw counted
/// as Black's win; indexed like the players.
pub fn points_scored(e: &Field<'_>) -> Vec<u32> {
    let mut out = vec![0u32; e.players];
    let plan = Some(e.plan);
    for r in e.played.iter().filter(|r| r.paired) {
        for b in &r.boards {
            let (Some(res), Some(slot)) = (b.result, b.slot) else {
                continue;
            };
            let armageddon =
                plan.is_some_and(|p| p.stage(slot.stage, "").0 == Some(StageKind::Armageddon));
            let (w, bl) = game_points(res, true, armageddon);
            for (i, p) in [(b.white, w), (b.black, bl)] {
                if let Some(x) = out.get_mut(i) {
                    *x = x.saturating_add(p);
                }
            }
        }
    }
    out
}

/// A knockout's crosstable cell: the opponent's number and how the match went for the
/// player (`5+` won, `5-` lost, `5` under way), `F` for a bye, empty when not in the round.
pub fn crosstable_cell(
    e: &Field<'_>,
    round: usize,
    player: usize,
    number_of: &dyn Fn(usize) -> usize,
) -> String {
    let br = bracket(e);
    let Some(m) = br.get(round).and_then(|ms| {
        ms.iter()
            .find(|m| m.first == Some(player) || m.second == Some(player))
    }) else {
        return String::new();
    };
    if let MatchState::Bye { .. } = m.state {
        return "F".into();
    }
    let opp = if m.first == Some(player) {
        m.second
    } else {
        m.first
    };
    let Some(opp) = opp.filter(|&o| o < e.players) else {
        return "?".into();
    };
    let mark = match m.state {
        MatchState::Won { winner, .. } if winner == player => "+",
        MatchState::Won { .. } => "-",
        _ => "",
    };
    format!("{}{mark}", number_of(opp))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_put_seeds_one_and_two_in_opposite_halves() {
        assert_eq!(bracket_lines(2), vec![1, 2]);
        assert_eq!(bracket_lines(4), vec![1, 4, 2, 3]);
        assert_eq!(bracket_lines(8), vec![1, 8, 4, 5, 2, 7, 3, 6]);
        for size in [2usize, 4, 8, 16, 32, 64, 128, 256, 512, 1024] {
            let l = bracket_lines(size);
            let mut sorted = l.clone();
            sorted.sort_unstable();
            assert_eq!(
                sorted,
                (1..=size).collect::<Vec<_>>(),
                "a permutation of the seeds"
            );
            for pair in l.chunks(2) {
                assert_eq!(
                    pair[0] + pair[1],
                    size + 1,
                    "round 1 pairs s with size + 1 − s"
                );
            }
            // Seeds 1..k are in different blocks of size/k lines for every power of two k:
            // the top k meet no earlier than the round of the last k.
            let mut k = 2;
            while k <= size {
                let block = size / k;
                let mut seen = vec![false; k];
                for (line, &s) in l.iter().enumerate() {
                    if s <= k {
                        assert!(
                            !std::mem::replace(&mut seen[line / block], true),
                            "{size} {k}"
                        );
                    }
                }
                k *= 2;
            }
        }
    }

    #[test]
    fn rounds_follow_the_field() {
        assert_eq!(rounds_for(0), 0);
        assert_eq!(rounds_for(1), 0);
        assert_eq!(rounds_for(2), 1);
        assert_eq!(rounds_for(3), 2);
        assert_eq!(rounds_for(8), 3);
        assert_eq!(rounds_for(9), 4);
        assert_eq!(rounds_for(1000), 10);
    }

    #[test]
    fn stages_parse_and_refuse() {
        let s = Stage::parse("rapid:2:10+5").unwrap();
        assert_eq!(
            (s.kind, s.games, s.time_control.as_str()),
            (StageKind::Rapid, 2, "10+5")
        );
        let a = Stage::parse("armageddon:5+0").unwrap();
        assert_eq!((a.kind, a.games), (StageKind::Armageddon, 1));
        assert!(Stage::parse("armageddon:2:5+0")
            .unwrap_err()
            .contains("one game"));
        assert!(Stage::parse("bullet:2:1+0")
            .unwrap_err()
            .contains("starts with"));
        assert!(Stage::parse("rapid:x:1+0")
            .unwrap_err()
            .contains("not a number"));
        assert!(Stage::parse("rapid:0:1+0").unwrap_err().contains("1 to 12"));
        assert!(Stage::parse("rapid")
            .unwrap_err()
            .contains("KIND:GAMES:TIME"));
        let mut p = KnockoutPlan::default();
        assert_eq!(p.check(), Ok(()));
        p.tiebreaks.swap(0, 2);
        assert!(p.check().unwrap_err().contains("comes last"));
    }

    #[test]
    fn an_armageddon_draw_is_blacks_win() {
        assert_eq!(game_points(BoardResult::Draw, true, true), (0, 10));
        assert_eq!(game_points(BoardResult::Draw, false, true), (10, 0));
        assert_eq!(game_points(BoardResult::Draw, true, false), (5, 5));
        assert_eq!(game_points(BoardResult::BlackForfeit, true, false), (0, 10));
        assert_eq!(game_points(BoardResult::DoubleForfeit, false, true), (0, 0));
    }
}
