//! The SQLite backend: one embedded database file in WAL mode.
//!
//! - **Writes** go through one connection behind a mutex, each in its own `BEGIN IMMEDIATE`
//!   transaction (taking the write lock at once, so two processes writing the same file
//!   wait for each other, up to the busy timeout, instead of failing halfway).
//! - **Reads** use a small pool of read-only connections, each read in one read transaction
//!   so that a game's row, moves and tags come from the same snapshot. In WAL mode readers
//!   are never blocked by the writer, nor the writer by readers.
//! - **Opening** first looks at the file without writing to it: a file that is not SQLite, or
//!   an SQLite database of another program (its `application_id` is not ours), is refused
//!   with [`StoreError::NotOurDatabase`]; a file shorter than its header says is refused
//!   as [`StoreError::Corrupt`]; a schema newer than this program as [`StoreError::TooNew`].
//!   Only then is it opened for writing and migrated.
//!
//! What a write does is the store's ([`crate::write`], over the statements of [`crate::sql`],
//! most of whose SQL both backends share); here are SQLite's transactions (the group commit
//! of games being played among them), its own statements (`statements.rs`), its file and
//! schema, and its bulk import's index (sorted runs merged into a new index).

mod bulk;
mod statements;

use crate::backend::{Backend, IndexRow, R};
use crate::explorer;
use crate::group_commit::GroupCommit;
use crate::packed;
use crate::sql::Tx;
use crate::{GameId, GameResult, ImportGame, ImportOutcome, StoreError};
use rusqlite::{params, Connection, ErrorCode, OpenFlags, OptionalExtension};
use statements::Sql;
use std::fs::File;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

/// Our `PRAGMA application_id`: "C960" in ASCII. It sits at byte 68 of the file header, so
/// `file(1)` and this program can tell a chess960 database from any other SQLite file.
pub const APPLICATION_ID: u32 = 0x4339_3630;

