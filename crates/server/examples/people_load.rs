//! Load benchmark of games between people: starts the given `chess960` binary on a fresh
//! database and a free port, opens GAMES challenges, joins each, and connects three WebSockets
//! per game (both players and a spectator); then every game is played at once, each player
//! moving (over HTTP, as the browser does) a short while after the opponent's move reached their
//! socket. For every move it times how long the move took to reach the opponent's socket and
//! the spectator's (from sending the request), counts errors (refused requests, sockets that
//! closed, events that never came) and, at the end, moves lost (acknowledged, but missing from
//! the game read back from the server and from the database after a restart).
//!
//! With `--servers 2` (and a PostgreSQL `--db`) two server processes share the database: each
//! game's White talks to one, Black and the spectator to the other (as a load balancer would
//! spread them), so every move crosses from one process to the other (`cluster/`). With
//! `--kill`, the first server is killed (`kill -9`) once half the moves are played: its
//! clients go to the other (reconnecting their sockets, resending a request that got no
//! answer), which takes its games over; the figures then say how long each game stood still.
//!
//! With `--rated` the players are logged in and the games rated: before the games it registers
//! two accounts a game (`w17`, `b17`; the registrations' time is printed apart, as Argon2id makes
//! them slow), White creates a rated challenge with their session cookie and Black joins with
//! theirs; the moves are played as without it (seat tokens, sockets), and the figures timed the
//! same way. A game that did not end on the board (playing the first legal move, most repeat
//! the position five times: a draw) then ends by resignation (Black's in even games, White's
//! in odd ones), so that every game is rated, and the benchmark reads every game and every
//! player's rating back: two new players (1500, deviation 500) after one game against each
//! other stand at 1742 and 1258 (Glicko-2's 1741.54 and 1258.46; a draw leaves both at 1500),
//! each game's view showing the changes (+242 and −242, or 0). Anything else is a mismatch,
//! counted as an error. With `--servers 2` the accounts and sessions are in the shared
//! database: each player registers on, and plays through, their own server.
//!
//! ```sh
//! cargo run --release -p chess960-server --example people_load -- target/release/chess960
//! cargo run --release -p chess960-server --example people_load -- target/ci/chess960 --games 50 --plies 20 --check
//! # logged-in players, rated games, their ratings checked afterwards:
//! cargo run --release -p chess960-server --example people_load -- target/ci/chess960 --rated --check
//! # on PostgreSQL (an empty database) instead of a fresh SQLite file:
//! cargo run --release -p chess960-server --example people_load -- target/ci/chess960 --db postgres://postgres@127.0.0.1:5432/load
//! # two servers on it, one killed halfway:
//! cargo run --release -p chess960-server --example people_load -- target/ci/chess960 --db postgres://postgres@127.0.0.1:5432/load2 --servers 2 --kill
//! ```
//!
//! Prints the figures beside the targets of issue 16 (p99 under 50 ms, or `--p99-ms`; no error,
//! no move lost; with `--kill`, every game moving again within 10 s; with `--rated`, every game
//! rated and every rating as expected); with `--check` it exits 1
//! when one is missed. It stops by itself: every game has a fixed
//! number of half-moves, every wait a deadline.

use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::sync::Mutex;
use tokio_tungstenite::tungstenite::Message;

type Socket =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// The longest wait for any one event: past it, the event counts as an error.
const DEADLINE: Duration = Duration::from_secs(10);

/// Every game's clock (a rated game needs one): long enough that no clock runs out during the
/// load.
const CLOCK_INITIAL_MS: u64 = 600_000;
const CLOCK_INCREMENT_MS: u64 = 2_000;

/// Registrations sent at once (`--rated`): twice what the server hashes at once
/// (`accounts::HASHING_AT_ONCE`), so that its hashing never waits for the next request.
const REGISTERING_AT_ONCE: usize = 8;

/// Two new players (1500, deviation 500, volatility 0.06) after one rated game against each
/// other: the winner's rating and the loser's (Glicko-2: 1741.54 and 1258.46, rounded; a draw
/// leaves both at 1500), and the change each game's view shows.
const WINNER_RATING: i64 = 1742;
const LOSER_RATING: i64 = 1258;
const NEW_RATING: i64 = 1500;
const RATING_CHANGE: i64 = 242;

struct Options {
    bin: String,
    games: usize,
    plies: usize,
    think: Duration,
    check: bool,
    /// The database to serve from; a fresh SQLite file when not given.
    db: Option<String>,
    /// Server processes on the database (more than one needs PostgreSQL).
    servers: usize,
    /// Kill the first server halfway.
    kill: bool,
    /// The p99 target checked by `--check`.
    p99: Duration,
    /// The game protocol the clients speak (docs/api.md): 1, the whole view after every
    /// change; 2, moves as small events and actions acknowledged.
    protocol: u8,
    /// Logged-in players and rated games, their ratings checked afterwards.
    rated: bool,
}

const USAGE: &str = "usage: people_load CHESS960_BINARY [--games N] [--plies N] [--think-ms MS] \
[--db ADDRESS] [--servers N] [--kill] [--p99-ms MS] [--protocol 1|2] [--rated] [--check]";

