//! `chess960 play --join URL`: a game between people on a `chess960 serve` server, played from
//! the terminal. The link is the one the browser shows (`http://host:8960/game/KEY`); the first
//! time, the terminal takes the open seat (`POST …/join`) and keeps the seat's token in the local
//! config (`seats.json` in the config directory), so that `--join` with the same link later goes
//! on with the same seat. A link whose seats are taken is watched.
//!
//! The server is the referee: this client only shows its game views and sends what the player
//! types. It reads the game every half second (reading with the seat token also tells the
//! server the player is there), and lines typed at any time go to the server at once.

use chess960_core::{Color, Position};
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::io::{BufRead, Write};
use std::path::PathBuf;
use std::sync::mpsc::{self, RecvTimeoutError};
use std::time::Duration;

/// How often the game is read while nothing is typed.
const POLL: Duration = Duration::from_millis(500);
/// The environment variable that moves the config directory (tests, several identities).
pub const CONFIG_ENV: &str = "CHESS960_CONFIG_DIR";

const HELP: &str = "\
Type a move in SAN (Nf3, exd5, O-O) or UCI (g1f3; castling as the king onto its rook, e1h1),
or one of:
  moves      list your legal moves
  draw       offer a draw (or claim one: threefold repetition, fifty moves)
  accept     accept your opponent's draw offer, takeback proposal or rematch
  decline    decline it
  undo       ask to take your last move back
  resign     resign the game
  abort      abort the game (before both sides have moved)
  claim      claim the win when your opponent has left (claim draw: a draw)
  rematch    offer a rematch once the game is over
  place B c  place a piece (Northam's placement at the start: B, N or Q and a file)
  flip       turn the board around
  pgn        print the game so far as PGN
  quit       stop; the game goes on on the server (its clocks too): --join again to continue
";

/// The link: the server's address, the game's key, and the access token if the link has one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Link {
    /// `http://host:port` (or `https://...`), without a path.
    pub base: String,
    /// The game's key, 32 hex digits.
    pub key: String,
    /// `?token=...` of the link: the server's access token.
    pub access: Option<String>,
}

/// Reads a game link: `http(s)://host[:port]/game/KEY` as the browser shows it, or the API's
/// `/api/games/KEY`, with an optional `?token=` (the server's access token).
pub fn parse_link(url: &str) -> Result<Link, String> {
    let bad = |why: &str| {
        format!(
            "bad --join '{}': {why} (expected the game's link, e.g. http://192.168.1.5:8960/game/<32 hex digits>)",
            crate::error::quote(url)
        )
    };
    let url = url.trim();
    let (scheme, rest) = url
        .split_once("://")
        .ok_or_else(|| bad("no http:// or https://"))?;
    if scheme != "http" && scheme != "https" {
        return Err(bad("only http and https links"));
    }
    let (rest, query) = rest.split_once('?').unwrap_or((rest, ""));
    let (host, path) = rest.split_once('/').unwrap_or((rest, ""));
    if host.is_empty() || host.contains(['@', ' ']) {
        return Err(bad("no host"));
    }
    let key = path
        .trim_end_matches('/')
        .rsplit('/')
        .next()
        .filter(|k| k.len() == 32 && k.bytes().all(|b| b.is_ascii_hexdigit()))
        .ok_or_else(|| bad("no game key at the end"))?;
    let access = query
        .split('&')
        .find_map(|kv| kv.strip_prefix("token="))
        .filter(|t| !t.is_empty())
        .map(str::to_owned);
    Ok(Link {
        base: format!("{scheme}://{host}"),
        key: key.to_ascii_lowercase(),
        access,
    })
}

/// The seats this user holds on servers, kept between runs: link → token and colour.
struct SeatBook {
    path: Option<PathBuf>,
    seats: BTreeMap<String, Value>,
}

/// The file `name` in the config directory (`$CHESS960_CONFIG_DIR`, else `chess960` in the
/// user's config directory), if there is one.
pub(crate) fn config_file(name: &str) -> Option<PathBuf> {
    std::env::var_os(CONFIG_ENV)
        .map(PathBuf::from)
        .or_else(|| dirs::config_dir().map(|d| d.join("chess960")))
        .map(|d| d.join(name))
}

