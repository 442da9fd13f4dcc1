//! A PostgreSQL server that goes away under a running store and comes back: every call in
//! between fails at once with an error naming the database (no hang, no panic), no
//! acknowledged move or import is lost, and the same store works again when the server is
//! back, without being reopened.
//!
//! Needs the test cluster's directory (`CHESS960_TEST_PG_DIR`, set by scripts/test.sh) to stop
//! and start it. It is the only test of this file: cargo runs test files one after another, so
//! no other test uses the server while it is down.

mod common;

use chess960_store::{Finish, GameResult, GameStore, ImportGame, ImportOutcome, StoreError};
use common::{new_game, replay, scripted_move};
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

/// `f` until it succeeds (the server is starting, or the pool still holds a connection that
/// broke), at most for 30 s; each failure must name the database.
fn eventually<T>(db: &str, mut f: impl FnMut() -> Result<T, StoreError>) -> T {
    let start = Instant::now();
    loop {
        match f() {
            Ok(v) => return v,
            Err(e) => {
                assert!(e.to_string().contains(db), "{e}");
                assert!(
                    start.elapsed() < Duration::from_secs(30),
                    "still failing: {e}"
                );
                std::thread::sleep(Duration::from_millis(200));
            }
        }
    }
}

fn an_import(store: &dyn GameStore, round: &str) -> Result<ImportOutcome, StoreError> {
    let mut game = new_game(5, "Imported", "Game");
    game.tags.push(("Round".into(), round.into()));
    let mut pos = chess960_core::StartId::new(5).unwrap().position();
    let mut moves = Vec::new();
    for ply in 0..8 {
        let mut mv = scripted_move(&pos, ply).unwrap();
        mv.played_at_ms = 0;
        pos = pos.play(
            pos.parse_uci(&mv.uci, chess960_core::CastlingMode::Chess960)
                .unwrap(),
        );
        moves.push(mv);
    }
    store
        .import_games(&[ImportGame {
            game,
            moves,
            finish: Some(Finish {
                result: GameResult::Draw,
                reason: "agreement".into(),
            }),
            movetext: None,
            index: None,
        }])
        .map(|mut out| out.remove(0))
}

#[test]
fn a_postgresql_that_stops_and_restarts_loses_nothing_acknowledged() {
    let Some(admin) = common::pg_server() else {
        return;
    };
    let Ok(dir) = std::env::var("CHESS960_TEST_PG_DIR") else {
        eprintln!("note: CHESS960_TEST_PG_DIR is not set (scripts/test.sh sets it): skipped");
        return;
    };
    let backend = common::pg_backend(&admin);
    let db = backend.address().rsplit('/').next().unwrap().to_owned();
    let store = backend.store();
    let (id, _) = store.create_game(&new_game(100, "A", "B")).unwrap();
    let start = store.game(id).unwrap().unwrap().game.start_fen;
    let mut played = Vec::new();
    for ply in 0..10 {
        let mv = scripted_move(&replay(&start, &played), ply).unwrap();
        store.append_move(id, ply, &mv).unwrap();
        played.push(mv);
    }
    let ImportOutcome::Added(imported) = an_import(store, "1").unwrap() else {
        panic!("not added")
    };

    // Down: every call fails at once and says which database.
    cluster("stop", &dir);
    let next = scripted_move(&replay(&start, &played), 10).unwrap();
    let t = Instant::now();
    let failures = [
        store.append_move(id, 10, &next).map(|_| ()),
        store.game(id).map(|_| ()),
        store.list(&Default::default()).map(|_| ()),
        store.finish_game(id, &Finish::aborted()).map(|_| ()),
    ];
    for f in failures {
        let e = f.expect_err("the server is down");
        assert!(e.to_string().contains(&db), "{e}");
    }
    assert!(t.elapsed() < Duration::from_secs(10), "{:?}", t.elapsed());

    // Back on the same port: the same store carries on.
    cluster("start", &dir);
    let game = eventually(&db, || store.game(id)).unwrap();
    assert_eq!(
        game.moves, played,
        "acknowledged moves kept, the refused one not stored"
    );
    assert!(game.finish.is_none(), "the refused finish was not stored");
    assert!(store.game(imported).unwrap().is_some());
    eventually(&db, || store.append_move(id, 10, &next));
    played.push(next);

    // Restarted while the pool holds open connections: they broke, the store reconnects.
    cluster("restart", &dir);
    let next = scripted_move(&replay(&start, &played), 11).unwrap();
    eventually(&db, || store.append_move(id, 11, &next));
    played.push(next);
    assert!(matches!(
        eventually(&db, || an_import(store, "2")),
        ImportOutcome::Added(_)
    ));
    assert_eq!(
        eventually(&db, || an_import(store, "1")),
        ImportOutcome::Duplicate(imported)
    );
    let again = backend.another();
    assert_eq!(again.game(id).unwrap().unwrap().moves, played);
    again.check().unwrap();
    drop(again);
}
