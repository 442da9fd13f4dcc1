//! Arbitrary bytes as a FEN, strict and lenient. Whatever is accepted must write back to the
//! same position in both castling dialects, and its legal moves must play and round-trip
//! through SAN and UCI.
#![no_main]

use chess960_core::{CastlingDialect, Position, Validation};
use libfuzzer_sys::fuzz_target;

mod common;

fn check(p: &Position, validation: Validation) {
    for dialect in [CastlingDialect::XFen, CastlingDialect::Shredder] {
        let fen = p.to_fen(dialect);
        let q = Position::from_fen_with(&fen, validation)
            .unwrap_or_else(|e| panic!("{p:?}: own {dialect:?} FEN {fen:?} rejected: {e}"));
        assert_eq!(&q, p, "{dialect:?} round trip of {fen}");
        assert_eq!(q.hash(), p.hash());
        assert_eq!(q.to_fen(dialect), fen);
    }
    let moves = p.legal_moves();
    assert_eq!(moves.len() as u64, p.count_legal_moves(), "{p:?}");
    if let Some(ep) = p.ep_square() {
        assert!(
            moves.iter().any(|m| m.is_en_passant() && m.to() == ep),
            "{p:?}: en-passant square without a capture"
        );
    }
    for &m in moves.iter() {
        common::check_notation(p, m);
        let after = p.play(m);
        // The incrementally updated position equals the one read from its own FEN.
        let fen = after.fen();
        match Position::from_fen_with(&fen, Validation::Lenient) {
            Ok(q) => {
                assert_eq!(q, after, "{p:?} + {m:?} -> {fen}");
                assert_eq!(q.hash(), after.hash(), "{p:?} + {m:?}: hash");
            }
            Err(e) => panic!("{p:?} + {m:?}: resulting FEN {fen:?} rejected: {e}"),
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let Ok(s) = std::str::from_utf8(data) else {
        return;
    };
    let strict = Position::from_fen(s);
    if let Ok(p) = &strict {
        check(p, Validation::Strict);
    }
    match Position::from_fen_with(s, Validation::Lenient) {
        Ok(p) => check(&p, Validation::Lenient),
        // Whatever lenient reading rejects, strict reading rejects too.
        Err(e) => assert!(
            strict.is_err(),
            "{s:?}: strict accepts, lenient rejects: {e}"
        ),
    }
    if let Err(e) = strict {
        let _ = e.to_string();
    }
});
