//! An in-process player: the engine as a function call, for programs that embed it (the web
//! server, the terminal player) instead of talking UCI to a child process.
//!
//! A [`Player`] owns one transposition table, reused from move to move of a game. Give it the
//! game's start position and the moves so far, a [`Level`], the clocks if the game is timed,
//! and a stop flag; it searches on the calling thread (run it on a thread of its own where
//! blocking matters) and returns the move it plays, calling back after each completed
//! iteration with a [`Thinking`] report. [`Player::analyse`] evaluates a position to a depth or
//! for a time.
//!
//! ```
//! use chess960_core::StartId;
//! use chess960_engine::player::{Level, Player};
//! use std::sync::atomic::AtomicBool;
//!
//! let player = Player::new(1);
//! let start = StartId::new(518).unwrap().position();
//! let stop = AtomicBool::new(false);
//! let chosen = player
//!     .choose_move(&start, &[], Level::Depth(3), None, &stop, |_| {})
//!     .unwrap();
//! assert!(start.is_legal(chosen.mv));
//! ```

use crate::levels::nodes_for_elo;
use crate::nnue::{self, Network};
use crate::search::{Limits, Report, Searcher, Shared, TableEval, MATE, MATE_BOUND};
use crate::time::{self, Clock, Deadlines};
use chess960_core::{Color, Move, Position};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// How strongly to play.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Level {
    /// About this rating on the scale of Stockfish's `UCI_Elo`: the search is capped at
    /// [`nodes_for_elo`] nodes per move (the calibrated `UCI_Elo` mapping of the UCI engine,
    /// [`ELO_MIN`](crate::levels::ELO_MIN)..=[`ELO_MAX`](crate::levels::ELO_MAX)).
    Elo(u32),
    /// A fixed search depth in plies (1 or more).
    Depth(u32),
    /// Full strength: the engine's normal search with the net and no node cap, as the
    /// unlimited UCI engine plays. With a clock it manages its own time (as `go wtime btime`
    /// would) and never thinks longer than `movetime` on a move; without one it thinks up to
    /// `movetime` on every move. The range offered to players is
    /// [`FULL_MOVETIME_MIN`]..=[`FULL_MOVETIME_MAX`]; here any time is taken (at least 1 ms).
    Full {
        /// The longest a move may take.
        movetime: Duration,
    },
}

/// The shortest time per move of [`Level::Full`] that players are offered.
pub const FULL_MOVETIME_MIN: Duration = Duration::from_millis(100);
/// The longest time per move of [`Level::Full`] that players are offered.
pub const FULL_MOVETIME_MAX: Duration = Duration::from_millis(10_000);
/// The time per move of [`Level::Full`] when none is asked for.
pub const FULL_MOVETIME_DEFAULT: Duration = Duration::from_millis(1_000);

/// The clock of the side the engine plays, for a timed game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlayClock {
    /// Time left on the engine's clock.
    pub remaining: Duration,
    /// Increment added after each move.
    pub increment: Duration,
}

/// A score from one side's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// Centipawns.
    Cp(i32),
    /// Mate in this many moves (not plies); negative when that side is mated. `Mate(0)`: the
    /// side is checkmated on the board.
    Mate(i32),
}

impl Score {
    /// Converts an engine score (side to move's view, in internal units) to a score.
    pub fn from_internal(score: i32) -> Score {
        if score >= MATE_BOUND {
            Score::Mate((MATE - score + 1) / 2)
        } else if score <= -MATE_BOUND {
            Score::Mate(-((MATE + score) / 2))
        } else {
            Score::Cp(score)
        }
    }

    /// The same score seen from the other side.
    pub fn negate(self) -> Score {
        match self {
            Score::Cp(cp) => Score::Cp(-cp),
            Score::Mate(n) => Score::Mate(-n),
        }
    }

    /// This score (from the point of view of the side to move in a position where `turn` is
    /// to move) from White's point of view.
    pub fn for_white(self, turn: Color) -> Score {
        match turn {
            Color::White => self,
            Color::Black => self.negate(),
        }
    }
}

