//! The chess960 game database.
//!
//! Every game is kept with the number of its start position (`None` for a FEN start that is not
//! one of the 960), its start FEN, its moves (with the clocks after each move), its result and
//! the reason for it, the players, the time control and all PGN tags; an imported game also
//! with its comments, NAGs and variations.
//!
//! Callers talk to a [`GameStore`], never to SQLite directly, so that another backend (e.g.
//! PostgreSQL for a shared server) can be added without touching them. The default backend is
//! [`SqliteStore`]: one embedded SQLite file in WAL mode, with versioned schema migrations.
//!
//! Autosave: [`GameStore::append_move`] returns only once the move is durable, so a process killed
//! at any moment loses nothing that was acknowledged, and the game can be resumed exactly,
//! clocks included.

pub use chess960_core::GameResult;
use chess960_core::{Color, Outcome, Termination};
use std::fmt;

mod backend;
pub mod cluster;
pub mod engines;
pub mod events;
pub mod explorer;
mod filter;
mod group_commit;
pub mod packed;
pub mod pgn;
mod played;
pub mod players;
pub mod postgres;
pub mod ratings;
pub mod replay;
pub mod rules;
pub mod seats;
mod sql;
pub mod sqlite;
pub mod stats;
mod util;
mod write;

pub use engines::{EngineError, EngineProtocol, EngineStore, RegisteredEngine};
pub use events::{EventStore, EventSummary, StoredEvent};
pub use explorer::{Explorer, ExplorerMove, Results};
pub use played::MAX_PLAYED;
pub use players::{NewUser, PlayerStore, Session, SessionId, User, UserId};
pub use postgres::{is_postgres_address, PgStore};
pub use ratings::{GamePlayers, GameRating, PlayerRating, RatingPoint};
pub use replay::ReplayError;
pub use seats::{SeatRecord, Seats};
pub use sqlite::{default_path, resolve_path, SqliteStore, DB_ENV};

/// The database named by `explicit` (a `--db` option), else by `$CHESS960_DB` when set and
/// not empty, else the default SQLite file ([`default_path`]): a file name, or a
/// `postgres://` address.
pub fn resolve_address(explicit: Option<&std::path::Path>) -> Result<String, StoreError> {
    resolve_path(explicit).map(|p| p.to_string_lossy().into_owned())
}

/// Opens the game database named as [`resolve_address`] says: PostgreSQL ([`PgStore`]) for
/// a `postgres://` or `postgresql://` address, else the SQLite file there ([`SqliteStore`],
/// whose default location's directory is created when missing).
pub fn open(explicit: Option<&std::path::Path>) -> Result<Box<dyn GameStore>, StoreError> {
    let address = resolve_address(explicit)?;
    if is_postgres_address(&address) {
        Ok(Box::new(PgStore::open(&address)?))
    } else {
        Ok(Box::new(SqliteStore::open_default(explicit)?))
    }
}

/// The database row number of a game: small, stable, shown by `chess960 db list` and taken by
/// `chess960 db show ID`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct GameId(pub i64);

impl fmt::Display for GameId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// An unguessable key (32 lowercase hex digits: the creation time in milliseconds in 48 bits,
/// then 80 random bits) by which the web server addresses a game, so that one player cannot
/// reach another's game by counting.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct GameKey(String);

impl GameKey {
    /// Accepts exactly 32 lowercase hex digits.
    pub fn parse(s: &str) -> Option<GameKey> {
        (s.len() == 32
            && s.bytes()
                .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b)))
        .then(|| GameKey(s.to_owned()))
    }

    /// The key as text.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for GameKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// Both clocks, in milliseconds remaining.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Clocks {
    pub white_ms: u64,
    pub black_ms: u64,
}

/// A game about to be played (autosave) or imported.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewGame {
    /// The start position in X-FEN.
    pub start_fen: String,
    /// The start position's number 0..959, `None` when the start is not a Chess960 start.
    pub start_id: Option<u16>,
    pub white: String,
    pub black: String,
    /// PGN `TimeControl` form, e.g. `"300+3"`; `None` for untimed games.
    pub time_control: Option<String>,
    /// The clocks when the game starts (timed games).
    pub clocks: Option<Clocks>,
    /// Every other PGN tag (Event, Site, Date, Round, ...), in order.
    pub tags: Vec<(String, String)>,
}

/// One move as stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveRecord {
    /// The move in UCI, Chess960 form (castling as king takes own rook, e.g. `e1h1`).
    pub uci: String,
    /// The move in SAN, as written in the game's position.
    pub san: String,
    /// Both clocks after the move (increment included), for timed games.
    pub clocks: Option<Clocks>,
    /// When it was played, milliseconds since the Unix epoch.
    pub played_at_ms: i64,
}

