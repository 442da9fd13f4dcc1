//! The registry of engines in every backend's store: engines added with their command,
//! arguments, working directory, protocol and options and read back exactly, names unique
//! whatever their case, bad names and options refused with what is wrong (and nothing
//! written), replaced, removed, kept across a reopen; and a database of the previous schema
//! version upgraded with its data kept.

mod common;

use chess960_store::engines::{EngineError, EngineProtocol, EngineStore, RegisteredEngine};
use chess960_store::GameStore;

fn engines(store: &dyn GameStore) -> &dyn EngineStore {
    store.engine_store().expect("the database keeps engines")
}

fn engine(name: &str) -> RegisteredEngine {
    RegisteredEngine {
        name: name.into(),
        command: "/usr/games/stockfish".into(),
        args: vec![],
        dir: None,
        protocol: EngineProtocol::Uci,
        options: vec![],
        added_ms: 1_800_000_000_000,
    }
}

#[test]
fn engines_round_trip_and_are_unique_whatever_their_case() {
    common::each_backend(|b| {
        let s = engines(b.store());
        assert!(s.engines().unwrap().is_empty());
        let full = RegisteredEngine {
            name: "Stockfish 17 (nnue)".into(),
            command: "/opt/engines/stockfish dir/sf".into(),
            args: vec![
                "--uci".into(),
                "a b".into(),
                "ünïcode \"quoted\"".into(),
                String::new(),
            ],
            dir: Some("/opt/engines".into()),
            protocol: EngineProtocol::Uci,
            options: vec![
                ("Hash".into(), "64".into()),
                ("Threads".into(), "2".into()),
                ("SyzygyPath".into(), "/tb/a b;c".into()),
                ("Clear Hash".into(), String::new()),
            ],
            added_ms: 1_800_000_000_123,
        };
        s.add_engine(&full).unwrap();
        let xb = RegisteredEngine {
            protocol: EngineProtocol::Xboard,
            command: "fairy-stockfish".into(),
            ..engine("alpha-xb")
        };
        s.add_engine(&xb).unwrap();
        assert_eq!(
            s.engine("stockfish 17 (NNUE)").unwrap().as_ref(),
            Some(&full)
        );
        assert_eq!(s.engine("ALPHA-XB").unwrap().as_ref(), Some(&xb));
        assert_eq!(s.engine("nobody").unwrap(), None);
        // By name whatever its case.
        let names: Vec<String> = s.engines().unwrap().into_iter().map(|e| e.name).collect();
        assert_eq!(names, ["alpha-xb", "Stockfish 17 (nnue)"]);

        // The same name in another case is taken; the error names the registered one.
        match s.add_engine(&engine("STOCKFISH 17 (NNUE)")) {
            Err(EngineError::NameTaken(n)) => assert_eq!(n, "Stockfish 17 (nnue)"),
            other => panic!("{other:?}"),
        }
        assert_eq!(b.rows("engines"), 2);

        // Kept across a reopen.
        b.reopen();
        let s = engines(b.store());
        assert_eq!(s.engine("Stockfish 17 (nnue)").unwrap(), Some(full.clone()));

        // Replaced whole, under the new spelling.
        let replaced = RegisteredEngine {
            name: "stockfish 17 (NNUE)".into(),
            options: vec![("Hash".into(), "128".into())],
            dir: None,
            args: vec![],
            ..full.clone()
        };
        s.update_engine(&replaced).unwrap();
        assert_eq!(s.engine("Stockfish 17 (nnue)").unwrap(), Some(replaced));
        assert!(matches!(
            s.update_engine(&engine("ghost")),
            Err(EngineError::NoSuchEngine(_))
        ));

        // Removed whatever the case; a second time it is not there.
        s.remove_engine("STOCKFISH 17 (nnue)").unwrap();
        assert!(matches!(
            s.remove_engine("Stockfish 17 (nnue)"),
            Err(EngineError::NoSuchEngine(n)) if n == "Stockfish 17 (nnue)"
        ));
        assert_eq!(s.engines().unwrap(), vec![xb]);
        // The name is free again.
        s.add_engine(&engine("Stockfish 17 (nnue)")).unwrap();
        assert_eq!(b.rows("engines"), 2);
    });
}

