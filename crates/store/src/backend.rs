//! What a backend is to the rest of the store: transactions of typed statements
//! ([`crate::sql::Tx`]), and a few things only it knows how to do ([`Backend`]: its
//! transactions, its bulk import, its checks). Everything else, the [`GameStore`] and
//! [`EventStore`] a caller sees, is written here and in [`crate::write`] once, over those
//! statements, so that SQLite and PostgreSQL follow the same sequence of checks, reads and
//! writes by construction.
//!
//! The traits and types are public only inside private modules (sealed): no other crate can
//! implement them, nor see them.

use crate::cluster::Cluster;
use crate::events::{from_doc, to_doc, EventStore, EventSummary, StoredEvent};
use crate::explorer::{IndexEntry, IndexStep, KeyCount};
use crate::rules::{self, TagHome};
use crate::sql::Tx;
use crate::util::{new_key, now_ms};
use crate::write;
use crate::{
    Finish, GameFilter, GameId, GameKey, GameResult, GameStore, GameSummary, ImportGame,
    ImportOutcome, MoveRecord, NewGame, Offers, PositionCounts, Seats, StoreError, StoredGame,
};
use chess960_core::Color;
use chess960_events::event::Event;
use std::collections::HashMap;

/// A statement's result.
pub type R<T> = Result<T, StoreError>;

/// The columns of a game's row that [`Tx::game_rows`] reads, in this order, in both schemas.
pub const GAME_COLUMNS: &str = "id, key, start_id, start_fen, white, black, time_control, \
    white_ms, black_ms, result, reason, created_ms, updated_ms, movetext, white_seat, black_seat, \
    packed_moves, white_user, black_user, rated, draw_offer, takeback_offer";

/// A row of the position index: key (its 64 bits as a signed integer, as stored), game id,
/// move code ([`crate::explorer::encode_move`]) and result code
/// ([`crate::explorer::result_code`]).
pub type IndexRow = (i64, i64, Option<u16>, Option<u8>);

/// A new game's row: its [`NewGame`] and every other column.
pub struct NewRow<'a> {
    pub key: GameKey,
    pub game: &'a NewGame,
    /// Creation and last change, Unix milliseconds.
    pub now: i64,
    /// The `date` column ([`crate::util`]'s `game_date`).
    pub date: String,
    pub result: GameResult,
    pub reason: Option<&'a str>,
    pub plies: u32,
    pub hash: Option<[u8; 16]>,
    pub movetext: Option<&'a str>,
    pub seats: &'a Seats,
    /// The moves packed ([`crate::packed`]) instead of written as rows.
    pub packed: Option<Vec<u8>>,
    /// The moves written as rows (none when packed).
    pub moves: &'a [MoveRecord],
}

/// A stored game's line, as the index and the duplicate hash need it.
pub struct Line {
    pub start_fen: String,
    /// The moves in UCI (Chess960 form), from the rows or the packed line.
    pub ucis: Vec<String>,
    /// The packed line, when the moves are not rows.
    pub packed: Option<Vec<u8>>,
}

/// The columns the duplicate hash reads besides the line and the tags.
pub struct HashInput {
    pub start_fen: String,
    pub white: String,
    pub black: String,
    pub result: GameResult,
}

/// A game's row ([`GAME_COLUMNS`]), before its moves and tags are read.
pub struct GameRow {
    pub id: GameId,
    pub key: GameKey,
    /// Without its tags.
    pub game: NewGame,
    pub result: GameResult,
    pub reason: Option<String>,
    pub created_ms: i64,
    pub updated_ms: i64,
    pub movetext: Option<String>,
    pub seats: Seats,
    pub packed: Option<Vec<u8>>,
    pub players: crate::GamePlayers,
    pub offers: crate::Offers,
}

/// Which games [`Tx::game_rows`] reads.
#[derive(Clone, Copy)]
pub enum Pick<'a> {
    Id(GameId),
    Key(&'a GameKey),
    /// The games of the filter (its limit and offset ignored) with ids in `from..=to`,
    /// oldest first, at most `limit`.
    Range {
        filter: &'a GameFilter,
        from: i64,
        to: i64,
        limit: u32,
    },
}

/// A game of a bulk import whose index rows wait ([`Tx::defer_index`]).
pub struct Deferred<'a> {
    pub id: GameId,
    /// Its entries, when known (a backend that needs them says so: [`Backend::DEFER_ENTRIES`]).
    pub entries: Option<&'a [IndexEntry]>,
    pub result: Option<u8>,
}

/// An event's row ([`EVENT_COLUMNS`]): id, key, revision, arbiter's hash, last change,
/// document.
pub type EventRow = (i64, String, i64, Option<String>, i64, String);

/// The columns of an [`EventRow`].
pub const EVENT_COLUMNS: &str = "id, key, revision, arbiter, updated_ms, doc";

