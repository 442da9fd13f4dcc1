//! The statements of a SQLite transaction ([`Tx`]): the two primitives the shared SQL runs
//! on (`$n` placeholders are named parameters to SQLite, bound by their number), and the
//! statements whose SQL is SQLite's own.

use super::bulk::{Bulk, Cell as BulkCell};
use super::{db_err, settle_pending};
use crate::backend::{Deferred, NewRow, R};
use crate::filter::Dialect;
use crate::rules::GameState;
use crate::sql::{game_state, Arg, Cell, Cells, Tx};
use crate::{GameId, StoreError};
use rusqlite::types::{ToSqlOutput, ValueRef};
use rusqlite::{CachedStatement, Connection, ToSql};

/// The writer's page cache during a bulk import: 256 MiB (the usual one is 32 MiB).
const BULK_CACHE: &str = "PRAGMA cache_size = -262144";

/// SQLite's way of writing a filter (see [`crate::filter`]).
static DIALECT: Dialect = Dialect {
    placeholder: |n| format!("${n}"),
    equal_folded: |column, p| format!("{column} = {p} COLLATE NOCASE"),
    fold_arg: |name| name.to_owned(),
    null_safe_equal: |a, b| format!("{a} IS {b}"),
    table: "g.",
};

/// A transaction's statements, on its connection. Each is prepared once per connection
/// (kept in its statement cache).
pub(super) struct Sql<'c>(pub(super) &'c Connection);

impl ToSql for Arg<'_> {
    fn to_sql(&self) -> rusqlite::Result<ToSqlOutput<'_>> {
        match self {
            Arg::Big(v) => v.to_sql(),
            Arg::Int(v) => v.to_sql(),
            Arg::Small(v) => v.to_sql(),
            Arg::Text(v) => v.to_sql(),
            Arg::Bytes(v) => v.to_sql(),
        }
    }
}

fn cell(v: ValueRef<'_>) -> Cell {
    match v {
        ValueRef::Null => Cell::Null,
        ValueRef::Integer(i) => Cell::Int(i),
        // No column holds a real: what reads it finds it is not what the schema says.
        ValueRef::Real(f) => Cell::Text(f.to_string()),
        ValueRef::Text(t) => {
            String::from_utf8(t.to_vec()).map_or_else(|e| Cell::Bytes(e.into_bytes()), Cell::Text)
        }
        ValueRef::Blob(b) => Cell::Bytes(b.to_vec()),
    }
}

impl Sql<'_> {
    /// The statement of `sql` with `args` bound to its placeholders, `$1` to the first.
    fn bound(&self, sql: &str, args: &[Arg<'_>]) -> R<CachedStatement<'_>> {
        let mut st = self.0.prepare_cached(sql).map_err(db_err)?;
        for at in 1..=st.parameter_count() {
            let n =
                (st.parameter_name(at)).and_then(|p| p.strip_prefix('$')?.parse::<usize>().ok());
            let arg = n.and_then(|n| args.get(n.checked_sub(1)?)).ok_or_else(|| {
                StoreError::Backend(format!("no value for parameter {at} of: {sql}"))
            })?;
            st.raw_bind_parameter(at, arg).map_err(db_err)?;
        }
        Ok(st)
    }
}

impl Tx for Sql<'_> {
    fn exec(&mut self, sql: &str, args: &[Arg<'_>]) -> R<u64> {
        let mut st = self.bound(sql, args)?;
        st.raw_execute().map(|n| n as u64).map_err(db_err)
    }

    fn query(&mut self, sql: &str, args: &[Arg<'_>]) -> R<Vec<Cells>> {
        let mut st = self.bound(sql, args)?;
        let width = st.column_count();
        let mut rows = st.raw_query();
        let mut out = Vec::new();
        while let Some(r) = rows.next().map_err(db_err)? {
            let cells = (0..width).map(|i| r.get_ref(i).map(cell));
            out.push(Cells(
                cells.collect::<rusqlite::Result<_>>().map_err(db_err)?,
            ));
        }
        Ok(out)
    }

    fn dialect(&self) -> &'static Dialect {
        &DIALECT
    }

    fn lock_state(&mut self, id: GameId) -> R<GameState> {
        // SQLite has one writer: the transaction holds the database's write lock already.
        settle_pending(self.0, id).map_err(db_err)?;
        let sql = "SELECT plies, result, reason FROM games WHERE id = $1";
        game_state(id, self.one(sql, &[id.into()])?)
    }

    fn begin_import(&mut self, bulk: bool) -> R<()> {
        if bulk {
            // A bulk import's random-key indexes (duplicate hashes, player names) outgrow the
            // usual page cache at a few hundred thousand games; past that every batch reads
            // and writes their pages through the operating system. The larger cache (filled
            // only as pages are read, kept by the writer connection) made the lichess-format
            // million 1.11 times faster (docs/performance.md).
            self.0.execute_batch(BULK_CACHE).map_err(db_err)?;
        }
        Ok(())
    }

    fn insert_imported(&mut self, rows: &[NewRow<'_>]) -> R<Vec<GameId>> {
        // Tag rows, a dozen a game in lichess's files, go in many a statement.
        let columns = ["game_id", "ord", "name", "value"];
        let mut tags = Bulk::new(self.0, "tags", &columns).map_err(db_err)?;
        let mut ids = Vec::with_capacity(rows.len());
        for row in rows {
            let id = self.insert_row(row)?;
            for (ord, (name, value)) in (0..).zip(&row.game.tags) {
                let text = BulkCell::Text;
                let cells = [
                    BulkCell::Int(id.0),
                    BulkCell::Int(ord),
                    text(name),
                    text(value),
                ];
                tags.row(&cells).map_err(db_err)?;
            }
            self.insert_moves(id, 0, row.moves)?;
            ids.push(id);
        }
        tags.finish().map_err(db_err)?;
        Ok(ids)
    }

    fn defer_index(&mut self, games: &[Deferred<'_>]) -> R<()> {
        // The games wait in `positions_pending`, many a statement; their rows are replayed
        // (or taken from the import's staged entries) when they are written.
        let mut pending = Bulk::new(self.0, "positions_pending", &["game_id"]).map_err(db_err)?;
        for g in games {
            pending.row(&[BulkCell::Int(g.id.0)]).map_err(db_err)?;
        }
        pending.finish().map_err(db_err)
    }
}
