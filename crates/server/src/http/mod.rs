//! The HTTP plumbing in front of the API: who may ask (`guard.rs`: host names, the access
//! token, forwarding between servers), request bodies read within bounds (`body.rs`), rate
//! limits and places per client (`rate.rs`), the WebSocket limits (`ws_limits.rs`) and the one
//! loop of every WebSocket (`socket.rs`), and the connections themselves with their timeouts
//! and caps (`listener.rs`).

pub(crate) mod body;
pub mod guard;
pub(crate) mod listener;
pub(crate) mod rate;
pub(crate) mod socket;
pub(crate) mod ws_limits;