/// Which events [`Tx::event_rows`] reads.
#[derive(Clone, Copy)]
pub enum EventPick<'a> {
    /// All, the latest saved first.
    All,
    Id(i64),
    Key(&'a str),
}

/// The columns of the seat of `color` and of its player's name.
pub fn seat_columns(color: Color) -> (&'static str, &'static str) {
    match color {
        Color::White => ("white_seat", "white"),
        Color::Black => ("black_seat", "black"),
    }
}

/// The column of a tag kept in one ([`TagHome::White`], `Black`, `TimeControl`).
pub fn tag_column(home: TagHome) -> &'static str {
    match home {
        TagHome::White => "white",
        TagHome::Black => "black",
        _ => "time_control",
    }
}

/// What a move changes in the index ([`Tx::record_move`]): rows to write, keys to remove.
#[derive(Clone, Copy)]
pub struct IndexChange<'a> {
    pub write: &'a [IndexEntry],
    pub remove: &'a [u64],
}

/// A backend: its transactions, and what only it knows how to do.
pub trait Backend: Send + Sync + Sized {
    /// Whether [`Tx::defer_index`] needs the deferred games' entries (else it replays them
    /// when it writes them, and an import need not find them).
    const DEFER_ENTRIES: bool;

    /// Runs `f` in one write transaction, committed (durably) when `f` succeeds; on any error
    /// nothing of it stays.
    fn write<T: Send>(&self, f: impl FnOnce(&mut dyn Tx) -> R<T> + Send) -> R<T>;

    /// [`Backend::write`] for the writes of games being played, which come in bursts from
    /// many games at once: a backend may commit several together (SQLite's group commit),
    /// so `f` owns what it needs.
    fn write_played<T: Send + 'static>(
        &self,
        f: impl FnOnce(&mut dyn Tx) -> R<T> + Send + 'static,
    ) -> R<T> {
        self.write(f)
    }

    /// Runs `f` in one read-only snapshot.
    fn read<T: Send>(&self, f: impl FnOnce(&mut dyn Tx) -> R<T> + Send) -> R<T>;

    /// [`GameStore::describe`].
    fn location(&self) -> String;
    /// [`GameStore::check`].
    fn check_all(&self) -> R<()>;
    /// [`GameStore::cluster`].
    fn shared(&self) -> Option<&dyn Cluster> {
        None
    }
    /// [`GameStore::import_games_unindexed`].
    fn import_bulk(&self, games: &[ImportGame]) -> R<Vec<ImportOutcome>>;
    /// [`GameStore::pending_index`].
    fn bulk_pending(&self) -> R<u64>;
    /// [`GameStore::index_pending`].
    fn index_bulk(&self, progress: &mut dyn FnMut(u64)) -> R<u64>;
}

impl<B: Backend> GameStore for B {
    fn event_store(&self) -> Option<&dyn EventStore> {
        Some(self)
    }

    fn player_store(&self) -> Option<&dyn crate::PlayerStore> {
        Some(self)
    }

    fn engine_store(&self) -> Option<&dyn crate::EngineStore> {
        Some(self)
    }

    fn cluster(&self) -> Option<&dyn Cluster> {
        self.shared()
    }

    fn describe(&self) -> String {
        self.location()
    }

    fn check(&self) -> R<()> {
        self.check_all()
    }

    fn import_games_unindexed(&self, games: &[ImportGame]) -> R<Vec<ImportOutcome>> {
        self.import_bulk(games)
    }

    fn pending_index(&self) -> R<u64> {
        self.bulk_pending()
    }

    fn index_pending(&self, progress: &mut dyn FnMut(u64)) -> R<u64> {
        self.index_bulk(progress)
    }

    fn create_game(&self, game: &NewGame) -> R<(GameId, GameKey)> {
        let game = &*rules::storable_game(game);
        self.write(|tx| write::create(tx, game, &[], &Seats::NONE))
    }

    fn create_game_with_moves(
        &self,
        game: &NewGame,
        moves: &[MoveRecord],
        seats: &Seats,
    ) -> R<(GameId, GameKey)> {
        let game = rules::storable_game(game).into_owned();
        rules::check_moves(&game.start_fen, moves)?;
        rules::plies_of(moves)?;
        let (moves, seats) = (moves.to_vec(), seats.clone());
        self.write_played(move |tx| write::create(tx, &game, &moves, &seats))
    }

    fn claim_seat(&self, id: GameId, color: Color, hash: &str, name: &str) -> R<()> {
        rules::check_seat_hash(hash)?;
        let (hash, name) = (hash.to_owned(), rules::storable(name).into_owned());
        self.write_played(move |tx| write::claim_seat(tx, id, color, &hash, &name))
    }

