//! Northam's chosen, not random, start position (spec §1.3.7), as a state machine a dialogue
//! drives. Bishops, knights and queen are put aside; the players, Black first, alternately take
//! any of those five pieces and place it on any free square of the back rank, except that the
//! second bishop may not go on the colour of the first. The king then goes on the middle of the
//! three squares left and the rooks on the outer two (Black mirrors White, as always).
//!
//! No choice can lead into a dead end: the first bishop takes a square of one colour, the
//! knights and the queen can take at most three of the four squares of the other colour, so a
//! square for the second bishop always remains; and any three squares left take rook, king,
//! rook. Every one of the 960 positions can be reached.

use crate::row::{colour, is_light, role_name, square_list, Row, SQUARES};
use crate::source::{show_token, Step};
use chess960_core::{BackRank, Color, Role};
use std::fmt;

/// The pieces the players place, in the order they are listed.
pub const PLAYERS_PIECES: [Role; 5] = [
    Role::Bishop,
    Role::Bishop,
    Role::Knight,
    Role::Knight,
    Role::Queen,
];

/// `Black` or `White`, capitalised as the players are named in the dialogue.
pub fn player(color: Color) -> &'static str {
    match color {
        Color::White => "White",
        Color::Black => "Black",
    }
}

/// One placement made.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Placement {
    /// Who placed it.
    pub player: Color,
    /// The piece.
    pub role: Role,
    /// The square, 0 = a1 (Black's piece of the same kind goes on the same file of rank 8).
    pub square: usize,
}

/// Why a placement is refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PlaceError {
    /// All five pieces are placed already.
    Complete,
    /// The king or a rook: the players do not place those.
    NotPlayersPiece(Role),
    /// No piece of that kind is left to place.
    NoneLeft {
        /// The piece asked for.
        role: Role,
        /// What is left, in words.
        left: String,
    },
    /// The square is taken.
    Occupied {
        /// The square.
        square: usize,
        /// What stands there.
        role: Role,
    },
    /// The second bishop on the colour of the first.
    BishopColour {
        /// The first bishop's square.
        first: usize,
        /// The square asked for.
        square: usize,
        /// The squares the second bishop may take.
        allowed: Vec<usize>,
    },
}

impl fmt::Display for PlaceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlaceError::Complete => write!(f, "all five pieces are placed already"),
            PlaceError::NotPlayersPiece(role) => write!(
                f,
                "the players do not place the {}: the king goes on the middle of the three \
                 squares left at the end, the rooks on the outer two",
                if *role == Role::King { "king" } else { "rooks" }
            ),
            PlaceError::NoneLeft { role, left } => write!(
                f,
                "there is no {} left to place (left: {left})",
                role_name(*role)
            ),
            PlaceError::Occupied { square, role } => write!(
                f,
                "{} is taken by the {}",
                SQUARES[*square],
                role_name(*role)
            ),
            PlaceError::BishopColour {
                first,
                square,
                allowed,
            } => write!(
                f,
                "the second bishop may not stand on a {} square like the first (on {}), and {} \
                 is {}; it may go on {}",
                colour(*first),
                SQUARES[*first],
                SQUARES[*square],
                colour(*square),
                square_list(allowed)
            ),
        }
    }
}

impl std::error::Error for PlaceError {}

/// The state of Northam's alternate placement.
#[derive(Debug, Clone, Default)]
pub struct Chosen {
    row: Row,
    placed: Vec<Placement>,
}

impl Chosen {
    /// The empty back rank, Black to place first.
    pub fn new() -> Chosen {
        Chosen::default()
    }

    /// The player to place the next piece; `None` once all five are placed.
    pub fn to_move(&self) -> Option<Color> {
        match self.placed.len() {
            5.. => None,
            n if n % 2 == 0 => Some(Color::Black),
            _ => Some(Color::White),
        }
    }

    /// The placements so far.
    pub fn placements(&self) -> &[Placement] {
        &self.placed
    }

