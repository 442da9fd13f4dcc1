//! The registry of UCI and xboard engines that the server's owner allows the server to run
//! (engine events): each engine by a name, unique whatever its case, with the program to
//! start, its arguments, working directory, protocol and the options to set.
//!
//! Only the owner registers engines, with `chess960 engine` on the server's database: a
//! command is a program the server will run, so nothing of this registry is ever accepted
//! from, or shown to, the HTTP API. Everything is checked here ([`RegisteredEngine::check`])
//! before it is written, whoever calls, so that a bad row cannot come from any caller.
//!
//! The rows are written once, for every backend, over the statements of [`crate::sql`].

use crate::backend::{Backend, R};
use crate::sql::{Arg, Cells, Tx};
use crate::StoreError;
use std::fmt;

/// The most characters of an engine's name.
pub const MAX_NAME_CHARS: usize = 40;
/// The most options an engine may have registered.
pub const MAX_OPTIONS: usize = 64;
/// The most characters of an option's name.
pub const MAX_OPTION_NAME_CHARS: usize = 100;
/// The most characters of an option's value.
pub const MAX_OPTION_VALUE_CHARS: usize = 1000;
/// The most arguments of the command.
pub const MAX_ARGS: usize = 64;
/// The most characters of the command, of one argument and of the working directory.
pub const MAX_PATH_CHARS: usize = 4096;

/// The protocol an engine speaks.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum EngineProtocol {
    /// The Universal Chess Interface.
    #[default]
    Uci,
    /// The Chess Engine Communication Protocol (xboard/WinBoard), version 2.
    Xboard,
}

impl EngineProtocol {
    /// `uci` or `xboard`, as stored and as the command line writes it.
    pub fn as_str(self) -> &'static str {
        match self {
            EngineProtocol::Uci => "uci",
            EngineProtocol::Xboard => "xboard",
        }
    }

    /// `uci` or `xboard`, whatever their case.
    pub fn parse(s: &str) -> Option<EngineProtocol> {
        match s.trim().to_ascii_lowercase().as_str() {
            "uci" => Some(EngineProtocol::Uci),
            "xboard" => Some(EngineProtocol::Xboard),
            _ => None,
        }
    }
}

impl fmt::Display for EngineProtocol {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// An engine the server may run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RegisteredEngine {
    /// Its name, as its owner wrote it: 1 to 40 letters, digits, spaces and `-_.()+`, not
    /// beginning or ending with a space; unique whatever its case.
    pub name: String,
    /// The program (a path, or a name looked up in `PATH`).
    pub command: String,
    /// Its arguments, in order.
    pub args: Vec<String>,
    /// The working directory to start it in; `None`: the server's.
    pub dir: Option<String>,
    /// The protocol it speaks.
    pub protocol: EngineProtocol,
    /// The engine options to set after the handshake, `(name, value)`, in order.
    pub options: Vec<(String, String)>,
    /// When it was registered (or last replaced), Unix milliseconds.
    pub added_ms: i64,
}

/// What is wrong with an engine, or why the registry refused a change.
#[derive(Clone, Debug)]
pub enum EngineError {
    /// The name breaks the rules ([`RegisteredEngine::name`]); the text says how.
    BadName(String),
    /// The command is empty, too long or has control characters; the text says which.
    BadCommand(String),
    /// An argument or the working directory is not acceptable; the text says which.
    BadArgument(String),
    /// An option is not acceptable (name, value, duplicate, too many); the text says which.
    BadOption(String),
    /// Another engine has this name (whatever its case): the one registered.
    NameTaken(String),
    /// No engine of this name.
    NoSuchEngine(String),
    /// The database failed.
    Store(StoreError),
}

