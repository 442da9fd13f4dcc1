//! `chess960 login URL` and `chess960 logout URL`: a session on a `chess960 serve` server,
//! kept in the config directory (`sessions.json`, readable by this user only; as `seats.json`
//! of `play --join`), so that `play --join` and `play --seek` play as that account: games
//! joined bound to it, rated games, and the account's games continued from any terminal or
//! browser where it is logged in.

use super::join::{config_file, load_object, save_private};
use super::user::{first_line, prompt};
use crate::error::{quote, CliError, CliResult};
use clap::Args;
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::io::IsTerminal;
use std::path::PathBuf;
use std::time::Duration;

/// The session cookie's name (the server's `accounts::COOKIE`).
pub const COOKIE: &str = "chess960_session";
/// How the terminal names itself in the player's list of sessions.
const AGENT: &str = "chess960 login";

/// Arguments of `chess960 login`.
#[derive(Debug, Args)]
#[command(
    about = "Log in to a chess960 server from the terminal, for 'play --join' and 'play --seek'",
    long_about = "Log in to a 'chess960 serve' server with your account there (register in the \
browser, or ask the server's owner: 'chess960 user add'). The session is kept in the config \
directory (sessions.json, readable by you only; $CHESS960_CONFIG_DIR moves it), and 'chess960 \
play --join URL' and 'chess960 play --seek URL' on that server then play as you: the games are \
bound to your account (continue them from any terminal or browser where you are logged in) and \
can be rated. The password is read from standard input: typed without echo on a terminal, \
else the first line. It is never kept; the session is, until 'chess960 logout URL' or until \
it is ended on the account's page.",
    after_help = "Examples:\n  \
chess960 login http://192.168.1.5:8960 --name Ann\n  \
echo 'a long passphrase' | chess960 login http://localhost:8960 --name Ann\n  \
chess960 play --seek http://192.168.1.5:8960 --tc 5+3 --rated\n  \
chess960 logout http://192.168.1.5:8960"
)]
pub struct LoginArgs {
    /// The server: http://HOST:PORT (add ?token=T for a server with an access token).
    #[arg(value_name = "URL")]
    pub url: String,
    /// Your account's name (asked for on a terminal when not given).
    #[arg(long, value_name = "NAME")]
    pub name: Option<String>,
}

/// Arguments of `chess960 logout`.
#[derive(Debug, Args)]
#[command(
    about = "Log out of a chess960 server: the session ends there and is forgotten here",
    long_about = "End the session 'chess960 login URL' kept for this server: the server ends \
it, and it leaves sessions.json. Games go on; log in again to play them as your account."
)]
pub struct LogoutArgs {
    /// The server, as given to 'chess960 login'.
    #[arg(value_name = "URL")]
    pub url: String,
}

/// A server's address from a URL given on the command line: `http(s)://host[:port]`, with its
/// `?token=` (the server's access token) if any. A path after the host is ignored (a game's
/// link names its server too).
pub fn parse_server(url: &str) -> Result<(String, Option<String>), String> {
    let bad = |why: &str| {
        format!(
            "bad server address '{}': {why} (expected e.g. http://192.168.1.5:8960)",
            quote(url)
        )
    };
    let url = url.trim();
    let (scheme, rest) = url
        .split_once("://")
        .ok_or_else(|| bad("no http:// or https://"))?;
    if scheme != "http" && scheme != "https" {
        return Err(bad("only http and https"));
    }
    let (rest, query) = rest.split_once('?').unwrap_or((rest, ""));
    let host = rest.split('/').next().unwrap_or("");
    if host.is_empty() || host.contains(['@', ' ']) {
        return Err(bad("no host"));
    }
    let access = query
        .split('&')
        .find_map(|kv| kv.strip_prefix("token="))
        .filter(|t| !t.is_empty())
        .map(str::to_owned);
    Ok((format!("{scheme}://{host}"), access))
}

/// A session kept for one server.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Kept {
    /// The account's name, as the server wrote it.
    pub name: String,
    /// The session id (the cookie's value).
    pub session: String,
}

/// The sessions kept, by server address.
struct Sessions {
    path: Option<PathBuf>,
    all: BTreeMap<String, Value>,
}

impl Sessions {
    fn open() -> Sessions {
        let path = config_file("sessions.json");
        let all = load_object(path.as_deref());
        Sessions { path, all }
    }

    fn save(&self) -> Result<PathBuf, String> {
        save_private(self.path.as_deref(), &self.all)
    }
}

/// The session kept for the server at `base` (`http://host:port`), if one is.
pub fn kept(base: &str) -> Option<Kept> {
    let v = Sessions::open().all.remove(base)?;
    let session = v["session"].as_str()?;
    // Only what a session id looks like is ever sent as one.
    if session.len() != 64 || !session.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    Some(Kept {
        name: v["name"].as_str().unwrap_or("?").to_string(),
        session: session.to_string(),
    })
}

