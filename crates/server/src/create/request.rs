//! The body of `POST /api/games` (docs/api.md), read in two steps.
//!
//! 1. [`NewGameBody`]: the documented flat JSON object, read by serde field by field, so that
//!    a value of the wrong type is named by its path (`level.elo: invalid type ...`).
//! 2. [`NewGameRequest::read`]: the typed request. What every game takes ([`GameRequest`]) and
//!    what only one kind of opponent takes ([`OpponentRequest`], tagged by `opponent`, the
//!    engine when absent) are apart, so that a level for a challenge or a lobby listing of a
//!    game against the engine cannot be represented; a field given to the wrong kind of game
//!    is refused with the field's name and the kind that takes it ([`FIELDS`]).
//!
//! [`NewGameRequest::spec`] then builds the game to create: the start position (replaying a
//! PGN, rolling a random number, checking a draw made by hand), the clock, the players.
//!
//! The web UI's request type is generated from [`NewGameRequest`] (`edge_types.rs`), and a
//! test reads back what it serializes, so the two cannot drift apart.

use super::{NewGameSpec, Opponent};
use crate::error::{ApiError, ApiResult};
use crate::game::drawn::DrawnIn;
use crate::game::placing::{Placing, DEFAULT_PER_PLACEMENT, PENDING_TAG, PER_PLACEMENT_RANGE};
use crate::game::{LevelJson, TimeControl, DEFAULT_LEVEL};
use chess960_core::{Color, StartId};
use chess960_draw::rng::SplitMix64;
use chess960_engine::levels::{ELO_MAX, ELO_MIN};
use chess960_engine::player::{Level, FULL_MOVETIME_DEFAULT, FULL_MOVETIME_MAX, FULL_MOVETIME_MIN};
use serde::{Deserialize, Serialize};
use std::time::Duration;

/// The deepest fixed level (and analysis depth, `api.rs`) accepted.
pub const MAX_DEPTH: u32 = 30;
/// The time per move of the full-strength level (`level.full.movetime_ms`): the range accepted
/// and the default.
pub const FULL_MOVETIME_MS_MIN: u64 = FULL_MOVETIME_MIN.as_millis() as u64;
pub const FULL_MOVETIME_MS_MAX: u64 = FULL_MOVETIME_MAX.as_millis() as u64;
pub const FULL_MOVETIME_MS_DEFAULT: u64 = FULL_MOVETIME_DEFAULT.as_millis() as u64;
/// The longest time control and study time accepted (a day, an hour).
const MAX_INITIAL_MS: u64 = 86_400_000;
const MAX_INCREMENT_MS: u64 = 3_600_000;
const MAX_STUDY_MS: u64 = 3_600_000;
/// A player's name when none is given.
const DEFAULT_NAME: &str = "Player";

// ---- the body as sent ----------------------------------------------------------------------

/// `start` as sent: one of its fields.
#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct StartIn {
    id: Option<u32>,
    random: Option<bool>,
    #[serde(default)]
    exclude_classical: bool,
    fen: Option<String>,
    pgn: Option<String>,
    chosen: Option<bool>,
}

/// `level` as sent: one of its fields.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LevelIn {
    elo: Option<u32>,
    depth: Option<u32>,
    full: Option<FullIn>,
}

/// `level.full` as sent: full strength, with the time per move (the default when absent).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FullIn {
    movetime_ms: Option<u64>,
}

/// `time_control` as sent (the increment may be left out).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TimeControlIn {
    initial_ms: u64,
    #[serde(default)]
    increment_ms: u64,
}

/// `POST /api/games` as sent: the flat object of docs/api.md. Every field may be left out.
#[derive(Deserialize, Default)]
pub struct NewGameBody {
    start: Option<StartIn>,
    color: Option<String>,
    level: Option<LevelIn>,
    time_control: Option<TimeControlIn>,
    study_ms: Option<u64>,
    name: Option<String>,
    opponent: Option<String>,
    opponent_name: Option<String>,
    lobby: Option<bool>,
    placement_ms: Option<u64>,
    drawn: Option<DrawnIn>,
    rated: Option<bool>,
}