impl fmt::Display for EngineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EngineError::BadName(why) => write!(f, "bad engine name: {why}"),
            EngineError::BadCommand(why) => write!(f, "bad engine command: {why}"),
            EngineError::BadArgument(why) => write!(f, "bad engine argument: {why}"),
            EngineError::BadOption(why) => write!(f, "bad engine option: {why}"),
            EngineError::NameTaken(name) => write!(
                f,
                "an engine named '{}' is already registered (names are the same whatever \
                 their case)",
                escaped(name)
            ),
            EngineError::NoSuchEngine(name) => write!(f, "no engine named '{}'", escaped(name)),
            EngineError::Store(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for EngineError {}

impl From<StoreError> for EngineError {
    fn from(e: StoreError) -> Self {
        EngineError::Store(e)
    }
}

/// `s` with control characters escaped, for messages.
fn escaped(s: &str) -> String {
    s.chars()
        .flat_map(|c| {
            let e: Vec<char> = if c.is_control() {
                c.escape_default().collect()
            } else {
                vec![c]
            };
            e
        })
        .collect()
}

/// The key that makes names unique whatever their case.
pub fn name_key(name: &str) -> String {
    name.to_lowercase()
}

/// Checks an engine's name: 1 to [`MAX_NAME_CHARS`] letters, digits, spaces and `-_.()+`,
/// not beginning or ending with a space.
pub fn check_name(name: &str) -> Result<(), EngineError> {
    let bad = |why: String| Err(EngineError::BadName(why));
    let n = name.chars().count();
    if n == 0 {
        return bad("it is empty".into());
    }
    if n > MAX_NAME_CHARS {
        return bad(format!(
            "'{}' has {n} characters, more than {MAX_NAME_CHARS}",
            escaped(name)
        ));
    }
    if let Some(c) = name
        .chars()
        .find(|&c| !(c.is_alphabetic() || c.is_ascii_digit() || " -_.()+".contains(c)))
    {
        return bad(format!(
            "'{}' has the character '{}': a name has only letters, digits, spaces and -_.()+",
            escaped(name),
            c.escape_default()
        ));
    }
    if name.starts_with(' ') || name.ends_with(' ') {
        return bad(format!("'{}' begins or ends with a space", escaped(name)));
    }
    Ok(())
}

/// Text of at most `max` characters without control characters; else why not.
fn plain(text: &str, max: usize) -> Result<(), String> {
    let n = text.chars().count();
    if n > max {
        return Err(format!("it has {n} characters, more than {max}"));
    }
    if let Some(c) = text.chars().find(|c| c.is_control()) {
        return Err(format!(
            "it has the control character '{}'",
            c.escape_default()
        ));
    }
    Ok(())
}

impl RegisteredEngine {
    /// Checks everything the registry keeps: the name ([`check_name`]); a command that is
    /// not empty; at most [`MAX_ARGS`] arguments; a working directory that is not empty when
    /// given; at most [`MAX_OPTIONS`] options with names of 1 to [`MAX_OPTION_NAME_CHARS`]
    /// characters (no `=`, no space at either end, each once whatever its case) and values of
    /// at most [`MAX_OPTION_VALUE_CHARS`]; no control character anywhere.
    pub fn check(&self) -> Result<(), EngineError> {
        check_name(&self.name)?;
        if self.command.trim().is_empty() {
            return Err(EngineError::BadCommand("it is empty".into()));
        }
        plain(&self.command, MAX_PATH_CHARS).map_err(EngineError::BadCommand)?;
        if self.args.len() > MAX_ARGS {
            return Err(EngineError::BadArgument(format!(
                "{} arguments, more than {MAX_ARGS}",
                self.args.len()
            )));
        }
        for (i, a) in self.args.iter().enumerate() {
            plain(a, MAX_PATH_CHARS)
                .map_err(|why| EngineError::BadArgument(format!("argument {}: {why}", i + 1)))?;
        }
        if let Some(dir) = &self.dir {
            if dir.trim().is_empty() {
                return Err(EngineError::BadArgument(
                    "the working directory is empty".into(),
                ));
            }
            plain(dir, MAX_PATH_CHARS)
                .map_err(|why| EngineError::BadArgument(format!("the working directory: {why}")))?;
        }
        if self.options.len() > MAX_OPTIONS {
            return Err(EngineError::BadOption(format!(
                "{} options, more than {MAX_OPTIONS}",
                self.options.len()
            )));
        }
        let mut seen: Vec<String> = Vec::new();
        for (name, value) in &self.options {
            let bad = |why: String| EngineError::BadOption(format!("'{}': {why}", escaped(name)));
            if name.trim().is_empty() {
                return Err(EngineError::BadOption("an option has no name".into()));
            }
            plain(name, MAX_OPTION_NAME_CHARS).map_err(|why| bad(format!("its name: {why}")))?;
            if name.contains('=') {
                return Err(bad("an option's name has no '='".into()));
            }
            if name.trim() != name {
                return Err(bad("its name begins or ends with white space".into()));
            }
            plain(value, MAX_OPTION_VALUE_CHARS).map_err(|why| bad(format!("its value: {why}")))?;
            let key = name.to_lowercase();
            if seen.contains(&key) {
                return Err(bad("given twice".into()));
            }
            seen.push(key);
        }
        Ok(())
    }
}

/// Where the engines the server may run are kept.
pub trait EngineStore: Send + Sync {
    /// Registers `engine` (checked first, [`RegisteredEngine::check`]); `NameTaken` when an
    /// engine of that name, whatever its case, is registered already.
    fn add_engine(&self, engine: &RegisteredEngine) -> Result<(), EngineError>;

    /// Replaces the engine registered under `engine.name` (whatever its case) with `engine`,
    /// name spelling included; `NoSuchEngine` when there is none.
    fn update_engine(&self, engine: &RegisteredEngine) -> Result<(), EngineError>;

    /// The engine of this name, whatever its case.
    fn engine(&self, name: &str) -> Result<Option<RegisteredEngine>, EngineError>;

    /// Every engine, by name (whatever its case).
    fn engines(&self) -> Result<Vec<RegisteredEngine>, EngineError>;

    /// Removes the engine of this name, whatever its case; `NoSuchEngine` when there is none.
    fn remove_engine(&self, name: &str) -> Result<(), EngineError>;
}

/// The columns of an engine's row, in the order [`engine_of`] reads them.
const COLUMNS: &str = "name, command, args, dir, protocol, options, added_ms";

/// An engine's row as written: its name key, and its JSON columns: its arguments (an array
/// of strings) and options (an array of `[name, value]` pairs).
struct Row<'a> {
    e: &'a RegisteredEngine,
    key: String,
    args: String,
    options: String,
}

