//! The network checks of every request, in one layer over the whole service: the API, the
//! WebSocket upgrade and the embedded UI alike. docs/server.md ("Who may use the server") says
//! what each check protects against and what none of them does.
//!
//! The checks run in this order; the first that fails answers, and the request goes no further:
//! 0. **Path**: a path with a dot segment (`.` or `..`, also written `%2e`) is 400. Browsers
//!    and HTTP libraries remove them before sending; left in, they would name one route to
//!    the checks and the router and another to whoever resolves them later (a server of the
//!    same database that a request is forwarded to, `cluster/forward.rs`).
//! 1. **Host** (DNS rebinding): the name the request was sent to must be this server's:
//!    `localhost`, any IP address, or the `--host` name, each with the server's port; or a name
//!    given with `--allow-host`, with any port. A missing `Host` on HTTP/1.1 or a malformed one
//!    is 400, a foreign one 403.
//! 2. **Origin** (other web pages in the browser): when present it must be the origin the
//!    request was sent to, `http://` and the `Host` (`https://` behind a proxy that says
//!    `X-Forwarded-Proto: https`). Anything else, `null` included, is 403.
//! 3. **Access token**, when the server has one: `Authorization: Bearer TOKEN`, `?token=TOKEN`
//!    or the cookie that `?token=` sets on a page of the UI. Without it, 401: JSON for the API,
//!    a short page for the UI.
//! 4. **Content-Type and length** of a POST: a body must be `application/json` (UTF-8); an
//!    empty body may have no type at all. Anything else is 415: the types an HTML form can send
//!    are refused. A body declared longer than the limit (`Content-Length` over 1 MiB) is 413
//!    at once, before any of it is read; an undeclared one is cut off at the limit when read.
//! 5. **Rate** of the requests that create something that lasts, per client address
//!    (`rate.rs`): new games and seats taken. Too many is 429 with `Retry-After`. The machine's
//!    own clients (loopback) are not limited: they are its user (behind a reverse proxy on the
//!    same machine, limit at the proxy).
//!
//! Every refusal of the API's kind is `{"error": ...}` and says what was refused and how to get
//! in.

use crate::error::{ApiError, BODY_LIMIT};
use axum::body::{Body, HttpBody};
use axum::extract::{Query, Request, State};
use axum::http::{header, HeaderMap, HeaderValue, Method, StatusCode, Uri, Version};
use axum::middleware::Next;
use axum::response::{Html, IntoResponse, Response};
use std::fmt;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};

/// Who may use the server: what [`crate::Server::bind_with_access`] and [`crate::run`] take. The
/// default admits the loopback names only and asks for a token only on an address that is not
/// loopback.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Access {
    /// The name the server was started with (`--host`). A DNS name is admitted in the `Host`
    /// header like `localhost`, with the server's port; an IP address needs no mention.
    pub host: Option<String>,
    /// More names for the `Host` header (`--allow-host`), each admitted with any port or none:
    /// such a name is the one a browser uses through a reverse proxy or a port forward, whose
    /// port is not the server's. See [`parse_host_name`].
    pub allow_hosts: Vec<String>,
    /// Whether an access token is asked for, and which.
    pub token: TokenRule,
}

/// Whether the server asks for an access token.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum TokenRule {
    /// Only when the server listens on an address that is not loopback; the token is then
    /// drawn from the operating system's random source at start ([`new_token`]).
    #[default]
    Auto,
    /// This token, whatever the address (`--token`). See [`parse_token`].
    Required(String),
    /// Never (`--no-auth`).
    Off,
}

/// Reads an `--allow-host` value: a DNS name or an IP address (IPv6 with or without
/// brackets), without a port. Answers it as it is compared: lowercase, without a trailing dot.
pub fn parse_host_name(text: &str) -> Result<String, String> {
    parse_host_text(text).map(|h| h.to_string())
}

fn parse_host_text(text: &str) -> Result<HostName, String> {
    if let Ok(ip) = text.parse::<Ipv6Addr>() {
        return Ok(HostName::Ip(IpAddr::V6(ip)));
    }
    match parse_authority(text) {
        Some((host, None)) if !text.ends_with(':') => Ok(host),
        Some(_) => Err(format!(
            "'{text}': give the name without a port (every port is admitted with it)"
        )),
        None => Err(format!(
            "'{text}' is not a host name (letters, digits, '-', '_' and '.') or an IP address"
        )),
    }
}

/// Reads a `--token` value: 1 to 256 characters that a URL carries as they are (ASCII letters,
/// digits, `-`, `.`, `_`, `~`), so that the printed address works when typed or pasted.
pub fn parse_token(text: &str) -> Result<String, String> {
    let fits = |b: u8| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~');
    if text.is_empty() || text.len() > 256 || !text.bytes().all(fits) {
        return Err(format!(
            "the access token must be 1 to 256 characters among letters, digits, '-', '.', '_' \
             and '~' (got {} characters{})",
            text.chars().count(),
            if text.bytes().all(fits) {
                ""
            } else {
                ", some of them others"
            }
        ));
    }
    Ok(text.to_owned())
}

