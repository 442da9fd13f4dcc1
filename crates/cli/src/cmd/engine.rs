//! `chess960 engine`: the registry of the engines the server may run (engine events), for the
//! server's owner, on the terminal only. The engines live in the game database (the same one
//! as `chess960 db`, `event` and `user`), behind `chess960_store::EngineStore`, which checks
//! every name, command and option. The HTTP API never accepts nor shows an engine's command:
//! a command is a program the server runs, so only whoever can run this on the server's
//! database may register one.
//!
//! `engine check` starts a registered engine exactly as a match would (through
//! `chess960-arena`, `chess960_championship::entrant::engine_config`) and reports its handshake.

use crate::cmd::json_line;
use crate::error::{quote, CliError, CliResult};
use chess960_arena::engine::Engine;
use chess960_championship::entrant::engine_config;
use chess960_store::{EngineError, EngineProtocol, EngineStore, GameStore, RegisteredEngine};
use clap::{Args, Subcommand};
use serde_json::json;
use std::fmt::Write as _;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

/// The default `engine check --timeout`, in seconds.
const CHECK_TIMEOUT_S: u64 = 5;

/// Arguments of `chess960 engine`.
#[derive(Debug, Args)]
#[command(
    about = "Engines the server may run: register, list, show, remove, check",
    long_about = "Manage the registry of UCI and xboard engines that the server may run in \
engine events. Only the server's owner registers engines, here, on the server's database: the \
HTTP API never accepts nor shows an engine's command.\n\n\
An engine has a name (1 to 40 letters, digits, spaces and -_.()+, the same whatever its case), \
the program to start with its arguments, a working directory, a protocol (uci or xboard) and \
the engine options to set after the handshake (at most 64). The engines are kept in the game \
database (see 'chess960 db --help' for where it is).\n\n\
Exit status: 0 on success; 1 when 'engine check' finds that the engine does not start or \
answer; 2 for bad usage, a refused name or option, or a database error.",
    after_help = "Examples:\n  \
chess960 engine add Stockfish --cmd /usr/games/stockfish --option Hash=64 --option Threads=2\n  \
chess960 engine add Fairy --cmd fairy-stockfish --protocol xboard --dir /opt/fairy\n  \
chess960 engine list\n  \
chess960 engine show Stockfish --json\n  \
chess960 engine check Stockfish        # starts it, shows its name, author and options\n  \
chess960 engine remove Stockfish"
)]
pub struct EngineArgs {
    /// The game database: a SQLite file, created when it does not exist, or a PostgreSQL
    /// database, postgres://user@host/dbname (default: $CHESS960_DB, else games.sqlite3 in
    /// the user's data directory, ~/.local/share/chess960/ on Linux).
    #[arg(long, value_name = "PATH|URL", global = true)]
    pub db: Option<PathBuf>,
    #[command(subcommand)]
    pub command: EngineCommand,
}

/// The `engine` subcommands.
#[derive(Debug, Subcommand)]
pub enum EngineCommand {
    Add(AddArgs),
    List(ListArgs),
    Show(ShowArgs),
    Remove(RemoveArgs),
    Check(CheckArgs),
}