impl SeatBook {
    fn open() -> SeatBook {
        let path = config_file("seats.json");
        let seats = load_object(path.as_deref());
        SeatBook { path, seats }
    }

    fn get(&self, link: &Link) -> Option<String> {
        self.seats
            .get(&id_of(link))
            .and_then(|v| v["token"].as_str())
            .map(str::to_owned)
    }

    /// Keeps the token; says where, or why it could not (the game can still be played now).
    fn keep(&mut self, link: &Link, token: &str, color: &str) -> Result<PathBuf, String> {
        self.seats
            .insert(id_of(link), json!({"token": token, "color": color}));
        save_private(self.path.as_deref(), &self.seats)
    }
}

/// Reads a JSON object of the config directory (an empty one when it is missing or damaged).
pub(crate) fn load_object(path: Option<&std::path::Path>) -> BTreeMap<String, Value> {
    path.and_then(|p| std::fs::read_to_string(p).ok())
        .and_then(|t| serde_json::from_str(&t).ok())
        .unwrap_or_default()
}

/// Writes `object` to `path` of the config directory (created if need be), readable by this
/// user only; says where, or why it could not.
pub(crate) fn save_private(
    path: Option<&std::path::Path>,
    object: &BTreeMap<String, Value>,
) -> Result<PathBuf, String> {
    let path = path.ok_or("no config directory (set CHESS960_CONFIG_DIR)")?;
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    let text = serde_json::to_string_pretty(object).map_err(|e| e.to_string())?;
    write_private(path, &text).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(path.to_owned())
}

/// Writes `text` to `path`, readable by this user only (the tokens are secrets).
fn write_private(path: &std::path::Path, text: &str) -> std::io::Result<()> {
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create(true).truncate(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(0o600);
    }
    options.open(path)?.write_all(text.as_bytes())
}

fn id_of(link: &Link) -> String {
    format!("{}/game/{}", link.base, link.key)
}

/// An answer of the server that is not a success: its status and message.
struct Refused {
    message: String,
}

/// The server, as one player (or a spectator) sees it.
struct Remote {
    agent: ureq::Agent,
    link: Link,
    seat: Option<String>,
    /// The session `chess960 login` kept for this server: the account plays its games.
    session: Option<String>,
    /// The colour the server last said the account plays here (`X-Seat-Color`).
    account_color: std::cell::Cell<Option<Color>>,
}

impl Remote {
    fn url(&self, path: &str) -> String {
        format!("{}/api/games/{}{path}", self.link.base, self.link.key)
    }

    fn request(&self, path: &str, body: Option<Value>) -> Result<Value, Refused> {
        let seat = self.seat.as_deref();
        let access = self.link.access.as_deref();
        let session = self.session.as_deref();
        let answer = send(&self.agent, &self.url(path), seat, access, session, body);
        let (value, color) = answer.map_err(|message| Refused { message })?;
        if color.is_some() {
            self.account_color.set(color);
        }
        Ok(value)
    }

    fn game(&self) -> Result<Value, Refused> {
        self.request("", None)
    }

    fn act(&self, action: &str, body: Value) -> Result<Value, Refused> {
        self.request(&format!("/{action}"), Some(body))
    }

    fn pgn(&self) -> Result<String, String> {
        let mut response = self
            .agent
            .get(&self.url("/pgn"))
            .call()
            .map_err(|e| e.to_string())?;
        response
            .body_mut()
            .read_to_string()
            .map_err(|e| e.to_string())
    }
}

/// Plays (or watches) the game at `url` from the terminal.
pub fn run(
    url: &str,
    name: Option<&str>,
    input: Box<dyn BufRead + Send>,
    out: &mut dyn Write,
) -> Result<(), String> {
    let link = parse_link(url)?;
    let mut book = SeatBook::open();
    let remote = Remote::new(link, &book);
    play_remote(remote, &mut book, name, input, out)
}

impl Remote {
    /// The server of `link`, with the seat `book` keeps for it and the session `chess960
    /// login` kept for its server.
    fn new(link: Link, book: &SeatBook) -> Remote {
        let agent: ureq::Agent = ureq::Agent::config_builder()
            .http_status_as_error(false)
            .timeout_global(Some(Duration::from_secs(15)))
            .build()
            .into();
        Remote {
            agent,
            seat: book.get(&link),
            session: super::login::kept(&link.base).map(|k| k.session),
            account_color: std::cell::Cell::new(None),
            link,
        }
    }
}

