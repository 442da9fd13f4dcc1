//! The referee: plays one game between two running engines.
//!
//! Every move is checked with the rules core; the clocks are kept here, from the moment an
//! engine is told to move to its reply; the game ends on the rules (checkmate, stalemate,
//! threefold repetition and the fifty-move rule claimed on the players' behalf, insufficient
//! material), on `-draw`/`-resign`/`-maxmoves` adjudication, or on a fault of one engine (time,
//! illegal move, crash, hang, garbage), which loses it the game with the reason recorded.

use crate::engine::{side_name, Action, Engine, Fault, SearchInfo, Turn, Watch};
use crate::timecontrol::{seconds, Clock, Limits};
use chess960_core::{Color, Game, Move, Outcome, Position, StartId, Termination};
use serde::Serialize;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant, SystemTime};

/// Where a game starts: a position and book moves played from it.
#[derive(Debug, Clone)]
pub struct Opening {
    /// The position the game starts from (written to the PGN `FEN` tag).
    pub start: Position,
    /// Book moves, played before the engines take over.
    pub moves: Vec<Move>,
    /// How to name the opening in messages: `start 518`, `openings.epd:12`.
    pub label: String,
}

impl Opening {
    /// The Chess960 start position `id`, no book moves.
    pub fn from_id(id: StartId) -> Opening {
        Opening {
            start: id.position(),
            moves: Vec::new(),
            label: format!("start {id}"),
        }
    }

    /// The start position's ID, if the opening starts from a Chess960 start arrangement.
    pub fn start_id(&self) -> Option<StartId> {
        StartId::of_board(self.start.board())
    }
}

/// `-draw movenumber=N movecount=M score=S`: a draw once both engines' scores have stayed
/// within ±S centipawns for M consecutive moves each, from move N on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DrawRule {
    /// The first full move at which the rule may apply.
    pub move_number: u32,
    /// Consecutive moves (per side) within the bound.
    pub move_count: u32,
    /// The bound, in centipawns.
    pub score: i32,
}

/// `-resign movecount=M score=S [twosided=true]`: a loss for an engine whose score has been
/// at or below −S for M consecutive moves of its own (with `twosided`, the opponent must also
/// have seen at least +S for as long).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ResignRule {
    /// Consecutive moves.
    pub move_count: u32,
    /// The bound, in centipawns.
    pub score: i32,
    /// Both engines must agree.
    pub two_sided: bool,
}

/// All adjudication rules of a match.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Adjudication {
    /// `-draw`.
    pub draw: Option<DrawRule>,
    /// `-resign`.
    pub resign: Option<ResignRule>,
    /// `-maxmoves N`: a draw after N full moves.
    pub max_moves: Option<u32>,
}

/// The result of a game: `*` ([`GameResult::Unknown`]) for a game stopped before its end.
pub use chess960_core::GameResult;

/// The PGN `Termination` tag (PGN standard §9.8.1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum TerminationKind {
    /// Ended by the rules or a resignation.
    Normal,
    /// Ended by the adjudication rules.
    Adjudication,
    /// A player ran out of time.
    TimeForfeit,
    /// Illegal move, garbage, false claim.
    RulesInfraction,
    /// An engine crashed, hung or could not be started.
    Abandoned,
    /// Stopped before the end.
    Unterminated,
}

impl TerminationKind {
    /// The tag's value.
    pub fn pgn(self) -> &'static str {
        match self {
            TerminationKind::Normal => "normal",
            TerminationKind::Adjudication => "adjudication",
            TerminationKind::TimeForfeit => "time forfeit",
            TerminationKind::RulesInfraction => "rules infraction",
            TerminationKind::Abandoned => "abandoned",
            TerminationKind::Unterminated => "unterminated",
        }
    }
}

/// One move of the game record.
#[derive(Debug, Clone)]
pub struct MoveRecord {
    /// The move.
    pub mv: Move,
    /// In SAN.
    pub san: String,
    /// A book move (not played by an engine).
    pub book: bool,
    /// What the engine said about it.
    pub info: SearchInfo,
    /// How long the engine took.
    pub elapsed: Duration,
}

