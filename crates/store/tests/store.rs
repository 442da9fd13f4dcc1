//! The `GameStore` contract, on every backend (SQLite, and PostgreSQL when the test server is
//! known: `common::backends`): autosave, takeback, finish, tags, lookups and filters,
//! statistics, duplicates and reopening; and SQLite's migrations.

mod common;

use chess960_store::sqlite::{APPLICATION_ID, SCHEMA_VERSION};
use chess960_store::{
    Clocks, Finish, GameFilter, GameId, GameKey, GameResult, GameStore, ImportGame, ImportOutcome,
    MoveRecord, PositionCounts, SqliteStore, StoreError,
};
use common::{new_game, replay, scratch, scripted_move};

fn play(store: &dyn GameStore, id: GameId, plies: u32) {
    let game = store.game(id).unwrap().unwrap();
    let mut pos = replay(&game.game.start_fen, &game.moves);
    for ply in game.moves.len() as u32..plies {
        let mv = scripted_move(&pos, ply).unwrap();
        store.append_move(id, ply, &mv).unwrap();
        let m = pos
            .parse_uci(&mv.uci, chess960_core::CastlingMode::Chess960)
            .unwrap();
        pos = pos.play(m);
    }
}

fn finish(result: &str, reason: &str) -> Finish {
    Finish {
        result: GameResult::parse(result).expect("a result"),
        reason: reason.into(),
    }
}

#[test]
fn autosave_takeback_finish_and_read_back() {
    common::each_backend(|store| {
        let new = new_game(100, "Alice", "Bob");
        let (id, key) = store.create_game(&new).unwrap();
        assert_eq!(GameKey::parse(key.as_str()), Some(key.clone()));
        play(store.store(), id, 10);

        // Moves must follow on: a wrong ply is refused and nothing changes.
        let extra = MoveRecord {
            uci: "a1a1".into(),
            san: "?".into(),
            clocks: None,
            played_at_ms: 0,
        };
        assert!(matches!(
            store.append_move(id, 5, &extra),
            Err(StoreError::Conflict(_))
        ));
        assert!(matches!(
            store.append_move(id, 11, &extra),
            Err(StoreError::Conflict(_))
        ));
        assert!(matches!(
            store.append_move(GameId(999), 0, &extra),
            Err(StoreError::NoSuchGame(_))
        ));

        let g = store.game(id).unwrap().unwrap();
        assert_eq!(g.game, new);
        assert_eq!(g.key, key);
        assert_eq!(g.moves.len(), 10);
        assert!(g.finish.is_none());
        assert_eq!(store.game_by_key(&key).unwrap().unwrap(), g);

        // Takeback: two half-moves back, then play on.
        store.truncate_moves(id, 8).unwrap();
        assert_eq!(
            store.game(id).unwrap().unwrap().moves,
            g.moves[..8].to_vec()
        );
        assert!(matches!(
            store.truncate_moves(id, 9),
            Err(StoreError::Conflict(_))
        ));
        play(store.store(), id, 12);
        let g = store.game(id).unwrap().unwrap();
        assert_eq!(g.moves.len(), 12);

        store
            .finish_game(id, &finish("0-1", "resignation"))
            .unwrap();
        // The same finish again is harmless; another result is a conflict; so is a move.
        store
            .finish_game(id, &finish("0-1", "resignation"))
            .unwrap();
        assert!(matches!(
            store.finish_game(id, &finish("1-0", "checkmate")),
            Err(StoreError::Conflict(_))
        ));
        // `*` is no result unless the game was aborted.
        assert!(matches!(
            store.finish_game(id, &finish("*", "")),
            Err(StoreError::Conflict(_))
        ));
        assert!(matches!(
            store.append_move(id, 12, &extra),
            Err(StoreError::Conflict(_))
        ));
        let g = store.game(id).unwrap().unwrap();
        assert_eq!(g.finish, Some(finish("0-1", "resignation")));
        assert!(g.updated_at_ms >= g.created_at_ms);

        // A takeback clears the finish.
        store.truncate_moves(id, 11).unwrap();
        assert!(store.game(id).unwrap().unwrap().finish.is_none());

        // Everything is still there after reopening.
        store.reopen();
        let again = store.game(id).unwrap().unwrap();
        assert_eq!(again.moves, g.moves[..11].to_vec());
        assert_eq!(again.moves[10].clocks, Some(common::clocks_after(10)));
    });
}

