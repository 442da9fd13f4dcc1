//! pgn-extract (Debian package `pgn-extract`, an independent C implementation) reads what
//! this crate writes: every game of the test data and a few hundred random games with
//! comments, NAGs and variations, without a single complaint, and it reaches the same final
//! position in every game.
//!
//! `bash scripts/test.sh` installs pgn-extract; without it this test fails and says so.

mod common;

use chess960_pgn::{game_to_string, Game, WriteOptions};
use common::{pgn_extract, pgn_file, random_game, read_all, Rng};
use std::process::Command;

#[test]
fn pgn_extract_reads_our_output() {
    let Some(tool) = pgn_extract() else {
        panic!(
            "pgn-extract is not installed (apt-get install pgn-extract; scripts/test.sh does it)"
        );
    };
    let mut games: Vec<Game> = Vec::new();
    for file in [
        "tcec/TCEC_Season_6_-_FRC.pgn",
        "tcec/TCEC_Season_26_-_Frc_No_Castling_Kibitzer_Bonus.pgn",
        "fatics/chess960.pgn",
        "python-chess/cutechess-fischerrandom.pgn",
        "derived/tcec_frc_compact.pgn",
    ] {
        games.extend(read_all(&pgn_file(file)).into_iter().map(|g| g.unwrap()));
    }
    let mut rng = Rng(0xDEC0_DED0_1234_5678);
    games.extend((0..300).map(|n| random_game(&mut rng, n)));

    // X-FEN, the default: pgn-extract 19.04 misreads some Shredder-FEN castling fields
    // (a lone a-side letter such as `A` in `R3K3 w A`, which it takes for no right at all).
    let mut text = String::new();
    for g in &games {
        text.push_str(&game_to_string(g, &WriteOptions::default()));
    }
    let dir = std::env::temp_dir().join(format!("chess960-pgn-extract-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let input = dir.join("ours.pgn");
    let output = dir.join("theirs.pgn");
    std::fs::write(&input, &text).unwrap();
    // -F: a FEN comment after the last move; -C -V -N --notags: nothing else in the output.
    let out = Command::new(&tool)
        .args(["-F", "-C", "-V", "-N", "--notags", "-s", "-w1000", "-o"])
        .arg(&output)
        .arg(&input)
        .output()
        .expect("pgn-extract runs");
    let log = String::from_utf8_lossy(&out.stderr).to_string();
    assert!(out.status.success(), "pgn-extract failed: {log}");
    assert!(log.trim().is_empty(), "pgn-extract complained:\n{log}");
    let theirs = std::fs::read_to_string(&output).unwrap();
    // One game per paragraph (lines are 1000 wide); the FEN comment is missing for games
    // without moves.
    let paragraphs: Vec<&str> = theirs
        .split("\n\n")
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .collect();
    assert_eq!(paragraphs.len(), games.len(), "pgn-extract's game count");
    for (i, (g, p)) in games.iter().zip(&paragraphs).enumerate() {
        assert!(
            p.ends_with(g.result.as_str()),
            "game {}: result in {p:?}",
            i + 1
        );
        let Some((_, rest)) = p.split_once("{ \"") else {
            assert!(
                g.moves.nodes.is_empty(),
                "game {}: no FEN from pgn-extract",
                i + 1
            );
            continue;
        };
        let fen = rest.split('"').next().unwrap();
        let end = g.end_position().fen();
        // Placement and side to move: pgn-extract writes castling rights its own way.
        let ours: Vec<&str> = end.split(' ').take(2).collect();
        let theirs: Vec<&str> = fen.split(' ').take(2).collect();
        assert_eq!(ours, theirs, "game {}: final position", i + 1);
    }
    let _ = std::fs::remove_dir_all(&dir);
}
