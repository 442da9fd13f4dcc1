//! The Platonic-dice method (spec §1.3.6). All dice are thrown at once and read in this order
//! (the order the outcomes are typed in):
//!
//! 1. octahedron (1–8): the first bishop on that square, a1..h1;
//! 2. tetrahedron (1–4): the second bishop on that square, counted from the left, among the
//!    four squares of the other colour;
//! 3. cube (1–6): the queen on that free square;
//! 4. icosahedron (1–20): take `v = 2 × roll + 8` (10..48, always two digits, even); the
//!    second digit of `v` halved plus one (1–5) places the first knight on that free square,
//!    the first digit of `v` (1–4) places the second knight on that free square of those
//!    remaining;
//! 5. rook, king, rook on the last three squares (the dodecahedron is ignored).
//!
//! Nothing is ever thrown again. The 20 values of `v` are 10, 12, …, 48: each first digit 1–4
//! comes with each second digit 0, 2, 4, 6, 8 exactly once, so the icosahedron gives every
//! (first knight 1–5, second knight 1–4) pair once; the octahedron and tetrahedron give every
//! ordered pair of opposite-coloured squares once. The method is uniform.

use crate::row::{colour, is_light, ordinal, square_list, squares_of_colour, Row, SQUARES};
use crate::source::{any, roll, Act, DrawError, Outcomes, Purpose, Steps};
use chess960_core::{BackRank, Role};

/// Draws a start position by the Platonic-dice method, with outcomes from `src`.
pub fn draw(src: &mut dyn Outcomes, steps: &mut Steps) -> Result<BackRank, DrawError> {
    let mut row = Row::new();

    let oct = roll(
        src,
        steps,
        Act::Solid { sides: 8 },
        Purpose::new("the first bishop"),
        &any,
    )?;
    let first = oct as usize - 1;
    row.put(first, Role::Bishop);
    steps.say(|| {
        format!(
            "octahedron {oct} → first bishop on {} (a {} square)",
            SQUARES[first],
            colour(first)
        )
    });

    let tet = roll(
        src,
        steps,
        Act::Solid { sides: 4 },
        Purpose::new("the second bishop"),
        &any,
    )?;
    let others = squares_of_colour(!is_light(first));
    let second = others[tet as usize - 1];
    row.put(second, Role::Bishop);
    steps.say(|| {
        format!(
            "tetrahedron {tet} → second bishop on the {} {} square, {}",
            ordinal(tet as usize),
            colour(second),
            SQUARES[second]
        )
    });

    let free = row.free();
    let cube = roll(
        src,
        steps,
        Act::Solid { sides: 6 },
        Purpose::new("the queen"),
        &any,
    )?;
    let q = free[cube as usize - 1];
    row.put(q, Role::Queen);
    steps.say(|| {
        format!(
            "cube {cube} → queen on the {} of the free squares {}: {}",
            ordinal(cube as usize),
            square_list(&free),
            SQUARES[q]
        )
    });

    let ico = roll(
        src,
        steps,
        Act::Solid { sides: 20 },
        Purpose::new("the knights"),
        &any,
    )?;
    let v = 2 * ico + 8;
    let (tens, units) = (v / 10, v % 10);
    let n1 = units / 2 + 1;
    let free = row.free();
    let k1 = free[n1 as usize - 1];
    row.put(k1, Role::Knight);
    let rest = row.free();
    let k2 = rest[tens as usize - 1];
    row.put(k2, Role::Knight);
    steps.say(|| {
        format!(
            "icosahedron {ico} → v = 2 × {ico} + 8 = {v}; second digit {units}: {units}/2 + 1 = \
             {n1} → first knight on the {} of the free squares {}: {}; first digit {tens} → \
             second knight on the {} of the free squares {}: {}",
            ordinal(n1 as usize),
            square_list(&free),
            SQUARES[k1],
            ordinal(tens as usize),
            square_list(&rest),
            SQUARES[k2]
        )
    });

    row.finish_with_rook_king_rook(steps)
}