/// A report after each completed iteration of a search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Thinking {
    /// Depth completed.
    pub depth: u32,
    /// Deepest ply reached.
    pub seldepth: u32,
    /// Score of the best line, from the side to move's point of view.
    pub score: Score,
    /// The best line, starting with the move the engine would play now.
    pub pv: Vec<Move>,
    /// Nodes searched so far.
    pub nodes: u64,
    /// Time since the search started.
    pub elapsed: Duration,
}

/// The move a player chose.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Chosen {
    /// The move, legal in the position searched.
    pub mv: Move,
    /// Score from the side to move's point of view.
    pub score: Score,
    /// Depth completed (0 when the search was stopped before its first iteration ended).
    pub depth: u32,
    /// The line the engine expects (starts with `mv`).
    pub pv: Vec<Move>,
}

/// How long to analyse.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AnalysisLimit {
    /// To this depth in plies.
    Depth(u32),
    /// For this long.
    Movetime(Duration),
    /// For about this many nodes (at least one full iteration is searched).
    Nodes(u64),
}

/// One line of a MultiPV analysis ([`Player::analyse_lines`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PvLine {
    /// Score from the side to move's point of view.
    pub score: Score,
    /// The line, starting with its first move.
    pub pv: Vec<Move>,
}

/// A report after each completed iteration of a MultiPV analysis: every line, best first.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LinesReport {
    /// Depth completed.
    pub depth: u32,
    /// Deepest ply reached.
    pub seldepth: u32,
    /// Nodes searched so far.
    pub nodes: u64,
    /// Time since the search started.
    pub elapsed: Duration,
    /// The lines, best first (as many as asked for, or fewer when the position has fewer
    /// legal moves).
    pub lines: Vec<PvLine>,
}

/// The most lines [`Player::analyse_lines`] reports.
pub const MAX_MULTIPV: usize = 5;

/// The result of an analysis.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Analysis {
    /// Score from the side to move's point of view (`Mate(0)` when it is checkmated,
    /// `Cp(0)` for stalemate).
    pub score: Score,
    /// Depth completed.
    pub depth: u32,
    /// The best line (empty when the position has no legal move).
    pub pv: Vec<Move>,
}

/// Time kept in reserve on every move of a timed game, for the delay between the search
/// ending and the move reaching the clock.
const MOVE_OVERHEAD: Duration = Duration::from_millis(50);

/// How often a caller's stop flag is looked at during a search.
const STOP_POLL: Duration = Duration::from_millis(5);

/// The shortest time per move of [`Level::Full`] (a shorter `movetime` is raised to it).
const MIN_THINK: Duration = Duration::from_millis(1);

/// `deadlines` (the clock's, or none) brought forward to `end` at the latest: full strength
/// manages its time on a clock and never thinks past its time per move; without a clock it
/// thinks until `end`.
fn capped(deadlines: Deadlines, end: Instant) -> Deadlines {
    let cap = |d: Option<Instant>| Some(d.map_or(end, |d| d.min(end)));
    Deadlines {
        soft: cap(deadlines.soft),
        hard: cap(deadlines.hard),
    }
}

/// The deepest fixed depth accepted; deeper requests are clamped to it.
pub const MAX_DEPTH: u32 = 64;

/// How long the engine considers a draw offer ([`accepts_draw`]).
pub const DRAW_OFFER_THINK: Duration = Duration::from_millis(300);

/// The first move number at which the engine may accept a draw offer.
pub const FIRST_DRAW_MOVE: u32 = 31;
/// The largest evaluation, in centipawns for either side, at which the engine accepts a draw.
pub const DRAW_MARGIN_CP: i32 = 30;

/// The engine's answer to a draw offer, the same in every program that embeds it: it accepts
/// once the game is past move 30 (`fullmoves` is the position's move number) when its
/// evaluation `score` of the position (from either side's point of view) is within ±0.3
/// pawns.
pub fn accepts_draw(score: Score, fullmoves: u32) -> bool {
    draw_decline(Some(score), fullmoves).is_none()
}