    fn append_move(&self, id: GameId, ply: u32, mv: &MoveRecord) -> R<()> {
        let mv = mv.clone();
        self.write_played(move |tx| write::append(tx, id, ply, &mv, None))
    }

    fn append_move_indexed(&self, id: GameId, ply: u32, mv: &MoveRecord, step: IndexStep) -> R<()> {
        let mv = mv.clone();
        self.write_played(move |tx| write::append(tx, id, ply, &mv, Some(step)))
    }

    fn truncate_moves(&self, id: GameId, plies: u32) -> R<()> {
        self.write(|tx| write::truncate(tx, id, plies))
    }

    fn finish_game(&self, id: GameId, finish: &Finish) -> R<()> {
        let finish = rules::storable_finish(finish).into_owned();
        rules::check_result(&finish)?;
        self.write_played(move |tx| write::finish(tx, id, &finish))
    }

    fn set_offers(&self, id: GameId, offers: Offers) -> R<()> {
        self.write_played(move |tx| write::set_offers(tx, id, offers))
    }

    fn set_start(&self, id: GameId, start_fen: &str, start_id: Option<u16>) -> R<()> {
        let pos = rules::check_new_start(start_fen, start_id)?;
        self.write(|tx| write::set_start(tx, id, &pos, start_id))
    }

    fn set_tag(&self, id: GameId, name: &str, value: Option<&str>) -> R<()> {
        let value = value.map(rules::storable);
        let home = rules::check_tag(name)?;
        self.write(|tx| write::set_tag(tx, id, name, home, value.as_deref()))
    }

    fn delete_game(&self, id: GameId) -> R<()> {
        self.write(|tx| write::delete(tx, id))
    }

    fn game(&self, id: GameId) -> R<Option<StoredGame>> {
        self.read(|tx| one_game(tx, Pick::Id(id)))
    }

    fn game_by_key(&self, key: &GameKey) -> R<Option<StoredGame>> {
        self.read(|tx| one_game(tx, Pick::Key(key)))
    }

    fn list(&self, filter: &GameFilter) -> R<Vec<GameSummary>> {
        self.read(|tx| tx.list(filter))
    }

    fn count(&self, filter: &GameFilter) -> R<u64> {
        self.read(|tx| tx.count(filter))
    }

    fn position_counts(&self, filter: &GameFilter) -> R<Vec<PositionCounts>> {
        self.read(|tx| tx.position_counts(filter))
    }

    fn import_games(&self, games: &[ImportGame]) -> R<Vec<ImportOutcome>> {
        write::import(self, games, false)
    }

    fn index_counts(&self, key: u64) -> R<Vec<KeyCount>> {
        self.read(|tx| tx.index_counts(key, None))
    }

    fn position_games(&self, key: u64, limit: u32) -> R<Vec<GameSummary>> {
        self.read(|tx| tx.position_games(key, limit, None))
    }

    /// Streams the games from one snapshot, in chunks of [`CHUNK`] games (bounded memory
    /// whatever their number). The snapshot is read on a thread of its own (a backend's
    /// transaction may need to run where the caller cannot, see `postgres::off_runtime`);
    /// the games come back through a small channel, so that `visit` runs on the caller's.
    fn for_each_game(
        &self,
        filter: &GameFilter,
        visit: &mut dyn FnMut(StoredGame) -> bool,
    ) -> R<()> {
        let (send, games) = std::sync::mpsc::sync_channel::<StoredGame>(64);
        std::thread::scope(|scope| {
            let producer = scope.spawn(move || self.read(|tx| stream(tx, filter, &send)));
            for game in games.iter() {
                if !visit(game) {
                    break;
                }
            }
            drop(games);
            producer
                .join()
                .unwrap_or_else(|p| std::panic::resume_unwind(p))
        })
    }
}

/// Games read by [`GameStore::for_each_game`] at a time.
const CHUNK: u32 = 500;

/// Sends the games of `filter` oldest first until the receiver hangs up.
fn stream(
    tx: &mut dyn Tx,
    filter: &GameFilter,
    send: &std::sync::mpsc::SyncSender<StoredGame>,
) -> R<()> {
    // The games of a list are the matching games between its oldest and its newest id.
    let Some((mut from, to)) = tx.id_bounds(filter)? else {
        return Ok(());
    };
    loop {
        let rows = tx.game_rows(Pick::Range {
            filter,
            from,
            to,
            limit: CHUNK,
        })?;
        let (n, last) = (rows.len(), rows.last().map(|r| r.id.0));
        for game in complete(tx, rows)? {
            if send.send(game).is_err() {
                return Ok(());
            }
        }
        match last {
            Some(last) if n == CHUNK as usize && last < to => from = last + 1,
            _ => return Ok(()),
        }
    }
}