/// A fresh access token: 192 bits from the operating system's random source, as 48 lowercase
/// hex digits.
pub fn new_token() -> std::io::Result<String> {
    crate::secret::random_hex::<24>()
        .map_err(|e| std::io::Error::other(format!("no random numbers for the access token: {e}")))
}

/// The checks as configured for one listening server: its port, the names it answers to and
/// its token.
#[derive(Debug)]
pub(crate) struct Guard {
    port: u16,
    /// Admitted with the server's port, beside every IP address.
    at_port: Vec<HostName>,
    /// Admitted with any port or none.
    any_port: Vec<HostName>,
    token: Option<String>,
    /// The cookie that carries the token: named with the port, because browsers send a
    /// host's cookies to every port of it.
    cookie: String,
    /// Check 5's limits.
    limits: crate::http::rate::Limits,
    /// The secret of the servers sharing this one's database (`cluster/`): a request that
    /// carries it was checked by the server that forwarded it.
    forwarding: Option<String>,
}

impl Guard {
    /// The checks of a server listening on `local`: the token is drawn here when the rule
    /// asks for one. Bad names and tokens are `InvalidInput`.
    pub(crate) fn new(access: &Access, local: SocketAddr) -> std::io::Result<Guard> {
        let invalid = |e: String| std::io::Error::new(std::io::ErrorKind::InvalidInput, e);
        let mut at_port = vec![HostName::Name("localhost".into())];
        // A --host that reads as no name (an IPv6 address with a zone) admits nothing more.
        if let Some(Ok(host)) = access.host.as_deref().map(parse_host_text) {
            at_port.push(host);
        }
        let any_port = access
            .allow_hosts
            .iter()
            .map(|h| parse_host_text(h))
            .collect::<Result<Vec<_>, _>>()
            .map_err(invalid)?;
        let token = match &access.token {
            TokenRule::Auto if local.ip().to_canonical().is_loopback() => None,
            TokenRule::Auto => Some(new_token()?),
            TokenRule::Required(t) => Some(parse_token(t).map_err(invalid)?),
            TokenRule::Off => None,
        };
        Ok(Guard {
            port: local.port(),
            at_port,
            any_port,
            token,
            cookie: format!("chess960-token-{}", local.port()),
            limits: crate::http::rate::Limits::default(),
            forwarding: None,
        })
    }

    /// Admits the requests that other servers of the same database forward with `secret`
    /// (`cluster/forward.rs`), as from the client they name: the forwarding server has run
    /// every check.
    pub(crate) fn with_forwarding(mut self, secret: &str) -> Guard {
        self.forwarding = Some(secret.to_owned());
        self
    }

