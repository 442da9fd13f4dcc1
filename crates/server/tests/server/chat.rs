//! Chat in games between people (`round/chat.rs`): the players' room, the spectators' room,
//! and the limits on what the network may send (length, characters, rate, games without chat).

use crate::common;

use common::{app, App, Reply, Ws};
use serde_json::{json, Value};

async fn say(a: &App, key: &str, body: Value, seat: Option<&str>) -> Reply {
    a.act(key, "chat", body, seat).await
}

/// The game's WebSocket in protocol 2, as the holder of `seat` (none: a spectator).
async fn ws2(a: &App, key: &str, seat: Option<&str>) -> Ws {
    let seat = seat.map_or(String::new(), |t| format!("&seat={t}"));
    let mut ws = a
        .ws_url(&format!("/api/games/{key}/ws?protocol=2{seat}"))
        .await;
    assert_eq!(ws.next().await["type"], "state");
    ws
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_two_players_chat_and_spectators_have_a_room_of_their_own() {
    let a = app().await;
    let (key, ann, bob) = a.two_players().await;
    let mut bob_ws = ws2(&a, &key, Some(&bob)).await;
    let mut ann_ws = ws2(&a, &key, Some(&ann)).await;
    let mut watcher = ws2(&a, &key, None).await;

    // HTML arrives as text, trimmed.
    let r = say(&a, &key, json!({"text": "  <b>hi</b>  "}), Some(&ann)).await;
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(r.json["from"], "white");
    assert_eq!(r.json["text"], "<b>hi</b>");
    let (line, _) = bob_ws.until("chat").await;
    assert_eq!(
        (&line["room"], &line["from"], &line["text"]),
        (&json!("players"), &json!("white"), &json!("<b>hi</b>"))
    );
    assert!(line["at_ms"].as_i64().unwrap() > 0);
    let (line, _) = ann_ws.until("chat").await;
    assert_eq!(line["text"], "<b>hi</b>");
    let r = say(
        &a,
        &key,
        json!({"text": "hello Ann", "room": "players"}),
        Some(&bob),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.text);
    let (line, _) = ann_ws.until("chat").await;
    assert_eq!(
        (&line["from"], &line["text"]),
        (&json!("black"), &json!("hello Ann"))
    );

    // A spectator cannot write in the players' room, and does not read it.
    let r = say(&a, &key, json!({"text": "psst"}), None).await;
    assert_eq!(r.status, 403, "{}", r.text);
    assert!(r.error().contains("only the players"), "{}", r.text);
    // The spectators' room: anyone watching writes under a name, everyone reads it.
    let r = say(
        &a,
        &key,
        json!({"room": "spectators", "text": "nice opening", "name": "Zoe"}),
        None,
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(
        (&r.json["from"], &r.json["guest"]),
        (&json!("Zoe"), &json!(true))
    );
    let (line, _) = watcher.until("chat").await;
    assert_eq!(
        (&line["room"], &line["from"], &line["text"]),
        (&json!("spectators"), &json!("Zoe"), &json!("nice opening"))
    );
    let (line, _) = bob_ws.until("chat").await;
    assert_eq!(line["room"], "players");
    let (line, _) = bob_ws.until("chat").await;
    assert_eq!(line["room"], "spectators");
    // A player writes in the players' room only.
    let r = say(
        &a,
        &key,
        json!({"room": "spectators", "text": "hi"}),
        Some(&bob),
    )
    .await;
    assert_eq!(r.status, 403, "{}", r.text);

    // A page that reloads reads the lines kept: the players' room for a player only.
    let log = a.get_as(&format!("/api/games/{key}/chat"), &bob).await;
    assert_eq!(log.status, 200, "{}", log.text);
    let texts = |v: &Value| -> Vec<String> {
        v.as_array()
            .unwrap()
            .iter()
            .map(|l| l["text"].as_str().unwrap().to_string())
            .collect()
    };
    assert_eq!(texts(&log.json["players"]), ["<b>hi</b>", "hello Ann"]);
    assert_eq!(texts(&log.json["spectators"]), ["nice opening"]);
    let log = a.get(&format!("/api/games/{key}/chat")).await;
    assert_eq!(log.status, 200, "{}", log.text);
    assert_eq!(log.json["players"], Value::Null);
    assert_eq!(texts(&log.json["spectators"]), ["nice opening"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn what_the_network_sends_is_bounded() {
    let a = app().await;
    let (key, ann, bob) = a.two_players().await;
    // 140 characters (not bytes) pass, 141 do not.
    let ok = say(&a, &key, json!({"text": "é".repeat(140)}), Some(&ann)).await;
    assert_eq!(ok.status, 200, "{}", ok.text);
    let long = say(&a, &key, json!({"text": "é".repeat(141)}), Some(&ann)).await;
    assert_eq!(long.status, 400, "{}", long.text);
    assert!(long.error().contains("at most 140"), "{}", long.text);
    for bad in ["a\nb", "bell\u{7}", "a\u{202e}b", "   "] {
        let r = say(&a, &key, json!({"text": bad}), Some(&bob)).await;
        assert_eq!(r.status, 400, "{bad:?}: {}", r.text);
    }
    let r = say(&a, &key, json!({"text": "hi", "colour": "red"}), Some(&bob)).await;
    assert_eq!(r.status, 400, "{}", r.text);
    // A body far over a line's size is refused whole.
    let big = json!({"text": "x".repeat(10_000)}).to_string().into_bytes();
    let r = a
        .post_as(&format!("/api/games/{key}/chat"), big, Some(&bob))
        .await;
    assert_eq!(r.status, 413, "{}", r.text);

    // At most five lines per seat in ten seconds: the sixth is 429, the other seat may go on.
    for i in 1..5 {
        let r = say(&a, &key, json!({"text": format!("line {i}")}), Some(&ann)).await;
        assert_eq!(r.status, 200, "{i}: {}", r.text);
    }
    let r = say(&a, &key, json!({"text": "one too many"}), Some(&ann)).await;
    assert_eq!(r.status, 429, "{}", r.text);
    assert!(
        r.error().contains("at most 5 every 10 seconds"),
        "{}",
        r.text
    );
    let r = say(&a, &key, json!({"text": "my turn"}), Some(&bob)).await;
    assert_eq!(r.status, 200, "{}", r.text);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_chat_against_the_engine_or_at_one_device() {
    let a = app().await;
    let engine = a
        .new_game(json!({"start": {"id": 518}, "color": "white", "opponent": "engine"}))
        .await;
    let key = engine["key"].as_str().unwrap();
    let token = engine["seat_token"].as_str().unwrap();
    for room in ["players", "spectators"] {
        let r = say(&a, key, json!({"room": room, "text": "hi"}), Some(token)).await;
        assert_eq!(r.status, 409, "{}", r.text);
        assert!(r.error().contains("no chat in this game"), "{}", r.text);
    }
    let r = say(&a, key, json!({"room": "spectators", "text": "hi"}), None).await;
    assert_eq!(r.status, 409, "{}", r.text);
    assert_eq!(a.get(&format!("/api/games/{key}/chat")).await.status, 409);

    let hotseat = a
        .new_game(json!({"start": {"id": 518}, "opponent": "hotseat", "name": "Ann"}))
        .await;
    let key = hotseat["key"].as_str().unwrap();
    let token = hotseat["seat_token"].as_str().unwrap();
    let r = say(&a, key, json!({"text": "hi"}), Some(token)).await;
    assert_eq!(r.status, 409, "{}", r.text);
    assert!(r.error().contains("no chat in this game"), "{}", r.text);
}