/// The migrations, in order: migration `i` takes the schema from version `i` to `i + 1`.
/// `PRAGMA user_version` holds the version; a released migration is never edited, only
/// followed by new ones.
const MIGRATIONS: &[&str] = &[
    // Version 1.
    "CREATE TABLE games (
        id           INTEGER PRIMARY KEY,
        key          TEXT    NOT NULL UNIQUE,
        start_id     INTEGER CHECK (start_id BETWEEN 0 AND 959),
        start_fen    TEXT    NOT NULL,
        white        TEXT    NOT NULL,
        black        TEXT    NOT NULL,
        time_control TEXT,
        white_ms     INTEGER,
        black_ms     INTEGER,
        result       TEXT    NOT NULL DEFAULT '*' CHECK (result IN ('1-0', '0-1', '1/2-1/2', '*')),
        reason       TEXT,
        date         TEXT    NOT NULL,
        created_ms   INTEGER NOT NULL,
        updated_ms   INTEGER NOT NULL,
        plies        INTEGER NOT NULL DEFAULT 0,
        dup_hash     BLOB
    );
    CREATE TABLE moves (
        game_id   INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        ply       INTEGER NOT NULL,
        uci       TEXT    NOT NULL,
        san       TEXT    NOT NULL,
        white_ms  INTEGER,
        black_ms  INTEGER,
        played_ms INTEGER NOT NULL,
        PRIMARY KEY (game_id, ply)
    ) WITHOUT ROWID;
    CREATE TABLE tags (
        game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        ord     INTEGER NOT NULL,
        name    TEXT    NOT NULL,
        value   TEXT    NOT NULL,
        PRIMARY KEY (game_id, ord)
    ) WITHOUT ROWID;
    -- Every index ends (implicitly) with the rowid, so an equality lookup also yields its rows
    -- in id order: 'newest first, at most N' stops after N rows without sorting.
    CREATE INDEX games_start  ON games (start_id, result);
    CREATE INDEX games_white  ON games (white COLLATE NOCASE);
    CREATE INDEX games_black  ON games (black COLLATE NOCASE);
    CREATE INDEX games_result ON games (result);
    CREATE INDEX games_date   ON games (date);
    -- Only complete games (imported or finished) have a hash.
    CREATE INDEX games_dup    ON games (dup_hash) WHERE dup_hash IS NOT NULL;",
    // Version 2: the annotated movetext of imported games (comments, NAGs, variations), and
    // the duplicate hash of docs/store.md (identifying tags Event and Site added; unfinished
    // games have none), recomputed for every game by `after_migration`.
    "ALTER TABLE games ADD COLUMN movetext TEXT;",
    // Version 3: the seat of a game played through the web server (the SHA-256 of the
    // secret token its creator holds, never the token); NULL for imported games and for games
    // of `chess960 play`.
    "ALTER TABLE games ADD COLUMN seat_hash TEXT;",
    // Version 4: the position index of the explorer (crate::explorer): for every game, each
    // position of its main line once, by Zobrist key, with the move the game played from it
    // and the game's result, so that counting a position's moves and results reads one range
    // of this table and nothing else. Filled for the games already stored by
    // `after_migration`. The keys are core's Zobrist keys: changing them needs a migration
    // that rebuilds this table.
    "CREATE TABLE positions (
        key     INTEGER NOT NULL,  -- Position::hash(), its 64 bits as a signed integer
        game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        move    INTEGER,           -- explorer::encode_move; NULL where the game ended
        result  INTEGER,           -- explorer::result_code; NULL while unfinished
        PRIMARY KEY (key, game_id)
    ) WITHOUT ROWID;
    -- Games whose rows are not in `positions` yet: added by a bulk import
    -- (SqliteStore::import_games_unindexed), indexed by SqliteStore::index_pending.
    CREATE TABLE positions_pending (game_id INTEGER PRIMARY KEY);",
    // Version 5: a seat per colour (crate::seats), so that two people can play one game: the
    // SHA-256 of the token that plays the colour, 'open' while the seat waits for its player,
    // NULL for nobody. Version 3's one seat was the human's in a game against the engine:
    // it moves to the colour the game's tags give the human (`WhiteType` / `BlackType`, which
    // the server has written into every game with a seat).
    "ALTER TABLE games ADD COLUMN white_seat TEXT;
    ALTER TABLE games ADD COLUMN black_seat TEXT;
    UPDATE games SET black_seat = seat_hash
     WHERE seat_hash IS NOT NULL
       AND EXISTS (SELECT 1 FROM tags t WHERE t.game_id = games.id AND (
             (t.name = 'BlackType' AND lower(t.value) = 'human')
             OR (t.name = 'WhiteType' AND lower(t.value) = 'program')))
       AND NOT EXISTS (SELECT 1 FROM tags t WHERE t.game_id = games.id AND (
             (t.name = 'WhiteType' AND lower(t.value) = 'human')
             OR (t.name = 'BlackType' AND lower(t.value) = 'program')));
    UPDATE games SET white_seat = seat_hash WHERE seat_hash IS NOT NULL AND black_seat IS NULL;
    ALTER TABLE games DROP COLUMN seat_hash;",
    // Version 6: events (tournaments), one JSON document each (chess960_events::event::Event)
    // with a revision that every save checks (crate::events).
    "CREATE TABLE events (
        id          INTEGER PRIMARY KEY,
        key         TEXT NOT NULL UNIQUE,
        name        TEXT NOT NULL,
        revision    INTEGER NOT NULL,
        arbiter     TEXT,               -- SHA-256 of the arbiter's token; NULL: none
        created_ms  INTEGER NOT NULL,
        updated_ms  INTEGER NOT NULL,
        doc         TEXT NOT NULL
    );",
    // Version 7: the main line of an imported game packed into one value (crate::packed)
    // instead of a `moves` row per move; NULL for games whose moves are rows (every game
    // played here, and any game stored before).
    "ALTER TABLE games ADD COLUMN packed_moves BLOB;",
    // Version 8: players' accounts (crate::players): users, their sessions (by the SHA-256 of
    // the session's id) and invitations to register (by the SHA-256 of the code).
    "CREATE TABLE users (
        id          INTEGER PRIMARY KEY,
        name        TEXT    NOT NULL,        -- as its owner wrote it
        name_key    TEXT    NOT NULL UNIQUE, -- in lower case: unique whatever the case
        password    TEXT    NOT NULL,        -- an Argon2id PHC string
        admin       INTEGER NOT NULL,
        disabled    INTEGER NOT NULL,
        created_ms  INTEGER NOT NULL
    );
    CREATE TABLE sessions (
        id          INTEGER PRIMARY KEY,
        hash        TEXT    NOT NULL UNIQUE,
        user_id     INTEGER NOT NULL REFERENCES users (id),
        created_ms  INTEGER NOT NULL,
        seen_ms     INTEGER NOT NULL,
        agent       TEXT    NOT NULL
    );
    CREATE INDEX sessions_user ON sessions (user_id);
    CREATE TABLE invites (
        hash        TEXT    PRIMARY KEY,
        created_ms  INTEGER NOT NULL,
        expires_ms  INTEGER NOT NULL,
        used_ms     INTEGER
    );
    -- A game's players' accounts, and its speed class when it is rated (NULL: casual).
    ALTER TABLE games ADD COLUMN white_user INTEGER;
    ALTER TABLE games ADD COLUMN black_user INTEGER;
    ALTER TABLE games ADD COLUMN rated TEXT;
    -- Glicko-2 ratings per speed class: rating and deviation in thousandths of a point,
    -- volatility in billionths (integers, the same on every backend).
    CREATE TABLE ratings (
        user_id     INTEGER NOT NULL,
        speed       TEXT    NOT NULL,
        rating      INTEGER NOT NULL,
        deviation   INTEGER NOT NULL,
        volatility  INTEGER NOT NULL,
        games       INTEGER NOT NULL,
        rated_ms    INTEGER NOT NULL,
        PRIMARY KEY (user_id, speed)
    );
    CREATE TABLE rating_history (
        user_id     INTEGER NOT NULL,
        speed       TEXT    NOT NULL,
        game_id     INTEGER NOT NULL,
        rating      INTEGER NOT NULL,
        deviation   INTEGER NOT NULL,
        at_ms       INTEGER NOT NULL,
        PRIMARY KEY (user_id, speed, game_id)
    );",
    // A player's games: their page, the games list and the explorer filtered to them.
    "CREATE INDEX games_white_user ON games (white_user, id) WHERE white_user IS NOT NULL;
    CREATE INDEX games_black_user ON games (black_user, id) WHERE black_user IS NOT NULL;",
    // Version 10: the engines the server may run (crate::engines), registered by its owner
    // with `chess960 engine`: arguments and options as JSON arrays.
    "CREATE TABLE engines (
        id          INTEGER PRIMARY KEY,
        name        TEXT    NOT NULL,        -- as its owner wrote it
        name_key    TEXT    NOT NULL UNIQUE, -- in lower case: unique whatever the case
        command     TEXT    NOT NULL,
        args        TEXT    NOT NULL,        -- JSON array of strings
        dir         TEXT,                    -- NULL: the server's working directory
        protocol    TEXT    NOT NULL CHECK (protocol IN ('uci', 'xboard')),
        options     TEXT    NOT NULL,        -- JSON array of [name, value]
        added_ms    INTEGER NOT NULL
    );",
    // Version 11: the offers standing in a game being played (crate::Offers): the colour
    // that offered a draw, the colour that proposed a takeback; NULL for none (every game
    // stored before, and every finished game).
    "ALTER TABLE games ADD COLUMN draw_offer TEXT CHECK (draw_offer IN ('white', 'black'));
    ALTER TABLE games ADD COLUMN takeback_offer TEXT
        CHECK (takeback_offer IN ('white', 'black'));",
];

/// What a migration needs beyond its SQL, run in the same transaction right after the SQL
/// that brings the schema to `version`. (Version 2's duplicate hashes are computed after the
/// last migration, by `migrate`: the hash reads the games as the current schema has them.)
fn after_migration(tx: &Connection, version: u32) -> rusqlite::Result<()> {
    match version {
        4 => fill_index(tx),
        _ => Ok(()),
    }
}

/// The schema version this program writes.
pub const SCHEMA_VERSION: u32 = MIGRATIONS.len() as u32;

/// Read connections kept for reuse; more are opened when more threads read at once.
const POOL_SIZE: usize = 8;

/// Prepared statements a connection keeps.
const STATEMENTS: usize = 64;

/// How long to wait for another process's write lock before giving up.
const BUSY_TIMEOUT: Duration = Duration::from_secs(10);

/// The SQLite game store. Share it between threads by reference or in an `Arc`.
pub struct SqliteStore {
    path: PathBuf,
    writer: Mutex<Connection>,
    /// Writes of games being played, waiting to be committed together (see
    /// [`SqliteStore::write_together`]).
    together: GroupCommit<Job>,
    readers: Mutex<Vec<Connection>>,
    /// The index rows of the games a bulk import added, as its reader found them
    /// ([`ImportGame::index`]), waiting for the rebuild of `index_pending`.
    staged: Mutex<Staged>,
}

/// Index rows staged by [`GameStore::import_games_unindexed`]: the rebuild merges them instead
/// of replaying their games, when they are exactly the pending games' (the same ids, compared
/// in the rebuild's transaction: a game deleted meanwhile, one imported without entries, or
/// one left pending by an earlier run makes the rebuild replay them all, as before). Nothing
/// of this is durable: the pending list is, and a store opened again replays it.
#[derive(Default)]
struct Staged {
    /// The pending games whose rows are here.
    ids: Vec<i64>,
    /// Rows not yet in a run.
    rows: Vec<IndexRow>,
    /// Sorted runs written so far, in `dir`.
    runs: Vec<PathBuf>,
    dir: Option<tempfile::TempDir>,
    /// A run could not be written: the staged rows are not whole.
    broken: bool,
}