// ---- the typed request ---------------------------------------------------------------------

/// A new game: what every game takes, and who plays the other colour with what only that
/// kind of game takes.
#[derive(Serialize, Debug, PartialEq)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[cfg_attr(test, ts(rename = "NewGameRequest"))]
pub struct NewGameRequest {
    /// What every game takes.
    #[serde(flatten)]
    #[cfg_attr(test, ts(flatten))]
    pub game: GameRequest,
    /// Who plays the other colour.
    #[serde(flatten)]
    #[cfg_attr(test, ts(flatten))]
    pub opponent: OpponentRequest,
}

/// What every new game takes (each has a default).
#[derive(Serialize, Debug, PartialEq, Default)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct GameRequest {
    /// The start position; a random one when absent.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, ts(optional))]
    pub start: Option<StartRequest>,
    /// The creator's colour; White when absent.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, ts(optional))]
    pub color: Option<ColorChoice>,
    /// The clocks; an untimed game when absent or `null`.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, ts(optional = nullable))]
    pub time_control: Option<TimeControl>,
    /// The creator's name; "Player" when absent or blank.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, ts(optional))]
    pub name: Option<String>,
    /// With `start.id`: how that position was drawn by hand (`drawn.rs`).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, ts(optional))]
    pub drawn: Option<DrawnIn>,
}

/// Who plays the other colour (`opponent`), with the fields only that kind of game takes.
#[derive(Serialize, Debug, PartialEq)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(tag = "opponent", rename_all = "lowercase")]
pub enum OpponentRequest {
    /// The engine (the default when `opponent` is absent).
    Engine {
        /// The engine's level; Elo 1500 when absent.
        #[serde(skip_serializing_if = "Option::is_none")]
        #[cfg_attr(test, ts(optional))]
        level: Option<LevelJson>,
        /// Time to look at the position before play starts (none when absent).
        #[serde(skip_serializing_if = "Option::is_none")]
        #[cfg_attr(test, ts(optional))]
        study_ms: Option<u64>,
    },
    /// A challenge: a person takes the open seat by the game's link (or from the lobby).
    Human {
        /// Listed in the lobby for anyone to accept (not when absent).
        #[serde(skip_serializing_if = "Option::is_none")]
        #[cfg_attr(test, ts(optional))]
        lobby: Option<bool>,
        /// With `start.chosen`: the time each placement may take.
        #[serde(skip_serializing_if = "Option::is_none")]
        #[cfg_attr(test, ts(optional))]
        placement_ms: Option<u64>,
        /// Rated (casual when absent): between two logged-in players, with a clock, from a
        /// Chess960 start.
        #[serde(skip_serializing_if = "Option::is_none")]
        #[cfg_attr(test, ts(optional))]
        rated: Option<bool>,
    },
    /// Two people at one device, taking turns.
    Hotseat {
        /// The other player's name (`name` is the one playing `color`).
        #[serde(skip_serializing_if = "Option::is_none")]
        #[cfg_attr(test, ts(optional))]
        opponent_name: Option<String>,
        /// With `start.chosen`: the time each placement may take.
        #[serde(skip_serializing_if = "Option::is_none")]
        #[cfg_attr(test, ts(optional))]
        placement_ms: Option<u64>,
        /// Time to look at the position before play starts (none when absent).
        #[serde(skip_serializing_if = "Option::is_none")]
        #[cfg_attr(test, ts(optional))]
        study_ms: Option<u64>,
    },
}

/// `true`, the one value of `start.random` and `start.chosen`.
#[derive(Debug, PartialEq, Clone, Copy)]
pub struct True;

impl Serialize for True {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_bool(true)
    }
}

/// `start`: where the game begins.
#[derive(Serialize, Debug, PartialEq)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(untagged)]
pub enum StartRequest {
    /// A start position by its number (960 is read as 0).
    Id {
        /// 0..959.
        #[cfg_attr(test, ts(type = "number"))]
        id: StartNumber,
    },
    /// A start position drawn by the server.
    Random {
        /// Always `true`.
        #[cfg_attr(test, ts(type = "true"))]
        random: True,
        /// Never the classical position (518).
        exclude_classical: bool,
    },
    /// A position in FEN (any of the three castling dialects).
    Fen {
        /// The FEN.
        fen: String,
    },
    /// The end of a game in PGN, whose moves are replayed and kept.
    Pgn {
        /// The PGN.
        pgn: String,
    },
    /// Placed by the two players in turn once the game begins (Northam's method).
    Chosen {
        /// Always `true`.
        #[cfg_attr(test, ts(type = "true"))]
        chosen: True,
    },
}

