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

fn ms(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}

/// The game to store: `event` and `round` (`3.2`: round 3, board 2) in its tags, the moves
/// with both clocks after each, the reason in the store's finish.
pub fn to_import(record: &GameRecord, event: &str, site: &str, round: &str) -> ImportGame {
    let ctx = PgnContext {
        event: event.to_string(),
        site: site.to_string(),
        minimal: false,
    };
    let mut pgn = to_pgn_game(record, &ctx);
    pgn.tags.set("Round", round);
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
