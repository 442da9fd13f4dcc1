//! `chess960 event run`: a round robin of four engines (`chess960-random-engine`: two that
//! play on, one that crashes in every game and one that plays its second move illegally) played by the
//! real binary to its end, killed with SIGKILL in the middle and run again: the games stored
//! before the kill keep their boards and results, every board ends with its own game, the
//! faulty engines' losses carry their reasons, and `chess960 ratings --event` rates the four
//! from the event's games. Bad arguments are refused before anything is played.

mod common;
use common::{event_fails as fails, event_ok as ok, random_engine};
use serde_json::Value;
use std::collections::{BTreeMap, HashSet};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn engine_add(db: &Path, name: &str, args: &[&str]) {
    let engine = random_engine();
    let db = db.to_string_lossy();
    let mut all = vec!["engine", "--db", &db, "add", name, "--cmd"];
    let cmd = engine.to_string_lossy();
    all.push(&cmd);
    for a in args {
        all.push("--arg");
        all.push(a);
    }
    let o = common::run_with(&all, "");
    assert!(o.status.success(), "{}", common::stderr(&o));
}

/// `(round, board) -> (result, game key)` of the boards with a result.
fn results(db: &Path) -> BTreeMap<(u64, u64), (String, String)> {
    let v: Value = serde_json::from_str(&ok(db, &["show", "1", "--json"])).unwrap();
    let mut out = BTreeMap::new();
    for (r, round) in v["event"]["played"].as_array().unwrap().iter().enumerate() {
        for (b, board) in round["boards"].as_array().unwrap().iter().enumerate() {
            if let Some(res) = board["result"].as_str() {
                let game = board["game"].as_str().unwrap_or("").to_string();
                out.insert((r as u64 + 1, b as u64 + 1), (res.to_string(), game));
            }
        }
    }
    out
}

