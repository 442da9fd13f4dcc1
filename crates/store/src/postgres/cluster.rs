//! [`Cluster`] for PostgreSQL: the `servers` and `leases` tables (schema version 3), and
//! `LISTEN`/`NOTIFY` on one channel for the notices.
//!
//! - A server's heartbeat sets `servers.alive_until` from the database's own clock, and a
//!   lease counts only while its server is alive, so no server's clock needs to agree with
//!   another's.
//! - Taking a lease is one `INSERT … ON CONFLICT DO UPDATE … WHERE`: PostgreSQL locks the
//!   conflicting row and checks the condition again, so of two servers asking at once one
//!   gets the lease and the other is told who holds it.
//! - Orphans (games whose holder died) are taken with `FOR UPDATE SKIP LOCKED`, so that two
//!   servers looking at once share them out instead of waiting for each other.

use super::PgStore;
use crate::cluster::{Cluster, Holder, Listener, Member, NOTICE_MAX};
use crate::{GameKey, StoreError};
use postgres::fallible_iterator::FallibleIterator;
use postgres::types::Type;
use postgres::Client;
use std::time::{Duration, Instant};

/// The channel of every notice.
const CHANNEL: &str = "chess960_games";

impl PgStore {
    fn keys_of(&self, rows: &[postgres::Row], i: usize) -> Result<Vec<GameKey>, StoreError> {
        rows.iter().map(|r| self.key_col(r, i)).collect()
    }
}

impl Cluster for PgStore {
    fn heartbeat(&self, me: &Member, ttl: Duration) -> Result<Vec<GameKey>, StoreError> {
        self.transaction(|tx, s| {
            tx.execute(
                "INSERT INTO servers (id, address, alive_until)
                 VALUES ($1, $2, now() + make_interval(secs => $3))
                 ON CONFLICT (id) DO UPDATE
                    SET address = EXCLUDED.address, alive_until = EXCLUDED.alive_until",
                &[&me.id, &me.address, &ttl.as_secs_f64()],
            )
            .map_err(|e| s.err(&e))?;
            let rows = tx
                .query(
                    "SELECT g.key FROM leases l JOIN games g ON g.id = l.game_id
                      WHERE l.server = $1",
                    &[&me.id],
                )
                .map_err(|e| s.err(&e))?;
            s.keys_of(&rows, 0)
        })
    }

    fn claim(&self, key: &GameKey, me: &Member) -> Result<Holder, StoreError> {
        self.transaction(|tx, s| {
            let mine = tx
                .query_typed_opt(
                    "INSERT INTO leases (game_id, server)
                     SELECT id, $2 FROM games WHERE key = $1
                     ON CONFLICT (game_id) DO UPDATE SET server = EXCLUDED.server
                      WHERE leases.server = EXCLUDED.server
                         OR NOT EXISTS (SELECT 1 FROM servers v
                                         WHERE v.id = leases.server AND v.alive_until > now())
                     RETURNING game_id",
                    &[(&key.as_str(), Type::TEXT), (&me.id, Type::TEXT)],
                )
                .map_err(|e| s.err(&e))?;
            if mine.is_some() {
                return Ok(Holder::Me);
            }
            let holder = tx
                .query_typed_opt(
                    "SELECT v.address FROM games g
                       JOIN leases l ON l.game_id = g.id
                       JOIN servers v ON v.id = l.server
                      WHERE g.key = $1",
                    &[(&key.as_str(), Type::TEXT)],
                )
                .map_err(|e| s.err(&e))?;
            Ok(match holder {
                Some(row) => Holder::Other {
                    address: s.col(&row, 0)?,
                },
                // No game row, so nothing was inserted and nothing conflicted.
                None => Holder::NoSuchGame,
            })
        })
    }

