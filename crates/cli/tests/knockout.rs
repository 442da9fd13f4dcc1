//! `chess960 event` for a knockout: a six-player bracket with a custom plan from `new` to the
//! champion (byes to the top seeds, a tied match through its rapid stage to an Armageddon
//! whose draw is Black's win, the next round refused while a match is undecided), the bracket
//! printed, the TRF refused, the PGN read back by our PGN reader with every game's position,
//! and the flags `new` refuses.

mod common;
use common::{event as run, event_fails as fails, event_ok as ok};
use serde_json::Value;
use std::path::{Path, PathBuf};

fn json(db: &Path, args: &[&str]) -> Value {
    serde_json::from_str(&ok(db, args)).unwrap()
}

fn scratch(name: &str) -> PathBuf {
    common::scratch_dir("knockout", name)
}

const PLAYERS: [(&str, &str); 6] = [
    ("Carlsen, Magnus", "2830"),
    ("Nakamura, Hikaru", "2800"),
    ("Caruana, Fabiano", "2790"),
    ("So, Wesley", "2770"),
    ("Aronian, Levon", "2750"),
    ("Firouzja, Alireza", "2740"),
];

/// The match `number` of `round` (from 1) in `show --json`'s bracket.
fn match_of(db: &Path, round: usize, number: usize) -> Value {
    let v = json(db, &["show", "1", "--json"]);
    v["knockout"]["rounds"][round - 1]["matches"][number - 1].clone()
}

