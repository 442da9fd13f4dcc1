//! Readers are never blocked by a write, and always see a consistent game; two handles on
//! one database (two processes, two servers) racing for the same move store it once.

mod common;

use chess960_store::{
    GameFilter, GameId, GameStore, ImportGame, ImportOutcome, MoveRecord, SqliteStore, StoreError,
};
use common::{new_game, scratch};
use std::sync::atomic::{AtomicBool, Ordering};

fn mv(ply: u32) -> MoveRecord {
    // The store keeps moves as given; these need not be legal for this test.
    MoveRecord {
        uci: format!("m{ply}"),
        san: format!("s{ply}"),
        clocks: None,
        played_at_ms: i64::from(ply),
    }
}

#[test]
fn readers_see_the_last_commit_while_another_connection_writes() {
    let dir = scratch();
    let path = dir.path().join("r.sqlite3");
    let store = SqliteStore::open(&path).unwrap();
    let (id, _) = store.create_game(&new_game(10, "A", "B")).unwrap();
    for ply in 0..5 {
        store.append_move(id, ply, &mv(ply)).unwrap();
    }
    // Another process (here: another connection) holds the write lock with uncommitted
    // changes.
    let other = rusqlite::Connection::open(&path).unwrap();
    other
        .execute_batch(&format!(
            "BEGIN IMMEDIATE;
             INSERT INTO moves (game_id, ply, uci, san, played_ms) VALUES ({0}, 5, 'm5', 's5', 5);
             UPDATE games SET plies = 6 WHERE id = {0};",
            id.0
        ))
        .unwrap();
    // Reads go on, from other threads too, and see the last committed state.
    std::thread::scope(|s| {
        for _ in 0..3 {
            s.spawn(|| {
                let g = store.game(id).unwrap().unwrap();
                assert_eq!(g.moves.len(), 5);
                assert_eq!(store.list(&GameFilter::default()).unwrap()[0].plies, 5);
                assert_eq!(store.count(&GameFilter::default()).unwrap(), 1);
            });
        }
    });
    other.execute_batch("COMMIT").unwrap();
    assert_eq!(store.game(id).unwrap().unwrap().moves.len(), 6);
    store.append_move(id, 6, &mv(6)).unwrap();
}

#[test]
fn concurrent_readers_during_a_stream_of_writes() {
    common::each_backend(|b| readers_during_writes(b.store()));
}

fn readers_during_writes(store: &dyn GameStore) {
    let (id, _) = store.create_game(&new_game(20, "A", "B")).unwrap();
    let done = AtomicBool::new(false);
    let total = 150u32;
    std::thread::scope(|scope| {
        let writer = {
            let done = &done;
            scope.spawn(move || {
                for ply in 0..total {
                    store.append_move(id, ply, &mv(ply)).unwrap();
                    if ply % 10 == 0 {
                        // Whole new games too, each in one transaction.
                        let g = new_game(ply as u16, "C", "D");
                        store
                            .import_games(&[ImportGame {
                                game: g,
                                moves: vec![mv(0), mv(1)],
                                finish: None,
                                movetext: None,
                                index: None,
                            }])
                            .unwrap();
                    }
                }
                done.store(true, Ordering::SeqCst);
            })
        };
        let readers: Vec<_> = (0..3)
            .map(|_| {
                let done = &done;
                scope.spawn(move || {
                    let (mut last_moves, mut last_count, mut reads) = (0usize, 0u64, 0u64);
                    loop {
                        let finished = done.load(Ordering::SeqCst);
                        let g = store.game(id).unwrap().unwrap();
                        // A consistent snapshot: the moves are exactly 0..n, never torn.
                        for (i, m) in g.moves.iter().enumerate() {
                            assert_eq!(m, &mv(i as u32));
                        }
                        assert!(g.moves.len() >= last_moves, "moves went backwards");
                        last_moves = g.moves.len();
                        let listed = store.list(&GameFilter::default()).unwrap();
                        let count = store.count(&GameFilter::default()).unwrap();
                        assert!(count >= last_count && listed.len() as u64 >= last_count);
                        last_count = count;
                        for s in &listed {
                            if s.id != GameId(id.0) {
                                assert_eq!(s.plies, 2);
                            }
                        }
                        reads += 1;
                        if finished {
                            return (last_moves, reads);
                        }
                    }
                })
            })
            .collect();
        writer.join().unwrap();
        for r in readers {
            let (moves, reads) = r.join().unwrap();
            assert_eq!(moves, total as usize);
            assert!(reads >= 1);
        }
    });
    assert_eq!(store.count(&GameFilter::default()).unwrap(), 1 + 15);
}

