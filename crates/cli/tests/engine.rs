//! `chess960 engine`: the registry of engines through the real binary, checked through the
//! store's own API as well (`chess960_store::EngineStore`): an engine added with arguments and
//! options, listed and shown (text and JSON), checked by starting it (`chess960-random-engine`,
//! the arena's sparring partner) with its unknown registered option reported, a bogus command
//! whose check fails clearly, a duplicate name refused whatever its case, bad usage, replacing
//! and removing.

use serde_json::Value;
use std::path::Path;
use std::process::Output;

mod common;
use common::random_engine;

/// Runs `chess960 engine --db DB ARGS`.
fn run(db: &Path, args: &[&str]) -> Output {
    let db = db.to_string_lossy();
    let all: Vec<&str> = ["engine", "--db", &db]
        .into_iter()
        .chain(args.iter().copied())
        .collect();
    common::run_with(&all, "")
}

fn ok(db: &Path, args: &[&str]) -> String {
    let o = run(db, args);
    assert!(
        o.status.success(),
        "{args:?}: {}{}",
        common::stdout(&o),
        common::stderr(&o)
    );
    common::stdout(&o)
}

/// The one line on standard error of a command that must fail with `code`.
fn fails(db: &Path, args: &[&str], code: i32) -> String {
    let o = run(db, args);
    assert_eq!(o.status.code(), Some(code), "{args:?} should fail: {o:?}");
    assert!(o.stdout.is_empty(), "{args:?}: {}", common::stdout(&o));
    let e = common::stderr(&o);
    assert_eq!(e.lines().count(), 1, "one line: {e}");
    assert!(e.starts_with("chess960: "), "{e}");
    e
}

