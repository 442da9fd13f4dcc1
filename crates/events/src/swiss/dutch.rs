//! The Dutch pairing of one round.
//!
//! Every possible game gets a weight whose bit fields hold the criteria in priority order
//! (`EdgeWeights::weight`); the pairing of maximum total weight is best by the criteria. A
//! bracket's pairing is then fixed one decision at a time, each decision taken by giving
//! the options small, ordered bonuses and solving again, so that among the pairings the
//! criteria cannot tell apart the one that comes first in the order of Art. 3–4 wins:
//! - moved-down players (MDPs) are paired highest first, each with the highest resident
//!   that still allows a best pairing;
//! - in the remainder, the fewest exchanges between S1 and S2, then the smallest difference
//!   of the exchanged pairing numbers, moving the lowest players of S1 down first and the
//!   highest of S2 up first;
//! - then each S1 player, in order, takes the highest S2 player still possible.
//!
//! The next score group takes part in each bracket's weights (criterion C8, looking one
//! bracket ahead), and the players below keep weights that only say whether the round can
//! still be completed (C4, C5) so that no choice leaves the rest unpairable.

use super::color::{color_for, compatible};
use super::state::{float, player_states, ranks_below_real, Float, PlayerState};
use crate::matching::Matcher;
use crate::model::{Pairing, SwissHistory};
use crate::wide::Wide;
use std::collections::HashMap;
use std::fmt;

/// Why a round could not be paired.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PairingError {
    /// No pairing meets the absolute criteria (no rematch, at most one PAB per player, no
    /// two non-topscorers with the same absolute colour preference).
    NoValidPairing,
    /// Too many players or score groups for the widest weights this build has.
    TooLarge {
        /// The bits the weights would need.
        bits: u32,
    },
}

impl fmt::Display for PairingError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PairingError::NoValidPairing => write!(
                f,
                "no pairing of this round meets the absolute criteria of the Dutch system \
                 (no two players meet twice, nobody gets a second pairing-allocated bye, no \
                 two non-topscorers with the same absolute colour preference meet)"
            ),
            PairingError::TooLarge { bits } => write!(
                f,
                "this round would need {bits}-bit weights; the pairing engine handles up to {}",
                64 * 32
            ),
        }
    }
}

impl std::error::Error for PairingError {}

/// Bits needed to write `x` (0 for 0).
fn bits(x: usize) -> u32 {
    usize::BITS - x.leading_zeros()
}

/// Pairs the next round of a Swiss by the FIDE Dutch system. Players marked absent are left
/// out; the boards come in publication order (C.04.2 D.9: by the higher player's score, then
/// the lower player's, then the higher player's rank), the PAB apart.
pub fn pair_dutch(h: &SwissHistory) -> Result<Pairing, PairingError> {
    pair_dutch_with_progress(h, &mut |_| {})
}

/// How far a pairing has come: players whose games (or bye) are settled, of those to pair.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Progress {
    /// Players settled so far.
    pub settled: usize,
    /// Players to pair this round.
    pub players: usize,
}

/// [`pair_dutch`], telling `progress` after each game it settles (a big open's round takes
/// seconds; an arbiter's page shows how far it is).
pub fn pair_dutch_with_progress(
    h: &SwissHistory,
    progress: &mut dyn FnMut(Progress),
) -> Result<Pairing, PairingError> {
    let ctx = Context::new(h);
    let players = ctx.sorted.len();
    progress(Progress {
        settled: 0,
        players,
    });
    if ctx.sorted.is_empty() {
        return Ok(Pairing {
            boards: Vec::new(),
            bye: None,
        });
    }
    let need = ctx.weight_bits() + 10;
    let pairs = match need.div_ceil(64) {
        0..=1 => ctx.run::<1>(progress),
        2 => ctx.run::<2>(progress),
        3 => ctx.run::<3>(progress),
        4 => ctx.run::<4>(progress),
        5..=6 => ctx.run::<6>(progress),
        7..=8 => ctx.run::<8>(progress),
        9..=12 => ctx.run::<12>(progress),
        13..=16 => ctx.run::<16>(progress),
        17..=24 => ctx.run::<24>(progress),
        25..=32 => ctx.run::<32>(progress),
        _ => return Err(PairingError::TooLarge { bits: need }),
    }?;
    Ok(ctx.publish(pairs))
}

