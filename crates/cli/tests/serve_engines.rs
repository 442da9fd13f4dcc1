//! `chess960 serve` plays an engine event: three engines (`chess960-random-engine`, one of
//! them crashing in every game) entered over the API by their registered names, played by the
//! server from the arbiter's "play" to the end of a round robin, the live view showing the
//! boards with their moves and clocks, a pause that stops the games, and the server killed
//! with SIGKILL in the middle and started again on the same database: it takes the event up
//! by itself, keeps the games stored before, and finishes it.

mod common;
use serde_json::{json, Value};
use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// A server killed when the test ends, however it ends (a server left running would hold
/// whatever its test's parent holds open).
struct Killed(Child);

impl Killed {
    fn kill(&mut self) -> std::io::Result<()> {
        self.0.kill()?;
        self.0.wait().map(|_| ())
    }
}

impl Drop for Killed {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// `chess960 serve` on a free port over `db`; its address.
fn serve(db: &Path) -> (Killed, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_chess960"))
        .args(["serve", "--port", "0", "--db"])
        .arg(db)
        .env_remove("CHESS960_DB")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("spawn chess960 serve");
    let mut line = String::new();
    BufReader::new(child.stdout.take().expect("stdout"))
        .read_line(&mut line)
        .expect("the first line");
    let url = line
        .strip_prefix("chess960 serve: ")
        .and_then(|rest| rest.split_whitespace().next())
        .unwrap_or_else(|| panic!("no address in {line:?}"))
        .trim_end_matches('/')
        .to_string();
    (Killed(child), url)
}

fn call(method: &str, url: &str, token: Option<&str>, body: Option<Value>) -> (u16, Value) {
    let agent: ureq::Agent = ureq::Agent::config_builder()
        .http_status_as_error(false)
        .timeout_global(Some(Duration::from_secs(30)))
        .build()
        .into();
    let mut response = match (method, body) {
        ("GET", _) => agent.get(url).call(),
        (_, body) => {
            let mut req = agent.post(url).content_type("application/json");
            if let Some(t) = token {
                req = req.header("X-Arbiter-Token", t);
            }
            req.send(body.unwrap_or(json!({})).to_string())
        }
    }
    .expect("the server answers");
    let status = response.status().as_u16();
    let text = response.body_mut().read_to_string().unwrap();
    (
        status,
        serde_json::from_str(&text).unwrap_or(Value::String(text)),
    )
}

fn results(base: &str, key: &str) -> Vec<Option<String>> {
    let (_, v) = call("GET", &format!("{base}/api/events/{key}"), None, None);
    v["round_list"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|r| r["boards"].as_array().unwrap().clone())
        .map(|b| b["result"].as_str().map(str::to_string))
        .collect()
}

fn wait_until(what: &str, secs: u64, mut f: impl FnMut() -> bool) {
    let began = Instant::now();
    while !f() {
        assert!(
            began.elapsed() < Duration::from_secs(secs),
            "{what}: not within {secs} s"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn the_server_plays_an_engine_event_and_takes_it_up_again_after_a_kill() {
    let dir = common::scratch_dir("serve-engines", "rr");
    let db = dir.join("g.sqlite3");
    let engine = common::random_engine();
    let dbs = db.to_string_lossy().to_string();
    let cmd = engine.to_string_lossy().to_string();
    for (name, args) in [
        ("Steady", vec!["--seed", "1", "--slow", "20"]),
        ("Steady Two", vec!["--seed", "2", "--slow", "20"]),
        // Crashes instead of its first move: no game of it ends otherwise.
        ("Crashy", vec!["--crash-after", "0"]),
    ] {
        let mut all = vec!["engine", "--db", &dbs, "add", name, "--cmd", &cmd];
        for a in args {
            all.extend(["--arg", a]);
        }
        let o = common::run_with(&all, "");
        assert!(o.status.success(), "{}", common::stderr(&o));
    }

    let (mut server, base) = serve(&db);
    let (status, engines) = call("GET", &format!("{base}/api/engines"), None, None);
    assert_eq!(status, 200);
    assert_eq!(engines["engines"].as_array().unwrap().len(), 3, "{engines}");
    let (status, made) = call(
        "POST",
        &format!("{base}/api/events"),
        None,
        Some(json!({"name": "Server engines", "format": "round_robin", "time_control": "0:30+0"})),
    );
    assert_eq!(status, 201, "{made}");
    let key = made["key"].as_str().unwrap().to_string();
    let token = made["arbiter_token"].as_str().unwrap().to_string();
    let event = format!("{base}/api/events/{key}");
    for name in ["steady", "Steady Two", "CRASHY"] {
        let (status, v) = call(
            "POST",
            &format!("{event}/players"),
            Some(&token),
            Some(json!({"engine": name})),
        );
        assert_eq!(status, 200, "{v}");
    }
    let (_, v) = call("GET", &event, None, None);
    let entered: Vec<(&str, &str)> = v["players"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| (p["name"].as_str().unwrap(), p["engine"].as_str().unwrap()))
        .collect();
    assert_eq!(
        entered,
        [
            ("Steady", "Steady"),
            ("Steady Two", "Steady Two"),
            ("Crashy", "Crashy")
        ]
    );
    // Not the arbiter: refused.
    let (status, _) = call("POST", &format!("{event}/engines/play"), Some("nope"), None);
    assert_eq!(status, 403);
    let (status, v) = call(
        "POST",
        &format!("{event}/players"),
        Some(&token),
        Some(json!({"engine": "Stockfish"})),
    );
    assert_eq!(status, 404, "{v}");

    let (status, v) = call("POST", &format!("{event}/engines/play"), Some(&token), None);
    assert_eq!((status, &v), (200, &json!({"running": true})));
    // The live view: a board with moves and both clocks.
    wait_until("a live board with moves", 60, || {
        let (_, live) = call("GET", &format!("{event}/live"), None, None);
        live["running"] == true
            && live["boards"].as_array().is_some_and(|b| {
                b.iter().any(|b| {
                    b["moves"].as_array().is_some_and(|m| !m.is_empty())
                        && b["clocks"]["white_ms"].as_u64().is_some()
                })
            })
    });
    // A pause stops the games; play goes on.
    let (status, v) = call(
        "POST",
        &format!("{event}/engines/pause"),
        Some(&token),
        None,
    );
    assert_eq!((status, &v), (200, &json!({"running": false})));
    wait_until("the pause", 20, || {
        let (_, live) = call("GET", &format!("{event}/live"), None, None);
        live["running"] == false && live["status"] == "paused"
    });
    let (_, v) = call("GET", &event, None, None);
    assert_eq!(v["engines_play"], false);
    let (status, _) = call("POST", &format!("{event}/engines/play"), Some(&token), None);
    assert_eq!(status, 200);

    // Killed once a game is stored...
    wait_until("a game stored", 90, || {
        results(&base, &key).iter().any(Option::is_some)
    });
    let before = results(&base, &key);
    server.kill().unwrap();
    // ... and started again: it takes the event up by itself.
    let (mut server, base) = serve(&db);
    let event = format!("{base}/api/events/{key}");
    let now = results(&base, &key);
    for (k, (a, b)) in before.iter().zip(&now).enumerate() {
        if a.is_some() {
            assert_eq!(a, b, "board {} changed after the restart", k + 1);
        }
    }
    wait_until("the event finished", 120, || {
        results(&base, &key).iter().all(Option::is_some)
    });
    wait_until("the live view says so", 20, || {
        let (_, live) = call("GET", &format!("{event}/live"), None, None);
        live["status"] == "finished" && live["running"] == false
    });
    let (_, v) = call("GET", &event, None, None);
    let boards: Vec<Value> = v["round_list"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|r| r["boards"].as_array().unwrap().clone())
        .collect();
    assert_eq!(boards.len(), 3);
    assert!(
        boards
            .iter()
            .all(|b| b["game"].as_str().is_some_and(|g| g.len() == 32)),
        "{v}"
    );
    let crashy = v["players"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["name"] == "Crashy")
        .unwrap();
    assert_eq!(crashy["points"], 0.0, "Crashy crashes in every game: {v}");
    // Its games carry the reason.
    for b in boards.iter().filter(|b| b["white"] == 3 || b["black"] == 3) {
        let game = b["game"].as_str().unwrap();
        let (status, g) = call("GET", &format!("{base}/api/games/{game}"), None, None);
        assert_eq!(status, 200, "{g}");
        assert!(g.to_string().contains("engine crashed (exit status"), "{g}");
    }
    server.kill().unwrap();
    let _ = std::fs::remove_dir_all(&dir);
}

/// The games route makes games between people only: a board with an engine on it is the
/// engines' play's (two engines) or the arbiter's result (a person against an engine).
#[test]
fn the_games_between_people_leave_the_engines_boards_alone() {
    let dir = common::scratch_dir("serve-engines", "mixed");
    let db = dir.join("g.sqlite3");
    let engine = common::random_engine();
    let (dbs, cmd) = (
        db.to_string_lossy().to_string(),
        engine.to_string_lossy().to_string(),
    );
    for name in ["Steady", "Steady Two"] {
        let o = common::run_with(&["engine", "--db", &dbs, "add", name, "--cmd", &cmd], "");
        assert!(o.status.success(), "{}", common::stderr(&o));
    }
    let (_server, base) = serve(&db);
    let (_, made) = call(
        "POST",
        &format!("{base}/api/events"),
        None,
        Some(json!({"name": "Mixed", "format": "round_robin", "time_control": "5+3"})),
    );
    let key = made["key"].as_str().unwrap().to_string();
    let token = made["arbiter_token"].as_str().unwrap().to_string();
    let event = format!("{base}/api/events/{key}");
    for body in [
        json!({"engine": "Steady"}),
        json!({"name": "Carlsen, Magnus"}),
        json!({"engine": "Steady Two"}),
        json!({"name": "Caruana, Fabiano"}),
    ] {
        let (status, v) = call(
            "POST",
            &format!("{event}/players"),
            Some(&token),
            Some(body),
        );
        assert_eq!(status, 200, "{v}");
    }
    // Every round: each board gets a game between people exactly when no engine is on it.
    for round in 1..=3 {
        let r = |path: &str| format!("{event}/rounds/{round}/{path}");
        let (status, v) = call(
            "POST",
            &r("draw"),
            Some(&token),
            Some(json!({"method": "computer"})),
        );
        assert_eq!(status, 200, "{v}");
        let (status, v) = call("POST", &r("pair"), Some(&token), None);
        assert_eq!(status, 200, "{v}");
        let (status, v) = call("POST", &r("games"), Some(&token), None);
        let (_, view) = call("GET", &event, None, None);
        let engine_of =
            |n: &Value| view["players"][n.as_u64().unwrap() as usize - 1]["engine"].is_string();
        let boards = view["round_list"][round - 1]["boards"]
            .as_array()
            .unwrap()
            .clone();
        let people = boards
            .iter()
            .filter(|b| !engine_of(&b["white"]) && !engine_of(&b["black"]))
            .count();
        if people == 0 {
            assert_eq!(status, 409, "{v}");
        } else {
            assert_eq!(status, 200, "{v}");
        }
        for b in &boards {
            let with_engine = engine_of(&b["white"]) || engine_of(&b["black"]);
            assert_eq!(b["game"].is_string(), !with_engine, "round {round}: {b}");
        }
        // Results, to pair the next round.
        for k in 0..boards.len() {
            let (status, v) = call(
                "POST",
                &r(&format!("boards/{}/result", k + 1)),
                Some(&token),
                Some(json!({"result": "1/2-1/2"})),
            );
            assert_eq!(status, 200, "{v}");
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}
