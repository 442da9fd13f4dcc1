//! Search: iterative deepening, principal-variation search with aspiration windows, a shared
//! transposition table (probed and written by the quiescence search too), quiescence search
//! with SEE pruning, null-move pruning, late-move reductions, reverse futility and futility
//! pruning, check extensions, singular extensions with multi-cut, killer / history /
//! counter-move / continuation-history ordering, continuation-history pruning, correction
//! history, mate-distance pruning, and Lazy SMP across threads.

use crate::eval::SEE_VALUE;
use crate::memory::{gravity, Memories, Memory, PieceTo};
use crate::nnue::{AccumulatorStack, Network};
use crate::see::see_ge;
use crate::time::Deadlines;
use crate::tt::{Bound, Entry, Table};
use chess960_core::{Move, MoveList, Position, Role};
use std::mem::MaybeUninit;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Instant;

/// Larger than any score.
pub const INF: i32 = 32000;
/// Mate in 0 plies; mate in n plies scores `MATE - n`.
pub const MATE: i32 = 31000;
/// Scores beyond this are mates.
pub const MATE_BOUND: i32 = MATE - 1000;
/// Deepest ply searched.
pub const MAX_PLY: usize = 128;
/// Moves considered per node. No position of a real game has more than 218 legal moves; a
/// contrived FEN with more has the rest ignored rather than every node paying for a larger
/// buffer.
const MAX_NODE_MOVES: usize = 256;

/// State shared by all search threads.
pub struct Shared {
    /// The transposition table.
    pub tt: Table,
    /// Set to stop every thread.
    pub stop: AtomicBool,
    /// Nodes searched by all threads.
    pub nodes: AtomicU64,
    /// What the threads' searches learnt about moves, kept for the next search of the game.
    pub memories: Memories,
}

impl Shared {
    /// A table of `hash_mb` MiB, no memories, not stopped.
    pub fn new(hash_mb: usize) -> Shared {
        Shared::with_table(Table::new(hash_mb))
    }

    /// As [`Shared::new`], or `None` if the table's memory cannot be had.
    pub fn try_new(hash_mb: usize) -> Option<Shared> {
        Table::try_new(hash_mb).map(Shared::with_table)
    }

    fn with_table(tt: Table) -> Shared {
        Shared {
            tt,
            stop: AtomicBool::new(false),
            nodes: AtomicU64::new(0),
            memories: Memories::default(),
        }
    }

    /// Forgets everything learnt in earlier searches: the table and the memories (a new game).
    pub fn clear(&self) {
        self.tt.clear();
        self.memories.clear();
    }
}

/// The evaluation a transposition table's entries came from. A search with another one (a
/// new net, the hand-crafted evaluation of the limited levels) must not meet the old one's
/// scores and stored evaluations: the quiescence search's entries would answer even a depth-1
/// search with them.
#[derive(Default)]
pub struct TableEval {
    /// `None` before the first search; inside, `None` is the hand-crafted evaluation. The net
    /// is held, so that its address cannot be reused by another.
    last: Option<Option<Arc<Network>>>,
}

impl TableEval {
    /// Called before a search with `net` fills `table`: empties the table when its entries
    /// came from another evaluation.
    pub fn prepare(&mut self, table: &Table, net: &Option<Arc<Network>>) {
        let same = |old: &Option<Arc<Network>>| match (old, net) {
            (Some(a), Some(b)) => Arc::ptr_eq(a, b),
            (a, b) => a.is_none() && b.is_none(),
        };
        if self.last.as_ref().is_some_and(same) {
            return;
        }
        if self.last.is_some() {
            table.clear();
        }
        self.last = Some(net.clone());
    }
}

/// What to search for how long.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    /// Stop after this depth.
    pub depth: Option<i32>,
    /// Stop after about this many nodes.
    pub nodes: Option<u64>,
    /// Stop once a mate in this many moves is found.
    pub mate: Option<i32>,
    /// Only these root moves.
    pub searchmoves: Vec<Move>,
    /// Lines to report (MultiPV).
    pub multipv: usize,
}

/// One line of the search's result.
#[derive(Clone, Debug)]
pub struct Line {
    /// Score from the side to move's point of view.
    pub score: i32,
    /// The principal variation.
    pub pv: Vec<Move>,
    /// Bound of the score when the search of this line was cut short by its window.
    pub bound: Option<Bound>,
}

/// A report after each completed iteration (or aspiration fail).
pub struct Report<'a> {
    /// Depth.
    pub depth: i32,
    /// Selective depth.
    pub seldepth: i32,
    /// Lines, best first.
    pub lines: &'a [Line],
    /// Nodes of all threads.
    pub nodes: u64,
    /// Time since the search started.
    pub elapsed: std::time::Duration,
    /// Transposition table use, permille.
    pub hashfull: u32,
}

/// The outcome of a search.
#[derive(Clone, Debug)]
pub struct Outcome {
    /// The move to play, if the position has any legal move.
    pub best: Option<Move>,
    /// The move the engine expects in reply (for pondering).
    pub ponder: Option<Move>,
    /// The score of the best line.
    pub score: i32,
    /// Depth completed.
    pub depth: i32,
}

struct RootMove {
    mv: Move,
    score: i32,
    prev_score: i32,
    pv: Vec<Move>,
    bound: Option<Bound>,
}