/// Why the engine declines a draw offer: the one wording of every program that embeds it
/// (the terminal's `draw` and the web server's answer).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DrawDecline {
    /// Before move [`FIRST_DRAW_MOVE`].
    TooEarly,
    /// The evaluation (centipawns, or a mate) is beyond ±[`DRAW_MARGIN_CP`].
    NotEqual(Score),
}

impl std::fmt::Display for DrawDecline {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            DrawDecline::TooEarly => write!(f, "no draw before move {FIRST_DRAW_MOVE}"),
            DrawDecline::NotEqual(Score::Mate(_)) => {
                f.write_str("the engine sees a forced mate in the position")
            }
            DrawDecline::NotEqual(Score::Cp(cp)) => write!(
                f,
                "the position is not level: the engine evaluates it at {}.{:02} pawns for one \
                 side (it accepts within 0.{:02})",
                cp.unsigned_abs() / 100,
                cp.unsigned_abs() % 100,
                DRAW_MARGIN_CP
            ),
        }
    }
}

/// Why the engine declines a draw offer at move number `fullmoves` with its evaluation
/// `score` (`None`: not evaluated yet, the answer is then only about the move number), or
/// `None` if it accepts (or, with no score, might accept once it has evaluated).
pub fn draw_decline(score: Option<Score>, fullmoves: u32) -> Option<DrawDecline> {
    if fullmoves < FIRST_DRAW_MOVE {
        return Some(DrawDecline::TooEarly);
    }
    match score? {
        Score::Cp(cp) if cp.abs() <= DRAW_MARGIN_CP => None,
        other => Some(DrawDecline::NotEqual(other)),
    }
}

/// The engine as an in-process player. One search at a time per player (a second call waits
/// for the first); share a player between threads or keep one per game.
pub struct Player {
    /// The search's table and flags, with the evaluation the table's entries came from
    /// (levels differ in evaluation).
    shared: Mutex<(Shared, TableEval)>,
}

impl Player {
    /// A player with a transposition table of `hash_mb` MiB (at least 1).
    pub fn new(hash_mb: usize) -> Player {
        Player {
            shared: Mutex::new((Shared::new(hash_mb.max(1)), TableEval::default())),
        }
    }

    /// Forgets everything learnt in earlier searches (for a new game).
    pub fn clear(&self) {
        let shared = self.shared.lock().unwrap_or_else(|e| e.into_inner());
        shared.0.clear();
    }

    /// The move to play after `moves` from `start`, at `level`, within `clock` (the engine's
    /// own clock) if the game is timed. The search ends at the level's limit, at the clock's
    /// deadline, or soon after `stop` is set, whichever comes first; a stopped search still
    /// returns the best move found so far. `on_thinking` is called after each iteration.
    ///
    /// Returns `None` when the position has no legal move (the game is over). The moves must
    /// be legal; an illegal one ends the replay there (the position before it is searched).
    pub fn choose_move(
        &self,
        start: &Position,
        moves: &[Move],
        level: Level,
        clock: Option<PlayClock>,
        stop: &AtomicBool,
        on_thinking: impl FnMut(&Thinking),
    ) -> Option<Chosen> {
        let (pos, hashes) = replay(start, moves);
        if !pos.has_legal_moves() {
            return None;
        }
        let mut limits = Limits {
            multipv: 1,
            ..Limits::default()
        };
        // A rating level plays with the hand-crafted evaluation, on which the `UCI_Elo` node
        // table was measured; a depth level and full strength with the engine's own
        // evaluation (the net).
        let net = match level {
            Level::Elo(elo) => {
                limits.nodes = Some(nodes_for_elo(elo));
                None
            }
            Level::Depth(d) => {
                limits.depth = Some(d.clamp(1, MAX_DEPTH) as i32);
                nnue::default_net()
            }
            Level::Full { .. } => nnue::default_net(),
        };
        let started = Instant::now();
        let deadlines = match clock {
            Some(c) => time::deadlines(
                &Clock {
                    time: Some(c.remaining),
                    inc: c.increment,
                    movestogo: None,
                    movetime: None,
                },
                started,
                MOVE_OVERHEAD,
            ),
            None => Deadlines::default(),
        };
        let deadlines = match level {
            Level::Full { movetime } => capped(deadlines, started + movetime.max(MIN_THINK)),
            Level::Elo(_) | Level::Depth(_) => deadlines,
        };
        let (outcome, pv) = self.search(
            (&pos, hashes),
            net,
            &limits,
            deadlines,
            stop,
            thinking_of(on_thinking),
        );
        // Never return an illegal move: fall back to the first legal one if the search had
        // nothing (stopped before its first iteration).
        let legal = pos.legal_moves();
        let mv = outcome
            .0
            .filter(|m| legal.contains(m))
            .or_else(|| legal.first().copied())?;
        let pv = if pv.first() == Some(&mv) {
            pv
        } else {
            vec![mv]
        };
        Some(Chosen {
            mv,
            score: Score::from_internal(outcome.1),
            depth: outcome.2,
            pv,
        })
    }

