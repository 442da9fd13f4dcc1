//! Games of logged-in players: a seat bound to its player's account acts from any browser
//! where they are logged in, a rated challenge is only for another logged-in player, and its
//! end rates both players (the game's view and their pages show it), also after a restart.

use crate::common::{app_on, App};
use serde_json::{json, Value};

const COOKIE: &str = "chess960_session";

struct Answer {
    status: u16,
    json: Value,
    cookie: Option<String>,
}

/// A request with, as given, a session cookie and a seat token.
async fn call(
    a: &App,
    method: &str,
    path: &str,
    body: Option<Value>,
    cookie: Option<&str>,
    seat: Option<&str>,
) -> Answer {
    let url = format!("{}{path}", a.base);
    let mut req = match method {
        "GET" => a.client.get(url),
        _ => a.client.post(url),
    };
    if let Some(body) = body {
        req = req
            .header("content-type", "application/json")
            .body(body.to_string());
    }
    if let Some(c) = cookie {
        req = req.header("cookie", format!("{COOKIE}={c}"));
    }
    if let Some(s) = seat {
        req = req.header("x-seat-token", s);
    }
    let resp = req.send().await.expect("a request");
    let status = resp.status().as_u16();
    let cookie = resp
        .headers()
        .get("set-cookie")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .and_then(|kv| kv.trim().strip_prefix(&format!("{COOKIE}=")))
        .map(str::to_string);
    let text = resp.text().await.unwrap();
    Answer {
        status,
        json: serde_json::from_str(&text).unwrap_or(Value::Null),
        cookie,
    }
}

/// POSTs `body` to `path` with the session cookie `cookie` (no seat token).
async fn post(a: &App, path: &str, body: Value, cookie: Option<&str>) -> Answer {
    call(a, "POST", path, Some(body), cookie, None).await
}

/// GETs `path` as a guest.
async fn get(a: &App, path: &str) -> Answer {
    call(a, "GET", path, None, None, None).await
}

/// Registers `name`; its session cookie.
async fn register(a: &App, name: &str) -> String {
    let body = json!({"name": name, "password": "long castle on c1"});
    let r = call(a, "POST", "/api/account/register", Some(body), None, None).await;
    assert_eq!(r.status, 201, "{}", r.json);
    r.cookie.unwrap()
}

/// Logs `name` in again: a second browser's session cookie.
async fn login(a: &App, name: &str) -> String {
    let body = json!({"name": name, "password": "long castle on c1"});
    let r = call(a, "POST", "/api/account/login", Some(body), None, None).await;
    assert_eq!(r.status, 200, "{}", r.json);
    r.cookie.unwrap()
}

