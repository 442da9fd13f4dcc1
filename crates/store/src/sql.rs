//! The statements of a transaction ([`Tx`]): one typed method per step of the store's
//! sequences ([`crate::write`], [`crate::backend`]), each with its meaning documented here.
//!
//! Most statements read the same in SQLite and PostgreSQL once their placeholders are
//! PostgreSQL's `$1`, `$2`, … (SQLite takes them as named parameters): they are written
//! once, as the methods' default implementations, over two primitives a backend provides,
//! [`Tx::exec`] and [`Tx::query`], with each value's column type ([`Arg`]) so that
//! PostgreSQL needs no round trip to prepare a statement. A backend overrides a statement
//! where its SQL must differ: the lock of a game (`FOR UPDATE`, and a bulk import's pending
//! rows), and many rows in one statement where PostgreSQL has arrays (`unnest`, `ANY`,
//! `COPY`) and SQLite a cheap statement per row.

use crate::backend::{
    index_rows, seat_columns, tag_column, Deferred, EventPick, EventRow, GameRow, HashInput,
    IndexChange, IndexRow, Line, NewRow, Pick, EVENT_COLUMNS, GAME_COLUMNS, R,
};
use crate::explorer::{self, IndexEntry, KeyCount};
use crate::filter::{self, and_where, Dialect};
use crate::players::UserId;
use crate::rules::{self, GameState, TagHome};
use crate::util::{clocks, ms, now_ms};
use crate::{
    packed, Finish, GameFilter, GameId, GameKey, GameResult, GameSummary, MoveRecord, NewGame,
    Offers, PositionCounts, SeatRecord, Seats, StoreError, ABORTED,
};
use chess960_core::Color;
use std::collections::HashMap;

/// A value bound to a placeholder, with the type of its column (PostgreSQL's names; SQLite
/// stores any integer as an integer). `None` is SQL's NULL.
#[derive(Clone, Copy, Debug)]
pub enum Arg<'a> {
    /// `BIGINT`: ids, keys, milliseconds.
    Big(Option<i64>),
    /// `INT`: half-moves, places, start positions, move codes.
    Int(Option<i32>),
    /// `SMALLINT`: result codes.
    Small(Option<i16>),
    Text(Option<&'a str>),
    /// `BYTEA`, SQLite's `BLOB`.
    Bytes(Option<&'a [u8]>),
}

impl From<i64> for Arg<'_> {
    fn from(v: i64) -> Self {
        Arg::Big(Some(v))
    }
}

impl From<GameId> for Arg<'_> {
    fn from(v: GameId) -> Self {
        Arg::Big(Some(v.0))
    }
}

impl From<Option<i64>> for Arg<'_> {
    fn from(v: Option<i64>) -> Self {
        Arg::Big(v)
    }
}

impl From<u32> for Arg<'_> {
    fn from(v: u32) -> Self {
        Arg::Int(Some(i32::try_from(v).unwrap_or(i32::MAX)))
    }
}

impl From<Option<u16>> for Arg<'_> {
    fn from(v: Option<u16>) -> Self {
        Arg::Int(v.map(i32::from))
    }
}

impl From<Option<u8>> for Arg<'_> {
    fn from(v: Option<u8>) -> Self {
        Arg::Small(v.map(i16::from))
    }
}

impl<'a> From<&'a str> for Arg<'a> {
    fn from(v: &'a str) -> Self {
        Arg::Text(Some(v))
    }
}

impl<'a> From<&'a String> for Arg<'a> {
    fn from(v: &'a String) -> Self {
        Arg::Text(Some(v))
    }
}

impl<'a> From<Option<&'a str>> for Arg<'a> {
    fn from(v: Option<&'a str>) -> Self {
        Arg::Text(v)
    }
}

impl<'a> From<Option<&'a [u8]>> for Arg<'a> {
    fn from(v: Option<&'a [u8]>) -> Self {
        Arg::Bytes(v)
    }
}

/// One value of a row read by [`Tx::query`].
#[derive(Clone, Debug)]
pub enum Cell {
    Null,
    Int(i64),
    Text(String),
    Bytes(Vec<u8>),
}

/// A row read by [`Tx::query`]; its readers say what a column that is not what the schema
/// says is ([`StoreError::Corrupt`]), and take text and bytes out without copying.
#[derive(Debug)]
pub struct Cells(pub Vec<Cell>);

