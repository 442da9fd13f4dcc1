//! `chess960 play` under a pseudo-terminal, as a person uses it: moves in SAN and UCI,
//! castling typed as O-O and as the king onto its rook (with the king already on its
//! destination square), takeback, the PGN command, and the game as saved in the database.

use chess960_store::{GameFilter, GameStore, SqliteStore};
use rexpect::session::{spawn_command, PtySession};
use std::process::Command;

mod common;
use common::{run_with, stdout};

const TIMEOUT_MS: u64 = 60_000;

fn start(db: &std::path::Path, args: &[&str]) -> PtySession {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_chess960"));
    cmd.arg("play").arg("--db").arg(db).args(args);
    cmd.env("USER", "Tester");
    spawn_command(cmd, Some(TIMEOUT_MS)).expect("the program starts under a pty")
}

/// Sends a line at the prompt and waits for the next prompt after the engine's reply.
fn play(p: &mut PtySession, line: &str) {
    p.send_line(line).unwrap();
    p.exp_string("chess960-engine plays").unwrap();
    p.exp_regex(r"\d+\. > ").unwrap();
}

#[test]
fn a_game_with_both_castling_forms_is_played_and_saved() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("games.sqlite3");

    // Classical start (518): develop the king's side and castle with O-O.
    let mut p = start(
        &db,
        &["--id", "518", "--color", "white", "--level", "depth:1"],
    );
    p.exp_string("Chess960 start position 518 (RNBQKBNR)")
        .unwrap();
    p.exp_regex(r"1\. > ").unwrap();
    p.send_line("help").unwrap();
    p.exp_string("take back your last move").unwrap();
    play(&mut p, "Nf3");
    play(&mut p, "g2g3");
    play(&mut p, "Bg2");
    // A typo costs nothing but a message.
    p.send_line("Bg9").unwrap();
    p.exp_string("Type 'help' for the commands").unwrap();
    play(&mut p, "O-O");
    p.send_line("pgn").unwrap();
    p.exp_string("4. O-O").unwrap();
    // Take the castle back, then castle again as the king taking its own rook.
    p.send_line("undo").unwrap();
    p.exp_string("Took back 2 half-move(s).").unwrap();
    play(&mut p, "e1h1");
    p.send_line("resign").unwrap();
    p.exp_string("Game over: 0-1 (black wins by resignation).")
        .unwrap();
    p.exp_eof().unwrap();

    // Start 0 (BBQNNRKR): the king stands on g1, its castled square; castling moves only the
    // rook (h1 to f1) once the f1 rook is out of the way. Typed as the king onto its rook.
    let mut p = start(&db, &["--id", "0", "--level", "depth:1", "--tc", "10+5"]);
    p.exp_string("Chess960 start position 0 (BBQNNRKR)")
        .unwrap();
    // The time control as it was asked for, minutes + seconds (as the web UI writes it), not
    // the PGN tag's seconds (600+5).
    p.exp_string("Time control 10+5.").unwrap();
    p.exp_string("Clocks: White 10:00  Black 10:00").unwrap();
    play(&mut p, "f4");
    play(&mut p, "Rf2");
    play(&mut p, "g1h1");
    p.send_line("quit").unwrap();
    p.exp_string("left unfinished; continue it with 'chess960 play --resume")
        .unwrap();
    p.exp_eof().unwrap();

    let store = SqliteStore::open(&db).unwrap();
    let games = store.list(&GameFilter::default()).unwrap();
    assert_eq!(games.len(), 2);
    // Newest first: the unfinished game from start 0, then the resigned one.
    let (second, first) = (&games[0], &games[1]);
    assert_eq!((second.start_id, second.result.as_str()), (Some(0), "*"));
    assert_eq!((first.start_id, first.result.as_str()), (Some(518), "0-1"));
    assert_eq!(first.white, "Tester");

    let stored = store.game(first.id).unwrap().unwrap();
    let sans: Vec<&str> = stored.moves.iter().map(|m| m.san.as_str()).collect();
    assert_eq!(
        [sans[0], sans[2], sans[4], sans[6]],
        ["Nf3", "g3", "Bg2", "O-O"]
    );
    assert_eq!(stored.moves[6].uci, "e1h1");
    assert_eq!(stored.finish.as_ref().unwrap().reason, "resignation");

    let stored = store.game(second.id).unwrap().unwrap();
    assert_eq!(stored.moves.len(), 6);
    assert_eq!(stored.moves[4].san, "O-O");
    assert_eq!(stored.moves[4].uci, "g1h1");
    let clocks = stored.moves[4]
        .clocks
        .expect("a timed game stores its clocks");
    assert!(clocks.white_ms > 590_000 && clocks.white_ms <= 615_000);

    // Resume the unfinished game where it stopped.
    let mut p = start(&db, &["--resume", &second.id.to_string()]);
    // The game so far, not only its last move.
    p.exp_regex(r"Moves so far: 1\. f4 \S+ 2\. Rf2 \S+ 3\. O-O \S+")
        .unwrap();
    p.exp_string("Last move: 3...").unwrap();
    p.exp_regex(r"4\. > ").unwrap();
    p.send_line("resign").unwrap();
    p.exp_string("Game over: 0-1").unwrap();
    p.exp_eof().unwrap();
}