/// A start position's number in JSON.
#[derive(Debug, PartialEq, Clone, Copy)]
pub struct StartNumber(pub StartId);

impl Serialize for StartNumber {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_u16(self.0.get())
    }
}

/// `color`: the creator's colour.
#[derive(Serialize, Debug, PartialEq, Clone, Copy)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "lowercase")]
pub enum ColorChoice {
    /// White.
    White,
    /// Black.
    Black,
    /// Either, by lot.
    Random,
}

// ---- from the body to the request ----------------------------------------------------------

/// The kinds of game, as `opponent` names them.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Engine,
    Human,
    Hotseat,
}

/// The fields only some kinds of game take: the field, whether the body gives it (a zero
/// study time or `lobby: false` says nothing), the kinds that take it, and what to say to
/// another kind (the kind is added in brackets).
type Given = fn(&NewGameBody) -> bool;
const FIELDS: &[(&str, Given, &[Kind], &str)] = &[
    (
        "level",
        |b| b.level.is_some(),
        &[Kind::Engine],
        "only a game against the engine has one",
    ),
    (
        "study_ms",
        |b| b.study_ms.is_some_and(|ms| ms > 0),
        &[Kind::Engine, Kind::Hotseat],
        "study time is for a game against the engine or at one device",
    ),
    (
        "lobby",
        |b| b.lobby == Some(true),
        &[Kind::Human],
        "only a challenge (a game against a human) can be listed in the lobby",
    ),
    (
        "rated",
        |b| b.rated == Some(true),
        &[Kind::Human],
        "only a game between two people, each at their own device, can be rated",
    ),
    (
        "opponent_name",
        |b| b.opponent_name.is_some(),
        &[Kind::Hotseat],
        "only for two players at one device (hotseat)",
    ),
    (
        "start.chosen",
        |b| b.start.as_ref().is_some_and(|s| s.chosen.is_some()),
        &[Kind::Human, Kind::Hotseat],
        "the two players place the pieces: only between people (human or hotseat)",
    ),
];

impl Kind {
    fn read(opponent: Option<&str>) -> ApiResult<Kind> {
        match opponent.map(str::trim) {
            None | Some("engine") => Ok(Kind::Engine),
            Some("human") => Ok(Kind::Human),
            Some("hotseat") => Ok(Kind::Hotseat),
            Some(other) => Err(ApiError::bad_request(format!(
                "opponent: '{}' is not engine, human or hotseat",
                clip(other)
            ))),
        }
    }

    fn name(self) -> &'static str {
        match self {
            Kind::Engine => "engine",
            Kind::Human => "human",
            Kind::Hotseat => "hotseat",
        }
    }
}

/// The first 20 characters of what a client sent, to quote it in an error.
pub(crate) fn clip(text: &str) -> String {
    text.chars().take(20).collect()
}

