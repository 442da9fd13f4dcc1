//! Events over HTTP: an arbiter makes one, enters players, draws and pairs rounds, enters
//! results; everyone with the key reads it; changes need the arbiter's token; bad requests
//! get clear errors and change nothing; the event survives a restart.

use crate::common;

use common::{app_on, App, Reply};
use serde_json::{json, Value};

/// POSTs `body` to the event's `path` with the arbiter's token.
async fn arb(a: &App, key: &str, path: &str, body: Value, token: &str) -> Reply {
    a.arbiter(key, path, body, token).await
}

/// Draws round `round`'s position with a die whose throws all came up 1, as the arbiter.
async fn draw_by_die(a: &App, key: &str, token: &str, round: u32) -> Reply {
    let d = arb(
        a,
        key,
        &format!("/rounds/{round}/draw"),
        json!({"method": "die", "outcomes": "1,1,1,1,1"}),
        token,
    )
    .await;
    assert_eq!(d.status, 200, "{}", d.text);
    d
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_arbiter_runs_a_swiss_over_http() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("games.sqlite3");
    let a = app_on(&db).await;
    let made = a
        .post("/api/events", json!({"name": "Web Open", "format": "swiss", "rounds": 3, "exclude_518": true, "time_control": "15+10"}))
        .await;
    assert_eq!(made.status, 201, "{}", made.text);
    let key = made.json["key"].as_str().unwrap().to_string();
    let token = made.json["arbiter_token"].as_str().unwrap().to_string();
    assert_eq!(made.json["format"], "swiss");
    // Reading needs no token, and never shows it.
    let read = a.get(&format!("/api/events/{key}")).await;
    assert_eq!(read.status, 200);
    assert!(read.json.get("arbiter_token").is_none());
    // Changes do.
    let no = a
        .post(&format!("/api/events/{key}/players"), json!({"name": "X"}))
        .await;
    assert_eq!(no.status, 403, "{}", no.text);
    assert!(no.error().contains("X-Arbiter-Token"));
    let wrong = arb(
        &a,
        &key,
        "/players",
        json!({"name": "X"}),
        "00000000000000000000000000000000",
    )
    .await;
    assert_eq!(wrong.status, 403);
    for (k, n) in ["Ann", "Ben", "Cid", "Dora", "Eve"].iter().enumerate() {
        let r = arb(
            &a,
            &key,
            "/players",
            json!({"name": n, "rating": 2000 - 10 * k as u16}),
            &token,
        )
        .await;
        assert_eq!(r.status, 200, "{}", r.text);
    }
    let dup = arb(&a, &key, "/players", json!({"name": "ann"}), &token).await;
    assert_eq!(dup.status, 400);
    assert!(dup.error().contains("entered already"));
    assert_eq!(
        arb(
            &a,
            &key,
            "/players/2/bye",
            json!({"round": 2, "kind": "half"}),
            &token
        )
        .await
        .status,
        200
    );
    // Round 1: a die's roll replayed, then the pairing.
    let d = draw_by_die(&a, &key, &token, 1).await;
    let draw = &d.json["round_list"][0]["draw"];
    assert_eq!(draw["how"]["method"], "die");
    assert!(draw["steps"].as_array().unwrap().len() >= 5);
    let p = arb(&a, &key, "/rounds/1/pair", json!({}), &token).await;
    assert_eq!(p.status, 200, "{}", p.text);
    let boards = p.json["round_list"][0]["boards"]
        .as_array()
        .unwrap()
        .clone();
    assert_eq!(boards.len(), 2);
    assert_eq!(p.json["round_list"][0]["byes"][0]["kind"], "pab");
    assert_eq!(boards[0]["position"]["id"], draw["position"]["id"]);
    let twice = arb(&a, &key, "/rounds/1/pair", json!({}), &token).await;
    assert_eq!(twice.status, 409);
    assert!(twice.error().contains("paired already"));
    let early = arb(&a, &key, "/rounds/2/pair", json!({}), &token).await;
    assert_eq!(early.status, 409);
    assert!(
        early.error().contains("still needs results"),
        "{}",
        early.text
    );
    assert_eq!(
        arb(
            &a,
            &key,
            "/rounds/1/boards/3/result",
            json!({"result": "1-0"}),
            &token
        )
        .await
        .status,
        404
    );
    assert_eq!(
        arb(
            &a,
            &key,
            "/rounds/1/boards/1/result",
            json!({"result": "2-0"}),
            &token
        )
        .await
        .status,
        400
    );
    for (b, r) in [(1, "1-0"), (2, "1/2-1/2")] {
        let x = arb(
            &a,
            &key,
            &format!("/rounds/1/boards/{b}/result"),
            json!({"result": r}),
            &token,
        )
        .await;
        assert_eq!(x.status, 200, "{}", x.text);
    }
    let v = arb(&a, &key, "/rounds/2/pair", json!({}), &token).await;
    assert_eq!(v.status, 200, "{}", v.text);
    assert!(v.json["round_list"][1]["byes"]
        .as_array()
        .unwrap()
        .iter()
        .any(|b| b["player"] == 2 && b["kind"] == "half"));
    let st = &v.json["standings"];
    assert_eq!(st.as_array().unwrap().len(), 5);
    // Exports: TRF that our reader takes, PGN with the start position.
    let trf = a.get(&format!("/api/events/{key}/export?format=trf")).await;
    assert_eq!(trf.status, 200);
    assert!(trf.headers["content-disposition"]
        .to_str()
        .unwrap()
        .contains("Web-Open.trf"));
    chess960_events::trf::read(&trf.text).unwrap();
    let pgn = a.get(&format!("/api/events/{key}/export?format=pgn")).await;
    assert!(
        pgn.text.contains("[Round \"1.1\"]") && pgn.text.contains("[FEN "),
        "{}",
        pgn.text
    );
    assert_eq!(
        a.get(&format!("/api/events/{key}/export?format=doc"))
            .await
            .status,
        400
    );
    // Hostile and broken requests.
    assert_eq!(a.get("/api/events/zz").await.status, 404);
    assert_eq!(
        a.get(&format!("/api/events/{}", "0".repeat(32)))
            .await
            .status,
        404
    );
    let bad_path = arb(&a, &key, "/rounds/two/pair", json!({}), &token).await;
    assert_eq!(bad_path.status, 400);
    assert!(
        bad_path.error().contains("Cannot parse"),
        "{}",
        bad_path.text
    );
    let long = arb(
        &a,
        &key,
        "/players",
        json!({"name": "x".repeat(5000)}),
        &token,
    )
    .await;
    assert_eq!(long.status, 400);
    let unknown = a
        .post(
            "/api/events",
            json!({"name": "A", "format": "swiss", "rounds": 3, "admin": true}),
        )
        .await;
    assert_eq!(unknown.status, 400, "{}", unknown.text);
    let huge = a
        .post(
            "/api/events",
            json!({"name": "A", "format": "swiss", "rounds": 100000}),
        )
        .await;
    assert_eq!(huge.status, 400);
    let list = a.get("/api/events").await;
    assert_eq!(list.json["events"].as_array().unwrap().len(), 1);
    // A restart keeps everything.
    drop(a);
    let b = app_on(&db).await;
    let again = b.get(&format!("/api/events/{key}")).await;
    assert_eq!(again.json["rounds_paired"], 2);
    assert_eq!(again.json["round_list"][0]["boards"][0]["result"], "1-0");
    let more = arb(
        &b,
        &key,
        "/rounds/2/boards/1/result",
        json!({"result": "0-1"}),
        &token,
    )
    .await;
    assert_eq!(more.status, 200, "{}", more.text);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn results_come_from_games_played_on_the_server() {
    let dir = tempfile::tempdir().unwrap();
    let a = app_on(&dir.path().join("games.sqlite3")).await;
    let made = a
        .post(
            "/api/events",
            json!({"name": "Online 960", "format": "round_robin", "time_control": "5+3"}),
        )
        .await;
    let key = made.json["key"].as_str().unwrap().to_string();
    let token = made.json["arbiter_token"].as_str().unwrap().to_string();
    for n in ["Ann", "Ben", "Cid", "Dora"] {
        assert_eq!(
            arb(&a, &key, "/players", json!({"name": n}), &token)
                .await
                .status,
            200
        );
    }
    assert_eq!(
        arb(
            &a,
            &key,
            "/rounds/1/draw",
            json!({"method": "set", "id": 100}),
            &token
        )
        .await
        .status,
        200
    );
    assert_eq!(
        arb(&a, &key, "/rounds/1/games", json!({}), &token)
            .await
            .status,
        409,
        "not paired yet"
    );
    assert_eq!(
        arb(&a, &key, "/rounds/1/pair", json!({}), &token)
            .await
            .status,
        200
    );
    let g = arb(&a, &key, "/rounds/1/games", json!({}), &token).await;
    assert_eq!(g.status, 200, "{}", g.text);
    let games = g.json["games"].as_array().unwrap().clone();
    assert_eq!(games.len(), 2);
    assert_eq!(
        arb(&a, &key, "/rounds/1/games", json!({}), &token)
            .await
            .status,
        409,
        "once"
    );
    // Board 1's game: from position 100, the event's clock, the players' names.
    let link = games[0]["black_link"].as_str().unwrap();
    let (path, frag) = link.split_once('#').unwrap();
    let black = frag
        .strip_prefix("seat=")
        .unwrap()
        .split('&')
        .next()
        .unwrap()
        .to_string();
    let game_key = path.strip_prefix("/game/").unwrap().to_string();
    let view = a.get(&format!("/api/games/{game_key}")).await;
    assert_eq!(view.json["start_id"], 100, "{}", view.text);
    let board = &g.json["round_list"][0]["boards"][0];
    assert_eq!(board["game"], game_key.as_str());
    let white_name = a.get(&format!("/api/events/{key}")).await.json["players"]
        [board["white"].as_u64().unwrap() as usize - 1]["name"]
        .clone();
    assert_eq!(view.json["white"], white_name);
    // Black resigns with his own seat token: the event has 1-0 on board 1 without the arbiter.
    let r = a
        .post_as(
            &format!("/api/games/{game_key}/resign"),
            b"{}".to_vec(),
            Some(&black),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.text);
    let e = a.get(&format!("/api/events/{key}")).await;
    assert_eq!(
        e.json["round_list"][0]["boards"][0]["result"], "1-0",
        "{}",
        e.text
    );
    assert_eq!(e.json["round_list"][0]["boards"][1]["result"], Value::Null);
    // The arbiter's own entry for board 2 still works, and pairing round 2 takes it all.
    assert_eq!(
        arb(
            &a,
            &key,
            "/rounds/1/boards/2/result",
            json!({"result": "1/2-1/2"}),
            &token
        )
        .await
        .status,
        200
    );
    assert_eq!(
        arb(&a, &key, "/rounds/2/pair", json!({}), &token)
            .await
            .status,
        200
    );
}

/// `GET …/rounds/{r}/links` as the arbiter (`token`), or anyone (`None`).
async fn links(a: &App, key: &str, round: u32, token: Option<&str>) -> Reply {
    let mut req = a
        .client
        .get(format!("{}/api/events/{key}/rounds/{round}/links", a.base));
    if let Some(t) = token {
        req = req.header("x-arbiter-token", t);
    }
    common::reply(req.send().await.expect("GET")).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_arbiter_shows_the_players_links_again_and_nobody_else_gets_them() {
    let a = common::app().await;
    let (key, token) = a
        .new_event(json!({"name": "Links 960", "format": "round_robin", "time_control": "5+3"}))
        .await;
    for n in ["Ann", "Ben", "Cid", "Dora"] {
        assert_eq!(
            arb(&a, &key, "/players", json!({"name": n}), &token)
                .await
                .status,
            200
        );
    }
    let set = json!({"method": "set", "id": 100});
    assert_eq!(
        arb(&a, &key, "/rounds/1/draw", set, &token).await.status,
        200
    );
    assert_eq!(
        links(&a, &key, 1, Some(&token)).await.status,
        409,
        "not paired yet"
    );
    assert_eq!(
        arb(&a, &key, "/rounds/1/pair", json!({}), &token)
            .await
            .status,
        200
    );
    // No games yet: no links.
    let none = links(&a, &key, 1, Some(&token)).await;
    assert_eq!(none.status, 200, "{}", none.text);
    assert_eq!(none.json["games"], json!([]));
    let made = arb(&a, &key, "/rounds/1/games", json!({}), &token).await;
    assert_eq!(made.status, 200, "{}", made.text);
    // Again: the same links, for every board, kept by no cache.
    let again = links(&a, &key, 1, Some(&token)).await;
    assert_eq!(again.status, 200, "{}", again.text);
    assert_eq!(again.headers["cache-control"], "no-store");
    let games = again.json["games"].as_array().unwrap();
    assert_eq!(games.len(), 2);
    for (g, m) in games.iter().zip(made.json["games"].as_array().unwrap()) {
        for f in ["board", "key", "white_link", "black_link"] {
            assert_eq!(g[f], m[f], "{f}");
        }
        assert_eq!(g["result"], Value::Null);
    }
    // Nobody else: no token, another token, another event's token.
    let (other_key, other_token) = a
        .new_event(json!({"name": "Other", "format": "round_robin"}))
        .await;
    for t in [None, Some("f".repeat(32)), Some(other_token.clone())] {
        let r = links(&a, &key, 1, t.as_deref()).await;
        assert_eq!(r.status, 403, "{}", r.text);
        assert!(!r.text.contains("seat="));
    }
    assert_eq!(
        links(&a, &other_key, 1, Some(&other_token)).await.status,
        409
    );
    assert_eq!(links(&a, &key, 7, Some(&token)).await.status, 409);
    // A link given again holds its seat: Black of board 2 resigns.
    let link = games[1]["black_link"].as_str().unwrap();
    let (path, frag) = link.split_once('#').unwrap();
    let seat = frag
        .strip_prefix("seat=")
        .unwrap()
        .split('&')
        .next()
        .unwrap();
    let game = path.strip_prefix("/game/").unwrap();
    let r = a
        .post_as(
            &format!("/api/games/{game}/resign"),
            b"{}".to_vec(),
            Some(seat),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.text);
    let e = a.get(&format!("/api/events/{key}")).await;
    assert_eq!(e.json["round_list"][0]["boards"][1]["result"], "1-0");
    let after = links(&a, &key, 1, Some(&token)).await;
    assert_eq!(after.json["games"][1]["result"], "1-0");
}

/// Reads one HTTP/1.1 answer off `stream` (its head and a body of its Content-Length): its
/// status and body; `None` when the connection ends first.
async fn one_answer(stream: &mut tokio::net::TcpStream) -> Option<(u16, String)> {
    use tokio::io::AsyncReadExt;
    let mut got = Vec::new();
    let mut buf = [0u8; 4096];
    loop {
        if let Some(end) = got.windows(4).position(|w| w == b"\r\n\r\n") {
            let head = String::from_utf8_lossy(&got[..end]).into_owned();
            let length: usize = head
                .lines()
                .find_map(|l| {
                    let (n, v) = l.split_once(':')?;
                    n.eq_ignore_ascii_case("content-length")
                        .then(|| v.trim().parse().ok())?
                })
                .unwrap_or(0);
            if got.len() >= end + 4 + length {
                let status = head.split(' ').nth(1)?.parse().ok()?;
                let body = String::from_utf8_lossy(&got[end + 4..end + 4 + length]).into_owned();
                return Some((status, body));
            }
        }
        let n = tokio::time::timeout(common::WAIT, stream.read(&mut buf))
            .await
            .expect("an answer in time")
            .ok()?;
        if n == 0 {
            return None;
        }
        got.extend_from_slice(&buf[..n]);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_answer_waits_for_the_whole_body_even_where_the_route_reads_none() {
    // Issue 37: the web UI posts {} to .../pair, which never read it; the answer went out
    // while the body was still coming, the server closed the connection unread, and the
    // client often saw a reset instead of the answer (7 of 24 on a big Swiss).
    use tokio::io::AsyncWriteExt;
    let a = common::app().await;
    let (key, token) = a
        .new_event(json!({"name": "Body Open", "format": "swiss", "rounds": 3}))
        .await;
    for n in ["Ann", "Ben", "Cid", "Dora"] {
        let r = arb(&a, &key, "/players", json!({ "name": n }), &token).await;
        assert_eq!(r.status, 200, "{}", r.text);
    }
    draw_by_die(&a, &key, &token, 1).await;
    let host = a.base.trim_start_matches("http://").to_owned();
    let mut stream = tokio::net::TcpStream::connect(&host).await.unwrap();
    // The head and the body's first byte, then the rest a moment later, on a connection
    // kept alive: the answer must come after the whole body, and the connection stay usable.
    let head = format!(
        "POST /api/events/{key}/rounds/1/pair HTTP/1.1\r\nHost: {host}\r\n\
         Content-Type: application/json\r\nX-Arbiter-Token: {token}\r\nContent-Length: 2\r\n\r\n{{"
    );
    stream.write_all(head.as_bytes()).await.unwrap();
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    stream.write_all(b"}").await.unwrap();
    let (status, body) = one_answer(&mut stream).await.expect("the pairing's answer");
    assert_eq!(status, 200, "{body}");
    let again = format!("GET /api/events/{key} HTTP/1.1\r\nHost: {host}\r\n\r\n");
    stream.write_all(again.as_bytes()).await.unwrap();
    let (status, body) = one_answer(&mut stream)
        .await
        .expect("the connection is still open for a second request");
    assert_eq!(status, 200, "{body}");
    assert!(body.contains("\"paired\":true"), "{body}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn pairing_a_big_event_holds_no_other_event_back() {
    // Issue 37: pairing a 500-player Swiss held every event's changes for 30 s (one lock for
    // all of them). Now it computes under no lock, and only its save waits its turn; its
    // view says how far it has come (issue 41).
    use chess960_events::event::{BoardResult, DrawSpec, Event, Format, Player, Side};
    use std::time::{Duration, Instant};
    let dir = tempfile::tempdir().unwrap();
    let a = app_on(&dir.path().join("games.sqlite3")).await;
    let (big, big_token) = a
        .new_event(json!({"name": "Big Open", "format": "swiss", "rounds": 9}))
        .await;
    // Its players and three rounds with results, written as the store keeps them.
    let built = tokio::task::spawn_blocking(|| {
        let mut e = Event::new("Big Open", Format::Swiss, 9, Side::White).unwrap();
        for i in 0..400u32 {
            e.add_player(Player {
                rating: Some(2600 - (i * 2) as u16),
                ..Player::named(format!("Player {i:03}"))
            })
            .unwrap();
        }
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        for r in 1..=3 {
            e.draw_position(r, DrawSpec::Computer { seed: r as u64 }, false)
                .unwrap();
            let boards = e.pair(r, r as u64).unwrap().boards.len() as u32;
            for b in 1..=boards {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                let result = [
                    BoardResult::WhiteWins,
                    BoardResult::Draw,
                    BoardResult::BlackWins,
                ][(x % 3) as usize];
                e.set_result(r, b, Some(result)).unwrap();
            }
        }
        e.draw_position(4, DrawSpec::Computer { seed: 4 }, false)
            .unwrap();
        e
    })
    .await
    .unwrap();
    let store = common::store_at(&a.db);
    let events = store.event_store().unwrap();
    let stored = events.event(&big).unwrap();
    events
        .save_event(stored.id, stored.revision, &built)
        .unwrap();

    let (small_key, small_token) = a
        .new_event(json!({"name": "Small Open", "format": "swiss", "rounds": 3}))
        .await;

    let started = Instant::now();
    let pairing = {
        let request = a
            .client
            .post(format!("{}/api/events/{big}/rounds/4/pair", a.base))
            .header("content-type", "application/json")
            .header("x-arbiter-token", &big_token)
            .body("{}");
        tokio::spawn(async move {
            let r = common::reply(request.send().await.unwrap()).await;
            (r, started.elapsed())
        })
    };
    // While it is paired, the event's view says how far it has come.
    let mut seen = None;
    while seen.is_none() && !pairing.is_finished() {
        let v = a.get(&format!("/api/events/{big}")).await;
        assert_eq!(v.status, 200, "{}", v.text);
        if !v.json["pairing"].is_null() {
            seen = Some(v.json["pairing"].clone());
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let seen = seen.expect("the view showed the pairing under way");
    assert_eq!(seen["round"], 4, "{seen}");
    assert_eq!(seen["players"], 400, "{seen}");
    assert!(seen["settled"].as_u64().is_some_and(|s| s <= 400), "{seen}");
    let mut changed_by = Duration::ZERO;
    for n in ["Ann", "Ben", "Cid", "Dora", "Eve"] {
        let r = arb(
            &a,
            &small_key,
            "/players",
            json!({ "name": n }),
            &small_token,
        )
        .await;
        assert_eq!(r.status, 200, "{}", r.text);
        changed_by = started.elapsed();
    }
    let (paired, paired_by) = pairing.await.unwrap();
    assert_eq!(paired.status, 200, "{}", paired.text);
    assert!(paired.json["pairing"].is_null(), "{}", paired.text);
    let after = a.get(&format!("/api/events/{big}")).await;
    assert!(after.json["pairing"].is_null(), "{}", after.text);
    eprintln!(
        "the other event's five changes done after {changed_by:?}; the pairing after {paired_by:?}"
    );
    assert!(
        changed_by < paired_by,
        "the other event's changes waited for the pairing: done after {changed_by:?}, the \
         pairing after {paired_by:?}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_accelerated_swiss_pairs_within_its_groups() {
    let dir = tempfile::tempdir().unwrap();
    let a = app_on(&dir.path().join("games.sqlite3")).await;
    let bad = a
        .post(
            "/api/events",
            json!({"name": "A", "format": "swiss", "rounds": 5, "acceleration": "fast"}),
        )
        .await;
    assert_eq!(bad.status, 400, "{}", bad.text);
    assert!(bad.error().contains("none or baku"), "{}", bad.text);
    // A long value is quoted, not echoed whole.
    let long = a
        .post(
            "/api/events",
            json!({"name": "A", "format": "swiss", "rounds": 5, "acceleration": "b".repeat(100_000)}),
        )
        .await;
    assert_eq!(long.status, 400, "{}", long.text);
    assert!(long.text.len() < 200, "{} bytes", long.text.len());
    let made = a
        .post(
            "/api/events",
            json!({"name": "Baku Open", "format": "swiss", "rounds": 5, "acceleration": "baku"}),
        )
        .await;
    assert_eq!(made.status, 201, "{}", made.text);
    assert_eq!(made.json["acceleration"], "baku");
    let key = made.json["key"].as_str().unwrap().to_string();
    let token = made.json["arbiter_token"].as_str().unwrap().to_string();
    for k in 1..=8u16 {
        let name = format!("Player {k}");
        let r = arb(
            &a,
            &key,
            "/players",
            json!({"name": name, "rating": 2500 - 10 * k}),
            &token,
        )
        .await;
        assert_eq!(r.status, 200, "{}", r.text);
    }
    draw_by_die(&a, &key, &token, 1).await;
    let p = arb(&a, &key, "/rounds/1/pair", json!({}), &token).await;
    assert_eq!(p.status, 200, "{}", p.text);
    // GA (1-4) on a virtual point pairs within itself, GB (5-8) too: not 1-5 … 4-8.
    let mut pairs: Vec<(u64, u64)> = p.json["round_list"][0]["boards"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| {
            let (w, x) = (b["white"].as_u64().unwrap(), b["black"].as_u64().unwrap());
            (w.min(x), w.max(x))
        })
        .collect();
    pairs.sort_unstable();
    assert_eq!(pairs, [(1, 3), (2, 4), (5, 7), (6, 8)]);
}
