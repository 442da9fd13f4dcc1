//! A client that goes away in the middle of its request. A move is stored and applied all the
//! same, so the game in memory and the database never disagree: the store's write is held up
//! by a lock taken from outside (SQLite: a write transaction on the file; PostgreSQL: the
//! game's row locked), the client gives up and closes its connection meanwhile, and only then
//! the lock goes. An analysis, which changes nothing, stops at once instead. Runs on both
//! backends.

use crate::common;

use common::{app, App, WAIT};
use serde_json::{json, Value};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// Holds the database's write lock on the game `key` until `release` says so.
fn hold_lock(db: std::path::PathBuf, key: String) -> (mpsc::Receiver<()>, mpsc::Sender<()>) {
    let (held_tx, held) = mpsc::channel();
    let (release, release_rx) = mpsc::channel::<()>();
    std::thread::spawn(move || {
        let db_str = db.to_string_lossy().into_owned();
        if db_str.starts_with("postgres") {
            let mut c = postgres::Client::connect(&db_str, postgres::NoTls).expect("connect");
            let mut tx = c.transaction().expect("begin");
            tx.query("SELECT id FROM games WHERE key = $1 FOR UPDATE", &[&key])
                .expect("lock the game's row");
            held_tx.send(()).unwrap();
            let _ = release_rx.recv();
            tx.rollback().expect("rollback");
        } else {
            let c = rusqlite::Connection::open(&db).expect("open");
            c.execute_batch("BEGIN IMMEDIATE")
                .expect("take the write lock");
            held_tx.send(()).unwrap();
            let _ = release_rx.recv();
            c.execute_batch("ROLLBACK").expect("rollback");
        }
    });
    (held, release)
}

/// Sends `body` to the game's `action` as the holder of `seat`, and gives up after 300 ms
/// (closing the connection); true if no answer came by then.
async fn give_up(a: &App, key: &str, action: &str, body: Value, seat: &str) -> bool {
    a.client
        .post(format!("{}/api/games/{key}/{action}", a.base))
        .header("content-type", "application/json")
        .header("x-seat-token", seat)
        .body(body.to_string())
        .timeout(Duration::from_millis(300))
        .send()
        .await
        .is_err()
}

async fn plies(a: &App, key: &str) -> usize {
    a.get(&format!("/api/games/{key}")).await.json["moves"]
        .as_array()
        .map_or(0, Vec::len)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_move_whose_client_went_away_is_stored_and_applied() {
    let a = app().await;
    let (key, ann, bob) = a.two_players().await;
    let (held, release) = hold_lock(a.db.clone(), key.clone());
    held.recv().unwrap();
    // Ann's move waits for the lock; she gives up after 300 ms and her connection closes.
    assert!(
        give_up(&a, &key, "moves", json!({"move": "e2e4", "ply": 0}), &ann).await,
        "the move was answered while the lock was held"
    );
    // Let the server notice the closed connection before the write can go on.
    tokio::time::sleep(Duration::from_millis(300)).await;
    release.send(()).unwrap();

    // The move is played: in memory as in the database.
    let deadline = Instant::now() + WAIT;
    while plies(&a, &key).await < 1 {
        assert!(
            Instant::now() < deadline,
            "the move never reached the game in memory"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let stored = common::store_at(&a.db)
        .game_by_key(&chess960_store::GameKey::parse(&key).unwrap())
        .unwrap()
        .unwrap();
    assert_eq!(stored.moves.len(), 1);
    // Bob answers at the next half-move, and Ann's move sent again is refused as stale, not
    // played twice.
    let bob_moves = a
        .act(&key, "moves", json!({"move": "e7e5", "ply": 1}), Some(&bob))
        .await;
    assert_eq!(bob_moves.status, 200, "{}", bob_moves.text);
    let again = a
        .act(&key, "moves", json!({"move": "e2e4", "ply": 0}), Some(&ann))
        .await;
    assert_eq!(again.status, 409, "{}", again.text);
    assert_eq!(plies(&a, &key).await, 2);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_analysis_whose_client_went_away_stops() {
    let a = app().await;
    let (key, ann, bob) = a.two_players().await;
    for (ply, (mv, seat)) in [("e2e4", &ann), ("e7e5", &bob)].into_iter().enumerate() {
        let r = a
            .act(&key, "moves", json!({"move": mv, "ply": ply}), Some(seat))
            .await;
        assert_eq!(r.status, 200, "{}", r.text);
    }
    let r = a.act(&key, "resign", json!({}), Some(&ann)).await;
    assert_eq!(r.status, 200, "{}", r.text);
    // A minute's analysis, given up after 300 ms.
    assert!(
        give_up(&a, &key, "analysis", json!({"movetime_ms": 60000}), &ann).await,
        "a minute's analysis answered in 300 ms"
    );
    // Its search stops within moments, not after the minute.
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let load = a.get("/api/server").await.json;
        if load["searches"]["running"] == 0 && load["searches"]["waiting"] == 0 {
            break;
        }
        assert!(Instant::now() < deadline, "the search goes on: {load}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}