#[test]
fn bad_engines_are_refused_with_what_is_wrong_and_nothing_written() {
    common::each_backend(|b| {
        let s = engines(b.store());
        for name in [
            "",
            " lead",
            "trail ",
            "a/b",
            "semi;colon",
            "tab\there",
            &"x".repeat(41),
        ] {
            match s.add_engine(&engine(name)) {
                Err(EngineError::BadName(why)) => assert!(!why.is_empty()),
                other => panic!("{name:?}: {other:?}"),
            }
        }
        s.add_engine(&engine(&"x".repeat(40))).unwrap();
        s.add_engine(&engine("Émile-1.0_(b)+")).unwrap();

        let no_cmd = RegisteredEngine {
            command: "  ".into(),
            ..engine("empty")
        };
        assert!(matches!(
            s.add_engine(&no_cmd),
            Err(EngineError::BadCommand(_))
        ));
        let ctrl_cmd = RegisteredEngine {
            command: "sf\nrm -rf /".into(),
            ..engine("ctrl")
        };
        assert!(matches!(
            s.add_engine(&ctrl_cmd),
            Err(EngineError::BadCommand(_))
        ));
        let too_many = RegisteredEngine {
            options: (0..65).map(|i| (format!("Opt{i}"), "1".into())).collect(),
            ..engine("many")
        };
        match s.add_engine(&too_many) {
            Err(EngineError::BadOption(why)) => assert!(why.contains("64"), "{why}"),
            other => panic!("{other:?}"),
        }
        let just_enough = RegisteredEngine {
            options: (0..64).map(|i| (format!("Opt{i}"), "1".into())).collect(),
            ..engine("enough")
        };
        s.add_engine(&just_enough).unwrap();
        for options in [
            vec![("Hash".to_string(), "1\r\n".to_string())],
            vec![("Ha\u{1b}sh".into(), "1".into())],
            vec![(String::new(), "1".into())],
            vec![("A=B".into(), "1".into())],
            vec![("Hash".into(), "1".into()), ("HASH".into(), "2".into())],
            vec![("Hash".into(), "v".repeat(1001))],
        ] {
            let e = RegisteredEngine {
                options: options.clone(),
                ..engine("opts")
            };
            assert!(
                matches!(s.add_engine(&e), Err(EngineError::BadOption(_))),
                "{options:?}"
            );
        }
        let bad_dir = RegisteredEngine {
            dir: Some(String::new()),
            ..engine("dir")
        };
        assert!(matches!(
            s.add_engine(&bad_dir),
            Err(EngineError::BadArgument(_))
        ));
        // An update is checked as an add is.
        let bad_update = RegisteredEngine {
            command: String::new(),
            ..engine("enough")
        };
        assert!(matches!(
            s.update_engine(&bad_update),
            Err(EngineError::BadCommand(_))
        ));
        assert_eq!(s.engine("enough").unwrap(), Some(just_enough));
        assert_eq!(b.rows("engines"), 3);
    });
}

#[test]
fn errors_say_what_is_wrong() {
    let e = engine("bad/name").check().unwrap_err();
    assert!(
        e.to_string().contains("bad/name") && e.to_string().contains('/'),
        "{e}"
    );
    let taken = EngineError::NameTaken("SF".into()).to_string();
    assert!(taken.contains("already registered"), "{taken}");
    let none = EngineError::NoSuchEngine("ghost".into()).to_string();
    assert_eq!(none, "no engine named 'ghost'");
}

#[test]
fn a_database_of_the_previous_schema_version_keeps_its_data_and_takes_engines() {
    common::each_backend(|b| {
        let game = chess960_store::NewGame {
            start_fen: "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1".into(),
            start_id: Some(518),
            white: "Ann".into(),
            black: "Bob".into(),
            time_control: None,
            clocks: None,
            tags: vec![],
        };
        let (id, _) = b.create_game(&game).unwrap();
        // Back to the schema before the registry (SQLite's version 10, PostgreSQL's 7): no
        // engines table, nor what later versions added (the offer columns), the version
        // before.
        let undo = "DROP TABLE engines; ALTER TABLE games DROP COLUMN draw_offer; \
                    ALTER TABLE games DROP COLUMN takeback_offer;";
        match b.name {
            "sqlite" => {
                let c = rusqlite::Connection::open(b.address()).unwrap();
                c.execute_batch(&format!("{undo} PRAGMA user_version = 9;"))
                    .unwrap();
            }
            _ => {
                let mut c = postgres::Client::connect(b.address(), postgres::NoTls).unwrap();
                c.batch_execute(&format!(
                    "{undo} UPDATE chess960_meta SET value = '6' \
                     WHERE name = 'schema_version';"
                ))
                .unwrap();
            }
        }
        b.reopen();
        assert_eq!(b.game(id).unwrap().unwrap().game.white, "Ann");
        let s = engines(b.store());
        assert!(s.engines().unwrap().is_empty());
        s.add_engine(&engine("SF")).unwrap();
        assert_eq!(s.engines().unwrap().len(), 1);
    });
}
