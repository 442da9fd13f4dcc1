//! Accelerated pairings: the Baku Acceleration Method (FIDE Handbook C.04.5.1,
//! <https://spp.fide.com/c-04-5-1-baku-acceleration/>).
//!
//! An accelerated pairing adds *virtual points* to the scores some players are paired by in
//! the first rounds, so that the stronger half meets itself earlier (C.04.5, introduction).
//! The virtual points count for pairing only: the score brackets, the floats, the
//! pairing-allocated bye's score and colour allocation read the pairing score (real score
//! plus virtual points); standings, tie-breaks, the published board order and the TRF's
//! points never include them.
//!
//! C.04.5.1 in short:
//! - **Initial groups.** Before round 1 the pairing list is split into GA, "the first half
//!   of the players, rounded up to the nearest even number" (`2 · ⌈n / 4⌉`: 161 players make
//!   82), and GB, the rest.
//! - **Late entries** go into the pairing list by C.04.2; "the last GA-player shall be the
//!   same as in the previous round", so a late entry ranked above him is in GA.
//! - **Virtual points.** The accelerated rounds are "the first half (rounded up)" of the
//!   rounds. GA players get 1 virtual point before pairing the first half (rounded up) of the
//!   accelerated rounds and 0.5 before pairing the rest of them; GB players never get any,
//!   nor does anyone after the last accelerated round. (Nine rounds: five accelerated, 1
//!   point in rounds 1–3, 0.5 in rounds 4–5.)
//!
//! bbpPairings' own Baku option (`FIDE_DUTCH_BAKU`) makes GA `⌈n / 2⌉` players, which differs
//! from the FIDE text when `n mod 4` is 1 or 2 (9 or 10 players: 5 there, 6 by the text). We
//! follow the text, and write each player's virtual points explicitly (TRF `XXA` lines) for
//! other programs, so that bbpPairings pairs with the same virtual points as we do.

/// The method of an accelerated Swiss.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Acceleration {
    /// No acceleration (the default; what documents without the field mean).
    #[default]
    None,
    /// The Baku Acceleration Method (C.04.5.1).
    Baku,
    /// Each player's virtual points as given (TRF `XXA` lines that are not the Baku method's),
    /// kept in [`crate::event::Event::virtual_points`].
    Custom,
}

impl Acceleration {
    /// Every method, by its name.
    pub const ALL: [Acceleration; 3] =
        [Acceleration::None, Acceleration::Baku, Acceleration::Custom];

    /// The name the event document, the command line and the API use.
    pub fn name(self) -> &'static str {
        match self {
            Acceleration::None => "none",
            Acceleration::Baku => "baku",
            Acceleration::Custom => "custom",
        }
    }

    /// By name (`none`, `baku`, `custom`).
    pub fn parse(s: &str) -> Option<Acceleration> {
        Acceleration::ALL.into_iter().find(|a| a.name() == s.trim())
    }
}

/// The number of players in GA when `players` are paired in round 1: the first half rounded
/// up to an even number, `2 · ⌈players / 4⌉`, and never more than there are.
pub fn baku_group_size(players: usize) -> usize {
    (2 * players.div_ceil(4)).min(players)
}

/// The rounds with virtual points for a Swiss of `total_rounds` rounds: `(full, accelerated)`
/// means GA has 1 point in rounds `1..=full` and 0.5 in rounds `full + 1..=accelerated`.
/// Accelerated rounds: the first half rounded up; full ones, the first half of those rounded
/// up.
pub fn baku_rounds(total_rounds: usize) -> (usize, usize) {
    let accelerated = total_rounds.div_ceil(2);
    (accelerated.div_ceil(2), accelerated)
}

/// One player's virtual points by round (index 0: round 1) in the Baku method: for a GA
/// player `one` (a win's points, 1 point) in the full rounds and `half` (a draw's, 0.5) in
/// the other accelerated ones; for a GB player nothing (an empty list).
pub fn baku_row(in_ga: bool, total_rounds: usize, one: u32, half: u32) -> Vec<u32> {
    if !in_ga {
        return Vec::new();
    }
    let (full, accelerated) = baku_rounds(total_rounds);
    (0..accelerated)
        .map(|k| if k < full { one } else { half })
        .collect()
}

/// The Baku method's virtual points for `players` players in their initial ranking order
/// (index 0: pairing number 1), in a Swiss of `total_rounds` rounds: per player, per round
/// (index 0: round 1; missing rounds add nothing). `one` and `half` are the model's units for
/// 1 and 0.5 points (10 and 5 in tenths). The method presumes the standard scoring (C.04.5.1,
/// premise), where a draw is half a win.
pub fn baku(players: usize, total_rounds: usize, one: u32, half: u32) -> Vec<Vec<u32>> {
    let ga = baku_group_size(players);
    (0..players)
        .map(|k| baku_row(k < ga, total_rounds, one, half))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn groups_and_rounds_as_the_text_says() {
        // The text's own examples: 161 players make a GA of 82; nine rounds have five
        // accelerated rounds, three of them with a full point.
        assert_eq!(baku_group_size(161), 82);
        assert_eq!(baku_rounds(9), (3, 5));
        // First half rounded up to an even number.
        for (n, ga) in [
            (8, 4),
            (9, 6),
            (10, 6),
            (11, 6),
            (12, 6),
            (13, 8),
            (2, 2),
            (1, 1),
        ] {
            assert_eq!(baku_group_size(n), ga, "{n} players");
        }
        // Accelerated rounds: half rounded up; full ones: half of those rounded up.
        for (r, want) in [
            (5, (2, 3)),
            (6, (2, 3)),
            (7, (2, 4)),
            (8, (2, 4)),
            (11, (3, 6)),
            (1, (1, 1)),
        ] {
            assert_eq!(baku_rounds(r), want, "{r} rounds");
        }
    }

    #[test]
    fn ten_players_seven_rounds_by_hand() {
        // 10 players: half is 5, rounded up to an even number 6 (2 · ⌈10/4⌉ = 6), so pairing
        // numbers 1–6 are GA. 7 rounds: 4 accelerated (⌈7/2⌉), 2 with a full point (⌈4/2⌉).
        let t = baku(10, 7, 10, 5);
        for (k, row) in t.iter().enumerate() {
            if k < 6 {
                assert_eq!(row, &vec![10, 10, 5, 5], "GA player {}", k + 1);
            } else {
                assert!(row.is_empty(), "GB player {}", k + 1);
            }
        }
    }
}