    /// A request forwarded by another server: admitted, as from the client it names, if it
    /// carries the shared secret; refused otherwise.
    fn admit_forwarded(&self, req: &mut Request) -> Result<(), ApiError> {
        let given = req
            .headers()
            .get(crate::cluster::FORWARDED)
            .map(|v| v.as_bytes());
        let ok = match (&self.forwarding, given) {
            (Some(secret), Some(given)) => crate::secret::same_secret(given, secret.as_bytes()),
            _ => false,
        };
        if !ok {
            return Err(ApiError::new(
                StatusCode::FORBIDDEN,
                "forwarded requests are taken only from the servers of this database",
            ));
        }
        // Only a game's own routes are ever forwarded; anything else skipped the checks of
        // the server it was sent to by some trick, and is not taken.
        if crate::cluster::game_route(req.uri().path()).is_none() {
            return Err(ApiError::new(
                StatusCode::FORBIDDEN,
                format!(
                    "only a game's own routes are forwarded between servers, not {}",
                    req.uri().path()
                ),
            ));
        }
        let client = req
            .headers()
            .get(crate::cluster::FORWARDED_CLIENT)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.parse::<IpAddr>().ok());
        if let Some(ip) = client {
            req.extensions_mut()
                .insert(axum::extract::ConnectInfo(SocketAddr::new(ip, 0)));
        }
        Ok(())
    }

    /// The access token asked for, if any.
    pub(crate) fn token(&self) -> Option<&str> {
        self.token.as_deref()
    }

    /// Runs the checks: the request to pass on, with its body read whole (check 4), or the
    /// answer the guard gives itself (a refusal, or the redirect that turns `?token=` into a
    /// cookie). A refused request's body is read and thrown away meanwhile, within bounds
    /// (`body.rs`), so that the client still sending it reads the refusal instead of a reset.
    async fn admit(&self, mut req: Request) -> Result<Request, Response> {
        match self.refusal(&mut req) {
            None => check_body(req).await,
            Some(answer) => {
                crate::http::body::discard(req.into_body());
                Err(answer)
            }
        }
    }

    /// Checks 0 to 3 and 5: the answer when one refuses (or redirects).
    fn refusal(&self, req: &mut Request) -> Option<Response> {
        if let Some(segment) = dot_segment(req.uri().path()) {
            return Some(
                ApiError::bad_request(format!(
                    "the path has a dot segment ('{segment}'): send the path it stands for"
                ))
                .into_response(),
            );
        }
        if req.headers().contains_key(crate::cluster::FORWARDED) {
            return self
                .admit_forwarded(req)
                .err()
                .map(IntoResponse::into_response);
        }
        let target = match self.check_host(req) {
            Ok(target) => target,
            Err(e) => return Some(e.into_response()),
        };
        if let Err(e) = check_origin(req.headers(), target.as_ref()) {
            return Some(e.into_response());
        }
        self.check_token(req).or_else(|| self.check_rate(req))
    }

    /// Check 5: the rate of new games, of seats taken and of logins from the client's
    /// address; the refusal when there were too many.
    fn check_rate(&self, req: &Request) -> Option<Response> {
        if req.method() != Method::POST {
            return None;
        }
        let path = req.uri().path().trim_end_matches('/');
        let game_action = |name: &str| {
            path.strip_prefix("/api/games/")
                .and_then(|rest| rest.strip_suffix(name))
                .is_some_and(|key| key.ends_with('/'))
        };
        // A rematch may create a game (at once at one device): it counts as a new game.
        let (limit, what) = if path == "/api/games" || game_action("rematch") {
            (&self.limits.new_games, "new games")
        } else if path == "/api/events" {
            // An event lasts as a game does: it draws from the same bucket.
            (&self.limits.new_games, "new events")
        } else if game_action("join") {
            (&self.limits.joins, "games joined")
        } else if path == "/api/account/login" || path == "/api/account/register" {
            (&self.limits.logins, "logins and registrations")
        } else {
            return None;
        };
        let ip = req
            .extensions()
            .get::<axum::extract::ConnectInfo<SocketAddr>>()
            .map(|c| c.0.ip())?;
        if ip.to_canonical().is_loopback() {
            return None;
        }
        let wait = limit.take(ip, std::time::Instant::now()).err()?;
        let secs = wait.as_secs_f64().ceil().max(1.0) as u64;
        let mut resp = ApiError::new(
            StatusCode::TOO_MANY_REQUESTS,
            format!("too many {what} from this address: try again in {secs} s"),
        )
        .into_response();
        resp.headers_mut()
            .insert(header::RETRY_AFTER, HeaderValue::from(secs));
        Some(resp)
    }

    /// The authority the request was sent to (`None` only for HTTP/1.0 without `Host`), once
    /// every name it gives is admitted.
    fn check_host(&self, req: &Request) -> Result<Option<Authority>, ApiError> {
        let mut headers = req.headers().get_all(header::HOST).iter();
        let (host, extra) = (headers.next(), headers.next());
        if extra.is_some() {
            return Err(ApiError::bad_request(
                "the request has more than one Host header",
            ));
        }
        let host = host
            .map(|v| {
                v.to_str()
                    .map_err(|_| ApiError::bad_request("the Host header is not ASCII text"))
            })
            .transpose()?;
        // A request in absolute form (`GET http://name/ HTTP/1.1`) names its target there.
        let named: Vec<&str> = req
            .uri()
            .authority()
            .map(|a| a.as_str())
            .into_iter()
            .chain(host)
            .collect();
        if named.is_empty() && req.version() >= Version::HTTP_11 {
            return Err(ApiError::bad_request(
                "the request has no Host header, which HTTP/1.1 requires",
            ));
        }
        for raw in &named {
            let Some((name, port)) = parse_authority(raw) else {
                return Err(ApiError::bad_request(format!(
                    "the Host header '{raw}' is not a host name or address with an optional port"
                )));
            };
            if !self.admits(&name, port) {
                return Err(ApiError::new(
                    StatusCode::FORBIDDEN,
                    format!(
                        "this server does not answer to the name '{raw}' (a defence against DNS \
                         rebinding): it answers to localhost and IP addresses on port {}, and to \
                         the names given with --allow-host; to reach it by this name, start it \
                         with --allow-host {name}",
                        self.port
                    ),
                ));
            }
        }
        Ok(named.first().and_then(|raw| parse_authority(raw)))
    }

    fn admits(&self, name: &HostName, port: Option<u16>) -> bool {
        if self.any_port.contains(name) {
            return true;
        }
        // A DNS rebinding attack needs a name of the attacker's: an IP address is safe.
        let known = matches!(name, HostName::Ip(_)) || self.at_port.contains(name);
        known && port.unwrap_or(80) == self.port
    }

    /// `None` when the request may pass; else the guard's answer: 401, or the redirect that
    /// turns a right `?token=` on a page of the UI into a cookie.
    fn check_token(&self, req: &Request) -> Option<Response> {
        let token = self.token.as_ref()?;
        let right = |given: &str| crate::secret::same_secret(given.as_bytes(), token.as_bytes());
        let api = is_api(req.uri().path());
        let from_query = query_token(req.uri());
        if from_query.as_deref().is_some_and(right) {
            let page = matches!(*req.method(), Method::GET | Method::HEAD);
            return (page && !api).then(|| self.enter(req.uri(), token));
        }
        let bearer = bearer_token(req.headers());
        let cookies = cookie_values(req.headers(), &self.cookie);
        if bearer.is_some_and(right) || cookies.iter().any(|c| right(c)) {
            return None;
        }
        let wrong = from_query.is_some() || bearer.is_some() || !cookies.is_empty();
        Some(unauthorized(api, wrong))
    }

    /// The answer to a page of the UI opened with the right `?token=`: the cookie, and the
    /// same address without the token, so that it stays out of the history and of links.
    fn enter(&self, uri: &Uri, token: &str) -> Response {
        let rest: Vec<&str> = uri
            .query()
            .unwrap_or("")
            .split('&')
            .filter(|pair| !pair.is_empty() && pair.split('=').next() != Some("token"))
            .collect();
        // One leading slash: `//name` in a Location would send the browser to another host.
        let mut to = format!("/{}", uri.path().trim_start_matches('/'));
        if !rest.is_empty() {
            to.push('?');
            to.push_str(&rest.join("&"));
        }
        let cookie = format!("{}={token}; Path=/; HttpOnly; SameSite=Strict", self.cookie);
        let mut resp = StatusCode::SEE_OTHER.into_response();
        let headers = resp.headers_mut();
        for (name, value) in [
            (header::LOCATION, to),
            (header::SET_COOKIE, cookie),
            (header::CACHE_CONTROL, "no-store".to_owned()),
        ] {
            if let Ok(v) = HeaderValue::try_from(value) {
                headers.insert(name, v);
            }
        }
        resp
    }
}

