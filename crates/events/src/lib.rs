//! # chess960-events
//!
//! Tournaments for arbiters, with no I/O: the store keeps an [`event::Event`], the server and
//! the command line change it only through its checked methods.
//!
//! - [`event`]: the event: players, late entries, withdrawals, byes, each round's start
//!   position with its recorded draw ([`position`]), pairings, results.
//! - [`swiss`]: pairings by the FIDE Dutch system (C.04.3, 2025), on the maximum-weight
//!   matching of [`matching`] with the wide integers of [`wide`]; checked against bbpPairings
//!   (`examples/bbp_compare.rs`, docs/events.md).
//! - [`roundrobin`]: the Berger tables (C.05 Annex 1).
//! - [`knockout`]: knockouts: the seeded bracket, mini-matches on one drawn position with
//!   colours swapped, tiebreak stages up to an Armageddon.
//! - [`standings`]: standings with tie-breaks (C.07) and the crosstable.
//! - [`trf`], [`export`], [`import`]: FIDE's TRF in and out, PGN out, the JSON document of
//!   a whole event out and in.
//! - [`validate`]: the checks of a whole event document ([`event::Event::validate`]), which
//!   every import passes through; [`check`]: the robustness check of the fuzz target.
//! - [`model`]: the history a Swiss round is paired from; [`accel`]: accelerated pairings
//!   (the Baku method, C.04.5.1).
#![warn(missing_docs)]

pub mod accel;
pub mod check;
pub mod event;
pub mod export;
pub mod import;
pub mod knockout;
pub mod matching;
pub mod model;
pub mod position;
pub mod round;
pub mod roundrobin;
pub mod standings;
pub mod swiss;
pub mod trf;
pub mod validate;
pub mod wide;