fn options() -> Result<Options, String> {
    let mut args = std::env::args().skip(1);
    let mut o = Options {
        bin: String::new(),
        games: 200,
        plies: 40,
        think: Duration::from_millis(100),
        check: false,
        db: None,
        servers: 1,
        kill: false,
        p99: Duration::from_millis(50),
        protocol: 2,
        rated: false,
    };
    while let Some(a) = args.next() {
        let mut number = |name: &str| -> Result<u64, String> {
            args.next()
                .and_then(|v| v.parse().ok())
                .ok_or_else(|| format!("{name} takes a number"))
        };
        match a.as_str() {
            "--games" => o.games = number("--games")?.clamp(1, 1000) as usize,
            "--plies" => o.plies = number("--plies")?.clamp(2, 200) as usize,
            "--think-ms" => o.think = Duration::from_millis(number("--think-ms")?.min(5000)),
            "--check" => o.check = true,
            "--servers" => o.servers = number("--servers")?.clamp(1, 4) as usize,
            "--kill" => o.kill = true,
            "--rated" => o.rated = true,
            "--p99-ms" => o.p99 = Duration::from_millis(number("--p99-ms")?.clamp(1, 60_000)),
            "--db" => o.db = Some(args.next().ok_or("--db takes a database address")?),
            "--protocol" => match number("--protocol")? {
                p @ (1 | 2) => o.protocol = p as u8,
                _ => return Err("--protocol takes 1 or 2".into()),
            },
            "-h" | "--help" => return Err(USAGE.into()),
            _ if o.bin.is_empty() => o.bin = a,
            _ => return Err(format!("unknown argument {a}")),
        }
    }
    if o.bin.is_empty() {
        return Err(USAGE.into());
    }
    if o.servers > 1 && !o.db.as_deref().is_some_and(|d| d.starts_with("postgres")) {
        return Err("--servers 2 or more needs a PostgreSQL --db".into());
    }
    if o.kill && o.servers < 2 {
        return Err("--kill needs --servers 2 or more (the others take the games over)".into());
    }
    Ok(o)
}

/// The server under test: its process and port, over a fresh database (a SQLite file in a
/// temporary directory, or the PostgreSQL database given with `--db`).
struct Server {
    child: Child,
    port: u16,
}

