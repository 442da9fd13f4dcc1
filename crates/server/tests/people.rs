//! Games between two people: a challenge by link, the open seat taken by whoever joins first,
//! the server as referee between them (moves, premoves, draw offers, takeback proposals), the
//! game kept in the store with both players and both seats.

mod common;

use common::{app, app_on, app_with, App, Reply};
use serde_json::{json, Value};

async fn act(a: &App, key: &str, action: &str, body: Value, token: &str) -> Reply {
    a.post_as(
        &format!("/api/games/{key}/{action}"),
        body.to_string().into_bytes(),
        Some(token),
    )
    .await
}

/// `POST …/join` without a seat token, as a visitor who opened the link; `name` if given.
async fn join(a: &App, key: &str, name: Option<&str>) -> Reply {
    let body = name.map_or(json!({}), |n| json!({"name": n}));
    a.post_as(
        &format!("/api/games/{key}/join"),
        body.to_string().into_bytes(),
        None,
    )
    .await
}

async fn mv(a: &App, key: &str, token: &str, uci: &str, ply: usize) -> Value {
    let r = act(a, key, "moves", json!({"move": uci, "ply": ply}), token).await;
    assert_eq!(r.status, 200, "{uci}: {}", r.text);
    r.json
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_people_play_through_a_link() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("games.sqlite3");
    let mut a = app_on(&db).await;
    // Ann challenges, as White, 5 minutes + 3 seconds.
    let created = a
        .post(
            "/api/games",
            json!({"start": {"id": 518}, "color": "white", "opponent": "human", "name": "Ann",
                   "time_control": {"initial_ms": 300000, "increment_ms": 3000}}),
        )
        .await;
    assert_eq!(created.status, 201, "{}", created.text);
    let g = &created.json;
    let key = g["key"].as_str().unwrap().to_string();
    let ann = g["seat_token"].as_str().unwrap().to_string();
    assert_eq!(g["seat_color"], "white");
    assert_eq!(g["status"], "waiting");
    assert_eq!(
        g["sides"],
        json!({"white": {"type": "human", "seat": "held"}, "black": {"type": "human", "seat": "open"}})
    );
    assert_eq!(
        (g["human"].clone(), g["level"].clone()),
        (Value::Null, Value::Null)
    );
    assert_eq!(
        (g["white"].as_str(), g["black"].as_str()),
        (Some("Ann"), Some("?"))
    );
    assert_eq!(g["legal"], json!([]));
    // Nothing moves before the second player is there; Ann cannot take her own open seat.
    let early = act(&a, &key, "moves", json!({"move": "e2e4", "ply": 0}), &ann).await;
    assert_eq!(early.status, 409, "{}", early.text);
    assert!(
        early.error().contains("waits for its second player"),
        "{}",
        early.text
    );
    let own = act(&a, &key, "join", json!({}), &ann).await;
    assert_eq!(own.status, 409);
    assert!(
        own.error().contains("you already play white"),
        "{}",
        own.text
    );
    let mut watcher = a.ws_watch(&key).await;
    assert_eq!(watcher.next().await["game"]["status"], "waiting");

    // Bob opens the link first and joins; Cy, later, can only watch.
    let joined = join(&a, &key, Some("Bob")).await;
    assert_eq!(joined.status, 200, "{}", joined.text);
    let bob = joined.json["seat_token"].as_str().unwrap().to_string();
    assert_ne!(bob, ann);
    assert_eq!(joined.json["seat_color"], "black");
    assert_eq!(joined.json["status"], "playing");
    assert_eq!(joined.json["black"], "Bob");
    assert_eq!(
        joined.json["sides"]["black"],
        json!({"type": "human", "seat": "held"})
    );
    let cy = join(&a, &key, Some("Cy")).await;
    assert_eq!(cy.status, 409);
    assert!(
        cy.error().contains("both seats of this game are taken"),
        "{}",
        cy.text
    );
    let cy_move = act(&a, &key, "moves", json!({"move": "e2e4", "ply": 0}), "0123").await;
    assert_eq!(cy_move.status, 403, "{}", cy_move.text);

    // Each plays their own colour only.
    let v = mv(&a, &key, &ann, "e2e4", 0).await;
    assert_eq!(v["turn"], "black");
    let again = act(&a, &key, "moves", json!({"move": "d2d4", "ply": 1}), &ann).await;
    assert_eq!(again.status, 409);
    assert!(
        again.error().contains("(your opponent) is to move"),
        "{}",
        again.text
    );
    // Ann's premove is hers: the answer shows it, the view everyone gets does not.
    let pre = act(&a, &key, "premove", json!({"move": "g1f3"}), &ann).await;
    assert_eq!(pre.status, 200, "{}", pre.text);
    assert_eq!(pre.json["premove"], "g1f3");
    let seen = a.get(&format!("/api/games/{key}")).await;
    assert_eq!(seen.json["premove"], Value::Null);
    // Bob's reply; Ann's premove follows at once.
    mv(&a, &key, &bob, "e7e5", 1).await;
    let after = a
        .wait_for(&key, |g| g["moves"].as_array().unwrap().len() == 3)
        .await;
    assert_eq!(after["moves"][2]["uci"], "g1f3");
    assert_eq!(
        after["clocks"]["running"], "black",
        "both have moved: the clocks run"
    );

    // A takeback proposal, declined, then accepted: Bob's last move goes back.
    mv(&a, &key, &bob, "b8c6", 3).await;
    let asked = act(&a, &key, "takeback", json!({}), &bob).await;
    assert_eq!(
        asked.json["takeback_proposed_by"], "black",
        "{}",
        asked.text
    );
    let no = act(&a, &key, "takeback", json!({"action": "decline"}), &ann).await;
    assert_eq!(no.json["takeback_proposed_by"], Value::Null, "{}", no.text);
    let not_there = act(&a, &key, "takeback", json!({"action": "accept"}), &ann).await;
    assert_eq!(not_there.status, 409);
    assert!(
        not_there.error().contains("no takeback proposal"),
        "{}",
        not_there.text
    );
    act(&a, &key, "takeback", json!({}), &bob).await;
    let yes = act(&a, &key, "takeback", json!({"action": "accept"}), &ann).await;
    assert_eq!(yes.status, 200, "{}", yes.text);
    assert_eq!(yes.json["moves"].as_array().unwrap().len(), 3);
    assert_eq!(yes.json["turn"], "black");

    // A draw offer: declined by a word, then by a move; the third time accepted.
    let offer = act(&a, &key, "draw", json!({"action": "offer"}), &bob).await;
    assert_eq!(offer.json["draw_offered_by"], "black", "{}", offer.text);
    let declined = act(&a, &key, "draw", json!({"action": "decline"}), &ann).await;
    assert_eq!(declined.json["draw_offered_by"], Value::Null);
    // Bob offers, then moves: his own move keeps his offer; Ann's move declines it.
    act(&a, &key, "draw", json!({"action": "offer"}), &bob).await;
    let kept = mv(&a, &key, &bob, "g8f6", 3).await;
    assert_eq!(kept["draw_offered_by"], "black");
    let moved = mv(&a, &key, &ann, "b1c3", 4).await;
    assert_eq!(moved["draw_offered_by"], Value::Null);
    let own_offer = act(&a, &key, "draw", json!({"action": "accept"}), &bob).await;
    assert_eq!(own_offer.status, 409, "{}", own_offer.text);
    act(&a, &key, "draw", json!({"action": "offer"}), &ann).await;
    let agreed = act(&a, &key, "draw", json!({"action": "accept"}), &bob).await;
    assert_eq!(agreed.status, 200, "{}", agreed.text);
    assert_eq!(agreed.json["result"], "1/2-1/2");
    assert_eq!(agreed.json["reason"], "draw agreed");

    // The spectator saw every move.
    let (last, _) = watcher.until_state(|g| g["status"] == "finished").await;
    let ucis: Vec<&str> = last["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["uci"].as_str().unwrap())
        .collect();
    assert_eq!(ucis, ["e2e4", "e7e5", "g1f3", "g8f6", "b1c3"]);

    // Stored as played: both players, both seats, the result.
    let pgn = a.get(&format!("/api/games/{key}/pgn")).await.text;
    for tag in [
        "[White \"Ann\"]",
        "[Black \"Bob\"]",
        "[WhiteType \"human\"]",
        "[BlackType \"human\"]",
        "[Result \"1/2-1/2\"]",
        "[TimeControl \"300+3\"]",
    ] {
        assert!(pgn.contains(tag), "{tag} in {pgn}");
    }
    a.stop().await;
    let b = app_on(&db).await;
    let back = b.get(&format!("/api/games/{key}")).await;
    assert_eq!(
        back.json["sides"],
        json!({"white": {"type": "human", "seat": "held"}, "black": {"type": "human", "seat": "held"}})
    );
    assert_eq!(back.json["result"], "1/2-1/2");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_open_challenge_survives_a_restart_and_can_be_withdrawn() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("games.sqlite3");
    let mut a = app_on(&db).await;
    let g = a
        .new_game(
            json!({"start": {"id": 100}, "color": "black", "opponent": "human",
                         "time_control": {"initial_ms": 60000, "increment_ms": 0}}),
        )
        .await;
    let key = g["key"].as_str().unwrap().to_string();
    let token = g["seat_token"].as_str().unwrap().to_string();
    assert_eq!(g["seat_color"], "black");
    assert_eq!(g["sides"]["white"]["seat"], "open");
    // Bad requests say what is wrong.
    for (body, says) in [
        (
            json!({"opponent": "human", "level": {"depth": 2}}),
            "level:",
        ),
        (json!({"opponent": "human", "study_ms": 5000}), "study_ms:"),
        (json!({"opponent": "robot"}), "opponent:"),
    ] {
        let r = a.post("/api/games", body.clone()).await;
        assert_eq!(r.status, 400, "{body}: {}", r.text);
        assert!(r.error().starts_with(says), "{body}: {}", r.text);
    }
    a.stop().await;

    // After a restart it still waits, not paused, its seat still open.
    let b = app_on(&db).await;
    let back = b.get(&format!("/api/games/{key}")).await.json;
    assert_eq!(back["status"], "waiting");
    assert_eq!(back["paused"], false);
    assert_eq!(back["sides"]["white"]["seat"], "open");
    // Resigning needs an opponent; withdrawing does not.
    let resign = act(&b, &key, "resign", json!({}), &token).await;
    assert_eq!(resign.status, 409, "{}", resign.text);
    let gone = act(&b, &key, "abort", json!({}), &token).await;
    assert_eq!(gone.status, 200, "{}", gone.text);
    assert_eq!(gone.json["reason"], "aborted");
    let late = join(&b, &key, None).await;
    assert_eq!(late.status, 409, "{}", late.text);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_that_floods_the_websocket_is_disconnected() {
    let a = app().await;
    let g = a
        .new_game(json!({"start": {"id": 518}, "opponent": "human"}))
        .await;
    let key = g["key"].as_str().unwrap();
    let mut quiet = a.ws_watch(key).await;
    quiet.next().await;
    let mut flood = a.ws_watch(key).await;
    flood.next().await;
    for i in 0..200 {
        flood.send_text(&format!("{{\"spam\": {i}}}")).await;
    }
    assert_eq!(flood.close_code().await, Some(1008), "policy violation");
    // A message over 4 KiB also ends the connection.
    let mut big = a.ws_watch(key).await;
    big.next().await;
    big.send_text(&"x".repeat(5000)).await;
    assert_ne!(big.close_code().await, Some(1000));
    // The quiet client and the server go on.
    let joined = join(&a, key, None).await;
    assert_eq!(joined.status, 200, "{}", joined.text);
    assert_eq!(quiet.next().await["game"]["status"], "playing");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_address_has_at_most_twenty_open_challenges() {
    let a = app().await;
    let mut keys = Vec::new();
    for _ in 0..20 {
        let g = a
            .new_game(json!({"start": {"id": 7}, "opponent": "human"}))
            .await;
        keys.push(g["key"].as_str().unwrap().to_string());
    }
    // Open challenges stay in memory, so that they are counted.
    let state = a.server.as_ref().unwrap().state();
    state.unload_idle(std::time::Duration::ZERO);
    assert_eq!(state.games_in_memory(), 20);
    let refused = a
        .post(
            "/api/games",
            json!({"start": {"id": 7}, "opponent": "human"}),
        )
        .await;
    assert_eq!(refused.status, 429, "{}", refused.text);
    assert!(
        refused.error().contains("20 challenges waiting"),
        "{}",
        refused.text
    );
    // Games against the engine are not challenges.
    let engine = a
        .post(
            "/api/games",
            json!({"start": {"id": 7}, "level": {"depth": 1}}),
        )
        .await;
    assert_eq!(engine.status, 201, "{}", engine.text);
    // One withdrawn, one taken: room for two more.
    let withdrawn = a
        .post(&format!("/api/games/{}/abort", keys[0]), json!({}))
        .await;
    assert_eq!(withdrawn.status, 200, "{}", withdrawn.text);
    let joined = join(&a, &keys[1], None).await;
    assert_eq!(joined.status, 200, "{}", joined.text);
    for _ in 0..2 {
        let r = a
            .post(
                "/api/games",
                json!({"start": {"id": 7}, "opponent": "human"}),
            )
            .await;
        assert_eq!(r.status, 201, "{}", r.text);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn spectators_find_the_games_being_played_now() {
    let a = app().await;
    let none = a.get("/api/games/now").await;
    assert_eq!(none.status, 200, "{}", none.text);
    assert_eq!(none.json, json!({"games": []}));
    // An open challenge is not being played; once joined it is.
    let g = a
        .new_game(
            json!({"start": {"id": 42}, "opponent": "human", "name": "Ann",
                         "time_control": {"initial_ms": 60000, "increment_ms": 0}}),
        )
        .await;
    let key = g["key"].as_str().unwrap().to_string();
    assert_eq!(a.get("/api/games/now").await.json["games"], json!([]));
    let joined = join(&a, &key, Some("Bob")).await;
    assert_eq!(joined.status, 200);
    // A game against the engine too; a finished one not.
    let e = a
        .new_game(json!({"start": {"id": 43}, "level": {"depth": 1}}))
        .await;
    let over = a
        .new_game(json!({"start": {"id": 44}, "level": {"depth": 1}}))
        .await;
    let over_key = over["key"].as_str().unwrap();
    let r = a
        .post(&format!("/api/games/{over_key}/abort"), json!({}))
        .await;
    assert_eq!(r.status, 200, "{}", r.text);
    let now = a.get("/api/games/now").await.json;
    let listed: Vec<&str> = now["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["key"].as_str().unwrap())
        .collect();
    assert_eq!(listed.len(), 2, "{now}");
    assert!(listed.contains(&key.as_str()) && listed.contains(&e["key"].as_str().unwrap()));
    let people = now["games"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["key"] == key.as_str())
        .unwrap();
    assert_eq!(
        (people["white"].as_str(), people["black"].as_str()),
        (Some("Ann"), Some("Bob"))
    );
    assert_eq!(people["start_id"], 42);
    assert_eq!(people["turn"], "white");
    assert_eq!(people["plies"], 0);
    assert_eq!(people["clocks"]["white_ms"], 60000);
    assert_eq!(people["sides"]["black"]["type"], "human");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn each_player_has_their_own_deadline_for_the_first_move() {
    let a = app_with(chess960_server::Capacity {
        abandon_after: std::time::Duration::from_millis(800),
        ..chess960_server::Capacity::default()
    })
    .await;
    let g = a
        .new_game(json!({"start": {"id": 518}, "opponent": "human"}))
        .await;
    let key = g["key"].as_str().unwrap().to_string();
    let ann = g["seat_token"].as_str().unwrap().to_string();
    // No deadline while the challenge waits.
    tokio::time::sleep(std::time::Duration::from_millis(1000)).await;
    assert_eq!(
        a.get(&format!("/api/games/{key}")).await.json["status"],
        "waiting"
    );
    let joined = join(&a, &key, None).await;
    assert!(
        joined.json["abandon_ms"].as_u64().is_some(),
        "{}",
        joined.text
    );
    // White moves late in her time; Black's deadline starts then.
    tokio::time::sleep(std::time::Duration::from_millis(500)).await;
    let v = mv(&a, &key, &ann, "e2e4", 0).await;
    let left = v["abandon_ms"].as_u64().unwrap();
    assert!(
        left > 600,
        "Black has a whole deadline of his own: {left} ms"
    );
    // Black never moves: the game is aborted.
    let over = a.wait_for(&key, |g| g["status"] == "finished").await;
    assert_eq!(over["reason"], "aborted");
}