/// One request to the server's API at `url` (a GET, or a POST of `body`), with the seat token,
/// the server's access token and the kept session as given: the JSON answer and the colour the
/// server says the session's account plays (`X-Seat-Color`), or the server's refusal in words.
fn send(
    agent: &ureq::Agent,
    url: &str,
    seat: Option<&str>,
    access: Option<&str>,
    session: Option<&str>,
    body: Option<Value>,
) -> Result<(Value, Option<Color>), String> {
    let mut headers: Vec<(&str, String)> = Vec::new();
    if let Some(s) = seat {
        headers.push(("X-Seat-Token", s.to_owned()));
    }
    if let Some(a) = access {
        headers.push(("Authorization", format!("Bearer {a}")));
    }
    if let Some(c) = session {
        headers.push(("Cookie", format!("{}={c}", super::login::COOKIE)));
    }
    let server = url.split("/api/").next().unwrap_or(url);
    let unreachable = |e: ureq::Error| format!("cannot reach {server}: {e}");
    let mut response = match body {
        None => {
            let mut req = agent.get(url);
            for (name, value) in &headers {
                req = req.header(*name, value);
            }
            req.call().map_err(unreachable)?
        }
        Some(body) => {
            let mut req = agent.post(url);
            for (name, value) in &headers {
                req = req.header(*name, value);
            }
            req.content_type("application/json")
                .send(body.to_string())
                .map_err(unreachable)?
        }
    };
    let status = response.status().as_u16();
    let color = match response.headers().get("x-seat-color").map(|v| v.as_bytes()) {
        Some(b"white") => Some(Color::White),
        Some(b"black") => Some(Color::Black),
        _ => None,
    };
    let text = response
        .body_mut()
        .with_config()
        .limit(16 << 20)
        .read_to_string()
        .map_err(|e| format!("the server's answer cannot be read: {e}"))?;
    let value: Value = serde_json::from_str(&text).unwrap_or(Value::Null);
    if (200..300).contains(&status) {
        Ok((value, color))
    } else {
        Err(value["error"]
            .as_str()
            .map_or_else(|| format!("HTTP {status}"), str::to_owned))
    }
}

/// What `play --seek` looks for: a clock, and whether the game is rated.
pub struct Seek {
    /// The clock's initial time.
    pub initial_ms: u64,
    /// Its increment.
    pub increment_ms: u64,
    /// A rated game (both players logged in).
    pub rated: bool,
}

