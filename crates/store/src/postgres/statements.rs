//! The statements of a PostgreSQL transaction ([`Tx`]): the two primitives the shared SQL
//! runs on, each statement sent with its parameters' types (so that it needs no round trip
//! to be prepared), and the statements whose SQL is PostgreSQL's own: the lock of a game,
//! and many rows in one statement (`unnest` of one array per column, `ANY`, `COPY … BINARY`),
//! since a statement is a round trip.

use super::{PgStore, IMPORT_LOCK};
use crate::backend::{Deferred, IndexChange, IndexRow, Line, NewRow, R};
use crate::explorer::IndexEntry;
use crate::filter::Dialect;
use crate::rules::GameState;
use crate::sql::{game_state, move_row, tag_row, Arg, Cell, Cells, Tx};
use crate::util::{ms, now_ms};
use crate::{packed, GameId, MoveRecord, StoreError};
use postgres::binary_copy::BinaryCopyInWriter;
use postgres::types::{ToSql, Type};
use postgres::{Row, Transaction};
use std::collections::HashMap;

/// PostgreSQL's way of writing a filter (see [`crate::filter`]): a player's name is folded as
/// SQLite's `NOCASE` folds it, ASCII letters only, so both backends match the same names.
static DIALECT: Dialect = Dialect {
    placeholder: |n| format!("${n}"),
    equal_folded: |column, p| {
        format!(
            "translate({column}, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ', 'abcdefghijklmnopqrstuvwxyz') = {p}"
        )
    },
    fold_arg: |name| name.to_ascii_lowercase(),
    null_safe_equal: |a, b| format!("{a} IS NOT DISTINCT FROM {b}"),
    table: "g.",
};

/// A transaction's statements, with its store (for its messages and column readers).
pub(super) struct Pg<'a, 't> {
    pub(super) tx: &'a mut Transaction<'t>,
    pub(super) s: &'a PgStore,
}

/// A value with its type.
fn typed<'a>(arg: &'a Arg<'_>) -> (&'a (dyn ToSql + Sync), Type) {
    match arg {
        Arg::Big(v) => (v, Type::INT8),
        Arg::Int(v) => (v, Type::INT4),
        Arg::Small(v) => (v, Type::INT2),
        Arg::Text(v) => (v, Type::TEXT),
        Arg::Bytes(v) => (v, Type::BYTEA),
    }
}

/// A count or a half-move number as PostgreSQL's `INT` holds it.
fn int(n: impl TryInto<i32>) -> i32 {
    n.try_into().unwrap_or(i32::MAX)
}

impl Pg<'_, '_> {
    fn cells(&self, r: &Row) -> R<Cells> {
        let cell = |i: usize| -> Result<Cell, postgres::Error> {
            let ty = r.columns()[i].type_();
            let num = |v: Option<i64>| v.map_or(Cell::Null, Cell::Int);
            Ok(if *ty == Type::INT8 {
                num(r.try_get(i)?)
            } else if *ty == Type::INT4 {
                num(r.try_get::<_, Option<i32>>(i)?.map(i64::from))
            } else if *ty == Type::INT2 {
                num(r.try_get::<_, Option<i16>>(i)?.map(i64::from))
            } else if *ty == Type::BYTEA {
                r.try_get::<_, Option<Vec<u8>>>(i)?
                    .map_or(Cell::Null, Cell::Bytes)
            } else {
                r.try_get::<_, Option<String>>(i)?
                    .map_or(Cell::Null, Cell::Text)
            })
        };
        let cells = (0..r.len()).map(|i| {
            cell(i).map_err(|e| StoreError::Corrupt {
                detail: format!("{}: column {i}: {}", self.s.label, super::detail(&e)),
            })
        });
        Ok(Cells(cells.collect::<R<_>>()?))
    }

