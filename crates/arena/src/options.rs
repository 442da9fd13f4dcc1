//! The command line of `chess960 match`, in cutechess-cli's syntax: single-dash options,
//! engine settings as `KEY=VALUE` words.
//!
//! ```text
//! -engine cmd=stockfish name=SF option.Hash=16 -engine cmd=glaurung
//! -each tc=40/10+0.1 timemargin=100 -games 2 -rounds 50 -concurrency 2
//! -openings ids=518,0,959 order=random -repeat -draw movenumber=40 movecount=8 score=10
//! -resign movecount=3 score=600 -maxmoves 200 -sprt elo0=0 elo1=5 alpha=0.05 beta=0.05
//! -pgnout games.pgn -recover -seed 42 --json
//! ```

use crate::engine::{EngineConfig, Protocol};
use crate::openings::{parse_ids, Format, OpeningsSpec, Order};
use crate::process::Spawn;
use crate::referee::{DrawRule, ResignRule};
use crate::runner::{MatchConfig, PgnOut};
use crate::schedule::Tournament;
use crate::stats::Sprt;
use crate::timecontrol::{parse_seconds, parse_tc, Limits};
use std::fmt;
use std::path::PathBuf;
use std::time::Duration;

/// The default `timemargin=`: how late (ms) a move may come before it is a time forfeit.
pub const DEFAULT_MARGIN_MS: u64 = 50;

/// The default `timeout=`: seconds to wait for a reply no clock limits.
pub const DEFAULT_TIMEOUT_S: u64 = 60;

/// A command-line problem, with a message that names the option.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ArgsError(pub String);

impl fmt::Display for ArgsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ArgsError {}

/// The parsed command line.
#[derive(Debug, Clone)]
pub struct MatchArgs {
    /// The match.
    pub config: MatchConfig,
    /// Print the `--json` summary instead of the table.
    pub json: bool,
}

fn err<T>(msg: impl Into<String>) -> Result<T, ArgsError> {
    Err(ArgsError(msg.into()))
}

/// Options cutechess-cli has that this runner does not, with what to use instead.
const UNSUPPORTED: &[(&str, &str)] = &[
    (
        "-book",
        "opening books are not supported; use -openings file=… format=pgn",
    ),
    ("-bookmode", "opening books are not supported"),
    ("-tb", "tablebase adjudication is not supported"),
    ("-tbpieces", "tablebase adjudication is not supported"),
    ("-tbignore50", "tablebase adjudication is not supported"),
    ("-epdout", "EPD output is not supported; use -pgnout"),
    (
        "-livepgnout",
        "live PGN is not supported; -pgnout appends each game as it ends",
    ),
    ("-wait", "-wait is not supported"),
    (
        "-resultformat",
        "-resultformat is not supported; use --json for scripts",
    ),
    ("-pgnin", "use -openings file=FILE format=pgn"),
    ("-bookdepth", "opening books are not supported"),
    (
        "-noswap",
        "-noswap is not supported: colours alternate so each opening is played by both sides",
    ),
    ("-reverse", "-reverse is not supported"),
];

