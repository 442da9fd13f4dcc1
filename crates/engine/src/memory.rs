//! What a game's searches learn about moves and keep from one move to the next: the history
//! of quiet moves and the counter moves. A search that starts from scratch every move spends
//! its first iterations relearning which quiet moves cut off in positions much like those of
//! the last search; kept, the ordering is good from the first iteration. `ucinewgame` (and a
//! new game of a [`crate::player::Player`]) forgets it, so that one game's lessons do not
//! steer the next and a game replayed gives the same moves.

use chess960_core::{Move, Position};
use std::sync::Mutex;

/// One search thread's memory of moves.
pub struct Memory {
    /// Per side, from-square and to-square: how often a quiet move cut off (up), or was
    /// tried before the move that did (down); gravity keeps it within ±16,384.
    pub history: [[[i32; 64]; 64]; 2],
    /// Per previous move's from- and to-square: the quiet move that last refuted it.
    pub counter: [[Option<Move>; 64]; 64],
}

impl Memory {
    /// An empty memory.
    pub fn new() -> Box<Memory> {
        Box::new(Memory {
            history: [[[0; 64]; 64]; 2],
            counter: [[None; 64]; 64],
        })
    }

    /// The history score of quiet move `m` for the side to move in `pos`.
    pub fn history_of(&self, pos: &Position, m: Move) -> i32 {
        self.history[pos.turn().index()][m.from().index()][m.to().index()]
    }
}

/// The memories of a table's search threads between searches, by thread.
#[derive(Default)]
pub struct Memories {
    slots: Mutex<Vec<Option<Box<Memory>>>>,
}

impl Memories {
    /// Thread `thread`'s memory, empty if it has none (the first search, after
    /// [`Memories::clear`], or while another search with the same thread number runs).
    pub fn take(&self, thread: usize) -> Box<Memory> {
        let mut slots = self.slots.lock().unwrap_or_else(|e| e.into_inner());
        slots
            .get_mut(thread)
            .and_then(Option::take)
            .unwrap_or_else(Memory::new)
    }

    /// Gives thread `thread`'s memory back at the end of its search.
    pub fn give(&self, thread: usize, memory: Box<Memory>) {
        let mut slots = self.slots.lock().unwrap_or_else(|e| e.into_inner());
        if slots.len() <= thread {
            slots.resize_with(thread + 1, || None);
        }
        slots[thread] = Some(memory);
    }

    /// Forgets every thread's memory (a new game).
    pub fn clear(&self) {
        self.slots.lock().unwrap_or_else(|e| e.into_inner()).clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_memory_given_back_is_taken_again_until_cleared() {
        let memories = Memories::default();
        let mut m = memories.take(2);
        assert_eq!(m.history[0][12][28], 0);
        m.history[0][12][28] = 77;
        memories.give(2, m);
        // Another thread's slot is its own.
        assert_eq!(memories.take(0).history[0][12][28], 0);
        let m = memories.take(2);
        assert_eq!(m.history[0][12][28], 77);
        // Taken: a second search on thread 2 meanwhile starts empty.
        assert_eq!(memories.take(2).history[0][12][28], 0);
        memories.give(2, m);
        memories.clear();
        assert_eq!(memories.take(2).history[0][12][28], 0);
    }
}