    /// Writes rows by `COPY … BINARY` into `table (columns)` of the given types: `rows`
    /// writes them.
    fn copy(
        &mut self,
        into: &str,
        types: &[Type],
        rows: impl FnOnce(&mut BinaryCopyInWriter<'_>) -> Result<(), postgres::Error>,
    ) -> R<()> {
        let s = self.s;
        let sink =
            (self.tx.copy_in(&format!("COPY {into} FROM STDIN BINARY"))).map_err(|e| s.err(&e))?;
        let mut writer = BinaryCopyInWriter::new(sink, types);
        rows(&mut writer).map_err(|e| s.err(&e))?;
        writer.finish().map_err(|e| s.err(&e)).map(drop)
    }

    fn copy_moves(&mut self, rows: &[(GameId, u32, &[MoveRecord])]) -> R<()> {
        if rows.iter().all(|(_, _, moves)| moves.is_empty()) {
            return Ok(());
        }
        let into = "moves (game_id, ply, uci, san, white_ms, black_ms, played_ms)";
        let types = [
            Type::INT8,
            Type::INT4,
            Type::TEXT,
            Type::TEXT,
            Type::INT8,
            Type::INT8,
            Type::INT8,
        ];
        self.copy(into, &types, |w| {
            for (id, first, moves) in rows {
                for (ply, m) in (*first..).zip(*moves) {
                    let (white, black) = (
                        m.clocks.map(|c| ms(c.white_ms)),
                        m.clocks.map(|c| ms(c.black_ms)),
                    );
                    w.write(&[
                        &id.0,
                        &int(ply),
                        &m.uci,
                        &m.san,
                        &white,
                        &black,
                        &m.played_at_ms,
                    ])?;
                }
            }
            Ok(())
        })
    }

    fn copy_tags(&mut self, rows: &[(GameId, &[(String, String)])]) -> R<()> {
        if rows.iter().all(|(_, tags)| tags.is_empty()) {
            return Ok(());
        }
        let types = [Type::INT8, Type::INT4, Type::TEXT, Type::TEXT];
        self.copy("tags (game_id, ord, name, value)", &types, |w| {
            for (id, tags) in rows {
                for (ord, (name, value)) in (0i32..).zip(*tags) {
                    w.write(&[&id.0, &ord, name, value])?;
                }
            }
            Ok(())
        })
    }
}

impl Tx for Pg<'_, '_> {
    fn exec(&mut self, sql: &str, args: &[Arg<'_>]) -> R<u64> {
        let args: Vec<_> = args.iter().map(typed).collect();
        self.tx
            .execute_typed(sql, &args)
            .map_err(|e| self.s.err(&e))
    }

    fn query(&mut self, sql: &str, args: &[Arg<'_>]) -> R<Vec<Cells>> {
        let args: Vec<_> = args.iter().map(typed).collect();
        let rows = self
            .tx
            .query_typed(sql, &args)
            .map_err(|e| self.s.err(&e))?;
        rows.iter().map(|r| self.cells(r)).collect()
    }

    fn dialect(&self) -> &'static Dialect {
        &DIALECT
    }

    /// Locks the game's row (`FOR UPDATE`) before the rules are asked, so that two servers
    /// writing one game are serialised exactly as SQLite's single writer serialises them; its
    /// pending index rows are merged in the same statement.
    fn lock_state(&mut self, id: GameId) -> R<GameState> {
        let sql = "WITH settled AS (
                 DELETE FROM positions_pending WHERE game_id = $1
                 RETURNING game_id, keys, moves, result
             ), indexed AS (
                 INSERT INTO positions (key, game_id, move, result)
                 SELECT t.k, p.game_id, t.m, p.result
                   FROM settled p, unnest(p.keys, p.moves) AS t(k, m)
             )
             SELECT plies, result, reason FROM games WHERE id = $1 FOR UPDATE";
        game_state(id, self.one(sql, &[id.into()])?)
    }

    /// One statement; read after the lock, its snapshot has every move of the transaction
    /// that held the lock before.
    fn line(&mut self, id: GameId) -> R<Option<Line>> {
        let Some(row) = (self.tx.query_typed_opt(
            "SELECT start_fen, packed_moves,
                    ARRAY(SELECT uci FROM moves WHERE game_id = $1 ORDER BY ply)
               FROM games WHERE id = $1",
            &[(&id.0, Type::INT8)],
        ))
        .map_err(|e| self.s.err(&e))?
        else {
            return Ok(None);
        };
        let packed: Option<Vec<u8>> = self.s.col(&row, 1)?;
        let ucis = match &packed {
            Some(bytes) => packed::ucis(bytes)?,
            None => self.s.col(&row, 2)?,
        };
        Ok(Some(Line {
            start_fen: self.s.col(&row, 0)?,
            ucis,
            packed,
        }))
    }

