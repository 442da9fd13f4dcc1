//! The WebSocket events of a game, typed: every event names its `type` and carries the
//! `version` of the newest game state sent before it (`Live::version`), so that a client can
//! tell a stale view or line from a current one without guessing by the number of moves.
//! docs/api.md lists the events.

use crate::game::{color_name, GameView};
use crate::round::{pv_san, ScoreJson};
use chess960_core::{CastlingMode, Color, Position};
use chess960_engine::player::Thinking;
use chess960_store::Clocks;
use serde::Serialize;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use tokio::sync::broadcast;

/// One event, as sent (JSON, `{"type": ..., "version": ..., ...}`).
#[derive(Serialize, Debug)]
#[serde(tag = "type", rename_all = "lowercase")]
pub enum Event<'a> {
    /// The whole game: sent on connecting and after every change.
    State { version: u64, game: &'a GameView },
    /// Both clocks, every second while one runs.
    Clock {
        version: u64,
        white_ms: u64,
        black_ms: u64,
        running: Option<&'static str>,
    },
    /// The engine's line so far, from White's point of view.
    Thinking {
        version: u64,
        depth: u32,
        score: ScoreJson,
        pv: Vec<String>,
        pv_san: Vec<String>,
        nodes: u64,
    },
    /// The game was deleted: nothing more comes.
    Deleted { version: u64, key: &'a str },
    /// The game could not be read for this client (the first message only).
    Error { error: String },
}

impl Event<'_> {
    /// The event as the text of a WebSocket message.
    pub fn to_text(&self) -> Arc<str> {
        serde_json::to_string(self)
            .unwrap_or_else(|e| format!(r#"{{"type":"error","error":"{e}"}}"#))
            .into()
    }
}

/// A game's event channel: every client of the game subscribes to it.
#[derive(Clone)]
pub struct Events {
    tx: broadcast::Sender<Arc<str>>,
    /// The version of the newest state sent: the other events carry it.
    version: Arc<AtomicU64>,
    /// The other servers of the database, told of every event (`cluster/`), and the game's
    /// key.
    publish: Option<Arc<(Arc<crate::cluster::Node>, String)>>,
}

impl Events {
    /// A channel with room for `capacity` events per slow client (one that falls further
    /// behind gets the whole state instead).
    pub fn new(capacity: usize, version: u64) -> Events {
        let (tx, _) = broadcast::channel(capacity);
        Events {
            tx,
            version: Arc::new(AtomicU64::new(version)),
            publish: None,
        }
    }

    /// The same channel, whose events also go to the other servers through `node`, for the
    /// game `key`.
    pub fn published(mut self, node: Arc<crate::cluster::Node>, key: String) -> Events {
        self.publish = Some(Arc::new((node, key)));
        self
    }

    /// A new receiver of the events from now on.
    pub fn subscribe(&self) -> broadcast::Receiver<Arc<str>> {
        self.tx.subscribe()
    }

    fn send(&self, e: Event<'_>) {
        let text = e.to_text();
        if let Some(p) = &self.publish {
            p.0.publish(&p.1, &text);
        }
        // Nobody listening is fine.
        let _ = self.tx.send(text);
    }

    fn version(&self) -> u64 {
        self.version.load(Ordering::Acquire)
    }

    /// Sends a state.
    pub fn state(&self, game: &GameView) {
        self.version.fetch_max(game.version, Ordering::AcqRel);
        self.send(Event::State {
            version: game.version,
            game,
        });
    }

    /// Sends both clocks.
    pub fn clock(&self, c: Clocks, running: Option<Color>) {
        self.send(Event::Clock {
            version: self.version(),
            white_ms: c.white_ms,
            black_ms: c.black_ms,
            running: running.map(color_name),
        });
    }

    /// Sends the engine's line `t` searched from `root`.
    pub fn thinking(&self, root: &Position, t: &Thinking) {
        self.send(Event::Thinking {
            version: self.version(),
            depth: t.depth,
            score: ScoreJson::from(t.score.for_white(root.turn())),
            pv: t
                .pv
                .iter()
                .map(|m| m.to_uci(CastlingMode::Chess960))
                .collect(),
            pv_san: pv_san(root, &t.pv),
            nodes: t.nodes,
        });
    }

    /// Tells the clients the game was deleted.
    pub fn deleted(&self, key: &str) {
        self.send(Event::Deleted {
            version: self.version(),
            key,
        });
    }
}

/// The first message of a connection: the state, or why there is none.
pub fn first_message(view: Result<&GameView, String>) -> Arc<str> {
    match view {
        Ok(game) => Event::State {
            version: game.version,
            game,
        }
        .to_text(),
        Err(error) => Event::Error { error }.to_text(),
    }
}
