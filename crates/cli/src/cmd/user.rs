//! `chess960 user`: players' accounts for the server's owner, on the terminal. The accounts
//! live in the game database (the same one as `chess960 db` and `chess960 event`), behind
//! `chess960_store::PlayerStore`; names, passwords and invitation codes are checked and made
//! by `chess960-players`. Passwords are read from standard input (without echo on a
//! terminal) and never printed; neither is any password's hash.

use crate::cmd::json_line;
use crate::error::{quote, CliError, CliResult};
use chess960_players::name::UserName;
use chess960_players::password::NewPassword;
use chess960_players::token;
use chess960_store::{GameStore, NewUser, PlayerStore, StoreError, User};
use clap::{Args, Subcommand};
use serde_json::json;
use std::fmt::Write as _;
use std::io::{BufRead, IsTerminal, Write};
use std::path::{Path, PathBuf};

/// The days an invitation is valid by default, and the most it may be.
const INVITE_DAYS: (u32, u32) = (7, 365);
const DAY_MS: i64 = 86_400_000;

/// Arguments of `chess960 user`.
#[derive(Debug, Args)]
#[command(
    about = "Players' accounts on the server: add users, invite people, list, disable, set passwords",
    long_about = "Manage the players' accounts that the web server's logins use: add a user \
(the server's admin with --admin), make an invitation code for someone to register with on a \
server that asks for one, list the users, disable a user (who can no longer log in, and whose \
sessions end) or enable them again, and set a user's password (ending their sessions).\n\n\
The accounts are kept in the game database (see 'chess960 db --help' for where it is). Users \
are never deleted, only disabled: their games name them. A name has 2 to 20 letters, digits, \
_ or - and is the same whatever its case. A password has at least 8 characters, is not the \
user's name and not one of the most common passwords; it is read from standard input (typed \
twice without echo on a terminal, else the first line) and kept only as its Argon2id hash.",
    after_help = "Examples:\n  \
chess960 user add Ann --admin          # asks for Ann's password, twice\n  \
echo 'a long passphrase' | chess960 user add Bob\n  \
chess960 user invite --days 3          # a code to pass on; shown only this once\n  \
chess960 user list\n  \
chess960 user disable Bob              # ends Bob's sessions; 'enable' lets him in again\n  \
chess960 user password Ann             # a new password; ends every session of Ann's"
)]
pub struct UserArgs {
    /// The game database: a SQLite file, created when it does not exist, or a PostgreSQL
    /// database, postgres://user@host/dbname (default: $CHESS960_DB, else games.sqlite3 in
    /// the user's data directory, ~/.local/share/chess960/ on Linux).
    #[arg(long, value_name = "PATH|URL", global = true)]
    pub db: Option<PathBuf>,
    #[command(subcommand)]
    pub command: UserCommand,
}

/// The `user` subcommands.
#[derive(Debug, Subcommand)]
pub enum UserCommand {
    Add(AddArgs),
    Invite(InviteArgs),
    List(ListArgs),
    Disable(DisableArgs),
    Enable(EnableArgs),
    Password(PasswordArgs),
}

/// `user add`.
#[derive(Debug, Args)]
#[command(
    about = "Register a user; the password is read from standard input",
    long_about = "Register a user. The password is read from standard input: on a terminal \
it is asked for on standard error and typed twice without echo; otherwise the first line is \
the password (its line break is not part of it). It must have at least 8 characters, not be \
the user's name and not be one of the most common passwords. A name already taken (whatever \
its case) is refused."
)]
pub struct AddArgs {
    /// The user's name: 2 to 20 letters, digits, _ or -, kept as written.
    pub name: String,
    /// The server's admin.
    #[arg(long)]
    pub admin: bool,
}

/// `user invite`.
#[derive(Debug, Args)]
#[command(
    about = "Make an invitation code: one person may register with it",
    long_about = "Make an invitation code, for a server that asks for one to register (a server \
open to other machines does by default). The code lets one person register, once, until it \
expires. It is printed only this once: the database keeps only its SHA-256, so a lost code \
cannot be shown again (make another)."
)]
pub struct InviteArgs {
    /// Days the code is valid (1 to 365).
    #[arg(long, value_name = "N", default_value_t = INVITE_DAYS.0)]
    pub days: u32,
}

/// `user list`.
#[derive(Debug, Args)]
#[command(
    about = "List the users: id, name, admin, disabled, registration date",
    long_about = "List the users in the order they registered, one a line: id, name, admin or \
player, disabled or active, and the date of registration (YYYY-MM-DD, UTC). No password or \
hash is ever shown."
)]
pub struct ListArgs {
    /// One JSON array of {id, name, admin, disabled, created_ms} (Unix milliseconds).
    #[arg(long)]
    pub json: bool,
}

