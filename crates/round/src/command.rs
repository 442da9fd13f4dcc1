//! What a referee is asked ([`Command`]), what it decides ([`Event`]) and why it refuses
//! ([`RoundError`]).

use chess960_core::{Color, GameResult, Move};
use chess960_store::{Finish, MoveRecord};
use std::fmt;

/// A move as the referee receives it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveInput {
    /// As a person typed it: UCI (castling as king onto rook, `e1h1`, or to its destination,
    /// `e1g1`) or SAN (`Nf3`, `O-O`, `0-0`).
    Typed(String),
    /// As a program chose it (the engine): checked against the legal moves.
    Chosen(Move),
}

/// Whether an absent player's opponent takes the win or a draw (lichess's "force
/// resignation" and "force draw"), as `POST …/force` names it (`"win"`, `"draw"`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "lowercase")]
pub enum ForceResult {
    /// The absent player loses (by abandonment).
    Win,
    /// The game is drawn.
    Draw,
}

/// Something a player (or the time) asks of a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// `by` plays a move.
    Move {
        /// Who moves: refused unless it is their turn.
        by: Color,
        /// The move.
        mv: MoveInput,
    },
    /// `by` resigns.
    Resign(Color),
    /// Either player ends the game with no result, before both sides have moved.
    Abort,
    /// A player claims the draw the rules allow now (threefold repetition, fifty moves).
    ClaimDraw,
    /// `by` offers a draw to a person: an offer that crosses the opponent's agrees the draw.
    OfferDraw(Color),
    /// Both sides agree a draw (the engine accepted an offer, or both players sit at one
    /// device).
    AgreeDraw,
    /// `by` answers the opponent's draw offer.
    AnswerDraw {
        /// Who answers.
        by: Color,
        /// Accepted (the game is drawn) or declined.
        accept: bool,
    },
    /// `by` asks a person to take `by`'s last move back.
    ProposeTakeback(Color),
    /// `by` answers the opponent's takeback proposal.
    AnswerTakeback {
        /// Who answers.
        by: Color,
        /// Accepted (the proposer's last move goes back) or declined.
        accept: bool,
    },
    /// `by`'s last move goes back at once, with whatever was played after it (against the
    /// engine, which always agrees, and at one device).
    TakeBack(Color),
    /// The opponent of `absent`, who has been away too long (the caller checks how long), ends
    /// the game.
    Forfeit {
        /// The player who left.
        absent: Color,
        /// The win or a draw.
        claim: ForceResult,
    },
    /// The time passes: a fallen flag ends the game, an overdue first move aborts it.
    Tick,
    /// `by` queues a move for their next turn (checked then).
    SetPremove {
        /// Whose premove.
        by: Color,
        /// The move as typed.
        text: String,
    },
    /// `by` withdraws their premove; with `clears`, only if it is still that one (so that a
    /// withdrawal sent for an earlier premove cannot undo a later one that overtook it).
    ClearPremove {
        /// Whose premove.
        by: Color,
        /// The premove to withdraw.
        clears: Option<String>,
    },
    /// The side to move's premove is played if it is legal now, dropped if not.
    PlayPremove,
}

/// A move queued by the player of `color` for their next turn, as typed (its legality is
/// known only then).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Premove {
    /// Whose move it is.
    pub color: Color,
    /// The move as typed (UCI or SAN).
    pub text: String,
}

/// What the referee decided: the caller stores what must be stored, then commits the events
/// to the round ([`crate::Round::commit`]) and tells the players.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    /// A move was played; `record` is what the store keeps (SAN, UCI, both clocks after it).
    Moved {
        /// The move.
        mv: Move,
        /// Its record.
        record: MoveRecord,
    },
    /// The game ended.
    Ended(Finish),
    /// A player offered a draw.
    DrawOffered(Color),
    /// The draw offer was declined.
    DrawDeclined,
    /// A player asked to take their last move back.
    TakebackProposed(Color),
    /// The takeback proposal was declined.
    TakebackDeclined,
    /// Moves were taken back so that `keep` half-moves remain.
    TookBack {
        /// The half-moves that remain.
        keep: usize,
    },
    /// A premove was queued (replacing the player's previous one).
    PremoveSet(Premove),
    /// The premove was withdrawn, or dropped as illegal when its turn came.
    PremoveCleared,
}

/// Why the referee refused a command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RoundError {
    /// The game has a result.
    Over {
        /// A win or a draw.
        result: GameResult,
        /// Why, in words.
        reason: String,
    },
    /// A game between people whose second seat is still open.
    WaitingForOpponent,
    /// The players are placing the start position.
    StillPlacing,
    /// A move when the other side is to move.
    NotYourTurn {
        /// The side to move.
        to_move: Color,
        /// Whether the engine plays it.
        engine: bool,
    },
    /// A move that cannot be read or is illegal here (the reason).
    IllegalMove(String),
    /// A premove when it is the player's turn.
    YourTurn,
    /// An abort after both sides have moved.
    NotAbortable,
    /// A draw claim without a draw to claim.
    NoDrawToClaim,
    /// Answering an offer that is not there (named: "draw offer", "takeback proposal").
    NoOffer {
        /// The offer, in words.
        what: &'static str,
    },
    /// A takeback of a game that did not end on the board (the reason it ended).
    TakebackAfter(String),
    /// A takeback before the player's first move.
    NothingToTakeBack,
}

impl fmt::Display for RoundError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RoundError::Over { result, reason } => {
                write!(f, "the game is over ({result}, {reason})")
            }
            RoundError::WaitingForOpponent => {
                write!(f, "the game waits for its second player to join")
            }
            RoundError::StillPlacing => write!(f, "the players are still placing the pieces"),
            RoundError::NotYourTurn { to_move, engine } => {
                let who = if *engine {
                    "the engine"
                } else {
                    "your opponent"
                };
                write!(f, "not your turn: {to_move} ({who}) is to move")
            }
            RoundError::IllegalMove(why) => write!(f, "{why}"),
            RoundError::YourTurn => write!(f, "it is your turn: play the move instead"),
            RoundError::NotAbortable => {
                write!(
                    f,
                    "both sides have moved: the game can no longer be aborted"
                )
            }
            RoundError::NoDrawToClaim => write!(
                f,
                "no draw to claim: neither threefold repetition nor the fifty-move rule applies"
            ),
            RoundError::NoOffer { what } => write!(f, "there is no {what} to answer"),
            RoundError::TakebackAfter(reason) => write!(
                f,
                "the game ended by {reason}: only a game that ended on the board can be taken back"
            ),
            RoundError::NothingToTakeBack => write!(f, "nothing to take back: you have not moved"),
        }
    }
}

impl std::error::Error for RoundError {}
