//! Files that are not a healthy chess960 database get a clear error and are never written
//! to: another program's SQLite database, random bytes, a text file, a truncated or damaged
//! database, one from a newer version.

mod common;

use chess960_store::{GameFilter, GameStore, SqliteStore, StoreError};
use common::{bytes, new_game, scratch};
use std::path::Path;

fn open_err(path: &Path) -> StoreError {
    match SqliteStore::open(path) {
        Ok(_) => panic!("{} was opened", path.display()),
        Err(e) => e,
    }
}

/// A database of ours with enough games to fill many pages; returns its bytes.
fn ours(path: &Path) -> Vec<u8> {
    let store = SqliteStore::open(path).unwrap();
    for i in 0..300u16 {
        store
            .create_game(&new_game(
                i,
                &format!("player {i}"),
                "someone with a long name",
            ))
            .unwrap();
    }
    drop(store);
    assert!(!Path::new(&format!("{}-wal", path.display())).exists());
    bytes(path)
}

#[test]
fn another_programs_database_is_refused_untouched() {
    let dir = scratch();
    // A plain SQLite database with tables of its own.
    let path = dir.path().join("firefox.sqlite");
    let conn = rusqlite::Connection::open(&path).unwrap();
    conn.execute_batch("CREATE TABLE moz_places (id INTEGER PRIMARY KEY, url TEXT); INSERT INTO moz_places (url) VALUES ('x');")
        .unwrap();
    drop(conn);
    let before = bytes(&path);
    let e = open_err(&path);
    assert!(matches!(e, StoreError::NotOurDatabase { .. }), "{e:?}");
    assert!(
        e.to_string().contains("is not a chess960 game database"),
        "{e}"
    );
    assert_eq!(bytes(&path), before);
    assert!(!dir.path().join("firefox.sqlite-wal").exists());

    // One with another application_id, even without tables.
    let path = dir.path().join("other.db");
    let conn = rusqlite::Connection::open(&path).unwrap();
    conn.execute_batch("PRAGMA application_id = 1234; VACUUM;")
        .unwrap();
    drop(conn);
    let before = bytes(&path);
    let e = open_err(&path);
    assert!(e.to_string().contains("application_id 0x000004d2"), "{e}");
    assert_eq!(bytes(&path), before);
}

#[test]
fn files_that_are_not_sqlite_are_refused_untouched() {
    let dir = scratch();
    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    let random: Vec<u8> = (0..8192)
        .map(|_| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed as u8
        })
        .collect();
    for (name, content) in [
        ("random.bin", random.as_slice()),
        ("notes.txt", b"just some text\n".as_slice()),
        ("games.pgn", b"[Event \"x\"]\n\n1. e4 *\n".as_slice()),
    ] {
        let path = dir.path().join(name);
        std::fs::write(&path, content).unwrap();
        let e = open_err(&path);
        match &e {
            StoreError::NotOurDatabase { detail, .. } => {
                assert!(detail.contains("not an SQLite database"), "{e}")
            }
            other => panic!("{name}: {other:?}"),
        }
        assert_eq!(bytes(&path), content, "{name} was changed");
    }
    // A directory is not a database either.
    let e = open_err(dir.path());
    assert!(matches!(e, StoreError::NotOurDatabase { .. }), "{e:?}");
}

#[test]
fn a_truncated_database_is_reported_damaged_untouched() {
    let dir = scratch();
    let path = dir.path().join("t.sqlite3");
    let full = ours(&path);
    for keep in [full.len() / 2, 4096 + 100, 150] {
        std::fs::write(&path, &full[..keep]).unwrap();
        let e = open_err(&path);
        assert!(matches!(e, StoreError::Corrupt { .. }), "{keep}: {e:?}");
        assert!(e.to_string().contains("damaged"), "{e}");
        assert!(e.to_string().contains("truncated"), "{e}");
        assert_eq!(bytes(&path), &full[..keep]);
    }
}

#[test]
fn a_damaged_database_is_reported_never_repaired_or_written() {
    let dir = scratch();
    let path = dir.path().join("c.sqlite3");
    let full = ours(&path);
    // Garbage over every page but the first (the header and schema stay readable).
    let mut damaged = full.clone();
    let page = 4096;
    for (i, b) in damaged[page..].iter_mut().enumerate() {
        *b = (i as u8).wrapping_mul(151).wrapping_add(7);
    }
    std::fs::write(&path, &damaged).unwrap();
    match SqliteStore::open(&path) {
        Err(e) => assert!(matches!(e, StoreError::Corrupt { .. }), "{e:?}"),
        Ok(store) => {
            let e = store.count(&GameFilter::default()).unwrap_err();
            assert!(matches!(e, StoreError::Corrupt { .. }), "{e:?}");
            assert!(matches!(
                store.list(&GameFilter::default()),
                Err(StoreError::Corrupt { .. })
            ));
            assert!(matches!(store.check(), Err(StoreError::Corrupt { .. })));
            // A write fails too, and leaves the file as it was.
            assert!(store.create_game(&new_game(0, "a", "b")).is_err());
        }
    }
    assert_eq!(bytes(&path), damaged);

    // A damaged header page is refused on opening.
    let mut header = full.clone();
    for b in &mut header[100..4096] {
        *b = 0xa5;
    }
    std::fs::write(&path, &header).unwrap();
    let e = open_err(&path);
    assert!(
        matches!(
            e,
            StoreError::Corrupt { .. } | StoreError::NotOurDatabase { .. }
        ),
        "{e:?}"
    );
    assert_eq!(bytes(&path), header);
}

#[test]
fn a_newer_schema_is_refused() {
    let dir = scratch();
    let path = dir.path().join("n.sqlite3");
    ours(&path);
    let conn = rusqlite::Connection::open(&path).unwrap();
    conn.execute_batch("PRAGMA user_version = 99").unwrap();
    drop(conn);
    let before = bytes(&path);
    let e = open_err(&path);
    assert!(matches!(e, StoreError::TooNew { found: 99, .. }), "{e:?}");
    assert_eq!(bytes(&path), before);
}
