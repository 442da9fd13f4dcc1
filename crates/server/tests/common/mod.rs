//! A server on an ephemeral port over a temporary database, and an HTTP and WebSocket client
//! for it.

#![allow(dead_code)] // each test binary uses its own part of this

use chess960_server::{Capacity, Server};
use futures_util::{SinkExt, StreamExt};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio_tungstenite::tungstenite::Message;

/// The seat tokens of the games created through [`App::post`], by game key. One map for the
/// whole test binary, so that a second server on the same database (a restart) plays on
/// with them, as a browser would.
static SEATS: std::sync::Mutex<Option<std::collections::HashMap<String, String>>> =
    std::sync::Mutex::new(None);

/// The seat token remembered for the game `key`.
pub fn seat_of(key: &str) -> Option<String> {
    SEATS
        .lock()
        .unwrap()
        .as_ref()
        .and_then(|m| m.get(key).cloned())
}

fn remember_seat(key: &str, token: &str) {
    SEATS
        .lock()
        .unwrap()
        .get_or_insert_with(Default::default)
        .insert(key.to_string(), token.to_string());
}

/// The game key in an action path `/api/games/{key}/...`.
fn key_of_path(path: &str) -> Option<&str> {
    path.strip_prefix("/api/games/")?.split(['/', '?']).next()
}

/// Generous: the machine running the tests may be busy.
pub const WAIT: Duration = Duration::from_secs(60);

pub struct App {
    pub server: Option<Server>,
    pub base: String,
    pub client: reqwest::Client,
    pub db: PathBuf,
    _dir: Option<tempfile::TempDir>,
}

/// The backend of the fresh databases of [`app`]: SQLite, or PostgreSQL when
/// `CHESS960_TEST_BACKEND=postgres` (then `CHESS960_TEST_PG` is the server to make them on;
/// `scripts/test.sh` runs the server's tests once on each backend).
fn on_postgres() -> Option<String> {
    if std::env::var("CHESS960_TEST_BACKEND").ok().as_deref() != Some("postgres") {
        return None;
    }
    let admin = std::env::var("CHESS960_TEST_PG")
        .expect("CHESS960_TEST_BACKEND=postgres needs CHESS960_TEST_PG (a server address)");
    Some(admin)
}

/// A fresh database: a SQLite file in a new temporary directory, or a new database on the
/// PostgreSQL test server (left to the throwaway cluster, which is removed whole).
fn fresh_db() -> (PathBuf, Option<tempfile::TempDir>) {
    if let Some(admin) = on_postgres() {
        use std::sync::atomic::{AtomicU32, Ordering};
        static NEXT: AtomicU32 = AtomicU32::new(0);
        let name = format!(
            "c960_srv_{}_{}",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed)
        );
        let address = std::thread::spawn(move || {
            let mut c = postgres::Client::connect(&admin, postgres::NoTls)
                .unwrap_or_else(|e| panic!("the test PostgreSQL server {admin}: {e}"));
            c.batch_execute(&format!("CREATE DATABASE {name}"))
                .unwrap_or_else(|e| panic!("CREATE DATABASE {name}: {e}"));
            let (base, _) = admin
                .rsplit_once('/')
                .expect("an address ending in /dbname");
            format!("{base}/{name}")
        })
        .join()
        .expect("a test database");
        return (PathBuf::from(address), None);
    }
    let dir = tempfile::tempdir().expect("temp dir");
    (dir.path().join("games.sqlite3"), Some(dir))
}

/// A server on a fresh database.
pub async fn app() -> App {
    app_with(Capacity::default()).await
}

/// A server on a fresh database with `capacity`.
pub async fn app_with(capacity: Capacity) -> App {
    let (db, dir) = fresh_db();
    let mut a = app_on_with(&db, capacity).await;
    a._dir = dir;
    a
}

/// A server on a fresh database with `options`.
#[allow(dead_code)]
pub async fn app_with_options(options: chess960_server::ServeOptions) -> App {
    let (db, dir) = fresh_db();
    let store: Arc<dyn chess960_store::GameStore> = Arc::from(store_at(&db));
    let server = Server::bind_with_options("127.0.0.1:0", store, options)
        .await
        .expect("bind");
    let mut a = App::of(server, &db);
    a._dir = dir;
    a
}