impl MoveRecord {
    /// The PGN comment as cutechess writes it: `+0.35/12 0.8s`, or `book`.
    pub fn comment(&self) -> String {
        if self.book {
            return "book".to_string();
        }
        let mut s = String::new();
        if let Some(score) = self.info.score {
            s.push_str(&score.pgn());
            if let Some(d) = self.info.depth {
                s.push_str(&format!("/{d}"));
            }
            s.push(' ');
        }
        s.push_str(&seconds(self.elapsed));
        s.push('s');
        s
    }
}

/// What the runner passes for one game.
#[derive(Debug, Clone)]
pub struct GameSetup {
    /// The game's number in the match (from 1).
    pub number: usize,
    /// The round (from 1).
    pub round: u32,
    /// Where the game starts.
    pub opening: Opening,
    /// The engines' names, White first.
    pub names: [String; 2],
    /// Their limits, White first.
    pub limits: [Limits; 2],
    /// How long to wait for an untimed reply, White first (the engines' `timeout=`).
    pub timeouts: [Duration; 2],
    /// The adjudication rules.
    pub adjudication: Adjudication,
}

/// A finished (or stopped) game.
#[derive(Debug, Clone)]
pub struct GameRecord {
    /// The setup it was played with.
    pub setup: GameSetup,
    /// The moves, book moves first.
    pub moves: Vec<MoveRecord>,
    /// The result.
    pub result: GameResult,
    /// The PGN termination.
    pub termination: TerminationKind,
    /// Why it ended, in words: `White mates`, `Black loses on time`, `White's engine crashed
    /// (exit status 3)`.
    pub reason: String,
    /// The engine at fault, if one was, and what it did.
    pub fault: Option<(Color, Fault)>,
    /// When the game started.
    pub started: SystemTime,
    /// How long it took.
    pub duration: Duration,
}

impl GameRecord {
    /// A game that could not begin because `color`'s engine failed (e.g. it could not be
    /// started): lost by that engine, or unfinished if the match is being stopped.
    pub fn forfeited(setup: GameSetup, color: Color, fault: Fault) -> GameRecord {
        let mut r = GameRecord {
            moves: book_records(&setup.opening),
            setup,
            result: GameResult::Unknown,
            termination: TerminationKind::Unterminated,
            reason: String::new(),
            fault: None,
            started: SystemTime::now(),
            duration: Duration::ZERO,
        };
        r.apply_fault(color, fault, None);
        r
    }

    fn apply_fault(&mut self, color: Color, fault: Fault, pos: Option<&Position>) {
        let side = side_name(color);
        let (result, termination, reason) = match &fault {
            Fault::Stopped => (
                GameResult::Unknown,
                TerminationKind::Unterminated,
                "match stopped before the game ended".to_string(),
            ),
            Fault::NoReply { .. } if self.setup.limits[color.index()].is_timed() => {
                time_loss(color, pos)
            }
            Fault::Crashed { .. }
            | Fault::NoReply { .. }
            | Fault::Startup(_)
            | Fault::Unsupported(_) => (
                GameResult::win(!color),
                TerminationKind::Abandoned,
                format!("{side}'s engine {fault}"),
            ),
            Fault::IllegalMove { .. } | Fault::Garbage { .. } | Fault::RejectedMove { .. } => (
                GameResult::win(!color),
                TerminationKind::RulesInfraction,
                format!("{side}'s engine {fault}"),
            ),
        };
        self.result = result;
        self.termination = termination;
        self.reason = reason;
        if fault != Fault::Stopped {
            self.fault = Some((color, fault));
        }
    }

    /// The position after the last move.
    pub fn final_position(&self) -> Position {
        let mut p = self.setup.opening.start;
        for m in &self.moves {
            p = p.play(m.mv);
        }
        p
    }
}

/// A loss on time, or a draw when the opponent has nothing to mate with (FIDE 6.9).
fn time_loss(color: Color, pos: Option<&Position>) -> (GameResult, TerminationKind, String) {
    let side = side_name(color);
    let outcome = pos.map(|p| chess960_core::Outcome::on_time(color, p));
    if matches!(outcome, Some(chess960_core::Outcome::Draw { .. })) {
        (
            GameResult::Draw,
            TerminationKind::TimeForfeit,
            format!(
                "{side} loses on time, but {} cannot mate: draw",
                side_name(!color)
            ),
        )
    } else {
        (
            GameResult::win(!color),
            TerminationKind::TimeForfeit,
            format!("{side} loses on time"),
        )
    }
}

