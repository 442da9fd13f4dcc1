//! Seat tokens: the key lets anyone watch a game; only the holder of the token that
//! `POST /api/games` answered with can act on it.

use crate::common;

use chess960_server::record::{engine_game, TimeControl};
use common::{app, app_on, seat_of, App};
use serde_json::{json, Value};

/// Every action on a game, with a body it accepts.
fn actions() -> Vec<(&'static str, Value)> {
    vec![
        ("moves", json!({"move": "e2e4", "ply": 0})),
        ("premove", json!({"move": "e7e5"})),
        ("takeback", json!({})),
        ("resign", json!({})),
        ("draw", json!({"action": "offer"})),
        ("draw", json!({"action": "claim"})),
        ("start", json!({})),
        ("analysis", json!({"depth": 2})),
    ]
}

async fn refused_without_the_seat(a: &App, key: &str, token: Option<&str>, what: &str) {
    for (action, body) in actions() {
        let path = format!("/api/games/{key}/{action}");
        let r = a.post_as(&path, body.to_string().into_bytes(), token).await;
        assert_eq!(r.status, 403, "{action} {body} with {token:?}: {}", r.text);
        assert!(r.error().contains(what), "{action}: {}", r.text);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_seat_token_is_given_once_and_needed_for_every_action() {
    let a = app().await;
    let created = a
        .post(
            "/api/games",
            json!({"start": {"id": 518}, "color": "white", "level": {"depth": 1}, "study_ms": 60000}),
        )
        .await;
    assert_eq!(created.status, 201, "{}", created.text);
    let key = created.json["key"].as_str().unwrap().to_string();
    let token = created.json["seat_token"].as_str().unwrap().to_string();
    assert_eq!(token.len(), 32);
    assert!(token.bytes().all(|b| b.is_ascii_hexdigit()));

    // Nothing that reads the game shows the token.
    for path in [
        format!("/api/games/{key}"),
        "/api/games".to_string(),
        format!("/api/games/{key}/pgn"),
    ] {
        let r = a.get(&path).await;
        assert_eq!(r.status, 200, "{path}: {}", r.text);
        assert!(!r.text.contains(&token), "{path} shows the seat token");
        assert!(!r.text.contains("seat_token"), "{path}: {}", r.text);
    }
    let mut ws = a.ws_watch(&key).await;
    let first = ws.next().await;
    assert_eq!(first["type"], "state");
    assert!(!first.to_string().contains(&token));

    // Without the token, or with another, every action is refused and nothing changes.
    refused_without_the_seat(&a, &key, None, "X-Seat-Token").await;
    refused_without_the_seat(
        &a,
        &key,
        Some("0123456789abcdef0123456789abcdef"),
        "not this game's",
    )
    .await;
    let other = a.new_game(json!({"start": {"id": 7}})).await;
    let other_token = seat_of(other["key"].as_str().unwrap()).unwrap();
    refused_without_the_seat(&a, &key, Some(&other_token), "not this game's").await;
    let view = a.get(&format!("/api/games/{key}")).await.json;
    assert_eq!(view["has_seat"], true);
    assert_eq!(view["status"], "study");
    assert_eq!(view["moves"], json!([]));
    assert_eq!(view["premove"], Value::Null);

    // With it, the game is played.
    let r = a
        .post_as(
            &format!("/api/games/{key}/moves"),
            json!({"move": "e2e4", "ply": 0}).to_string().into_bytes(),
            Some(&token),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(r.json["moves"][0]["uci"], "e2e4");
    assert!(r.json.get("seat_token").is_none());
    // The spectator saw it.
    let (seen, _) = ws
        .until_state(|g| !g["moves"].as_array().unwrap().is_empty())
        .await;
    assert_eq!(seen["moves"][0]["uci"], "e2e4");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_spectator_does_not_resume_a_paused_game_the_player_does() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("games.sqlite3");
    let mut a = app_on(&db).await;
    let g = a
        .new_game(json!({
            "start": {"id": 402}, "color": "white", "level": {"depth": 1},
            "time_control": {"initial_ms": 60000, "increment_ms": 0},
        }))
        .await;
    let key = g["key"].as_str().unwrap().to_string();
    let g = a.play(&g, g["legal"][0]["uci"].as_str().unwrap()).await;
    assert_eq!(g["moves"].as_array().unwrap().len(), 1);
    a.wait_turn(&key).await;
    a.stop().await;

    let b = app_on(&db).await;
    let mut watcher = b.ws_watch(&key).await;
    let seen = watcher.next().await;
    assert_eq!(seen["game"]["paused"], true, "{seen}");
    assert_eq!(seen["game"]["clocks"]["running"], Value::Null);
    let view = b.get(&format!("/api/games/{key}")).await.json;
    assert_eq!(view["paused"], true);

    let mut player = b.ws(&key).await;
    let first = player.next().await;
    assert_eq!(first["game"]["paused"], false);
    assert_eq!(first["game"]["clocks"]["running"], "white");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_without_a_seat_is_watched_not_played() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("games.sqlite3");
    // A game as `chess960 play` (or a server older than seat tokens) stores it.
    let (id, key) = {
        let store = common::store_at(&db);
        let start = chess960_core::StartId::new(518).unwrap();
        let meta = engine_game(
            &start.position(),
            Some(start),
            chess960_core::Color::White,
            "Terminal".into(),
            chess960_engine::player::Level::Depth(1),
            Some(TimeControl {
                initial_ms: 60_000,
                increment_ms: 0,
            }),
            "chess960 play",
        );
        store.create_game(&meta).unwrap()
    };
    let a = app_on(&db).await;
    let r = a.get(&format!("/api/games/{key}")).await;
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(r.json["has_seat"], false);
    assert_eq!(a.get(&format!("/api/games/{key}/pgn")).await.status, 200);
    let mut ws = a.ws_watch(key.as_str()).await;
    assert_eq!(ws.next().await["game"]["key"], key.as_str());
    let why = format!("chess960 play --resume {}", id.0);
    refused_without_the_seat(&a, key.as_str(), None, &why).await;
    refused_without_the_seat(
        &a,
        key.as_str(),
        Some("0123456789abcdef0123456789abcdef"),
        &why,
    )
    .await;
}