/// `user disable`.
#[derive(Debug, Args)]
#[command(
    about = "Disable a user: no more logins, and their sessions end",
    long_about = "Disable a user: they can no longer log in, and every session of theirs ends \
at once (the command says how many). Their account and games stay; 'chess960 user enable' \
lets them in again."
)]
pub struct DisableArgs {
    /// The user's name (whatever its case).
    pub name: String,
}

/// `user enable`.
#[derive(Debug, Args)]
#[command(
    about = "Enable a disabled user again",
    long_about = "Enable a disabled user again: they can log in with their password as before."
)]
pub struct EnableArgs {
    /// The user's name (whatever its case).
    pub name: String,
}

/// `user password`.
#[derive(Debug, Args)]
#[command(
    about = "Set a user's password, ending all their sessions",
    long_about = "Set a new password for a user, read as 'chess960 user add' reads it (typed \
twice without echo on a terminal, else the first line of standard input). Every session of the \
user ends (the command says how many): they log in again with the new password."
)]
pub struct PasswordArgs {
    /// The user's name (whatever its case).
    pub name: String,
}

/// The game database, which keeps players' accounts.
struct Db(Box<dyn GameStore>);

impl Db {
    /// The accounts (`open` made sure the database keeps them).
    fn players(&self) -> &dyn PlayerStore {
        self.0
            .player_store()
            .expect("open() checked that the database keeps players' accounts")
    }
}

fn open(db: Option<&Path>) -> CliResult<Db> {
    let store = chess960_store::open(db).map_err(store_err)?;
    if store.player_store().is_none() {
        return Err(CliError::new(format!(
            "the database {} keeps no players' accounts",
            store.describe()
        )));
    }
    Ok(Db(store))
}

fn store_err(e: StoreError) -> CliError {
    CliError::new(e.to_string())
}

/// Now, in Unix milliseconds.
fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
}

/// The UTC date of a Unix time in milliseconds, YYYY-MM-DD.
fn date(ms: i64) -> String {
    chess960_pgn::date::from_unix_ms(ms).replace('.', "-")
}

/// `1 session` or `3 sessions`.
fn sessions(n: u64) -> String {
    if n == 1 {
        "1 session".to_string()
    } else {
        format!("{n} sessions")
    }
}

/// The user of this name, or `no user NAME`.
fn find(store: &Db, name: &str) -> CliResult<User> {
    store
        .players()
        .user_by_name(name)
        .map_err(store_err)?
        .ok_or_else(|| CliError::new(format!("no user {}", quote(name.trim()))))
}

/// Reads a new password for `user` from standard input and checks it: on a terminal, asked
/// for on standard error without echo, then again to confirm; otherwise the first line.
fn read_new_password(user: &UserName) -> CliResult<NewPassword> {
    let stdin = std::io::stdin();
    if stdin.is_terminal() {
        let first = prompt(&format!("Password for {user}: "))?;
        // Refused before it is typed again.
        let password =
            NewPassword::check(&first, user).map_err(|e| CliError::new(e.to_string()))?;
        let again = prompt(&format!("Password for {user} (again): "))?;
        if again != first {
            return Err(CliError::new(
                "the two passwords differ; nothing was changed",
            ));
        }
        return Ok(password);
    }
    let text = first_line()?;
    NewPassword::check(&text, user).map_err(|e| CliError::new(e.to_string()))
}

/// The first line of standard input (a password given by a script), without its line break.
pub(crate) fn first_line() -> CliResult<String> {
    let mut line = String::new();
    let n = std::io::stdin()
        .lock()
        .read_line(&mut line)
        .map_err(|e| CliError::new(format!("cannot read the password from standard input: {e}")))?;
    if n == 0 {
        return Err(CliError::new(
            "no password on standard input (type it on a terminal, or give it as one line)",
        ));
    }
    let text = line
        .strip_suffix('\n')
        .map(|l| l.strip_suffix('\r').unwrap_or(l))
        .unwrap_or(&line);
    Ok(text.to_string())
}

/// Prints `text` on standard error and reads a line from the terminal without echo.
pub(crate) fn prompt(text: &str) -> CliResult<String> {
    let mut err = std::io::stderr().lock();
    let _ = err.write_all(text.as_bytes());
    let _ = err.flush();
    drop(err);
    rpassword::read_password()
        .map_err(|e| CliError::new(format!("cannot read the password from the terminal: {e}")))
}

fn hash(password: &NewPassword) -> CliResult<chess960_players::password::StoredHash> {
    password.hash().map_err(|e| CliError::new(e.to_string()))
}

