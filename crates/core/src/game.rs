//! A game: start position, moves, and how it ended (§5: checkmate, stalemate, insufficient
//! material, FIDE's automatic fivefold-repetition and 75-move draws; claimable threefold and
//! fifty-move draws).

use crate::moves::Move;
use crate::position::Position;
use crate::startpos::StartId;
use crate::types::Color;
use std::fmt;

/// Why a game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Termination {
    /// The side to move is checkmated.
    Checkmate,
    /// The side to move has no legal move and is not in check.
    Stalemate,
    /// Neither side has material to mate with.
    InsufficientMaterial,
    /// The same position for the fifth time (automatic, FIDE 9.6.1).
    FivefoldRepetition,
    /// 75 moves by each side without capture or pawn move (automatic, FIDE 9.6.2).
    SeventyFiveMoves,
    /// Draw claimed after the same position arose three times.
    ThreefoldRepetition,
    /// Draw claimed after 50 moves by each side without capture or pawn move.
    FiftyMoves,
    /// A player resigned.
    Resignation,
    /// A player ran out of time.
    Timeout,
    /// The players agreed a draw.
    Agreement,
    /// Ended by an arbiter or adjudicator for another reason.
    Adjudication,
    /// A player left the game and stayed away; their opponent claimed the win or a draw
    /// (online play: a server's rule, not a Law of chess).
    Abandonment,
}

impl Termination {
    /// A short English description.
    pub fn describe(self) -> &'static str {
        match self {
            Termination::Checkmate => "checkmate",
            Termination::Stalemate => "stalemate",
            Termination::InsufficientMaterial => "insufficient material",
            Termination::FivefoldRepetition => "fivefold repetition",
            Termination::SeventyFiveMoves => "75-move rule",
            Termination::ThreefoldRepetition => "threefold repetition",
            Termination::FiftyMoves => "fifty-move rule",
            Termination::Resignation => "resignation",
            Termination::Timeout => "time forfeit",
            Termination::Agreement => "agreement",
            Termination::Adjudication => "adjudication",
            Termination::Abandonment => "abandonment",
        }
    }
}

/// The result of a finished game with its reason.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// One side won.
    Win {
        /// The winner.
        winner: Color,
        /// Why.
        reason: Termination,
    },
    /// A draw.
    Draw {
        /// Why.
        reason: Termination,
    },
}

impl Outcome {
    /// `1-0`, `0-1` or `1/2-1/2`.
    pub fn result(self) -> &'static str {
        crate::GameResult::from(self).as_str()
    }

    /// Why the game ended.
    pub fn reason(self) -> Termination {
        match self {
            Outcome::Win { reason, .. } | Outcome::Draw { reason } => reason,
        }
    }

    /// The end when `loser`'s flag falls in `pos`: a win on time for the other side, or a draw
    /// when the other side has no material to mate with (FIDE Laws 6.9). Every program that
    /// keeps a clock (the server, the terminal, the match runner) ends games this way.
    pub fn on_time(loser: Color, pos: &Position) -> Outcome {
        if pos.has_insufficient_material(!loser) {
            Outcome::Draw {
                reason: Termination::Timeout,
            }
        } else {
            Outcome::Win {
                winner: !loser,
                reason: Termination::Timeout,
            }
        }
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Outcome::Win { winner, reason } => {
                write!(
                    f,
                    "{} ({winner} wins by {})",
                    self.result(),
                    reason.describe()
                )
            }
            Outcome::Draw { reason } => write!(f, "1/2-1/2 (draw by {})", reason.describe()),
        }
    }
}

/// Why a move or action was refused by [`Game`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GameError {
    /// The game is already over.
    Finished(Outcome),
    /// The move is not legal in the current position.
    IllegalMove(Move),
    /// A draw was claimed but neither threefold repetition nor the fifty-move rule applies.
    NoDrawToClaim,
}

impl fmt::Display for GameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GameError::Finished(o) => write!(f, "the game is over: {o}"),
            GameError::IllegalMove(m) => write!(f, "illegal move {m:?}"),
            GameError::NoDrawToClaim => write!(
                f,
                "no draw to claim: the position has not occurred three times and there were fewer than 50 moves without capture or pawn move"
            ),
        }
    }
}

impl std::error::Error for GameError {}

/// A game from a start position: its moves, the positions they led to, and its outcome.
#[derive(Debug, Clone)]
pub struct Game {
    start: Position,
    start_id: Option<StartId>,
    moves: Vec<Move>,
    /// positions[i] is the position before moves[i]; the last is the current one.
    positions: Vec<Position>,
    outcome: Option<Outcome>,
}

