//! The WebSocket events of a game, typed: every event names its `type` and carries the
//! `version` of the newest game state sent before it (`Live::version`), so that a client can
//! tell a stale view or line from a current one without guessing by the number of moves.
//! docs/api.md lists the events.
//!
//! Two protocols share the channel. Protocol 1 (the default) sends the whole view after every
//! change. Protocol 2 (`?protocol=2`) sends a move as a `move` event (the move, and the
//! [`NowView`] after it) and a player's premove only to that player, as lila routes its
//! events per audience; the whole view comes on connecting, on the client's request and after
//! the rarer changes (a takeback, a join, a placement). Each event on the channel says which
//! protocol and which audience it is for ([`Outgoing`]); a socket passes on what is for it.

use crate::game::{ColorJson, GameView, Live, MoveView, NowView};
use crate::round::{pv_san, ScoreJson};
use chess960_core::{CastlingMode, Color, Position};
use chess960_engine::player::Thinking;
use chess960_store::Clocks;
use serde::Serialize;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;
use tokio::sync::broadcast;

/// One event, as sent (JSON, `{"type": ..., "version": ..., ...}`).
#[derive(Serialize, Debug)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(tag = "type", rename_all = "lowercase")]
pub enum Event<'a> {
    /// The whole game: sent on connecting, and after every change in protocol 1 (after every
    /// change but a move and a premove in protocol 2).
    State { version: u64, game: &'a GameView },
    /// Protocol 2: a move was played; `ply` is the number of half-moves after it, `move` the
    /// move as the view's `moves` lists it, `now` what changed with it.
    Move {
        version: u64,
        ply: usize,
        #[serde(rename = "move")]
        mv: &'a MoveView,
        now: &'a NowView,
    },
    /// Protocol 2, to its player's sockets only: the player's premove now (`null`: none).
    Premove {
        version: u64,
        premove: Option<&'a str>,
    },
    /// Both clocks, every second while one runs.
    Clock {
        version: u64,
        white_ms: u64,
        black_ms: u64,
        running: Option<ColorJson>,
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
    /// Protocol 2: a line of chat (`chat.rs`); the players' room goes to the players' sockets
    /// only, the spectators' room to everyone.
    Chat {
        version: u64,
        room: super::chat::Room,
        from: &'a str,
        guest: bool,
        text: &'a str,
        at_ms: i64,
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

/// The protocol of a game's WebSocket (docs/api.md).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Protocol {
    /// The whole view after every change.
    #[default]
    V1,
    /// Moves as `move` events, premoves to their player only.
    V2,
}

/// Who an event on the channel is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Audience {
    /// Every client of the game.
    All,
    /// The sockets of the player of this colour only.
    Player(Color),
    /// Every client but the player of this colour (spectators included).
    Others(Color),
}

/// An event on a game's channel: its text, the protocol it is for (`None`: both) and its
/// audience.
#[derive(Debug)]
pub struct Outgoing {
    pub text: Arc<str>,
    pub only: Option<Protocol>,
    pub to: Audience,
}

impl Outgoing {
    /// True if a socket of `protocol` whose client plays `seat` (if any) is to get it.
    pub fn for_socket(&self, protocol: Protocol, seat: Option<Color>) -> bool {
        self.only.is_none_or(|p| p == protocol)
            && match self.to {
                Audience::All => true,
                Audience::Player(c) => seat == Some(c),
                Audience::Others(c) => seat != Some(c),
            }
    }

    /// The tag that carries `only` and `to` between servers (`cluster/`): `a` for both
    /// protocols and everyone, `1` and `2` for one protocol, `2w`/`2b` for one player's
    /// protocol 2 sockets, `2ow`/`2ob` for all the others.
    pub fn tag(&self) -> &'static str {
        match (self.only, self.to) {
            (None, _) => "a",
            (Some(Protocol::V1), _) => "1",
            (Some(Protocol::V2), Audience::All) => "2",
            (Some(Protocol::V2), Audience::Player(Color::White)) => "2w",
            (Some(Protocol::V2), Audience::Player(Color::Black)) => "2b",
            (Some(Protocol::V2), Audience::Others(Color::White)) => "2ow",
            (Some(Protocol::V2), Audience::Others(Color::Black)) => "2ob",
        }
    }

    /// The event of a tag and a text from another server; `None` for an unknown tag.
    pub fn from_tag(tag: &str, text: &str) -> Option<Outgoing> {
        let (only, to) = match tag {
            "a" => (None, Audience::All),
            "1" => (Some(Protocol::V1), Audience::All),
            "2" => (Some(Protocol::V2), Audience::All),
            "2w" => (Some(Protocol::V2), Audience::Player(Color::White)),
            "2b" => (Some(Protocol::V2), Audience::Player(Color::Black)),
            "2ow" => (Some(Protocol::V2), Audience::Others(Color::White)),
            "2ob" => (Some(Protocol::V2), Audience::Others(Color::Black)),
            _ => return None,
        };
        Some(Outgoing {
            text: Arc::from(text),
            only,
            to,
        })
    }
}

