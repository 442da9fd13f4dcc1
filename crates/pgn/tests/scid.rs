//! Our PGN output read back by Scid (Debian's `scid`, 4.7). Scid 4.7 refuses every Chess960 game
//! on import ("Ignored N chess960 game(s)", recognised by the FEN even without a Variant tag),
//! whoever wrote it, so what can be checked is the rest: classical games written by us read back
//! to the same final positions, and our Chess960 games are recognised as Chess960 (not
//! misread as something else).

mod common;

use chess960_core::{Position, StartId};
use chess960_pgn::{game_to_string, Game, Variant, WriteOptions};
use common::*;
use std::path::PathBuf;
use std::process::Command;

fn tkscid() -> PathBuf {
    ["/usr/games/tkscid", "/usr/bin/tkscid"]
        .iter()
        .map(PathBuf::from)
        .find(|p| p.exists())
        .expect("Scid is not installed: apt-get install scid (scripts/test.sh does)")
}

#[test]
fn scid_reads_our_classical_games_and_recognises_chess960() {
    let mut rng = Rng(7);
    let mut text = String::new();
    let mut expected = Vec::new();
    for _ in 0..40 {
        let mut game = Game::new(StartId::CLASSICAL.position(), Variant::Standard);
        for _ in 0..(20 + rng.below(60)) {
            let pos = game.end_position();
            let Some(m) = pick(&pos, &mut rng) else { break };
            game.push(m).unwrap();
        }
        text.push_str(&game_to_string(&game, &WriteOptions::default()));
        text.push('\n');
        let end: Position = game.end_position();
        let fen = end.fen();
        let fields: Vec<&str> = fen.split(' ').collect();
        expected.push(format!("{} {}", fields[0], fields[1]));
    }
    // Three Chess960 games, which Scid must count as Chess960 and skip.
    for id in [0u32, 402, 959] {
        let mut game = Game::new(StartId::new(id).unwrap().position(), Variant::Chess960);
        let pos = game.end_position();
        let m = pick(&pos, &mut rng).unwrap();
        game.push(m).unwrap();
        text.push_str(&game_to_string(&game, &WriteOptions::default()));
        text.push('\n');
    }
    let dir = std::env::temp_dir().join(format!("chess960-scid-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("games.pgn");
    std::fs::write(&path, &text).unwrap();
    let script =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/oracle/scid/read_pgn.tcl");
    let out = Command::new(tkscid())
        .arg(&script)
        .arg(&path)
        .output()
        .unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(stderr.contains("Ignored 3 chess960 game"), "{stderr}");
    let got: Vec<String> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| l.split(' ').take(2).collect::<Vec<_>>().join(" "))
        .collect();
    assert_eq!(got, expected);
}