fn blitz_challenge(rated: bool) -> Value {
    json!({
        "opponent": "human",
        "start": {"id": 518},
        "time_control": {"initial_ms": 180000, "increment_ms": 2000},
        "rated": rated,
        "name": "typed name",
    })
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rated_challenge_between_two_accounts_rates_both() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("games.sqlite3");
    let mut a = app_on(&db).await;
    let ann = register(&a, "ann").await;
    let bob = register(&a, "Bob").await;

    // A guest cannot offer a rated game, nor one without a clock.
    let guest = post(&a, "/api/games", blitz_challenge(true), None).await;
    assert_eq!(guest.status, 403, "{}", guest.json);
    assert_eq!(guest.json["code"], "rated_needs_account");
    let mut untimed = blitz_challenge(true);
    untimed["time_control"] = Value::Null;
    let r = post(&a, "/api/games", untimed, Some(&ann)).await;
    assert_eq!(r.status, 400, "{}", r.json);

    // Ann offers one: she plays under her account's name, with her provisional rating.
    let made = post(&a, "/api/games", blitz_challenge(true), Some(&ann)).await;
    assert_eq!(made.status, 201, "{}", made.json);
    let key = made.json["key"].as_str().unwrap().to_string();
    let ann_seat = made.json["seat_token"].as_str().unwrap().to_string();
    assert_eq!(made.json["rated"], "blitz");
    assert_eq!(made.json["white"], "ann");
    assert_eq!(
        made.json["sides"]["white"],
        json!({"type": "human", "seat": "held", "account": "ann",
               "rating": {"rating": 1500, "provisional": true}})
    );
    assert_eq!(
        made.json["sides"]["black"],
        json!({"type": "human", "seat": "open"})
    );

    // A guest, and Ann from a second browser, cannot take Black's seat.
    let join = format!("/api/games/{key}/join");
    let r = post(&a, &join, json!({}), None).await;
    assert_eq!(
        (r.status, r.json["code"].as_str()),
        (403, Some("rated_needs_account"))
    );
    let ann2 = login(&a, "ann").await;
    let r = post(&a, &join, json!({}), Some(&ann2)).await;
    assert_eq!(
        (r.status, r.json["code"].as_str()),
        (409, Some("already_seated"))
    );
    // Bob takes it.
    let r = post(&a, &join, json!({"name": "x"}), Some(&bob)).await;
    assert_eq!(r.status, 200, "{}", r.json);
    assert_eq!(r.json["black"], "Bob");
    assert_eq!(r.json["sides"]["black"]["account"], "Bob");
    let bob_seat = r.json["seat_token"].as_str().unwrap().to_string();

    // Ann moves from her second browser, by her session alone; a stranger's session cannot.
    let moves = format!("/api/games/{key}/moves");
    let eve = register(&a, "eve").await;
    let r = post(&a, &moves, json!({"move": "e2e4", "ply": 0}), Some(&eve)).await;
    assert_eq!(
        (r.status, r.json["code"].as_str()),
        (403, Some("seat_wrong"))
    );
    let r = post(&a, &moves, json!({"move": "e2e4", "ply": 0}), Some(&ann2)).await;
    assert_eq!(r.status, 200, "{}", r.json);
    // The game tells a logged-in reader which colour is theirs.
    let url = format!("{}/api/games/{key}", a.base);
    let read = a
        .client
        .get(&url)
        .header("cookie", format!("{COOKIE}={bob}"))
        .send()
        .await
        .unwrap();
    assert_eq!(read.headers()["x-seat-color"], "black");
    // Bob with his token, then Ann with hers.
    let r = call(
        &a,
        "POST",
        &moves,
        Some(json!({"move": "e7e5", "ply": 1})),
        None,
        Some(&bob_seat),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.json);
    let r = call(
        &a,
        "POST",
        &moves,
        Some(json!({"move": "d1h5", "ply": 2})),
        None,
        Some(&ann_seat),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.json);

    // Bob resigns from a browser where he is only logged in.
    let bob2 = login(&a, "Bob").await;
    let r = post(
        &a,
        &format!("/api/games/{key}/resign"),
        json!({}),
        Some(&bob2),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.json);
    let end = get(&a, &format!("/api/games/{key}")).await;
    assert_eq!(end.json["result"], "1-0");
    let white = &end.json["sides"]["white"]["rating"];
    let black = &end.json["sides"]["black"]["rating"];
    assert_eq!(
        (white["rating"].as_i64(), black["rating"].as_i64()),
        (Some(1500), Some(1500))
    );
    let (up, down) = (
        white["change"].as_i64().unwrap(),
        black["change"].as_i64().unwrap(),
    );
    // Glicko-2 for two new players (1500, deviation 500, volatility 0.06), one game: PyPI's
    // glicko2 2.1.0 gives 1741.54 and 1258.46.
    assert_eq!((up, down), (242, -242), "{}", end.json["sides"]);

    // Their pages say the same.
    let page = get(&a, "/api/players/ann").await;
    assert_eq!(page.json["ratings"][0]["speed"], "blitz", "{}", page.json);
    assert_eq!(page.json["ratings"][0]["rating"], 1742);

    // Ann's games, her results per start position, the leaderboard, the explorer of her
    // games; Eve has played nothing.
    let games = get(&a, "/api/games?account=ANN").await;
    assert_eq!(games.json["total"], 1, "{}", games.json);
    assert_eq!(games.json["games"][0]["key"], key.as_str());
    let none = get(&a, "/api/games?account=eve").await;
    assert_eq!(none.json["total"], 0);
    let nobody = get(&a, "/api/games?account=zed").await;
    assert_eq!(
        (nobody.status, nobody.json["code"].as_str()),
        (404, Some("no_such_player"))
    );
    let starts = get(&a, "/api/players/ann/starts").await;
    assert_eq!(starts.status, 200, "{}", starts.json);
    assert_eq!(starts.json["games"], 1);
    assert_eq!(
        starts.json["starts"],
        json!([{"start_id": 518, "back_rank": "RNBQKBNR", "games": 1, "wins": 1, "draws": 0,
                "losses": 0, "score": 1.0, "performance": 1900}])
    );
    assert_eq!(starts.json["castling"]["none"]["games"], 1);
    assert_eq!(
        starts.json["best"],
        json!([]),
        "one game is too few to rank"
    );
    let board = get(&a, "/api/players?speed=blitz").await;
    assert_eq!(board.json["speed"], "blitz");
    let names: Vec<&str> = board.json["players"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["ann", "Bob"]);
    assert_eq!(board.json["players"][0]["rating"], 1742);
    let bad = get(&a, "/api/players?speed=fast").await;
    assert_eq!(bad.status, 400);
    let explored = get(&a, "/api/explorer?start=518&account=bob").await;
    assert_eq!(explored.json["total"]["games"], 1, "{}", explored.json);
    assert_eq!(explored.json["moves"][0]["san"], "e4");
    let explored = get(&a, "/api/explorer?start=518&account=eve").await;
    assert_eq!(explored.json["total"]["games"], 0, "{}", explored.json);

    // After a restart the game still shows the change.
    a.stop().await;
    a = app_on(&db).await;
    let back = get(&a, &format!("/api/games/{key}")).await;
    assert_eq!(
        back.json["sides"]["white"]["rating"]["change"], 242,
        "{}",
        back.json
    );
    assert_eq!(back.json["rated"], "blitz");
    a.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_players_games_go_on_from_any_browser_where_they_are_logged_in() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("games.sqlite3");
    let mut a = app_on(&db).await;
    let ann = register(&a, "ann").await;
    // A game against the engine, made in one browser.
    let body = json!({"level": {"depth": 1}, "start": {"id": 518}, "color": "white"});
    let made = post(&a, "/api/games", body, Some(&ann)).await;
    assert_eq!(made.status, 201, "{}", made.json);
    let key = made.json["key"].as_str().unwrap().to_string();
    assert_eq!(made.json["rated"], Value::Null);
    assert_eq!(made.json["sides"]["white"]["account"], "ann");
    // Untimed: no speed class, no rating shown.
    assert!(made.json["sides"]["white"].get("rating").is_none());

    // After a restart, from a second browser: the session plays it.
    a.stop().await;
    a = app_on(&db).await;
    let second = login(&a, "ann").await;
    let moves = format!("/api/games/{key}/moves");
    let r = post(&a, &moves, json!({"move": "e2e4", "ply": 0}), None).await;
    assert_eq!(
        (r.status, r.json["code"].as_str()),
        (403, Some("seat_missing"))
    );
    let r = post(&a, &moves, json!({"move": "e2e4", "ply": 0}), Some(&second)).await;
    assert_eq!(r.status, 200, "{}", r.json);
    // Logged out, the session no longer plays it.
    let out = post(&a, "/api/account/logout", json!({}), Some(&second)).await;
    assert!(out.status < 300, "{}", out.json);
    let r = post(
        &a,
        &format!("/api/games/{key}/resign"),
        json!({}),
        Some(&second),
    )
    .await;
    assert_eq!(r.status, 403, "{}", r.json);

    // A casual challenge accepted by a guest: only the creator's account is bound, and the
    // guest plays with their token as before.
    let made = post(&a, "/api/games", blitz_challenge(false), Some(&ann)).await;
    let key = made.json["key"].as_str().unwrap().to_string();
    assert_eq!(made.json["rated"], Value::Null);
    let r = post(
        &a,
        &format!("/api/games/{key}/join"),
        json!({"name": "Guest"}),
        None,
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.json);
    assert_eq!(r.json["black"], "Guest");
    assert_eq!(
        r.json["sides"]["black"],
        json!({"type": "human", "seat": "held"})
    );
    assert_eq!(r.json["sides"]["white"]["rating"]["rating"], 1500);
    a.stop().await;
}

