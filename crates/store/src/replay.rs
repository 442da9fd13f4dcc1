//! A stored game played back onto a board: the one place that turns a [`StoredGame`] into a
//! [`Game`] (the server reloading a game, the terminal resuming one), so that both read old
//! and hand-edited databases the same way.

use crate::StoredGame;
use chess960_core::{
    CastlingMode, FenError, Game, GameError, Position, StartId, UciError, Validation,
};
use std::fmt;

/// Why a stored game cannot be played back: the database holds something no program of this
/// project writes (damaged, or edited by hand).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ReplayError {
    /// The start FEN does not read, not even leniently.
    StartFen {
        /// The FEN as stored.
        fen: String,
        /// What is wrong with it.
        error: FenError,
    },
    /// A stored move is not a legal move in the position before it.
    Move {
        /// The half-move, from 1.
        ply: usize,
        /// The move as stored.
        uci: String,
        /// Why it does not read.
        error: MoveError,
    },
}

/// Why one stored move does not play.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MoveError {
    /// Not a legal move in UCI.
    Uci(UciError),
    /// Legal, but the game had already ended.
    Game(GameError),
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveError::Uci(e) => e.fmt(f),
            MoveError::Game(e) => e.fmt(f),
        }
    }
}

impl fmt::Display for ReplayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReplayError::StartFen { fen, error } => {
                write!(f, "stored start position '{fen}': {error}")
            }
            ReplayError::Move { ply, uci, error } => {
                write!(f, "stored half-move {ply} ({uci}): {error}")
            }
        }
    }
}

impl std::error::Error for ReplayError {}

impl StoredGame {
    /// The game on a board, every stored move played.
    ///
    /// Read as forgivingly as the rules allow, because a database outlives the program that
    /// wrote it: a start FEN that only reads leniently (an impossible en-passant square, say)
    /// is accepted, and a move in classical UCI castling form (`e1g1`) is read when the
    /// Chess960 form does not fit. The game knows its start number when the stored number
    /// and the start position agree.
    pub fn replay(&self) -> Result<Game, ReplayError> {
        let fen = &self.game.start_fen;
        let start = Position::from_fen(fen)
            .or_else(|_| Position::from_fen_with(fen, Validation::Lenient))
            .map_err(|error| ReplayError::StartFen {
                fen: fen.clone(),
                error,
            })?;
        let mut game = match self.game.start_id.and_then(|n| StartId::new(n.into()).ok()) {
            Some(id) if id.position() == start => Game::chess960(id),
            _ => Game::from_position(start),
        };
        for (i, rec) in self.moves.iter().enumerate() {
            let bad = |error| ReplayError::Move {
                ply: i + 1,
                uci: rec.uci.clone(),
                error,
            };
            let pos = game.position();
            let m = pos
                .parse_uci(&rec.uci, CastlingMode::Chess960)
                .or_else(|e| {
                    pos.parse_uci(&rec.uci, CastlingMode::Standard)
                        .map_err(|_| e)
                })
                .map_err(|e| bad(MoveError::Uci(e)))?;
            game.play(m).map_err(|e| bad(MoveError::Game(e)))?;
        }
        Ok(game)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{GameId, GameKey, MoveRecord, NewGame, Seats};

    fn stored(start_fen: &str, start_id: Option<u16>, moves: &[&str]) -> StoredGame {
        StoredGame {
            id: GameId(1),
            key: GameKey::parse(&"0".repeat(32)).expect("a key"),
            game: NewGame {
                start_fen: start_fen.into(),
                start_id,
                white: "W".into(),
                black: "B".into(),
                time_control: None,
                clocks: None,
                tags: Vec::new(),
            },
            moves: moves
                .iter()
                .map(|u| MoveRecord {
                    uci: (*u).into(),
                    san: String::new(),
                    clocks: None,
                    played_at_ms: 0,
                })
                .collect(),
            finish: None,
            movetext: None,
            created_at_ms: 0,
            updated_at_ms: 0,
            seats: Seats::NONE,
            players: crate::GamePlayers::NONE,
            offers: crate::Offers::NONE,
        }
    }

    const CLASSICAL: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

    #[test]
    fn plays_every_move_and_knows_the_start_number() {
        let moves = ["e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "g8f6", "e1h1"];
        let game = stored(CLASSICAL, Some(518), &moves)
            .replay()
            .expect("replays");
        assert_eq!(game.moves().len(), 7);
        assert_eq!(game.start_id().map(|i| i.get()), Some(518));
        // Castled: the king on g1, the rook on f1.
        assert!(game
            .position()
            .fen()
            .starts_with("r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQ1RK1 b kq"));
    }

    #[test]
    fn reads_classical_castling_and_a_wrong_start_number() {
        let moves = ["e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "g8f6", "e1g1"];
        // 519 is not this position: the number is not trusted, the position tells.
        let game = stored(CLASSICAL, Some(519), &moves)
            .replay()
            .expect("replays");
        assert_eq!(game.start_id().map(|i| i.get()), Some(518));
        assert!(game.position().fen().contains("RK1 b kq"));
    }

    #[test]
    fn a_start_fen_that_reads_only_leniently() {
        // An en-passant square no pawn could have passed: strict reading refuses it.
        let fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e6 0 1";
        assert!(Position::from_fen(fen).is_err());
        assert_eq!(
            stored(fen, None, &["e2e4"])
                .replay()
                .map(|g| g.moves().len()),
            Ok(1)
        );
    }

    #[test]
    fn names_the_bad_move_and_the_bad_start() {
        let err = stored(CLASSICAL, None, &["e2e4", "e2e4"])
            .replay()
            .unwrap_err();
        assert!(matches!(err, ReplayError::Move { ply: 2, .. }), "{err:?}");
        assert!(
            err.to_string().starts_with("stored half-move 2 (e2e4): "),
            "{err}"
        );
        let err = stored("not a fen", None, &[]).replay().unwrap_err();
        assert!(matches!(err, ReplayError::StartFen { .. }), "{err:?}");
        assert!(err.to_string().contains("'not a fen'"), "{err}");
    }
}