fn run_child(db: &Path) -> std::process::Child {
    Command::new(env!("CARGO_BIN_EXE_chess960"))
        .args(["event", "--db"])
        .arg(db)
        .args(["run", "1"])
        .env_remove("CHESS960_DB")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

#[test]
fn an_engine_round_robin_is_played_to_its_end_and_resumed_after_a_kill() {
    let dir = common::scratch_dir("event-run", "rr");
    let db = dir.join("g.sqlite3");
    engine_add(&db, "Steady", &["--seed", "1", "--slow", "25"]);
    engine_add(&db, "Steady Two", &["--seed", "2", "--slow", "25"]);
    // Crashy crashes instead of its first move, Illegal plays its second move illegally:
    // nobody is mated before (Illegal beats Crashy).
    engine_add(&db, "Crashy", &["--crash-after", "0"]);
    engine_add(&db, "Illegal", &["--illegal-after", "1"]);
    ok(
        &db,
        &[
            "new",
            "Engines 960",
            "--round-robin",
            "--time-control",
            "0:30+0",
        ],
    );
    for name in ["Steady", "Steady Two", "Crashy", "Illegal"] {
        let out = ok(&db, &["add", "1", name, "--engine", &name.to_lowercase()]);
        assert!(out.contains(&format!("(the engine {name})")), "{out}");
    }

    // The first run, killed (SIGKILL: no chance to tidy up) once a game is stored.
    let mut child = run_child(&db);
    let began = Instant::now();
    while results(&db).is_empty() {
        assert!(
            began.elapsed() < Duration::from_secs(60),
            "no game stored in a minute"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    child.kill().unwrap();
    let first = child.wait_with_output().unwrap();
    let mut lines = String::from_utf8(first.stdout).unwrap();
    let before = results(&db);
    assert!(!before.is_empty() && before.len() < 6, "{before:?}");

    // Run again: it goes on from the database to the end.
    let second = run_child(&db);
    let out = second.wait_with_output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        out.status.success(),
        "{text}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(text.contains("standings after round 3"), "{text}");
    lines.push_str(&text);
    let after = results(&db);
    assert_eq!(after.len(), 6, "every board has its result: {after:?}");
    for (board, kept) in &before {
        assert_eq!(
            &after[board], kept,
            "board {board:?} changed after the restart"
        );
    }
    let keys: HashSet<&String> = after.values().map(|(_, g)| g).collect();
    assert_eq!(keys.len(), 6, "each board its own game: {after:?}");
    assert!(keys.iter().all(|k| k.len() == 32));

    // The faulty engines lost with the reasons: Crashy every game, Illegal its two others.
    // One line per stored game.
    let finished: Vec<&str> = lines.lines().filter(|l| l.contains(" moves)")).collect();
    assert_eq!(finished.len(), 6, "{lines}");
    let count = |what: &str| finished.iter().filter(|l| l.contains(what)).count();
    assert_eq!(count("engine made an illegal move"), 2, "{lines}");
    assert_eq!(count("engine crashed (exit status"), 3, "{lines}");
    let v: Value = serde_json::from_str(&ok(&db, &["standings", "1", "--json"])).unwrap();
    let points: BTreeMap<&str, f64> = v["standings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| (r["name"].as_str().unwrap(), r["points"].as_f64().unwrap()))
        .collect();
    assert_eq!(points.get("Illegal"), Some(&1.0), "{v}");
    assert_eq!(points.get("Crashy"), Some(&0.0), "{v}");

    // The engines rated from the event's games.
    let dbs = db.to_string_lossy();
    let o = common::run_with(&["ratings", "--db", &dbs, "--event", "1"], "");
    let table = common::stdout(&o);
    assert!(o.status.success(), "{}", common::stderr(&o));
    for name in ["Steady", "Steady Two", "Crashy", "Illegal"] {
        let row = table
            .lines()
            .find(|l| {
                l.split_whitespace()
                    .collect::<Vec<_>>()
                    .join(" ")
                    .contains(&format!(" {name} "))
            })
            .unwrap_or_else(|| panic!("{name} not rated: {table}"));
        assert!(row.contains(" 3 "), "{name} played 3 games: {row}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn event_run_refuses_what_it_cannot_play() {
    let dir = common::scratch_dir("event-run", "refused");
    let db = dir.join("g.sqlite3");
    ok(
        &db,
        &[
            "new",
            "People",
            "--swiss",
            "--rounds",
            "3",
            "--time-control",
            "5+3",
        ],
    );
    ok(&db, &["add", "1", "Carlsen, Magnus"]);
    ok(&db, &["add", "1", "Nakamura, Hikaru"]);
    let e = fails(&db, &["run", "1"]);
    assert!(e.contains("no player of this event is an engine"), "{e}");
    let e = fails(&db, &["run", "1", "--threads", "0"]);
    assert!(e.contains("--threads 0"), "{e}");
    let e = fails(&db, &["run", "9"]);
    assert!(e.contains("no event"), "{e}");
    let e = fails(&db, &["add", "1", "Stockfish", "--engine", "Stockfish"]);
    assert!(e.contains("no engine Stockfish is registered"), "{e}");

    // An engine event whose time control is no clock waits, saying why.
    engine_add(&db, "A", &[]);
    engine_add(&db, "B", &[]);
    ok(&db, &["new", "No clock", "--round-robin"]);
    ok(&db, &["add", "2", "A", "--engine", "A"]);
    ok(&db, &["add", "2", "B", "--engine", "B"]);
    let e = fails(&db, &["run", "2"]);
    assert!(e.contains("has no time control"), "{e}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A knockout of two engines that crash at once in every game: each wins the games it has
/// Black, so the match is tied through its games and its blitz stage, and the Armageddon
/// (each side its own time) goes to Black. `event run` adds the stages and draws their
/// positions by itself, and ends with the placings.
#[test]
fn a_knockout_of_engines_is_run_through_its_tiebreaks_to_the_armageddon() {
    let dir = common::scratch_dir("event-run", "knockout");
    let db = dir.join("g.sqlite3");
    engine_add(&db, "Crash A", &["--crash-after", "0"]);
    engine_add(&db, "Crash B", &["--crash-after", "0"]);
    ok(
        &db,
        &[
            "new",
            "Cup",
            "--knockout",
            "--time-control",
            "0.1+0",
            "--tiebreak",
            "blitz:2:0.1+0",
            "--tiebreak",
            "armageddon:0.1+0/0.08+0",
        ],
    );
    ok(&db, &["add", "1", "Crash A", "--engine", "Crash A"]);
    ok(&db, &["add", "1", "Crash B", "--engine", "Crash B"]);
    let out = ok(&db, &["run", "1"]);
    for step in [
        "round 1 paired",
        "round 1: tiebreak games for match(es) [1]",
        "round 1, tiebreak stage 1: position",
        "round 1, tiebreak stage 2: position",
        "final placings",
    ] {
        assert!(out.contains(step), "{step}: {out}");
    }
    assert_eq!(
        out.matches("engine crashed (exit status").count(),
        5,
        "{out}"
    );
    let v: Value = serde_json::from_str(&ok(&db, &["show", "1", "--json"])).unwrap();
    let boards = v["event"]["played"][0]["boards"].as_array().unwrap();
    assert_eq!(boards.len(), 5, "2 games, 2 blitz games, the Armageddon");
    let armageddon = &boards[4];
    assert_eq!(armageddon["result"], "0-1", "{armageddon}");
    let champion = v["knockout"]["champion"]["player"].as_u64().unwrap();
    assert_eq!(
        champion,
        armageddon["black"].as_u64().unwrap() + 1,
        "{}",
        v["knockout"]
    );
    let _ = std::fs::remove_dir_all(&dir);
}
