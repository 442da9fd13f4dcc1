//! What the store keeps (schema version 2): the annotated movetext of imported games, the
//! duplicate rule of docs/store.md (the identifying tags; unfinished games never), the
//! atomic create-with-moves, and the migration of a database written by schema version 1.

mod common;

use chess960_core::Color;
use chess960_pgn::{game_to_string, Game, Reader, WriteOptions};
use chess960_store::pgn::{from_pgn, to_pgn};
use chess960_store::sqlite::SCHEMA_VERSION;
use chess960_store::{
    GameFilter, GameId, GameStore, ImportGame, ImportOutcome, MoveRecord, SeatRecord, Seats,
    SqliteStore, StoreError,
};
use common::{new_game, replay, scratch, scripted_move};
use std::path::Path;

fn games(text: &str) -> Vec<Game> {
    let mut r = Reader::new(text.as_bytes());
    let mut out = Vec::new();
    while let Some(g) = r.read_game().unwrap() {
        out.push(g.unwrap());
    }
    out
}

fn import(store: &dyn GameStore, text: &str) -> Vec<ImportOutcome> {
    let batch: Vec<ImportGame> = games(text).iter().map(from_pgn).collect();
    store.import_games(&batch).unwrap()
}

fn added(outcomes: &[ImportOutcome]) -> Vec<GameId> {
    outcomes
        .iter()
        .filter_map(|o| match o {
            ImportOutcome::Added(id) => Some(*id),
            ImportOutcome::Duplicate(_) => None,
        })
        .collect()
}

fn export(store: &dyn GameStore, id: GameId) -> String {
    let stored = store.game(id).unwrap().unwrap();
    game_to_string(&to_pgn(&stored).unwrap(), &WriteOptions::default())
}

/// The movetext of a written game: what follows the blank line after the tags.
fn movetext(pgn: &str) -> &str {
    let at = pgn.find("\n\n").expect("a tag section");
    pgn[at + 2..].trim_end()
}

#[test]
fn comments_nags_and_variations_survive_import_and_export() {
    common::each_backend(|store| {
        let big = "word ".repeat(200_000);
        let text = format!(
            "[Event \"Annotated\"]\n[White \"A\"]\n[Black \"B\"]\n\n\
             {{ Before the first move }} 1. e4 $1 {{ {big} }} (1. d4 d5 (1... Nf6 2. c4 $5)) \
             1... e5 2. Nf3 {{ [%clk 0:05:00] }} Nc6 1-0\n"
        );
        let ids = added(&import(store.store(), &text));
        assert_eq!(ids.len(), 1);
        let stored = store.game(ids[0]).unwrap().unwrap();
        // The move rows stay the main line.
        let ucis: Vec<&str> = stored.moves.iter().map(|m| m.uci.as_str()).collect();
        assert_eq!(ucis, ["e2e4", "e7e5", "g1f3", "b8c6"]);
        let out = export(store.store(), ids[0]);
        let original = game_to_string(&games(&text)[0], &WriteOptions::default());
        assert_eq!(movetext(&out), movetext(&original));
        assert!(out.contains("{ Before the first move } 1. e4 $1 { word word"));
        assert_eq!(out.matches("word").count(), 200_000);
        let flowed = out.replace('\n', " ");
        assert!(
            flowed.contains("( 1. d4 d5 ( 1... Nf6 2. c4 $5 ) ) 1... e5 2. Nf3 { [%clk 0:05:00] }")
        );

        // A game whose clocks say it all keeps no movetext beside them.
        let plain = "[Event \"Plain\"]\n[TimeControl \"300+0\"]\n\n\
                     1. e4 { [%clk 0:04:58] } e5 { [%clk 0:04:57] } 1/2-1/2\n";
        let ids = added(&import(store.store(), plain));
        assert_eq!(store.game(ids[0]).unwrap().unwrap().movetext, None);
        assert_eq!(
            movetext(&export(store.store(), ids[0])),
            movetext(&game_to_string(&games(plain)[0], &WriteOptions::default()))
        );

        // Clocks with fractions (as chess.com writes them) are not what the store writes (whole
        // seconds): the movetext is kept, and export gives them back as imported.
        let fractions = "[Event \"Tenths\"]\n[TimeControl \"300+0\"]\n\n\
                         1. e4 { [%clk 0:04:58.7] } e5 { [%clk 0:04:57.1] } 1/2-1/2\n";
        let ids = added(&import(store.store(), fractions));
        assert!(store.game(ids[0]).unwrap().unwrap().movetext.is_some());
        assert_eq!(
            movetext(&export(store.store(), ids[0])),
            movetext(&game_to_string(
                &games(fractions)[0],
                &WriteOptions::default()
            ))
        );
    });
}

