//! Crash safety of autosave: a child process records the moves of a game one by one and is
//! killed with SIGKILL, sometimes between two moves, sometimes at any moment (possibly in the
//! middle of writing one). After each kill the database is reopened: every move the child
//! had reported as recorded is there, exactly, clocks included, and the next child resumes
//! the game from what is stored.
//!
//! The child is this test binary itself, re-run with `CHESS960_STORE_CRASH_CHILD` set; its
//! `crash_child` test does nothing in a normal run.

mod common;

use chess960_store::{Finish, GameId, GameResult, GameStore, SqliteStore};
use common::{clocks_after, new_game, replay, scratch, scripted_move};
use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};

const CHILD_ENV: &str = "CHESS960_STORE_CRASH_CHILD";

/// The child: `PATH|GAME_ID|STEP` in the environment. Resumes the game from its stored
/// moves, records scripted moves, and after each one prints `ack PLY`. With STEP=1 it waits
/// for a line on standard input before each move (so that it is killed between moves).
#[test]
fn crash_child() {
    let Ok(spec) = std::env::var(CHILD_ENV) else {
        return;
    };
    let parts: Vec<&str> = spec.split('|').collect();
    let store = SqliteStore::open(parts[0]).unwrap();
    let id = GameId(parts[1].parse().unwrap());
    let step = parts[2] == "1";
    let game = store.game(id).unwrap().unwrap();
    let mut pos = replay(&game.game.start_fen, &game.moves);
    let mut ply = game.moves.len() as u32;
    let stdin = std::io::stdin();
    let mut out = std::io::stdout();
    loop {
        if step {
            let mut line = String::new();
            if stdin.lock().read_line(&mut line).unwrap() == 0 {
                break;
            }
        }
        let Some(mv) = scripted_move(&pos, ply) else {
            store
                .finish_game(
                    id,
                    &Finish {
                        result: GameResult::parse("1/2-1/2").expect("a result"),
                        reason: "game over".into(),
                    },
                )
                .unwrap();
            writeln!(out, "done").unwrap();
            out.flush().unwrap();
            break;
        };
        store.append_move(id, ply, &mv).unwrap();
        writeln!(out, "ack {ply}").unwrap();
        out.flush().unwrap();
        let m = pos
            .parse_uci(&mv.uci, chess960_core::CastlingMode::Chess960)
            .unwrap();
        pos = pos.play(m);
        ply += 1;
    }
    // Wait to be killed rather than close the database cleanly.
    std::thread::sleep(std::time::Duration::from_secs(600));
}

/// Checks the stored game against the script: every move and its clocks.
fn check_script(store: &SqliteStore, id: GameId) -> u32 {
    let game = store.game(id).unwrap().unwrap();
    let mut pos = chess960_core::Position::from_fen(&game.game.start_fen).unwrap();
    for (ply, stored) in game.moves.iter().enumerate() {
        let expected = scripted_move(&pos, ply as u32).expect("the script goes on");
        assert_eq!(stored, &expected, "half-move {ply}");
        assert_eq!(stored.clocks, Some(clocks_after(ply as u32)));
        let m = pos
            .parse_uci(&stored.uci, chess960_core::CastlingMode::Chess960)
            .unwrap();
        pos = pos.play(m);
    }
    game.moves.len() as u32
}

#[test]
fn killed_writer_loses_nothing_acknowledged() {
    let dir = scratch();
    let path = dir.path().join("games.sqlite3");
    let id = {
        let store = SqliteStore::open(&path).unwrap();
        store
            .create_game(&new_game(77, "Child", "Parent"))
            .unwrap()
            .0
    };
    let mut stored = 0u32;
    // Kill after this many acknowledgements, alternating "between moves" (stepped) and
    // "whenever" (free-running, the kill may land inside a write).
    for (round, acks) in [3u32, 5, 1, 8, 4, 6, 2, 7].into_iter().enumerate() {
        let step = round % 2 == 0;
        let mut child = Command::new(std::env::current_exe().unwrap())
            .args(["crash_child", "--exact", "--nocapture", "--test-threads=1"])
            .env(
                CHILD_ENV,
                format!("{}|{}|{}", path.display(), id.0, u8::from(step)),
            )
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let mut stdin = child.stdin.take().unwrap();
        let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
        let mut last_ack = None;
        let mut got = 0;
        if step {
            writeln!(stdin, "go").unwrap();
        }
        while got < acks {
            let line = lines.next().expect("the child reports").unwrap();
            // The harness may have written "test crash_child ... " on the same line first.
            if let Some(at) = line.find("ack ") {
                last_ack = Some(line[at + 4..].trim().parse::<u32>().unwrap());
                got += 1;
                if step && got < acks {
                    writeln!(stdin, "go").unwrap();
                }
            } else {
                assert!(!line.ends_with("done"), "the scripted game ended too early");
            }
        }
        child.kill().unwrap(); // SIGKILL
        child.wait().unwrap();
        let last_ack = last_ack.unwrap();
        // A free-running child may have gone on writing while its earlier acknowledgements
        // were read: those still in the pipe are acknowledged moves too.
        let mut last_written = last_ack;
        for line in lines {
            let line = line.unwrap();
            if let Some(at) = line.find("ack ") {
                last_written = line[at + 4..].trim().parse::<u32>().unwrap();
            }
        }
        assert_eq!(
            last_ack,
            stored + acks - 1,
            "the child resumed where the store was"
        );

        let store = SqliteStore::open(&path).unwrap();
        let now = check_script(&store, id);
        if step {
            // Killed while waiting: exactly what was acknowledged.
            assert_eq!(last_written, last_ack);
            assert_eq!(now, last_ack + 1);
        } else {
            // Killed at any moment: everything acknowledged, perhaps one move more that was
            // committed before its acknowledgement was written.
            assert!(
                now == last_written + 1 || now == last_written + 2,
                "{now} after ack {last_written}"
            );
        }
        // The game resumes with its clocks: those stored with the last move.
        let game = store.game(id).unwrap().unwrap();
        assert_eq!(
            game.moves.last().unwrap().clocks,
            Some(clocks_after(now - 1))
        );
        assert!(game.finish.is_none());
        store.check().unwrap();
        stored = now;
    }
    assert!(stored >= 36);
}
