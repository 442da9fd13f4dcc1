//! Event documents (issue 37): any bytes as an event's JSON document (what `chess960 event
//! import` and the database read) and as a FIDE TRF file. Every event that reads, accepted by
//! `Event::validate` or not, goes through the standings, the crosstable, the TRF, PGN and JSON
//! exports and the Swiss history; the accepted ones also through live operations (a draw, a
//! pairing with its results, a late entry, a withdrawal). No panic, and the properties that
//! `chess960_events::check` asserts: the JSON export reads back as the same event with the same
//! verdict, the standings rank every player once, and what a live operation makes of an
//! accepted event is accepted. The crate's test `tests/documents.rs` runs the same check over
//! thousands of mutated documents.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    chess960_events::check::document(data);
});
