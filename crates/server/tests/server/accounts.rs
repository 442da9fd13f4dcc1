//! Players' accounts through the API: registration, login and logout with a session cookie,
//! the player's sessions, a new password, who may register, and the slowing down of guesses.

use crate::common::{app, app_with_options, App};
use chess960_server::{Registration, ServeOptions};
use serde_json::{json, Value};
use std::net::IpAddr;

const COOKIE: &str = "chess960_session";

struct Answer {
    status: u16,
    json: Value,
    /// The session cookie set, if any (`Some("")` when it is removed).
    cookie: Option<String>,
    /// The whole `Set-Cookie` header.
    set_cookie: String,
    retry_after: Option<String>,
}

/// A client from `from` (any 127.x address reaches the server), with `cookie` sent.
async fn call(
    a: &App,
    from: &str,
    method: &str,
    path: &str,
    body: Option<Value>,
    cookie: Option<&str>,
) -> Answer {
    let client = reqwest::Client::builder()
        .local_address(from.parse::<IpAddr>().unwrap())
        .build()
        .unwrap();
    let url = format!("{}{path}", a.base);
    let mut req = match method {
        "GET" => client.get(url),
        "DELETE" => client.delete(url),
        _ => client.post(url),
    };
    if let Some(body) = body {
        req = req
            .header("content-type", "application/json")
            .body(body.to_string());
    }
    if let Some(c) = cookie {
        req = req.header("cookie", format!("theme=dark; {COOKIE}={c}"));
    }
    let resp = req.send().await.expect("a request");
    let status = resp.status().as_u16();
    let set_cookie = resp
        .headers()
        .get("set-cookie")
        .map(|v| v.to_str().unwrap().to_string())
        .unwrap_or_default();
    let retry_after = resp
        .headers()
        .get("retry-after")
        .map(|v| v.to_str().unwrap().to_string());
    let cookie = set_cookie
        .split(';')
        .next()
        .and_then(|kv| kv.trim().strip_prefix(&format!("{COOKIE}=")))
        .map(str::to_string);
    let text = resp.text().await.unwrap();
    Answer {
        status,
        json: serde_json::from_str(&text).unwrap_or(Value::Null),
        cookie,
        set_cookie,
        retry_after,
    }
}

const HOME: &str = "127.0.0.1";

async fn post(a: &App, path: &str, body: Value, cookie: Option<&str>) -> Answer {
    call(a, HOME, "POST", path, Some(body), cookie).await
}

/// Registers `name` from [`HOME`].
async fn register(a: &App, name: &str, password: &str) -> Answer {
    let body = json!({"name": name, "password": password});
    post(a, "/api/account/register", body, None).await
}

/// Logs `name` in from `from`.
async fn login(a: &App, from: &str, name: &str, password: &str) -> Answer {
    let body = json!({"name": name, "password": password});
    call(a, from, "POST", "/api/account/login", Some(body), None).await
}

