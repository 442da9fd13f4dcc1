//! An event's engine as the match runner starts it: the registered engine's program, options
//! and protocol, and the board's time control as its clock.

use chess960_arena::engine::{EngineConfig, Protocol};
use chess960_arena::options::DEFAULT_MARGIN_MS;
use chess960_arena::process::Spawn;
use chess960_arena::timecontrol::{parse_tc, Limits, TimeControl};
use chess960_store::engines::{EngineProtocol, RegisteredEngine};
use std::path::PathBuf;
use std::time::Duration;

/// What `chess960-arena` needs to run a registered engine: its program, arguments, working
/// directory, protocol and options, the registered name as its name, and `timeout` to wait
/// for each reply no clock limits (the handshake's included). The time control is the
/// game's ([`limits`]).
pub fn engine_config(engine: &RegisteredEngine, timeout: Duration) -> EngineConfig {
    EngineConfig {
        name: Some(engine.name.clone()),
        spawn: Spawn {
            cmd: engine.command.clone(),
            args: engine.args.clone(),
            dir: engine.dir.as_ref().map(PathBuf::from),
            stderr_file: None,
        },
        proto: match engine.protocol {
            EngineProtocol::Uci => Protocol::Uci,
            EngineProtocol::Xboard => Protocol::Xboard,
        },
        options: engine.options.clone(),
        limits: Limits {
            margin: Duration::from_millis(DEFAULT_MARGIN_MS),
            ..Limits::default()
        },
        restart: false,
        timeout,
        init_strings: Vec::new(),
        white_pov: false,
    }
}

/// The longest game clock an engine game takes: 10 hours a side.
const MAX_BASE: Duration = Duration::from_secs(10 * 3600);

/// An event's time control as an engine's clock. The event's notation: `90+30` is 90 minutes
/// and 30 seconds a move (`1.5+1` is 90 seconds and one second a move); with a colon or a
/// slash it is cutechess's: `0:10+0.1` is 10 seconds and 0.1 s a move, `40/60+0.6` 40 moves
/// in 60 seconds. An engine game needs a clock: an empty or infinite one is refused.
pub fn limits(tc: &str) -> Result<Limits, String> {
    let text = tc.trim();
    if text.is_empty() {
        return Err(
            "the event has no time control: set one (e.g. 1+1: a minute and a second a move)"
                .into(),
        );
    }
    let clock = if text.contains(':') || text.contains('/') {
        parse_tc(text).map_err(|e| e.to_string())?.ok_or_else(|| {
            format!("time control {text:?}: engine games need a clock, not an infinite one")
        })?
    } else {
        let (m, s) = text.split_once('+').unwrap_or((text, "0"));
        let bad = || {
            format!(
                "time control {text:?}: expected MINUTES+SECONDS (90+30, 1+0.5), or cutechess's MIN:SEC+SECONDS (0:10+0.1)"
            )
        };
        let minutes: f64 = m.trim().parse().map_err(|_| bad())?;
        let seconds: f64 = s.trim().parse().map_err(|_| bad())?;
        if !(minutes.is_finite() && seconds.is_finite()) || minutes <= 0.0 || seconds < 0.0 {
            return Err(bad());
        }
        TimeControl {
            moves: 0,
            base: Duration::try_from_secs_f64(minutes * 60.0).map_err(|_| bad())?,
            increment: Duration::try_from_secs_f64(seconds).map_err(|_| bad())?,
        }
    };
    if clock.base > MAX_BASE || clock.increment > Duration::from_secs(3600) || clock.base.is_zero()
    {
        return Err(format!(
            "time control {text:?}: a clock of more than zero and at most 10 hours, at most an hour a move"
        ));
    }
    Ok(Limits {
        clock: Some(clock),
        margin: Duration::from_millis(DEFAULT_MARGIN_MS),
        ..Limits::default()
    })
}

/// The clocks of White and Black: one time control for both, or each side's when the board's
/// gives two (`5+0/4+0`: [`chess960_events::event::sides_of`]).
pub fn limits_of_sides(tc: &str) -> Result<[Limits; 2], String> {
    match chess960_events::event::sides_of(tc) {
        Some((white, black)) => Ok([
            limits(white).map_err(|e| format!("White's clock: {e}"))?,
            limits(black).map_err(|e| format!("Black's clock: {e}"))?,
        ]),
        None => limits(tc).map(|l| [l, l]),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_registered_engine_is_what_the_arena_runs() {
        let e = RegisteredEngine {
            name: "SF".into(),
            command: "/usr/games/stockfish".into(),
            args: vec!["--a".into(), "b c".into()],
            dir: Some("/tmp".into()),
            protocol: EngineProtocol::Xboard,
            options: vec![("Hash".into(), "16".into())],
            added_ms: 0,
        };
        let c = engine_config(&e, Duration::from_secs(3));
        assert_eq!(c.name.as_deref(), Some("SF"));
        assert_eq!(c.spawn.cmd, "/usr/games/stockfish");
        assert_eq!(c.spawn.args, ["--a", "b c"]);
        assert_eq!(c.spawn.dir, Some(PathBuf::from("/tmp")));
        assert_eq!(c.proto, Protocol::Xboard);
        assert_eq!(c.options, [("Hash".to_string(), "16".to_string())]);
        assert_eq!(c.timeout, Duration::from_secs(3));
    }

    fn clock(tc: &str) -> (Duration, Duration) {
        let c = limits(tc).unwrap().clock.unwrap();
        (c.base, c.increment)
    }

    #[test]
    fn the_event_notation_is_minutes_and_seconds() {
        assert_eq!(
            clock("90+30"),
            (Duration::from_secs(5400), Duration::from_secs(30))
        );
        assert_eq!(clock(" 5 "), (Duration::from_secs(300), Duration::ZERO));
        assert_eq!(
            clock("1.5+0.5"),
            (Duration::from_secs(90), Duration::from_millis(500))
        );
    }

    #[test]
    fn cutechess_notation_with_a_colon() {
        assert_eq!(
            clock("0:10+0.1"),
            (Duration::from_secs(10), Duration::from_millis(100))
        );
        let c = limits("40/60+0.6").unwrap().clock.unwrap();
        assert_eq!((c.moves, c.base), (40, Duration::from_secs(60)));
    }

    #[test]
    fn an_armageddon_gives_white_more_time() {
        let [w, b] = limits_of_sides("5+0/4+0").unwrap();
        assert_eq!(w.clock.unwrap().base, Duration::from_secs(300));
        assert_eq!(b.clock.unwrap().base, Duration::from_secs(240));
        let [w, b] = limits_of_sides("0:10+0.1").unwrap();
        assert_eq!(w, b);
        assert!(limits_of_sides("5+0/x+1")
            .unwrap_err()
            .starts_with("Black's clock"));
    }

    #[test]
    fn no_clock_no_game() {
        for bad in [
            "", "inf", "0:00/inf", "x+1", "0+1", "-1+0", "5+-1", "NaN+1", "601:00+0", "1+7200",
        ] {
            assert!(limits(bad).is_err(), "{bad:?} accepted");
        }
    }
}
