//! `chess960 pgn check | convert | stats`: the command-line contract (output forms, JSON,
//! exit codes 0 / 1 / 2, error lines), on crafted files and on the shared test data.

use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

mod common;
use common::{run_with, shared, stderr, stdout};

fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_chess960"))
        .args(args)
        .output()
        .expect("the chess960 binary runs")
}

/// `shared/data/pgn/<rel>` (or under `CHESS960_SHARED_DATA`).
fn data(rel: &str) -> String {
    shared(&format!("pgn/{rel}"))
}

/// A scratch file with `text`, unique to this test process and `name`.
fn scratch(name: &str, text: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("chess960-cli-pgn-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

const GOOD: &str = "[Event \"one\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Nf3 1-0\n\n";
const BAD_SAN: &str = "[Event \"two\"]\n\n1. e4 e5 2. Qz9 Nf6 *\n\n";
const BAD_MOVE: &str = "[Event \"three\"]\n\n1. e4 e5 2. Nf3 Nxe4 0-1\n\n";

#[test]
fn check_json_exact_and_exit_1() {
    let f = scratch("check.pgn", &format!("{GOOD}{BAD_SAN}{BAD_MOVE}{GOOD}"));
    let out = run(&["pgn", "check", s(&f), "--json"]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(out.stderr.is_empty());
    let text = stdout(&out);
    assert!(text.ends_with('\n') && text.lines().count() == 1);
    let expected = json!({
        "games": 4,
        "errors": [
            {"file": s(&f), "game": 2, "line": 8, "column": 13, "move": "2. Qz9",
             "reason": "'Qz9' is not a move in SAN (such as e4, Nf3, exd5, e8=Q, O-O)"},
            {"file": s(&f), "game": 3, "line": 12, "column": 17, "move": "2... Nxe4",
             "reason": "illegal move 'Nxe4': no knight of black can move to e4"},
        ]
    });
    let v: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(v, expected);
    // Key order is part of the contract.
    assert!(
        text.starts_with("{\"games\":4,\"errors\":[{\"file\":"),
        "{text}"
    );
    assert!(text.contains("\"game\":2,\"line\":8,\"column\":13,\"move\":\"2. Qz9\",\"reason\":"));
}

#[test]
fn check_plain_lines() {
    let f = scratch("plain.pgn", &format!("{GOOD}{BAD_SAN}"));
    let out = run(&["pgn", "check", s(&f)]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        stdout(&out),
        format!(
            "{}:8:13: game 2, at 2. Qz9: 'Qz9' is not a move in SAN (such as e4, Nf3, exd5, e8=Q, O-O)\n\
             2 games, 1 with errors\n",
            s(&f)
        )
    );
}

#[test]
fn check_clean_data_exit_0() {
    let file = data("tcec/TCEC_Season_6_-_FRC.pgn");
    let out = run(&["pgn", "check", &file]);
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    assert_eq!(stdout(&out), "112 games, 0 with errors\n");
    let out = run(&["pgn", "check", "--json", &file]);
    assert_eq!(stdout(&out), "{\"games\":112,\"errors\":[]}\n");
}

#[test]
fn check_several_files_and_stdin() {
    let a = data("fatics/chess960.pgn");
    let b = data("python-chess/cutechess-fischerrandom.pgn");
    let c = data("tcec/TCEC_Season_22_-_Dfrc_Unbust_Bonus.pgn");
    let out = run(&["pgn", "check", &a, &b, &c, "--json"]);
    assert_eq!(out.status.code(), Some(1));
    let v: Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(v["games"], 26);
    let errors = v["errors"].as_array().unwrap();
    assert_eq!(errors.len(), 10);
    for (i, e) in errors.iter().enumerate() {
        assert_eq!(e["file"], c.as_str());
        assert_eq!(e["game"], i + 1);
        assert_eq!(e["move"], Value::Null);
        assert!(e["reason"]
            .as_str()
            .unwrap()
            .contains("is not a Chess960 start position"));
    }

    let out = run_with(
        &["pgn", "check", "-"],
        &std::fs::read_to_string(&a).unwrap(),
    );
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(stdout(&out), "12 games, 0 with errors\n");
}

#[test]
fn usage_and_io_errors_exit_2() {
    for args in [
        vec!["pgn", "check", "/nonexistent/games.pgn"],
        vec!["pgn", "stats", "/nonexistent/games.pgn", "--json"],
        vec![
            "pgn",
            "convert",
            "/nonexistent/games.pgn",
            "-o",
            "/tmp/x.pgn",
        ],
    ] {
        let out = run(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(out.stdout.is_empty());
        let err = stderr(&out);
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(
            err.starts_with("chess960: cannot read /nonexistent/games.pgn: "),
            "{err}"
        );
    }
    let f = scratch("dialect.pgn", GOOD);
    let out = run(&[
        "pgn",
        "convert",
        s(&f),
        "-o",
        "-",
        "--fen-dialect",
        "lichess",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        stderr(&out),
        "chess960: invalid --fen-dialect 'lichess': expected xfen or shredder\n"
    );
    let out = run(&["pgn", "convert", s(&f), "-o", s(&f)]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("is the input file"));
    assert_eq!(
        std::fs::read_to_string(&f).unwrap(),
        GOOD,
        "input untouched"
    );
    // clap: no file at all.
    let out = run(&["pgn", "check"]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn convert_skips_bad_games_and_writes_normalised_pgn() {
    let f = scratch("convert-in.pgn", &format!("{GOOD}{BAD_SAN}{GOOD}"));
    let o = std::env::temp_dir()
        .join(format!("chess960-cli-pgn-{}", std::process::id()))
        .join("convert-out.pgn");
    let out = run(&["pgn", "convert", s(&f), "-o", s(&o)]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        stderr(&out),
        format!(
            "chess960: {}:8:13: game 2, at 2. Qz9: 'Qz9' is not a move in SAN (such as e4, Nf3, exd5, e8=Q, O-O)\n",
            s(&f)
        )
    );
    assert_eq!(
        stdout(&out),
        format!("wrote 2 games to {}, skipped 1 with errors\n", s(&o))
    );
    let game = "[Event \"one\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n\
                [White \"?\"]\n[Black \"?\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Nf3 1-0\n\n";
    assert_eq!(
        std::fs::read_to_string(&o).unwrap(),
        format!("{game}{game}")
    );

    // Real data: everything converts, and the result checks clean with the same count.
    let tcec = data("tcec/TCEC_Season_26_-_Frc_No_Castling_Kibitzer_Bonus.pgn");
    let out = run(&[
        "pgn",
        "convert",
        &tcec,
        "-o",
        s(&o),
        "--fen-dialect",
        "shredder",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = std::fs::read_to_string(&o).unwrap();
    assert_eq!(
        text.matches("[Variant \"Chess960\"]\n[SetUp \"1\"]\n[FEN \"")
            .count(),
        24
    );
    let out = run(&["pgn", "check", s(&o)]);
    assert_eq!(stdout(&out), "24 games, 0 with errors\n");
    let fatics = data("fatics/chess960.pgn");
    let out = run(&[
        "pgn",
        "convert",
        &fatics,
        "-o",
        "-",
        "--fen-dialect",
        "shredder",
    ]);
    assert_eq!(out.status.code(), Some(0));
    let text = stdout(&out);
    assert!(text.contains(" w HBhb - 0 1\"]"), "Shredder-FEN castling");
    for line in text.lines() {
        assert!(line.len() <= 80 || line.starts_with('['), "{line}");
    }
}

#[test]
fn stats_json() {
    let file = data("tcec/TCEC_Season_23_-_Frc_Human_Openings_Bonus.pgn");
    let out = run(&["pgn", "stats", &file, "--json"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let v: Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(v["games"], 48);
    assert_eq!(v["errors"], 0);
    let positions = v["positions"].as_array().unwrap();
    assert_eq!(
        positions.len(),
        6,
        "SOURCES.md: only 6 distinct start arrays"
    );
    let mut sum = 0;
    let mut last = -1;
    for p in positions {
        let id = p["id"].as_i64().unwrap();
        assert!(id > last, "sorted by ID");
        last = id;
        let g = p["games"].as_u64().unwrap();
        let (w, d, b, u) = (
            p["white_wins"].as_u64().unwrap(),
            p["draws"].as_u64().unwrap(),
            p["black_wins"].as_u64().unwrap(),
            p["unfinished"].as_u64().unwrap(),
        );
        assert_eq!(w + d + b + u, g);
        let score = p["white_score"].as_f64().unwrap();
        let expected = (w as f64 + d as f64 / 2.0) / (w + d + b) as f64;
        assert!((score - expected).abs() < 0.0006);
        assert_eq!(p["back_rank"].as_str().unwrap().len(), 8);
        sum += g;
    }
    assert_eq!(sum, 48);
    assert_eq!(v["other_starts"]["games"], 0);
    assert_eq!(v["other_starts"]["white_score"], Value::Null);
    assert_eq!(v["total"]["games"], 48);
    let keys: Vec<&str> = v.as_object().unwrap().keys().map(|k| k.as_str()).collect();
    assert_eq!(keys.len(), 5);
    assert!(stdout(&out).starts_with("{\"games\":48,\"errors\":0,\"positions\":[{\"id\":"));
}

#[test]
fn stats_counts_classical_and_other_starts_and_reports_errors() {
    let f = scratch(
        "stats.pgn",
        &format!(
            "{GOOD}{BAD_SAN}[Event \"set-up\"]\n[FEN \"4k3/8/8/8/8/8/8/4K2R w K - 0 1\"]\n\n1. O-O 1/2-1/2\n\n\
             [Variant \"Chess960\"]\n[FEN \"bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1\"]\n\n*\n"
        ),
    );
    let out = run(&["pgn", "stats", s(&f), "--json"]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        stderr(&out),
        format!(
            "chess960: {}:8:13: game 2, at 2. Qz9: 'Qz9' is not a move in SAN (such as e4, Nf3, exd5, e8=Q, O-O)\n",
            s(&f)
        )
    );
    let v: Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(
        v,
        json!({
            "games": 4, "errors": 1,
            "positions": [
                {"id": 0, "back_rank": "BBQNNRKR", "games": 1, "white_wins": 0, "draws": 0,
                 "black_wins": 0, "unfinished": 1, "white_score": null},
                {"id": 518, "back_rank": "RNBQKBNR", "games": 1, "white_wins": 1, "draws": 0,
                 "black_wins": 0, "unfinished": 0, "white_score": 1.0},
            ],
            "other_starts": {"games": 1, "white_wins": 0, "draws": 1, "black_wins": 0,
                             "unfinished": 0, "white_score": 0.5},
            "total": {"games": 3, "white_wins": 1, "draws": 1, "black_wins": 0,
                      "unfinished": 1, "white_score": 0.75},
        })
    );
    let out = run(&["pgn", "stats", s(&f)]);
    let text = stdout(&out);
    assert!(text.contains("518 RNBQKBNR"), "{text}");
    assert!(text.contains("other starts"), "{text}");
    assert!(
        text.ends_with("4 games read, 1 with errors (not counted)\n"),
        "{text}"
    );
}

#[test]
fn stats_on_header_only_collection() {
    let file = data("chess960-explorer/chess960_database.pgn");
    let out = run(&["pgn", "stats", &file, "--json"]);
    assert_eq!(out.status.code(), Some(0));
    let v: Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(v["games"], 4444);
    assert_eq!(v["total"]["games"], 4444);
    assert_eq!(v["total"]["unfinished"], 0);
}

#[test]
fn help_documents_the_forms() {
    let out = run(&["pgn", "stats", "--help"]);
    let text = stdout(&out);
    assert!(text.contains("\"positions\":[{\"id\":0"), "{text}");
    assert!(text.contains("white_score"));
    let out = run(&["pgn", "check", "--help"]);
    assert!(stdout(&out).contains("Exit status: 0 if every game is good, 1 if any game"));
    let out = run(&["--help"]);
    assert!(stdout(&out).contains("pgn"));
}

/// `1. e4 (1. d4 (1. d4 ( … ) ) ) e5 *`, `depth` variations deep.
fn nested(depth: usize) -> String {
    format!(
        "1. e4 {}{} e5 *\n",
        "(1. d4 ".repeat(depth),
        ")".repeat(depth)
    )
}

#[test]
fn variations_nested_100000_deep_are_read_and_written_not_an_abort() {
    // Before issue 13, 'pgn convert' overflowed the stack (exit 134) at 50,000 levels.
    let f = scratch("nested.pgn", &nested(100_000));
    let o = std::env::temp_dir()
        .join(format!("chess960-cli-pgn-{}", std::process::id()))
        .join("nested-out.pgn");
    let out = run(&["pgn", "convert", s(&f), "-o", s(&o)]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = std::fs::read_to_string(&o).unwrap();
    assert_eq!(text.matches('(').count(), 100_000);
    assert_eq!(text.matches(')').count(), 100_000);
    let flowed = text.replace('\n', " ");
    assert!(flowed.contains("1. e4 ( 1. d4 ( 1. d4 "));
    assert!(
        flowed.contains(") ) 1... e5 *"),
        "{}",
        &flowed[flowed.len() - 100..]
    );
    for args in [vec!["pgn", "check", s(&f)], vec!["pgn", "check", s(&o)]] {
        let out = run(&args);
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        assert_eq!(stdout(&out), "1 game, 0 with errors\n");
    }
    let out = run(&["pgn", "stats", s(&f), "--json"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let v: Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(v["total"]["unfinished"], 1);
}

#[test]
fn two_hundred_thousand_tags_are_converted_whole() {
    // Before issue 13 reading them was quadratic (44 s for 'pgn convert').
    let mut text = String::new();
    for i in 0..200_000 {
        text.push_str(&format!("[T{i} \"v{i}\"]\n"));
    }
    text.push_str("\n1. e4 e5 1-0\n");
    let f = scratch("tags.pgn", &text);
    let out = run(&["pgn", "convert", s(&f), "-o", "-"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let written = stdout(&out);
    let expected: String = (0..200_000).map(|i| format!("[T{i} \"v{i}\"]\n")).collect();
    assert!(
        written.contains(&format!("[Result \"1-0\"]\n{expected}\n1. e4 e5 1-0\n")),
        "every tag once, in order"
    );
}

#[test]
fn a_file_with_no_games_exits_1_with_one_line_on_stderr() {
    let o = std::env::temp_dir()
        .join(format!("chess960-cli-pgn-{}", std::process::id()))
        .join("empty-out.pgn");
    for (name, text) in [
        ("empty.pgn", ""),
        ("blank.pgn", "\n \n{ only a comment }\n"),
    ] {
        let f = scratch(name, text);
        let says = format!("chess960: no games found in {}\n", s(&f));
        let out = run(&["pgn", "check", s(&f)]);
        assert_eq!(out.status.code(), Some(1), "{name}");
        assert_eq!(stdout(&out), "0 games, 0 with errors\n");
        assert_eq!(stderr(&out), says);
        let out = run(&["pgn", "check", s(&f), "--json"]);
        assert_eq!(out.status.code(), Some(1));
        assert_eq!(stdout(&out), "{\"games\":0,\"errors\":[]}\n");
        assert_eq!(stderr(&out), says);
        let out = run(&["pgn", "stats", s(&f), "--json"]);
        assert_eq!(out.status.code(), Some(1));
        assert_eq!(stderr(&out), says);
        let out = run(&["pgn", "convert", s(&f), "-o", s(&o)]);
        assert_eq!(out.status.code(), Some(1));
        assert_eq!(stderr(&out), says);
        assert_eq!(std::fs::read_to_string(&o).unwrap(), "");
    }
    // With other files: the good one is still checked, the empty one named.
    let good = scratch("good-beside-empty.pgn", GOOD);
    let empty = scratch("empty-beside-good.pgn", "");
    let out = run(&["pgn", "check", s(&good), s(&empty)]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(stdout(&out), "1 game, 0 with errors\n");
    assert_eq!(
        stderr(&out),
        format!("chess960: no games found in {}\n", s(&empty))
    );
    // Standard input is named as such.
    let out = run_with(&["pgn", "check", "-"], "");
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(stderr(&out), "chess960: no games found in standard input\n");
}
