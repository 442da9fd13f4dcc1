//! Swiss pairings by the FIDE Dutch system (C.04.3, the rules in force from 1 July 2025).
//!
//! [`pair_dutch`] pairs one round from the history so far. The criteria of Art. 2 are
//! weighed by maximum-weight matching (`crate::matching`), bracket by bracket, and the
//! choices that the criteria leave open are made in the order of Art. 3–4 (which
//! moved-down players are paired, transpositions, exchanges). The pairings are checked
//! against bbpPairings, the FIDE-endorsed Dutch engine, on generated tournaments
//! (`examples/bbp_compare.rs`, docs/events.md).
//!
//! An accelerated round (C.04.5, [`crate::accel`]) is paired by each player's pairing score,
//! the real score plus the round's virtual points ([`crate::model::SwissPlayer::acceleration`]);
//! the published board order reads the real scores.

pub mod color;
mod dutch;
pub mod state;

pub use dutch::{pair_dutch, pair_dutch_with_progress, PairingError, Progress};
