//! Games stored without being created as server games (an engine event's games, imported PGN):
//! their sides are the players who played them outside the server, never a seat nor our engine.

use crate::common;

use common::app_on;
use serde_json::{json, Value};

/// Stores the PGN game `text` as an import does, and answers its key.
fn import(db: &std::path::Path, text: &str) -> String {
    let store = common::store_at(db);
    let game = chess960_pgn::Reader::new(text.as_bytes())
        .read_game()
        .unwrap()
        .unwrap()
        .unwrap();
    let import = chess960_store::pgn::from_pgn(&game);
    let id = match store.import_games(&[import]).unwrap()[0] {
        chess960_store::ImportOutcome::Added(id) => id,
        ref other => panic!("{other:?}"),
    };
    store.game(id).unwrap().unwrap().key.as_str().to_string()
}

/// A finished game from the classical start between `white` and `black`, with these tags.
fn pgn(white: &str, black: &str, tags: &str) -> String {
    let fen = chess960_core::StartId::new(518).unwrap().position().fen();
    format!(
        "[White \"{white}\"]\n[Black \"{black}\"]\n{tags}[Result \"0-1\"]\n\
         [Variant \"Chess960\"]\n[SetUp \"1\"]\n[FEN \"{fen}\"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n"
    )
}

fn outside(program: bool) -> Value {
    json!({"type": "outside", "program": program})
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_played_outside_the_server_shows_its_own_players() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("games.sqlite3");
    let event = "[Event \"Engines 2025\"]\n[Round \"1.2\"]\n";
    // An engine event's game as the championship stores it.
    let tagged = import(
        &db,
        &pgn(
            "Stockfish 17",
            "Komodo",
            &format!("{event}[WhiteType \"program\"]\n[BlackType \"program\"]\n"),
        ),
    );
    // One the championship stored before it wrote the types, our engine in it.
    let untagged_event = import(&db, &pgn("chess960-engine", "Stockfish 17", event));
    // A game between people imported from a PGN file.
    let people = import(&db, &pgn("Ann", "Bob", ""));
    // A person against a program that is not ours.
    let other_program = import(
        &db,
        &pgn(
            "Ann",
            "Stockfish 17",
            "[WhiteType \"human\"]\n[BlackType \"program\"]\n",
        ),
    );
    // A game against our engine stored without the tags (an old `chess960 play`): as before.
    let ours = import(&db, &pgn("Ann", "chess960-engine 1500", ""));
    let a = app_on(&db).await;
    let view = |key: String| {
        let a = &a;
        async move {
            let r = a.get(&format!("/api/games/{key}")).await;
            assert_eq!(r.status, 200, "{}", r.text);
            r.json
        }
    };
    for (key, white, black) in [
        (tagged, outside(true), outside(true)),
        (untagged_event, outside(false), outside(false)),
        (people, outside(false), outside(false)),
        (other_program, outside(false), outside(true)),
    ] {
        let g = view(key).await;
        assert_eq!(g["sides"]["white"], white, "{}", g["sides"]);
        assert_eq!(g["sides"]["black"], black, "{}", g["sides"]);
        assert_eq!(g["human"], Value::Null, "no person plays it here");
        assert_eq!(g["level"], Value::Null, "our engine plays no side");
        assert_eq!(g["has_seat"], false);
    }
    let g = view(ours).await;
    assert_eq!(
        g["sides"]["white"],
        json!({"type": "human", "seat": "none"})
    );
    assert_eq!(
        g["sides"]["black"],
        json!({"type": "engine", "level": {"elo": 1500}})
    );
    assert_eq!(g["human"], "white");
}
