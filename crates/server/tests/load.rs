//! Deep engine searches wait in the search pool; the requests that are not searches keep
//! their latency. (The figures of `scripts/server-load.py` are the benchmark; this test holds
//! the server to a bound far above them and far below what it was before the pool.)

mod common;

use chess960_server::Capacity;
use common::app_with;
use serde_json::json;
use std::time::{Duration, Instant};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn moves_are_acknowledged_while_deep_searches_queue() {
    let a = app_with(Capacity {
        search_threads: 2,
        ..Capacity::default()
    })
    .await;
    let deep = 300;
    let mut queued = Vec::new();
    for i in 0..deep {
        // The engine plays White at depth 30: each game's search starts or waits at once.
        let g = a
            .new_game(json!({"start": {"id": i % 960}, "color": "black", "level": {"depth": 30}}))
            .await;
        assert_eq!(g["engine_thinking"], true);
        queued.push(g["key"].as_str().unwrap().to_string());
    }
    let r = a.get("/api/server").await;
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(r.json["searches"]["threads"], 2);
    assert_eq!(r.json["searches"]["running"], 2, "{}", r.text);
    assert_eq!(r.json["searches"]["waiting"], deep - 2, "{}", r.text);
    // The last game's search waits behind the others, and its view says so.
    let last = a
        .get(&format!("/api/games/{}", queued[deep - 1]))
        .await
        .json;
    assert_eq!(last["engine_queue"]["ahead"], deep - 3, "{last}");
    assert!(last["engine_queue"]["waited_ms"].as_u64().is_some());

    let mut times = Vec::new();
    for _ in 0..60 {
        let g = a
            .new_game(json!({"start": {"id": 518}, "color": "white", "level": {"elo": 1110}}))
            .await;
        let t = Instant::now();
        let after = a.play(&g, "e2e4").await;
        times.push(t.elapsed());
        // Its engine reply waits in the queue too; the move itself was stored and answered.
        assert_eq!(after["engine_thinking"], true);
        assert!(
            after["engine_queue"]["ahead"].as_u64().unwrap() > 0,
            "{after}"
        );
    }
    times.sort();
    let p99 = times[times.len() * 99 / 100];
    assert!(
        p99 < Duration::from_millis(500),
        "p99 of move acknowledgements with {deep} deep searches queued: {p99:?} ({times:?})"
    );

    // Taking a move back takes its search out of the queue.
    let g = a
        .new_game(json!({"start": {"id": 518}, "color": "white", "level": {"depth": 30}}))
        .await;
    let waiting = |r: &serde_json::Value| r["searches"]["waiting"].as_u64().unwrap();
    let after = a.play(&g, "e2e4").await;
    assert_eq!(after["engine_thinking"], true);
    let before = waiting(&a.get("/api/server").await.json);
    let r = a
        .post(
            &format!("/api/games/{}/takeback", g["key"].as_str().unwrap()),
            json!({}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(waiting(&a.get("/api/server").await.json), before - 1);

    // Shutting down with hundreds of searches queued is quick.
    let mut a = a;
    let t = Instant::now();
    a.stop().await;
    assert!(t.elapsed() < Duration::from_secs(10), "{:?}", t.elapsed());
}
