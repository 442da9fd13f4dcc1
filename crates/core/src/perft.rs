//! Perft: counting the leaves of the legal move tree, the standard test of a move generator.

use crate::moves::{Move, MoveList};
use crate::position::Position;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

/// The deepest perft worth asking for: from a start position the count passes 2^64 near depth
/// 14, and depth 20 would take longer than the age of the universe. The recursion goes as deep
/// as the depth, so callers taking a depth from a user refuse deeper ones (`chess960 perft`
/// does) rather than overflow the stack.
pub const MAX_DEPTH: u32 = 20;

/// Number of legal move sequences of length `depth` from `pos`. Leaves are counted in bulk
/// (the last ply is counted, not played). Recurses `depth` deep: see [`MAX_DEPTH`].
pub fn perft(pos: &Position, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => pos.count_legal_moves(),
        _ => {
            let mut moves = MoveList::new();
            pos.legal_moves_into(&mut moves);
            moves.iter().map(|&m| perft(&pos.play(m), depth - 1)).sum()
        }
    }
}

/// Perft per root move ("divide"), in move-generation order.
pub fn divide(pos: &Position, depth: u32) -> Vec<(Move, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    pos.legal_moves()
        .iter()
        .map(|&m| (m, perft(&pos.play(m), depth - 1)))
        .collect()
}

/// [`divide`] on `threads` threads (root moves are handed out one at a time), calling
/// `progress(done, total)` after each root move.
pub fn divide_parallel(
    pos: &Position,
    depth: u32,
    threads: usize,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> Vec<(Move, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    let moves: Vec<Move> = pos.legal_moves().iter().copied().collect();
    let next = AtomicUsize::new(0);
    let done = AtomicUsize::new(0);
    let results = Mutex::new(vec![0u64; moves.len()]);
    std::thread::scope(|scope| {
        for _ in 0..threads.max(1).min(moves.len().max(1)) {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(&m) = moves.get(i) else { break };
                let n = perft(&pos.play(m), depth - 1);
                results.lock().unwrap_or_else(|e| e.into_inner())[i] = n;
                let d = done.fetch_add(1, Ordering::Relaxed) + 1;
                progress(d, moves.len());
            });
        }
    });
    let results = results.into_inner().unwrap_or_else(|e| e.into_inner());
    moves.into_iter().zip(results).collect()
}

/// Perft on `threads` threads.
pub fn perft_parallel(pos: &Position, depth: u32, threads: usize) -> u64 {
    if depth <= 1 || threads <= 1 {
        return perft(pos, depth);
    }
    divide_parallel(pos, depth, threads, &|_, _| {})
        .iter()
        .map(|(_, n)| n)
        .sum()
}
