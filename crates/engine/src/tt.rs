//! The transposition table: shared by all search threads without locks.
//!
//! Each entry is two atomic words, the key XORed with the data, so a torn write from two
//! threads is detected as a miss instead of read as a wrong entry (the "lockless hashing" of
//! Hyatt and Mann).

use crate::pages::{self, HugeSlice, Zeroable};
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

/// Four slots in one cache line: a probe reads one line, and a store chooses which of four
/// entries to give up instead of having to overwrite (or keep) the one the key maps to.
#[repr(align(64))]
struct Bucket([Slot; Bucket::SLOTS]);

impl Bucket {
    const SLOTS: usize = 4;
}

// SAFETY: a bucket is atomic integers; all zeros is four empty slots.
unsafe impl Zeroable for Bucket {}

/// The table.
pub struct Table {
    /// In huge pages: a probe lands anywhere in megabytes of table.
    buckets: HugeSlice<Bucket>,
    age: AtomicU8,
}

/// The search that wrote an entry's data (6 bits, wrapping).
fn age_of(data: u64) -> u8 {
    (data >> 58) as u8
}

/// The remaining depth of an entry's data.
fn depth_of(data: u64) -> i32 {
    (data >> 48) as u8 as i32
}

impl Table {
    /// A table within `mb` megabytes: the largest power of two of buckets that fits in half
    /// of them (at least 64 KB). Half, as before the buckets: a table of the full 16 MB made
    /// the search 14 % slower in nodes per second than one of 8 MB on the machine measured
    /// (more pages than the processor's address cache holds), for more entries than a search
    /// at these time controls fills.
    ///
    /// Aborts if the memory cannot be had; [`Table::try_new`] is for sizes asked for from
    /// outside.
    pub fn new(mb: usize) -> Table {
        Table::with_buckets(HugeSlice::zeroed(Table::buckets_for(mb)))
    }

    /// As [`Table::new`], or `None` if the memory cannot be had (UCI `Hash` keeps the old
    /// table then).
    pub fn try_new(mb: usize) -> Option<Table> {
        HugeSlice::try_zeroed(Table::buckets_for(mb)).map(Table::with_buckets)
    }

    /// How many buckets a table of `mb` megabytes has.
    fn buckets_for(mb: usize) -> usize {
        // Saturating: a `Hash` beyond the address space is refused by the allocator instead
        // of wrapping round to a small table.
        let bytes = mb.max(1).saturating_mul(1024 * 1024) / 2;
        let n = (bytes / std::mem::size_of::<Bucket>() + 1).next_power_of_two() / 2;
        n.max(1024)
    }

    /// The bytes of a table of `mb` megabytes (as [`Table::bytes`] would say once made).
    pub fn bytes_for(mb: usize) -> usize {
        Table::buckets_for(mb).saturating_mul(std::mem::size_of::<Bucket>())
    }

    /// The bytes of this table's entries.
    pub fn bytes(&self) -> usize {
        self.buckets.len() * std::mem::size_of::<Bucket>()
    }

    fn with_buckets(buckets: HugeSlice<Bucket>) -> Table {
        Table {
            buckets,
            age: AtomicU8::new(0),
        }
    }

    fn bucket(&self, hash: u64) -> &Bucket {
        // Multiply-high maps the hash onto the table without needing a power of two.
        &self.buckets[((hash as u128 * self.buckets.len() as u128) >> 64) as usize]
    }

    fn slots(&self) -> impl Iterator<Item = &Slot> {
        self.buckets.iter().flat_map(|b| b.0.iter())
    }

    /// Empties the table.
    pub fn clear(&self) {
        for s in self.slots() {
            s.key.store(0, Ordering::Relaxed);
            s.data.store(0, Ordering::Relaxed);
        }
    }

    /// Marks a new search, so older entries are replaced first.
    pub fn new_search(&self) {
        self.age.fetch_add(1, Ordering::Relaxed);
    }

    /// Asks the processor to fetch `hash`'s bucket into its cache, so that the probe a little
    /// later (in the child node just made) does not wait for memory.
    #[inline(always)]
    pub fn prefetch(&self, hash: u64) {
        pages::prefetch(self.bucket(hash));
    }

