//! Helpers shared by the store's integration tests.
#![allow(dead_code)]

use chess960_core::{CastlingMode, Position, StartId};
use chess960_store::{Clocks, MoveRecord, NewGame};
use std::path::{Path, PathBuf};

/// `shared/data`, beside the repository (or `CHESS960_SHARED_DATA`).
pub fn data_dir() -> PathBuf {
    if let Ok(p) = std::env::var("CHESS960_SHARED_DATA") {
        return PathBuf::from(p);
    }
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data");
    assert!(
        p.is_dir(),
        "test data not found at {} (set CHESS960_SHARED_DATA)",
        p.display()
    );
    p
}

/// A fresh scratch directory, removed when dropped.
pub fn scratch() -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix("chess960-store-test")
        .tempdir()
        .expect("a temporary directory")
}

/// The bytes of a file, for "nothing was written" checks.
pub fn bytes(path: &Path) -> Vec<u8> {
    std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// A timed game from start position `id` between `white` and `black`.
pub fn new_game(id: u16, white: &str, black: &str) -> NewGame {
    let start = StartId::new(u32::from(id)).unwrap().position();
    NewGame {
        start_fen: start.fen(),
        start_id: Some(id),
        white: white.into(),
        black: black.into(),
        time_control: Some("300+2".into()),
        clocks: Some(Clocks {
            white_ms: 300_000,
            black_ms: 300_000,
        }),
        tags: vec![
            ("Event".into(), "test".into()),
            ("Date".into(), "2025.01.02".into()),
        ],
    }
}

/// The clocks after half-move `ply` of the scripted games: a pure function of `ply`, so that
/// a test can check what was stored without remembering what was sent.
pub fn clocks_after(ply: u32) -> Clocks {
    let white_moves = u64::from(ply / 2 + 1);
    let black_moves = u64::from(ply.div_ceil(2));
    Clocks {
        white_ms: 300_000 - white_moves * 1_300 + white_moves * 1_000,
        black_ms: 300_000 - black_moves * 1_700 + black_moves * 1_000,
    }
}

/// The scripted move in `pos` at half-move `ply` (`None` when the game is over): a legal
/// move chosen by a fixed rule, so the whole game follows from its start.
pub fn scripted_move(pos: &Position, ply: u32) -> Option<MoveRecord> {
    let mut moves: Vec<_> = pos.legal_moves().iter().copied().collect();
    if moves.is_empty() {
        return None;
    }
    moves.sort_by_key(|m| m.to_uci(CastlingMode::Chess960));
    let m = moves[(ply as usize * 7 + 3) % moves.len()];
    Some(MoveRecord {
        uci: m.to_uci(CastlingMode::Chess960),
        san: pos.san(m),
        clocks: Some(clocks_after(ply)),
        played_at_ms: 1_700_000_000_000 + i64::from(ply),
    })
}

/// The position after the given UCI moves from `fen`.
pub fn replay(fen: &str, moves: &[MoveRecord]) -> Position {
    let mut pos = Position::from_fen(fen).unwrap();
    for m in moves {
        let mv = pos.parse_uci(&m.uci, CastlingMode::Chess960).unwrap();
        pos = pos.play(mv);
    }
    pos
}

/// The environment variable with the address of a PostgreSQL server on which the tests may
/// create databases (`scripts/test.sh` starts a throwaway cluster and sets it, e.g.
/// `postgres://postgres@127.0.0.1:54329/postgres`).
pub const PG_ENV: &str = "CHESS960_TEST_PG";

/// A fresh, empty store of one backend for one test, removed when dropped; it derefs to the
/// store.
pub struct Backend {
    /// `sqlite` or `postgres`.
    pub name: &'static str,
    store: Option<Box<dyn chess960_store::GameStore>>,
    /// The SQLite file or the PostgreSQL address, to open the same database again.
    address: String,
    _dir: Option<tempfile::TempDir>,
    /// The PostgreSQL server's admin address and this test's database, dropped at the end.
    pg: Option<(String, String)>,
}

impl std::ops::Deref for Backend {
    type Target = dyn chess960_store::GameStore;
    fn deref(&self) -> &Self::Target {
        self.store.as_deref().expect("an open store")
    }
}

impl Backend {
    /// Closes the store and opens the same database again (what a restarted process sees).
    pub fn reopen(&mut self) {
        self.store = None;
        self.store = Some(open_address(&self.address));
    }

    /// A second, independent handle on the same database (another process's view).
    pub fn another(&self) -> Box<dyn chess960_store::GameStore> {
        open_address(&self.address)
    }

    /// The address `chess960 --db` takes for this database.
    pub fn address(&self) -> &str {
        &self.address
    }

    /// The store as its trait object.
    pub fn store(&self) -> &dyn chess960_store::GameStore {
        &**self
    }
}

fn open_address(address: &str) -> Box<dyn chess960_store::GameStore> {
    if chess960_store::is_postgres_address(address) {
        Box::new(chess960_store::PgStore::open(address).expect("the test database opens"))
    } else {
        Box::new(chess960_store::SqliteStore::open(address).expect("the test database opens"))
    }
}

impl Drop for Backend {
    fn drop(&mut self) {
        self.store = None;
        if let Some((admin, db)) = self.pg.take() {
            if let Ok(mut c) = postgres::Client::connect(&admin, postgres::NoTls) {
                let _ = c.batch_execute(&format!("DROP DATABASE IF EXISTS {db} WITH (FORCE)"));
            }
        }
    }
}

/// A fresh SQLite store in a scratch directory.
pub fn sqlite_backend() -> Backend {
    let dir = scratch();
    let address = dir.path().join("games.sqlite3").display().to_string();
    Backend {
        name: "sqlite",
        store: Some(open_address(&address)),
        address,
        _dir: Some(dir),
        pg: None,
    }
}

/// The PostgreSQL server of the tests: `None` when [`PG_ENV`] is not set, which fails the
/// test under `scripts/test.sh` and in CI (`CHESS960_TEST_PG_REQUIRED` or `CI` set).
pub fn pg_server() -> Option<String> {
    match std::env::var(PG_ENV) {
        Ok(a) if !a.trim().is_empty() => Some(a),
        _ => {
            let required = std::env::var_os("CHESS960_TEST_PG_REQUIRED").is_some()
                || std::env::var("CI").is_ok_and(|v| v == "true");
            assert!(
                !required,
                "{PG_ENV} is not set: scripts/test.sh starts a PostgreSQL cluster and sets it"
            );
            eprintln!("note: {PG_ENV} is not set; the PostgreSQL half of this test is skipped");
            None
        }
    }
}

/// A fresh PostgreSQL database on the test server, dropped at the end.
pub fn pg_backend(admin: &str) -> Backend {
    use std::sync::atomic::{AtomicU32, Ordering};
    static NEXT: AtomicU32 = AtomicU32::new(0);
    let db = format!(
        "c960_test_{}_{}",
        std::process::id(),
        NEXT.fetch_add(1, Ordering::Relaxed)
    );
    let mut c = postgres::Client::connect(admin, postgres::NoTls)
        .unwrap_or_else(|e| panic!("the test PostgreSQL server {admin}: {e}"));
    c.batch_execute(&format!("CREATE DATABASE {db}"))
        .unwrap_or_else(|e| panic!("CREATE DATABASE {db}: {e}"));
    let mut config: postgres::Config = admin.parse().expect("a PostgreSQL address");
    config.dbname(&db);
    let address = address_of(&config);
    Backend {
        name: "postgres",
        store: Some(open_address(&address)),
        address,
        _dir: None,
        pg: Some((admin.to_owned(), db)),
    }
}

/// `config` as a `postgres://` address.
fn address_of(config: &postgres::Config) -> String {
    let host = match config.get_hosts().first() {
        Some(postgres::config::Host::Tcp(h)) => h.clone(),
        Some(postgres::config::Host::Unix(p)) => p.display().to_string().replace('/', "%2F"),
        None => "localhost".into(),
    };
    let port = config.get_ports().first().copied().unwrap_or(5432);
    let user = config.get_user().unwrap_or("postgres");
    let password = config
        .get_password()
        .map(|p| format!(":{}", String::from_utf8_lossy(p)))
        .unwrap_or_default();
    format!(
        "postgres://{user}{password}@{host}:{port}/{}",
        config.get_dbname().unwrap_or("postgres")
    )
}

/// Every backend, each a fresh empty store: SQLite always, PostgreSQL when the test server
/// is known (see [`pg_server`]).
pub fn backends() -> Vec<Backend> {
    let mut out = vec![sqlite_backend()];
    if let Some(admin) = pg_server() {
        out.push(pg_backend(&admin));
    }
    out
}

/// Runs `test` on a fresh store of every backend, saying which one failed.
pub fn each_backend(test: impl Fn(&mut Backend)) {
    for mut b in backends() {
        eprintln!("-- backend {}", b.name);
        test(&mut b);
    }
}

impl Backend {
    /// The rows of a table, read past the store (to see that a refused write left nothing
    /// behind).
    pub fn rows(&self, table: &str) -> i64 {
        let sql = format!("SELECT count(*) FROM {table}");
        match &self.pg {
            Some(_) => postgres::Client::connect(&self.address, postgres::NoTls)
                .and_then(|mut c| c.query_one(&sql, &[]))
                .and_then(|r| r.try_get(0))
                .unwrap_or_else(|e| panic!("{sql}: {e}")),
            None => rusqlite::Connection::open(&self.address)
                .and_then(|c| c.query_row(&sql, [], |r| r.get(0)))
                .unwrap_or_else(|e| panic!("{sql}: {e}")),
        }
    }
}
