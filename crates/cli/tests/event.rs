//! `chess960 event`: an arbiter's whole Swiss and double round robin from the command line,
//! the exports read back (TRF by our reader, PGN by our PGN reader, JSON by `import`), and the
//! errors an arbiter meets.

mod common;
use common::{event as run, event_fails as fails, event_ok as ok};
use serde_json::Value;
use std::path::{Path, PathBuf};

fn scratch(name: &str) -> PathBuf {
    common::scratch_dir("event", name)
}

const RESULTS: [&str; 11] = [
    "1-0", "0-1", "1/2", "1-0", "0-1", "1-0", "1/2", "+/-", "0-1", "1-0", "-/-",
];

#[test]
fn a_swiss_of_forty_in_nine_rounds() {
    let dir = scratch("swiss");
    let db = dir.join("g.sqlite3");
    let made = ok(
        &db,
        &[
            "new",
            "Club 960 Open",
            "--swiss",
            "--rounds",
            "9",
            "--no-518",
            "--no-repeat",
            "--time-control",
            "90+30",
            "--json",
        ],
    );
    let made: Value = serde_json::from_str(&made).unwrap();
    let id = made["id"].to_string();
    let id = id.as_str();
    for k in 1..=40 {
        let rating = (2500 - 13 * k).to_string();
        ok(
            &db,
            &[
                "add",
                id,
                &format!("Player {k}"),
                "--rating",
                &rating,
                "--federation",
                "GER",
            ],
        );
    }
    ok(&db, &["bye", id, "5", "--round", "3", "--half"]);
    ok(&db, &["bye", id, "Player 9", "--round", "2", "--zero"]);
    for round in 1..=9 {
        if round == 4 {
            ok(&db, &["withdraw", id, "12"]);
            assert!(ok(&db, &["add", id, "Late Entry", "--rating", "2300"])
                .contains("paired from round 4"));
        }
        let drawn: Value = serde_json::from_str(&ok(&db, &["draw", id, "--json"])).unwrap();
        let pos = drawn["draw"]["id"].as_u64().unwrap();
        assert_ne!(pos, 518, "--no-518");
        let paired: Value = serde_json::from_str(&ok(&db, &["pair", id, "--json"])).unwrap();
        assert_eq!(
            paired["position"].as_u64(),
            Some(pos),
            "every board plays the round's position"
        );
        let boards = paired["boards"].as_array().unwrap().len();
        assert!(boards >= 19, "round {round}: {boards} boards");
        if round < 9 {
            assert!(
                fails(&db, &["pair", id]).contains(&format!("round {round} still needs results"))
            );
        }
        let mut args: Vec<String> = vec![
            "result".into(),
            id.into(),
            "--round".into(),
            round.to_string(),
        ];
        for b in 1..=boards {
            args.push(b.to_string());
            args.push(RESULTS[(b * 7 + round * 3) % 11].into());
        }
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        ok(&db, &args);
    }
    // The printed list and sheet.
    let sheet = ok(&db, &["sheet", id, "--round", "9"]);
    assert!(
        sheet.contains("round 9") && sheet.contains("Start position"),
        "{sheet}"
    );
    let table = ok(&db, &["standings", id, "--crosstable"]);
    assert!(table.contains("BH-C1") && table.contains("R9"), "{table}");
    let st: Value = serde_json::from_str(&ok(&db, &["standings", id, "--json"])).unwrap();
    assert_eq!(st["standings"].as_array().unwrap().len(), 41);
    // Nine positions, all different, every draw repeats.
    assert!(ok(&db, &["verify", id]).starts_with("9 recorded draws repeated"));
    let shown: Value = serde_json::from_str(&ok(&db, &["show", id, "--json"])).unwrap();
    let ids: std::collections::HashSet<u64> = shown["event"]["played"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["draw"]["id"].as_u64().unwrap())
        .collect();
    assert_eq!(ids.len(), 9, "--no-repeat");
    // TRF out, read back: every round pairs the same from the file.
    let trf = ok(&db, &["export", id, "--format", "trf"]);
    let f = chess960_events::trf::read(&trf).unwrap();
    assert_eq!(f.players.len(), 41);
    assert_eq!(f.rounds_played(), 9);
    // PGN out: every board with its round's start position, read by our PGN reader.
    let pgn = ok(&db, &["export", id, "--format", "pgn"]);
    let mut reader = chess960_pgn::Reader::new(pgn.as_bytes());
    let mut games = Vec::new();
    while let Some(g) = reader.read_game().unwrap() {
        games.push(g.unwrap());
    }
    assert!(games.len() >= 9 * 19);
    let first_round = shown["event"]["played"][0]["draw"]["id"].as_u64().unwrap() as u16;
    assert_eq!(
        games[0].start,
        chess960_core::StartId::new(first_round as u32)
            .unwrap()
            .position()
    );
    // JSON out, in again as a second event: the same event.
    let json_path = dir.join("event.json");
    ok(
        &db,
        &[
            "export",
            id,
            "--format",
            "json",
            "-o",
            json_path.to_str().unwrap(),
        ],
    );
    assert!(
        ok(&db, &["import", json_path.to_str().unwrap()]).contains("41 players, 9 rounds paired")
    );
    let trf_path = dir.join("event.trf");
    std::fs::write(&trf_path, &trf).unwrap();
    assert!(ok(&db, &["import", trf_path.to_str().unwrap()]).contains("9 rounds paired"));
    assert_eq!(
        serde_json::from_str::<Value>(&ok(&db, &["list", "--json"]))
            .unwrap()
            .as_array()
            .unwrap()
            .len(),
        3
    );
}

