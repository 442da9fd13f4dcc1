//! Small value types: colours, roles, pieces, files, ranks, squares and castling sides.
//!
//! Each is a dense enum or a newtype over a small integer so that illegal values cannot be
//! constructed and the compiler can use them as array indices without bounds surprises.

use std::fmt;
use std::ops::Not;

/// A side: White or Black.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Color {
    /// The side that moves first.
    White = 0,
    /// The side that moves second.
    Black = 1,
}

impl Color {
    /// Both colours, White first.
    pub const ALL: [Color; 2] = [Color::White, Color::Black];

    /// Index for arrays (`White` = 0).
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The rank on which this colour's pieces start (rank 1 for White, rank 8 for Black).
    #[inline]
    pub const fn back_rank(self) -> Rank {
        match self {
            Color::White => Rank::First,
            Color::Black => Rank::Eighth,
        }
    }

    /// `white` or `black`.
    pub const fn name(self) -> &'static str {
        match self {
            Color::White => "white",
            Color::Black => "black",
        }
    }

    /// `w` or `b`, as in FEN.
    pub const fn fen_char(self) -> char {
        match self {
            Color::White => 'w',
            Color::Black => 'b',
        }
    }
}

impl Not for Color {
    type Output = Color;
    #[inline]
    fn not(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The kind of a piece, independent of its colour.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Role {
    /// Pawn.
    Pawn = 0,
    /// Knight.
    Knight = 1,
    /// Bishop.
    Bishop = 2,
    /// Rook.
    Rook = 3,
    /// Queen.
    Queen = 4,
    /// King.
    King = 5,
}

impl Role {
    /// All roles, pawn first.
    pub const ALL: [Role; 6] = [
        Role::Pawn,
        Role::Knight,
        Role::Bishop,
        Role::Rook,
        Role::Queen,
        Role::King,
    ];

    /// Index for arrays (`Pawn` = 0).
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// Upper-case letter as in SAN (`P` for pawns, which SAN omits).
    pub const fn upper_char(self) -> char {
        match self {
            Role::Pawn => 'P',
            Role::Knight => 'N',
            Role::Bishop => 'B',
            Role::Rook => 'R',
            Role::Queen => 'Q',
            Role::King => 'K',
        }
    }

    /// Lower-case letter as in UCI promotions.
    pub const fn lower_char(self) -> char {
        self.upper_char().to_ascii_lowercase()
    }

    /// The role for a letter in either case (`n`, `N` → knight).
    pub fn from_char(c: char) -> Option<Role> {
        Some(match c.to_ascii_lowercase() {
            'p' => Role::Pawn,
            'n' => Role::Knight,
            'b' => Role::Bishop,
            'r' => Role::Rook,
            'q' => Role::Queen,
            'k' => Role::King,
            _ => return None,
        })
    }
}

/// A coloured piece.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Piece {
    /// Whose piece it is.
    pub color: Color,
    /// What kind of piece it is.
    pub role: Role,
}

impl Piece {
    /// The FEN letter: upper case for White, lower case for Black.
    pub const fn fen_char(self) -> char {
        match self.color {
            Color::White => self.role.upper_char(),
            Color::Black => self.role.lower_char(),
        }
    }

    /// The piece for a FEN letter.
    pub fn from_fen_char(c: char) -> Option<Piece> {
        let role = Role::from_char(c)?;
        let color = if c.is_ascii_uppercase() {
            Color::White
        } else {
            Color::Black
        };
        Some(Piece { color, role })
    }

    /// The Unicode chess symbol (♔ … ♟).
    pub const fn unicode(self) -> char {
        match (self.color, self.role) {
            (Color::White, Role::King) => '♔',
            (Color::White, Role::Queen) => '♕',
            (Color::White, Role::Rook) => '♖',
            (Color::White, Role::Bishop) => '♗',
            (Color::White, Role::Knight) => '♘',
            (Color::White, Role::Pawn) => '♙',
            (Color::Black, Role::King) => '♚',
            (Color::Black, Role::Queen) => '♛',
            (Color::Black, Role::Rook) => '♜',
            (Color::Black, Role::Bishop) => '♝',
            (Color::Black, Role::Knight) => '♞',
            (Color::Black, Role::Pawn) => '♟',
        }
    }
}

/// A file (column), `a` to `h`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
#[allow(missing_docs)]
pub enum File {
    A = 0,
    B,
    C,
    D,
    E,
    F,
    G,
    H,
}

impl File {
    /// All files, a to h.
    pub const ALL: [File; 8] = [
        File::A,
        File::B,
        File::C,
        File::D,
        File::E,
        File::F,
        File::G,
        File::H,
    ];

