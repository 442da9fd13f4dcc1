//! # chess960-train
//!
//! The CPU trainer of the engine's NNUE evaluation (see [`chess960_engine::nnue`] for the net
//! and its file format, [`chess960_engine::trainingdata`] for the binary data format, and the
//! section "NNUE: data and training" of `docs/engine.md` for the commands).
//!
//! - [`data`] reads `.bin` record files and `FEN;result;score` text files, filters,
//!   de-duplicates and holds out the end of each file for validation;
//! - [`model`] is the float network, its gradient, AdamW and the quantisation;
//! - [`train`] is the multithreaded training loop.
#![warn(missing_docs)]

pub mod data;
pub mod model;
pub mod train;
