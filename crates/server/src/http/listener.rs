//! The connections: accepting them, and the limits each is held to before and between its
//! requests (docs/server.md, "Connections"). A connection costs a file descriptor and some
//! memory before any request is read, so the access token, the rate limits and every other
//! check of `guard.rs` come too late to protect against someone who only opens connections:
//! those are bounded here.
//!
//! - **Request head timeout** ([`ConnLimits::head_timeout`]): a connection must deliver a
//!   complete request head within this time of being opened, and of each answer after it
//!   (hyper's header-read timeout, which needs the timer `axum::serve` does not give it). A
//!   silent connection, one that sends a header byte now and then, and a kept-alive
//!   connection with nothing more to ask are closed after it.
//! - **Idle timeout** ([`ConnLimits::idle_timeout`]): a connection with no request being
//!   handled whose bytes stopped moving for this long is closed (a client that does not read
//!   its answer, for one). A request's body has a time limit of its own (`body.rs`), and a
//!   request being handled (an engine search) is never cut.
//! - **Caps on open connections**, per client address ([`ConnLimits::per_address`]; IPv6 by
//!   its /64, as `rate.rs` counts) and in all ([`ConnLimits::total`], which by default follows
//!   the process's limit on open files so that the server never runs out of them). A new
//!   connection past a cap takes the place of the longest-waiting *idle* connection (one with
//!   no request being handled and no answer being written) of the same address, or of any
//!   address for the total; only when there is none is it refused, with a short 503. So
//!   connections opened and left, or fed a byte at a time, cannot keep anyone else out: a
//!   client who asks something gets through. The machine's own clients (loopback) are not
//!   capped per address, as they are not rate limited (`guard.rs`): behind a reverse proxy
//!   every client comes from loopback, and the proxy is the place for such limits; they count
//!   in the total like everyone else.
//!
//! A connection upgraded to a WebSocket leaves its address's count (the WebSocket routes cap
//! their sockets per address themselves) but keeps its place in the total until it closes.

use axum::body::Body;
use axum::extract::ConnectInfo;
use axum::http::{Request, StatusCode};
use axum::Router;
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use std::collections::{BTreeMap, HashMap};
use std::convert::Infallible;
use std::io;
use std::net::{IpAddr, SocketAddr};
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock};
use std::task::{Context, Poll};
use std::time::{Duration, Instant};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{mpsc, watch, Notify};
use tower::ServiceExt;

/// The limits every connection is held to. See the module's doc.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ConnLimits {
    /// A request's head must arrive whole within this time of the connection's opening or of
    /// the previous answer.
    pub head_timeout: Duration,
    /// A connection with nothing being handled whose bytes have not moved for this long is
    /// closed.
    pub idle_timeout: Duration,
    /// Open connections per client address (IPv6: per /64), loopback excepted.
    pub per_address: usize,
    /// Open connections in all, WebSockets included; `None`: three quarters of the open files
    /// the process may have, less a reserve for the database and the rest
    /// ([`default_total`]).
    pub total: Option<usize>,
}

impl Default for ConnLimits {
    /// 20 s for a request's head, 60 s idle, 64 connections per address, the total from the
    /// limit on open files.
    fn default() -> ConnLimits {
        ConnLimits {
            head_timeout: Duration::from_secs(20),
            idle_timeout: Duration::from_secs(60),
            per_address: 64,
            total: None,
        }
    }
}

impl ConnLimits {
    /// The total cap in effect.
    pub fn total(&self) -> usize {
        self.total.unwrap_or_else(default_total).max(1)
    }
}

/// Files kept for what is not a client's connection: the database, the listening socket,
/// connections to other servers of the database, the engine's and the runtime's own.
const RESERVED_FILES: u64 = 64;

/// The default total cap: three quarters of the open files the process may have (its soft
/// `RLIMIT_NOFILE`) after [`RESERVED_FILES`], at least 16, at most 100,000. A process limited
/// to 256 files takes 144 connections; the usual 1,024, 720.
pub fn default_total() -> usize {
    let files = open_files_limit().unwrap_or(1024);
    (files.saturating_sub(RESERVED_FILES) * 3 / 4).clamp(16, 100_000) as usize
}

#[cfg(target_os = "linux")]
fn open_files_limit() -> Option<u64> {
    let mut limit = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit writes the struct it is given and nothing else.
    let ok = unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) } == 0;
    (ok && limit.rlim_cur != libc::RLIM_INFINITY).then_some(limit.rlim_cur)
}

