//! Northam's two-coin method (spec §1.3.2). Two distinguishable coins: the back of the smaller
//! counts 0, the back of the larger 1, the front of either 2. Throwing both gives 1–4 (the sum);
//! for 1–3 both are thrown and a 4 is thrown again; for 1–2 only the larger coin is thrown.
//!
//! 1. light-squared bishop: 1–4 on b1, d1, f1, h1;
//! 2. dark-squared bishop: 1–4 on a1, c1, e1, g1;
//! 3. king: 1–4 on the middle four of the six free squares (the 2nd to 5th), so that a
//!    rook can stand on each side;
//! 4. right rook: on one of the free squares right of the king (4, 3, 2 or 1 of them: both
//!    coins, both coins with a re-throw on 4, the larger coin, or no throw at all);
//! 5. left rook: likewise among the free squares left of the king;
//! 6. queen: 1–3 on the three squares left (both coins, re-throw on 4);
//! 7. knights on the last two squares.
//!
//! The method is not uniform: with the king on the 2nd (or 5th) of the six free squares the
//! rooks have 1 × 4 choices, with the king on the 3rd (or 4th) 2 × 3 = 6, so each position of
//! the first kind is drawn with probability 1/4 · 1/4 · 1/4 · 1/4 · 1/3 = 1/768 and each of the
//! second with 1/4 · 1/4 · 1/4 · 1/6 · 1/3 = 1/1152, a ratio of 3 : 2.

use crate::row::{ordinal, square_list, squares_of_colour, Row, SQUARES};
use crate::source::{any, roll, Act, DrawError, Outcomes, Purpose, Steps};
use chess960_core::{BackRank, Role};

/// One of `n` (1..=4) choices by the coins: both coins for 4, both with a re-throw on 4 for
/// 3, the larger coin for 2, no throw for 1. Returns the choice, 1-based, and whether the
/// coins were thrown.
fn choose(
    src: &mut dyn Outcomes,
    steps: &mut Steps,
    n: usize,
    purpose: Purpose,
) -> Result<(u32, bool), DrawError> {
    match n {
        1 => Ok((1, false)),
        2 => Ok((roll(src, steps, Act::LargerCoin, purpose, &any)?, true)),
        3 => {
            let accept = |v: u32| {
                if v <= 3 {
                    Ok(())
                } else {
                    Err("4 has no square (only 3 to choose from)".to_string())
                }
            };
            Ok((roll(src, steps, Act::BothCoins, purpose, &accept)?, true))
        }
        4 => Ok((roll(src, steps, Act::BothCoins, purpose, &any)?, true)),
        _ => unreachable!("the coins choose among 1 to 4 squares, not {n}"),
    }
}

/// Draws a start position by Northam's two-coin method, with outcomes from `src`.
pub fn draw(src: &mut dyn Outcomes, steps: &mut Steps) -> Result<BackRank, DrawError> {
    let mut row = Row::new();

    for (light, purpose) in [
        (true, "the light-squared bishop"),
        (false, "the dark-squared bishop"),
    ] {
        let (v, _) = choose(src, steps, 4, Purpose::new(purpose))?;
        let sq = squares_of_colour(light)[v as usize - 1];
        row.put(sq, Role::Bishop);
        let name = purpose.trim_start_matches("the ");
        steps.say(|| format!("throw {v} → {name} on {}", SQUARES[sq]));
    }

    // The king: the middle four of the six free squares, the 2nd to the 5th.
    let free = row.free();
    let (v, _) = choose(src, steps, 4, Purpose::new("the king"))?;
    let king = free[v as usize];
    row.put(king, Role::King);
    steps.say(|| {
        format!(
            "throw {v} → king on the {} of the middle four free squares {}: {}",
            ordinal(v as usize),
            square_list(&free[1..5]),
            SQUARES[king]
        )
    });

    for (right, purpose) in [(true, "the right rook"), (false, "the left rook")] {
        let side: Vec<usize> = row
            .free()
            .into_iter()
            .filter(|&s| if right { s > king } else { s < king })
            .collect();
        let (v, thrown) = choose(src, steps, side.len(), Purpose::new(purpose))?;
        let sq = side[v as usize - 1];
        row.put(sq, Role::Rook);
        let name = purpose.trim_start_matches("the ");
        let dir = if right { "right" } else { "left" };
        steps.say(|| {
            if thrown {
                format!(
                    "throw {v} → {name} on the {} of the free squares {dir} of the king, {}: {}",
                    ordinal(v as usize),
                    square_list(&side),
                    SQUARES[sq]
                )
            } else {
                format!(
                    "no throw needed: {name} on {}, the only free square {dir} of the king",
                    SQUARES[sq]
                )
            }
        });
    }

    let free = row.free();
    let (v, _) = choose(src, steps, 3, Purpose::new("the queen"))?;
    let sq = free[v as usize - 1];
    row.put(sq, Role::Queen);
    steps.say(|| {
        format!(
            "throw {v} → queen on the {} of the three free squares {}: {}",
            ordinal(v as usize),
            square_list(&free),
            SQUARES[sq]
        )
    });

    let free = row.free();
    for &sq in &free {
        row.put(sq, Role::Knight);
    }
    steps.say(|| format!("knights on the last two squares, {}", square_list(&free)));
    row.finish()
}
