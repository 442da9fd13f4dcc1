//! `chess960 serve`: the web server (`chess960-server`) with the browser UI, on the game
//! database of `chess960 db`.

use chess960_server::guard::{Access, TokenRule};
use clap::Args;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

/// Arguments of `chess960 serve`.
#[derive(Debug, Args)]
#[command(
    about = "Play Chess960 against the engine in the browser: serve the web UI and its API",
    long_about = "Start the web server and open the printed address in a browser to play \
Chess960 against the built-in engine: choose or draw a start position, a colour, a level \
and a time control; the server checks every move, runs the engine, keeps the clocks and \
saves every move in the game database before it acknowledges it, so games survive a reload \
of the page and a restart of the server. The web UI is built into the program.\n\n\
The database is the one of 'chess960 db': --db PATH, else $CHESS960_DB, else games.sqlite3 in \
the user's data directory (~/.local/share/chess960/ on Linux).\n\n\
Who may use it: requests from other web pages (a foreign Origin), requests to a name that is \
not this server's (DNS rebinding) and POST bodies that are not JSON are refused; connections \
are held to timeouts and caps before any request is read (--head-timeout, --idle-timeout, \
--max-connections, --max-connections-per-address). On an address \
other than loopback (--host 0.0.0.0) the server also asks for an access token, drawn at start \
and printed in the address to open (http://HOST:PORT/?token=...). docs/server.md has the \
threat model: what this protects against and what it does not.\n\n\
The HTTP and WebSocket API is described in docs/api.md. Stop the server with Ctrl-C.",
    after_help = "Examples:\n  chess960 serve\n  chess960 serve --port 8080\n  \
chess960 serve --host 0.0.0.0 --db /tmp/games.sqlite3\n  \
chess960 serve --allow-host chess.example.com --token \"$(cat token.txt)\""
)]
pub struct ServeArgs {
    /// The address to listen on; 0.0.0.0 (or ::) lets other machines connect, and then the
    /// server asks for an access token (see --token, --no-auth).
    #[arg(long, value_name = "HOST", default_value = "127.0.0.1")]
    pub host: String,
    /// The port to listen on (0: any free port).
    #[arg(long, value_name = "PORT", default_value_t = 8960)]
    pub port: u16,
    /// The game database: a SQLite file, created when it does not exist, or a PostgreSQL
    /// database, postgres://user@host/dbname (default: $CHESS960_DB, else games.sqlite3 in
    /// the user's data directory, ~/.local/share/chess960/ on Linux).
    #[arg(long, value_name = "PATH|URL")]
    pub db: Option<PathBuf>,
    /// Engine searches that run at once (default: one per core). More wait in a queue that
    /// serves clients in turn, so moves, new games and the database never wait for the engine.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..=256))]
    pub search_threads: Option<u16>,
    /// Unload a game from memory once nobody has asked for it this long and nothing is
    /// pending in it (it is read back from the database when asked for again).
    #[arg(long, value_name = "SECONDS", default_value_t = 60, value_parser = clap::value_parser!(u32).range(1..=86_400))]
    pub unload_after: u32,
    /// Abort a game whose player has not made their first move this long after it began
    /// waiting for it (as lichess aborts games nobody starts): it counts as no result.
    #[arg(long, value_name = "SECONDS", default_value_t = 300, value_parser = clap::value_parser!(u32).range(1..=86_400))]
    pub abandon_after: u32,
    /// In a game between people, let a player claim the win or a draw once their opponent
    /// has been away this long (no page of the game open, no action), as lichess offers to
    /// force resignation. The clocks keep running meanwhile.
    #[arg(long, value_name = "SECONDS", default_value_t = 30, value_parser = clap::value_parser!(u32).range(1..=86_400))]
    pub away_after: u32,
    /// Games of engine events the server plays at once (each keeps about one core busy),
    /// besides the engine searches of games against people; 0 plays none. An arbiter starts
    /// an engine event from its page ('Play engine games on the server').
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u16).range(0..=256))]
    pub engine_games: u16,
    /// Log one line per request (and the server's warnings) on standard error.
    #[arg(long, short)]
    pub verbose: bool,
    /// Also answer to requests sent to NAME (the Host a browser sends through a reverse proxy
    /// or a port forward), on any port. localhost, IP addresses and the --host name need no
    /// mention. Repeatable.
    #[arg(long, value_name = "NAME", value_parser = chess960_server::guard::parse_host_name)]
    pub allow_host: Vec<String>,
    /// Ask for this access token (letters, digits, '-', '.', '_', '~'), also on a loopback
    /// address; without it, a non-loopback --host draws one at start. Clients send it as
    /// 'Authorization: Bearer TOKEN' or '?token=TOKEN'; the browser gets a cookie.
    #[arg(long, value_name = "TOKEN", value_parser = chess960_server::guard::parse_token)]
    pub token: Option<String>,
    /// Ask for no access token, even on a non-loopback --host (a warning is printed): anyone
    /// who can reach the address can create, play and delete games.
    #[arg(long, conflicts_with = "token")]
    pub no_auth: bool,
    /// With a PostgreSQL --db that several servers share: the address at which the others
    /// reach this one (http://HOST:PORT), to which they forward the actions on the games it
    /// runs (default: the address listened on; 127.0.0.1 for --host 0.0.0.0, which serves
    /// only servers on the same host). docs/deploy.md explains the set-up.
    #[arg(long, value_name = "URL", value_parser = parse_advertise)]
    pub advertise: Option<String>,
    /// Close a connection that has not sent a whole request head this long after it opened
    /// or after its previous answer (silent, or sending a byte now and then).
    #[arg(long, value_name = "SECONDS", default_value_t = 20, value_parser = clap::value_parser!(u32).range(1..=3_600))]
    pub head_timeout: u32,
    /// Close a connection with no request being handled whose bytes have not moved this long
    /// (a client that does not read its answer, say).
    #[arg(long, value_name = "SECONDS", default_value_t = 60, value_parser = clap::value_parser!(u32).range(1..=86_400))]
    pub idle_timeout: u32,
    /// Open connections per client address (IPv6: per /64; loopback, where a reverse proxy
    /// connects from, is not capped per address). A new one past the cap replaces that
    /// address's longest-idle connection, or is refused with 503 when none is idle.
    #[arg(long, value_name = "N", default_value_t = 64, value_parser = clap::value_parser!(u32).range(1..=100_000))]
    pub max_connections_per_address: u32,
    /// Open connections in all, WebSockets included (default: three quarters of the open
    /// files the process may have, 'ulimit -n', after 64 kept for the database and the rest).
    /// Past it a new one replaces the longest-idle connection, or is refused with 503.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    pub max_connections: Option<u32>,
    /// Who may register an account: open (anyone), invite (with a code from 'chess960 user
    /// invite') or closed (the owner adds players with 'chess960 user add'). Default: open on a
    /// loopback --host, invite otherwise. Guests play without an account either way.
    #[arg(long, value_name = "MODE")]
    pub registration: Option<chess960_server::Registration>,
    /// The server is reached through HTTPS (a reverse proxy in front of it): session cookies
    /// are sent with 'Secure', so that a browser never sends them over plain HTTP.
    #[arg(long)]
    pub https: bool,
}