/// Who a session cookie logs in (`null` for nobody).
async fn who(a: &App, cookie: &str) -> Value {
    let r = call(a, HOME, "GET", "/api/account", None, Some(cookie)).await;
    r.json["user"]["name"].clone()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn register_log_in_and_out_with_a_session_cookie() {
    let a = app().await;
    // A guest.
    let guest = call(&a, HOME, "GET", "/api/account", None, None).await;
    assert_eq!(guest.json, json!({"user": null, "registration": "open"}));
    // Registration logs in.
    let reg = post(
        &a,
        "/api/account/register",
        json!({"name": "Ann_9", "password": "castle long on c1"}),
        None,
    )
    .await;
    assert_eq!(reg.status, 201, "{}", reg.json);
    assert_eq!(reg.json["user"]["name"], "Ann_9");
    assert_eq!(reg.json["user"]["admin"], false);
    let first = reg.cookie.clone().unwrap();
    assert_eq!(first.len(), 64);
    for flag in ["HttpOnly", "SameSite=Lax", "Path=/", "Max-Age=5184000"] {
        assert!(reg.set_cookie.contains(flag), "{}", reg.set_cookie);
    }
    assert!(
        !reg.set_cookie.contains("Secure"),
        "plain HTTP: {}",
        reg.set_cookie
    );
    let me = call(&a, HOME, "GET", "/api/account", None, Some(&first)).await;
    assert_eq!(me.json["user"]["name"], "Ann_9");
    // Nothing secret in any answer.
    assert!(!me.json.to_string().contains(&first));
    assert!(!me.json.to_string().contains("argon2"));

    // Refusals, each with its code.
    for (body, status, code) in [
        (
            json!({"name": "ANN_9", "password": "castle long on c1"}),
            409,
            "name_taken",
        ),
        (
            json!({"name": "Bob", "password": "password1"}),
            400,
            "weak_password",
        ),
        (
            json!({"name": "Bob", "password": "short"}),
            400,
            "weak_password",
        ),
        (
            json!({"name": "B o b", "password": "castle long on c1"}),
            400,
            "bad_name",
        ),
        (json!({"name": "Bob"}), 400, "bad_request"),
    ] {
        let r = post(&a, "/api/account/register", body.clone(), None).await;
        assert_eq!(
            (r.status, r.json["code"].as_str()),
            (status, Some(code)),
            "{body}: {}",
            r.json
        );
        assert!(r.cookie.is_none());
    }

    // A wrong password and an unknown name get the same answer.
    let wrong = post(
        &a,
        "/api/account/login",
        json!({"name": "ann_9", "password": "castle long on c2"}),
        None,
    )
    .await;
    let unknown = post(
        &a,
        "/api/account/login",
        json!({"name": "nobody", "password": "castle long on c1"}),
        None,
    )
    .await;
    assert_eq!((wrong.status, &wrong.json), (401, &unknown.json));
    // So does a name no account can have (it is not kept by the limits either).
    let odd = login(&a, HOME, &"x".repeat(10_000), "castle long on c1").await;
    assert_eq!((odd.status, &odd.json), (401, &unknown.json));
    assert_eq!(wrong.json["code"], "bad_login");
    assert!(wrong.cookie.is_none() && unknown.cookie.is_none());
    // The right one, in any case of the name: a second session.
    let login = post(
        &a,
        "/api/account/login",
        json!({"name": "ANN_9", "password": "castle long on c1"}),
        None,
    )
    .await;
    assert_eq!(login.status, 200, "{}", login.json);
    let second = login.cookie.unwrap();
    assert_ne!(second, first);
    let list = call(
        &a,
        HOME,
        "GET",
        "/api/account/sessions",
        None,
        Some(&second),
    )
    .await;
    let sessions = list.json.as_array().unwrap();
    assert_eq!(sessions.len(), 2);
    assert_eq!(sessions.iter().filter(|s| s["current"] == true).count(), 1);
    // The first session, ended from the second.
    let other = sessions.iter().find(|s| s["current"] == false).unwrap()["id"].clone();
    let path = format!("/api/account/sessions/{other}");
    let end = || call(&a, HOME, "DELETE", &path, None, Some(&second));
    assert_eq!(end().await.status, 204);
    assert_eq!(who(&a, &first).await, Value::Null);
    assert_eq!(end().await.status, 404, "ended already");
    // A guest has no sessions to list.
    assert_eq!(
        call(&a, HOME, "GET", "/api/account/sessions", None, None)
            .await
            .status,
        401
    );
    // Logging out ends the session and removes the cookie.
    let out = post(&a, "/api/account/logout", json!({}), Some(&second)).await;
    assert_eq!(out.status, 204);
    assert_eq!(out.cookie.as_deref(), Some(""));
    assert!(out.set_cookie.contains("Max-Age=0"));
    let after = call(&a, HOME, "GET", "/api/account", None, Some(&second)).await;
    assert_eq!(after.json["user"], Value::Null);
    // Another site's page cannot log anyone in (or out): its Origin is refused first.
    let foreign = reqwest::Client::new()
        .post(format!("{}/api/account/login", a.base))
        .header("content-type", "application/json")
        .header("origin", "http://evil.example")
        .body(json!({"name": "ann_9", "password": "castle long on c1"}).to_string())
        .send()
        .await
        .unwrap();
    assert_eq!(foreign.status().as_u16(), 403);
    assert!(foreign.headers().get("set-cookie").is_none());
    // A forged cookie is a guest.
    let forged = call(
        &a,
        HOME,
        "GET",
        "/api/account",
        None,
        Some(&"ab".repeat(32)),
    )
    .await;
    assert_eq!(forged.json["user"], Value::Null);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_new_password_ends_the_other_sessions() {
    let a = app().await;
    let (old, new) = ("knight to f3 first", "queen to h5 at once");
    let one = register(&a, "carol", old).await.cookie.unwrap();
    let two = login(&a, HOME, "carol", old).await.cookie.unwrap();
    let change = |current: &'static str, new: &'static str| {
        let two = two.clone();
        let a = &a;
        async move {
            let body = json!({"current": current, "new": new});
            post(a, "/api/account/password", body, Some(&two)).await
        }
    };
    let wrong = change("bishop", new).await;
    assert_eq!(
        (wrong.status, wrong.json["code"].as_str()),
        (401, Some("bad_login"))
    );
    assert_eq!(change(old, "iloveyou").await.status, 400);
    assert_eq!(change(old, new).await.status, 204);
    assert_eq!(who(&a, &one).await, Value::Null, "the other session ended");
    assert_eq!(who(&a, &two).await, "carol", "this one stays");
    assert_eq!(login(&a, HOME, "carol", old).await.status, 401);
    assert_eq!(login(&a, HOME, "carol", new).await.status, 200);
}

/// Someone guessing from another address is slowed down after five wrong passwords; the
/// owner, from the address they registered from, logs in at once meanwhile.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn guesses_are_slowed_down_but_the_owner_still_gets_in() {
    let a = app().await;
    let guesser = "127.0.0.2";
    assert_eq!(
        post(
            &a,
            "/api/account/register",
            json!({"name": "dora", "password": "rook lift to h3"}),
            None
        )
        .await
        .status,
        201
    );
    let guess = |n: u32| json!({"name": "dora", "password": format!("guess number {n}")});
    for n in 0..5 {
        let r = call(
            &a,
            guesser,
            "POST",
            "/api/account/login",
            Some(guess(n)),
            None,
        )
        .await;
        assert_eq!(r.status, 401, "{}", r.json);
    }
    let slowed = call(
        &a,
        guesser,
        "POST",
        "/api/account/login",
        Some(guess(5)),
        None,
    )
    .await;
    assert_eq!(
        (slowed.status, slowed.json["code"].as_str()),
        (429, Some("login_delayed"))
    );
    assert_eq!(slowed.retry_after.as_deref(), Some("1"));
    // A thousand more guesses from the same address are all held back, none checked.
    let started = std::time::Instant::now();
    for n in 6..1006 {
        let r = call(
            &a,
            guesser,
            "POST",
            "/api/account/login",
            Some(guess(n)),
            None,
        )
        .await;
        assert_eq!(r.status, 429, "guess {n}: {}", r.json);
    }
    assert!(
        started.elapsed() < std::time::Duration::from_secs(60),
        "no password was hashed for them: {:?}",
        started.elapsed()
    );
    // Even the right password waits, from there.
    let right = json!({"name": "dora", "password": "rook lift to h3"});
    assert_eq!(
        call(
            &a,
            guesser,
            "POST",
            "/api/account/login",
            Some(right.clone()),
            None
        )
        .await
        .status,
        429
    );
    // The owner's address is not held back.
    let owner = call(&a, HOME, "POST", "/api/account/login", Some(right), None).await;
    assert_eq!(owner.status, 200, "{}", owner.json);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn who_may_register_is_the_owners_choice() {
    let closed = app_with_options(ServeOptions {
        registration: Some(Registration::Closed),
        https: true,
        ..ServeOptions::default()
    })
    .await;
    let r = post(
        &closed,
        "/api/account/register",
        json!({"name": "eve", "password": "pawn storm on g4"}),
        None,
    )
    .await;
    assert_eq!(
        (r.status, r.json["code"].as_str()),
        (403, Some("registration_closed"))
    );
    assert_eq!(
        call(&closed, HOME, "GET", "/api/account", None, None)
            .await
            .json["registration"],
        "closed"
    );

    let invite = app_with_options(ServeOptions {
        registration: Some(Registration::Invite),
        https: true,
        ..ServeOptions::default()
    })
    .await;
    let body =
        |code: Option<&str>| json!({"name": "eve", "password": "pawn storm on g4", "invite": code});
    let none = post(&invite, "/api/account/register", body(None), None).await;
    assert_eq!(
        (none.status, none.json["code"].as_str()),
        (403, Some("invitation_needed"))
    );
    let bad = post(&invite, "/api/account/register", body(Some("0123")), None).await;
    assert_eq!(
        (bad.status, bad.json["code"].as_str()),
        (403, Some("bad_invitation"))
    );
    // An invitation made as `chess960 user invite` makes one.
    let code = chess960_players::token::new_invite_code().unwrap();
    let store = crate::common::store_at(&invite.db);
    let now = chess960_round::record::now_ms();
    store
        .player_store()
        .unwrap()
        .create_invite(&chess960_players::token::hash(&code), now, now + 60_000)
        .unwrap();
    let ok = post(&invite, "/api/account/register", body(Some(&code)), None).await;
    assert_eq!(ok.status, 201, "{}", ok.json);
    // Behind HTTPS the cookie is Secure.
    assert!(ok.set_cookie.contains("; Secure"), "{}", ok.set_cookie);
    let used = post(
        &invite,
        "/api/account/register",
        json!({"name": "fay", "password": "pawn storm on g4", "invite": code}),
        None,
    )
    .await;
    assert_eq!(
        (used.status, used.json["code"].as_str()),
        (403, Some("bad_invitation"))
    );
}

/// A player's page: the ratings per speed class and their history, after rated games that the
/// store rated (the server does not bind rated games yet: the test binds them as it will).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_players_page_shows_ratings_and_their_history() {
    use chess960_players::speed::Speed;
    use chess960_store::{Finish, GamePlayers, GameResult, Seats};
    let a = app().await;
    assert_eq!(register(&a, "Ann", "castle long on c1").await.status, 201);
    assert_eq!(register(&a, "Bob", "castle short on g1").await.status, 201);
    let page = a.get("/api/players/ANN").await;
    assert_eq!(page.status, 200, "{}", page.text);
    assert_eq!(page.json["name"], "Ann");
    assert_eq!(page.json["ratings"], json!([]), "no rated game yet");
    for path in ["/api/players/nobody", "/api/players/x%20y"] {
        let r = a.get(path).await;
        assert_eq!(
            (r.status, r.json["code"].as_str()),
            (404, Some("no_such_player")),
            "{path}"
        );
    }
    // Two rated blitz games, Ann wins both.
    let store = crate::common::store_at(&a.db);
    let players = store.player_store().unwrap();
    let id = |n: &str| players.user_by_name(n).unwrap().unwrap().id;
    for _ in 0..2 {
        let meta = chess960_store::NewGame {
            start_fen: chess960_core::StartId::new(518).unwrap().position().fen(),
            start_id: Some(518),
            white: "Ann".into(),
            black: "Bob".into(),
            time_control: Some("300+3".into()),
            clocks: None,
            tags: Vec::new(),
        };
        let (g, _) = store
            .create_game_with_moves(&meta, &[], &Seats::NONE)
            .unwrap();
        let rated = GamePlayers {
            white: Some(id("ann")),
            black: Some(id("bob")),
            rated: Some(Speed::Blitz),
        };
        players.bind_players(g, rated).unwrap();
        let win = Finish {
            result: GameResult::WhiteWins,
            reason: "resignation".into(),
        };
        store.finish_game(g, &win).unwrap();
    }
    let ann = a.get("/api/players/ann").await.json;
    let blitz = &ann["ratings"][0];
    assert_eq!(
        (blitz["speed"].as_str(), blitz["games"].as_u64()),
        (Some("blitz"), Some(2))
    );
    let history = blitz["history"].as_array().unwrap();
    assert_eq!(history.len(), 2);
    let (first, second) = (
        history[0]["rating"].as_i64().unwrap(),
        history[1]["rating"].as_i64().unwrap(),
    );
    assert!(1500 < first && first < second, "{history:?}");
    assert_eq!(blitz["rating"].as_i64(), Some(second));
    assert_eq!(
        blitz["provisional"], true,
        "two games leave a wide deviation"
    );
    let bob = a.get("/api/players/Bob").await.json;
    assert!(
        bob["ratings"][0]["rating"].as_i64().unwrap() < 1500,
        "{bob}"
    );
    // Nothing secret on the page.
    assert!(!ann.to_string().contains("argon2"));
}