/// Staged rows kept in memory before they are sorted into a run (about 80 MB).
const STAGE_RUN: usize = 2_500_000;

impl Staged {
    /// Adds the rows of the games `ids` just committed; a full buffer becomes a run in a
    /// directory beside the database (`dir`).
    fn add(&mut self, ids: Vec<i64>, rows: Vec<IndexRow>, dir: &Path) {
        self.ids.extend(ids);
        self.rows.extend(rows);
        if self.rows.len() >= STAGE_RUN {
            // A run that cannot be written is not an error of the import (its games are
            // stored and pending): the rebuild replays them instead.
            if self.spill(dir).is_err() {
                self.broken = true;
                self.rows = Vec::new();
            }
        }
    }

    /// Sorts the rows in memory and writes them as a run.
    fn spill(&mut self, dir: &Path) -> std::io::Result<()> {
        if self.rows.is_empty() {
            return Ok(());
        }
        if self.dir.is_none() {
            self.dir = Some(
                tempfile::Builder::new()
                    .prefix(".chess960-index-")
                    .tempdir_in(dir)?,
            );
        }
        let path = self
            .dir
            .as_ref()
            .map(|d| d.path().join(format!("staged-{}", self.runs.len())))
            .unwrap_or_default();
        let mut rows = std::mem::take(&mut self.rows);
        rows.sort_unstable_by_key(|r| (r.0, r.1));
        index_run::write(&path, &rows)?;
        self.runs.push(path);
        Ok(())
    }
}

/// What the file looked like before we opened it for writing.
enum Probe {
    /// No file, an empty file, or an empty SQLite database: ours to create.
    New,
    /// A chess960 database of this schema version.
    Ours(u32),
}

/// Maps an SQLite failure to a store error: damage is reported as such.
fn db_err(e: rusqlite::Error) -> StoreError {
    if let rusqlite::Error::FromSqlConversionFailure(_, rusqlite::types::Type::Blob, inner) = &e {
        return StoreError::Corrupt {
            detail: inner.to_string(),
        };
    }
    match e.sqlite_error_code() {
        Some(ErrorCode::DatabaseCorrupt) | Some(ErrorCode::NotADatabase) => StoreError::Corrupt {
            detail: e.to_string(),
        },
        _ => StoreError::Backend(e.to_string()),
    }
}

fn not_ours(path: &Path, detail: impl Into<String>) -> StoreError {
    StoreError::NotOurDatabase {
        path: path.to_owned(),
        detail: detail.into(),
    }
}

/// Looks at the file without writing to it.
fn probe(path: &Path) -> Result<Probe, StoreError> {
    let meta = match std::fs::metadata(path) {
        Ok(m) => m,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Probe::New),
        Err(e) => {
            return Err(StoreError::Backend(format!(
                "cannot read {}: {e}",
                path.display()
            )))
        }
    };
    if !meta.is_file() {
        return Err(not_ours(path, "not a regular file"));
    }
    if meta.len() == 0 {
        // SQLite itself treats an empty file as an empty database.
        return Ok(Probe::New);
    }
    let mut header = [0u8; 100];
    let mut f = File::open(path)
        .map_err(|e| StoreError::Backend(format!("cannot read {}: {e}", path.display())))?;
    let mut got = 0;
    while got < header.len() {
        match f.read(&mut header[got..]) {
            Ok(0) => break,
            Ok(n) => got += n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => {
                return Err(StoreError::Backend(format!(
                    "cannot read {}: {e}",
                    path.display()
                )))
            }
        }
    }
    if got < header.len() || &header[..16] != b"SQLite format 3\0" {
        return Err(not_ours(path, "not an SQLite database"));
    }
    let be32 = |at: usize| {
        u32::from_be_bytes([header[at], header[at + 1], header[at + 2], header[at + 3]])
    };
    let app_id = be32(68);
    if app_id != 0 && app_id != APPLICATION_ID {
        return Err(not_ours(
            path,
            format!("an SQLite database of another program, application_id {app_id:#010x}"),
        ));
    }
    // The header's page count is valid when 'version-valid-for' equals the change counter.
    // Without a WAL file (whose frames may extend the database) a file shorter than that is
    // truncated: SQLite would only notice when it reaches a missing page.
    let page_size = match u32::from(u16::from_be_bytes([header[16], header[17]])) {
        1 => 65_536,
        n => n,
    };
    let pages = be32(28);
    let wal = wal_path(path);
    let wal_len = std::fs::metadata(&wal).map(|m| m.len()).unwrap_or(0);
    if be32(92) == be32(24) && wal_len == 0 && meta.len() < u64::from(pages) * u64::from(page_size)
    {
        return Err(StoreError::Corrupt {
            detail: format!(
                "{} is truncated: {} bytes where its header says {} pages of {page_size} bytes",
                path.display(),
                meta.len(),
                pages
            ),
        });
    }
    // Now ask SQLite itself, read-only: the application_id and version may still be in the
    // WAL file (a new database whose first checkpoint never happened).
    let conn = Connection::open_with_flags(
        path,
        OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX,
    )
    .map_err(|e| probe_err(path, e))?;
    let _ = conn.busy_timeout(BUSY_TIMEOUT);
    let (app_id, version, objects): (u32, u32, i64) = (|| {
        Ok((
            conn.query_row("PRAGMA application_id", [], |r| r.get::<_, i64>(0))? as u32,
            conn.query_row("PRAGMA user_version", [], |r| r.get::<_, i64>(0))? as u32,
            conn.query_row("SELECT count(*) FROM sqlite_schema", [], |r| r.get(0))?,
        ))
    })()
    .map_err(|e| probe_err(path, e))?;
    if app_id == 0 && version == 0 && objects == 0 {
        return Ok(Probe::New);
    }
    if app_id != APPLICATION_ID {
        return Err(not_ours(
            path,
            format!("an SQLite database of another program, application_id {app_id:#010x}"),
        ));
    }
    if version > SCHEMA_VERSION {
        return Err(StoreError::TooNew {
            path: path.to_owned(),
            found: version,
            supported: SCHEMA_VERSION,
        });
    }
    Ok(Probe::Ours(version))
}

fn probe_err(path: &Path, e: rusqlite::Error) -> StoreError {
    match e.sqlite_error_code() {
        Some(ErrorCode::NotADatabase) => not_ours(path, e.to_string()),
        Some(ErrorCode::DatabaseCorrupt) => StoreError::Corrupt {
            detail: format!("{}: {e}", path.display()),
        },
        _ => StoreError::Backend(format!("cannot open {}: {e}", path.display())),
    }
}

