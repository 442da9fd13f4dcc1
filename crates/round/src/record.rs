//! How games are recorded in the store (players, time control, tags), the same for
//! `chess960 serve` and `chess960 play`, so that either can continue the other's games.

use chess960_core::{Color, Position, StartId};
use chess960_engine::player::{Level, FULL_MOVETIME_MAX, FULL_MOVETIME_MIN};
use chess960_store::{Clocks, NewGame};
use serde::Serialize;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// PGN tag holding the engine's level (`elo 1500`, `depth 4` or `full 1000ms`), so that a game loaded from the
/// store after a restart is played on at the same level.
pub const LEVEL_TAG: &str = "EngineLevel";

/// How the engine's name as a player begins ([`engine_name`]): how a stored game without
/// `WhiteType` / `BlackType` tags tells which side our engine played.
pub const ENGINE_NAME_PREFIX: &str = "chess960-engine";

/// The engine's name as a player.
pub fn engine_name(level: Level) -> String {
    match level {
        Level::Elo(elo) => format!("chess960-engine {elo}"),
        Level::Depth(d) => format!("chess960-engine depth {d}"),
        Level::Full { .. } => "chess960-engine full strength".to_string(),
    }
}

/// The record of a new game between a person and the engine, as both `chess960 serve` and
/// `chess960 play` store it: players, time control, and the tags (`Variant`, `WhiteType` /
/// `BlackType`, [`LEVEL_TAG`]) from which either program can continue the game later.
pub fn engine_game(
    start: &Position,
    start_id: Option<StartId>,
    human: Color,
    human_name: String,
    level: Level,
    tc: Option<TimeControl>,
    site: &str,
) -> NewGame {
    let engine = engine_name(level);
    let (white, black) = match human {
        Color::White => (human_name, engine),
        Color::Black => (engine, human_name),
    };
    let kind = |c: Color| if c == human { "human" } else { "program" };
    let mut g = casual_game(start, start_id, (white, black), kind, tc, site);
    g.tags.push((LEVEL_TAG.into(), level_tag(level)));
    g
}

/// The record of a new game between two people created through the server: the creator plays
/// `creator` under `name`; the other side is `?` (PGN's unknown player) until its player joins.
pub fn people_game(
    start: &Position,
    start_id: Option<StartId>,
    creator: Color,
    name: String,
    tc: Option<TimeControl>,
    site: &str,
) -> NewGame {
    let players = match creator {
        Color::White => (name, "?".to_string()),
        Color::Black => ("?".to_string(), name),
    };
    people_pair(start, start_id, players, tc, site)
}

/// The record of a game between two people who both hold their seats already (a rematch).
pub fn people_pair(
    start: &Position,
    start_id: Option<StartId>,
    players: (String, String),
    tc: Option<TimeControl>,
    site: &str,
) -> NewGame {
    casual_game(start, start_id, players, |_| "human", tc, site)
}

/// What every new game's record has: the start, the players (White, Black), the time control,
/// and the tags of a casual Chess960 game with `kind` of each colour (`human` / `program`).
fn casual_game(
    start: &Position,
    start_id: Option<StartId>,
    (white, black): (String, String),
    kind: impl Fn(Color) -> &'static str,
    tc: Option<TimeControl>,
    site: &str,
) -> NewGame {
    NewGame {
        start_fen: start.fen(),
        start_id: start_id.map(StartId::get),
        white,
        black,
        time_control: tc.map(TimeControl::to_pgn),
        clocks: tc.map(TimeControl::initial),
        tags: vec![
            ("Event".into(), "Casual game".into()),
            ("Site".into(), site.into()),
            ("Date".into(), today()),
            ("Round".into(), "-".into()),
            // Every game here is Chess960, also from the classical arrangement 518.
            ("Variant".into(), "Chess960".into()),
            ("WhiteType".into(), kind(Color::White).into()),
            ("BlackType".into(), kind(Color::Black).into()),
        ],
    }
}

/// `elo 1500` / `depth 4` / `full 1000ms` (full strength, at most 1000 ms a move), the value
/// of [`LEVEL_TAG`].
pub fn level_tag(level: Level) -> String {
    match level {
        Level::Elo(elo) => format!("elo {elo}"),
        Level::Depth(d) => format!("depth {d}"),
        Level::Full { movetime } => format!("full {}ms", movetime.as_millis()),
    }
}

/// Reads [`level_tag`]'s form back. A full-strength time per move outside the range offered
/// ([`FULL_MOVETIME_MIN`]..=[`FULL_MOVETIME_MAX`], as in a hand-edited record) is brought
/// into it, so that no stored game makes the engine think longer than a new one may.
pub fn parse_level_tag(s: &str) -> Option<Level> {
    let (kind, n) = s.trim().split_once(' ')?;
    let n = n.trim();
    match kind {
        "elo" => Some(Level::Elo(n.parse().ok()?)),
        "depth" => Some(Level::Depth(n.parse().ok()?)),
        "full" => {
            let ms: u64 = n.strip_suffix("ms").unwrap_or(n).trim_end().parse().ok()?;
            let movetime = Duration::from_millis(ms).clamp(FULL_MOVETIME_MIN, FULL_MOVETIME_MAX);
            Some(Level::Full { movetime })
        }
        _ => None,
    }
}