    fn take_orphans(&self, me: &Member, limit: u32) -> Result<Vec<GameKey>, StoreError> {
        self.transaction(|tx, s| {
            // Finished games need nobody: their leases just go.
            tx.execute(
                "DELETE FROM leases l USING games g
                  WHERE g.id = l.game_id AND g.result <> '*'
                    AND NOT EXISTS (SELECT 1 FROM servers v
                                     WHERE v.id = l.server AND v.alive_until > now())",
                &[],
            )
            .map_err(|e| s.err(&e))?;
            let rows = tx
                .query(
                    "WITH orphan AS (
                         SELECT l.game_id FROM leases l
                          WHERE NOT EXISTS (SELECT 1 FROM servers v
                                             WHERE v.id = l.server AND v.alive_until > now())
                          LIMIT $2 FOR UPDATE SKIP LOCKED)
                     UPDATE leases l SET server = $1 FROM orphan o, games g
                      WHERE l.game_id = o.game_id AND g.id = l.game_id
                     RETURNING g.key",
                    &[&me.id, &i64::from(limit)],
                )
                .map_err(|e| s.err(&e))?;
            s.keys_of(&rows, 0)
        })
    }

    fn leave(&self, me: &Member) -> Result<(), StoreError> {
        self.transaction(|tx, s| {
            tx.execute("DELETE FROM leases WHERE server = $1", &[&me.id])
                .map_err(|e| s.err(&e))?;
            // Servers gone for a day are forgotten with this one.
            tx.execute(
                "DELETE FROM servers
                  WHERE id = $1 OR alive_until < now() - interval '1 day'",
                &[&me.id],
            )
            .map_err(|e| s.err(&e))?;
            Ok(())
        })
    }

    fn shared_secret(&self) -> Result<String, StoreError> {
        self.transaction(|tx, s| {
            // gen_random_uuid() draws from the server's strong random source (PostgreSQL 13+).
            tx.execute(
                "INSERT INTO chess960_meta (name, value)
                 VALUES ('cluster_secret',
                         replace(gen_random_uuid()::text || gen_random_uuid()::text, '-', ''))
                 ON CONFLICT (name) DO NOTHING",
                &[],
            )
            .map_err(|e| s.err(&e))?;
            s.meta(tx, "cluster_secret")?
                .ok_or_else(|| StoreError::Corrupt {
                    detail: format!("{}: chess960_meta has no cluster secret", s.label),
                })
        })
    }

    fn publish(&self, notices: &[String]) -> Result<(), StoreError> {
        if let Some(long) = notices.iter().find(|n| n.len() > NOTICE_MAX) {
            return Err(StoreError::Backend(format!(
                "a notice of {} bytes is longer than {NOTICE_MAX}",
                long.len()
            )));
        }
        if notices.is_empty() {
            return Ok(());
        }
        // One round trip for the whole batch; NOTIFYs of one transaction arrive in order.
        self.transaction(|tx, s| {
            tx.execute_typed(
                "SELECT pg_notify($1, n) FROM unnest($2::text[]) WITH ORDINALITY AS t(n, i)
                  ORDER BY i",
                &[(&CHANNEL, Type::TEXT), (&notices, Type::TEXT_ARRAY)],
            )
            .map_err(|e| s.err(&e))?;
            Ok(())
        })
    }

    fn listen(&self) -> Result<Box<dyn Listener>, StoreError> {
        super::off_runtime(|| {
            let mut client = self.connect()?;
            client
                .batch_execute(&format!("LISTEN {CHANNEL}"))
                .map_err(|e| self.err(&e))?;
            Ok(Box::new(PgListener {
                client: Some(client),
                label: self.label.clone(),
                checked: Instant::now(),
            }) as Box<dyn Listener>)
        })
    }
}

/// A connection that listens on [`CHANNEL`].
struct PgListener {
    /// Always `Some` until dropped (dropping it must happen off any async runtime).
    client: Option<Client>,
    label: String,
    /// When the connection was last known to work.
    checked: Instant,
}

/// How long a silent connection goes before the listener checks that it still works (a
/// database host that vanished sends no error).
const CHECK_SILENCE: Duration = Duration::from_secs(5);

impl Listener for PgListener {
    fn next(&mut self, wait: Duration) -> Result<Option<String>, StoreError> {
        let label = &self.label;
        let broken = |e: postgres::Error| {
            StoreError::Backend(format!(
                "PostgreSQL database {label}: the notice connection broke: {}",
                super::detail(&e)
            ))
        };
        let Some(client) = self.client.as_mut() else {
            return Ok(None);
        };
        let checked = &mut self.checked;
        super::off_runtime(|| {
            let got = client
                .notifications()
                .timeout_iter(wait)
                .next()
                .map_err(broken)?;
            if let Some(n) = got {
                *checked = Instant::now();
                return Ok(Some(n.payload().to_owned()));
            }
            if client.is_closed() {
                return Err(StoreError::Backend(format!(
                    "PostgreSQL database {label}: the notice connection closed"
                )));
            }
            if checked.elapsed() >= CHECK_SILENCE {
                client.is_valid(Duration::from_secs(2)).map_err(broken)?;
                *checked = Instant::now();
            }
            Ok(None)
        })
    }
}

impl Drop for PgListener {
    fn drop(&mut self) {
        // The client's runtime cannot be dropped inside another one.
        let client = self.client.take();
        super::off_runtime(move || drop(client));
    }
}