/// The store at `db` (a SQLite file or a PostgreSQL address), as the server opens it.
pub fn store_at(db: &Path) -> Box<dyn chess960_store::GameStore> {
    chess960_store::open(Some(db)).expect("open the store")
}

/// A server on the database at `db`.
pub async fn app_on(db: &Path) -> App {
    app_on_with(db, Capacity::default()).await
}

/// A server on the database at `db` with `capacity`.
pub async fn app_on_with(db: &Path, capacity: Capacity) -> App {
    let store: Arc<dyn chess960_store::GameStore> = Arc::from(store_at(db));
    let server = Server::bind_with("127.0.0.1:0", store, capacity)
        .await
        .expect("bind");
    App::of(server, db)
}

impl App {
    /// The client of `server`, on the database at `db`.
    fn of(server: Server, db: &Path) -> App {
        App {
            base: format!("http://{}", server.addr()),
            server: Some(server),
            client: reqwest::Client::new(),
            db: db.to_owned(),
            _dir: None,
        }
    }
}

pub struct Reply {
    pub status: u16,
    pub json: Value,
    pub text: String,
    pub headers: reqwest::header::HeaderMap,
}

impl Reply {
    pub fn error(&self) -> &str {
        self.json["error"]
            .as_str()
            .unwrap_or_else(|| panic!("no error message in {} {}", self.status, self.text))
    }
}

pub async fn reply(resp: reqwest::Response) -> Reply {
    let status = resp.status().as_u16();
    let headers = resp.headers().clone();
    let text = resp.text().await.expect("body");
    let json = serde_json::from_str(&text).unwrap_or(Value::Null);
    Reply {
        status,
        json,
        text,
        headers,
    }
}

impl App {
    pub async fn get(&self, path: &str) -> Reply {
        reply(
            self.client
                .get(format!("{}{path}", self.base))
                .send()
                .await
                .expect("GET"),
        )
        .await
    }

    /// GETs `path` with the seat token `seat` (a player reading their game).
    #[allow(dead_code)]
    pub async fn get_as(&self, path: &str, seat: &str) -> Reply {
        reply(
            self.client
                .get(format!("{}{path}", self.base))
                .header("x-seat-token", seat)
                .send()
                .await
                .expect("GET"),
        )
        .await
    }

    pub async fn post(&self, path: &str, body: Value) -> Reply {
        self.post_raw(path, body.to_string().into_bytes()).await
    }

    /// POSTs `body` as JSON. An action on a game carries the game's remembered seat token; a
    /// game created here has its token remembered.
    pub async fn post_raw(&self, path: &str, body: Vec<u8>) -> Reply {
        let seat = key_of_path(path).and_then(seat_of);
        self.post_as(path, body, seat.as_deref()).await
    }

    /// POSTs `body` as JSON with the seat token `seat` (or none).
    pub async fn post_as(&self, path: &str, body: Vec<u8>, seat: Option<&str>) -> Reply {
        let mut req = self
            .client
            .post(format!("{}{path}", self.base))
            .header("content-type", "application/json")
            .body(body);
        if let Some(token) = seat {
            req = req.header("x-seat-token", token);
        }
        let r = reply(req.send().await.expect("POST")).await;
        if path == "/api/games" && r.status == 201 {
            if let (Some(key), Some(token)) =
                (r.json["key"].as_str(), r.json["seat_token"].as_str())
            {
                remember_seat(key, token);
            }
        }
        r
    }

    /// Creates an event (`POST /api/events` with `body`); panics unless 201. Its key and the
    /// arbiter's token.
    #[allow(dead_code)]
    pub async fn new_event(&self, body: Value) -> (String, String) {
        let made = self.post("/api/events", body).await;
        assert_eq!(made.status, 201, "{}", made.text);
        let field = |name: &str| made.json[name].as_str().expect(name).to_string();
        (field("key"), field("arbiter_token"))
    }