    /// The pieces still to place, in the order B, B, N, N, Q.
    pub fn remaining(&self) -> Vec<Role> {
        let mut left = PLAYERS_PIECES.to_vec();
        for p in &self.placed {
            if let Some(i) = left.iter().position(|&r| r == p.role) {
                left.remove(i);
            }
        }
        left
    }

    /// The rank so far, `.` for a free square: `. . B . . . . .`.
    pub fn diagram(&self) -> String {
        self.row.diagram()
    }

    /// Whether `role` may go on `square` now; the reason if not.
    pub fn check(&self, role: Role, square: usize) -> Result<(), PlaceError> {
        if self.to_move().is_none() {
            return Err(PlaceError::Complete);
        }
        if matches!(role, Role::King | Role::Rook | Role::Pawn) {
            return Err(PlaceError::NotPlayersPiece(role));
        }
        let left = self.remaining();
        if !left.contains(&role) {
            let names: Vec<&str> = left.iter().map(|&r| role_name(r)).collect();
            return Err(PlaceError::NoneLeft {
                role,
                left: names.join(", "),
            });
        }
        if let Some(there) = self.row.get(square) {
            return Err(PlaceError::Occupied {
                square,
                role: there,
            });
        }
        if role == Role::Bishop {
            if let Some(&first) = self.row.squares_of(Role::Bishop).first() {
                if is_light(first) == is_light(square) {
                    return Err(PlaceError::BishopColour {
                        first,
                        square,
                        allowed: self.legal_squares(Role::Bishop),
                    });
                }
            }
        }
        Ok(())
    }

    /// The squares `role` may go on now, from the left (empty if it may not be placed).
    pub fn legal_squares(&self, role: Role) -> Vec<usize> {
        if self.to_move().is_none() || !self.remaining().contains(&role) {
            return Vec::new();
        }
        let first_bishop = self.row.squares_of(Role::Bishop).first().copied();
        self.row
            .free()
            .into_iter()
            .filter(|&sq| match (role, first_bishop) {
                (Role::Bishop, Some(first)) => is_light(first) != is_light(sq),
                _ => true,
            })
            .collect()
    }

    /// Places `role` on `square` for the player to move, or says why not.
    pub fn place(&mut self, role: Role, square: usize) -> Result<Placement, PlaceError> {
        self.check(role, square)?;
        let player = self.to_move().expect("checked: not complete");
        self.row.put(square, role);
        let placement = Placement {
            player,
            role,
            square,
        };
        self.placed.push(placement);
        Ok(placement)
    }

    /// Once all five pieces are placed: the back rank with the king on the middle of the three
    /// squares left and the rooks on the outer two, and those three squares (rook, king,
    /// rook). `None` before.
    pub fn finish(&self) -> Option<(BackRank, [usize; 3])> {
        if self.to_move().is_some() {
            return None;
        }
        let mut row = self.row;
        let squares = row.rook_king_rook();
        let rank = row
            .finish()
            .expect("three squares left always take rook, king, rook");
        Some((rank, squares))
    }

    /// The placements in words, and the final king and rooks once complete.
    pub fn steps(&self) -> Vec<Step> {
        let mut steps: Vec<Step> = self
            .placed
            .iter()
            .map(|p| Step {
                text: format!(
                    "{}: {} → {}",
                    player(p.player),
                    role_name(p.role),
                    SQUARES[p.square]
                ),
            })
            .collect();
        if let Some((_, [r1, k, r2])) = self.finish() {
            steps.push(Step {
                text: king_and_rooks(r1, k, r2),
            });
        }
        steps
    }
}

/// "king on e1, the middle of the three squares left (a1, e1 and h1); rooks on a1 and h1".
pub fn king_and_rooks(r1: usize, k: usize, r2: usize) -> String {
    format!(
        "king on {}, the middle of the three squares left ({}); rooks on {} and {}",
        SQUARES[k],
        square_list(&[r1, k, r2]),
        SQUARES[r1],
        SQUARES[r2]
    )
}