fn book_records(opening: &Opening) -> Vec<MoveRecord> {
    let mut pos = opening.start;
    let mut out = Vec::new();
    for &m in &opening.moves {
        if !pos.is_legal(m) {
            break;
        }
        out.push(MoveRecord {
            mv: m,
            san: pos.san(m),
            book: true,
            info: SearchInfo::default(),
            elapsed: Duration::ZERO,
        });
        pos = pos.play(m);
    }
    out
}

/// Score streaks for adjudication.
#[derive(Debug, Default)]
struct Streaks {
    /// Consecutive engine moves whose score was within the draw bound.
    draw: u32,
    /// Per side: consecutive own moves at or below −resign score.
    losing: [u32; 2],
    /// Per side: consecutive own moves at or above +resign score.
    winning: [u32; 2],
}

/// Plays one game. The engines must have been started; the one at fault (if any) is named in
/// the record, and the runner restarts it.
pub fn play_game(
    white: &mut Engine,
    black: &mut Engine,
    setup: GameSetup,
    stop: &AtomicBool,
) -> GameRecord {
    play_game_watched(white, black, setup, stop, None)
}

/// [`play_game`], telling `watch` of every search report and every move as the game goes (a
/// live broadcast).
pub fn play_game_watched(
    white: &mut Engine,
    black: &mut Engine,
    setup: GameSetup,
    stop: &AtomicBool,
    watch: Option<&dyn Watch>,
) -> GameRecord {
    let started_at = SystemTime::now();
    let t0 = Instant::now();
    let mut game = Game::from_position(setup.opening.start);
    let moves = book_records(&setup.opening);
    for m in &moves {
        // Book moves were checked when the openings were read; a game over in book stays over.
        if game.play(m.mv).is_err() {
            break;
        }
    }
    let mut record = GameRecord {
        setup,
        moves,
        result: GameResult::Unknown,
        termination: TerminationKind::Unterminated,
        reason: String::new(),
        fault: None,
        started: started_at,
        duration: Duration::ZERO,
    };

    let start = *game.start();
    let ready = white
        .new_game(&start, Color::White, stop)
        .map_err(|f| (Color::White, f))
        .and_then(|()| {
            black
                .new_game(&start, Color::Black, stop)
                .map_err(|f| (Color::Black, f))
        });
    if let Err((color, f)) = ready {
        record.apply_fault(color, f, None);
        record.duration = t0.elapsed();
        tell_result(white, black, &record);
        return record;
    }

    let mut clocks = [
        Clock::new(record.setup.limits[0]),
        Clock::new(record.setup.limits[1]),
    ];
    let mut streaks = Streaks::default();
    let adj = record.setup.adjudication;
    loop {
        if let Some(outcome) = game.outcome() {
            finish_by_rules(&mut record, outcome);
            break;
        }
        if let Some(reason) = game.claimable_draw() {
            finish_by_rules(&mut record, Outcome::Draw { reason });
            break;
        }
        if let Some(n) = adj.max_moves {
            if game.moves().len() >= 2 * n as usize {
                record.result = GameResult::Draw;
                record.termination = TerminationKind::Adjudication;
                record.reason = format!("adjudication: draw after {n} moves (-maxmoves)");
                break;
            }
        }
        if stop.load(Ordering::Relaxed) {
            record.apply_fault(Color::White, Fault::Stopped, None);
            break;
        }
        let side = game.position().turn();
        let idx = side.index();
        let wait = clocks[idx].budget().unwrap_or(record.setup.timeouts[idx]);
        let turn = Turn {
            game: &game,
            white: &clocks[0],
            black: &clocks[1],
            wait,
            stop,
            watch,
        };
        let engine: &mut Engine = match side {
            Color::White => white,
            Color::Black => black,
        };
        let reply = match engine.think(&turn) {
            Ok(r) => r,
            Err(f) => {
                let pos = *game.position();
                record.apply_fault(side, f, Some(&pos));
                break;
            }
        };
        if clocks[idx].charge(reply.elapsed).is_err() {
            let (result, termination, reason) = time_loss(side, Some(game.position()));
            record.result = result;
            record.termination = termination;
            record.reason = reason;
            // It answered, late: no need to restart it.
            break;
        }
        match reply.action {
            Action::Move(m) => {
                let pos = *game.position();
                if game.play(m).is_err() {
                    // The protocol layer checked legality; this is a safety net only.
                    record.apply_fault(
                        side,
                        Fault::IllegalMove {
                            text: format!("{m:?}"),
                            reason: "not legal in this position".to_string(),
                        },
                        Some(&pos),
                    );
                    break;
                }
                record.moves.push(MoveRecord {
                    mv: m,
                    san: pos.san(m),
                    book: false,
                    info: reply.info.clone(),
                    elapsed: reply.elapsed,
                });
                if let (Some(w), Some(last)) = (watch, record.moves.last()) {
                    let clocks = [clocks[0].left(), clocks[1].left()];
                    w.moved(last.mv, &last.san, &last.info, last.elapsed, clocks);
                }
                if let Some(end) = adjudicate(&adj, &mut streaks, side, &reply.info, &game) {
                    let (result, reason) = end;
                    record.result = result;
                    record.termination = TerminationKind::Adjudication;
                    record.reason = reason;
                    break;
                }
            }
            Action::Resign => {
                record.result = GameResult::win(!side);
                record.termination = TerminationKind::Normal;
                record.reason = format!("{} resigns", side_name(side));
                break;
            }
            Action::Claim { result, comment } => {
                let own_loss = match side {
                    Color::White => "0-1",
                    Color::Black => "1-0",
                };
                if result == own_loss {
                    record.result = GameResult::win(!side);
                    record.termination = TerminationKind::Normal;
                    record.reason = format!("{} resigns", side_name(side));
                } else {
                    // Every true claim (mate, stalemate, repetition, fifty moves) is already
                    // settled by the referee before the engine is asked to move.
                    record.result = GameResult::win(!side);
                    record.termination = TerminationKind::RulesInfraction;
                    record.reason = format!(
                        "{}'s engine made a false claim: {result} {{{}}}",
                        side_name(side),
                        crate::process::excerpt(&comment, 60)
                    );
                }
                break;
            }
        }
    }
    record.duration = t0.elapsed();
    tell_result(white, black, &record);
    record
}

