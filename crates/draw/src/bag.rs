//! The bag methods: Coffin's (spec §1.3.3) and Coffin's with Wheeler's correction (§1.3.4).
//!
//! The eight pieces are drawn blind from a bag and set on a1..h1 in the order drawn. Then:
//!
//! - **Bishops** (Coffin): if both stand on squares of one colour, swap the leftmost of the
//!   pairs a1-b1, c1-d1, e1-f1 that contains a bishop. The two squares of a pair differ in
//!   colour, so two same-coloured bishops are never in one pair and the swap moves exactly one
//!   bishop to the other colour; and as g1 and h1 differ in colour, at least one of the
//!   bishops stands on a1..f1, so a pair to swap always exists. The fix is always possible
//!   and always ends with the bishops on opposite colours.
//! - **Bishops** (Wheeler): if both stand on one colour, pick the left or the right bishop at
//!   random (1/2 each), then one of the four squares of the other colour at random (1/4 each:
//!   a black piece drawn blind from a bag of the eight black pieces, rook = 1st square from
//!   the left, knight = 2nd, bishop = 3rd, queen or king = 4th) and swap the bishop with the
//!   piece standing there (never the other bishop, which is on the first colour).
//! - **King** (both): if the king is not between the rooks, swap it with the nearer rook. Both
//!   rooks are then on the same side of the king, the nearer one is the middle piece of the
//!   three, and after the swap the king stands between them. Always possible.
//!
//! So every outcome sequence ends in a legal start position. Coffin's bishop swap is not
//! uniform (see `fairness`); Wheeler's is.

use crate::row::{colour, is_light, ordinal, role_name, squares_of_colour, Row, SQUARES};
use crate::source::{any, role_of, roll, Act, DrawError, Outcomes, Purpose, Steps};
use chess960_core::{BackRank, Role};

/// The eight white pieces, counted by [`Role::index`]: 2 N, 2 B, 2 R, Q, K.
pub(crate) const ALL_PIECES: [u8; 6] = [0, 2, 2, 2, 1, 1];

/// Draws the eight pieces blind onto a1..h1.
fn lay_out(src: &mut dyn Outcomes, steps: &mut Steps) -> Result<Row, DrawError> {
    let mut row = Row::new();
    let mut counts = ALL_PIECES;
    for (sq, name) in SQUARES.into_iter().enumerate() {
        let v = roll(
            src,
            steps,
            Act::Bag { counts },
            Purpose::at("square ", sq),
            &any,
        )?;
        let role = role_of(v);
        counts[role.index()] -= 1;
        row.put(sq, role);
        steps.say(|| format!("draw {}: {} → {name}", sq + 1, role_name(role)));
    }
    steps.say(|| format!("drawn: {}", row.diagram()));
    Ok(row)
}

/// The bishops' squares, left first, if they stand on squares of one colour.
pub(crate) fn same_coloured_bishops(row: &Row) -> Option<(usize, usize)> {
    let b = row.squares_of(Role::Bishop);
    (b.len() == 2 && is_light(b[0]) == is_light(b[1])).then(|| (b[0], b[1]))
}

/// Records that the bishops already stand on opposite colours.
pub(crate) fn say_bishops_fine(row: &Row, steps: &mut Steps) {
    steps.say(|| {
        let b = row.squares_of(Role::Bishop);
        format!(
            "bishops on {} and {}, squares of opposite colour: no bishop swap",
            SQUARES[b[0]], SQUARES[b[1]]
        )
    });
}

/// Coffin's bishop fix: swap the leftmost of the pairs a1-b1, c1-d1, e1-f1 that contains a
/// bishop.
fn coffin_bishops(row: &mut Row, steps: &mut Steps) {
    let Some((left, right)) = same_coloured_bishops(row) else {
        say_bishops_fine(row, steps);
        return;
    };
    let pair = [(0, 1), (2, 3), (4, 5)]
        .into_iter()
        .find(|&(a, b)| row.get(a) == Some(Role::Bishop) || row.get(b) == Some(Role::Bishop));
    let Some((a, b)) = pair else {
        // Unreachable (see the module documentation): two same-coloured bishops cannot both
        // stand on g1-h1. Left as it is, the enumeration would report the arrangement.
        steps.say(|| "no pair a1-b1, c1-d1, e1-f1 holds a bishop: nothing to swap".to_string());
        return;
    };
    let (pa, pb) = (row.get(a), row.get(b));
    row.swap(a, b);
    steps.say(|| {
        format!(
            "bishops both on {} squares ({} and {}): swap the leftmost of the pairs a1-b1, \
             c1-d1, e1-f1 that holds a bishop, {}-{}: {} ↔ {} → {}",
            colour(left),
            SQUARES[left],
            SQUARES[right],
            SQUARES[a],
            SQUARES[b],
            pa.map_or("empty", role_name),
            pb.map_or("empty", role_name),
            row.diagram()
        )
    });
}