    fn index_entries(&mut self, id: GameId, keys: &[u64]) -> R<Vec<IndexEntry>> {
        let wanted: Vec<i64> = keys.iter().map(|&k| k as i64).collect();
        let rows = (self.tx.query_typed(
            "SELECT key, move FROM positions WHERE key = ANY($2) AND game_id = $1",
            &[(&id.0, Type::INT8), (&wanted, Type::INT8_ARRAY)],
        ))
        .map_err(|e| self.s.err(&e))?;
        (rows.iter())
            .map(|r| {
                let mut c = self.cells(r)?;
                Ok(IndexEntry {
                    key: c.int(0)? as u64,
                    mv: c.opt_u16(1)?,
                })
            })
            .collect()
    }

    fn insert_tags(&mut self, id: GameId, tags: &[(String, String)]) -> R<()> {
        self.copy_tags(&[(id, tags)])
    }

    fn insert_moves(&mut self, id: GameId, first: u32, moves: &[MoveRecord]) -> R<()> {
        self.copy_moves(&[(id, first, moves)])
    }

    fn write_entries(&mut self, id: GameId, entries: &[IndexEntry], result: Option<u8>) -> R<()> {
        if entries.is_empty() {
            return Ok(());
        }
        let keys: Vec<i64> = entries.iter().map(|e| e.key as i64).collect();
        let mvs: Vec<Option<i32>> = entries.iter().map(|e| e.mv.map(i32::from)).collect();
        self.tx
            .execute_typed(
                "INSERT INTO positions (key, game_id, move, result)
                 SELECT k, $2, m, $4 FROM unnest($1::bigint[], $3::int[]) AS t(k, m)
                 ON CONFLICT (key, game_id) DO UPDATE SET move = excluded.move,
                     result = excluded.result",
                &[
                    (&keys, Type::INT8_ARRAY),
                    (&id.0, Type::INT8),
                    (&mvs, Type::INT4_ARRAY),
                    (&result.map(i16::from), Type::INT2),
                ],
            )
            .map_err(|e| self.s.err(&e))
            .map(drop)
    }

    fn remove_entries(&mut self, id: GameId, keys: &[u64]) -> R<()> {
        if keys.is_empty() {
            return Ok(());
        }
        let keys: Vec<i64> = keys.iter().map(|&k| k as i64).collect();
        let sql = "DELETE FROM positions WHERE key = ANY($1) AND game_id = $2";
        (self
            .tx
            .execute_typed(sql, &[(&keys, Type::INT8_ARRAY), (&id.0, Type::INT8)]))
        .map_err(|e| self.s.err(&e))
        .map(drop)
    }

    /// The hot path of every game, one statement for every write (five round trips with
    /// the begin, the lock, the read and the commit).
    fn record_move(&mut self, id: GameId, ply: u32, mv: &MoveRecord, ix: IndexChange<'_>) -> R<()> {
        let remove: Vec<i64> = ix.remove.iter().map(|&k| k as i64).collect();
        let keys: Vec<i64> = ix.write.iter().map(|e| e.key as i64).collect();
        let mvs: Vec<Option<i32>> = ix.write.iter().map(|e| e.mv.map(i32::from)).collect();
        let (white, black) = (
            mv.clocks.map(|c| ms(c.white_ms)),
            mv.clocks.map(|c| ms(c.black_ms)),
        );
        // The removed and the written index keys never meet (explorer::diff, and the two
        // rows of a step are the positions before and after a move), so the two parts on
        // `positions` do not meet.
        self.tx
            .execute_typed(
                "WITH gone AS (
                     DELETE FROM positions WHERE key = ANY($2) AND game_id = $1
                 ), indexed AS (
                     INSERT INTO positions (key, game_id, move, result)
                     SELECT k, $1, m, NULL::smallint
                       FROM unnest($3::bigint[], $4::int[]) AS t(k, m)
                     ON CONFLICT (key, game_id) DO UPDATE SET move = excluded.move,
                         result = excluded.result
                 ), played AS (
                     INSERT INTO moves (game_id, ply, uci, san, white_ms, black_ms, played_ms)
                     VALUES ($1, $5, $6, $7, $8, $9, $10)
                 )
                 UPDATE games SET plies = $5 + 1, updated_ms = $11 WHERE id = $1",
                &[
                    (&id.0, Type::INT8),
                    (&remove, Type::INT8_ARRAY),
                    (&keys, Type::INT8_ARRAY),
                    (&mvs, Type::INT4_ARRAY),
                    (&int(ply), Type::INT4),
                    (&mv.uci, Type::TEXT),
                    (&mv.san, Type::TEXT),
                    (&white, Type::INT8),
                    (&black, Type::INT8),
                    (&mv.played_at_ms, Type::INT8),
                    (&now_ms(), Type::INT8),
                ],
            )
            .map_err(|e| self.s.err(&e))
            .map(drop)
    }