fn wal_path(path: &Path) -> PathBuf {
    let mut s = path.as_os_str().to_owned();
    s.push("-wal");
    PathBuf::from(s)
}

/// Where the database lives unless told otherwise: `chess960/games.sqlite3` in the user's
/// data directory (`$XDG_DATA_HOME`, else `~/.local/share` on Linux; the platform's
/// equivalent elsewhere).
pub fn default_path() -> Option<PathBuf> {
    dirs::data_dir().map(|d| d.join("chess960").join("games.sqlite3"))
}

/// The environment variable that names the database when `--db` is not given.
pub const DB_ENV: &str = "CHESS960_DB";

/// The database to use: `explicit` (a `--db` option) if given, else `$CHESS960_DB` if set and
/// not empty, else [`default_path`].
pub fn resolve_path(explicit: Option<&Path>) -> Result<PathBuf, StoreError> {
    if let Some(p) = explicit {
        return Ok(p.to_owned());
    }
    if let Some(p) = std::env::var_os(DB_ENV).filter(|p| !p.is_empty()) {
        return Ok(PathBuf::from(p));
    }
    default_path().ok_or_else(|| {
        StoreError::Backend(format!(
            "no data directory is known for this user: give the database with --db PATH or {DB_ENV}"
        ))
    })
}

impl SqliteStore {
    /// Opens (creating or migrating when needed) the database at `path`. A file that is not
    /// a chess960 database is refused without being written to.
    pub fn open(path: impl AsRef<Path>) -> Result<SqliteStore, StoreError> {
        let path = path.as_ref().to_owned();
        let probed = probe(&path)?;
        let flags = OpenFlags::SQLITE_OPEN_READ_WRITE
            | OpenFlags::SQLITE_OPEN_CREATE
            | OpenFlags::SQLITE_OPEN_NO_MUTEX;
        let mut conn =
            Connection::open_with_flags(&path, flags).map_err(|e| probe_err(&path, e))?;
        conn.busy_timeout(BUSY_TIMEOUT).map_err(db_err)?;
        // Room for every statement of the store's sequences (crate::write), prepared once.
        conn.set_prepared_statement_cache_capacity(STATEMENTS);
        let mode: String = conn
            .query_row("PRAGMA journal_mode = WAL", [], |r| r.get(0))
            .map_err(db_err)?;
        if !mode.eq_ignore_ascii_case("wal") {
            return Err(StoreError::Backend(format!(
                "{} cannot be put in WAL mode (journal mode {mode})",
                path.display()
            )));
        }
        // synchronous=FULL: in WAL mode every commit then fsyncs the WAL before returning.
        // NORMAL (the usual WAL setting) is enough to survive a killed process, but a power
        // cut or OS crash could lose the last commits; autosave promises that an
        // acknowledged move is kept, so each commit pays one fsync. Import batches many games
        // into one commit, so it hardly notices.
        // Foreign keys are declared in the schema but not enforced: this module deletes a
        // game's moves, tags and index rows itself. Enforcement would cost a lookup of the
        // game for every move and index row written, in random order for the index (most of
        // the time of building it), and deleting a game would scan the whole index, which
        // has no index by game. The bundled SQLite enforces them by default
        // (SQLITE_DEFAULT_FOREIGN_KEYS=1 in libsqlite3-sys), so they are turned off here.
        conn.execute_batch(
            "PRAGMA foreign_keys = OFF;
             PRAGMA synchronous = FULL;
             PRAGMA cache_size = -32768;",
        )
        .map_err(db_err)?;
        let from = match probed {
            Probe::New => 0,
            Probe::Ours(v) => v,
        };
        if from < SCHEMA_VERSION {
            migrate(&mut conn, &path)?;
        }
        let store = SqliteStore {
            path,
            writer: Mutex::new(conn),
            together: GroupCommit::default(),
            readers: Mutex::new(Vec::new()),
            staged: Mutex::default(),
        };
        // Games without their index rows: left by a killed bulk import, or every game of a
        // database that comes from before the index (migration to version 4).
        let pending = store.bulk_pending()?;
        if pending > 0 {
            let note = pending >= INDEX_NOTE;
            if note {
                eprintln!("chess960: writing the explorer's position index of {pending} games");
            }
            store.index_bulk(&mut |done| {
                if note {
                    eprintln!("chess960: {done} of {pending} games indexed");
                }
            })?;
        }
        Ok(store)
    }

    /// Opens the database named by `explicit`, `$CHESS960_DB` or the default location (see
    /// [`resolve_path`]); the default location's directory is created when missing.
    pub fn open_default(explicit: Option<&Path>) -> Result<SqliteStore, StoreError> {
        let path = resolve_path(explicit)?;
        if explicit.is_none() && std::env::var_os(DB_ENV).filter(|p| !p.is_empty()).is_none() {
            if let Some(dir) = path.parent() {
                std::fs::create_dir_all(dir).map_err(|e| {
                    StoreError::Backend(format!("cannot create {}: {e}", dir.display()))
                })?;
            }
        }
        SqliteStore::open(path)
    }

    /// The database file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    fn writer(&self) -> MutexGuard<'_, Connection> {
        // A panic while holding the lock leaves no half-done transaction behind (the
        // transaction is rolled back when dropped), so the connection is still good.
        self.writer.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Runs `f` in one write transaction, committed when `f` succeeds.
    fn transaction<T>(&self, f: impl FnOnce(&Connection) -> R<T>) -> R<T> {
        let mut conn = self.writer();
        let tx = conn
            .transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)
            .map_err(db_err)?;
        let out = f(&tx)?;
        tx.commit().map_err(db_err)?;
        Ok(out)
    }

    /// Runs `f` in one read transaction (one consistent snapshot) on a pooled connection.
    fn snapshot<T>(&self, f: impl FnOnce(&Connection) -> R<T>) -> R<T> {
        let pooled = self.readers.lock().unwrap_or_else(|p| p.into_inner()).pop();
        let mut conn = match pooled {
            Some(c) => c,
            None => {
                let c = Connection::open_with_flags(
                    &self.path,
                    OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX,
                )
                .map_err(db_err)?;
                c.busy_timeout(BUSY_TIMEOUT).map_err(db_err)?;
                c.set_prepared_statement_cache_capacity(STATEMENTS);
                c
            }
        };
        let out = {
            let tx = conn.transaction().map_err(db_err)?;
            let out = f(&tx)?;
            tx.finish().map_err(db_err)?;
            out
        };
        let mut pool = self.readers.lock().unwrap_or_else(|p| p.into_inner());
        if pool.len() < POOL_SIZE {
            pool.push(conn);
        }
        Ok(out)
    }

    /// A count of one query.
    fn count_of(&self, sql: &str) -> R<u64> {
        self.snapshot(|c| c.query_row(sql, [], |r| r.get::<_, i64>(0)).map_err(db_err))
            .map(|n| n as u64)
    }
}