#[test]
fn tags_players_and_dates() {
    common::each_backend(|store| {
        let (id, _) = store.create_game(&new_game(5, "A", "B")).unwrap();
        store.set_tag(id, "Round", Some("3")).unwrap();
        store.set_tag(id, "Event", Some("renamed")).unwrap();
        store.set_tag(id, "White", Some("Carol")).unwrap();
        store.set_tag(id, "TimeControl", None).unwrap();
        store.set_tag(id, "Date", Some("2024.06.30")).unwrap();
        let g = store.game(id).unwrap().unwrap();
        assert_eq!(g.game.white, "Carol");
        assert_eq!(g.game.time_control, None);
        assert_eq!(
            g.game.tags,
            vec![
                ("Event".to_string(), "renamed".to_string()),
                ("Date".to_string(), "2024.06.30".to_string()),
                ("Round".to_string(), "3".to_string()),
            ]
        );
        store.set_tag(id, "Event", None).unwrap();
        assert_eq!(store.game(id).unwrap().unwrap().game.tags.len(), 2);
        assert_eq!(
            store.list(&GameFilter::default()).unwrap()[0].date,
            "2024.06.30"
        );
        for bad in ["", "Two words", "Qu\"ote"] {
            assert!(matches!(
                store.set_tag(id, bad, Some("x")),
                Err(StoreError::Conflict(_))
            ));
        }
        assert!(matches!(
            store.set_tag(id, "Result", Some("1-0")),
            Err(StoreError::Conflict(_))
        ));
        assert!(matches!(
            store.set_tag(GameId(42), "Round", Some("1")),
            Err(StoreError::NoSuchGame(_))
        ));

        store.delete_game(id).unwrap();
        assert!(store.game(id).unwrap().is_none());
        assert!(matches!(
            store.delete_game(id),
            Err(StoreError::NoSuchGame(_))
        ));
    });
}

