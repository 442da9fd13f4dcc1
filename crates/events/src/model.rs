//! What a Swiss pairing reads: the players in pairing-number order and what each did in each
//! round so far.

/// A side of the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Color {
    /// White.
    White,
    /// Black.
    Black,
}

impl Color {
    /// The other colour.
    pub fn flip(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }
}

/// A played game's result for one player.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Won.
    Win,
    /// Drew.
    Draw,
    /// Lost.
    Loss,
}

/// A round without a game that the player was not paired in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ByeKind {
    /// A half-point bye (TRF `H`): a draw's points.
    Half,
    /// A full-point bye (TRF `F`): a win's points.
    Full,
    /// Absent, or a zero-point bye (TRF `Z`, or no entry).
    Zero,
}

/// One player's record in one round.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Round {
    /// A game played against `opponent` (an index into the players).
    Played {
        /// The opponent.
        opponent: usize,
        /// This player's colour.
        color: Color,
        /// This player's result.
        outcome: Outcome,
    },
    /// Paired against `opponent`, but the game was not played: a forfeit. Both sides may lose
    /// (a double forfeit). It is no game: the two may be paired again and the colour does not
    /// count.
    Forfeit {
        /// The opponent.
        opponent: usize,
        /// The colour the pairing gave (TRF may leave it out: `-`).
        color: Option<Color>,
        /// Whether this player got the win.
        won: bool,
    },
    /// The pairing-allocated bye (TRF `U`): a win's points (or the event's PAB value).
    PairingBye,
    /// Not paired in this round.
    Bye(ByeKind),
}

impl Round {
    /// Whether a game was played.
    pub fn played(&self) -> bool {
        matches!(self, Round::Played { .. })
    }

    /// Whether the player took part in this round's pairing (a game, a forfeit or the PAB).
    pub fn paired(&self) -> bool {
        !matches!(self, Round::Bye(_))
    }

    /// The opponent of a game or forfeit.
    pub fn opponent(&self) -> Option<usize> {
        match *self {
            Round::Played { opponent, .. } | Round::Forfeit { opponent, .. } => Some(opponent),
            _ => None,
        }
    }

    /// The colour of a played game.
    pub fn played_color(&self) -> Option<Color> {
        match *self {
            Round::Played { color, .. } => Some(color),
            _ => None,
        }
    }
}

/// Points in tenths (a win 10, a draw 5, by default), as TRF's `162` line sets them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PointSystem {
    /// A won game or a forfeit win; a full-point bye.
    pub win: u32,
    /// A drawn game; a half-point bye.
    pub draw: u32,
    /// A lost game.
    pub loss: u32,
    /// A zero-point bye or an absence.
    pub zero_bye: u32,
    /// A forfeit loss.
    pub forfeit_loss: u32,
    /// The pairing-allocated bye.
    pub pab: u32,
}

impl Default for PointSystem {
    fn default() -> PointSystem {
        PointSystem {
            win: 10,
            draw: 5,
            loss: 0,
            zero_bye: 0,
            forfeit_loss: 0,
            pab: 10,
        }
    }
}

impl PointSystem {
    /// The points a round gives.
    pub fn points(&self, r: &Round) -> u32 {
        match *r {
            Round::Played {
                outcome: Outcome::Win,
                ..
            } => self.win,
            Round::Played {
                outcome: Outcome::Draw,
                ..
            } => self.draw,
            Round::Played {
                outcome: Outcome::Loss,
                ..
            } => self.loss,
            Round::Forfeit { won: true, .. } => self.win,
            Round::Forfeit { won: false, .. } => self.forfeit_loss,
            Round::PairingBye => self.pab,
            Round::Bye(ByeKind::Full) => self.win,
            Round::Bye(ByeKind::Half) => self.draw,
            Round::Bye(ByeKind::Zero) => self.zero_bye,
        }
    }
}

/// One player of a Swiss: the rounds so far, in order.
#[derive(Clone, Debug, PartialEq)]
pub struct SwissPlayer {
    /// The rounds played so far (every player has one entry per round).
    pub rounds: Vec<Round>,
    /// Absent from the round being paired (a bye requested, withdrawn, not yet arrived).
    pub absent: bool,
    /// Virtual points of an accelerated pairing (FIDE C.04.5), by round: index `k` is added
    /// to the player's score for pairing round `k + 1`; rounds past the end add nothing.
    /// They count for pairing only, never in standings or tie-breaks (see
    /// [`crate::accel`]).
    pub acceleration: Vec<u32>,
}

impl SwissPlayer {
    /// The virtual points for pairing round `round` (from 1; 0 outside the list).
    pub fn virtual_points(&self, round: usize) -> u32 {
        round
            .checked_sub(1)
            .and_then(|k| self.acceleration.get(k))
            .copied()
            .unwrap_or(0)
    }
}

/// The history a Swiss round is paired from.
#[derive(Clone, Debug, PartialEq)]
pub struct SwissHistory {
    /// The players in pairing-number order (the initial ranking list).
    pub players: Vec<SwissPlayer>,
    /// Rounds the event will have (the last round lifts some colour rules for topscorers).
    pub total_rounds: usize,
    /// The points.
    pub points: PointSystem,
    /// The colour of pairing number 1 in round 1 (drawn by lot before the event).
    pub initial_color: Color,
}

impl SwissHistory {
    /// Rounds played so far.
    pub fn rounds_played(&self) -> usize {
        self.players.first().map_or(0, |p| p.rounds.len())
    }
}

/// A round's pairing: the boards in publication order and the pairing-allocated bye.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pairing {
    /// `(white, black)` by player index, board 1 first.
    pub boards: Vec<(usize, usize)>,
    /// The player who gets the pairing-allocated bye.
    pub bye: Option<usize>,
}