#[cfg(not(target_os = "linux"))]
fn open_files_limit() -> Option<u64> {
    None
}

/// A connection's answer to a request may be in its first bytes when the connection is
/// chosen to make room; it is left alone while it wrote in this last span.
const WRITING: Duration = Duration::from_secs(1);

/// What the table and the connection's task know of one connection.
struct ConnState {
    /// Requests being handled.
    busy: AtomicUsize,
    /// Upgraded to a WebSocket: no longer HTTP, never idle.
    upgraded: AtomicBool,
    /// The last time bytes were read or written, and written, as milliseconds since
    /// [`epoch`].
    last_io_ms: AtomicU64,
    last_write_ms: AtomicU64,
    /// Told when the connection must close to make room for another.
    evicted: Notify,
}

impl ConnState {
    fn new() -> ConnState {
        ConnState {
            busy: AtomicUsize::new(0),
            upgraded: AtomicBool::new(false),
            last_io_ms: AtomicU64::new(now_ms()),
            // Nothing written yet: a connection that has not asked anything is idle at once,
            // so that a burst of new ones cannot keep a client who asks something out.
            last_write_ms: AtomicU64::new(NEVER),
            evicted: Notify::new(),
        }
    }

    /// True if nothing is being asked or answered on it.
    fn idle(&self, now: u64) -> bool {
        let wrote = self.last_write_ms.load(Ordering::Relaxed);
        self.busy.load(Ordering::Acquire) == 0
            && !self.upgraded.load(Ordering::Acquire)
            && (wrote == NEVER || now.saturating_sub(wrote) >= WRITING.as_millis() as u64)
    }
}

/// A time in milliseconds that [`now_ms`] never gives: nothing written yet.
const NEVER: u64 = 0;

/// Milliseconds since the first call, plus one (never [`NEVER`]), on the monotonic clock.
fn now_ms() -> u64 {
    static EPOCH: OnceLock<Instant> = OnceLock::new();
    EPOCH.get_or_init(Instant::now).elapsed().as_millis() as u64 + 1
}

struct Entry {
    /// The address it counts under, while it counts per address (not loopback, not
    /// upgraded).
    address: Option<IpAddr>,
    state: Arc<ConnState>,
}

#[derive(Default)]
struct Open {
    next: u64,
    /// By id, so oldest first.
    conns: BTreeMap<u64, Entry>,
    per_address: HashMap<IpAddr, usize>,
}

impl Open {
    fn remove(&mut self, id: u64) -> Option<Entry> {
        let entry = self.conns.remove(&id)?;
        if let Some(a) = entry.address {
            self.leave_address(a);
        }
        Some(entry)
    }

    fn leave_address(&mut self, a: IpAddr) {
        if let Some(n) = self.per_address.get_mut(&a) {
            *n -= 1;
            if *n == 0 {
                self.per_address.remove(&a);
            }
        }
    }

    /// Closes the longest-waiting idle connection (of `address` if given); false if none is.
    fn evict_idle(&mut self, address: Option<IpAddr>) -> bool {
        let now = now_ms();
        let found = self
            .conns
            .iter()
            .find(|(_, e)| (address.is_none() || e.address == address) && e.state.idle(now))
            .map(|(&id, _)| id);
        match found.and_then(|id| self.remove(id)) {
            Some(entry) => {
                entry.state.evicted.notify_one();
                true
            }
            None => false,
        }
    }
}

/// Why a connection was not taken.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Refused {
    /// Its address has [`ConnLimits::per_address`] connections, none idle.
    Address,
    /// The server has [`ConnLimits::total`] connections, none idle.
    Full,
}

/// The open connections and their caps.
pub(crate) struct Table {
    per_address: usize,
    total: usize,
    open: Mutex<Open>,
}

impl Table {
    pub(crate) fn new(limits: &ConnLimits) -> Arc<Table> {
        Arc::new(Table {
            per_address: limits.per_address.max(1),
            total: limits.total(),
            open: Mutex::default(),
        })
    }