/// Parses the arguments after `chess960 match`. `default_seed` is used when `-seed` is not
/// given (the caller draws it at random, and the report prints it).
pub fn parse_args(args: &[String], default_seed: u64) -> Result<MatchArgs, ArgsError> {
    let mut config = MatchConfig {
        seed: default_seed,
        ..MatchConfig::default()
    };
    let mut json = false;
    let mut engines: Vec<Vec<(String, String)>> = Vec::new();
    let mut each: Vec<(String, String)> = Vec::new();
    let mut i = 0;
    // Words after an option up to the next option.
    let take_words = |i: &mut usize| -> Vec<String> {
        let mut out = Vec::new();
        while *i < args.len() && !is_option(&args[*i]) {
            out.push(args[*i].clone());
            *i += 1;
        }
        out
    };
    while i < args.len() {
        let opt = args[i].clone();
        i += 1;
        let value = |i: &mut usize, what: &str| -> Result<String, ArgsError> {
            match args.get(*i) {
                Some(v) if !is_option(v) => {
                    *i += 1;
                    Ok(v.clone())
                }
                _ => err(format!("{opt} needs a value ({what})")),
            }
        };
        match opt.as_str() {
            "--json" | "-json" => json = true,
            "-engine" => {
                let words = take_words(&mut i);
                engines.push(key_values(&opt, &words)?);
            }
            "-each" => {
                let words = take_words(&mut i);
                each.extend(key_values(&opt, &words)?);
            }
            "-games" => config.games = count(&opt, &value(&mut i, "a number")?, 1)?,
            "-rounds" => config.rounds = count(&opt, &value(&mut i, "a number")?, 1)?,
            "-concurrency" => {
                config.concurrency = count(&opt, &value(&mut i, "a number")?, 1)? as usize
            }
            "-maxmoves" => {
                config.adjudication.max_moves = Some(count(&opt, &value(&mut i, "a number")?, 1)?)
            }
            "-ratinginterval" => {
                config.rating_interval = count(&opt, &value(&mut i, "a number")?, 0)?
            }
            "-seed" | "-srand" => {
                let v = value(&mut i, "a number")?;
                config.seed = v
                    .trim()
                    .parse()
                    .or_else(|_| err(format!("{opt}: '{v}' is not a whole number")))?;
            }
            "-repeat" => {
                // `-repeat` alone means 2, as in cutechess-cli.
                config.repeat = match args.get(i) {
                    Some(v) if !is_option(v) => {
                        i += 1;
                        count(&opt, v, 1)?
                    }
                    _ => 2,
                };
            }
            "-norepeat" => config.repeat = 1,
            "-recover" => config.recover = true,
            "-debug" => config.debug = true,
            "-quiet" => config.quiet = true,
            "-event" => config.event = value(&mut i, "a name")?,
            "-site" => config.site = value(&mut i, "a name")?,
            "-variant" => {
                let v = value(&mut i, "fischerandom")?;
                let ok = ["fischerandom", "chess960", "frc", "960"];
                if !ok.iter().any(|o| v.eq_ignore_ascii_case(o)) {
                    return err(format!(
                        "-variant {v}: this runner plays Chess960 only (-variant fischerandom)"
                    ));
                }
            }
            "-tournament" => {
                let v = value(&mut i, "round-robin or gauntlet")?;
                config.tournament = match v.as_str() {
                    "round-robin" | "roundrobin" => Tournament::RoundRobin,
                    "gauntlet" => Tournament::Gauntlet,
                    _ => return err(format!("-tournament {v}: expected round-robin or gauntlet")),
                };
            }
            "-pgnout" => {
                let path = value(&mut i, "a file name")?;
                let mut minimal = false;
                while let Some(w) = args.get(i).filter(|w| !is_option(w)) {
                    match w.as_str() {
                        "min" => minimal = true,
                        "fi" => {}
                        _ => return err(format!("-pgnout: unexpected '{w}' (expected min)")),
                    }
                    i += 1;
                }
                config.pgnout = Some(PgnOut {
                    path: PathBuf::from(path),
                    minimal,
                });
            }
            "-openings" => {
                let words = take_words(&mut i);
                config.openings = openings(&key_values(&opt, &words)?)?;
            }
            "-draw" => {
                let words = take_words(&mut i);
                let kv = key_values(&opt, &words)?;
                let mut rule = DrawRule {
                    move_number: 0,
                    move_count: 0,
                    score: 0,
                };
                let (mut mc, mut sc) = (false, false);
                for (k, v) in &kv {
                    match k.as_str() {
                        "movenumber" => rule.move_number = count("-draw movenumber", v, 0)?,
                        "movecount" => {
                            rule.move_count = count("-draw movecount", v, 1)?;
                            mc = true
                        }
                        "score" => {
                            rule.score = count("-draw score", v, 0)? as i32;
                            sc = true
                        }
                        _ => {
                            return err(format!(
                                "-draw: unknown key '{k}' (movenumber, movecount, score)"
                            ))
                        }
                    }
                }
                if !(mc && sc) {
                    return err(
                        "-draw needs movecount=N and score=CP (and optionally movenumber=N)",
                    );
                }
                config.adjudication.draw = Some(rule);
            }
            "-resign" => {
                let words = take_words(&mut i);
                let kv = key_values(&opt, &words)?;
                let mut rule = ResignRule {
                    move_count: 0,
                    score: 0,
                    two_sided: false,
                };
                let (mut mc, mut sc) = (false, false);
                for (k, v) in &kv {
                    match k.as_str() {
                        "movecount" => {
                            rule.move_count = count("-resign movecount", v, 1)?;
                            mc = true
                        }
                        "score" => {
                            rule.score = count("-resign score", v, 1)? as i32;
                            sc = true
                        }
                        "twosided" => rule.two_sided = boolean("-resign twosided", v)?,
                        _ => {
                            return err(format!(
                                "-resign: unknown key '{k}' (movecount, score, twosided)"
                            ))
                        }
                    }
                }
                if !(mc && sc) {
                    return err(
                        "-resign needs movecount=N and score=CP (and optionally twosided=true)",
                    );
                }
                config.adjudication.resign = Some(rule);
            }
            "-sprt" => {
                let words = take_words(&mut i);
                config.sprt = Some(sprt(&key_values(&opt, &words)?)?);
            }
            other => {
                if let Some((_, why)) = UNSUPPORTED.iter().find(|(o, _)| *o == other) {
                    return err(format!("{other}: {why}"));
                }
                if is_option(other) {
                    return err(format!(
                        "unknown option '{other}' (see 'chess960 match --help')"
                    ));
                }
                return err(format!(
                    "unexpected '{other}': options start with '-', engine settings follow \
                     -engine or -each as KEY=VALUE"
                ));
            }
        }
    }
    if engines.len() < 2 {
        return err(format!(
            "a match needs at least two engines: -engine cmd=… -engine cmd=… (got {})",
            engines.len()
        ));
    }
    for (n, own) in engines.iter().enumerate() {
        config.engines.push(engine(n + 1, &each, own)?);
    }
    if config.sprt.is_some() && config.engines.len() != 2 {
        return err("-sprt needs exactly two engines");
    }
    Ok(MatchArgs { config, json })
}

