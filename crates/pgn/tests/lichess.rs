//! Our PGN output read back by lichess's own rules and PGN library, chessops (npm, pinned in
//! `tests/oracle/js/package.json`; the README's test command installs it with `npm ci`): every
//! game of real Chess960 files, written by us, must reach the same final position after the
//! same number of plies.

mod common;

use chess960_pgn::{game_to_string, WriteOptions};
use common::*;
use std::path::PathBuf;
use std::process::Command;

#[test]
fn chessops_reads_our_output_back() {
    let oracle = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/oracle/js");
    assert!(
        oracle.join("node_modules/chessops").is_dir(),
        "chessops is not installed: run `npm ci` in {} (scripts/test.sh does)",
        oracle.display()
    );
    let mut text = String::new();
    let mut expected = Vec::new();
    for file in [
        "derived/tcec_frc_compact.pgn",
        "python-chess/cutechess-fischerrandom.pgn",
        "fatics/chess960.pgn",
        "tcec/TCEC_Season_26_-_Frc_No_Castling_Kibitzer_Bonus.pgn",
    ] {
        for game in read_all(&pgn_file(file)) {
            let game = game.unwrap_or_else(|e| panic!("{file}: {e}"));
            text.push_str(&game_to_string(&game, &WriteOptions::default()));
            text.push('\n');
            let end = game.end_position();
            let fen = end.fen();
            let mut fields = fen.split(' ');
            let placement = fields.next().unwrap();
            let turn = fields.next().unwrap();
            expected.push(format!("{placement} {turn} {}", game.moves.nodes.len()));
        }
    }
    let path = std::env::temp_dir().join(format!("chess960-lichess-{}.pgn", std::process::id()));
    std::fs::write(&path, &text).unwrap();
    let out = Command::new("node")
        .arg(oracle.join("read_pgn.mjs"))
        .arg(&path)
        .output()
        .expect("node must be installed for this test");
    let _ = std::fs::remove_file(&path);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let got: Vec<String> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect();
    assert_eq!(
        got.len(),
        expected.len(),
        "chessops saw a different number of games"
    );
    for (i, (g, e)) in got.iter().zip(&expected).enumerate() {
        assert_eq!(g, e, "game {}", i + 1);
    }
    assert!(expected.len() > 450);
}