fn tell_result(white: &mut Engine, black: &mut Engine, record: &GameRecord) {
    let faulty = record.fault.as_ref().map(|(c, _)| *c);
    if faulty != Some(Color::White) {
        white.game_over(record.result.as_str(), &record.reason);
    }
    if faulty != Some(Color::Black) {
        black.game_over(record.result.as_str(), &record.reason);
    }
}

fn finish_by_rules(record: &mut GameRecord, outcome: Outcome) {
    record.termination = TerminationKind::Normal;
    match outcome {
        Outcome::Win { winner, reason } => {
            record.result = GameResult::win(winner);
            record.reason = match reason {
                Termination::Checkmate => format!("{} mates", side_name(winner)),
                other => format!("{} wins by {}", side_name(winner), other.describe()),
            };
        }
        Outcome::Draw { reason } => {
            record.result = GameResult::Draw;
            record.reason = match reason {
                Termination::Stalemate => "Draw by stalemate".to_string(),
                Termination::ThreefoldRepetition => "Draw by 3-fold repetition".to_string(),
                Termination::FivefoldRepetition => "Draw by 5-fold repetition".to_string(),
                Termination::FiftyMoves => "Draw by fifty moves rule".to_string(),
                Termination::SeventyFiveMoves => "Draw by 75 moves rule".to_string(),
                Termination::InsufficientMaterial => {
                    "Draw by insufficient mating material".to_string()
                }
                other => format!("Draw by {}", other.describe()),
            };
        }
    }
}

