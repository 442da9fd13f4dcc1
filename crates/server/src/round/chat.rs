//! Chat in games between two people, as lichess has it: the players' room (the two players
//! write, only they read) and the spectators' room (anyone watching writes under a name,
//! everyone reads, the players too). Never in a game against the engine or at one device.
//!
//! The input comes from the network and is treated as hostile: text only (no control or
//! direction-override characters), at most [`MAX_CHARS`] characters after trimming, at most
//! [`BURST`] lines per writer (a seat, or a spectator's address) per [`WINDOW`], and at most
//! [`KEPT`] lines per room. Chat lives in memory with the game ([`GameHandle`]): it is not
//! stored, and it is gone when the game leaves memory or the server restarts. Each line goes
//! out on the game's WebSocket (protocol 2) as a `chat` event; `GET …/chat` gives the lines
//! kept, for a page that reloads.

use super::broadcast::{Audience, Event, Protocol};
use super::{Actor, GameHandle};
use crate::error::ApiError;
use crate::game::error::GameError;
use chess960_core::Color;
use serde::{Deserialize, Serialize};
use std::collections::{HashMap, VecDeque};
use std::net::IpAddr;
use std::time::{Duration, Instant};

/// The most characters of a line (after trimming).
pub const MAX_CHARS: usize = 140;
/// The lines kept per room (the oldest go first).
pub const KEPT: usize = 100;
/// The lines one writer may send per [`WINDOW`].
pub const BURST: usize = 5;
/// The window of [`BURST`].
pub const WINDOW: Duration = Duration::from_secs(10);
/// The most characters of a guest's name in the spectators' room.
pub const MAX_NAME_CHARS: usize = 20;
/// The writers whose recent lines are counted at once (a spectator's address each; the
/// oldest are forgotten once their window has passed, and beyond this a new writer waits).
const MAX_WRITERS: usize = 256;

/// A room of a game's chat.
#[derive(Serialize, Deserialize, Clone, Copy, Debug, Default, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
#[cfg_attr(test, derive(ts_rs::TS))]
pub enum Room {
    /// The two players.
    #[default]
    Players,
    /// Anyone watching.
    Spectators,
}

/// One line of chat, as sent and kept.
#[derive(Serialize, Clone, Debug, PartialEq, Eq)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct ChatLine {
    pub room: Room,
    /// In the players' room the colour (`white`, `black`); in the spectators' room the
    /// writer's account name, or the name a guest gave.
    pub from: String,
    /// True for a guest's name (anyone may give any name).
    pub guest: bool,
    pub text: String,
    /// When the server got it, in milliseconds since the Unix epoch.
    pub at_ms: i64,
}

/// `GET /api/games/{key}/chat`: the lines kept, oldest first. `players` only for a player
/// (`null` for anyone else).
#[derive(Serialize, Debug)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct ChatLog {
    pub players: Option<Vec<ChatLine>>,
    pub spectators: Vec<ChatLine>,
}

/// `POST /api/games/{key}/chat` body.
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct ChatRequest {
    #[serde(default)]
    pub room: Room,
    pub text: String,
    /// A guest's name in the spectators' room (an account writes under its own name).
    #[serde(default)]
    pub name: Option<String>,
}

/// Who wrote: a seat, or a spectator's address (IPv6: its /64).
#[derive(Clone, Copy, Debug, Hash, PartialEq, Eq)]
enum Writer {
    Seat(Color),
    Client(IpAddr),
}

/// A game's chat: both rooms and the writers' recent lines.
#[derive(Default)]
pub struct Chat {
    players: VecDeque<ChatLine>,
    spectators: VecDeque<ChatLine>,
    sent: HashMap<Writer, VecDeque<Instant>>,
}

/// Why a line is refused.
#[derive(Debug)]
pub enum ChatError {
    /// A game against the engine or at one device.
    NoChat,
    /// The players' room, by someone without a seat.
    NotAPlayer,
    /// The spectators' room, by a player.
    PlayersRoom,
    /// What the text (or the name) is not.
    BadText(String),
    /// Too many lines too fast (how long to wait).
    TooFast(Duration),
    /// Too many people write at once.
    Crowded,
    /// The game refused (unknown, deleted, run elsewhere).
    Game(GameError),
}

