//! [`EventStore`] for SQLite: the `events` table (migration 6).

use super::{db_err, SqliteStore};
use crate::events::{from_doc, to_doc, EventStore, EventSummary, StoredEvent};
use crate::util::{new_key, now_ms};
use crate::StoreError;
use chess960_events::event::Event;
use rusqlite::{params, OptionalExtension};

const COLUMNS: &str = "id, key, revision, arbiter, updated_ms, doc";

fn row(r: &rusqlite::Row<'_>) -> rusqlite::Result<(i64, String, i64, Option<String>, i64, String)> {
    Ok((
        r.get(0)?,
        r.get(1)?,
        r.get(2)?,
        r.get(3)?,
        r.get(4)?,
        r.get(5)?,
    ))
}

impl EventStore for SqliteStore {
    fn create_event(
        &self,
        event: &Event,
        arbiter_hash: Option<&str>,
    ) -> Result<StoredEvent, StoreError> {
        let doc = to_doc(event)?;
        let key = new_key()?.to_string();
        let now = now_ms();
        let id = self.write(|tx| {
            tx.execute(
                "INSERT INTO events (key, name, revision, arbiter, created_ms, updated_ms, doc)
                 VALUES (?1, ?2, 1, ?3, ?4, ?4, ?5)",
                params![
                    key,
                    crate::rules::storable(&event.name),
                    arbiter_hash,
                    now,
                    doc
                ],
            )
            .map_err(db_err)?;
            Ok(tx.last_insert_rowid())
        })?;
        Ok(StoredEvent {
            id,
            key,
            revision: 1,
            arbiter_hash: arbiter_hash.map(str::to_string),
            updated_ms: now,
            event: event.clone(),
        })
    }

    fn event(&self, id_or_key: &str) -> Result<StoredEvent, StoreError> {
        let w = id_or_key.trim();
        let found = self.read(|c| {
            if let Ok(id) = w.parse::<i64>() {
                c.query_row(
                    &format!("SELECT {COLUMNS} FROM events WHERE id = ?1"),
                    [id],
                    row,
                )
                .optional()
            } else {
                c.query_row(
                    &format!("SELECT {COLUMNS} FROM events WHERE key = ?1"),
                    [w],
                    row,
                )
                .optional()
            }
        })?;
        let (id, key, revision, arbiter_hash, updated_ms, doc) =
            found.ok_or_else(|| StoreError::NoSuchEvent(w.to_string()))?;
        Ok(StoredEvent {
            id,
            event: from_doc(&doc, &key)?,
            key,
            revision: revision as u64,
            arbiter_hash,
            updated_ms,
        })
    }

    fn events(&self) -> Result<Vec<EventSummary>, StoreError> {
        let rows = self.read(|c| {
            c.prepare(&format!(
                "SELECT {COLUMNS} FROM events ORDER BY updated_ms DESC, id DESC"
            ))?
            .query_map([], row)?
            .collect::<rusqlite::Result<Vec<_>>>()
        })?;
        rows.into_iter()
            .map(|(id, key, _, _, updated, doc)| {
                Ok(EventSummary::of(id, &key, updated, &from_doc(&doc, &key)?))
            })
            .collect()
    }

    fn save_event(&self, id: i64, revision: u64, event: &Event) -> Result<u64, StoreError> {
        let doc = to_doc(event)?;
        self.write(|tx| {
            let current: Option<i64> = tx
                .query_row("SELECT revision FROM events WHERE id = ?1", [id], |r| r.get(0))
                .optional()
                .map_err(db_err)?;
            let current = current.ok_or_else(|| StoreError::NoSuchEvent(id.to_string()))? as u64;
            if current != revision {
                return Err(StoreError::Conflict(format!(
                    "the event was changed meanwhile (revision {current}, this change was made on {revision}): load it again"
                )));
            }
            tx.execute(
                "UPDATE events SET name = ?2, revision = ?3, updated_ms = ?4, doc = ?5 WHERE id = ?1",
                params![id, crate::rules::storable(&event.name), (revision + 1) as i64, now_ms(), doc],
            )
            .map_err(db_err)?;
            Ok(revision + 1)
        })
    }

    fn delete_event(&self, id: i64) -> Result<(), StoreError> {
        self.write(|tx| {
            let n = tx
                .execute("DELETE FROM events WHERE id = ?1", [id])
                .map_err(db_err)?;
            if n == 0 {
                return Err(StoreError::NoSuchEvent(id.to_string()));
            }
            Ok(())
        })
    }
}
