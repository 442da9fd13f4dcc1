//! Shared by the fuzz targets: fixed positions and the invariants every legal move's notation
//! must satisfy.
#![allow(dead_code)]

use chess960_core::{CastlingMode, CastlingSide, Move, Position};
use std::sync::OnceLock;

/// Positions for the SAN and UCI targets: classical and Chess960 starts, every castling shape
/// (both colours, castling available), one-square king moves next to castles, inner-rook
/// rights, promotions (with captures and choices), en passant, pins, heavy disambiguation,
/// check, mate and stalemate.
pub const FENS: &[&str] = &[
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b KQkq - 0 1",
    "rk3r2/pppppppp/8/8/8/8/PPPPPPPP/RK3R2 w KQkq - 0 1",
    "rk3r2/pppppppp/8/8/8/8/PPPPPPPP/RK3R2 b KQkq - 0 1",
    "3r2kr/pppppppp/8/8/8/8/PPPPPPPP/3R2KR w KQkq - 0 1",
    "3r2kr/pppppppp/8/8/8/8/PPPPPPPP/3R2KR b KQkq - 0 1",
    "4rkr1/pppppppp/8/8/8/8/PPPPPPPP/4RKR1 w KQkq - 0 1",
    "2rk3r/pppppppp/8/8/8/8/PPPPPPPP/2RK3R b KQkq - 0 1",
    "r4k1r/pppppppp/8/8/8/8/PPPPPPPP/R4K1R w KQkq - 0 1",
    "1rk1r3/pppppppp/8/8/8/8/PPPPPPPP/1RK1R3 w KQkq - 0 1",
    "5rkr/pppppppp/8/8/8/8/PPPPPPPP/5RKR w KQkq - 0 1",
    "r1k4r/8/8/8/8/8/8/R1K4R b KQkq - 0 1",
    "4k3/8/8/8/8/8/8/RK6 w Q - 0 1",
    "4k3/8/8/8/8/8/8/5K1R w K - 0 1",
    "r2k4/8/8/8/8/8/8/4K3 b q - 0 1",
    "6k1/8/8/8/8/8/8/1K2R2R w E - 0 1",
    "1r2k1r1/8/8/8/8/8/8/RR2K1RR w GBkq - 0 1",
    "8/P3k3/8/8/8/8/8/4K3 w - - 0 1",
    "1n2k3/P1P5/8/8/8/8/8/4K3 w - - 0 1",
    "4k3/8/8/2PpP3/8/8/8/4K3 w - d6 0 1",
    "4k3/8/8/8/4b3/5N2/8/1N5K w - - 0 1",
    "8/2k5/8/8/Q6Q/8/8/Q3K3 w - - 0 1",
    "rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq - 0 2",
    "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3",
    "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
];

/// The fuzz input of the notation targets: the first byte picks one of [`positions`], the
/// rest is the text typed in it (`None` when there is no text or it is not UTF-8).
pub fn position_and_text(data: &[u8]) -> Option<(&'static Position, &str)> {
    let (&pick, rest) = data.split_first()?;
    let text = std::str::from_utf8(rest).ok()?;
    let positions = positions();
    Some((&positions[pick as usize % positions.len()], text))
}

/// The positions of [`FENS`], parsed once.
pub fn positions() -> &'static [Position] {
    static P: OnceLock<Vec<Position>> = OnceLock::new();
    P.get_or_init(|| {
        FENS.iter()
            .map(|f| Position::from_fen(f).unwrap_or_else(|e| panic!("{f}: {e}")))
            .collect()
    })
}

/// Files the king crosses when castling with `m` (0 when only the rook moves).
pub fn castle_king_distance(p: &Position, m: Move) -> usize {
    let side = CastlingSide::from_king_rook(m.from(), m.to());
    let to = side.king_to(p.turn());
    m.from().file().index().abs_diff(to.file().index())
}

/// `m` is legal in `p`; its SAN and UCI (both castling modes) read back as `m`.
pub fn check_notation(p: &Position, m: Move) {
    assert!(p.is_legal(m), "{p:?}: {m:?} not legal");
    let san = p.san(m);
    assert_eq!(p.parse_san(&san), Ok(m), "{p:?}: SAN {san}");
    let after = p.play(m);
    match san.as_bytes().last() {
        Some(b'#') => assert!(after.is_checkmate(), "{p:?}: {san}"),
        Some(b'+') => assert!(after.is_check() && !after.is_checkmate(), "{p:?}: {san}"),
        _ => assert!(!after.is_check(), "{p:?}: {san}"),
    }
    let u960 = m.to_uci(CastlingMode::Chess960);
    assert_eq!(
        p.parse_uci(&u960, CastlingMode::Chess960),
        Ok(m),
        "{p:?}: {u960}"
    );
    // King onto rook is read in Standard mode too.
    assert_eq!(
        p.parse_uci(&u960, CastlingMode::Standard),
        Ok(m),
        "{p:?}: {u960} (std)"
    );
    let ustd = m.to_uci(CastlingMode::Standard);
    // A castle whose king moves fewer than two files has no unambiguous Standard form
    // (spec §4: a one-square king move is a king move); skip those.
    if !m.is_castle() || castle_king_distance(p, m) >= 2 {
        assert_eq!(
            p.parse_uci(&ustd, CastlingMode::Standard),
            Ok(m),
            "{p:?}: {ustd}"
        );
    }
}