/// Everything fixed for the round: the players to pair in pairing order ("vertices"), their
/// states, and the widths of the weight fields.
struct Context<'a> {
    h: &'a SwissHistory,
    states: Vec<Option<PlayerState>>,
    /// Vertex → index into the history's players, by score then rank.
    sorted: Vec<usize>,
    /// Whether two vertices have played each other (C1).
    met: Vec<Vec<bool>>,
    /// Floats one and two rounds back, by vertex.
    floats: Vec<[Float; 2]>,
    played: usize,
    /// Bits of the largest score group (fields that count players in a bracket).
    sgsb: u32,
    /// Sum over score groups of the bits of their size (fields weighed by score).
    sgs: u32,
    /// Per score, the offset of its group in the fields weighed by score.
    shift: HashMap<u32, u32>,
}

impl<'a> Context<'a> {
    fn new(h: &'a SwissHistory) -> Context<'a> {
        let states = player_states(h);
        let mut sorted: Vec<usize> = h
            .players
            .iter()
            .enumerate()
            .filter(|(i, p)| !p.absent && states[*i].is_some())
            .map(|(i, _)| i)
            .collect();
        sorted.sort_by(|&a, &b| {
            let (a, b) = (states[a].as_ref().unwrap(), states[b].as_ref().unwrap());
            b.score.cmp(&a.score).then(a.rank.cmp(&b.rank))
        });
        let n = sorted.len();
        let mut met = vec![vec![false; n]; n];
        let vertex_of: HashMap<usize, usize> =
            sorted.iter().enumerate().map(|(v, &i)| (i, v)).collect();
        for (v, &i) in sorted.iter().enumerate() {
            for r in &h.players[i].rounds {
                if let (true, Some(o)) = (r.played(), r.opponent()) {
                    if let Some(&u) = vertex_of.get(&o) {
                        met[v][u] = true;
                        met[u][v] = true;
                    }
                }
            }
        }
        let played = h.rounds_played();
        let floats = sorted
            .iter()
            .map(|&i| {
                let p = states[i].as_ref().unwrap();
                let f = |back: usize| {
                    if played >= back {
                        float(p, back, &states, &h.points)
                    } else {
                        Float::None
                    }
                };
                [f(1), f(2)]
            })
            .collect();
        // Score groups from the lowest up: each gets room for a count of its players.
        let (mut sgs, mut largest) = (0u32, 0usize);
        let mut shift = HashMap::new();
        let mut v = n;
        while v > 0 {
            let score = states[sorted[v - 1]].as_ref().unwrap().score;
            let mut size = 0;
            while v > 0 && states[sorted[v - 1]].as_ref().unwrap().score == score {
                size += 1;
                v -= 1;
            }
            shift.insert(score, sgs);
            sgs += bits(size);
            largest = largest.max(size);
        }
        Context {
            h,
            states,
            sorted,
            met,
            floats,
            played,
            sgsb: bits(largest),
            sgs,
            shift,
        }
    }

    fn p(&self, v: usize) -> &PlayerState {
        self.states[self.sorted[v]]
            .as_ref()
            .expect("a counted player")
    }

    fn score(&self, v: usize) -> u32 {
        self.p(v).score
    }

    /// The total width of the fields below the completion field.
    fn fields_width(&self) -> u32 {
        let (g, s) = (self.sgsb, self.sgs);
        let mut t = g + s + g + s + 2 * g + 4 * g;
        if self.played >= 1 {
            t += 2 * g + 2 * s;
        }
        if self.played >= 2 {
            t += 2 * g + 2 * s;
        }
        t + g + 2 * g + 1
    }

    fn weight_bits(&self) -> u32 {
        self.fields_width() + 2
    }

    /// Whether the two may meet at all: not again (C1), and not two players with the same
    /// absolute colour preference unless one is a topscorer in the last round (C3).
    fn allowed(&self, a: usize, b: usize) -> bool {
        if self.met[a][b] {
            return false;
        }
        let (pa, pb) = (self.p(a), self.p(b));
        if !pa.absolute() || !pb.absolute() || pa.preference != pb.preference {
            return true;
        }
        let max = self.h.points.win.max(self.h.points.draw);
        let threshold = (self.played as u32 * max) >> 1;
        self.played + 1 >= self.h.total_rounds && (pa.score > threshold || pb.score > threshold)
    }

    /// The boards in publication order, with colours.
    fn publish(&self, pairs: Vec<(usize, usize)>) -> Pairing {
        let initial = self.h.initial_color;
        let mut boards: Vec<(usize, usize)> = Vec::new();
        let mut bye = None;
        // Each board once, in pairing order of its first player, then sorted (stably).
        let mut mate = vec![None; self.sorted.len()];
        for &(a, b) in &pairs {
            if a == b {
                continue;
            }
            mate[a] = Some(b);
            mate[b] = Some(a);
        }
        for (v, m) in mate.iter().enumerate() {
            match *m {
                None => bye = Some(self.sorted[v]),
                Some(u) => {
                    let (i, j) = (self.sorted[v], self.sorted[u]);
                    if i < j {
                        let c = color_for(self.p(v), self.p(u), initial);
                        boards.push(match c {
                            crate::model::Color::White => (i, j),
                            crate::model::Color::Black => (j, i),
                        });
                    }
                }
            }
        }
        let st = |i: usize| self.states[i].as_ref().unwrap();
        // By real scores: virtual points (C.04.5) order the brackets, not the boards.
        boards.sort_by(|&(w0, b0), &(w1, b1)| {
            let order = |w: usize, b: usize| {
                if ranks_below_real(st(w), st(b)) {
                    (b, w)
                } else {
                    (w, b)
                }
            };
            let (h0, l0) = order(w0, b0);
            let (h1, l1) = order(w1, b1);
            (st(h1).real_score, st(l1).real_score, st(h0).rank).cmp(&(
                st(h0).real_score,
                st(l0).real_score,
                st(h1).rank,
            ))
        });
        Pairing { boards, bye }
    }

    fn run<const N: usize>(
        &self,
        progress: &mut dyn FnMut(Progress),
    ) -> Result<Vec<(usize, usize)>, PairingError> {
        Round::<N>::new(self).pair(progress)
    }
}

/// The fields of one edge's weight, most important first.
struct EdgeWeights<'c, 'a> {
    c: &'c Context<'a>,
    bye_score: u32,
    /// C9 applies: the bracket's only downfloater is the one who will get the PAB.
    single_downfloater_is_bye: bool,
    /// Rank of each count of played games among the players on the PAB's score (most
    /// games first), for C9.
    played_ranks: HashMap<usize, u64>,
}

impl EdgeWeights<'_, '_> {
    fn bye_candidate(&self, v: usize) -> bool {
        let p = self.c.p(v);
        p.bye_eligible && p.score <= self.bye_score
    }

