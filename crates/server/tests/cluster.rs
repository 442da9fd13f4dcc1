//! Two servers on one PostgreSQL database (`cluster/`): a game runs in one of them (its
//! lease), the other forwards the actions on it and follows its events for its own sockets;
//! when the server running a game dies, the other takes the game over from the last
//! acknowledged move. Runs in the PostgreSQL pass of the server's tests
//! (`CHESS960_TEST_BACKEND=postgres`, as `scripts/test.sh` does); on SQLite there is nothing
//! to share.

mod common;

use common::{app, app_on, App, Ws};
use serde_json::{json, Value};
use std::time::{Duration, Instant};

fn on_postgres() -> bool {
    std::env::var("CHESS960_TEST_BACKEND").ok().as_deref() == Some("postgres")
}

/// Sends only the head of a POST whose body is declared 2 MiB long (over the limit) and
/// returns the status of the answer, which must come without the body: the refusal is made on
/// the declared length. (Sending the body too races with the refusal: a server that answers
/// and closes early makes the client's write fail with a broken pipe.)
async fn declared_too_large(base: &str, path: &str, seat: &str) -> u16 {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let host = base.trim_start_matches("http://");
    let mut stream = tokio::net::TcpStream::connect(host).await.expect("connect");
    let head = format!(
        "POST {path} HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\n\
         X-Seat-Token: {seat}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        2 << 20
    );
    stream.write_all(head.as_bytes()).await.expect("send");
    let mut answer = Vec::new();
    tokio::time::timeout(Duration::from_secs(10), stream.read_to_end(&mut answer))
        .await
        .expect("an answer without the body")
        .expect("read");
    let answer = String::from_utf8_lossy(&answer);
    answer
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("no status in {answer}"))
}

/// Which server holds the game's lease: its address, from the database.
fn holder(db: &std::path::Path, key: &str) -> Option<String> {
    let (db, key) = (db.to_string_lossy().into_owned(), key.to_owned());
    std::thread::spawn(move || {
        let mut c = postgres::Client::connect(&db, postgres::NoTls).expect("connect");
        c.query_opt(
            "SELECT s.address FROM leases l JOIN servers s ON s.id = l.server
               JOIN games g ON g.id = l.game_id WHERE g.key = $1",
            &[&key],
        )
        .expect("query")
        .map(|r| r.get(0))
    })
    .join()
    .unwrap()
}

