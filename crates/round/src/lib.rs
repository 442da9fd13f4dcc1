//! One game's referee, without I/O, shared by every program that plays games: the server
//! (`chess960 serve`, games in the browser) and the terminal (`chess960 play`), so that a game
//! is played by the same rules wherever it is played.
//!
//! A [`Round`] holds the game (position, moves as stored, result), its clocks with lichess's
//! first-move rule (no clock runs before both sides have moved), its lifecycle ([`Phase`]),
//! the draw offer, the takeback proposal and the premove. [`Round::decide`] judges a
//! [`Command`] (a move, a resignation, an offer, the time passing, ...) once, returning the
//! [`Event`]s that follow or a [`RoundError`]; the caller stores them (a move is durable before
//! anyone is told) and then [`Round::commit`]s them. [`Round::apply`] does both.
//!
//! [`record`] holds how games are recorded in the store, the same for both programs; [`now`]
//! where the time is read, so that a test can replay a game with exact times.

#![warn(missing_docs)]

mod clock;
mod command;
pub mod now;
pub mod record;
mod referee;
mod tc_label;

pub use command::{Command, Event, ForceResult, MoveInput, Premove, RoundError};
pub use referee::{mover, paused_on_load, Phase, Player, Round, DEFAULT_ABANDON_AFTER};

#[cfg(test)]
mod tests;