    fn lock(&self) -> MutexGuard<'_, Open> {
        self.open.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// A place for a connection from `ip`, making room by closing an idle one if need be.
    pub(crate) fn admit(self: &Arc<Self>, ip: IpAddr) -> Result<Slot, Refused> {
        let ip = ip.to_canonical();
        let address = (!ip.is_loopback()).then(|| crate::http::rate::key_of(ip));
        let mut open = self.lock();
        if let Some(a) = address {
            if open.per_address.get(&a).copied().unwrap_or(0) >= self.per_address
                && !open.evict_idle(Some(a))
            {
                return Err(Refused::Address);
            }
        }
        if open.conns.len() >= self.total && !open.evict_idle(None) {
            return Err(Refused::Full);
        }
        let id = open.next;
        open.next += 1;
        let state = Arc::new(ConnState::new());
        open.conns.insert(
            id,
            Entry {
                address,
                state: Arc::clone(&state),
            },
        );
        if let Some(a) = address {
            *open.per_address.entry(a).or_insert(0) += 1;
        }
        Ok(Slot {
            table: Arc::clone(self),
            id,
            state,
        })
    }

    /// The connections open now (for tests and `GET /api/server`).
    pub(crate) fn open(&self) -> usize {
        self.lock().conns.len()
    }

    fn upgraded(&self, id: u64) {
        let mut open = self.lock();
        let Some(a) = open.conns.get_mut(&id).and_then(|e| e.address.take()) else {
            return;
        };
        open.leave_address(a);
    }
}

/// One connection's place in the [`Table`], given back when dropped (with the connection's
/// socket, which may outlive its HTTP part as a WebSocket).
pub(crate) struct Slot {
    table: Arc<Table>,
    id: u64,
    state: Arc<ConnState>,
}

impl Drop for Slot {
    fn drop(&mut self) {
        self.table.lock().remove(self.id);
    }
}

impl Slot {
    /// Marks a request as being handled until the guard is dropped.
    fn busy(self: &Arc<Self>) -> Busy {
        self.state.busy.fetch_add(1, Ordering::AcqRel);
        Busy(Arc::clone(self))
    }
}

/// A request being handled on a connection.
struct Busy(Arc<Slot>);

impl Busy {
    /// The answer switched the connection to a WebSocket.
    fn upgraded(&self) {
        self.0.state.upgraded.store(true, Ordering::Release);
        self.0.table.upgraded(self.0.id);
    }
}

impl Drop for Busy {
    fn drop(&mut self) {
        // The answer starts going out now: not idle until it has.
        self.0
            .state
            .last_write_ms
            .store(now_ms(), Ordering::Relaxed);
        self.0.state.busy.fetch_sub(1, Ordering::AcqRel);
    }
}

/// A connection's socket, noting when bytes move and holding its place in the table for as
/// long as it is open.
struct Tracked {
    stream: TcpStream,
    slot: Arc<Slot>,
}

impl Tracked {
    fn moved(&self, wrote: bool) {
        let now = now_ms();
        self.slot.state.last_io_ms.store(now, Ordering::Relaxed);
        if wrote {
            self.slot.state.last_write_ms.store(now, Ordering::Relaxed);
        }
    }
}

impl AsyncRead for Tracked {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let before = buf.filled().len();
        let r = Pin::new(&mut self.stream).poll_read(cx, buf);
        if matches!(r, Poll::Ready(Ok(()))) && buf.filled().len() > before {
            self.moved(false);
        }
        r
    }
}

impl AsyncWrite for Tracked {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let r = Pin::new(&mut self.stream).poll_write(cx, buf);
        if matches!(r, Poll::Ready(Ok(n)) if n > 0) {
            self.moved(true);
        }
        r
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let r = Pin::new(&mut self.stream).poll_write_vectored(cx, bufs);
        if matches!(r, Poll::Ready(Ok(n)) if n > 0) {
            self.moved(true);
        }
        r
    }

    fn is_write_vectored(&self) -> bool {
        self.stream.is_write_vectored()
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.stream).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.stream).poll_shutdown(cx)
    }
}

