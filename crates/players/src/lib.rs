//! What a player is on a chess960 server, apart from where it is kept and how it is reached:
//! ratings by Glicko-2 ([`glicko2`]), one per speed class ([`speed`]), and user names
//! ([`name`]). The store keeps players and updates their ratings with a game's end in one
//! transaction; the server serves them. Nothing here does I/O.

#![warn(missing_docs)]

pub mod glicko2;
pub mod name;
pub mod speed;
