//! Games leave memory when idle and come back exactly as they were; the ones with something
//! pending (a running clock, a search, a connected client) stay.

mod common;

use chess960_server::Capacity;
use common::{app_on_with, app_with, App};
use serde_json::{json, Value};
use std::time::{Duration, Instant};

/// Never unloads by itself: the test unloads when it wants to.
fn manual() -> Capacity {
    Capacity {
        unload_after: Duration::from_secs(3600),
        ..Capacity::default()
    }
}

fn state(a: &App) -> &chess960_server::AppState {
    a.server.as_ref().unwrap().state()
}

async fn view(a: &App, key: &str) -> Value {
    let r = a.get(&format!("/api/games/{key}")).await;
    assert_eq!(r.status, 200, "{}", r.text);
    r.json
}

fn key(g: &Value) -> String {
    g["key"].as_str().unwrap().to_string()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn idle_games_leave_memory_and_come_back_the_same() {
    let a = app_with(manual()).await;
    // Untimed, the player to move after a few moves.
    let g = a
        .new_game(json!({"start": {"id": 0}, "color": "white", "level": {"depth": 1}}))
        .await;
    let untimed = key(&g);
    let mut g = g;
    for _ in 0..3 {
        let mv = g["legal"][0]["uci"].as_str().unwrap().to_string();
        a.play(&g, &mv).await;
        g = a.wait_turn(&untimed).await;
    }
    // Finished by resignation.
    let f = a
        .new_game(json!({"start": {"id": 7}, "level": {"depth": 1}}))
        .await;
    let finished = key(&f);
    let r = a
        .post(&format!("/api/games/{finished}/resign"), json!({}))
        .await;
    assert_eq!(r.status, 200, "{}", r.text);
    // Timed, the player's clock running: it stays, so that the flag can fall on time.
    let t = a
        .new_game(json!({
            "start": {"id": 9}, "color": "white", "level": {"depth": 1},
            "time_control": {"initial_ms": 600000, "increment_ms": 0},
        }))
        .await;
    let running = key(&t);
    // The clocks start once both sides have moved.
    let mv = t["legal"][0]["uci"].as_str().unwrap().to_string();
    a.play(&t, &mv).await;
    assert_eq!(a.wait_turn(&running).await["clocks"]["running"], "white");
    // Watched: it stays while its client is connected.
    let w = a
        .new_game(json!({"start": {"id": 11}, "level": {"depth": 1}}))
        .await;
    let watched = key(&w);
    // Played on, so that it waits for no first move (see `flow.rs`).
    let mv = w["legal"][0]["uci"].as_str().unwrap().to_string();
    a.play(&w, &mv).await;
    a.wait_turn(&watched).await;
    let mut ws = a.ws_watch(&watched).await;
    ws.next().await;

    let before: Vec<Value> = {
        let mut v = Vec::new();
        for k in [&untimed, &finished] {
            v.push(view(&a, k).await);
        }
        v
    };
    assert_eq!(state(&a).games_in_memory(), 4);
    let gone = state(&a).unload_idle(Duration::ZERO);
    assert_eq!(gone, 2, "the untimed and the finished game leave");
    assert_eq!(state(&a).games_in_memory(), 2);
    for (k, old) in [&untimed, &finished].into_iter().zip(&before) {
        let now = view(&a, k).await;
        assert_eq!(&now, old, "game {k} after reloading");
    }
    // Reading them loaded them again.
    assert_eq!(state(&a).games_in_memory(), 4);
    assert_eq!(view(&a, &running).await["clocks"]["running"], "white");

    drop(ws);
    // The WebSocket session ends when the server notices the closed connection.
    let started = Instant::now();
    loop {
        state(&a).unload_idle(Duration::ZERO);
        if state(&a).games_in_memory() == 1 {
            break;
        }
        assert!(
            started.elapsed() < common::WAIT,
            "a closed client kept its game"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_paused_game_after_a_restart_leaves_memory_and_stays_paused() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("games.sqlite3");
    let mut a = app_on_with(&db, manual()).await;
    let g = a
        .new_game(json!({
            "start": {"id": 402}, "color": "white", "level": {"depth": 1},
            "time_control": {"initial_ms": 60000, "increment_ms": 1000},
        }))
        .await;
    let k = key(&g);
    let mv = g["legal"][0]["uci"].as_str().unwrap().to_string();
    a.play(&g, &mv).await;
    a.wait_turn(&k).await;
    a.stop().await;

    let b = app_on_with(&db, manual()).await;
    let old = view(&b, &k).await;
    assert_eq!(old["paused"], true);
    assert_eq!(state(&b).unload_idle(Duration::ZERO), 1);
    assert_eq!(state(&b).games_in_memory(), 0);
    assert_eq!(view(&b, &k).await, old);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_server_unloads_idle_games_by_itself() {
    let a = app_with(Capacity {
        unload_after: Duration::from_millis(200),
        // The games are never played: aborted soon, they can leave (see `flow.rs`).
        abandon_after: Duration::from_millis(100),
        ..Capacity::default()
    })
    .await;
    let mut keys = Vec::new();
    for id in 0..20 {
        let g = a
            .new_game(json!({"start": {"id": id}, "color": "white", "level": {"depth": 1}}))
            .await;
        keys.push(key(&g));
    }
    // A game whose engine searches stays while it searches.
    let deep = a
        .new_game(json!({"start": {"id": 100}, "color": "black", "level": {"depth": 30}}))
        .await;
    assert_eq!(deep["engine_thinking"], true);
    let started = Instant::now();
    while state(&a).games_in_memory() > 1 {
        assert!(
            started.elapsed() < common::WAIT,
            "{} games still in memory",
            state(&a).games_in_memory()
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert_eq!(view(&a, &key(&deep)).await["engine_thinking"], true);
    // Every unloaded game reads back.
    for k in &keys {
        assert_eq!(view(&a, k).await["moves"], json!([]));
    }
}
