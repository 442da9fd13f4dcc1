//! The search pool: every engine search of the server (the engine's moves, draw offers,
//! analysis) runs here, on a fixed number of worker threads of its own, never on tokio's
//! threads or its blocking pool. So however many searches are asked for, the requests that
//! are not searches (moves, new games, views) and the database writes keep their latency, and
//! the memory the engine needs is bounded: each worker owns one engine ([`Player`]) with one
//! hash table, created when the worker runs its first search, and reused for every search
//! after (a table is keyed by position, so one table serves any game).
//!
//! Waiting searches are queued per client (the IP address that asked) and the workers take
//! them round-robin from the clients that have some, so one client with hundreds of queued
//! searches delays another client's search by at most one search per worker. Within a client,
//! quick searches (a draw offer: a fraction of a second) go before the others.
//!
//! A search is cancelled by its [`Ticket`]: a waiting one leaves the queue at once, a running
//! one is told to stop (its result is then ignored by whoever asked).

use chess960_engine::player::Player;
use std::collections::VecDeque;
use std::net::IpAddr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};
use tokio::sync::oneshot;

/// How urgent a search is, within one client's queue.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Urgency {
    /// Short and bounded (a draw offer's evaluation): before the client's other searches.
    Quick,
    /// Everything else.
    Normal,
}

/// A search as the pool runs it: given the worker's engine, the search's stop flag and how
/// long the search waited in the queue.
type Work = Box<dyn FnOnce(&Player, &AtomicBool, Duration) + Send>;

struct Job {
    id: u64,
    queued_at: Instant,
    stop: Arc<AtomicBool>,
    work: Work,
}

/// The waiting searches of one client.
struct ClientQueue {
    client: IpAddr,
    quick: VecDeque<Job>,
    normal: VecDeque<Job>,
}

impl ClientQueue {
    fn len(&self) -> usize {
        self.quick.len() + self.normal.len()
    }

    /// The index of job `id` in this client's order (quick ones first).
    fn index_of(&self, id: u64) -> Option<usize> {
        self.quick
            .iter()
            .chain(self.normal.iter())
            .position(|j| j.id == id)
    }

    fn remove(&mut self, id: u64) -> bool {
        for q in [&mut self.quick, &mut self.normal] {
            if let Some(i) = q.iter().position(|j| j.id == id) {
                q.remove(i);
                return true;
            }
        }
        false
    }

    fn pop(&mut self) -> Option<Job> {
        self.quick.pop_front().or_else(|| self.normal.pop_front())
    }
}

#[derive(Default)]
struct Queue {
    /// Clients with waiting searches, in the order they will be served next: the workers take
    /// one search from the front client, which then goes to the back.
    clients: VecDeque<ClientQueue>,
    waiting: usize,
    /// The stop flags of the running searches, by id.
    running: Vec<(u64, Arc<AtomicBool>)>,
    next_id: u64,
    shutdown: bool,
}

struct Shared {
    queue: Mutex<Queue>,
    wake: Condvar,
    workers: usize,
    hash_mb: usize,
}

impl Shared {
    fn lock(&self) -> MutexGuard<'_, Queue> {
        self.queue.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// The pool. Cloning gives another handle to the same pool.
#[derive(Clone)]
pub struct SearchPool {
    shared: Arc<Shared>,
}

/// How many searches wait and run, for logs and tests.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PoolLoad {
    /// Searches waiting for a worker.
    pub waiting: usize,
    /// Searches running.
    pub running: usize,
    /// Worker threads.
    pub workers: usize,
}

/// A search's place in the queue.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct QueuePlace {
    /// Searches that will start before it (if no other client's search arrives meanwhile).
    pub ahead: usize,
    /// How long it has waited so far.
    pub waited: Duration,
}

/// A submitted search: cancels it, tells its place in the queue.
pub struct Ticket {
    id: u64,
    queued_at: Instant,
    stop: Arc<AtomicBool>,
    pool: std::sync::Weak<Shared>,
}