/// `chess960 play --seek URL`: plays the first challenge in the server's lobby with the same
/// clock and rating (another player's), or lists one of its own there (a random Chess960
/// start, colours by lot) and waits for an opponent; then plays the game as `--join` does.
pub fn seek(
    url: &str,
    want: &Seek,
    name: Option<&str>,
    input: Box<dyn BufRead + Send>,
    out: &mut dyn Write,
) -> Result<(), String> {
    let (base, access) = super::login::parse_server(url)?;
    let kept = super::login::kept(&base);
    if want.rated && kept.is_none() {
        return Err(format!(
            "a rated game is between logged-in players: log in first with 'chess960 login {base}'"
        ));
    }
    let mut book = SeatBook::open();
    let agent: ureq::Agent = ureq::Agent::config_builder()
        .http_status_as_error(false)
        .timeout_global(Some(Duration::from_secs(15)))
        .build()
        .into();
    let session = kept.as_ref().map(|k| k.session.as_str());
    let call = |path: &str, body: Option<Value>| {
        let url = format!("{base}{path}");
        send(&agent, &url, None, access.as_deref(), session, body).map(|(v, _)| v)
    };
    let me = kept.as_ref().map(|k| k.name.to_ascii_lowercase());
    let lobby = call("/api/lobby", None)?;
    let found = lobby["challenges"].as_array().and_then(|all| {
        all.iter().find(|c| {
            c["time_control"]["initial_ms"].as_u64() == Some(want.initial_ms)
                && c["time_control"]["increment_ms"].as_u64() == Some(want.increment_ms)
                && c["rated"].as_bool().unwrap_or(false) == want.rated
                && (me.is_none() || c["account"].as_str().map(str::to_ascii_lowercase) != me)
        })
    });
    let link = |key: &str| Link {
        base: base.clone(),
        key: key.to_string(),
        access: access.clone(),
    };
    if let Some(c) = found {
        let key = c["key"].as_str().ok_or("a lobby entry without a key")?;
        writeln!(
            out,
            "Playing {}'s challenge from the lobby.",
            c["name"].as_str().unwrap_or("?")
        )
        .map_err(|e| e.to_string())?;
        let remote = Remote::new(link(key), &book);
        return play_remote(remote, &mut book, name, input, out);
    }
    let mut body = json!({
        "opponent": "human",
        "lobby": true,
        "start": {"random": true},
        "color": "random",
        "time_control": {"initial_ms": want.initial_ms, "increment_ms": want.increment_ms},
    });
    if want.rated {
        body["rated"] = json!(true);
    }
    if let Some(n) = name {
        body["name"] = json!(n);
    }
    let made =
        call("/api/games", Some(body)).map_err(|e| format!("{base} refused the challenge: {e}"))?;
    let key = made["key"].as_str().ok_or("a new game without a key")?;
    let token = made["seat_token"].as_str().unwrap_or_default();
    let color = made["seat_color"].as_str().unwrap_or("white");
    let link = link(key);
    if let Err(e) = book.keep(&link, token, color) {
        writeln!(out, "The seat token could not be kept ({e}).").map_err(|e| e.to_string())?;
    }
    writeln!(
        out,
        "No challenge with this clock is waiting: yours is in the lobby of {base} ({} game, link \
         {base}/game/{key}). Waiting for an opponent; 'quit' withdraws nothing (the challenge stays \
         joinable by its link), 'abort' withdraws it.",
        if want.rated { "a rated" } else { "a casual" }
    )
    .map_err(|e| e.to_string())?;
    let remote = Remote::new(link, &book);
    play_remote(remote, &mut book, name, input, out)
}

/// Joins the game of `remote` if it waits for its second player and this terminal has no
/// seat in it yet, then plays (or watches) it.
fn play_remote(
    mut remote: Remote,
    book: &mut SeatBook,
    name: Option<&str>,
    input: Box<dyn BufRead + Send>,
    out: &mut dyn Write,
) -> Result<(), String> {
    let mut view = remote.game().map_err(|r| r.message)?;
    let seated = remote.seat.is_some() || remote.account_color.get().is_some();
    if !seated && view["status"] == "waiting" {
        let body = name.map_or(json!({}), |n| json!({"name": n}));
        match remote.act("join", body) {
            Ok(joined) => {
                let token = joined["seat_token"].as_str().unwrap_or_default().to_owned();
                let color = joined["seat_color"].as_str().unwrap_or("white").to_owned();
                match book.keep(&remote.link, &token, &color) {
                    Ok(path) => writeln!(out, "Seat token kept in {}.", path.display()),
                    Err(e) => writeln!(out, "The seat token could not be kept ({e}): this run can play, a later one only watch."),
                }
                .map_err(|e| e.to_string())?;
                remote.seat = Some(token);
                view = joined;
            }
            Err(r) => {
                writeln!(out, "Cannot join: {}; watching.", r.message).map_err(|e| e.to_string())?
            }
        }
    }
    let me = my_color(&remote, book, &view);
    let mut session = Session {
        remote,
        me,
        flipped: me == Some(Color::Black),
        shown: None,
    };
    session.play(view, input, out).map_err(|e| e.to_string())
}

/// The colour this terminal plays: its kept seat's, or the one its account plays, else none
/// (it watches).
fn my_color(remote: &Remote, book: &SeatBook, view: &Value) -> Option<Color> {
    if view["hotseat"] == true {
        return None;
    }
    if remote.seat.is_none() {
        return remote.account_color.get();
    }
    let color = book
        .seats
        .get(&id_of(&remote.link))
        .and_then(|v| v["color"].as_str())
        .or(view["seat_color"].as_str())?;
    Some(if color == "black" {
        Color::Black
    } else {
        Color::White
    })
}

