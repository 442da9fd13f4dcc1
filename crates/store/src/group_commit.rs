//! Group commit: writes that arrive together share one commit.
//!
//! Every acknowledged move is durable, so each commit waits for the disk (one `fsync`). Moves
//! of many games arrive in bursts (a hundred games whose players answer at once), and one
//! commit per move makes the last move of a burst wait for all the others' flushes: with a
//! disk that takes half a millisecond per flush, 100 moves at once meant 50 ms for the last
//! (docs/server.md, "Group commit"). Here a write is queued, and one writer carries out every
//! queued write in one transaction, each in a savepoint of its own so that one refused write
//! does not undo the others, commits once, and leaves each writer its own result.
//!
//! A queued write owns what it needs (nothing borrowed from its caller's stack), since another
//! writer's thread may carry it out. One writer at a time leads: it takes the queue, carries it
//! out, fills in the results and wakes the others; a writer whose result is in returns at once,
//! without waiting for the connection (with an unfair lock it could otherwise wait behind
//! several later batches), and one of the rest leads the next batch.

use crate::StoreError;
use std::sync::{Arc, Condvar, Mutex, MutexGuard};

/// A queue of writes of type `Op` in front of one connection.
pub(crate) struct GroupCommit<Op> {
    state: Mutex<State<Op>>,
    /// Signalled whenever a batch's results are in.
    done: Condvar,
}

struct State<Op> {
    queue: Vec<Arc<Slot<Op>>>,
    /// A writer is carrying out a batch.
    leading: bool,
}

/// One queued write (taken by the writer that carries it out) and, once carried out, its
/// result.
struct Slot<Op> {
    op: Mutex<Option<Op>>,
    result: Mutex<Option<Result<(), StoreError>>>,
}

impl<Op> Default for GroupCommit<Op> {
    fn default() -> Self {
        GroupCommit {
            state: Mutex::new(State {
                queue: Vec::new(),
                leading: false,
            }),
            done: Condvar::new(),
        }
    }
}

impl<Op> GroupCommit<Op> {
    /// Queues `op` and returns its result once it is committed (or refused).
    ///
    /// `lock` takes the connection; `run` carries out a batch of writes on it and returns
    /// one result per write, in order (`Err` for every write when the commit failed).
    pub(crate) fn submit<'c, C: 'c>(
        &self,
        op: Op,
        lock: impl FnOnce() -> MutexGuard<'c, C>,
        run: impl FnOnce(&mut C, Vec<Op>) -> Vec<Result<(), StoreError>>,
    ) -> Result<(), StoreError> {
        let slot = Arc::new(Slot {
            op: Mutex::new(Some(op)),
            result: Mutex::new(None),
        });
        let mut state = lock_ignoring_poison(&self.state);
        state.queue.push(Arc::clone(&slot));
        loop {
            if let Some(result) = lock_ignoring_poison(&slot.result).take() {
                return result;
            }
            if !state.leading {
                break;
            }
            state = self.done.wait(state).unwrap_or_else(|p| p.into_inner());
        }
        // This writer leads the next batch: every write queued so far, its own among them
        // (a slot leaves the queue only with a leader, who fills its result in).
        state.leading = true;
        let batch = Lead {
            group: self,
            slots: std::mem::take(&mut state.queue),
        };
        drop(state);
        let ops: Vec<Op> = (batch.slots.iter())
            .filter_map(|s| lock_ignoring_poison(&s.op).take())
            .collect();
        let results = {
            let mut conn = lock();
            run(&mut conn, ops)
        };
        let mut results = results.into_iter();
        for s in &batch.slots {
            *lock_ignoring_poison(&s.result) = Some(results.next().unwrap_or_else(missing));
        }
        drop(batch);
        let own = lock_ignoring_poison(&slot.result).take();
        own.unwrap_or_else(missing)
    }
}

/// The batch a leader carries out. Dropped when the results are in, or when `run` panicked:
/// either way the next writer may lead and the waiting ones are woken; a write left without
/// a result (the panic rolled its transaction back) is reported as not stored.
struct Lead<'g, Op> {
    group: &'g GroupCommit<Op>,
    slots: Vec<Arc<Slot<Op>>>,
}

impl<Op> Drop for Lead<'_, Op> {
    fn drop(&mut self) {
        for s in &self.slots {
            lock_ignoring_poison(&s.result).get_or_insert_with(|| {
                Err(StoreError::Backend(
                    "the write was lost with a failure of its batch; nothing was stored".into(),
                ))
            });
        }
        lock_ignoring_poison(&self.group.state).leading = false;
        self.group.done.notify_all();
    }
}

fn missing() -> Result<(), StoreError> {
    Err(StoreError::Backend("a batched write had no result".into()))
}

fn lock_ignoring_poison<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    // The queue and the results are plain data, whole at every point a panic could happen.
    m.lock().unwrap_or_else(|p| p.into_inner())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Barrier;
    use std::thread;
    use std::time::Duration;

    /// Many writers at once: each gets its own result, refused writes stay refused, and the
    /// writes are carried out in fewer batches than writes.
    #[test]
    fn writers_at_once_share_batches_and_keep_their_own_results() {
        struct Conn {
            applied: Vec<u32>,
            batches: usize,
        }
        let conn = Mutex::new(Conn {
            applied: Vec::new(),
            batches: 0,
        });
        let group = GroupCommit::<u32>::default();
        let n = 64;
        let barrier = Barrier::new(n);
        thread::scope(|s| {
            for i in 0..n as u32 {
                let (conn, group, barrier) = (&conn, &group, &barrier);
                s.spawn(move || {
                    barrier.wait();
                    let r = group.submit(
                        i,
                        || conn.lock().unwrap(),
                        |c, ops| {
                            c.batches += 1;
                            // A slow flush, as a disk's, so that others queue meanwhile.
                            thread::sleep(Duration::from_millis(5));
                            ops.into_iter()
                                .map(|op| {
                                    if op % 7 == 3 {
                                        Err(StoreError::Conflict(format!("refused {op}")))
                                    } else {
                                        c.applied.push(op);
                                        Ok(())
                                    }
                                })
                                .collect()
                        },
                    );
                    match r {
                        Err(StoreError::Conflict(m)) => {
                            assert_eq!(i % 7, 3);
                            assert_eq!(m, format!("refused {i}"));
                        }
                        Ok(()) => assert_ne!(i % 7, 3),
                        other => panic!("{i}: {other:?}"),
                    }
                });
            }
        });
        let c = conn.into_inner().unwrap();
        let mut applied = c.applied.clone();
        applied.sort_unstable();
        let expected: Vec<u32> = (0..n as u32).filter(|i| i % 7 != 3).collect();
        assert_eq!(applied, expected);
        assert!(c.batches < n / 2, "{} batches for {n} writes", c.batches);
    }
}
