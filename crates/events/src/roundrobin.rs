//! Round robins by the Berger tables (FIDE Handbook C.05, Annex 1).
//!
//! With `n` players (an odd number gets a dummy `n + 1`, and whoever meets it has the bye),
//! round 1 is `1–n, 2–(n−1), …` with the first named player White. Each next round takes
//! every pairing number `k < n` to `(k − 1 + n/2) mod (n − 1) + 1` on the same board side,
//! while player `n` stays on the first board with the other colour. In a double round robin
//! the second cycle repeats the first with colours reversed, and the last two rounds of the
//! first cycle swap places so that nobody gets three games running with one colour (the
//! Handbook's recommendation).

/// One round of a round robin: boards as `(white, black)` pairing numbers from 1, and who
/// has the bye when the number of players is odd.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RoundRobinRound {
    /// The boards, board 1 first.
    pub boards: Vec<(u32, u32)>,
    /// The player without an opponent this round.
    pub bye: Option<u32>,
}

/// The largest round robin handled (the tables grow as n²).
pub const MAX_PLAYERS: u32 = 1000;

/// The rounds of a round robin of `players` (2 to [`MAX_PLAYERS`]); `cycles` 1 (single) or
/// 2 (double). `None` when the numbers are out of range.
pub fn berger(players: u32, cycles: u32) -> Option<Vec<RoundRobinRound>> {
    if !(2..=MAX_PLAYERS).contains(&players) || !(1..=2).contains(&cycles) {
        return None;
    }
    let n = players + players % 2;
    let half = n / 2;
    let mut boards: Vec<(u32, u32)> = (1..=half).map(|k| (k, n + 1 - k)).collect();
    let mut first_cycle = Vec::new();
    for _ in 0..n - 1 {
        first_cycle.push(boards.clone());
        boards = boards
            .iter()
            .map(|&(w, b)| {
                let step = |k: u32| {
                    if k == n {
                        n
                    } else {
                        (k - 1 + half) % (n - 1) + 1
                    }
                };
                if w == n || b == n {
                    // Player n keeps the first board and changes colour.
                    let other = step(if w == n { b } else { w });
                    if w == n {
                        (other, n)
                    } else {
                        (n, other)
                    }
                } else {
                    (step(w), step(b))
                }
            })
            .collect();
    }
    let mut rounds: Vec<Vec<(u32, u32)>> = first_cycle.clone();
    if cycles == 2 {
        let r = rounds.len();
        if r >= 2 {
            rounds.swap(r - 2, r - 1);
        }
        rounds.extend(
            first_cycle
                .iter()
                .map(|round| round.iter().map(|&(w, b)| (b, w)).collect()),
        );
    }
    Some(
        rounds
            .into_iter()
            .map(|round| {
                let dummy = n > players;
                let bye = round
                    .iter()
                    .find(|&&(w, b)| dummy && (w == n || b == n))
                    .map(|&(w, b)| if w == n { b } else { w });
                RoundRobinRound {
                    boards: round
                        .into_iter()
                        .filter(|&(w, b)| !dummy || (w != n && b != n))
                        .collect(),
                    bye,
                }
            })
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(rounds: &[RoundRobinRound], n: u32) -> Vec<String> {
        // As the published tables write them: the dummy's board too.
        rounds
            .iter()
            .map(|r| {
                let mut boards = r.boards.clone();
                if let Some(b) = r.bye {
                    let dummy = n + 1;
                    // Put the dummy's board back where it was (board 1, colours by round).
                    let i = rounds.iter().position(|x| x == r).unwrap();
                    boards.insert(0, if i % 2 == 0 { (b, dummy) } else { (dummy, b) });
                }
                boards
                    .iter()
                    .map(|(w, b)| format!("{w}-{b}"))
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .collect()
    }

    /// The Berger tables as the FIDE Handbook (C.05 Annex 1) prints them, also in Chris
    /// Fox's copy (c.w.fox.tripod.com/chess/berger.html).
    #[test]
    fn published_tables() {
        let six = berger(6, 1).unwrap();
        assert_eq!(
            text(&six, 6),
            [
                "1-6 2-5 3-4",
                "6-4 5-3 1-2",
                "2-6 3-1 4-5",
                "6-5 1-4 2-3",
                "3-6 4-2 5-1"
            ]
        );
        let eight = berger(8, 1).unwrap();
        assert_eq!(
            text(&eight, 8),
            [
                "1-8 2-7 3-6 4-5",
                "8-5 6-4 7-3 1-2",
                "2-8 3-1 4-7 5-6",
                "8-6 7-5 1-4 2-3",
                "3-8 4-2 5-1 6-7",
                "8-7 1-6 2-5 3-4",
                "4-8 5-3 6-2 7-1"
            ]
        );
        let twelve = berger(12, 1).unwrap();
        assert_eq!(text(&twelve, 12)[1], "12-7 8-6 9-5 10-4 11-3 1-2");
        assert_eq!(text(&twelve, 12)[10], "6-12 7-5 8-4 9-3 10-2 11-1");
        let fourteen = berger(14, 1).unwrap();
        assert_eq!(text(&fourteen, 14)[12], "7-14 8-6 9-5 10-4 11-3 12-2 13-1");
        // Five players: the table of six, and whoever meets 6 has the bye.
        let five = berger(5, 1).unwrap();
        assert_eq!(five[0].bye, Some(1));
        assert_eq!(five[0].boards, [(2, 5), (3, 4)]);
        assert_eq!(five[1].bye, Some(4));
    }

    #[test]
    fn everyone_meets_everyone_once_per_cycle() {
        for n in 2..=21u32 {
            for cycles in 1..=2 {
                let rounds = berger(n, cycles).unwrap();
                let per_cycle = (n + n % 2 - 1) as usize;
                assert_eq!(rounds.len(), per_cycle * cycles as usize);
                let mut met = std::collections::HashMap::new();
                for r in &rounds {
                    let mut seen = std::collections::HashSet::new();
                    for &(w, b) in &r.boards {
                        assert!(seen.insert(w) && seen.insert(b), "n {n}: one game a round");
                        *met.entry((w.min(b), w.max(b))).or_insert(0) += 1;
                    }
                    assert_eq!(seen.len() + r.bye.is_some() as usize, n as usize);
                }
                assert_eq!(met.len() as u32, n * (n - 1) / 2);
                assert!(met.values().all(|&k| k == cycles), "n {n}");
            }
        }
    }

    #[test]
    fn double_round_robin_swaps_and_reverses() {
        let d = berger(6, 2).unwrap();
        let s = berger(6, 1).unwrap();
        assert_eq!(d.len(), 10);
        // The first cycle plays rounds 1 2 3 5 4; the second 1–5 with colours reversed.
        assert_eq!(d[3], s[4]);
        assert_eq!(d[4], s[3]);
        assert_eq!(
            d[5].boards,
            s[0].boards.iter().map(|&(w, b)| (b, w)).collect::<Vec<_>>()
        );
        // Nobody has the same colour three games running.
        for p in 1..=6u32 {
            let colors: Vec<bool> = d
                .iter()
                .map(|r| r.boards.iter().any(|&(w, _)| w == p))
                .collect();
            assert!(
                colors.windows(3).all(|w| !(w[0] == w[1] && w[1] == w[2])),
                "player {p}: {colors:?}"
            );
        }
        assert!(berger(1, 1).is_none() && berger(4, 3).is_none());
    }
}