#[test]
fn filters_counts_and_position_counts() {
    common::each_backend(|store| {
        let mut ids = Vec::new();
        let cases = [
            (0u16, "Ann", "Ben", Some("1-0"), "2020.01.01"),
            (0, "ben", "Ann", Some("1/2-1/2"), "2021.05.05"),
            (0, "Cid", "Ann", Some("0-1"), "2022.12.31"),
            (959, "Ann", "Cid", Some("1-0"), "2023.03.03"),
            (959, "Ben", "Cid", None, "2024.04.04"),
        ];
        for (start, w, b, result, date) in cases {
            let mut g = new_game(start, w, b);
            g.tags[1].1 = date.into();
            let (id, _) = store.create_game(&g).unwrap();
            if let Some(r) = result {
                store.finish_game(id, &finish(r, "")).unwrap();
            }
            ids.push(id);
        }
        // A game from a set-up position: no start ID.
        let mut setup = new_game(0, "Ann", "Dee");
        setup.start_fen = "4k3/8/8/8/8/8/8/4K2R w K - 0 1".into();
        setup.start_id = None;
        let (setup_id, _) = store.create_game(&setup).unwrap();
        store
            .finish_game(setup_id, &finish("1-0", "checkmate"))
            .unwrap();

        let count = |f: GameFilter| store.count(&f).unwrap();
        assert_eq!(count(GameFilter::default()), 6);
        assert_eq!(
            count(GameFilter {
                start_id: Some(0),
                ..Default::default()
            }),
            3
        );
        // Players match either colour, case-insensitively.
        let ann = GameFilter {
            player: Some("ANN".into()),
            ..Default::default()
        };
        assert_eq!(count(ann.clone()), 5);
        assert_eq!(
            count(GameFilter {
                player: Some("ben".into()),
                ..Default::default()
            }),
            3
        );
        assert_eq!(
            count(GameFilter {
                result: Some(GameResult::parse("*").expect("a result")),
                ..Default::default()
            }),
            1
        );
        assert_eq!(
            count(GameFilter {
                result: Some(GameResult::parse("1-0").expect("a result")),
                ..Default::default()
            }),
            3
        );
        let range = GameFilter {
            date_from: Some("2021.01.01".into()),
            date_to: Some("2023.03.03".into()),
            ..Default::default()
        };
        assert_eq!(count(range), 3);

        // Newest first, limit and offset.
        let page = store
            .list(&GameFilter {
                limit: Some(2),
                offset: 1,
                ..ann
            })
            .unwrap();
        assert_eq!(
            page.iter().map(|g| g.id).collect::<Vec<_>>(),
            vec![ids[3], ids[2]]
        );
        assert_eq!(page[0].result.as_str(), "1-0");
        assert_eq!(page[0].start_id, Some(959));
        let all = store.list(&GameFilter::default()).unwrap();
        assert_eq!(all[0].id, setup_id);
        assert_eq!(all[0].start_id, None);
        assert_eq!(all[0].reason.as_deref(), Some("checkmate"));
        assert_eq!(all[1].result.as_str(), "*");

        assert_eq!(
            store.position_counts(&GameFilter::default()).unwrap(),
            vec![
                PositionCounts {
                    start_id: 0,
                    white_wins: 1,
                    draws: 1,
                    black_wins: 1
                },
                PositionCounts {
                    start_id: 959,
                    white_wins: 1,
                    draws: 0,
                    black_wins: 0
                },
            ]
        );
        let only_cid = GameFilter {
            player: Some("Cid".into()),
            ..Default::default()
        };
        assert_eq!(
            store.position_counts(&only_cid).unwrap(),
            vec![
                PositionCounts {
                    start_id: 0,
                    white_wins: 0,
                    draws: 0,
                    black_wins: 1
                },
                PositionCounts {
                    start_id: 959,
                    white_wins: 1,
                    draws: 0,
                    black_wins: 0
                },
            ]
        );

        // Streaming visits the same games, oldest first.
        let mut seen = Vec::new();
        store
            .for_each_game(
                &GameFilter {
                    player: Some("Ann".into()),
                    ..Default::default()
                },
                &mut |g| {
                    seen.push(g.id);
                    true
                },
            )
            .unwrap();
        assert_eq!(seen, vec![ids[0], ids[1], ids[2], ids[3], setup_id]);
    });
}

#[test]
fn import_detects_duplicates() {
    common::each_backend(|store| {
        let game = new_game(300, "X", "Y");
        let mut pos = chess960_core::StartId::new(300).unwrap().position();
        let mut moves = Vec::new();
        for ply in 0..6 {
            let mv = scripted_move(&pos, ply).unwrap();
            pos = pos.play(
                pos.parse_uci(&mv.uci, chess960_core::CastlingMode::Chess960)
                    .unwrap(),
            );
            moves.push(mv);
        }
        let one = ImportGame {
            game: game.clone(),
            moves: moves.clone(),
            finish: Some(finish("1-0", "")),
            movetext: None,
            index: None,
        };
        let mut other_round = one.clone();
        other_round.game.tags.push(("Round".into(), "2".into()));
        let mut shorter = one.clone();
        shorter.moves.pop();
        let out = store
            .import_games(&[one.clone(), one.clone(), other_round, shorter])
            .unwrap();
        let ImportOutcome::Added(first) = out[0] else {
            panic!("{out:?}")
        };
        assert_eq!(out[1], ImportOutcome::Duplicate(first));
        assert!(matches!(out[2], ImportOutcome::Added(_)));
        assert!(matches!(out[3], ImportOutcome::Added(_)));
        // Again in a later batch, and a played game that ends the same way.
        assert_eq!(
            store.import_games(&[one]).unwrap(),
            vec![ImportOutcome::Duplicate(first)]
        );
        let (played, _) = store.create_game(&game).unwrap();
        for (ply, m) in moves.iter().enumerate() {
            store.append_move(played, ply as u32, m).unwrap();
        }
        store
            .finish_game(played, &finish("1-0", "resignation"))
            .unwrap();
        let again = ImportGame {
            game,
            moves,
            finish: Some(finish("1-0", "")),
            movetext: None,
            index: None,
        };
        assert_eq!(
            store.import_games(&[again]).unwrap(),
            vec![ImportOutcome::Duplicate(first)]
        );
        assert_eq!(store.count(&GameFilter::default()).unwrap(), 4);
    });
}