struct Session {
    remote: Remote,
    me: Option<Color>,
    flipped: bool,
    /// What was last shown: moves, status, offers (redrawn when it changes).
    shown: Option<String>,
}

impl Session {
    fn play(
        &mut self,
        mut view: Value,
        input: Box<dyn BufRead + Send>,
        out: &mut dyn Write,
    ) -> std::io::Result<()> {
        writeln!(
            out,
            "{} – {}, start position {}{}. {} Type 'help' for the commands.",
            view["white"].as_str().unwrap_or("?"),
            view["black"].as_str().unwrap_or("?"),
            view["start_id"]
                .as_u64()
                .map_or("(being placed)".to_string(), |n| n.to_string()),
            view["back_rank"]
                .as_str()
                .map_or(String::new(), |r| format!(" ({r})")),
            match self.me {
                Some(c) => format!("You play {}.", color_word(c)),
                None => "You are watching.".to_string(),
            }
        )?;
        // Lines typed go to the game at once, whoever's turn it is.
        let (tx, rx) = mpsc::channel::<Option<String>>();
        std::thread::spawn(move || {
            let mut input = input;
            loop {
                let mut line = String::new();
                match input.read_line(&mut line) {
                    Ok(0) | Err(_) => {
                        let _ = tx.send(None);
                        return;
                    }
                    Ok(_) => {
                        if tx.send(Some(line.trim().to_owned())).is_err() {
                            return;
                        }
                    }
                }
            }
        });
        loop {
            self.show(&view, out)?;
            if view["status"] == "finished" {
                return Ok(());
            }
            match rx.recv_timeout(POLL) {
                Ok(Some(line)) => {
                    if line.eq_ignore_ascii_case("quit") || line.eq_ignore_ascii_case("exit") {
                        return self.leave(out);
                    }
                    if let Some(v) = self.command(&line, &view, out)? {
                        view = v;
                    }
                }
                Ok(None) | Err(RecvTimeoutError::Disconnected) => return self.leave(out),
                Err(RecvTimeoutError::Timeout) => {}
            }
            match self.remote.game() {
                Ok(v) => view = v,
                Err(r) => writeln!(out, "{} (trying again)", r.message)?,
            }
        }
    }

    fn leave(&self, out: &mut dyn Write) -> std::io::Result<()> {
        writeln!(
            out,
            "Left the game; it goes on on the server. Continue with 'chess960 play --join {}/game/{}'.",
            self.remote.link.base, self.remote.link.key
        )
    }

