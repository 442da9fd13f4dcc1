//! Hostile PGN in `POST /api/games`: variations nested 100,000 deep and 60,000 tags, each
//! well under the 1 MiB body limit. Before issue 13 the nesting overflowed a worker
//! thread's stack and aborted the whole server; the tags took seconds of quadratic work.
//! Now each is answered, and the server goes on answering.

use crate::common;

use common::app;
use serde_json::json;

/// `1. e4 (1. d4 (1. d4 ( … ) ) ) e5`, `depth` variations deep, closed or not.
fn nested(depth: usize, closed: bool) -> String {
    let close = if closed {
        ")".repeat(depth)
    } else {
        String::new()
    };
    format!("1. e4 {}{close} e5 *", "(1. d4 ".repeat(depth))
}

/// `POST /api/games` of a game against the engine at depth 1 from `pgn`.
async fn start_from(a: &common::App, pgn: String) -> common::Reply {
    a.post(
        "/api/games",
        json!({"start": {"pgn": pgn}, "level": {"depth": 1}}),
    )
    .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn deeply_nested_variations_are_answered_and_the_server_lives_on() {
    let a = app().await;
    let pgn = nested(100_000, true);
    assert!(pgn.len() < 1 << 20);
    let r = start_from(&a, pgn).await;
    assert_eq!(r.status, 201, "{}", r.text);
    let sans: Vec<&str> = r.json["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["san"].as_str().unwrap())
        .collect();
    assert_eq!(&sans[..2], ["e4", "e5"], "the main line, variations aside");
    let key = r.json["key"].as_str().unwrap().to_owned();

    // A nesting that is never closed is refused with its place.
    let r = a
        .post(
            "/api/games",
            json!({"start": {"pgn": nested(100_000, false)}}),
        )
        .await;
    assert_eq!(r.status, 422, "{}", r.text);
    assert!(
        r.error().contains("line 1, column 7") && r.error().contains("never closed"),
        "{}",
        r.text
    );

    // Still serving.
    let r = a.get("/api/positions/518").await;
    assert_eq!(r.status, 200);
    let r = a.get(&format!("/api/games/{key}")).await;
    assert_eq!(r.status, 200, "{}", r.text);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sixty_thousand_tags_are_read_and_the_server_lives_on() {
    let a = app().await;
    let tags: String = (0..60_000).map(|i| format!("[T{i} \"\"]\n")).collect();
    let pgn = format!("{tags}\n1. e4 e5 *");
    assert!(pgn.len() < 1 << 20);
    let r = start_from(&a, pgn).await;
    assert_eq!(r.status, 201, "{}", r.text);
    assert_eq!(r.json["moves"][1]["san"], "e5");
    let r = a.get("/api/positions/0").await;
    assert_eq!(r.status, 200);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn deeply_nested_json_is_refused_and_the_server_lives_on() {
    // serde_json stops at 128 levels with an error: the request is refused, not a crash.
    let a = app().await;
    let depth = 100_000;
    let body = format!(
        "{{\"start\": {}{}}}",
        "{\"x\": [".repeat(depth),
        "]}".repeat(depth)
    );
    let r = a.post_raw("/api/games", body.into_bytes()).await;
    assert!((400..500).contains(&r.status), "{} {}", r.status, r.text);
    let r = a.get("/api/positions/518").await;
    assert_eq!(r.status, 200);
}