impl<'a> Row<'a> {
    fn of(e: &'a RegisteredEngine) -> R<Row<'a>> {
        let err = |x: serde_json::Error| StoreError::Backend(format!("engine to JSON: {x}"));
        Ok(Row {
            e,
            key: name_key(&e.name),
            args: serde_json::to_string(&e.args).map_err(err)?,
            options: serde_json::to_string(&e.options).map_err(err)?,
        })
    }

    /// `$1`…`$8`: name, name key, command, arguments, folder, protocol, options, added.
    fn params(&self) -> [Arg<'_>; 8] {
        [
            self.e.name.as_str().into(),
            self.key.as_str().into(),
            self.e.command.as_str().into(),
            self.args.as_str().into(),
            self.e.dir.as_deref().into(),
            self.e.protocol.as_str().into(),
            self.options.as_str().into(),
            self.e.added_ms.into(),
        ]
    }
}

/// An engine from its row ([`COLUMNS`]).
fn engine_of(r: &mut Cells) -> R<RegisteredEngine> {
    let name = r.text(0)?;
    let corrupt = |what: &str, x: &dyn fmt::Display| StoreError::Corrupt {
        detail: format!("engine '{name}': {what}: {x}"),
    };
    let args: Vec<String> =
        serde_json::from_str(&r.text(2)?).map_err(|x| corrupt("arguments", &x))?;
    let options: Vec<(String, String)> =
        serde_json::from_str(&r.text(5)?).map_err(|x| corrupt("options", &x))?;
    let proto = r.text(4)?;
    let protocol = EngineProtocol::parse(&proto).ok_or_else(|| corrupt("protocol", &proto))?;
    Ok(RegisteredEngine {
        command: r.text(1)?,
        args,
        dir: r.opt_text(3)?,
        protocol,
        options,
        added_ms: r.int(6)?,
        name,
    })
}

/// The engines `WHERE …` picks, by name.
fn engines_where(tx: &mut dyn Tx, cond: &str, args: &[Arg<'_>]) -> R<Vec<RegisteredEngine>> {
    let sql = format!("SELECT {COLUMNS} FROM engines {cond} ORDER BY name_key");
    let rows = tx.query(&sql, args)?;
    rows.into_iter().map(|mut r| engine_of(&mut r)).collect()
}

impl<B: Backend> EngineStore for B {
    fn add_engine(&self, engine: &RegisteredEngine) -> Result<(), EngineError> {
        engine.check()?;
        let row = Row::of(engine)?;
        // One statement: of two registrations of one name at once, exactly one inserts.
        let inserted = self.write(|tx| {
            tx.exec(
                "INSERT INTO engines (name, name_key, command, args, dir, protocol, options, added_ms)
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
                 ON CONFLICT (name_key) DO NOTHING",
                &row.params(),
            )
        })?;
        if inserted == 0 {
            let taken = self
                .engine(&engine.name)?
                .map_or(engine.name.clone(), |e| e.name);
            return Err(EngineError::NameTaken(taken));
        }
        Ok(())
    }

    fn update_engine(&self, engine: &RegisteredEngine) -> Result<(), EngineError> {
        engine.check()?;
        let row = Row::of(engine)?;
        let changed = self.write(|tx| {
            tx.exec(
                "UPDATE engines SET name = $1, command = $3, args = $4, dir = $5, protocol = $6,
                        options = $7, added_ms = $8
                  WHERE name_key = $2",
                &row.params(),
            )
        })?;
        if changed == 0 {
            return Err(EngineError::NoSuchEngine(engine.name.clone()));
        }
        Ok(())
    }

    fn engine(&self, name: &str) -> Result<Option<RegisteredEngine>, EngineError> {
        let key = name_key(name);
        let mut found =
            self.read(|tx| engines_where(tx, "WHERE name_key = $1", &[key.as_str().into()]))?;
        Ok(found.pop())
    }

    fn engines(&self) -> Result<Vec<RegisteredEngine>, EngineError> {
        Ok(self.read(|tx| engines_where(tx, "", &[]))?)
    }

    fn remove_engine(&self, name: &str) -> Result<(), EngineError> {
        let key = name_key(name);
        let n = self.write(|tx| {
            tx.exec(
                "DELETE FROM engines WHERE name_key = $1",
                &[key.as_str().into()],
            )
        })?;
        if n == 0 {
            return Err(EngineError::NoSuchEngine(name.to_string()));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn engine(name: &str) -> RegisteredEngine {
        RegisteredEngine {
            name: name.into(),
            command: "/usr/games/stockfish".into(),
            args: vec![],
            dir: None,
            protocol: EngineProtocol::Uci,
            options: vec![("Hash".into(), "16".into())],
            added_ms: 0,
        }
    }

    #[test]
    fn names() {
        for ok in [
            "a",
            "Stockfish 17.1",
            "Ethereal-14_(nnue)+x",
            "Schöne",
            &"x".repeat(40),
        ] {
            assert!(check_name(ok).is_ok(), "{ok}");
        }
        for bad in [
            "",
            " a",
            "a ",
            "a/b",
            "a\tb",
            "a\nb",
            "semi;colon",
            &"x".repeat(41),
        ] {
            assert!(
                matches!(check_name(bad), Err(EngineError::BadName(_))),
                "{bad:?}"
            );
        }
    }

    #[test]
    fn checks() {
        assert!(engine("SF").check().is_ok());
        let mut e = engine("SF");
        e.command = " ".into();
        assert!(matches!(e.check(), Err(EngineError::BadCommand(_))));
        let mut e = engine("SF");
        e.options = (0..65).map(|i| (format!("o{i}"), "1".into())).collect();
        assert!(matches!(e.check(), Err(EngineError::BadOption(_))));
        let mut e = engine("SF");
        e.options.push(("hash".into(), "32".into()));
        assert!(matches!(e.check(), Err(EngineError::BadOption(m)) if m.contains("twice")));
        let mut e = engine("SF");
        e.options = vec![("Hash".into(), "1\n2".into())];
        assert!(matches!(e.check(), Err(EngineError::BadOption(_))));
        let mut e = engine("SF");
        e.options = vec![("A=B".into(), "1".into())];
        assert!(matches!(e.check(), Err(EngineError::BadOption(_))));
        let mut e = engine("SF");
        e.dir = Some(String::new());
        assert!(matches!(e.check(), Err(EngineError::BadArgument(_))));
        assert_eq!(
            EngineProtocol::parse("XBoard"),
            Some(EngineProtocol::Xboard)
        );
        assert_eq!(EngineProtocol::parse("cecp"), None);
    }
}
