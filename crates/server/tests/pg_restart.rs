//! The PostgreSQL server stops in the middle of a game between people and comes back: while
//! it is away a move is refused with an error naming the database (no hang, the game and its
//! sockets stay), nothing acknowledged is lost, and the same server plays on when the database
//! is back, without a restart.
//!
//! Runs in the PostgreSQL pass of the server's tests (`CHESS960_TEST_BACKEND=postgres`) with the
//! test cluster's directory (`CHESS960_TEST_PG_DIR`, set by scripts/test.sh) to stop and start
//! it. It is the only test of this file: cargo runs test files one after another, so no other
//! test uses the database server while it is down.

mod common;

use common::{app, App, Reply};
use serde_json::{json, Value};
use std::path::Path;
use std::time::{Duration, Instant};

fn cluster(command: &str, dir: &str) {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scripts/pg-cluster.sh");
    let status = std::process::Command::new("bash")
        .arg(&script)
        .args([command, dir])
        .stdout(std::process::Stdio::null())
        .status()
        .expect("bash runs");
    assert!(status.success(), "pg-cluster.sh {command} failed");
}

async fn mv(a: &App, key: &str, token: &str, uci: &str, ply: usize) -> Reply {
    a.post_as(
        &format!("/api/games/{key}/moves"),
        json!({"move": uci, "ply": ply}).to_string().into_bytes(),
        Some(token),
    )
    .await
}

fn plies(v: &Value) -> usize {
    v["moves"].as_array().map_or(0, Vec::len)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_goes_on_after_the_database_comes_back() {
    if std::env::var("CHESS960_TEST_BACKEND").ok().as_deref() != Some("postgres") {
        eprintln!("skipped: needs CHESS960_TEST_BACKEND=postgres (scripts/test.sh runs it so)");
        return;
    }
    let Ok(dir) = std::env::var("CHESS960_TEST_PG_DIR") else {
        assert!(
            std::env::var_os("CHESS960_TEST_PG_REQUIRED").is_none(),
            "CHESS960_TEST_PG_DIR is not set: scripts/test.sh sets it"
        );
        eprintln!("skipped: CHESS960_TEST_PG_DIR is not set");
        return;
    };
    let a = app().await;
    let (key, ann, bob) = a.two_players().await;
    let mut watcher = a.ws_url(&format!("/api/games/{key}/ws")).await;
    let r = mv(&a, &key, &ann, "e2e4", 0).await;
    assert_eq!(r.status, 200, "{}", r.text);
    watcher.until_state(|g| plies(g) == 1).await;

    cluster("stop", &dir);
    // Refused at once, naming the database; the game is as it was.
    let t = Instant::now();
    let r = mv(&a, &key, &bob, "e7e5", 1).await;
    assert_eq!(r.status, 500, "{}", r.text);
    assert!(r.error().contains("PostgreSQL database"), "{}", r.text);
    assert!(t.elapsed() < Duration::from_secs(15), "{:?}", t.elapsed());
    let view = a.get(&format!("/api/games/{key}")).await;
    assert_eq!(view.status, 200, "{}", view.text);
    assert_eq!(plies(&view.json), 1);

    cluster("start", &dir);
    // Back: the same move is played (the first call after may still meet a broken
    // connection, which the store then drops).
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let r = mv(&a, &key, &bob, "e7e5", 1).await;
        if r.status == 200 {
            break;
        }
        assert!(r.error().contains("PostgreSQL database"), "{}", r.text);
        assert!(Instant::now() < deadline, "still refused: {}", r.text);
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    watcher.until_state(|g| plies(g) == 2).await;
    let r = mv(&a, &key, &ann, "g1f3", 2).await;
    assert_eq!(r.status, 200, "{}", r.text);
    // Nothing acknowledged was lost, nothing refused was half-stored.
    let stored = common::store_at(&a.db);
    let summary = stored
        .list(&chess960_store::GameFilter::default())
        .unwrap()
        .into_iter()
        .find(|s| s.key.as_str() == key)
        .unwrap();
    assert_eq!(summary.plies, 3);
}