/// Where a game's events go besides its own sockets: the other servers of a database several
/// share (`cluster::Node` is one). The round knows only this, not the cluster.
pub trait Publisher: Send + Sync {
    /// Sends the event `event` of the game `key` on.
    fn publish(&self, key: &str, event: &Outgoing);
}

/// A receiver of a game's events, counted while it is one of protocol 1 (so that the whole
/// view is built for a move only while someone reads it).
pub struct Subscription {
    pub rx: broadcast::Receiver<Arc<Outgoing>>,
    _v1: Option<V1Count>,
}

struct V1Count(Arc<AtomicUsize>);

impl Drop for V1Count {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::AcqRel);
    }
}

/// A game's event channel: every client of the game subscribes to it.
#[derive(Clone)]
pub struct Broadcast {
    tx: broadcast::Sender<Arc<Outgoing>>,
    /// The version of the newest state sent: the other events carry it.
    version: Arc<AtomicU64>,
    /// Subscribers of protocol 1 here.
    v1: Arc<AtomicUsize>,
    /// The premove each player's protocol 2 sockets were last told of.
    told_premove: Arc<Mutex<[Option<String>; 2]>>,
    /// Where every event goes besides this server's sockets (the other servers of the
    /// database, `cluster/`), and the game's key.
    publish: Option<Arc<(Arc<dyn Publisher>, String)>>,
}

impl Broadcast {
    /// A channel with room for `capacity` events per slow client (one that falls further
    /// behind gets the whole state instead).
    pub fn new(capacity: usize, version: u64) -> Broadcast {
        let (tx, _) = broadcast::channel(capacity);
        Broadcast {
            tx,
            version: Arc::new(AtomicU64::new(version)),
            v1: Arc::new(AtomicUsize::new(0)),
            told_premove: Arc::default(),
            publish: None,
        }
    }

    /// The same channel, whose events also go to `publisher`, for the game `key`.
    pub fn published(mut self, publisher: Arc<dyn Publisher>, key: String) -> Broadcast {
        self.publish = Some(Arc::new((publisher, key)));
        self
    }

    /// A new receiver of the events from now on, for a socket of `protocol`.
    pub fn subscribe(&self, protocol: Protocol) -> Subscription {
        let rx = self.tx.subscribe();
        let v1 = (protocol == Protocol::V1).then(|| {
            self.v1.fetch_add(1, Ordering::AcqRel);
            V1Count(Arc::clone(&self.v1))
        });
        Subscription { rx, _v1: v1 }
    }

    fn send(&self, e: Event<'_>, only: Option<Protocol>, to: Audience) {
        self.send_event(&e, only, to);
    }

    /// Sends `e` to the sockets of `only` (`None`: both protocols) and `to`.
    pub(crate) fn send_event(&self, e: &Event<'_>, only: Option<Protocol>, to: Audience) {
        let out = Outgoing {
            text: e.to_text(),
            only,
            to,
        };
        if let Some(p) = &self.publish {
            p.0.publish(&p.1, &out);
        }
        // Nobody listening is fine.
        let _ = self.tx.send(Arc::new(out));
    }