/// `engine add`.
#[derive(Debug, Args)]
#[command(
    about = "Register an engine: its program, arguments, directory, protocol and options",
    long_about = "Register an engine under NAME: the program to start (--cmd, a path or a \
name looked up in PATH), its arguments (--arg, once for each, in order), the directory to \
start it in (--dir), its protocol (--protocol, uci by default) and the options to set after \
the handshake (--option NAME=VALUE, once for each, in order; at most 64). A name already \
registered (whatever its case) is refused, unless --replace is given: then the engine \
registered under that name is replaced whole.\n\n\
Nothing is started: 'chess960 engine check NAME' tries the engine.",
    after_help = "Examples:\n  \
chess960 engine add Stockfish --cmd /usr/games/stockfish --option Hash=64 --option 'Skill Level=10'\n  \
chess960 engine add 'Random (uci)' --cmd chess960-random-engine --arg --seed --arg 7\n  \
chess960 engine add Fairy --cmd fairy-stockfish --protocol xboard --dir /opt/fairy\n  \
chess960 engine add Stockfish --cmd /opt/sf/stockfish --replace"
)]
pub struct AddArgs {
    /// The engine's name: 1 to 40 letters, digits, spaces and -_.()+.
    pub name: String,
    /// The program to start: a path, or a name looked up in PATH.
    #[arg(long = "cmd", value_name = "PROGRAM")]
    pub cmd: String,
    /// An argument of the program (once for each, in order; may begin with '-').
    #[arg(long = "arg", value_name = "ARG", allow_hyphen_values = true)]
    pub args: Vec<String>,
    /// The directory to start the engine in (default: the server's).
    #[arg(long, value_name = "DIR")]
    pub dir: Option<String>,
    /// The protocol the engine speaks.
    #[arg(long, value_name = "PROTOCOL", default_value = "uci", value_parser = ["uci", "xboard"])]
    pub protocol: String,
    /// An engine option to set, NAME=VALUE (once for each, in order).
    #[arg(long = "option", value_name = "NAME=VALUE", allow_hyphen_values = true)]
    pub options: Vec<String>,
    /// Replace the engine registered under this name, if there is one.
    #[arg(long)]
    pub replace: bool,
}

/// `engine list`.
#[derive(Debug, Args)]
#[command(
    about = "List the registered engines: name, protocol, command",
    long_about = "List the registered engines by name, one a line: name, protocol, the command \
with its arguments, and how many options are set.",
    after_help = "Examples:\n  chess960 engine list\n  chess960 engine list --json"
)]
pub struct ListArgs {
    /// One JSON array of engines, each as 'engine show --json' writes it.
    #[arg(long)]
    pub json: bool,
}

/// `engine show`.
#[derive(Debug, Args)]
#[command(
    about = "Show one engine: command, arguments, directory, protocol, options",
    long_about = "Show everything registered for one engine: its command, arguments, working \
directory, protocol, options and when it was registered.",
    after_help = "Examples:\n  chess960 engine show Stockfish\n  chess960 engine show stockfish --json"
)]
pub struct ShowArgs {
    /// The engine's name (whatever its case).
    pub name: String,
    /// One JSON object: {name, command, args, dir, protocol, options: [{name, value}],
    /// added_ms} (Unix milliseconds).
    #[arg(long)]
    pub json: bool,
}

/// `engine remove`.
#[derive(Debug, Args)]
#[command(
    about = "Remove an engine from the registry",
    long_about = "Remove an engine from the registry. Games it played stay in the database.",
    after_help = "Example:\n  chess960 engine remove Stockfish"
)]
pub struct RemoveArgs {
    /// The engine's name (whatever its case).
    pub name: String,
}

/// `engine check`.
#[derive(Debug, Args)]
#[command(
    about = "Start an engine and report its handshake: name, author, options",
    long_about = "Start a registered engine as a match would (its program, arguments, directory \
and protocol), do the protocol's handshake with the registered options, and report the name \
and author it gives, the options it offers, and which registered options it does not know \
(those would not be set). The engine is then told to quit.\n\n\
Exits with 1 and says why when the engine cannot be started, exits, or does not answer the \
handshake within --timeout seconds.",
    after_help = "Examples:\n  chess960 engine check Stockfish\n  chess960 engine check Stockfish --timeout 30"
)]
pub struct CheckArgs {
    /// The engine's name (whatever its case).
    pub name: String,
    /// Seconds to wait for each answer of the handshake.
    #[arg(long, value_name = "SECONDS", default_value_t = CHECK_TIMEOUT_S,
          value_parser = clap::value_parser!(u64).range(1..=600))]
    pub timeout: u64,
}