#[test]
fn migrations_from_an_empty_file_and_an_empty_database() {
    let dir = scratch();
    // An empty file (e.g. made by `touch`).
    let empty = dir.path().join("empty.sqlite3");
    std::fs::write(&empty, b"").unwrap();
    let store = SqliteStore::open(&empty).unwrap();
    store.create_game(&new_game(1, "a", "b")).unwrap();
    drop(store);
    let conn = rusqlite::Connection::open(&empty).unwrap();
    let version: u32 = conn
        .query_row("PRAGMA user_version", [], |r| r.get(0))
        .unwrap();
    let app: u32 = conn
        .query_row("PRAGMA application_id", [], |r| r.get(0))
        .unwrap();
    let mode: String = conn
        .query_row("PRAGMA journal_mode", [], |r| r.get(0))
        .unwrap();
    assert_eq!(
        (version, app, mode.as_str()),
        (SCHEMA_VERSION, APPLICATION_ID, "wal")
    );
    drop(conn);

    // An SQLite database with nothing in it is adopted too.
    let blank = dir.path().join("blank.sqlite3");
    let conn = rusqlite::Connection::open(&blank).unwrap();
    conn.execute_batch("VACUUM").unwrap();
    drop(conn);
    assert!(std::fs::metadata(&blank).unwrap().len() > 0);
    let store = SqliteStore::open(&blank).unwrap();
    assert_eq!(store.count(&GameFilter::default()).unwrap(), 0);

    // A file that does not exist yet is created.
    let fresh = dir.path().join("fresh.sqlite3");
    let store = SqliteStore::open(&fresh).unwrap();
    let (id, _) = store.create_game(&new_game(2, "a", "b")).unwrap();
    drop(store);
    // Reopening an up-to-date database migrates nothing and keeps the games.
    let store = SqliteStore::open(&fresh).unwrap();
    assert!(store.game(id).unwrap().is_some());
    drop(store);
    // A clean close leaves no WAL behind.
    assert!(!dir.path().join("fresh.sqlite3-wal").exists());
}

#[test]
fn clocks_survive_export_and_import() {
    common::each_backend(|store| {
        let (id, _) = store.create_game(&new_game(518, "W", "B")).unwrap();
        play(store.store(), id, 9);
        store
            .finish_game(id, &finish("1-0", "time forfeit"))
            .unwrap();
        let g = store.game(id).unwrap().unwrap();
        let pgn = chess960_store::pgn::to_pgn(&g).unwrap();
        let text = chess960_pgn::game_to_string(&pgn, &Default::default());
        // Whole seconds, as lichess writes them: the 0.3 s spent shows as 0:04:59.
        assert!(text.contains("[%clk 0:04:59]"), "{text}");
        assert!(!text.contains("[%clk 0:04:59."), "{text}");
        assert!(text.contains("[Termination \"time forfeit\"]"), "{text}");
        let back = chess960_pgn::Reader::new(text.as_bytes())
            .read_game()
            .unwrap()
            .unwrap()
            .unwrap();
        let ImportGame {
            game: new,
            moves,
            finish: fin,
            movetext,
            index,
        } = chess960_store::pgn::from_pgn(&back);
        // The reader's index entries are those the store would find.
        assert_eq!(
            index.as_deref(),
            Some(
                &chess960_store::explorer::entries(
                    &new.start_fen,
                    moves.iter().map(|m| m.uci.as_str())
                )[..]
            )
        );
        // The clocks say all there is: no movetext is kept beside them.
        assert_eq!(movetext, None);
        assert_eq!(
            new.clocks,
            Some(Clocks {
                white_ms: 300_000,
                black_ms: 300_000
            })
        );
        assert_eq!(fin, Some(finish("1-0", "time forfeit")));
        assert_eq!(moves.len(), g.moves.len());
        let seconds = |c: Option<Clocks>| {
            c.map(|c| Clocks {
                white_ms: c.white_ms / 1000 * 1000,
                black_ms: c.black_ms / 1000 * 1000,
            })
        };
        for (a, b) in moves.iter().zip(&g.moves) {
            assert_eq!(
                (&a.uci, &a.san, a.clocks),
                (&b.uci, &b.san, seconds(b.clocks))
            );
        }
        // And that re-import is recognised as the game already stored.
        assert_eq!(
            store
                .import_games(&[ImportGame {
                    game: new,
                    moves,
                    finish: fin,
                    movetext: None,
                    index: None,
                }])
                .unwrap(),
            vec![ImportOutcome::Duplicate(id)]
        );
    });
}

