//! `chess960 db import | export | list | show | stats | check`: the command-line contract on
//! crafted files and on the shared test data.

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

mod common;
use common::{shared, stderr, stdout};

fn run(db: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_chess960"))
        .arg("db")
        .arg("--db")
        .arg(db)
        .args(args)
        .env_remove("CHESS960_DB")
        .output()
        .expect("the chess960 binary runs")
}

/// A scratch directory unique to this test process and `name`.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("chess960-cli-db-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

const GAMES: &str = "[Event \"one\"]\n[White \"Ann\"]\n[Black \"Ben\"]\n[Date \"2024.01.02\"]\n\
[Variant \"Chess960\"]\n[FEN \"bbqnnrkr/ppppp1pp/8/5p2/5P2/8/PPPPP1PP/BBQNNRKR w KQkq - 0 2\"]\n\
[TimeControl \"60+1\"]\n\n2. Nf3 { [%clk 0:00:55] } Nf6 { [%clk 0:00:50] } 3. g3 1-0\n\n\
[Event \"two\"]\n[White \"Ben\"]\n[Black \"Cid\"]\n\n1. e4 e5 2. Qz9 *\n\n\
[Event \"three\"]\n[White \"Cid\"]\n[Black \"Ann\"]\n[Date \"2023.05.06\"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n\n";

