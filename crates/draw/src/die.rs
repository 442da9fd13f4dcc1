//! Bodlaender's die method (spec §1.3.1), with one six-sided die:
//!
//! 1. roll 1–4 for the dark-squared bishop on a1, c1, e1, g1 (re-roll 5 and 6);
//! 2. roll 1–4 for the light-squared bishop on b1, d1, f1, h1 (re-roll 5 and 6);
//! 3. roll 1–6 for the queen on the free squares counted from the left;
//! 4. roll 1–5 for the first knight on the five free squares (re-roll 6);
//! 5. roll 1–4 for the second knight on the four free squares left (re-roll 5 and 6);
//! 6. rook, king, rook on the last three free squares from the left.
//!
//! Every one of the 4 × 4 × 6 × 5 × 4 = 1920 accepted roll sequences is equally likely and
//! each position arises from exactly two of them (the knights are interchangeable), so the
//! method is uniform.

use crate::row::{ordinal, square_list, squares_of_colour, Row, SQUARES};
use crate::source::{any, roll, Act, DrawError, Outcomes, Purpose, Steps};
use chess960_core::{BackRank, Role};

const DIE: Act = Act::Die { sides: 6 };

/// Accepts 1..=`n`; a higher face "has no square".
fn up_to(n: u32, squares: &'static str) -> impl Fn(u32) -> Result<(), String> {
    move |v| {
        if v <= n {
            Ok(())
        } else {
            Err(format!("{v} has no square ({squares})"))
        }
    }
}

/// Draws a start position by Bodlaender's die method, with outcomes from `src`.
pub fn draw(src: &mut dyn Outcomes, steps: &mut Steps) -> Result<BackRank, DrawError> {
    let mut row = Row::new();

    for (light, purpose, squares) in [
        (
            false,
            "the dark-squared bishop",
            "the dark squares are a1, c1, e1, g1",
        ),
        (
            true,
            "the light-squared bishop",
            "the light squares are b1, d1, f1, h1",
        ),
    ] {
        let v = roll(src, steps, DIE, Purpose::new(purpose), &up_to(4, squares))?;
        let sq = squares_of_colour(light)[v as usize - 1];
        row.put(sq, Role::Bishop);
        let name = purpose.trim_start_matches("the ");
        steps.say(|| format!("roll {v} → {name} on {}", SQUARES[sq]));
    }

    let free = row.free();
    let v = roll(src, steps, DIE, Purpose::new("the queen"), &any)?;
    let sq = free[v as usize - 1];
    row.put(sq, Role::Queen);
    steps.say(|| {
        format!(
            "roll {v} → queen on the {} of the free squares {}: {}",
            ordinal(v as usize),
            square_list(&free),
            SQUARES[sq]
        )
    });

    for (purpose, max, why) in [
        ("the first knight", 5, "only 5 free squares"),
        ("the second knight", 4, "only 4 free squares"),
    ] {
        let free = row.free();
        let v = roll(src, steps, DIE, Purpose::new(purpose), &up_to(max, why))?;
        let sq = free[v as usize - 1];
        row.put(sq, Role::Knight);
        let name = purpose.trim_start_matches("the ");
        steps.say(|| {
            format!(
                "roll {v} → {name} on the {} of the free squares {}: {}",
                ordinal(v as usize),
                square_list(&free),
                SQUARES[sq]
            )
        });
    }

    row.finish_with_rook_king_rook(steps)
}
