//! Chess960 start positions and their Scharnagl numbering (§1.1): ID 0..959 ↔ back rank.

use crate::bitboard::Bitboard;
use crate::board::Board;
use crate::position::Position;
use crate::types::{Color, File, Rank, Role, Square};
use std::fmt;
use std::str::FromStr;

/// A start position number, 0..959 (518 is the classical start).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct StartId(u16);

/// A start position ID that is not a number in 0..=960.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StartIdError {
    /// A number outside 0..=960.
    OutOfRange {
        /// The number given, as text (it may not even fit an integer).
        given: String,
    },
    /// Text that is not a whole number.
    NotANumber {
        /// The text given.
        given: String,
    },
}

impl fmt::Display for StartIdError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StartIdError::OutOfRange { given } => write!(
                f,
                "start position ID '{given}' is out of range: IDs are 0..959 (960 is accepted as a synonym of 0)"
            ),
            StartIdError::NotANumber { given } => write!(
                f,
                "start position ID '{given}' is not a number: IDs are 0..959 (960 is accepted as a synonym of 0)"
            ),
        }
    }
}

impl std::error::Error for StartIdError {}

impl StartId {
    /// The classical start position, RNBQKBNR.
    pub const CLASSICAL: StartId = StartId(518);

    /// The ID `n`; 960 is taken as 0 (the two-table form numbers 1..960). Anything else outside
    /// 0..959 is an error that states the range.
    pub fn new(n: u32) -> Result<StartId, StartIdError> {
        match n {
            0..=959 => Ok(StartId(n as u16)),
            960 => Ok(StartId(0)),
            _ => Err(StartIdError::OutOfRange {
                given: n.to_string(),
            }),
        }
    }

    /// The number, 0..959.
    #[inline]
    pub fn get(self) -> u16 {
        self.0
    }

    /// All 960 IDs in order.
    pub fn all() -> impl Iterator<Item = StartId> {
        (0..960).map(StartId)
    }

    /// White's back rank for this ID (Black mirrors it).
    pub fn back_rank(self) -> BackRank {
        let mut n = self.0 as usize;
        let mut rank: [Option<Role>; 8] = [None; 8];
        let light = n % 4;
        n /= 4;
        rank[2 * light + 1] = Some(Role::Bishop);
        let dark = n % 4;
        n /= 4;
        rank[2 * dark] = Some(Role::Bishop);
        let queen = n % 6;
        n /= 6;
        place_on_nth_free(&mut rank, queen, Role::Queen);
        const KRN: [[Role; 5]; 10] = {
            use Role::{King as K, Knight as N, Rook as R};
            [
                [N, N, R, K, R],
                [N, R, N, K, R],
                [N, R, K, N, R],
                [N, R, K, R, N],
                [R, N, N, K, R],
                [R, N, K, N, R],
                [R, N, K, R, N],
                [R, K, N, N, R],
                [R, K, N, R, N],
                [R, K, R, N, N],
            ]
        };
        let mut rest = KRN[n].iter();
        for slot in rank.iter_mut().filter(|s| s.is_none()) {
            *slot = rest.next().copied();
        }
        BackRank(rank.map(|r| r.expect("eight pieces placed")))
    }

    /// The start position: pieces, White to move, all four castling rights, counters 0 1.
    pub fn position(self) -> Position {
        self.back_rank().position()
    }

    /// The ID of the start arrangement in `pos`, looking only at the placement of the pieces
    /// (castling rights, side to move and counters are ignored, so a start position with no
    /// castling, as some tournaments play, has its ID too). `None` if the placement is not a
    /// Chess960 start arrangement.
    pub fn of_board(board: &Board) -> Option<StartId> {
        let back = BackRank::of_board(board).ok()?;
        (*board == back.board()).then(|| back.id())
    }
}

impl fmt::Display for StartId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

impl FromStr for StartId {
    type Err = StartIdError;
    fn from_str(s: &str) -> Result<StartId, StartIdError> {
        let t = s.trim();
        if t.is_empty() || !t.bytes().all(|b| b.is_ascii_digit()) {
            return Err(StartIdError::NotANumber {
                given: t.to_string(),
            });
        }
        match t.parse::<u32>() {
            Ok(n) => StartId::new(n),
            Err(_) => Err(StartIdError::OutOfRange {
                given: t.to_string(),
            }),
        }
    }
}

fn place_on_nth_free(rank: &mut [Option<Role>; 8], n: usize, role: Role) {
    let slot = rank
        .iter_mut()
        .filter(|s| s.is_none())
        .nth(n)
        .expect("enough free squares");
    *slot = Some(role);
}

/// White's eight back-rank pieces, a-file first: a valid Chess960 arrangement.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct BackRank([Role; 8]);