#[test]
fn aborted_games_are_no_result_and_can_be_left_out() {
    common::each_backend(|store| {
        let (won, _) = store.create_game(&new_game(100, "Alice", "Bob")).unwrap();
        play(store.store(), won, 4);
        store
            .finish_game(won, &finish("1-0", "resignation"))
            .unwrap();
        let (aborted, _) = store.create_game(&new_game(100, "Alice", "Bob")).unwrap();
        play(store.store(), aborted, 1);
        let (open, _) = store.create_game(&new_game(100, "Alice", "Bob")).unwrap();

        // A '*' finish is only for an aborted game.
        assert!(matches!(
            store.finish_game(open, &finish("*", "resignation")),
            Err(StoreError::Conflict(_))
        ));
        store.finish_game(aborted, &Finish::aborted()).unwrap();
        let back = store.game(aborted).unwrap().unwrap();
        assert_eq!(back.finish, Some(Finish::aborted()));
        assert!(back.finish.unwrap().is_aborted());
        assert_eq!(store.game(open).unwrap().unwrap().finish, None);

        let ids = |f: GameFilter| -> Vec<i64> {
            let mut v: Vec<i64> = store.list(&f).unwrap().iter().map(|g| g.id.0).collect();
            v.sort();
            v
        };
        assert_eq!(ids(GameFilter::default()), vec![won.0, aborted.0, open.0]);
        let without = GameFilter {
            aborted: Some(false),
            ..GameFilter::default()
        };
        assert_eq!(ids(without.clone()), vec![won.0, open.0]);
        assert_eq!(store.count(&without).unwrap(), 2);
        let only = GameFilter {
            aborted: Some(true),
            ..GameFilter::default()
        };
        assert_eq!(ids(only), vec![aborted.0]);
        let summary = store.list(&GameFilter::default()).unwrap();
        let row = summary.iter().find(|g| g.id == aborted).unwrap();
        assert_eq!(
            (row.result.as_str(), row.reason.as_deref()),
            ("*", Some("aborted"))
        );

        // Statistics count the one result only.
        let counts = store.position_counts(&GameFilter::default()).unwrap();
        assert_eq!(
            counts,
            vec![PositionCounts {
                start_id: 100,
                white_wins: 1,
                draws: 0,
                black_wins: 0
            }]
        );
    });
}