impl Cells {
    /// Column `i` taken out, `None` for NULL, or an error when `want` does not take it.
    fn take<T>(&mut self, i: usize, want: fn(Cell) -> Result<T, Cell>) -> R<Option<T>> {
        let cell = self.0.get_mut(i).ok_or_else(|| bad(i, "missing"))?;
        match std::mem::replace(cell, Cell::Null) {
            Cell::Null => Ok(None),
            other => want(other)
                .map(Some)
                .map_err(|c| bad(i, &format!("{c:?} is not of the column's type"))),
        }
    }

    /// An integer, or NULL.
    pub fn opt_int(&mut self, i: usize) -> R<Option<i64>> {
        self.take(i, |c| if let Cell::Int(v) = c { Ok(v) } else { Err(c) })
    }

    /// Text, or NULL.
    pub fn opt_text(&mut self, i: usize) -> R<Option<String>> {
        self.take(i, |c| if let Cell::Text(v) = c { Ok(v) } else { Err(c) })
    }

    /// Bytes, or NULL.
    pub fn opt_bytes(&mut self, i: usize) -> R<Option<Vec<u8>>> {
        self.take(i, |c| {
            if let Cell::Bytes(v) = c {
                Ok(v)
            } else {
                Err(c)
            }
        })
    }

    pub fn int(&mut self, i: usize) -> R<i64> {
        self.opt_int(i)?.ok_or_else(|| bad(i, "NULL"))
    }

    pub fn text(&mut self, i: usize) -> R<String> {
        self.opt_text(i)?.ok_or_else(|| bad(i, "NULL"))
    }

    /// A result column: `1-0`, `0-1`, `1/2-1/2` or `*` (what [`crate::GameStore::finish_game`]
    /// and the import write); anything else is a damaged row.
    pub fn result(&mut self, i: usize) -> R<GameResult> {
        let text = self.text(i)?;
        GameResult::parse(&text).ok_or_else(|| bad(i, &format!("result '{text}'")))
    }

    pub fn key(&mut self, i: usize) -> R<GameKey> {
        let text = self.text(i)?;
        GameKey::parse(&text).ok_or_else(|| bad(i, &format!("game key '{text}'")))
    }

    /// A count, a half-move, a place: never negative.
    pub fn count(&mut self, i: usize) -> R<u32> {
        Ok(u32::try_from(self.int(i)?).unwrap_or(0))
    }

    /// A start position or a move code.
    pub fn opt_u16(&mut self, i: usize) -> R<Option<u16>> {
        Ok(self.opt_int(i)?.and_then(|v| u16::try_from(v).ok()))
    }

    /// A colour column (an offer's: [`Tx::set_offers`]): `white`, `black` or NULL; anything
    /// else is a damaged row.
    pub fn opt_color(&mut self, i: usize) -> R<Option<Color>> {
        match self.opt_text(i)?.as_deref() {
            None => Ok(None),
            Some("white") => Ok(Some(Color::White)),
            Some("black") => Ok(Some(Color::Black)),
            Some(other) => Err(bad(i, &format!("colour '{other}'"))),
        }
    }

    /// Both clocks from columns `i` and `i + 1`.
    pub fn clocks(&mut self, i: usize) -> R<Option<crate::Clocks>> {
        Ok(clocks(self.opt_int(i)?, self.opt_int(i + 1)?))
    }
}

fn bad(i: usize, what: &str) -> StoreError {
    StoreError::Corrupt {
        detail: format!("column {i}: {what}"),
    }
}

fn no_game(id: GameId) -> StoreError {
    StoreError::NoSuchGame(id.to_string())
}

/// What the rules need of game `id` from its columns `plies, result, reason` (the row of
/// [`Tx::lock_state`]), or `NoSuchGame` without a row.
pub fn game_state(id: GameId, row: Option<Cells>) -> R<GameState> {
    let mut r = row.ok_or_else(|| no_game(id))?;
    Ok(GameState {
        plies: r.count(0)?,
        result: r.result(1)?,
        reason: r.opt_text(2)?,
    })
}

/// A game's row from [`GAME_COLUMNS`].
fn game_row(mut r: Cells) -> R<GameRow> {
    Ok(GameRow {
        id: GameId(r.int(0)?),
        key: r.key(1)?,
        game: NewGame {
            start_id: r.opt_u16(2)?,
            start_fen: r.text(3)?,
            white: r.text(4)?,
            black: r.text(5)?,
            time_control: r.opt_text(6)?,
            clocks: r.clocks(7)?,
            tags: Vec::new(),
        },
        result: r.result(9)?,
        reason: r.opt_text(10)?,
        created_ms: r.int(11)?,
        updated_ms: r.int(12)?,
        movetext: r.opt_text(13)?,
        seats: Seats {
            white: SeatRecord::from_column(r.opt_text(14)?),
            black: SeatRecord::from_column(r.opt_text(15)?),
        },
        packed: r.opt_bytes(16)?,
        players: crate::ratings::players_from(&mut r, 17)?,
        offers: Offers {
            draw: r.opt_color(20)?,
            takeback: r.opt_color(21)?,
        },
    })
}