impl MoveRecord {
    /// The record of `m`, a legal move in `pos`, in the stored forms: UCI in Chess960 form
    /// and SAN as written in `pos` (what [`GameStore::create_game_with_moves`] checks).
    pub fn of(
        pos: &chess960_core::Position,
        m: chess960_core::Move,
        clocks: Option<Clocks>,
        played_at_ms: i64,
    ) -> MoveRecord {
        MoveRecord {
            uci: m.to_uci(chess960_core::CastlingMode::Chess960),
            san: pos.san(m),
            clocks,
            played_at_ms,
        }
    }
}

/// A game to import: what [`GameStore::import_games`] stores in one go.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ImportGame {
    /// The game's columns and tags.
    pub game: NewGame,
    /// The main line.
    pub moves: Vec<MoveRecord>,
    /// The result, `None` for an unfinished game (`*`).
    pub finish: Option<Finish>,
    /// The movetext with its comments, NAGs and variations, kept as imported (see
    /// [`StoredGame::movetext`]); `None` when the moves with their clocks say it all.
    pub movetext: Option<String>,
    /// The explorer's index entries of the main line ([`explorer::entries`]), when whoever
    /// made this game has them ([`pgn::from_pgn`] does, from the moves it plays anyway): a bulk
    /// import then spares the replay. `None`: the store finds them. Entries that are not
    /// those of `moves` would make the explorer wrong.
    pub index: Option<Vec<explorer::IndexEntry>>,
}

/// A finished game's result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finish {
    /// A win or a draw; [`GameResult::Unknown`] (`*`) only for an aborted game
    /// ([`Finish::aborted`]).
    pub result: GameResult,
    /// Why, in words: "checkmate", "resignation", "time forfeit", "threefold repetition", ...
    pub reason: String,
}

/// The reason of an aborted game: ended before both sides had moved, with no result (`*`).
/// Statistics count only results (`1-0`, `0-1`, `1/2-1/2`), so they leave aborted games out.
pub const ABORTED: &str = "aborted";

impl Finish {
    /// The end of an aborted game: result `*`, reason [`ABORTED`]. Stored like any finish, it
    /// keeps the game from being played on, and it is no result: lists can leave it out
    /// ([`GameFilter::aborted`]) and statistics never count it.
    pub fn aborted() -> Finish {
        Finish {
            result: GameResult::Unknown,
            reason: ABORTED.into(),
        }
    }

    /// The end of a game the rules, a player or a clock ended, in the store's words (see
    /// [`reason_text`]).
    pub fn of(outcome: Outcome) -> Finish {
        Finish {
            result: outcome.into(),
            reason: reason_text(outcome.reason()).into(),
        }
    }

    /// True for [`Finish::aborted`].
    pub fn is_aborted(&self) -> bool {
        self.result == GameResult::Unknown && self.reason == ABORTED
    }

    /// True for a result the store keeps: a win or a draw, or `*` with the reason
    /// [`ABORTED`].
    pub fn is_valid(&self) -> bool {
        self.result.is_decided() || self.is_aborted()
    }
}

/// Why a game ended, in the words the store keeps and the server shows ("checkmate", "time
/// forfeit", "draw agreed", ...).
pub fn reason_text(t: Termination) -> &'static str {
    match t {
        Termination::Agreement => "draw agreed",
        other => other.describe(),
    }
}

/// The offers standing in a game being played, kept with the game so that a restarted server
/// (or another server taking the game over) shows them and the opponent can still answer: who
/// offered a draw, who proposed a takeback. A move, an answer, a takeback and the end take
/// them back as the referee (`chess960-round`) decides; the store keeps what it is told
/// ([`GameStore::set_offers`]). A finished game has none ([`rules::check_offers`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Offers {
    /// The colour whose draw offer stands.
    pub draw: Option<Color>,
    /// The colour whose takeback proposal stands.
    pub takeback: Option<Color>,
}

impl Offers {
    /// No offer.
    pub const NONE: Offers = Offers {
        draw: None,
        takeback: None,
    };

    /// No offer stands.
    pub fn is_none(&self) -> bool {
        self.draw.is_none() && self.takeback.is_none()
    }
}

