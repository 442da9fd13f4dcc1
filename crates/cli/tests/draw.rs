//! Integration tests of `chess960 draw`, `tables`, `list` and `fairness`: the real binary, its
//! output, exit codes and error lines. The `--json` forms are a contract.

use std::process::Output;

mod common;
use common::run_with;

fn run(args: &[&str]) -> Output {
    run_with(args, "")
}

/// Expects success and no stderr; returns stdout.
fn ok_with(args: &[&str], stdin: &str) -> String {
    let out = run_with(args, stdin);
    assert!(
        out.status.success(),
        "chess960 {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        out.stderr.is_empty(),
        "unexpected stderr for {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("UTF-8 output")
}

fn ok(args: &[&str]) -> String {
    ok_with(args, "")
}

/// Expects exit code 2 with exactly one `chess960: ` line on stderr; returns that line.
fn check_bad(args: &[&str], out: &Output) -> String {
    assert_eq!(
        out.status.code(),
        Some(2),
        "chess960 {args:?} should exit 2; stderr: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let err = String::from_utf8(out.stderr.clone()).expect("UTF-8 stderr");
    assert_eq!(err.lines().count(), 1, "one stderr line expected: {err:?}");
    assert!(err.ends_with('\n'));
    let line = err.trim_end().to_string();
    assert!(line.starts_with("chess960: "), "{line}");
    line
}

/// [`check_bad`] with `stdin` as input (a dialogue may have printed to stdout).
fn bad_with(args: &[&str], stdin: &str) -> String {
    check_bad(args, &run_with(args, stdin))
}

/// [`check_bad`], and nothing on stdout.
fn bad(args: &[&str]) -> String {
    let out = run(args);
    assert!(out.stdout.is_empty(), "no stdout expected for {args:?}");
    check_bad(args, &out)
}

fn json(text: &str) -> serde_json::Value {
    assert!(text.ends_with('\n') && text.lines().count() == 1, "{text}");
    serde_json::from_str(text).expect("valid JSON")
}

const CLASSICAL_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

#[test]
fn draw_replay_json_exact() {
    // Die: 2 → c1, 3 → f1, queen 3rd of a b d e g h (d1), knights b1 then g1.
    let text = ok(&[
        "draw",
        "--method",
        "die",
        "--outcomes",
        "2,3,3,2,3",
        "--json",
    ]);
    assert_eq!(
        text,
        format!(
            "{{\"method\":\"die\",\"id\":518,\"back_rank\":\"RNBQKBNR\",\"fen\":\"{CLASSICAL_FEN}\",\
             \"steps\":[\"roll 2 → dark-squared bishop on c1\",\
             \"roll 3 → light-squared bishop on f1\",\
             \"roll 3 → queen on the 3rd of the free squares a1, b1, d1, e1, g1 and h1: d1\",\
             \"roll 2 → first knight on the 2nd of the free squares a1, b1, e1, g1 and h1: b1\",\
             \"roll 3 → second knight on the 3rd of the free squares a1, e1, g1 and h1: g1\",\
             \"rook, king, rook on the last three free squares: rook a1, king e1, rook h1\"]}}\n"
        )
    );
}

#[test]
fn draw_json_shape_for_every_method() {
    for method in ["die", "coins", "bag", "bag-wheeler", "cards", "platonic"] {
        let text = ok(&["draw", "--method", method, "--seed", "5", "--json"]);
        let v = json(&text);
        let keys: Vec<&str> = v.as_object().unwrap().keys().map(|k| k.as_str()).collect();
        assert_eq!(keys.len(), 5, "{text}");
        // Key order is part of the contract: method, id, back_rank, fen, steps.
        let pos = |k: &str| text.find(&format!("\"{k}\":")).unwrap();
        assert!(pos("method") < pos("id") && pos("id") < pos("back_rank"));
        assert!(pos("back_rank") < pos("fen") && pos("fen") < pos("steps"));
        assert_eq!(v["method"], method);
        let id = v["id"].as_u64().unwrap();
        assert!(id < 960);
        assert!(!v["steps"].as_array().unwrap().is_empty());
        // The position is the one `chess960 position` prints for that ID.
        let p = json(&ok(&["position", &id.to_string(), "--json"]));
        assert_eq!(v["back_rank"], p["back_rank"]);
        assert_eq!(v["fen"], p["fen"]);
    }
}

#[test]
fn draw_plain_and_explain() {
    // Without --explain: exactly what `chess960 position ID` prints.
    let plain = ok(&["draw", "--method", "bag", "--outcomes", "R,N,B,Q,K,B,N,R"]);
    assert_eq!(plain, ok(&["position", "518"]));
    let explained = ok(&[
        "draw",
        "--method",
        "bag",
        "--outcomes",
        "B,R,B,R,N,Q,K,N",
        "--explain",
    ]);
    assert!(explained.starts_with(
        "Drawn by bag (Coffin, §1.3.3) from the outcomes given:\n  1. draw 1: bishop → a1\n"
    ));
    assert!(
        explained.contains("a1-b1: bishop ↔ rook → R B B R N Q K N"),
        "{explained}"
    );
    assert!(explained.contains("swap it with the nearer rook, on d1"));
    assert!(explained.ends_with(&ok(&["position", "820"])));
    assert!(explained.contains("Back rank: RBBKNQRN\n"));
    // With re-rolls.
    let out = ok(&[
        "draw",
        "--method",
        "die",
        "--outcomes",
        "6 2 3 3 2 3",
        "--explain",
    ]);
    assert!(out.contains("  1. re-roll: 6 has no square"), "{out}");
    assert!(out.contains("ID:        518\n"));
    // A seeded draw names its seed.
    let out = ok(&["draw", "--method", "coins", "--seed", "9", "--explain"]);
    assert!(out.starts_with("Drawn by two coins (Northam, §1.3.2) with seed 9:\n"));
}

#[test]
fn draw_seed_is_deterministic() {
    for method in ["die", "coins", "bag", "bag-wheeler", "cards", "platonic"] {
        let a = ok(&["draw", "--method", method, "--seed", "123", "--json"]);
        assert_eq!(
            a,
            ok(&["draw", "--method", method, "--seed", "123", "--json"])
        );
        let ids: std::collections::HashSet<u64> = (0..8)
            .map(|s| {
                json(&ok(&[
                    "draw",
                    "--method",
                    method,
                    "--seed",
                    &s.to_string(),
                    "--json",
                ]))["id"]
                    .as_u64()
                    .unwrap()
            })
            .collect();
        assert!(ids.len() > 1, "{method}");
    }
    assert_eq!(
        json(&ok(&["draw", "--method", "die", "--seed", "42", "--json"]))["back_rank"],
        "QNBBNRKR"
    );
    // Unseeded draws work too.
    assert!(
        json(&ok(&["draw", "--method", "platonic", "--json"]))["id"]
            .as_u64()
            .unwrap()
            < 960
    );
}

#[test]
fn draw_errors() {
    let line = bad(&["draw", "--method", "dice"]);
    assert!(line.contains("unknown drawing method 'dice'"), "{line}");
    assert!(
        line.contains("bag-wheeler") && line.contains("chosen"),
        "{line}"
    );
    assert_eq!(
        bad(&["draw", "--method", "die", "--outcomes", "2,3,7"]),
        "chess960: --outcomes for the die method: step 3 (queen, die 1–6): 7 is not a face of \
         a six-sided die"
    );
    assert_eq!(
        bad(&["draw", "--method", "die", "--outcomes", "1,2,3"]),
        "chess960: --outcomes for the die method: step 4 needs a roll for the first knight \
         (die 1–6), but only 3 outcomes were given"
    );
    assert!(
        bad(&["draw", "--method", "platonic", "--outcomes", "1,1,1,1,1"]).contains("left over")
    );
    assert!(bad(&["draw", "--method", "die", "--seed", "x"]).contains("--seed"));
    assert!(bad(&["draw", "--method", "chosen", "--seed", "1"]).contains("nothing in it is random"));
    // A pasted line break stays inside the one error line.
    bad(&["draw", "--method", "bag", "--outcomes", "R,\u{1b}[2J\r\nX"]);
    // --seed and --outcomes together are a usage error.
    let out = run(&["draw", "--method", "die", "--seed", "1", "--outcomes", "1"]);
    assert_eq!(out.status.code(), Some(2));
    // --method is required.
    assert_eq!(run(&["draw"]).status.code(), Some(2));
}

#[test]
fn draw_garbage_outcomes_never_crash() {
    let garbage = [
        "",
        ",",
        "-",
        "--",
        "0",
        "99999999999999999999999",
        "1,2,3,4,5,6,7,8,9,10",
        "K,K",
        "ä,ö,ü",
        "🂡 🂢",
        "\u{7f}",
        "HH,HH,HH,HH,HH,HH,HH",
        "L,R,L,R",
        "B,B,B",
        "1e3",
        "0x10",
        "   ",
        "R N B Q K B N R R",
        "Bc1,Bd1,Nb1,Ng1,Qe1",
        "B c1, B c1",
    ];
    for method in [
        "die",
        "coins",
        "bag",
        "bag-wheeler",
        "cards",
        "platonic",
        "chosen",
    ] {
        for g in garbage {
            let out = run(&["draw", "--method", method, "--outcomes", g]);
            let code = out.status.code();
            assert!(
                code == Some(0) || code == Some(2),
                "{method} {g:?}: {code:?}"
            );
            if code == Some(2) {
                let err = String::from_utf8(out.stderr).unwrap();
                assert_eq!(err.lines().count(), 1, "{method} {g:?}: {err}");
                assert!(err.starts_with("chess960: "));
            }
        }
    }
}

#[test]
fn chosen_dialogue_piped() {
    // Black B c1; White B e1 is refused (dark like c1) and White tries again with f1; an
    // empty line and 'help' change nothing; then N b1, N g1, Q d1 (d8 names the same file).
    let input = "B c1\nB e1\n\nhelp\nBf\nknight b\nN g1\nqueen d8\n";
    let out = ok_with(&["draw", "--method", "chosen"], input);
    assert!(
        out.contains("Black to place a piece (left: B, B, N, N, Q): B c1\n"),
        "{out}"
    );
    assert!(out.contains("  Black: bishop on c1\n"), "{out}");
    assert!(
        out.contains(
            "  Refused: the second bishop may not stand on a dark square like the first (on \
             c1), and e1 is dark; it may go on b1, d1, f1 and h1. White, try again.\n"
        ),
        "{out}"
    );
    assert!(
        out.contains("  bishop (B) may go on b1, d1, f1, h1\n"),
        "{out}"
    );
    assert!(out.contains("  White: bishop on f1\n"));
    // The rank fills as the pieces are placed.
    assert!(
        out.contains("  a b c d e f g h\n  . . B . . B . .\n"),
        "{out}"
    );
    assert!(
        out.contains("  a b c d e f g h\n  . N B . . B N .\n"),
        "{out}"
    );
    assert!(out.contains(
        "All five placed: king on e1, the middle of the three squares left (a1, e1 and h1); \
         rooks on a1 and h1."
    ));
    assert!(out.ends_with(&ok(&["position", "518"])), "{out}");
}

#[test]
fn chosen_dialogue_json_and_end_of_input() {
    // With --json the dialogue goes to stderr and stdout has only the JSON line.
    let out = run_with(
        &["draw", "--method", "chosen", "--json"],
        "Bc\nBf\nNb\nNg\nQd\n",
    );
    assert!(out.status.success());
    let v = json(&String::from_utf8(out.stdout).unwrap());
    assert_eq!(v["method"], "chosen");
    assert_eq!(v["id"], 518);
    assert_eq!(v["steps"][0], "Black: bishop → c1");
    assert_eq!(v["steps"][1], "White: bishop → f1");
    assert_eq!(
        v["steps"][5],
        "king on e1, the middle of the three squares left (a1, e1 and h1); rooks on a1 and h1"
    );
    assert!(String::from_utf8(out.stderr)
        .unwrap()
        .contains("Black to place"));
    // The input ends early: exit 2, one line, no panic.
    let line = bad_with(&["draw", "--method", "chosen"], "B c1\nN b1\n");
    assert_eq!(
        line,
        "chess960: the input ended before the position was complete: 2 of the 5 pieces \
         placed, Black to place the next"
    );
    let line = bad_with(&["draw", "--method", "chosen"], "");
    assert!(line.contains("0 of the 5 pieces placed"), "{line}");
    let line = bad_with(&["draw", "--method", "chosen"], "B c1\nquit\n");
    assert!(line.contains("stopped by White"), "{line}");
    // Invalid UTF-8 is read as text with replacement characters and refused as a placement.
    let line = bad_with(&["draw", "--method", "chosen"], "\u{fffd}\n");
    assert!(line.contains("input ended"), "{line}");
}

#[test]
fn chosen_from_outcomes() {
    let v = json(&ok(&[
        "draw",
        "--method",
        "chosen",
        "--outcomes",
        "B c1, B f1, N b1, N g1, Q d1",
        "--json",
    ]));
    assert_eq!(v["back_rank"], "RNBQKBNR");
    assert_eq!(
        bad(&["draw", "--method", "chosen", "--outcomes", "B c1, B e1"]),
        "chess960: --outcomes for the chosen method: placement 2 (White, 'B e1'): the second \
         bishop may not stand on a dark square like the first (on c1), and e1 is dark; it may \
         go on b1, d1, f1 and h1"
    );
    assert!(
        bad(&["draw", "--method", "chosen", "--outcomes", "Q a1, K e1"])
            .contains("placement 2 (White, 'K e1'): the players do not place the king")
    );
    assert!(bad(&["draw", "--method", "chosen", "--outcomes", "B c1"]).contains("only 1 placement"));
}

#[test]
fn tables_plain() {
    let out = ok(&["tables"]);
    let king_rows: Vec<&str> = out
        .lines()
        .skip(1)
        .take_while(|l| !l.starts_with('('))
        .collect();
    assert_eq!(king_rows.len(), 60);
    assert_eq!(king_rows[0], "   0  Q N N R K R");
    assert_eq!(king_rows[32], " 512  R N Q K N R");
    assert_eq!(king_rows[59], " 944  R K R N N Q");
    assert!(out.contains("\n   6  . . B . . B . .   c1 f1\n"), "{out}");
    assert!(out.contains("\n  15  . . . . . . B B   g1 h1\n"));
    assert!(out.contains("Worked example: 518 = 512 + 6\n"));
    assert!(out.contains("  R N B Q K B N R   (518 = RNBQKBNR)\n"));
    let out = ok(&["tables", "--id", "740"]);
    assert!(out.contains("Worked example: 740 = 736 + 4\n"), "{out}");
    assert!(out.contains("  R B B K N N Q R   (740 = RBBKNNQR)\n"));
    // 960 is the 1..960 numbering's name for 0.
    assert!(ok(&["tables", "--id", "960"]).contains("Worked example: 0 = 0 + 0\n"));
    assert!(bad(&["tables", "--id", "961"]).contains("0..959"));
}

#[test]
fn tables_json() {
    let v = json(&ok(&["tables", "--json"]));
    let kings = v["king_table"].as_array().unwrap();
    assert_eq!(kings.len(), 60);
    assert_eq!(
        kings[32],
        serde_json::json!({"row": 512, "pieces": "RNQKNR"})
    );
    let bishops = v["bishop_table"].as_array().unwrap();
    assert_eq!(bishops.len(), 16);
    assert_eq!(
        bishops[6],
        serde_json::json!({"row": 6, "squares": ["c1", "f1"]})
    );
    assert_eq!(
        v["example"],
        serde_json::json!({"id": 518, "king_row": 512, "bishop_row": 6, "back_rank": "RNBQKBNR"})
    );
}

#[test]
fn list_forms() {
    let plain = ok(&["list"]);
    let lines: Vec<&str> = plain.lines().collect();
    assert_eq!(lines.len(), 960);
    assert_eq!(lines[0], "0 BBQNNRKR");
    assert_eq!(lines[518], "518 RNBQKBNR");
    assert_eq!(lines[959], "959 RKRNNQBB");
    let distinct: std::collections::HashSet<&str> =
        lines.iter().map(|l| l.split(' ').nth(1).unwrap()).collect();
    assert_eq!(distinct.len(), 960);

    let csv = ok(&["list", "--csv"]);
    let rows: Vec<&str> = csv.lines().collect();
    assert_eq!(rows.len(), 961);
    assert_eq!(rows[0], "id,back_rank,fen");
    assert_eq!(rows[519], format!("518,RNBQKBNR,{CLASSICAL_FEN}"));

    let text = ok(&["list", "--json"]);
    assert!(text.starts_with(
        "{\"positions\":[{\"id\":0,\"back_rank\":\"BBQNNRKR\",\"fen\":\"bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1\"},"
    ));
    let v = json(&text);
    let positions = v["positions"].as_array().unwrap();
    assert_eq!(positions.len(), 960);
    for (i, p) in positions.iter().enumerate() {
        assert_eq!(p["id"], i as u64);
        assert_eq!(p.as_object().unwrap().len(), 3);
    }
    // Both forms at once are a usage error.
    assert_eq!(run(&["list", "--json", "--csv"]).status.code(), Some(2));
}

#[test]
fn fairness_json_exact_shape() {
    let text = ok(&["fairness", "--json"]);
    let v = json(&text);
    let methods = v["methods"].as_array().unwrap();
    let names: Vec<&str> = methods
        .iter()
        .map(|m| m["method"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        ["die", "coins", "bag", "bag-wheeler", "cards", "platonic"]
    );
    assert!(text.contains(
        "{\"method\":\"bag\",\"uniform\":false,\"classes\":[{\"times_960\":\"4/7\",\"positions\":240,\
         \"description\":\"bishops side by side in one of the file pairs a-b, c-d, e-f, g-h\"},\
         {\"times_960\":\"8/7\",\"positions\":720,\"description\":\"bishops not together in one of \
         the file pairs a-b, c-d, e-f, g-h\"}]}"
    ), "{text}");
    assert!(text.contains(
        "{\"method\":\"die\",\"uniform\":true,\"classes\":[{\"times_960\":\"1\",\"positions\":960,\
         \"description\":\"every start position\"}]}"
    ));
    let coins = &methods[1];
    assert_eq!(coins["uniform"], false);
    assert_eq!(coins["classes"][0]["times_960"], "5/6");
    assert_eq!(coins["classes"][0]["positions"], 576);
    assert_eq!(coins["classes"][1]["times_960"], "5/4");
    for m in methods {
        assert_eq!(
            m.as_object().unwrap().len(),
            3,
            "no sample without --sample"
        );
        let total: u64 = m["classes"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c["positions"].as_u64().unwrap())
            .sum();
        assert_eq!(total, 960);
    }
}

#[test]
fn fairness_sample() {
    let text = ok(&["fairness", "--json", "--sample", "3000", "--seed", "11"]);
    let v = json(&text);
    for m in v["methods"].as_array().unwrap() {
        let s = &m["sample"];
        assert_eq!(s.as_object().unwrap().len(), 4);
        assert_eq!(s["n"], 3000);
        assert_eq!(s["df"], 959);
        assert!(s["chi_square"].as_f64().unwrap() > 0.0);
        let p = s["p_value"].as_f64().unwrap();
        assert!((0.0..=1.0).contains(&p));
        // Key order: n, chi_square, df, p_value; sample after classes.
        assert!(text.contains("\"sample\":{\"n\":3000,\"chi_square\":"));
    }
    assert_eq!(
        text,
        ok(&["fairness", "--json", "--sample", "3000", "--seed", "11"])
    );
    let plain = ok(&["fairness", "--sample", "2000", "--seed", "3"]);
    assert!(
        plain.contains("sample of 2000 (seed 3): chi-square "),
        "{plain}"
    );
    assert!(bad(&["fairness", "--sample", "0"]).contains("--sample"));
    assert!(bad(&["fairness", "--sample", "x"]).contains("--sample"));
    // --seed without --sample is a usage error.
    assert_eq!(run(&["fairness", "--seed", "1"]).status.code(), Some(2));
}

#[test]
fn fairness_plain() {
    let out = ok(&["fairness"]);
    assert!(out.contains("\ncoins — two coins (Northam, §1.3.2)\n  NOT uniform: the most likely positions are 3/2 times as likely as the least likely\n"), "{out}");
    assert!(out.contains("    5/4 × 1/960   384 positions (1/2 of the draws)  king on the 2nd or 5th of the six squares the bishops leave free\n"), "{out}");
    assert!(out.contains("\nbag — bag (Coffin, §1.3.3)\n  NOT uniform: the most likely positions are 2 times as likely as the least likely\n"));
    assert!(out.contains("\nbag-wheeler — bag with Wheeler's correction (§1.3.4)\n  uniform: each of the 960 positions has probability exactly 1/960\n"));
    assert!(out.contains("960 outcome sequences enumerated; 6 (6.00) throws"));
    assert!(out.contains("  distance from uniform (total variation): 3/28 (0.107)\n"));
}

#[test]
fn help_texts() {
    let top = ok(&["--help"]);
    for word in ["draw", "tables", "list", "fairness"] {
        assert!(top.contains(word), "{word} missing from --help");
    }
    for sub in ["draw", "tables", "list", "fairness"] {
        assert!(ok(&[sub, "--help"]).contains("Usage: chess960 "), "{sub}");
    }
    let draw = ok(&["draw", "--help"]);
    for word in [
        "bag-wheeler",
        "platonic",
        "chosen",
        "--outcomes",
        "re-roll",
        "Black first",
    ] {
        assert!(draw.contains(word), "{word} missing from draw --help");
    }
}
