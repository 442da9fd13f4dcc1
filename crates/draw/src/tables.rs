//! The two-table representation of the numbering (spec §1.2): `ID = K + B` with `B = ID mod
//! 16` picking the bishop pair (the "bishop table", 16 rows) and `K = ID − B`, a multiple of
//! 16, picking the order of queen, knights, rooks and king on the six squares the bishops leave
//! free (the "king table", 60 rows 0, 16, …, 944).
//!
//! Both tables are derived from the numbering in `chess960-core` (nothing here is typed in):
//! the bishop row `B` is where the bishops of position `B` stand, and the king row `K` is the
//! order of the six other pieces of position `K`. That this works for every ID — the six
//! pieces keep their order whatever the bishops do, and the bishops depend on `ID mod 16`
//! only — follows from §1.1 (the bishops are the two lowest digits, base 4; queen and KRN code
//! fill the free squares left to right) and is checked for all 960 IDs by the tests.

use chess960_core::{BackRank, File, Role, StartId};

/// A row of the king table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct KingRow {
    /// The row's number: a multiple of 16, 0..=944.
    pub k: u16,
    /// The six pieces on the squares the bishops leave free, from the left.
    pub pieces: [Role; 6],
}

impl KingRow {
    /// The pieces as letters: `RNQKNR`.
    pub fn letters(&self) -> String {
        self.pieces.iter().map(|r| r.upper_char()).collect()
    }
}

/// A row of the bishop table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BishopRow {
    /// The row's number, 0..=15.
    pub b: u16,
    /// The bishops' files, left one first.
    pub files: [File; 2],
}

impl BishopRow {
    /// The row drawn as in the seed: `. . B . . B . .`.
    pub fn diagram(&self) -> String {
        File::ALL
            .iter()
            .map(|f| if self.files.contains(f) { "B" } else { "." })
            .collect::<Vec<_>>()
            .join(" ")
    }
}

/// The king table: 60 rows, `k` = 0, 16, …, 944.
pub fn king_table() -> Vec<KingRow> {
    (0..60u16)
        .map(|i| {
            let k = 16 * i;
            let rank = StartId::new(u32::from(k))
                .expect("k < 960")
                .back_rank()
                .roles();
            let others: Vec<Role> = rank.into_iter().filter(|&r| r != Role::Bishop).collect();
            KingRow {
                k,
                pieces: others.try_into().expect("six pieces besides the bishops"),
            }
        })
        .collect()
}

/// The bishop table: 16 rows, `b` = 0..15.
pub fn bishop_table() -> Vec<BishopRow> {
    (0..16u16)
        .map(|b| {
            let rank = StartId::new(u32::from(b))
                .expect("b < 960")
                .back_rank()
                .roles();
            let files: Vec<File> = (0..8)
                .filter(|&i| rank[i] == Role::Bishop)
                .map(|i| File::ALL[i])
                .collect();
            BishopRow {
                b,
                files: files.try_into().expect("two bishops"),
            }
        })
        .collect()
}

/// `ID = K + B`: the king-table row and the bishop-table row of `id`.
pub fn split(id: StartId) -> (u16, u16) {
    let n = id.get();
    (n - n % 16, n % 16)
}

/// Puts a king-table row and a bishop-table row together, as a person does by hand: the
/// bishops on their two squares, then the six pieces of the king row on the free squares from
/// the left.
pub fn compose(king: &KingRow, bishops: &BishopRow) -> BackRank {
    let mut roles = [None; 8];
    for f in bishops.files {
        roles[f.index()] = Some(Role::Bishop);
    }
    let mut rest = king.pieces.iter();
    for slot in roles.iter_mut().filter(|s| s.is_none()) {
        *slot = rest.next().copied();
    }
    let letters: String = roles
        .iter()
        .map(|r| r.expect("eight squares filled").upper_char())
        .collect();
    BackRank::parse(&letters).expect("every pair of rows makes a start position")
}

/// The rows of a back rank read back: its bishops' row number (looked up in the bishop table
/// by the bishops' files) and its king row number (looked up by the order of the six other
/// pieces), as the seed describes for finding the number of a given position.
pub fn rows_of(rank: &BackRank) -> (u16, u16) {
    let roles = rank.roles();
    let files: Vec<File> = (0..8)
        .filter(|&i| roles[i] == Role::Bishop)
        .map(|i| File::ALL[i])
        .collect();
    let others: Vec<Role> = roles.into_iter().filter(|&r| r != Role::Bishop).collect();
    let k = king_table()
        .into_iter()
        .find(|row| row.pieces[..] == others[..])
        .expect("every order of the six pieces is a king row")
        .k;
    let b = bishop_table()
        .into_iter()
        .find(|row| row.files[..] == files[..])
        .expect("every opposite-coloured pair is a bishop row")
        .b;
    (k, b)
}
