//! Standings with tie-breaks (FIDE C.07), and the crosstable.
//!
//! Values are in hundredths of a point. Rounds without a game follow C.07's handling of
//! unplayed rounds (Art. 16, 2023): for the player's own Buchholz and Sonneborn-Berger, a
//! round without a game counts as a game against a dummy opponent with the player's own
//! score (won, drawn or lost as the round's points say); when a player's score enters an
//! opponent's Buchholz, the player's rounds without a game count as draws. Buchholz Cut-1
//! drops the lowest value. Direct encounter separates a group of tied players only when all
//! of them have played each other. Ties that no tie-break separates share their place.
//!
//! Any document is read without a panic (the database may hold one written by an older
//! version): a board whose opponent is no player counts as a round without a game, and sums
//! saturate instead of overflowing.

use crate::event::{BoardResult, Event, Tiebreak};
use std::collections::HashMap;

/// One line of the standings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Standing {
    /// The place (tied players share it).
    pub place: u32,
    /// The player (index).
    pub player: usize,
    /// Points in tenths.
    pub points: u32,
    /// The event's tie-breaks in order, in hundredths (`None`: does not apply, e.g. a direct
    /// encounter among players who have not all met).
    pub tiebreaks: Vec<Option<u64>>,
}

/// What one player did in one round, for tie-breaks.
#[derive(Clone, Copy, Debug)]
enum Entry {
    /// A game: opponent, points (tenths).
    Game(usize, u32),
    /// No game (bye, forfeit, absence): points (tenths).
    NoGame(u32),
}

fn entries(e: &Event, player: usize) -> Vec<Entry> {
    let n = e.players.len();
    e.played
        .iter()
        .filter(|r| r.paired)
        .map(|r| {
            let pts = e.points_in(r, player);
            for b in &r.boards {
                if b.white == player || b.black == player {
                    let opp = if b.white == player { b.black } else { b.white };
                    if b.result.is_some_and(BoardResult::played) && opp < n {
                        return Entry::Game(opp, pts);
                    }
                }
            }
            Entry::NoGame(pts)
        })
        .collect()
}

/// The sum of `v`, saturating (a stored document's points are not bounded until validated).
fn total(v: impl IntoIterator<Item = u64>) -> u64 {
    v.into_iter().fold(0, u64::saturating_add)
}

/// What the tie-breaks read, computed once for all players.
struct Facts {
    /// Final scores, hundredths.
    score: Vec<u64>,
    /// Scores as they enter an opponent's Buchholz (rounds without a game as draws),
    /// hundredths.
    adjusted: Vec<u64>,
    /// Each player's rounds.
    entries: Vec<Vec<Entry>>,
    /// Points (hundredths) `p` scored against `q` in games played between them.
    against: HashMap<(usize, usize), u64>,
    win: u64,
}

impl Facts {
    fn of(e: &Event) -> Facts {
        let n = e.players.len();
        let entries: Vec<Vec<Entry>> = (0..n).map(|i| entries(e, i)).collect();
        let score: Vec<u64> = (0..n).map(|i| e.score(i) as u64 * 10).collect();
        let adjusted = entries
            .iter()
            .map(|es| {
                total(es.iter().map(|x| match *x {
                    Entry::Game(_, p) => p as u64,
                    Entry::NoGame(_) => e.points.draw as u64,
                }))
                .saturating_mul(10)
            })
            .collect();
        let mut against: HashMap<(usize, usize), u64> = HashMap::new();
        for (i, es) in entries.iter().enumerate() {
            for x in es {
                if let Entry::Game(o, p) = *x {
                    let v = against.entry((i, o)).or_insert(0);
                    *v = v.saturating_add(p as u64 * 10);
                }
            }
        }
        Facts {
            score,
            adjusted,
            entries,
            against,
            win: e.points.win as u64,
        }
    }

