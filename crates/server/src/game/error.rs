//! Why an action on a game failed, in the game's terms. The game code (`round/`,
//! `registry.rs`, `create.rs`) returns these; only the HTTP edge (`error.rs`) turns them into
//! statuses.

use crate::game::seat::SeatError;
use chess960_core::Color;
use chess960_store::StoreError;
use std::fmt;

/// A refused or failed action on a game.
#[derive(Debug)]
pub enum GameError {
    /// No game with this key (also a malformed key).
    NoSuchGame {
        /// The key as given.
        key: String,
    },
    /// The game has a result.
    Over {
        /// A win or a draw.
        result: chess960_core::GameResult,
        /// Why, in words.
        reason: String,
    },
    /// A move for another half-move than the game's next (the client's view is stale).
    StalePly {
        /// The half-moves the client thought were played.
        sent: u64,
        /// The half-moves played.
        played: usize,
    },
    /// A move when the other side is to move.
    NotYourTurn {
        /// The side to move.
        to_move: Color,
        /// Whether the engine plays it.
        engine: bool,
    },
    /// A game between people whose second seat is still open: nothing can be played yet.
    WaitingForOpponent,
    /// A new challenge from an address that has the most open ones already.
    TooManyChallenges {
        /// The most open challenges one address may have.
        max: usize,
    },
    /// Deleting a game in which another person has a part (a game between people once its
    /// second player has joined, an event's game): one player may not erase it.
    NotDeletable,
    /// Joining a game with no open seat.
    NoOpenSeat,
    /// Creating or joining a rated game without being logged in.
    RatedNeedsAccount,
    /// Joining a game whose seat the actor already holds.
    AlreadySeated {
        /// The colour the actor plays.
        color: Color,
    },
    /// Answering an offer that is not there (named: "draw offer", "takeback proposal").
    NoOffer {
        /// The offer, in words.
        what: &'static str,
    },
    /// A claim against an absent opponent who is not (long enough) away (the reason).
    NotAway {
        /// Why the claim is refused.
        why: String,
    },
    /// A rematch that cannot be had (the reason).
    NoRematch {
        /// Why.
        why: String,
    },
    /// A move (or resignation, draw offer, ...) while the players place the start position.
    StillPlacing,
    /// The game's PGN (or analysis) before its start was placed, or of a game aborted before
    /// the players finished placing it: there is no start position to write.
    StartNotPlaced,
    /// A placement in a game whose start is not being placed.
    NotPlacing,
    /// A placement when the other player is to place.
    NotYourPlacement,
    /// A placement the rules refuse (the reason).
    BadPlacement(String),
    /// A premove when it is the player's turn.
    YourTurn,
    /// An abort after both sides have moved.
    NotAbortable,
    /// A start position or start PGN that cannot be played from (the reason).
    BadStart(String),
    /// A move that cannot be read or is illegal here (the reason).
    IllegalMove(String),
    /// A takeback of a game that did not end on the board (the reason it ended).
    TakebackAfter(String),
    /// A takeback before the player's first move.
    NothingToTakeBack,
    /// A draw claim without a draw to claim.
    NoDrawToClaim,
    /// Analysis of a game still being played.
    StillPlaying,
    /// Analysis after a half-move the game does not have.
    BeyondGame {
        /// The half-move asked for.
        ply: u64,
        /// The game's half-moves.
        plies: usize,
    },
    /// The action needs the game's seat.
    Seat(SeatError),
    /// The engine cannot search now (the server is shutting down, or its search failed).
    EngineUnavailable(String),
    /// The stored game cannot be read back (damaged or written by a foreign program).
    Unreadable {
        /// The game's key.
        key: String,
        /// What is wrong.
        detail: String,
    },
    /// Another server of the same database runs the game now (it took it over, or took it
    /// first): the request may be sent again.
    Moved {
        /// The game's key.
        key: String,
    },
    /// The game database failed.
    Store(StoreError),
    /// A worker thread of the server failed.
    Worker(String),
}

impl GameError {
    /// [`GameError::Moved`] for the game `key` (as given: at most 40 characters of it).
    pub fn moved(key: &str) -> GameError {
        GameError::Moved {
            key: key.chars().take(40).collect(),
        }
    }
}

impl From<StoreError> for GameError {
    fn from(e: StoreError) -> GameError {
        GameError::Store(e)
    }
}

impl From<SeatError> for GameError {
    fn from(e: SeatError) -> GameError {
        GameError::Seat(e)
    }
}