impl SearchPool {
    /// A pool of `workers` threads (at least one), each with an engine whose hash table has
    /// `hash_mb` MiB.
    pub fn new(workers: usize, hash_mb: usize) -> SearchPool {
        let workers = workers.max(1);
        let shared = Arc::new(Shared {
            queue: Mutex::new(Queue::default()),
            wake: Condvar::new(),
            workers,
            hash_mb: hash_mb.max(1),
        });
        for i in 0..workers {
            let shared = Arc::clone(&shared);
            let spawned = std::thread::Builder::new()
                .name(format!("search-{i}"))
                .spawn(move || worker(&shared));
            if let Err(e) = spawned {
                // Fewer workers than asked for still work; none at all is reported by `submit`
                // never completing, so say it here.
                tracing::error!("cannot start search worker {i}: {e}");
            }
        }
        SearchPool { shared }
    }

    /// Queues `work` for `client`. It runs on a worker with the worker's engine, the search's
    /// stop flag (set when the ticket cancels the search or the pool shuts down: the work
    /// passes it to the engine) and the time it waited; its result arrives on the receiver.
    /// The receiver gets an error instead if the search is cancelled before it starts or the
    /// pool shuts down.
    pub fn submit<T: Send + 'static>(
        &self,
        client: IpAddr,
        urgency: Urgency,
        work: impl FnOnce(&Player, &AtomicBool, Duration) -> T + Send + 'static,
    ) -> (Ticket, oneshot::Receiver<T>) {
        let (tx, rx) = oneshot::channel();
        let stop = Arc::new(AtomicBool::new(false));
        let queued_at = Instant::now();
        let mut q = self.shared.lock();
        q.next_id += 1;
        let id = q.next_id;
        let ticket = Ticket {
            id,
            queued_at,
            stop: Arc::clone(&stop),
            pool: Arc::downgrade(&self.shared),
        };
        if q.shutdown {
            return (ticket, rx); // `tx` dropped: the receiver sees the pool gone
        }
        let job = Job {
            id,
            queued_at,
            stop,
            work: Box::new(
                move |player: &Player, stop: &AtomicBool, waited: Duration| {
                    let _ = tx.send(work(player, stop, waited));
                },
            ),
        };
        let i = match q.clients.iter().position(|c| c.client == client) {
            Some(i) => i,
            None => {
                q.clients.push_back(ClientQueue {
                    client,
                    quick: VecDeque::new(),
                    normal: VecDeque::new(),
                });
                q.clients.len() - 1
            }
        };
        match urgency {
            Urgency::Quick => q.clients[i].quick.push_back(job),
            Urgency::Normal => q.clients[i].normal.push_back(job),
        }
        q.waiting += 1;
        drop(q);
        self.shared.wake.notify_one();
        (ticket, rx)
    }

    /// Searches waiting and running now.
    pub fn load(&self) -> PoolLoad {
        let q = self.shared.lock();
        PoolLoad {
            waiting: q.waiting,
            running: q.running.len(),
            workers: self.shared.workers,
        }
    }

    /// Drops every waiting search, stops the running ones, and ends the workers once their
    /// current search returns.
    pub fn shut_down(&self) {
        let mut q = self.shared.lock();
        q.shutdown = true;
        for (_, stop) in &q.running {
            stop.store(true, Ordering::SeqCst);
        }
        for c in q.clients.drain(..) {
            for job in c.quick.into_iter().chain(c.normal) {
                job.stop.store(true, Ordering::SeqCst);
            }
        }
        q.waiting = 0;
        drop(q);
        self.shared.wake.notify_all();
    }
}