#[test]
fn import_list_show_export() {
    let dir = scratch("basic");
    let db = dir.join("g.sqlite3");
    let pgn = dir.join("in.pgn");
    std::fs::write(&pgn, GAMES).unwrap();
    let p = pgn.to_str().unwrap();

    // One bad game: reported with its place, skipped, exit 1.
    let out = run(&db, &["import", p, "--json"]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let v: Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(
        v,
        serde_json::json!({"games": 3, "added": 2, "duplicates": 0, "errors": 1})
    );
    let err = stderr(&out);
    assert!(
        err.starts_with("chess960: ") && err.contains("in.pgn:") && err.contains("game 2"),
        "{err}"
    );

    // Again: duplicates.
    let out = run(&db, &["import", p]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stdout(&out).starts_with("3 games read: 0 added, 2 duplicates, 1 skipped with errors"),
        "{}",
        stdout(&out)
    );

    let out = run(&db, &["list", "--json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let v: Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(v["total"], 2);
    let games = v["games"].as_array().unwrap();
    assert_eq!(games[0]["white"], "Cid");
    assert_eq!(games[0]["start_id"], 518);
    assert_eq!(games[0]["reason"], "checkmate");
    assert_eq!(games[0]["plies"], 4);
    assert_eq!(games[1]["start_id"], Value::Null);
    assert_eq!(games[1]["date"], "2024.01.02");

    let out = run(&db, &["list", "--player", "ann", "--result", "0-1"]);
    assert!(
        stdout(&out).contains("Cid") && stdout(&out).ends_with("1 game\n"),
        "{}",
        stdout(&out)
    );
    let out = run(&db, &["list", "--start-id", "518", "--from", "2024"]);
    assert_eq!(stdout(&out), "no games\n");

    // Show: board, moves with clocks.
    let id = games[1]["id"].to_string();
    let out = run(&db, &["show", &id]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("Ann - Ben, 1-0"), "{text}");
    assert!(text.contains("set-up position"), "{text}");
    assert!(
        text.contains("2. Nf3 (0:55)") && text.contains("Nf6 (0:50)"),
        "{text}"
    );
    assert!(text.contains("3. g3"), "{text}");
    assert!(text.contains("  a b c d e f g h"), "{text}");
    let out = run(&db, &["show", &id, "--json"]);
    let v: Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(v["moves"][0]["uci"], "e1f3");
    assert_eq!(v["moves"][2]["uci"], "g2g3");
    assert_eq!(v["moves"][1]["black_ms"], 50_000);
    assert_eq!(v["time_control"], "60+1");
    let out = run(&db, &["show", "999"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).starts_with("chess960: no game 999"),
        "{}",
        stderr(&out)
    );

    // Export with a filter, to a file and to standard output.
    let outfile = dir.join("out.pgn");
    let out = run(
        &db,
        &["export", "--player", "Ben", "-o", outfile.to_str().unwrap()],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stdout(&out).starts_with("wrote 1 game to "),
        "{}",
        stdout(&out)
    );
    let text = std::fs::read_to_string(&outfile).unwrap();
    assert!(
        text.contains("[Variant \"Chess960\"]") && text.contains("2. Nf3"),
        "{text}"
    );
    assert!(text.contains("[%clk 0:00:55]"), "{text}");
    let out = run(&db, &["export", "-o", "-"]);
    assert_eq!(stdout(&out).matches("[Event ").count(), 2);
}

#[test]
fn stats_on_the_database_and_on_the_per_position_file() {
    let dir = scratch("stats");
    let db = dir.join("s.sqlite3");
    let tcec = shared("pgn/derived/tcec_frc_compact.pgn");
    let out = run(&db, &["import", &tcec]);
    assert!(out.status.success(), "{}", stderr(&out));
    let chart = dir.join("c.svg");
    let out = run(
        &db,
        &["stats", "--json", "--chart", chart.to_str().unwrap()],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let v: Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(v["source"], "database");
    let total = &v["total"];
    assert_eq!(total["games"], 440);
    let positions = v["positions"].as_array().unwrap();
    let sum: u64 = positions.iter().map(|p| p["games"].as_u64().unwrap()).sum();
    assert_eq!(sum, 440);
    for p in positions {
        let (lo, s, hi) = (
            p["low"].as_f64().unwrap(),
            p["white_score"].as_f64().unwrap(),
            p["high"].as_f64().unwrap(),
        );
        assert!(lo <= s && s <= hi);
    }
    assert!(std::fs::read_to_string(&chart).unwrap().starts_with("<svg"));

    // The per-position file: 960 positions, the self-play data favours White nearly always.
    let csv = shared("positions/derived/per_position_stats.csv");
    let out = run(
        &db,
        &[
            "stats",
            "--from-file",
            &csv,
            "--dataset",
            "selfplay",
            "--json",
        ],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let v: Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(v["positions"].as_array().unwrap().len(), 960);
    assert!(v["favour_white"].as_array().unwrap().len() > 900);
    assert_eq!(v["positions"][518]["back_rank"], "RNBQKBNR");
    let out = run(&db, &["stats", "--from-file", &csv]);
    assert!(stdout(&out).contains("960 positions"), "{}", stdout(&out));
    let out = run(&db, &["stats", "--from-file", &csv, "--dataset", "nope"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("unknown data set 'nope'"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn a_foreign_file_is_refused_and_left_alone() {
    let dir = scratch("foreign");
    let notes = dir.join("notes.txt");
    std::fs::write(&notes, "not a database\n").unwrap();
    for args in [&["list"][..], &["import", "-"][..], &["stats"][..]] {
        let out = run(&notes, args);
        assert_eq!(out.status.code(), Some(2));
        assert_eq!(
            stderr(&out),
            format!(
                "chess960: {} is not a chess960 game database (not an SQLite database)\n",
                notes.display()
            )
        );
    }
    assert_eq!(std::fs::read_to_string(&notes).unwrap(), "not a database\n");
    let out = run(&dir.join("x.sqlite3"), &["list", "--result", "2-0"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("invalid --result '2-0'"));
    let out = run(
        &dir.join("x.sqlite3"),
        &["import", &dir.join("missing.pgn").to_string_lossy()],
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("cannot read"), "{}", stderr(&out));
}

/// Exports the whole database to `out`; the PGN text.
fn export_all(db: &Path, out: &Path) -> String {
    let o = run(db, &["export", "-o", out.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    std::fs::read_to_string(out).unwrap()
}

#[test]
fn tcec_export_import_export_is_byte_identical() {
    let dir = scratch("tcec-round-trip");
    let (db1, db2) = (dir.join("one.sqlite3"), dir.join("two.sqlite3"));
    let tcec = Path::new(&shared("pgn/tcec/TCEC_Season_6_-_FRC.pgn"))
        .parent()
        .unwrap()
        .to_owned();
    let mut files: Vec<String> = std::fs::read_dir(&tcec)
        .unwrap()
        .map(|e| e.unwrap().path().to_string_lossy().into_owned())
        .collect();
    files.sort();
    let mut args = vec!["import", "--json"];
    args.extend(files.iter().map(String::as_str));
    let out = run(&db1, &args);
    // The Double-FRC bonus file's 10 games are refused by the reader (not Chess960 starts).
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let v: Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(v["errors"], 10);
    assert_eq!(v["duplicates"], 0);
    let games = v["added"].as_u64().unwrap();
    assert!(games > 400, "{v}");

    let first = export_all(&db1, &dir.join("first.pgn"));
    // The annotations came along: as many comments as 'pgn convert' writes for the files.
    let mut converted = String::new();
    for f in &files {
        let o = Command::new(env!("CARGO_BIN_EXE_chess960"))
            .args(["pgn", "convert", f, "-o", "-"])
            .output()
            .unwrap();
        converted.push_str(&stdout(&o));
    }
    assert!(first.matches("{ ").count() > 10_000);
    assert_eq!(first.matches("{ ").count(), converted.matches("{ ").count());
    assert_eq!(first.matches("( ").count(), converted.matches("( ").count());
    assert_eq!(first.matches(" $").count(), converted.matches(" $").count());

    let out = run(&db2, &["import", dir.join("first.pgn").to_str().unwrap()]);
    assert!(out.status.success(), "{}", stderr(&out));
    let second = export_all(&db2, &dir.join("second.pgn"));
    assert!(first == second, "the second export differs from the first");
    // And importing the export into the first database adds nothing.
    let out = run(
        &db1,
        &["import", "--json", dir.join("first.pgn").to_str().unwrap()],
    );
    let v: Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(v["added"], 0);
    assert_eq!(v["duplicates"], games);
}

#[test]
fn a_one_megabyte_comment_and_nested_variations_come_back() {
    // Before issue 13 'db import' kept neither, and aborted at 100,000 nested variations.
    let dir = scratch("annotations");
    let db = dir.join("a.sqlite3");
    let big = "x".repeat(70).repeat(15_000);
    let deep = format!("{}{}", "(1. d4 ".repeat(100_000), ")".repeat(100_000));
    let pgn = dir.join("in.pgn");
    std::fs::write(
        &pgn,
        format!("[Event \"big\"]\n\n1. e4 {{ {big} }} e5 $3 1-0\n\n[Event \"deep\"]\n\n1. e4 {deep} e5 *\n"),
    )
    .unwrap();
    let out = run(&db, &["import", pgn.to_str().unwrap()]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = export_all(&db, &dir.join("out.pgn"));
    assert_eq!(text.matches(&big).count(), 1);
    assert!(text.contains("\n} 1... e5 $3 1-0"));
    assert_eq!(text.matches('(').count(), 100_000);
    let out = Command::new(env!("CARGO_BIN_EXE_chess960"))
        .args(["pgn", "convert", pgn.to_str().unwrap(), "-o", "-"])
        .output()
        .unwrap();
    assert_eq!(stdout(&out), text);
}

#[test]
fn unfinished_games_are_never_duplicates_and_events_tell_games_apart() {
    let dir = scratch("duplicates");
    let db = dir.join("d.sqlite3");
    let pgn = dir.join("in.pgn");
    std::fs::write(
        &pgn,
        "1. e4 *\n\n1. e4 *\n\n[Event \"A\"]\n[Round \"1\"]\n\n1. d4 1-0\n\n\
         [Event \"B\"]\n[Round \"1\"]\n\n1. d4 1-0\n\n[Event \"B\"]\n[Round \"1\"]\n\n1. d4 1-0\n",
    )
    .unwrap();
    let out = run(&db, &["import", "--json", pgn.to_str().unwrap()]);
    assert_eq!(
        serde_json::from_str::<Value>(&stdout(&out)).unwrap(),
        serde_json::json!({"games": 5, "added": 4, "duplicates": 1, "errors": 0})
    );
}

#[test]
fn importing_a_file_with_no_games_exits_1() {
    let dir = scratch("empty");
    let db = dir.join("e.sqlite3");
    let empty = dir.join("empty.pgn");
    std::fs::write(&empty, "").unwrap();
    let out = run(&db, &["import", empty.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stdout(&out).starts_with("0 games read: 0 added"),
        "{}",
        stdout(&out)
    );
    assert_eq!(
        stderr(&out),
        format!("chess960: no games found in {}\n", empty.display())
    );
    let out = run(&db, &["import", "--json", empty.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        stdout(&out),
        "{\"games\":0,\"added\":0,\"duplicates\":0,\"errors\":0}\n"
    );
}

#[test]
fn two_hundred_thousand_tags_are_imported_and_exported_whole() {
    let dir = scratch("tags");
    let db = dir.join("t.sqlite3");
    let pgn = dir.join("tags.pgn");
    let tags: String = (0..200_000).map(|i| format!("[T{i} \"v{i}\"]\n")).collect();
    std::fs::write(&pgn, format!("{tags}\n1. e4 e5 1-0\n")).unwrap();
    let out = run(&db, &["import", pgn.to_str().unwrap()]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = export_all(&db, &dir.join("out.pgn"));
    assert!(text.contains(&format!("[Result \"1-0\"]\n{tags}\n1. e4 e5 1-0\n")));
}

#[test]
fn delete_by_id_and_key_all_or_nothing() {
    let dir = scratch("delete");
    let db = dir.join("g.sqlite3");
    let pgn = dir.join("in.pgn");
    std::fs::write(&pgn, GAMES).unwrap();
    let out = run(&db, &["import", pgn.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let list = |db: &Path| -> Vec<Value> {
        let out = run(db, &["list", "--json"]);
        assert!(out.status.success(), "{}", stderr(&out));
        let v: Value = serde_json::from_str(&stdout(&out)).unwrap();
        v["games"].as_array().unwrap().clone()
    };
    let games = list(&db);
    assert_eq!(games.len(), 2);
    let (first, second) = (games[0]["id"].as_i64().unwrap(), &games[1]);
    let key = second["key"].as_str().unwrap().to_string();

    // A missing or malformed game: exit 2, one line, nothing deleted.
    for bad in [["999", "1"], ["x1", "1"]] {
        let mut args = vec!["delete"];
        args.extend(bad);
        let out = run(&db, &args);
        assert_eq!(out.status.code(), Some(2), "{}", stdout(&out));
        let err = stderr(&out);
        assert!(
            err.starts_with("chess960: ") && err.contains(bad[0]),
            "{err}"
        );
        assert_eq!(err.lines().count(), 1, "{err}");
        assert_eq!(list(&db).len(), 2);
    }
    let out = run(&db, &["delete"]);
    assert_eq!(out.status.code(), Some(2));

    // By ID and by key (the same game twice is deleted once).
    let id = first.to_string();
    let out = run(&db, &["delete", &id, &key, &id, "--json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let v: Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(v["deleted"].as_array().unwrap().len(), 2, "{v}");
    assert_eq!(v["deleted"][1]["key"], key.as_str());
    assert!(list(&db).is_empty());
    let out = run(&db, &["show", &id]);
    assert_eq!(out.status.code(), Some(2));
    let help = Command::new(env!("CARGO_BIN_EXE_chess960"))
        .args(["db", "delete", "--help"])
        .output()
        .unwrap();
    assert!(stdout(&help).contains("Exit status"), "{}", stdout(&help));
}

/// Compresses `input` into `output` with the system's `gzip` or `zstd` (scripts/test.sh
/// installs them): an independent writer of both formats.
fn compress(tool: &str, input: &Path, output: &Path) {
    let out = Command::new(tool)
        .args(["-c", "-q"])
        .arg(input)
        .output()
        .unwrap_or_else(|e| panic!("{tool} is needed for this test (apt-get install {tool}): {e}"));
    assert!(out.status.success(), "{tool}: {}", stderr(&out));
    let mut bytes = std::fs::read(output).unwrap_or_default();
    // Appended, so that a second call makes a file of two members or frames, as concatenated
    // and parallel compressors write.
    bytes.extend_from_slice(&out.stdout);
    std::fs::write(output, bytes).unwrap();
}

#[test]
fn gzip_and_zstd_files_import_as_their_text() {
    let dir = scratch("compressed");
    let tcec = shared("pgn/tcec/TCEC_Season_6_-_FRC.pgn");
    let fatics = shared("pgn/fatics/chess960.pgn");
    let plain_db = dir.join("plain.sqlite3");
    let out = run(&plain_db, &["import", "--json", &tcec, &fatics]);
    assert!(out.status.success(), "{}", stderr(&out));
    let plain: Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert!(plain["added"].as_u64().unwrap() > 100, "{plain}");
    let expected = export_all(&plain_db, &dir.join("plain.pgn"));
    for (tool, ext) in [("gzip", "gz"), ("zstd", "zst")] {
        // Two members (frames): each file compressed on its own, then concatenated.
        let packed = dir.join(format!("both.pgn.{ext}"));
        compress(tool, Path::new(&tcec), &packed);
        compress(tool, Path::new(&fatics), &packed);
        let db = dir.join(format!("{ext}.sqlite3"));
        let out = run(&db, &["import", "--json", packed.to_str().unwrap()]);
        assert!(out.status.success(), "{ext}: {}", stderr(&out));
        let v: Value = serde_json::from_str(&stdout(&out)).unwrap();
        assert_eq!(v, plain, "{ext}");
        assert!(
            export_all(&db, &dir.join(format!("{ext}.pgn"))) == expected,
            "{ext}: the games differ from the plain file's"
        );
        // From standard input too (the format is told by the first bytes, not the name).
        let piped = Command::new(env!("CARGO_BIN_EXE_chess960"))
            .args(["db", "--db"])
            .arg(dir.join(format!("{ext}-stdin.sqlite3")))
            .args(["import", "--json", "-"])
            .stdin(std::fs::File::open(&packed).unwrap())
            .output()
            .unwrap();
        assert!(piped.status.success(), "{ext}: {}", stderr(&piped));
        assert_eq!(
            serde_json::from_str::<Value>(&stdout(&piped)).unwrap(),
            plain
        );
        // `pgn check` reads them as well.
        let checked = Command::new(env!("CARGO_BIN_EXE_chess960"))
            .args(["pgn", "check", "--json"])
            .arg(&packed)
            .output()
            .unwrap();
        let c: Value = serde_json::from_str(&stdout(&checked)).unwrap();
        assert_eq!(c["games"], plain["games"], "{ext}");
        // Cut short: exit 2, the file and its compression named; the games before the cut
        // are kept (committed batches, as for an interrupted import).
        let bytes = std::fs::read(&packed).unwrap();
        let cut = dir.join(format!("cut.pgn.{ext}"));
        std::fs::write(&cut, &bytes[..bytes.len() / 3]).unwrap();
        let out = run(
            &dir.join(format!("{ext}-cut.sqlite3")),
            &["import", "--batch", "10", cut.to_str().unwrap()],
        );
        assert_eq!(out.status.code(), Some(2), "{ext}: {}", stderr(&out));
        let err = stderr(&out);
        assert!(
            err.starts_with("chess960: cannot read ")
                && err.contains(&format!("cut.pgn.{ext} ({tool})")),
            "{err}"
        );
    }
}

#[test]
fn an_events_game_is_kept_while_the_event_exists() {
    // Issue 37: an event's game deleted made its board's result impossible to come in.
    let dir = scratch("event-game");
    let db = dir.join("g.sqlite3");
    let pgn = dir.join("in.pgn");
    std::fs::write(&pgn, GAMES).unwrap();
    run(&db, &["import", pgn.to_str().unwrap()]);
    let out = run(&db, &["list", "--json"]);
    let v: Value = serde_json::from_str(&stdout(&out)).unwrap();
    let key = v["games"][0]["key"].as_str().unwrap().to_string();
    let event = |args: &[&str]| {
        let out = Command::new(env!("CARGO_BIN_EXE_chess960"))
            .arg("event")
            .arg("--db")
            .arg(&db)
            .args(args)
            .env_remove("CHESS960_DB")
            .output()
            .unwrap();
        assert!(out.status.success(), "{args:?}: {}", stderr(&out));
        stdout(&out)
    };
    // A paired round whose board 1 was played as that game (the server records it so).
    event(&["new", "Club Night", "--swiss", "--rounds", "1"]);
    event(&["add", "1", "Ann"]);
    event(&["add", "1", "Ben"]);
    event(&["draw", "1"]);
    event(&["pair", "1"]);
    let mut doc: Value =
        serde_json::from_str(&event(&["export", "1", "--format", "json"])).unwrap();
    doc["event"]["played"][0]["boards"][0]["game"] = Value::String(key.clone());
    let file = dir.join("event.json");
    std::fs::write(&file, doc.to_string()).unwrap();
    event(&["delete", "1"]);
    event(&["import", file.to_str().unwrap()]);
    let out = run(&db, &["delete", &key]);
    assert_eq!(out.status.code(), Some(2), "{}", stdout(&out));
    let err = stderr(&out);
    assert!(
        err.contains("round 1, board 1 of event Club Night") && err.contains("nothing was deleted"),
        "{err}"
    );
    assert_eq!(run(&db, &["show", &key]).status.code(), Some(0));
    // Once the event is gone (as the message says), the game is the owner's to delete.
    let id = err
        .split("chess960 event delete ")
        .nth(1)
        .and_then(|rest| rest.split(')').next())
        .unwrap_or_else(|| panic!("no command in {err}"))
        .to_string();
    event(&["delete", &id]);
    let out = run(&db, &["delete", &key]);
    assert!(out.status.success(), "{}", stderr(&out));
}
