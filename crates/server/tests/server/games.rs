//! Games played through the API: against the engine over HTTP and WebSocket, castling in
//! the shapes Chess960 has, promotion, clocks, study time, takeback, premoves, draws,
//! analysis, and a server restart in the middle of a game.

use crate::common;

use common::{app, app_on, legal, pgn_from};
use serde_json::{json, Value};
use std::time::{Duration, Instant};

fn plies(g: &Value) -> usize {
    g["moves"].as_array().unwrap().len()
}

fn rank1(g: &Value) -> String {
    let placement = g["fen"].as_str().unwrap().split(' ').next().unwrap();
    placement.rsplit('/').next().unwrap().to_string()
}

/// A move for the human: a mate if there is one, else a capture, else a move that varies
/// with the ply, so that games end sooner than by shuffling.
fn choose(g: &Value, ply: usize) -> String {
    let legal = g["legal"].as_array().unwrap();
    let san = |m: &Value| m["san"].as_str().unwrap().to_string();
    if let Some(m) = legal.iter().find(|m| san(m).ends_with('#')) {
        return m["uci"].as_str().unwrap().into();
    }
    if let Some(m) = legal.iter().find(|m| san(m).contains('x')) {
        return m["uci"].as_str().unwrap().into();
    }
    legal[(ply * 7) % legal.len()]["uci"]
        .as_str()
        .unwrap()
        .into()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_against_the_engine_over_http_and_websocket() {
    let a = app().await;
    let g = a
        .new_game(json!({"start": {"id": 518}, "color": "white", "level": {"elo": chess960_engine::levels::ELO_MIN}}))
        .await;
    let key = g["key"].as_str().unwrap().to_string();
    let mut ws = a.ws(&key).await;
    let first = ws.next().await;
    assert_eq!(first["type"], "state");
    assert_eq!(first["game"]["key"], key.as_str());

    let mut game = first["game"].clone();
    let mut thinking = 0;
    let mut ply = 0;
    while game["status"] == "playing" && ply < 60 {
        let mv = choose(&game, ply);
        let after = a.play(&game, &mv).await;
        assert_eq!(plies(&after), plies(&game) + 1);
        assert_eq!(after["moves"][plies(&game)]["uci"], mv.as_str());
        assert!(after["legal"].as_array().unwrap().is_empty() || after["status"] == "finished");
        if after["status"] == "finished" {
            game = after;
            break;
        }
        assert_eq!(after["engine_thinking"], true);
        let n = plies(&after);
        let (next, seen) = ws
            .until_state(|g| g["status"] == "finished" || (g["turn"] == "white" && plies(g) > n))
            .await;
        for m in &seen {
            if m["type"] == "thinking" {
                thinking += 1;
                assert!(m["depth"].as_u64().unwrap() >= 1);
                assert!(m["score"].get("cp").is_some() || m["score"].get("mate").is_some());
                assert!(!m["pv_san"].as_array().unwrap().is_empty());
                assert!(m["nodes"].as_u64().is_some());
            }
        }
        game = next;
        ply += 2;
    }
    assert!(thinking > 0, "no thinking events");
    if game["status"] != "finished" {
        let r = a.post(&format!("/api/games/{key}/resign"), json!({})).await;
        assert_eq!(r.status, 200);
        let (end, _) = ws.until_state(|g| g["status"] == "finished").await;
        game = end;
    }
    assert!(["1-0", "0-1", "1/2-1/2"].contains(&game["result"].as_str().unwrap()));
    assert!(game["reason"].is_string());
    assert!(game["legal"].as_array().unwrap().is_empty());

    // Every move is in the store: the PGN has them all.
    let pgn = a.get(&format!("/api/games/{key}/pgn")).await.text;
    let last = game["moves"].as_array().unwrap().last().unwrap()["san"]
        .as_str()
        .unwrap();
    assert!(pgn.contains(last), "{last} not in\n{pgn}");
    let r = a.get("/api/games").await;
    assert_eq!(r.json["games"][0]["plies"], plies(&game));
    assert_eq!(r.json["games"][0]["result"], game["result"]);

    // The finished game can be analysed, at any ply.
    let r = a
        .post(
            &format!("/api/games/{key}/analysis"),
            json!({"depth": 4, "ply": 4}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(r.json["ply"], 4);
    assert!(r.json["depth"].as_u64().unwrap() >= 1);
    let pv = r.json["pv"].as_array().unwrap();
    assert!(!pv.is_empty());
    assert_eq!(pv.len(), r.json["pv_san"].as_array().unwrap().len());
    assert!(r.json["score"].get("cp").is_some() || r.json["score"].get("mate").is_some());
    let r = a
        .post(
            &format!("/api/games/{key}/analysis"),
            json!({"movetime_ms": 200}),
        )
        .await;
    assert_eq!(
        (r.status, r.json["ply"].as_u64()),
        (200, Some(plies(&game) as u64))
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn castling_king_beside_rook_already_on_its_square() {
    let a = app().await;
    // 249 NRKBBQNR: king c1, rook b1. With d1 cleared, O-O-O leaves the king on c1 and puts
    // the rook on d1.
    let pgn = pgn_from(249, "1. e4 e5 2. Bg4 a6");
    let g = a
        .new_game(json!({"start": {"pgn": pgn}, "level": {"depth": 1}}))
        .await;
    let c = &legal(&g, "c1b1")["castle"];
    assert_eq!(
        c,
        &json!({"side": "queen", "king_to": "c1", "rook_from": "b1", "rook_to": "d1",
                "king_destination_move": false, "looks_like_king_step": false})
    );
    assert_eq!(legal(&g, "c1b1")["san"], "O-O-O");
    let after = a.play(&g, "O-O-O").await;
    assert_eq!(after["moves"][4]["uci"], "c1b1");
    assert_eq!(after["moves"][4]["san"], "O-O-O");
    assert_eq!(rank1(&after), "N1KRBQNR");
    assert_eq!(after["last_move"], json!({"from": "c1", "to": "b1"}));

    // 0 BBQNNRKR: king g1 between its rooks; with f1 cleared, O-O moves only the h1 rook.
    let pgn = pgn_from(0, "1. f4 f5 2. Rf3 a6");
    let g = a
        .new_game(json!({"start": {"pgn": pgn}, "level": {"depth": 1}}))
        .await;
    let c = &legal(&g, "g1h1")["castle"];
    assert_eq!(c["side"], "king");
    assert_eq!(
        (c["king_to"].as_str(), c["rook_to"].as_str()),
        (Some("g1"), Some("f1"))
    );
    assert_eq!(c["king_destination_move"], false);
    let after = a.play(&g, "g1h1").await;
    assert_eq!(after["moves"][4]["san"], "O-O");
    assert_eq!(rank1(&after), "BBQNNRK1");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn castling_that_looks_like_a_king_step() {
    let a = app().await;
    // 710 RKBQNBNR: king b1, rook a1. O-O-O takes the king one square, to c1, like Kc1.
    let pgn = pgn_from(710, "1. d4 d5 2. Bf4 e6 3. Qd3 a6");
    let body = json!({"start": {"pgn": pgn}, "level": {"depth": 1}});
    let g = a.new_game(body.clone()).await;
    let c = &legal(&g, "b1a1")["castle"];
    assert_eq!(
        c,
        &json!({"side": "queen", "king_to": "c1", "rook_from": "a1", "rook_to": "d1",
                "king_destination_move": false, "looks_like_king_step": true})
    );
    // The king step itself is a plain move.
    assert!(legal(&g, "b1c1")["castle"].is_null());
    assert_eq!(legal(&g, "b1c1")["san"], "Kc1");

    let step = a.play(&g, "b1c1").await;
    assert_eq!(step["moves"][6]["san"], "Kc1");
    assert_eq!(rank1(&step), "R1K1NBNR");

    let g = a.new_game(body).await;
    let castle = a.play(&g, "b1a1").await;
    assert_eq!(castle["moves"][6]["san"], "O-O-O");
    assert_eq!(rank1(&castle), "2KRNBNR");

    // The classical shape, given as the king's destination (e1g1) or as O-O.
    let pgn = pgn_from(518, "1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5");
    let g = a
        .new_game(json!({"start": {"pgn": pgn}, "level": {"depth": 1}}))
        .await;
    let c = &legal(&g, "e1h1")["castle"];
    assert_eq!(
        (
            c["king_destination_move"].as_bool(),
            c["looks_like_king_step"].as_bool()
        ),
        (Some(true), Some(false))
    );
    let after = a.play(&g, "e1g1").await;
    assert_eq!(after["moves"][6]["uci"], "e1h1");
    assert_eq!(rank1(&after), "RNBQ1RK1");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn promotion() {
    let a = app().await;
    let fen = "8/1P6/8/8/8/5k2/8/6K1 w - - 0 1";
    let body = json!({"start": {"fen": fen}, "level": {"depth": 1}});
    let g = a.new_game(body.clone()).await;
    for (uci, letter) in [
        ("b7b8q", "q"),
        ("b7b8r", "r"),
        ("b7b8b", "b"),
        ("b7b8n", "n"),
    ] {
        assert_eq!(legal(&g, uci)["promotion"], letter);
    }
    // A promotion needs its piece.
    let key = g["key"].as_str().unwrap();
    let r = a
        .post(
            &format!("/api/games/{key}/moves"),
            json!({"move": "b7b8", "ply": 0}),
        )
        .await;
    assert_eq!(r.status, 422, "{}", r.text);

    let q = a.play(&g, "b7b8q").await;
    assert_eq!(q["moves"][0]["san"], "b8=Q");
    assert!(q["fen"].as_str().unwrap().starts_with("1Q6/"));
    assert_eq!(q["status"], "playing");

    // Under-promotion in SAN; king and knight against king is a dead draw at once.
    let g = a.new_game(body).await;
    let n = a.play(&g, "b8=N").await;
    assert_eq!(n["moves"][0]["uci"], "b7b8n");
    assert_eq!(n["status"], "finished");
    assert_eq!(n["result"], "1/2-1/2");
    assert_eq!(n["reason"], "insufficient material");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_survives_a_restart() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("games.sqlite3");
    let mut a = app_on(&db).await;
    let g = a
        .new_game(json!({"start": {"id": 402}, "level": {"depth": 1},
                         "time_control": {"initial_ms": 300000, "increment_ms": 2000}}))
        .await;
    let key = g["key"].as_str().unwrap().to_string();
    a.play(&g, &choose(&g, 0)).await;
    let g = a.wait_turn(&key).await;
    a.play(&g, &choose(&g, 1)).await;
    let before = a.wait_turn(&key).await;
    assert_eq!(plies(&before), 4);
    a.stop().await;

    let b = app_on(&db).await;
    let r = b.get(&format!("/api/games/{key}")).await;
    assert_eq!(r.status, 200, "{}", r.text);
    let after = r.json;
    assert_eq!(after["moves"], before["moves"]);
    assert_eq!(after["fen"], before["fen"]);
    assert_eq!(after["start_id"], 402);
    assert_eq!(after["level"], json!({"depth": 1}));
    assert_eq!(after["human"], "white");
    assert_eq!(after["time_control"], before["time_control"]);
    // The clocks are those stored with the last move, stopped until the player is back.
    let stored = &before["moves"][3]["clocks"];
    assert_eq!(after["clocks"]["white_ms"], stored["white_ms"]);
    assert_eq!(after["clocks"]["black_ms"], stored["black_ms"]);
    assert_eq!(after["clocks"]["running"], Value::Null);
    assert_eq!(
        (after["status"].as_str(), after["paused"].as_bool()),
        (Some("playing"), Some(true))
    );
    tokio::time::sleep(Duration::from_millis(300)).await;
    let later = b.get(&format!("/api/games/{key}")).await.json;
    assert_eq!(later["clocks"]["white_ms"], stored["white_ms"]);

    // A client connecting resumes the game: White's clock runs again.
    let mut ws = b.ws(&key).await;
    let first = ws.next().await;
    assert_eq!(first["game"]["clocks"]["running"], "white");
    assert_eq!(first["game"]["paused"], false);
    let g = b.play(&first["game"], &choose(&first["game"], 2)).await;
    assert_eq!(plies(&g), 5);
    let g = b.wait_turn(&key).await;
    assert_eq!(plies(&g), 6);
    let r = b.get("/api/games").await;
    assert_eq!(r.json["games"][0]["key"], key.as_str());
    assert_eq!(r.json["games"][0]["plies"], 6);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn time_forfeit_and_clock_events() {
    let a = app().await;
    let g = a
        .new_game(json!({"start": {"id": 518}, "level": {"depth": 1},
                         "time_control": {"initial_ms": 1500, "increment_ms": 0}}))
        .await;
    let key = g["key"].as_str().unwrap();
    // White's clock starts with Black's first move.
    a.play(&g, "e2e4").await;
    let started = Instant::now();
    let mut ws = a.ws(key).await;
    let (end, seen) = ws.until_state(|g| g["status"] == "finished").await;
    assert_eq!(
        (end["result"].as_str(), end["reason"].as_str()),
        (Some("0-1"), Some("time forfeit"))
    );
    assert_eq!(end["clocks"]["white_ms"], 0);
    assert_eq!(end["clocks"]["running"], Value::Null);
    assert!(started.elapsed() < Duration::from_secs(10));
    let clock = seen
        .iter()
        .find(|m| m["type"] == "clock")
        .expect("a clock event");
    assert_eq!(clock["running"], "white");
    assert!(clock["white_ms"].as_u64().unwrap() < 1500);
    assert_eq!(clock["black_ms"], 1500);
    let r = a
        .post(
            &format!("/api/games/{key}/moves"),
            json!({"move": "d2d4", "ply": 2}),
        )
        .await;
    assert_eq!(r.status, 409);

    // The flag is noticed at the next request too, without a WebSocket.
    let g = a
        .new_game(json!({"start": {"id": 518}, "level": {"depth": 1},
                         "time_control": {"initial_ms": 200}}))
        .await;
    a.play(&g, "e2e4").await;
    a.wait_for(g["key"].as_str().unwrap(), |v| {
        v["moves"].as_array().unwrap().len() == 2 || v["status"] == "finished"
    })
    .await;
    tokio::time::sleep(Duration::from_millis(400)).await;
    let r = a
        .get(&format!("/api/games/{}", g["key"].as_str().unwrap()))
        .await;
    assert_eq!(r.json["reason"], "time forfeit");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn increments_and_the_engine_on_a_short_clock() {
    let a = app().await;
    // The engine at a deep fixed level still moves in time: it spends a share of its clock.
    let g = a
        .new_game(json!({"start": {"id": 518}, "level": {"depth": 30},
                         "time_control": {"initial_ms": 3000, "increment_ms": 1000}}))
        .await;
    let key = g["key"].as_str().unwrap();
    let g = a.play(&g, "e4").await;
    // No clock runs before both sides have moved, and no increment is added: as on lichess.
    assert_eq!(g["moves"][0]["clocks"]["white_ms"], 3000);
    let g = a.wait_turn(key).await;
    assert_eq!(g["status"], "playing", "{g}");
    assert_eq!(g["moves"][1]["clocks"]["black_ms"], 3000);
    assert_eq!(g["clocks"]["running"], "white");
    let g = a.play(&g, "d4").await;
    let white = g["moves"][2]["clocks"]["white_ms"].as_u64().unwrap();
    assert!(white > 3000 && white <= 4000, "increment added: {white}");
    let g = a.wait_turn(key).await;
    assert_eq!(g["status"], "playing", "{g}");
    let black = g["moves"][3]["clocks"]["black_ms"].as_u64().unwrap();
    assert!(black > 1000 && black <= 4000, "{black}");
    assert_eq!(g["clocks"]["running"], "white");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn study_time() {
    let a = app().await;
    let g = a
        .new_game(json!({"start": {"id": 518}, "study_ms": 60000,
                         "time_control": {"initial_ms": 60000}}))
        .await;
    let key = g["key"].as_str().unwrap();
    assert_eq!(g["status"], "study");
    assert!(g["study_ms"].as_u64().unwrap() > 50000);
    assert_eq!(g["clocks"]["running"], Value::Null);
    assert!(g["legal"].as_array().unwrap().is_empty());
    let r = a.post(&format!("/api/games/{key}/start"), json!({})).await;
    assert_eq!(r.status, 200);
    assert_eq!(
        (
            r.json["status"].as_str(),
            r.json["clocks"]["running"].as_str()
        ),
        (Some("playing"), None),
        "no clock runs before both sides have moved"
    );

    // The study time runs out by itself; with the engine as White, it then moves.
    let g = a
        .new_game(
            json!({"start": {"id": 518}, "color": "black", "level": {"depth": 1},
                         "study_ms": 300, "time_control": {"initial_ms": 60000}}),
        )
        .await;
    assert_eq!(g["status"], "study");
    let key = g["key"].as_str().unwrap();
    let g = a.wait_turn(key).await;
    assert_eq!((g["status"].as_str(), plies(&g)), (Some("playing"), 1));
    assert_eq!(g["clocks"]["running"], Value::Null);
    let g = a.play(&g, "e7e5").await;
    assert_eq!(g["clocks"]["running"], "white");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn takeback() {
    let a = app().await;
    let g = a
        .new_game(json!({"start": {"id": 518}, "level": {"depth": 1},
                         "time_control": {"initial_ms": 60000}}))
        .await;
    let key = g["key"].as_str().unwrap();
    let tb = format!("/api/games/{key}/takeback");
    a.play(&g, "e4").await;
    let g = a.wait_turn(key).await;
    let g = a.play(&g, "d4").await;
    let g2 = a.wait_turn(key).await;
    assert_eq!(plies(&g2), 4);
    let r = a.post(&tb, json!({})).await;
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(plies(&r.json), 2);
    assert_eq!(
        r.json["moves"],
        Value::from(g2["moves"].as_array().unwrap()[..2].to_vec())
    );
    assert_eq!(r.json["clocks"]["running"], "white");
    // The clocks are those after the last remaining move.
    assert_eq!(
        r.json["clocks"]["black_ms"],
        g2["moves"][1]["clocks"]["black_ms"]
    );
    let r = a.post(&tb, json!({})).await;
    assert_eq!(plies(&r.json), 0);
    assert_eq!(r.json["fen"], r.json["start_fen"]);
    assert_eq!(r.json["legal"].as_array().unwrap().len(), 20);
    let r = a.post(&tb, json!({})).await;
    assert_eq!(r.status, 409);
    drop(g);

    // Taking back while the engine thinks: its search is dropped.
    let g = a
        .new_game(json!({"start": {"id": 518}, "level": {"depth": 30},
                         "time_control": {"initial_ms": 120000}}))
        .await;
    let key = g["key"].as_str().unwrap();
    let g = a.play(&g, "e4").await;
    assert_eq!(g["engine_thinking"], true);
    let r = a
        .post(&format!("/api/games/{key}/takeback"), json!({}))
        .await;
    assert_eq!(r.status, 200);
    assert_eq!(
        (plies(&r.json), r.json["engine_thinking"].as_bool()),
        (0, Some(false))
    );
    tokio::time::sleep(Duration::from_millis(1500)).await;
    let now = a.get(&format!("/api/games/{key}")).await.json;
    assert_eq!((plies(&now), now["turn"].as_str()), (0, Some("white")));

    // A game that ended on the board can be taken back; the human's last move goes.
    let pgn = pgn_from(518, "1. f3 e5 2. g4 Qh4#");
    let g = a.new_game(json!({"start": {"pgn": pgn}})).await;
    assert_eq!(
        (g["status"].as_str(), g["reason"].as_str()),
        (Some("finished"), Some("checkmate"))
    );
    assert_eq!(g["result"], "0-1");
    let key = g["key"].as_str().unwrap();
    let r = a
        .post(&format!("/api/games/{key}/analysis"), json!({"depth": 2}))
        .await;
    assert_eq!(r.json["score"], json!({"mate": 0}));
    assert!(r.json["pv"].as_array().unwrap().is_empty());
    let r = a
        .post(&format!("/api/games/{key}/takeback"), json!({}))
        .await;
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(
        (plies(&r.json), r.json["status"].as_str()),
        (2, Some("playing"))
    );
    assert_eq!(r.json["result"], Value::Null);
    let r = a.get("/api/games?result=*").await;
    assert!(r.json["games"]
        .as_array()
        .unwrap()
        .iter()
        .any(|x| x["key"] == key));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn premoves() {
    let a = app().await;
    // The engine is White and thinks about a second (a share of its 30 s).
    let body = json!({"start": {"id": 518}, "color": "black", "level": {"depth": 30},
                      "time_control": {"initial_ms": 30000}});
    let g = a.new_game(body.clone()).await;
    let key = g["key"].as_str().unwrap();
    assert_eq!(g["engine_thinking"], true);
    let p = format!("/api/games/{key}/premove");
    let r = a.post(&p, json!({"move": "a7a6"})).await;
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(r.json["premove"], "a7a6");
    let g = a.wait_for(key, |g| plies(g) >= 2).await;
    assert_eq!(g["moves"][1]["uci"], "a7a6");
    assert_eq!(g["premove"], Value::Null);
    assert_eq!(g["turn"], "white");
    a.post(&format!("/api/games/{key}/resign"), json!({})).await;

    // Cleared, and an impossible premove is dropped when its turn comes.
    let g = a.new_game(body).await;
    let key = g["key"].as_str().unwrap();
    let p = format!("/api/games/{key}/premove");
    let r = a.post(&p, json!({"move": "Nf6"})).await;
    assert_eq!(r.json["premove"], "Nf6");
    let r = a.post(&p, json!({"move": null})).await;
    assert_eq!(r.json["premove"], Value::Null);
    let r = a.post(&p, json!({"move": "h8h6"})).await;
    assert_eq!(r.json["premove"], "h8h6");
    let g = a.wait_turn(key).await;
    assert_eq!((plies(&g), g["premove"].is_null()), (1, true));
    a.post(&format!("/api/games/{key}/resign"), json!({})).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn draws() {
    let a = app().await;
    // Threefold repetition: the start position for the third time, White to move.
    let pgn = pgn_from(518, "1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8");
    let g = a.new_game(json!({"start": {"pgn": pgn}})).await;
    assert_eq!(g["draw_claim"], "threefold repetition");
    let key = g["key"].as_str().unwrap();
    let r = a
        .post(
            &format!("/api/games/{key}/draw"),
            json!({"action": "claim"}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(
        (r.json["result"].as_str(), r.json["reason"].as_str()),
        (Some("1/2-1/2"), Some("threefold repetition"))
    );

    // An offer early in the game is declined.
    let g = a
        .new_game(json!({"start": {"id": 518}, "level": {"depth": 1}}))
        .await;
    let key = g["key"].as_str().unwrap();
    let r = a
        .post(
            &format!("/api/games/{key}/draw"),
            json!({"action": "offer"}),
        )
        .await;
    assert_eq!(r.status, 200);
    assert_eq!(
        (r.json["draw_offer"].as_str(), r.json["status"].as_str()),
        (Some("declined"), Some("playing"))
    );
    let r = a.get(&format!("/api/games/{key}")).await;
    assert!(r.json.get("draw_offer").is_none());

    // After move 30, in a level position, the engine agrees.
    let g = a
        .new_game(json!({"start": {"fen": "r3k3/pppp4/8/8/8/8/PPPP4/R3K3 w - - 0 40"}}))
        .await;
    let key = g["key"].as_str().unwrap();
    let r = a
        .post(
            &format!("/api/games/{key}/draw"),
            json!({"action": "offer"}),
        )
        .await;
    assert_eq!(r.status, 200);
    assert_eq!(r.json["draw_offer"], "accepted", "{}", r.text);
    assert_eq!(
        (r.json["result"].as_str(), r.json["reason"].as_str()),
        (Some("1/2-1/2"), Some("draw agreed"))
    );
}