/// The layer's function: every request passes [`Guard::admit`] before the router sees it.
pub(crate) async fn check(
    State(guard): State<std::sync::Arc<Guard>>,
    req: Request,
    next: Next,
) -> Response {
    let (method, path) = (req.method().clone(), req.uri().path().to_owned());
    match guard.admit(req).await {
        Ok(req) => next.run(req).await,
        Err(resp) => {
            tracing::debug!("{method} {path} {} (answered by the guard)", resp.status());
            resp
        }
    }
}

/// A host as compared: an IP address, or a DNS name in lowercase without a trailing dot.
#[derive(Debug, Clone, PartialEq, Eq)]
enum HostName {
    Ip(IpAddr),
    Name(String),
}

impl fmt::Display for HostName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HostName::Ip(IpAddr::V6(ip)) => write!(f, "[{ip}]"),
            HostName::Ip(ip) => write!(f, "{ip}"),
            HostName::Name(name) => f.write_str(name),
        }
    }
}

/// A host and the port given with it, if any.
type Authority = (HostName, Option<u16>);

/// Reads `host[:port]` as a `Host` header or an origin carries it: `name`, `1.2.3.4` or
/// `[::1]`, with an optional port (an empty one counts as none).
fn parse_authority(text: &str) -> Option<Authority> {
    let (host, rest) = match text.strip_prefix('[') {
        Some(inner) => {
            let (ip, rest) = inner.split_once(']')?;
            (HostName::Ip(IpAddr::V6(ip.parse().ok()?)), rest)
        }
        None => {
            let (name, rest) = text.split_at(text.find(':').unwrap_or(text.len()));
            (parse_plain_host(name)?, rest)
        }
    };
    let port = match rest {
        "" | ":" => None,
        _ => {
            let digits = rest.strip_prefix(':')?;
            if !digits.bytes().all(|b| b.is_ascii_digit()) {
                return None;
            }
            Some(digits.parse().ok()?)
        }
    };
    Some((host, port))
}

fn parse_plain_host(text: &str) -> Option<HostName> {
    if let Ok(ip) = text.parse::<Ipv4Addr>() {
        return Some(HostName::Ip(IpAddr::V4(ip)));
    }
    let name = text.strip_suffix('.').unwrap_or(text);
    let fits = |b: u8| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.');
    if name.is_empty() || name.len() > 253 || !name.bytes().all(fits) {
        return None;
    }
    Some(HostName::Name(name.to_ascii_lowercase()))
}