/// Brings the schema up to [`SCHEMA_VERSION`] in one transaction. Another process may have
/// done it meanwhile, so the version is read again under the write lock.
fn migrate(conn: &mut Connection, path: &Path) -> Result<(), StoreError> {
    let tx = conn
        .transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)
        .map_err(db_err)?;
    let version: u32 = tx
        .query_row("PRAGMA user_version", [], |r| r.get::<_, i64>(0))
        .map_err(db_err)? as u32;
    let app_id: u32 = tx
        .query_row("PRAGMA application_id", [], |r| r.get::<_, i64>(0))
        .map_err(db_err)? as u32;
    if app_id != 0 && app_id != APPLICATION_ID {
        return Err(not_ours(path, "another program wrote to it meanwhile"));
    }
    if version > SCHEMA_VERSION {
        return Err(StoreError::TooNew {
            path: path.to_owned(),
            found: version,
            supported: SCHEMA_VERSION,
        });
    }
    for (i, sql) in MIGRATIONS.iter().enumerate().skip(version as usize) {
        let to = i as u32 + 1;
        tx.execute_batch(sql)
            .and_then(|()| after_migration(&tx, to))
            .map_err(|e| {
                StoreError::Backend(format!("migration to schema version {to} failed: {e}"))
            })?;
    }
    if version < 2 {
        // Version 2's duplicate hashes (docs/store.md), of every game.
        let ids: Vec<i64> = (tx.prepare("SELECT id FROM games"))
            .and_then(|mut st| st.query_map([], |r| r.get(0))?.collect())
            .map_err(db_err)?;
        for id in ids {
            crate::write::refresh_hash(&mut Sql(&tx), GameId(id), None)?;
        }
    }
    tx.execute_batch(&format!(
        "PRAGMA application_id = {APPLICATION_ID}; PRAGMA user_version = {SCHEMA_VERSION};"
    ))
    .map_err(db_err)?;
    tx.commit().map_err(db_err)
}

impl Drop for SqliteStore {
    fn drop(&mut self) {
        // Read-only connections first: the last connection to close checkpoints the WAL and
        // removes the -wal and -shm files, which only the writer may do.
        self.readers
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .clear();
        // Lets SQLite refresh the query planner's statistics when they are stale (cheap; the
        // SQLite documentation asks for it before closing a long-lived connection).
        let _ = self.writer().execute_batch("PRAGMA optimize");
    }
}

/// A write queued for a group commit ([`Backend::write_played`]): it runs once, inside
/// the batch's transaction, and leaves its value for its caller.
type Job = Box<dyn FnOnce(&Connection) -> Result<(), StoreError> + Send>;

/// Carries out a batch of writes in one transaction, each in a savepoint of its own so that a
/// refused write (a stale ply, a finished game) leaves the others in; one commit for all.
fn run_jobs(conn: &mut Connection, jobs: Vec<Job>) -> Vec<Result<(), StoreError>> {
    let n = jobs.len();
    let failed = |e: rusqlite::Error| {
        let e = db_err(e);
        (0..n).map(|_| Err(e.clone())).collect()
    };
    let tx = match conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate) {
        Ok(tx) => tx,
        Err(e) => return failed(e),
    };
    let mut results = Vec::with_capacity(n);
    for job in jobs {
        if let Err(e) = tx.execute_batch("SAVEPOINT job") {
            return failed(e);
        }
        // A write that panics is refused alone: the others' writes stay in the batch.
        let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| job(&tx)))
            .unwrap_or_else(|_| Err(StoreError::Backend("a write failed unexpectedly".into())));
        let end = match result {
            Ok(()) => "RELEASE job",
            Err(_) => "ROLLBACK TO job; RELEASE job",
        };
        if let Err(e) = tx.execute_batch(end) {
            return failed(e);
        }
        results.push(result);
    }
    match tx.commit() {
        Ok(()) => results,
        Err(e) => failed(e),
    }
}

/// A damaged packed line, as the rusqlite error a row reader returns (reported as
/// [`StoreError::Corrupt`] by [`db_err`]).
fn packed_err(e: StoreError) -> rusqlite::Error {
    rusqlite::Error::FromSqlConversionFailure(
        16,
        rusqlite::types::Type::Blob,
        Box::new(std::io::Error::other(e.to_string())),
    )
}

/// Games whose index rows one step of [`index_pending_step`] writes, sorted in memory first
/// (about 65 rows a game and 24 bytes a row: some 60 MB for a step).
const INDEX_STEP: usize = 40_000;

/// A database with at least this many games to index says so on standard error.
const INDEX_NOTE: u64 = 20_000;

/// The next up to [`INDEX_STEP`] games of `positions_pending` with ids above `after`, oldest
/// first: the first and last id and how many; `None` when none is pending.
fn pending_range(tx: &Connection, after: i64) -> rusqlite::Result<Option<(i64, i64, i64)>> {
    Ok(tx
        .query_row(
            "SELECT min(game_id), max(game_id), count(*) FROM
                 (SELECT game_id FROM positions_pending WHERE game_id > ?1
                  ORDER BY game_id LIMIT ?2)",
            params![after, INDEX_STEP as i64],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
        )
        .optional()?
        .and_then(|(a, b, n): (Option<i64>, Option<i64>, i64)| Some((a?, b?, n))))
}

/// Index rows inserted by one statement when the index is rebuilt.
const MERGE_BATCH: usize = 64;

/// The index rows of the pending games with ids in `first..=last`, replayed from their
/// stored moves (rows or packed), sorted by key and game id.
fn pending_rows(tx: &Connection, first: i64, last: i64) -> rusqlite::Result<Vec<IndexRow>> {
    Ok(index_rows(&pending_games(tx, first, last)?))
}

/// A pending game as the index needs it: its id, start FEN, result code and moves.
type PendingGame = (i64, String, Option<u8>, Vec<String>);

/// The pending games with ids in `first..=last`.
fn pending_games(tx: &Connection, first: i64, last: i64) -> rusqlite::Result<Vec<PendingGame>> {
    let mut games: Vec<PendingGame> = Vec::new();
    let mut st = tx.prepare_cached(
        "SELECT g.id, g.start_fen, g.result, g.packed_moves, m.uci
         FROM positions_pending p JOIN games g ON g.id = p.game_id
             LEFT JOIN moves m ON m.game_id = g.id
         WHERE p.game_id BETWEEN ?1 AND ?2 ORDER BY g.id, m.ply",
    )?;
    let mut q = st.query([first, last])?;
    while let Some(r) = q.next()? {
        let id: i64 = r.get(0)?;
        if games.last().map(|g| g.0) != Some(id) {
            let result: String = r.get(2)?;
            let code = GameResult::parse(&result).and_then(explorer::result_code);
            let ucis = match r.get_ref(3)?.as_blob_or_null()? {
                Some(bytes) => packed::ucis(bytes).map_err(packed_err)?,
                None => Vec::new(),
            };
            games.push((id, r.get(1)?, code, ucis));
        }
        if let Some(u) = r.get::<_, Option<String>>(4)? {
            if let Some(g) = games.last_mut() {
                g.3.push(u);
            }
        }
    }
    Ok(games)
}

