//! `chess960 ratings` on a database of real engine games (TCEC Season 6, the FRC division:
//! 8 engines, 112 games), checked against what does not come from the command: the
//! maximum-likelihood condition recomputed from the PGN's own tags, and the independent
//! Python program of `crates/arena/tests/ratings_reference.py`.

use serde_json::{json, Value};
use std::collections::HashMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

mod common;
use common::{shared, stderr, stdout};

const TCEC: &str = "pgn/tcec/TCEC_Season_6_-_FRC.pgn";

fn chess960(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_chess960"))
        .args(args)
        .env_remove("CHESS960_DB")
        .output()
        .expect("the chess960 binary runs")
}

fn ratings(db: &Path, args: &[&str]) -> Output {
    let mut all = vec!["ratings", "--db", db.to_str().unwrap()];
    all.extend_from_slice(args);
    chess960(&all)
}

/// A database holding the TCEC games, in a scratch directory of this test.
fn database(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "chess960-cli-ratings-{}-{name}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let db = dir.join("g.sqlite3");
    let out = chess960(&["db", "--db", db.to_str().unwrap(), "import", &shared(TCEC)]);
    assert!(out.status.success(), "{}", stderr(&out));
    db
}

/// (White, Black, White's score) of each game, read from the PGN's tags here.
fn pgn_games() -> Vec<(String, String, f64)> {
    let text = std::fs::read_to_string(shared(TCEC)).unwrap();
    let tag = |line: &str, name: &str| {
        line.strip_prefix(&format!("[{name} \""))
            .and_then(|r| r.strip_suffix("\"]"))
            .map(str::to_owned)
    };
    let (mut white, mut black) = (String::new(), String::new());
    let mut games = Vec::new();
    for line in text.lines().map(str::trim) {
        if let Some(w) = tag(line, "White") {
            white = w;
        } else if let Some(b) = tag(line, "Black") {
            black = b;
        } else if let Some(r) = tag(line, "Result") {
            let score = match r.as_str() {
                "1-0" => 1.0,
                "0-1" => 0.0,
                "1/2-1/2" => 0.5,
                other => panic!("unexpected result {other}"),
            };
            games.push((white.clone(), black.clone(), score));
        }
    }
    games
}

fn logistic(d: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-d / 400.0))
}

fn json_of(out: &Output) -> Value {
    assert!(out.status.success(), "{}", stderr(out));
    serde_json::from_str(&stdout(out)).unwrap()
}

#[test]
fn tcec_engines_are_rated_by_maximum_likelihood() {
    let db = database("ml");
    let v = json_of(&ratings(&db, &["--json"]));
    let games = pgn_games();
    assert_eq!(games.len(), 112);
    assert_eq!(v["games"], 112);
    assert_eq!(v["prior_draws"], 0.0);
    let players = v["players"].as_array().unwrap();
    assert_eq!(players.len(), 8);
    let rating: HashMap<String, f64> = players
        .iter()
        .map(|p| {
            (
                p["name"].as_str().unwrap().to_owned(),
                p["rating"].as_f64().unwrap(),
            )
        })
        .collect();
    let sum: f64 = rating.values().sum();
    assert!(sum.abs() < 1e-6, "the average is 0: {sum}");
    // The maximum: each engine's expected score over its games equals its score.
    for p in players {
        let name = p["name"].as_str().unwrap();
        let (mut actual, mut expect, mut n) = (0.0, 0.0, 0);
        for (w, b, s) in &games {
            if w == name {
                actual += s;
                expect += logistic(rating[w] - rating[b]);
                n += 1;
            } else if b == name {
                actual += 1.0 - s;
                expect += logistic(rating[b] - rating[w]);
                n += 1;
            }
        }
        assert_eq!(p["games"], n);
        assert!((p["points"].as_f64().unwrap() - actual).abs() < 1e-9);
        assert!(
            (actual - expect).abs() < 1e-4,
            "{name}: {actual} vs {expect}"
        );
    }
    // Ranks follow the ratings.
    let listed: Vec<f64> = players
        .iter()
        .map(|p| p["rating"].as_f64().unwrap())
        .collect();
    assert!(listed.windows(2).all(|w| w[0] >= w[1]));
    assert_eq!(players[0]["rank"], 1);

    // The same games through the independent Python program: ratings and margins agree.
    let names: Vec<&String> = rating.keys().collect();
    let idx = |n: &String| names.iter().position(|x| *x == n).unwrap();
    let line = json!({
        "players": names.len(),
        "games": games.iter().map(|(w, b, s)| json!([idx(w), idx(b), s])).collect::<Vec<_>>(),
        "anchor": null,
    });
    let script =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../arena/tests/ratings_reference.py");
    let mut child = Command::new("python3")
        .arg(script)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("python3 runs");
    writeln!(child.stdin.take().unwrap(), "{line}").unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    let reference: Value = serde_json::from_slice(&out.stdout).unwrap();
    for p in players {
        let i = idx(&p["name"].as_str().unwrap().to_owned());
        let r = reference["ratings"][i].as_f64().unwrap();
        let e = reference["errors"][i].as_f64().unwrap();
        assert!(
            (p["rating"].as_f64().unwrap() - r).abs() < 0.1,
            "{p} vs {r}"
        );
        assert!((p["error"].as_f64().unwrap() - e).abs() < 0.1, "{p} vs {e}");
        assert!((p["margin"].as_f64().unwrap() - 1.959_963_984_540_054 * e).abs() < 0.2);
    }
}