/// What a placement is written like, for help texts.
pub const PLACEMENT_SYNTAX: &str = "a piece (B, N or Q, or bishop, knight, queen) and a \
square or just its file, like \"B c1\", \"Bc\", \"n g\", \"queen d1\" (rank 8 is accepted for \
Black's mirror square)";

/// Reads a placement such as `B c1`, `Bc`, `bishop c`, `Q on d1`, `nf8`: a piece, then a file
/// letter with an optional rank 1 or 8 (Black mirrors White, so either names the file).
pub fn parse_placement(text: &str) -> Result<(Role, usize), String> {
    let bad = || {
        format!(
            "'{}' is not a placement: write {PLACEMENT_SYNTAX}",
            show_token(text.trim())
        )
    };
    let lower = text.trim().to_ascii_lowercase();
    let words = [
        ("bishop", Role::Bishop),
        ("knight", Role::Knight),
        ("queen", Role::Queen),
        ("king", Role::King),
        ("rook", Role::Rook),
        ("pawn", Role::Pawn),
    ];
    let (role, rest) = match words
        .iter()
        .find_map(|&(w, r)| lower.strip_prefix(w).map(|rest| (r, rest)))
    {
        Some(found) => found,
        None => {
            let mut chars = lower.chars();
            let role = match chars.next() {
                Some('b') => Role::Bishop,
                Some('n') => Role::Knight,
                Some('q') => Role::Queen,
                Some('k') => Role::King,
                Some('r') => Role::Rook,
                Some('p') => Role::Pawn,
                _ => return Err(bad()),
            };
            (role, chars.as_str())
        }
    };
    let rest = rest.trim_start();
    let rest = ["on ", "to ", "-", "@"]
        .iter()
        .find_map(|p| rest.strip_prefix(p))
        .unwrap_or(rest)
        .trim();
    let mut chars = rest.chars();
    let file = match chars.next() {
        Some(c @ 'a'..='h') => c as usize - 'a' as usize,
        _ => return Err(bad()),
    };
    match chars.as_str() {
        "" | "1" | "8" => Ok((role, file)),
        _ => Err(bad()),
    }
}

/// Why a list of placements (`--outcomes` for the chosen method) failed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ChosenError {
    /// A placement that cannot be read or is not allowed.
    Bad {
        /// Which placement (1-based).
        index: usize,
        /// Whose turn it was.
        player: Color,
        /// The placement as given.
        text: String,
        /// Why it is refused.
        reason: String,
    },
    /// Fewer than five placements.
    TooFew {
        /// How many were given.
        given: usize,
    },
    /// More than five placements.
    TooMany {
        /// The ones after the fifth.
        left_over: Vec<String>,
    },
}

impl fmt::Display for ChosenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ChosenError::Bad {
                index,
                player,
                text,
                reason,
            } => write!(
                f,
                "placement {index} ({}, '{}'): {reason}",
                self::player(*player),
                show_token(text)
            ),
            ChosenError::TooFew { given } => write!(
                f,
                "Northam's method places five pieces (B, B, N, N, Q), but only {given} \
                 placement{} given",
                if *given == 1 { " was" } else { "s were" }
            ),
            ChosenError::TooMany { left_over } => write!(
                f,
                "all five pieces were placed after 5 placements, but '{}' {} left over",
                left_over
                    .iter()
                    .map(|t| show_token(t))
                    .collect::<Vec<_>>()
                    .join(", "),
                if left_over.len() == 1 { "is" } else { "are" }
            ),
        }
    }
}

impl std::error::Error for ChosenError {}