impl NewGameRequest {
    /// The typed request of `body`: 400 naming the field that does not fit the kind of game,
    /// or whose value is out of range.
    pub fn read(body: NewGameBody) -> ApiResult<NewGameRequest> {
        let kind = Kind::read(body.opponent.as_deref())?;
        for (field, given, kinds, says) in FIELDS {
            if given(&body) && !kinds.contains(&kind) {
                return Err(ApiError::bad_request(format!(
                    "{field}: {says} (opponent is {})",
                    kind.name()
                )));
            }
        }
        let level = body.level.map(level_of).transpose()?;
        // No study time and no listing say nothing: they are left out of the request.
        let study_ms = body.study_ms.filter(|&ms| ms > 0);
        let lobby = body.lobby.filter(|&listed| listed);
        let rated = body.rated.filter(|&rated| rated);
        if study_ms.is_some_and(|ms| ms > MAX_STUDY_MS) {
            return Err(ApiError::bad_request(format!(
                "study_ms: must be 0..{MAX_STUDY_MS}"
            )));
        }
        let start = body.start.map(start_of).transpose()?;
        let chosen = matches!(start, Some(StartRequest::Chosen { .. }));
        if body.placement_ms.is_some() && !chosen {
            return Err(ApiError::bad_request(
                "placement_ms: only with start.chosen",
            ));
        }
        if let Some(ms) = body.placement_ms {
            let (lo, hi) = PER_PLACEMENT_RANGE;
            if !(lo..=hi).contains(&Duration::from_millis(ms)) {
                return Err(ApiError::bad_request(format!(
                    "placement_ms: must be {}..{}",
                    lo.as_millis(),
                    hi.as_millis()
                )));
            }
        }
        if chosen && body.drawn.is_some() {
            return Err(ApiError::bad_request(
                "drawn: a start the players place is recorded as it is placed",
            ));
        }
        let opponent = match kind {
            Kind::Engine => OpponentRequest::Engine { level, study_ms },
            Kind::Human => OpponentRequest::Human {
                lobby,
                placement_ms: body.placement_ms,
                rated,
            },
            Kind::Hotseat => OpponentRequest::Hotseat {
                // A blank name is no name: the other player is then "Player 2".
                opponent_name: body
                    .opponent_name
                    .filter(|n| !n.trim().is_empty())
                    .map(|n| {
                        name_of(Some(n)).map_err(|_| {
                            ApiError::bad_request(
                                "opponent_name: at most 100 characters, no control characters",
                            )
                        })
                    })
                    .transpose()?,
                placement_ms: body.placement_ms,
                study_ms,
            },
        };
        let color = match body.color.as_deref().map(str::trim) {
            None => None,
            Some("white") => Some(ColorChoice::White),
            Some("black") => Some(ColorChoice::Black),
            Some("random") => Some(ColorChoice::Random),
            Some(other) => {
                return Err(ApiError::bad_request(format!(
                    "color: '{}' is not white, black or random",
                    clip(other)
                )))
            }
        };
        let time_control = body.time_control.map(time_control_of).transpose()?;
        if rated.is_some() {
            if time_control.is_none() {
                return Err(ApiError::bad_request(
                    "rated: a rated game has a clock (time_control); games without one are \
                     casual",
                ));
            }
            if matches!(
                start,
                Some(StartRequest::Fen { .. } | StartRequest::Pgn { .. })
            ) {
                return Err(ApiError::bad_request(
                    "rated: a rated game starts from a Chess960 start position (start.id, \
                     start.random or start.chosen), not from a FEN or a PGN",
                ));
            }
        }
        let name = match body.name {
            Some(n) => Some(name_of(Some(n))?),
            None => None,
        };
        Ok(NewGameRequest {
            game: GameRequest {
                start,
                color,
                time_control,
                name,
                drawn: body.drawn,
            },
            opponent,
        })
    }