/// A game as read back from the store.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredGame {
    pub id: GameId,
    pub key: GameKey,
    pub game: NewGame,
    pub moves: Vec<MoveRecord>,
    /// `None` while the game is in progress (or was left unfinished); [`Finish::aborted`]
    /// for an aborted game.
    pub finish: Option<Finish>,
    /// The annotated movetext kept at import (comments, NAGs, variations), without the
    /// result; `None` for games played here or imported without annotations. Its main line
    /// begins with the moves of [`StoredGame::moves`] (the move rows stay the authority:
    /// [`crate::pgn::to_pgn`] uses the annotations only as far as they agree with them).
    pub movetext: Option<String>,
    pub created_at_ms: i64,
    pub updated_at_ms: i64,
    /// Who may play each colour through the web server (see [`seats`]); no seats for games
    /// imported or played on the terminal.
    pub seats: Seats,
    /// The players' accounts and whether the game is rated ([`PlayerStore::bind_players`]);
    /// nobody's for a game of guests, imported or played on the terminal.
    pub players: GamePlayers,
    /// The offers standing in the game; none once it is finished.
    pub offers: Offers,
}

/// One line of a game list.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameSummary {
    pub id: GameId,
    pub key: GameKey,
    pub start_id: Option<u16>,
    pub white: String,
    pub black: String,
    /// A win or a draw, or `*` while unfinished (and for aborted games).
    pub result: GameResult,
    pub reason: Option<String>,
    /// The PGN Date tag when there is one, else the creation date, `YYYY.MM.DD`.
    pub date: String,
    /// Number of half-moves.
    pub plies: u32,
    /// When the game was stored (created here, or imported), milliseconds since the Unix
    /// epoch: the time of day the date alone does not give.
    pub created_at_ms: i64,
}

/// Which games to list, export or summarise. Empty fields match everything.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GameFilter {
    pub start_id: Option<u16>,
    /// Matches either player's name exactly (case-insensitively).
    pub player: Option<String>,
    /// The games of this account (on either side).
    pub account: Option<UserId>,
    /// Games with this result (`*` matches aborted games too, see `aborted`).
    pub result: Option<GameResult>,
    /// Aborted games ([`Finish::aborted`]): `None` matches them with the others, `Some(false)`
    /// leaves them out (the web server's default list), `Some(true)` matches only them.
    pub aborted: Option<bool>,
    /// Inclusive date range on the game's date, `YYYY.MM.DD`.
    pub date_from: Option<String>,
    pub date_to: Option<String>,
    /// At most this many games (newest first); `None` for all.
    pub limit: Option<u32>,
    pub offset: u32,
}

/// Results of the finished games from one start position.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PositionCounts {
    pub start_id: u16,
    pub white_wins: u64,
    pub draws: u64,
    pub black_wins: u64,
}

impl PositionCounts {
    /// Adds `n` games with `result` (`1-0`, `0-1`, else a draw) from start position `id` to
    /// `out`, a list sorted by position that the rows arrive in order for.
    pub(crate) fn tally(out: &mut Vec<PositionCounts>, id: u16, result: &str, n: u64) {
        if out.last().map(|p| p.start_id) != Some(id) {
            out.push(PositionCounts {
                start_id: id,
                ..PositionCounts::default()
            });
        }
        if let Some(p) = out.last_mut() {
            match result {
                "1-0" => p.white_wins += n,
                "0-1" => p.black_wins += n,
                _ => p.draws += n,
            }
        }
    }
}

/// What import did with one game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ImportOutcome {
    Added(GameId),
    /// The same game is already stored: same start position, same main line, same result
    /// (a finished one: an unfinished game is never a duplicate), and the same identifying
    /// tags, `Event`, `Site`, `Date`, `Round`, `White` and `Black` (see docs/store.md).
    Duplicate(GameId),
}

/// Everything that can go wrong in the store. Messages say what and where.
#[derive(Clone, Debug)]
pub enum StoreError {
    /// The file exists but is not a chess960 database (another program's SQLite file, or not
    /// SQLite at all); nothing was written to it.
    NotOurDatabase {
        path: std::path::PathBuf,
        detail: String,
    },
    /// The database was written by a newer version of this program.
    TooNew {
        path: std::path::PathBuf,
        found: u32,
        supported: u32,
    },
    /// The database file is damaged.
    Corrupt { detail: String },
    /// No game with this id or key.
    NoSuchGame(String),
    /// No event with this id or key.
    NoSuchEvent(String),
    /// No user with this id or name.
    NoSuchUser(String),
    /// A request that contradicts the stored game (e.g. a move appended at the wrong ply, or to a
    /// finished game).
    Conflict(String),
    /// Any other backend or I/O failure.
    Backend(String),
}