/// Two handles on one database, each with its own connections (two server processes), try
/// to store every move at once, and import the same game at once: each move is stored once,
/// by exactly one of them, the other is told `Conflict`; the game is imported once.
#[test]
fn two_handles_racing_for_the_same_move_store_it_once() {
    common::each_backend(|b| {
        let other = b.another();
        let (id, _) = b.create_game(&new_game(30, "A", "B")).unwrap();
        for ply in 0..40 {
            let results: Vec<Result<(), StoreError>> = std::thread::scope(|scope| {
                let handles = [b.store(), other.as_ref()]
                    .map(|s| scope.spawn(move || s.append_move(id, ply, &mv(ply))));
                handles.map(|h| h.join().unwrap()).into()
            });
            let won = results.iter().filter(|r| r.is_ok()).count();
            assert_eq!(won, 1, "ply {ply}: {results:?}");
            assert!(results
                .iter()
                .any(|r| matches!(r, Err(StoreError::Conflict(_)))));
        }
        assert_eq!(other.game(id).unwrap().unwrap().moves.len(), 40);
        let finished = ImportGame {
            game: new_game(31, "C", "D"),
            moves: vec![mv(0), mv(1)],
            finish: Some(chess960_store::Finish {
                result: chess960_store::GameResult::Draw,
                reason: "agreement".into(),
            }),
            movetext: None,
            index: None,
        };
        let outcomes: Vec<ImportOutcome> = std::thread::scope(|scope| {
            let handles = [b.store(), other.as_ref()].map(|s| {
                let g = finished.clone();
                scope.spawn(move || s.import_games(&[g]).unwrap().remove(0))
            });
            handles.map(|h| h.join().unwrap()).into()
        });
        let added = outcomes
            .iter()
            .filter(|o| matches!(o, ImportOutcome::Added(_)))
            .count();
        assert_eq!(added, 1, "{outcomes:?}");
        assert_eq!(b.count(&GameFilter::default()).unwrap(), 2);
    });
}

/// More threads than a store opens connections (PostgreSQL's pool holds at most 16) each
/// play a game at once: every call waits its turn and succeeds, and every move is there.
#[test]
fn more_writers_than_connections_all_get_through() {
    common::each_backend(|b| {
        let store = b.store();
        std::thread::scope(|scope| {
            for t in 0..40u16 {
                scope.spawn(move || {
                    let (id, _) = store.create_game(&new_game(t, "W", "B")).unwrap();
                    for ply in 0..5 {
                        store.append_move(id, ply, &mv(ply)).unwrap();
                        store.game(id).unwrap().unwrap();
                    }
                });
            }
        });
        let games = store.list(&GameFilter::default()).unwrap();
        assert_eq!(games.len(), 40);
        assert!(games.iter().all(|g| g.plies == 5));
    });
}

/// Writes of many games that arrive while the database is busy are committed together (one
/// transaction, one flush): each keeps its own answer. Moves refused in the middle of such a
/// batch (a stale ply, a finished game) leave nothing behind and take nothing of the others
/// with them, and everything acknowledged is there when the database is opened again.
#[test]
fn writes_committed_together_keep_their_own_answers() {
    let dir = scratch();
    let path = dir.path().join("g.sqlite3");
    let store = SqliteStore::open(&path).unwrap();
    let n = 32u32;
    let ids: Vec<GameId> = (0..n)
        .map(|i| {
            let (id, _) = store.create_game(&new_game(i as u16, "W", "B")).unwrap();
            store.append_move(id, 0, &mv(0)).unwrap();
            store.append_move(id, 1, &mv(1)).unwrap();
            id
        })
        .collect();
    let finished = ids[5];
    store
        .finish_game(
            finished,
            &chess960_store::Finish {
                result: chess960_store::GameResult::WhiteWins,
                reason: "resignation".into(),
            },
        )
        .unwrap();
    let stale = |i: u32| i % 8 == 3;
    // Another process holds the write lock while the writes arrive, so that they queue up.
    let other = rusqlite::Connection::open(&path).unwrap();
    other.execute_batch("BEGIN IMMEDIATE").unwrap();
    let results: Vec<Result<(), StoreError>> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..n)
            .map(|i| {
                let (store, id) = (&store, ids[i as usize]);
                s.spawn(move || {
                    let ply = if stale(i) { 1 } else { 2 };
                    store.append_move(id, ply, &mv(ply))
                })
            })
            .collect();
        std::thread::sleep(std::time::Duration::from_millis(300));
        other.execute_batch("COMMIT").unwrap();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    drop(store);
    let store = SqliteStore::open(&path).unwrap();
    for (i, (id, result)) in ids.iter().zip(&results).enumerate() {
        let refused = stale(i as u32) || *id == finished;
        let game = store.game(*id).unwrap().unwrap();
        if refused {
            assert!(
                matches!(result, Err(StoreError::Conflict(_))),
                "{i}: {result:?}"
            );
            assert_eq!(game.moves, vec![mv(0), mv(1)], "{i}");
        } else {
            assert!(result.is_ok(), "{i}: {result:?}");
            assert_eq!(game.moves, vec![mv(0), mv(1), mv(2)], "{i}");
        }
    }
    let listed = store.list(&GameFilter::default()).unwrap();
    assert_eq!(listed.iter().filter(|g| g.plies == 3).count(), 27);
}