/// Runs `chess960 play` with `input` as standard input (a pipe, not a terminal).
fn play_piped(db: &std::path::Path, args: &[&str], input: &str) -> (i32, String) {
    let db = db.to_str().expect("a UTF-8 path");
    let out = run_with(&[&["play", "--db", db], args].concat(), input);
    (out.status.code().unwrap(), stdout(&out))
}

#[test]
fn a_game_is_saved_from_the_humans_first_move_on() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("games.sqlite3");
    let count = || {
        SqliteStore::open(&db)
            .unwrap()
            .list(&GameFilter::default())
            .unwrap()
    };
    // Standard input at its end at once (not a terminal): nothing to keep, as White and as
    // Black (where the engine has moved first).
    for color in ["white", "black"] {
        let (code, out) = play_piped(&db, &["--level", "depth:1", "--color", color], "");
        assert_eq!(code, 0, "{out}");
        assert!(out.contains("the game was not saved"), "{out}");
    }
    assert_eq!(count().len(), 0);

    // Moves through a pipe are saved, the engine's first move included.
    let (code, out) = play_piped(
        &db,
        &["--id", "518", "--level", "depth:1", "--color", "black"],
        "pgn\ne5\nquit\n",
    );
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains("Cannot write the PGN: nothing is saved yet"),
        "{out}"
    );
    let games = count();
    assert_eq!(games.len(), 1, "{out}");
    let stored = SqliteStore::open(&db)
        .unwrap()
        .game(games[0].id)
        .unwrap()
        .unwrap();
    assert_eq!(stored.moves.len(), 3, "{out}");
    assert_eq!(stored.moves[1].san, "e5");

    // Resigning before any move is a result, and is saved.
    let (code, out) = play_piped(&db, &["--level", "depth:1"], "resign\n");
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("Saved as game"), "{out}");
    assert_eq!(count()[0].result.as_str(), "0-1");
}

#[test]
fn bad_arguments_are_refused_with_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("games.sqlite3");
    for (args, message) in [
        (vec!["--level", "99"], "bad --level '99'"),
        (vec!["--tc", "5+x"], "bad --tc '5+x'"),
        (vec!["--id", "960x"], "960x"),
        (vec!["--resume", "7"], "no game 7"),
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_chess960"))
            .arg("play")
            .arg("--db")
            .arg(&db)
            .args(&args)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.starts_with("chess960: ") && err.contains(message),
            "{args:?}: {err}"
        );
        assert_eq!(err.lines().count(), 1, "{err}");
    }
}