#[test]
fn a_double_round_robin_of_six() {
    let dir = scratch("rr");
    let db = dir.join("g.sqlite3");
    assert!(ok(
        &db,
        &[
            "new",
            "Double 960",
            "--round-robin",
            "--double",
            "--second-cycle-repeats"
        ]
    )
    .starts_with("event 1 "));
    for n in ["Anna", "Bert", "Cleo", "Dirk", "Emil", "Frida"] {
        ok(&db, &["add", "1", n]);
    }
    let mut positions = Vec::new();
    for round in 1..=10 {
        ok(
            &db,
            &["draw", "1", "--method", "die", "--seed", &round.to_string()],
        );
        let p: Value =
            serde_json::from_str(&ok(&db, &["pair", "1", "--seed", "3", "--json"])).unwrap();
        positions.push(p["position"].as_u64().unwrap());
        ok(
            &db,
            &[
                "result",
                "1",
                "--round",
                &round.to_string(),
                "1",
                "1-0",
                "2",
                "1/2",
                "3",
                "0-1",
            ],
        );
    }
    // The second cycle replays the first cycle's positions (rounds 4 and 5 swapped in the
    // first cycle, as the Handbook recommends).
    let mut first = positions[..5].to_vec();
    first.sort();
    let mut second = positions[5..].to_vec();
    second.sort();
    assert_eq!(first, second);
    assert!(fails(&db, &["pair", "1"]).contains("no round 11"));
    assert!(fails(&db, &["add", "1", "Late"]).contains("round robin under way"));
    let shown = ok(&db, &["show", "1"]);
    assert!(
        shown.contains("die") || shown.contains("Round 10"),
        "{shown}"
    );
}

#[test]
fn mistakes_get_one_clear_line() {
    let dir = scratch("errors");
    let db = dir.join("g.sqlite3");
    assert!(fails(&db, &["show", "7"]).contains("no event 7"));
    assert!(fails(&db, &["new", "X"]).contains("choose the format"));
    assert!(fails(&db, &["new", "X", "--swiss"]).contains("--rounds"));
    ok(&db, &["new", "X", "--swiss", "--rounds", "3"]);
    assert!(fails(&db, &["pair", "1"]).contains("at least two players"));
    ok(&db, &["add", "1", "A"]);
    assert!(fails(&db, &["add", "1", "a"]).contains("entered already"));
    ok(&db, &["add", "1", "B"]);
    assert!(
        fails(&db, &["result", "1", "--round", "1", "1", "1-0"]).contains("round 1 is not paired")
    );
    ok(&db, &["pair", "1"]);
    assert!(
        fails(&db, &["result", "1", "--round", "1", "2", "1-0"]).contains("round 1 has no board 2")
    );
    assert!(fails(&db, &["result", "1", "--round", "1", "1", "2-0"]).contains("not a result"));
    // All or nothing: a bad pair leaves the good one unsaved.
    fails(
        &db,
        &["result", "1", "--round", "1", "1", "1-0", "9", "1-0"],
    );
    assert!(fails(&db, &["pair", "1"]).contains("still needs results on board 1"));
    assert!(fails(&db, &["withdraw", "1", "Zed"]).contains("no player \"Zed\""));
    assert!(fails(&db, &["draw", "1", "--method", "die", "--outcomes", "9,9"]).contains("die"));
    assert!(fails(&db, &["draw", "1", "--set", "960", "--round", "4"]).contains("no round 4"));
    let bad = dir.join("bad.trf");
    std::fs::write(&bad, "012 Broken\n001    1      Someone\n").unwrap();
    assert!(fails(&db, &["import", bad.to_str().unwrap()]).contains("TRF line 2"));
}