/// One game with its moves and tags.
fn one_game(tx: &mut dyn Tx, pick: Pick<'_>) -> R<Option<StoredGame>> {
    let rows = tx.game_rows(pick)?;
    Ok(complete(tx, rows)?.pop())
}

/// The games of `rows` with their moves (rows or packed) and tags, read in two statements.
fn complete(tx: &mut dyn Tx, rows: Vec<GameRow>) -> R<Vec<StoredGame>> {
    let unpacked: Vec<i64> = (rows.iter().filter(|r| r.packed.is_none()))
        .map(|r| r.id.0)
        .collect();
    let mut moves: HashMap<i64, Vec<MoveRecord>> = HashMap::new();
    for (id, m) in tx.moves_of(&unpacked)? {
        moves.entry(id).or_default().push(m);
    }
    let ids: Vec<i64> = rows.iter().map(|r| r.id.0).collect();
    let mut tags: HashMap<i64, Vec<(String, String)>> = HashMap::new();
    for (id, name, value) in tx.tags_of(&ids)? {
        tags.entry(id).or_default().push((name, value));
    }
    rows.into_iter()
        .map(|r| {
            let moves = match &r.packed {
                Some(bytes) => crate::packed::unpack(&r.game.start_fen, bytes)?,
                None => moves.remove(&r.id.0).unwrap_or_default(),
            };
            Ok(StoredGame {
                id: r.id,
                key: r.key,
                game: NewGame {
                    tags: tags.remove(&r.id.0).unwrap_or_default(),
                    ..r.game
                },
                moves,
                finish: rules::stored_finish(r.result, r.reason),
                movetext: r.movetext,
                created_at_ms: r.created_ms,
                updated_at_ms: r.updated_ms,
                seats: r.seats,
                players: r.players,
                offers: r.offers,
            })
        })
        .collect()
}

impl<B: Backend> EventStore for B {
    fn create_event(&self, event: &Event, arbiter_hash: Option<&str>) -> R<StoredEvent> {
        let doc = to_doc(event)?;
        let key = new_key()?.to_string();
        let (name, now) = (rules::storable(&event.name), now_ms());
        let id = self.write(|tx| tx.insert_event(&key, &name, arbiter_hash, now, &doc))?;
        let arbiter_hash = arbiter_hash.map(str::to_string);
        stored_event((id, key, 1, arbiter_hash, now, doc), Some(event.clone()))
    }

    fn event(&self, id_or_key: &str) -> R<StoredEvent> {
        let w = id_or_key.trim();
        // Digits are an id, anything else a key.
        let pick = w.parse().map_or(EventPick::Key(w), EventPick::Id);
        let row = self.read(|tx| tx.event_rows(pick))?.into_iter().next();
        stored_event(
            row.ok_or_else(|| StoreError::NoSuchEvent(w.to_string()))?,
            None,
        )
    }

    fn events(&self) -> R<Vec<EventSummary>> {
        let rows = self.read(|tx| tx.event_rows(EventPick::All))?;
        rows.into_iter()
            .map(|row| {
                let e = stored_event(row, None)?;
                Ok(EventSummary::of(e.id, &e.key, e.updated_ms, &e.event))
            })
            .collect()
    }

    fn save_event(&self, id: i64, revision: u64, event: &Event) -> R<u64> {
        let doc = to_doc(event)?;
        let name = rules::storable(&event.name);
        self.write(|tx| {
            let current = (tx.event_revision(id)?)
                .ok_or_else(|| StoreError::NoSuchEvent(id.to_string()))?
                as u64;
            if current != revision {
                return Err(StoreError::Conflict(format!(
                    "the event was changed meanwhile (revision {current}, this change was made on {revision}): load it again"
                )));
            }
            tx.update_event(id, &name, (revision + 1) as i64, &doc)?;
            Ok(revision + 1)
        })
    }

    fn delete_event(&self, id: i64) -> R<()> {
        match self.write(|tx| tx.delete_event(id))? {
            true => Ok(()),
            false => Err(StoreError::NoSuchEvent(id.to_string())),
        }
    }
}

/// An event from its row; `event` when it is known already (else read from the document).
fn stored_event(row: EventRow, event: Option<Event>) -> R<StoredEvent> {
    let (id, key, revision, arbiter_hash, updated_ms, doc) = row;
    let event = match event {
        Some(e) => e,
        None => from_doc(&doc, &key)?,
    };
    Ok(StoredEvent {
        id,
        key,
        revision: revision as u64,
        arbiter_hash,
        updated_ms,
        event,
    })
}

/// The index entries of `entries` as rows of game `id` with `result`.
pub fn index_rows(id: GameId, entries: &[IndexEntry], result: Option<u8>) -> Vec<IndexRow> {
    (entries.iter())
        .map(|e| (e.key as i64, id.0, e.mv, result))
        .collect()
}