    /// POSTs `body` to the event `key`'s `path` (`/players`, `/rounds/1/pair`, ...) with the
    /// arbiter's `token`.
    #[allow(dead_code)]
    pub async fn arbiter(&self, key: &str, path: &str, body: Value, token: &str) -> Reply {
        let r = self
            .client
            .post(format!("{}/api/events/{key}{path}", self.base))
            .header("content-type", "application/json")
            .header("x-arbiter-token", token)
            .body(body.to_string())
            .send()
            .await
            .expect("POST");
        reply(r).await
    }

    /// Creates a game; panics unless 201.
    pub async fn new_game(&self, body: Value) -> Value {
        let r = self.post("/api/games", body).await;
        assert_eq!(r.status, 201, "{}", r.text);
        r.json
    }

    /// `POST /api/games/{key}/{action}` with `body`, as the holder of `seat` (none: a
    /// visitor).
    pub async fn act(&self, key: &str, action: &str, body: Value, seat: Option<&str>) -> Reply {
        self.post_as(
            &format!("/api/games/{key}/{action}"),
            body.to_string().into_bytes(),
            seat,
        )
        .await
    }

    /// `POST /api/games/{key}/{action}` with `body` in protocol 2 (`X-Game-Protocol: 2`: an
    /// acknowledgement for an answer) as the holder of `seat`.
    #[allow(dead_code)]
    pub async fn act2(&self, key: &str, action: &str, body: Value, seat: &str) -> Reply {
        reply(
            self.client
                .post(format!("{}/api/games/{key}/{action}", self.base))
                .header("content-type", "application/json")
                .header("x-seat-token", seat)
                .header("x-game-protocol", "2")
                .body(body.to_string())
                .send()
                .await
                .expect("POST"),
        )
        .await
    }

    /// A game between two people, 5 minutes each: Ann (White) creates it, Bob joins by its
    /// link; its key and their seat tokens. Panics unless both succeed.
    pub async fn two_players(&self) -> (String, String, String) {
        let created = self
            .new_game(serde_json::json!({"start": {"id": 518}, "color": "white",
                "opponent": "human", "name": "Ann",
                "time_control": {"initial_ms": 300000, "increment_ms": 0}}))
            .await;
        let key = created["key"].as_str().unwrap().to_string();
        let ann = created["seat_token"].as_str().unwrap().to_string();
        let joined = self
            .act(&key, "join", serde_json::json!({"name": "Bob"}), None)
            .await;
        assert_eq!(joined.status, 200, "{}", joined.text);
        let bob = joined.json["seat_token"].as_str().unwrap().to_string();
        (key, ann, bob)
    }

    /// Plays the human's move; panics unless 200.
    pub async fn play(&self, game: &Value, mv: &str) -> Value {
        let key = game["key"].as_str().unwrap();
        let ply = game["moves"].as_array().unwrap().len();
        let r = self
            .post(
                &format!("/api/games/{key}/moves"),
                serde_json::json!({"move": mv, "ply": ply}),
            )
            .await;
        assert_eq!(r.status, 200, "{mv}: {}", r.text);
        r.json
    }