fn check_origin(headers: &HeaderMap, target: Option<&Authority>) -> Result<(), ApiError> {
    let mut origins = headers.get_all(header::ORIGIN).iter();
    let Some(origin) = origins.next() else {
        return Ok(()); // not from a browser's cross-origin machinery: curl, scripts, navigation
    };
    let refuse = |why: String| Err(ApiError::new(StatusCode::FORBIDDEN, why));
    if origins.next().is_some() {
        return refuse("the request has more than one Origin header".into());
    }
    let origin = origin.to_str().unwrap_or("(not ASCII)");
    let scheme = if forwarded_https(headers) {
        "https"
    } else {
        "http"
    };
    let Some(target) = target else {
        return refuse(format!(
            "a request from a page (Origin '{origin}') needs a Host header"
        ));
    };
    if same_origin(origin, scheme, target) {
        return Ok(());
    }
    let own = match target.1 {
        Some(port) => format!("{scheme}://{}:{port}", target.0),
        None => format!("{scheme}://{}", target.0),
    };
    refuse(format!(
        "this server takes requests only from its own pages: this one comes from a page of \
         '{origin}', not of {own}"
    ))
}

/// Whether `origin` is `scheme://` and the target, ports compared after the scheme's default.
fn same_origin(origin: &str, scheme: &str, target: &Authority) -> bool {
    let Some((given_scheme, rest)) = origin.split_once("://") else {
        return false; // "null", among others
    };
    let Some((host, port)) = parse_authority(rest) else {
        return false;
    };
    let default = if scheme == "https" { 443 } else { 80 };
    given_scheme.eq_ignore_ascii_case(scheme)
        && host == target.0
        && port.unwrap_or(default) == target.1.unwrap_or(default)
}

/// A proxy in front that terminated TLS says so; a page cannot add this header to a
/// cross-origin request without a preflight, which the server refuses.
fn forwarded_https(headers: &HeaderMap) -> bool {
    headers
        .get("x-forwarded-proto")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(',').next())
        .is_some_and(|v| v.trim().eq_ignore_ascii_case("https"))
}

/// The first dot segment of `path` (`.` or `..`, each dot also as `%2e` or `%2E`), if any.
fn dot_segment(path: &str) -> Option<&str> {
    path.split('/').find(|segment| {
        let mut rest = *segment;
        let mut dots = 0;
        while !rest.is_empty() {
            rest = if let Some(r) = rest.strip_prefix('.') {
                r
            } else if rest
                .as_bytes()
                .get(..3)
                .is_some_and(|b| b.eq_ignore_ascii_case(b"%2e"))
            {
                // Three ASCII bytes: a character boundary follows.
                &rest[3..]
            } else {
                return false;
            };
            dots += 1;
        }
        (1..=2).contains(&dots)
    })
}

fn is_api(path: &str) -> bool {
    path == "/api" || path.starts_with("/api/")
}

fn query_token(uri: &Uri) -> Option<String> {
    let Query(pairs) = Query::<Vec<(String, String)>>::try_from_uri(uri).ok()?;
    pairs
        .into_iter()
        .find(|(k, _)| k == "token")
        .map(|(_, v)| v)
}

fn bearer_token(headers: &HeaderMap) -> Option<&str> {
    let value = headers.get(header::AUTHORIZATION)?.to_str().ok()?;
    let (scheme, token) = value.trim().split_once(' ')?;
    scheme
        .eq_ignore_ascii_case("bearer")
        .then_some(token.trim())
}

/// The values of the cookies named `name` in the request's `Cookie` headers.
pub(crate) fn cookie_values<'a>(headers: &'a HeaderMap, name: &str) -> Vec<&'a str> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .filter(|(n, _)| *n == name)
        .map(|(_, v)| v)
        .collect()
}

fn unauthorized(api: bool, wrong: bool) -> Response {
    let first = if wrong {
        "the access token given is not this server's"
    } else {
        "this server needs its access token"
    };
    if api {
        let mut resp = ApiError::new(
            StatusCode::UNAUTHORIZED,
            format!(
                "{first}: open the address that 'chess960 serve' printed when it started (it ends \
                 in ?token=...), or send the token as 'Authorization: Bearer TOKEN'"
            ),
        )
        .into_response();
        resp.headers_mut().insert(
            header::WWW_AUTHENTICATE,
            HeaderValue::from_static("Bearer realm=\"chess960\""),
        );
        return resp;
    }
    let wrong_line = if wrong {
        "<p>The token this browser gave is not this server's: the server may have been \
         started again since, which draws a new token.</p>"
    } else {
        ""
    };
    let page = format!(
        "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <title>chess960: access token needed</title></head>\n\
         <body style=\"font-family: system-ui, sans-serif; max-width: 40em; margin: 3em auto; \
         padding: 0 1em; line-height: 1.5\">\n\
         <h1>This server needs its access token</h1>\n{wrong_line}\n\
         <p>This chess960 server can be reached from other machines, or was started with \
         <code>--token</code>, so it asks for its access token.</p>\n\
         <p>Open the address that <code>chess960 serve</code> printed when it started: it ends \
         in <code>/?token=</code> and the token. Whoever started the server can give it to \
         you.</p>\n</body></html>\n"
    );
    let mut resp = (StatusCode::UNAUTHORIZED, Html(page)).into_response();
    resp.headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    resp
}

