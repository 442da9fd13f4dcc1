//! Helpers shared by the store's integration tests.
#![allow(dead_code)]

use chess960_core::{CastlingMode, Position, StartId};
use chess960_store::{Clocks, MoveRecord, NewGame};
use std::path::{Path, PathBuf};

/// `shared/data`, beside the repository (or `CHESS960_SHARED_DATA`).
pub fn data_dir() -> PathBuf {
    if let Ok(p) = std::env::var("CHESS960_SHARED_DATA") {
        return PathBuf::from(p);
    }
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data");
    assert!(
        p.is_dir(),
        "test data not found at {} (set CHESS960_SHARED_DATA)",
        p.display()
    );
    p
}

/// A fresh scratch directory, removed when dropped.
pub fn scratch() -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix("chess960-store-test")
        .tempdir()
        .expect("a temporary directory")
}

/// The bytes of a file, for "nothing was written" checks.
pub fn bytes(path: &Path) -> Vec<u8> {
    std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// A timed game from start position `id` between `white` and `black`.
pub fn new_game(id: u16, white: &str, black: &str) -> NewGame {
    let start = StartId::new(u32::from(id)).unwrap().position();
    NewGame {
        start_fen: start.fen(),
        start_id: Some(id),
        white: white.into(),
        black: black.into(),
        time_control: Some("300+2".into()),
        clocks: Some(Clocks {
            white_ms: 300_000,
            black_ms: 300_000,
        }),
        tags: vec![
            ("Event".into(), "test".into()),
            ("Date".into(), "2025.01.02".into()),
        ],
    }
}

/// The clocks after half-move `ply` of the scripted games: a pure function of `ply`, so that
/// a test can check what was stored without remembering what was sent.
pub fn clocks_after(ply: u32) -> Clocks {
    let white_moves = u64::from(ply / 2 + 1);
    let black_moves = u64::from(ply.div_ceil(2));
    Clocks {
        white_ms: 300_000 - white_moves * 1_300 + white_moves * 1_000,
        black_ms: 300_000 - black_moves * 1_700 + black_moves * 1_000,
    }
}

/// The scripted move in `pos` at half-move `ply` (`None` when the game is over): a legal
/// move chosen by a fixed rule, so the whole game follows from its start.
pub fn scripted_move(pos: &Position, ply: u32) -> Option<MoveRecord> {
    let mut moves: Vec<_> = pos.legal_moves().iter().copied().collect();
    if moves.is_empty() {
        return None;
    }
    moves.sort_by_key(|m| m.to_uci(CastlingMode::Chess960));
    let m = moves[(ply as usize * 7 + 3) % moves.len()];
    Some(MoveRecord {
        uci: m.to_uci(CastlingMode::Chess960),
        san: pos.san(m),
        clocks: Some(clocks_after(ply)),
        played_at_ms: 1_700_000_000_000 + i64::from(ply),
    })
}

/// The position after the given UCI moves from `fen`.
pub fn replay(fen: &str, moves: &[MoveRecord]) -> Position {
    let mut pos = Position::from_fen(fen).unwrap();
    for m in moves {
        let mv = pos.parse_uci(&m.uci, CastlingMode::Chess960).unwrap();
        pos = pos.play(mv);
    }
    pos
}