    /// Polls the game view until `pred` holds.
    pub async fn wait_for(&self, key: &str, pred: impl Fn(&Value) -> bool) -> Value {
        let start = Instant::now();
        loop {
            let r = self.get(&format!("/api/games/{key}")).await;
            assert_eq!(r.status, 200, "{}", r.text);
            if pred(&r.json) {
                return r.json;
            }
            assert!(
                start.elapsed() < WAIT,
                "timed out waiting; last view {}",
                r.text
            );
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }

    /// Waits until it is the human's turn (or the game is over).
    pub async fn wait_turn(&self, key: &str) -> Value {
        self.wait_for(key, |g| {
            g["status"] == "finished" || (g["turn"] == g["human"] && g["status"] == "playing")
        })
        .await
    }

    /// The game's WebSocket as its player (with the remembered seat token).
    pub async fn ws(&self, key: &str) -> Ws {
        let seat = seat_of(key).map_or(String::new(), |t| format!("?seat={t}"));
        self.ws_url(&format!("/api/games/{key}/ws{seat}")).await
    }

    /// The game's WebSocket as a spectator (no seat token).
    pub async fn ws_watch(&self, key: &str) -> Ws {
        self.ws_url(&format!("/api/games/{key}/ws")).await
    }

    /// A WebSocket at `path` (`/api/...`).
    pub async fn ws_url(&self, path: &str) -> Ws {
        let url = format!("{}{path}", self.base.replace("http", "ws"));
        let (stream, _) = tokio_tungstenite::connect_async(url)
            .await
            .expect("WebSocket");
        Ws { stream }
    }

    pub async fn stop(&mut self) {
        if let Some(s) = self.server.take() {
            s.shutdown().await;
        }
    }
}

pub struct Ws {
    stream: tokio_tungstenite::WebSocketStream<
        tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>,
    >,
}

impl Ws {
    /// The next JSON message.
    pub async fn next(&mut self) -> Value {
        loop {
            let msg = tokio::time::timeout(WAIT, self.stream.next())
                .await
                .expect("a WebSocket message in time")
                .expect("the WebSocket is open")
                .expect("a WebSocket message");
            match msg {
                Message::Text(t) => return serde_json::from_str(&t).expect("JSON message"),
                Message::Ping(p) => {
                    let _ = self.stream.send(Message::Pong(p)).await;
                }
                Message::Close(_) => panic!("the server closed the WebSocket"),
                _ => {}
            }
        }
    }

    /// Sends `v` as a JSON text message.
    pub async fn send(&mut self, v: Value) {
        self.stream
            .send(Message::Text(v.to_string().into()))
            .await
            .expect("send on the WebSocket");
    }

    /// Sends raw text, ignoring a connection the server has closed meanwhile.
    pub async fn send_text(&mut self, text: &str) {
        let _ = self
            .stream
            .send(Message::Text(text.to_string().into()))
            .await;
    }

    /// The close frame's code once the server closes the WebSocket (messages before it are
    /// skipped); `None` if the connection ends without one.
    pub async fn close_code(&mut self) -> Option<u16> {
        loop {
            let msg = tokio::time::timeout(WAIT, self.stream.next())
                .await
                .expect("the WebSocket closed in time");
            match msg {
                Some(Ok(Message::Close(frame))) => return frame.map(|f| u16::from(f.code)),
                Some(Ok(_)) => {}
                None | Some(Err(_)) => return None,
            }
        }
    }

    /// Closes the WebSocket as a page that leaves does.
    pub async fn close(mut self) {
        let _ = self.stream.close(None).await;
    }

    /// Messages until one whose `type` is `kind`; returns it and every message seen before.
    pub async fn until(&mut self, kind: &str) -> (Value, Vec<Value>) {
        let mut seen = Vec::new();
        loop {
            let m = self.next().await;
            if m["type"] == kind {
                return (m, seen);
            }
            seen.push(m);
        }
    }

    /// Messages until a `state` whose game satisfies `pred`; returns it and every message
    /// seen before.
    pub async fn until_state(&mut self, pred: impl Fn(&Value) -> bool) -> (Value, Vec<Value>) {
        let mut seen = Vec::new();
        loop {
            let m = self.next().await;
            if m["type"] == "state" && pred(&m["game"]) {
                return (m["game"].clone(), seen);
            }
            seen.push(m);
        }
    }
}

/// A PGN game from start position `id` with `moves` (SAN, numbered by the writer's rules).
pub fn pgn_from(id: u32, moves: &str) -> String {
    let fen = chess960_core::StartId::new(id).unwrap().position().fen();
    format!("[Variant \"Chess960\"]\n[SetUp \"1\"]\n[FEN \"{fen}\"]\n\n{moves} *\n")
}

/// The legal move of the view with this UCI.
pub fn legal<'a>(game: &'a Value, uci: &str) -> &'a Value {
    game["legal"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["uci"] == uci)
        .unwrap_or_else(|| panic!("{uci} is not among the legal moves: {}", game["legal"]))
}
