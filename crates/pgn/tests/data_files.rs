//! Every game under `shared/data/pgn` (spec §3; provenance in `shared/data/SOURCES.md`):
//! the exact game counts, no errors but the Double Fischer Random games, and the same
//! answers from the full reader and the summary reader.

mod common;

use chess960_pgn::{ErrorKind, GameResult, Variant};
use common::{pgn_file, read_all, summaries};

/// (file, games) from SOURCES.md.
const CLEAN: &[(&str, usize)] = &[
    ("tcec/TCEC_Season_6_-_FRC.pgn", 112),
    ("tcec/TCEC_Season_19_-_Frc2_Final.pgn", 50),
    ("tcec/TCEC_Season_20_-_Frc3_Final.pgn", 50),
    ("tcec/TCEC_Season_22_-_Frc5_Final.pgn", 50),
    ("tcec/TCEC_Season_23_-_Frc_Human_Openings_Bonus.pgn", 48),
    ("tcec/TCEC_Season_24_-_Frc6_Final.pgn", 50),
    ("tcec/TCEC_Season_29_-_Frc_Decisive_Rapid_Bonus.pgn", 56),
    (
        "tcec/TCEC_Season_26_-_Frc_No_Castling_Kibitzer_Bonus.pgn",
        24,
    ),
    ("fatics/chess960.pgn", 12),
    ("python-chess/cutechess-fischerrandom.pgn", 4),
    ("derived/tcec_frc_compact.pgn", 440),
    ("chess960-explorer/chess960_database.pgn", 4444),
    ("chess960-explorer/chess960_freestyle_database.pgn", 983),
    (
        "derived/chess960-explorer_chess960_database_terminated.pgn",
        4444,
    ),
    (
        "derived/chess960-explorer_chess960_freestyle_database_terminated.pgn",
        983,
    ),
];

#[test]
fn clean_files_read_completely() {
    for &(file, expected) in CLEAN {
        let games = read_all(&pgn_file(file));
        assert_eq!(games.len(), expected, "{file}: game count");
        for (i, g) in games.iter().enumerate() {
            let g = g
                .as_ref()
                .unwrap_or_else(|e| panic!("{file}: game {}: {e}", i + 1));
            assert_eq!(g.variant, Variant::Chess960, "{file}: game {}", i + 1);
            assert!(g.start_id().is_some(), "{file}: game {}: start", i + 1);
        }
        let sums = summaries(&pgn_file(file));
        assert_eq!(sums.len(), expected, "{file}: summaries");
        for (g, s) in games.iter().zip(&sums) {
            let (g, s) = (g.as_ref().unwrap(), s.as_ref().unwrap());
            assert_eq!(g.result, s.result, "{file}");
            assert_eq!(g.start, s.start, "{file}");
            assert_eq!(g.moves.nodes.len() as u32, s.plies, "{file}");
        }
    }
}

#[test]
fn double_fischer_random_games_are_refused_with_the_reason() {
    for file in [
        "tcec/TCEC_Season_22_-_Dfrc_Unbust_Bonus.pgn",
        "derived/tcec_dfrc_compact.pgn",
    ] {
        let games = read_all(&pgn_file(file));
        assert_eq!(games.len(), 10, "{file}");
        for (i, g) in games.iter().enumerate() {
            let e = g.as_ref().expect_err("a DFRC start is no Chess960 start");
            assert_eq!(e.game, i as u64 + 1);
            assert!(
                matches!(e.kind, ErrorKind::NotChess960Start { .. }),
                "{file}: {e}"
            );
            let reason = e.reason();
            assert!(reason.contains("not a Chess960 start position"), "{reason}");
            assert!(reason.contains("does not mirror"), "{reason}");
            assert_eq!(e.at_move, None);
        }
    }
}

/// The first game of TCEC season 6, checked move by move against what the file says.
#[test]
fn tcec_game_details() {
    let games = read_all(&pgn_file("tcec/TCEC_Season_6_-_FRC.pgn"));
    let g = games[0].as_ref().unwrap();
    assert_eq!(g.tags.get("White"), Some("Fire 3.1"));
    assert_eq!(g.tags.get("PlyCount"), Some("90"));
    assert_eq!(g.moves.nodes.len(), 90);
    assert_eq!(g.result, GameResult::WhiteWins);
    assert!(g.moves.comment[0].starts_with("WhiteEngineOptions"));
    assert!(g.moves.nodes[0].comments[0].starts_with("d=27, pd=Ng6"));
    // PlyCount agrees with the moves read in every TCEC game.
    for file in [
        "tcec/TCEC_Season_6_-_FRC.pgn",
        "tcec/TCEC_Season_24_-_Frc6_Final.pgn",
    ] {
        for g in read_all(&pgn_file(file)) {
            let g = g.unwrap();
            let plies: usize = g.tags.get("PlyCount").unwrap().parse().unwrap();
            assert_eq!(g.moves.nodes.len(), plies, "{file}");
        }
    }
}

/// Header-only collections: the original (no termination markers) and the derived file
/// (with them) give the same 4444 games with no moves, results from the Result tags.
#[test]
fn header_only_collections_both_forms() {
    for (orig, derived, n) in [
        (
            "chess960-explorer/chess960_database.pgn",
            "derived/chess960-explorer_chess960_database_terminated.pgn",
            4444,
        ),
        (
            "chess960-explorer/chess960_freestyle_database.pgn",
            "derived/chess960-explorer_chess960_freestyle_database_terminated.pgn",
            983,
        ),
    ] {
        let a = read_all(&pgn_file(orig));
        let b = read_all(&pgn_file(derived));
        assert_eq!((a.len(), b.len()), (n, n));
        for (x, y) in a.iter().zip(&b) {
            let (x, y) = (x.as_ref().unwrap(), y.as_ref().unwrap());
            assert_eq!(x, y);
            assert!(x.moves.nodes.is_empty());
            assert_eq!(Some(x.result.as_str()), x.tags.get("Result"));
        }
    }
}
