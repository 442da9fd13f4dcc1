//! A back rank being filled in, square by square, and the words the procedures use for
//! squares, pieces and counting.

use crate::source::{DrawError, Steps};
use chess960_core::{BackRank, Role};

/// The names of White's back-rank squares, a1 first.
pub const SQUARES: [&str; 8] = ["a1", "b1", "c1", "d1", "e1", "f1", "g1", "h1"];

/// Whether back-rank square `i` (0 = a1) is light. a1 is dark, so the b-, d-, f- and h-files
/// are the light ones.
pub fn is_light(i: usize) -> bool {
    i % 2 == 1
}

/// "light" or "dark" for square `i`.
pub fn colour(i: usize) -> &'static str {
    if is_light(i) {
        "light"
    } else {
        "dark"
    }
}

/// The squares of one colour, from the left: a1, c1, e1, g1 or b1, d1, f1, h1.
pub fn squares_of_colour(light: bool) -> [usize; 4] {
    if light {
        [1, 3, 5, 7]
    } else {
        [0, 2, 4, 6]
    }
}

/// `1st`, `2nd`, `3rd`, `4th`, …
pub fn ordinal(n: usize) -> String {
    let suffix = match (n % 10, n % 100) {
        (1, 11) | (2, 12) | (3, 13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

/// The English name of a piece.
pub fn role_name(role: Role) -> &'static str {
    match role {
        Role::Pawn => "pawn",
        Role::Knight => "knight",
        Role::Bishop => "bishop",
        Role::Rook => "rook",
        Role::Queen => "queen",
        Role::King => "king",
    }
}

/// A list of square names: `a1, d1 and h1`.
pub fn square_list(squares: &[usize]) -> String {
    let names: Vec<&str> = squares.iter().map(|&i| SQUARES[i]).collect();
    match names.len() {
        0 => String::new(),
        1 => names[0].to_string(),
        n => format!("{} and {}", names[..n - 1].join(", "), names[n - 1]),
    }
}

/// White's back rank while a procedure fills it: `None` for a square still free.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Row {
    cells: [Option<Role>; 8],
}

impl Default for Row {
    fn default() -> Row {
        Row::new()
    }
}

impl Row {
    /// An empty rank.
    pub fn new() -> Row {
        Row { cells: [None; 8] }
    }

    /// What stands on square `i` (0 = a1).
    pub fn get(&self, i: usize) -> Option<Role> {
        self.cells[i]
    }

    /// Puts `role` on the free square `i`.
    pub fn put(&mut self, i: usize, role: Role) {
        debug_assert!(self.cells[i].is_none(), "{} is taken", SQUARES[i]);
        self.cells[i] = Some(role);
    }

    /// Exchanges what stands on squares `i` and `j`.
    pub fn swap(&mut self, i: usize, j: usize) {
        self.cells.swap(i, j);
    }

    /// The free squares, from the left.
    pub fn free(&self) -> Vec<usize> {
        (0..8).filter(|&i| self.cells[i].is_none()).collect()
    }

    /// The squares holding `role`, from the left.
    pub fn squares_of(&self, role: Role) -> Vec<usize> {
        (0..8).filter(|&i| self.cells[i] == Some(role)).collect()
    }

    /// Whether every square holds a piece.
    pub fn is_full(&self) -> bool {
        self.cells.iter().all(Option::is_some)
    }

    /// The rank as letters, `.` for a free square, with spaces: `R N . Q K . N R`.
    pub fn diagram(&self) -> String {
        let letters: Vec<String> = self
            .cells
            .iter()
            .map(|c| c.map_or('.', Role::upper_char).to_string())
            .collect();
        letters.join(" ")
    }

    /// The rank as eight letters, `.` for a free square: `RN.QK.NR`.
    pub fn letters(&self) -> String {
        self.cells
            .iter()
            .map(|c| c.map_or('.', Role::upper_char))
            .collect()
    }

    /// The finished rank as a Chess960 back rank; an error saying why, if the procedure ended
    /// in an arrangement that is not a legal start position (or left a square empty).
    pub fn finish(&self) -> Result<BackRank, DrawError> {
        let letters = self.letters();
        if !self.is_full() {
            return Err(DrawError::NotAStart {
                arrangement: letters,
                reason: "not every square holds a piece".to_string(),
            });
        }
        BackRank::parse(&letters).map_err(|e| DrawError::NotAStart {
            arrangement: letters,
            reason: e.to_string(),
        })
    }

    /// Fills the last three free squares with rook, king, rook from the left (the king
    /// between the rooks), as the die, Platonic-dice and chosen methods do.
    pub fn rook_king_rook(&mut self) -> [usize; 3] {
        let free = self.free();
        assert_eq!(
            free.len(),
            3,
            "rook, king, rook need exactly three free squares"
        );
        self.put(free[0], Role::Rook);
        self.put(free[1], Role::King);
        self.put(free[2], Role::Rook);
        [free[0], free[1], free[2]]
    }

    /// The last step of the methods that place the other pieces first: rook, king, rook on the
    /// three free squares (recorded in words), then the finished back rank.
    pub fn finish_with_rook_king_rook(&mut self, steps: &mut Steps) -> Result<BackRank, DrawError> {
        let [r1, k, r2] = self.rook_king_rook();
        steps.say(|| {
            format!(
                "rook, king, rook on the last three free squares: rook {}, king {}, rook {}",
                SQUARES[r1], SQUARES[k], SQUARES[r2]
            )
        });
        self.finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words() {
        assert_eq!(ordinal(1), "1st");
        assert_eq!(ordinal(2), "2nd");
        assert_eq!(ordinal(3), "3rd");
        assert_eq!(ordinal(4), "4th");
        assert_eq!(ordinal(11), "11th");
        assert_eq!(ordinal(22), "22nd");
        assert_eq!(square_list(&[0, 3, 7]), "a1, d1 and h1");
        assert_eq!(square_list(&[2]), "c1");
        assert!(!is_light(0) && is_light(1) && is_light(7));
    }

    #[test]
    fn finishing() {
        let mut row = Row::new();
        for (i, r) in [
            Role::Bishop,
            Role::Bishop,
            Role::Queen,
            Role::Knight,
            Role::Knight,
        ]
        .into_iter()
        .enumerate()
        {
            row.put(i, r);
        }
        assert_eq!(row.rook_king_rook(), [5, 6, 7]);
        assert_eq!(row.finish().unwrap().to_string(), "BBQNNRKR");
        let mut bad = Row::new();
        bad.put(0, Role::King);
        assert!(bad.finish().is_err());
    }
}
