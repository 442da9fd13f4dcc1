//! What a player is on a chess960 server, apart from where it is kept and how it is reached:
//! ratings by Glicko-2 ([`glicko2`]), one per speed class ([`speed`]), user names ([`name`]),
//! passwords ([`password`]), session ids and invitation codes ([`token`]), who may register
//! ([`registration`]), and a player's results per start position ([`results`]). No storage and no network here: the game database keeps the
//! players, the server serves them.

#![warn(missing_docs)]

pub mod glicko2;
pub mod name;
pub mod password;
pub mod registration;
pub mod results;
pub mod speed;
pub mod token;