    /// Evaluates the position after `moves` from `start`, to a depth, for a time or a number of
    /// nodes (or until `stop` is set). `on_thinking` is called after each iteration.
    pub fn analyse(
        &self,
        start: &Position,
        moves: &[Move],
        limit: AnalysisLimit,
        stop: &AtomicBool,
        on_thinking: impl FnMut(&Thinking),
    ) -> Analysis {
        self.analyse_with(start, moves, limit, 1, stop, thinking_of(on_thinking))
    }

    /// As [`Player::analyse`] with `multipv` lines (1..=[`MAX_MULTIPV`]; clamped): after each
    /// iteration `on_lines` gets every line, best first, for an analysis board's engine panel.
    /// The search is the same one that plays moves; the lines are those it keeps anyway, so
    /// the report costs nothing per node.
    pub fn analyse_lines(
        &self,
        start: &Position,
        moves: &[Move],
        limit: AnalysisLimit,
        multipv: usize,
        stop: &AtomicBool,
        mut on_lines: impl FnMut(&LinesReport),
    ) -> Analysis {
        let multipv = multipv.clamp(1, MAX_MULTIPV);
        self.analyse_with(start, moves, limit, multipv, stop, |r| {
            on_lines(&LinesReport {
                depth: r.depth.max(0) as u32,
                seldepth: r.seldepth.max(0) as u32,
                nodes: r.nodes,
                elapsed: r.elapsed,
                lines: r
                    .lines
                    .iter()
                    .map(|l| PvLine {
                        score: Score::from_internal(l.score),
                        pv: l.pv.clone(),
                    })
                    .collect(),
            });
        })
    }

    fn analyse_with(
        &self,
        start: &Position,
        moves: &[Move],
        limit: AnalysisLimit,
        multipv: usize,
        stop: &AtomicBool,
        on_report: impl FnMut(&Report),
    ) -> Analysis {
        let (pos, hashes) = replay(start, moves);
        if !pos.has_legal_moves() {
            return Analysis {
                score: if pos.is_check() {
                    Score::Mate(0)
                } else {
                    Score::Cp(0)
                },
                depth: 0,
                pv: Vec::new(),
            };
        }
        let mut limits = Limits {
            multipv,
            ..Limits::default()
        };
        let started = Instant::now();
        let deadlines = match limit {
            AnalysisLimit::Depth(d) => {
                limits.depth = Some(d.clamp(1, MAX_DEPTH) as i32);
                Deadlines::default()
            }
            AnalysisLimit::Movetime(t) => {
                let end = started + t.max(Duration::from_millis(1));
                Deadlines {
                    soft: Some(end),
                    hard: Some(end),
                }
            }
            AnalysisLimit::Nodes(n) => {
                limits.nodes = Some(n.max(1));
                Deadlines::default()
            }
        };
        let ((best, score, depth), mut pv) = self.search(
            (&pos, hashes),
            nnue::default_net(),
            &limits,
            deadlines,
            stop,
            on_report,
        );
        if pv.is_empty() {
            pv.extend(best.or_else(|| pos.legal_moves().first().copied()));
        }
        Analysis {
            score: Score::from_internal(score),
            depth,
            pv,
        }
    }

