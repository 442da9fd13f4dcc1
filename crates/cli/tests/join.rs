//! `chess960 play --join URL`: a game between people on a real `chess960 serve`, played from the
//! terminal against a player who uses the HTTP API (as the browser does): the terminal joins by
//! the link, keeps its seat token, moves, answers a draw offer; a second run with the same link
//! finds the seat again.

use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

struct Serve {
    child: Child,
    port: u16,
    dir: tempfile::TempDir,
}

impl Drop for Serve {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn serve() -> Serve {
    serve_in(tempfile::tempdir().expect("temp dir"))
}

/// A server over the database in `dir` (kept from an earlier server's run).
fn serve_in(dir: tempfile::TempDir) -> Serve {
    let mut child = Command::new(env!("CARGO_BIN_EXE_chess960"))
        .args(["serve", "--port", "0", "--db"])
        .arg(dir.path().join("games.sqlite3"))
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("spawn chess960 serve");
    let mut line = String::new();
    BufReader::new(child.stdout.take().expect("stdout"))
        .read_line(&mut line)
        .expect("the address line");
    let port = line
        .split("127.0.0.1:")
        .nth(1)
        .and_then(|r| r.split(|c: char| !c.is_ascii_digit()).next())
        .and_then(|p| p.parse().ok())
        .unwrap_or_else(|| panic!("no port in {line:?}"));
    Serve { child, port, dir }
}

/// One HTTP request to the server; the status and the JSON body.
fn http(
    port: u16,
    method: &str,
    path: &str,
    seat: Option<&str>,
    body: Option<Value>,
) -> (u16, Value) {
    let mut s = TcpStream::connect(("127.0.0.1", port)).expect("connect");
    s.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
    let body = body.map(|b| b.to_string()).unwrap_or_default();
    let seat = seat.map_or(String::new(), |t| format!("X-Seat-Token: {t}\r\n"));
    write!(
        s,
        "{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n{seat}Content-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let mut answer = String::new();
    s.read_to_string(&mut answer).unwrap();
    let status = answer
        .split(' ')
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or(0);
    let text = answer.split_once("\r\n\r\n").map_or("", |(_, b)| b);
    // Chunked or not, the JSON object is between the first '{' and the last '}'.
    let json = match (text.find('{'), text.rfind('}')) {
        (Some(a), Some(b)) => serde_json::from_str(&text[a..=b]).unwrap_or(Value::Null),
        _ => Value::Null,
    };
    (status, json)
}

/// The terminal player: its input, and its output line by line.
struct Terminal {
    child: Child,
    lines: mpsc::Receiver<String>,
    seen: Vec<String>,
}

impl Terminal {
    fn start(url: &str, config: &std::path::Path) -> Terminal {
        Terminal::with_args(&["play", "--join", url, "--name", "Bob"], config)
    }

    fn with_args(args: &[&str], config: &std::path::Path) -> Terminal {
        let mut child = Command::new(env!("CARGO_BIN_EXE_chess960"))
            .args(args)
            .env("CHESS960_CONFIG_DIR", config)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("spawn chess960 play");
        let out = child.stdout.take().unwrap();
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(out).lines().map_while(Result::ok) {
                if tx.send(line).is_err() {
                    return;
                }
            }
        });
        Terminal {
            child,
            lines,
            seen: Vec::new(),
        }
    }

    fn type_line(&mut self, line: &str) {
        let stdin = self.child.stdin.as_mut().expect("stdin");
        writeln!(stdin, "{line}").unwrap();
        stdin.flush().unwrap();
    }

    /// Waits for an output line containing `text`.
    fn expect(&mut self, text: &str) {
        let deadline = Instant::now() + Duration::from_secs(30);
        while Instant::now() < deadline {
            match self.lines.recv_timeout(Duration::from_millis(200)) {
                Ok(line) => {
                    let hit = line.contains(text);
                    self.seen.push(line);
                    if hit {
                        return;
                    }
                }
                Err(mpsc::RecvTimeoutError::Timeout) => {}
                Err(mpsc::RecvTimeoutError::Disconnected) => break,
            }
        }
        panic!(
            "no line with {text:?}; output so far:\n{}",
            self.seen.join("\n")
        );
    }
}

