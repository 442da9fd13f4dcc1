//! The eight-card method (spec §1.3.5). Eight cards numbered 1..8 show the eight pieces; the
//! spec does not say which card shows which piece, so this implementation fixes the deck as
//! the classical back rank: card *n* shows the piece of the classical start on the *n*-th file,
//!
//! | card  | 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 |
//! |-------|---|---|---|---|---|---|---|---|
//! | piece | R | N | B | Q | K | B | N | R |
//!
//! (which piece a number shows changes nothing in the distribution: the layout is a uniformly
//! random order of the cards either way, and the number on the second card is read only as a
//! number).
//!
//! 1. Shuffle and lay the cards out for a1..h1; set up the pieces they show.
//! 2. If the bishops share a colour, shuffle all eight again and draw one card: 1–4 moves the
//!    left bishop, 5–8 the right one; above 4 subtract 4; the bishop moves to the so-counted
//!    square of the other colour from the left, swapping with the piece there (never the other
//!    bishop, which stands on the first colour).
//! 3. Fix the king as in the bag method.
//!
//! The drawn card is uniform over (left/right) × (1st..4th square): Wheeler's correction.

use crate::bag::{fix_king, same_coloured_bishops, say_bishops_fine};
use crate::row::{colour, is_light, ordinal, role_name, squares_of_colour, Row, SQUARES};
use crate::source::{any, roll, Act, DrawError, Outcomes, Purpose, Steps};
use chess960_core::{BackRank, Role};

/// The piece card `n` shows is `CARDS[n - 1]`.
pub const CARDS: [Role; 8] = [
    Role::Rook,
    Role::Knight,
    Role::Bishop,
    Role::Queen,
    Role::King,
    Role::Bishop,
    Role::Knight,
    Role::Rook,
];

/// All eight cards, one bit each.
const FULL_DECK: u8 = 0xFF;

/// Draws a start position by the eight-card method, with outcomes from `src`.
pub fn draw(src: &mut dyn Outcomes, steps: &mut Steps) -> Result<BackRank, DrawError> {
    let mut row = Row::new();
    let mut deck = FULL_DECK;
    for (sq, name) in SQUARES.into_iter().enumerate() {
        let card = roll(
            src,
            steps,
            Act::Card { deck },
            Purpose::at("square ", sq),
            &any,
        )?;
        deck &= !(1 << (card - 1));
        let role = CARDS[card as usize - 1];
        row.put(sq, role);
        steps.say(|| format!("card {card} ({}) → {name}", role_name(role)));
    }
    steps.say(|| format!("laid out: {}", row.diagram()));

    if let Some((left, right)) = same_coloured_bishops(&row) {
        let card = roll(
            src,
            steps,
            Act::Card { deck: FULL_DECK },
            Purpose::new("the bishop to move"),
            &any,
        )?;
        let (moving, side) = if card <= 4 {
            (left, "left")
        } else {
            (right, "right")
        };
        let k = if card > 4 { card - 4 } else { card } as usize;
        let target = squares_of_colour(!is_light(moving))[k - 1];
        let there = row.get(target);
        row.swap(moving, target);
        steps.say(|| {
            format!(
                "bishops both on {} squares ({} and {}): reshuffle and draw card {card} → the \
                 {side} bishop, on {}, moves to the {} {} square from the left, {}: bishop ↔ {} \
                 → {}",
                colour(left),
                SQUARES[left],
                SQUARES[right],
                SQUARES[moving],
                ordinal(k),
                colour(target),
                SQUARES[target],
                there.map_or("empty", role_name),
                row.diagram()
            )
        });
    } else {
        say_bishops_fine(&row, steps);
    }

    fix_king(&mut row, steps);
    row.finish()
}