fn agent() -> ureq::Agent {
    ureq::Agent::config_builder()
        .http_status_as_error(false)
        .timeout_global(Some(Duration::from_secs(15)))
        .build()
        .into()
}

/// Runs `chess960 login`.
pub fn run(args: &LoginArgs) -> CliResult<String> {
    let (base, access) = parse_server(&args.url).map_err(CliError::new)?;
    let terminal = std::io::stdin().is_terminal();
    let name = match &args.name {
        Some(n) => n.trim().to_string(),
        None if terminal => {
            eprint!("Name on {base}: ");
            let mut line = String::new();
            std::io::stdin()
                .read_line(&mut line)
                .map_err(|e| CliError::new(format!("cannot read the name: {e}")))?;
            line.trim().to_string()
        }
        None => return Err(CliError::new("give your account's name with --name")),
    };
    if name.is_empty() {
        return Err(CliError::new("no name given"));
    }
    let password = if terminal {
        prompt(&format!("Password for {name} on {base}: "))?
    } else {
        first_line()?
    };
    let mut req = agent()
        .post(format!("{base}/api/account/login"))
        .header("User-Agent", AGENT);
    if let Some(a) = &access {
        req = req.header("Authorization", &format!("Bearer {a}"));
    }
    let mut response = req
        .content_type("application/json")
        .send(json!({"name": name, "password": password}).to_string())
        .map_err(|e| CliError::new(format!("cannot reach {base}: {e}")))?;
    let status = response.status().as_u16();
    let session = response
        .headers()
        .get_all("set-cookie")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .find_map(|v| {
            v.split(';')
                .next()?
                .trim()
                .strip_prefix(&format!("{COOKIE}="))
        })
        .map(str::to_owned);
    let text = response
        .body_mut()
        .with_config()
        .limit(1 << 20)
        .read_to_string()
        .unwrap_or_default();
    let body: Value = serde_json::from_str(&text).unwrap_or(Value::Null);
    if !(200..300).contains(&status) {
        let why = body["error"]
            .as_str()
            .map_or_else(|| format!("HTTP {status}"), str::to_owned);
        return Err(CliError::new(format!("{base} refused the login: {why}")));
    }
    let session = session.ok_or_else(|| {
        CliError::new(format!(
            "{base} answered without a session: is it a chess960 server?"
        ))
    })?;
    let account = body["user"]["name"].as_str().unwrap_or(&name).to_string();
    let mut sessions = Sessions::open();
    sessions
        .all
        .insert(base.clone(), json!({"name": account, "session": session}));
    let path = sessions
        .save()
        .map_err(|e| CliError::new(format!("logged in, but the session could not be kept: {e}")))?;
    Ok(format!(
        "Logged in to {base} as {account}; the session is kept in {}.\n",
        path.display()
    ))
}

/// Runs `chess960 logout`.
pub fn run_logout(args: &LogoutArgs) -> CliResult<String> {
    let (base, access) = parse_server(&args.url).map_err(CliError::new)?;
    let mut sessions = Sessions::open();
    let Some(kept) = kept(&base) else {
        return Ok(format!("Not logged in to {base}.\n"));
    };
    let mut req = agent()
        .post(format!("{base}/api/account/logout"))
        .header("Cookie", &format!("{COOKIE}={}", kept.session));
    if let Some(a) = &access {
        req = req.header("Authorization", &format!("Bearer {a}"));
    }
    // Forgotten here even when the server cannot be reached (the session then ends there
    // unused, after 60 days, or from the account's page).
    let ended = req
        .content_type("application/json")
        .send("{}")
        .map(|r| r.status().is_success());
    sessions.all.remove(&base);
    sessions.save().map_err(CliError::new)?;
    Ok(match ended {
        Ok(true) => format!("Logged out of {base} ({}).\n", kept.name),
        _ => format!(
            "Forgot the session of {} on {base}; the server could not be told (end it on the \
             account's page in the browser).\n",
            kept.name
        ),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn server_addresses() {
        assert_eq!(
            parse_server("http://192.168.1.5:8960").unwrap(),
            ("http://192.168.1.5:8960".to_string(), None)
        );
        assert_eq!(
            parse_server(" https://chess.example/game/abc?token=t1 ").unwrap(),
            ("https://chess.example".to_string(), Some("t1".to_string()))
        );
        for bad in ["192.168.1.5:8960", "ftp://x", "http://", "http://a@b"] {
            assert!(parse_server(bad).is_err(), "{bad}");
        }
    }
}
