//! `chess960 uci` is the engine: a short transcript.

use std::io::Write;
use std::process::{Command, Stdio};

#[test]
fn uci_subcommand_runs_the_engine() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_chess960"))
        .arg("uci")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    // Chess960 start 0 (BBQNNRKR) after 1. Nf3: the reply must be a legal black move in
    // Chess960 notation. The input ends right after `go`: a search with a limit (here a depth)
    // still runs to it.
    writeln!(
        stdin,
        "uci\nsetoption name UCI_Chess960 value true\nisready\nposition fen bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1 moves e1f3\ngo depth 4"
    )
    .unwrap();
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("uciok") && text.contains("readyok"), "{text}");
    let best = text
        .lines()
        .find_map(|l| l.strip_prefix("bestmove "))
        .expect("a bestmove line");
    let uci = best.split_whitespace().next().unwrap();
    let pos = chess960_core::Position::from_fen(
        "bbqnnrkr/pppppppp/8/8/8/5N2/PPPPPPPP/BBQN1RKR b HFhf - 1 1",
    )
    .unwrap();
    assert!(
        pos.parse_uci(uci, chess960_core::CastlingMode::Chess960)
            .is_ok(),
        "{uci} is not legal"
    );
}