    /// The weight of `hi`–`lo` (`hi` first in pairing order). `in_current`: both are in the
    /// bracket being paired; `in_next`: `lo` is in the next score group.
    fn weight<const N: usize>(
        &self,
        hi: usize,
        lo: usize,
        in_current: bool,
        in_next: bool,
    ) -> Wide<N> {
        let c = self.c;
        if !c.allowed(hi, lo) {
            return Wide::ZERO;
        }
        let (g, s) = (c.sgsb, c.sgs);
        let one = |b: bool| Wide::<N>::from_u64(b as u64);
        let at_score = |b: bool, score: u32| {
            if b {
                Wide::<N>::from_u64(1).lsh(c.shift[&score])
            } else {
                Wide::ZERO
            }
        };
        let (ph, pl) = (c.p(hi), c.p(lo));
        let (sh, sl) = (ph.score, pl.score);
        // C4/C5: the round stays complete; players who cannot take the PAB, or who score
        // more than the PAB's score, are paired.
        let mut r = Wide::<N>::from_u64(
            1 + !self.bye_candidate(hi) as u64 + !self.bye_candidate(lo) as u64,
        );
        // C6: pairs in this bracket. C7: the scores paired in it.
        r = r.lsh(g) + one(in_current);
        r = r.lsh(s) + at_score(in_current, sh);
        // C8: the same for the next bracket.
        r = r.lsh(g) + one(in_next);
        r = r.lsh(s) + at_score(in_next, sh);
        // C9: the PAB goes to the player with the most games played.
        let mut c9 = 0;
        if self.single_downfloater_is_bye {
            if sh == self.bye_score {
                c9 += self.played_ranks[&ph.played_games];
            }
            if sl == self.bye_score {
                c9 += self.played_ranks[&pl.played_games];
            }
        }
        r = r.lsh(2 * g) + Wide::from_u64(c9);
        // C10–C13: colours, in this bracket only.
        let m = in_current;
        let (a, b) = (pl, ph);
        let c10 = m
            && (!a.absolute_imbalance() || !b.absolute_imbalance() || a.preference != b.preference);
        let c11 = m
            && (!a.absolute()
                || !b.absolute()
                || a.preference != b.preference
                || if a.imbalance == b.imbalance {
                    a.repeated.is_none() || a.repeated != b.repeated
                } else {
                    let smaller = if a.imbalance > b.imbalance { b } else { a };
                    smaller.repeated != a.preference.map(crate::model::Color::flip)
                });
        let c12 = m && compatible(a.preference, b.preference);
        let c13 = m
            && ((!a.strong && !a.absolute())
                || (!b.strong && !b.absolute())
                || (a.absolute() && b.absolute())
                || a.preference != b.preference);
        for f in [c10, c11, c12, c13] {
            r = r.lsh(g) + one(f);
        }
        let (fh, fl) = (c.floats[hi], c.floats[lo]);
        // C14–C17: downfloaters and upfloaters of one and two rounds ago, counted.
        for back in [0usize, 1] {
            if c.played > back {
                let down = m as u64
                    * ((fl[back] == Float::Down) as u64
                        + (sh <= sl && fh[back] == Float::Down) as u64);
                r = r.lsh(g) + Wide::from_u64(down);
                r = r.lsh(g) + one(m && !(sh > sl && fl[back] == Float::Up));
            }
        }
        // C18–C21: the same, weighed by score.
        for back in [0usize, 1] {
            if c.played > back {
                r = r.lsh(s)
                    + at_score(m && fl[back] == Float::Down, sl)
                    + at_score(m && fh[back] == Float::Down, sh);
                r = r.lsh(s) + at_score(m && !(fl[back] == Float::Up && sh > sl), sh);
            }
        }
        // Room for the choices of Art. 3–4 (see `Round::ordered`).
        r.lsh(g).lsh(2 * g).lsh(1)
    }
}

/// The state of one round's pairing: the weights of every possible game, the best matching
/// of them (kept up to date as they change), and which games are fixed already.
struct Round<'c, 'a, const N: usize> {
    c: &'c Context<'a>,
    n: usize,
    m: Matcher<Wide<N>>,
    fixed: Vec<Option<usize>>,
    /// Players in fixed games.
    settled: usize,
    /// The mates of the latest best matching (a vertex alone is its own mate).
    mate: Vec<usize>,
}

impl<'c, 'a, const N: usize> Round<'c, 'a, N> {
    fn new(c: &'c Context<'a>) -> Self {
        let n = c.sorted.len();
        Round {
            c,
            n,
            m: Matcher::new(n),
            fixed: vec![None; n],
            settled: 0,
            mate: (0..n).collect(),
        }
    }