/// The index rows of `games`, sorted by key and game id. Replaying the games is most of an
/// import's index work: the games are shared out among the machine's cores (the PGN reader is
/// done by then), each part sorted by its thread, and the sorted parts merged.
fn index_rows(games: &[PendingGame]) -> Vec<IndexRow> {
    fn rows_of(games: &[PendingGame]) -> Vec<IndexRow> {
        let mut rows = Vec::new();
        for (id, fen, code, ucis) in games {
            rows.extend(
                explorer::entries(fen, ucis.iter().map(String::as_str))
                    .into_iter()
                    .map(|e| (e.key as i64, *id, e.mv, *code)),
            );
        }
        rows.sort_unstable_by_key(|r| (r.0, r.1));
        rows
    }
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get().min(4));
    let mut rows = if threads < 2 || games.len() < 256 {
        rows_of(games)
    } else {
        let part = games.len().div_ceil(threads);
        std::thread::scope(|s| {
            let parts: Vec<_> = games.chunks(part).map(|g| s.spawn(|| rows_of(g))).collect();
            let mut all = Vec::new();
            for p in parts {
                all.extend(p.join().unwrap_or_else(|e| std::panic::resume_unwind(e)));
            }
            all
        })
    };
    // Sorted runs, one per thread: the stable sort finds them and merges them in linear time.
    rows.sort_by_key(|r| (r.0, r.1));
    rows
}

/// One step of building the index of the games in `positions_pending` (bulk import, the
/// migration to version 4): up to [`INDEX_STEP`] of them, oldest first, replayed from their
/// stored moves, their rows sorted by key and then inserted, so that each page of the index is
/// written once per step rather than once per random key; then they leave
/// `positions_pending`. Returns how many games it indexed (0 when none was pending).
fn index_pending_step(tx: &Connection) -> rusqlite::Result<u64> {
    let Some((first, last, n)) = pending_range(tx, i64::MIN)? else {
        return Ok(0);
    };
    let mut rows = pending_rows(tx, first, last)?;
    rows.sort_unstable_by_key(|r| (r.0, r.1));
    let mut insert = tx.prepare_cached(
        "INSERT OR REPLACE INTO positions (key, game_id, move, result) VALUES (?1, ?2, ?3, ?4)",
    )?;
    for (key, id, mv, result) in rows {
        insert.execute(params![key, id, mv, result])?;
    }
    tx.execute(
        "DELETE FROM positions_pending WHERE game_id BETWEEN ?1 AND ?2",
        [first, last],
    )?;
    Ok(n as u64)
}

/// Writes the index rows of game `id` if a bulk import left them pending. Every write to a
/// stored game reads its state first ([`state`]), which calls this: what the write then
/// changes in the index is there, as for any other game, and the game is no longer
/// pending, so that the end of the import does not write its rows a second time.
fn settle_pending(tx: &Connection, id: GameId) -> rusqlite::Result<()> {
    let pending = tx
        .prepare_cached("SELECT 1 FROM positions_pending WHERE game_id = ?1")?
        .exists([id.0])?;
    if !pending {
        return Ok(());
    }
    let mut insert = tx.prepare_cached(
        "INSERT OR REPLACE INTO positions (key, game_id, move, result) VALUES (?1, ?2, ?3, ?4)",
    )?;
    for (key, game, mv, result) in pending_rows(tx, id.0, id.0)? {
        insert.execute(params![key, game, mv, result])?;
    }
    tx.execute("DELETE FROM positions_pending WHERE game_id = ?1", [id.0])?;
    Ok(())
}