/// Wheeler's bishop fix: a random bishop moves to a random square of the other colour.
fn wheeler_bishops(
    src: &mut dyn Outcomes,
    row: &mut Row,
    steps: &mut Steps,
) -> Result<(), DrawError> {
    let Some((left, right)) = same_coloured_bishops(row) else {
        say_bishops_fine(row, steps);
        return Ok(());
    };
    let hand = roll(
        src,
        steps,
        Act::Hands,
        Purpose::new("the bishop that moves"),
        &any,
    )?;
    let moving = if hand == 1 { left } else { right };
    steps.say(|| {
        format!(
            "bishops both on {} squares ({} and {}): pick {} → the {} bishop, on {}, moves",
            colour(left),
            SQUARES[left],
            SQUARES[right],
            Act::Hands.say(hand),
            Act::Hands.say(hand),
            SQUARES[moving]
        )
    });
    let v = roll(
        src,
        steps,
        Act::BlackPiece,
        Purpose::new("the square it moves to"),
        &any,
    )?;
    let piece = role_of(v);
    let k = match piece {
        Role::Rook => 1,
        Role::Knight => 2,
        Role::Bishop => 3,
        _ => 4,
    };
    let target = squares_of_colour(!is_light(moving))[k - 1];
    let there = row.get(target);
    row.swap(moving, target);
    steps.say(|| {
        format!(
            "draw a black {} → the {} {} square from the left, {}: bishop {} ↔ {} {} → {}",
            role_name(piece),
            ordinal(k),
            colour(target),
            SQUARES[target],
            SQUARES[moving],
            there.map_or("empty", role_name),
            SQUARES[target],
            row.diagram()
        )
    });
    Ok(())
}

/// The king fix of the bag and card methods: if the king is not between the rooks, swap it
/// with the nearer rook.
pub(crate) fn fix_king(row: &mut Row, steps: &mut Steps) {
    let rooks = row.squares_of(Role::Rook);
    let kings = row.squares_of(Role::King);
    let (&[r1, r2], &[k]) = (rooks.as_slice(), kings.as_slice()) else {
        return; // Not one king and two rooks: finish() reports it.
    };
    if r1 < k && k < r2 {
        steps.say(|| {
            format!(
                "king on {} stands between the rooks on {} and {}: no king swap",
                SQUARES[k], SQUARES[r1], SQUARES[r2]
            )
        });
        return;
    }
    // Both rooks are on one side of the king, so their distances differ: no tie.
    let nearer = if r1.abs_diff(k) < r2.abs_diff(k) {
        r1
    } else {
        r2
    };
    row.swap(k, nearer);
    steps.say(|| {
        format!(
            "king on {} is not between the rooks on {} and {}: swap it with the nearer rook, \
             on {} → {}",
            SQUARES[k],
            SQUARES[r1],
            SQUARES[r2],
            SQUARES[nearer],
            row.diagram()
        )
    });
}

/// Draws a start position by Coffin's bag method, with outcomes from `src`.
pub fn draw(src: &mut dyn Outcomes, steps: &mut Steps) -> Result<BackRank, DrawError> {
    let mut row = lay_out(src, steps)?;
    coffin_bishops(&mut row, steps);
    fix_king(&mut row, steps);
    row.finish()
}

/// Draws a start position by the bag method with Wheeler's correction, with outcomes from
/// `src`.
pub fn draw_wheeler(src: &mut dyn Outcomes, steps: &mut Steps) -> Result<BackRank, DrawError> {
    let mut row = lay_out(src, steps)?;
    wheeler_bishops(src, &mut row, steps)?;
    fix_king(&mut row, steps);
    row.finish()
}