    /// Runs one search from `pos`, whose game went through the positions of `hashes` (for
    /// repetitions), evaluating with `net` (`None`: the hand-crafted evaluation); returns (best
    /// move, internal score, depth) and the last reported line.
    fn search(
        &self,
        (pos, hashes): (&Position, Vec<u64>),
        net: Option<Arc<Network>>,
        limits: &Limits,
        deadlines: Deadlines,
        stop: &AtomicBool,
        mut on_report: impl FnMut(&Report),
    ) -> ((Option<Move>, i32, u32), Vec<Move>) {
        let mut guard = self.shared.lock().unwrap_or_else(|e| e.into_inner());
        let (shared, table_eval) = &mut *guard;
        table_eval.prepare(&shared.tt, &net);
        let shared: &Shared = shared;
        shared.stop.store(false, Ordering::SeqCst);
        shared.nodes.store(0, Ordering::SeqCst);
        shared.tt.new_search();
        let done = AtomicBool::new(false);
        let mut last_pv = Vec::new();
        let outcome = std::thread::scope(|scope| {
            // The searcher only looks at its own shared flag; relay the caller's to it. A
            // thread polling every few milliseconds costs nothing next to a search and keeps
            // the caller's flag an ordinary `AtomicBool`.
            scope.spawn(|| {
                while !done.load(Ordering::SeqCst) {
                    if stop.load(Ordering::SeqCst) {
                        shared.stop.store(true, Ordering::SeqCst);
                        break;
                    }
                    std::thread::sleep(STOP_POLL);
                }
            });
            let mut searcher = Searcher::new(shared, 0, hashes, deadlines).with_net(net);
            let outcome = searcher.run(pos, limits, |r: &Report| {
                if let Some(line) = r.lines.first() {
                    last_pv.clone_from(&line.pv);
                }
                on_report(r);
            });
            done.store(true, Ordering::SeqCst);
            outcome
        });
        (
            (outcome.best, outcome.score, outcome.depth.max(0) as u32),
            last_pv,
        )
    }
}

/// A search report as the one-line [`Thinking`] that `on_thinking` wants.
fn thinking_of(mut on_thinking: impl FnMut(&Thinking)) -> impl FnMut(&Report) {
    move |r: &Report| {
        if let Some(line) = r.lines.first() {
            on_thinking(&Thinking {
                depth: r.depth.max(0) as u32,
                seldepth: r.seldepth.max(0) as u32,
                score: Score::from_internal(line.score),
                pv: line.pv.clone(),
                nodes: r.nodes,
                elapsed: r.elapsed,
            });
        }
    }
}

