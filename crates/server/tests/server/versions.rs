//! Versions: every HTTP answer with a game view carries the state's version in the
//! `X-Game-Version` header, every WebSocket event carries it as `version`, and it only grows,
//! also when the game leaves memory and comes back; and the view says who plays each colour.

use crate::common;

use chess960_server::Capacity;
use common::{app_on_with, Reply};
use serde_json::{json, Value};
use std::time::Duration;

fn version(r: &Reply) -> u64 {
    r.headers
        .get("x-game-version")
        .unwrap_or_else(|| panic!("no X-Game-Version in {}", r.text))
        .to_str()
        .unwrap()
        .parse()
        .unwrap()
}

/// A server that unloads nothing by itself (the test unloads by hand).
fn manual() -> Capacity {
    Capacity {
        unload_after: Duration::from_secs(3600),
        ..Capacity::default()
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn versions_only_grow_and_order_answers_and_events() {
    let dir = tempfile::tempdir().unwrap();
    let a = app_on_with(&dir.path().join("g.sqlite3"), manual()).await;
    let created = a
        .post(
            "/api/games",
            json!({"start": {"id": 518}, "color": "white", "level": {"depth": 1}}),
        )
        .await;
    assert_eq!(created.status, 201, "{}", created.text);
    let v0 = version(&created);
    assert!(created.json.get("version").is_none(), "not in the view");
    let key = created.json["key"].as_str().unwrap().to_string();
    // Who plays: the person White, through the seat; the engine Black at depth 1.
    assert_eq!(
        created.json["sides"],
        json!({"white": {"type": "human", "seat": "held"},
               "black": {"type": "engine", "level": {"depth": 1}}})
    );

    let mut ws = a.ws(&key).await;
    let first = ws.next().await;
    assert_eq!(first["type"], "state");
    assert!(first["version"].as_u64().unwrap() >= v0);

    let moved = a
        .post(
            &format!("/api/games/{key}/moves"),
            json!({"move": "e2e4", "ply": 0}),
        )
        .await;
    assert_eq!(moved.status, 200, "{}", moved.text);
    let v1 = version(&moved);
    assert!(v1 > v0, "{v1} > {v0}");
    // The events that follow: the states grow, every event carries the newest state's version.
    let mut newest = first["version"].as_u64().unwrap();
    loop {
        let e = ws.next().await;
        let v = e["version"]
            .as_u64()
            .unwrap_or_else(|| panic!("no version: {e}"));
        if e["type"] == "state" {
            assert!(v > newest, "state versions grow: {v} after {newest}");
            newest = v;
            if e["game"]["moves"].as_array().map_or(0, Vec::len) == 2 {
                break;
            }
        } else {
            assert_eq!(v, newest, "{e}");
        }
    }
    assert!(
        newest > v1,
        "the engine's reply is newer than the answer to the move"
    );
    let shown = a.get(&format!("/api/games/{key}")).await;
    assert_eq!(version(&shown), newest);
    drop(ws);

    // Unloaded and loaded again: the same view, a higher version.
    let state = a.server.as_ref().unwrap().state().clone();
    let started = std::time::Instant::now();
    while state.unload_idle(Duration::ZERO) == 0 {
        assert!(started.elapsed() < common::WAIT, "the game stays in memory");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let again = a.get(&format!("/api/games/{key}")).await;
    assert_eq!(again.json, shown.json);
    assert!(version(&again) > newest);
    let after: Value = a
        .post(&format!("/api/games/{key}/resign"), json!({}))
        .await
        .json;
    assert_eq!(after["result"], "0-1");
}