    fn delete_game(&mut self, id: GameId) -> R<()> {
        // Its moves, tags and pending index rows go with it (ON DELETE CASCADE).
        self.exec("DELETE FROM games WHERE id = $1", &[id.into()])
            .map(drop)
    }

    fn begin_import(&mut self, _bulk: bool) -> R<()> {
        // Two imports of the same game at once must store it once: the duplicate check and
        // the insert happen under one lock.
        let sql = "SELECT pg_advisory_xact_lock($1)";
        self.exec(sql, &[IMPORT_LOCK.into()]).map(drop)
    }

    fn stored_duplicates(&mut self, hashes: &[[u8; 16]]) -> R<HashMap<[u8; 16], i64>> {
        let mut out = HashMap::new();
        if hashes.is_empty() {
            return Ok(out);
        }
        let hashes: Vec<&[u8]> = hashes.iter().map(|h| &h[..]).collect();
        let rows = (self.tx.query_typed(
            "SELECT dup_hash, min(id) FROM games WHERE dup_hash = ANY($1) GROUP BY dup_hash",
            &[(&hashes, Type::BYTEA_ARRAY)],
        ))
        .map_err(|e| self.s.err(&e))?;
        for r in &rows {
            let mut c = self.cells(r)?;
            if let Some(Ok(hash)) = c.opt_bytes(0)?.map(<[u8; 16]>::try_from) {
                out.insert(hash, c.int(1)?);
            }
        }
        Ok(out)
    }

    /// A batch in a fixed number of statements whatever its size: one reserves the ids, and
    /// one `COPY` each writes the game rows, the tags and the moves of the games that keep
    /// rows. A statement per game was a round trip per game, most of the time of an import.
    fn insert_imported(&mut self, rows: &[NewRow<'_>]) -> R<Vec<GameId>> {
        if rows.is_empty() {
            return Ok(Vec::new());
        }
        let n = i64::try_from(rows.len()).unwrap_or(i64::MAX);
        let sql = "SELECT nextval(pg_get_serial_sequence('games', 'id'))
                     FROM generate_series(1::bigint, $1)";
        let mut ids = (self.query(sql, &[n.into()])?.into_iter())
            .map(|mut r| r.int(0).map(GameId))
            .collect::<R<Vec<_>>>()?;
        ids.sort_unstable();
        let into = "games (id, key, start_id, start_fen, white, black, time_control, white_ms,
            black_ms, result, reason, date, created_ms, updated_ms, plies, dup_hash, movetext,
            packed_moves)";
        let types = [
            Type::INT8,
            Type::TEXT,
            Type::INT4,
            Type::TEXT,
            Type::TEXT,
            Type::TEXT,
            Type::TEXT,
            Type::INT8,
            Type::INT8,
            Type::TEXT,
            Type::TEXT,
            Type::TEXT,
            Type::INT8,
            Type::INT8,
            Type::INT4,
            Type::BYTEA,
            Type::TEXT,
            Type::BYTEA,
        ];
        self.copy(into, &types, |w| {
            for (id, row) in ids.iter().zip(rows) {
                let g = row.game;
                let (white, black) = (
                    g.clocks.map(|c| ms(c.white_ms)),
                    g.clocks.map(|c| ms(c.black_ms)),
                );
                let hash = row.hash.as_ref().map(|h| &h[..]);
                w.write(&[
                    &id.0,
                    &row.key.as_str(),
                    &g.start_id.map(i32::from),
                    &g.start_fen,
                    &g.white,
                    &g.black,
                    &g.time_control,
                    &white,
                    &black,
                    &row.result.as_str(),
                    &row.reason,
                    &row.date,
                    &row.now,
                    &row.now,
                    &int(row.plies),
                    &hash,
                    &row.movetext,
                    &row.packed,
                ])?;
            }
            Ok(())
        })?;
        let tags: Vec<_> = ids
            .iter()
            .zip(rows)
            .map(|(&id, r)| (id, &r.game.tags[..]))
            .collect();
        self.copy_tags(&tags)?;
        let moves: Vec<_> = ids
            .iter()
            .zip(rows)
            .map(|(&id, r)| (id, 0, r.moves))
            .collect();
        self.copy_moves(&moves)?;
        Ok(ids)
    }