impl Ticket {
    /// Cancels the search: a waiting one leaves the queue, a running one is told to stop.
    pub fn cancel(&self) {
        self.stop.store(true, Ordering::SeqCst);
        let Some(shared) = self.pool.upgrade() else {
            return;
        };
        let mut q = shared.lock();
        let Some(i) = q.clients.iter().position(|c| c.index_of(self.id).is_some()) else {
            return; // running or done
        };
        if q.clients[i].remove(self.id) {
            q.waiting -= 1;
        }
        if q.clients[i].len() == 0 {
            q.clients.remove(i);
        }
    }

    /// The search's place in the queue while it waits; `None` once it runs (or is done).
    pub fn place(&self) -> Option<QueuePlace> {
        let shared = self.pool.upgrade()?;
        let q = shared.lock();
        let at = q
            .clients
            .iter()
            .position(|c| c.index_of(self.id).is_some())?;
        let k = q.clients[at].index_of(self.id)?;
        // Round-robin from the front: each client ahead of ours in the ring gives up to k + 1
        // searches before ours starts, each behind it up to k.
        let ahead = k + q
            .clients
            .iter()
            .enumerate()
            .filter(|&(i, _)| i != at)
            .map(|(i, c)| c.len().min(if i < at { k + 1 } else { k }))
            .sum::<usize>();
        Some(QueuePlace {
            ahead,
            waited: self.queued_at.elapsed(),
        })
    }
}

/// A worker: takes the next search round-robin over the clients and runs it with its engine,
/// which it creates for its first search.
fn worker(shared: &Shared) {
    lower_priority();
    let mut player: Option<Player> = None;
    loop {
        let job = {
            let mut q = shared.lock();
            loop {
                if q.shutdown {
                    return;
                }
                if let Some(mut c) = q.clients.pop_front() {
                    let job = c.pop();
                    if c.len() > 0 {
                        q.clients.push_back(c);
                    }
                    if let Some(job) = job {
                        q.waiting -= 1;
                        q.running.push((job.id, Arc::clone(&job.stop)));
                        break job;
                    }
                    continue;
                }
                q = shared.wake.wait(q).unwrap_or_else(|e| e.into_inner());
            }
        };
        let id = job.id;
        if !job.stop.load(Ordering::SeqCst) {
            let player = player.get_or_insert_with(|| Player::new(shared.hash_mb));
            let waited = job.queued_at.elapsed();
            // A search that panics must not take the worker with it; its receiver then sees
            // the sender dropped and reports a failed search.
            let (work, stop) = (job.work, &*job.stop);
            let run = std::panic::AssertUnwindSafe(move || work(player, stop, waited));
            if std::panic::catch_unwind(run).is_err() {
                tracing::error!("an engine search panicked; its game is told so");
            }
        }
        shared.lock().running.retain(|(i, _)| *i != id);
    }
}

/// The nice value of the search threads: below the request and database threads, so that
/// on a machine whose cores are all searching, a request still gets a core at once.
#[cfg(target_os = "linux")]
const SEARCH_NICE: libc::c_int = 10;