/// The position after `moves` (stopping at the first illegal one) and the hashes of the
/// positions before it, oldest first, as the search wants them for repetitions.
fn replay(start: &Position, moves: &[Move]) -> (Position, Vec<u64>) {
    let mut pos = *start;
    let mut hashes = Vec::with_capacity(moves.len());
    for &m in moves {
        if !pos.is_legal(m) {
            break;
        }
        hashes.push(pos.hash());
        pos = pos.play(m);
    }
    (pos, hashes)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::levels::{ELO_MAX, ELO_MIN};
    use chess960_core::StartId;

    #[test]
    fn draw_offers_are_declined_with_a_reason() {
        assert_eq!(draw_decline(None, 30), Some(DrawDecline::TooEarly));
        assert_eq!(DrawDecline::TooEarly.to_string(), "no draw before move 31");
        assert_eq!(draw_decline(None, 31), None);
        assert_eq!(draw_decline(Some(Score::Cp(-30)), 31), None);
        assert!(accepts_draw(Score::Cp(30), 40));
        let far = draw_decline(Some(Score::Cp(-125)), 40).unwrap();
        assert_eq!(far, DrawDecline::NotEqual(Score::Cp(-125)));
        assert!(far.to_string().contains("1.25 pawns"), "{far}");
        assert!(!accepts_draw(Score::Cp(31), 40));
        assert!(!accepts_draw(Score::Mate(3), 40));
        assert!(!accepts_draw(Score::Cp(0), 30));
    }

    #[test]
    fn plays_legal_moves_at_every_level() {
        let player = Player::new(1);
        let start = StartId::new(249).unwrap().position();
        let stop = AtomicBool::new(false);
        let mut moves = Vec::new();
        for level in [Level::Elo(ELO_MIN), Level::Depth(2), Level::Elo(ELO_MAX)] {
            let mut reports = 0;
            let chosen = player
                .choose_move(&start, &moves, level, None, &stop, |_| reports += 1)
                .expect("the position has moves");
            let (pos, _) = replay(&start, &moves);
            assert!(pos.is_legal(chosen.mv));
            assert_eq!(chosen.pv.first(), Some(&chosen.mv));
            assert!(reports >= 1);
            moves.push(chosen.mv);
        }
    }

    #[test]
    fn finds_mate_and_reports_it() {
        // White mates with Ra8#.
        let pos = Position::from_fen("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1").unwrap();
        let player = Player::new(1);
        let stop = AtomicBool::new(false);
        let a = player.analyse(&pos, &[], AnalysisLimit::Depth(4), &stop, |_| {});
        assert_eq!(a.score, Score::Mate(1));
        assert_eq!(
            a.pv[0].to_uci(chess960_core::CastlingMode::Chess960),
            "a1a8"
        );
        let mated = pos.play(a.pv[0]);
        let b = player.analyse(&mated, &[], AnalysisLimit::Depth(4), &stop, |_| {});
        assert_eq!(b.score, Score::Mate(0));
        assert!(b.pv.is_empty());
        assert_eq!(Score::Mate(1).for_white(Color::Black), Score::Mate(-1));
    }

    #[test]
    fn stop_flag_and_clock_end_the_search() {
        let player = Player::new(1);
        let start = StartId::new(518).unwrap().position();
        let stop = AtomicBool::new(true);
        let t = Instant::now();
        let chosen = player
            .choose_move(&start, &[], Level::Depth(60), None, &stop, |_| {})
            .unwrap();
        assert!(start.is_legal(chosen.mv));
        assert!(t.elapsed() < Duration::from_secs(2));

        let stop = AtomicBool::new(false);
        let t = Instant::now();
        let clock = PlayClock {
            remaining: Duration::from_millis(300),
            increment: Duration::ZERO,
        };
        let chosen = player
            .choose_move(&start, &[], Level::Depth(60), Some(clock), &stop, |_| {})
            .unwrap();
        assert!(start.is_legal(chosen.mv));
        assert!(t.elapsed() < Duration::from_millis(300));
    }

    /// Full strength is the engine without its node cap: on the same position it searches
    /// more nodes and deeper than the strongest rating level, within its time.
    #[test]
    fn full_strength_searches_past_the_top_level_within_its_time() {
        let start = StartId::new(249).unwrap().position();
        let stop = AtomicBool::new(false);
        let mut top = (0, 0);
        let player = Player::new(16);
        let t = Instant::now();
        player
            .choose_move(&start, &[], Level::Elo(ELO_MAX), None, &stop, |t| {
                top = (t.depth, t.nodes)
            })
            .unwrap();
        let top_took = t.elapsed();
        assert!(
            top.1 <= crate::levels::nodes_for_elo(ELO_MAX) + 1024,
            "{top:?}"
        );

        // Eight times the top level's time (at least 1.5 s), so that a slow or busy machine
        // slows both alike.
        let movetime = (top_took * 8).clamp(Duration::from_millis(1500), FULL_MOVETIME_MAX);
        let player = Player::new(16);
        let mut full = (0, 0);
        let t = Instant::now();
        let chosen = player
            .choose_move(&start, &[], Level::Full { movetime }, None, &stop, |t| {
                full = (t.depth, t.nodes)
            })
            .unwrap();
        let took = t.elapsed();
        assert!(start.is_legal(chosen.mv));
        eprintln!("Elo {ELO_MAX}: depth {} nodes {} in {top_took:?}; full {movetime:?}: depth {} nodes {} in {took:?}", top.0, top.1, full.0, full.1);
        assert!(took <= movetime + Duration::from_millis(200), "{took:?}");
        // Without a clock it thinks for its time (a settled best move may end it a little
        // early: an iteration is not begun that could not end in time).
        assert!(took >= movetime / 2, "{took:?}");
        assert!(full.1 > top.1, "full {full:?}, Elo {ELO_MAX} {top:?}");
        assert!(full.0 > top.0, "full {full:?}, Elo {ELO_MAX} {top:?}");
    }

    /// On a clock, full strength keeps to the clock and to its time per move, whichever is
    /// shorter.
    #[test]
    fn full_strength_keeps_to_the_clock_and_its_time_per_move() {
        let player = Player::new(1);
        let start = StartId::new(518).unwrap().position();
        let stop = AtomicBool::new(false);
        let short_clock = PlayClock {
            remaining: Duration::from_millis(300),
            increment: Duration::ZERO,
        };
        let long_clock = PlayClock {
            remaining: Duration::from_secs(3600),
            increment: Duration::from_secs(10),
        };
        for (movetime, clock, bound) in [
            (FULL_MOVETIME_MAX, short_clock, Duration::from_millis(300)),
            (FULL_MOVETIME_MIN, long_clock, FULL_MOVETIME_MIN),
        ] {
            let t = Instant::now();
            let chosen = player
                .choose_move(
                    &start,
                    &[],
                    Level::Full { movetime },
                    Some(clock),
                    &stop,
                    |_| {},
                )
                .unwrap();
            assert!(start.is_legal(chosen.mv));
            let took = t.elapsed();
            assert!(
                took < bound + Duration::from_millis(100),
                "{movetime:?} on {clock:?}: {took:?}"
            );
        }
        // The stop flag still ends it at once.
        let stop = AtomicBool::new(true);
        let t = Instant::now();
        let movetime = FULL_MOVETIME_MAX;
        player
            .choose_move(&start, &[], Level::Full { movetime }, None, &stop, |_| {})
            .unwrap();
        assert!(t.elapsed() < Duration::from_secs(2));
    }

    #[test]
    fn multipv_reports_distinct_lines_best_first() {
        let player = Player::new(1);
        let start = StartId::new(249).unwrap().position();
        let stop = AtomicBool::new(false);
        let mut last = None;
        let a = player.analyse_lines(&start, &[], AnalysisLimit::Depth(4), 3, &stop, |r| {
            last = Some(r.clone())
        });
        let last = last.expect("at least one iteration reported");
        assert_eq!(last.depth, 4);
        assert_eq!(last.lines.len(), 3);
        let firsts: Vec<Move> = last.lines.iter().map(|l| l.pv[0]).collect();
        assert!(firsts[0] != firsts[1] && firsts[1] != firsts[2] && firsts[0] != firsts[2]);
        let cp = |s: Score| match s {
            Score::Cp(c) => c,
            Score::Mate(_) => panic!("no mate from a start position"),
        };
        assert!(cp(last.lines[0].score) >= cp(last.lines[1].score));
        assert!(cp(last.lines[1].score) >= cp(last.lines[2].score));
        assert_eq!(a.pv.first(), Some(&firsts[0]));
        // Never more lines than legal moves, nor than MAX_MULTIPV.
        let one = Position::from_fen("7k/8/8/8/8/8/8/K6R b - - 0 1").unwrap();
        let mut n = 0;
        player.analyse_lines(&one, &[], AnalysisLimit::Depth(2), 99, &stop, |r| {
            n = r.lines.len()
        });
        assert_eq!(n, one.legal_moves().len().min(MAX_MULTIPV));
    }

    #[test]
    fn a_node_limit_ends_the_analysis() {
        let player = Player::new(1);
        let start = StartId::new(518).unwrap().position();
        let stop = AtomicBool::new(false);
        let mut nodes = 0;
        let a = player.analyse(&start, &[], AnalysisLimit::Nodes(5_000), &stop, |t| {
            nodes = t.nodes
        });
        assert!(a.depth >= 1);
        assert!(nodes < 50_000, "searched {nodes} nodes for a limit of 5000");
    }
}