/// Plays a whole placement list, such as `B c1, B f1, N b1, N g1, Q d1` (separated by commas
/// or semicolons; Black places the 1st, 3rd and 5th piece), as `--outcomes` does.
pub fn replay(text: &str) -> Result<Chosen, ChosenError> {
    let items: Vec<&str> = text
        .split([',', ';'])
        .map(str::trim)
        .filter(|t| !t.is_empty())
        .collect();
    let mut state = Chosen::new();
    for (i, item) in items.iter().enumerate() {
        let Some(player) = state.to_move() else {
            return Err(ChosenError::TooMany {
                left_over: items[i..].iter().map(|s| s.to_string()).collect(),
            });
        };
        let bad = |reason: String| ChosenError::Bad {
            index: i + 1,
            player,
            text: item.to_string(),
            reason,
        };
        let (role, square) = parse_placement(item).map_err(bad)?;
        state.place(role, square).map_err(|e| bad(e.to_string()))?;
    }
    if state.to_move().is_some() {
        return Err(ChosenError::TooFew { given: items.len() });
    }
    Ok(state)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn placements_parse() {
        assert_eq!(parse_placement("B c1"), Ok((Role::Bishop, 2)));
        assert_eq!(parse_placement("Bc"), Ok((Role::Bishop, 2)));
        assert_eq!(parse_placement("bishop c"), Ok((Role::Bishop, 2)));
        assert_eq!(parse_placement("bb1"), Ok((Role::Bishop, 1)));
        assert_eq!(parse_placement("  queen on d1 "), Ok((Role::Queen, 3)));
        assert_eq!(parse_placement("Nf8"), Ok((Role::Knight, 5)));
        assert_eq!(parse_placement("K e1"), Ok((Role::King, 4)));
        for bad in ["", "B", "c1", "B i1", "B c2", "X c1", "Bc1x", "bishopp c1"] {
            assert!(parse_placement(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn classical_by_alternate_placement() {
        // Black: B c1; White: B f1; Black: N b1; White: N g1; Black: Q d1. Left: a1, e1, h1
        // → rook, king, rook: RNBQKBNR.
        let s = replay("B c1, B f1, N b1, N g1, Q d1").unwrap();
        let (rank, squares) = s.finish().unwrap();
        assert_eq!(rank.to_string(), "RNBQKBNR");
        assert_eq!(squares, [0, 4, 7]);
        assert_eq!(s.placements()[1].player, Color::White);
    }

    #[test]
    fn refusals_have_reasons() {
        let mut s = Chosen::new();
        s.place(Role::Bishop, 2).unwrap(); // c1, dark
        let e = s.place(Role::Bishop, 4).unwrap_err().to_string();
        assert!(
            e.contains("may not stand on a dark square like the first (on c1)"),
            "{e}"
        );
        assert!(e.contains("b1, d1, f1 and h1"), "{e}");
        assert!(s
            .place(Role::King, 4)
            .unwrap_err()
            .to_string()
            .contains("king"));
        assert!(s
            .place(Role::Rook, 4)
            .unwrap_err()
            .to_string()
            .contains("rooks"));
        let e = s.place(Role::Knight, 2).unwrap_err().to_string();
        assert_eq!(e, "c1 is taken by the bishop");
        s.place(Role::Queen, 0).unwrap();
        let e = s.place(Role::Queen, 1).unwrap_err().to_string();
        assert!(e.contains("no queen left"), "{e}");
        // Black placed the bishop, White the queen: Black's turn again.
        assert_eq!(s.to_move(), Some(Color::Black));
    }

    #[test]
    fn no_dead_ends_and_every_position_reachable() {
        // Depth-first over every legal placement sequence.
        fn walk(s: &Chosen, seen: &mut std::collections::HashSet<String>) {
            if let Some((rank, _)) = s.finish() {
                seen.insert(rank.to_string());
                return;
            }
            let mut any = false;
            let mut roles = s.remaining();
            roles.dedup();
            for role in roles {
                for sq in s.legal_squares(role) {
                    let mut next = s.clone();
                    next.place(role, sq).unwrap();
                    any = true;
                    walk(&next, seen);
                }
            }
            assert!(any, "dead end at {}", s.diagram());
        }
        // Every position can be placed with a bishop first, so walking all games that start
        // with a bishop (on each of the eight squares) reaches every reachable position, and
        // checks for dead ends on the way.
        let mut seen = std::collections::HashSet::new();
        for first in 0..8 {
            let mut s = Chosen::new();
            s.place(Role::Bishop, first).unwrap();
            walk(&s, &mut seen);
        }
        assert_eq!(seen.len(), 960);
    }
}