/// Lowers the calling thread's scheduling priority to [`SEARCH_NICE`]. On Linux a nice value
/// belongs to one thread, so this leaves the rest of the server as it is. Where that fails
/// (or elsewhere) searches run at normal priority.
fn lower_priority() {
    #[cfg(target_os = "linux")]
    // SAFETY: gettid has no preconditions; setpriority only reads its arguments.
    unsafe {
        let tid = libc::gettid();
        if libc::setpriority(libc::PRIO_PROCESS, tid as libc::id_t, SEARCH_NICE) != 0 {
            tracing::debug!("cannot lower the priority of a search thread");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::net::Ipv4Addr;
    use std::sync::mpsc;

    fn ip(n: u8) -> IpAddr {
        IpAddr::V4(Ipv4Addr::new(10, 0, 0, n))
    }

    /// A job that reports its name when it starts and then waits for `go`.
    fn gated(
        pool: &SearchPool,
        client: IpAddr,
        urgency: Urgency,
        name: &'static str,
        started: &mpsc::Sender<&'static str>,
        go: &Arc<(Mutex<bool>, Condvar)>,
    ) -> (Ticket, oneshot::Receiver<&'static str>) {
        let (started, go) = (started.clone(), Arc::clone(go));
        pool.submit(client, urgency, move |_, _, _| {
            started.send(name).unwrap();
            let (lock, cv) = &*go;
            let mut open = lock.lock().unwrap();
            while !*open {
                open = cv.wait(open).unwrap();
            }
            name
        })
    }

    fn open(go: &Arc<(Mutex<bool>, Condvar)>) {
        *go.0.lock().unwrap() = true;
        go.1.notify_all();
    }

    #[test]
    fn clients_are_served_round_robin_and_quick_first() {
        let pool = SearchPool::new(1, 1);
        let (tx, rx) = mpsc::channel();
        let gate = Arc::new((Mutex::new(false), Condvar::new()));
        // The one worker is held by a first search while the others queue up.
        let _first = gated(&pool, ip(9), Urgency::Normal, "first", &tx, &gate);
        assert_eq!(rx.recv().unwrap(), "first");
        let mut tickets = Vec::new();
        for name in ["a1", "a2", "a3"] {
            tickets.push(gated(&pool, ip(1), Urgency::Normal, name, &tx, &gate));
        }
        tickets.push(gated(&pool, ip(2), Urgency::Normal, "b1", &tx, &gate));
        tickets.push(gated(&pool, ip(1), Urgency::Quick, "a-quick", &tx, &gate));
        assert_eq!(pool.load().waiting, 5);
        // a1 is first of client 1, b1 first of client 2: a-quick goes before a1, and b1 has
        // one search of client 1 ahead of it.
        assert_eq!(tickets[0].0.place().unwrap().ahead, 2);
        assert_eq!(tickets[3].0.place().unwrap().ahead, 1);
        assert_eq!(tickets[4].0.place().unwrap().ahead, 0);
        open(&gate);
        let order: Vec<_> = (0..5).map(|_| rx.recv().unwrap()).collect();
        assert_eq!(order, ["a-quick", "b1", "a1", "a2", "a3"]);
        for (t, _) in &tickets {
            assert_eq!(t.place(), None);
        }
    }

    #[test]
    fn a_cancelled_search_leaves_the_queue_and_never_runs() {
        let pool = SearchPool::new(1, 1);
        let (tx, rx) = mpsc::channel();
        let gate = Arc::new((Mutex::new(false), Condvar::new()));
        let _first = gated(&pool, ip(1), Urgency::Normal, "first", &tx, &gate);
        assert_eq!(rx.recv().unwrap(), "first");
        let (doomed, doomed_rx) = gated(&pool, ip(1), Urgency::Normal, "doomed", &tx, &gate);
        let (_kept, kept_rx) = gated(&pool, ip(1), Urgency::Normal, "kept", &tx, &gate);
        doomed.cancel();
        assert_eq!(pool.load().waiting, 1);
        open(&gate);
        assert_eq!(kept_rx.blocking_recv().unwrap(), "kept");
        assert!(doomed_rx.blocking_recv().is_err());
        assert_eq!(rx.recv().unwrap(), "kept");
        assert!(rx.try_recv().is_err());
    }

    #[test]
    fn the_engine_searches_on_the_workers() {
        let pool = SearchPool::new(2, 1);
        let start = chess960_core::StartId::new(249).unwrap().position();
        let (_t, rx) = pool.submit(ip(1), Urgency::Normal, move |p, stop, _| {
            p.choose_move(
                &start,
                &[],
                chess960_engine::player::Level::Depth(3),
                None,
                stop,
                |_| {},
            )
        });
        let chosen = rx.blocking_recv().unwrap().unwrap();
        assert!(start.is_legal(chosen.mv));
        pool.shut_down();
    }
}
