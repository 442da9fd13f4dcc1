//! SAN reading: the first byte picks one of a fixed set of positions (Chess960 ones with
//! castling available among them), the rest is the SAN text. Whatever is accepted must be a
//! legal move whose own SAN reads back as the same move.
#![no_main]

use libfuzzer_sys::fuzz_target;

mod common;

fuzz_target!(|data: &[u8]| {
    let Some((p, text)) = common::position_and_text(data) else {
        return;
    };
    match p.parse_san(text) {
        Ok(m) => {
            common::check_notation(p, m);
            // Castling comes only from castling notation, never from a king move like `Kg1`.
            if m.is_castle() {
                assert!(text.contains('-'), "{p:?}: {text:?} read as castling");
            }
        }
        Err(e) => {
            let _ = e.to_string();
        }
    }
});
