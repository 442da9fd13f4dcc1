//! The game flow as on lichess: no clock runs before both sides have moved, a game may be
//! aborted until then (by its player, or by itself when the player never moves), aborted
//! games are no results, games can be deleted, and a declined draw offer says why.

use crate::common;

use chess960_server::Capacity;
use chess960_store::{Finish, GameStore, NewGame};
use common::{app, app_on_with, app_with, seat_of, App, Reply};
use serde_json::{json, Value};
use std::time::Duration;

fn key(g: &Value) -> String {
    g["key"].as_str().unwrap().to_string()
}

fn clocks(g: &Value) -> (u64, u64) {
    (
        g["clocks"]["white_ms"].as_u64().unwrap(),
        g["clocks"]["black_ms"].as_u64().unwrap(),
    )
}

async fn delete(a: &App, key: &str, seat: Option<&str>) -> Reply {
    let mut req = a.client.delete(format!("{}/api/games/{key}", a.base));
    if let Some(t) = seat {
        req = req.header("x-seat-token", t);
    }
    let r = req.send().await.expect("DELETE");
    let status = r.status().as_u16();
    let text = r.text().await.unwrap();
    Reply {
        status,
        json: serde_json::from_str(&text).unwrap_or(Value::Null),
        text,
        headers: Default::default(),
    }
}