/// Why a text is not a Chess960 back rank.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BackRankError {
    /// Not exactly eight letters.
    Length {
        /// How many characters there were.
        found: usize,
    },
    /// A character that is not K, Q, R, B or N.
    BadLetter {
        /// The character.
        letter: char,
        /// 1-based position in the text.
        position: usize,
    },
    /// A back-rank square with no piece, or with a pawn or a black piece (reading a board).
    NotAPiece {
        /// The file.
        file: File,
    },
    /// Not one king, one queen, two rooks, two bishops and two knights.
    WrongPieces {
        /// The letters, as given.
        found: String,
    },
    /// Both bishops on squares of one colour.
    BishopsSameColour {
        /// The bishops' files.
        files: (File, File),
    },
    /// The king is not between the rooks.
    KingNotBetweenRooks,
}

impl fmt::Display for BackRankError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BackRankError::Length { found } => write!(
                f,
                "a back rank has 8 pieces (such as RNBQKBNR), found {found} characters"
            ),
            BackRankError::BadLetter { letter, position } => write!(
                f,
                "'{letter}' at position {position} is not a piece letter (K, Q, R, B, N)"
            ),
            BackRankError::NotAPiece { file } => write!(
                f,
                "{file}1 does not hold a white piece, as every square of a start back rank does"
            ),
            BackRankError::WrongPieces { found } => write!(
                f,
                "'{found}' must have exactly one K, one Q, two R, two B and two N"
            ),
            BackRankError::BishopsSameColour { files: (a, b) } => write!(
                f,
                "the bishops on the {a}- and {b}-files stand on squares of one colour; they must stand on opposite colours"
            ),
            BackRankError::KingNotBetweenRooks => {
                write!(f, "the king must stand between the two rooks")
            }
        }
    }
}

impl std::error::Error for BackRankError {}

impl BackRank {
    /// Parses `RNBQKBNR` (either case; Black's rank written in lower case works too).
    pub fn parse(s: &str) -> Result<BackRank, BackRankError> {
        let s = s.trim();
        let chars: Vec<char> = s.chars().collect();
        if chars.len() != 8 {
            return Err(BackRankError::Length { found: chars.len() });
        }
        let mut roles = [Role::Pawn; 8];
        for (i, c) in chars.iter().enumerate() {
            roles[i] = match Role::from_char(*c) {
                Some(r) if r != Role::Pawn => r,
                _ => {
                    return Err(BackRankError::BadLetter {
                        letter: *c,
                        position: i + 1,
                    })
                }
            };
        }
        BackRank::from_roles(roles, s)
    }

    fn from_roles(roles: [Role; 8], text: &str) -> Result<BackRank, BackRankError> {
        let count = |r: Role| roles.iter().filter(|&&x| x == r).count();
        if count(Role::King) != 1
            || count(Role::Queen) != 1
            || count(Role::Rook) != 2
            || count(Role::Bishop) != 2
            || count(Role::Knight) != 2
        {
            return Err(BackRankError::WrongPieces {
                found: text.to_string(),
            });
        }
        let files = |r: Role| -> Vec<usize> { (0..8).filter(|&i| roles[i] == r).collect() };
        let b = files(Role::Bishop);
        if b[0] % 2 == b[1] % 2 {
            return Err(BackRankError::BishopsSameColour {
                files: (File::ALL[b[0]], File::ALL[b[1]]),
            });
        }
        let r = files(Role::Rook);
        let k = files(Role::King)[0];
        if !(r[0] < k && k < r[1]) {
            return Err(BackRankError::KingNotBetweenRooks);
        }
        Ok(BackRank(roles))
    }

    /// Reads White's back rank from a board (pawns and Black are not looked at).
    pub fn of_board(board: &Board) -> Result<BackRank, BackRankError> {
        let mut roles = [Role::Pawn; 8];
        let mut text = String::new();
        for (i, file) in File::ALL.into_iter().enumerate() {
            let sq = Square::from_coords(file, Rank::First);
            match board.piece_at(sq) {
                Some(p) if p.color == Color::White && p.role != Role::Pawn => {
                    roles[i] = p.role;
                    text.push(p.role.upper_char());
                }
                _ => return Err(BackRankError::NotAPiece { file }),
            }
        }
        BackRank::from_roles(roles, &text)
    }

    /// The role on each file, a first.
    pub fn roles(&self) -> [Role; 8] {
        self.0
    }

