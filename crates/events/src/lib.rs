//! # chess960-events
//!
//! Tournaments for arbiters.
#![warn(missing_docs)]

pub mod event;
pub mod export;
pub mod import;
pub mod matching;
pub mod model;
pub mod position;
pub mod roundrobin;
pub mod standings;
pub mod swiss;
pub mod trf;
pub mod wide;