/// Updates the score streaks after `side`'s move and applies `-resign` and `-draw`.
fn adjudicate(
    adj: &Adjudication,
    streaks: &mut Streaks,
    side: Color,
    info: &SearchInfo,
    game: &Game,
) -> Option<(GameResult, String)> {
    let i = side.index();
    match info.score.map(|s| s.centipawns()) {
        Some(cp) => {
            if let Some(d) = adj.draw {
                if cp.abs() <= d.score {
                    streaks.draw += 1;
                } else {
                    streaks.draw = 0;
                }
            }
            if let Some(r) = adj.resign {
                streaks.losing[i] = if cp <= -r.score {
                    streaks.losing[i] + 1
                } else {
                    0
                };
                streaks.winning[i] = if cp >= r.score {
                    streaks.winning[i] + 1
                } else {
                    0
                };
            }
        }
        None => {
            streaks.draw = 0;
            streaks.losing[i] = 0;
            streaks.winning[i] = 0;
        }
    }
    if let Some(r) = adj.resign {
        for loser in [side, !side] {
            let l = loser.index();
            let w = (!loser).index();
            if streaks.losing[l] >= r.move_count
                && (!r.two_sided || streaks.winning[w] >= r.move_count)
            {
                return Some((
                    GameResult::win(!loser),
                    format!(
                        "adjudication: {} wins by score ({} at -{} or worse for {} moves)",
                        side_name(!loser),
                        side_name(loser),
                        crate::engine::Score::Cp(r.score)
                            .pgn()
                            .trim_start_matches('+'),
                        r.move_count
                    ),
                ));
            }
        }
    }
    if let Some(d) = adj.draw {
        let full_moves = (game.moves().len() / 2) as u32;
        if full_moves >= d.move_number && streaks.draw >= 2 * d.move_count {
            return Some((GameResult::Draw, "adjudication: draw by score".to_string()));
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Score;

    #[test]
    fn comments_like_cutechess() {
        let pos = StartId::new(518).unwrap().position();
        let m = pos.parse_san("e4").unwrap();
        let mut r = MoveRecord {
            mv: m,
            san: "e4".into(),
            book: false,
            info: SearchInfo {
                score: Some(Score::Cp(35)),
                depth: Some(12),
                ..SearchInfo::default()
            },
            elapsed: Duration::from_millis(800),
        };
        assert_eq!(r.comment(), "+0.35/12 0.8s");
        r.info = SearchInfo::default();
        assert_eq!(r.comment(), "0.8s");
        r.book = true;
        assert_eq!(r.comment(), "book");
    }

    #[test]
    fn adjudication_streaks() {
        let game = Game::chess960(StartId::new(518).unwrap());
        let adj = Adjudication {
            resign: Some(ResignRule {
                move_count: 2,
                score: 500,
                two_sided: false,
            }),
            draw: Some(DrawRule {
                move_number: 0,
                move_count: 2,
                score: 10,
            }),
            max_moves: None,
        };
        let mut s = Streaks::default();
        let info = |cp| SearchInfo {
            score: Some(Score::Cp(cp)),
            ..SearchInfo::default()
        };
        assert!(adjudicate(&adj, &mut s, Color::White, &info(-600), &game).is_none());
        assert!(adjudicate(&adj, &mut s, Color::Black, &info(600), &game).is_none());
        let (res, why) = adjudicate(&adj, &mut s, Color::White, &info(-700), &game).unwrap();
        assert_eq!(res, GameResult::BlackWins);
        assert!(why.contains("Black wins by score"), "{why}");

        let mut s = Streaks::default();
        for (i, c) in [Color::White, Color::Black, Color::White]
            .into_iter()
            .enumerate()
        {
            assert!(adjudicate(&adj, &mut s, c, &info(i as i32), &game).is_none());
        }
        let (res, _) = adjudicate(&adj, &mut s, Color::Black, &info(-5), &game).unwrap();
        assert_eq!(res, GameResult::Draw);
    }

    #[test]
    fn start_ids_of_openings() {
        let o = Opening::from_id(StartId::new(0).unwrap());
        assert_eq!(o.start_id(), Some(StartId::new(0).unwrap()));
        let later = o.start.play(o.start.parse_san("e4").unwrap());
        let o2 = Opening {
            start: later,
            moves: vec![],
            label: String::new(),
        };
        assert_eq!(o2.start_id(), None);
    }
}
