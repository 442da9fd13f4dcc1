//! A game the referee finished, as the database keeps it: the PGN the match runner writes
//! (each move with its engine's evaluation, depth and time; the reason the game ended), the
//! clocks after each move, the event's name and the round and board.

use chess960_arena::pgnout::{to_pgn_game, PgnContext};
use chess960_arena::referee::{GameRecord, GameResult};
use chess960_arena::timecontrol::Clock;
use chess960_events::round::BoardResult;
use chess960_store::{Clocks, Finish, ImportGame};
use std::time::{Duration, UNIX_EPOCH};

/// The result of a finished game as the event's result of the board; `None` for a game
/// stopped before its end. A game an engine lost by a fault (a crash, an illegal move, its
/// time) was played and lost: it is a loss, not a forfeit (`+/-` is a game not played).
pub fn board_result(record: &GameRecord) -> Option<BoardResult> {
    match record.result {
        GameResult::WhiteWins => Some(BoardResult::WhiteWins),
        GameResult::BlackWins => Some(BoardResult::BlackWins),
        GameResult::Draw => Some(BoardResult::Draw),
        GameResult::Unknown => None,
    }
}

/// The value of `WhiteType` / `BlackType` for an engine.
const PROGRAM: &str = "program";

fn ms(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}

/// The game to store: `event` and `round` (`3.2`: round 3, board 2) in its tags, the moves
/// with both clocks after each, the reason in the store's finish. Both players are
/// `WhiteType` / `BlackType` `program` (the PGN standard's word for an engine), so that the
/// server shows the engines that played the game, and never takes a side for a person or for
/// its own engine.
pub fn to_import(record: &GameRecord, event: &str, site: &str, round: &str) -> ImportGame {
    let ctx = PgnContext {
        event: event.to_string(),
        site: site.to_string(),
        minimal: false,
    };
    let mut pgn = to_pgn_game(record, &ctx);
    pgn.tags.set("Round", round);
    // The referee plays engines only: a person's board is not played here.
    pgn.tags.set("WhiteType", PROGRAM);
    pgn.tags.set("BlackType", PROGRAM);
    let mut import = chess960_store::pgn::from_pgn(&pgn);
    // The clocks as the referee kept them, and when each move was played.
    let limits = record.setup.limits;
    let mut clocks = [Clock::new(limits[0]), Clock::new(limits[1])];
    let timed = limits[0].clock.is_some() && limits[1].clock.is_some();
    let mut at = record
        .started
        .duration_since(UNIX_EPOCH)
        .unwrap_or_default();
    if timed {
        import.game.clocks = Some(Clocks {
            white_ms: ms(clocks[0].left()),
            black_ms: ms(clocks[1].left()),
        });
    }
    let mut turn = record.setup.opening.start.turn();
    for (stored, played) in import.moves.iter_mut().zip(&record.moves) {
        // A late move charged past the clock is the game's last: its clock shows zero.
        let _ = clocks[turn.index()].charge(played.elapsed);
        at += played.elapsed;
        stored.played_at_ms = i64::try_from(at.as_millis()).unwrap_or(i64::MAX);
        stored.clocks = timed.then(|| Clocks {
            white_ms: ms(clocks[0].left()),
            black_ms: ms(clocks[1].left()),
        });
        turn = !turn;
    }
    if let Some(f) = &mut import.finish {
        f.reason = record.reason.clone();
    } else if record.result != GameResult::Unknown {
        import.finish = Some(Finish {
            result: record.result,
            reason: record.reason.clone(),
        });
    }
    import
}

#[cfg(test)]
mod tests {
    use super::*;
    use chess960_arena::engine::SearchInfo;
    use chess960_arena::referee::{Adjudication, GameSetup, MoveRecord, Opening, TerminationKind};
    use chess960_arena::timecontrol::{parse_tc, Limits};
    use chess960_core::StartId;

    #[test]
    fn both_players_of_a_stored_game_are_programs() {
        let opening = Opening::from_id(StartId::new(518).unwrap());
        let e4 = opening.start.parse_san("e4").unwrap();
        let limits = Limits {
            clock: parse_tc("60+1").unwrap(),
            ..Limits::default()
        };
        let record = GameRecord {
            setup: GameSetup {
                number: 1,
                round: 1,
                opening,
                names: ["Stockfish".into(), "Komodo".into()],
                limits: [limits, limits],
                timeouts: [Duration::from_secs(1); 2],
                adjudication: Adjudication::default(),
            },
            moves: vec![MoveRecord {
                mv: e4,
                san: "e4".into(),
                book: false,
                info: SearchInfo::default(),
                elapsed: Duration::from_millis(800),
            }],
            result: GameResult::BlackWins,
            termination: TerminationKind::Abandoned,
            reason: "White's engine crashed".into(),
            fault: None,
            started: UNIX_EPOCH,
            duration: Duration::from_secs(3),
        };
        let import = to_import(&record, "Engines", "here", "1.1");
        let tag = |name: &str| {
            import
                .game
                .tags
                .iter()
                .find(|(n, _)| n == name)
                .map(|(_, v)| v.as_str())
        };
        assert_eq!(
            (import.game.white.as_str(), import.game.black.as_str()),
            ("Stockfish", "Komodo")
        );
        assert_eq!(tag("WhiteType"), Some("program"));
        assert_eq!(tag("BlackType"), Some("program"));
        assert_eq!(tag("Round"), Some("1.1"));
    }
}
