//! # chess960-events
//!
//! Tournaments for arbiters.
#![warn(missing_docs)]

pub mod matching;
pub mod model;
pub mod roundrobin;
pub mod swiss;
pub mod trf;
pub mod wide;