#[test]
fn anchor_per_start_event_and_table() {
    let db = database("options");
    let v = json_of(&ratings(
        &db,
        &["--anchor", "stockfish 260614=3200", "--per-start", "--json"],
    ));
    assert_eq!(v["anchor_player"], "Stockfish 260614");
    let sf = &v["players"][0];
    assert_eq!(sf["name"], "Stockfish 260614");
    assert_eq!(sf["rating"], 3200.0);
    assert_eq!(sf["margin"], 0.0);
    for p in v["players"].as_array().unwrap() {
        let starts = p["per_start"].as_array().unwrap();
        let games: u64 = starts.iter().map(|s| s["games"].as_u64().unwrap()).sum();
        let points: f64 = starts.iter().map(|s| s["points"].as_f64().unwrap()).sum();
        assert_eq!(games, p["games"].as_u64().unwrap());
        assert!((points - p["points"].as_f64().unwrap()).abs() < 1e-9);
        for s in starts {
            // One game from a position: a draw performs at the opponent's rating.
            if s["games"] == 1 && s["points"] == 0.5 {
                assert!(
                    (s["performance"].as_f64().unwrap() - s["opponents_average"].as_f64().unwrap())
                        .abs()
                        < 1e-6
                );
            }
            if s["score"] == 1.0 {
                assert_eq!(s["bounded"], true);
            }
        }
    }

    // The PGN Event tag selects the same games; the table names its columns.
    let out = ratings(&db, &["--event", "tcec season 6 - frc"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.starts_with("Rank  Player"), "{text}");
    assert!(text.contains("   1  Stockfish 260614"), "{text}");
    assert!(
        text.contains("112 games, 8 players; maximum likelihood"),
        "{text}"
    );

    // Among three engines only: their games with each other (3 pairs × 2 × 2 = 12).
    let v = json_of(&ratings(
        &db,
        &[
            "--player",
            "Houdini 4",
            "--player",
            "rybka 4.1",
            "--player",
            "Tornado 5",
            "--json",
        ],
    ));
    assert_eq!(v["games"], 12);
    assert_eq!(v["players"].as_array().unwrap().len(), 3);
}

#[test]
fn empty_selections_and_unknown_names_are_errors() {
    let db = database("errors");
    let fails = |args: &[&str], needle: &str| {
        let out = ratings(&db, args);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stdout(&out));
        let err = stderr(&out);
        assert!(
            err.starts_with("chess960: ") && err.contains(needle),
            "{args:?}: {err}"
        );
    };
    fails(&["--since", "2030"], "no finished games for these dates");
    fails(&["--event", "no such event"], "no finished games for event");
    fails(&["--player", "Nobody"], "no finished games for player");
    fails(
        &["--player", "Houdini 4", "--player", "Nobody"],
        "unknown player Nobody",
    );
    fails(
        &["--anchor", "Nobody=3000"],
        "unknown player Nobody in --anchor",
    );
    fails(&["--anchor", "Houdini 4"], "invalid --anchor");
    fails(&["--prior", "-1"], "invalid --prior");
    fails(&["--since", "yesterday"], "invalid --since");

    // The help explains the model and the margins.
    let out = chess960(&["ratings", "--help"]);
    let help = stdout(&out);
    for phrase in [
        "logistic Elo",
        "Fisher information",
        "virtual",
        "--per-start",
        "JSON",
    ] {
        assert!(
            help.contains(phrase),
            "{phrase} missing from ratings --help"
        );
    }
}
