//! The games of a match, in order: which engines, which colours, which opening.
//!
//! cutechess-cli's semantics: every round, each pairing (an "encounter") plays `-games` games.
//! The games of one encounter, across all rounds, form one sequence `k = 0, 1, 2, …`: colours
//! alternate with `k`, and `-repeat N` plays each opening for N consecutive games of the
//! sequence (so with the default `-repeat 2`, games 2m and 2m+1 play the same start position
//! with colours reversed: a game pair). Every encounter plays the same openings in the same
//! order, which keeps a round robin fair.

use crate::openings::Openings;
use crate::referee::Opening;

/// The kind of tournament.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Tournament {
    /// Every engine against every other.
    #[default]
    RoundRobin,
    /// The first engine against each of the others.
    Gauntlet,
}

/// One game of the schedule.
#[derive(Debug, Clone)]
pub struct ScheduledGame {
    /// From 1, in schedule order.
    pub number: usize,
    /// From 1.
    pub round: u32,
    /// The encounter's index in [`encounters`].
    pub encounter: usize,
    /// The game's place in its encounter's sequence (the `k` above).
    pub index: u64,
    /// The white engine's index.
    pub white: usize,
    /// The black engine's index.
    pub black: usize,
    /// Where it starts.
    pub opening: Opening,
}

/// The pairings: `(a, b)` with `a < b`.
pub fn encounters(engines: usize, tournament: Tournament) -> Vec<(usize, usize)> {
    match tournament {
        Tournament::RoundRobin => (0..engines)
            .flat_map(|a| (a + 1..engines).map(move |b| (a, b)))
            .collect(),
        Tournament::Gauntlet => (1..engines).map(|b| (0, b)).collect(),
    }
}

/// The whole schedule.
pub fn schedule(
    engines: usize,
    tournament: Tournament,
    games: u32,
    rounds: u32,
    repeat: u32,
    openings: &mut Openings,
) -> Vec<ScheduledGame> {
    let pairs = encounters(engines, tournament);
    let repeat = u64::from(repeat.max(1));
    let per_encounter = u64::from(games) * u64::from(rounds);
    let needed = per_encounter.div_ceil(repeat);
    let book: Vec<Opening> = (0..needed).map(|_| openings.next_opening()).collect();
    let mut out = Vec::new();
    for round in 0..rounds {
        for (e, &(a, b)) in pairs.iter().enumerate() {
            for g in 0..games {
                let k = u64::from(round) * u64::from(games) + u64::from(g);
                let (white, black) = if k % 2 == 0 { (a, b) } else { (b, a) };
                out.push(ScheduledGame {
                    number: out.len() + 1,
                    round: round + 1,
                    encounter: e,
                    index: k,
                    white,
                    black,
                    opening: book[(k / repeat) as usize].clone(),
                });
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::openings::OpeningsSpec;

    #[test]
    fn pairs_share_openings_with_colours_reversed() {
        let mut o = Openings::load(&OpeningsSpec::Random, 3).unwrap();
        let s = schedule(2, Tournament::RoundRobin, 2, 3, 2, &mut o);
        assert_eq!(s.len(), 6);
        for pair in s.chunks(2) {
            assert_eq!(pair[0].opening.start, pair[1].opening.start);
            assert_eq!(
                (pair[0].white, pair[0].black),
                (pair[1].black, pair[1].white)
            );
        }
        assert_ne!(s[0].opening.start, s[2].opening.start);
        // -games 1 -rounds 4: pairs span rounds.
        let mut o = Openings::load(&OpeningsSpec::Random, 3).unwrap();
        let s = schedule(2, Tournament::RoundRobin, 1, 4, 2, &mut o);
        assert_eq!(s[0].opening.start, s[1].opening.start);
        assert_eq!((s[0].white, s[1].white), (0, 1));
    }

    #[test]
    fn round_robin_and_gauntlet() {
        assert_eq!(
            encounters(3, Tournament::RoundRobin),
            vec![(0, 1), (0, 2), (1, 2)]
        );
        assert_eq!(encounters(3, Tournament::Gauntlet), vec![(0, 1), (0, 2)]);
        let mut o = Openings::load(&OpeningsSpec::Random, 3).unwrap();
        let s = schedule(3, Tournament::RoundRobin, 2, 1, 2, &mut o);
        assert_eq!(s.len(), 6);
        // Every encounter plays the same opening in round 1.
        assert!(s.iter().all(|g| g.opening.start == s[0].opening.start));
    }
}
