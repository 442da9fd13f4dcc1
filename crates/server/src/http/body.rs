//! Request bodies: read within [`BODY_LIMIT`], and refused past it in a way that lets the
//! client read the refusal.
//!
//! A server that answers 413 and closes the connection while the client is still sending
//! makes the client's next write fail (a broken pipe or a reset), and many clients, reqwest
//! and curl among them, then report that failure instead of the answer waiting to be read:
//! the reason for the refusal is lost, and which of the two a client sees depends on timing.
//! So the 413 goes out at once and the rest of the body is read and thrown away meanwhile,
//! as nginx's lingering close and Go's HTTP server do, within bounds a hostile client cannot
//! stretch:
//! [`DRAIN_BYTES`] in all, [`DRAIN_TIME`] in all and [`DRAIN_GAP`] between two pieces. Past
//! any of them, the connection is closed.

use crate::error::{ApiError, BODY_LIMIT};
use axum::body::{Body, Bytes, HttpBody};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use http_body_util::BodyExt;
use std::time::Duration;

/// The most of a refused body read and thrown away (counting what was read before the
/// limit was passed); a longer one has its connection closed without waiting.
pub const DRAIN_BYTES: u64 = 16 << 20;

/// The longest time spent reading a refused body: a client sending slowly is not waited for.
pub const DRAIN_TIME: Duration = Duration::from_secs(5);

/// The longest wait for the next piece of a refused body: a client that sent only the head,
/// and reads to the end of the connection, has it closed after this.
pub const DRAIN_GAP: Duration = Duration::from_secs(1);

/// The longest time a request's body may take to arrive whole (a megabyte in this time is
/// 35 KB/s): a client sending it a byte now and then holds its connection no longer.
pub const BODY_TIME: Duration = Duration::from_secs(30);

/// Reads `body` whole: 413 past [`BODY_LIMIT`] (the rest drained meanwhile, see the module's
/// doc), 408 when it takes longer than [`BODY_TIME`], 400 when the client stops sending or
/// sends something unreadable.
pub async fn read(body: Body) -> Result<Bytes, ApiError> {
    read_within(body, BODY_TIME).await
}

async fn read_within(mut body: Body, time: Duration) -> Result<Bytes, ApiError> {
    if body.size_hint().lower() > BODY_LIMIT as u64 {
        return Err(refuse(body, 0));
    }
    let mut bytes = Vec::new();
    let deadline = tokio::time::Instant::now() + time;
    loop {
        let frame = match tokio::time::timeout_at(deadline, body.frame()).await {
            Ok(Some(frame)) => frame,
            Ok(None) => break,
            Err(_) => {
                return Err(ApiError::new(
                    StatusCode::REQUEST_TIMEOUT,
                    format!(
                        "the request body did not arrive within {} s ({} bytes came)",
                        time.as_secs(),
                        bytes.len()
                    ),
                ))
            }
        };
        let frame = frame
            .map_err(|e| ApiError::bad_request(format!("cannot read the request body: {e}")))?;
        if let Some(data) = frame.data_ref() {
            if bytes.len() + data.len() > BODY_LIMIT {
                return Err(refuse(body, (bytes.len() + data.len()) as u64));
            }
            bytes.extend_from_slice(data);
        }
    }
    Ok(Bytes::from(bytes))
}

/// Reads and throws away the body of a request answered without it (a refusal), in a task
/// of its own and within the bounds of the module's doc, so that the answer need not wait
/// and the client still sending reads it instead of a reset.
pub fn discard(body: Body) {
    if body.size_hint().exact() != Some(0) {
        tokio::spawn(drain(body, 0));
    }
}

/// The 413 answer for a body whose declared length is over the limit, given at once; the
/// body is drained meanwhile (see the module's doc).
pub fn too_large(body: Body) -> Response {
    refuse(body, 0).into_response()
}

/// The 413 error for `body`, `seen` bytes of which were read already. The answer does not
/// wait: the rest of the body is drained in a task of its own while it goes out, and the
/// client that is still sending reads it when done.
fn refuse(body: Body, seen: u64) -> ApiError {
    tokio::spawn(drain(body, seen));
    ApiError::too_large()
}

