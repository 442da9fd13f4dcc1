//! Seat tokens: knowing a game's key lets one watch it; playing it needs the secret token that
//! `POST /api/games` gave its creator.
//!
//! The token is 128 random bits from the operating system (32 hex digits). The server keeps
//! only its SHA-256 (in the store, beside the game), so a copy of the database does not hand
//! out seats. Clients send it in the `X-Seat-Token` header with every action on the game
//! (the browser keeps it in its local storage; a custom header also cannot be sent by a plain
//! HTML form of another site), and as `?seat=` when opening the WebSocket, where the browser
//! cannot set headers: a WebSocket client with the seat resumes a paused game, one without it
//! only watches.
//!
//! Games stored without a seat (created before seat tokens existed, or by `chess960 play` on
//! the terminal) can be watched and exported but not played through the server: nobody can
//! prove they created them.

use crate::secret::{hex, random_hex, same_secret};
use chess960_store::SeatRecord;
use sha2::{Digest, Sha256};

/// The request header that carries the seat token.
pub const HEADER: &str = "x-seat-token";

/// A new seat token: 32 lowercase hex digits (128 bits) from the operating system's random
/// source.
pub fn new_token() -> Result<String, getrandom::Error> {
    random_hex::<16>()
}

/// What the store keeps of a token: its SHA-256 in hex.
pub fn hash(token: &str) -> String {
    hex(&Sha256::digest(token.as_bytes()))
}

/// Who may play one colour of a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Seat {
    /// The holder of the token with this hash.
    Held {
        /// [`hash`] of the token.
        hash: String,
    },
    /// Waiting for its player: the first to claim it holds it.
    Open,
    /// Stored without a seat: nobody, through the server.
    Unclaimed,
}

/// Why an action on a game was refused for its seat.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SeatError {
    /// No token was sent.
    Missing,
    /// A token was sent that is not this game's.
    Wrong,
    /// The game has no seat (see the module documentation); `id` is its number in the store.
    Unclaimed {
        /// The game's row number, for `chess960 play --resume`.
        id: i64,
    },
}

impl std::fmt::Display for SeatError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SeatError::Missing => write!(
                f,
                "this action needs the game's seat token (header X-Seat-Token), which only its \
                 players received (the one who created the game, and the one who joined it); \
                 without it the game can only be watched"
            ),
            SeatError::Wrong => write!(
                f,
                "the seat token (header X-Seat-Token) is not this game's: the game can only be \
                 watched from here"
            ),
            SeatError::Unclaimed { id } => write!(
                f,
                "this game has no seat token (it was created on the terminal, or by a server \
                 older than seat tokens), so it cannot be played through the server: watch or \
                 export it here, or continue it on the terminal with 'chess960 play --resume {id}'"
            ),
        }
    }
}

impl Seat {
    /// The seat as the store keeps it.
    pub fn from_record(record: &SeatRecord) -> Seat {
        match record {
            SeatRecord::Held { hash } if !hash.is_empty() => Seat::Held { hash: hash.clone() },
            SeatRecord::Open => Seat::Open,
            _ => Seat::Unclaimed,
        }
    }

    /// True if `token` holds this seat.
    pub fn holds(&self, token: &str) -> bool {
        match self {
            Seat::Held { hash: want } => {
                same_secret(hash(token.trim()).as_bytes(), want.as_bytes())
            }
            Seat::Open | Seat::Unclaimed => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_token_opens_the_seat() {
        let token = new_token().unwrap();
        assert_eq!(token.len(), 32);
        assert!(token.bytes().all(|b| b.is_ascii_hexdigit()));
        assert_ne!(token, new_token().unwrap());
        let seat = Seat::Held { hash: hash(&token) };
        assert!(seat.holds(&token));
        assert!(seat.holds(&format!(" {token}\n")));
        assert!(!seat.holds("0000"));
        assert!(!seat.holds(&new_token().unwrap()));
        assert!(!Seat::Open.holds(&token));
        assert!(!Seat::Unclaimed.holds(&token));
        assert_eq!(Seat::from_record(&SeatRecord::Open), Seat::Open);
        assert_eq!(Seat::from_record(&SeatRecord::None), Seat::Unclaimed);
        // The known SHA-256 of "abc".
        assert_eq!(
            hash("abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }
}