/// The columns of a [`GameSummary`], of the games table as `g`.
const SUMMARY_COLUMNS: &str =
    "g.id, g.key, g.start_id, g.white, g.black, g.result, g.reason, g.date, g.plies, g.created_ms";

fn summary(mut r: Cells) -> R<GameSummary> {
    let (id, key, start_id) = (GameId(r.int(0)?), r.key(1)?, r.opt_u16(2)?);
    let (white, black, result, reason) = (r.text(3)?, r.text(4)?, r.result(5)?, r.opt_text(6)?);
    let (date, plies, created_at_ms) = (r.text(7)?, r.count(8)?, r.int(9)?);
    let s = GameSummary {
        id,
        key,
        start_id,
        white,
        black,
        result,
        reason,
        date,
        plies,
        created_at_ms,
    };
    Ok(s)
}

/// The condition that leaves aborted games (result `*`, reason [`ABORTED`]) out of the
/// explorer, over `positions p` joined with `games g`: they count nowhere else either
/// (docs/store.md, "Aborted games"). A row with a result is never an aborted game's, so only
/// the unfinished games' rows need their game's reason (the `NOT EXISTS` form of
/// `index_counts` reads the games table for those alone).
fn not_aborted() -> String {
    format!("(p.result IS NOT NULL OR g.reason IS NULL OR g.reason <> '{ABORTED}')")
}

/// `LIMIT … OFFSET …` of a filter (no limit: the largest, which both dialects take).
fn page(f: &GameFilter) -> String {
    let limit = f.limit.map_or(i64::MAX, i64::from);
    format!("LIMIT {limit} OFFSET {}", f.offset)
}

/// A filter's values as arguments (the start position is an `INT`).
fn filter_args(args: &[filter::Arg]) -> Vec<Arg<'_>> {
    (args.iter())
        .map(|a| match a {
            filter::Arg::Int(i) => Arg::Int(Some(i32::try_from(*i).unwrap_or(i32::MAX))),
            filter::Arg::Text(t) => Arg::Text(Some(t)),
        })
        .collect()
}