/// Reads and throws away what is left of `body` within the bounds; past them the body is
/// dropped, and hyper closes the connection.
async fn drain(mut body: Body, seen: u64) -> u64 {
    let mut read = seen;
    if seen.saturating_add(body.size_hint().lower()) > DRAIN_BYTES {
        return read;
    }
    let until_end = async {
        while let Ok(Some(Ok(frame))) = tokio::time::timeout(DRAIN_GAP, body.frame()).await {
            read += frame.data_ref().map_or(0, |d| d.len() as u64);
            if read > DRAIN_BYTES {
                break;
            }
        }
    };
    let _ = tokio::time::timeout(DRAIN_TIME, until_end).await;
    read
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::Arc;

    /// A body sent in `chunks` pieces of `size` bytes, without a declared length; `pulled`
    /// counts the pieces read.
    fn chunked(chunks: usize, size: usize, pulled: Arc<AtomicUsize>) -> Body {
        let frames = (0..chunks).map(move |_| {
            pulled.fetch_add(1, Ordering::Relaxed);
            Ok::<_, std::io::Error>(Bytes::from(vec![b' '; size]))
        });
        Body::from_stream(futures_util::stream::iter(frames))
    }

    #[tokio::test]
    async fn a_body_within_the_limit_is_read_whole() {
        let b = read(Body::from(vec![b'x'; BODY_LIMIT])).await.unwrap();
        assert_eq!(b.len(), BODY_LIMIT);
        let pulled = Arc::new(AtomicUsize::new(0));
        let b = read(chunked(16, BODY_LIMIT / 16, pulled.clone()))
            .await
            .unwrap();
        assert_eq!(b.len(), BODY_LIMIT);
        assert_eq!(pulled.load(Ordering::Relaxed), 16);
    }

    #[tokio::test]
    async fn a_body_over_the_limit_is_refused_and_drained() {
        let e = read(Body::from(vec![b'x'; BODY_LIMIT + 1]))
            .await
            .unwrap_err();
        assert_eq!(e.status, StatusCode::PAYLOAD_TOO_LARGE);
        // Without a declared length: refused at the 17th piece, and the rest read by the
        // draining task.
        let pulled = Arc::new(AtomicUsize::new(0));
        let e = read(chunked(40, BODY_LIMIT / 16, pulled.clone()))
            .await
            .unwrap_err();
        assert_eq!(e.status, StatusCode::PAYLOAD_TOO_LARGE);
        assert!(e.message.contains("larger than"), "{}", e.message);
        for _ in 0..1000 {
            if pulled.load(Ordering::Relaxed) == 40 {
                return;
            }
            tokio::time::sleep(Duration::from_millis(2)).await;
        }
        panic!("drained {} pieces of 40", pulled.load(Ordering::Relaxed));
    }

    #[tokio::test]
    async fn draining_stops_at_its_bounds() {
        // 64 MiB without a declared length: reading stops just past DRAIN_BYTES.
        let pulled = Arc::new(AtomicUsize::new(0));
        let size = 64 << 10;
        let read = drain(chunked(1024, size, pulled.clone()), 0).await;
        assert_eq!(read, DRAIN_BYTES + size as u64);
        assert_eq!(
            pulled.load(Ordering::Relaxed),
            DRAIN_BYTES as usize / size + 1
        );
        // A declared length past the bound: nothing read.
        assert_eq!(
            drain(Body::from(vec![0; DRAIN_BYTES as usize + 1]), 0).await,
            0
        );
        tokio::time::pause();
        // A client that stops sending: given up after DRAIN_GAP.
        let started = tokio::time::Instant::now();
        assert_eq!(drain(trickle(0, Duration::ZERO), 5).await, 5);
        let waited = started.elapsed();
        assert!(waited >= DRAIN_GAP && waited < DRAIN_GAP + Duration::from_millis(10));
        // A client that keeps sending a byte at a time, within the gap: given up after
        // DRAIN_TIME.
        let started = tokio::time::Instant::now();
        let every = Duration::from_millis(300);
        let read = drain(trickle(usize::MAX, every), 0).await;
        let waited = started.elapsed();
        assert!(waited >= DRAIN_TIME && waited < DRAIN_TIME + Duration::from_millis(10));
        assert_eq!(read, (DRAIN_TIME.as_millis() / every.as_millis()) as u64);
    }

    #[tokio::test(start_paused = true)]
    async fn a_body_that_trickles_is_refused_after_its_time() {
        let started = tokio::time::Instant::now();
        let e = read(trickle(usize::MAX, Duration::from_millis(500)))
            .await
            .unwrap_err();
        assert_eq!(e.status, StatusCode::REQUEST_TIMEOUT);
        assert!(
            e.message.contains("did not arrive within 30 s"),
            "{}",
            e.message
        );
        assert_eq!(started.elapsed(), BODY_TIME);
    }

    /// A body of `bytes` single bytes, one every `every`, then silence without an end.
    fn trickle(bytes: usize, every: Duration) -> Body {
        let pieces = futures_util::stream::unfold(0, move |sent| async move {
            if sent == bytes {
                std::future::pending::<()>().await;
            }
            tokio::time::sleep(every).await;
            Some((Ok::<_, std::io::Error>(Bytes::from_static(b" ")), sent + 1))
        });
        Body::from_stream(pieces)
    }
}