    /// One line typed; the new view when the server answered with one.
    fn command(
        &mut self,
        line: &str,
        view: &Value,
        out: &mut dyn Write,
    ) -> std::io::Result<Option<Value>> {
        let lower = line.to_ascii_lowercase();
        let offer_from_them = |field: &str| {
            let them = self.me.map(|c| color_word(!c).to_ascii_lowercase());
            them.is_some() && view[field].as_str() == them.as_deref()
        };
        let sent = match lower.as_str() {
            "" => return Ok(None),
            "help" | "?" => {
                out.write_all(HELP.as_bytes())?;
                return Ok(None);
            }
            "flip" => {
                self.flipped = !self.flipped;
                self.shown = None;
                return Ok(None);
            }
            "moves" => {
                let list: Vec<&str> = view["legal"]
                    .as_array()
                    .map(|l| l.iter().filter_map(|m| m["san"].as_str()).collect())
                    .unwrap_or_default();
                if list.is_empty() {
                    writeln!(out, "No moves of yours now.")?;
                } else {
                    writeln!(out, "Legal moves: {}", list.join(" "))?;
                }
                return Ok(None);
            }
            "pgn" => {
                match self.remote.pgn() {
                    Ok(text) => out.write_all(text.as_bytes())?,
                    Err(e) => writeln!(out, "Cannot read the PGN: {e}")?,
                }
                return Ok(None);
            }
            "draw" if view["draw_claim"].is_string() => {
                self.remote.act("draw", json!({"action": "claim"}))
            }
            "draw" => self.remote.act("draw", json!({"action": "offer"})),
            "accept" | "decline" => {
                let action = lower.as_str();
                if offer_from_them("draw_offered_by") {
                    self.remote.act("draw", json!({"action": action}))
                } else if offer_from_them("takeback_proposed_by") {
                    self.remote.act("takeback", json!({"action": action}))
                } else if offer_from_them("rematch_offered_by") {
                    self.remote.act("rematch", json!({"action": action}))
                } else {
                    writeln!(out, "There is no offer from your opponent to {action}.")?;
                    return Ok(None);
                }
            }
            "undo" | "takeback" => self.remote.act("takeback", json!({})),
            "resign" => self.remote.act("resign", json!({})),
            "abort" => self.remote.act("abort", json!({})),
            "claim" | "claim win" => self.remote.act("force", json!({"result": "win"})),
            "claim draw" => self.remote.act("force", json!({"result": "draw"})),
            "rematch" => self.remote.act("rematch", json!({"action": "offer"})),
            _ if lower.starts_with("place ") => {
                let mut parts = line[6..].split_whitespace();
                let (piece, square) = (parts.next().unwrap_or(""), parts.next().unwrap_or(""));
                self.remote
                    .act("place", json!({"piece": piece, "square": square}))
            }
            _ => {
                let ply = view["moves"].as_array().map_or(0, Vec::len);
                if view["status"] == "playing"
                    && self.me.is_some_and(|c| {
                        color_word(c).eq_ignore_ascii_case(view["turn"].as_str().unwrap_or(""))
                    })
                {
                    self.remote.act("moves", json!({"move": line, "ply": ply}))
                } else {
                    // Not this player's turn: kept as a premove, played the moment it is.
                    self.remote
                        .act("premove", json!({"move": line}))
                        .inspect(|_| {
                            let _ = writeln!(
                                out,
                                "Premove {line}: played when it is your turn, if legal then."
                            );
                        })
                }
            }
        };
        match sent {
            Ok(v) => {
                // A rematch made: follow it with the same seat.
                if let Some(next) = v["rematch"].as_str() {
                    writeln!(out, "Rematch: {}/game/{next}", self.remote.link.base)?;
                }
                Ok(Some(v))
            }
            Err(r) => {
                writeln!(out, "{}", r.message)?;
                Ok(None)
            }
        }
    }

