//! Engine championships: an event whose players are engines plays its games by itself.
//!
//! The event is the one arbiters run ([`chess960_events`]); a player may be an engine the
//! server's owner registered (`chess960 engine add`, [`chess960_store::engines`]). The
//! [`director`] takes the event from the database, does what its arbiter would do next (pair
//! the next round, draw its position, add a knockout's tiebreak games), has every board whose
//! two players are engines played by the match runner's referee ([`chess960_arena`]: clocks,
//! adjudication, every fault of an engine scored with its reason) on a bounded number of
//! threads, and stores each game and its result as soon as it ends: stopped or killed, it
//! resumes from the database with the games already played kept. The [`live`] broadcast
//! shows every game as it is played: clocks, each engine's evaluation, depth, speed and
//! principal variation while it thinks, and every move with what its engine said.
//!
//! The server (`POST /api/events/{key}/engines/play`) and the terminal (`chess960 event run`)
//! use the same director.

pub mod director;
pub mod entrant;
pub mod live;
pub mod record;
pub mod slots;
pub mod step;