fn wait_game(port: u16, key: &str, pred: impl Fn(&Value) -> bool) -> Value {
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let (_, g) = http(port, "GET", &format!("/api/games/{key}"), None, None);
        if pred(&g) {
            return g;
        }
        assert!(Instant::now() < deadline, "timed out; last view {g}");
        std::thread::sleep(Duration::from_millis(100));
    }
}

#[test]
fn a_terminal_joins_a_game_by_its_link_and_plays_it() {
    let server = serve();
    let port = server.port;
    let config = tempfile::tempdir().unwrap();
    let (status, g) = http(
        port,
        "POST",
        "/api/games",
        None,
        Some(
            json!({"start": {"id": 518}, "opponent": "human", "name": "Ann",
                    "time_control": {"initial_ms": 300000, "increment_ms": 0}}),
        ),
    );
    assert_eq!(status, 201, "{g}");
    let key = g["key"].as_str().unwrap().to_string();
    let ann = g["seat_token"].as_str().unwrap().to_string();
    let url = format!("http://127.0.0.1:{port}/game/{key}");

    let mut bob = Terminal::start(&url, config.path());
    bob.expect("Seat token kept in");
    bob.expect("You play Black");
    let joined = wait_game(port, &key, |g| g["status"] == "playing");
    assert_eq!(joined["black"], "Bob");
    // The token is kept, readable by this user only.
    let kept = std::fs::read_to_string(config.path().join("seats.json")).unwrap();
    assert!(kept.contains(&key) && kept.contains("\"black\""), "{kept}");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(config.path().join("seats.json"))
            .unwrap()
            .permissions()
            .mode();
        assert_eq!(mode & 0o077, 0, "seats.json is private: {mode:o}");
    }

    let (s, _) = http(
        port,
        "POST",
        &format!("/api/games/{key}/moves"),
        Some(&ann),
        Some(json!({"move": "e2e4", "ply": 0})),
    );
    assert_eq!(s, 200);
    bob.expect("Your move");
    bob.type_line("e4");
    bob.expect("illegal");
    bob.type_line("e5");
    wait_game(port, &key, |g| {
        g["moves"].as_array().is_some_and(|m| m.len() == 2)
    });
    // Ann offers a draw; the terminal shows it and accepts.
    let (s, _) = http(
        port,
        "POST",
        &format!("/api/games/{key}/draw"),
        Some(&ann),
        Some(json!({"action": "offer"})),
    );
    assert_eq!(s, 200);
    bob.expect("offers a draw");
    bob.type_line("accept");
    bob.expect("Game over: 1/2-1/2 (draw agreed)");
    assert!(bob.child.wait().unwrap().success());
    let over = wait_game(port, &key, |g| g["status"] == "finished");
    assert_eq!(
        (over["result"].as_str(), over["reason"].as_str()),
        (Some("1/2-1/2"), Some("draw agreed"))
    );

    // With the same link again, the kept seat is found (no second join): the game is over.
    let mut again = Terminal::start(&url, config.path());
    again.expect("You play Black");
    again.expect("Game over");
    assert!(again.child.wait().unwrap().success());

    // A bad link says what is wrong.
    let bad = Command::new(env!("CARGO_BIN_EXE_chess960"))
        .args(["play", "--join", "http://127.0.0.1:1/game/nokey"])
        .output()
        .unwrap();
    assert_eq!(bad.status.code(), Some(2));
    let err = String::from_utf8_lossy(&bad.stderr);
    assert!(
        err.contains("bad --join") && err.contains("no game key"),
        "{err}"
    );
}

