//! UCI reading in both castling modes: the first byte picks one of a fixed set of positions,
//! the rest is the move text. Whatever is accepted must be a legal move starting on the
//! square the text names, and its own UCI must read back as the same move.
#![no_main]

use chess960_core::{CastlingMode, Square};
use libfuzzer_sys::fuzz_target;

mod common;

fuzz_target!(|data: &[u8]| {
    let Some((p, text)) = common::position_and_text(data) else {
        return;
    };
    for mode in [CastlingMode::Chess960, CastlingMode::Standard] {
        match p.parse_uci(text, mode) {
            Ok(m) => {
                common::check_notation(p, m);
                assert_eq!(
                    Some(m.from()),
                    text.get(0..2).and_then(Square::parse),
                    "{text:?}"
                );
                if mode == CastlingMode::Chess960 {
                    // Chess960 notation is exact: the text is the move's own UCI.
                    assert_eq!(m.to_uci(CastlingMode::Chess960), text, "{p:?}");
                }
            }
            Err(e) => {
                let _ = e.to_string();
            }
        }
    }
});