/// How a run of `engine` ends: the text to print, or an error and its exit status.
enum Failure {
    /// Bad usage, a refused change, a database error: exit 2.
    Usage(CliError),
    /// `engine check` found the engine does not work: exit 1.
    Check(CliError),
}

impl From<CliError> for Failure {
    fn from(e: CliError) -> Self {
        Failure::Usage(e)
    }
}

/// Runs `chess960 engine` and prints its output; the exit status.
pub fn main(args: &EngineArgs) -> ExitCode {
    let result = run(args);
    match result {
        Ok(text) => {
            let mut out = std::io::stdout().lock();
            match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
                Err(e) => {
                    eprintln!("chess960: cannot write the output: {e}");
                    ExitCode::from(2)
                }
            }
        }
        Err(Failure::Usage(e)) => {
            eprintln!("chess960: {e}");
            ExitCode::from(2)
        }
        Err(Failure::Check(e)) => {
            eprintln!("chess960: {e}");
            ExitCode::from(1)
        }
    }
}

fn run(args: &EngineArgs) -> Result<String, Failure> {
    let db = args.db.as_deref();
    match &args.command {
        EngineCommand::Add(a) => {
            // Checked before the database is opened: a mistake costs nothing.
            let engine = registered(a)?;
            Ok(add(&open(db)?, &engine, a.replace)?)
        }
        EngineCommand::List(a) => Ok(list(&open(db)?, a.json)?),
        EngineCommand::Show(a) => Ok(show(&open(db)?, &a.name, a.json)?),
        EngineCommand::Remove(a) => {
            let store = open(db)?;
            let engine = find(&store, &a.name)?;
            store
                .engines()
                .remove_engine(&engine.name)
                .map_err(engine_err)?;
            Ok(format!("removed engine {}\n", quote(&engine.name)))
        }
        EngineCommand::Check(a) => {
            let engine = find(&open(db)?, &a.name)?;
            check(&engine, Duration::from_secs(a.timeout)).map_err(Failure::Check)
        }
    }
}

/// The game database, which keeps the engines.
struct Db(Box<dyn GameStore>);

impl Db {
    fn engines(&self) -> &dyn EngineStore {
        self.0
            .engine_store()
            .expect("open() checked that the database keeps engines")
    }
}

fn open(db: Option<&Path>) -> CliResult<Db> {
    let store = chess960_store::open(db).map_err(|e| CliError::new(e.to_string()))?;
    if store.engine_store().is_none() {
        return Err(CliError::new(format!(
            "the database {} keeps no engines",
            store.describe()
        )));
    }
    Ok(Db(store))
}

fn engine_err(e: EngineError) -> CliError {
    CliError::new(e.to_string())
}

/// The engine of this name, or `no engine named NAME`.
fn find(store: &Db, name: &str) -> CliResult<RegisteredEngine> {
    store
        .engines()
        .engine(name)
        .map_err(engine_err)?
        .ok_or_else(|| engine_err(EngineError::NoSuchEngine(name.to_string())))
}

/// Now, in Unix milliseconds.
fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
}

/// The engine `engine add` describes, checked.
fn registered(a: &AddArgs) -> CliResult<RegisteredEngine> {
    let options = (a.options.iter())
        .map(|o| match o.split_once('=') {
            Some((name, value)) => Ok((name.to_string(), value.to_string())),
            None => Err(CliError::new(format!(
                "--option '{}': expected NAME=VALUE (e.g. --option Hash=64)",
                quote(o)
            ))),
        })
        .collect::<CliResult<Vec<_>>>()?;
    let engine = RegisteredEngine {
        name: a.name.clone(),
        command: a.cmd.clone(),
        args: a.args.clone(),
        dir: a.dir.clone(),
        protocol: EngineProtocol::parse(&a.protocol).unwrap_or_default(),
        options,
        added_ms: now_ms(),
    };
    engine.check().map_err(engine_err)?;
    Ok(engine)
}