/// One search thread's state.
pub struct Searcher<'a> {
    shared: &'a Shared,
    thread: usize,
    /// Hashes of the game so far and the current search path, for repetitions.
    history_hashes: Vec<u64>,
    killers: [[Option<Move>; 2]; MAX_PLY + 2],
    /// The history and counter moves, from the game's earlier searches on this thread; given
    /// back to [`Shared::memories`] when the searcher is dropped.
    memory: Box<Memory>,
    /// The move left out at each ply, while a singular-extension search there asks how the
    /// others do without it.
    excluded: [Option<Move>; MAX_PLY + 2],
    /// The depth of the current iteration: extensions stop at twice it.
    root_depth: i32,
    /// The move played at each ply of the current line (`None` for a null move), for the
    /// continuation history of the plies after it.
    played: [Option<PieceTo>; MAX_PLY + 2],
    pv: Box<[[Option<Move>; MAX_PLY + 1]; MAX_PLY + 1]>,
    pv_len: [usize; MAX_PLY + 1],
    eval_stack: [i32; MAX_PLY + 2],
    nodes: u64,
    seldepth: i32,
    deadlines: Deadlines,
    node_limit: Option<u64>,
    /// At least one iteration has completed in this search (the node limit waits for it).
    iteration_done: bool,
    start: Instant,
    /// The net's accumulators, or `None` for the hand-crafted evaluation.
    nnue: Option<AccumulatorStack>,
}

/// How far above beta a capture must be for ProbCut to cut the node.
const PROBCUT_MARGIN: i32 = 200;

fn lmr_table() -> &'static [[i32; 64]; 64] {
    static TABLE: std::sync::OnceLock<[[i32; 64]; 64]> = std::sync::OnceLock::new();
    TABLE.get_or_init(|| {
        let mut t = [[0; 64]; 64];
        for (d, row) in t.iter_mut().enumerate().skip(1) {
            for (m, r) in row.iter_mut().enumerate().skip(1) {
                *r = (0.75 + (d as f64).ln() * (m as f64).ln() / 2.25) as i32;
            }
        }
        t
    })
}

impl Drop for Searcher<'_> {
    /// The memory goes back for the game's next search.
    fn drop(&mut self) {
        let memory = std::mem::replace(&mut self.memory, Memory::new());
        self.shared.memories.give(self.thread, memory);
    }
}

impl<'a> Searcher<'a> {
    /// A searcher for thread `thread` (0 is the main thread) with the game's position hashes.
    pub fn new(
        shared: &'a Shared,
        thread: usize,
        history_hashes: Vec<u64>,
        deadlines: Deadlines,
    ) -> Self {
        Searcher {
            shared,
            thread,
            history_hashes,
            killers: [[None; 2]; MAX_PLY + 2],
            memory: shared.memories.take(thread),
            excluded: [None; MAX_PLY + 2],
            root_depth: 0,
            played: [None; MAX_PLY + 2],
            pv: Box::new([[None; MAX_PLY + 1]; MAX_PLY + 1]),
            pv_len: [0; MAX_PLY + 1],
            eval_stack: [0; MAX_PLY + 2],
            nodes: 0,
            seldepth: 0,
            deadlines,
            node_limit: None,
            iteration_done: false,
            start: Instant::now(),
            nnue: crate::nnue::default_net().map(|net| AccumulatorStack::new(net, MAX_PLY + 2)),
        }
    }

    /// Evaluates with `net`, or with the hand-crafted evaluation for `None` (the default is
    /// [`crate::nnue::default_net`]).
    pub fn with_net(mut self, net: Option<Arc<Network>>) -> Self {
        self.nnue = net.map(|net| AccumulatorStack::new(net, MAX_PLY + 2));
        self
    }

    /// The static evaluation of `pos` at `ply`, for the side to move.
    fn evaluate(&mut self, pos: &Position, ply: usize) -> i32 {
        match &mut self.nnue {
            // Kept clear of the mate scores, whatever a net says.
            Some(stack) => stack
                .evaluate(pos, ply)
                .clamp(-MATE_BOUND + 1, MATE_BOUND - 1),
            None => crate::eval::evaluate(pos),
        }
    }

    fn stopped(&self) -> bool {
        self.shared.stop.load(Ordering::Relaxed)
    }

    fn count_node(&mut self) {
        self.nodes += 1;
        if self.nodes & 1023 == 0 {
            self.shared.nodes.fetch_add(1024, Ordering::Relaxed);
            if self.thread == 0 && self.deadlines.hard.is_some_and(|d| Instant::now() >= d) {
                self.shared.stop.store(true, Ordering::Relaxed);
            }
        }
        // The node limit is checked at every node, not every 1024: `go nodes 100` and the
        // small budgets of `UCI_Elo` must mean what they say. It only bites once depth 1 is
        // complete, so even a budget of one node plays a move chosen by a full 1-ply search
        // rather than whichever root move happened to be scored first.
        if self.thread == 0 && self.iteration_done {
            if let Some(n) = self.node_limit {
                if self.shared.nodes.load(Ordering::Relaxed) + (self.nodes & 1023) >= n {
                    self.shared.stop.store(true, Ordering::Relaxed);
                }
            }
        }
    }

