//! Integration tests of `chess960 match`: the real binary with a random-mover UCI engine
//! written on python-chess (`crates/arena/tests/engines/random_uci.py`, independent of the
//! rules core); usage errors, the table, `--json`, and Ctrl-C.

use std::process::{Command, Output, Stdio};
use std::time::Duration;

fn engine() -> String {
    format!(
        "{}/../arena/tests/engines/random_uci.py",
        env!("CARGO_MANIFEST_DIR")
    )
}

fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_chess960"))
        .arg("match")
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("the chess960 binary runs")
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// A usage error: exit 2 and one line `chess960: …` containing `want`.
fn usage_error(args: &[&str], want: &str) {
    let o = run(args);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
    assert!(o.stdout.is_empty());
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.starts_with("chess960: ") && err.contains(want),
        "{args:?}: {err}"
    );
}

#[test]
fn usage_errors_are_one_line_with_exit_2() {
    usage_error(&["-engine", "cmd=a", "tc=1"], "at least two engines");
    usage_error(
        &[
            "-engine", "cmd=a", "tc=1", "-engine", "cmd=b", "tc=1", "-games", "0",
        ],
        "-games: '0'",
    );
    usage_error(
        &[
            "-engine", "cmd=a", "tc=1", "-engine", "cmd=b", "tc=1", "-bogus",
        ],
        "unknown option '-bogus'",
    );
    usage_error(
        &["-engine", "cmd=a", "tc=1", "-engine", "cmd=b", "tc=40/x"],
        "engine 2 (b): tc=40/x: invalid time control",
    );
    usage_error(
        &[
            "-engine",
            "cmd=/no/such/engine",
            "tc=1",
            "-engine",
            "cmd=b",
            "tc=1",
        ],
        "engine 'engine' could not be started: cannot start '/no/such/engine'",
    );
}

#[test]
fn help_lists_the_cutechess_options() {
    let o = Command::new(env!("CARGO_BIN_EXE_chess960"))
        .args(["match", "--help"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success());
    for opt in [
        "-engine",
        "-each",
        "-openings",
        "-sprt",
        "-pgnout",
        "-recover",
        "--json",
    ] {
        assert!(text.contains(opt), "{opt}");
    }
}

#[test]
fn a_match_prints_the_table_and_json() {
    let e = engine();
    let cmd = format!("cmd={e}");
    let base = [
        "-engine",
        &cmd,
        "name=Py1",
        "-engine",
        &cmd,
        "name=Py2",
        "-each",
        "nodes=1",
        "-games",
        "2",
        "-maxmoves",
        "10",
        "-seed",
        "5",
    ];
    let o = run(&base);
    assert!(o.status.success(), "{}", stderr(&o));
    let table = String::from_utf8_lossy(&o.stdout);
    assert!(
        table.contains("Chess960 match: 2 of 2 games played"),
        "{table}"
    );
    assert!(table.contains("Score of Py1 vs Py2: "), "{table}");
    assert!(table.contains("Elo difference: "), "{table}");
    assert!(table.contains("Ptnml(0-2): ["), "{table}");
    // Progress: a line per game on standard error.
    assert_eq!(
        stderr(&o).matches("Finished game").count(),
        2,
        "{}",
        stderr(&o)
    );

    let mut args = base.to_vec();
    args.push("--json");
    let o = run(&args);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["finished"], 2);
    assert_eq!(v["seed"], 5);
    assert_eq!(v["pairs"][0]["engine1"], "Py1");
    assert_eq!(v["pairs"][0]["games"], 2);
    assert_eq!(v["games"][0]["start_id"], v["games"][1]["start_id"]);
    assert!(v["games"][0]["reason"].as_str().unwrap().contains("draw"));
}

#[cfg(unix)]
#[test]
fn ctrl_c_stops_and_still_writes_pgn_and_summary() {
    let dir = std::env::temp_dir().join(format!("chess960-match-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let pgn = dir.join("g.pgn");
    let cmd = format!("cmd={}", engine());
    let pgn_arg = pgn.display().to_string();
    // About 6 × 0.1 s per game.
    let child = Command::new(env!("CARGO_BIN_EXE_chess960"))
        .args([
            "match",
            "-engine",
            &cmd,
            "arg=--slow",
            "arg=0.1",
            "-engine",
            &cmd,
            "arg=--slow",
            "arg=0.1",
            "-each",
            "st=1",
            "-games",
            "20",
            "-maxmoves",
            "3",
            "-pgnout",
            &pgn_arg,
        ])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Ctrl-C once the first game is in the PGN file, whatever the machine's load: the match
    // is then in the middle of its next game.
    let deadline = std::time::Instant::now() + Duration::from_secs(120);
    while std::time::Instant::now() < deadline
        && std::fs::read_to_string(&pgn).map_or(0, |t| t.matches("[Event ").count()) == 0
    {
        std::thread::sleep(Duration::from_millis(20));
    }
    std::thread::sleep(Duration::from_millis(150));
    let killed = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let o = child.wait_with_output().unwrap();
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(out.contains("Stopped early: interrupted"), "{out}");
    assert!(stderr(&o).contains("stopping the match"), "{}", stderr(&o));
    let text = std::fs::read_to_string(&pgn).unwrap();
    let games = text.matches("[Event ").count();
    assert!((1..20).contains(&games), "{games} games in the PGN");
    assert!(
        text.contains("[Result \"*\"]"),
        "the abandoned game is written as unfinished"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