fn add(store: &Db, engine: &RegisteredEngine, replace: bool) -> CliResult<String> {
    let engines = store.engines();
    let replaced = match engines.add_engine(engine) {
        Ok(()) => false,
        Err(EngineError::NameTaken(_)) if replace => {
            engines.update_engine(engine).map_err(engine_err)?;
            true
        }
        Err(e @ EngineError::NameTaken(_)) => {
            return Err(CliError::new(format!("{e}; --replace replaces it")))
        }
        Err(e) => return Err(engine_err(e)),
    };
    Ok(format!(
        "{} engine {} ({}): {}\n",
        if replaced { "replaced" } else { "registered" },
        quote(&engine.name),
        engine.protocol,
        command_line(engine)
    ))
}

/// A word for the terminal: quoted in single quotes when it has anything a shell would read
/// otherwise, control characters escaped.
fn shell_word(w: &str) -> String {
    let plain = !w.is_empty()
        && w.chars()
            .all(|c| c.is_alphanumeric() || "-_./=:+,@%".contains(c));
    if plain {
        quote(w)
    } else {
        format!("'{}'", quote(&w.replace('\'', "'\\''")))
    }
}

/// The command and its arguments, as a shell would take them.
fn command_line(e: &RegisteredEngine) -> String {
    std::iter::once(&e.command)
        .chain(&e.args)
        .map(|w| shell_word(w))
        .collect::<Vec<_>>()
        .join(" ")
}

/// An engine as JSON.
fn to_json(e: &RegisteredEngine) -> serde_json::Value {
    json!({
        "name": e.name,
        "command": e.command,
        "args": e.args,
        "dir": e.dir,
        "protocol": e.protocol.as_str(),
        "options": e.options.iter()
            .map(|(name, value)| json!({"name": name, "value": value}))
            .collect::<Vec<_>>(),
        "added_ms": e.added_ms,
    })
}

fn list(store: &Db, as_json: bool) -> CliResult<String> {
    let engines = store.engines().engines().map_err(engine_err)?;
    if as_json {
        return json_line(&engines.iter().map(to_json).collect::<Vec<_>>());
    }
    if engines.is_empty() {
        return Ok("no engines registered ('chess960 engine add --help' says how)\n".into());
    }
    let width = (engines.iter())
        .map(|e| quote(&e.name).chars().count())
        .max()
        .unwrap_or(0);
    let mut out = String::new();
    for e in &engines {
        let options = match e.options.len() {
            0 => String::new(),
            1 => ", 1 option".into(),
            n => format!(", {n} options"),
        };
        let _ = writeln!(
            out,
            "{:<width$}  {:<6}  {}{options}",
            quote(&e.name),
            e.protocol.as_str(),
            command_line(e)
        );
    }
    Ok(out)
}

fn show(store: &Db, name: &str, as_json: bool) -> CliResult<String> {
    let e = find(store, name)?;
    if as_json {
        return json_line(&to_json(&e));
    }
    let mut out = String::new();
    let _ = writeln!(out, "name:      {}", quote(&e.name));
    let _ = writeln!(out, "protocol:  {}", e.protocol);
    let _ = writeln!(out, "command:   {}", shell_word(&e.command));
    let args = e.args.iter().map(|a| shell_word(a)).collect::<Vec<_>>();
    let _ = writeln!(
        out,
        "arguments: {}",
        if args.is_empty() {
            "(none)".to_string()
        } else {
            args.join(" ")
        }
    );
    let _ = writeln!(
        out,
        "directory: {}",
        e.dir
            .as_deref()
            .map_or("(the server's working directory)".to_string(), shell_word)
    );
    if e.options.is_empty() {
        let _ = writeln!(out, "options:   (none)");
    }
    for (i, (k, v)) in e.options.iter().enumerate() {
        let head = if i == 0 { "options:  " } else { "          " };
        let _ = writeln!(out, "{head} {}={}", quote(k), quote(v));
    }
    let _ = writeln!(
        out,
        "added:     {} UTC",
        chess960_pgn::date::from_unix_ms(e.added_ms).replace('.', "-")
    );
    Ok(out)
}

