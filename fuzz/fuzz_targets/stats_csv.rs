//! The per-position statistics file reader of `chess960 db stats --from-file`: any text gives
//! counts or a message, never a panic, and the counts it gives are for start positions 0..959.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    for dataset in [None, Some("lichess"), Some("selfplay")] {
        match chess960_store::stats::counts_from_csv(text, dataset) {
            Ok(counts) => {
                for c in counts {
                    assert!(c.start_id < 960, "{c:?}");
                }
            }
            Err(e) => {
                let _ = e.0.len();
            }
        }
    }
});