    /// Iterative deepening from `pos`; `report` is called by the main thread after each
    /// iteration. Returns the best move found.
    pub fn run(
        &mut self,
        pos: &Position,
        limits: &Limits,
        mut report: impl FnMut(&Report),
    ) -> Outcome {
        self.start = Instant::now();
        self.node_limit = limits.nodes;
        self.iteration_done = false;
        let legal = pos.legal_moves();
        let mut root: Vec<RootMove> = legal
            .iter()
            .filter(|m| limits.searchmoves.is_empty() || limits.searchmoves.contains(m))
            .map(|&mv| RootMove {
                mv,
                score: -INF,
                prev_score: -INF,
                pv: vec![mv],
                bound: None,
            })
            .collect();
        if root.is_empty() {
            return Outcome {
                best: None,
                ponder: None,
                score: if pos.is_check() { -MATE } else { 0 },
                depth: 0,
            };
        }
        let multipv = limits.multipv.clamp(1, root.len());
        let max_depth = limits
            .depth
            .unwrap_or(MAX_PLY as i32 - 4)
            .clamp(1, MAX_PLY as i32 - 4);
        let mut completed = 0;
        let mut best_line = root[0].pv.clone();
        let mut best_score = 0;
        let mut stable = 0;
        // Helper threads start at staggered depths so they explore different trees.
        let first_depth = 1 + (self.thread % 2) as i32;
        for depth in first_depth..=max_depth {
            for rm in root.iter_mut() {
                rm.prev_score = rm.score;
            }
            for pv_idx in 0..multipv {
                let prev = root[pv_idx].prev_score;
                let mut delta = 20;
                let (mut alpha, mut beta) = if depth >= 5 && prev.abs() < MATE_BOUND {
                    ((prev - delta).max(-INF), (prev + delta).min(INF))
                } else {
                    (-INF, INF)
                };
                loop {
                    let score = self.search_root(pos, &mut root, pv_idx, depth, alpha, beta);
                    root[pv_idx..].sort_by_key(|r| std::cmp::Reverse(r.score));
                    if self.stopped() {
                        break;
                    }
                    if score <= alpha {
                        beta = (alpha + beta) / 2;
                        alpha = (score - delta).max(-INF);
                    } else if score >= beta {
                        beta = (score + delta).min(INF);
                    } else {
                        break;
                    }
                    delta += delta / 2;
                }
                root[..=pv_idx].sort_by_key(|r| std::cmp::Reverse(r.score));
            }
            // An iteration cut short says nothing reliable; the first one may not even have
            // a score yet, and then the first legal move stands (scored 0).
            if self.stopped() && (completed > 0 || root[0].score == -INF) {
                break;
            }
            completed = depth;
            self.iteration_done = true;
            if best_line.first() == root[0].pv.first() {
                stable += 1;
            } else {
                stable = 0;
            }
            best_line = root[0].pv.clone();
            best_score = root[0].score;
            if self.thread == 0 {
                let lines: Vec<Line> = root[..multipv]
                    .iter()
                    .map(|r| Line {
                        score: r.score,
                        pv: r.pv.clone(),
                        bound: r.bound,
                    })
                    .collect();
                report(&Report {
                    depth,
                    seldepth: self.seldepth,
                    lines: &lines,
                    nodes: self.shared.nodes.load(Ordering::Relaxed) + self.nodes % 1024,
                    elapsed: self.start.elapsed(),
                    hashfull: self.shared.tt.hashfull(),
                });
                // A proven mate does not get better by searching deeper.
                if best_score.abs() >= MATE_BOUND && depth >= 2 * (MATE - best_score.abs()) + 6 {
                    break;
                }
                if let Some(m) = limits.mate {
                    if best_score >= MATE - 2 * m {
                        break;
                    }
                }
                if let Some(soft) = self.deadlines.soft {
                    // A stable best move needs less time; a changing one more.
                    let scale = match stable {
                        0 => 1.6,
                        1 => 1.1,
                        2 => 0.9,
                        _ => 0.7,
                    };
                    let budget = soft.saturating_duration_since(self.start).mul_f64(scale);
                    if self.start.elapsed() >= budget {
                        break;
                    }
                }
            }
            if self.stopped() {
                break;
            }
        }
        if self.thread == 0 {
            self.shared.stop.store(true, Ordering::Relaxed);
        }
        Outcome {
            best: best_line.first().copied(),
            ponder: best_line.get(1).copied(),
            score: best_score,
            depth: completed,
        }
    }

    #[allow(clippy::needless_range_loop)] // the index is also the MultiPV rank
    fn search_root(
        &mut self,
        pos: &Position,
        root: &mut [RootMove],
        pv_idx: usize,
        depth: i32,
        mut alpha: i32,
        beta: i32,
    ) -> i32 {
        let mut best = -INF;
        let alpha0 = alpha;
        self.seldepth = 0;
        self.root_depth = depth;
        self.history_hashes.push(pos.hash());
        for i in pv_idx..root.len() {
            let m = root[i].mv;
            self.played[0] = Some(PieceTo::of(pos, m));
            let child = pos.play(m);
            self.count_node();
            let mut score;
            if i == pv_idx {
                score = -self.search(&child, -beta, -alpha, depth - 1, 1, true, Some(m));
            } else {
                let r = if depth >= 3 && i > pv_idx + 3 && !is_tactical(pos, m) && !child.is_check()
                {
                    1
                } else {
                    0
                };
                score = -self.search(&child, -alpha - 1, -alpha, depth - 1 - r, 1, false, Some(m));
                if score > alpha && !self.stopped() {
                    score = -self.search(&child, -beta, -alpha, depth - 1, 1, true, Some(m));
                }
            }
            if self.stopped() {
                break;
            }
            let rm = &mut root[i];
            if score > alpha || i == pv_idx {
                rm.score = score;
                // Reported as UCI's lowerbound / upperbound; an exact score has neither.
                rm.bound = match window_bound(score, alpha0, beta) {
                    Bound::Exact => None,
                    bound => Some(bound),
                };
                rm.pv.clear();
                rm.pv.push(m);
                rm.pv
                    .extend(self.pv[1][..self.pv_len[1]].iter().map_while(|m| *m));
            } else {
                rm.score = -INF;
            }
            if score > best {
                best = score;
            }
            if score > alpha {
                alpha = score;
                if alpha >= beta {
                    break;
                }
            }
        }
        self.history_hashes.pop();
        best
    }

    fn is_repetition(&self, pos: &Position, ply: usize) -> bool {
        let n = self.history_hashes.len();
        let reach = (pos.halfmoves() as usize).min(n);
        let hash = pos.hash();
        let mut count = 0;
        // Same side to move: every second entry back.
        let mut i = 2;
        while i <= reach {
            if self.history_hashes[n - i] == hash {
                // A repetition inside the search counts at once; one with the game history
                // needs a second (threefold).
                if i <= ply {
                    return true;
                }
                count += 1;
                if count >= 2 {
                    return true;
                }
            }
            i += 2;
        }
        false
    }

