//! The network checks of every request (docs/server.md, "Who may use the server"): requests
//! from other web pages, to names that are not the server's, with bodies an HTML form sends,
//! and without the access token are refused before they do anything.

use crate::common;

use chess960_server::guard::{Access, TokenRule};
use chess960_server::Server;
use chess960_store::SqliteStore;
use common::{app, App, WAIT};
use serde_json::{json, Value};
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::http::HeaderValue;

const EVIL: &str = "http://evil.example";

/// An answer read off the wire.
struct Raw {
    status: u16,
    head: String,
    body: String,
}

impl Raw {
    fn json(&self) -> Value {
        serde_json::from_str(&self.body)
            .unwrap_or_else(|e| panic!("not JSON ({e}): {} {}", self.status, self.body))
    }

    fn error(&self) -> String {
        self.json()["error"]
            .as_str()
            .unwrap_or_else(|| panic!("no error in {}", self.body))
            .to_owned()
    }

    /// The value of a response header (names are compared in lowercase).
    fn header(&self, name: &str) -> Option<&str> {
        self.head.lines().find_map(|line| {
            let (n, v) = line.split_once(':')?;
            n.eq_ignore_ascii_case(name).then(|| v.trim())
        })
    }
}

/// Sends `request` as it is written: its head up to a blank line (`\n` line ends become
/// `\r\n`; `Connection: close` is added), then its body byte for byte. Reads the whole
/// answer. This is what a browser or an attacker's script puts on the wire, with nothing
/// added by a client library.
async fn raw(addr: SocketAddr, request: &str) -> Raw {
    let (head, body) = request.split_once("\n\n").unwrap_or((request, ""));
    let text = format!(
        "{}\r\nConnection: close\r\n\r\n{body}",
        head.trim_end().replace('\n', "\r\n")
    );
    let mut stream = tokio::net::TcpStream::connect(addr).await.expect("connect");
    stream.write_all(text.as_bytes()).await.expect("send");
    let mut answer = Vec::new();
    tokio::time::timeout(WAIT, stream.read_to_end(&mut answer))
        .await
        .expect("an answer in time")
        .expect("read");
    let answer = String::from_utf8(answer).expect("UTF-8 answer");
    let (head, body) = answer.split_once("\r\n\r\n").expect("a head and a body");
    let status = head
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("no status in {head}"));
    Raw {
        status,
        head: head.to_owned(),
        body: body.to_owned(),
    }
}

fn addr(a: &App) -> SocketAddr {
    a.server.as_ref().expect("running").addr()
}

/// How many games the store holds, asked the way a script would (no Origin).
async fn game_count(a: &App) -> u64 {
    let r = a.get("/api/games").await;
    assert_eq!(r.status, 200, "{}", r.text);
    r.json["total"].as_u64().expect("total")
}

/// Opens the game's WebSocket with these request headers: the status of the refusal, or 101.
async fn ws_status(base: &str, key: &str, headers: &[(&str, &str)]) -> u16 {
    let url = format!("{}/api/games/{key}/ws", base.replace("http", "ws"));
    let mut request = url.into_client_request().expect("request");
    for (name, value) in headers {
        request.headers_mut().insert(
            tokio_tungstenite::tungstenite::http::HeaderName::from_bytes(name.as_bytes()).unwrap(),
            HeaderValue::from_str(value).unwrap(),
        );
    }
    match tokio_tungstenite::connect_async(request).await {
        Ok((_, response)) => response.status().as_u16(),
        Err(tokio_tungstenite::tungstenite::Error::Http(response)) => {
            let body = response.body().as_deref().unwrap_or_default();
            let text = String::from_utf8_lossy(body);
            assert!(text.contains("\"error\""), "a JSON error: {text}");
            response.status().as_u16()
        }
        Err(e) => panic!("WebSocket: {e}"),
    }
}