/// Pasted moves without a result that end in mate are the mate's result, as lichess imports
/// them; moves without a result that do not end the game stay unfinished.
#[test]
fn a_game_without_a_result_that_the_board_ended_gets_its_result() {
    common::each_backend(|store| {
        let ids = added(&import(
            store.store(),
            "1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7#\n\n[Event \"b\"]\n\n1. f3 e5 2. g4 Qh4# *\n\n\
             [Event \"c\"]\n\n1. d4 d5\n",
        ));
        let finish = |id| store.game(id).unwrap().unwrap().finish;
        let mate = finish(ids[0]).expect("mate ends the game");
        assert_eq!(
            (mate.result.as_str(), mate.reason.as_str()),
            ("1-0", "checkmate")
        );
        assert_eq!(finish(ids[1]).expect("mate").result.as_str(), "0-1");
        assert_eq!(finish(ids[2]), None);
    });
}

#[test]
fn moves_changed_after_import_keep_the_annotations_that_still_apply() {
    common::each_backend(|store| {
        let text = "[Event \"Unfinished\"]\n\n1. e4 { first } e5 $2 (1... c5 { sicilian }) 2. Nf3 { third } *\n";
        let id = added(&import(store.store(), text))[0];
        // A move appended (the game continued): the annotations stay, the new move follows.
        let pos = replay(
            &store.game(id).unwrap().unwrap().game.start_fen,
            &store.game(id).unwrap().unwrap().moves,
        );
        let nc6 = pos.parse_san("Nc6").unwrap();
        store
            .append_move(
                id,
                3,
                &MoveRecord {
                    uci: nc6.to_uci(chess960_core::CastlingMode::Chess960),
                    san: "Nc6".into(),
                    clocks: None,
                    played_at_ms: 1,
                },
            )
            .unwrap();
        assert_eq!(
            movetext(&export(store.store(), id)),
            "1. e4 { first } 1... e5 $2 ( 1... c5 { sicilian } ) 2. Nf3 { third } 2... Nc6 *"
        );
        // Taken back to one move: what was said about the moves taken back goes with them.
        store.truncate_moves(id, 1).unwrap();
        assert_eq!(movetext(&export(store.store(), id)), "1. e4 { first } *");
    });
}

#[test]
fn a_duplicate_is_the_same_game_with_the_same_identifying_tags() {
    common::each_backend(|store| {
        // Unfinished games are never duplicates, not even of an identical text: two games
        // stopped after 1. e4 may be two different games.
        let unfinished =
            "[Event \"A\"]\n\n1. e4 *\n\n[Event \"B\"]\n\n1. e4 *\n\n1. e4 *\n\n1. e4 *\n";
        assert_eq!(added(&import(store.store(), unfinished)).len(), 4);
        assert_eq!(added(&import(store.store(), unfinished)).len(), 4);

        // Finished games: each identifying tag tells two games apart; other tags do not.
        let base = "[Event \"E\"]\n[Site \"S\"]\n[Date \"2024.05.06\"]\n[Round \"1\"]\n\
                    [White \"W\"]\n[Black \"B\"]\n[Annotator \"x\"]\n\n1. e4 e5 1-0\n\n";
        let first = import(store.store(), base);
        let ImportOutcome::Added(first) = first[0] else {
            panic!("{first:?}")
        };
        for (from, to) in [
            ("Event \"E\"", "Event \"E2\""),
            ("Site \"S\"", "Site \"S2\""),
            ("Date \"2024.05.06\"", "Date \"2024.05.07\""),
            ("Round \"1\"", "Round \"2\""),
            ("White \"W\"", "White \"W2\""),
            ("Black \"B\"", "Black \"B2\""),
            ("1-0", "0-1"),
            ("1. e4 e5", "1. e4 c5"),
        ] {
            let other = base.replace(from, to);
            assert!(
                matches!(import(store.store(), &other)[0], ImportOutcome::Added(_)),
                "{to}"
            );
        }
        for (from, to) in [
            ("Annotator \"x\"", "Annotator \"y\""),
            ("1. e4 e5", "1. e4 { a comment } e5 (1... c5)"),
            // A missing identifying tag and PGN's unknown are the same.
            ("[Site \"S\"]\n", "[Site \"S\"]\n[Opening \"?\"]\n"),
        ] {
            let same = base.replace(from, to);
            assert_eq!(
                import(store.store(), &same),
                vec![ImportOutcome::Duplicate(first)],
                "{to}"
            );
        }
        let unknown = "[Event \"?\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n\n1. d4 1-0\n\n";
        let none = "\n1. d4 1-0\n\n";
        let id = added(&import(store.store(), unknown))[0];
        assert_eq!(
            import(store.store(), none),
            vec![ImportOutcome::Duplicate(id)]
        );
    });
}