    #[allow(clippy::too_many_arguments)]
    fn search(
        &mut self,
        pos: &Position,
        mut alpha: i32,
        mut beta: i32,
        mut depth: i32,
        ply: usize,
        pv_node: bool,
        prev: Option<Move>,
    ) -> i32 {
        self.pv_len[ply] = 0;
        if self.stopped() {
            return 0;
        }
        if ply as i32 > self.seldepth {
            self.seldepth = ply as i32;
        }
        // Draws.
        if pos.halfmoves() >= 100 && !pos.is_check() {
            return 0;
        }
        if self.is_repetition(pos, ply) || pos.is_insufficient_material() {
            return 0;
        }
        if ply >= MAX_PLY - 1 {
            return self.evaluate(pos, ply);
        }
        // Mate-distance pruning.
        alpha = alpha.max(-MATE + ply as i32);
        beta = beta.min(MATE - ply as i32 - 1);
        if alpha >= beta {
            return alpha;
        }
        let in_check = pos.is_check();
        if in_check {
            depth += 1;
        }
        if depth <= 0 {
            return self.qsearch(pos, alpha, beta, ply);
        }

        let hash = pos.hash();
        let tt = self.shared.tt.probe(hash);
        // A singular-extension search of this node: all but this move.
        let excluded = self.excluded[ply];
        if let Some(e) = tt {
            if !pv_node && e.depth >= depth && excluded.is_none() {
                let s = score_from_tt(e.score, ply);
                let cut = match e.bound {
                    Bound::Exact => true,
                    Bound::Lower => s >= beta,
                    Bound::Upper => s <= alpha,
                };
                if cut {
                    return s;
                }
            }
        }
        // Internal iterative reduction: with no table move here, the node was never searched
        // before, its move ordering is poor and a full-depth search is mostly wasted; search it
        // one ply shallower (the next visit will have a move from the table).
        if depth >= 4 && tt.and_then(|e| e.mv).is_none() {
            depth -= 1;
        }
        // The net's raw value (or the table's copy of it) goes into the table; the search
        // prunes with it corrected by what the game's searches found of this pawn structure.
        let (raw_eval, static_eval) = if in_check {
            (-INF, -INF)
        } else {
            let raw = tt.map_or_else(|| self.evaluate(pos, ply), |e| e.eval);
            (raw, self.memory.corrected(pos, raw))
        };
        self.eval_stack[ply] = static_eval;
        let improving = !in_check && ply >= 2 && static_eval > self.eval_stack[ply - 2];
        // The table's score, where its bound says it is closer to the truth than the static
        // evaluation, is the better guess for the pruning decisions below.
        let eval = if in_check {
            static_eval
        } else {
            closer_to_truth(tt, static_eval, ply)
        };

        if !pv_node && !in_check && excluded.is_none() {
            // Reverse futility: far above beta at low depth.
            if depth <= 7
                && eval - (80 * depth - if improving { 40 } else { 0 }) >= beta
                && eval.abs() < MATE_BOUND
            {
                return eval;
            }
            // Null move: if passing still beats beta, a real move will too (not in
            // pawn-only endings, where zugzwang is common).
            if depth >= 3
                && eval >= beta
                && prev.is_some()
                && has_pieces(pos)
                && beta.abs() < MATE_BOUND
            {
                let r = 3 + depth / 4 + ((eval - beta) / 200).min(3);
                let child = pos.play_null();
                self.shared.tt.prefetch(child.hash());
                self.played[ply] = None;
                self.history_hashes.push(hash);
                let score = -self.search(
                    &child,
                    -beta,
                    -beta + 1,
                    depth - 1 - r,
                    ply + 1,
                    false,
                    None,
                );
                self.history_hashes.pop();
                if self.stopped() {
                    return 0;
                }
                if score >= beta {
                    return if score >= MATE_BOUND { beta } else { score };
                }
            }
        }

        // The node's moves, generated once for ProbCut and the move loop.
        let mut moves = MoveList::new();
        pos.legal_moves_into(&mut moves);

        // ProbCut: a capture that beats beta by a wide margin in a quiescence search and then
        // in a search four plies shallower would, very likely, beat beta at full depth: the
        // node is cut without searching the quiet moves.
        let probcut_beta = beta + PROBCUT_MARGIN;
        if !pv_node
            && !in_check
            && excluded.is_none()
            && depth >= 5
            && beta.abs() < MATE_BOUND - PROBCUT_MARGIN
            && !tt
                .is_some_and(|e| e.depth >= depth - 3 && score_from_tt(e.score, ply) < probcut_beta)
        {
            let mut captures = MoveList::new();
            for &m in moves.iter().filter(|&&m| is_tactical(pos, m)) {
                captures.push(m);
            }
            let mut scores = Scores::new();
            let n = mvv_lva_scores(pos, &captures, &mut scores);
            let mut verdict = None;
            self.history_hashes.push(hash);
            for i in 0..n {
                let m = pick(&mut captures.as_mut_slice()[..n], scores.as_mut_slice(), i);
                if !see_ge(pos, m, probcut_beta - static_eval) {
                    continue;
                }
                self.played[ply] = Some(PieceTo::of(pos, m));
                let child = pos.play(m);
                self.count_node();
                let mut score = -self.qsearch(&child, -probcut_beta, -probcut_beta + 1, ply + 1);
                if score >= probcut_beta {
                    score = -self.search(
                        &child,
                        -probcut_beta,
                        -probcut_beta + 1,
                        depth - 4,
                        ply + 1,
                        false,
                        Some(m),
                    );
                }
                if self.stopped() {
                    verdict = Some(0);
                    break;
                }
                if score >= probcut_beta {
                    self.shared.tt.store(
                        hash,
                        Entry {
                            mv: Some(m),
                            score: score_to_tt(score, ply),
                            eval: raw_eval,
                            depth: depth - 3,
                            bound: Bound::Lower,
                        },
                    );
                    verdict = Some(score);
                    break;
                }
            }
            self.history_hashes.pop();
            if let Some(score) = verdict {
                return score;
            }
        }

        let tt_move = tt.and_then(|e| e.mv);
        if moves.is_empty() {
            return if in_check { -MATE + ply as i32 } else { 0 };
        }
        let mut scores = Scores::new();
        let n_moves = moves.len().min(MAX_NODE_MOVES);
        // Captures and promotions not yet picked: once none is left and late-move pruning
        // drops a quiet move, it drops every later one too, and the loop can end.
        let mut tactical_left = self.score_moves(
            pos,
            &moves.as_slice()[..n_moves],
            &mut scores,
            tt_move,
            ply,
            prev,
        );

        // Singular extension: when the table's move beats every other move by a margin (they
        // all fail low against its score less the margin, searched at half the depth), the
        // position hangs on it, and it gets one ply more. When even without it the node
        // fails high above beta, several moves refute the line: the node is cut (multi-cut).
        let mut singular = false;
        if let (Some(e), Some(tm), None) = (tt, tt_move, excluded) {
            let tt_score = score_from_tt(e.score, ply);
            if depth >= 7
                && e.depth >= depth - 3
                && e.bound != Bound::Upper
                && tt_score.abs() < MATE_BOUND
                && (ply as i32) < 2 * self.root_depth
            {
                let s_beta = tt_score - 2 * depth;
                self.excluded[ply] = Some(tm);
                let score = self.search(pos, s_beta - 1, s_beta, (depth - 1) / 2, ply, false, prev);
                self.excluded[ply] = None;
                if self.stopped() {
                    return 0;
                }
                if score < s_beta {
                    singular = true;
                } else if s_beta >= beta {
                    return s_beta;
                }
            }
        }

        let alpha0 = alpha;
        let mut best = -INF;
        let mut best_move = None;
        let mut searched = 0;
        // The quiet moves searched (the first 64), for the history when one cuts off.
        let mut quiets_tried = MoveList::new();
        self.history_hashes.push(hash);
        for i in 0..n_moves {
            let m = pick(
                &mut moves.as_mut_slice()[..n_moves],
                scores.as_mut_slice(),
                i,
            );
            let tactical = is_tactical(pos, m);
            tactical_left -= usize::from(tactical);
            if Some(m) == excluded {
                continue;
            }
            // Pruning of late, hopeless moves (never the first, never in check).
            if !pv_node && !in_check && searched > 0 && best > -MATE_BOUND {
                if !tactical {
                    // Late-move pruning: past a count that grows with the depth, and is
                    // halved when the evaluation is not improving, quiet moves are not tried.
                    let lmp_count = if improving {
                        3 + depth * depth
                    } else {
                        (3 + depth * depth) / 2 + 1
                    };
                    if depth <= 8 && quiets_tried.len() as i32 >= lmp_count {
                        // The count, the depth and `improving` stay as they are for the
                        // rest of the node: every later quiet move would be dropped here.
                        if tactical_left == 0 {
                            break;
                        }
                        continue;
                    }
                    // The depth this move would be searched at after its late-move reduction
                    // (with its history's share): the futility and SEE margins are measured
                    // against it, so late, badly-scored moves are pruned sooner.
                    let lmr_depth = (depth - lmr_table()[depth.min(63) as usize][searched.min(63)]
                        + self.history_share(pos, m, ply))
                    .clamp(0, depth);
                    if lmr_depth <= 6 && eval + 100 + 90 * lmr_depth <= alpha {
                        continue;
                    }
                    if lmr_depth <= 6 && !see_ge(pos, m, -60 * lmr_depth) {
                        continue;
                    }
                    // A quiet move that has done badly after this very move of the opponent
                    // (or after our own before it) is not tried near the leaves.
                    let limit = if improving { -1000 } else { 0 };
                    if depth <= 3 - i32::from(improving)
                        && self.cont_scores(pos, m, ply).iter().any(|&c| c < limit)
                    {
                        continue;
                    }
                } else if depth <= 5 && !see_ge(pos, m, -100 * depth) {
                    continue;
                }
            }
            self.played[ply] = Some(PieceTo::of(pos, m));
            let child = pos.play(m);
            self.shared.tt.prefetch(child.hash());
            self.count_node();
            let gives_check = child.is_check();
            let mut score;
            if searched == 0 {
                let extension = i32::from(singular && Some(m) == tt_move);
                score = -self.search(
                    &child,
                    -beta,
                    -alpha,
                    depth - 1 + extension,
                    ply + 1,
                    pv_node,
                    Some(m),
                );
            } else {
                let mut r = 0;
                if depth >= 3 && searched >= 2 + usize::from(pv_node) && !tactical && !gives_check {
                    r = lmr_table()[depth.min(63) as usize][searched.min(63)];
                    if pv_node {
                        r -= 1;
                    }
                    if !improving {
                        r += 1;
                    }
                    if Some(m) == self.killers[ply][0] || Some(m) == self.killers[ply][1] {
                        r -= 1;
                    }
                    r -= self.history_share(pos, m, ply);
                    r = r.clamp(0, depth - 2);
                }
                score = -self.search(
                    &child,
                    -alpha - 1,
                    -alpha,
                    depth - 1 - r,
                    ply + 1,
                    false,
                    Some(m),
                );
                if score > alpha && r > 0 {
                    score = -self.search(
                        &child,
                        -alpha - 1,
                        -alpha,
                        depth - 1,
                        ply + 1,
                        false,
                        Some(m),
                    );
                }
                if score > alpha && score < beta && pv_node {
                    score = -self.search(&child, -beta, -alpha, depth - 1, ply + 1, true, Some(m));
                }
            }
            searched += 1;
            if !tactical && quiets_tried.len() < 64 {
                quiets_tried.push(m);
            }
            if self.stopped() {
                self.history_hashes.pop();
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    best_move = Some(m);
                    alpha = score;
                    if pv_node {
                        self.pv[ply][0] = Some(m);
                        let n = self.pv_len[ply + 1];
                        for j in 0..n {
                            self.pv[ply][j + 1] = self.pv[ply + 1][j];
                        }
                        self.pv_len[ply] = n + 1;
                    }
                    if alpha >= beta {
                        if !tactical {
                            self.reward_quiet(pos, m, ply, depth, prev, quiets_tried.as_slice());
                        }
                        break;
                    }
                }
            }
        }
        self.history_hashes.pop();
        if excluded.is_some() {
            // Only the answer counts: the node without its best move is no entry for the
            // table, nor a lesson for the correction.
            return if searched == 0 { alpha } else { best };
        }
        let bound = window_bound(best, alpha0, beta);
        // The verdict teaches the correction where it says something about the evaluation:
        // not in check, not won by a capture, not a mate, and a bound on the telling side.
        if !in_check
            && best_move.is_none_or(|m| !is_tactical(pos, m))
            && best.abs() < MATE_BOUND
            && match bound {
                Bound::Exact => true,
                Bound::Lower => best > static_eval,
                Bound::Upper => best < static_eval,
            }
        {
            self.memory.learn_correction(pos, best - raw_eval, depth);
        }
        self.shared.tt.store(
            hash,
            Entry {
                mv: best_move.or(tt_move),
                score: score_to_tt(best, ply),
                eval: if in_check { 0 } else { raw_eval },
                depth,
                bound,
            },
        );
        best
    }

    fn reward_quiet(
        &mut self,
        pos: &Position,
        m: Move,
        ply: usize,
        depth: i32,
        prev: Option<Move>,
        tried: &[Move],
    ) {
        if self.killers[ply][0] != Some(m) {
            self.killers[ply][1] = self.killers[ply][0];
            self.killers[ply][0] = Some(m);
        }
        if let Some(p) = prev {
            self.memory.counter[p.from().index()][p.to().index()] = Some(m);
        }
        let bonus = (depth * depth).min(400);
        let side = pos.turn().index();
        let before = self.before(ply);
        for q in tried {
            let entry = &mut self.memory.history[side][q.from().index()][q.to().index()];
            let delta = if *q == m { bonus * 32 } else { -bonus * 32 };
            *entry = gravity(*entry, delta);
            let now = PieceTo::of(pos, *q);
            for b in before.iter().flatten() {
                self.memory.update_cont(*b, now, delta);
            }
        }
    }

    /// The moves one and two plies before `ply` on the current line, where there are.
    fn before(&self, ply: usize) -> [Option<PieceTo>; 2] {
        [
            ply.checked_sub(1).and_then(|p| self.played[p]),
            ply.checked_sub(2).and_then(|p| self.played[p]),
        ]
    }

    /// The continuation history of quiet move `m` at `ply`, after the move one ply before it
    /// and after the move two plies before it (0 where there is none, or it was a null move).
    fn cont_scores(&self, pos: &Position, m: Move, ply: usize) -> [i32; 2] {
        let now = PieceTo::of(pos, m);
        self.before(ply)
            .map(|b| b.map_or(0, |b| self.memory.cont_of(b, now)))
    }

    /// How many plies a quiet move's history is worth to the late-move reductions and to the
    /// depth its pruning is measured at: one per 5000 of its history score, at most two
    /// either way.
    fn history_share(&self, pos: &Position, m: Move, ply: usize) -> i32 {
        (self.quiet_score(pos, m, ply) / 5000).clamp(-2, 2)
    }

    /// How promising quiet move `m` at `ply` is: its history plus its continuation history
    /// after the last two moves.
    fn quiet_score(&self, pos: &Position, m: Move, ply: usize) -> i32 {
        let [c1, c2] = self.cont_scores(pos, m, ply);
        self.memory.history_of(pos, m) + c1 + c2
    }

    fn qsearch(&mut self, pos: &Position, mut alpha: i32, beta: i32, ply: usize) -> i32 {
        self.pv_len[ply] = 0;
        if ply as i32 > self.seldepth {
            self.seldepth = ply as i32;
        }
        if ply >= MAX_PLY - 1 {
            return self.evaluate(pos, ply);
        }
        // The table: a bound that decides the node ends it here, and a stored evaluation
        // saves the net's.
        let tt = self.shared.tt.probe(pos.hash());
        if let Some(e) = tt {
            let s = score_from_tt(e.score, ply);
            let cut = match e.bound {
                Bound::Exact => true,
                Bound::Lower => s >= beta,
                Bound::Upper => s <= alpha,
            };
            if cut {
                return s;
            }
        }
        let in_check = pos.is_check();
        let mut best = -INF;
        let mut raw = 0;
        if !in_check {
            raw = tt.map_or_else(|| self.evaluate(pos, ply), |e| e.eval);
            // The table's score, where its bound says it is closer to the truth, is the
            // better floor (as for the main search's pruning).
            let stand = closer_to_truth(tt, self.memory.corrected(pos, raw), ply);
            if stand >= beta {
                if tt.is_none_or(|e| e.depth == 0) {
                    self.shared.tt.store(
                        pos.hash(),
                        Entry {
                            mv: None,
                            score: score_to_tt(stand, ply),
                            eval: raw,
                            depth: 0,
                            bound: Bound::Lower,
                        },
                    );
                }
                return stand;
            }
            alpha = alpha.max(stand);
            best = stand;
        }
        let alpha0 = alpha;
        let mut best_move = None;
        let mut moves = MoveList::new();
        if in_check {
            pos.legal_moves_into(&mut moves);
            if moves.is_empty() {
                return -MATE + ply as i32;
            }
        } else {
            pos.tactical_moves_into(&mut moves);
            // Stalemate: only counted when there is nothing to capture, the quiet moves are
            // not listed.
            if moves.is_empty() && pos.count_legal_moves() == 0 {
                return 0;
            }
        }
        let mut scores = Scores::new();
        let n_moves = mvv_lva_scores(pos, &moves, &mut scores);
        for i in 0..n_moves {
            let m = pick(
                &mut moves.as_mut_slice()[..n_moves],
                scores.as_mut_slice(),
                i,
            );
            if !in_check {
                // Captures that lose material, or cannot lift the score near alpha, are skipped.
                if !see_ge(pos, m, 0) {
                    continue;
                }
                let gain = captured_value(pos, m);
                if best + gain + 200 <= alpha && !m.is_promotion() {
                    continue;
                }
            }
            let child = pos.play(m);
            self.shared.tt.prefetch(child.hash());
            self.count_node();
            let score = -self.qsearch(&child, -beta, -alpha, ply + 1);
            if self.stopped() {
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    best_move = Some(m);
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        // The result goes into the table at depth 0 (never over a deeper search's entry of
        // this node): the next visit, in any quiescence search, may end at once, and any
        // search gets the static evaluation without the net.
        if tt.is_some_and(|e| e.depth > 0) {
            return best;
        }
        let bound = window_bound(best, alpha0, beta);
        self.shared.tt.store(
            pos.hash(),
            Entry {
                mv: best_move,
                score: score_to_tt(best, ply),
                eval: if in_check { 0 } else { raw },
                depth: 0,
                bound,
            },
        );
        best
    }

    fn score_moves(
        &self,
        pos: &Position,
        moves: &[Move],
        scores: &mut Scores,
        tt_move: Option<Move>,
        ply: usize,
        prev: Option<Move>,
    ) -> usize {
        let counter = prev.and_then(|p| self.memory.counter[p.from().index()][p.to().index()]);
        let mut tactical = 0;
        for &m in moves {
            let is_tactical = is_tactical(pos, m);
            tactical += usize::from(is_tactical);
            scores.push(if Some(m) == tt_move {
                2_000_000
            } else if is_tactical {
                let base = mvv_lva(pos, m);
                if see_ge(pos, m, 0) {
                    1_000_000 + base
                } else {
                    -1_000_000 + base
                }
            } else if Some(m) == self.killers[ply][0] {
                900_000
            } else if Some(m) == self.killers[ply][1] {
                899_000
            } else if Some(m) == counter {
                898_000
            } else {
                self.quiet_score(pos, m, ply)
            });
        }
        tactical
    }

    /// Nodes searched by this thread.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }
}

/// The table's score of a node at `ply` where its bound says it is closer to the truth than
/// the static evaluation `eval` (and it is no mate score), else `eval`.
fn closer_to_truth(tt: Option<Entry>, eval: i32, ply: usize) -> i32 {
    let Some(e) = tt else {
        return eval;
    };
    let s = score_from_tt(e.score, ply);
    let closer = match e.bound {
        Bound::Exact => true,
        Bound::Lower => s > eval,
        Bound::Upper => s < eval,
    };
    if closer && s.abs() < MATE_BOUND {
        s
    } else {
        eval
    }
}

/// What a node's best score says of its true value, searched with the window from `alpha0`
/// to `beta`: at least it (failed high), exactly it, or at most it (failed low).
fn window_bound(best: i32, alpha0: i32, beta: i32) -> Bound {
    if best >= beta {
        Bound::Lower
    } else if best > alpha0 {
        Bound::Exact
    } else {
        Bound::Upper
    }
}

/// The ordering scores of a node's moves, in the order of its move list. Only scores written
/// are ever read, so the kilobyte is not zeroed first: zeroing it at every node of the search
/// and of the quiescence search took a few per cent of the time.
struct Scores {
    len: usize,
    values: [MaybeUninit<i32>; MAX_NODE_MOVES],
}

impl Scores {
    #[inline(always)]
    fn new() -> Scores {
        Scores {
            len: 0,
            values: [const { MaybeUninit::uninit() }; MAX_NODE_MOVES],
        }
    }

    /// Appends the next move's score. Panics (a bug) past [`MAX_NODE_MOVES`]: the callers
    /// score at most that many.
    #[inline(always)]
    fn push(&mut self, score: i32) {
        self.values[self.len].write(score);
        self.len += 1;
    }

    /// The scores written so far.
    #[inline(always)]
    fn as_mut_slice(&mut self) -> &mut [i32] {
        // SAFETY: the first `len` values were written by `push`; `MaybeUninit<i32>` has the
        // layout of `i32`.
        unsafe { std::slice::from_raw_parts_mut(self.values.as_mut_ptr().cast(), self.len) }
    }
}

/// Selection sort step: brings the best remaining move to index `i` and returns it.
fn pick(moves: &mut [Move], scores: &mut [i32], i: usize) -> Move {
    // The best score so far is kept in hand rather than read back through its index, so that
    // the loop compiles to conditional moves: which move wins is unpredictable, and branches
    // on it cost more than the comparisons.
    let n = moves.len();
    let (mut best, mut best_score) = (i, scores[i]);
    for (j, &score) in scores[..n].iter().enumerate().skip(i + 1) {
        let better = score > best_score;
        best = if better { j } else { best };
        best_score = if better { score } else { best_score };
    }
    scores.swap(i, best);
    moves.swap(i, best);
    moves[i]
}

/// Captures, en passant and promotions: what quiescence searches.
pub fn is_tactical(pos: &Position, m: Move) -> bool {
    m.is_promotion()
        || m.is_en_passant()
        || (!m.is_castle() && pos.board().occupied().contains(m.to()))
}

fn captured_value(pos: &Position, m: Move) -> i32 {
    if m.is_en_passant() {
        return SEE_VALUE[0];
    }
    let promo = m
        .promotion_role()
        .map_or(0, |r| SEE_VALUE[r.index()] - SEE_VALUE[0]);
    pos.board()
        .role_at(m.to())
        .map_or(0, |r| SEE_VALUE[r.index()])
        + promo
}

/// The MVV/LVA ordering scores of `moves` into `scores`, for [`pick`]; returns how many
/// moves that is (at most [`MAX_NODE_MOVES`]).
fn mvv_lva_scores(pos: &Position, moves: &MoveList, scores: &mut Scores) -> usize {
    let n = moves.len().min(MAX_NODE_MOVES);
    for &m in moves.iter().take(n) {
        scores.push(mvv_lva(pos, m));
    }
    n
}

fn mvv_lva(pos: &Position, m: Move) -> i32 {
    let victim = captured_value(pos, m);
    let attacker = pos
        .board()
        .role_at(m.from())
        .map_or(0, |r| r.index() as i32);
    victim * 10 - attacker
}

fn has_pieces(pos: &Position) -> bool {
    let b = pos.board();
    let ours = b.by_color(pos.turn());
    (ours & !b.by_role(Role::Pawn) & !b.by_role(Role::King)).any()
}

fn score_to_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score + ply as i32
    } else if score <= -MATE_BOUND {
        score - ply as i32
    } else {
        score
    }
}

