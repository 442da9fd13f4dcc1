//! Typed moves (a GUI's text box, the terminal): UCI in either castling form or SAN. The first
//! byte picks a position, the rest is the text. Whatever is accepted must be legal, and the
//! move's own SAN and Chess960 UCI, typed back, must give the same move.
#![no_main]

use chess960_core::CastlingMode;
use libfuzzer_sys::fuzz_target;

mod common;

fuzz_target!(|data: &[u8]| {
    let Some((p, text)) = common::position_and_text(data) else {
        return;
    };
    match p.parse_typed_move(text) {
        Ok(m) => {
            assert!(p.is_legal(m), "{text:?} in {p:?}");
            common::check_notation(p, m);
            assert_eq!(p.parse_typed_move(&p.san(m)), Ok(m), "{p:?}");
            assert_eq!(
                p.parse_typed_move(&m.to_uci(CastlingMode::Chess960)),
                Ok(m),
                "{p:?}"
            );
        }
        Err(e) => {
            let _ = e.to_string();
        }
    }
});