impl From<GameError> for ChatError {
    fn from(e: GameError) -> ChatError {
        ChatError::Game(e)
    }
}

impl From<ChatError> for ApiError {
    fn from(e: ChatError) -> ApiError {
        match e {
            ChatError::NoChat => ApiError::conflict(
                "no chat in this game: chat is for games between two people (not against the \
                 engine, not at one device)",
            )
            .with_code("no_chat"),
            ChatError::NotAPlayer => ApiError::new(
                axum::http::StatusCode::FORBIDDEN,
                "only the players write in the players' room: a spectator writes in the \
                 spectators' room (\"room\": \"spectators\")",
            ),
            ChatError::PlayersRoom => ApiError::new(
                axum::http::StatusCode::FORBIDDEN,
                "a player writes in the players' room, not the spectators'",
            ),
            ChatError::BadText(why) => ApiError::bad_request(why),
            ChatError::TooFast(wait) => ApiError::too_many_requests(format!(
                "too many chat lines: at most {BURST} every {} seconds; wait {:.1} s",
                WINDOW.as_secs(),
                wait.as_secs_f64().max(0.1)
            )),
            ChatError::Crowded => {
                ApiError::too_many_requests("too many people are writing in this game's chat")
            }
            ChatError::Game(e) => e.into(),
        }
    }
}

/// True for a character a chat line may not hold: control characters (newlines and tabs
/// included) and the ones that reorder or hide text.
fn forbidden(c: char) -> bool {
    c.is_control()
        || matches!(c, '\u{200b}'..='\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' | '\u{feff}')
}

/// `text` trimmed, if it may be a line of at most `max` characters (`what`: its name in the
/// refusal).
pub fn clean(text: &str, max: usize, what: &str) -> Result<String, ChatError> {
    let t = text.trim();
    if t.is_empty() {
        return Err(ChatError::BadText(format!("{what}: empty")));
    }
    let n = t.chars().count();
    if n > max {
        return Err(ChatError::BadText(format!(
            "{what}: {n} characters, at most {max}"
        )));
    }
    if t.chars().any(forbidden) {
        return Err(ChatError::BadText(format!(
            "{what}: control characters (newlines, tabs, direction marks) are not allowed"
        )));
    }
    Ok(t.to_string())
}

impl Chat {
    /// Counts a line of `who` at `now`, or says how long to wait.
    fn take(&mut self, who: Writer, now: Instant) -> Result<(), ChatError> {
        if !self.sent.contains_key(&who) && self.sent.len() >= MAX_WRITERS {
            self.sent
                .retain(|_, t| t.back().is_some_and(|&at| now.duration_since(at) < WINDOW));
            if self.sent.len() >= MAX_WRITERS {
                return Err(ChatError::Crowded);
            }
        }
        let times = self.sent.entry(who).or_default();
        while times
            .front()
            .is_some_and(|&at| now.duration_since(at) >= WINDOW)
        {
            times.pop_front();
        }
        if times.len() >= BURST {
            let wait = WINDOW.saturating_sub(now.duration_since(times[0]));
            return Err(ChatError::TooFast(wait));
        }
        times.push_back(now);
        Ok(())
    }

    fn keep(&mut self, line: ChatLine) {
        let room = match line.room {
            Room::Players => &mut self.players,
            Room::Spectators => &mut self.spectators,
        };
        if room.len() >= KEPT {
            room.pop_front();
        }
        room.push_back(line);
    }
}

impl GameHandle {
    /// True if the game has a chat (two people, each at their own device), or why not.
    fn chat_allowed(g: &crate::game::Live) -> Result<(), ChatError> {
        if g.deleted {
            return Err(GameError::NoSuchGame {
                key: g.key.to_string(),
            }
            .into());
        }
        if g.sides.level().is_some() || g.sides.hotseat() || !g.sides.has_seat() {
            return Err(ChatError::NoChat);
        }
        Ok(())
    }

