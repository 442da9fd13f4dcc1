//! [`EventStore`] for PostgreSQL: the `events` table, one JSON document per event with the
//! revision that each save checks (the same contract as SQLite's, `crate::events`).

use super::PgStore;
use crate::events::{from_doc, to_doc, EventStore, EventSummary, StoredEvent};
use crate::util::{new_key, now_ms};
use crate::StoreError;
use chess960_events::event::Event;
use postgres::Row;

const COLUMNS: &str = "id, key, revision, arbiter, updated_ms, doc";

impl PgStore {
    fn event_row(&self, r: &Row) -> Result<StoredEvent, StoreError> {
        let key: String = self.col(r, 1)?;
        let doc: String = self.col(r, 5)?;
        Ok(StoredEvent {
            id: self.col(r, 0)?,
            event: from_doc(&doc, &key)?,
            key,
            revision: self.col::<i64>(r, 2)? as u64,
            arbiter_hash: self.col(r, 3)?,
            updated_ms: self.col(r, 4)?,
        })
    }
}

impl EventStore for PgStore {
    fn create_event(
        &self,
        event: &Event,
        arbiter_hash: Option<&str>,
    ) -> Result<StoredEvent, StoreError> {
        let doc = to_doc(event)?;
        let key = new_key()?.to_string();
        let now = now_ms();
        let id = self.write(|tx, s| {
            tx.query_one(
                "INSERT INTO events (key, name, revision, arbiter, created_ms, updated_ms, doc)
                 VALUES ($1, $2, 1, $3, $4, $4, $5) RETURNING id",
                &[
                    &key,
                    &crate::rules::storable(&event.name),
                    &arbiter_hash,
                    &now,
                    &doc,
                ],
            )
            .and_then(|r| r.try_get::<_, i64>(0))
            .map_err(|e| s.err(&e))
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
        let row = self.read(|tx, s| {
            match w.parse::<i64>() {
                Ok(id) => tx.query_opt(
                    &format!("SELECT {COLUMNS} FROM events WHERE id = $1"),
                    &[&id],
                ),
                Err(_) => tx.query_opt(
                    &format!("SELECT {COLUMNS} FROM events WHERE key = $1"),
                    &[&w],
                ),
            }
            .map_err(|e| s.err(&e))
        })?;
        let row = row.ok_or_else(|| StoreError::NoSuchEvent(w.to_string()))?;
        self.event_row(&row)
    }

    fn events(&self) -> Result<Vec<EventSummary>, StoreError> {
        let rows = self.read(|tx, s| {
            tx.query(
                &format!("SELECT {COLUMNS} FROM events ORDER BY updated_ms DESC, id DESC"),
                &[],
            )
            .map_err(|e| s.err(&e))
        })?;
        rows.iter()
            .map(|r| {
                let e = self.event_row(r)?;
                Ok(EventSummary::of(e.id, &e.key, e.updated_ms, &e.event))
            })
            .collect()
    }

    fn save_event(&self, id: i64, revision: u64, event: &Event) -> Result<u64, StoreError> {
        let doc = to_doc(event)?;
        self.write(|tx, s| {
            let current: i64 = tx
                .query_opt("SELECT revision FROM events WHERE id = $1 FOR UPDATE", &[&id])
                .map_err(|e| s.err(&e))?
                .map(|r| s.col(&r, 0))
                .transpose()?
                .ok_or_else(|| StoreError::NoSuchEvent(id.to_string()))?;
            let current = current as u64;
            if current != revision {
                return Err(StoreError::Conflict(format!(
                    "the event was changed meanwhile (revision {current}, this change was made on {revision}): load it again"
                )));
            }
            tx.execute(
                "UPDATE events SET name = $2, revision = $3, updated_ms = $4, doc = $5
                  WHERE id = $1",
                &[&id, &crate::rules::storable(&event.name), &((revision + 1) as i64), &now_ms(), &doc],
            )
            .map_err(|e| s.err(&e))?;
            Ok(revision + 1)
        })
    }

    fn delete_event(&self, id: i64) -> Result<(), StoreError> {
        self.write(|tx, s| {
            let n = tx
                .execute("DELETE FROM events WHERE id = $1", &[&id])
                .map_err(|e| s.err(&e))?;
            if n == 0 {
                return Err(StoreError::NoSuchEvent(id.to_string()));
            }
            Ok(())
        })
    }
}