    /// The game to create: the start position (a random one drawn with `rng`, a FEN read, a
    /// PGN replayed, a draw by hand checked against its number) and the players. 422 for a
    /// start that cannot be played.
    pub fn spec(self, rng: &mut SplitMix64) -> ApiResult<NewGameSpec> {
        let GameRequest {
            start,
            color,
            time_control,
            name,
            drawn,
        } = self.game;
        let human = match color.unwrap_or(ColorChoice::White) {
            ColorChoice::White => Color::White,
            ColorChoice::Black => Color::Black,
            ColorChoice::Random => {
                if rng.below(2) == 0 {
                    Color::White
                } else {
                    Color::Black
                }
            }
        };
        let placing =
            |ms: Option<u64>| Placing::new(ms.map_or(DEFAULT_PER_PLACEMENT, Duration::from_millis));
        let start = start.unwrap_or(StartRequest::Random {
            random: True,
            exclude_classical: false,
        });
        let chosen = matches!(start, StartRequest::Chosen { .. });
        let (opponent, study) = match self.opponent {
            OpponentRequest::Engine { level, study_ms } => (
                Opponent::Engine(level.map_or(DEFAULT_LEVEL, Level::from)),
                study_ms,
            ),
            OpponentRequest::Human {
                lobby,
                placement_ms,
                rated,
            } => (
                Opponent::Human {
                    listed: lobby == Some(true),
                    placing: chosen.then(|| placing(placement_ms)),
                    rated: rated == Some(true),
                },
                None,
            ),
            OpponentRequest::Hotseat {
                opponent_name,
                placement_ms,
                study_ms,
            } => (
                Opponent::Hotseat {
                    name: opponent_name,
                    placing: chosen.then(|| placing(placement_ms)),
                },
                study_ms,
            ),
        };
        let asked_id = match &start {
            StartRequest::Id { id } => Some(id.0),
            _ => None,
        };
        let (position, moves) = match start {
            StartRequest::Id { id } => (id.0.position(), Vec::new()),
            StartRequest::Random {
                exclude_classical, ..
            } => {
                let n = if exclude_classical {
                    // 959 numbers, skipping 518.
                    let n = rng.below(959) as u16;
                    if n >= StartId::CLASSICAL.get() {
                        n + 1
                    } else {
                        n
                    }
                } else {
                    rng.below(960) as u16
                };
                (
                    StartId::new(n.into()).expect("below 960").position(),
                    Vec::new(),
                )
            }
            StartRequest::Fen { fen } => (
                chess960_core::Position::from_fen(&fen)
                    .map_err(|e| ApiError::unprocessable(format!("start.fen: {e}")))?,
                Vec::new(),
            ),
            StartRequest::Pgn { pgn } => crate::pgn::import(&pgn)?,
            // Until the players have placed the pieces, the classical arrangement holds the place.
            StartRequest::Chosen { .. } => (StartId::CLASSICAL.position(), Vec::new()),
        };
        // A draw goes with the number it drew.
        let mut tags = match drawn {
            Some(drawn) => {
                let id = asked_id.and_then(|_| StartId::of_board(position.board()));
                crate::game::drawn::tags_of(drawn, id)?
            }
            None => Vec::new(),
        };
        if let Some(p) = opponent.placing() {
            tags.push((PENDING_TAG.to_string(), p.tag_value()));
        }
        Ok(NewGameSpec {
            start: position,
            moves,
            human,
            name: name.unwrap_or_else(|| DEFAULT_NAME.to_string()),
            opponent,
            tc: time_control,
            study: Duration::from_millis(study.unwrap_or(0)),
            tags,
        })
    }
}

/// A player's name as given (trimmed), or the default name: 400 for one over 100 characters
/// or with control characters.
pub fn name_of(name: Option<String>) -> ApiResult<String> {
    let name = name
        .map(|n| n.trim().to_string())
        .filter(|n| !n.is_empty())
        .unwrap_or_else(|| DEFAULT_NAME.to_string());
    if name.chars().count() > 100 || name.chars().any(char::is_control) {
        return Err(ApiError::bad_request(
            "name: at most 100 characters, no control characters",
        ));
    }
    Ok(name)
}

fn level_of(level: LevelIn) -> ApiResult<LevelJson> {
    match (level.elo, level.depth, level.full) {
        (Some(elo), None, None) if (ELO_MIN..=ELO_MAX).contains(&elo) => Ok(LevelJson::Elo(elo)),
        (Some(elo), None, None) => Err(ApiError::bad_request(format!(
            "level.elo: {elo} is outside {ELO_MIN}..{ELO_MAX}"
        ))),
        (None, Some(depth), None) if (1..=MAX_DEPTH).contains(&depth) => {
            Ok(LevelJson::Depth(depth))
        }
        (None, Some(depth), None) => Err(ApiError::bad_request(format!(
            "level.depth: {depth} is outside 1..{MAX_DEPTH}"
        ))),
        (None, None, Some(full)) => match full.movetime_ms.unwrap_or(FULL_MOVETIME_MS_DEFAULT) {
            ms if (FULL_MOVETIME_MS_MIN..=FULL_MOVETIME_MS_MAX).contains(&ms) => {
                Ok(LevelJson::Full { movetime_ms: ms })
            }
            ms => Err(ApiError::bad_request(format!(
                "level.full.movetime_ms: {ms} is outside \
                 {FULL_MOVETIME_MS_MIN}..{FULL_MOVETIME_MS_MAX}"
            ))),
        },
        _ => Err(ApiError::bad_request(
            "level: give exactly one of elo, depth or full",
        )),
    }
}

