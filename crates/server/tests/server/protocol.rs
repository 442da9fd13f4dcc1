//! Protocol 2 of a game (docs/api.md, "Protocol 2"): a move reaches the sockets as a small
//! `move` event from which a client rebuilds exactly the view the server holds; the legal moves
//! go only to the player to move; a player's premove only to that player; an action asked for
//! with `X-Game-Protocol: 2` is answered with its version; a clear that names an earlier
//! premove does not undo a later one; protocol 1's clients keep getting whole views.

use crate::common;

use common::{app, Reply, Ws};
use serde_json::{json, Value};

/// The protocol 2 WebSocket of `key`, as the holder of `seat` (none: a spectator).
async fn ws2(a: &common::App, key: &str, seat: Option<&str>) -> Ws {
    let seat = seat.map_or(String::new(), |s| format!("&seat={s}"));
    a.ws_url(&format!("/api/games/{key}/ws?protocol=2{seat}"))
        .await
}

/// The view as protocol 2 shows it to the holder of `seat`.
async fn view2(a: &common::App, key: &str, seat: &str) -> Reply {
    common::reply(
        a.client
            .get(format!("{}/api/games/{key}", a.base))
            .header("x-seat-token", seat)
            .header("x-game-protocol", "2")
            .send()
            .await
            .expect("GET"),
    )
    .await
}

fn version_of(r: &Reply) -> u64 {
    r.headers["x-game-version"]
        .to_str()
        .unwrap()
        .parse()
        .unwrap()
}

/// A client's copy of the game, kept up to date from protocol 2's events as docs/api.md says
/// a client does.
struct Copy {
    view: Value,
    version: u64,
}

impl Copy {
    /// Starts from the first message of a socket (a `state`).
    fn from_first(m: &Value) -> Copy {
        assert_eq!(m["type"], "state", "{m}");
        Copy {
            view: m["game"].clone(),
            version: m["version"].as_u64().unwrap(),
        }
    }

    /// Takes one event; returns whether it changed the copy.
    fn apply(&mut self, m: &Value) -> bool {
        let version = m["version"].as_u64().unwrap_or(0);
        match m["type"].as_str().unwrap() {
            "state" if version >= self.version => {
                self.view = m["game"].clone();
                self.version = version;
                true
            }
            "move" if version > self.version => {
                let ply = m["ply"].as_u64().unwrap() as usize;
                let moves = self.view["moves"].as_array_mut().unwrap();
                assert_eq!(moves.len() + 1, ply, "a move event follows its predecessor");
                moves.push(m["move"].clone());
                for (k, v) in m["now"].as_object().unwrap() {
                    self.view[k] = v.clone();
                }
                self.version = version;
                true
            }
            "premove" => {
                self.view["premove"] = m["premove"].clone();
                true
            }
            _ => false,
        }
    }

    /// Reads `ws` until the copy shows `plies` moves.
    async fn until_ply(&mut self, ws: &mut Ws, plies: usize) -> Vec<Value> {
        let mut seen = Vec::new();
        while self.view["moves"].as_array().unwrap().len() < plies {
            let m = ws.next().await;
            self.apply(&m);
            seen.push(m);
        }
        seen
    }
}