/// A time control in milliseconds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, serde::Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct TimeControl {
    /// Each side's time at the start.
    pub initial_ms: u64,
    /// Added to the mover's clock after each move.
    pub increment_ms: u64,
}

impl TimeControl {
    /// The PGN `TimeControl` form: seconds, `300+3`; fractions of a second are written as
    /// decimals (`0.5+0`) so that the stored game keeps the exact control.
    pub fn to_pgn(self) -> String {
        format!(
            "{}+{}",
            seconds(self.initial_ms),
            seconds(self.increment_ms)
        )
    }

    /// Reads [`TimeControl::to_pgn`]'s form back (also a bare `300`).
    pub fn parse(s: &str) -> Option<TimeControl> {
        let (base, inc) = s.trim().split_once('+').unwrap_or((s.trim(), "0"));
        let ms = |t: &str| -> Option<u64> {
            let v: f64 = t.trim().parse().ok()?;
            (v.is_finite() && v >= 0.0).then(|| (v * 1000.0).round() as u64)
        };
        let initial_ms = ms(base)?;
        (initial_ms > 0).then_some(TimeControl {
            initial_ms,
            increment_ms: ms(inc)?,
        })
    }

    /// Both clocks at the start.
    pub fn initial(self) -> Clocks {
        Clocks {
            white_ms: self.initial_ms,
            black_ms: self.initial_ms,
        }
    }
}

fn seconds(ms: u64) -> String {
    if ms % 1000 == 0 {
        (ms / 1000).to_string()
    } else {
        let s = format!("{}.{:03}", ms / 1000, ms % 1000);
        s.trim_end_matches('0').to_string()
    }
}

pub use chess960_pgn::date::today;

/// Milliseconds since the Unix epoch.
pub fn now_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64)
}

/// Which player is the human in a stored game: the `WhiteType`/`BlackType` tags
/// (`human`/`program`) when present, else the side whose name is not the engine's, else
/// White.
pub fn human_of(meta: &NewGame) -> Color {
    let tag = |name: &str| {
        meta.tags
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.to_ascii_lowercase())
    };
    match (tag("WhiteType").as_deref(), tag("BlackType").as_deref()) {
        (Some("human"), _) | (_, Some("program")) => Color::White,
        (_, Some("human")) | (Some("program"), _) => Color::Black,
        _ => {
            if meta.white.starts_with(ENGINE_NAME_PREFIX)
                && !meta.black.starts_with(ENGINE_NAME_PREFIX)
            {
                Color::Black
            } else {
                Color::White
            }
        }
    }
}

/// The default level for a stored game that does not record one.
pub const DEFAULT_LEVEL: Level = Level::Elo(1500);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_control_round_trip() {
        let tc = TimeControl {
            initial_ms: 300_000,
            increment_ms: 3000,
        };
        assert_eq!(tc.to_pgn(), "300+3");
        assert_eq!(TimeControl::parse("300+3"), Some(tc));
        let small = TimeControl {
            initial_ms: 1500,
            increment_ms: 250,
        };
        assert_eq!(small.to_pgn(), "1.5+0.25");
        assert_eq!(TimeControl::parse(&small.to_pgn()), Some(small));
        assert_eq!(TimeControl::parse("-"), None);
    }

    #[test]
    fn level_tag_round_trip() {
        let full = Level::Full {
            movetime: Duration::from_millis(1500),
        };
        for level in [Level::Elo(1500), Level::Depth(4), full] {
            assert_eq!(parse_level_tag(&level_tag(level)), Some(level));
        }
        assert_eq!(level_tag(full), "full 1500ms");
        assert_eq!(parse_level_tag("full 1500"), Some(full));
        assert_eq!(engine_name(full), "chess960-engine full strength");
        // Out of the offered range: brought into it.
        let long = Level::Full {
            movetime: FULL_MOVETIME_MAX,
        };
        assert_eq!(parse_level_tag("full 999999ms"), Some(long));
        let short = Level::Full {
            movetime: FULL_MOVETIME_MIN,
        };
        assert_eq!(parse_level_tag("full 0ms"), Some(short));
        assert_eq!(parse_level_tag("full fast"), None);
        assert_eq!(parse_level_tag("speed 3"), None);
    }

    #[test]
    fn date_is_plausible() {
        let d = today();
        assert_eq!(d.len(), 10);
        assert!(d.starts_with("20"));
    }
}
