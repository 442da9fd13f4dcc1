//! Differential test against python-chess (PyPI `chess`, pinned in
//! `tests/oracle/requirements.txt`): positions reached by play from random Chess960 start
//! positions, biased toward castling, must give the same legal moves in UCI (both castling
//! forms) and SAN, the same FEN in both dialects before and after every move, and the same
//! check / mate / stalemate / insufficient-material verdicts.
//!
//! Needs `python3` with `chess` installed (the README's test command installs it). Tune with
//! `CHESS960_ORACLE_POSITIONS` (default 3000) and `CHESS960_ORACLE_SEED` (default 1).

use chess960_core::{CastlingDialect, CastlingMode, Position};
use serde_json::Value;
use std::collections::BTreeSet;
use std::path::PathBuf;
use std::process::Command;

fn env_or(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(default)
}

#[test]
fn agrees_with_python_chess() {
    let script =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/oracle/pychess_oracle.py");
    let positions = env_or("CHESS960_ORACLE_POSITIONS", 3000);
    let seed = env_or("CHESS960_ORACLE_SEED", 1);
    let out = Command::new("python3")
        .arg(&script)
        .args([
            "--seed",
            &seed.to_string(),
            "--positions",
            &positions.to_string(),
        ])
        .output()
        .expect("python3 must be installed for the differential test");
    assert!(
        out.status.success(),
        "the python-chess oracle failed (install it with `pip install -r tests/oracle/requirements.txt`):\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    let mut checked_positions = 0;
    let mut checked_moves = 0;
    let mut castles = 0;
    for (n, line) in text.lines().enumerate() {
        let v: Value = serde_json::from_str(line).unwrap();
        let fen = v["fen"].as_str().unwrap();
        let ctx = format!("position {} ({fen})", n + 1);
        let pos = Position::from_fen(fen).unwrap_or_else(|e| panic!("{ctx}: {e}"));
        let shredder = v["shredder"].as_str().unwrap();
        assert_eq!(pos.fen(), fen, "{ctx}: X-FEN out");
        assert_eq!(
            pos.to_fen(CastlingDialect::Shredder),
            shredder,
            "{ctx}: Shredder-FEN out"
        );
        assert_eq!(
            Position::from_fen(shredder).unwrap(),
            pos,
            "{ctx}: Shredder-FEN in"
        );

        let expected: BTreeSet<String> = v["moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m["uci"].as_str().unwrap().to_string())
            .collect();
        let ours: BTreeSet<String> = pos
            .legal_moves()
            .iter()
            .map(|m| m.to_uci(CastlingMode::Chess960))
            .collect();
        assert_eq!(ours, expected, "{ctx}: legal moves");

        for m in v["moves"].as_array().unwrap() {
            let uci = m["uci"].as_str().unwrap();
            let uci_std = m["uci_std"].as_str().unwrap();
            let san = m["san"].as_str().unwrap();
            let mv = pos
                .parse_uci(uci, CastlingMode::Chess960)
                .unwrap_or_else(|e| panic!("{ctx}: {e}"));
            assert_eq!(pos.san(mv), san, "{ctx}: SAN of {uci}");
            assert_eq!(pos.parse_san(san), Ok(mv), "{ctx}: reading SAN {san}");
            // python-chess writes the king's destination only for e-file kings with corner
            // rooks and king onto rook otherwise; classical mode must read both.
            assert_eq!(
                pos.parse_uci(uci_std, CastlingMode::Standard),
                Ok(mv),
                "{ctx}: reading standard UCI {uci_std}"
            );
            if uci_std != uci {
                assert_eq!(
                    mv.to_uci(CastlingMode::Standard),
                    uci_std,
                    "{ctx}: standard UCI"
                );
            }
            let after = pos.play(mv);
            assert_eq!(
                after.fen(),
                m["fen_after"].as_str().unwrap(),
                "{ctx}: after {uci}"
            );
            castles += usize::from(mv.is_castle());
            checked_moves += 1;
        }
        assert_eq!(
            pos.is_check(),
            v["check"].as_bool().unwrap(),
            "{ctx}: check"
        );
        assert_eq!(
            pos.is_checkmate(),
            v["checkmate"].as_bool().unwrap(),
            "{ctx}: checkmate"
        );
        assert_eq!(
            pos.is_stalemate(),
            v["stalemate"].as_bool().unwrap(),
            "{ctx}: stalemate"
        );
        assert_eq!(
            pos.is_insufficient_material(),
            v["insufficient"].as_bool().unwrap(),
            "{ctx}: insufficient material"
        );
        checked_positions += 1;
    }
    assert_eq!(checked_positions as u64, positions);
    assert!(
        castles as u64 >= positions / 40,
        "too few castling moves compared ({castles})"
    );
    eprintln!("compared {checked_positions} positions, {checked_moves} moves, {castles} castles");
}