fn score_from_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score - ply as i32
    } else if score <= -MATE_BOUND {
        score + ply as i32
    } else {
        score
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chess960_core::StartId;

    /// The table survives searches with the same evaluation and is emptied for another one
    /// (the hand-crafted evaluation, another net, even an equal net loaded again).
    #[test]
    fn table_is_emptied_when_the_evaluation_changes() {
        let table = Table::new(1);
        let entry = Entry {
            mv: None,
            score: 17,
            eval: 17,
            depth: 3,
            bound: Bound::Exact,
        };
        let net = crate::nnue::default_net();
        let reloaded = net.as_ref().map(|n| Arc::new(Network::clone(n)));
        let mut eval = TableEval::default();
        let mut kept = |next: &Option<Arc<Network>>| {
            table.store(1, entry);
            eval.prepare(&table, next);
            table.probe(1).is_some()
        };
        assert!(kept(&net), "the first search keeps what is there");
        assert!(kept(&net));
        assert!(!kept(&None), "hand-crafted after the net");
        assert!(kept(&None));
        assert!(!kept(&net), "the net after hand-crafted");
        assert!(!kept(&reloaded), "another copy of the net");
    }

    fn search(fen: &str, limits: &Limits) -> (Outcome, u64) {
        let pos = Position::from_fen(fen).unwrap();
        let shared = Shared::new(1);
        let mut s = Searcher::new(&shared, 0, Vec::new(), Deadlines::default());
        let outcome = s.run(&pos, limits, |_| {});
        (outcome, s.nodes())
    }

    #[test]
    fn a_games_searches_keep_their_memory_until_it_is_cleared() {
        let limits = Limits {
            depth: Some(7),
            multipv: 1,
            ..Limits::default()
        };
        let first = StartId::new(402).unwrap().position();
        let m = first.legal_moves()[0];
        let second = first.play(m);
        let nodes = |shared: &Shared, pos: &Position| {
            // As `go` does: the last search stopped its helpers.
            shared.stop.store(false, Ordering::SeqCst);
            shared.tt.new_search();
            let mut s = Searcher::new(shared, 0, Vec::new(), Deadlines::default());
            s.run(pos, &limits, |_| {});
            s.nodes()
        };
        let fresh = nodes(&Shared::new(1), &second);
        let shared = Shared::new(1);
        nodes(&shared, &first);
        shared.tt.clear();
        // The table is empty, the history of the first search is not.
        let remembered = nodes(&shared, &second);
        assert_ne!(remembered, fresh);
        assert!(
            remembered > limits.depth.unwrap() as u64 * 20,
            "{remembered}"
        );
        // A new game forgets both: the same search as on a fresh table.
        nodes(&shared, &first);
        shared.clear();
        assert_eq!(nodes(&shared, &second), fresh);
    }

    #[test]
    fn the_node_limit_is_kept_to_the_node() {
        let fen = StartId::new(518).unwrap().position().fen();
        for limit in [200, 700, 1500, 5000] {
            let (outcome, nodes) = search(
                &fen,
                &Limits {
                    nodes: Some(limit),
                    multipv: 1,
                    ..Limits::default()
                },
            );
            // Once the limit is reached the search unwinds without visiting more nodes.
            assert!(
                (limit..limit + 8).contains(&nodes),
                "limit {limit}: searched {nodes} nodes"
            );
            assert!(outcome.best.is_some() && outcome.depth >= 1);
        }
    }

    #[test]
    fn a_tiny_node_limit_still_completes_depth_one() {
        // Kiwipete: 48 legal moves and captures everywhere, so depth 1 alone costs far more
        // than one node; the move must come from the full 1-ply search all the same.
        let fen = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
        let depth_one = |limits: Limits| search(fen, &limits);
        let (full, full_nodes) = depth_one(Limits {
            depth: Some(1),
            multipv: 1,
            ..Limits::default()
        });
        let (tiny, tiny_nodes) = depth_one(Limits {
            nodes: Some(1),
            multipv: 1,
            ..Limits::default()
        });
        assert!(full_nodes > 48);
        assert_eq!(tiny.depth, 1);
        assert_eq!(tiny.best, full.best);
        assert_eq!(tiny.score, full.score);
        assert!(tiny_nodes <= full_nodes + 8, "{tiny_nodes} vs {full_nodes}");
    }
}
