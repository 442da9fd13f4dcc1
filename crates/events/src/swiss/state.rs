//! What the Dutch rules read about each player before a round: score, pairing rank, colour
//! preference (C.04.3 Art. 1.6–1.7), floats (Art. 1.4) and whether the player may get the
//! pairing-allocated bye (C.04.1 and Art. 1.5).

use crate::model::{Color, PointSystem, Round, SwissHistory, SwissPlayer};

/// A float in an earlier round (Art. 1.4).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Float {
    /// Paired with a lower score, or scored more than a loss without playing.
    Down,
    /// Paired with a higher score.
    Up,
    /// Neither.
    None,
}

/// One player's pairing data for the round being paired.
#[derive(Clone, Debug)]
pub struct PlayerState {
    /// Index into the history's players.
    pub index: usize,
    /// Rank among the players who count (pairing order for colours and ties, from 0).
    pub rank: usize,
    /// The pairing score in tenths: the real score plus the virtual points of an accelerated
    /// round (C.04.5). Brackets, floats, the PAB's score and colour allocation read this.
    pub score: u32,
    /// The real score in tenths, without virtual points: what the published board order
    /// reads (as bbpPairings does), like the standings.
    pub real_score: u32,
    /// Games actually played.
    pub played_games: usize,
    /// |whites − blacks| over played games.
    pub imbalance: usize,
    /// The colour this player should get, if any (Art. 1.7).
    pub preference: Option<Color>,
    /// The colour of the last two (or more) played games when they were the same.
    pub repeated: Option<Color>,
    /// A strong preference: |whites − blacks| = 1, not absolute.
    pub strong: bool,
    /// May get the pairing-allocated bye.
    pub bye_eligible: bool,
    /// The player's rounds (played and not).
    pub rounds: Vec<Round>,
    /// Points per round, for scores of earlier rounds.
    pub round_points: Vec<u32>,
    /// Virtual points by round (index 0: round 1), for pairing scores of earlier rounds.
    pub acceleration: Vec<u32>,
}

impl PlayerState {
    /// An absolute colour preference: |whites − blacks| > 1, or the same colour twice running.
    pub fn absolute(&self) -> bool {
        self.imbalance > 1 || self.repeated.is_some()
    }

    /// |whites − blacks| > 1.
    pub fn absolute_imbalance(&self) -> bool {
        self.imbalance > 1
    }

    /// The pairing score the player had when the round `back` rounds ago was paired: the
    /// real score before it plus that round's virtual points (a float is judged by the
    /// scores that round was paired with, as bbpPairings does).
    pub fn score_back(&self, back: usize) -> u32 {
        let n = self.round_points.len();
        let real = self.real_score - self.round_points[n - back..].iter().sum::<u32>();
        real.saturating_add(self.acceleration.get(n - back).copied().unwrap_or(0))
    }

    /// The colours of played games, latest first.
    pub fn colors_latest_first(&self) -> impl Iterator<Item = Color> + '_ {
        self.rounds.iter().rev().filter_map(|r| r.played_color())
    }
}

/// Whether `a` ranks below `b`: a lower pairing score, or the same score and a later rank.
pub fn ranks_below(a: &PlayerState, b: &PlayerState) -> bool {
    (a.score, b.rank) < (b.score, a.rank)
}

/// [`ranks_below`] by the real scores, without virtual points: the order of the published
/// boards (C.04.2 D.9), which bbpPairings also sorts by real scores.
pub fn ranks_below_real(a: &PlayerState, b: &PlayerState) -> bool {
    (a.real_score, b.rank) < (b.real_score, a.rank)
}

/// The states of the players who count for this round, indexed like the history's players
/// (`None`: a player absent now who has never been in a pairing; such a player takes no rank).
pub fn player_states(h: &SwissHistory) -> Vec<Option<PlayerState>> {
    let mut rank = 0;
    h.players
        .iter()
        .enumerate()
        .map(|(index, p)| {
            let counts = !p.absent || p.rounds.iter().any(Round::paired);
            if !counts {
                return None;
            }
            let s = state(index, rank, p, &h.points);
            rank += 1;
            Some(s)
        })
        .collect()
}

fn state(index: usize, rank: usize, p: &SwissPlayer, points: &PointSystem) -> PlayerState {
    let rounds = &p.rounds[..];
    let round_points: Vec<u32> = rounds.iter().map(|r| points.points(r)).collect();
    let (mut whites, mut blacks, mut run, mut last) = (0usize, 0usize, 0usize, None);
    let mut played_games = 0;
    for c in rounds.iter().filter_map(Round::played_color) {
        played_games += 1;
        match c {
            Color::White => whites += 1,
            Color::Black => blacks += 1,
        }
        run = if last == Some(c) { run + 1 } else { 1 };
        last = Some(c);
    }
    let lower = if whites > blacks {
        Color::Black
    } else {
        Color::White
    };
    let imbalance = whites.abs_diff(blacks);
    let preference = if imbalance > 1 {
        Some(lower)
    } else if run > 1 {
        last.map(Color::flip)
    } else if imbalance > 0 {
        Some(lower)
    } else {
        last.map(Color::flip)
    };
    let repeated = if run > 1 { last } else { None };
    // A win's points without playing (a forfeit win, a full-point bye) or an earlier PAB
    // rule the player out of the PAB.
    let bye_eligible = rounds
        .iter()
        .zip(&round_points)
        .all(|(r, &pts)| r.played() || (pts < points.win && !matches!(r, Round::PairingBye)));
    let real_score: u32 = round_points.iter().sum();
    // The round being paired is the one after those played.
    let virtual_points = p.virtual_points(rounds.len() + 1);
    let mut s = PlayerState {
        index,
        rank,
        score: real_score.saturating_add(virtual_points),
        real_score,
        played_games,
        imbalance,
        preference,
        repeated,
        strong: false,
        bye_eligible,
        rounds: rounds.to_vec(),
        round_points,
        acceleration: p.acceleration.clone(),
    };
    s.strong = !s.absolute() && imbalance > 0;
    s
}

/// The float of player `p` in the round `back` rounds ago (1 = the last round).
pub fn float(
    p: &PlayerState,
    back: usize,
    all: &[Option<PlayerState>],
    points: &PointSystem,
) -> Float {
    let n = p.rounds.len();
    let r = &p.rounds[n - back];
    match *r {
        Round::Played { opponent, .. } => {
            let mine = p.score_back(back);
            let theirs = all[opponent].as_ref().map_or(0, |o| o.score_back(back));
            match mine.cmp(&theirs) {
                std::cmp::Ordering::Greater => Float::Down,
                std::cmp::Ordering::Less => Float::Up,
                std::cmp::Ordering::Equal => Float::None,
            }
        }
        _ if points.points(r) > points.loss => Float::Down,
        _ => Float::None,
    }
}