    /// By `COPY … BINARY` (no row can exist yet, so nothing to replace): several times
    /// faster than [`Tx::write_entries`] for the hundred thousand rows of an import batch.
    fn insert_index(&mut self, rows: &[IndexRow]) -> R<()> {
        if rows.is_empty() {
            return Ok(());
        }
        let types = [Type::INT8, Type::INT8, Type::INT4, Type::INT2];
        self.copy("positions (key, game_id, move, result)", &types, |w| {
            for &(key, id, mv, result) in rows {
                w.write(&[&key, &id, &mv.map(i32::from), &result.map(i16::from)])?;
            }
            Ok(())
        })
    }

    /// One row a game in `positions_pending` (`COPY … BINARY`): its keys and moves as
    /// arrays, merged into the index in key order when the import ends.
    fn defer_index(&mut self, games: &[Deferred<'_>]) -> R<()> {
        if games.is_empty() {
            return Ok(());
        }
        let types = [Type::INT8, Type::INT8_ARRAY, Type::INT4_ARRAY, Type::INT2];
        let into = "positions_pending (game_id, keys, moves, result)";
        self.copy(into, &types, |w| {
            for g in games {
                let entries = g.entries.unwrap_or_default();
                let keys: Vec<i64> = entries.iter().map(|e| e.key as i64).collect();
                let moves: Vec<Option<i32>> = entries.iter().map(|e| e.mv.map(i32::from)).collect();
                w.write(&[&g.id.0, &keys, &moves, &g.result.map(i16::from)])?;
            }
            Ok(())
        })
    }

    fn moves_of(&mut self, ids: &[i64]) -> R<Vec<(i64, MoveRecord)>> {
        let sql = "SELECT game_id, uci, san, white_ms, black_ms, played_ms FROM moves
                    WHERE game_id = ANY($1) ORDER BY game_id, ply";
        self.of_games(sql, ids)?.into_iter().map(move_row).collect()
    }

    fn tags_of(&mut self, ids: &[i64]) -> R<Vec<(i64, String, String)>> {
        let sql = "SELECT game_id, name, value FROM tags WHERE game_id = ANY($1)
                    ORDER BY game_id, ord";
        self.of_games(sql, ids)?.into_iter().map(tag_row).collect()
    }

    fn event_revision(&mut self, id: i64) -> R<Option<i64>> {
        let sql = "SELECT revision FROM events WHERE id = $1 FOR UPDATE";
        let row = self.one(sql, &[id.into()])?;
        row.map(|mut r| r.int(0)).transpose()
    }
}

impl Pg<'_, '_> {
    /// The rows of a query of the games `ids` (its `$1`), in one statement.
    fn of_games(&mut self, sql: &str, ids: &[i64]) -> R<Vec<Cells>> {
        if ids.is_empty() {
            return Ok(Vec::new());
        }
        let rows =
            (self.tx.query_typed(sql, &[(&ids, Type::INT8_ARRAY)])).map_err(|e| self.s.err(&e))?;
        rows.iter().map(|r| self.cells(r)).collect()
    }
}
