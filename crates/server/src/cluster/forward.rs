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

/// The request headers the holder needs: the body's type, the seat token, and the cookies (a
/// logged-in player's session acts for their seat; the servers share the database that
/// keeps sessions). The others (the access token among them) stay here, where the guard has
/// checked them.
const PASSED_ON: [HeaderName; 4] = [
    header::CONTENT_TYPE,
    header::ACCEPT,
    HeaderName::from_static("x-seat-token"),
    header::COOKIE,
];

/// The response headers not passed back: those of the connection to the holder (the answer
/// goes out on another), and the mark between servers. Every other header is passed back
/// (`X-Game-Version` among them: docs/api.md promises it on every answer with a game view,
/// whichever server gave it).
const NOT_PASSED_BACK: [HeaderName; 8] = [
    header::CONNECTION,
    header::CONTENT_LENGTH,
    header::TRANSFER_ENCODING,
    header::UPGRADE,
    header::TE,
    header::TRAILER,
    header::PROXY_AUTHENTICATE,
    HeaderName::from_static(FORWARDED),
];

/// A game route that may be forwarded: `/api/games/{key}` or `/api/games/{key}/{action}`,
/// with a well-formed key and an action of lowercase letters (the router's names; one it does
/// not know is answered 404 by the server running the game, as here), but not the WebSocket
/// (`follow.rs` serves it where it is asked for). Any other path is answered here, so that a
/// path that only starts like a game's (`/api/games/K/../../games`) cannot reach another
/// route of another server.
pub(crate) fn game_route(path: &str) -> Option<GameRoute<'_>> {
    let rest = path.strip_prefix("/api/games/")?;
    let (key, action) = match rest.split_once('/') {
        Some((key, action)) => (key, Some(action)),
        None => (rest, None),
    };
    chess960_store::GameKey::parse(key)?;
    let name = |a: &str| !a.is_empty() && a.bytes().all(|b| b.is_ascii_lowercase());
    if action.is_some_and(|a| !name(a) || a == "ws") {
        return None;
    }
    Some(GameRoute { key, action })
}

/// A route of one game, as [`game_route`] reads it.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct GameRoute<'a> {
    /// The game's key.
    pub key: &'a str,
    /// The action, or none for the game itself.
    pub action: Option<&'a str>,
}

impl GameRoute<'_> {
    /// The path, written afresh from its parts.
    fn path(&self) -> String {
        match self.action {
            Some(a) => format!("/api/games/{}/{a}", self.key),
            None => format!("/api/games/{}", self.key),
        }
    }
}

/// The middleware: a game run here, or not yet run anywhere (then it runs here from now on),
/// goes to the handlers; a game run elsewhere goes there.
pub(crate) async fn forward(State(state): State<AppState>, req: Request, next: Next) -> Response {
    let Some(node) = state.node() else {
        return next.run(req).await;
    };
    let Some(route) = game_route(req.uri().path()) else {
        return next.run(req).await;
    };
    let (key, path) = (route.key.to_owned(), route.path());
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
    // The guard has read the body whole, within the limit: this takes it as bytes, to send
    // again on each try (the read's refusals stay for a router used without the guard).
    let body = match crate::http::body::read(body).await {
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
                match node.send(&address, &path, &parts, body.clone()).await {
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
    /// Sends the request of `parts` with `body` to the server at `address`, on `path` (the
    /// game's route as [`game_route`] wrote it) with the request's query; its answer, or why
    /// there is none (it cannot be reached, or the game left it).
    async fn send(
        self: &Arc<Self>,
        address: &str,
        path: &str,
        parts: &Parts,
        body: Bytes,
    ) -> Result<Response, String> {
        let path = match parts.uri.query() {
            Some(q) => format!("{path}?{q}"),
            None => path.to_owned(),
        };
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
        for (name, v) in resp.headers() {
            if !NOT_PASSED_BACK.contains(name) {
                out = out.header(name, v);
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
    use super::{game_route, GameRoute};

    const K: &str = "0123456789abcdef0123456789abcdef";

    #[test]
    fn which_routes_are_forwarded() {
        let route = |p: &str| game_route(p).map(|r| (r.key.to_owned(), r.path()));
        assert_eq!(
            route(&format!("/api/games/{K}")),
            Some((K.into(), format!("/api/games/{K}")))
        );
        for action in ["moves", "pgn", "resign", "join", "analysis"] {
            let path = format!("/api/games/{K}/{action}");
            assert_eq!(route(&path), Some((K.into(), path)));
        }
        assert_eq!(
            game_route(&format!("/api/games/{K}/moves")),
            Some(GameRoute {
                key: K,
                action: Some("moves")
            })
        );
        for other in [
            format!("/api/games/{K}/ws"),
            format!("/api/games/{K}/../../games"),
            format!("/api/games/{K}/../../server"),
            format!("/api/games/{K}/moves/x"),
            format!("/api/games/{K}/"),
            format!("/api/games/{K}/%2e%2e/%2e%2e/games"),
            "/api/games/now".into(),
            "/api/games/abc".into(),
            "/api/games/".into(),
            "/api/games".into(),
            format!("/api/events/{K}"),
        ] {
            assert_eq!(game_route(&other), None, "{other}");
        }
    }
}