    /// The file with this index (0 = a); `None` outside 0..8.
    #[inline]
    pub const fn new(index: u32) -> Option<File> {
        if index < 8 {
            Some(File::ALL[index as usize])
        } else {
            None
        }
    }

    /// Index 0..8 (a = 0).
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// Lower-case letter.
    pub const fn char(self) -> char {
        (b'a' + self as u8) as char
    }

    /// Upper-case letter, as White's rights in Shredder-FEN.
    pub const fn upper_char(self) -> char {
        (b'A' + self as u8) as char
    }

    /// The file for a letter in either case.
    pub fn from_char(c: char) -> Option<File> {
        match c.to_ascii_lowercase() {
            'a'..='h' => File::new(c.to_ascii_lowercase() as u32 - 'a' as u32),
            _ => None,
        }
    }
}

impl fmt::Display for File {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.char())
    }
}

/// A rank (row), 1 to 8.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
#[allow(missing_docs)]
pub enum Rank {
    First = 0,
    Second,
    Third,
    Fourth,
    Fifth,
    Sixth,
    Seventh,
    Eighth,
}

impl Rank {
    /// All ranks, 1 to 8.
    pub const ALL: [Rank; 8] = [
        Rank::First,
        Rank::Second,
        Rank::Third,
        Rank::Fourth,
        Rank::Fifth,
        Rank::Sixth,
        Rank::Seventh,
        Rank::Eighth,
    ];

    /// The rank with this index (0 = rank 1); `None` outside 0..8.
    #[inline]
    pub const fn new(index: u32) -> Option<Rank> {
        if index < 8 {
            Some(Rank::ALL[index as usize])
        } else {
            None
        }
    }

    /// Index 0..8 (rank 1 = 0).
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The digit `1`..`8`.
    pub const fn char(self) -> char {
        (b'1' + self as u8) as char
    }

    /// The rank for a digit.
    pub fn from_char(c: char) -> Option<Rank> {
        match c {
            '1'..='8' => Rank::new(c as u32 - '1' as u32),
            _ => None,
        }
    }

    /// The same rank seen from Black's side (rank 1 ↔ rank 8).
    pub const fn flip(self) -> Rank {
        Rank::ALL[7 - self as usize]
    }

    /// This rank from `color`'s point of view: `Rank::Second.relative(Black)` is rank 7.
    pub const fn relative(self, color: Color) -> Rank {
        match color {
            Color::White => self,
            Color::Black => self.flip(),
        }
    }
}

impl fmt::Display for Rank {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.char())
    }
}

/// A square, a1 = 0 … h8 = 63 (little-endian rank-file mapping).
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    /// a1.
    pub const A1: Square = Square(0);
    /// h8.
    pub const H8: Square = Square(63);

    /// The square with this index; `None` outside 0..64.
    #[inline]
    pub const fn new(index: u32) -> Option<Square> {
        if index < 64 {
            Some(Square(index as u8))
        } else {
            None
        }
    }

    /// The square with this index, which must be below 64 (checked in debug builds).
    #[inline]
    pub(crate) const fn new_unchecked(index: u32) -> Square {
        debug_assert!(index < 64);
        Square(index as u8)
    }

    /// The square on this file and rank.
    #[inline]
    pub const fn from_coords(file: File, rank: Rank) -> Square {
        Square((rank as u8) << 3 | file as u8)
    }

    /// Index 0..64.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The square's file.
    #[inline]
    pub const fn file(self) -> File {
        File::ALL[(self.0 & 7) as usize]
    }

    /// The square's rank.
    #[inline]
    pub const fn rank(self) -> Rank {
        Rank::ALL[(self.0 >> 3) as usize]
    }

    /// The same file on the mirrored rank (a1 ↔ a8).
    #[inline]
    pub const fn flip_vertical(self) -> Square {
        Square(self.0 ^ 56)
    }

    /// This square from `color`'s point of view: flipped vertically for Black.
    #[inline]
    pub const fn relative(self, color: Color) -> Square {
        match color {
            Color::White => self,
            Color::Black => self.flip_vertical(),
        }
    }

    /// The square `delta` steps away in index order, if it is on the board.
    #[inline]
    pub const fn offset(self, delta: i32) -> Option<Square> {
        let i = self.0 as i32 + delta;
        if i >= 0 && i < 64 {
            Some(Square(i as u8))
        } else {
            None
        }
    }

    /// True for the light squares (b1, a2, …, h1 is light: a1 is dark).
    #[inline]
    pub const fn is_light(self) -> bool {
        (self.0 as u32 >> 3 ^ self.0 as u32) & 1 == 1
    }

    /// Parses `e4`-style names.
    pub fn parse(s: &str) -> Option<Square> {
        let mut chars = s.chars();
        let file = File::from_char(chars.next()?)?;
        let rank = Rank::from_char(chars.next()?)?;
        if chars.next().is_some() || !s.as_bytes()[0].is_ascii_lowercase() {
            return None;
        }
        Some(Square::from_coords(file, rank))
    }

    /// Iterates over all 64 squares, a1 first.
    pub fn all() -> impl Iterator<Item = Square> {
        (0..64).map(Square)
    }
}