impl Game {
    /// A game from the Chess960 start position `id`.
    pub fn chess960(id: StartId) -> Game {
        let mut g = Game::from_position(id.position());
        g.start_id = Some(id);
        g
    }

    /// A game from any position (a FEN set-up). Its start ID is found when the position is a
    /// Chess960 start arrangement.
    pub fn from_position(start: Position) -> Game {
        let start_id = StartId::of_board(start.board());
        let mut g = Game {
            start,
            start_id,
            moves: Vec::new(),
            positions: vec![start],
            outcome: None,
        };
        g.outcome = g.automatic_outcome();
        g
    }

    /// The start position.
    pub fn start(&self) -> &Position {
        &self.start
    }

    /// The start position's number, if it is a Chess960 start arrangement.
    pub fn start_id(&self) -> Option<StartId> {
        self.start_id
    }

    /// The moves played.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        self.positions.last().expect("a game always has a position")
    }

    /// All positions, the start first and the current last.
    pub fn positions(&self) -> &[Position] {
        &self.positions
    }

    /// The outcome, once the game is over.
    pub fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    /// Plays a legal move; the outcome is updated (checkmate, stalemate and the automatic
    /// draws end the game by themselves).
    pub fn play(&mut self, m: Move) -> Result<(), GameError> {
        if let Some(o) = self.outcome {
            return Err(GameError::Finished(o));
        }
        if !self.position().is_legal(m) {
            return Err(GameError::IllegalMove(m));
        }
        let next = self.position().play(m);
        self.moves.push(m);
        self.positions.push(next);
        self.outcome = self.automatic_outcome();
        Ok(())
    }

    /// Takes back the last move (also reopening a finished game). Returns it, if there was one.
    pub fn undo(&mut self) -> Option<Move> {
        let m = self.moves.pop()?;
        self.positions.pop();
        self.outcome = self.automatic_outcome();
        Some(m)
    }

    /// How many times the current position has occurred (same placement, side to move,
    /// castling rights and en-passant possibility), counting itself.
    pub fn repetitions(&self) -> usize {
        let current = self.position();
        // Positions before the last capture or pawn move cannot repeat; neither can those
        // with the other side to move.
        let reach = current.halfmoves() as usize;
        self.positions
            .iter()
            .rev()
            .take(reach + 1)
            .step_by(2)
            .filter(|p| p.hash() == current.hash() && same_position(p, current))
            .count()
    }

    /// The draw the player to move may claim now, if any: threefold repetition or the
    /// fifty-move rule.
    pub fn claimable_draw(&self) -> Option<Termination> {
        if self.repetitions() >= 3 {
            Some(Termination::ThreefoldRepetition)
        } else if self.position().halfmoves() >= 100 {
            Some(Termination::FiftyMoves)
        } else {
            None
        }
    }

    /// Claims a draw; refused if none applies.
    pub fn claim_draw(&mut self) -> Result<Outcome, GameError> {
        if let Some(o) = self.outcome {
            return Err(GameError::Finished(o));
        }
        let reason = self.claimable_draw().ok_or(GameError::NoDrawToClaim)?;
        let o = Outcome::Draw { reason };
        self.outcome = Some(o);
        Ok(o)
    }

    /// Ends the game by resignation, time forfeit, agreement or adjudication.
    pub fn finish(&mut self, outcome: Outcome) -> Result<(), GameError> {
        if let Some(o) = self.outcome {
            return Err(GameError::Finished(o));
        }
        self.outcome = Some(outcome);
        Ok(())
    }

    fn automatic_outcome(&self) -> Option<Outcome> {
        let pos = self.position();
        if !pos.has_legal_moves() {
            return Some(if pos.is_check() {
                Outcome::Win {
                    winner: !pos.turn(),
                    reason: Termination::Checkmate,
                }
            } else {
                Outcome::Draw {
                    reason: Termination::Stalemate,
                }
            });
        }
        if pos.is_insufficient_material() {
            return Some(Outcome::Draw {
                reason: Termination::InsufficientMaterial,
            });
        }
        if self.repetitions() >= 5 {
            return Some(Outcome::Draw {
                reason: Termination::FivefoldRepetition,
            });
        }
        if pos.halfmoves() >= 150 {
            return Some(Outcome::Draw {
                reason: Termination::SeventyFiveMoves,
            });
        }
        None
    }
}

/// Exact comparison behind a hash match (hash collisions must not make a false repetition).
fn same_position(a: &Position, b: &Position) -> bool {
    a.board() == b.board()
        && a.turn() == b.turn()
        && a.castling_rights() == b.castling_rights()
        && a.ep_square() == b.ep_square()
}