    /// Sets the weight of a possible game (not above zero: no game). A player in a fixed
    /// game keeps only that game.
    fn set(&mut self, a: usize, b: usize, x: Wide<N>) {
        if self.fixed[a].is_some() || self.fixed[b].is_some() {
            return;
        }
        self.m
            .set_weight(a, b, if x > Wide::ZERO { x } else { Wide::ZERO });
    }

    /// The best matching of the weights set; fixed games stay.
    fn solve(&mut self) {
        self.m.solve();
        for v in 0..self.n {
            self.mate[v] = self.m.mate_of(v).unwrap_or(v);
            debug_assert!(self.fixed[v].is_none_or(|u| u == self.mate[v]));
        }
    }

    /// Fixes the game `a`–`b`: every other game of either player goes, so every later
    /// matching keeps it (and pairs the others as if the two were gone).
    fn fix(&mut self, a: usize, b: usize) {
        for x in 0..self.n {
            if x != a && x != b {
                self.m.set_weight(a, x, Wide::ZERO);
                self.m.set_weight(b, x, Wide::ZERO);
            }
        }
        self.fixed[a] = Some(b);
        self.fixed[b] = Some(a);
        self.settled += 2;
        self.mate[a] = b;
        self.mate[b] = a;
    }

    /// At most one player unpaired, and that one may take the PAB.
    fn complete(&self) -> bool {
        let alone: Vec<usize> = (0..self.n).filter(|&v| self.mate[v] == v).collect();
        alone.len() <= 1 && alone.iter().all(|&v| self.c.p(v).bye_eligible)
    }