/// An option word: `-games`, `--json`; not a negative number.
fn is_option(s: &str) -> bool {
    s.starts_with('-') && s.len() > 1 && !s[1..].starts_with(|c: char| c.is_ascii_digit())
}

fn key_values(opt: &str, words: &[String]) -> Result<Vec<(String, String)>, ArgsError> {
    words
        .iter()
        .map(|w| match w.split_once('=') {
            Some((k, v)) if !k.is_empty() => Ok((k.to_string(), v.to_string())),
            _ => {
                if w == "ponder" {
                    err(format!("{opt} ponder: pondering is not supported"))
                } else {
                    err(format!("{opt}: '{w}' is not KEY=VALUE"))
                }
            }
        })
        .collect()
}

fn count(what: &str, v: &str, min: u32) -> Result<u32, ArgsError> {
    match v.trim().parse::<u32>() {
        Ok(n) if n >= min => Ok(n),
        _ => err(format!(
            "{what}: '{v}' is not a whole number of at least {min}"
        )),
    }
}

fn boolean(what: &str, v: &str) -> Result<bool, ArgsError> {
    match v.to_ascii_lowercase().as_str() {
        "true" | "on" | "yes" | "1" => Ok(true),
        "false" | "off" | "no" | "0" => Ok(false),
        _ => err(format!("{what}: '{v}' is not true or false")),
    }
}

fn number(what: &str, v: &str) -> Result<f64, ArgsError> {
    match v.trim().parse::<f64>() {
        Ok(x) if x.is_finite() => Ok(x),
        _ => err(format!("{what}: '{v}' is not a number")),
    }
}

