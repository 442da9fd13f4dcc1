//! The transposition table: shared by all search threads without locks.
//!
//! Each entry is two atomic words, the key XORed with the data, so a torn write from two
//! threads is detected as a miss instead of read as a wrong entry (the "lockless hashing" of
//! Hyatt and Mann).

use chess960_core::Move;
use std::sync::atomic::{AtomicU64, AtomicU8, Ordering};

/// What a stored score means.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The exact score.
    Exact,
    /// At least this score (the search failed high).
    Lower,
    /// At most this score (the search failed low).
    Upper,
}

/// A table hit.
#[derive(Clone, Copy, Debug)]
pub struct Entry {
    /// The best or refuting move, if one was found.
    pub mv: Option<Move>,
    /// The score, mate scores relative to the stored node.
    pub score: i32,
    /// The static evaluation.
    pub eval: i32,
    /// Remaining depth of the search that stored it.
    pub depth: i32,
    /// What the score means.
    pub bound: Bound,
}

struct Slot {
    key: AtomicU64,
    data: AtomicU64,
}

/// The table.
pub struct Table {
    slots: Vec<Slot>,
    age: AtomicU8,
}

impl Table {
    /// A table of about `mb` megabytes.
    pub fn new(mb: usize) -> Table {
        let n = (mb.max(1) * 1024 * 1024 / 16).next_power_of_two() / 2;
        let slots = (0..n.max(1024))
            .map(|_| Slot {
                key: AtomicU64::new(0),
                data: AtomicU64::new(0),
            })
            .collect();
        Table {
            slots,
            age: AtomicU8::new(0),
        }
    }

    fn index(&self, hash: u64) -> usize {
        // Multiply-high maps the hash onto the table without needing a power of two.
        ((hash as u128 * self.slots.len() as u128) >> 64) as usize
    }

    /// Empties the table.
    pub fn clear(&self) {
        for s in &self.slots {
            s.key.store(0, Ordering::Relaxed);
            s.data.store(0, Ordering::Relaxed);
        }
    }

    /// Marks a new search, so older entries are replaced first.
    pub fn new_search(&self) {
        self.age.fetch_add(1, Ordering::Relaxed);
    }

    /// Looks `hash` up.
    pub fn probe(&self, hash: u64) -> Option<Entry> {
        let slot = &self.slots[self.index(hash)];
        let data = slot.data.load(Ordering::Relaxed);
        if slot.key.load(Ordering::Relaxed) ^ data != hash || data == 0 {
            return None;
        }
        let mv = Move::from_u16(data as u16).filter(|m| m.to_u16() != 0);
        let score = (data >> 16) as u16 as i16 as i32;
        let eval = (data >> 32) as u16 as i16 as i32;
        let depth = (data >> 48) as u8 as i32;
        let bound = match (data >> 56) & 3 {
            1 => Bound::Exact,
            2 => Bound::Lower,
            _ => Bound::Upper,
        };
        Some(Entry {
            mv,
            score,
            eval,
            depth,
            bound,
        })
    }

    /// Stores a result, replacing the old entry unless it is from this search and deeper.
    pub fn store(&self, hash: u64, entry: Entry) {
        let slot = &self.slots[self.index(hash)];
        let age = self.age.load(Ordering::Relaxed) & 63;
        let old = slot.data.load(Ordering::Relaxed);
        let old_key = slot.key.load(Ordering::Relaxed) ^ old;
        let old_depth = (old >> 48) as u8 as i32;
        let old_age = (old >> 58) as u8;
        if old != 0 && old_age == age && old_key != hash && old_depth > entry.depth + 2 {
            return;
        }
        // Keep the old move when the new result has none for the same position.
        let mv = entry
            .mv
            .map(|m| m.to_u16())
            .or_else(|| (old_key == hash).then_some(old as u16))
            .unwrap_or(0);
        let bound = match entry.bound {
            Bound::Exact => 1u64,
            Bound::Lower => 2,
            Bound::Upper => 3,
        };
        let data = mv as u64
            | (entry.score.clamp(-32000, 32000) as i16 as u16 as u64) << 16
            | (entry.eval.clamp(-32000, 32000) as i16 as u16 as u64) << 32
            | (entry.depth.clamp(0, 255) as u64) << 48
            | bound << 56
            | (age as u64) << 58;
        slot.key.store(hash ^ data, Ordering::Relaxed);
        slot.data.store(data, Ordering::Relaxed);
    }

    /// Permille of a sample of slots used by the current search (UCI `hashfull`).
    pub fn hashfull(&self) -> u32 {
        let age = self.age.load(Ordering::Relaxed) & 63;
        let sample = self.slots.len().min(1000);
        let used = self.slots[..sample]
            .iter()
            .filter(|s| {
                let d = s.data.load(Ordering::Relaxed);
                d != 0 && (d >> 58) as u8 == age
            })
            .count();
        (used * 1000 / sample) as u32
    }
}
