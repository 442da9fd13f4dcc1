//! # chess960-engine
//!
//! A UCI chess engine for Chess960 and classical chess, built on `chess960-core`.
//! See `docs/engine.md` for its design and `docs/strength.md` for measurements.
#![warn(missing_docs)]

pub mod bench;
pub mod datagen;
pub mod eval;
pub mod levels;
pub mod memory;
pub mod nnue;
pub mod pages;
pub mod player;
pub mod search;
pub mod see;
pub mod time;
pub mod trainingdata;
pub mod tt;
pub mod tune;
pub mod uci;
pub mod wdl;
pub mod weights;