/// An `http://host:port` address for --advertise.
fn parse_advertise(text: &str) -> Result<String, String> {
    let rest = text
        .strip_prefix("http://")
        .ok_or_else(|| format!("'{text}' is not an http://HOST:PORT address"))?;
    let authority = rest.trim_end_matches('/');
    if authority.is_empty() || authority.contains(['/', '?', '#', '@', ' ']) {
        return Err(format!(
            "'{text}' is not an http://HOST:PORT address (no path, user or query)"
        ));
    }
    Ok(format!("http://{authority}"))
}

/// Runs `chess960 serve`: 0 after Ctrl-C, 2 with one `chess960: …` line when it cannot
/// start (database, port).
pub fn main(args: &ServeArgs) -> ExitCode {
    crate::tune_allocator_for_serving();
    let fail = |msg: String| {
        eprintln!("chess960: {msg}");
        ExitCode::from(2)
    };
    let store = match chess960_store::open(args.db.as_deref()) {
        Ok(s) => s,
        Err(e) => return fail(format!("cannot open the game database: {e}")),
    };
    let db_path = store.describe();
    chess960_server::init_logging(args.verbose);
    let mut capacity = chess960_server::Capacity {
        unload_after: std::time::Duration::from_secs(args.unload_after.into()),
        abandon_after: std::time::Duration::from_secs(args.abandon_after.into()),
        away_after: std::time::Duration::from_secs(args.away_after.into()),
        engine_games: args.engine_games.into(),
        ..chess960_server::Capacity::default()
    };
    if let Some(n) = args.search_threads {
        capacity.search_threads = n.into();
    }
    let access = Access {
        host: None,
        allow_hosts: args.allow_host.clone(),
        token: match (&args.token, args.no_auth) {
            (Some(token), _) => TokenRule::Required(token.clone()),
            (None, true) => TokenRule::Off,
            (None, false) => TokenRule::Auto,
        },
    };
    let options = chess960_server::ServeOptions {
        capacity,
        access,
        advertise: args.advertise.clone(),
        time: Default::default(),
        registration: args.registration,
        https: args.https,
        connections: chess960_server::ConnLimits {
            head_timeout: std::time::Duration::from_secs(args.head_timeout.into()),
            idle_timeout: std::time::Duration::from_secs(args.idle_timeout.into()),
            per_address: args.max_connections_per_address as usize,
            total: args.max_connections.map(|n| n as usize),
        },
    };
    let result = chess960_server::run(&args.host, args.port, Arc::from(store), options, |url| {
        let mut out = std::io::stdout().lock();
        let _ = writeln!(
            out,
            "chess960 serve: {url}  (games in {db_path}; Ctrl-C stops)"
        );
        let _ = out.flush();
        if args.no_auth {
            eprintln!(
                "chess960: warning: --no-auth: no access token is asked for, so anyone who can \
                 reach {url} can create, play and delete games (docs/server.md)"
            );
        }
    });
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => fail(e.to_string()),
    }
}