/// A game written straight to the store, as the terminal or an import writes one: no seat.
fn seatless_game(store: &dyn GameStore) -> chess960_store::GameKey {
    store
        .create_game(&NewGame {
            start_fen: chess960_core::StartId::new(5).unwrap().position().fen(),
            start_id: Some(5),
            white: "A".into(),
            black: "B".into(),
            time_control: None,
            clocks: None,
            tags: vec![],
        })
        .unwrap()
        .1
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_clock_runs_before_both_sides_have_moved() {
    let a = app().await;
    // The human has White: nothing runs at the start, nor after White's first move.
    let g = a
        .new_game(json!({"start": {"id": 518}, "level": {"depth": 1},
                         "time_control": {"initial_ms": 60000, "increment_ms": 2000}}))
        .await;
    assert_eq!(g["clocks"]["running"], Value::Null, "{g}");
    assert_eq!(g["abortable"], true);
    tokio::time::sleep(Duration::from_millis(300)).await;
    let seen = a.get(&format!("/api/games/{}", key(&g))).await.json;
    assert_eq!(
        clocks(&seen),
        (60000, 60000),
        "the clock ran before any move"
    );
    let after = a.play(&g, "e2e4").await;
    // White's first move costs nothing and earns no increment.
    assert_eq!(clocks(&after), (60000, 60000));
    assert_eq!(after["moves"][0]["clocks"]["white_ms"], 60000);
    // Black's (the engine's) first move starts White's clock.
    let turn = a.wait_turn(&key(&g)).await;
    assert_eq!(turn["moves"].as_array().unwrap().len(), 2);
    assert_eq!(turn["moves"][1]["clocks"]["black_ms"], 60000);
    assert_eq!(turn["clocks"]["running"], "white");
    assert_eq!(turn["abortable"], false);

    // The human has Black: the engine's first move starts no clock either.
    let g = a
        .new_game(
            json!({"start": {"id": 518}, "color": "black", "level": {"depth": 1},
                         "time_control": {"initial_ms": 60000}}),
        )
        .await;
    let turn = a.wait_turn(&key(&g)).await;
    assert_eq!(turn["moves"].as_array().unwrap().len(), 1);
    assert_eq!(turn["clocks"]["running"], Value::Null);
    tokio::time::sleep(Duration::from_millis(200)).await;
    let seen = a.get(&format!("/api/games/{}", key(&g))).await.json;
    assert_eq!(clocks(&seen), (60000, 60000));
    let after = a.play(&turn, "e7e5").await;
    assert_eq!(after["clocks"]["running"], "white");

    // A game created from a PGN: the clocks wait for two moves played here.
    let g = a
        .new_game(
            json!({"start": {"pgn": common::pgn_from(518, "1. e4 e5 2. Nf3")},
                         "color": "black", "level": {"depth": 1},
                         "time_control": {"initial_ms": 60000}}),
        )
        .await;
    assert_eq!(g["clocks"]["running"], Value::Null);
    assert_eq!(g["abortable"], true);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_is_aborted_before_both_sides_move_and_leaves_the_list() {
    let a = app().await;
    let g = a
        .new_game(json!({"start": {"id": 100}, "time_control": {"initial_ms": 60000}}))
        .await;
    let k = key(&g);
    let r = a
        .post_as(&format!("/api/games/{k}/abort"), b"{}".to_vec(), None)
        .await;
    assert_eq!(r.status, 403, "{}", r.text);
    let r = a.post(&format!("/api/games/{k}/abort"), json!({})).await;
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(r.json["status"], "finished");
    assert_eq!(
        (&r.json["result"], &r.json["reason"]),
        (&json!("*"), &json!("aborted"))
    );
    assert_eq!(r.json["abortable"], false);
    let r = a
        .post(
            &format!("/api/games/{k}/moves"),
            json!({"move": "e2e4", "ply": 0}),
        )
        .await;
    assert_eq!(r.status, 409, "{}", r.text);
    assert!(r.error().contains("aborted"), "{}", r.text);

    // A game where both sides have moved cannot be aborted.
    let played = a
        .new_game(json!({"start": {"id": 518}, "level": {"depth": 1}}))
        .await;
    a.play(&played, "e2e4").await;
    a.wait_turn(&key(&played)).await;
    let r = a
        .post(&format!("/api/games/{}/abort", key(&played)), json!({}))
        .await;
    assert_eq!(r.status, 409, "{}", r.text);
    assert!(r.error().contains("no longer be aborted"), "{}", r.text);

    // The default list leaves the aborted game out; a filter shows it.
    let keys = |r: &Reply| -> Vec<String> {
        r.json["games"]
            .as_array()
            .unwrap()
            .iter()
            .map(|g| g["key"].as_str().unwrap().to_string())
            .collect()
    };
    let list = a.get("/api/games").await;
    assert_eq!(keys(&list), vec![key(&played)]);
    assert_eq!(list.json["total"], 1);
    assert!(list.json["games"][0]["created_ms"].as_i64().unwrap() > 1_600_000_000_000);
    let only = a.get("/api/games?aborted=only").await;
    assert_eq!(keys(&only), vec![k.clone()]);
    assert_eq!(only.json["games"][0]["reason"], "aborted");
    assert_eq!(a.get("/api/games?aborted=include").await.json["total"], 2);
    let bad = a.get("/api/games?aborted=maybe").await;
    assert_eq!(bad.status, 400);
    assert!(bad.error().contains("aborted"));

    // Stored as aborted: no result, so no statistics count it.
    let store = common::store_at(&a.db);
    let stored = store
        .game_by_key(&chess960_store::GameKey::parse(&k).unwrap())
        .unwrap()
        .unwrap();
    assert_eq!(stored.finish, Some(Finish::aborted()));
    assert!(store
        .position_counts(&Default::default())
        .unwrap()
        .is_empty());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_whose_player_never_moves_is_aborted_by_itself() {
    let a = app_with(Capacity {
        abandon_after: Duration::from_millis(400),
        unload_after: Duration::from_millis(50),
        ..Capacity::default()
    })
    .await;
    let white = a.new_game(json!({"start": {"id": 7}})).await;
    assert!(white["abandon_ms"].as_u64().unwrap() <= 400);
    // The engine moves first here: the player's time counts from its move.
    let black = a
        .new_game(json!({"start": {"id": 8}, "color": "black", "level": {"depth": 1}}))
        .await;
    // Played: never aborted.
    let played = a
        .new_game(json!({"start": {"id": 9}, "level": {"depth": 1}}))
        .await;
    a.play(&played, "e2e4").await;
    for g in [&white, &black] {
        let end = a.wait_for(&key(g), |v| v["status"] == "finished").await;
        assert_eq!(end["reason"], "aborted", "{end}");
        assert_eq!(end["result"], "*");
    }
    assert_eq!(
        a.get("/api/games?aborted=only").await.json["total"],
        2,
        "both abandoned games are stored as aborted"
    );
    let p = a.wait_turn(&key(&played)).await;
    assert_eq!(p["status"], "playing");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_unloader_keeps_a_game_waiting_for_its_first_move_until_it_is_aborted() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("g.sqlite3");
    let a = app_on_with(
        &db,
        Capacity {
            abandon_after: Duration::from_millis(600),
            unload_after: Duration::from_secs(3600),
            ..Capacity::default()
        },
    )
    .await;
    let g = a.new_game(json!({"start": {"id": 300}})).await;
    let state = a.server.as_ref().unwrap().state();
    assert_eq!(
        state.unload_idle(Duration::ZERO),
        0,
        "unloaded while waiting"
    );
    a.wait_for(&key(&g), |v| v["reason"] == "aborted").await;
    let store = common::store_at(&db);
    let stored = store
        .game_by_key(&chess960_store::GameKey::parse(&key(&g)).unwrap())
        .unwrap()
        .unwrap();
    assert_eq!(stored.finish, Some(Finish::aborted()));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stored_game_left_unplayed_is_aborted_once_loaded() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("g.sqlite3");
    let k = {
        let a = app_on_with(
            &db,
            Capacity {
                abandon_after: Duration::from_secs(3600),
                ..Capacity::default()
            },
        )
        .await;
        key(&a
            .new_game(json!({"start": {"id": 301}, "time_control": {"initial_ms": 60000}}))
            .await)
    };
    // A restart with a short deadline: the paused game is aborted although nobody comes.
    let b = app_on_with(
        &db,
        Capacity {
            abandon_after: Duration::from_millis(300),
            ..Capacity::default()
        },
    )
    .await;
    let first = b.get(&format!("/api/games/{k}")).await.json;
    assert_eq!(first["paused"], true);
    let end = b.wait_for(&k, |v| v["status"] == "finished").await;
    assert_eq!(end["reason"], "aborted");
    // Over, it is no longer paused.
    assert_eq!(end["paused"], false, "{end}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn games_are_deleted_by_their_seat_or_without_one() {
    let a = app().await;
    let g = a.new_game(json!({"start": {"id": 42}})).await;
    let k = key(&g);
    let r = delete(&a, &k, None).await;
    assert_eq!(r.status, 403, "{}", r.text);
    let r = delete(&a, &k, Some("0123456789abcdef0123456789abcdef")).await;
    assert_eq!(r.status, 403, "{}", r.text);
    let r = delete(&a, &k, seat_of(&k).as_deref()).await;
    assert_eq!(r.status, 204, "{}", r.text);
    assert_eq!(a.get(&format!("/api/games/{k}")).await.status, 404);
    assert_eq!(delete(&a, &k, seat_of(&k).as_deref()).await.status, 404);
    assert_eq!(a.get("/api/games?aborted=include").await.json["total"], 0);
    assert_eq!(delete(&a, "not-a-key", None).await.status, 404);

    // A game without a seat (imported, or played on the terminal): the server's access is
    // enough.
    let store = common::store_at(&a.db);
    let key2 = seatless_game(&*store);
    let r = delete(&a, key2.as_str(), None).await;
    assert_eq!(r.status, 204, "{}", r.text);
    assert!(store.game_by_key(&key2).unwrap().is_none());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_between_people_is_not_one_players_to_delete() {
    // Issue 37: either seat's token deleted a game at any time: the mated player the game
    // he lost, the opponent a game mid-game, an event's player his board's game.
    let a = app().await;
    let exists = |k: String| {
        let a = &a;
        async move { a.get(&format!("/api/games/{k}")).await.status == 200 }
    };
    // A challenge nobody has joined is its creator's to withdraw and delete.
    let open = a
        .new_game(json!({"start": {"id": 518}, "opponent": "human", "name": "Ann"}))
        .await;
    let (k, ann) = (key(&open), open["seat_token"].as_str().unwrap().to_string());
    assert_eq!(delete(&a, &k, Some(&ann)).await.status, 204);
    assert!(!exists(k).await);

    // Once joined, neither player may: not mid-game, not after it ended.
    let (k, ann, bob) = a.two_players().await;
    for (uci, ply, token) in [("e2e4", 0, &ann), ("e7e5", 1, &bob)] {
        let r = a
            .act(&k, "moves", json!({"move": uci, "ply": ply}), Some(token))
            .await;
        assert_eq!(r.status, 200, "{}", r.text);
    }
    for token in [&ann, &bob] {
        let r = delete(&a, &k, Some(token)).await;
        assert_eq!(r.status, 403, "{}", r.text);
        assert!(
            r.json["error"]
                .as_str()
                .unwrap()
                .contains("chess960 db delete"),
            "{}",
            r.text
        );
    }
    let r = a.act(&k, "resign", json!({}), Some(&bob)).await;
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(delete(&a, &k, Some(&bob)).await.status, 403, "the loser");
    assert_eq!(delete(&a, &k, Some(&ann)).await.status, 403, "the winner");
    assert!(exists(k).await);

    // Two people at one device hold one token: theirs to delete.
    let hot = a
        .new_game(json!({"start": {"id": 518}, "opponent": "hotseat", "name": "Ann"}))
        .await;
    let (k, token) = (key(&hot), hot["seat_token"].as_str().unwrap().to_string());
    assert_eq!(delete(&a, &k, Some(&token)).await.status, 204);

    // An event's game: neither player may delete it, and its result still comes in.
    let (ev, arbiter) = a
        .new_event(json!({"name": "Keep Open", "format": "swiss", "rounds": 1}))
        .await;
    for n in ["Ann", "Ben"] {
        let r = a
            .arbiter(&ev, "/players", json!({ "name": n }), &arbiter)
            .await;
        assert_eq!(r.status, 200, "{}", r.text);
    }
    let die = json!({"method": "die", "outcomes": "1,1,1,1,1"});
    let r = a.arbiter(&ev, "/rounds/1/draw", die, &arbiter).await;
    assert_eq!(r.status, 200, "{}", r.text);
    let r = a.arbiter(&ev, "/rounds/1/pair", json!({}), &arbiter).await;
    assert_eq!(r.status, 200, "{}", r.text);
    let r = a.arbiter(&ev, "/rounds/1/games", json!({}), &arbiter).await;
    assert_eq!(r.status, 200, "{}", r.text);
    let game = &r.json["games"][0];
    let k = game["key"].as_str().unwrap().to_string();
    let seat = |link: &str| {
        link.split("#seat=")
            .nth(1)
            .unwrap()
            .split('&')
            .next()
            .unwrap()
            .to_string()
    };
    let (white, black) = (
        seat(game["white_link"].as_str().unwrap()),
        seat(game["black_link"].as_str().unwrap()),
    );
    for token in [&white, &black] {
        assert_eq!(delete(&a, &k, Some(token)).await.status, 403);
    }
    let r = a.act(&k, "resign", json!({}), Some(&black)).await;
    assert_eq!(r.status, 200, "{}", r.text);
    let deadline = std::time::Instant::now() + Duration::from_secs(30);
    loop {
        let e = a.get(&format!("/api/events/{ev}")).await;
        if e.json["round_list"][0]["boards"][0]["result"] == "1-0" {
            break;
        }
        assert!(std::time::Instant::now() < deadline, "{}", e.text);
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_declined_draw_offer_says_why() {
    let a = app().await;
    let g = a.new_game(json!({"start": {"id": 518}})).await;
    let r = a
        .post(
            &format!("/api/games/{}/draw", key(&g)),
            json!({"action": "offer"}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(r.json["draw_offer"], "declined");
    assert_eq!(r.json["draw_offer_reason"], "no draw before move 31");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_view_names_the_rooks_that_may_still_castle() {
    let a = app().await;
    // Start 0 is BBQNNRKR: rooks on f and h.
    let g = a
        .new_game(json!({"start": {"id": 0}, "level": {"depth": 1}}))
        .await;
    assert_eq!(
        g["castling"],
        json!({"white": ["f1", "h1"], "black": ["f8", "h8"]})
    );
    // A FEN with only some rights left, the a-side in X-FEN's letter form.
    let g = a
        .new_game(json!({"start": {"fen": "1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w Gb - 0 1"}}))
        .await;
    assert_eq!(g["castling"], json!({"white": ["g1"], "black": ["b8"]}));
    // After the king moves, its side has none (each move's view too).
    let after = a.play(&g, "e1f1").await;
    assert_eq!(after["castling"]["white"], json!([]));
    assert_eq!(after["moves"][0]["castling"]["white"], json!([]));
    assert_eq!(after["moves"][0]["castling"]["black"], json!(["b8"]));
    assert_eq!(
        after["start_castling"],
        json!({"white": ["g1"], "black": ["b8"]})
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn games_a_previous_run_left_unplayed_are_aborted_at_start() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("g.sqlite3");
    let long = Capacity {
        abandon_after: Duration::from_secs(3600),
        ..Capacity::default()
    };
    let (unplayed, played) = {
        let mut a = app_on_with(&db, long).await;
        let unplayed = key(&a.new_game(json!({"start": {"id": 302}})).await);
        let g = a
            .new_game(json!({"start": {"id": 303}, "level": {"depth": 1}}))
            .await;
        a.play(&g, "e2e4").await;
        a.wait_turn(&key(&g)).await;
        a.stop().await;
        (unplayed, key(&g))
    };
    // Terminal games have no seat: never touched.
    let store = common::store_at(&db);
    let terminal = seatless_game(&*store);
    let finish = |k: &str| {
        store
            .game_by_key(&chess960_store::GameKey::parse(k).unwrap())
            .unwrap()
            .unwrap()
            .finish
    };
    tokio::time::sleep(Duration::from_millis(50)).await;
    // Restarted with a short deadline: nobody asks for the game, it is aborted all the same.
    let _b = app_on_with(
        &db,
        Capacity {
            abandon_after: Duration::from_millis(20),
            ..Capacity::default()
        },
    )
    .await;
    let started = std::time::Instant::now();
    while finish(&unplayed).is_none() {
        assert!(started.elapsed() < common::WAIT, "never aborted");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert_eq!(finish(&unplayed), Some(Finish::aborted()));
    assert_eq!(finish(&played), None);
    assert_eq!(finish(terminal.as_str()), None);
}