fn sprt(kv: &[(String, String)]) -> Result<Sprt, ArgsError> {
    let mut s = Sprt {
        elo0: f64::NAN,
        elo1: f64::NAN,
        alpha: 0.05,
        beta: 0.05,
    };
    for (k, v) in kv {
        match k.as_str() {
            "elo0" => s.elo0 = number("-sprt elo0", v)?,
            "elo1" => s.elo1 = number("-sprt elo1", v)?,
            "alpha" => s.alpha = number("-sprt alpha", v)?,
            "beta" => s.beta = number("-sprt beta", v)?,
            _ => {
                return err(format!(
                    "-sprt: unknown key '{k}' (elo0, elo1, alpha, beta)"
                ))
            }
        }
    }
    if s.elo0.is_nan() || s.elo1.is_nan() {
        return err("-sprt needs elo0= and elo1= (and alpha=, beta=; 0.05 by default)");
    }
    if s.elo1 <= s.elo0 {
        return err(format!(
            "-sprt: elo1 ({}) must be greater than elo0 ({})",
            s.elo1, s.elo0
        ));
    }
    for (name, x) in [("alpha", s.alpha), ("beta", s.beta)] {
        if !(x > 0.0 && x < 0.5) {
            return err(format!("-sprt {name}={x}: must be between 0 and 0.5"));
        }
    }
    Ok(s)
}

fn openings(kv: &[(String, String)]) -> Result<OpeningsSpec, ArgsError> {
    let mut file = None;
    let mut ids = None;
    let mut format = None;
    let mut order = Order::Sequential;
    let mut plies = None;
    let mut start = 1usize;
    for (k, v) in kv {
        match k.as_str() {
            "file" => file = Some(PathBuf::from(v)),
            "ids" => {
                ids = Some(parse_ids(v).map_err(|e| ArgsError(format!("-openings ids={v}: {e}")))?)
            }
            "format" => {
                format = Some(match v.to_ascii_lowercase().as_str() {
                    "epd" => Format::Epd,
                    "pgn" => Format::Pgn,
                    _ => return err(format!("-openings format={v}: expected epd or pgn")),
                })
            }
            "order" => {
                order = match v.as_str() {
                    "sequential" => Order::Sequential,
                    "random" => Order::Random,
                    _ => {
                        return err(format!(
                            "-openings order={v}: expected sequential or random"
                        ))
                    }
                }
            }
            "plies" => plies = Some(count("-openings plies", v, 0)? as usize),
            "start" => start = count("-openings start", v, 1)? as usize,
            "policy" => {
                if v != "default" {
                    return err(format!(
                        "-openings policy={v}: only the default policy is supported (each \
                         opening is played -repeat times, colours alternating)"
                    ));
                }
            }
            _ => {
                return err(format!(
                    "-openings: unknown key '{k}' (file, format, order, plies, start, ids)"
                ))
            }
        }
    }
    match (file, ids) {
        (Some(_), Some(_)) => err("-openings: give file= or ids=, not both"),
        (None, Some(ids)) => {
            if format.is_some() || plies.is_some() || start != 1 {
                return err("-openings ids=…: format=, plies= and start= apply to file= only");
            }
            Ok(OpeningsSpec::Ids { ids, order })
        }
        (Some(path), None) => {
            let format = match format {
                Some(f) => f,
                None => match path.extension().and_then(|e| e.to_str()) {
                    Some(e) if e.eq_ignore_ascii_case("epd") => Format::Epd,
                    Some(e) if e.eq_ignore_ascii_case("pgn") => Format::Pgn,
                    _ => {
                        return err(format!(
                            "-openings file={}: give format=epd or format=pgn",
                            path.display()
                        ))
                    }
                },
            };
            Ok(OpeningsSpec::File {
                path,
                format,
                order,
                plies,
                start,
            })
        }
        (None, None) => err(
            "-openings needs file=FILE (format=epd|pgn) or ids=LIST; without -openings, start \
             positions are drawn at random from -seed",
        ),
    }
}

