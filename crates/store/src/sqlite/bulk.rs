//! Rows of one table inserted many to a statement. An import writes a dozen tag rows and an
//! index-pending row for every game; one `INSERT` a row spends most of its time on the
//! statement itself (binding, stepping, resetting the virtual machine), not on the B-tree.

use rusqlite::types::{ToSqlOutput, Value};
use rusqlite::{Connection, Statement, ToSql};

/// Rows a statement: 32 rows of four columns bind 128 parameters, far below SQLite's limit
/// (32,766 since 3.32).
const ROWS: usize = 32;

/// One value of a row: an integer, or text borrowed from the games being imported.
#[derive(Clone, Copy, Debug)]
pub(super) enum Cell<'a> {
    Int(i64),
    Text(&'a str),
}

impl ToSql for Cell<'_> {
    fn to_sql(&self) -> rusqlite::Result<ToSqlOutput<'_>> {
        Ok(match *self {
            Cell::Int(i) => ToSqlOutput::Owned(Value::Integer(i)),
            Cell::Text(s) => ToSqlOutput::from(s),
        })
    }
}

/// Collects the rows of `INSERT INTO <table> (<columns>)` and writes them [`ROWS`] a
/// statement, the rest one by one at [`Bulk::finish`]. Rows written before `finish` are in
/// the transaction like any other; a row that fails (a key already there) fails its whole
/// statement, as the caller's transaction then does.
pub(super) struct Bulk<'c, 'a> {
    many: Statement<'c>,
    one: Statement<'c>,
    width: usize,
    cells: Vec<Cell<'a>>,
}

impl<'c, 'a> Bulk<'c, 'a> {
    /// An inserter into `table (columns)`, e.g. `"tags"` and `["game_id", "ord", "name",
    /// "value"]`; the names are the caller's constants, never input.
    pub(super) fn new(
        tx: &'c Connection,
        table: &str,
        columns: &[&str],
    ) -> rusqlite::Result<Bulk<'c, 'a>> {
        let width = columns.len();
        let row = format!("({})", vec!["?"; width].join(", "));
        let head = format!("INSERT INTO {table} ({})", columns.join(", "));
        Ok(Bulk {
            many: tx.prepare(&format!(
                "{head} VALUES {}",
                vec![row.as_str(); ROWS].join(", ")
            ))?,
            one: tx.prepare(&format!("{head} VALUES {row}"))?,
            width,
            cells: Vec::with_capacity(width * ROWS),
        })
    }

    /// Adds a row (its cells in the order of the columns); writes a full statement's rows.
    pub(super) fn row(&mut self, cells: &[Cell<'a>]) -> rusqlite::Result<()> {
        debug_assert_eq!(cells.len(), self.width);
        self.cells.extend_from_slice(cells);
        if self.cells.len() == self.width * ROWS {
            write(&mut self.many, &self.cells)?;
            self.cells.clear();
        }
        Ok(())
    }

    /// Writes the rows still collected, one statement each.
    pub(super) fn finish(mut self) -> rusqlite::Result<()> {
        for row in self.cells.chunks(self.width) {
            write(&mut self.one, row)?;
        }
        Ok(())
    }
}

fn write(st: &mut Statement<'_>, cells: &[Cell<'_>]) -> rusqlite::Result<()> {
    for (i, cell) in cells.iter().enumerate() {
        st.raw_bind_parameter(i + 1, cell)?;
    }
    st.raw_execute().map(|_| ())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every row arrives, in order, whether it went in a full statement or alone; and a
    /// failing row fails the insert.
    #[test]
    fn rows_arrive_in_full_statements_and_alone() {
        let c = Connection::open_in_memory().unwrap();
        c.execute_batch("CREATE TABLE t (a INTEGER PRIMARY KEY, b TEXT NOT NULL)")
            .unwrap();
        let texts: Vec<String> = (0..(2 * ROWS + 5)).map(|i| format!("row {i}")).collect();
        let mut bulk = Bulk::new(&c, "t", &["a", "b"]).unwrap();
        for (i, t) in texts.iter().enumerate() {
            bulk.row(&[Cell::Int(i as i64), Cell::Text(t)]).unwrap();
        }
        bulk.finish().unwrap();
        let got: Vec<(i64, String)> = c
            .prepare("SELECT a, b FROM t ORDER BY a")
            .unwrap()
            .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap();
        let want: Vec<(i64, String)> = texts
            .iter()
            .enumerate()
            .map(|(i, t)| (i as i64, t.clone()))
            .collect();
        assert_eq!(got, want);
        let mut again = Bulk::new(&c, "t", &["a", "b"]).unwrap();
        again.row(&[Cell::Int(3), Cell::Text("again")]).unwrap();
        assert!(again.finish().is_err(), "a key already there must fail");
    }
}
