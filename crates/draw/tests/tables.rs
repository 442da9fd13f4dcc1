//! The two tables against the numbering of chess960-core, and against the tables printed in
//! the seed (the German two-table form: D = queen, S = knight, T = rook, K = king, L = bishop).

use chess960_core::{BackRank, StartId};
use chess960_draw::tables::{bishop_table, compose, king_table, rows_of, split};

/// The king table as printed in the seed (with its extra row 960 = row 0).
#[rustfmt::skip]
const SEED_KING_TABLE: [(u16, &str); 61] = [
    (0, "D S S T K T"), (16, "S D S T K T"), (32, "S S D T K T"), (48, "S S T D K T"),
    (64, "S S T K D T"), (80, "S S T K T D"), (96, "D S T S K T"), (112, "S D T S K T"),
    (128, "S T D S K T"), (144, "S T S D K T"), (160, "S T S K D T"), (176, "S T S K T D"),
    (192, "D S T K S T"), (208, "S D T K S T"), (224, "S T D K S T"), (240, "S T K D S T"),
    (256, "S T K S D T"), (272, "S T K S T D"), (288, "D S T K T S"), (304, "S D T K T S"),
    (320, "S T D K T S"), (336, "S T K D T S"), (352, "S T K T D S"), (368, "S T K T S D"),
    (384, "D T S S K T"), (400, "T D S S K T"), (416, "T S D S K T"), (432, "T S S D K T"),
    (448, "T S S K D T"), (464, "T S S K T D"), (480, "D T S K S T"), (496, "T D S K S T"),
    (512, "T S D K S T"), (528, "T S K D S T"), (544, "T S K S D T"), (560, "T S K S T D"),
    (576, "D T S K T S"), (592, "T D S K T S"), (608, "T S D K T S"), (624, "T S K D T S"),
    (640, "T S K T D S"), (656, "T S K T S D"), (672, "D T K S S T"), (688, "T D K S S T"),
    (704, "T K D S S T"), (720, "T K S D S T"), (736, "T K S S D T"), (752, "T K S S T D"),
    (768, "D T K S T S"), (784, "T D K S T S"), (800, "T K D S T S"), (816, "T K S D T S"),
    (832, "T K S T D S"), (848, "T K S T S D"), (864, "D T K T S S"), (880, "T D K T S S"),
    (896, "T K D T S S"), (912, "T K T D S S"), (928, "T K T S D S"), (944, "T K T S S D"),
    (960, "D S S T K T"),
];

/// The bishop table as printed in the seed.
#[rustfmt::skip]
const SEED_BISHOP_TABLE: [&str; 16] = [
    "L L - - - - - -", "L - - L - - - -", "L - - - - L - -", "L - - - - - - L",
    "- L L - - - - -", "- - L L - - - -", "- - L - - L - -", "- - L - - - - L",
    "- L - - L - - -", "- - - L L - - -", "- - - - L L - -", "- - - - L - - L",
    "- L - - - - L -", "- - - L - - L -", "- - - - - L L -", "- - - - - - L L",
];

fn german_to_english(row: &str) -> String {
    row.split(' ')
        .map(|c| match c {
            "D" => 'Q',
            "S" => 'N',
            "T" => 'R',
            "K" => 'K',
            other => panic!("unexpected {other}"),
        })
        .collect()
}

#[test]
fn shapes() {
    let kings = king_table();
    assert_eq!(kings.len(), 60);
    assert_eq!(kings.first().unwrap().k, 0);
    assert_eq!(kings.last().unwrap().k, 944);
    assert!(kings
        .iter()
        .enumerate()
        .all(|(i, r)| r.k as usize == 16 * i));
    assert_eq!(bishop_table().len(), 16);
}

#[test]
fn spec_example() {
    // §1.2: 518 = 512 + 6; king row 512 is R N Q K N R; bishop row 6 is c and f.
    let id = StartId::new(518).unwrap();
    assert_eq!(split(id), (512, 6));
    let k = &king_table()[512 / 16];
    let b = &bishop_table()[6];
    assert_eq!(k.letters(), "RNQKNR");
    assert_eq!(b.diagram(), ". . B . . B . .");
    assert_eq!(compose(k, b).to_string(), "RNBQKBNR");
    // The seed's reverse example: TLLKSSDT = RBBKNNQR → bishops row 4, king row 736: 740.
    let rank = BackRank::parse("RBBKNNQR").unwrap();
    assert_eq!(rows_of(&rank), (736, 4));
    assert_eq!(rank.id().get(), 740);
}

#[test]
fn every_id_derives_back_from_its_rows() {
    let kings = king_table();
    let bishops = bishop_table();
    for id in StartId::all() {
        let (k, b) = split(id);
        let rank = compose(&kings[k as usize / 16], &bishops[b as usize]);
        assert_eq!(rank, id.back_rank(), "{id}");
        assert_eq!(rank.id(), id);
        assert_eq!(rows_of(&rank), (k, b));
        assert_eq!(k + b, id.get());
    }
}

#[test]
fn the_tables_match_the_seed() {
    let kings = king_table();
    for (k, row) in SEED_KING_TABLE {
        // 960 is the 1..960 numbering's name for 0.
        let ours = &kings[(k as usize % 960) / 16];
        assert_eq!(ours.letters(), german_to_english(row), "king row {k}");
    }
    for (b, row) in SEED_BISHOP_TABLE.iter().enumerate() {
        let ours = bishop_table()[b]
            .diagram()
            .replace('B', "L")
            .replace('.', "-");
        assert_eq!(&ours, row, "bishop row {b}");
    }
}

#[test]
fn list_of_all_positions() {
    // 960 distinct, valid back ranks, their IDs in order.
    let mut seen = std::collections::HashSet::new();
    for id in StartId::all() {
        let rank = id.back_rank();
        let text = rank.to_string();
        assert_eq!(BackRank::parse(&text).unwrap().id(), id);
        assert!(seen.insert(text));
    }
    assert_eq!(seen.len(), 960);
}