/// A server with `access` on 127.0.0.1, and the port it got.
async fn guarded(access: Access) -> (Server, tempfile::TempDir) {
    let dir = tempfile::tempdir().expect("temp dir");
    let store = SqliteStore::open(dir.path().join("games.sqlite3")).expect("store");
    let server = Server::bind_with_access("127.0.0.1:0", Arc::new(store), access)
        .await
        .expect("bind");
    (server, dir)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_foreign_origin_is_refused_on_every_route_and_changes_nothing() {
    let a = app().await;
    let port = addr(&a).port();
    let host = format!("Host: 127.0.0.1:{port}");
    let game = a.new_game(json!({"level": {"depth": 1}})).await;
    let key = game["key"].as_str().unwrap();
    let foreign = [
        EVIL.to_owned(),
        "null".to_owned(),
        // The same machine on another port is another origin (another program's page).
        format!("http://127.0.0.1:{}", port.wrapping_add(1)),
        // Another name of this server is another origin too: the browser keeps them apart.
        format!("http://localhost:{port}"),
        format!("https://127.0.0.1:{port}"),
    ];
    for origin in &foreign {
        for (method, path, body) in [
            ("GET", "/api/games".to_owned(), ""),
            ("GET", format!("/api/games/{key}"), ""),
            ("GET", "/".to_owned(), ""),
            ("GET", "/assets/none.js".to_owned(), ""),
            ("POST", "/api/games".to_owned(), "{}"),
            ("POST", format!("/api/games/{key}/resign"), "{}"),
            (
                "POST",
                format!("/api/games/{key}/moves"),
                r#"{"move": "e2e4"}"#,
            ),
            ("POST", format!("/api/games/{key}/join"), "{}"),
            ("GET", "/api/account".to_owned(), ""),
            (
                "POST",
                "/api/account/register".to_owned(),
                r#"{"name": "eve", "password": "long castle on c1"}"#,
            ),
            (
                "POST",
                "/api/account/login".to_owned(),
                r#"{"name": "eve", "password": "long castle on c1"}"#,
            ),
            ("POST", "/api/account/logout".to_owned(), "{}"),
            (
                "POST",
                "/api/account/password".to_owned(),
                r#"{"current": "a", "new": "b"}"#,
            ),
            ("GET", "/api/account/sessions".to_owned(), ""),
            ("DELETE", "/api/account/sessions/1".to_owned(), ""),
            ("GET", "/api/players".to_owned(), ""),
            ("GET", "/api/players/eve".to_owned(), ""),
            ("GET", "/api/players/eve/starts".to_owned(), ""),
        ] {
            let r = raw(
                addr(&a),
                &format!(
                    "{method} {path} HTTP/1.1\n{host}\nOrigin: {origin}\n\
                     Content-Type: application/json\nContent-Length: {}\n\n{body}",
                    body.len()
                ),
            )
            .await;
            assert_eq!(r.status, 403, "{method} {path} from {origin}: {}", r.body);
            let e = r.error();
            assert!(
                e.contains("its own pages") && e.contains(origin.as_str()),
                "{e}"
            );
        }
    }
    assert_eq!(game_count(&a).await, 1, "no game was created");
    let nobody = a.get("/api/players/eve").await;
    assert_eq!(nobody.status, 404, "nobody registered: {}", nobody.text);
    let after = a.get(&format!("/api/games/{key}")).await;
    assert_eq!(
        after.json["status"], game["status"],
        "the game was not resigned"
    );
    assert_eq!(after.json["moves"], json!([]), "no move was played");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_foreign_page_cannot_open_a_games_websocket() {
    let a = app().await;
    let port = addr(&a).port();
    let game = a.new_game(json!({"level": {"depth": 1}})).await;
    let key = game["key"].as_str().unwrap();
    for origin in [
        EVIL.to_owned(),
        "null".to_owned(),
        format!("http://127.0.0.1:{}", port.wrapping_add(1)),
    ] {
        assert_eq!(
            ws_status(&a.base, key, &[("origin", &origin)]).await,
            403,
            "{origin}"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_servers_own_pages_and_clients_without_origin_are_served() {
    let a = app().await;
    let port = addr(&a).port();
    // No Origin: curl, scripts, the tests' own client.
    let game = a.new_game(json!({"level": {"depth": 1}})).await;
    let key = game["key"].as_str().unwrap();
    assert_eq!(ws_status(&a.base, key, &[]).await, 101);
    // The server's own page, by each of its names.
    for (host, origin) in [
        (
            format!("127.0.0.1:{port}"),
            format!("http://127.0.0.1:{port}"),
        ),
        (
            format!("localhost:{port}"),
            format!("http://LocalHost:{port}"),
        ),
        (format!("[::1]:{port}"), format!("http://[::1]:{port}")),
    ] {
        let r = raw(
            addr(&a),
            &format!(
                "POST /api/games HTTP/1.1\nHost: {host}\nOrigin: {origin}\n\
                 Content-Type: application/json\nContent-Length: 2\n\n{{}}"
            ),
        )
        .await;
        assert_eq!(r.status, 201, "{origin}: {}", r.body);
        let r = raw(
            addr(&a),
            &format!("GET / HTTP/1.1\nHost: {host}\nOrigin: {origin}"),
        )
        .await;
        assert_eq!(r.status, 200, "{origin}: {}", r.body);
    }
    let own = format!("http://127.0.0.1:{port}");
    assert_eq!(ws_status(&a.base, key, &[("origin", &own)]).await, 101);
    // Behind a proxy that terminated TLS, the page's origin is https.
    let r = raw(
        addr(&a),
        &format!(
            "GET /api/levels HTTP/1.1\nHost: 127.0.0.1:{port}\nOrigin: https://127.0.0.1:{port}\n\
             X-Forwarded-Proto: https"
        ),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(game_count(&a).await, 4);
}

/// `POST /api/games` to the server by its address, with `rest`: more header lines, a blank
/// line and the body.
async fn post_games(a: &App, rest: &str) -> Raw {
    let port = addr(a).port();
    raw(
        addr(a),
        &format!("POST /api/games HTTP/1.1\nHost: 127.0.0.1:{port}\n{rest}"),
    )
    .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn post_bodies_must_be_json_and_what_a_form_sends_creates_nothing() {
    let a = app().await;
    // What an HTML form can send: text/plain (a JSON-looking body, the classic trick),
    // urlencoded and multipart; an empty text/plain body too (a form with no field), which
    // would otherwise create a game with the defaults.
    for (content_type, body) in [
        ("text/plain", r#"{"color": "white", "x": "="}"#),
        ("text/plain", ""),
        ("text/plain;charset=UTF-8", "{}"),
        ("application/x-www-form-urlencoded", "color=white"),
        ("multipart/form-data; boundary=x", "--x--\r\n"),
        ("application/json; charset=latin1", "{}"),
        ("application/jsonp", "{}"),
    ] {
        let rest = format!(
            "Content-Type: {content_type}\nContent-Length: {}\n\n{body}",
            body.len()
        );
        let r = post_games(&a, &rest).await;
        assert_eq!(r.status, 415, "{content_type}: {}", r.body);
        assert!(r.error().contains("application/json"), "{}", r.error());
    }
    // A body without any type, of known or unknown length.
    for request in [
        "Content-Length: 2\n\n{}",
        "Transfer-Encoding: chunked\n\n2\r\n{}\r\n0\r\n\r\n",
    ] {
        let r = post_games(&a, request).await;
        assert_eq!(r.status, 415, "{request}: {}", r.body);
        assert!(r.error().contains("no Content-Type"), "{}", r.error());
    }
    assert_eq!(game_count(&a).await, 0, "no game was created");
    // JSON, with parameters in any case; an empty body with no type at all.
    for request in [
        "Content-Type: application/json\nContent-Length: 2\n\n{}",
        "Content-Type: Application/JSON; charset=\"UTF-8\"\nContent-Length: 2\n\n{}",
        "Content-Length: 0\n\n",
        "Transfer-Encoding: chunked\n\n0\r\n\r\n",
    ] {
        let r = post_games(&a, request).await;
        assert_eq!(r.status, 201, "{request}: {}", r.body);
    }
    assert_eq!(game_count(&a).await, 4);
}

/// A body declared longer than the limit is refused at once, without being read: the client
/// sends only the head and still gets its answer (before, the server waited for the body).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_body_declared_over_the_limit_is_refused_before_it_is_read() {
    let a = app().await;
    for length in [(1 << 20) + 1, 2 << 20, u64::MAX / 2] {
        let r = post_games(
            &a,
            &format!("Content-Type: application/json\nContent-Length: {length}\n\n"),
        )
        .await;
        assert_eq!(r.status, 413, "{length}: {}", r.body);
        assert!(
            r.error().contains("larger than 1048576 bytes"),
            "{}",
            r.error()
        );
    }
    // The answer comes at once, not when the server stops waiting for the body (it reads
    // what comes for a while, so that a client still sending can read the answer after).
    let mut stream = tokio::net::TcpStream::connect(addr(&a))
        .await
        .expect("connect");
    let head = format!(
        "POST /api/games HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\n\r\n",
        addr(&a),
        2 << 20
    );
    stream.write_all(head.as_bytes()).await.expect("send");
    let mut first = [0; 12];
    tokio::time::timeout(Duration::from_millis(500), stream.read_exact(&mut first))
        .await
        .expect("the answer before the body")
        .expect("read");
    assert_eq!(&first, b"HTTP/1.1 413");
    assert_eq!(game_count(&a).await, 0);
}

/// A client that sends a body over the limit whole before it reads reads the 413 (the server
/// reads the rest of the body; closing on the client while it sends would break its pipe).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_sending_too_much_reads_why_it_was_refused() {
    let a = app().await;
    for size in [(1 << 20) + 1, 3 << 20, 12 << 20] {
        for _ in 0..5 {
            let r = a.post_raw("/api/games", vec![b' '; size]).await;
            assert_eq!(r.status, 413, "{size}: {}", r.text);
            assert!(r.error().contains("larger than"), "{}", r.text);
        }
    }
    assert_eq!(game_count(&a).await, 0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_name_that_is_not_the_servers_is_refused() {
    let a = app().await;
    let port = addr(&a).port();
    // DNS rebinding: evil.example resolves to 127.0.0.1, and the page on it reads the list
    // of games (with their keys) or the UI.
    for host in [
        format!("evil.example:{port}"),
        "evil.example".to_owned(),
        format!("localhost.evil.example:{port}"),
        format!("127.0.0.1.nip.io:{port}"),
    ] {
        for path in ["/api/games", "/", "/game/x"] {
            let r = raw(addr(&a), &format!("GET {path} HTTP/1.1\nHost: {host}")).await;
            assert_eq!(r.status, 403, "{host} {path}: {}", r.body);
            let e = r.error();
            let name = host.split(':').next().unwrap();
            assert!(
                e.contains(&format!("'{host}'")) && e.contains(&format!("--allow-host {name}")),
                "{e}"
            );
        }
    }
    // The same by a request in absolute form.
    let r = raw(
        addr(&a),
        &format!("GET http://evil.example:{port}/api/games HTTP/1.1\nHost: 127.0.0.1:{port}"),
    )
    .await;
    assert_eq!(r.status, 403, "{}", r.body);
    // The loopback names, any IP address (no rebinding without a name: how a 0.0.0.0 server
    // is reached by its LAN address), in any case, with the server's port only.
    for host in [
        format!("localhost:{port}"),
        format!("LOCALHOST:{port}"),
        format!("localhost.:{port}"),
        format!("127.0.0.1:{port}"),
        format!("[::1]:{port}"),
        format!("192.168.1.5:{port}"),
    ] {
        let r = raw(addr(&a), &format!("GET /api/games HTTP/1.1\nHost: {host}")).await;
        assert_eq!(r.status, 200, "{host}: {}", r.body);
        assert!(r.json()["games"].is_array());
    }
    for host in [
        "localhost".to_owned(),
        format!("localhost:{}", port.wrapping_add(1)),
        "127.0.0.1".to_owned(),
    ] {
        let r = raw(addr(&a), &format!("GET /api/games HTTP/1.1\nHost: {host}")).await;
        assert_eq!(r.status, 403, "{host}: {}", r.body);
    }
    // HTTP/1.1 requires a Host; two or a malformed one are refused too.
    for (head, what) in [
        ("GET /api/games HTTP/1.1", "no Host header"),
        (
            &*format!("GET /api/games HTTP/1.1\nHost: 127.0.0.1:{port}\nHost: 127.0.0.1:{port}"),
            "more than one Host",
        ),
        ("GET /api/games HTTP/1.1\nHost: a b", "not a host name"),
        ("GET /api/games HTTP/1.1\nHost: x:99999", "not a host name"),
    ] {
        let r = raw(addr(&a), head).await;
        assert_eq!(r.status, 400, "{head}: {}", r.body);
        assert!(r.error().contains(what), "{}", r.error());
    }
    // HTTP/1.0 has no Host to check (no browser sends it so).
    let r = raw(addr(&a), "GET /api/levels HTTP/1.0").await;
    assert_eq!(r.status, 200, "{}", r.body);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn allow_host_admits_a_name_on_any_port() {
    let (server, _dir) = guarded(Access {
        allow_hosts: vec!["chess.example".into()],
        ..Access::default()
    })
    .await;
    let port = server.addr().port();
    for host in [
        format!("chess.example:{port}"),
        "Chess.Example".to_owned(),
        "chess.example:443".to_owned(),
    ] {
        let r = raw(
            server.addr(),
            &format!("GET /api/levels HTTP/1.1\nHost: {host}"),
        )
        .await;
        assert_eq!(r.status, 200, "{host}: {}", r.body);
    }
    // Behind a TLS proxy that passes the Host through, the UI's own requests.
    let r = raw(
        server.addr(),
        "POST /api/draw HTTP/1.1\nHost: chess.example\nOrigin: https://chess.example\n\
         X-Forwarded-Proto: https\nContent-Type: application/json\nContent-Length: 16\n\n\
         {\"method\":\"die\"}",
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.body);
    let r = raw(
        server.addr(),
        &format!("GET /api/levels HTTP/1.1\nHost: other.example:{port}"),
    )
    .await;
    assert_eq!(r.status, 403, "{}", r.body);
    server.shutdown().await;

    let dir = tempfile::tempdir().unwrap();
    let store = SqliteStore::open(dir.path().join("g.sqlite3")).unwrap();
    let bad = Access {
        allow_hosts: vec!["chess.example:8960".into()],
        ..Access::default()
    };
    let e = Server::bind_with_access("127.0.0.1:0", Arc::new(store), bad)
        .await
        .err()
        .expect("a name with a port is refused");
    assert_eq!(e.kind(), std::io::ErrorKind::InvalidInput);
    assert!(e.to_string().contains("without a port"), "{e}");
}

/// The token server's answer to `GET path` with these extra header lines.
async fn get(server: &Server, path: &str, extra: &str) -> Raw {
    let port = server.addr().port();
    raw(
        server.addr(),
        &format!("GET {path} HTTP/1.1\nHost: 127.0.0.1:{port}\n{extra}"),
    )
    .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_access_token_is_asked_for_and_taken_in_each_of_its_forms() {
    const TOKEN: &str = "k3y-0f_th1s.s3rver~";
    let (server, _dir) = guarded(Access {
        token: TokenRule::Required(TOKEN.into()),
        ..Access::default()
    })
    .await;
    assert_eq!(server.token(), Some(TOKEN));
    assert_eq!(
        server.login_url(),
        format!("http://{}/?token={TOKEN}", server.addr())
    );
    let cookie = format!("chess960-token-{}", server.addr().port());

    // Without it, or with a wrong one: 401, JSON for the API, a page for the UI.
    let wrong = "k3y-0f_th1s.s3rveR~";
    for extra in [
        String::new(),
        format!("Authorization: Bearer {wrong}"),
        format!("Cookie: {cookie}={wrong}"),
        format!("Cookie: chess960-token-1={TOKEN}"),
        format!("Authorization: Basic {TOKEN}"),
    ] {
        for path in [
            "/api/games",
            "/api/levels",
            &format!("/api/games?token={wrong}"),
        ] {
            let r = get(&server, path, &extra).await;
            assert_eq!(r.status, 401, "{path} {extra}: {}", r.body);
            assert!(r.error().contains("access token"), "{}", r.error());
            assert_eq!(
                r.header("www-authenticate"),
                Some("Bearer realm=\"chess960\"")
            );
        }
        for path in ["/", "/game/abc", "/assets/index.js", "/?token=nope"] {
            let r = get(&server, path, &extra).await;
            assert_eq!(r.status, 401, "{path} {extra}: {}", r.body);
            assert!(r.header("content-type").unwrap().starts_with("text/html"));
            assert!(r.body.contains("needs its access token"), "{}", r.body);
            assert!(
                r.body.contains("?token="),
                "says where to find it: {}",
                r.body
            );
            assert!(
                !r.body.contains(TOKEN),
                "the page does not give the token away"
            );
        }
    }
    let r = raw(
        server.addr(),
        &format!(
            "POST /api/games HTTP/1.1\nHost: 127.0.0.1:{}\nContent-Type: application/json\n\
             Content-Length: 2\n\n{{}}",
            server.addr().port()
        ),
    )
    .await;
    assert_eq!(r.status, 401, "{}", r.body);

    // Each of its three forms.
    let bearer = format!("Authorization: Bearer {TOKEN}");
    let with_cookie = format!("Cookie: theme=dark; {cookie}={TOKEN}");
    for (path, extra) in [
        ("/api/games", bearer.as_str()),
        ("/api/games", with_cookie.as_str()),
        (&*format!("/api/games?limit=5&token={TOKEN}"), ""),
        ("/", bearer.as_str()),
        ("/", with_cookie.as_str()),
    ] {
        let r = get(&server, path, extra).await;
        assert_eq!(r.status, 200, "{path} {extra}: {}", r.body);
    }
    // A page of the UI opened with ?token=: the cookie, and the same address without it.
    let r = get(&server, &format!("/game/abc?token={TOKEN}&x=1"), "").await;
    assert_eq!(r.status, 303, "{}", r.body);
    assert_eq!(r.header("location"), Some("/game/abc?x=1"));
    assert_eq!(
        r.header("set-cookie"),
        Some(&*format!(
            "{cookie}={TOKEN}; Path=/; HttpOnly; SameSite=Strict"
        ))
    );
    let r = get(&server, &format!("/?token={TOKEN}"), "").await;
    assert_eq!(r.status, 303, "{}", r.body);
    assert_eq!(r.header("location"), Some("/"));
    // Never to another host.
    let r = get(&server, &format!("//evil.example/x?token={TOKEN}"), "").await;
    assert_eq!(r.status, 303, "{}", r.body);
    assert_eq!(r.header("location"), Some("/evil.example/x"));

    // The WebSocket: refused without the token, open with the cookie a browser sends.
    let client = reqwest::Client::new();
    let base = format!("http://{}", server.addr());
    let created = client
        .post(format!("{base}/api/games"))
        .bearer_auth(TOKEN)
        .json(&json!({"level": {"depth": 1}}))
        .send()
        .await
        .unwrap();
    assert_eq!(created.status(), 201);
    let key = created.json::<Value>().await.unwrap()["key"]
        .as_str()
        .unwrap()
        .to_owned();
    let cookie_line = format!("{cookie}={TOKEN}");
    let origin = base.clone();
    assert_eq!(ws_status(&base, &key, &[("origin", &origin)]).await, 401);
    assert_eq!(
        ws_status(
            &base,
            &key,
            &[("origin", &origin), ("cookie", &cookie_line)]
        )
        .await,
        101
    );
    assert_eq!(
        ws_status(
            &base,
            &key,
            &[("authorization", &format!("Bearer {TOKEN}"))]
        )
        .await,
        101
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_loopback_server_asks_for_no_token_unless_given_one() {
    let (server, _dir) = guarded(Access::default()).await;
    assert_eq!(server.token(), None);
    assert_eq!(server.login_url(), server.url());
    assert_eq!(get(&server, "/api/levels", "").await.status, 200);
    server.shutdown().await;
    let (server, _dir) = guarded(Access {
        token: TokenRule::Off,
        ..Access::default()
    })
    .await;
    assert_eq!(server.token(), None);
    assert_eq!(get(&server, "/", "").await.status, 200);
}