/// A listed challenge whose creator reads it over HTTP (the terminal's `play --seek`) is in
/// the lobby while they keep reading it, and leaves it a few seconds after they stop.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_challenge_read_over_http_is_listed_while_its_creator_reads_it() {
    let dir = tempfile::tempdir().unwrap();
    let mut a = app_on(&dir.path().join("games.sqlite3")).await;
    let mut body = blitz_challenge(false);
    body["lobby"] = json!(true);
    let made = post(&a, "/api/games", body, None).await;
    let key = made.json["key"].as_str().unwrap().to_string();
    let seat = made.json["seat_token"].as_str().unwrap().to_string();
    let listed = |a: &App| {
        let url = format!("{}/api/lobby", a.base);
        let client = a.client.clone();
        async move {
            let v: Value = client.get(url).send().await.unwrap().json().await.unwrap();
            v["challenges"].as_array().unwrap().len()
        }
    };
    // Nobody has read it yet: not listed. A spectator's reading does not list it.
    assert_eq!(listed(&a).await, 0);
    get(&a, &format!("/api/games/{key}")).await;
    assert_eq!(listed(&a).await, 0);
    call(
        &a,
        "GET",
        &format!("/api/games/{key}"),
        None,
        None,
        Some(&seat),
    )
    .await;
    assert_eq!(listed(&a).await, 1);
    let lobby = get(&a, "/api/lobby").await;
    assert_eq!(lobby.json["challenges"][0]["rated"], false);
    assert_eq!(lobby.json["challenges"][0]["account"], Value::Null);
    // Unread for longer than the lobby waits: gone.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    while listed(&a).await > 0 {
        assert!(std::time::Instant::now() < deadline, "still listed");
        tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    }
    a.stop().await;
}