    /// The per-round values of a player's Buchholz (hundredths).
    fn buchholz_values(&self, player: usize) -> Vec<u64> {
        let own = self.score[player];
        self.entries[player]
            .iter()
            .map(|x| match *x {
                Entry::Game(o, _) => self.adjusted[o],
                Entry::NoGame(_) => own,
            })
            .collect()
    }

    fn sonneborn_berger(&self, player: usize) -> u64 {
        let own = self.score[player];
        self.entries[player]
            .iter()
            .map(|x| {
                let (opp_score, pts) = match *x {
                    Entry::Game(o, p) => (self.score[o], p as u64),
                    Entry::NoGame(p) => (own, p as u64),
                };
                // The opponent's score times the fraction of a win scored against him.
                opp_score.saturating_mul(pts) / self.win.max(1)
            })
            .fold(0, u64::saturating_add)
    }

    fn wins(&self, player: usize) -> u64 {
        let win = self.win as u32;
        self.entries[player]
            .iter()
            .filter(|x| matches!(**x, Entry::Game(_, p) if p == win))
            .count() as u64
            * 100
    }

    /// Direct encounter within `group`: the points each scored against the others, if every
    /// two of them have played.
    fn direct_encounter(&self, group: &[usize]) -> Vec<Option<u64>> {
        // Nobody has met more others than he has rounds: a larger group cannot have all met,
        // and is not looked at pair by pair.
        let rounds = self.entries.first().map_or(0, Vec::len);
        if group.len() > rounds + 1 {
            return vec![None; group.len()];
        }
        let mut pts = vec![0u64; group.len()];
        for (a, &p) in group.iter().enumerate() {
            for &q in group.iter().filter(|&&q| q != p) {
                match self.against.get(&(p, q)) {
                    Some(x) => pts[a] = pts[a].saturating_add(*x),
                    None => return vec![None; group.len()],
                }
            }
        }
        pts.into_iter().map(Some).collect()
    }
}

/// The standings after the rounds with results. A knockout's are its placings
/// ([`crate::knockout::placings`]: the best place a player shares), with the points he scored
/// in his games.
pub fn standings(e: &Event) -> Vec<Standing> {
    if e.knockout_plan().is_some() {
        let points = e.knockout_points();
        return e
            .placings()
            .into_iter()
            .map(|(player, place, _)| Standing {
                place,
                player,
                points: points.get(player).copied().unwrap_or(0),
                tiebreaks: vec![None; e.tiebreaks.len()],
            })
            .collect();
    }
    let n = e.players.len();
    let f = Facts::of(e);
    let global = |t: Tiebreak, i: usize| -> Option<u64> {
        match t {
            Tiebreak::Buchholz => Some(total(f.buchholz_values(i))),
            Tiebreak::BuchholzCut1 => {
                let v = f.buchholz_values(i);
                let least = v.iter().min().copied().unwrap_or(0);
                Some(total(v).saturating_sub(least))
            }
            Tiebreak::SonnebornBerger => Some(f.sonneborn_berger(i)),
            Tiebreak::Wins => Some(f.wins(i)),
            Tiebreak::DirectEncounter => None,
        }
    };
    let points: Vec<u32> = f.score.iter().map(|&s| (s / 10) as u32).collect();
    let mut values: Vec<Vec<Option<u64>>> = vec![vec![None; e.tiebreaks.len()]; n];
    // Groups of players still tied, best first.
    // Pairing numbers once, not a search of the order in every comparison.
    let mut number: Vec<Option<usize>> = vec![None; n];
    for (k, &i) in e.order.iter().enumerate() {
        if let Some(slot) = number.get_mut(i) {
            slot.get_or_insert(k + 1);
        }
    }
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&a, &b| {
        points[b]
            .cmp(&points[a])
            .then(number[a].cmp(&number[b]))
            .then(a.cmp(&b))
    });
    let mut groups: Vec<Vec<usize>> = Vec::new();
    for &i in &order {
        match groups.last_mut() {
            Some(g) if points[g[0]] == points[i] => g.push(i),
            _ => groups.push(vec![i]),
        }
    }
    for (k, &t) in e.tiebreaks.iter().enumerate() {
        let mut next = Vec::new();
        for g in groups {
            let vals: Vec<Option<u64>> = if t == Tiebreak::DirectEncounter {
                if g.len() > 1 {
                    f.direct_encounter(&g)
                } else {
                    vec![None]
                }
            } else {
                g.iter().map(|&i| global(t, i)).collect()
            };
            for (&i, v) in g.iter().zip(&vals) {
                values[i][k] = *v;
            }
            if g.len() == 1 {
                next.push(g);
                continue;
            }
            let mut sorted = g.clone();
            sorted.sort_by(|&a, &b| values[b][k].cmp(&values[a][k]));
            let mut sub: Vec<Vec<usize>> = Vec::new();
            for i in sorted {
                match sub.last_mut() {
                    Some(s) if values[s[0]][k] == values[i][k] => s.push(i),
                    _ => sub.push(vec![i]),
                }
            }
            next.extend(sub);
        }
        groups = next;
    }
    // Fill in the values of tie-breaks not needed for a player (all but DE, which only
    // exists among tied players).
    for (k, &t) in e.tiebreaks.iter().enumerate() {
        if t != Tiebreak::DirectEncounter {
            for (i, v) in values.iter_mut().enumerate() {
                v[k] = global(t, i);
            }
        }
    }
    let mut out = Vec::new();
    let mut place = 1;
    for g in groups {
        for &i in &g {
            out.push(Standing {
                place,
                player: i,
                points: points[i],
                tiebreaks: values[i].clone(),
            });
        }
        place = place.saturating_add(g.len() as u32);
    }
    out
}