#[test]
fn a_game_between_people_survives_kill_9_of_the_server() {
    let mut server = serve();
    let port = server.port;
    let (_, g) = http(
        port,
        "POST",
        "/api/games",
        None,
        Some(
            json!({"start": {"id": 518}, "opponent": "human", "name": "Ann",
                    "time_control": {"initial_ms": 300000, "increment_ms": 2000}}),
        ),
    );
    let key = g["key"].as_str().unwrap().to_string();
    let ann = g["seat_token"].as_str().unwrap().to_string();
    let (_, j) = http(
        port,
        "POST",
        &format!("/api/games/{key}/join"),
        None,
        Some(json!({"name": "Bob"})),
    );
    let bob = j["seat_token"].as_str().unwrap().to_string();
    let mv = |port: u16, token: &str, uci: &str, ply: usize| {
        let (s, v) = http(
            port,
            "POST",
            &format!("/api/games/{key}/moves"),
            Some(token),
            Some(json!({"move": uci, "ply": ply})),
        );
        assert_eq!(s, 200, "{uci}: {v}");
        v
    };
    mv(port, &ann, "e2e4", 0);
    mv(port, &bob, "e7e5", 1);
    std::thread::sleep(Duration::from_millis(300));
    let last = mv(port, &ann, "g1f3", 2);
    let clocks = last["moves"][2]["clocks"].clone();
    assert!(
        clocks["white_ms"].as_u64().unwrap() > 300_000 - 5_000,
        "{clocks}"
    );

    // kill -9: no shutdown, no last write.
    server.child.kill().unwrap();
    server.child.wait().unwrap();
    let dir = std::mem::replace(&mut server.dir, tempfile::tempdir().unwrap());
    drop(server);
    std::thread::sleep(Duration::from_millis(1500));
    let server = serve_in(dir);
    let port = server.port;
    let (s, back) = http(port, "GET", &format!("/api/games/{key}"), None, None);
    assert_eq!(s, 200, "{back}");
    // Every acknowledged move is there, the clocks as stored with the last one, stopped while
    // nobody was there.
    let sans: Vec<&str> = back["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["san"].as_str().unwrap())
        .collect();
    assert_eq!(sans, ["e4", "e5", "Nf3"]);
    assert_eq!(back["status"], "playing");
    assert_eq!(back["paused"], true, "{back}");
    assert_eq!(back["clocks"]["running"], Value::Null);
    assert_eq!(back["clocks"]["white_ms"], clocks["white_ms"]);
    assert_eq!(back["clocks"]["black_ms"], clocks["black_ms"]);
    // Both players come back with their tokens and the game goes on, Black's clock running.
    let (s, _) = http(port, "GET", &format!("/api/games/{key}"), Some(&ann), None);
    assert_eq!(s, 200);
    let next = mv(port, &bob, "b8c6", 3);
    assert_eq!(next["paused"], false);
    assert_eq!(next["turn"], "white");
    assert_eq!(next["clocks"]["running"], "white");
    let black_after = next["clocks"]["black_ms"].as_u64().unwrap();
    let black_before = clocks["black_ms"].as_u64().unwrap();
    assert!(
        black_after <= black_before + 2_000 && black_after + 5_000 >= black_before + 2_000,
        "Black's clock, sane: {black_before} before the restart, {black_after} after his move (+2 s)"
    );
    mv(port, &ann, "f1c4", 4);
    let (_, fin) = http(
        port,
        "POST",
        &format!("/api/games/{key}/resign"),
        Some(&bob),
        Some(json!({})),
    );
    assert_eq!(fin["result"], "1-0", "{fin}");
}

/// Runs `chess960 ARGS` with `stdin` as its input; its status and standard output and error.
fn chess960(args: &[&str], config: &std::path::Path, stdin: &str) -> (bool, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_chess960"))
        .args(args)
        .env("CHESS960_CONFIG_DIR", config)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn chess960");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(stdin.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let text =
        String::from_utf8_lossy(&out.stdout).to_string() + &String::from_utf8_lossy(&out.stderr);
    (out.status.success(), text)
}

#[test]
fn two_logged_in_terminals_find_each_other_for_a_rated_game() {
    let server = serve();
    let port = server.port;
    let url = format!("http://127.0.0.1:{port}");
    let db = server.dir.path().join("games.sqlite3");
    let db = db.to_str().unwrap();
    let (ann_dir, bob_dir) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    for name in ["Ann", "Bob"] {
        let (ok, text) = chess960(
            &["user", "add", name, "--db", db],
            ann_dir.path(),
            "castle long on c1\n",
        );
        assert!(ok, "{text}");
    }
    // A rated seek needs a login; a wrong password is refused.
    let (ok, text) = chess960(
        &["play", "--seek", &url, "--tc", "3+2", "--rated"],
        ann_dir.path(),
        "",
    );
    assert!(!ok && text.contains("chess960 login"), "{text}");
    let (ok, text) = chess960(
        &["login", &url, "--name", "ann"],
        ann_dir.path(),
        "wrong password\n",
    );
    assert!(!ok && text.contains("wrong name or password"), "{text}");
    for (name, dir) in [("ann", &ann_dir), ("bob", &bob_dir)] {
        let (ok, text) = chess960(
            &["login", &url, "--name", name],
            dir.path(),
            "castle long on c1\n",
        );
        assert!(ok && text.contains("Logged in to"), "{text}");
        let kept = std::fs::read_to_string(dir.path().join("sessions.json")).unwrap();
        assert!(kept.contains(&url), "{kept}");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(dir.path().join("sessions.json"))
                .unwrap()
                .permissions()
                .mode();
            assert_eq!(mode & 0o077, 0, "sessions.json is private: {mode:o}");
        }
    }
    // Ann seeks first: nothing waits, so her challenge goes to the lobby.
    let mut ann = Terminal::with_args(
        &["play", "--seek", &url, "--tc", "3+2", "--rated"],
        ann_dir.path(),
    );
    ann.expect("yours is in the lobby");
    let deadline = Instant::now() + Duration::from_secs(30);
    let entry = loop {
        let (_, lobby) = http(port, "GET", "/api/lobby", None, None);
        if let Some(e) = lobby["challenges"]
            .as_array()
            .and_then(|c| c.first())
            .cloned()
        {
            break e;
        }
        assert!(Instant::now() < deadline, "no lobby entry: {lobby}");
        std::thread::sleep(Duration::from_millis(100));
    };
    assert_eq!(
        (entry["rated"].as_bool(), entry["account"].as_str()),
        (Some(true), Some("Ann"))
    );
    let key = entry["key"].as_str().unwrap().to_string();
    // A casual seek at the same clock does not take it; Bob's rated seek does.
    let mut bob = Terminal::with_args(
        &["play", "--seek", &url, "--tc", "3+2", "--rated"],
        bob_dir.path(),
    );
    bob.expect("Playing Ann's challenge");
    bob.expect("You play");
    let game = wait_game(port, &key, |g| g["status"] == "playing");
    assert_eq!(game["rated"], "blitz");
    let accounts = [
        &game["sides"]["white"]["account"],
        &game["sides"]["black"]["account"],
    ];
    let mut names: Vec<&str> = accounts.iter().filter_map(|a| a.as_str()).collect();
    names.sort_unstable();
    assert_eq!(names, ["Ann", "Bob"], "{game}");
    bob.type_line("resign");
    bob.expect("Game over");
    ann.expect("Game over");
    let over = wait_game(port, &key, |g| g["status"] == "finished");
    let change = |c: &str| over["sides"][c]["rating"]["change"].as_i64().unwrap();
    assert_eq!(change("white") + change("black"), 0, "{over}");
    assert_eq!(change("white").abs(), 242, "{over}");
    // Logged out: the session ends on the server and leaves the file.
    let (ok, text) = chess960(&["logout", &url], ann_dir.path(), "");
    assert!(ok && text.contains("Logged out"), "{text}");
    let kept = std::fs::read_to_string(ann_dir.path().join("sessions.json")).unwrap();
    assert!(!kept.contains(&url), "{kept}");
}