    fn pair(
        mut self,
        progress: &mut dyn FnMut(Progress),
    ) -> Result<Vec<(usize, usize)>, PairingError> {
        let c = self.c;
        let n = self.n;
        let odd = n % 2 == 1;
        let top = c.score(0);
        let mut ew = EdgeWeights {
            c,
            bye_score: 0,
            single_downfloater_is_bye: false,
            played_ranks: HashMap::new(),
        };
        // First the whole round: can it be completed, and on which score does the PAB land?
        for p in 0..n {
            for o in 0..p {
                let x = if odd {
                    if c.allowed(o, p) {
                        let completion =
                            1 + !c.p(p).bye_eligible as u64 + !c.p(o).bye_eligible as u64;
                        let at = (c.shift[&c.score(p)] + c.shift[&c.score(o)]) as u64;
                        Wide::<N>::from_u64(completion)
                            .lsh(c.sgs)
                            .lsh(0)
                            .lsh(c.sgsb)
                            + Wide::from_u64(at).lsh(c.sgsb)
                            + Wide::from_u64((c.score(p) >= top) as u64)
                    } else {
                        Wide::ZERO
                    }
                } else {
                    ew.weight::<N>(o, p, false, false)
                };
                self.set(p, o, x);
            }
        }
        self.solve();
        if !self.complete() {
            return Err(PairingError::NoValidPairing);
        }
        if odd {
            let bye = (0..n).find(|&v| self.mate[v] == v).expect("odd: one alone");
            ew.bye_score = c.score(bye);
            ew.single_downfloater_is_bye = ew.bye_score >= top
                && (0..n)
                    .take_while(|&v| c.score(v) >= top)
                    .all(|v| c.score(self.mate[v]) >= top);
            let mut counts: Vec<usize> = (0..n)
                .filter(|&v| c.score(v) == ew.bye_score)
                .map(|v| c.p(v).played_games)
                .collect();
            counts.sort_unstable_by(|a, b| b.cmp(a));
            for (rank, games) in counts.into_iter().enumerate() {
                ew.played_ranks.insert(games, rank as u64);
            }
            for p in 0..n {
                for o in 0..p {
                    let x = ew.weight::<N>(o, p, false, false);
                    self.set(p, o, x);
                }
            }
        }

        let mut pairs = Vec::new();
        let mut matched = vec![false; n];
        // The bracket: `window[..mdps]` moved down, `window[mdps..bracket_end]` residents,
        // then the next score group.
        let mut window: Vec<usize> = (0..n).take_while(|&v| c.score(v) >= top).collect();
        let mut next = window.len();
        let mut mdps = 0;
        let mut residents_from = 0;
        while window.len() > 1 || next < n {
            let bracket_end = window.len();
            let residents_to = residents_from + (bracket_end - mdps);
            let next_group = next;
            while next < n && c.score(next) >= c.score(next_group) {
                window.push(next);
                next += 1;
            }
            let resident = |v: usize| v >= residents_from && v < residents_to;
            let len = window.len();
            // Weights of the bracket and the next group (all but MDP–MDP games).
            let mut base: Vec<Vec<Wide<N>>> = vec![Vec::new(); len];
            for j in mdps..len {
                base[j] = (0..j)
                    .map(|i| {
                        ew.weight::<N>(window[i], window[j], j < bracket_end, j >= bracket_end)
                    })
                    .collect();
                for i in 0..j {
                    self.set(window[j], window[i], base[j][i]);
                }
            }
            self.solve();

            // Which MDPs are paired: the highest first, as many per score as can be.
            let mut group_score = u32::MAX;
            let (mut left, mut left_paired) = (0usize, 0usize);
            for pi in 0..mdps {
                let v = window[pi];
                if pi == 0 || c.score(v) < group_score {
                    group_score = c.score(v);
                    left = 0;
                    left_paired = 0;
                    let mut q = pi;
                    while c.score(window[q]) >= group_score {
                        left += 1;
                        if resident(self.mate[window[q]]) {
                            left_paired += 1;
                        }
                        q += 1;
                    }
                }
                if left_paired == 0 {
                    continue;
                }
                if left <= left_paired {
                    matched[v] = true;
                    continue;
                }
                left -= 1;
                if !resident(self.mate[v]) {
                    for oi in mdps..bracket_end {
                        if !base[oi][pi].is_zero() {
                            self.set(v, window[oi], base[oi][pi].or_u64(1));
                        }
                    }
                    self.solve();
                }
                if resident(self.mate[v]) {
                    matched[v] = true;
                    left_paired -= 1;
                    let residents = (bracket_end - mdps) as u64;
                    for oi in mdps..bracket_end {
                        if !base[oi][pi].is_zero() {
                            self.set(
                                v,
                                window[oi],
                                base[oi][pi].or_u64(residents) + Wide::from_u64(1),
                            );
                        }
                    }
                }
            }
            // Their opponents: each MDP, highest first, the highest resident possible.
            for pi in 0..mdps {
                let v = window[pi];
                if !matched[v] {
                    continue;
                }
                let mut addend = len as u64;
                for oi in (mdps..bracket_end).rev() {
                    let u = window[oi];
                    if matched[u] || base[oi][pi].is_zero() {
                        continue;
                    }
                    self.set(v, u, base[oi][pi] + Wide::from_u64(addend));
                    addend += 1;
                }
                self.solve();
                let u = self.mate[v];
                matched[u] = true;
                self.fix(v, u);
                progress(Progress {
                    settled: self.settled,
                    players: n,
                });
            }

            // The remainder: residents not paired with MDPs. S1 is its first `pairs` players.
            let mut remainder: Vec<usize> = Vec::new();
            let mut rem_pairs = 0;
            for (pi, &v) in window.iter().enumerate().take(bracket_end).skip(mdps) {
                if self.mate[v] < residents_from {
                    continue;
                }
                remainder.push(pi);
                if self.mate[v] < v {
                    rem_pairs += 1;
                }
            }
            let ordered = |base: &Vec<Vec<Wide<N>>>,
                           small: usize,
                           large: usize,
                           small_rem: usize|
             -> Wide<N> {
                let x = base[large][small];
                if x.is_zero() {
                    return x;
                }
                // Fewest exchanges (S1 players stay in S1), then the smallest sum of the
                // pairing numbers on the S1 side.
                let bonus = Wide::<N>::from_u64((small_rem < rem_pairs) as u64).lsh(2 * c.sgsb)
                    - Wide::from_u64(small_rem as u64);
                x + bonus.lsh(1)
            };
            for (bi, &o) in remainder.iter().enumerate() {
                for (ai, &p) in remainder.iter().enumerate().take(bi) {
                    let x = ordered(&base, p, o, ai);
                    self.set(window[p], window[o], x);
                }
            }
            self.solve();
            // A player plays the S1 role when paired with a later player of the bracket.
            let forward = |mate: &Vec<usize>, v: usize| mate[v] > v && mate[v] < residents_to;
            let exchanges = remainder[..rem_pairs]
                .iter()
                .filter(|&&p| !forward(&self.mate, window[p]))
                .count();

            // S1 players moved to S2: the lowest first.
            let mut left = exchanges;
            for pos in (0..rem_pairs).rev() {
                if left == 0 {
                    break;
                }
                let p = remainder[pos];
                let v = window[p];
                if forward(&self.mate, v) {
                    for &o in &remainder[pos + 1..] {
                        let x = ordered(&base, p, o, pos);
                        if !x.is_zero() {
                            self.set(v, window[o], x - Wide::from_u64(1));
                        }
                    }
                    self.solve();
                }
                let exchange = !forward(&self.mate, v);
                left -= exchange as usize;
                for &o in &remainder[pos + 1..] {
                    if exchange {
                        base[o][p] = Wide::ZERO;
                    }
                    let x = ordered(&base, p, o, pos);
                    self.set(v, window[o], x);
                }
            }
            // S2 players moved to S1: the highest first.
            let mut left = exchanges;
            for pos in rem_pairs..remainder.len() {
                if left <= 1 {
                    break;
                }
                let p = remainder[pos];
                let v = window[p];
                let already = forward(&self.mate, v);
                if !already {
                    for &o in &remainder[pos + 1..] {
                        let x = ordered(&base, p, o, pos);
                        if !x.is_zero() {
                            self.set(v, window[o], x + Wide::from_u64(1));
                        }
                    }
                    self.solve();
                }
                if forward(&self.mate, v) {
                    left -= 1;
                    for &o in &remainder[..pos] {
                        base[p][o] = Wide::ZERO;
                        self.set(v, window[o], Wide::ZERO);
                    }
                    for oi in bracket_end..len {
                        base[oi][p] = Wide::ZERO;
                        self.set(v, window[oi], Wide::ZERO);
                    }
                }
                if !already {
                    for &o in &remainder[pos + 1..] {
                        let x = ordered(&base, p, o, pos);
                        self.set(v, window[o], x);
                    }
                }
            }
            // Fix the roles: only S1–S2 games stay.
            for (ai, &p) in remainder.iter().enumerate() {
                let v = window[p];
                for &o in &remainder[ai + 1..] {
                    let u = window[o];
                    if !forward(&self.mate, v) || forward(&self.mate, u) {
                        base[o][p] = Wide::ZERO;
                    }
                    self.set(v, u, base[o][p]);
                }
            }
            // Each S1 player in order takes the highest S2 player possible.
            for &p in &remainder {
                let v = window[p];
                if !forward(&self.mate, v) {
                    continue;
                }
                let mut addend = 0u64;
                for &o in remainder.iter().rev() {
                    let u = window[o];
                    if o <= p || matched[u] {
                        continue;
                    }
                    if !base[o][p].is_zero() {
                        self.set(v, u, base[o][p] + Wide::from_u64(addend));
                    }
                    addend += 1;
                }
                self.solve();
                let u = self.mate[v];
                matched[v] = true;
                matched[u] = true;
                self.fix(v, u);
                progress(Progress {
                    settled: self.settled,
                    players: n,
                });
            }

            // The unpaired go on to the next bracket.
            let mut carried = Vec::new();
            let mut carried_mdps = 0;
            ew.single_downfloater_is_bye =
                odd && next_group < n && ew.bye_score >= c.score(next_group);
            for (pi, &v) in window.iter().enumerate() {
                if pi < bracket_end && matched[v] {
                    if v < self.mate[v] {
                        pairs.push((v, self.mate[v]));
                    }
                } else {
                    carried.push(v);
                    if pi < bracket_end {
                        carried_mdps += 1;
                    }
                    if ew.single_downfloater_is_bye && c.score(self.mate[v]) < c.score(next_group) {
                        ew.single_downfloater_is_bye = false;
                    }
                }
            }
            window = carried;
            mdps = carried_mdps;
            residents_from = residents_to;
        }
        for &v in &window {
            pairs.push((v, v));
        }
        let alone = pairs.iter().filter(|(a, b)| a == b).count();
        if alone > 1 || pairs.iter().any(|&(a, b)| a == b && !c.p(a).bye_eligible) {
            return Err(PairingError::NoValidPairing);
        }
        Ok(pairs)
    }
}