/// Check 4: a POST's body must be JSON (an empty one may have no type), and no body may be
/// over the limit. The body is read whole here, before any handler runs, so that every
/// request's body is off the connection before its answer goes out, whether or not the
/// handler reads it: an answer sent while the client is still sending makes the server
/// close the connection unread, and the client then often sees a reset instead of the
/// answer (issue 37: 7 of 24 answers to `…/pair`, which takes `{}` and never reads it, were
/// lost so). A body that stops arriving is refused after [`crate::http::body::BODY_TIME`].
async fn check_body(req: Request) -> Result<Request, Response> {
    if req.body().size_hint().lower() > BODY_LIMIT as u64 {
        return Err(crate::http::body::too_large(req.into_body()));
    }
    let post = req.method() == Method::POST;
    let refuse = |what: String| {
        ApiError::new(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            format!("a POST body must be JSON, sent with 'Content-Type: application/json': {what}"),
        )
        .into_response()
    };
    let mut typed = false;
    if post {
        let mut types = req.headers().get_all(header::CONTENT_TYPE).iter();
        match (types.next(), types.next()) {
            (Some(_), Some(_)) => {
                let answer = refuse("this one has two Content-Type headers".into());
                crate::http::body::discard(req.into_body());
                return Err(answer);
            }
            (Some(t), None) => {
                if let Err(what) = json_type(t) {
                    crate::http::body::discard(req.into_body());
                    return Err(refuse(what));
                }
                typed = true;
            }
            (None, _) => {}
        }
    }
    if req.body().size_hint().exact() == Some(0) {
        return Ok(req);
    }
    let (parts, body) = req.into_parts();
    let bytes = crate::http::body::read(body)
        .await
        .map_err(IntoResponse::into_response)?;
    if post && !typed && !bytes.is_empty() {
        return Err(refuse("this one has a body and no Content-Type".into()));
    }
    Ok(Request::from_parts(parts, Body::from(bytes)))
}