/// Builds engine `n` from the `-each` settings and its own (its own win; `arg=`, `initstr=`
/// and distinct `option.` names add up).
fn engine(
    n: usize,
    each: &[(String, String)],
    own: &[(String, String)],
) -> Result<EngineConfig, ArgsError> {
    let mut cfg = EngineConfig {
        name: None,
        spawn: Spawn::default(),
        proto: Protocol::Uci,
        options: Vec::new(),
        limits: Limits {
            margin: Duration::from_millis(DEFAULT_MARGIN_MS),
            ..Limits::default()
        },
        restart: false,
        timeout: Duration::from_secs(DEFAULT_TIMEOUT_S),
        init_strings: Vec::new(),
        white_pov: false,
    };
    // -each first, so that the engine's own settings override it. A time control of the
    // engine's own (tc= or st=) replaces both of -each's.
    let own_clock = own.iter().any(|(k, _)| k == "tc" || k == "st");
    let mut settings: Vec<(bool, &(String, String))> = each.iter().map(|kv| (false, kv)).collect();
    settings.extend(own.iter().map(|kv| (true, kv)));
    let mut cleared = false;
    let who = |cfg: &EngineConfig| match &cfg.name {
        Some(name) => format!("engine {n} ({name})"),
        None if !cfg.spawn.cmd.is_empty() => format!("engine {n} ({})", cfg.spawn.cmd),
        None => format!("engine {n}"),
    };
    for (is_own, (k, v)) in settings {
        if is_own && own_clock && !cleared {
            cfg.limits.clock = None;
            cfg.limits.st = None;
            cleared = true;
        }
        let bad =
            |cfg: &EngineConfig, why: String| ArgsError(format!("{}: {k}={v}: {why}", who(cfg)));
        match k.as_str() {
            "cmd" => {
                // cutechess splits cmd= at spaces when it has arguments; so does this.
                let mut parts = v.split_whitespace();
                cfg.spawn.cmd = parts.next().unwrap_or("").to_string();
                cfg.spawn.args.splice(0..0, parts.map(str::to_string));
            }
            "name" => cfg.name = Some(v.clone()),
            "dir" => cfg.spawn.dir = Some(PathBuf::from(v)),
            "arg" => cfg.spawn.args.push(v.clone()),
            "stderr" => cfg.spawn.stderr_file = Some(PathBuf::from(v)),
            "proto" => {
                cfg.proto = match v.as_str() {
                    "uci" => Protocol::Uci,
                    "xboard" => Protocol::Xboard,
                    _ => return Err(bad(&cfg, "expected uci or xboard".into())),
                }
            }
            "tc" => {
                cfg.limits.clock = parse_tc(v).map_err(|e| bad(&cfg, e.to_string()))?;
                if cfg.limits.st.is_some() {
                    return Err(bad(&cfg, "give tc= or st=, not both".into()));
                }
            }
            "st" => {
                let st = parse_seconds(v)
                    .filter(|d| !d.is_zero())
                    .ok_or_else(|| bad(&cfg, "expected seconds per move, e.g. 0.5".into()))?;
                if cfg.limits.clock.is_some() {
                    return Err(bad(&cfg, "give tc= or st=, not both".into()));
                }
                cfg.limits.st = Some(st);
            }
            "nodes" => {
                cfg.limits.nodes = Some(
                    v.parse::<u64>()
                        .ok()
                        .filter(|&n| n > 0)
                        .ok_or_else(|| bad(&cfg, "expected a node count".into()))?,
                )
            }
            "depth" => {
                cfg.limits.depth = Some(
                    v.parse::<u32>()
                        .ok()
                        .filter(|&n| n > 0)
                        .ok_or_else(|| bad(&cfg, "expected a depth".into()))?,
                )
            }
            "timemargin" => {
                cfg.limits.margin = Duration::from_millis(
                    v.parse::<u64>()
                        .map_err(|_| bad(&cfg, "expected milliseconds".into()))?,
                )
            }
            "timeout" => {
                cfg.timeout = parse_seconds(v)
                    .filter(|d| !d.is_zero())
                    .ok_or_else(|| bad(&cfg, "expected seconds".into()))?
            }
            "restart" => {
                cfg.restart = match v.as_str() {
                    "on" => true,
                    "off" | "auto" => false,
                    _ => return Err(bad(&cfg, "expected on or off".into())),
                }
            }
            "initstr" => cfg.init_strings.push(v.clone()),
            "whitepov" => cfg.white_pov = boolean(&format!("{} whitepov", who(&cfg)), v)?,
            "trust" => {}
            "conf" => {
                return Err(bad(
                    &cfg,
                    "engine configuration files are not supported: give cmd= and the other \
                     settings"
                        .into(),
                ))
            }
            "ponder" => return Err(bad(&cfg, "pondering is not supported".into())),
            key => match key.strip_prefix("option.") {
                Some(name) if !name.is_empty() => {
                    if let Some(slot) = cfg.options.iter_mut().find(|(o, _)| o == name) {
                        slot.1 = v.clone();
                    } else {
                        cfg.options.push((name.to_string(), v.clone()));
                    }
                }
                _ => {
                    return Err(ArgsError(format!(
                        "{}: unknown engine setting '{key}' (cmd, name, dir, arg, proto, \
                         option.NAME, tc, st, nodes, depth, timemargin, timeout, restart, \
                         initstr, whitepov, stderr)",
                        who(&cfg)
                    )))
                }
            },
        }
    }
    if cfg.spawn.cmd.is_empty() {
        return err(format!(
            "{}: cmd= is missing (the engine's program)",
            who(&cfg)
        ));
    }
    if !cfg.limits.is_bounded() {
        return err(format!(
            "{}: no time control: give tc=, st=, nodes= or depth= (with -each for all \
             engines); tc=inf needs nodes= or depth=",
            who(&cfg)
        ));
    }
    if cfg.proto == Protocol::Xboard {
        if cfg.limits.nodes.is_some() {
            return err(format!(
                "{}: nodes= is not supported for xboard engines (use st=, tc= or depth=)",
                who(&cfg)
            ));
        }
        if let Some(st) = cfg.limits.st {
            if st.subsec_millis() != 0 {
                return err(format!(
                    "{}: st= for an xboard engine must be whole seconds (the xboard 'st' \
                     command takes seconds)",
                    who(&cfg)
                ));
            }
        }
    }
    Ok(cfg)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(s: &str) -> Vec<String> {
        s.split_whitespace().map(str::to_string).collect()
    }

    fn parse(s: &str) -> Result<MatchArgs, ArgsError> {
        parse_args(&args(s), 1)
    }

    #[test]
    fn a_full_command_line() {
        let m = parse(
            "-engine cmd=sf name=SF option.Hash=16 arg=-x -engine cmd=gl proto=uci nodes=500 \
             -each tc=40/10+0.1 timemargin=100 option.Threads=1 -games 4 -rounds 3 \
             -concurrency 2 -openings ids=518,0-2 order=random -repeat -draw movenumber=40 \
             movecount=8 score=10 -resign movecount=3 score=600 twosided=true -maxmoves 200 \
             -sprt elo0=0 elo1=5 -pgnout g.pgn min -recover -seed 42 --json -variant fischerandom",
        )
        .unwrap();
        let c = &m.config;
        assert!(m.json);
        assert_eq!((c.games, c.rounds, c.concurrency, c.repeat), (4, 3, 2, 2));
        assert_eq!(c.seed, 42);
        assert!(c.recover);
        assert_eq!(c.engines.len(), 2);
        let sf = &c.engines[0];
        assert_eq!(sf.name.as_deref(), Some("SF"));
        assert_eq!(sf.spawn.args, vec!["-x"]);
        assert_eq!(
            sf.options,
            vec![("Threads".into(), "1".into()), ("Hash".into(), "16".into())]
        );
        assert_eq!(sf.limits.clock.unwrap().to_string(), "40/10+0.1");
        assert_eq!(sf.limits.margin, Duration::from_millis(100));
        assert_eq!(c.engines[1].limits.nodes, Some(500));
        assert_eq!(c.adjudication.max_moves, Some(200));
        assert_eq!(c.adjudication.draw.unwrap().move_count, 8);
        assert!(c.adjudication.resign.unwrap().two_sided);
        assert_eq!(c.sprt.unwrap().elo1, 5.0);
        assert!(c.pgnout.as_ref().unwrap().minimal);
        assert!(
            matches!(&c.openings, OpeningsSpec::Ids { ids, order: Order::Random } if ids.len() == 4)
        );
    }

    #[test]
    fn engine_settings_override_each() {
        let m = parse("-each st=1 -engine cmd=a tc=10+0.1 -engine cmd=b").unwrap();
        assert!(m.config.engines[0].limits.st.is_none());
        assert!(m.config.engines[0].limits.clock.is_some());
        assert_eq!(m.config.engines[1].limits.st, Some(Duration::from_secs(1)));
    }

    #[test]
    fn errors_name_the_option() {
        for (line, want) in [
            ("-engine cmd=a tc=1", "at least two engines"),
            ("-engine cmd=a -engine cmd=b", "no time control"),
            (
                "-engine cmd=a tc=x -engine cmd=b tc=1",
                "engine 1 (a): tc=x",
            ),
            ("-engine name=x tc=1 -engine cmd=b tc=1", "cmd= is missing"),
            (
                "-engine cmd=a tc=1 -engine cmd=b tc=1 -games x",
                "-games: 'x'",
            ),
            (
                "-engine cmd=a tc=1 -engine cmd=b tc=1 -foo",
                "unknown option '-foo'",
            ),
            ("-engine cmd=a tc=1 -engine cmd=b tc=1 -book x.bin", "-book"),
            (
                "-engine cmd=a tc=1 -engine cmd=b tc=1 bar",
                "-engine: 'bar' is not KEY=VALUE",
            ),
            (
                "-engine cmd=a tc=1 -engine cmd=b tc=1 -recover bar",
                "unexpected 'bar'",
            ),
            (
                "-engine cmd=a tc=1 hash=1 -engine cmd=b tc=1",
                "unknown engine setting 'hash'",
            ),
            (
                "-engine cmd=a tc=1 -engine cmd=b tc=1 -draw score=1",
                "-draw needs",
            ),
            (
                "-engine cmd=a tc=1 -engine cmd=b tc=1 -sprt elo0=5 elo1=0",
                "elo1",
            ),
            (
                "-engine cmd=a tc=1 -engine cmd=b tc=1 -openings ids=999",
                "-openings ids=999",
            ),
            (
                "-engine cmd=a tc=1 -engine cmd=b tc=1 -openings file=x",
                "format=epd",
            ),
            (
                "-engine cmd=a tc=1 proto=xboard nodes=5 -engine cmd=b tc=1",
                "nodes= is not supported",
            ),
            (
                "-engine cmd=a st=0.5 proto=xboard -engine cmd=b tc=1",
                "whole seconds",
            ),
            (
                "-engine cmd=a tc=1 -engine cmd=b tc=1 -variant crazyhouse",
                "Chess960 only",
            ),
            (
                "-engine cmd=a tc=1 -engine cmd=b tc=1 -engine cmd=c tc=1 -sprt elo0=0 elo1=5",
                "exactly two",
            ),
            (
                "-engine cmd=a tc=1 -engine cmd=b tc=1 -games",
                "-games needs a value",
            ),
        ] {
            let e = parse(line)
                .err()
                .unwrap_or_else(|| panic!("{line} was accepted"));
            assert!(e.0.contains(want), "{line}: {e}");
            assert!(!e.0.contains('\n'));
        }
    }

    #[test]
    fn repeat_forms_and_defaults() {
        let m = parse("-engine cmd=a tc=1 -engine cmd=b tc=1").unwrap();
        assert_eq!(
            (m.config.games, m.config.repeat, m.config.concurrency),
            (2, 2, 1)
        );
        assert_eq!(m.config.seed, 1);
        let m = parse("-engine cmd=a tc=1 -engine cmd=b tc=1 -repeat 4 -norepeat").unwrap();
        assert_eq!(m.config.repeat, 1);
        let m = parse("-engine cmd=a tc=1 -engine cmd=b tc=1 -repeat -games 6").unwrap();
        assert_eq!((m.config.repeat, m.config.games), (2, 6));
        let m = parse("-engine cmd=x tc=1 -engine cmd=b tc=1 -tournament gauntlet").unwrap();
        assert_eq!(m.config.tournament, Tournament::Gauntlet);
    }
}