/// The statements of one transaction. Reads see the transaction's snapshot; in a write
/// transaction, [`Tx::lock_state`] comes first for every change of a stored game.
pub trait Tx {
    /// Runs a statement; the rows it changed.
    fn exec(&mut self, sql: &str, args: &[Arg<'_>]) -> R<u64>;
    /// The rows of a query.
    fn query(&mut self, sql: &str, args: &[Arg<'_>]) -> R<Vec<Cells>>;
    /// How the backend writes a filter ([`crate::filter`]), over the games table as `g`.
    fn dialect(&self) -> &'static Dialect;

    /// What the rules need of game `id` ([`GameState`]), or `NoSuchGame`; its row stays
    /// locked against other writers until the transaction ends, and its index rows left
    /// pending by a bulk import are written first, so that what follows finds them.
    fn lock_state(&mut self, id: GameId) -> R<GameState>;
    /// Readies the transaction for an import batch (a lock against concurrent imports, a
    /// larger cache for a bulk one).
    fn begin_import(&mut self, bulk: bool) -> R<()>;
    /// Inserts imported games (rows, tags, move rows); their ids, in order.
    fn insert_imported(&mut self, rows: &[NewRow<'_>]) -> R<Vec<GameId>>;
    /// Notes that the index rows of these new games wait for a bulk import's end
    /// ([`crate::backend::Backend::index_bulk`]).
    fn defer_index(&mut self, games: &[Deferred<'_>]) -> R<()>;

    /// The first row of a query, if any.
    fn one(&mut self, sql: &str, args: &[Arg<'_>]) -> R<Option<Cells>> {
        Ok(self.query(sql, args)?.into_iter().next())
    }

    /// The game's start and moves; `None` without a game.
    fn line(&mut self, id: GameId) -> R<Option<Line>> {
        let sql = "SELECT start_fen, packed_moves FROM games WHERE id = $1";
        let Some(mut row) = self.one(sql, &[id.into()])? else {
            return Ok(None);
        };
        let packed = row.opt_bytes(1)?;
        let ucis = match &packed {
            Some(bytes) => packed::ucis(bytes)?,
            None => (self.query(
                "SELECT uci FROM moves WHERE game_id = $1 ORDER BY ply",
                &[id.into()],
            )?)
            .into_iter()
            .map(|mut r| r.text(0))
            .collect::<R<_>>()?,
        };
        Ok(Some(Line {
            start_fen: row.text(0)?,
            ucis,
            packed,
        }))
    }

    /// What the duplicate hash reads of the game's row.
    fn hash_input(&mut self, id: GameId) -> R<HashInput> {
        let sql = "SELECT start_fen, white, black, result FROM games WHERE id = $1";
        let mut r = self.one(sql, &[id.into()])?.ok_or_else(|| no_game(id))?;
        Ok(HashInput {
            start_fen: r.text(0)?,
            white: r.text(1)?,
            black: r.text(2)?,
            result: r.result(3)?,
        })
    }

    /// When the game was created.
    fn created_ms(&mut self, id: GameId) -> R<i64> {
        let sql = "SELECT created_ms FROM games WHERE id = $1";
        self.one(sql, &[id.into()])?
            .ok_or_else(|| no_game(id))?
            .int(0)
    }

    /// The game's index rows under `keys` (those it has).
    fn index_entries(&mut self, id: GameId, keys: &[u64]) -> R<Vec<IndexEntry>> {
        let mut out = Vec::with_capacity(keys.len());
        for &key in keys {
            let sql = "SELECT move FROM positions WHERE key = $1 AND game_id = $2";
            if let Some(mut r) = self.one(sql, &[(key as i64).into(), id.into()])? {
                out.push(IndexEntry {
                    key,
                    mv: r.opt_u16(0)?,
                });
            }
        }
        Ok(out)
    }

    /// Inserts a game's row, without its tags and moves; its id.
    fn insert_row(&mut self, row: &NewRow<'_>) -> R<GameId> {
        let g = row.game;
        let sql = "INSERT INTO games (key, start_id, start_fen, white, black, time_control,
                 white_ms, black_ms, result, reason, date, created_ms, updated_ms, plies,
                 dup_hash, movetext, white_seat, black_seat, packed_moves)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $12, $13, $14, $15,
                 $16, $17, $18)
             RETURNING id";
        let args = [
            row.key.as_str().into(),
            g.start_id.into(),
            (&g.start_fen).into(),
            (&g.white).into(),
            (&g.black).into(),
            g.time_control.as_deref().into(),
            g.clocks.map(|c| ms(c.white_ms)).into(),
            g.clocks.map(|c| ms(c.black_ms)).into(),
            row.result.as_str().into(),
            row.reason.into(),
            (&row.date).into(),
            row.now.into(),
            row.plies.into(),
            row.hash.as_ref().map(|h| &h[..]).into(),
            row.movetext.into(),
            row.seats.white.to_column().into(),
            row.seats.black.to_column().into(),
            row.packed.as_deref().into(),
        ];
        let mut r = self.one(sql, &args)?;
        let id = r.as_mut().map(|r| r.int(0)).transpose()?;
        id.map(GameId)
            .ok_or_else(|| StoreError::Backend("a game was inserted without an id".into()))
    }

    /// Inserts a game's row, its tags and its move rows; returns its id.
    fn insert_game(&mut self, row: &NewRow<'_>) -> R<GameId> {
        let id = self.insert_row(row)?;
        self.insert_tags(id, &row.game.tags)?;
        self.insert_moves(id, 0, row.moves)?;
        Ok(id)
    }

    /// Inserts the tags of a new game, in their order.
    fn insert_tags(&mut self, id: GameId, tags: &[(String, String)]) -> R<()> {
        for (ord, (name, value)) in (0u32..).zip(tags) {
            let sql = "INSERT INTO tags (game_id, ord, name, value) VALUES ($1, $2, $3, $4)";
            self.exec(sql, &[id.into(), ord.into(), name.into(), value.into()])?;
        }
        Ok(())
    }

    /// Inserts `moves` as the half-moves from `first` on.
    fn insert_moves(&mut self, id: GameId, first: u32, moves: &[MoveRecord]) -> R<()> {
        for (ply, mv) in (first..).zip(moves) {
            self.exec(
                "INSERT INTO moves (game_id, ply, uci, san, white_ms, black_ms, played_ms)
                 VALUES ($1, $2, $3, $4, $5, $6, $7)",
                &[
                    id.into(),
                    ply.into(),
                    (&mv.uci).into(),
                    (&mv.san).into(),
                    mv.clocks.map(|c| ms(c.white_ms)).into(),
                    mv.clocks.map(|c| ms(c.black_ms)).into(),
                    mv.played_at_ms.into(),
                ],
            )?;
        }
        Ok(())
    }

    /// Writes (inserts or replaces) the game's index rows for `entries`, all with `result`.
    fn write_entries(&mut self, id: GameId, entries: &[IndexEntry], result: Option<u8>) -> R<()> {
        self.insert_index(&index_rows(id, entries, result))
    }

    /// Writes (inserts or replaces) index rows; an import's are sorted by key and game.
    fn insert_index(&mut self, rows: &[IndexRow]) -> R<()> {
        for &(key, id, mv, result) in rows {
            self.exec(
                "INSERT INTO positions (key, game_id, move, result) VALUES ($1, $2, $3, $4)
                 ON CONFLICT (key, game_id) DO UPDATE SET move = excluded.move,
                     result = excluded.result",
                &[key.into(), id.into(), mv.into(), result.into()],
            )?;
        }
        Ok(())
    }

    /// Removes the game's index rows under `keys`.
    fn remove_entries(&mut self, id: GameId, keys: &[u64]) -> R<()> {
        for &key in keys {
            let sql = "DELETE FROM positions WHERE key = $1 AND game_id = $2";
            self.exec(sql, &[(key as i64).into(), id.into()])?;
        }
        Ok(())
    }

    /// Records half-move `ply`: removes the index rows under `ix.remove`, writes `ix.write`
    /// (unfinished), inserts the move and counts it in the game's row.
    fn record_move(&mut self, id: GameId, ply: u32, mv: &MoveRecord, ix: IndexChange<'_>) -> R<()> {
        self.remove_entries(id, ix.remove)?;
        self.write_entries(id, ix.write, None)?;
        self.insert_moves(id, ply, std::slice::from_ref(mv))?;
        let sql = "UPDATE games SET plies = $2, updated_ms = $3 WHERE id = $1";
        self.exec(sql, &[id.into(), (ply + 1).into(), now_ms().into()])
            .map(drop)
    }

    /// Takes the moves from `plies` on back and leaves the game unfinished with `plies`
    /// half-moves as rows: no result, reason, duplicate hash nor packed line, and no standing
    /// offer (a takeback answers them: [`crate::rules`]).
    fn reopen(&mut self, id: GameId, plies: u32) -> R<()> {
        let sql = "DELETE FROM moves WHERE game_id = $1 AND ply >= $2";
        self.exec(sql, &[id.into(), plies.into()])?;
        self.exec(
            "UPDATE games SET plies = $2, result = '*', reason = NULL, dup_hash = NULL,
                 packed_moves = NULL, draw_offer = NULL, takeback_offer = NULL,
                 updated_ms = $3 WHERE id = $1",
            &[id.into(), plies.into(), now_ms().into()],
        )
        .map(drop)
    }

    /// Sets the result and reason; the offers go (a finished game has none: [`crate::rules`]).
    fn set_result(&mut self, id: GameId, finish: &Finish) -> R<()> {
        let sql = "UPDATE games SET result = $2, reason = $3, draw_offer = NULL,
                 takeback_offer = NULL, updated_ms = $4 WHERE id = $1";
        let reason = rules::stored_reason(finish);
        let args = [
            id.into(),
            finish.result.as_str().into(),
            reason.into(),
            now_ms().into(),
        ];
        self.exec(sql, &args).map(drop)
    }

    /// Sets the duplicate hash.
    fn set_hash(&mut self, id: GameId, hash: Option<[u8; 16]>) -> R<()> {
        let sql = "UPDATE games SET dup_hash = $2 WHERE id = $1";
        self.exec(sql, &[id.into(), hash.as_ref().map(|h| &h[..]).into()])
            .map(drop)
    }

    /// Sets the offers standing in the game.
    fn set_offers(&mut self, id: GameId, offers: Offers) -> R<()> {
        let sql = "UPDATE games SET draw_offer = $2, takeback_offer = $3 WHERE id = $1";
        let args = [
            id.into(),
            offers.draw.map(Color::name).into(),
            offers.takeback.map(Color::name).into(),
        ];
        self.exec(sql, &args).map(drop)
    }

    /// Gives the open seat of `color` to `hash`, playing as `name`; false if it was not open.
    fn claim_seat(&mut self, id: GameId, color: Color, hash: &str, name: &str) -> R<bool> {
        let (seat, player) = seat_columns(color);
        let sql = format!(
            "UPDATE games SET {seat} = $2, {player} = $4, updated_ms = $3
              WHERE id = $1 AND {seat} = '{}'",
            crate::seats::OPEN
        );
        let args = [id.into(), hash.into(), now_ms().into(), name.into()];
        Ok(self.exec(&sql, &args)? > 0)
    }

    /// Sets the start position.
    fn set_start(&mut self, id: GameId, fen: &str, start_id: Option<u16>) -> R<()> {
        let sql = "UPDATE games SET start_fen = $2, start_id = $3, updated_ms = $4 WHERE id = $1";
        let args = [id.into(), fen.into(), start_id.into(), now_ms().into()];
        self.exec(sql, &args).map(drop)
    }

    /// Sets the column of a tag kept in one (White, Black, TimeControl).
    fn set_column(&mut self, id: GameId, home: TagHome, value: Option<&str>) -> R<()> {
        let sql = format!("UPDATE games SET {} = $2 WHERE id = $1", tag_column(home));
        self.exec(&sql, &[id.into(), value.into()]).map(drop)
    }

    /// The place (`ord`) of the tag `name` among the game's tags.
    fn tag_ord(&mut self, id: GameId, name: &str) -> R<Option<u32>> {
        let sql = "SELECT ord FROM tags WHERE game_id = $1 AND name = $2";
        let row = self.one(sql, &[id.into(), name.into()])?;
        row.map(|mut r| r.count(0)).transpose()
    }

    /// Sets the tag at `ord` to `value`, or removes it (`None`).
    fn put_tag(&mut self, id: GameId, ord: u32, value: Option<&str>) -> R<()> {
        match value {
            Some(v) => self.exec(
                "UPDATE tags SET value = $3 WHERE game_id = $1 AND ord = $2",
                &[id.into(), ord.into(), v.into()],
            ),
            None => self.exec(
                "DELETE FROM tags WHERE game_id = $1 AND ord = $2",
                &[id.into(), ord.into()],
            ),
        }
        .map(drop)
    }

    /// Adds a tag after the others.
    fn add_tag(&mut self, id: GameId, name: &str, value: &str) -> R<()> {
        self.exec(
            "INSERT INTO tags (game_id, ord, name, value)
             SELECT $1, coalesce(max(ord) + 1, 0), $2, $3 FROM tags WHERE game_id = $1",
            &[id.into(), name.into(), value.into()],
        )
        .map(drop)
    }

    /// Notes a change made now, with the game's new `date` when it changed.
    fn touch(&mut self, id: GameId, date: Option<&str>) -> R<()> {
        let sql = "UPDATE games SET updated_ms = $2, date = coalesce($3, date) WHERE id = $1";
        self.exec(sql, &[id.into(), now_ms().into(), date.into()])
            .map(drop)
    }

    /// Deletes the game's row, moves and tags (its index rows are removed before).
    fn delete_game(&mut self, id: GameId) -> R<()> {
        for sql in [
            "DELETE FROM positions_pending WHERE game_id = $1",
            "DELETE FROM moves WHERE game_id = $1",
            "DELETE FROM tags WHERE game_id = $1",
            "DELETE FROM games WHERE id = $1",
        ] {
            self.exec(sql, &[id.into()])?;
        }
        Ok(())
    }

    /// The lowest id of a stored game with each of these duplicate hashes (those found).
    fn stored_duplicates(&mut self, hashes: &[[u8; 16]]) -> R<HashMap<[u8; 16], i64>> {
        let mut out = HashMap::new();
        for h in hashes {
            let sql = "SELECT id FROM games WHERE dup_hash = $1 ORDER BY id LIMIT 1";
            if let Some(mut r) = self.one(sql, &[Some(&h[..]).into()])? {
                out.insert(*h, r.int(0)?);
            }
        }
        Ok(out)
    }

    /// Game rows.
    fn game_rows(&mut self, pick: Pick<'_>) -> R<Vec<GameRow>> {
        let head = format!("SELECT {GAME_COLUMNS} FROM games g");
        let rows = match pick {
            Pick::Id(id) => self.query(&format!("{head} WHERE id = $1"), &[id.into()])?,
            Pick::Key(key) => {
                self.query(&format!("{head} WHERE key = $1"), &[key.as_str().into()])?
            }
            Pick::Range {
                filter,
                from,
                to,
                limit,
            } => {
                let (where_sql, values) = filter::where_clause(filter, self.dialect(), 1);
                let mut args = filter_args(&values);
                let sql = format!(
                    "{head} {} g.id BETWEEN ${} AND ${} ORDER BY g.id LIMIT {limit}",
                    and_where(&where_sql),
                    args.len() + 1,
                    args.len() + 2
                );
                args.extend([Arg::from(from), Arg::from(to)]);
                self.query(&sql, &args)?
            }
        };
        rows.into_iter().map(game_row).collect()
    }

    /// The lowest and highest id of the games [`crate::GameStore::list`] gives for `filter`.
    fn id_bounds(&mut self, filter: &GameFilter) -> R<Option<(i64, i64)>> {
        let (where_sql, values) = filter::where_clause(filter, self.dialect(), 1);
        let sql = format!(
            "SELECT min(id), max(id) FROM
                 (SELECT g.id FROM games g {where_sql} ORDER BY g.id DESC {}) AS w",
            page(filter)
        );
        let Some(mut r) = self.one(&sql, &filter_args(&values))? else {
            return Ok(None);
        };
        Ok(r.opt_int(0)?.zip(r.opt_int(1)?))
    }

    /// The move rows of these games, by game and ply.
    fn moves_of(&mut self, ids: &[i64]) -> R<Vec<(i64, MoveRecord)>> {
        let mut out = Vec::new();
        for &id in ids {
            let sql = "SELECT game_id, uci, san, white_ms, black_ms, played_ms FROM moves
                        WHERE game_id = $1 ORDER BY ply";
            for r in self.query(sql, &[id.into()])? {
                out.push(move_row(r)?);
            }
        }
        Ok(out)
    }

    /// The tags of these games, by game and place.
    fn tags_of(&mut self, ids: &[i64]) -> R<Vec<(i64, String, String)>> {
        let mut out = Vec::new();
        for &id in ids {
            let sql = "SELECT game_id, name, value FROM tags WHERE game_id = $1 ORDER BY ord";
            for r in self.query(sql, &[id.into()])? {
                out.push(tag_row(r)?);
            }
        }
        Ok(out)
    }

    /// [`crate::GameStore::list`].
    fn list(&mut self, filter: &GameFilter) -> R<Vec<GameSummary>> {
        let (where_sql, values) = filter::where_clause(filter, self.dialect(), 1);
        let sql = format!(
            "SELECT {SUMMARY_COLUMNS} FROM games g {where_sql} ORDER BY g.id DESC {}",
            page(filter)
        );
        let rows = self.query(&sql, &filter_args(&values))?;
        rows.into_iter().map(summary).collect()
    }

    /// [`crate::GameStore::count`].
    fn count(&mut self, filter: &GameFilter) -> R<u64> {
        let (where_sql, values) = filter::where_clause(filter, self.dialect(), 1);
        let sql = format!("SELECT count(*) FROM games g {where_sql}");
        let n = match self.one(&sql, &filter_args(&values))? {
            Some(mut r) => r.int(0)?,
            None => 0,
        };
        Ok(u64::try_from(n).unwrap_or(0))
    }

    /// [`crate::GameStore::position_counts`].
    fn position_counts(&mut self, filter: &GameFilter) -> R<Vec<PositionCounts>> {
        let (where_sql, values) = filter::where_clause(filter, self.dialect(), 1);
        let sql = format!(
            "SELECT g.start_id, g.result, count(*) FROM games g {} \
             g.start_id IS NOT NULL AND g.result IN ('1-0', '0-1', '1/2-1/2') \
             GROUP BY g.start_id, g.result ORDER BY g.start_id",
            and_where(&where_sql)
        );
        let mut out = Vec::new();
        for mut r in self.query(&sql, &filter_args(&values))? {
            let (id, result) = (r.opt_u16(0)?.unwrap_or(0), r.text(1)?);
            PositionCounts::tally(&mut out, id, &result, u64::try_from(r.int(2)?).unwrap_or(0));
        }
        Ok(out)
    }

    /// [`crate::GameStore::index_counts`], of `account`'s games only when one is given.
    /// Aborted games are left out ([`not_aborted`]).
    fn index_counts(&mut self, key: u64, account: Option<UserId>) -> R<Vec<KeyCount>> {
        let rows = match account {
            None => self.query(
                &format!(
                    "SELECT p.move, p.result, count(*) FROM positions p
                      WHERE p.key = $1 AND (p.result IS NOT NULL OR NOT EXISTS (
                            SELECT 1 FROM games a WHERE a.id = p.game_id AND a.reason = '{ABORTED}'))
                      GROUP BY p.move, p.result"
                ),
                &[(key as i64).into()],
            )?,
            Some(user) => self.query(
                &format!(
                    "SELECT p.move, p.result, count(*) FROM positions p JOIN games g ON g.id = p.game_id
                      WHERE p.key = $1 AND (g.white_user = $2 OR g.black_user = $2) AND {}
                      GROUP BY p.move, p.result",
                    not_aborted()
                ),
                &[(key as i64).into(), user.0.into()],
            )?,
        };
        rows.into_iter()
            .map(|mut r| {
                Ok(KeyCount {
                    uci: r.opt_u16(0)?.and_then(explorer::decode_move),
                    result: r.opt_int(1)?.and_then(|v| u8::try_from(v).ok()),
                    games: u64::try_from(r.int(2)?).unwrap_or(0),
                })
            })
            .collect()
    }

    /// [`crate::GameStore::position_games`], of `account`'s games only when one is given.
    /// Aborted games are left out ([`not_aborted`]).
    fn position_games(
        &mut self,
        key: u64,
        limit: u32,
        account: Option<UserId>,
    ) -> R<Vec<GameSummary>> {
        let head = format!(
            "SELECT {SUMMARY_COLUMNS} FROM positions p JOIN games g ON g.id = p.game_id
              WHERE p.key = $1 AND {}",
            not_aborted()
        );
        let mut args = vec![(key as i64).into(), i64::from(limit).into()];
        let sql = match account {
            None => format!("{head} ORDER BY p.game_id DESC LIMIT $2"),
            Some(user) => {
                args.push(user.0.into());
                format!(
                    "{head} AND (g.white_user = $3 OR g.black_user = $3)
                     ORDER BY p.game_id DESC LIMIT $2"
                )
            }
        };
        let rows = self.query(&sql, &args)?;
        rows.into_iter().map(summary).collect()
    }

    /// Inserts an event at revision 1; its id.
    fn insert_event(
        &mut self,
        key: &str,
        name: &str,
        arb: Option<&str>,
        now: i64,
        doc: &str,
    ) -> R<i64> {
        let sql = "INSERT INTO events (key, name, revision, arbiter, created_ms, updated_ms, doc)
                   VALUES ($1, $2, 1, $3, $4, $4, $5) RETURNING id";
        let args = [key.into(), name.into(), arb.into(), now.into(), doc.into()];
        let mut r = self.one(sql, &args)?;
        let id = r.as_mut().map(|r| r.int(0)).transpose()?;
        id.ok_or_else(|| StoreError::Backend("an event was inserted without an id".into()))
    }

    /// Events.
    fn event_rows(&mut self, pick: EventPick<'_>) -> R<Vec<EventRow>> {
        let head = format!("SELECT {EVENT_COLUMNS} FROM events");
        let rows = match pick {
            EventPick::All => self.query(&format!("{head} ORDER BY updated_ms DESC, id DESC"), &[]),
            EventPick::Id(id) => self.query(&format!("{head} WHERE id = $1"), &[id.into()]),
            EventPick::Key(key) => self.query(&format!("{head} WHERE key = $1"), &[key.into()]),
        }?;
        (rows.into_iter())
            .map(|mut r| {
                let (id, key, revision) = (r.int(0)?, r.text(1)?, r.int(2)?);
                Ok((id, key, revision, r.opt_text(3)?, r.int(4)?, r.text(5)?))
            })
            .collect()
    }

    /// An event's revision, its row locked until the transaction ends (SQLite's one writer
    /// holds the whole database).
    fn event_revision(&mut self, id: i64) -> R<Option<i64>> {
        let row = self.one("SELECT revision FROM events WHERE id = $1", &[id.into()])?;
        row.map(|mut r| r.int(0)).transpose()
    }

    /// Saves an event at `revision`.
    fn update_event(&mut self, id: i64, name: &str, revision: i64, doc: &str) -> R<()> {
        self.exec(
            "UPDATE events SET name = $2, revision = $3, updated_ms = $4, doc = $5 WHERE id = $1",
            &[
                id.into(),
                name.into(),
                revision.into(),
                now_ms().into(),
                doc.into(),
            ],
        )
        .map(drop)
    }

    /// Deletes an event; whether there was one.
    fn delete_event(&mut self, id: i64) -> R<bool> {
        Ok(self.exec("DELETE FROM events WHERE id = $1", &[id.into()])? > 0)
    }
}

/// A move row: `game_id, uci, san, white_ms, black_ms, played_ms`.
pub fn move_row(mut r: Cells) -> R<(i64, MoveRecord)> {
    let mv = MoveRecord {
        uci: r.text(1)?,
        san: r.text(2)?,
        clocks: r.clocks(3)?,
        played_at_ms: r.int(5)?,
    };
    Ok((r.int(0)?, mv))
}

/// A tag row: `game_id, name, value`.
pub fn tag_row(mut r: Cells) -> R<(i64, String, String)> {
    Ok((r.int(0)?, r.text(1)?, r.text(2)?))
}
