//! `GET /api/explorer` over games stored in the database, and the page `/positions/<id>`.

use crate::common;

use chess960_core::{CastlingMode, StartId};
use chess960_store::{Finish, GameStore, MoveRecord, NewGame};
use common::app;

/// Stores a game of the classical start with `ucis` and `result` (`None`: unfinished).
fn store_game(store: &dyn GameStore, ucis: &[&str], result: Option<&str>) {
    let mut pos = StartId::new(518).unwrap().position();
    let game = NewGame {
        start_fen: pos.fen(),
        start_id: Some(518),
        white: "W".into(),
        black: "B".into(),
        time_control: None,
        clocks: None,
        tags: Vec::new(),
    };
    let mut moves = Vec::new();
    for u in ucis {
        let m = pos.parse_uci(u, CastlingMode::Chess960).unwrap();
        moves.push(MoveRecord::of(&pos, m, None, 0));
        pos = pos.play(m);
    }
    let (id, _) = store
        .create_game_with_moves(&game, &moves, &chess960_store::Seats::NONE)
        .unwrap();
    if let Some(r) = result {
        store
            .finish_game(
                id,
                &Finish {
                    result: chess960_store::GameResult::parse(r).expect("a result"),
                    reason: "test".into(),
                },
            )
            .unwrap();
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_explorer_counts_the_stored_games() {
    let a = app().await;
    {
        let store = common::store_at(&a.db);
        store_game(&*store, &["e2e4", "e7e5"], Some("1-0"));
        store_game(&*store, &["e2e4", "c7c5"], Some("0-1"));
        store_game(&*store, &["e2e4", "e7e5", "g1f3"], Some("1/2-1/2"));
        store_game(&*store, &["d2d4"], Some("1-0"));
        store_game(&*store, &["e2e4"], None);
    }
    let r = a.get("/api/explorer?start=518").await;
    assert_eq!(r.status, 200, "{}", r.text);
    let v = r.json.clone();
    assert_eq!(v["start_id"], 518);
    assert_eq!(
        v["fen"],
        StartId::new(518).unwrap().position().fen().as_str()
    );
    assert_eq!(v["total"]["games"], 5);
    assert_eq!(v["total"]["white"], 2);
    assert_eq!(v["total"]["draws"], 1);
    assert_eq!(v["total"]["black"], 1);
    assert_eq!(v["total"]["unfinished"], 1);
    assert_eq!(v["total"]["score"], 0.625);
    assert_eq!(v["moves"][0]["san"], "e4");
    assert_eq!(v["moves"][0]["uci"], "e2e4");
    assert_eq!(v["moves"][0]["games"], 4);
    assert_eq!(v["moves"][1]["san"], "d4");
    assert_eq!(v["moves"][1]["score"], 1.0);
    assert_eq!(v["games"].as_array().unwrap().len(), 5);
    // The database statistics of the start position: finished games only.
    assert_eq!(v["stats"]["games"], 4);
    assert_eq!(v["stats"]["white_wins"], 2);
    assert_eq!(v["stats"]["black_wins"], 1);
    assert!(v["stats"]["low"].as_f64().unwrap() < 0.625);

    // Narrowed by moves, and the same by FEN.
    let r = a
        .get("/api/explorer?start=518&moves=e2e4,e7e5&games=1")
        .await;
    let v = r.json.clone();
    assert_eq!(v["line"][1]["san"], "e5");
    assert_eq!(v["total"]["games"], 2);
    assert_eq!(v["ended"]["games"], 1);
    assert_eq!(v["moves"][0]["san"], "Nf3");
    assert_eq!(v["games"].as_array().unwrap().len(), 1);
    let fen = v["fen"]
        .as_str()
        .unwrap()
        .replace(' ', "%20")
        .replace('/', "%2F");
    let r = a.get(&format!("/api/explorer?fen={fen}")).await;
    assert_eq!(r.json["total"]["games"], 2);
    assert_eq!(r.json["stats"], serde_json::Value::Null);

    // A position no game reached.
    let r = a.get("/api/explorer?start=0").await;
    assert_eq!(r.json["total"]["games"], 0);
    assert_eq!(r.json["stats"]["games"], 0);
    assert!(r.json["moves"].as_array().unwrap().is_empty());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_explorer_queries_are_refused_with_the_reason() {
    let a = app().await;
    for (query, status, words) in [
        ("", 400, "start or fen"),
        ("start=1&fen=x", 400, "start or fen"),
        ("start=961", 400, "start"),
        ("start=abc", 400, "start"),
        ("fen=nonsense", 422, "fen"),
        ("start=518&moves=e2e5", 422, "half-move 1"),
        ("start=518&moves=e2e4,e2e4", 422, "half-move 2"),
        ("start=518&games=101", 400, "games"),
        ("start=518&color=white", 400, "color"),
    ] {
        let r = a.get(&format!("/api/explorer?{query}")).await;
        assert_eq!(r.status, status, "{query}: {}", r.text);
        assert!(r.error().contains(words), "{query}: {}", r.error());
    }
    let many = vec!["g1f3,g8f6,f3g1,f6g8"; 76].join(",");
    let r = a
        .get(&format!("/api/explorer?start=518&moves={many}"))
        .await;
    assert_eq!(r.status, 400);
    assert!(r.error().contains("at most 300"), "{}", r.error());
    let long = "a".repeat(5000);
    let r = a
        .get(&format!("/api/explorer?start=518&moves={long}"))
        .await;
    assert_eq!(r.status, 400);
    assert!(r.error().contains("longer than"), "{}", r.error());
    // 300 half-moves are answered.
    let ok = vec!["g1f3,g8f6,f3g1,f6g8"; 75].join(",");
    let r = a.get(&format!("/api/explorer?start=518&moves={ok}")).await;
    assert_eq!(r.status, 200, "{}", r.error());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_page_of_a_start_position_is_served() {
    let a = app().await;
    let index = a.get("/").await.text;
    for path in ["/positions/0", "/positions/518", "/positions/959"] {
        let r = a.get(path).await;
        assert_eq!((r.status, &r.text), (200, &index), "{path}");
    }
}