impl Server {
    fn start(bin: &str, db: &std::ffi::OsStr) -> Server {
        let mut child = Command::new(bin)
            .args(["serve", "--port", "0", "--search-threads", "1", "--db"])
            .arg(db)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {bin}: {e}"));
        let mut line = String::new();
        BufReader::new(child.stdout.take().expect("stdout"))
            .read_line(&mut line)
            .expect("the server's first line");
        let port = line
            .split("127.0.0.1:")
            .nth(1)
            .and_then(|r| r.split(|c: char| !c.is_ascii_digit()).next())
            .and_then(|p| p.parse().ok())
            .unwrap_or_else(|| panic!("no port in {line:?}"));
        Server { child, port }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// What all games share: the HTTP client, the counters and the timings.
struct Shared {
    http: reqwest::Client,
    /// Each server's address, and whether it is alive (the load sends nothing to a killed one).
    bases: Vec<String>,
    alive: Vec<std::sync::atomic::AtomicBool>,
    /// When the first server was killed (`--kill`).
    killed_at: std::sync::Mutex<Option<Instant>>,
    /// Per game: from the kill to its first move acknowledged after it.
    standstill: Mutex<Vec<Duration>>,
    /// Moves acknowledged within 10 s after the kill: sent -> opponent's socket.
    around_kill: Mutex<Vec<Duration>>,
    errors: AtomicUsize,
    /// `--rated`: answers that said something else than expected (a game not rated, an
    /// account missing from a side, a rating or a change off); each is also an error.
    mismatches: AtomicUsize,
    acknowledged: AtomicUsize,
    to_opponent: Mutex<Vec<Duration>>,
    to_spectator: Mutex<Vec<Duration>>,
    first_errors: Mutex<Vec<String>>,
    /// The protocol the clients speak.
    protocol: u8,
    /// Bytes of text received on the players' sockets and on the spectators'.
    player_bytes: AtomicUsize,
    spectator_bytes: AtomicUsize,
}

impl Shared {
    async fn error(&self, what: String) {
        self.errors.fetch_add(1, Ordering::Relaxed);
        let mut first = self.first_errors.lock().await;
        if first.len() < 5 {
            first.push(what);
        }
    }

    /// An answer that was not what `--rated` expects: an error, also counted apart.
    async fn mismatch(&self, what: String) {
        self.mismatches.fetch_add(1, Ordering::Relaxed);
        self.error(what).await;
    }

    /// Checks that `got` is `want`, counting a mismatch (named `what`) when it is not.
    async fn expect(&self, what: &str, got: &Value, want: Value) -> bool {
        let ok = *got == want;
        if !ok {
            self.mismatch(format!("{what}: {got}, expected {want}"))
                .await;
        }
        ok
    }

    /// The address of server `via`, or of the next one alive, as a load balancer would
    /// choose.
    fn base(&self, via: usize) -> &str {
        let n = self.bases.len();
        (0..n)
            .map(|i| (via + i) % n)
            .find(|&i| self.alive[i].load(Ordering::Acquire))
            .map_or(self.bases[0].as_str(), |i| self.bases[i].as_str())
    }

    fn killed_at(&self) -> Option<Instant> {
        *self.killed_at.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// A POST through server `via`; a request that got no answer because its server was
    /// killed is sent again to the next one (it may have been done: see [`game`]).
    async fn post(
        &self,
        path: &str,
        body: Value,
        seat: Option<&str>,
        via: usize,
    ) -> Result<Value, String> {
        self.post_as(path, body, seat, None, via).await
    }

    /// [`Shared::post`], from a logged-in player when `session` (their session cookie's
    /// value) is given.
    async fn post_as(
        &self,
        path: &str,
        body: Value,
        seat: Option<&str>,
        session: Option<&str>,
        via: usize,
    ) -> Result<Value, String> {
        let mut tries = 0;
        let r = loop {
            let mut req = self
                .http
                .post(format!("{}{path}", self.base(via)))
                .json(&body);
            if let Some(s) = seat {
                req = req.header("X-Seat-Token", s);
            }
            if let Some(c) = session {
                req = req.header(reqwest::header::COOKIE, format!("chess960_session={c}"));
            }
            if self.protocol == 2 {
                req = req.header("X-Game-Protocol", "2");
            }
            match req.send().await {
                Ok(r) => break r,
                Err(e) if self.killed_at().is_some() && tries < 3 => {
                    tries += 1;
                    let _ = e;
                    tokio::time::sleep(Duration::from_millis(50)).await;
                }
                Err(e) => return Err(format!("POST {path}: {e}")),
            }
        };
        let status = r.status();
        let v: Value = r.json().await.map_err(|e| format!("POST {path}: {e}"))?;
        if status.is_success() {
            Ok(v)
        } else {
            Err(format!("POST {path}: {status} {v}"))
        }
    }

    /// A GET through server `via`, its answer's JSON; anything but success is an error.
    async fn get(&self, path: &str, via: usize) -> Result<Value, String> {
        let r = self
            .http
            .get(format!("{}{path}", self.base(via)))
            .send()
            .await
            .map_err(|e| format!("GET {path}: {e}"))?;
        let status = r.status();
        let v: Value = r.json().await.map_err(|e| format!("GET {path}: {e}"))?;
        if status.is_success() {
            Ok(v)
        } else {
            Err(format!("GET {path}: {status} {v}"))
        }
    }

    async fn socket(&self, key: &str, seat: Option<&str>, via: usize) -> Result<Socket, String> {
        let q = format!(
            "?protocol={}{}",
            self.protocol,
            seat.map_or(String::new(), |s| format!("&seat={s}"))
        );
        let url = format!(
            "{}/api/games/{key}/ws{q}",
            self.base(via).replace("http", "ws")
        );
        tokio_tungstenite::connect_async(url)
            .await
            .map(|(s, _)| s)
            .map_err(|e| format!("WebSocket of {key}: {e}"))
    }
}

/// A player's account (`--rated`): its name and the value of its session cookie.
struct Account {
    name: String,
    session: String,
}

/// The two accounts of a rated game.
struct Players {
    white: Account,
    black: Account,
}

/// Registers the account `name` through server `via` (`POST /api/account/register`), as a
/// browser would: the session cookie of the answer is the player logged in.
async fn register(shared: &Shared, name: String, via: usize) -> Result<Account, String> {
    let r = shared
        .http
        .post(format!("{}/api/account/register", shared.base(via)))
        .json(&json!({"name": name, "password": format!("a long passphrase {name}")}))
        .send()
        .await
        .map_err(|e| format!("registering {name}: {e}"))?;
    let status = r.status();
    let cookie = r
        .headers()
        .get_all(reqwest::header::SET_COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .find_map(|c| c.strip_prefix("chess960_session="))
        .and_then(|c| c.split(';').next())
        .map(str::to_string);
    let v: Value = r.json().await.unwrap_or(Value::Null);
    if status != reqwest::StatusCode::CREATED {
        return Err(format!("registering {name}: {status} {v}"));
    }
    let session = cookie
        .filter(|c| c.len() == 64 && c.bytes().all(|b| b.is_ascii_hexdigit()))
        .ok_or_else(|| format!("registering {name}: no session cookie of 64 hex digits"))?;
    shared
        .expect(
            &format!("registering {name}: the account's name"),
            &v["user"]["name"],
            json!(name),
        )
        .await;
    Ok(Account { name, session })
}

/// Registers the two players of every game, [`REGISTERING_AT_ONCE`] at a time, each through
/// the server they play on: per game, its players, or `None` where a registration failed
/// (counted as an error; that game is not played).
async fn register_all(shared: &Shared, games: usize) -> Vec<Option<Players>> {
    // White talks to server n, Black to the next, as in [`game`].
    let accounts: Vec<Result<Account, String>> =
        futures_util::stream::iter((0..games).flat_map(|n| {
            [
                register(shared, format!("w{n}"), n),
                register(shared, format!("b{n}"), n + 1),
            ]
        }))
        .buffered(REGISTERING_AT_ONCE)
        .collect()
        .await;
    let mut players = Vec::with_capacity(games);
    let mut accounts = accounts.into_iter();
    while let (Some(white), Some(black)) = (accounts.next(), accounts.next()) {
        match (white, black) {
            (Ok(white), Ok(black)) => players.push(Some(Players { white, black })),
            (white, black) => {
                for e in [white.err(), black.err()].into_iter().flatten() {
                    shared.error(e).await;
                }
                players.push(None);
            }
        }
    }
    players
}

/// A game the load played: its key, the half-moves acknowledged in it and, when rated, its
/// players' names and the result the resignation gave it (`None` when it ended by itself, or
/// could not be resigned).
struct Played {
    key: String,
    plies: usize,
    rated: Option<RatedGame>,
}

struct RatedGame {
    white: String,
    black: String,
    resigned: Option<&'static str>,
}

/// Where a socket connects: the game, the seat, the server.
struct Peer<'a> {
    shared: &'a Shared,
    key: &'a str,
    seat: Option<&'a str>,
    via: usize,
}

/// What a client knows of its game from its socket: the number of moves, the status and the
/// first legal move (enough to play on).
#[derive(Debug, Default)]
struct Seen {
    moves: usize,
    playing: bool,
    first_legal: Option<String>,
}

/// What the benchmark reads of a socket's message (every other field is skipped unread, so
/// that the load generator spends little of the machine it shares with the server).
#[derive(serde::Deserialize)]
struct Msg {
    #[serde(rename = "type")]
    kind: String,
    /// `state`: the whole view.
    game: Option<GameLite>,
    /// `move` (protocol 2): the number of moves after it, and what changed.
    ply: Option<usize>,
    now: Option<NowLite>,
}

#[derive(serde::Deserialize)]
struct GameLite {
    moves: Vec<serde::de::IgnoredAny>,
    status: String,
    legal: Vec<LegalLite>,
}

#[derive(serde::Deserialize)]
struct NowLite {
    status: String,
    legal: Vec<LegalLite>,
}

#[derive(serde::Deserialize)]
struct LegalLite {
    uci: String,
}

impl Seen {
    fn of(moves: usize, status: &str, legal: &[LegalLite]) -> Seen {
        Seen {
            moves,
            playing: status == "playing",
            first_legal: legal.first().map(|l| l.uci.clone()),
        }
    }

    /// The game as a whole view (a socket's state, the join's answer) shows it.
    fn of_game(g: &GameLite) -> Seen {
        Seen::of(g.moves.len(), &g.status, &g.legal)
    }
}

/// Reads a socket until it shows `plies` moves, or the deadline. A socket that closes after a
/// server was killed connects again (to the next server alive), as the browser does.
async fn until_ply(ws: &mut Socket, plies: usize, peer: &Peer<'_>) -> Result<Seen, String> {
    let deadline = tokio::time::Instant::now() + DEADLINE;
    let bytes = if peer.seat.is_some() {
        &peer.shared.player_bytes
    } else {
        &peer.shared.spectator_bytes
    };
    loop {
        let msg = tokio::time::timeout_at(deadline, ws.next())
            .await
            .map_err(|_| format!("no state with {plies} moves within {DEADLINE:?}"))?;
        let closed = matches!(msg, None | Some(Err(_)) | Some(Ok(Message::Close(_))));
        if closed && peer.shared.killed_at().is_some() {
            tokio::time::sleep(Duration::from_millis(50)).await;
            *ws = peer.shared.socket(peer.key, peer.seat, peer.via).await?;
            continue;
        }
        match msg {
            Some(Ok(Message::Text(t))) => {
                bytes.fetch_add(t.len(), Ordering::Relaxed);
                let m: Msg = serde_json::from_str(&t).map_err(|e| e.to_string())?;
                let seen = match (m.kind.as_str(), m.game, m.ply, m.now) {
                    ("state", Some(g), _, _) => Seen::of_game(&g),
                    ("move", _, Some(ply), Some(now)) => Seen::of(ply, &now.status, &now.legal),
                    _ => continue,
                };
                if seen.moves >= plies {
                    return Ok(seen);
                }
            }
            Some(Ok(Message::Ping(p))) => {
                let _ = ws.send(Message::Pong(p)).await;
            }
            Some(Ok(_)) => {}
            Some(Err(e)) => return Err(e.to_string()),
            None => return Err("the socket closed".into()),
        }
    }
}

/// One game: the challenge, the join, three sockets, then `plies` half-moves. With `players`
/// (`--rated`) the challenge is rated, made and joined by the players logged in, and one of
/// them resigns after the last half-move, unless the game ended on the board.
async fn game(
    shared: Arc<Shared>,
    n: usize,
    plies: usize,
    think: Duration,
    players: Option<Players>,
) -> Option<Played> {
    // White talks to one server, Black and the spectator to the next.
    let (via_white, via_black) = (n, n + 1);
    let sessions = players
        .as_ref()
        .map(|p| (p.white.session.as_str(), p.black.session.as_str()));
    let mut challenge = json!({"start": {"id": n % 960}, "opponent": "human", "name": format!("W{n}"),
        "time_control": {"initial_ms": CLOCK_INITIAL_MS, "increment_ms": CLOCK_INCREMENT_MS}});
    if players.is_some() {
        challenge["rated"] = json!(true);
    }
    // Every player comes from this one address, which may have only so many challenges open
    // at once: a challenge refused for that (429) is made again once others are taken, as a
    // client told to wait would.
    let mut refused = 0;
    let created = loop {
        let made = shared
            .post_as(
                "/api/games",
                challenge.clone(),
                None,
                sessions.map(|s| s.0),
                via_white,
            )
            .await;
        match made {
            Ok(v) => break v,
            Err(e) if e.contains(" 429 ") && refused < 500 => {
                refused += 1;
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
            Err(e) => {
                shared.error(e).await;
                return None;
            }
        }
    };
    let key = created["key"].as_str().unwrap_or_default().to_string();
    let white = created["seat_token"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    // What the game is when it ends here: its players, and no resignation.
    let played = |plies: usize, resigned: Option<&'static str>| Played {
        key: key.clone(),
        plies,
        rated: players.as_ref().map(|p| RatedGame {
            white: p.white.name.clone(),
            black: p.black.name.clone(),
            resigned,
        }),
    };
    if let Some(p) = &players {
        let at = format!("{key}: the challenge's answer");
        shared
            .expect(&format!("{at}: rated"), &created["rated"], json!(speed()))
            .await;
        shared
            .expect(
                &format!("{at}: White's account"),
                &created["sides"]["white"]["account"],
                json!(p.white.name),
            )
            .await;
    }
    let joined = match shared
        .post_as(
            &format!("/api/games/{key}/join"),
            json!({"name": format!("B{n}")}),
            None,
            sessions.map(|s| s.1),
            via_black,
        )
        .await
    {
        Ok(v) => v,
        Err(e) => {
            shared.error(e).await;
            return None;
        }
    };
    let black = joined["seat_token"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    if let Some(p) = &players {
        // Both new players, rated 1500 before the game in its class.
        let at = format!("{key}: the join's answer");
        shared
            .expect(&format!("{at}: rated"), &joined["rated"], json!(speed()))
            .await;
        for (color, account) in [("white", &p.white), ("black", &p.black)] {
            let side = &joined["sides"][color];
            shared
                .expect(
                    &format!("{at}: {color}'s account"),
                    &side["account"],
                    json!(account.name),
                )
                .await;
            shared
                .expect(
                    &format!("{at}: {color}'s rating before the game"),
                    &side["rating"]["rating"],
                    json!(NEW_RATING),
                )
                .await;
        }
    }
    let (mut ws_white, mut ws_black, mut ws_watch) = match (
        shared.socket(&key, Some(&white), via_white).await,
        shared.socket(&key, Some(&black), via_black).await,
        shared.socket(&key, None, via_black).await,
    ) {
        (Ok(a), Ok(b), Ok(c)) => (a, b, c),
        (a, b, c) => {
            for e in [a.err(), b.err(), c.err()].into_iter().flatten() {
                shared.error(e).await;
            }
            return Some(played(0, None));
        }
    };
    let white_peer = Peer {
        shared: &shared,
        key: &key,
        seat: Some(&white),
        via: via_white,
    };
    let black_peer = Peer {
        shared: &shared,
        key: &key,
        seat: Some(&black),
        via: via_black,
    };
    let watch_peer = Peer {
        shared: &shared,
        key: &key,
        seat: None,
        via: via_black,
    };
    let mut standstill_seen = false;
    // The join's answer is the whole view, read as a socket's state is.
    let mut view = match serde_json::from_value::<GameLite>(joined) {
        Ok(g) => Seen::of_game(&g),
        Err(e) => {
            shared.error(format!("{key}: the join's answer: {e}")).await;
            return Some(played(0, None));
        }
    };
    let mut acknowledged = 0;
    for ply in 0..plies {
        if !view.playing {
            break;
        }
        tokio::time::sleep(think).await;
        let white_moves = ply % 2 == 0;
        let (token, opponent, opponent_peer, via) = if white_moves {
            (&white, &mut ws_black, &black_peer, via_white)
        } else {
            (&black, &mut ws_white, &white_peer, via_black)
        };
        // The first legal move: deterministic, and always legal.
        let Some(mv) = view.first_legal.take() else {
            break;
        };
        let sent = Instant::now();
        let posted = shared
            .post(
                &format!("/api/games/{key}/moves"),
                json!({"move": mv, "ply": ply}),
                Some(token),
                via,
            )
            .await;
        if let Err(e) = posted {
            // Sent again after its server was killed, a move that server had stored is
            // refused as stale: it was played.
            let played_already = if shared.killed_at().is_some() && e.contains("409") {
                match shared
                    .http
                    .get(format!("{}/api/games/{key}", shared.base(via)))
                    .send()
                    .await
                {
                    Ok(r) => r
                        .json::<Value>()
                        .await
                        .is_ok_and(|v| v["moves"].as_array().map_or(0, Vec::len) > ply),
                    Err(_) => false,
                }
            } else {
                false
            };
            if !played_already {
                shared.error(e).await;
                break;
            }
        }
        shared.acknowledged.fetch_add(1, Ordering::Relaxed);
        acknowledged += 1;
        if let Some(k) = shared.killed_at() {
            if !standstill_seen {
                standstill_seen = true;
                shared
                    .standstill
                    .lock()
                    .await
                    .push(Instant::now().saturating_duration_since(k));
            }
        }
        match until_ply(opponent, ply + 1, opponent_peer).await {
            Ok(v) => {
                let took = sent.elapsed();
                let near_kill = shared
                    .killed_at()
                    .is_some_and(|k| Instant::now() < k + Duration::from_secs(10));
                if near_kill {
                    shared.around_kill.lock().await.push(took);
                } else {
                    shared.to_opponent.lock().await.push(took);
                }
                view = v;
            }
            Err(e) => {
                shared
                    .error(format!("{key} ply {}: opponent: {e}", ply + 1))
                    .await;
                break;
            }
        }
        match until_ply(&mut ws_watch, ply + 1, &watch_peer).await {
            Ok(_) => {
                let near_kill = shared
                    .killed_at()
                    .is_some_and(|k| Instant::now() < k + Duration::from_secs(10));
                if !near_kill {
                    shared.to_spectator.lock().await.push(sent.elapsed());
                }
            }
            Err(e) => {
                shared
                    .error(format!("{key} ply {}: spectator: {e}", ply + 1))
                    .await;
                break;
            }
        }
    }
    // A rated game is rated once it has a result: one side resigns, unless it ended by itself.
    let resigned = if players.is_some() && view.playing {
        let (token, via, result) = if n % 2 == 0 {
            (&black, via_black, "1-0")
        } else {
            (&white, via_white, "0-1")
        };
        match resign(&shared, &key, token, via).await {
            Ok(()) => Some(result),
            Err(e) => {
                shared.error(e).await;
                None
            }
        }
    } else {
        None
    };
    for ws in [&mut ws_white, &mut ws_black, &mut ws_watch] {
        let _ = ws.close(None).await;
    }
    Some(played(acknowledged, resigned))
}

/// Resigns game `key` for the seat `token`, through server `via`.
async fn resign(shared: &Shared, key: &str, token: &str, via: usize) -> Result<(), String> {
    let path = format!("/api/games/{key}/resign");
    match shared.post(&path, json!({}), Some(token), via).await {
        Ok(_) => Ok(()),
        // Sent again after its server was killed, a resignation that server had stored is
        // refused as the game is over: it was done.
        Err(e) if shared.killed_at().is_some() && e.contains("409") => {
            let v = shared.get(&format!("/api/games/{key}"), via).await?;
            if v["status"] == "finished" {
                Ok(())
            } else {
                Err(e)
            }
        }
        Err(e) => Err(e),
    }
}

/// The speed class of every game's clock, as the server names it: each rated game is rated
/// in it.
fn speed() -> &'static str {
    chess960_players::speed::Speed::of(CLOCK_INITIAL_MS, CLOCK_INCREMENT_MS).name()
}

/// What `--rated` found after the games: the games rated as expected, and the players'
/// ratings read back.
struct RatedFigures {
    games: usize,
    /// Of those, the games won (the others were drawn).
    won: usize,
    /// Of those, the games that ended on the board before their last half-move, so that
    /// nobody resigned (playing the first legal move, most repeat the position five times).
    ended_on_board: usize,
    ratings: usize,
}

/// Reads every rated game back through server `via`, and its players' ratings: each game
/// finished with the result its resignation gave, rated in the clock's class, its sides
/// showing the changes of the result; each player with that one rated game, at the rating two
/// new players stand at after it. Every difference is a mismatch.
async fn check_ratings(shared: &Shared, played: &[Played], via: usize) -> RatedFigures {
    let mut figures = RatedFigures {
        games: 0,
        won: 0,
        ended_on_board: 0,
        ratings: 0,
    };
    for p in played {
        let Some(r) = &p.rated else { continue };
        let key = &p.key;
        let v = match shared.get(&format!("/api/games/{key}"), via).await {
            Ok(v) => v,
            Err(e) => {
                shared.mismatch(e).await;
                continue;
            }
        };
        let result = v["result"].as_str().unwrap_or("none");
        if let Some(want) = r.resigned {
            if !shared
                .expect(&format!("{key}: the result"), &v["result"], json!(want))
                .await
            {
                continue;
            }
        }
        // White's and Black's ratings after the game, and the changes.
        let (white, black, change) = match result {
            "1-0" => (WINNER_RATING, LOSER_RATING, RATING_CHANGE),
            "0-1" => (LOSER_RATING, WINNER_RATING, -RATING_CHANGE),
            "1/2-1/2" => (NEW_RATING, NEW_RATING, 0),
            _ => {
                shared
                    .mismatch(format!(
                        "{key}: no result ({}): the game was not rated",
                        v["status"]
                    ))
                    .await;
                continue;
            }
        };
        let mut ok = shared
            .expect(&format!("{key}: rated"), &v["rated"], json!(speed()))
            .await;
        for (color, account, rating, change) in [
            ("white", &r.white, white, change),
            ("black", &r.black, black, -change),
        ] {
            let side = &v["sides"][color];
            ok &= shared
                .expect(
                    &format!("{key}: {color}'s account"),
                    &side["account"],
                    json!(account),
                )
                .await;
            ok &= shared
                .expect(
                    &format!("{key}: {color}'s rating change"),
                    &side["rating"]["change"],
                    json!(change),
                )
                .await;
            let player = match shared.get(&format!("/api/players/{account}"), via).await {
                Ok(v) => v,
                Err(e) => {
                    shared.mismatch(e).await;
                    continue;
                }
            };
            figures.ratings += 1;
            // One class rated, by one game.
            let ratings = &player["ratings"];
            let class = &ratings[0];
            let at = format!("{account}'s ratings");
            if shared
                .expect(
                    &format!("{at}: classes"),
                    &json!(ratings.as_array().map_or(0, Vec::len)),
                    json!(1),
                )
                .await
            {
                shared
                    .expect(&format!("{at}: speed"), &class["speed"], json!(speed()))
                    .await;
                shared
                    .expect(&format!("{at}: rating"), &class["rating"], json!(rating))
                    .await;
                shared
                    .expect(&format!("{at}: games"), &class["games"], json!(1))
                    .await;
            }
        }
        if ok {
            figures.games += 1;
            figures.won += usize::from(result != "1/2-1/2");
            figures.ended_on_board += usize::from(r.resigned.is_none());
        }
    }
    figures
}

/// The CPU time (user and system) a process has used so far, from `/proc` (Linux).
fn cpu_seconds(pid: u32) -> Option<f64> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The fields after the command name (which may hold spaces) end with ')'.
    let rest = &stat[stat.rfind(')')? + 2..];
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let ticks: f64 = fields.get(11)?.parse::<f64>().ok()? + fields.get(12)?.parse::<f64>().ok()?;
    // SAFETY: sysconf reads a constant of the system.
    let per_second = unsafe { libc::sysconf(libc::_SC_CLK_TCK) } as f64;
    (per_second > 0.0).then(|| ticks / per_second)
}

/// The CPU time the servers have used so far, together.
fn servers_cpu(servers: &[Server]) -> f64 {
    servers
        .iter()
        .filter_map(|s| cpu_seconds(s.child.id()))
        .sum()
}

fn percentile(sorted: &[Duration], p: usize) -> Duration {
    if sorted.is_empty() {
        return Duration::ZERO;
    }
    sorted[(sorted.len() * p / 100).min(sorted.len() - 1)]
}

fn ms(d: Duration) -> String {
    format!("{:.1} ms", d.as_secs_f64() * 1000.0)
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    let o = match options() {
        Ok(o) => o,
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(2);
        }
    };
    let dir = tempfile::tempdir().expect("a temporary directory");
    let db = match &o.db {
        Some(address) => std::ffi::OsString::from(address),
        None => dir.path().join("games.sqlite3").into_os_string(),
    };
    let mut servers: Vec<Server> = (0..o.servers).map(|_| Server::start(&o.bin, &db)).collect();
    let shared = Arc::new(Shared {
        http: reqwest::Client::builder()
            .pool_max_idle_per_host(64)
            .timeout(DEADLINE)
            .build()
            .expect("an HTTP client"),
        bases: servers
            .iter()
            .map(|s| format!("http://127.0.0.1:{}", s.port))
            .collect(),
        alive: servers
            .iter()
            .map(|_| std::sync::atomic::AtomicBool::new(true))
            .collect(),
        killed_at: std::sync::Mutex::new(None),
        standstill: Mutex::new(Vec::new()),
        around_kill: Mutex::new(Vec::new()),
        errors: AtomicUsize::new(0),
        mismatches: AtomicUsize::new(0),
        acknowledged: AtomicUsize::new(0),
        to_opponent: Mutex::new(Vec::new()),
        to_spectator: Mutex::new(Vec::new()),
        first_errors: Mutex::new(Vec::new()),
        protocol: o.protocol,
        player_bytes: AtomicUsize::new(0),
        spectator_bytes: AtomicUsize::new(0),
    });
    println!(
        "{} games between people at once, {} half-moves each, {} ms between a move's arrival and the reply; 3 WebSockets a game (protocol {})",
        o.games,
        o.plies,
        o.think.as_millis(),
        o.protocol
    );
    if o.servers > 1 {
        println!(
            "{} server processes on one database: White talks to one, Black and the spectator to the next{}",
            o.servers,
            if o.kill { "; the first is killed (kill -9) halfway" } else { "" }
        );
    }
    // Registration is apart from the games (and their figures): each hashes a password with
    // Argon2id, tens of milliseconds of the server's CPU.
    let mut players: Vec<Option<Players>> = Vec::new();
    let mut registered = 0;
    let mut registration_cpu = 0.0;
    if o.rated {
        let started = Instant::now();
        let cpu = servers_cpu(&servers);
        players = register_all(&shared, o.games).await;
        registration_cpu = servers_cpu(&servers) - cpu;
        registered = 2 * players.iter().flatten().count();
        println!(
            "logged-in players, rated games ({} clock): registered {registered} of {} accounts in {:.1} s, \
             {REGISTERING_AT_ONCE} at a time; server CPU {registration_cpu:.2} s (not in the games' figure below)",
            speed(),
            2 * o.games,
            started.elapsed().as_secs_f64()
        );
    }
    let started = Instant::now();
    let killer = o.kill.then(|| {
        let shared = Arc::clone(&shared);
        let pid = servers[0].child.id();
        let half = o.games * o.plies / 2;
        tokio::spawn(async move {
            while shared.acknowledged.load(Ordering::Relaxed) < half {
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
            // Marked before the signal: the clients see their connections reset at once,
            // and must know then that this is the kill.
            shared.alive[0].store(false, Ordering::Release);
            *shared.killed_at.lock().unwrap_or_else(|e| e.into_inner()) = Some(Instant::now());
            let _ = Command::new("kill").args(["-9", &pid.to_string()]).status();
        })
    });
    let mut players = players.into_iter();
    let tasks: Vec<_> = (0..o.games)
        .filter_map(|n| {
            // A rated game whose players could not register is not played.
            let p = if o.rated {
                Some(players.next()??)
            } else {
                None
            };
            Some(tokio::spawn(game(
                Arc::clone(&shared),
                n,
                o.plies,
                o.think,
                p,
            )))
        })
        .collect();
    let mut played = Vec::new();
    for t in tasks {
        if let Ok(Some(g)) = t.await {
            played.push(g);
        }
    }
    let elapsed = started.elapsed();
    if let Some(k) = killer {
        k.abort();
    }

    // Moves lost: each game read back from the server, then from the database after a restart.
    let mut lost = 0;
    for Played { key, plies: n, .. } in &played {
        match shared
            .http
            .get(format!("{}/api/games/{key}", shared.base(1)))
            .send()
            .await
        {
            Ok(r) => {
                let v: Value = r.json().await.unwrap_or(Value::Null);
                lost += n.saturating_sub(v["moves"].as_array().map_or(0, Vec::len));
            }
            Err(e) => shared.error(format!("reading {key}: {e}")).await,
        }
    }
    // The registrations' hashing is no part of the games' cost.
    let cpu = servers_cpu(&servers) - registration_cpu;
    let rated = if o.rated {
        Some(check_ratings(&shared, &played, 1).await)
    } else {
        None
    };
    servers.clear();
    let server = Server::start(&o.bin, &db);
    let base = format!("http://127.0.0.1:{}", server.port);
    let mut lost_after_restart = 0;
    for Played { key, plies: n, .. } in &played {
        let v: Value = match shared
            .http
            .get(format!("{base}/api/games/{key}"))
            .send()
            .await
        {
            Ok(r) => r.json().await.unwrap_or(Value::Null),
            Err(_) => Value::Null,
        };
        lost_after_restart += n.saturating_sub(v["moves"].as_array().map_or(0, Vec::len));
    }
    drop(server);

    let mut opp = shared.to_opponent.lock().await.clone();
    let mut spec = shared.to_spectator.lock().await.clone();
    opp.sort();
    spec.sort();
    let errors = shared.errors.load(Ordering::Relaxed);
    let acked = shared.acknowledged.load(Ordering::Relaxed);
    println!(
        "moves acknowledged: {acked} in {:.1} s",
        elapsed.as_secs_f64()
    );
    let per_move = |n: usize| n as f64 / acked.max(1) as f64;
    println!(
        "bytes received per move: {:.0} on each player's socket, {:.0} on the spectator's; server CPU {:.2} s ({:.2} ms a move)",
        per_move(shared.player_bytes.load(Ordering::Relaxed)) / 2.0,
        per_move(shared.spectator_bytes.load(Ordering::Relaxed)),
        cpu,
        cpu * 1000.0 / acked.max(1) as f64,
    );
    println!(
        "move -> opponent's socket:  p50 {}, p99 {}, max {} ({} moves)   target p99 < {} ms",
        ms(percentile(&opp, 50)),
        ms(percentile(&opp, 99)),
        ms(opp.last().copied().unwrap_or_default()),
        opp.len(),
        o.p99.as_millis()
    );
    println!(
        "move -> spectator's socket: p50 {}, p99 {}, max {} ({} moves)   target p99 < {} ms",
        ms(percentile(&spec, 50)),
        ms(percentile(&spec, 99)),
        ms(spec.last().copied().unwrap_or_default()),
        spec.len(),
        o.p99.as_millis()
    );
    let mut takeover_ok = true;
    if o.kill {
        let mut still = shared.standstill.lock().await.clone();
        let mut around = shared.around_kill.lock().await.clone();
        still.sort();
        around.sort();
        println!(
            "after kill -9 of server 1: every game moved again within {} (p50 {}, {} games); \
             moves in the 10 s after: p50 {}, p99 {}, max {} ({} moves, not in the figures above)",
            ms(still.last().copied().unwrap_or_default()),
            ms(percentile(&still, 50)),
            still.len(),
            ms(percentile(&around, 50)),
            ms(percentile(&around, 99)),
            ms(around.last().copied().unwrap_or_default()),
            around.len()
        );
        takeover_ok = still.len() == played.len()
            && still.last().is_some_and(|&d| d < Duration::from_secs(10));
        println!("   target: every game moving again within 10 s");
    }
    let mut rated_ok = true;
    if let Some(r) = &rated {
        let mismatches = shared.mismatches.load(Ordering::Relaxed);
        println!(
            "rated: {registered} accounts registered; {} of {} games rated as expected ({} won: winner \
             {WINNER_RATING}, loser {LOSER_RATING}, change ±{RATING_CHANGE}; {} drawn: both {NEW_RATING}, \
             change 0; {} ended on the board, the others by resignation); {} ratings checked; \
             mismatches: {mismatches}   target 0",
            r.games,
            o.games,
            r.won,
            r.games - r.won,
            r.ended_on_board,
            r.ratings
        );
        rated_ok = mismatches == 0 && r.games == o.games && r.ratings == 2 * o.games;
    }
    println!("errors: {errors}   target 0");
    for e in shared.first_errors.lock().await.iter() {
        println!("  {e}");
    }
    println!(
        "moves lost: {lost} (server), {lost_after_restart} (database after a restart)   target 0"
    );
    let ok = percentile(&opp, 99) < o.p99
        && percentile(&spec, 99) < o.p99
        && takeover_ok
        && rated_ok
        && errors == 0
        && lost == 0
        && lost_after_restart == 0
        && acked > 0;
    if o.check && !ok {
        std::process::exit(1);
    }
}
