//! Colour allocation (C.04.3 Art. 5.2) and the colour tests of the pairing criteria.

use super::state::{ranks_below, PlayerState};
use crate::model::Color;

/// Whether two preferences can both be met: they differ, or one player has none.
pub fn compatible(a: Option<Color>, b: Option<Color>) -> bool {
    a != b || a.is_none() || b.is_none()
}

/// The colours the two had in the latest round (counting played games only, each player's
/// own) in which their colours differed.
fn latest_difference(p: &PlayerState, o: &PlayerState) -> Option<(Color, Color)> {
    let mut a = p.colors_latest_first();
    let mut b = o.colors_latest_first();
    loop {
        match (a.next(), b.next()) {
            (Some(x), Some(y)) if x == y => continue,
            (Some(x), Some(y)) => return Some((x, y)),
            _ => return None,
        }
    }
}

/// Rules 5.2.1–5.2.3: both preferences; the stronger one; alternation from the latest round
/// in which the two had different colours. `None` when these rules do not decide.
fn by_preferences(p: &PlayerState, o: &PlayerState) -> Option<Color> {
    if compatible(p.preference, o.preference) {
        return p.preference.or(o.preference.map(Color::flip));
    }
    if p.absolute() && (p.imbalance > o.imbalance || !o.absolute()) {
        return p.preference;
    }
    if o.absolute() && (o.imbalance > p.imbalance || !p.absolute()) {
        return o.preference.map(Color::flip);
    }
    if p.strong && !o.strong {
        return p.preference;
    }
    if o.strong && !p.strong {
        return o.preference.map(Color::flip);
    }
    // Each takes the colour the other had then.
    latest_difference(p, o).map(|(_, theirs)| theirs)
}

/// The colour `p` gets against `o`: Art. 5.2, ending with the higher-ranked player's
/// preference (5.2.4) and the initial colour by pairing number (5.2.5).
pub fn color_for(p: &PlayerState, o: &PlayerState, initial: Color) -> Color {
    if let Some(c) = by_preferences(p, o) {
        return c;
    }
    let p_lower = ranks_below(p, o);
    match p.preference {
        // 5.2.4: the higher-ranked player's preference.
        Some(pref) => {
            if p_lower {
                o.preference.map_or(pref, Color::flip)
            } else {
                pref
            }
        }
        // 5.2.5: the higher-ranked player gets the initial colour with an odd pairing rank
        // (an even rank counted from 0), the other one otherwise.
        None => {
            let (higher, higher_is_p) = if p_lower { (o, false) } else { (p, true) };
            let higher_color = if higher.rank % 2 == 0 {
                initial
            } else {
                initial.flip()
            };
            if higher_is_p {
                higher_color
            } else {
                higher_color.flip()
            }
        }
    }
}