impl fmt::Display for StoreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StoreError::NotOurDatabase { path, detail } => {
                write!(
                    f,
                    "{} is not a chess960 game database ({detail})",
                    path.display()
                )
            }
            StoreError::TooNew {
                path,
                found,
                supported,
            } => write!(
                f,
                "{} has schema version {found}, newer than this program supports ({supported})",
                path.display()
            ),
            StoreError::Corrupt { detail } => write!(f, "the database is damaged: {detail}"),
            StoreError::NoSuchGame(what) => write!(f, "no game {what}"),
            StoreError::NoSuchEvent(what) => write!(f, "no event {what}"),
            StoreError::NoSuchUser(what) => write!(f, "no user {what}"),
            StoreError::Conflict(what) => f.write_str(what),
            StoreError::Backend(what) => f.write_str(what),
        }
    }
}

impl std::error::Error for StoreError {}

/// The game database, whatever its backend. Implementations are safe to share between threads.
pub trait GameStore: Send + Sync {
    /// Where this database keeps events (tournaments), if it keeps any.
    fn event_store(&self) -> Option<&dyn EventStore> {
        None
    }

    /// Where this database keeps players' accounts, if it keeps any.
    fn player_store(&self) -> Option<&dyn PlayerStore> {
        None
    }

    /// Where this database keeps the engines the server may run, if it keeps any.
    fn engine_store(&self) -> Option<&dyn EngineStore> {
        None
    }

    /// Leases, heartbeats and notices for several servers on this database, if several
    /// processes can share it (PostgreSQL; not SQLite).
    fn cluster(&self) -> Option<&dyn cluster::Cluster> {
        None
    }

    /// Where the database is, for messages: a file's path, or a server's address without
    /// its password.
    fn describe(&self) -> String;

    /// Checks the whole database for damage (time proportional to its size): `Corrupt`
    /// with what is wrong.
    fn check(&self) -> Result<(), StoreError>;

    /// A bulk import's batch: [`GameStore::import_games`], except that a backend may leave
    /// the position index of the added games to [`GameStore::index_pending`], which the
    /// importer calls after its last batch. This default indexes at once.
    fn import_games_unindexed(
        &self,
        games: &[ImportGame],
    ) -> Result<Vec<ImportOutcome>, StoreError> {
        self.import_games(games)
    }

    /// Number of games whose position index rows are not written yet (see
    /// [`GameStore::import_games_unindexed`]).
    fn pending_index(&self) -> Result<u64, StoreError> {
        Ok(0)
    }

    /// Writes the position index rows left by [`GameStore::import_games_unindexed`];
    /// `progress` is called with the games indexed so far. Returns how many it indexed.
    fn index_pending(&self, progress: &mut dyn FnMut(u64)) -> Result<u64, StoreError> {
        let _ = progress;
        Ok(0)
    }

    /// Starts a game (autosave) and gives it an id and an unguessable key.
    fn create_game(&self, game: &NewGame) -> Result<(GameId, GameKey), StoreError>;

    /// Starts a game that already has moves (a game begun from a PGN, or resumed), with its
    /// seats (see [`StoredGame::seats`]), in one
    /// transaction: either the game exists with all of `moves` (unfinished, ready for
    /// [`GameStore::append_move`] at ply `moves.len()`), or, on any error, nothing was
    /// stored.
    fn create_game_with_moves(
        &self,
        game: &NewGame,
        moves: &[MoveRecord],
        seats: &Seats,
    ) -> Result<(GameId, GameKey), StoreError>;

    /// Gives the open seat of `color` ([`SeatRecord::Open`]) to the holder of the token whose
    /// SHA-256 is `hash`, who plays under `name` (the game's `White` or `Black`); durable when
    /// this returns. Fails with `Conflict` if that seat is not open (taken meanwhile, or never
    /// open), so that of two people claiming one seat at once exactly one gets it.
    fn claim_seat(
        &self,
        id: GameId,
        color: chess960_core::Color,
        hash: &str,
        name: &str,
    ) -> Result<(), StoreError>;

    /// Records the move at half-move index `ply` (0 for the first move); durable when this
    /// returns. Fails with `Conflict` unless the game has exactly `ply` moves and is unfinished.
    fn append_move(&self, id: GameId, ply: u32, mv: &MoveRecord) -> Result<(), StoreError>;

    /// [`GameStore::append_move`] with the move's [`explorer::IndexStep`] (the keys of the
    /// positions before and after it) from whoever played it, so that the store finds the
    /// explorer's index rows of the move from these two keys instead of replaying the whole
    /// game (what [`ImportGame::index`] is to an import). The same checks and the same stored
    /// game; a step that is not the move's makes the explorer wrong. This default ignores the
    /// step.
    fn append_move_indexed(
        &self,
        id: GameId,
        ply: u32,
        mv: &MoveRecord,
        step: explorer::IndexStep,
    ) -> Result<(), StoreError> {
        let _ = step;
        self.append_move(id, ply, mv)
    }