#[test]
fn a_start_set_before_the_first_move_only() {
    common::each_backend(|store| {
        let classical = chess960_core::StartId::new(518).unwrap().position();
        let chosen = chess960_core::StartId::new(42).unwrap().position();
        let (id, _) = store
            .create_game(&chess960_store::NewGame {
                start_fen: classical.fen(),
                start_id: Some(518),
                white: "Ann".into(),
                black: "Bob".into(),
                time_control: None,
                clocks: None,
                tags: Vec::new(),
            })
            .unwrap();
        // Not a start number of that FEN, or no FEN at all: refused.
        assert!(matches!(
            store.set_start(id, &chosen.fen(), Some(43)),
            Err(StoreError::Conflict(_))
        ));
        assert!(matches!(
            store.set_start(id, "8/8 w", None),
            Err(StoreError::Conflict(_))
        ));
        store.set_start(id, &chosen.fen(), Some(42)).unwrap();
        let g = store.game(id).unwrap().unwrap();
        assert_eq!(
            (g.game.start_fen.as_str(), g.game.start_id),
            (chosen.fen().as_str(), Some(42))
        );
        // The explorer moved the game with its start: counted at 42, no longer at 518.
        let games_at = |pos: &chess960_core::Position| store.explore(pos, 10).unwrap().games;
        assert_eq!(games_at(&chosen).len(), 1);
        assert!(games_at(&classical).is_empty());
        // Once a move is stored, the start is fixed.
        let pos = chosen;
        let m = pos.legal_moves()[0];
        store
            .append_move(id, 0, &MoveRecord::of(&pos, m, None, 0))
            .unwrap();
        assert!(matches!(
            store.set_start(id, &classical.fen(), Some(518)),
            Err(StoreError::Conflict(_))
        ));
        // And for a finished (here: aborted) game.
        let (id2, _) = store
            .create_game(&chess960_store::NewGame {
                start_fen: classical.fen(),
                start_id: Some(518),
                white: "A".into(),
                black: "B".into(),
                time_control: None,
                clocks: None,
                tags: Vec::new(),
            })
            .unwrap();
        store.finish_game(id2, &Finish::aborted()).unwrap();
        assert!(matches!(
            store.set_start(id2, &chosen.fen(), Some(42)),
            Err(StoreError::Conflict(_))
        ));
    });
}

/// A NUL character (PGN allows no control characters; PostgreSQL's text cannot hold one) is
/// kept as U+FFFD by every backend, in games made, imported, tagged and finished alike, and
/// nothing else about the game changes.
#[test]
fn a_nul_character_is_kept_as_a_replacement_character() {
    common::each_backend(|store| {
        let mut g = new_game(7, "Ann\0Lee", "Bob");
        g.tags.push(("Site".into(), "Oslo\0".into()));
        let (id, _) = store.create_game(&g).unwrap();
        store.set_tag(id, "Round", Some("1\0a")).unwrap();
        store.finish_game(id, &finish("1-0", "resigned\0")).unwrap();
        let back = store.game(id).unwrap().unwrap();
        assert_eq!(back.game.white, "Ann\u{FFFD}Lee");
        assert!(back
            .game
            .tags
            .contains(&("Site".into(), "Oslo\u{FFFD}".into())));
        assert!(back
            .game
            .tags
            .contains(&("Round".into(), "1\u{FFFD}a".into())));
        assert_eq!(back.finish.unwrap().reason, "resigned\u{FFFD}");

        let imported = ImportGame {
            game: new_game(8, "Cy\0", "Di"),
            moves: Vec::new(),
            finish: Some(finish("1/2-1/2", "agreed")),
            movetext: None,
            index: None,
        };
        let out = store.import_games(&[imported.clone(), imported]).unwrap();
        let ImportOutcome::Added(first) = out[0] else {
            panic!("{out:?}")
        };
        assert_eq!(out[1], ImportOutcome::Duplicate(first));
        assert_eq!(store.game(first).unwrap().unwrap().game.white, "Cy\u{FFFD}");
    });
}