/// Builds the index anew with the rows of every pending game, in one transaction, as an
/// external merge sort: the rows of each [`INDEX_STEP`] pending games are sorted in memory and
/// written as a run to a temporary file beside the database; the runs and the old index (read
/// in key order) are then merged into a new table, written front to back, which replaces the
/// old one.
///
/// Stepwise inserts ([`index_pending_step`]) touch nearly every page of the index once per
/// step, so a big import into a big index costs the square of its size; this costs one sort
/// of the new rows and one sequential write of the whole index. It is chosen when the pending
/// games are a large part of all games ([`SqliteStore::index_pending`]). Memory stays that of
/// one step. `progress` is called with the games sorted so far.
fn rebuild_index(
    tx: &Connection,
    dir: &Path,
    staged: Option<Staged>,
    progress: &mut dyn FnMut(u64),
) -> Result<u64, StoreError> {
    let io_err = |e: std::io::Error| {
        StoreError::Backend(format!(
            "cannot write the index's sorted runs in {}: {e}",
            dir.display()
        ))
    };
    // Rows staged by the import, if they are the pending games' exactly: its last rows become
    // a run too, and no game is replayed.
    let staged = match staged {
        Some(mut staged) if !staged.broken => {
            let pending: Vec<i64> = tx
                .prepare("SELECT game_id FROM positions_pending ORDER BY game_id")
                .and_then(|mut st| st.query_map([], |r| r.get(0))?.collect())
                .map_err(db_err)?;
            staged.ids.sort_unstable();
            (staged.ids == pending).then_some(staged)
        }
        _ => None,
    };
    // The directory of the runs lives until the end.
    let (_runs_dir, runs, done) = match staged {
        Some(mut staged) => {
            staged.spill(dir).map_err(io_err)?;
            let done = staged.ids.len() as u64;
            progress(done);
            (staged.dir, staged.runs, done)
        }
        None => {
            let d = tempfile::Builder::new()
                .prefix(".chess960-index-")
                .tempdir_in(dir)
                .map_err(io_err)?;
            let (runs, done) = replay_runs(tx, d.path(), progress, io_err)?;
            (Some(d), runs, done)
        }
    };
    tx.execute_batch(
        // The same table as version 4 made (MIGRATIONS), filled in key order.
        "DROP TABLE IF EXISTS positions_next;
         CREATE TABLE positions_next (
             key     INTEGER NOT NULL,
             game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
             move    INTEGER,
             result  INTEGER,
             PRIMARY KEY (key, game_id)
         ) WITHOUT ROWID;",
    )
    .map_err(db_err)?;
    {
        let mut old = tx
            .prepare("SELECT key, game_id, move, result FROM positions ORDER BY key, game_id")
            .map_err(db_err)?;
        let mut old_rows = old
            .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))
            .map_err(db_err)?;
        let readers = runs
            .iter()
            .map(|p| index_run::Reader::open(p))
            .collect::<std::io::Result<Vec<_>>>()
            .map_err(io_err)?;
        // Rows go in by [`MERGE_BATCH`] a statement: a statement's overhead is most of the
        // cost of one row.
        let mut insert_one = tx
            .prepare(
                "INSERT INTO positions_next (key, game_id, move, result)
                 VALUES (?1, ?2, ?3, ?4)",
            )
            .map_err(db_err)?;
        let mut insert_many = tx
            .prepare(&format!(
                "INSERT INTO positions_next (key, game_id, move, result) VALUES {}",
                vec!["(?, ?, ?, ?)"; MERGE_BATCH].join(", ")
            ))
            .map_err(db_err)?;
        let mut pending: Vec<IndexRow> = Vec::with_capacity(MERGE_BATCH);
        let mut flush = |rows: &mut Vec<IndexRow>, all: bool| -> rusqlite::Result<()> {
            if rows.len() == MERGE_BATCH {
                let params: Vec<&dyn rusqlite::ToSql> = rows
                    .iter()
                    .flat_map(|r| [&r.0 as &dyn rusqlite::ToSql, &r.1, &r.2, &r.3])
                    .collect();
                insert_many.execute(params.as_slice())?;
                rows.clear();
            } else if all {
                for (key, id, mv, result) in rows.drain(..) {
                    insert_one.execute(params![key, id, mv, result])?;
                }
            }
            Ok(())
        };
        // The runs are merged on a thread of their own, which hands the merged rows over in
        // batches; this thread merges them with the old index (read from this connection)
        // and inserts, so that merging and inserting use two cores.
        std::thread::scope(|s| -> Result<(), StoreError> {
            let (tx_rows, rx_rows) =
                std::sync::mpsc::sync_channel::<std::io::Result<Vec<IndexRow>>>(4);
            s.spawn(move || {
                let result = index_run::merge(readers, |batch| tx_rows.send(Ok(batch)).is_ok());
                if let Err(e) = result {
                    let _ = tx_rows.send(Err(e));
                }
            });
            // The merged rows one by one, batch after batch.
            let mut batches = rx_rows.into_iter();
            let mut batch = Vec::new().into_iter();
            let mut merged = || -> std::io::Result<Option<IndexRow>> {
                loop {
                    if let Some(r) = batch.next() {
                        return Ok(Some(r));
                    }
                    match batches.next() {
                        Some(b) => batch = b?.into_iter(),
                        None => return Ok(None),
                    }
                }
            };
            let mut next_new = merged().map_err(io_err)?;
            let mut next_old = old_rows.next().transpose().map_err(db_err)?;
            loop {
                let row = match (next_old, next_new) {
                    (Some(o), Some(n)) if (o.0, o.1) <= (n.0, n.1) => {
                        next_old = old_rows.next().transpose().map_err(db_err)?;
                        o
                    }
                    (_, Some(n)) => {
                        next_new = merged().map_err(io_err)?;
                        n
                    }
                    (Some(o), None) => {
                        next_old = old_rows.next().transpose().map_err(db_err)?;
                        o
                    }
                    (None, None) => break,
                };
                pending.push(row);
                flush(&mut pending, false).map_err(db_err)?;
            }
            flush(&mut pending, true).map_err(db_err)
        })?;
    }
    tx.execute_batch(
        "DROP TABLE positions;
         ALTER TABLE positions_next RENAME TO positions;
         DELETE FROM positions_pending;",
    )
    .map_err(db_err)?;
    Ok(done)
}

/// The pending games replayed, [`INDEX_STEP`] at a time, into sorted runs in `dir`; the runs
/// and the number of games. The pending games stay pending until the rebuild ends: each step
/// starts after the last.
fn replay_runs(
    tx: &Connection,
    dir: &Path,
    progress: &mut dyn FnMut(u64),
    io_err: impl Fn(std::io::Error) -> StoreError,
) -> Result<(Vec<PathBuf>, u64), StoreError> {
    let (mut runs, mut done, mut after) = (Vec::new(), 0u64, i64::MIN);
    while let Some((first, last, n)) = pending_range(tx, after).map_err(db_err)? {
        let rows = pending_rows(tx, first, last).map_err(db_err)?;
        let path = dir.join(format!("run-{}", runs.len()));
        index_run::write(&path, &rows).map_err(&io_err)?;
        runs.push(path);
        done += n as u64;
        after = last;
        progress(done);
    }
    Ok((runs, done))
}

/// The sorted runs of [`rebuild_index`]: index rows as fixed records of 19 bytes (key and
/// game id as 8 bytes each, the move code as 2 with `u16::MAX` for none, the result as 1 with
/// `u8::MAX` for none), little-endian.
mod index_run {
    use super::IndexRow;
    use std::fs::File;
    use std::io::{BufReader, BufWriter, Read, Write};
    use std::path::Path;

    const SIZE: usize = 19;

    pub fn write(path: &Path, rows: &[IndexRow]) -> std::io::Result<()> {
        let mut out = BufWriter::with_capacity(1 << 16, File::create(path)?);
        for &(key, id, mv, result) in rows {
            let mut rec = [0u8; SIZE];
            rec[..8].copy_from_slice(&key.to_le_bytes());
            rec[8..16].copy_from_slice(&id.to_le_bytes());
            rec[16..18].copy_from_slice(&mv.unwrap_or(u16::MAX).to_le_bytes());
            rec[18] = result.unwrap_or(u8::MAX);
            out.write_all(&rec)?;
        }
        // No fsync: a run lives only until the rebuild that wrote it ends, and a crash
        // discards it with the transaction.
        out.flush()
    }

    /// Merges the sorted runs of `readers` into one sorted stream, handed to `out` in
    /// batches; stops early when `out` says no.
    pub fn merge(
        mut readers: Vec<Reader>,
        mut out: impl FnMut(Vec<IndexRow>) -> bool,
    ) -> std::io::Result<()> {
        const BATCH: usize = 8192;
        let mut heads = std::collections::BinaryHeap::new();
        for (i, reader) in readers.iter_mut().enumerate() {
            if let Some(r) = reader.next()? {
                heads.push(std::cmp::Reverse((r, i)));
            }
        }
        let mut batch = Vec::with_capacity(BATCH);
        while let Some(std::cmp::Reverse((row, source))) = heads.pop() {
            batch.push(row);
            if let Some(r) = readers[source].next()? {
                heads.push(std::cmp::Reverse((r, source)));
            }
            if batch.len() == BATCH
                && !out(std::mem::replace(&mut batch, Vec::with_capacity(BATCH)))
            {
                return Ok(());
            }
        }
        if !batch.is_empty() {
            out(batch);
        }
        Ok(())
    }