/// An arbiter enters players by their accounts: named as the account, rated with the
/// account's rating in the event's speed class unless a rating is typed; the round's games on
/// the server are bound to the accounts, so each player plays from their own login, without a
/// link. An unknown account is refused, and an account is entered once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_events_players_by_account_play_by_their_login() {
    let dir = tempfile::tempdir().unwrap();
    let mut a = app_on(&dir.path().join("games.sqlite3")).await;
    let ann = register(&a, "ann").await;
    let bob = register(&a, "bob").await;
    // Ann gets a blitz rating: she beats Bob in a rated 3+2 game.
    let made = post(&a, "/api/games", blitz_challenge(true), Some(&ann)).await;
    let key = made.json["key"].as_str().unwrap().to_string();
    let r = post(&a, &format!("/api/games/{key}/join"), json!({}), Some(&bob)).await;
    assert_eq!(r.status, 200, "{}", r.json);
    let r = post(
        &a,
        &format!("/api/games/{key}/resign"),
        json!({}),
        Some(&bob),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.json);

    let event = a
        .post(
            "/api/events",
            json!({"name": "Club blitz", "format": "round_robin", "time_control": "3+2"}),
        )
        .await;
    let ekey = event.json["key"].as_str().unwrap().to_string();
    let token = event.json["arbiter_token"].as_str().unwrap().to_string();
    let add = |body: Value| {
        let (a, ekey, token) = (&a, ekey.clone(), token.clone());
        async move { a.arbiter(&ekey, "/players", body, &token).await }
    };
    let r = add(json!({"account": "ANN"})).await;
    assert_eq!(r.status, 200, "{}", r.text);
    let r = add(json!({"account": "bob", "name": "Bob B.", "rating": 1600})).await;
    assert_eq!(r.status, 200, "{}", r.text);
    let r = add(json!({"account": "zed"})).await;
    assert_eq!(
        (r.status, r.json["code"].as_str()),
        (404, Some("no_such_player"))
    );
    let r = add(json!({"account": "ann", "name": "Ann again"})).await;
    assert_eq!(r.status, 400, "{}", r.text);
    assert!(r.error().contains("entered already"), "{}", r.text);
    let e = a.get(&format!("/api/events/{ekey}")).await;
    let players = &e.json["players"];
    assert_eq!(players[0]["name"], "ann");
    assert_eq!(players[0]["account"], "ann");
    assert_eq!(players[0]["rating"], 1742, "the server's blitz rating");
    assert_eq!(
        (players[1]["name"].as_str(), players[1]["rating"].as_u64()),
        (Some("Bob B."), Some(1600))
    );

    assert_eq!(
        a.arbiter(
            &ekey,
            "/rounds/1/draw",
            json!({"method": "set", "id": 7}),
            &token
        )
        .await
        .status,
        200
    );
    assert_eq!(
        a.arbiter(&ekey, "/rounds/1/pair", json!({}), &token)
            .await
            .status,
        200
    );
    let g = a.arbiter(&ekey, "/rounds/1/games", json!({}), &token).await;
    assert_eq!(g.status, 200, "{}", g.text);
    let game_key = g.json["games"][0]["key"].as_str().unwrap().to_string();
    let view = get(&a, &format!("/api/games/{game_key}")).await;
    assert_eq!(view.json["rated"], Value::Null, "an event's game is casual");
    // Each plays by their login alone: White moves first.
    let white_is_ann = view.json["sides"]["white"]["account"] == "ann";
    let (white, black) = if white_is_ann {
        (&ann, &bob)
    } else {
        (&bob, &ann)
    };
    let moves = format!("/api/games/{game_key}/moves");
    let r = post(&a, &moves, json!({"move": "e2e4", "ply": 0}), Some(black)).await;
    assert_eq!(r.status, 409, "not Black's turn: {}", r.json);
    let r = post(&a, &moves, json!({"move": "e2e4", "ply": 0}), Some(white)).await;
    assert_eq!(r.status, 200, "{}", r.json);
    let r = post(
        &a,
        &format!("/api/games/{game_key}/resign"),
        json!({}),
        Some(black),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.json);
    let e = a.get(&format!("/api/events/{ekey}")).await;
    assert_eq!(
        e.json["round_list"][0]["boards"][0]["result"], "1-0",
        "{}",
        e.text
    );
    // The game is on both players' lists.
    for name in ["ann", "bob"] {
        let list = get(&a, &format!("/api/games?account={name}")).await;
        assert!(
            list.json["games"]
                .as_array()
                .unwrap()
                .iter()
                .any(|g| g["key"] == game_key.as_str()),
            "{name}: {}",
            list.json
        );
    }
    a.stop().await;
}