#[test]
fn a_knockout_of_six_to_its_champion() {
    let dir = scratch("six");
    let db = dir.join("g.sqlite3");
    let made = json(
        &db,
        &[
            "new",
            "Cup 960",
            "--knockout",
            "--games",
            "2",
            "--tiebreak",
            "rapid:2:10+5",
            "--tiebreak",
            "armageddon:5+0",
            "--time-control",
            "45+10",
            "--first-color",
            "white",
            "--json",
        ],
    );
    assert_eq!(made["id"], 1);
    let plan = &made["event"]["format"];
    assert_eq!(plan["games"], 2);
    assert_eq!(plan["tiebreaks"].as_array().unwrap().len(), 2);
    for (name, rating) in PLAYERS {
        ok(&db, &["add", "1", name, "--rating", rating]);
    }
    ok(&db, &["draw", "1", "--seed", "1"]);

    // Round 1: six players in a bracket of eight; seeds 1 and 2 have the byes, 4–5 and 3–6
    // play two games each, colours swapped.
    let r1 = json(&db, &["pair", "1", "--json"]);
    let byes: Vec<&str> = r1["byes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b["name"].as_str().unwrap())
        .collect();
    assert_eq!(byes, ["Carlsen, Magnus", "Nakamura, Hikaru"]);
    let boards = r1["boards"].as_array().unwrap();
    assert_eq!(boards.len(), 4);
    let pairs: Vec<(u64, &str, &str)> = boards
        .iter()
        .map(|b| {
            (
                b["match"].as_u64().unwrap(),
                b["white"]["name"].as_str().unwrap(),
                b["black"]["name"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        pairs,
        [
            (2, "So, Wesley", "Aronian, Levon"),
            (2, "Aronian, Levon", "So, Wesley"),
            (4, "Caruana, Fabiano", "Firouzja, Alireza"),
            (4, "Firouzja, Alireza", "Caruana, Fabiano"),
        ]
    );
    let sheet = ok(&db, &["sheet", "1", "--round", "1"]);
    assert!(
        sheet.contains("Match 1: Carlsen, Magnus (1) has a bye and goes through")
            && sheet.contains("Match 2: So, Wesley (4) – Aronian, Levon (5)")
            && sheet.contains("board   4  Firouzja, Alireza (6)"),
        "{sheet}"
    );

    // Match 2 is tied 1–1, match 4 goes to Firouzja.
    let said = ok(
        &db,
        &[
            "result", "1", "--round", "1", "1", "1-0", "2", "1-0", "3", "1/2", "4", "1-0",
        ],
    );
    assert!(
        said.contains("Match 2: So, Wesley (4) – Aronian, Levon (5)  1–1: tied"),
        "{said}"
    );
    assert!(
        said.contains("½–1½: Firouzja, Alireza goes through"),
        "{said}"
    );
    let refused = fails(&db, &["pair", "1"]);
    assert!(
        refused.contains("round 2 cannot be paired: match 2 of round 1 is tied"),
        "{refused}"
    );
    assert!(fails(
        &db,
        &["draw", "1", "--round", "1", "--stage", "2", "--set", "100"]
    )
    .contains("stage 1's"));

    // The rapid stage: its own position, drawn by the die, then its games.
    let stage1 = json(
        &db,
        &[
            "draw", "1", "--round", "1", "--stage", "1", "--method", "die", "--seed", "5", "--json",
        ],
    );
    assert_eq!(stage1["stage"], 1);
    let rapid_pos = stage1["draw"]["id"].as_u64().unwrap();
    let added = json(&db, &["tiebreaks", "1", "--round", "1", "--json"]);
    assert_eq!(added["added"].as_array().unwrap().len(), 1, "{added}");
    let a = &added["added"][0];
    assert_eq!(
        (a["match"].as_u64(), a["stage"].as_u64(), a["kind"].as_str()),
        (Some(2), Some(1), Some("rapid"))
    );
    assert_eq!(a["boards"], serde_json::json!([5, 6]));
    assert_eq!(a["position"].as_u64(), Some(rapid_pos));
    assert_eq!(a["time_control"], "10+5");
    // The tiebreak games come after the round's boards: match 4 keeps boards 3 and 4.
    let m4 = match_of(&db, 1, 4);
    assert_eq!(m4["stages"][0]["boards"], serde_json::json!([3, 4]));
    assert!(fails(&db, &["tiebreaks", "1", "--round", "1"]).contains("no match of round 1 is tied"));

    // Rapid 1–1: the Armageddon, whose position is not drawn yet (the command says so).
    ok(
        &db,
        &["result", "1", "--round", "1", "5", "1-0", "6", "1-0"],
    );
    let added = ok(&db, &["tiebreaks", "1", "--round", "1", "--seed", "3"]);
    assert!(
        added.contains("round 1 match 2: So, Wesley (4) – Aronian, Levon (5): tiebreak stage 2: an Armageddon game (5+0), position not drawn yet")
            && added.contains("next: draw the position of tiebreak stage 2: chess960 event draw 1 --round 1 --stage 2"),
        "{added}"
    );
    ok(
        &db,
        &["draw", "1", "--round", "1", "--stage", "2", "--set", "868"],
    );
    let m2 = match_of(&db, 1, 2);
    let arm = &m2["stages"][2];
    assert_eq!(arm["kind"], "armageddon");
    let arm_board = arm["boards"][0].as_u64().unwrap();
    let round1 = json(&db, &["show", "1", "--json"])["event"]["played"][0].clone();
    let b = &round1["boards"][arm_board as usize - 1];
    // Players are 0-based in the document.
    let black = PLAYERS[b["black"].as_u64().unwrap() as usize].0;
    // A draw: Black goes through.
    let said = ok(
        &db,
        &["result", "1", "--round", "1", &arm_board.to_string(), "1/2"],
    );
    assert!(
        said.contains("Armageddon 1–0 (drawn: Black wins)")
            || said.contains("Armageddon 0–1 (drawn: Black wins)"),
        "{said}"
    );
    assert!(
        said.contains(&format!(
            "{black} goes through after the Armageddon tiebreak"
        )),
        "{said}"
    );
    let m2 = match_of(&db, 1, 2);
    assert_eq!(m2["state"], "won");
    assert_eq!(m2["winner"]["name"], black);
    assert_eq!(m2["stage"], 2);

    // Round 2 (the semi-finals): Carlsen meets match 2's winner, Nakamura meets Firouzja.
    ok(&db, &["draw", "1", "--seed", "2"]);
    let listed = ok(&db, &["pair", "1"]);
    assert!(
        listed.contains("round 2 (semi-finals)")
            && listed.contains(&format!("Match 1: Carlsen, Magnus (1) – {black}"))
            && listed.contains("Match 2: Nakamura, Hikaru (2) – Firouzja, Alireza (6)")
            && listed.contains("board   4  Firouzja, Alireza (6)"),
        "{listed}"
    );
    ok(
        &db,
        &[
            "result", "1", "--round", "2", "1", "1-0", "2", "1/2", "3", "0-1", "4", "1/2",
        ],
    );
    // The final: Carlsen – Firouzja.
    ok(&db, &["draw", "1", "--seed", "3"]);
    let fin = ok(&db, &["pair", "1"]);
    assert!(
        fin.contains("Match 1: Carlsen, Magnus (1) – Firouzja, Alireza (6)"),
        "{fin}"
    );
    assert!(fails(&db, &["pair", "1"]).contains("round 4"));
    let said = ok(
        &db,
        &["result", "1", "--round", "3", "1", "1/2", "2", "1-0"],
    );
    assert!(said.contains("Firouzja, Alireza wins Cup 960"), "{said}");

    // The bracket.
    let shown = ok(&db, &["show", "1"]);
    for line in [
        "Round 1 (quarter-finals): position ",
        "tiebreak stage 1 position ",
        "tiebreak stage 2 position 868",
        "  Match 3: Nakamura, Hikaru (2) has a bye and goes through",
        "  Match 4: Caruana, Fabiano (3) – Firouzja, Alireza (6)  ½–1½: Firouzja, Alireza goes through",
        "1–1, rapid 1–1, Armageddon",
        "Round 3 (final)",
        "  Match 1: Carlsen, Magnus (1) – Firouzja, Alireza (6)  ½–1½: Firouzja, Alireza goes through",
        "Champion: Firouzja, Alireza",
        "        1  Firouzja, Alireza (6)",
        "        2  Carlsen, Magnus (1)",
        "      3–4  Nakamura, Hikaru (2)",
        "      5–6  Caruana, Fabiano (3)",
    ] {
        assert!(shown.contains(line), "{line:?} in\n{shown}");
    }
    let v = json(&db, &["show", "1", "--json"]);
    assert_eq!(v["knockout"]["champion"]["name"], "Firouzja, Alireza");
    assert_eq!(v["knockout"]["placings"].as_array().unwrap().len(), 6);
    assert_eq!(v["event"]["name"], "Cup 960", "the event itself, as before");

    // Every draw repeats: three rounds' positions and two tiebreak stages'.
    assert!(ok(&db, &["verify", "1"]).starts_with("5 recorded draws repeated"));

    // TRF: refused, and why.
    let trf = fails(&db, &["export", "1", "--format", "trf"]);
    assert_eq!(
        trf.trim_end(),
        "chess960: TRF-16 has one game per player and round, which a knockout's mini-matches are not: export PGN or JSON"
    );

    // PGN: every game with its position, read back by our PGN reader.
    let pgn = ok(&db, &["export", "1", "--format", "pgn"]);
    let mut reader = chess960_pgn::Reader::new(pgn.as_bytes());
    let mut games = Vec::new();
    while let Some(g) = reader.read_game().unwrap() {
        games.push(g.unwrap());
    }
    let mut want = Vec::new();
    for r in v["event"]["played"].as_array().unwrap() {
        let round_pos = r["draw"]["id"].as_u64().unwrap();
        let stage_pos: Vec<u64> = r["stage_draws"]
            .as_array()
            .map(|a| a.iter().map(|d| d["id"].as_u64().unwrap()).collect())
            .unwrap_or_default();
        for b in r["boards"].as_array().unwrap() {
            let stage = b["slot"]["stage"].as_u64().unwrap();
            let pos = if stage == 0 {
                round_pos
            } else {
                stage_pos[stage as usize - 1]
            };
            want.push(pos);
        }
    }
    assert_eq!(games.len(), want.len(), "every game of every round");
    assert_eq!(games.len(), 4 + 3 + 4 + 2);
    for (g, pos) in games.iter().zip(&want) {
        assert_eq!(
            g.start,
            chess960_core::StartId::new(*pos as u32).unwrap().position()
        );
    }
    assert!(pgn.contains("[StartPosition \"868\"]"));
    // JSON: whole, and imported again.
    let path = dir.join("cup.json");
    ok(
        &db,
        &[
            "export",
            "1",
            "--format",
            "json",
            "-o",
            path.to_str().unwrap(),
        ],
    );
    assert!(ok(&db, &["import", path.to_str().unwrap()]).contains("6 players, 3 rounds paired"));
    let again = ok(&db, &["show", "2"]);
    assert!(again.contains("Champion: Firouzja, Alireza"), "{again}");
}

#[test]
fn knockout_flags_are_checked() {
    let dir = scratch("flags");
    let db = dir.join("g.sqlite3");
    let made = ok(&db, &["new", "Default Cup", "--knockout"]);
    assert!(
        made.contains("knockout: 2 games a match, then 2 rapid games (10+5), then 2 blitz games (3+2), then an Armageddon game (5+0)"),
        "{made}"
    );
    let none = ok(
        &db,
        &[
            "new",
            "Plain Cup",
            "--knockout",
            "--no-tiebreaks",
            "--games",
            "4",
            "--seeding",
            "lot",
        ],
    );
    assert!(
        none.contains(
            "knockout: 4 games a match, the last stage repeated until the match is decided"
        ),
        "{none}"
    );
    let v = json(&db, &["show", "2", "--json"]);
    assert_eq!(v["event"]["format"]["seeding"], "lot");
    for (args, says) in [
        (
            &["new", "X", "--knockout", "--rounds", "3"][..],
            "leave out --rounds",
        ),
        (
            &["new", "X", "--knockout", "--round-robin"],
            "--knockout and --round-robin",
        ),
        (
            &["new", "X", "--knockout", "--swiss"],
            "--knockout and --swiss",
        ),
        (
            &["new", "X", "--knockout", "--accelerated", "baku"],
            "--accelerated",
        ),
        (&["new", "X", "--knockout", "--per-board"], "--per-board"),
        (
            &["new", "X", "--knockout", "--tiebreaks", "bh"],
            "--tiebreak KIND:GAMES:TIME",
        ),
        (
            &["new", "X", "--swiss", "--rounds", "3", "--games", "2"],
            "add --knockout",
        ),
        (
            &["new", "X", "--tiebreak", "rapid:2:10+5", "--round-robin"],
            "add --knockout",
        ),
        (
            &["new", "X", "--knockout", "--tiebreak", "bullet:2:1+0"],
            "starts with rapid",
        ),
        (
            &[
                "new",
                "X",
                "--knockout",
                "--tiebreak",
                "armageddon:5+0",
                "--tiebreak",
                "rapid:2:10+5",
            ],
            "comes last",
        ),
        (
            &[
                "new",
                "X",
                "--knockout",
                "--tiebreak",
                "rapid:2:10+5",
                "--no-tiebreaks",
            ],
            "choose one",
        ),
        (&["new", "X", "--knockout", "--games", "0"], "1 to 12"),
        (
            &["new", "X", "--knockout", "--seeding", "age"],
            "rating or lot",
        ),
        (&["new", "X"], "--knockout"),
    ] {
        let e = fails(&db, args);
        assert!(e.contains(says), "{args:?}: {e}");
    }
    // Nothing was made by the refused lines.
    assert_eq!(json(&db, &["list", "--json"]).as_array().unwrap().len(), 2);
    // A Swiss has no tiebreak stages.
    ok(&db, &["new", "Open", "--swiss", "--rounds", "3"]);
    ok(&db, &["add", "3", "A"]);
    ok(&db, &["add", "3", "B"]);
    ok(&db, &["pair", "3"]);
    assert!(fails(&db, &["tiebreaks", "3", "--round", "1"]).contains("not a knockout"));
    assert!(fails(&db, &["draw", "3", "--round", "1", "--stage", "1"]).contains("knockout"));
    assert!(fails(&db, &["draw", "3", "--round", "1", "--stage", "0"]).contains("from 1"));
    // The help explains the knockout's flags with an example.
    let o = run(&db, &["new", "--help"]);
    let help = String::from_utf8(o.stdout).unwrap();
    assert!(
        help.contains("--tiebreak <KIND:GAMES:TIME>")
            && help.contains("Armageddon")
            && help.contains("--knockout --games 2 --tiebreak rapid:2:10+5"),
        "{help}"
    );
}