impl Square {
    /// Appends the square's name (`e4`) to `s` without the formatting machinery that
    /// `to_string` goes through: the SAN and UCI writers call this for every move of an
    /// import, millions of times.
    #[inline]
    pub(crate) fn push_name(self, s: &mut String) {
        s.push(self.file().char());
        s.push(self.rank().char());
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.file().char(), self.rank().char())
    }
}

impl fmt::Debug for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// The two directions of castling (§2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum CastlingSide {
    /// Toward the a-file: "long", "queen side", O-O-O. King ends on c, rook on d.
    ASide = 0,
    /// Toward the h-file: "short", "king side", O-O. King ends on g, rook on f.
    HSide = 1,
}

impl CastlingSide {
    /// Both sides, a-side first.
    pub const ALL: [CastlingSide; 2] = [CastlingSide::ASide, CastlingSide::HSide];

    /// Index for arrays (`ASide` = 0).
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The king's file after castling (c or g).
    #[inline]
    pub const fn king_to_file(self) -> File {
        match self {
            CastlingSide::ASide => File::C,
            CastlingSide::HSide => File::G,
        }
    }

    /// The rook's file after castling (d or f).
    #[inline]
    pub const fn rook_to_file(self) -> File {
        match self {
            CastlingSide::ASide => File::D,
            CastlingSide::HSide => File::F,
        }
    }

    /// `O-O-O` or `O-O`.
    pub const fn san(self) -> &'static str {
        match self {
            CastlingSide::ASide => "O-O-O",
            CastlingSide::HSide => "O-O",
        }
    }

    /// The king's square after castling.
    #[inline]
    pub const fn king_to(self, color: Color) -> Square {
        Square::from_coords(self.king_to_file(), color.back_rank())
    }

    /// The rook's square after castling.
    #[inline]
    pub const fn rook_to(self, color: Color) -> Square {
        Square::from_coords(self.rook_to_file(), color.back_rank())
    }

    /// The side on which a rook on `rook` stands relative to a king on `king` (same rank).
    #[inline]
    pub fn from_king_rook(king: Square, rook: Square) -> CastlingSide {
        if rook < king {
            CastlingSide::ASide
        } else {
            CastlingSide::HSide
        }
    }
}

impl fmt::Display for CastlingSide {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            CastlingSide::ASide => "a-side (O-O-O)",
            CastlingSide::HSide => "h-side (O-O)",
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn square_names_round_trip() {
        for sq in Square::all() {
            assert_eq!(Square::parse(&sq.to_string()), Some(sq));
        }
        assert_eq!(Square::parse("e4").map(|s| s.index()), Some(28));
        assert_eq!(Square::parse("E4"), None);
        assert_eq!(Square::parse("i1"), None);
        assert_eq!(Square::parse("a9"), None);
        assert_eq!(Square::parse("a1x"), None);
        assert_eq!(Square::parse(""), None);
    }

    #[test]
    fn square_colours() {
        assert!(!Square::A1.is_light());
        assert!(Square::parse("h1").unwrap().is_light());
        assert!(Square::parse("d1").unwrap().is_light());
        assert!(!Square::parse("d8").unwrap().is_light());
    }
}