#[test]
fn create_game_with_moves_stores_all_or_nothing() {
    common::each_backend(|store| {
        let game = new_game(100, "P", "Q");
        let mut pos = replay(&game.start_fen, &[]);
        let mut moves = Vec::new();
        for ply in 0..8 {
            let m = scripted_move(&pos, ply).unwrap();
            pos = replay(&game.start_fen, &[moves.clone(), vec![m.clone()]].concat());
            moves.push(m);
        }
        let (id, key) = store
            .create_game_with_moves(&game, &moves, &Seats::one(Color::Black, "5eat".into()))
            .unwrap();
        let stored = store.game_by_key(&key).unwrap().unwrap();
        assert_eq!(stored.id, id);
        assert_eq!(stored.moves, moves);
        assert_eq!(stored.finish, None);
        assert_eq!(stored.game, game);
        assert_eq!(
            stored.seats,
            Seats {
                white: SeatRecord::None,
                black: SeatRecord::Held {
                    hash: "5eat".into()
                }
            }
        );
        // Ready to go on at the next ply, and only there.
        let next = scripted_move(&pos, 8).unwrap();
        assert!(matches!(
            store.append_move(id, 7, &next),
            Err(StoreError::Conflict(_))
        ));
        store.append_move(id, 8, &next).unwrap();

        // A bad record anywhere leaves nothing behind: no game, no tags, no moves.
        let before = (store.rows("games"), store.rows("tags"), store.rows("moves"));
        let mut illegal = moves.clone();
        illegal[5].uci = moves[4].uci.clone();
        let mut wrong_san = moves.clone();
        wrong_san[6].san = "Qh5".into();
        let mut not_uci = moves.clone();
        not_uci[2].uci = "castle".into();
        let mut bad_start = game.clone();
        bad_start.start_id = Some(960);
        let mut bad_fen = game.clone();
        bad_fen.start_fen = "not a fen".into();
        for (what, g, m, says) in [
            ("illegal move", &game, &illegal, "half-move 6"),
            ("wrong SAN", &game, &wrong_san, "half-move 7"),
            ("not UCI", &game, &not_uci, "half-move 3"),
            ("start ID", &bad_start, &moves, "960"),
            ("start FEN", &bad_fen, &moves, "not a fen"),
        ] {
            match store.create_game_with_moves(g, m, &Seats::one(Color::White, "5eat".into())) {
                Err(StoreError::Conflict(msg)) => assert!(msg.contains(says), "{what}: {msg}"),
                other => panic!("{what}: {other:?}"),
            }
            assert_eq!(
                (store.rows("games"), store.rows("tags"), store.rows("moves")),
                before,
                "{what}"
            );
        }
        assert_eq!(store.count(&GameFilter::default()).unwrap(), 1);
        // No moves at all is a plain create.
        let (empty, _) = store
            .create_game_with_moves(&game, &[], &Seats::NONE)
            .unwrap();
        let empty = store.game(empty).unwrap().unwrap();
        assert!(empty.moves.is_empty());
        assert_eq!(empty.seats, Seats::NONE);
    });
}