    /// The board, the last move, the clocks, offers and the result, when any changed.
    fn show(&mut self, view: &Value, out: &mut dyn Write) -> std::io::Result<()> {
        let key = format!(
            "{}|{}|{}|{}|{}|{}|{}|{}",
            view["moves"].as_array().map_or(0, Vec::len),
            view["status"],
            view["draw_offered_by"],
            view["takeback_proposed_by"],
            view["rematch_offered_by"],
            view["placement"]["placed"].as_array().map_or(0, Vec::len),
            view["away"]["white_ms"].is_null() && view["away"]["black_ms"].is_null(),
            view["rematch"],
        );
        if self.shown.as_deref() == Some(key.as_str()) {
            return Ok(());
        }
        self.shown = Some(key);
        writeln!(out)?;
        if let Some(p) = view["placement"].as_object() {
            let rank = p.get("rank").and_then(Value::as_str).unwrap_or("");
            writeln!(
                out,
                "Placing the start (Northam): {}",
                rank.replace('.', "·")
            )?;
            match p.get("to_place").and_then(Value::as_str) {
                Some(c)
                    if Some(c)
                        == self
                            .me
                            .map(color_word)
                            .map(str::to_ascii_lowercase)
                            .as_deref() =>
                {
                    let legal = p.get("legal").map(Value::to_string).unwrap_or_default();
                    writeln!(
                        out,
                        "Your turn to place: 'place B c' (piece and file; allowed now: {legal})."
                    )?;
                }
                Some(c) => writeln!(out, "{} places a piece.", capital(c))?,
                None => {}
            }
            return Ok(());
        }
        if let Ok(pos) = Position::from_fen(view["fen"].as_str().unwrap_or("")) {
            out.write_all(pos.board().to_unicode(self.flipped).as_bytes())?;
        }
        if let Some(last) = view["moves"].as_array().and_then(|m| m.last()) {
            let n = view["moves"].as_array().map_or(0, Vec::len);
            writeln!(
                out,
                "Last move: {}{}",
                if n % 2 == 1 {
                    format!("{}. ", n.div_ceil(2))
                } else {
                    format!("{}... ", n / 2)
                },
                last["san"].as_str().unwrap_or("?")
            )?;
        }
        if let Some(c) = view["clocks"].as_object() {
            let t = |k: &str| clock(c.get(k).and_then(Value::as_u64).unwrap_or(0));
            writeln!(
                out,
                "Clocks: White {} · Black {}",
                t("white_ms"),
                t("black_ms")
            )?;
        }
        let them = self.me.map(|c| color_word(!c).to_ascii_lowercase());
        let from_them = |f: &str| them.is_some() && view[f].as_str() == them.as_deref();
        if from_them("draw_offered_by") {
            writeln!(out, "Your opponent offers a draw: 'accept' or 'decline'.")?;
        }
        if from_them("takeback_proposed_by") {
            writeln!(
                out,
                "Your opponent asks to take their last move back: 'accept' or 'decline'."
            )?;
        }
        if from_them("rematch_offered_by") {
            writeln!(
                out,
                "Your opponent offers a rematch: 'accept' or 'decline'."
            )?;
        }
        if let (Some(me), Some(away)) = (self.me, view["away"].as_object()) {
            let theirs = if me == Color::White {
                "black_ms"
            } else {
                "white_ms"
            };
            if away.get(theirs).is_some_and(|v| !v.is_null()) {
                writeln!(out, "Your opponent left the game: after {} s away you may 'claim' the win (or 'claim draw').", away.get("claim_after_ms").and_then(Value::as_u64).unwrap_or(0) / 1000)?;
            }
        }
        if let Some(next) = view["rematch"].as_str() {
            writeln!(
                out,
                "Rematch: chess960 play --join {}/game/{next}",
                self.remote.link.base
            )?;
        }
        match view["status"].as_str() {
            Some("finished") => writeln!(
                out,
                "Game over: {} ({}).",
                view["result"].as_str().unwrap_or("*"),
                view["reason"].as_str().unwrap_or("")
            )?,
            Some("waiting") => writeln!(out, "Waiting for the second player to join.")?,
            Some("playing") => {
                let turn = view["turn"].as_str().unwrap_or("white");
                if self
                    .me
                    .map(color_word)
                    .map(str::to_ascii_lowercase)
                    .as_deref()
                    == Some(turn)
                {
                    writeln!(
                        out,
                        "Your move{}.",
                        if view["check"].is_string() {
                            " (check)"
                        } else {
                            ""
                        }
                    )?;
                } else {
                    writeln!(out, "{} to move.", capital(turn))?;
                }
            }
            _ => {}
        }
        out.flush()
    }
}

fn color_word(c: Color) -> &'static str {
    match c {
        Color::White => "White",
        Color::Black => "Black",
    }
}

fn capital(s: &str) -> String {
    let mut c = s.chars();
    c.next()
        .map_or(String::new(), |f| f.to_uppercase().chain(c).collect())
}

fn clock(ms: u64) -> String {
    let s = ms / 1000;
    format!("{}:{:02}", s / 60, s % 60)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn links_as_the_browser_and_the_api_give_them() {
        let key = "0123456789abcdef0123456789ABCDEF";
        let l = parse_link(&format!("http://192.168.1.5:8960/game/{key}")).unwrap();
        assert_eq!(l.base, "http://192.168.1.5:8960");
        assert_eq!(l.key, key.to_ascii_lowercase());
        assert_eq!(l.access, None);
        let l = parse_link(&format!("https://chess.example/api/games/{key}/?token=abc")).unwrap();
        assert_eq!(
            (l.base.as_str(), l.access.as_deref()),
            ("https://chess.example", Some("abc"))
        );
        for bad in [
            "",
            "ftp://x/game/abc",
            "http:///game/0123",
            "http://host/game/xyz",
            "host/game/0123456789abcdef0123456789abcdef",
        ] {
            let e = parse_link(bad).unwrap_err();
            assert!(e.starts_with("bad --join"), "{bad}: {e}");
        }
    }

    #[test]
    fn clocks_in_minutes_and_seconds() {
        assert_eq!(clock(300_000), "5:00");
        assert_eq!(clock(61_999), "1:01");
        assert_eq!(capital("black"), "Black");
    }
}
