//! Who may play each colour of a game through the web server, as the store keeps it.
//!
//! A person plays a game through the server by holding the secret token of its seat; the store
//! keeps only the token's SHA-256 (the server makes and checks it: `crates/server/src/seat.rs`).
//! Each colour has its own seat, so that two people can play one game, each with their own
//! token. A seat is either held (its hash), open (a game between people waiting for its second
//! player: the first to claim it holds it, [`crate::GameStore::claim_seat`]), or none (the
//! engine's side, and every side of a game imported or played on the terminal).

use chess960_core::Color;

/// The column value of an open seat; a held seat stores its hash (64 hex digits), none is NULL.
pub(crate) const OPEN: &str = "open";

/// One colour's seat.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum SeatRecord {
    /// Nobody plays this colour through the server.
    #[default]
    None,
    /// Waiting for the person who will play this colour.
    Open,
    /// Held by whoever has the token with this SHA-256 (hex).
    Held {
        /// The token's SHA-256 in hex.
        hash: String,
    },
}

impl SeatRecord {
    /// The value of the seat's column.
    pub(crate) fn to_column(&self) -> Option<&str> {
        match self {
            SeatRecord::None => None,
            SeatRecord::Open => Some(OPEN),
            SeatRecord::Held { hash } => Some(hash),
        }
    }

    /// Reads a column written by [`SeatRecord::to_column`]; an empty value is no seat.
    pub(crate) fn from_column(value: Option<String>) -> SeatRecord {
        match value {
            None => SeatRecord::None,
            Some(v) if v.is_empty() => SeatRecord::None,
            Some(v) if v == OPEN => SeatRecord::Open,
            Some(hash) => SeatRecord::Held { hash },
        }
    }
}

/// Both colours' seats.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Seats {
    /// White's seat.
    pub white: SeatRecord,
    /// Black's seat.
    pub black: SeatRecord,
}

impl Seats {
    /// No seats: a game imported, or played on the terminal.
    pub const NONE: Seats = Seats {
        white: SeatRecord::None,
        black: SeatRecord::None,
    };

    /// A game against the engine: `human`'s seat held by the token with `hash`.
    pub fn one(human: Color, hash: String) -> Seats {
        let mut s = Seats::NONE;
        *s.get_mut(human) = SeatRecord::Held { hash };
        s
    }

    /// The seat of `color`.
    pub fn get(&self, color: Color) -> &SeatRecord {
        match color {
            Color::White => &self.white,
            Color::Black => &self.black,
        }
    }

    /// The seat of `color`, to change.
    pub fn get_mut(&mut self, color: Color) -> &mut SeatRecord {
        match color {
            Color::White => &mut self.white,
            Color::Black => &mut self.black,
        }
    }
}