#[test]
fn a_version_1_database_is_upgraded_and_its_hashes_recomputed() {
    // tests/data/v1.sqlite3 was written by `chess960 db import tests/data/v1.pgn` of schema
    // version 1 (main before issue 13): 3 games, the second unfinished `1. e4 *` (Event "B")
    // taken for a duplicate of the first (Event "A") and dropped.
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data");
    let dir = scratch();
    let path = dir.path().join("v1.sqlite3");
    std::fs::copy(data.join("v1.sqlite3"), &path).unwrap();
    let version = |p: &Path| -> u32 {
        rusqlite::Connection::open(p)
            .unwrap()
            .query_row("PRAGMA user_version", [], |r| r.get(0))
            .unwrap()
    };
    assert_eq!(version(&path), 1);
    let store = SqliteStore::open(&path).unwrap();
    assert_eq!(SCHEMA_VERSION, 11);
    // Version 6 added events, version 8 players: an old file has none, and takes them.
    assert!(chess960_store::EventStore::events(&store)
        .unwrap()
        .is_empty());
    assert!(chess960_store::PlayerStore::users(&store)
        .unwrap()
        .is_empty());
    assert_eq!(store.count(&GameFilter::default()).unwrap(), 3);
    let first = store.game(GameId(1)).unwrap().unwrap();
    assert_eq!(first.movetext, None);
    assert_eq!(first.seats, Seats::NONE);
    assert_eq!(first.moves.len(), 5);
    // Version 11 added the offers standing in a game: an old file's games have none.
    assert_eq!(first.offers, chess960_store::Offers::NONE);
    drop(store);
    assert_eq!(version(&path), SCHEMA_VERSION);
    let conn = rusqlite::Connection::open(&path).unwrap();
    let unhashed: i64 = conn
        .query_row(
            "SELECT count(*) FROM games WHERE dup_hash IS NULL AND result = '*'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(unhashed, 1);
    drop(conn);

    // The finished games are found again by the recomputed hashes; the unfinished game
    // dropped before is added now (and so is the unfinished game already there).
    let store = SqliteStore::open(&path).unwrap();
    let text = std::fs::read_to_string(data.join("v1.pgn")).unwrap();
    let out = import(&store, &text);
    assert_eq!(out[0], ImportOutcome::Duplicate(GameId(1)));
    assert_eq!(out[1], ImportOutcome::Duplicate(GameId(2)));
    assert!(matches!(out[2], ImportOutcome::Added(_)));
    assert!(matches!(out[3], ImportOutcome::Added(_)));
    // Opening again migrates nothing more.
    drop(store);
    let store = SqliteStore::open(&path).unwrap();
    assert_eq!(store.count(&GameFilter::default()).unwrap(), 5);
}

#[test]
fn a_version_4_seat_moves_to_the_human_colour() {
    // tests/data/v4.sqlite3 was written by `chess960 serve` of schema version 4 (main before
    // issue 16): game 1 with the human as White, game 2 with the human as Black, each with
    // the SHA-256 of its seat token in the one seat column of that version.
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data");
    let dir = scratch();
    let path = dir.path().join("v4.sqlite3");
    std::fs::copy(data.join("v4.sqlite3"), &path).unwrap();
    let store = SqliteStore::open(&path).unwrap();
    let held = |hash: &str| SeatRecord::Held { hash: hash.into() };
    let white = store.game(GameId(1)).unwrap().unwrap();
    assert_eq!(
        white.seats,
        Seats {
            white: held("c4a25f4d532b338d3e550b5e2c11b4795af1a6e6ae9e6829971e9b558ad77ece"),
            black: SeatRecord::None,
        }
    );
    let black = store.game(GameId(2)).unwrap().unwrap();
    assert_eq!(
        black.seats,
        Seats {
            white: SeatRecord::None,
            black: held("72044dcaa4362dcb2a901eb18205a1cbc8658fe3985a44fdf5ea2899604ae6f4"),
        }
    );
    assert_eq!(black.moves.len(), 1, "the engine's first move is kept");
}

#[test]
fn an_open_seat_is_claimed_once() {
    common::each_backend(|store| {
        let game = new_game(518, "Ann", "Bob");
        let seats = Seats {
            white: SeatRecord::Held { hash: "a1".into() },
            black: SeatRecord::Open,
        };
        let (id, _) = store.create_game_with_moves(&game, &[], &seats).unwrap();
        assert_eq!(store.game(id).unwrap().unwrap().seats, seats);
        // White's seat is held, not open.
        assert!(matches!(
            store.claim_seat(id, Color::White, "b2", "Bob"),
            Err(StoreError::Conflict(m)) if m.contains("white seat") && m.contains("not open")
        ));
        assert!(matches!(
            store.claim_seat(id, Color::Black, "open", "Bob"),
            Err(StoreError::Conflict(_))
        ));
        store.claim_seat(id, Color::Black, "b2", "Bob").unwrap();
        let claimed = store.game(id).unwrap().unwrap();
        assert_eq!(claimed.seats.black, SeatRecord::Held { hash: "b2".into() });
        assert_eq!(
            (claimed.game.white.as_str(), claimed.game.black.as_str()),
            ("Ann", "Bob")
        );
        // The second claim of the same seat loses.
        assert!(matches!(
            store.claim_seat(id, Color::Black, "c3", "Cy"),
            Err(StoreError::Conflict(_))
        ));
        assert!(matches!(
            store.claim_seat(GameId(99), Color::Black, "c3", "Cy"),
            Err(StoreError::NoSuchGame(_))
        ));
    });
}
