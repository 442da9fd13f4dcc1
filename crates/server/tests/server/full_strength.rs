//! The engine at full strength (`level: {"full": {"movetime_ms": N}}`): its answers within
//! the time per move, with and without a clock, the level in the view and after a restart,
//! and the levels it is offered at.

use crate::common;

use common::{app, app_on};
use serde_json::{json, Value};
use std::time::{Duration, Instant};

fn plies(g: &Value) -> usize {
    g["moves"].as_array().unwrap().len()
}

/// A legal move for the human, varying with the ply.
fn some_move(g: &Value, ply: usize) -> String {
    let legal = g["legal"].as_array().unwrap();
    assert!(!legal.is_empty(), "no legal move in {g}");
    legal[(ply * 5) % legal.len()]["uci"]
        .as_str()
        .unwrap()
        .into()
}

/// Above the time per move: the pool, the store's write and the test's polling (every
/// 20 ms) on a machine that may be busy.
const MARGIN: Duration = Duration::from_millis(1500);

/// Plays the human's move in `g` and waits for the engine's answer; how long it took from
/// the move being sent.
async fn move_and_answer(a: &common::App, g: &Value) -> (Value, Duration) {
    let key = g["key"].as_str().unwrap();
    let ply = plies(g);
    let sent = Instant::now();
    let r = a
        .post(
            &format!("/api/games/{key}/moves"),
            json!({"move": some_move(g, ply), "ply": ply}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.text);
    let answered = a
        .wait_for(key, |g| plies(g) >= ply + 2 || g["status"] == "finished")
        .await;
    (answered, sent.elapsed())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn full_strength_answers_within_its_time_and_survives_a_restart() {
    let mut a = app().await;
    let level = json!({"full": {"movetime_ms": 200}});
    let movetime = Duration::from_millis(200);
    let g = a
        .new_game(json!({"start": {"id": 518}, "level": level, "name": "Ann"}))
        .await;
    let key = g["key"].as_str().unwrap().to_string();
    assert_eq!(g["level"], level);
    assert_eq!(
        g["sides"]["black"],
        json!({"type": "engine", "level": level})
    );
    assert_eq!(g["black"], "chess960-engine full strength");
    assert_eq!(g["clocks"], Value::Null);

    let mut g = g;
    for _ in 0..3 {
        let (answered, took) = move_and_answer(&a, &g).await;
        assert_eq!(answered["status"], "playing", "{answered}");
        // Without a clock the engine thinks up to its time per move: not at once (a settled
        // best move may end the search from 0.7 of it), never much longer.
        assert!(took >= movetime / 2, "answered in {took:?}");
        assert!(took < movetime + MARGIN, "answered in {took:?}");
        g = answered;
    }
    assert_eq!(plies(&g), 6);
    let db = a.db.clone();
    a.stop().await;

    // After a restart the game is played on at the same level.
    let b = app_on(&db).await;
    let r = b.get(&format!("/api/games/{key}")).await;
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(r.json["level"], level);
    assert_eq!(r.json["sides"]["black"]["level"], level);
    assert_eq!(r.json["moves"], g["moves"]);
    let mut ws = b.ws(&key).await;
    let first = ws.next().await;
    assert_eq!(first["game"]["level"], level);
    let (answered, took) = move_and_answer(&b, &first["game"]).await;
    assert_eq!(plies(&answered), 8, "{answered}");
    assert!(took < movetime + MARGIN, "answered in {took:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn full_strength_on_a_clock_never_loses_on_time() {
    let a = app().await;
    // A long time per move on a short clock: the clock decides.
    let g = a
        .new_game(
            json!({"start": {"id": 402}, "level": {"full": {"movetime_ms": 10000}},
                         "time_control": {"initial_ms": 3000, "increment_ms": 0}}),
        )
        .await;
    let mut g = g;
    for _ in 0..6 {
        let (answered, took) = move_and_answer(&a, &g).await;
        if answered["status"] == "finished" {
            assert_ne!(answered["reason"], "time forfeit", "{answered}");
            return;
        }
        assert!(took < Duration::from_secs(3), "answered in {took:?}");
        assert!(answered["clocks"]["black_ms"].as_u64().unwrap() > 0);
        g = answered;
    }
    assert_eq!(g["status"], "playing");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn full_strength_levels_offered_and_refused() {
    let a = app().await;
    let r = a.get("/api/levels").await;
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(
        r.json["full"],
        json!({"movetime_ms": {"min": 100, "max": 10000, "default": 1000}})
    );
    // The fields that were there before are still there.
    assert_eq!(r.json["depth"], json!({"min": 1, "max": 30}));
    assert!(r.json["elo"]["max"].is_u64() && r.json["default"].is_object());

    // The bounds are accepted; `{}` is the default time.
    for (asked, got) in [
        (json!({}), 1000),
        (json!({"movetime_ms": 100}), 100),
        (json!({"movetime_ms": 10000}), 10000),
    ] {
        let g = a.new_game(json!({"level": {"full": asked}})).await;
        assert_eq!(g["level"], json!({"full": {"movetime_ms": got}}));
    }

    let cases: &[(Value, &str)] = &[
        (
            json!({"full": {"movetime_ms": 99}}),
            "level.full.movetime_ms: 99 is outside 100..10000",
        ),
        (
            json!({"full": {"movetime_ms": 10001}}),
            "level.full.movetime_ms: 10001 is outside 100..10000",
        ),
        (
            json!({"full": {"movetime_ms": "fast"}}),
            "level.full.movetime_ms",
        ),
        (
            json!({"full": {"movetime_ms": -5}}),
            "level.full.movetime_ms",
        ),
        (json!({"full": {"nodes": 5}}), "level.full"),
        (json!({"full": 1000}), "level.full"),
        (
            json!({"full": {}, "elo": 1500}),
            "level: give exactly one of elo, depth or full",
        ),
        (
            json!({"full": {"movetime_ms": 500}, "depth": 3}),
            "level: give exactly one of elo, depth or full",
        ),
        (json!({}), "level: give exactly one of elo, depth or full"),
    ];
    for (level, says) in cases {
        let r = a.post("/api/games", json!({"level": level})).await;
        assert_eq!(r.status, 400, "{level}: {}", r.text);
        assert!(r.error().starts_with(says), "{level}: {}", r.text);
    }
    // A level is for a game against the engine only.
    let r = a
        .post(
            "/api/games",
            json!({"opponent": "human", "level": {"full": {}}}),
        )
        .await;
    assert_eq!(r.status, 400, "{}", r.text);
    assert!(r
        .error()
        .starts_with("level: only a game against the engine"));
}