/// A crosstable cell: the opponent's number (as `number_of` gives it), colour and result, as
/// `12w1`, `5b=`, `3w+` (a forfeit win); `PAB`, `H`, `F` for byes, `-` when not paired; `?`
/// for an opponent that is no player (a damaged document; `number_of` is not asked then).
pub fn crosstable_cell(
    e: &Event,
    round: usize,
    player: usize,
    number_of: &dyn Fn(usize) -> usize,
) -> String {
    let Some(r) = e.played.get(round).filter(|r| r.paired) else {
        return String::new();
    };
    if let Some(f) = e.knockout_field() {
        return crate::knockout::crosstable_cell(&f, round, player, number_of);
    }
    for b in &r.boards {
        let white = b.white == player;
        if !white && b.black != player {
            continue;
        }
        let opp = if white { b.black } else { b.white };
        if opp >= e.players.len() {
            return "?".into();
        }
        let c = if white { 'w' } else { 'b' };
        let res = match (b.result, white) {
            (None, _) => "",
            (Some(BoardResult::Draw), _) => "=",
            (Some(BoardResult::WhiteWins), true) | (Some(BoardResult::BlackWins), false) => "1",
            (Some(BoardResult::WhiteWins), false) | (Some(BoardResult::BlackWins), true) => "0",
            (Some(BoardResult::WhiteForfeit), true) | (Some(BoardResult::BlackForfeit), false) => {
                "+"
            }
            _ => "-",
        };
        return format!("{}{c}{res}", number_of(opp));
    }
    match r.byes.iter().find(|(p, _)| *p == player).map(|(_, k)| *k) {
        Some(crate::event::RoundBye::Pab) => "PAB".into(),
        Some(crate::event::RoundBye::Half) => "H".into(),
        Some(crate::event::RoundBye::Full) => "F".into(),
        _ => "-".into(),
    }
}

/// A value in hundredths as text: `12`, `12.5`, `12.25`.
pub fn show(v: Option<u64>) -> String {
    match v {
        None => String::new(),
        Some(v) if v % 100 == 0 => (v / 100).to_string(),
        Some(v) if v % 10 == 0 => format!("{}.{}", v / 100, (v % 100) / 10),
        Some(v) => format!("{}.{:02}", v / 100, v % 100),
    }
}