/// How many `moves` rows and whether a packed line a game has, read straight from the
/// database (the contract does not show how moves are kept; this test checks that imports
/// pack them and that a takeback turns them back into rows).
fn kept_as(backend: &common::Backend, id: GameId) -> (i64, bool) {
    match backend.name {
        "sqlite" => {
            let c = rusqlite::Connection::open(backend.address()).unwrap();
            c.query_row(
                "SELECT (SELECT count(*) FROM moves WHERE game_id = ?1),
                        packed_moves IS NOT NULL FROM games WHERE id = ?1",
                [id.0],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .unwrap()
        }
        _ => {
            let mut c = postgres::Client::connect(backend.address(), postgres::NoTls).unwrap();
            let r = c
                .query_one(
                    "SELECT (SELECT count(*) FROM moves WHERE game_id = $1),
                            packed_moves IS NOT NULL FROM games WHERE id = $1",
                    &[&id.0],
                )
                .unwrap();
            (r.get(0), r.get(1))
        }
    }
}

#[test]
fn imported_games_are_packed_and_play_on_as_rows_after_a_takeback() {
    common::each_backend(|store| {
        let game = new_game(77, "Packed", "Rows");
        let start = chess960_core::StartId::new(77).unwrap().position();
        let mut pos = start;
        let mut moves = Vec::new();
        for ply in 0..12 {
            let mut mv = scripted_move(&pos, ply).unwrap();
            // An import's moves carry no time of their own (from_pgn gives 0).
            mv.played_at_ms = 0;
            if ply == 5 {
                mv.clocks = None;
            }
            pos = pos.play(
                pos.parse_uci(&mv.uci, chess960_core::CastlingMode::Chess960)
                    .unwrap(),
            );
            moves.push(mv);
        }
        let finished = ImportGame {
            game: game.clone(),
            moves: moves.clone(),
            finish: Some(finish("0-1", "resignation")),
            movetext: None,
            index: None,
        };
        // Unfinished games may go on, and moves played at different times are autosave's:
        // both keep their rows.
        let mut unfinished = finished.clone();
        unfinished.finish = None;
        let mut timed = finished.clone();
        timed.game.white = "Timed".into();
        for (i, m) in timed.moves.iter_mut().enumerate() {
            m.played_at_ms = 1_000 + i as i64;
        }
        let out = store
            .import_games(&[finished.clone(), unfinished, timed.clone()])
            .unwrap();
        let ids: Vec<GameId> = out
            .iter()
            .map(|o| match o {
                ImportOutcome::Added(id) => *id,
                other => panic!("{other:?}"),
            })
            .collect();
        assert_eq!(kept_as(store, ids[0]), (0, true));
        assert_eq!(kept_as(store, ids[1]), (12, false));
        assert_eq!(kept_as(store, ids[2]), (12, false));
        // Read back exactly, UCI, SAN and clocks, and found by the explorer.
        let read = store.game(ids[0]).unwrap().unwrap();
        assert_eq!(read.moves, moves);
        assert_eq!(store.game(ids[2]).unwrap().unwrap().moves, timed.moves);
        let after_six = common::replay(&start.fen(), &moves[..6]);
        assert_eq!(store.explore(&after_six, 10).unwrap().results.games, 3);
        // A changed tag recomputes the hash from the packed line: an import of the game
        // with that tag is its duplicate.
        store.set_tag(ids[0], "Round", Some("3")).unwrap();
        let mut tagged = finished.clone();
        tagged.game.tags.push(("Round".into(), "3".into()));
        assert_eq!(
            store.import_games(&[tagged]).unwrap(),
            vec![ImportOutcome::Duplicate(ids[0])]
        );
        // A takeback reopens the game: its remaining moves become rows and it plays on.
        store.truncate_moves(ids[0], 7).unwrap();
        assert_eq!(kept_as(store, ids[0]), (7, false));
        let reopened = store.game(ids[0]).unwrap().unwrap();
        assert_eq!(reopened.moves, moves[..7].to_vec());
        assert!(reopened.finish.is_none());
        let pos7 = common::replay(&start.fen(), &moves[..7]);
        let next = scripted_move(&pos7, 7).unwrap();
        store.append_move(ids[0], 7, &next).unwrap();
        store
            .finish_game(ids[0], &finish("1-0", "resignation"))
            .unwrap();
        let mut expected = moves[..7].to_vec();
        expected.push(next);
        store.reopen();
        assert_eq!(store.game(ids[0]).unwrap().unwrap().moves, expected);
        assert_eq!(store.explore(&after_six, 10).unwrap().results.games, 3);
        // Exported in the export order, every game comes whole.
        let mut seen = Vec::new();
        store
            .for_each_game(&GameFilter::default(), &mut |g| {
                seen.push((g.id, g.moves.len()));
                true
            })
            .unwrap();
        seen.sort();
        assert_eq!(seen, vec![(ids[0], 8), (ids[1], 12), (ids[2], 12)]);
        store.check().unwrap();
    });
}

#[test]
fn offers_are_kept_with_the_game_until_answered_or_ended() {
    use chess960_core::Color;
    use chess960_store::Offers;
    common::each_backend(|store| {
        let (id, _) = store.create_game(&new_game(518, "Ann", "Bob")).unwrap();
        play(store.store(), id, 4);
        assert_eq!(store.game(id).unwrap().unwrap().offers, Offers::NONE);
        let both = Offers {
            draw: Some(Color::Black),
            takeback: Some(Color::White),
        };
        store.set_offers(id, both).unwrap();
        assert_eq!(store.game(id).unwrap().unwrap().offers, both);
        // What a restarted process reads back.
        store.reopen();
        assert_eq!(store.game(id).unwrap().unwrap().offers, both);
        let draw = Offers {
            draw: Some(Color::Black),
            takeback: None,
        };
        store.set_offers(id, draw).unwrap();
        assert_eq!(store.game(id).unwrap().unwrap().offers, draw);
        assert!(matches!(
            store.set_offers(GameId(999), draw),
            Err(StoreError::NoSuchGame(_))
        ));

        // A takeback takes them back, as the referee does.
        store.set_offers(id, both).unwrap();
        store.truncate_moves(id, 3).unwrap();
        assert_eq!(store.game(id).unwrap().unwrap().offers, Offers::NONE);

        // The end takes them back; a finished game takes none, though none may be set.
        store.set_offers(id, draw).unwrap();
        store
            .finish_game(id, &finish("1/2-1/2", "draw agreed"))
            .unwrap();
        let over = store.game(id).unwrap().unwrap();
        assert_eq!(over.offers, Offers::NONE);
        assert!(matches!(
            store.set_offers(id, draw),
            Err(StoreError::Conflict(_))
        ));
        store.set_offers(id, Offers::NONE).unwrap();
        assert_eq!(store.game(id).unwrap().unwrap().offers, Offers::NONE);
        // An aborted game is over too.
        let (aborted, _) = store.create_game(&new_game(518, "Ann", "Bob")).unwrap();
        store.finish_game(aborted, &Finish::aborted()).unwrap();
        assert!(matches!(
            store.set_offers(aborted, draw),
            Err(StoreError::Conflict(_))
        ));
    });
}

#[test]
fn a_database_from_before_the_offers_keeps_its_games_and_takes_offers() {
    use chess960_core::Color;
    use chess960_store::Offers;
    common::each_backend(|b| {
        let (id, _) = b.create_game(&new_game(518, "Ann", "Bob")).unwrap();
        play(b.store(), id, 2);
        // Back to the schema before the offers: no offer columns, the version before.
        let drop_columns = "ALTER TABLE games DROP COLUMN draw_offer; \
                            ALTER TABLE games DROP COLUMN takeback_offer;";
        match b.name {
            "sqlite" => {
                let c = rusqlite::Connection::open(b.address()).unwrap();
                c.execute_batch(&format!(
                    "{drop_columns} PRAGMA user_version = {};",
                    SCHEMA_VERSION - 1
                ))
                .unwrap();
            }
            _ => {
                let mut c = postgres::Client::connect(b.address(), postgres::NoTls).unwrap();
                c.batch_execute(&format!(
                    "{drop_columns} UPDATE chess960_meta SET value = '{}' \
                     WHERE name = 'schema_version';",
                    chess960_store::postgres::PG_SCHEMA_VERSION - 1
                ))
                .unwrap();
            }
        }
        b.reopen();
        let game = b.game(id).unwrap().unwrap();
        assert_eq!((game.moves.len(), game.offers), (2, Offers::NONE));
        let draw = Offers {
            draw: Some(Color::White),
            takeback: None,
        };
        b.set_offers(id, draw).unwrap();
        b.reopen();
        assert_eq!(b.game(id).unwrap().unwrap().offers, draw);
    });
}