/// The view without what one client may not see: the legal moves (only the player to move
/// gets them) and the clocks' milliseconds, which run on between two reads.
fn comparable(v: &Value, keep_legal: bool) -> Value {
    let mut v = v.clone();
    if !keep_legal {
        v["legal"] = json!(null);
    }
    v["clocks"] = json!(null);
    v["abandon_ms"] = json!(null);
    v["away"] = json!(null);
    v
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_rebuilds_the_servers_view_from_move_events() {
    let a = app().await;
    let (key, ann, bob) = a.two_players().await;
    let mut ann_ws = ws2(&a, &key, Some(&ann)).await;
    let mut bob_ws = ws2(&a, &key, Some(&bob)).await;
    let mut watch = ws2(&a, &key, None).await;
    let mut watch_v1 = a.ws_watch(&key).await;
    let mut ann_copy = Copy::from_first(&ann_ws.next().await);
    let mut bob_copy = Copy::from_first(&bob_ws.next().await);
    let mut watch_copy = Copy::from_first(&watch.next().await);
    assert_eq!(watch_v1.next().await["type"], "state");

    // The fool's mate in the classical start: the last move ends the game.
    let line = ["f2f3", "e7e5", "g2g4", "d8h4"];
    for (ply, mv) in line.iter().enumerate() {
        let (seat, mover_ws, mover_copy, other_ws, other_copy) = if ply % 2 == 0 {
            (&ann, &mut ann_ws, &mut ann_copy, &mut bob_ws, &mut bob_copy)
        } else {
            (&bob, &mut bob_ws, &mut bob_copy, &mut ann_ws, &mut ann_copy)
        };
        let r = a
            .act2(&key, "moves", json!({"move": mv, "ply": ply}), seat)
            .await;
        assert_eq!(r.status, 200, "{}", r.text);
        // The answer is an acknowledgement: the version, no view.
        assert!(r.json.get("moves").is_none(), "{}", r.text);
        let acked = r.json["version"].as_u64().unwrap();
        assert_eq!(acked, version_of(&r));

        let to_other = other_copy.until_ply(other_ws, ply + 1).await;
        let to_mover = mover_copy.until_ply(mover_ws, ply + 1).await;
        let to_watch = watch_copy.until_ply(&mut watch, ply + 1).await;
        let (_, before) = watch_v1
            .until_state(|g| g["moves"].as_array().unwrap().len() == ply + 1)
            .await;
        // Protocol 1 gets the whole state for each move; a state before it can only be an
        // earlier view (a player's socket connecting changes the view too).
        assert!(
            before.iter().all(
                |m| m["type"] != "state" || m["game"]["moves"].as_array().unwrap().len() <= ply
            ),
            "protocol 1 gets a state per move: {before:?}"
        );
        for seen in [&to_other, &to_mover, &to_watch] {
            // (A state may come before it: a player's socket connecting changes the view.)
            assert!(
                seen.iter()
                    .all(|m| m["type"] != "state"
                        || m["game"]["moves"].as_array().unwrap().len() <= ply),
                "a move comes as a move event, not a whole state: {seen:?}"
            );
            assert_eq!(seen.last().unwrap()["type"], "move");
            assert_eq!(seen.last().unwrap()["version"].as_u64(), Some(acked));
        }
        let last = ply + 1 == line.len();
        // Only the player to move gets the legal moves.
        let legal = |seen: &[Value]| {
            seen.last().unwrap()["now"]["legal"]
                .as_array()
                .unwrap()
                .len()
        };
        assert_eq!(legal(&to_other) > 0, !last, "{to_other:?}");
        assert_eq!(legal(&to_mover), 0);
        assert_eq!(legal(&to_watch), 0);
        let event = to_watch.last().unwrap().to_string();
        assert!(event.len() < 1200, "{event}");

        // Each copy is the server's view (as far as its client may see).
        let server = a.get(&format!("/api/games/{key}")).await.json;
        assert_eq!(
            comparable(&other_copy.view, true),
            comparable(&server, true)
        );
        assert_eq!(
            comparable(&mover_copy.view, false),
            comparable(&server, false)
        );
        assert_eq!(
            comparable(&watch_copy.view, false),
            comparable(&server, false)
        );
    }
    assert_eq!(watch_copy.view["status"], "finished");
    assert_eq!(watch_copy.view["result"], "0-1");
    assert_eq!(watch_copy.view["reason"], "checkmate");

    // A client that lost its place asks for the whole state.
    watch.send(json!({"type": "state"})).await;
    let (state, _) = watch.until("state").await;
    assert_eq!(state["game"]["moves"].as_array().unwrap().len(), 4);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_premove_goes_to_its_player_only_and_a_stale_clear_leaves_a_newer_one() {
    let a = app().await;
    let (key, ann, bob) = a.two_players().await;
    let mut ann_ws = ws2(&a, &key, Some(&ann)).await;
    let mut bob_ws = ws2(&a, &key, Some(&bob)).await;
    let mut watch = ws2(&a, &key, None).await;
    for ws in [&mut ann_ws, &mut bob_ws, &mut watch] {
        assert_eq!(ws.next().await["type"], "state");
    }

    // Bob queues e7e5, then replaces it with d7d5: the clear the page sends for e7e5 after
    // that (chessground tells of the old premove's end later) names e7e5 and changes nothing.
    for (body, shown) in [
        (json!({"move": "e7e5"}), json!("e7e5")),
        (json!({"move": "d7d5"}), json!("d7d5")),
        (json!({"move": null, "clears": "e7e5"}), json!("d7d5")),
    ] {
        let r = a.act2(&key, "premove", body, &bob).await;
        assert_eq!(r.status, 200, "{}", r.text);
        assert_eq!(r.json["premove"], shown, "{}", r.text);
    }
    let v = view2(&a, &key, &bob).await;
    assert_eq!(v.json["premove"], "d7d5", "{}", v.text);
    assert_eq!(v.headers["x-seat-color"], "black");
    // Nobody else sees it.
    let v = a.get(&format!("/api/games/{key}")).await;
    assert_eq!(v.json["premove"], json!(null), "{}", v.text);
    let v = view2(&a, &key, &ann).await;
    assert_eq!(v.json["premove"], json!(null), "{}", v.text);

    // Ann's move: Bob's premove is played at once.
    let r = a
        .act2(&key, "moves", json!({"move": "e2e4", "ply": 0}), &ann)
        .await;
    assert_eq!(r.status, 200, "{}", r.text);
    let mut bob_seen = Vec::new();
    loop {
        let m = bob_ws.next().await;
        let done = m["type"] == "move" && m["ply"] == 2;
        bob_seen.push(m);
        if done {
            break;
        }
    }
    let premoves: Vec<&Value> = bob_seen.iter().filter(|m| m["type"] == "premove").collect();
    assert_eq!(
        premoves
            .iter()
            .map(|m| m["premove"].clone())
            .collect::<Vec<_>>(),
        vec![json!("e7e5"), json!("d7d5"), json!(null)],
        "Bob is told of each premove, and that it was played: {bob_seen:?}"
    );
    assert_eq!(bob_seen.last().unwrap()["move"]["uci"], "d7d5");
    for ws in [&mut ann_ws, &mut watch] {
        let mut seen = Vec::new();
        loop {
            let m = ws.next().await;
            let done = m["type"] == "move" && m["ply"] == 2;
            seen.push(m);
            if done {
                break;
            }
        }
        assert!(
            seen.iter().all(|m| m["type"] != "premove"
                && m["game"]["premove"].is_null()
                && m["now"]["premove"].is_null()),
            "the others hear nothing of the premove: {seen:?}"
        );
    }

    // A clear without a name clears whatever is queued, as protocol 1 always did.
    let r = a.act2(&key, "premove", json!({"move": "g8f6"}), &bob).await;
    assert_eq!(r.json["premove"], "g8f6", "{}", r.text);
    let r = a.act2(&key, "premove", json!({"move": null}), &bob).await;
    assert_eq!(r.json["premove"], json!(null), "{}", r.text);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_unknown_protocol_is_refused() {
    let a = app().await;
    let (key, _, _) = a.two_players().await;
    let r = a.get(&format!("/api/games/{key}/ws?protocol=3")).await;
    assert_eq!(r.status, 400, "{}", r.text);
    assert!(r.error().contains("protocol 3"), "{}", r.text);
}