/// `application/json`, with parameters; a charset must be UTF-8, which is what is read.
fn json_type(value: &HeaderValue) -> Result<(), String> {
    let text = value
        .to_str()
        .map_err(|_| "this one's Content-Type is not ASCII text".to_owned())?;
    let mut parts = text.split(';');
    let essence = parts.next().unwrap_or("").trim();
    if !essence.eq_ignore_ascii_case("application/json") {
        return Err(format!("this one is '{text}'"));
    }
    for param in parts {
        if let Some((name, value)) = param.split_once('=') {
            let value = value.trim().trim_matches('"');
            if name.trim().eq_ignore_ascii_case("charset")
                && !value.eq_ignore_ascii_case("utf-8")
                && !value.eq_ignore_ascii_case("utf8")
            {
                return Err(format!("this one is in {value}, and only UTF-8 is read"));
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn forwarded_requests_are_taken_for_a_games_own_routes_only() {
        let g = guard(Access::default(), "127.0.0.1:8960").with_forwarding("s3cret");
        let key = "0123456789abcdef0123456789abcdef";
        let forwarded = |path: &str| {
            let mut req = post_from(path, "127.0.0.1:5000");
            req.headers_mut().insert(
                crate::cluster::FORWARDED,
                HeaderValue::from_static("s3cret"),
            );
            req
        };
        assert!(g
            .admit(forwarded(&format!("/api/games/{key}/moves")))
            .await
            .is_ok());
        for path in ["/api/games", "/api/server", "/api/events"] {
            let refused = g.admit(forwarded(path)).await.unwrap_err();
            assert_eq!(refused.status(), StatusCode::FORBIDDEN, "{path}");
        }
    }

    #[test]
    fn dot_segments_are_found_however_written() {
        for path in [
            "/api/games/K/../../games",
            "/api/games/K/%2e%2e/%2E%2e/server",
            "/api/games/K/.%2e/x",
            "/api/./games",
            "/..",
            "/api/games/K/%2E",
        ] {
            assert!(dot_segment(path).is_some(), "{path}");
        }
        for path in [
            "/",
            "/api/games",
            "/assets/index-3f.js",
            "/api/games/K/...",
            "/a..b/c",
            "/%2e%2e%2e",
            "/%2",
            "/é/..x",
        ] {
            assert_eq!(dot_segment(path), None, "{path}");
        }
    }

    fn guard(access: Access, local: &str) -> Guard {
        Guard::new(&access, local.parse().unwrap()).unwrap()
    }

    /// A JSON POST to `path` from `client`, as the server's connection info gives it.
    fn post_from(path: &str, client: &str) -> Request {
        let mut req = Request::builder()
            .method(Method::POST)
            .uri(path)
            .header(header::HOST, "localhost:8960")
            .header(header::CONTENT_TYPE, "application/json")
            .body(Body::from("{}"))
            .unwrap();
        let addr: SocketAddr = client.parse().unwrap();
        req.extensions_mut()
            .insert(axum::extract::ConnectInfo(addr));
        req
    }

    #[tokio::test]
    async fn new_games_and_joins_are_limited_per_address_but_not_for_loopback() {
        let g = guard(
            Access {
                token: TokenRule::Off,
                ..Access::default()
            },
            "127.0.0.1:8960",
        );
        let key = "0123456789abcdef0123456789abcdef";
        for (path, what, burst) in [
            ("/api/games", "new games", 20),
            (&*format!("/api/games/{key}/join"), "games joined", 20),
        ] {
            for i in 0..burst {
                assert!(
                    g.admit(post_from(path, "192.0.2.7:5000")).await.is_ok(),
                    "{path} #{i}"
                );
            }
            let refused = g
                .admit(post_from(path, "192.0.2.7:5001"))
                .await
                .unwrap_err();
            assert_eq!(refused.status(), StatusCode::TOO_MANY_REQUESTS);
            let wait: u64 = refused.headers()[header::RETRY_AFTER]
                .to_str()
                .unwrap()
                .parse()
                .unwrap();
            assert!((1..=6).contains(&wait), "{wait}");
            let body = axum::body::to_bytes(refused.into_body(), 4096)
                .await
                .unwrap();
            let text = String::from_utf8(body.to_vec()).unwrap();
            assert!(
                text.contains(&format!("too many {what} from this address")),
                "{text}"
            );
            // Another address, and the machine's own user, are not held back.
            assert!(g.admit(post_from(path, "198.51.100.3:5000")).await.is_ok());
            for _ in 0..50 {
                assert!(g.admit(post_from(path, "127.0.0.1:5000")).await.is_ok());
            }
        }
        // Rematches count as new games: they may create one.
        let rematch = format!("/api/games/{key}/rematch");
        for i in 0..20 {
            assert!(
                g.admit(post_from(&rematch, "203.0.113.9:5000"))
                    .await
                    .is_ok(),
                "#{i}"
            );
        }
        let refused = g
            .admit(post_from(&rematch, "203.0.113.9:5000"))
            .await
            .unwrap_err();
        assert_eq!(refused.status(), StatusCode::TOO_MANY_REQUESTS);
        assert!(g
            .admit(post_from("/api/games", "203.0.113.9:5000"))
            .await
            .is_err());
        // Other actions are not counted.
        let mv = format!("/api/games/{key}/moves");
        for _ in 0..50 {
            assert!(g.admit(post_from(&mv, "192.0.2.7:5000")).await.is_ok());
        }
        // Registrations and logins share one bucket: of 10,000 registrations from one
        // address at once, ten get through, and its logins wait too; loopback is not held back.
        let mut through = 0;
        for _ in 0..10_000 {
            if g.admit(post_from("/api/account/register", "192.0.2.50:5000"))
                .await
                .is_ok()
            {
                through += 1;
            }
        }
        assert_eq!(through, 10);
        let login = g
            .admit(post_from("/api/account/login", "192.0.2.50:5000"))
            .await
            .unwrap_err();
        assert_eq!(login.status(), StatusCode::TOO_MANY_REQUESTS);
        assert!(g
            .admit(post_from("/api/account/login", "127.0.0.1:5000"))
            .await
            .is_ok());
    }

    #[test]
    fn token_rule_auto_asks_for_a_token_off_loopback_only() {
        for loopback in [
            "127.0.0.1:8960",
            "127.0.0.2:1",
            "[::1]:8960",
            "[::ffff:127.0.0.1]:80",
        ] {
            assert_eq!(
                guard(Access::default(), loopback).token(),
                None,
                "{loopback}"
            );
        }
        for open in ["0.0.0.0:8960", "[::]:8960", "192.168.1.5:8960"] {
            let token = guard(Access::default(), open).token().map(str::to_owned);
            let token = token.unwrap_or_else(|| panic!("no token on {open}"));
            assert_eq!(token.len(), 48);
            assert!(token
                .bytes()
                .all(|b| b.is_ascii_hexdigit() && !b.is_ascii_uppercase()));
        }
        let a = guard(Access::default(), "0.0.0.0:1").token.unwrap();
        let b = guard(Access::default(), "0.0.0.0:1").token.unwrap();
        assert_ne!(a, b, "each start draws its own token");
        let off = Access {
            token: TokenRule::Off,
            ..Access::default()
        };
        assert_eq!(guard(off, "0.0.0.0:8960").token(), None);
        let given = Access {
            token: TokenRule::Required("abc".into()),
            ..Access::default()
        };
        assert_eq!(guard(given, "127.0.0.1:8960").token(), Some("abc"));
    }

    #[test]
    fn authorities() {
        let name = |s: &str| HostName::Name(s.into());
        let ip = |s: &str| HostName::Ip(s.parse().unwrap());
        assert_eq!(
            parse_authority("LocalHost:8960"),
            Some((name("localhost"), Some(8960)))
        );
        assert_eq!(
            parse_authority("localhost.:8960"),
            Some((name("localhost"), Some(8960)))
        );
        assert_eq!(
            parse_authority("localhost:"),
            Some((name("localhost"), None))
        );
        assert_eq!(parse_authority("127.0.0.1"), Some((ip("127.0.0.1"), None)));
        assert_eq!(parse_authority("[0:0::1]:80"), Some((ip("::1"), Some(80))));
        for bad in [
            "", ":80", "a b", "a:b", "a:99999", "a:80:80", "[::1", "[::1]x", "[x]:1", "user@a",
            "a/b", "évil", "a:+80", "a:-1",
        ] {
            assert_eq!(parse_authority(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn host_names_given_on_the_command_line() {
        assert_eq!(parse_host_name("Chess.LAN.").as_deref(), Ok("chess.lan"));
        assert_eq!(parse_host_name("::1").as_deref(), Ok("[::1]"));
        assert_eq!(parse_host_name("[::1]").as_deref(), Ok("[::1]"));
        assert_eq!(parse_host_name("10.0.0.7").as_deref(), Ok("10.0.0.7"));
        for with_port in ["chess.lan:8960", "chess.lan:", "[::1]:80", "10.0.0.7:1"] {
            let e = parse_host_name(with_port).unwrap_err();
            assert!(e.contains("without a port"), "{with_port}: {e}");
        }
        for bad in ["", "a b", "*.lan", "http://chess.lan"] {
            assert!(parse_host_name(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn tokens_given_on_the_command_line() {
        assert_eq!(parse_token("a-Z.0_~").as_deref(), Ok("a-Z.0_~"));
        for bad in ["", "a b", "a&b", "a=b", "é", &"x".repeat(257)] {
            assert!(parse_token(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn names_and_ports() {
        let g = guard(
            Access {
                host: Some("box.lan".into()),
                allow_hosts: vec!["proxy.example".into(), "127.0.0.1".into()],
                token: TokenRule::Off,
            },
            "0.0.0.0:8960",
        );
        let admits = |s: &str| {
            let (h, p) = parse_authority(s).unwrap();
            g.admits(&h, p)
        };
        for yes in [
            "localhost:8960",
            "box.lan:8960",
            "10.1.2.3:8960",
            "[::1]:8960",
            "proxy.example",
            "proxy.example:443",
            "127.0.0.1:9000",
        ] {
            assert!(admits(yes), "{yes}");
        }
        for no in [
            "localhost",
            "localhost:80",
            "box.lan",
            "10.1.2.3:1",
            "evil.example:8960",
        ] {
            assert!(!admits(no), "{no}");
        }
        let on_80 = guard(Access::default(), "127.0.0.1:80");
        let (h, p) = parse_authority("localhost").unwrap();
        assert!(on_80.admits(&h, p), "no port is port 80");
    }

    #[test]
    fn origins() {
        let target = parse_authority("localhost:8960").unwrap();
        assert!(same_origin("http://localhost:8960", "http", &target));
        assert!(same_origin("HTTP://LOCALHOST:8960", "http", &target));
        for foreign in [
            "null",
            "http://localhost",
            "http://localhost:8961",
            "https://localhost:8960",
            "http://127.0.0.1:8960",
            "http://evil.example:8960",
            "http://localhost:8960/",
            "localhost:8960",
        ] {
            assert!(!same_origin(foreign, "http", &target), "{foreign}");
        }
        let proxied = parse_authority("chess.example").unwrap();
        assert!(same_origin("https://chess.example", "https", &proxied));
        assert!(same_origin("https://chess.example:443", "https", &proxied));
        assert!(!same_origin("http://chess.example", "https", &proxied));
    }

    #[test]
    fn content_types() {
        let ok = |s: &str| json_type(&HeaderValue::from_str(s).unwrap()).is_ok();
        for yes in [
            "application/json",
            "Application/JSON",
            "application/json; charset=utf-8",
            "application/json;charset=\"UTF-8\"",
        ] {
            assert!(ok(yes), "{yes}");
        }
        for no in [
            "text/plain",
            "application/x-www-form-urlencoded",
            "multipart/form-data; boundary=x",
            "application/json; charset=latin1",
            "application/jsonp",
            "",
        ] {
            assert!(!ok(no), "{no}");
        }
    }
}
