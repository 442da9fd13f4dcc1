//! A bound on the engine games played at once, shared by every event a server plays (each
//! game keeps about one core busy: its two engines think in turn).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Condvar, Mutex};
use std::time::Duration;

/// Game slots: at most `capacity` games at once.
#[derive(Debug)]
pub struct Slots {
    free: Mutex<usize>,
    freed: Condvar,
    capacity: usize,
}

/// A slot held: given back when dropped.
#[derive(Debug)]
pub struct Slot<'a>(&'a Slots);

impl Slots {
    /// `capacity` slots (at least one).
    pub fn new(capacity: usize) -> Slots {
        let capacity = capacity.max(1);
        Slots {
            free: Mutex::new(capacity),
            freed: Condvar::new(),
            capacity,
        }
    }

    /// How many games may be played at once.
    pub fn capacity(&self) -> usize {
        self.capacity
    }

    /// Waits for a free slot; `None` once `stop` is set.
    pub fn take<'a>(&'a self, stop: &AtomicBool) -> Option<Slot<'a>> {
        let mut free = self.free.lock().unwrap_or_else(|p| p.into_inner());
        loop {
            if stop.load(Ordering::SeqCst) {
                return None;
            }
            if *free > 0 {
                *free -= 1;
                return Some(Slot(self));
            }
            // A stop is seen within this period even if no slot is freed.
            free = self
                .freed
                .wait_timeout(free, Duration::from_millis(100))
                .unwrap_or_else(|p| p.into_inner())
                .0;
        }
    }
}

impl Drop for Slot<'_> {
    fn drop(&mut self) {
        let mut free = self.0.free.lock().unwrap_or_else(|p| p.into_inner());
        *free += 1;
        self.0.freed.notify_one();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicUsize;
    use std::sync::Arc;

    #[test]
    fn never_more_than_capacity_at_once() {
        let slots = Arc::new(Slots::new(2));
        let stop = Arc::new(AtomicBool::new(false));
        let now = Arc::new(AtomicUsize::new(0));
        let most = Arc::new(AtomicUsize::new(0));
        let threads: Vec<_> = (0..6)
            .map(|_| {
                let (slots, stop, now, most) =
                    (slots.clone(), stop.clone(), now.clone(), most.clone());
                std::thread::spawn(move || {
                    let _slot = slots.take(&stop).expect("not stopped");
                    let n = now.fetch_add(1, Ordering::SeqCst) + 1;
                    most.fetch_max(n, Ordering::SeqCst);
                    std::thread::sleep(Duration::from_millis(30));
                    now.fetch_sub(1, Ordering::SeqCst);
                })
            })
            .collect();
        for t in threads {
            t.join().unwrap();
        }
        assert_eq!(most.load(Ordering::SeqCst), 2);
    }

    #[test]
    fn a_stop_ends_the_wait() {
        let slots = Slots::new(1);
        let stop = AtomicBool::new(false);
        let held = slots.take(&stop).unwrap();
        stop.store(true, Ordering::SeqCst);
        assert!(slots.take(&stop).is_none());
        drop(held);
    }
}