fn add(store: &Db, a: &AddArgs) -> CliResult<String> {
    let name: UserName = a
        .name
        .parse()
        .map_err(|e| CliError::new(format!("invalid user name '{}': {e}", quote(a.name.trim()))))?;
    // Users are never deleted: a name taken now is taken when the user would be written,
    // so say so before asking for a password. The store says it again for a race.
    if let Some(taken) = store
        .players()
        .user_by_name(name.as_str())
        .map_err(store_err)?
    {
        return Err(CliError::new(format!(
            "the name {} is taken (names are the same whatever their case)",
            taken.name
        )));
    }
    let password = read_new_password(&name)?;
    let hash = hash(&password)?;
    let user = store
        .players()
        .create_user(
            &NewUser {
                name: &name,
                password: &hash,
                admin: a.admin,
                invite: None,
            },
            now_ms(),
        )
        .map_err(store_err)?;
    let admin = if user.admin { ", admin" } else { "" };
    Ok(format!(
        "user {} added (id {}{admin})\n",
        user.name, user.id
    ))
}

fn invite(store: &Db, a: &InviteArgs) -> CliResult<String> {
    let (_, most) = INVITE_DAYS;
    if !(1..=most).contains(&a.days) {
        return Err(CliError::new(format!(
            "invalid --days {}: expected 1 to {most}",
            a.days
        )));
    }
    let code = token::new_invite_code()
        .map_err(|e| CliError::new(format!("no random numbers for an invitation code: {e}")))?;
    let now = now_ms();
    let expires = now + i64::from(a.days) * DAY_MS;
    store
        .players()
        .create_invite(&token::hash(&code), now, expires)
        .map_err(store_err)?;
    let days = if a.days == 1 {
        "1 day".to_string()
    } else {
        format!("{} days", a.days)
    };
    Ok(format!(
        "invitation code: {code}\n\
         valid for {days} (until {} UTC), for one registration\n\
         this code is shown only this once: the database keeps only its hash\n",
        time_of_day(expires)
    ))
}

/// `YYYY-MM-DD HH:MM` (UTC) of a Unix time in milliseconds.
fn time_of_day(ms: i64) -> String {
    let minutes = ms.rem_euclid(DAY_MS) / 60_000;
    format!("{} {:02}:{:02}", date(ms), minutes / 60, minutes % 60)
}

fn list(store: &Db, a: &ListArgs) -> CliResult<String> {
    let users = store.players().users().map_err(store_err)?;
    if a.json {
        let v: Vec<_> = users
            .iter()
            .map(|u| {
                json!({"id": u.id.0, "name": u.name.as_str(), "admin": u.admin,
                       "disabled": u.disabled, "created_ms": u.created_ms})
            })
            .collect();
        return json_line(&v);
    }
    if users.is_empty() {
        return Ok("no users yet (chess960 user add --help)\n".into());
    }
    let mut out = String::new();
    for u in users {
        let _ = writeln!(
            out,
            "{:>4}  {:<20}  {:<6}  {:<8}  {}",
            u.id,
            u.name,
            if u.admin { "admin" } else { "player" },
            if u.disabled { "disabled" } else { "active" },
            date(u.created_ms)
        );
    }
    Ok(out)
}

fn set_disabled(store: &Db, name: &str, disabled: bool) -> CliResult<String> {
    let user = find(store, name)?;
    if user.disabled == disabled {
        let state = if disabled { "disabled" } else { "enabled" };
        return Ok(format!("user {} is already {state}\n", user.name));
    }
    // The store ends them in the same transaction, without counting: count them first.
    let ended = store.players().sessions(user.id).map_err(store_err)?.len() as u64;
    store
        .players()
        .set_disabled(user.id, disabled)
        .map_err(store_err)?;
    Ok(if disabled {
        format!("user {} disabled ({} ended)\n", user.name, sessions(ended))
    } else {
        format!("user {} enabled\n", user.name)
    })
}

fn password(store: &Db, a: &PasswordArgs) -> CliResult<String> {
    let user = find(store, &a.name)?;
    let password = read_new_password(&user.name)?;
    let hash = hash(&password)?;
    store
        .players()
        .set_password(user.id, &hash)
        .map_err(store_err)?;
    let ended = store
        .players()
        .end_sessions(user.id, None)
        .map_err(store_err)?;
    Ok(format!(
        "password of {} changed ({} ended)\n",
        user.name,
        sessions(ended)
    ))
}

/// Runs `chess960 user`.
pub fn run(args: &UserArgs) -> CliResult<String> {
    let store = open(args.db.as_deref())?;
    match &args.command {
        UserCommand::Add(a) => add(&store, a),
        UserCommand::Invite(a) => invite(&store, a),
        UserCommand::List(a) => list(&store, a),
        UserCommand::Disable(a) => set_disabled(&store, &a.name, true),
        UserCommand::Enable(a) => set_disabled(&store, &a.name, false),
        UserCommand::Password(a) => password(&store, a),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_are_utc() {
        assert_eq!(date(0), "1970-01-01");
        assert_eq!(
            time_of_day(951_782_400_000 + 13 * 3_600_000 + 5 * 60_000),
            "2000-02-29 13:05"
        );
        assert_eq!(sessions(1), "1 session");
        assert_eq!(sessions(0), "0 sessions");
    }
}