    /// Takes moves back so that `plies` remain (takeback); the clocks are then those stored with
    /// the last remaining move. Clears a finish.
    fn truncate_moves(&self, id: GameId, plies: u32) -> Result<(), StoreError>;

    /// Records the result (or [`Finish::aborted`]); durable when this returns. The game's
    /// offers go with it ([`Offers`]); so they do with a takeback ([`GameStore::truncate_moves`]).
    fn finish_game(&self, id: GameId, finish: &Finish) -> Result<(), StoreError>;

    /// Sets the offers standing in an unfinished game (none: takes them back); durable when
    /// this returns. `Conflict` for an offer in a finished game ([`rules::check_offers`]).
    fn set_offers(&self, id: GameId, offers: Offers) -> Result<(), StoreError>;

    /// Sets the start position of a game that has no move and no result yet (a start the
    /// players chose together after the game was created: Northam's placement). `Conflict`
    /// once a move is stored or the game is over, or for a FEN that does not read.
    fn set_start(
        &self,
        id: GameId,
        start_fen: &str,
        start_id: Option<u16>,
    ) -> Result<(), StoreError>;

    /// Sets (or with `None` removes) one PGN tag of a stored game.
    fn set_tag(&self, id: GameId, name: &str, value: Option<&str>) -> Result<(), StoreError>;

    /// Removes a game.
    fn delete_game(&self, id: GameId) -> Result<(), StoreError>;

    /// One game by id.
    fn game(&self, id: GameId) -> Result<Option<StoredGame>, StoreError>;

    /// One game by key.
    fn game_by_key(&self, key: &GameKey) -> Result<Option<StoredGame>, StoreError>;

    /// Games matching the filter, newest first.
    fn list(&self, filter: &GameFilter) -> Result<Vec<GameSummary>, StoreError>;

    /// Number of games matching the filter (ignores limit/offset).
    fn count(&self, filter: &GameFilter) -> Result<u64, StoreError>;

    /// Finished games per start position (only positions with at least one game), by ID.
    fn position_counts(&self, filter: &GameFilter) -> Result<Vec<PositionCounts>, StoreError>;

    /// Stores a batch of complete games (import), in one transaction, detecting duplicates of
    /// games already stored or earlier in the batch.
    fn import_games(&self, games: &[ImportGame]) -> Result<Vec<ImportOutcome>, StoreError>;

    /// The position index (see [`explorer`]): the games that reached the position with
    /// Zobrist key `key`, counted by the move they played from it and their result. Aborted
    /// games are left out.
    fn index_counts(&self, key: u64) -> Result<Vec<explorer::KeyCount>, StoreError>;

    /// The newest `limit` games that reached the position with Zobrist key `key`, newest
    /// first; aborted games are left out.
    fn position_games(&self, key: u64, limit: u32) -> Result<Vec<GameSummary>, StoreError>;

    /// The explorer for `pos`: the moves played from it in the stored games with their
    /// results, and the newest `games` games (at most [`explorer::MAX_GAMES`]) that reached
    /// it.
    fn explore(&self, pos: &chess960_core::Position, games: u32) -> Result<Explorer, StoreError> {
        explorer::explore(self, pos, games)
    }

    /// Calls `visit` with each game that [`GameStore::list`] gives for `filter`, oldest first
    /// (the order they were stored in), stopping early when it returns `false` (export).
    ///
    /// This default pages through [`GameStore::list`]; a backend that can stream (as
    /// [`SqliteStore`] does, from one snapshot) should override it.
    fn for_each_game(
        &self,
        filter: &GameFilter,
        visit: &mut dyn FnMut(StoredGame) -> bool,
    ) -> Result<(), StoreError> {
        let mut ids = Vec::new();
        let mut page = GameFilter {
            limit: Some(1000),
            ..filter.clone()
        };
        let end = filter
            .limit
            .map(|l| u64::from(filter.offset) + u64::from(l));
        loop {
            let got = self.list(&page)?;
            let n = got.len() as u32;
            ids.extend(got.into_iter().map(|g| g.id));
            page.offset += n;
            if n < 1000 || end.is_some_and(|e| u64::from(page.offset) >= e) {
                break;
            }
        }
        if let Some(l) = filter.limit {
            ids.truncate(l as usize);
        }
        for id in ids.into_iter().rev() {
            if let Some(game) = self.game(id)? {
                if !visit(game) {
                    break;
                }
            }
        }
        Ok(())
    }
}
