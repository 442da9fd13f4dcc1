//! What an engine event needs next, read from the event alone: the arbiter's next act (pair,
//! draw a position, add tiebreak games), the games to play, or the end.

use chess960_events::event::Event;
use chess960_events::knockout::MatchState;

/// The next thing to do for an engine event.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Step {
    /// Pair this round.
    Pair(u32),
    /// Draw this round's position (or its boards' positions).
    DrawRound(u32),
    /// Draw the position of a knockout round's tiebreak stage: `(round, stage)`.
    DrawStage(u32, u32),
    /// Add the next tiebreak stage to a knockout round's tied matches.
    Tiebreaks(u32),
    /// Play these boards of this round (both players engines, no result, no game yet).
    Play(u32, Vec<u32>),
    /// Nothing can go on without the arbiter: why.
    Wait(String),
    /// Every round is played.
    Finished,
}

/// Whether the player is an engine.
fn is_engine(e: &Event, player: usize) -> bool {
    e.players.get(player).is_some_and(|p| p.engine.is_some())
}

/// The next step of `e`. Rounds are played in order: the first paired round with a board
/// lacking its result is the one to finish (its position drawn first); a round complete,
/// a knockout's tied matches get their tiebreaks; then the next round is paired.
pub fn next_step(e: &Event) -> Step {
    if !e.players.iter().any(|p| p.engine.is_some()) {
        return Step::Wait("no player of this event is an engine".into());
    }
    let paired = e.rounds_paired();
    let knockout = e.knockout_plan().is_some();
    for r in 1..=paired {
        let round = &e.played[r as usize - 1];
        let open = round.boards_without_result();
        for &b in &open {
            if e.board_position(r, b).is_none() {
                let board = &round.boards[b as usize - 1];
                return match board.slot {
                    Some(s) if s.stage > 0 => Step::DrawStage(r, s.stage),
                    _ => Step::DrawRound(r),
                };
            }
        }
        if !open.is_empty() {
            let playable: Vec<u32> = open
                .iter()
                .copied()
                .filter(|&b| {
                    let board = &round.boards[b as usize - 1];
                    board.game.is_none() && is_engine(e, board.white) && is_engine(e, board.black)
                })
                .collect();
            if !playable.is_empty() {
                return Step::Play(r, playable);
            }
            let b = open[0];
            let board = &round.boards[b as usize - 1];
            let why = if board.game.is_some() {
                "its game on the server is not over".to_string()
            } else {
                let person = if is_engine(e, board.white) {
                    board.black
                } else {
                    board.white
                };
                let name = e.players.get(person).map_or("?", |p| p.name.as_str());
                format!("{name} is not an engine: the arbiter enters its result")
            };
            return Step::Wait(format!("round {r}, board {b}: {why}"));
        }
        if knockout {
            let tied = e.bracket().get(r as usize - 1).is_some_and(|matches| {
                matches
                    .iter()
                    .any(|m| matches!(m.state, MatchState::Tied { .. }))
            });
            if tied {
                return Step::Tiebreaks(r);
            }
        }
    }
    if paired < e.total_rounds() {
        return Step::Pair(paired + 1);
    }
    Step::Finished
}