/// Serves `app` on `listener` until `stop` turns true, then waits for the connections'
/// requests to end (WebSockets are closed by the server's own shutdown).
pub(crate) async fn serve(
    listener: TcpListener,
    app: Router,
    table: Arc<Table>,
    limits: ConnLimits,
    mut stop: watch::Receiver<bool>,
) -> io::Result<()> {
    let mut http = hyper::server::conn::http1::Builder::new();
    http.timer(TokioTimer::new())
        .header_read_timeout(limits.head_timeout)
        .keep_alive(true);
    // Each connection's task holds a sender; all dropped means all done.
    let (done, mut all_done) = mpsc::channel::<()>(1);
    let serving = Arc::new(Serving {
        app,
        http,
        idle_timeout: limits.idle_timeout,
        stop: stop.clone(),
        _done: done,
    });
    loop {
        let (stream, peer) = tokio::select! {
            _ = stopped(&mut stop) => break,
            accepted = listener.accept() => match accepted {
                Ok(a) => a,
                Err(e) => {
                    // Out of files (or a connection reset before it was taken): wait a
                    // little rather than spin; the caps make running out of files rare.
                    tracing::debug!("accepting a connection: {e}");
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
        };
        let slot = match table.admit(peer.ip()) {
            Ok(slot) => Arc::new(slot),
            Err(why) => {
                refuse(&stream, why);
                continue;
            }
        };
        let _ = stream.set_nodelay(true);
        tokio::spawn(connection(stream, peer, slot, Arc::clone(&serving)));
    }
    // The connections' tasks hold the rest of `serving`, its sender among it.
    drop(serving);
    let _ = all_done.recv().await;
    Ok(())
}

/// Ends when the server is told to stop.
async fn stopped(stop: &mut watch::Receiver<bool>) {
    // The guard `wait_for` gives is not `Send`: dropped here, not held across an await.
    let _ = stop.wait_for(|&s| s).await.map(|_| ());
}

/// Tells a refused client why, as far as the socket takes it without waiting, and closes.
fn refuse(stream: &TcpStream, why: Refused) {
    let what = match why {
        Refused::Address => "too many connections from this address",
        Refused::Full => "the server has as many connections as it can hold",
    };
    // The same body as any other error's (`error.rs`), written before hyper has the socket.
    let error = crate::error::ApiError::new(
        StatusCode::SERVICE_UNAVAILABLE,
        format!("{what}: try again shortly"),
    );
    let body = error.body().to_string();
    let answer = format!(
        "HTTP/1.1 503 Service Unavailable\r\ncontent-type: application/json\r\n\
         retry-after: 1\r\nconnection: close\r\ncontent-length: {}\r\n\r\n{body}",
        body.len()
    );
    let _ = stream.try_write(answer.as_bytes());
}

/// What every connection is served with; each connection's task holds it (and so the
/// sender that tells [`serve`] when the last one has ended).
struct Serving {
    app: Router,
    http: hyper::server::conn::http1::Builder,
    idle_timeout: Duration,
    stop: watch::Receiver<bool>,
    /// Never sent on: dropped with the last holder.
    _done: mpsc::Sender<()>,
}

/// One connection, to its end: served by hyper under the head timeout; closed when idle too
/// long, when chosen to make room, or at shutdown once its request is answered.
async fn connection(stream: TcpStream, peer: SocketAddr, slot: Arc<Slot>, serving: Arc<Serving>) {
    let state = Arc::clone(&slot.state);
    let on_request = Arc::clone(&slot);
    let app = serving.app.clone();
    let service = hyper::service::service_fn(move |mut req: Request<Incoming>| {
        req.extensions_mut().insert(ConnectInfo(peer));
        let busy = on_request.busy();
        let app = app.clone();
        async move {
            let Ok(resp) = app.oneshot(req.map(Body::new)).await;
            if resp.status() == StatusCode::SWITCHING_PROTOCOLS {
                busy.upgraded();
            }
            drop(busy);
            Ok::<_, Infallible>(resp)
        }
    });
    let io = TokioIo::new(Tracked { stream, slot });
    let conn = serving.http.serve_connection(io, service).with_upgrades();
    tokio::pin!(conn);
    let idle = idle_watch(&state, serving.idle_timeout);
    tokio::pin!(idle);
    let mut stop = serving.stop.clone();
    tokio::select! {
        _ = conn.as_mut() => return,
        _ = state.evicted.notified() => return,
        _ = &mut idle => return,
        _ = stopped(&mut stop) => {}
    }
    // Shutting down: the request being handled is answered, an idle connection closes now.
    conn.as_mut().graceful_shutdown();
    let _ = conn.await;
}

/// Ends once the connection has had nothing being handled and no bytes moving for
/// `timeout`.
async fn idle_watch(state: &ConnState, timeout: Duration) {
    let timeout_ms = timeout.as_millis() as u64;
    loop {
        let last = state.last_io_ms.load(Ordering::Relaxed);
        let now = now_ms();
        let quiet = now.saturating_sub(last);
        if quiet >= timeout_ms && state.busy.load(Ordering::Acquire) == 0 {
            return;
        }
        let wait = timeout_ms.saturating_sub(quiet).max(timeout_ms / 4).max(10);
        tokio::time::sleep(Duration::from_millis(wait)).await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table(per_address: usize, total: usize) -> Arc<Table> {
        Table::new(&ConnLimits {
            per_address,
            total: Some(total),
            ..ConnLimits::default()
        })
    }

    fn ip(text: &str) -> IpAddr {
        text.parse().unwrap()
    }

    /// Makes a connection look as if its last answer went out long ago.
    fn quiet(slot: &Slot) {
        slot.state.last_write_ms.store(NEVER, Ordering::Relaxed);
    }

    #[tokio::test]
    async fn an_address_at_its_cap_makes_room_by_closing_its_oldest_idle_connection() {
        let t = table(3, 100);
        let a = ip("192.0.2.7");
        let slots: Vec<Arc<Slot>> = (0..3).map(|_| Arc::new(t.admit(a).unwrap())).collect();
        // All three busy: the fourth is refused, another address is not.
        let busy: Vec<Busy> = slots.iter().map(|s| s.busy()).collect();
        for s in &slots {
            quiet(s);
        }
        assert_eq!(t.admit(a).err(), Some(Refused::Address));
        let other = t.admit(ip("198.51.100.3")).unwrap();
        drop(busy);
        // Answers just went out: still not idle.
        assert_eq!(t.admit(a).err(), Some(Refused::Address));
        // Once quiet, the oldest idle one is closed for the newcomer.
        quiet(&slots[1]);
        quiet(&slots[2]);
        let evicted = slots[1].state.evicted.notified();
        let fourth = t.admit(a).unwrap();
        tokio::time::timeout(Duration::from_secs(1), evicted)
            .await
            .expect("the oldest idle connection is told to close");
        assert_eq!(t.open(), 4, "three of the address and the other");
        // The evicted connection's slot going away later changes nothing.
        drop(slots);
        assert_eq!(t.open(), 2);
        drop((fourth, other));
        assert_eq!(t.open(), 0);
        assert!(t.lock().per_address.is_empty());
    }

    #[test]
    fn ipv6_counts_by_its_64_and_loopback_is_not_capped_per_address() {
        let t = table(2, 100);
        let a = Arc::new(t.admit(ip("2001:db8::1")).unwrap());
        let b = Arc::new(t.admit(ip("2001:db8::2")).unwrap());
        let _busy = (a.busy(), b.busy());
        // Both are handling a request: none idle, so refused.
        assert_eq!(t.admit(ip("2001:db8::ff")).err(), Some(Refused::Address));
        assert!(t.admit(ip("2001:db8:0:1::1")).is_ok(), "another /64");
        let local: Vec<Slot> = (0..10).map(|_| t.admit(ip("127.0.0.1")).unwrap()).collect();
        assert_eq!(local.len(), 10);
    }

    #[test]
    fn the_total_makes_room_from_any_address_and_refuses_when_none_is_idle() {
        let t = table(10, 4);
        let slots: Vec<Arc<Slot>> = ["192.0.2.1", "127.0.0.1", "192.0.2.2", "192.0.2.3"]
            .iter()
            .map(|a| Arc::new(t.admit(ip(a)).unwrap()))
            .collect();
        let busy: Vec<Busy> = slots.iter().map(|s| s.busy()).collect();
        assert_eq!(t.admit(ip("203.0.113.1")).err(), Some(Refused::Full));
        drop(busy);
        for s in &slots {
            quiet(s);
        }
        // A WebSocket is never closed to make room.
        let ws = slots[0].busy();
        ws.upgraded();
        drop(ws);
        quiet(&slots[0]);
        let _new = t.admit(ip("203.0.113.1")).unwrap();
        assert!(
            t.lock().conns.contains_key(&slots[0].id),
            "the WebSocket stays"
        );
        assert!(
            !t.lock().conns.contains_key(&slots[1].id),
            "the oldest idle went"
        );
        // The upgraded connection no longer counts for its address.
        assert_eq!(t.lock().per_address.get(&ip("192.0.2.1")), None);
    }
}