/// Issue 37: an imported event passes every check a live event passes. A document with a
/// player index out of range, a 10 MB name or 120,000 players (and a TRF of 1,100 players) is
/// refused with one line naming the file and the place, exit 2 (never a panic's 101), and
/// nothing is imported; the event's own export imports, and everything reads it.
#[test]
fn import_refuses_what_no_live_event_can_be() {
    let dir = scratch("import-checks");
    let db = dir.join("g.sqlite3");
    ok(&db, &["new", "Checked Open", "--swiss", "--rounds", "3"]);
    for k in 1..=6 {
        let rating = (2100 - 20 * k).to_string();
        ok(
            &db,
            &["add", "1", &format!("Player {k}"), "--rating", &rating],
        );
    }
    ok(&db, &["draw", "1", "--seed", "5"]);
    ok(&db, &["pair", "1"]);
    ok(
        &db,
        &[
            "result", "1", "--round", "1", "1", "1-0", "2", "1/2", "3", "0-1",
        ],
    );
    ok(&db, &["pair", "1"]);
    let good = dir.join("good.json");
    ok(
        &db,
        &[
            "export",
            "1",
            "--format",
            "json",
            "-o",
            good.to_str().unwrap(),
        ],
    );
    let doc: Value = serde_json::from_str(&std::fs::read_to_string(&good).unwrap()).unwrap();
    let events = |db: &Path| -> usize {
        let list: Value = serde_json::from_str(&ok(db, &["list", "--json"])).unwrap();
        list.as_array().unwrap().len()
    };

    let mut index = doc.clone();
    index["event"]["played"][0]["boards"][1]["black"] = Value::from(412);
    let mut name = doc.clone();
    name["event"]["name"] = Value::from("N".repeat(10_000_000));
    let mut crowd = doc.clone();
    let p = crowd["event"]["players"][0].clone();
    crowd["event"]["players"] = Value::Array(vec![p; 120_000]);
    let mut trf = String::new();
    for id in 1..=1100 {
        trf += &format!(
            "001 {id:>4}      {:<33} {:>4}                             0.0\n",
            format!("Player {id}"),
            1500
        );
    }
    for (file, text, says) in [
        (
            "index.json",
            index.to_string(),
            "round 1, board 2: player index 412 names no player (the event has 6: 0 to 5)",
        ),
        (
            "name.json",
            name.to_string(),
            "the event: the name has 10000000 characters: at most 200",
        ),
        (
            "crowd.json",
            crowd.to_string(),
            "the event: 120000 players: at most 1000",
        ),
        ("crowd.trf", trf, "the event: 1100 players: at most 1000"),
    ] {
        let path = dir.join(file);
        std::fs::write(&path, text).unwrap();
        let o = run(&db, &["import", path.to_str().unwrap()]);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{file}: {err}");
        assert!(o.stdout.is_empty(), "{file}");
        assert_eq!(err.lines().count(), 1, "{file}: one line: {err}");
        assert_eq!(
            err.trim_end(),
            format!("chess960: {}: {says}", path.display()),
            "{file}"
        );
        assert_eq!(events(&db), 1, "{file}: nothing imported");
    }

    // The event's own export imports, exports the same again, and everything reads it.
    assert!(ok(&db, &["import", good.to_str().unwrap()]).starts_with("event 2 "));
    let again: Value =
        serde_json::from_str(&ok(&db, &["export", "2", "--format", "json"])).unwrap();
    assert_eq!(again["event"], doc["event"]);
    ok(&db, &["standings", "2", "--crosstable"]);
    ok(&db, &["export", "2", "--format", "trf"]);
    ok(&db, &["export", "2", "--format", "pgn"]);
    ok(&db, &["sheet", "2", "--round", "2"]);
}

#[test]
fn an_accelerated_swiss_by_the_baku_method() {
    let dir = scratch("baku");
    let db = dir.join("g.sqlite3");
    let made = ok(
        &db,
        &[
            "new",
            "Baku Open",
            "--swiss",
            "--rounds",
            "7",
            "--accelerated",
            "baku",
            "--first-color",
            "white",
            "--json",
        ],
    );
    let v: Value = serde_json::from_str(&made).unwrap();
    assert_eq!(v["event"]["acceleration"], "baku");
    assert!(fails(
        &db,
        &[
            "new",
            "X",
            "--swiss",
            "--rounds",
            "5",
            "--accelerated",
            "fast"
        ]
    )
    .contains("none or baku"));
    assert!(
        fails(&db, &["new", "Y", "--round-robin", "--accelerated", "baku"])
            .contains("only a Swiss")
    );
    for k in 1..=10 {
        let rating = (2500 - 10 * k).to_string();
        ok(
            &db,
            &["add", "1", &format!("Player {k}"), "--rating", &rating],
        );
    }
    ok(&db, &["draw", "1"]);
    // 10 players: GA is 6 (2 · ⌈10/4⌉); GA and GB pair within themselves in round 1.
    let p: Value = serde_json::from_str(&ok(&db, &["pair", "1", "--json"])).unwrap();
    let boards: Vec<(u64, u64)> = p["boards"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| {
            (
                b["white"]["player"].as_u64().unwrap(),
                b["black"]["player"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(boards, [(1, 4), (5, 2), (3, 6), (7, 9), (10, 8)], "{p}");
    // The TRF export carries the virtual points as XXA lines.
    let trf = dir.join("baku.trf");
    ok(
        &db,
        &[
            "export",
            "1",
            "--format",
            "trf",
            "-o",
            trf.to_str().unwrap(),
        ],
    );
    let text = std::fs::read_to_string(&trf).unwrap();
    let xxa: Vec<&str> = text.lines().filter(|l| l.starts_with("XXA")).collect();
    assert_eq!(xxa.len(), 6, "{text}");
    assert_eq!(xxa[0], "XXA    1  1.0  1.0  0.5  0.5");
}