    /// `GET /chat`: the lines kept, the players' room for a player only.
    pub async fn chat_log(&self, who: &Actor<'_>) -> Result<ChatLog, ChatError> {
        let seat = {
            let g = self.lock().await;
            Self::chat_allowed(&g)?;
            g.sides.seat_of(who.seat, who.user, g.id.0).ok()
        };
        let chat = self.chat.lock().unwrap_or_else(|e| e.into_inner());
        Ok(ChatLog {
            players: seat.map(|_| chat.players.iter().cloned().collect()),
            spectators: chat.spectators.iter().cloned().collect(),
        })
    }

    /// `POST /chat`: a line of `who` in `room`; `account` is the writer's account name, if
    /// they are logged in. Sent to the room's readers and kept.
    pub async fn chat(
        &self,
        who: &Actor<'_>,
        account: Option<String>,
        req: ChatRequest,
    ) -> Result<ChatLine, ChatError> {
        let text = clean(&req.text, MAX_CHARS, "text")?;
        let seat = {
            let g = self.lock().await;
            if self.is_gone() {
                return Err(GameError::moved(g.key.as_str()).into());
            }
            Self::chat_allowed(&g)?;
            g.sides.seat_of(who.seat, who.user, g.id.0).ok()
        };
        let (writer, from, guest) = match (req.room, seat) {
            (Room::Players, Some(c)) => (
                Writer::Seat(c),
                crate::game::color_name(c).to_string(),
                false,
            ),
            (Room::Players, None) => return Err(ChatError::NotAPlayer),
            (Room::Spectators, Some(_)) => return Err(ChatError::PlayersRoom),
            (Room::Spectators, None) => {
                let writer = Writer::Client(crate::http::rate::key_of(who.client));
                match account {
                    Some(name) => (writer, name, false),
                    None => {
                        let name = match req.name.as_deref().map(str::trim) {
                            None | Some("") => "Guest".to_string(),
                            Some(n) => clean(n, MAX_NAME_CHARS, "name")?,
                        };
                        (writer, name, true)
                    }
                }
            }
        };
        let line = ChatLine {
            room: req.room,
            from,
            guest,
            text,
            at_ms: chess960_round::record::now_ms(),
        };
        {
            let mut chat = self.chat.lock().unwrap_or_else(|e| e.into_inner());
            chat.take(writer, self.now())?;
            chat.keep(line.clone());
        }
        let event = Event::Chat {
            version: self.broadcast.current_version(),
            room: line.room,
            from: &line.from,
            guest: line.guest,
            text: &line.text,
            at_ms: line.at_ms,
        };
        match line.room {
            Room::Players => {
                for c in Color::ALL {
                    self.broadcast
                        .send_event(&event, Some(Protocol::V2), Audience::Player(c));
                }
            }
            Room::Spectators => {
                self.broadcast
                    .send_event(&event, Some(Protocol::V2), Audience::All)
            }
        }
        Ok(line)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_is_trimmed_counted_in_characters_and_free_of_controls() {
        assert_eq!(clean("  hi  ", 140, "text").unwrap(), "hi");
        assert!(clean(&"é".repeat(140), 140, "text").is_ok());
        assert!(clean(&"é".repeat(141), 140, "text").is_err());
        assert!(clean("a\nb", 140, "text").is_err());
        assert!(clean("a\u{202e}b", 140, "text").is_err());
        assert!(clean("   ", 140, "text").is_err());
        assert_eq!(clean("<b>hi</b>", 140, "text").unwrap(), "<b>hi</b>");
    }

    #[test]
    fn a_writer_gets_five_lines_per_window_and_rooms_keep_the_last_hundred() {
        let mut chat = Chat::default();
        let t0 = Instant::now();
        let w = Writer::Seat(Color::White);
        for _ in 0..BURST {
            chat.take(w, t0).unwrap();
        }
        assert!(matches!(chat.take(w, t0), Err(ChatError::TooFast(_))));
        chat.take(Writer::Seat(Color::Black), t0).unwrap();
        chat.take(w, t0 + WINDOW).unwrap();
        for i in 0..KEPT + 5 {
            chat.keep(ChatLine {
                room: Room::Players,
                from: "white".into(),
                guest: false,
                text: i.to_string(),
                at_ms: 0,
            });
        }
        assert_eq!(chat.players.len(), KEPT);
        assert_eq!(chat.players[0].text, "5");
    }
}