/// Waits until `a`'s lobby lists the game `key` (or no longer lists it).
async fn lobby_lists(a: &App, key: &str, listed: bool) {
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let r = a.get("/api/lobby").await;
        let has = r.json["challenges"]
            .as_array()
            .is_some_and(|l| l.iter().any(|c| c["key"] == key));
        if has == listed {
            return;
        }
        assert!(Instant::now() < deadline, "lobby of {}: {}", a.base, r.text);
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

async fn plies_seen(ws: &mut Ws, plies: usize) -> Value {
    ws.until_state(|g| g["moves"].as_array().map_or(0, Vec::len) == plies)
        .await
        .0
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn two_servers_share_a_game_and_take_it_over_when_one_dies() {
    if !on_postgres() {
        eprintln!("skipped: needs CHESS960_TEST_BACKEND=postgres (scripts/test.sh runs it so)");
        return;
    }
    let mut a = app().await;
    let b = app_on(&a.db).await;
    // Ann challenges on A, 5 minutes + 3 seconds; Bob opens the link on B.
    let created = a
        .post(
            "/api/games",
            json!({"start": {"id": 518}, "color": "white", "opponent": "human", "name": "Ann",
                   "lobby": true,
                   "time_control": {"initial_ms": 300000, "increment_ms": 3000}}),
        )
        .await;
    assert_eq!(created.status, 201, "{}", created.text);
    let key = created.json["key"].as_str().unwrap().to_string();
    let ann = created.json["seat_token"].as_str().unwrap().to_string();
    assert_eq!(holder(&a.db, &key).as_deref(), Some(a.base.as_str()));
    // Listed while Ann's page is open on A: B's lobby lists it too.
    let mut ann_ws = a.ws_url(&format!("/api/games/{key}/ws?seat={ann}")).await;
    plies_seen(&mut ann_ws, 0).await;
    lobby_lists(&b, &key, true).await;
    let joined = b.act(&key, "join", json!({"name": "Bob"}), None).await;
    assert_eq!(joined.status, 200, "{}", joined.text);
    let bob = joined.json["seat_token"].as_str().unwrap().to_string();
    assert_eq!(joined.json["seat_color"], "black");
    // The game still runs on A: B forwarded the join.
    assert_eq!(holder(&a.db, &key).as_deref(), Some(a.base.as_str()));

    // Taken: no longer listed anywhere.
    lobby_lists(&b, &key, false).await;
    lobby_lists(&a, &key, false).await;
    // Bob's socket and a spectator's on B (followers of A's game).
    let mut bob_ws = b.ws_url(&format!("/api/games/{key}/ws?seat={bob}")).await;
    let mut watcher = b.ws_url(&format!("/api/games/{key}/ws")).await;
    for ws in [&mut bob_ws, &mut watcher] {
        plies_seen(ws, 0).await;
    }

    // A move on A reaches B's sockets; a move sent to B is played on A and reaches A's.
    let r = a
        .act(&key, "moves", json!({"move": "e2e4", "ply": 0}), Some(&ann))
        .await;
    assert_eq!(r.status, 200, "{}", r.text);
    plies_seen(&mut bob_ws, 1).await;
    plies_seen(&mut watcher, 1).await;
    let r = b
        .act(&key, "moves", json!({"move": "e7e5", "ply": 1}), Some(&bob))
        .await;
    assert_eq!(r.status, 200, "{}", r.text);
    plies_seen(&mut ann_ws, 2).await;
    plies_seen(&mut watcher, 2).await;
    // B answers reads of A's game as A does.
    let via_b = b.get(&format!("/api/games/{key}")).await;
    assert_eq!(via_b.status, 200, "{}", via_b.text);
    assert_eq!(via_b.json["moves"].as_array().unwrap().len(), 2);
    // The seat token is still checked, whichever server is asked.
    let r = b
        .act(
            &key,
            "moves",
            json!({"move": "g1f3", "ply": 2}),
            Some("nobodys-seat"),
        )
        .await;
    assert_eq!(r.status, 403, "{}", r.text);
    // A forged forwarding header is refused.
    let forged = b
        .client
        .get(format!("{}/api/games/{key}", b.base))
        .header("x-chess960-forwarded", "guess")
        .send()
        .await
        .unwrap();
    assert_eq!(forged.status(), 403);
    // B runs the guard's checks before it forwards: a foreign page, a body over the limit and
    // a body that is not JSON are refused there with Ann's valid seat token, and A's game
    // stays as it was.
    let url = format!("{}/api/games/{key}/moves", b.base);
    let hostile = [
        b.client
            .post(&url)
            .header("content-type", "application/json")
            .header("origin", "http://evil.example")
            .header("x-seat-token", &ann)
            .body(json!({"move": "g1f3", "ply": 2}).to_string()),
        b.client
            .post(&url)
            .header("content-type", "text/plain")
            .header("x-seat-token", &ann)
            .body(json!({"move": "g1f3", "ply": 2}).to_string()),
    ];
    for (req, want) in hostile.into_iter().zip([403, 415]) {
        let r = req.send().await.unwrap();
        assert_eq!(r.status(), want, "{}", r.text().await.unwrap());
    }
    let path = format!("/api/games/{key}/moves");
    assert_eq!(declared_too_large(&b.base, &path, &ann).await, 413);
    let after_hostile = a.get(&format!("/api/games/{key}")).await;
    assert_eq!(after_hostile.json["moves"].as_array().unwrap().len(), 2);
    // The clocks as stored with the last move (the view's running clock would already have
    // lost the milliseconds since).
    let before = after_hostile.json["moves"][1]["clocks"].clone();

    // A dies (no goodbye: its leases stay until its heartbeat is overdue).
    let dead = a.server.take().unwrap();
    dead.state().shut_down();
    drop(dead);
    drop(ann_ws);
    // Ann's next move, sent to B, waits for the takeover and is played there.
    let t = Instant::now();
    let r = b
        .act(&key, "moves", json!({"move": "g1f3", "ply": 2}), Some(&ann))
        .await;
    let took = t.elapsed();
    assert_eq!(r.status, 200, "{}", r.text);
    assert!(took < Duration::from_secs(10), "took over in {took:?}");
    eprintln!("the move sent while its server died was played after {took:?}");
    assert_eq!(holder(&b.db, &key).as_deref(), Some(b.base.as_str()));
    // B's sockets go on: the game runs where they are now.
    plies_seen(&mut bob_ws, 3).await;
    plies_seen(&mut watcher, 3).await;
    // Clocks sane: as stored with the last move, plus Ann's increment, less what her move
    // took after the takeover.
    let clocks = &r.json["clocks"];
    let (w0, b0) = (
        before["white_ms"].as_u64().unwrap(),
        before["black_ms"].as_u64().unwrap(),
    );
    let (w1, b1) = (
        clocks["white_ms"].as_u64().unwrap(),
        clocks["black_ms"].as_u64().unwrap(),
    );
    assert!(w1 <= w0 + 3000 && w1 + 10_000 >= w0, "{before} -> {clocks}");
    assert!(b1 <= b0 && b1 + 10_000 >= b0, "{before} -> {clocks}");
    let r = b
        .act(&key, "moves", json!({"move": "b8c6", "ply": 3}), Some(&bob))
        .await;
    assert_eq!(r.status, 200, "{}", r.text);
    // Nothing acknowledged is lost: the database has the four moves.
    let stored = common::store_at(&b.db);
    let (_, game) = stored
        .list(&chess960_store::GameFilter::default())
        .unwrap()
        .into_iter()
        .map(|s| (s.key.to_string(), s))
        .find(|(k, _)| *k == key)
        .unwrap();
    assert_eq!(game.plies, 4);
    drop(bob_ws);
    drop(watcher);
}

/// The status and body of a request written as it is, path included: no client library
/// resolves its dot segments first (`curl --path-as-is`).
async fn as_is(base: &str, method: &str, path: &str) -> (u16, String) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let host = base.trim_start_matches("http://");
    let mut stream = tokio::net::TcpStream::connect(host).await.expect("connect");
    let body = r#"{"start": {"id": 518}}"#;
    let head = format!(
        "{method} {path} HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    stream.write_all(head.as_bytes()).await.expect("send");
    let mut answer = Vec::new();
    tokio::time::timeout(Duration::from_secs(30), stream.read_to_end(&mut answer))
        .await
        .expect("an answer")
        .expect("read");
    let answer = String::from_utf8_lossy(&answer).into_owned();
    let status = answer
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("no status in {answer}"));
    (status, answer)
}

/// Two servers A and B on one PostgreSQL database, and a challenge Ann made on A (the game
/// runs there): the servers, the game's key and Ann's seat token. `None` (the test skipped)
/// on SQLite.
async fn ann_challenges_on_a() -> Option<(App, App, String, String)> {
    if !on_postgres() {
        eprintln!("skipped: needs CHESS960_TEST_BACKEND=postgres (scripts/test.sh runs it so)");
        return None;
    }
    let a = app().await;
    let b = app_on(&a.db).await;
    let created = a
        .post(
            "/api/games",
            json!({"start": {"id": 518}, "color": "white", "opponent": "human", "name": "Ann"}),
        )
        .await;
    assert_eq!(created.status, 201, "{}", created.text);
    let key = created.json["key"].as_str().unwrap().to_string();
    let ann = created.json["seat_token"].as_str().unwrap().to_string();
    Some((a, b, key, ann))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_game_route_reaches_no_other_route_of_the_server_running_the_game() {
    let Some((a, b, key, ann)) = ann_challenges_on_a().await else {
        return;
    };
    let total = |r: common::Reply| r.json["total"].as_u64().expect("total");
    let games_before = total(a.get("/api/games").await);
    // Issue 37: B forwarded these to A, whose HTTP client resolved the dots: a game created
    // through A (201) and A's /api/server answered.
    for (method, path) in [
        ("POST", format!("/api/games/{key}/../../games")),
        ("GET", format!("/api/games/{key}/../../server")),
        ("POST", format!("/api/games/{key}/%2e%2e/%2E%2e/games")),
        ("GET", format!("/api/games/{key}/.%2e/.%2e/server")),
    ] {
        for server in [&b, &a] {
            let (status, answer) = as_is(&server.base, method, &path).await;
            assert_eq!(status, 400, "{method} {path} on {}: {answer}", server.base);
            assert!(answer.contains("dot segment"), "{answer}");
        }
    }
    // Other paths under a game's are answered where they are asked, not forwarded.
    let (status, answer) = as_is(&b.base, "GET", &format!("/api/games/{key}/moves/x")).await;
    assert_eq!(status, 404, "{answer}");
    assert_eq!(total(a.get("/api/games").await), games_before);

    // Issue 37: the answers B relays from A carry the game's version as A's own do.
    let from_a = a.get(&format!("/api/games/{key}")).await;
    let from_b = b.get(&format!("/api/games/{key}")).await;
    assert_eq!(from_b.status, 200, "{}", from_b.text);
    let version = |r: &common::Reply| {
        r.headers
            .get("x-game-version")
            .and_then(|v| v.to_str().ok())
            .map(str::to_owned)
    };
    assert!(version(&from_a).is_some(), "{:?}", from_a.headers);
    assert_eq!(version(&from_b), version(&from_a), "{:?}", from_b.headers);
    let joined = b.act(&key, "join", json!({"name": "Bob"}), None).await;
    assert_eq!(joined.status, 200, "{}", joined.text);
    let bob = joined.json["seat_token"].as_str().unwrap().to_string();
    let r = b
        .act(&key, "moves", json!({"move": "e2e4", "ply": 0}), Some(&ann))
        .await;
    assert_eq!(r.status, 200, "{}", r.text);
    let v1: u64 = version(&r)
        .expect("a version on the move's answer")
        .parse()
        .unwrap();
    let r = b
        .act(&key, "moves", json!({"move": "e7e5", "ply": 1}), Some(&bob))
        .await;
    let v2: u64 = version(&r)
        .expect("a version on the move's answer")
        .parse()
        .unwrap();
    assert!(v2 > v1, "{v1} then {v2}");
    assert_eq!(holder(&a.db, &key).as_deref(), Some(a.base.as_str()));
}

/// Messages of `ws` until a protocol 2 `move` event with `ply` moves after it.
async fn until_move(ws: &mut Ws, ply: usize) -> (Value, Vec<Value>) {
    let mut seen = Vec::new();
    loop {
        let m = ws.next().await;
        if m["type"] == "move" && m["ply"] == ply {
            return (m, seen);
        }
        seen.push(m);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn protocol_two_reaches_the_sockets_of_another_server_by_audience() {
    let Some((a, b, key, ann)) = ann_challenges_on_a().await else {
        return;
    };
    let joined = b.act(&key, "join", json!({"name": "Bob"}), None).await;
    assert_eq!(joined.status, 200, "{}", joined.text);
    let bob = joined.json["seat_token"].as_str().unwrap().to_string();
    assert_eq!(holder(&a.db, &key).as_deref(), Some(a.base.as_str()));
    // Bob and two spectators follow A's game from B: one spectator in each protocol.
    let mut bob_ws = b
        .ws_url(&format!("/api/games/{key}/ws?protocol=2&seat={bob}"))
        .await;
    let mut watch = b.ws_url(&format!("/api/games/{key}/ws?protocol=2")).await;
    let mut watch_v1 = b.ws_url(&format!("/api/games/{key}/ws")).await;
    for ws in [&mut bob_ws, &mut watch, &mut watch_v1] {
        assert_eq!(ws.next().await["type"], "state");
    }

    // Bob's premove, sent to B and played on A, is told to Bob's socket on B alone.
    let r = b.act2(&key, "premove", json!({"move": "e7e5"}), &bob).await;
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(r.json["premove"], "e7e5", "{}", r.text);
    let r = a
        .act2(&key, "moves", json!({"move": "e2e4", "ply": 0}), &ann)
        .await;
    assert_eq!(r.status, 200, "{}", r.text);
    let (first, before) = until_move(&mut bob_ws, 1).await;
    assert!(
        before
            .iter()
            .any(|m| m["type"] == "premove" && m["premove"] == "e7e5"),
        "{before:?}"
    );
    // Bob is to move (his premove is about to be played): the legal moves are his.
    assert!(
        !first["now"]["legal"].as_array().unwrap().is_empty(),
        "{first}"
    );
    let (second, _) = until_move(&mut bob_ws, 2).await;
    assert_eq!(second["move"]["uci"], "e7e5");
    let (watched, before) = until_move(&mut watch, 1).await;
    assert!(
        watched["now"]["legal"].as_array().unwrap().is_empty(),
        "{watched}"
    );
    until_move(&mut watch, 2).await;
    assert!(
        before.iter().all(|m| m["type"] != "premove"),
        "a spectator hears nothing of a premove: {before:?}"
    );
    // Protocol 1 still gets whole states, from the other server too.
    watch_v1
        .until_state(|g| g["moves"].as_array().map_or(0, Vec::len) == 2)
        .await;
    // The view B relays for Bob names his seat's colour.
    let r = common::reply(
        b.client
            .get(format!("{}/api/games/{key}", b.base))
            .header("x-seat-token", &bob)
            .send()
            .await
            .unwrap(),
    )
    .await;
    assert_eq!(r.headers["x-seat-color"], "black");
}