fn time_control_of(t: TimeControlIn) -> ApiResult<TimeControl> {
    if !(1..=MAX_INITIAL_MS).contains(&t.initial_ms) {
        return Err(ApiError::bad_request(format!(
            "time_control.initial_ms: must be 1..{MAX_INITIAL_MS}"
        )));
    }
    if t.increment_ms > MAX_INCREMENT_MS {
        return Err(ApiError::bad_request(format!(
            "time_control.increment_ms: must be 0..{MAX_INCREMENT_MS}"
        )));
    }
    Ok(TimeControl {
        initial_ms: t.initial_ms,
        increment_ms: t.increment_ms,
    })
}

fn start_of(start: StartIn) -> ApiResult<StartRequest> {
    let StartIn {
        id,
        random,
        exclude_classical,
        fen,
        pgn,
        chosen,
    } = start;
    let given = [
        id.is_some(),
        random.is_some(),
        fen.is_some(),
        pgn.is_some(),
        chosen.is_some(),
    ];
    if given.iter().filter(|&&b| b).count() != 1 {
        return Err(ApiError::bad_request(
            "start: give exactly one of id, random, fen, pgn or chosen",
        ));
    }
    if let Some(n) = id {
        let n = if n == 960 { 0 } else { n };
        let id = StartId::new(n).map_err(|_| {
            ApiError::bad_request(format!("start.id: {n} is not a start position (0..959)"))
        })?;
        return Ok(StartRequest::Id {
            id: StartNumber(id),
        });
    }
    match (random, fen, pgn, chosen) {
        (Some(true), ..) => Ok(StartRequest::Random {
            random: True,
            exclude_classical,
        }),
        (Some(false), ..) => Err(ApiError::bad_request(
            "start.random: must be true (or give id, fen or pgn)",
        )),
        (_, Some(fen), ..) => Ok(StartRequest::Fen { fen }),
        (_, _, Some(pgn), _) => Ok(StartRequest::Pgn { pgn }),
        (.., Some(true)) => Ok(StartRequest::Chosen { chosen: True }),
        _ => Err(ApiError::bad_request(
            "start.chosen: must be true (or give id, random, fen or pgn)",
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::parse_json;

    fn read(body: serde_json::Value) -> ApiResult<NewGameRequest> {
        NewGameRequest::read(parse_json(body.to_string().as_bytes())?)
    }

    /// What the typed request writes (the shape the web UI's generated type describes) reads
    /// back as the same request: the generated type and the reader agree.
    #[test]
    fn a_request_reads_back_what_it_writes() {
        let requests = [
            NewGameRequest {
                game: GameRequest::default(),
                opponent: OpponentRequest::Engine {
                    level: None,
                    study_ms: None,
                },
            },
            NewGameRequest {
                game: GameRequest {
                    start: Some(StartRequest::Id {
                        id: StartNumber(StartId::new(350).unwrap()),
                    }),
                    color: Some(ColorChoice::Random),
                    time_control: Some(TimeControl {
                        initial_ms: 300_000,
                        increment_ms: 3_000,
                    }),
                    name: Some("Ann".into()),
                    drawn: None,
                },
                opponent: OpponentRequest::Engine {
                    level: Some(LevelJson::Depth(4)),
                    study_ms: Some(20_000),
                },
            },
            NewGameRequest {
                game: GameRequest {
                    start: Some(StartRequest::Random {
                        random: True,
                        exclude_classical: true,
                    }),
                    color: Some(ColorChoice::Black),
                    time_control: Some(TimeControl {
                        initial_ms: 180_000,
                        increment_ms: 2_000,
                    }),
                    ..GameRequest::default()
                },
                opponent: OpponentRequest::Human {
                    lobby: Some(true),
                    placement_ms: None,
                    rated: Some(true),
                },
            },
            NewGameRequest {
                game: GameRequest {
                    start: Some(StartRequest::Chosen { chosen: True }),
                    ..GameRequest::default()
                },
                opponent: OpponentRequest::Hotseat {
                    opponent_name: Some("Bob".into()),
                    placement_ms: Some(5_000),
                    study_ms: None,
                },
            },
            NewGameRequest {
                game: GameRequest {
                    start: Some(StartRequest::Fen {
                        fen: "8/8/8/8/8/8/8/K6k w - - 0 1".into(),
                    }),
                    ..GameRequest::default()
                },
                opponent: OpponentRequest::Human {
                    lobby: None,
                    placement_ms: None,
                    rated: None,
                },
            },
            NewGameRequest {
                game: GameRequest {
                    start: Some(StartRequest::Pgn {
                        pgn: "1. e4 *".into(),
                    }),
                    ..GameRequest::default()
                },
                opponent: OpponentRequest::Engine {
                    level: Some(LevelJson::Elo(1800)),
                    study_ms: None,
                },
            },
            NewGameRequest {
                game: GameRequest::default(),
                opponent: OpponentRequest::Engine {
                    level: Some(LevelJson::Full { movetime_ms: 250 }),
                    study_ms: None,
                },
            },
        ];
        for request in requests {
            let json = serde_json::to_value(&request).unwrap();
            let back = read(json.clone()).unwrap_or_else(|e| panic!("{json}: {}", e.message));
            assert_eq!(back, request, "{json}");
        }
    }

    /// Each field that only some kinds of game take is refused for the others, by its name.
    #[test]
    fn a_field_of_another_kind_of_game_is_refused_by_name() {
        use serde_json::json;
        let cases = [
            (json!({"opponent": "human", "level": {"elo": 1500}}), "level: only a game against the engine has one (opponent is human)"),
            (json!({"opponent": "hotseat", "level": {"depth": 3}}), "level: only a game against the engine has one (opponent is hotseat)"),
            (json!({"opponent": "human", "study_ms": 5}), "study_ms: study time is for a game against the engine or at one device (opponent is human)"),
            (json!({"lobby": true}), "lobby: only a challenge (a game against a human) can be listed in the lobby (opponent is engine)"),
            (json!({"opponent": "hotseat", "lobby": true}), "lobby: only a challenge"),
            (json!({"opponent": "human", "opponent_name": "Bob"}), "opponent_name: only for two players at one device"),
            (json!({"start": {"chosen": true}}), "start.chosen: the two players place the pieces"),
            (json!({"opponent": "robot"}), "opponent: 'robot' is not engine, human or hotseat"),
            (json!({"opponent": "human", "placement_ms": 5000}), "placement_ms: only with start.chosen"),
            (json!({"opponent": "human", "start": {"chosen": true}, "placement_ms": 10}), "placement_ms: must be 5000..600000"),
            (json!({"opponent": "human", "start": {"chosen": true}, "drawn": {"method": "die", "seed": 1}}), "drawn: a start the players place"),
            (json!({"rated": true}), "rated: only a game between two people, each at their own device, can be rated (opponent is engine)"),
            (json!({"opponent": "hotseat", "rated": true}), "rated: only a game between two people"),
            (json!({"opponent": "human", "rated": true}), "rated: a rated game has a clock"),
            (json!({"opponent": "human", "rated": true, "time_control": {"initial_ms": 60000}, "start": {"fen": "8/8/8/8/8/8/8/K6k w - - 0 1"}}), "rated: a rated game starts from a Chess960 start position"),
        ];
        for (body, says) in cases {
            let error = read(body.clone()).expect_err(&body.to_string());
            assert!(error.message.starts_with(says), "{body}: {}", error.message);
            assert_eq!(error.status, axum::http::StatusCode::BAD_REQUEST);
        }
        // What says nothing is taken by every kind: no study time, not listed.
        for kind in ["engine", "human", "hotseat"] {
            let r = read(json!({"opponent": kind, "study_ms": 0, "lobby": false, "rated": false}))
                .unwrap();
            assert_eq!(serde_json::to_value(&r).unwrap(), json!({"opponent": kind}));
        }
    }
}
