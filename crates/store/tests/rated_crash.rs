//! Crash safety of ratings: a child process finishes rated games one after another (each
//! result and both players' rating updates are one transaction) and is killed with SIGKILL at
//! any moment, possibly in the middle of one. After each kill the database is reopened: every
//! finished rated game has exactly its two history points, every unfinished one none, and each
//! player's rating and game count are exactly those of their last history point: nothing is
//! lost and nothing counted twice. A second handle finishing the same games again, as a second
//! server would, changes nothing.
//!
//! The child is this test binary itself, re-run with `CHESS960_RATED_CRASH_CHILD` set; its
//! `rated_child` test does nothing in a normal run.

mod common;

use chess960_players::speed::Speed;
use chess960_store::{
    Finish, GameId, GamePlayers, GameResult, GameStore, NewUser, Seats, SqliteStore, UserId,
};
use common::{new_game, scratch};
use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};

const CHILD_ENV: &str = "CHESS960_RATED_CRASH_CHILD";
/// Players in the pool; the games pair them round the table.
const PLAYERS: i64 = 6;

/// The result of game `n` of the script: mostly decisive, some draws.
fn result_of(n: u64) -> GameResult {
    match n % 5 {
        0 | 3 => GameResult::WhiteWins,
        1 => GameResult::BlackWins,
        _ => GameResult::Draw,
    }
}

/// The players of game `n`: two different accounts of the pool.
fn players_of(n: u64) -> GamePlayers {
    let w = (n % PLAYERS as u64) as i64 + 1;
    let b = ((n + 1 + n / PLAYERS as u64) % PLAYERS as u64) as i64 + 1;
    let b = if b == w { w % PLAYERS + 1 } else { b };
    GamePlayers {
        white: Some(UserId(w)),
        black: Some(UserId(b)),
        rated: Some(Speed::Blitz),
    }
}

/// The child: `PATH` in the environment. Creates rated games and finishes them, one after
/// another, printing `ack N` after each finish, until killed.
#[test]
fn rated_child() {
    let Ok(path) = std::env::var(CHILD_ENV) else {
        return;
    };
    let store = SqliteStore::open(&path).unwrap();
    let players = store.player_store().unwrap();
    let mut out = std::io::stdout();
    let mut n = store.count(&Default::default()).unwrap();
    loop {
        let (id, _) = players
            .create_game_for(&new_game(518, "w", "b"), &[], &Seats::NONE, players_of(n))
            .unwrap();
        store
            .finish_game(
                id,
                &Finish {
                    result: result_of(n),
                    reason: "resignation".into(),
                },
            )
            .unwrap();
        writeln!(out, "ack {n}").unwrap();
        out.flush().unwrap();
        n += 1;
    }
}

/// Every finished game has its two points, every unfinished one none; each rating is its last
/// point's, with as many games as points. Returns the number of finished games.
fn check(store: &SqliteStore) -> u64 {
    let players = store.player_store().unwrap();
    let games = store.list(&Default::default()).unwrap();
    let mut points: Vec<Vec<chess960_store::RatingPoint>> = Vec::new();
    for u in 1..=PLAYERS {
        points.push(players.rating_history(UserId(u), Speed::Blitz).unwrap());
    }
    let mut finished = 0;
    for g in &games {
        let stored = players.game_players(g.id).unwrap();
        let n_points = points.iter().flatten().filter(|p| p.game == g.id).count();
        if g.result == GameResult::Unknown {
            assert_eq!(n_points, 0, "game {} is unfinished but rated", g.id);
        } else {
            finished += 1;
            assert_eq!(n_points, 2, "game {} is finished: {stored:?}", g.id);
        }
    }
    let far = 0; // ratings as of their last game: no idle widening
    for u in 1..=PLAYERS {
        let history = &points[(u - 1) as usize];
        let rating = players.ratings(UserId(u), far).unwrap();
        match history.last() {
            None => assert!(rating.is_empty()),
            Some(last) => {
                assert_eq!(rating[0].games as usize, history.len(), "user {u}");
                assert!(
                    (rating[0].rating.rating - last.rating).abs() < 0.001,
                    "user {u}: {:?} against {last:?}",
                    rating[0]
                );
            }
        }
    }
    store.check().unwrap();
    finished
}

#[test]
fn a_killed_writer_neither_loses_nor_doubles_a_rating() {
    let dir = scratch();
    let path = dir.path().join("games.sqlite3");
    {
        let store = SqliteStore::open(&path).unwrap();
        let players = store.player_store().unwrap();
        for u in 1..=PLAYERS {
            let name = format!("p{u}").parse().unwrap();
            // No password is checked here: any stored form does.
            let password = chess960_players::password::StoredHash::from_stored(format!(
                "$argon2id$v=19$m=19456,t=2,p=1$salt$p{u}"
            ));
            let user = players
                .create_user(
                    &NewUser {
                        name: &name,
                        password: &password,
                        admin: false,
                        invite: None,
                    },
                    1,
                )
                .unwrap();
            assert_eq!(user.id, UserId(u));
        }
    }
    let mut before = 0;
    for acks in [3u64, 1, 7, 2, 5, 4] {
        let mut child = Command::new(std::env::current_exe().unwrap())
            .args(["rated_child", "--exact", "--nocapture", "--test-threads=1"])
            .env(CHILD_ENV, path.display().to_string())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
        let mut got = 0;
        while got < acks {
            let line = lines.next().expect("the child reports").unwrap();
            if line.contains("ack ") {
                got += 1;
            }
        }
        // Killed while it goes on: possibly inside a finish.
        child.kill().unwrap();
        child.wait().unwrap();
        let store = SqliteStore::open(&path).unwrap();
        let finished = check(&store);
        assert!(
            finished >= before + acks,
            "{finished} after {before} + {acks}"
        );
        before = finished;
        // A second server finishing every game again changes nothing.
        let again = SqliteStore::open(&path).unwrap();
        for g in store.list(&Default::default()).unwrap() {
            if g.result != GameResult::Unknown {
                let _ = again.finish_game(
                    GameId(g.id.0),
                    &Finish {
                        result: g.result,
                        reason: "resignation".into(),
                    },
                );
            }
        }
        assert_eq!(check(&store), finished);
    }
    assert!(before >= 22);
}