    /// Looks `hash` up.
    pub fn probe(&self, hash: u64) -> Option<Entry> {
        let data = self.bucket(hash).0.iter().find_map(|slot| {
            let data = slot.data.load(Ordering::Relaxed);
            (data != 0 && slot.key.load(Ordering::Relaxed) ^ data == hash).then_some(data)
        })?;
        let mv = Move::from_u16(data as u16).filter(|m| m.to_u16() != 0);
        let score = (data >> 16) as u16 as i16 as i32;
        let eval = (data >> 32) as u16 as i16 as i32;
        let depth = depth_of(data);
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

    /// Stores a result: over the position's own entry if the bucket has one, else over an
    /// empty slot, else over the entry worth least (the shallowest, four plies of depth per
    /// search of age).
    pub fn store(&self, hash: u64, entry: Entry) {
        let age = self.age.load(Ordering::Relaxed) & 63;
        let bucket = self.bucket(hash);
        let worth = |data: u64| {
            if data == 0 {
                return i32::MIN;
            }
            let stale = i32::from(age.wrapping_sub(age_of(data)) & 63);
            depth_of(data) - 4 * stale
        };
        let mut chosen = &bucket.0[0];
        let mut old = chosen.data.load(Ordering::Relaxed);
        let mut old_key = chosen.key.load(Ordering::Relaxed) ^ old;
        for slot in &bucket.0 {
            let data = slot.data.load(Ordering::Relaxed);
            let key = slot.key.load(Ordering::Relaxed) ^ data;
            if data != 0 && key == hash {
                (chosen, old, old_key) = (slot, data, key);
                break;
            }
            if worth(data) < worth(old) {
                (chosen, old, old_key) = (slot, data, key);
            }
        }
        let slot = chosen;
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
        let sample = (self.buckets.len() * Bucket::SLOTS).min(1000);
        let used = self
            .slots()
            .take(sample)
            .filter(|s| {
                let d = s.data.load(Ordering::Relaxed);
                d != 0 && age_of(d) == age
            })
            .count();
        (used * 1000 / sample) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(depth: i32) -> Entry {
        Entry {
            mv: None,
            score: depth * 10,
            eval: -depth,
            depth,
            bound: Bound::Exact,
        }
    }

    #[test]
    fn a_bucket_keeps_four_positions_and_gives_up_the_least_worth() {
        let table = Table::new(1);
        // Hashes differing only in their low bits fall into one bucket.
        let key = |i: u64| 0x9000_0000_0000_0000 | i;
        for i in 1..=4 {
            table.store(key(i), entry(i as i32 + 4));
        }
        for i in 1..=4 {
            let e = table.probe(key(i)).expect("all four kept");
            assert_eq!(
                (e.depth, e.score, e.eval),
                (i as i32 + 4, (i as i32 + 4) * 10, -(i as i32 + 4))
            );
        }
        // A fifth position replaces the shallowest.
        table.store(key(5), entry(1));
        assert!(table.probe(key(1)).is_none());
        assert!((2..=5).all(|i| table.probe(key(i)).is_some()));
        // A position's own entry is replaced, whatever its depth.
        table.store(key(4), entry(0));
        assert_eq!(table.probe(key(4)).unwrap().depth, 0);
        assert!((2..=5).all(|i| table.probe(key(i)).is_some()));
        // Entries of older searches go before deeper ones of this search. Two searches later
        // the bucket holds 5 (depth 0, this search: worth 0), 2, 3 and 4 (depths 6, 7 and 0,
        // two searches old: worth -2, -1 and -8).
        table.new_search();
        table.new_search();
        table.store(key(5), entry(0));
        table.store(key(6), entry(3));
        assert!(
            table.probe(key(4)).is_none(),
            "the old entry of depth 0 went first"
        );
        table.store(key(7), entry(3));
        assert!(table.probe(key(2)).is_none(), "then the old one of depth 6");
        assert!([3, 5, 6, 7].iter().all(|&i| table.probe(key(i)).is_some()));
        assert_eq!(table.probe(key(5)).unwrap().depth, 0);
        // Clearing empties every slot.
        table.clear();
        assert!((1..=7).all(|i| table.probe(key(i)).is_none()));
    }

    #[test]
    fn the_table_takes_half_the_memory_asked_for() {
        assert_eq!(std::mem::size_of::<Bucket>(), 64);
        for (mb, bytes) in [
            (1, 512 << 10),
            (16, 8 << 20),
            (17, 8 << 20),
            (100, 32 << 20),
        ] {
            assert_eq!(Table::new(mb).buckets.len() * 64, bytes, "Hash {mb}");
            assert_eq!(Table::bytes_for(mb), bytes);
            assert_eq!(Table::try_new(mb).map(|t| t.bytes()), Some(bytes));
        }
        // More than any address space: refused, not wrapped round to a small table.
        assert!(Table::try_new(usize::MAX).is_none());
    }
}