/// Starts the engine, reports its handshake, and tells it to quit.
fn check(e: &RegisteredEngine, timeout: Duration) -> CliResult<String> {
    let config = engine_config(e, timeout);
    let stop = AtomicBool::new(false);
    let began = Instant::now();
    let mut engine = Engine::start(&config, None, &stop).map_err(|f| {
        CliError::new(format!(
            "engine {} ({} {}) failed the check: it {f}",
            quote(&e.name),
            e.protocol,
            command_line(e)
        ))
    })?;
    let took = began.elapsed();
    let mut out = String::new();
    let _ = writeln!(
        out,
        "engine {} started and answered the {} handshake in {:.2} s",
        quote(&e.name),
        e.protocol,
        took.as_secs_f64()
    );
    let unknown = |what: &str| -> String { format!("({what})") };
    let _ = writeln!(
        out,
        "id name:   {}",
        engine
            .reported_name()
            .map_or_else(|| unknown("not given"), quote)
    );
    let _ = writeln!(
        out,
        "id author: {}",
        match (&engine, engine.reported_author()) {
            (_, Some(a)) => quote(a),
            (Engine::Xboard(_), None) => unknown("xboard engines do not say"),
            (Engine::Uci(_), None) => unknown("not given"),
        }
    );
    // The options it offers: names, with their types where the protocol gives them.
    let offered: Vec<(String, Option<String>)> = match &engine {
        Engine::Uci(u) => (u.options().iter())
            .map(|o| (o.name.clone(), Some(o.kind.clone())))
            .collect(),
        Engine::Xboard(x) => (x.features().options.iter())
            .map(|o| (o.clone(), None))
            .collect(),
    };
    let _ = writeln!(out, "options it offers ({}):", offered.len());
    for (name, kind) in &offered {
        match kind {
            Some(k) => {
                let _ = writeln!(out, "  {} ({})", quote(name), quote(k));
            }
            None => {
                let _ = writeln!(out, "  {}", quote(name));
            }
        }
    }
    // UCI option names are the same whatever their case; xboard's are compared exactly, as
    // the match runner does.
    let knows = |name: &str| {
        offered.iter().any(|(o, _)| match e.protocol {
            EngineProtocol::Uci => o.eq_ignore_ascii_case(name),
            EngineProtocol::Xboard => o == name,
        })
    };
    let mut unknown_count = 0;
    if e.options.is_empty() {
        let _ = writeln!(out, "registered options: none");
    } else {
        let _ = writeln!(out, "registered options ({}):", e.options.len());
        for (k, v) in &e.options {
            let mark = if knows(k) {
                "ok"
            } else {
                unknown_count += 1;
                "UNKNOWN: the engine does not offer this option"
            };
            let _ = writeln!(out, "  {}={}  {mark}", quote(k), quote(v));
        }
    }
    for w in engine.warnings() {
        let _ = writeln!(out, "warning: it {}", quote(w));
    }
    let _ = writeln!(
        out,
        "{}",
        match unknown_count {
            0 => "check passed".to_string(),
            1 => "check passed, but 1 registered option is unknown to the engine".to_string(),
            n => format!("check passed, but {n} registered options are unknown to the engine"),
        }
    );
    engine.quit();
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn command_lines_quote_what_a_shell_would_split() {
        let e = RegisteredEngine {
            name: "SF".into(),
            command: "/usr/games/stockfish".into(),
            args: vec!["--a".into(), "b c".into()],
            dir: Some("/tmp".into()),
            protocol: EngineProtocol::Xboard,
            options: vec![("Hash".into(), "16".into())],
            added_ms: 0,
        };
        assert_eq!(command_line(&e), "/usr/games/stockfish --a 'b c'");
    }
}
