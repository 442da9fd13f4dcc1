//! Forwarding: an HTTP action on a game that another server runs is sent on to that server,
//! and its answer back. If the holder cannot be reached (it died, or let the game go), the
//! request waits for the game to be taken over and goes where it runs then, for up to
//! [`TAKEOVER_WAIT`]: a move sent while its server dies is played a few seconds late, not
//! refused.

use super::{Node, FORWARDED, FORWARDED_CLIENT};
use crate::error::ApiError;
use crate::registry::Located;
use crate::AppState;
use axum::body::{Body, Bytes};
use axum::extract::{ConnectInfo, Request, State};
use axum::http::{header, request::Parts, HeaderName, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// How long a request waits for its game to be taken over from a server that went away:
/// more than [`super::TTL`] plus a [`super::BEAT`].
pub const TAKEOVER_WAIT: Duration = Duration::from_secs(10);

/// The request headers the holder needs; the others (cookies, the access token) stay here,
/// where the guard has checked them.
const PASSED_ON: [HeaderName; 3] = [
    header::CONTENT_TYPE,
    header::ACCEPT,
    HeaderName::from_static("x-seat-token"),
];

/// The response headers passed back.
const PASSED_BACK: [HeaderName; 4] = [
    header::CONTENT_TYPE,
    header::CONTENT_DISPOSITION,
    header::RETRY_AFTER,
    header::CACHE_CONTROL,
];

/// The key of a game route that may be forwarded: `/api/games/{key}` and its actions, not
/// the list, `now`, nor the WebSocket (`follow.rs` serves that here).
fn game_of(path: &str) -> Option<&str> {
    let rest = path.strip_prefix("/api/games/")?;
    let mut parts = rest.split('/');
    let key = parts.next().filter(|k| !k.is_empty() && *k != "now")?;
    match parts.next() {
        Some("ws") => None,
        _ => Some(key),
    }
}

/// The middleware: a game run here, or not yet run anywhere (then it runs here from now on),
/// goes to the handlers; a game run elsewhere goes there.
pub(crate) async fn forward(State(state): State<AppState>, req: Request, next: Next) -> Response {
    let Some(node) = state.node() else {
        return next.run(req).await;
    };
    let Some(key) = game_of(req.uri().path()).map(str::to_owned) else {
        return next.run(req).await;
    };
    // A forwarded request is never sent on again: if the game left this server meanwhile,
    // the handler says so (503) and the first server asks again.
    if req.headers().contains_key(FORWARDED) {
        let mut resp = next.run(req).await;
        if resp.status() == StatusCode::SERVICE_UNAVAILABLE && !state.games().is_here(&key) {
            mark_moved(&mut resp);
        }
        return resp;
    }
    let (parts, body) = req.into_parts();
    // Over the limit (when the length was not declared: a declared one was refused by the
    // guard), or the client stopped sending.
    let body = match crate::body::read(body).await {
        Ok(b) => b,
        Err(e) => return e.into_response(),
    };
    let deadline = Instant::now() + TAKEOVER_WAIT;
    loop {
        match state.games().locate(&key).await {
            Ok(Located::Here(_)) => {
                return next.run(Request::from_parts(parts, Body::from(body))).await
            }
            Ok(Located::Elsewhere(address)) => {
                match node.send(&address, &parts, body.clone()).await {
                    Ok(resp) => return resp,
                    Err(why) => {
                        node.forget(&key);
                        if Instant::now() >= deadline {
                            return ApiError::new(
                                StatusCode::SERVICE_UNAVAILABLE,
                                format!(
                                    "game {key} is run by another server, which does not answer \
                                     ({why}); try again in a few seconds"
                                ),
                            )
                            .into_response();
                        }
                        tokio::time::sleep(Duration::from_millis(200)).await;
                    }
                }
            }
            Err(e) => return ApiError::from(e).into_response(),
        }
    }
}

impl Node {
    /// Sends the request of `parts` with `body` to the server at `address`; its answer, or
    /// why there is none (it cannot be reached, or the game left it).
    async fn send(
        self: &Arc<Self>,
        address: &str,
        parts: &Parts,
        body: Bytes,
    ) -> Result<Response, String> {
        let path = parts.uri.path_and_query().map_or("/", |p| p.as_str());
        let client = parts
            .extensions
            .get::<ConnectInfo<SocketAddr>>()
            .map(|c| c.0.ip().to_string())
            .unwrap_or_default();
        let mut rb = self
            .http()
            .request(parts.method.clone(), format!("{address}{path}"))
            .header(FORWARDED, self.secret())
            .header(FORWARDED_CLIENT, client)
            .body(body);
        for name in PASSED_ON {
            for v in parts.headers.get_all(&name) {
                rb = rb.header(name.clone(), v.clone());
            }
        }
        let resp = rb.send().await.map_err(|e| e.to_string())?;
        let status = resp.status();
        if status == StatusCode::SERVICE_UNAVAILABLE
            && resp.headers().contains_key(super::FORWARDED)
        {
            return Err("the game left it".into());
        }
        let mut out = Response::builder().status(status);
        for name in PASSED_BACK {
            for v in resp.headers().get_all(&name) {
                out = out.header(name.clone(), v.clone());
            }
        }
        let bytes = resp.bytes().await.map_err(|e| e.to_string())?;
        out.body(Body::from(bytes)).map_err(|e| e.to_string())
    }
}

/// Marks a 503 answer to a forwarded request for a game this server no longer runs, so that
/// the first server asks the database again instead of passing the refusal on.
fn mark_moved(resp: &mut Response) {
    resp.headers_mut()
        .insert(FORWARDED, axum::http::HeaderValue::from_static("moved"));
}

#[cfg(test)]
mod tests {
    use super::game_of;

    #[test]
    fn which_routes_are_forwarded() {
        assert_eq!(game_of("/api/games/abc"), Some("abc"));
        assert_eq!(game_of("/api/games/abc/moves"), Some("abc"));
        assert_eq!(game_of("/api/games/abc/pgn"), Some("abc"));
        assert_eq!(game_of("/api/games/abc/ws"), None);
        assert_eq!(game_of("/api/games/now"), None);
        assert_eq!(game_of("/api/games/"), None);
        assert_eq!(game_of("/api/games"), None);
        assert_eq!(game_of("/api/events/abc"), None);
    }
}