    fn version(&self) -> u64 {
        self.version.load(Ordering::Acquire)
    }

    /// The version of the newest state sent (the one events other than a state carry).
    pub(crate) fn current_version(&self) -> u64 {
        self.version()
    }

    /// True if someone may read protocol 1's whole view: a subscriber here, or one of
    /// another server's.
    fn v1_read(&self) -> bool {
        self.publish.is_some() || self.v1.load(Ordering::Acquire) > 0
    }

    /// Sends the state after a change that is not a move.
    pub fn state(&self, g: &Live, now: Instant) {
        let game = g.view(now);
        self.version.fetch_max(game.version, Ordering::AcqRel);
        self.send(
            Event::State {
                version: game.version,
                game: &game,
            },
            None,
            Audience::All,
        );
        self.premove_of(g);
    }

    /// Sends the move just played in `g` (and the end of the game, if it ended with it):
    /// the whole state to protocol 1, the `move` event to protocol 2.
    pub fn moved(&self, g: &Live, now: Instant) {
        self.state_for_v1(g, now);
        let Some(mv) = g.last_move_view() else {
            return;
        };
        // A premove taken by the move (played, or dropped) is told first.
        self.premove_of(g);
        let mut after = g.now_view(now);
        let to_move = g.turn();
        let send = |after: &NowView, to: Audience| {
            let event = Event::Move {
                version: g.version,
                ply: g.round.records().len(),
                mv: &mv,
                now: after,
            };
            self.send(event, Some(Protocol::V2), to);
        };
        // The legal moves go only to the player who is to make one (both players sit at one
        // device in a hotseat game): the others have no use for them.
        if !after.legal.is_empty() && !g.sides.hotseat() {
            send(&after, Audience::Player(to_move));
            after.legal = Vec::new();
            send(&after, Audience::Others(to_move));
        } else {
            send(&after, Audience::All);
        }
    }

    /// Sends protocol 1's whole state after a change protocol 2 tells in its own way, if
    /// anyone may read it.
    fn state_for_v1(&self, g: &Live, now: Instant) {
        self.version.fetch_max(g.version, Ordering::AcqRel);
        if self.v1_read() {
            let game = g.view(now);
            let state = Event::State {
                version: game.version,
                game: &game,
            };
            self.send(state, Some(Protocol::V1), Audience::All);
        }
    }

    /// Sends the state after a change of a premove and nothing else: protocol 1 gets the
    /// whole view (as after any change), protocol 2 only the player's premove.
    pub fn premove_changed(&self, g: &Live, now: Instant) {
        self.state_for_v1(g, now);
        self.premove_of(g);
    }

    /// Tells each player's protocol 2 sockets of their premove, if it is not what they were
    /// last told.
    fn premove_of(&self, g: &Live) {
        let mut told = self.told_premove.lock().unwrap_or_else(|e| e.into_inner());
        for color in Color::ALL {
            let now = g
                .round
                .premove()
                .filter(|p| p.color == color)
                .map(|p| p.text.as_str());
            let slot = &mut told[color.index()];
            if slot.as_deref() != now {
                *slot = now.map(str::to_owned);
                let event = Event::Premove {
                    version: g.version,
                    premove: now,
                };
                self.send(event, Some(Protocol::V2), Audience::Player(color));
            }
        }
    }

    /// Sends both clocks.
    pub fn clock(&self, c: Clocks, running: Option<Color>) {
        let event = Event::Clock {
            version: self.version(),
            white_ms: c.white_ms,
            black_ms: c.black_ms,
            running: running.map(ColorJson::from),
        };
        self.send(event, None, Audience::All);
    }

    /// Sends the engine's line `t` searched from `root`.
    pub fn thinking(&self, root: &Position, t: &Thinking) {
        let event = Event::Thinking {
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
        };
        self.send(event, None, Audience::All);
    }

    /// Tells the clients the game was deleted.
    pub fn deleted(&self, key: &str) {
        let event = Event::Deleted {
            version: self.version(),
            key,
        };
        self.send(event, None, Audience::All);
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