impl fmt::Display for GameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GameError::NoSuchGame { key } => write!(f, "no game with key '{key}'"),
            GameError::Over { result, reason } if *result == chess960_core::GameResult::Unknown => {
                write!(f, "the game is over ({reason})")
            }
            GameError::Over { result, reason } => {
                write!(f, "the game is over ({result} by {reason})")
            }
            GameError::StalePly { sent, played } => write!(
                f,
                "ply: {sent} moves were expected to be played, but the game has {played} \
                 (reload it)"
            ),
            GameError::NotYourTurn { to_move, engine } => write!(
                f,
                "it is not your turn: {} ({}) is to move",
                crate::game::color_name(*to_move),
                if *engine {
                    "the engine"
                } else {
                    "your opponent"
                }
            ),
            GameError::WaitingForOpponent => f.write_str(
                "the game waits for its second player: send them the game's link (or abort it)",
            ),
            GameError::NotDeletable => write!(
                f,
                "this game has two players, and one of them may not delete it (as on lichess, \
                 a game between people stays): resign it, or abort it before both sides have \
                 moved; the server's owner can delete it on the terminal (chess960 db delete)"
            ),
            GameError::TooManyChallenges { max } => write!(
                f,
                "this address has {max} challenges waiting for an opponent already: withdraw \
                 one (abort it) or wait until one is taken"
            ),
            GameError::NoOpenSeat => {
                f.write_str("both seats of this game are taken: it can only be watched from here")
            }
            GameError::RatedNeedsAccount => f.write_str(
                "rated games are for logged-in players: log in (or register) first; a guest \
                 plays casual games",
            ),
            GameError::AlreadySeated { color } => write!(
                f,
                "you already play {} in this game",
                crate::game::color_name(*color)
            ),
            GameError::NoOffer { what } => {
                write!(f, "there is no {what} from your opponent to answer")
            }
            GameError::NotAbortable => f.write_str(
                "the game can no longer be aborted: both sides have moved (resign or offer a \
                 draw instead)",
            ),
            GameError::NotAway { why } => write!(f, "no claim: {why}"),
            GameError::NoRematch { why } => write!(f, "no rematch: {why}"),
            GameError::StillPlacing => f.write_str(
                "the players are still placing the pieces: the game begins once the start \
                 position is complete",
            ),
            GameError::StartNotPlaced => f.write_str(
                "the players have not placed this game's start position (Northam's placement): \
                 there is no PGN or FEN before it is complete",
            ),
            GameError::NotPlacing => f.write_str("this game's start position is not being placed"),
            GameError::NotYourPlacement => {
                f.write_str("it is not your turn to place a piece: your opponent places now")
            }
            GameError::BadPlacement(why) => write!(f, "placement: {why}"),
            GameError::YourTurn => {
                f.write_str("it is your turn: play the move instead of queuing it")
            }
            GameError::BadStart(why) => f.write_str(why),
            GameError::IllegalMove(why) => write!(f, "move: {why}"),
            GameError::TakebackAfter(reason) => write!(
                f,
                "the game ended by {reason}: only a game ended on the board can be taken back"
            ),
            GameError::NothingToTakeBack => f.write_str("you have no move to take back"),
            GameError::NoDrawToClaim => f.write_str(
                "no draw to claim: the position has not occurred three times and there were \
                 fewer than 50 moves by each side without a capture or pawn move",
            ),
            GameError::StillPlaying => {
                f.write_str("analysis is only for finished games (it would help one side)")
            }
            GameError::BeyondGame { ply, plies } => {
                write!(f, "ply: {ply} is beyond the game's {plies} half-moves")
            }
            GameError::Seat(e) => e.fmt(f),
            GameError::EngineUnavailable(why) => write!(f, "the engine cannot search: {why}"),
            GameError::Unreadable { key, detail } => {
                write!(f, "game {key} cannot be read from the database: {detail}")
            }
            GameError::Moved { key } => write!(
                f,
                "game {key} is run by another server of this database now; send the request again"
            ),
            GameError::Store(e) => write!(f, "game database: {e}"),
            GameError::Worker(e) => write!(f, "a worker thread failed: {e}"),
        }
    }
}

impl std::error::Error for GameError {}

/// The result of an action on a game.
pub type GameResult<T> = Result<T, GameError>;

impl From<chess960_round::RoundError> for GameError {
    /// The referee's refusal in the server's terms (and words: see `Display`).
    fn from(e: chess960_round::RoundError) -> GameError {
        use chess960_round::RoundError as R;
        match e {
            R::Over { result, reason } => GameError::Over { result, reason },
            R::WaitingForOpponent => GameError::WaitingForOpponent,
            R::StillPlacing => GameError::StillPlacing,
            R::NotYourTurn { to_move, engine } => GameError::NotYourTurn { to_move, engine },
            R::IllegalMove(why) => GameError::IllegalMove(why),
            R::YourTurn => GameError::YourTurn,
            R::NotAbortable => GameError::NotAbortable,
            R::NoDrawToClaim => GameError::NoDrawToClaim,
            R::NoOffer { what } => GameError::NoOffer { what },
            R::TakebackAfter(reason) => GameError::TakebackAfter(reason),
            R::NothingToTakeBack => GameError::NothingToTakeBack,
        }
    }
}