    pub struct Reader(BufReader<File>);

    impl Reader {
        pub fn open(path: &Path) -> std::io::Result<Reader> {
            Ok(Reader(BufReader::with_capacity(1 << 16, File::open(path)?)))
        }

        pub fn next(&mut self) -> std::io::Result<Option<IndexRow>> {
            let mut rec = [0u8; SIZE];
            match self.0.read_exact(&mut rec) {
                Ok(()) => {}
                Err(e) if e.kind() == std::io::ErrorKind::UnexpectedEof => return Ok(None),
                Err(e) => return Err(e),
            }
            let i64_at = |at: usize| {
                let mut b = [0u8; 8];
                b.copy_from_slice(&rec[at..at + 8]);
                i64::from_le_bytes(b)
            };
            let mv = u16::from_le_bytes([rec[16], rec[17]]);
            Ok(Some((
                i64_at(0),
                i64_at(8),
                (mv != u16::MAX).then_some(mv),
                (rec[18] != u8::MAX).then_some(rec[18]),
            )))
        }
    }
}

/// Marks every stored game for the position index (migration to version 4); opening the
/// database then builds it ([`SqliteStore::index_pending`]), 40,000 games a transaction, with
/// notes on standard error for a large database. (Building it here, inside the migration,
/// would read the games with the columns of version 4, which later versions change.)
fn fill_index(tx: &Connection) -> rusqlite::Result<()> {
    tx.execute(
        "INSERT INTO positions_pending (game_id) SELECT id FROM games",
        [],
    )?;
    Ok(())
}

impl Backend for SqliteStore {
    /// Deferred games are replayed when their rows are written (or their importer's entries
    /// are staged, [`Staged`]).
    const DEFER_ENTRIES: bool = false;

    fn write<T: Send>(&self, f: impl FnOnce(&mut dyn Tx) -> R<T> + Send) -> R<T> {
        self.transaction(|c| f(&mut Sql(c)))
    }

    /// Runs `f` in a transaction shared with the other writes that arrive meanwhile, each in
    /// a savepoint of its own, and returns once the whole is committed: one flush to disk for
    /// all (see [`crate::group_commit`]); `f` owns what it needs, since another thread may run
    /// it.
    fn write_played<T: Send + 'static>(
        &self,
        f: impl FnOnce(&mut dyn Tx) -> R<T> + Send + 'static,
    ) -> R<T> {
        let value = Arc::new(Mutex::new(None));
        let slot = Arc::clone(&value);
        let job: Job = Box::new(move |c| {
            let v = f(&mut Sql(c))?;
            *slot.lock().unwrap_or_else(|p| p.into_inner()) = Some(v);
            Ok(())
        });
        self.together.submit(job, || self.writer(), run_jobs)?;
        let v = value.lock().unwrap_or_else(|p| p.into_inner()).take();
        v.ok_or_else(|| StoreError::Backend("a committed write left no value".into()))
    }

    fn read<T: Send>(&self, f: impl FnOnce(&mut dyn Tx) -> R<T> + Send) -> R<T> {
        self.snapshot(|c| f(&mut Sql(c)))
    }

    fn location(&self) -> String {
        self.path.display().to_string()
    }

    /// Runs SQLite's `quick_check` over the whole file (time proportional to its size):
    /// `Corrupt` with SQLite's findings if anything is wrong.
    fn check_all(&self) -> R<()> {
        let problems: Vec<String> = self.snapshot(|c| {
            (c.prepare("PRAGMA quick_check"))
                .and_then(|mut st| st.query_map([], |r| r.get::<_, String>(0))?.collect())
                .map_err(db_err)
        })?;
        if problems.len() == 1 && problems[0] == "ok" {
            Ok(())
        } else {
            Err(StoreError::Corrupt {
                detail: problems.join("; "),
            })
        }
    }

    /// The added games wait in `positions_pending` for [`Backend::index_bulk`], which the
    /// importer calls after its last batch (and which opening the database does for any games
    /// a killed import left behind); until then the explorer does not count them. Written in
    /// bulk, the index costs a fraction of what batch-by-batch inserts of random keys cost on
    /// a large database (docs/performance.md). The entries the importer gave are staged for
    /// the rebuild once committed.
    fn import_bulk(&self, games: &[ImportGame]) -> R<Vec<ImportOutcome>> {
        let out = crate::write::import(self, games, true)?;
        let (mut ids, mut rows) = (Vec::<i64>::new(), Vec::<IndexRow>::new());
        for (g, outcome) in games.iter().zip(&out) {
            if let (ImportOutcome::Added(id), Some(entries)) = (outcome, &g.index) {
                let result = g.finish.as_ref().map_or(GameResult::Unknown, |f| f.result);
                let code = explorer::result_code(result);
                ids.push(id.0);
                rows.extend(crate::backend::index_rows(*id, entries, code));
            }
        }
        if !ids.is_empty() {
            let dir = self.dir();
            let mut staged = self.staged.lock().unwrap_or_else(|e| e.into_inner());
            staged.add(ids, rows, &dir);
        }
        Ok(out)
    }

    fn bulk_pending(&self) -> R<u64> {
        self.count_of("SELECT count(*) FROM positions_pending")
    }

    /// Writes the position index rows of every game left by [`Backend::import_bulk`]: when
    /// they are at least a third of all games, by rebuilding the index in one external merge
    /// sort (`rebuild_index`), else in steps of 40,000 games, each its own transaction.
    /// `progress` is called after each 40,000 games with the games done so far. Returns how
    /// many games it indexed.
    fn index_bulk(&self, progress: &mut dyn FnMut(u64)) -> R<u64> {
        let pending = self.count_of("SELECT count(*) FROM positions_pending")?;
        let games = self.count_of("SELECT count(*) FROM games")?;
        if pending > 0 && pending * 3 >= games {
            let dir = self.dir();
            // The import's staged rows (the rebuild checks that they are the pending games').
            let staged =
                std::mem::take(&mut *self.staged.lock().unwrap_or_else(|e| e.into_inner()));
            return self.transaction(|tx| rebuild_index(tx, &dir, Some(staged), progress));
        }
        // Step by step: the pending games are replayed; staged rows are not needed.
        *self.staged.lock().unwrap_or_else(|e| e.into_inner()) = Staged::default();
        let mut done = 0;
        loop {
            let n = self.transaction(|tx| index_pending_step(tx).map_err(db_err))?;
            if n == 0 {
                return Ok(done);
            }
            done += n;
            progress(done);
        }
    }
}

impl SqliteStore {
    /// The directory of the database file (where the index's sorted runs go).
    fn dir(&self) -> PathBuf {
        match self.path.parent() {
            Some(d) if !d.as_os_str().is_empty() => d.to_owned(),
            _ => PathBuf::from("."),
        }
    }
}
