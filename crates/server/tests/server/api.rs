//! The API's endpoints one by one, with bad input of every kind.

use crate::common;

use common::{app, pgn_from};
use serde_json::{json, Value};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn start_positions() {
    let a = app().await;
    let r = a.get("/api/positions").await;
    assert_eq!(r.status, 200);
    let all = r.json.as_array().unwrap();
    assert_eq!(all.len(), 960);
    assert_eq!(all[518]["back_rank"], "RNBQKBNR");
    assert_eq!(
        all[518]["fen"],
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
    );
    for (i, p) in all.iter().enumerate() {
        assert_eq!(p["id"], i);
    }

    let r = a.get("/api/positions/249").await;
    assert_eq!(
        (r.status, r.json["back_rank"].as_str()),
        (200, Some("NRKBBQNR"))
    );
    // 960 is 0 in the 1..960 numbering.
    let r = a.get("/api/positions/960").await;
    assert_eq!((r.status, r.json["id"].as_u64()), (200, Some(0)));
    let r = a.get("/api/positions/961").await;
    assert_eq!(r.status, 404);
    assert!(r.error().contains("0..959"), "{}", r.text);
    let r = a.get("/api/positions/abc").await;
    assert_eq!(r.status, 400);
    assert!(r.error().contains("id"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tables_and_fairness() {
    let a = app().await;
    let r = a.get("/api/tables").await;
    assert_eq!(r.status, 200);
    assert_eq!(r.json["king_table"].as_array().unwrap().len(), 60);
    assert_eq!(r.json["bishop_table"].as_array().unwrap().len(), 16);
    assert_eq!(r.json["example"]["id"], 518);
    assert_eq!(r.json["example"]["back_rank"], "RNBQKBNR");
    // Row K + row B composes the position: 518 = 512 + 6.
    assert_eq!(r.json["example"]["king_row"], 512);
    assert_eq!(r.json["example"]["bishop_row"], 6);

    let r = a.get("/api/fairness").await;
    assert_eq!(r.status, 200);
    assert!(r.headers["content-type"]
        .to_str()
        .unwrap()
        .starts_with("application/json"));
    let methods = r.json["methods"].as_array().unwrap();
    let names: Vec<&str> = methods
        .iter()
        .map(|m| m["method"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        ["die", "coins", "bag", "bag-wheeler", "cards", "platonic"]
    );
    let uniform: Vec<bool> = methods
        .iter()
        .map(|m| m["uniform"].as_bool().unwrap())
        .collect();
    assert_eq!(uniform, [true, false, false, true, true, true]);
    for m in methods {
        let total: u64 = m["classes"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c["positions"].as_u64().unwrap())
            .sum();
        assert_eq!(total, 960, "{}", m["method"]);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn drawing_methods() {
    let a = app().await;
    // The same draw as `chess960 draw --method die --seed 7 --json`.
    let r = a
        .post("/api/draw", json!({"method": "die", "seed": 7}))
        .await;
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(r.json["id"], 876);
    assert_eq!(r.json["back_rank"], "QBRKRNBN");
    assert_eq!(r.json["method"], "die");
    let steps = r.json["steps"].as_array().unwrap();
    assert_eq!(steps[0], "roll 4 → dark-squared bishop on g1");
    assert_eq!(steps.len(), 7);

    // Without a seed: a random draw that names its seed, which draws it again.
    let r = a.post("/api/draw", json!({"method": "platonic"})).await;
    assert_eq!(r.status, 200);
    let seed = r.json["seed"].as_u64().unwrap();
    // Exact as a JavaScript number, so that the browser can send it back with a new game.
    assert!(seed < 1 << 53, "{seed}");
    let again = a
        .post("/api/draw", json!({"method": "platonic", "seed": seed}))
        .await;
    assert_eq!(again.json["id"], r.json["id"]);

    // A person's rolls, and the chosen method's placements.
    let r = a
        .post(
            "/api/draw",
            json!({"method": "die", "outcomes": "2,3,3,2,3"}),
        )
        .await;
    assert_eq!((r.status, r.json["id"].as_u64()), (200, Some(518)));
    let r = a
        .post(
            "/api/draw",
            json!({"method": "chosen", "outcomes": "B c1, B f1, N b1, N g1, Q d1"}),
        )
        .await;
    assert_eq!(
        (r.status, r.json["back_rank"].as_str()),
        (200, Some("RNBQKBNR"))
    );

    let r = a.post("/api/draw", json!({"method": "dice"})).await;
    assert_eq!(r.status, 400);
    assert!(r.error().starts_with("method:"), "{}", r.text);
    let r = a.post("/api/draw", json!({"method": "chosen"})).await;
    assert_eq!(r.status, 400);
    assert!(r.error().starts_with("outcomes:"));
    let r = a
        .post("/api/draw", json!({"method": "die", "outcomes": "9"}))
        .await;
    assert_eq!(r.status, 422);
    let r = a
        .post("/api/draw", json!({"method": "die", "seed": -1}))
        .await;
    assert_eq!(r.status, 400);
    assert!(r.error().contains("seed"), "{}", r.text);
    let r = a.post("/api/draw", json!({"seed": 1})).await;
    assert_eq!(r.status, 400);
    assert!(r.error().contains("method"), "{}", r.text);
}

/// A game started from a drawn position keeps the draw (replayed by the server, never taken on
/// trust) in its tags, its view and its PGN, named by players, date and start position.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_drawn_start_is_recorded_and_checked() {
    let a = app().await;
    let drawn = a
        .post("/api/draw", json!({"method": "cards", "seed": 11}))
        .await;
    assert_eq!(drawn.status, 200);
    let id = drawn.json["id"].as_u64().unwrap();
    let g = a
        .new_game(json!({
            "start": {"id": id},
            "name": "Alice",
            "drawn": {"method": "cards", "seed": 11},
        }))
        .await;
    assert_eq!(g["start_id"], id);
    assert_eq!(g["drawn"]["method"], "cards");
    assert_eq!(g["drawn"]["seed"], 11);
    assert_eq!(g["drawn"]["steps"], drawn.json["steps"]);
    let key = g["key"].as_str().unwrap();
    let view = a.get(&format!("/api/games/{key}")).await;
    assert_eq!(view.json["drawn"], g["drawn"]);

    let r = a.get(&format!("/api/games/{key}/pgn")).await;
    assert!(r.text.contains("[StartDrawMethod \"cards\"]"), "{}", r.text);
    assert!(r.text.contains("[StartDrawSeed \"11\"]"), "{}", r.text);
    let first = drawn.json["steps"][0].as_str().unwrap();
    assert!(
        r.text.contains(&format!("[StartDrawSteps \"{first} | ")),
        "{}",
        r.text
    );
    let disposition = r.headers["content-disposition"].to_str().unwrap();
    let date = chess960_pgn::date::today().replace('.', "-");
    assert_eq!(
        disposition,
        format!("attachment; filename=\"Alice-vs-chess960-engine-1500_{date}_SP{id}.pgn\"")
    );

    // A person's rolls: 2,3,3,2,3 with the die give 518 (also asked for as 960's 0 partner).
    let g = a
        .new_game(json!({
            "start": {"id": 518},
            "drawn": {"method": "die", "outcomes": "2,3,3,2,3"},
        }))
        .await;
    assert_eq!(g["drawn"]["outcomes"], "2,3,3,2,3");
    assert_eq!(g["drawn"]["steps"][0], "roll 2 → dark-squared bishop on c1");
    // A game without a draw says so.
    let g = a.new_game(json!({"start": {"id": 5}})).await;
    assert!(g["drawn"].is_null(), "{}", g["drawn"]);

    // The draw must give the position asked for, and must be repeatable.
    let other = (id + 1) % 960;
    let cases = [
        (
            json!({"start": {"id": other}, "drawn": {"method": "cards", "seed": 11}}),
            422,
            "drawn: the cards method with seed 11 gives start position",
        ),
        (
            json!({"start": {"id": id}, "drawn": {"method": "cards"}}),
            400,
            "drawn: give the seed or the outcomes",
        ),
        (
            json!({"start": {"random": true}, "drawn": {"method": "cards", "seed": 11}}),
            400,
            "drawn: goes with start.id",
        ),
        (
            json!({"start": {"id": 518}, "drawn": {"method": "die", "outcomes": "2,3,3,2"}}),
            422,
            "drawn.outcomes:",
        ),
        (
            json!({"start": {"id": 518}, "drawn": {"method": "dice", "seed": 1}}),
            400,
            "drawn.method:",
        ),
        (
            json!({"start": {"id": 518}, "drawn": {"method": "die", "seed": 1, "steps": []}}),
            400,
            "drawn",
        ),
    ];
    for (body, status, want) in cases {
        let r = a.post("/api/games", body.clone()).await;
        assert_eq!(r.status, status, "{body}: {}", r.text);
        assert!(r.error().starts_with(want), "{body}: {}", r.text);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn new_game_and_its_view() {
    let a = app().await;
    let g = a
        .new_game(json!({
            "start": {"id": 123}, "color": "white", "level": {"elo": 1500},
            "time_control": {"initial_ms": 300000, "increment_ms": 3000}, "study_ms": 0
        }))
        .await;
    let key = g["key"].as_str().unwrap();
    assert_eq!(key.len(), 32);
    assert!(key
        .bytes()
        .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b)));
    assert_eq!(g["start_id"], 123);
    assert_eq!(g["back_rank"], "NQRNBKRB");
    assert_eq!(g["start_fen"], g["fen"]);
    assert_eq!(
        (g["turn"].as_str(), g["human"].as_str()),
        (Some("white"), Some("white"))
    );
    assert_eq!(g["level"], json!({"elo": 1500}));
    assert_eq!(g["black"], "chess960-engine 1500");
    assert_eq!(g["status"], "playing");
    // No clock runs before both sides have moved (as on lichess).
    assert_eq!(g["clocks"]["running"], Value::Null);
    assert_eq!(
        g["time_control"],
        json!({"initial_ms": 300000, "increment_ms": 3000})
    );
    assert_eq!(g["result"], Value::Null);
    assert_eq!(g["legal"].as_array().unwrap().len(), 20);
    assert_eq!(g["engine_thinking"], false);
    let r = a.get(&format!("/api/games/{key}")).await;
    assert_eq!((r.status, &r.json["key"]), (200, &g["key"]));

    // Random starts, excluding the classical one; every field has a default.
    for _ in 0..20 {
        let g = a
            .new_game(json!({"start": {"random": true, "exclude_classical": true}}))
            .await;
        assert_ne!(g["start_id"], 518);
        assert!(g["start_id"].as_u64().unwrap() < 960);
    }
    let g = a.new_game(json!({})).await;
    assert_eq!(
        (g["human"].as_str(), g["clocks"].is_null()),
        (Some("white"), true)
    );
    let g = a
        .new_game(json!({"start": {"id": 518}, "level": {"depth": 2}, "name": "Ada"}))
        .await;
    assert_eq!(
        (g["white"].as_str(), g["level"]["depth"].as_u64()),
        (Some("Ada"), Some(2))
    );

    // A FEN start that is not one of the 960.
    let g = a
        .new_game(json!({"start": {"fen": "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1"}}))
        .await;
    assert_eq!(
        (g["start_id"].is_null(), g["back_rank"].is_null()),
        (true, true)
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_advertised_levels_are_the_accepted_ones() {
    let a = app().await;
    let r = a.get("/api/levels").await;
    assert_eq!(r.status, 200, "{}", r.text);
    let (min, max) = (
        r.json["elo"]["min"].as_u64().unwrap(),
        r.json["elo"]["max"].as_u64().unwrap(),
    );
    assert!(min < max, "{}", r.text);
    assert_eq!(r.json["depth"], json!({"min": 1, "max": 30}));
    // The default is a level the server accepts.
    let g = a.new_game(json!({"level": r.json["default"]})).await;
    assert_eq!(g["level"], r.json["default"]);
    for elo in [min, max] {
        let g = a.new_game(json!({"level": {"elo": elo}})).await;
        assert_eq!(g["level"]["elo"].as_u64(), Some(elo));
    }
    for elo in [min - 1, max + 1] {
        let r = a.post("/api/games", json!({"level": {"elo": elo}})).await;
        assert_eq!(r.status, 400, "{}", r.text);
        assert!(r.error().contains(&format!("{min}..{max}")), "{}", r.text);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn new_game_bad_input() {
    let a = app().await;
    let cases: &[(&str, u16, &str)] = &[
        ("{", 400, "not valid JSON"),
        ("[1,2]", 400, "[0]"),
        ("\"x\"", 400, "request body"),
        (r#"{"level": {"elo": "strong"}}"#, 400, "level.elo"),
        (r#"{"level": {"elo": 5000}}"#, 400, "level.elo"),
        (r#"{"level": {"depth": 0}}"#, 400, "level.depth"),
        (r#"{"level": {"elo": 1500, "depth": 3}}"#, 400, "level"),
        (r#"{"level": {"speed": 3}}"#, 400, "level"),
        (r#"{"color": "green"}"#, 400, "color"),
        (r#"{"color": 1}"#, 400, "color"),
        (r#"{"start": {"id": 1000}}"#, 400, "start.id"),
        (r#"{"start": {"id": -1}}"#, 400, "start.id"),
        (r#"{"start": {"id": 1, "random": true}}"#, 400, "start"),
        (r#"{"start": {"random": false}}"#, 400, "start.random"),
        (r#"{"start": {"fen": "not a fen"}}"#, 422, "start.fen"),
        (
            r#"{"start": {"fen": "8/8/8/8/8/8/8/8 w - - 0 1"}}"#,
            422,
            "start.fen",
        ),
        (
            r#"{"start": {"pgn": "1. e4 e5 2. Qz9 *"}}"#,
            422,
            "start.pgn",
        ),
        (r#"{"start": {"pgn": ""}}"#, 422, "start.pgn"),
        (
            r#"{"time_control": {"increment_ms": 5}}"#,
            400,
            "initial_ms",
        ),
        (
            r#"{"time_control": {"initial_ms": 0}}"#,
            400,
            "time_control.initial_ms",
        ),
        (
            r#"{"time_control": {"initial_ms": 1.5}}"#,
            400,
            "time_control.initial_ms",
        ),
        (r#"{"study_ms": -5}"#, 400, "study_ms"),
        (r#"{"study_ms": 99999999999}"#, 400, "study_ms"),
        (r#"{"name": "a\nb"}"#, 400, "name"),
    ];
    for (body, status, field) in cases {
        let r = a.post_raw("/api/games", body.as_bytes().to_vec()).await;
        assert_eq!(r.status, *status, "{body}: {}", r.text);
        assert!(r.error().contains(field), "{body}: {}", r.text);
    }
    // Over 1 MiB.
    let big = format!(r#"{{"name": "{}"}}"#, "x".repeat(1 << 20));
    let r = a.post_raw("/api/games", big.into_bytes()).await;
    assert_eq!(r.status, 413);
    assert!(r.error().contains("larger than"));
    // Nothing was created.
    let r = a.get("/api/games").await;
    assert_eq!(r.json["total"], 0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn unknown_keys_and_routes() {
    let a = app().await;
    let unknown = "0123456789abcdef0123456789abcdef";
    for path in [
        format!("/api/games/{unknown}"),
        format!("/api/games/{unknown}/pgn"),
        "/api/games/nothex".to_string(),
        "/api/games/0123456789ABCDEF0123456789ABCDEF".to_string(),
        "/api/nothing".to_string(),
        "/api".to_string(),
    ] {
        let r = a.get(&path).await;
        assert_eq!(r.status, 404, "{path}: {}", r.text);
        assert!(!r.error().is_empty());
    }
    for (action, body) in [
        ("moves", json!({"move": "e2e4", "ply": 0})),
        ("premove", json!({"move": "e2e4"})),
        ("takeback", json!({})),
        ("resign", json!({})),
        ("draw", json!({"action": "claim"})),
        ("start", json!({})),
        ("analysis", json!({"depth": 2})),
    ] {
        let r = a
            .post(&format!("/api/games/{unknown}/{action}"), body)
            .await;
        assert_eq!(r.status, 404, "{action}: {}", r.text);
    }
    let url = format!("{}/api/games/{unknown}/ws", a.base.replace("http", "ws"));
    assert!(tokio_tungstenite::connect_async(url).await.is_err());
    // A WebSocket address asked for by plain HTTP.
    let g = a.new_game(json!({"start": {"id": 518}})).await;
    let r = a
        .get(&format!("/api/games/{}/ws", g["key"].as_str().unwrap()))
        .await;
    assert_eq!(r.status, 400, "{}", r.text);
    // Wrong method.
    let r = a.post("/api/positions", json!({})).await;
    assert_eq!(r.status, 405);
    assert!(r.error().contains("POST"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn moves_bad_input() {
    let a = app().await;
    let g = a
        .new_game(json!({"start": {"id": 518}, "level": {"depth": 1}}))
        .await;
    let key = g["key"].as_str().unwrap();
    let path = format!("/api/games/{key}/moves");
    let cases: &[(Value, u16, &str)] = &[
        (json!({"ply": 0}), 400, "move"),
        (json!({"move": "e2e4"}), 400, "ply"),
        (json!({"move": 42, "ply": 0}), 400, "move"),
        (json!({"move": "e2e4", "ply": "zero"}), 400, "ply"),
        (json!({"move": "e2e5", "ply": 0}), 422, "e2e5"),
        (json!({"move": "Nf6", "ply": 0}), 422, "Nf6"),
        (json!({"move": "hello", "ply": 0}), 422, "hello"),
        (json!({"move": "", "ply": 0}), 422, "move"),
        (json!({"move": "e1g1", "ply": 0}), 422, "e1g1"),
        (json!({"move": "e2e4", "ply": 3}), 409, "ply"),
    ];
    for (body, status, what) in cases {
        let r = a.post(&path, body.clone()).await;
        assert_eq!(r.status, *status, "{body}: {}", r.text);
        assert!(r.error().contains(what), "{body}: {}", r.text);
    }
    let r = a.post_raw(&path, b"not json".to_vec()).await;
    assert_eq!(r.status, 400);
    // SAN is accepted; the same ply again is stale, and the engine's turn is not ours.
    let after = a.play(&g, "Nf3").await;
    assert_eq!(after["moves"][0]["uci"], "g1f3");
    assert_eq!(after["moves"][0]["san"], "Nf3");
    let r = a.post(&path, json!({"move": "e2e4", "ply": 0})).await;
    assert_eq!(r.status, 409);
    let g = a.wait_turn(key).await;
    assert_eq!(g["moves"].as_array().unwrap().len(), 2);
    let r = a.post(&path, json!({"move": "e2e4", "ply": 1})).await;
    assert_eq!(r.status, 409);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn action_bad_input() {
    let a = app().await;
    let g = a
        .new_game(json!({"start": {"id": 518}, "level": {"depth": 1}}))
        .await;
    let key = g["key"].as_str().unwrap();
    let p = |action: &str| format!("/api/games/{key}/{action}");
    let cases: &[(&str, Value, u16, &str)] = &[
        ("draw", json!({}), 400, "action"),
        ("draw", json!({"action": "please"}), 400, "action"),
        ("draw", json!({"action": "claim"}), 409, "no draw to claim"),
        ("premove", json!({"move": 5}), 400, "move"),
        ("premove", json!({"move": "x"}), 422, "move"),
        ("premove", json!({"move": "e2e4"}), 409, "your turn"),
        ("takeback", json!({}), 409, "no move to take back"),
        ("takeback", json!("now"), 400, "request body"),
        ("analysis", json!({"depth": 3}), 409, "finished"),
        ("analysis", json!({"depth": 0}), 400, "depth"),
        (
            "analysis",
            json!({"depth": 3, "movetime_ms": 5}),
            400,
            "depth",
        ),
        ("analysis", json!({"movetime_ms": 0}), 400, "movetime_ms"),
        ("analysis", json!({"plies": 3}), 400, "plies"),
    ];
    for (action, body, status, what) in cases {
        let r = a.post(&p(action), body.clone()).await;
        assert_eq!(r.status, *status, "{action} {body}: {}", r.text);
        assert!(r.error().contains(what), "{action} {body}: {}", r.text);
    }
    // An empty body is an empty object.
    let r = a.post_raw(&p("resign"), Vec::new()).await;
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(
        (r.json["result"].as_str(), r.json["reason"].as_str()),
        (Some("0-1"), Some("resignation"))
    );
    for action in ["resign", "start"] {
        let r = a.post(&p(action), json!({})).await;
        assert_eq!(r.status, 409, "{action}: {}", r.text);
    }
    let r = a.post(&p("moves"), json!({"move": "e2e4", "ply": 0})).await;
    assert_eq!(r.status, 409);
    assert!(r.error().contains("over"));
    let r = a.post(&p("draw"), json!({"action": "offer"})).await;
    assert_eq!(r.status, 409);
    let r = a.post(&p("takeback"), json!({})).await;
    assert_eq!(
        r.status, 409,
        "a resigned game cannot be taken back: {}",
        r.text
    );
    let r = a.post(&p("analysis"), json!({"depth": 2, "ply": 5})).await;
    assert_eq!(r.status, 400);
    assert!(r.error().contains("ply"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn game_list_and_filters() {
    let a = app().await;
    let g1 = a
        .new_game(json!({"start": {"id": 518}, "name": "Ada"}))
        .await;
    let g2 = a.new_game(json!({"start": {"id": 7}, "name": "Bob"})).await;
    let r = a
        .post(
            &format!("/api/games/{}/resign", g2["key"].as_str().unwrap()),
            json!({}),
        )
        .await;
    assert_eq!(r.status, 200);

    let r = a.get("/api/games").await;
    assert_eq!(r.status, 200);
    assert_eq!(r.json["total"], 2);
    let games = r.json["games"].as_array().unwrap();
    // Newest first.
    assert_eq!(games[0]["key"], g2["key"]);
    assert_eq!(games[1]["key"], g1["key"]);
    assert_eq!(games[0]["result"], "0-1");
    assert_eq!(games[0]["reason"], "resignation");
    assert_eq!(games[1]["result"], "*");
    assert_eq!(games[0]["start_id"], 7);
    assert_eq!(games[0]["plies"], 0);
    assert!(games[0]["date"].as_str().unwrap().len() == 10);
    assert!(games[0]["id"].is_i64());

    let r = a.get("/api/games?start_id=518").await;
    assert_eq!(r.json["total"], 1);
    assert_eq!(r.json["games"][0]["key"], g1["key"]);
    let r = a.get("/api/games?result=0-1").await;
    assert_eq!(r.json["games"][0]["key"], g2["key"]);
    let r = a.get("/api/games?result=*").await;
    assert_eq!(r.json["total"], 1);
    let r = a.get("/api/games?player=Ada").await;
    assert_eq!(r.json["games"][0]["key"], g1["key"]);
    let r = a.get("/api/games?limit=1&offset=1").await;
    assert_eq!(r.json["total"], 2);
    assert_eq!(r.json["games"].as_array().unwrap().len(), 1);
    assert_eq!(r.json["games"][0]["key"], g1["key"]);

    for (q, field) in [
        ("start_id=abc", "start_id"),
        ("start_id=960", "start_id"),
        ("result=2-0", "result"),
        ("limit=0", "limit"),
        ("limit=-3", "limit"),
        ("offset=x", "offset"),
    ] {
        let r = a.get(&format!("/api/games?{q}")).await;
        assert_eq!(r.status, 400, "{q}: {}", r.text);
        assert!(r.error().contains(field), "{q}: {}", r.text);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pgn_export_and_import() {
    let a = app().await;
    let pgn = pgn_from(249, "1. e4 e5 2. Nf3 Nf6");
    let g = a
        .new_game(json!({"start": {"pgn": pgn}, "level": {"depth": 1}, "name": "Ada"}))
        .await;
    let key = g["key"].as_str().unwrap();
    assert_eq!(g["start_id"], 249);
    let sans: Vec<&str> = g["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["san"].as_str().unwrap())
        .collect();
    assert_eq!(sans, ["e4", "e5", "Nf3", "Nf6"]);
    assert_eq!(g["turn"], "white");
    // Each move carries the position after it and the checked king's square.
    let moves = g["moves"].as_array().unwrap();
    assert_eq!(moves.last().unwrap()["fen"], g["fen"]);
    assert!(moves.iter().all(|m| m["check"].is_null()), "{}", g["moves"]);
    let mate = a
        .new_game(json!({"start": {"pgn": pgn_from(518, "1. f3 e5 2. g4 Qh4#")}}))
        .await;
    let mm = mate["moves"].as_array().unwrap();
    assert_eq!(
        mm[0]["fen"],
        "rnbqkbnr/pppppppp/8/8/8/5P2/PPPPP1PP/RNBQKBNR b KQkq - 0 1"
    );
    assert_eq!(mm[2]["check"], Value::Null);
    assert_eq!(mm[3]["check"], "e1");
    assert_eq!(mm[3]["fen"], mate["fen"]);
    assert_eq!(mate["check"], "e1");
    // Pasted moves with neither tags nor termination marker start a game, as on lichess: the
    // scholar's mate ends it at once.
    let pasted = a
        .new_game(json!({"start": {"pgn": "1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7#"}}))
        .await;
    assert_eq!(pasted["moves"].as_array().unwrap().len(), 7);
    assert_eq!(pasted["result"], "1-0", "{pasted}");
    a.play(&g, "d4").await;
    let g = a.wait_turn(key).await;
    assert_eq!(g["moves"].as_array().unwrap().len(), 6);
    let r = a.post(&format!("/api/games/{key}/resign"), json!({})).await;
    assert_eq!(r.status, 200);

    let r = a.get(&format!("/api/games/{key}/pgn")).await;
    assert_eq!(r.status, 200);
    assert!(r.headers["content-type"]
        .to_str()
        .unwrap()
        .starts_with("text/plain"));
    let disposition = r.headers["content-disposition"].to_str().unwrap();
    assert!(disposition.starts_with("attachment"), "{disposition}");
    let text = &r.text;
    let fen = chess960_core::StartId::new(249).unwrap().position().fen();
    for tag in [
        "[White \"Ada\"]".to_string(),
        "[Black \"chess960-engine depth 1\"]".to_string(),
        "[Result \"0-1\"]".to_string(),
        "[Variant \"Chess960\"]".to_string(),
        "[SetUp \"1\"]".to_string(),
        format!("[FEN \"{fen}\"]"),
        "[TimeControl".to_string(),
        "[Termination \"resignation\"]".to_string(),
    ] {
        if tag == "[TimeControl" {
            assert!(
                !text.contains(&tag),
                "an untimed game has no TimeControl:\n{text}"
            );
        } else {
            assert!(text.contains(&tag), "{tag} missing:\n{text}");
        }
    }
    assert!(text.contains("1. e4 e5 2. Nf3 Nf6 3. d4"), "{text}");
    assert!(text.trim_end().ends_with("0-1"), "{text}");

    // The exported PGN starts a new game from its end.
    let g2 = a.new_game(json!({"start": {"pgn": text}})).await;
    assert_eq!(g2["moves"], g["moves"]);
    assert_eq!(g2["fen"], g["fen"]);
    assert_eq!(g2["status"], "playing");

    // A timed game has its TimeControl and clock comments.
    let t = a
        .new_game(json!({"start": {"id": 518}, "level": {"depth": 1},
                         "time_control": {"initial_ms": 60000, "increment_ms": 2000}}))
        .await;
    let tk = t["key"].as_str().unwrap();
    a.play(&t, "e4").await;
    a.wait_turn(tk).await;
    let r = a.get(&format!("/api/games/{tk}/pgn")).await;
    assert!(r.text.contains("[TimeControl \"60+2\"]"), "{}", r.text);
    assert!(r.text.contains("[%clk 0:01:0"), "{}", r.text);
    assert!(r.text.contains("[Result \"*\"]"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn web_assets() {
    let a = app().await;
    let r = a.get("/").await;
    assert_eq!(r.status, 200);
    assert!(r.headers["content-type"]
        .to_str()
        .unwrap()
        .starts_with("text/html"));
    let index = r.text.clone();
    assert!(index.to_ascii_lowercase().contains("<html"));
    // Client-side routes get the page.
    for path in [
        "/games",
        "/positions",
        "/projector",
        "/game/0123456789abcdef0123456789abcdef",
    ] {
        let r = a.get(path).await;
        assert_eq!((r.status, &r.text), (200, &index), "{path}");
    }
    // The scripts and styles the page names are served with their types.
    for (ext, mime) in [(".js\"", "javascript"), (".css\"", "text/css")] {
        let Some(end) = index.find(ext) else { continue };
        let start = index[..end].rfind("\"/").expect("an absolute asset path") + 1;
        let path = &index[start..end + ext.len() - 1];
        let r = a.get(path).await;
        assert_eq!(r.status, 200, "{path}");
        let ct = r.headers["content-type"].to_str().unwrap();
        assert!(ct.contains(mime), "{path}: {ct}");
    }
    let r = a.get("/no-such-file.js").await;
    assert_eq!(r.status, 404);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn garbage_never_breaks_the_server() {
    let a = app().await;
    let g = a
        .new_game(json!({"start": {"id": 518}, "level": {"depth": 1}, "color": "black"}))
        .await;
    let key = g["key"].as_str().unwrap();
    let deep = format!("{}{}", "[".repeat(5000), "]".repeat(5000));
    let bodies: Vec<Vec<u8>> = vec![
        b"null".to_vec(),
        "\"\u{e9}\"".as_bytes().to_vec(),
        vec![0xff, 0xfe, 0x00],
        deep.into_bytes(),
        json!({"move": "\u{2654}", "ply": 0}).to_string().into_bytes(),
        json!({"move": "e2e4\u{0}", "ply": 0}).to_string().into_bytes(),
        json!({"move": "O-O-O-O", "ply": 1}).to_string().into_bytes(),
        json!({"move": "Qxh7+#!!", "ply": 1}).to_string().into_bytes(),
        br#"{"move": "e7e5", "ply": 1e40}"#.to_vec(),
        json!({"move": "é".repeat(300), "ply": 1}).to_string().into_bytes(),
        json!({"action": null, "depth": -1, "movetime_ms": 1e9}).to_string().into_bytes(),
        json!({"start": {"fen": "\u{1f642}"}, "level": {"elo": null}}).to_string().into_bytes(),
        json!({"start": {"pgn": "[FEN \"x\"]\n1. e4"}}).to_string().into_bytes(),
        json!({"start": {"pgn": "1. e4 e5 2. Ke2 Ke7 3. Ke1 Ke8 4. Ke2 Ke7 5. Ke1 Ke8 6. Ke2 Ke7 7. Ke1 Ke8 8. Ke2 Ke7 9. Ke1 Ke8"}}).to_string().into_bytes(),
        json!({"method": "cards", "outcomes": "1,1,1,1,1,1,1,1,1,1"}).to_string().into_bytes(),
    ];
    let paths: Vec<String> = ["moves", "premove", "takeback", "draw", "start", "analysis"]
        .iter()
        .map(|p| format!("/api/games/{key}/{p}"))
        .chain(["/api/games".to_string(), "/api/draw".to_string()])
        .collect();
    for path in &paths {
        for body in &bodies {
            let r = a.post_raw(path, body.clone()).await;
            assert!(
                r.status < 500,
                "{path} {}: {} {}",
                String::from_utf8_lossy(body),
                r.status,
                r.text
            );
            if r.status >= 400 {
                assert!(!r.error().is_empty());
            }
        }
    }
    // The server still answers, and the game is intact.
    let r = a.get(&format!("/api/games/{key}")).await;
    assert_eq!(r.status, 200);
}

/// Every error answer carries a stable `code` beside its message: one of its own for a refused
/// action on a game, else its status's (docs/api.md, "Errors").
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_error_has_a_stable_code() {
    let a = app().await;
    let (key, ann, bob) = a.two_players().await;
    let act = |action: &str, body: Value, seat: Option<&str>| {
        let path = format!("/api/games/{key}/{action}");
        let body = body.to_string().into_bytes();
        let seat = seat.map(str::to_owned);
        let a = &a;
        async move { a.post_as(&path, body, seat.as_deref()).await }
    };
    let (ann, bob) = (Some(ann.as_str()), Some(bob.as_str()));
    let checks = [
        (
            act("moves", json!({"move": "e2e5", "ply": 0}), ann).await,
            "illegal_move",
        ),
        (
            act("moves", json!({"move": "e2e4", "ply": 3}), ann).await,
            "stale_ply",
        ),
        (
            act("moves", json!({"move": "e7e5", "ply": 0}), bob).await,
            "not_your_turn",
        ),
        (
            act("premove", json!({"move": "e2e4"}), ann).await,
            "your_turn",
        ),
        (
            act("draw", json!({"action": "claim"}), ann).await,
            "no_draw_to_claim",
        ),
        (
            act("draw", json!({"action": "accept"}), ann).await,
            "no_offer",
        ),
        (
            act("draw", json!({"action": "please"}), ann).await,
            "bad_request",
        ),
        (act("join", json!({}), None).await, "no_open_seat"),
        (act("resign", json!({}), None).await, "seat_missing"),
        (
            act("resign", json!({}), Some("not-a-seat")).await,
            "seat_wrong",
        ),
        (
            a.get("/api/games/00000000000000000000000000000000").await,
            "no_such_game",
        ),
        (a.get("/api/nothing-here").await, "not_found"),
        (
            a.post_as(
                &format!("/api/games/{key}/moves"),
                b"{not json".to_vec(),
                ann,
            )
            .await,
            "bad_request",
        ),
    ];
    for (r, code) in checks {
        assert!(r.status >= 400, "{}", r.text);
        assert_eq!(r.json["code"], code, "{} {}", r.status, r.text);
        assert!(!r.error().is_empty());
    }
    let r = act("resign", json!({}), ann).await;
    assert_eq!(r.status, 200, "{}", r.text);
    let r = act("resign", json!({}), ann).await;
    assert_eq!(
        (r.status, r.json["code"].as_str()),
        (409, Some("game_over")),
        "{}",
        r.text
    );
}