#[test]
fn engines_are_registered_listed_checked_and_removed() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("games.sqlite3");
    let engine = random_engine();
    let cmd = engine.to_string_lossy();

    assert!(ok(&db, &["list"]).contains("no engines registered"));
    assert_eq!(ok(&db, &["list", "--json"]), "[]\n");

    let out = ok(
        &db,
        &[
            "add",
            "Random 1",
            "--cmd",
            &cmd,
            "--arg",
            "--seed",
            "--arg",
            "7",
            "--option",
            "Hash=16",
            "--option",
            "NoSuchOption=on",
        ],
    );
    assert!(
        out.starts_with("registered engine Random 1 (uci): "),
        "{out}"
    );
    assert!(out.trim_end().ends_with("--seed 7"), "{out}");

    // Through the store's API: exactly what was given.
    {
        let store = chess960_store::open(Some(&db)).unwrap();
        let e = store
            .engine_store()
            .unwrap()
            .engine("random 1")
            .unwrap()
            .unwrap();
        assert_eq!(e.name, "Random 1");
        assert_eq!(e.command, cmd);
        assert_eq!(e.args, ["--seed", "7"]);
        assert_eq!(e.dir, None);
        assert_eq!(e.protocol, chess960_store::EngineProtocol::Uci);
        assert_eq!(
            e.options,
            [
                ("Hash".to_string(), "16".to_string()),
                ("NoSuchOption".to_string(), "on".to_string())
            ]
        );
    }

    // The same name in another case is refused, and so is a bad name, both with exit 2.
    let e = fails(&db, &["add", "RANDOM 1", "--cmd", "other"], 2);
    assert!(e.contains("already registered"), "{e}");
    let e = fails(&db, &["add", "a/b", "--cmd", "x"], 2);
    assert!(e.contains("bad engine name"), "{e}");
    let e = fails(&db, &["add", "x", "--cmd", "x", "--option", "Hash"], 2);
    assert!(e.contains("NAME=VALUE"), "{e}");
    // Usage errors are clap's, with the same exit status.
    let o = run(&db, &["add", "x", "--cmd", "x", "--protocol", "cecp"]);
    assert_eq!(o.status.code(), Some(2));
    let o = run(&db, &["add", "x"]);
    assert_eq!(o.status.code(), Some(2));

    ok(
        &db,
        &[
            "add",
            "Bogus",
            "--cmd",
            "/nonexistent/chess960-no-such-engine",
            "--protocol",
            "xboard",
        ],
    );

    let list = ok(&db, &["list"]);
    let lines: Vec<&str> = list.lines().collect();
    assert_eq!(lines.len(), 2, "{list}");
    assert!(
        lines[0].starts_with("Bogus ") && lines[0].contains("xboard"),
        "{list}"
    );
    assert!(
        lines[1].starts_with("Random 1 ") && lines[1].contains("2 options"),
        "{list}"
    );

    let json: Value = serde_json::from_str(&ok(&db, &["list", "--json"])).unwrap();
    let names: Vec<&str> = (json.as_array().unwrap().iter())
        .map(|e| e["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["Bogus", "Random 1"]);

    let shown = ok(&db, &["show", "random 1"]);
    assert!(shown.contains("name:      Random 1"), "{shown}");
    assert!(shown.contains("arguments: --seed 7"), "{shown}");
    assert!(
        shown.contains("Hash=16") && shown.contains("NoSuchOption=on"),
        "{shown}"
    );
    let one: Value = serde_json::from_str(&ok(&db, &["show", "RANDOM 1", "--json"])).unwrap();
    assert_eq!(one["name"], "Random 1");
    assert_eq!(one["command"], cmd.as_ref());
    assert_eq!(one["args"], serde_json::json!(["--seed", "7"]));
    assert_eq!(one["dir"], Value::Null);
    assert_eq!(one["protocol"], "uci");
    assert_eq!(
        one["options"],
        serde_json::json!([{"name": "Hash", "value": "16"}, {"name": "NoSuchOption", "value": "on"}])
    );
    assert!(one["added_ms"].as_i64().unwrap() > 0);
    let e = fails(&db, &["show", "nobody"], 2);
    assert!(e.contains("no engine named 'nobody'"), "{e}");

    // The check starts it: its name, author and options, the unknown registered one marked.
    let check = ok(&db, &["check", "random 1"]);
    assert!(check.contains("id name:   Chess960 Random"), "{check}");
    assert!(check.contains("id author: the chess960 project"), "{check}");
    assert!(check.contains("  Hash (spin)"), "{check}");
    assert!(check.contains("Hash=16  ok"), "{check}");
    assert!(
        check.contains("NoSuchOption=on  UNKNOWN"),
        "the unknown option is marked: {check}"
    );
    assert!(check.contains("1 registered option is unknown"), "{check}");

    // A command that does not exist fails the check, with exit 1 and why.
    let e = fails(&db, &["check", "bogus"], 1);
    assert!(e.contains("Bogus") && e.contains("failed the check"), "{e}");
    assert!(e.contains("cannot start"), "{e}");

    // A program that never answers fails within the timeout.
    ok(&db, &["add", "Mute", "--cmd", "sleep", "--arg", "30"]);
    let began = std::time::Instant::now();
    let e = fails(&db, &["check", "mute", "--timeout", "1"], 1);
    assert!(began.elapsed().as_secs() < 10, "{e}");
    assert!(e.contains("no uciok within 1s"), "{e}");

    // Replaced whole with --replace.
    let out = ok(
        &db,
        &[
            "add",
            "RANDOM 1",
            "--cmd",
            &cmd,
            "--option",
            "Hash=8",
            "--replace",
        ],
    );
    assert!(out.starts_with("replaced engine RANDOM 1"), "{out}");
    let check = ok(&db, &["check", "Random 1"]);
    assert!(check.contains("check passed\n"), "{check}");
    assert!(!check.contains("UNKNOWN"), "{check}");

    // Removed, whatever the case; then it is gone.
    assert_eq!(ok(&db, &["remove", "BOGUS"]), "removed engine Bogus\n");
    let e = fails(&db, &["remove", "bogus"], 2);
    assert!(e.contains("no engine named"), "{e}");
    let e = fails(&db, &["check", "bogus"], 2);
    assert!(e.contains("no engine named"), "{e}");
    let json: Value = serde_json::from_str(&ok(&db, &["list", "--json"])).unwrap();
    assert_eq!(json.as_array().unwrap().len(), 2);
}

#[test]
fn every_subcommand_has_help_with_an_example() {
    for sub in ["add", "list", "show", "remove", "check"] {
        let o = common::run_with(&["engine", sub, "--help"], "");
        assert!(o.status.success(), "{sub}");
        let text = common::stdout(&o);
        assert!(text.contains("chess960 engine "), "{sub}: {text}");
    }
    let o = common::run_with(&["engine", "--help"], "");
    assert!(common::stdout(&o).contains("never accepts"));
}
