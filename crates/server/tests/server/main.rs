//! The server's tests through its HTTP and WebSocket API, in one test binary: one binary
//! links the server once instead of once per file, which saves CI minutes. Tests that need the
//! process, the machine or the database server to themselves stay in binaries of their own:
//! `load.rs` (latency while searches queue), `memory.rs` (what stays loaded), `cluster.rs`
//! (two servers on one database) and `pg_restart.rs` (stops and starts PostgreSQL).

#[path = "../common/mod.rs"]
mod common;

mod accounts;
mod analysis;
mod api;
mod chat;
mod cut_off;
mod events;
mod explorer;
mod flow;
mod full_strength;
mod games;
mod guard;
mod knockout;
mod nesting;
mod outside;
mod people;
mod protocol;
mod rated;
mod seats;
mod versions;