    /// The Scharnagl ID.
    pub fn id(&self) -> StartId {
        let files = |r: Role| -> Vec<usize> { (0..8).filter(|&i| self.0[i] == r).collect() };
        let b = files(Role::Bishop);
        let (light, dark) = if b[0] % 2 == 1 {
            (b[0], b[1])
        } else {
            (b[1], b[0])
        };
        let light_idx = light / 2;
        let dark_idx = dark / 2;
        let q = files(Role::Queen)[0];
        let queen_idx = (0..q).filter(|&i| self.0[i] != Role::Bishop).count();
        let krn: Vec<Role> = self
            .0
            .iter()
            .copied()
            .filter(|r| matches!(r, Role::King | Role::Rook | Role::Knight))
            .collect();
        // Knights' two positions among five slots, in the table's order.
        let knights: Vec<usize> = (0..5).filter(|&i| krn[i] == Role::Knight).collect();
        const PAIRS: [(usize, usize); 10] = [
            (0, 1),
            (0, 2),
            (0, 3),
            (0, 4),
            (1, 2),
            (1, 3),
            (1, 4),
            (2, 3),
            (2, 4),
            (3, 4),
        ];
        let code = PAIRS
            .iter()
            .position(|&p| p == (knights[0], knights[1]))
            .expect("two knights among five squares");
        StartId((light_idx + 4 * dark_idx + 16 * queen_idx + 96 * code) as u16)
    }

    /// Both sides' pieces and pawns.
    pub fn board(&self) -> Board {
        let mut board = Board::empty();
        for (i, role) in self.0.iter().enumerate() {
            let file = File::ALL[i];
            board.put(Square::from_coords(file, Rank::First), Color::White, *role);
            board.put(
                Square::from_coords(file, Rank::Second),
                Color::White,
                Role::Pawn,
            );
            board.put(
                Square::from_coords(file, Rank::Seventh),
                Color::Black,
                Role::Pawn,
            );
            board.put(Square::from_coords(file, Rank::Eighth), Color::Black, *role);
        }
        board
    }

    /// The start position with all four castling rights.
    pub fn position(&self) -> Position {
        let rooks: Bitboard = (0..8)
            .filter(|&i| self.0[i] == Role::Rook)
            .flat_map(|i| {
                [
                    Square::from_coords(File::ALL[i], Rank::First),
                    Square::from_coords(File::ALL[i], Rank::Eighth),
                ]
            })
            .collect();
        Position::from_parts(self.board(), Color::White, rooks)
            .expect("every Chess960 start position is valid")
    }
}

impl fmt::Display for BackRank {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for r in self.0 {
            write!(f, "{}", r.upper_char())?;
        }
        Ok(())
    }
}

impl fmt::Debug for BackRank {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "BackRank({self})")
    }
}

impl FromStr for BackRank {
    type Err = BackRankError;
    fn from_str(s: &str) -> Result<BackRank, BackRankError> {
        BackRank::parse(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spec_checks() {
        for (id, rank) in [
            (518, "RNBQKBNR"),
            (0, "BBQNNRKR"),
            (959, "RKRNNQBB"),
            (740, "RBBKNNQR"),
        ] {
            let id = StartId::new(id).unwrap();
            assert_eq!(id.back_rank().to_string(), rank);
            assert_eq!(BackRank::parse(rank).unwrap().id(), id);
        }
    }

    #[test]
    fn round_trip_and_distinct() {
        let mut seen = std::collections::HashSet::new();
        for id in StartId::all() {
            let br = id.back_rank();
            assert_eq!(br.id(), id);
            assert_eq!(BackRank::parse(&br.to_string()).unwrap(), br);
            assert!(seen.insert(br.to_string()));
        }
        assert_eq!(seen.len(), 960);
    }

    #[test]
    fn range() {
        assert_eq!(StartId::new(960).unwrap().get(), 0);
        let e = StartId::new(961).unwrap_err().to_string();
        assert!(e.contains("0..959"), "{e}");
        assert!(matches!(
            "-1".parse::<StartId>(),
            Err(StartIdError::NotANumber { .. })
        ));
        assert!(matches!(
            "abc".parse::<StartId>(),
            Err(StartIdError::NotANumber { .. })
        ));
        assert!(matches!(
            "99999999999999".parse::<StartId>(),
            Err(StartIdError::OutOfRange { .. })
        ));
        assert_eq!(" 960 ".parse::<StartId>().unwrap().get(), 0);
    }

    #[test]
    fn bad_back_ranks() {
        assert_eq!(
            BackRank::parse("RNBQKBN"),
            Err(BackRankError::Length { found: 7 })
        );
        assert!(matches!(
            BackRank::parse("RNBQKBNX"),
            Err(BackRankError::BadLetter {
                letter: 'X',
                position: 8
            })
        ));
        assert!(matches!(
            BackRank::parse("RNBQKNBR"),
            Err(BackRankError::BishopsSameColour { .. })
        ));
        assert_eq!(
            BackRank::parse("KRNBBQNR"),
            Err(BackRankError::KingNotBetweenRooks)
        );
        assert!(matches!(
            BackRank::parse("RNBQKBNN"),
            Err(BackRankError::WrongPieces { .. })
        ));
        assert!(BackRank::parse("rnbqkbnr").is_ok());
    }
}
