//! # chess960-arena
//!
//! Engine-vs-engine Chess960 matches, modelled on cutechess-cli: UCI and xboard engines,
//! each start position played with both colours, the runner as referee (every move checked
//! with `chess960-core`, clocks kept here, faults attributed to the engine that made them),
//! adjudication, PGN through `chess960-pgn`, and the statistics engine testers use (Elo with
//! error bars, LOS, pentanomial game pairs, SPRT).
//!
//! ```no_run
//! use chess960_arena::options::parse_args;
//! use chess960_arena::runner::run_match;
//! use std::sync::{atomic::AtomicBool, Arc};
//!
//! let args: Vec<String> = "-engine cmd=stockfish -engine cmd=glaurung -each nodes=2000 -games 4"
//!     .split(' ').map(String::from).collect();
//! let parsed = parse_args(&args, 42).unwrap();
//! let report = run_match(&parsed.config, Arc::new(AtomicBool::new(false))).unwrap();
//! print!("{}", chess960_arena::report::table(&report));
//! ```
//!
//! Modules, from the bottom up: [`process`] (engine processes with deadlines), [`uci`] and
//! [`xboard`] (the protocols), [`engine`] (what the referee needs from either), [`timecontrol`],
//! [`referee`] (one game), [`openings`], [`schedule`], [`stats`], [`runner`] (the match),
//! [`pgnout`] and [`report`] (output), [`options`] (the cutechess-style command line); beside
//! them [`ratings`], the rating list of many players' games (maximum likelihood, as engine
//! rating lists compute it).
#![warn(missing_docs)]

pub mod engine;
pub mod openings;
pub mod options;
pub mod pgnout;
pub mod process;
pub mod ratings;
pub mod referee;
pub mod report;
pub mod runner;
pub mod schedule;
pub mod stats;
pub mod timecontrol;
pub mod uci;
pub mod xboard;
