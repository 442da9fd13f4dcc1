//! Integration tests: run the built `chess960` binary and check its real output, exit codes
//! and error lines. The command-line forms are a contract other tools rely on.

use std::process::{Command, Output};

/// Runs `chess960` with `args`.
fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_chess960"))
        .args(args)
        .output()
        .expect("the chess960 binary runs")
}

/// Runs `chess960`, expects success and no stderr, returns stdout.
fn ok(args: &[&str]) -> String {
    let out = run(args);
    assert!(
        out.status.success(),
        "chess960 {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.stderr.is_empty(), "unexpected stderr for {args:?}");
    String::from_utf8(out.stdout).expect("UTF-8 output")
}

/// Runs `chess960`, expects exit code 2 with exactly one `chess960: ` line on stderr and
/// nothing on stdout; returns that line.
fn bad(args: &[&str]) -> String {
    let out = run(args);
    assert_eq!(
        out.status.code(),
        Some(2),
        "chess960 {args:?} should exit 2"
    );
    assert!(out.stdout.is_empty(), "no stdout expected for {args:?}");
    let err = String::from_utf8(out.stderr).expect("UTF-8 stderr");
    assert_eq!(
        err.lines().count(),
        1,
        "one stderr line expected, got {err:?}"
    );
    assert!(err.ends_with('\n'));
    let line = err.trim_end().to_string();
    assert!(line.starts_with("chess960: "), "{line}");
    line
}

fn json(text: &str) -> serde_json::Value {
    serde_json::from_str(text).expect("valid JSON")
}

const CLASSICAL_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

#[test]
fn position_518_json_exact() {
    assert_eq!(
        ok(&["position", "518", "--json"]),
        format!("{{\"id\":518,\"back_rank\":\"RNBQKBNR\",\"fen\":\"{CLASSICAL_FEN}\"}}\n")
    );
}

#[test]
fn position_0_and_960() {
    let zero = ok(&["position", "0", "--json"]);
    let v = json(&zero);
    assert_eq!(v["id"], 0);
    assert_eq!(v["back_rank"], "BBQNNRKR");
    assert_eq!(
        v["fen"],
        "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1"
    );
    assert_eq!(ok(&["position", "960", "--json"]), zero);
    assert_eq!(ok(&["position", "960"]), ok(&["position", "0"]));
}

#[test]
fn position_plain() {
    let out = ok(&["position", "518"]);
    assert!(out.contains("♜ ♞ ♝ ♛ ♚ ♝ ♞ ♜"), "{out}");
    assert!(out.contains("  a b c d e f g h"), "{out}");
    assert!(out.contains("ID:        518\n"), "{out}");
    assert!(out.contains("Back rank: RNBQKBNR\n"), "{out}");
    assert!(
        out.contains(&format!("X-FEN:     {CLASSICAL_FEN}\n")),
        "{out}"
    );
}

#[test]
fn position_out_of_range() {
    for id in ["961", "1000", "99999999999999999999"] {
        let line = bad(&["position", id]);
        assert!(line.contains("0..959"), "{line}");
        assert!(line.contains(id), "{line}");
    }
    for id in ["-1", "abc", "5.0"] {
        let line = bad(&["position", id]);
        assert!(line.contains("0..959"), "{line}");
    }
}

#[test]
fn position_random_seeded() {
    let a = ok(&["position", "--random", "--seed", "7", "--json"]);
    let b = ok(&["position", "--random", "--seed", "7", "--json"]);
    assert_eq!(a, b);
    let v = json(&a);
    let id = v["id"].as_u64().unwrap();
    assert!(id < 960);
    assert_eq!(a, ok(&["position", &id.to_string(), "--json"]));
    // Different seeds do not all give the same position.
    let ids: std::collections::HashSet<String> = (0..8)
        .map(|s| ok(&["position", "--random", "--seed", &s.to_string(), "--json"]))
        .collect();
    assert!(ids.len() > 1);
}

#[test]
fn position_random_unseeded() {
    let v = json(&ok(&["position", "--random", "--json"]));
    assert!(v["id"].as_u64().unwrap() < 960);
    let line = bad(&["position", "--random", "--seed", "x"]);
    assert!(line.contains("--seed"), "{line}");
}

#[test]
fn id_of_back_ranks() {
    assert_eq!(ok(&["id", "RNBQKBNR"]), "518\n");
    assert_eq!(ok(&["id", "RKRNNQBB"]), "959\n");
    assert_eq!(ok(&["id", "bbqnnrkr"]), "0\n");
    assert_eq!(
        ok(&["id", "RNBQKBNR", "--json"]),
        "{\"id\":518,\"back_rank\":\"RNBQKBNR\"}\n"
    );
}

#[test]
fn id_of_fen() {
    assert_eq!(ok(&["id", CLASSICAL_FEN]), "518\n");
    let fen = "rkrnnqbb/pppppppp/8/8/8/8/PPPPPPPP/RKRNNQBB w KQkq - 0 1";
    assert_eq!(
        ok(&["id", fen, "--json"]),
        "{\"id\":959,\"back_rank\":\"RKRNNQBB\"}\n"
    );
    // Castling rights do not matter; a bare placement works; so does an unquoted FEN.
    assert_eq!(
        ok(&[
            "id",
            "rkrnnqbb/pppppppp/8/8/8/8/PPPPPPPP/RKRNNQBB w - - 0 1"
        ]),
        "959\n"
    );
    assert_eq!(
        ok(&["id", "rkrnnqbb/pppppppp/8/8/8/8/PPPPPPPP/RKRNNQBB"]),
        "959\n"
    );
    let words: Vec<&str> = std::iter::once("id")
        .chain(CLASSICAL_FEN.split(' '))
        .collect();
    assert_eq!(ok(&words), "518\n");
}

#[test]
fn id_errors() {
    let line = bad(&["id", "RNBQKNBR"]);
    assert!(line.contains("invalid back rank 'RNBQKNBR'"), "{line}");
    assert!(line.contains("bishops"), "{line}");
    bad(&["id", "RNBQK"]);
    bad(&["id", "KRNBQBNR"]);
    let line = bad(&[
        "id",
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
    ]);
    assert!(line.contains("not a Chess960 start arrangement"), "{line}");
    let line = bad(&[
        "id",
        "rnbqkbnr/ppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    ]);
    assert!(line.contains("invalid FEN"), "{line}");
}

/// White: king g1, rooks b1 and h1; Black mirrored. Both castlings are legal; in Chess960 UCI
/// they are g1h1 (O-O) and g1b1 (O-O-O). Checked against python-chess: 24 legal moves.
const CASTLING_FEN: &str = "1r4kr/8/8/8/8/8/8/1R4KR w KQkq - 0 1";

#[test]
fn moves_json_castling_king_onto_rook() {
    let v = json(&ok(&["moves", "--fen", CASTLING_FEN, "--json"]));
    let moves = v["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 24);
    let find = |san: &str| {
        moves
            .iter()
            .find(|m| m["san"] == san)
            .map(|m| m["uci"].as_str().unwrap().to_string())
    };
    assert_eq!(find("O-O").as_deref(), Some("g1h1"));
    assert_eq!(find("O-O-O").as_deref(), Some("g1b1"));
    assert_eq!(find("Rxb8+").as_deref(), Some("b1b8"));
    let ucis: Vec<&str> = moves.iter().map(|m| m["uci"].as_str().unwrap()).collect();
    let mut sorted = ucis.clone();
    sorted.sort();
    assert_eq!(ucis, sorted, "moves are sorted by UCI");
}

#[test]
fn moves_plain_and_by_id() {
    let out = ok(&["moves", "--id", "518"]);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 20);
    assert_eq!(
        lines[0].split_whitespace().collect::<Vec<_>>(),
        ["a2a3", "a3"]
    );
    assert!(lines
        .iter()
        .any(|l| l.split_whitespace().eq(["g1f3", "Nf3"])));
    assert_eq!(
        ok(&["moves", "--id", "518", "--json"]),
        ok(&["moves", "--fen", CLASSICAL_FEN, "--json"])
    );
    // Checkmate: no moves.
    let mate = "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3";
    assert_eq!(ok(&["moves", "--fen", mate, "--json"]), "{\"moves\":[]}\n");
    assert_eq!(ok(&["moves", "--fen", mate]), "");
}

#[test]
fn perft_json() {
    let v = json(&ok(&["perft", "--id", "518", "4", "--json"]));
    assert_eq!(v["depth"], 4);
    assert_eq!(v["nodes"], 197281);
    assert!(v["seconds"].as_f64().unwrap() >= 0.0);
    assert!(v.get("divide").is_none());
    let text = ok(&["perft", "--id", "518", "1", "--json"]);
    assert!(
        text.starts_with("{\"depth\":1,\"nodes\":20,\"seconds\":"),
        "{text}"
    );
}

#[test]
fn perft_divide_id0() {
    for threads in ["1", "2"] {
        let text = ok(&[
            "perft",
            "--id",
            "0",
            "3",
            "--divide",
            "--json",
            "--threads",
            threads,
        ]);
        let v = json(&text);
        assert_eq!(v["nodes"], 9006);
        let divide = v["divide"].as_object().unwrap();
        assert_eq!(divide.len(), 20);
        let sum: u64 = divide.values().map(|n| n.as_u64().unwrap()).sum();
        assert_eq!(sum, 9006);
        // Keys in order depth, nodes, seconds, divide; divide sorted by UCI.
        let pos = |k: &str| text.find(&format!("\"{k}\":")).unwrap();
        assert!(pos("depth") < pos("nodes") && pos("nodes") < pos("seconds"));
        assert!(pos("seconds") < pos("divide"));
        assert!(
            text.contains("\"divide\":{\"a2a3\":400,\"a2a4\":400,"),
            "{text}"
        );
    }
}

#[test]
fn perft_plain_and_threads() {
    let out = ok(&["perft", "--id", "0", "3", "--divide", "--threads", "2"]);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 23, "{out}");
    assert_eq!(lines[0], "a2a3: 400");
    assert_eq!(lines[20], "nodes 9006");
    assert!(lines[21].starts_with("time ") && lines[21].ends_with(" s"));
    assert!(lines[22].starts_with("nps "));
    let out = ok(&["perft", "--id", "518", "4", "--threads", "2"]);
    assert!(out.starts_with("nodes 197281\n"), "{out}");
    // A Chess960 perft position with castling (standard suite, position 1).
    let fen = "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9";
    let v = json(&ok(&[
        "perft",
        "--fen",
        fen,
        "3",
        "--json",
        "--threads",
        "2",
    ]));
    assert_eq!(v["nodes"], 12189);
}

#[test]
fn perft_depth_zero() {
    let v = json(&ok(&["perft", "--id", "518", "0", "--json", "--divide"]));
    assert_eq!(v["nodes"], 1);
    assert_eq!(v["divide"], serde_json::json!({}));
    assert!(ok(&["perft", "--id", "518", "0"]).starts_with("nodes 1\n"));
}

#[test]
fn perft_errors() {
    assert!(bad(&["perft", "--id", "518", "-1"]).contains("depth"));
    assert!(bad(&["perft", "--id", "518", "x"]).contains("depth"));
    // A depth the recursion cannot reach without overflowing the stack is refused at once.
    assert!(bad(&["perft", "--id", "518", "100000"]).contains("from 0 to 20"));
    assert!(bad(&["perft", "--id", "518", "2", "--threads", "0"]).contains("--threads"));
    assert!(bad(&["perft", "--id", "961", "2"]).contains("0..959"));
    assert!(bad(&["perft", "--fen", "8/8/8/8/8/8/8/8 w - - 0 1", "1"]).contains("no king"));
}

#[test]
fn fen_conversion_round_trip() {
    let shredder = "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1";
    let xfen = "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1";
    assert_eq!(ok(&["fen", shredder, "--to", "xfen"]), format!("{xfen}\n"));
    assert_eq!(
        ok(&["fen", xfen, "--to", "shredder"]),
        format!("{shredder}\n")
    );
    assert_eq!(ok(&["fen", shredder, "--to", "x-fen"]), format!("{xfen}\n"));
    // An inner castling rook: X-FEN names its file (checked against python-chess).
    let shredder = "rk1r3r/8/8/8/8/8/8/RK1R3R w DAda - 0 1";
    let xfen = "rk1r3r/8/8/8/8/8/8/RK1R3R w DQdq - 0 1";
    assert_eq!(ok(&["fen", shredder, "--to", "xfen"]), format!("{xfen}\n"));
    assert_eq!(
        ok(&["fen", xfen, "--to", "shredder"]),
        format!("{shredder}\n")
    );
    assert_eq!(
        ok(&["fen", CLASSICAL_FEN, "--to", "shredder", "--json"]),
        "{\"fen\":\"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1\"}\n"
    );
}

#[test]
fn malformed_fen() {
    let line = bad(&["fen", "xyz", "--to", "xfen"]);
    assert!(
        line.starts_with("chess960: invalid FEN 'xyz': expected 6 fields"),
        "{line}"
    );
    let line = bad(&[
        "moves",
        "--fen",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",
    ]);
    assert!(line.contains("side to move"), "{line}");
    // A line break inside the input does not break the one-line rule.
    bad(&[
        "fen",
        "rnbqkbnr/pppppppp/8/8\n/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    ]);
    bad(&["moves", "--fen", ""]);
    assert!(bad(&["fen", CLASSICAL_FEN, "--to", "pgn"]).contains("--to"));
}

#[test]
fn usage_errors_exit_2() {
    for args in [
        &[][..],
        &["nonsense"][..],
        &["moves"][..],
        &["moves", "--id", "1", "--fen", CLASSICAL_FEN][..],
        &["position", "5", "--random"][..],
        &["perft", "--id", "518"][..],
    ] {
        assert_eq!(run(args).status.code(), Some(2), "{args:?}");
    }
}

#[test]
fn help_texts() {
    let top = ok(&["--help"]);
    for word in [
        "position",
        "id",
        "moves",
        "perft",
        "fen",
        "Examples:",
        "0..959",
    ] {
        assert!(top.contains(word), "{word} missing from --help");
    }
    // The main jobs lead: the summary says what the tool is for, `serve` and `play` are the
    // first commands listed and the first examples.
    let summary = top.lines().next().unwrap();
    assert!(
        summary.contains("browser") && summary.contains("terminal"),
        "{summary}"
    );
    let commands: Vec<&str> = top
        .lines()
        .skip_while(|l| *l != "Commands:")
        .skip(1)
        .take(2)
        .map(|l| l.split_whitespace().next().unwrap())
        .collect();
    assert_eq!(commands, ["serve", "play"], "{top}");
    let examples: Vec<&str> = top
        .lines()
        .skip_while(|l| *l != "Examples:")
        .skip(1)
        .take(2)
        .map(str::trim)
        .collect();
    assert!(examples[0].starts_with("chess960 serve"), "{top}");
    assert!(examples[1].starts_with("chess960 play"), "{top}");
    for sub in ["position", "id", "moves", "perft", "fen"] {
        let help = ok(&[sub, "--help"]);
        assert!(help.contains("Usage: chess960 "), "{sub}");
    }
    let fen_help = ok(&["fen", "--help"]);
    assert!(fen_help.contains("X-FEN") && fen_help.contains("Shredder-FEN"));
    assert!(ok(&["position", "--help"]).contains("Scharnagl"));
}
