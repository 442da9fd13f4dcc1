//! One referee for the terminal and the server: the same scripted game (its moves and the times
//! between them, on a clock the test moves by hand) played through `chess960 play`'s session
//! and through a `chess960 serve` server between two people gives the same clocks after every
//! move, the same result and the same PGN movetext.

use super::*;
use chess960_round::now::ManualNow;
use serde_json::{json, Value};
use std::collections::VecDeque;
use std::io::Read;
use std::sync::Arc;

/// 1+2: a minute each and two seconds a move.
const TC: TimeControl = TimeControl {
    initial_ms: 60_000,
    increment_ms: 2_000,
};

/// What White (the person on the terminal, Ann on the server) does, after how long.
const WHITE: [(u64, &str); 6] = [
    (3_000, "e4"),
    (5_000, "Nf3"),
    (10_000, "Bb5"),
    // Takes back Bb5 and Black's reply (between people: proposed and accepted at once).
    (2_000, "undo"),
    (4_000, "Bc4"),
    // White thinks longer than the 55 s left: the flag falls before the move.
    (56_000, "Bxf7+"),
];

/// What Black (the engine's seat on the terminal, Bob on the server) plays, after how long.
const BLACK: [(u64, &str); 4] = [(4_000, "e5"), (7_000, "Nc6"), (1_500, "a6"), (2_500, "Bc5")];

/// Standard input whose lines arrive after their delays on `clock`.
struct TimedInput {
    lines: VecDeque<(u64, String)>,
    clock: Arc<ManualNow>,
    buf: Vec<u8>,
    at: usize,
}

impl Read for TimedInput {
    fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
        let n = {
            let have = self.fill_buf()?;
            let n = have.len().min(out.len());
            out[..n].copy_from_slice(&have[..n]);
            n
        };
        self.consume(n);
        Ok(n)
    }
}

impl BufRead for TimedInput {
    fn fill_buf(&mut self) -> std::io::Result<&[u8]> {
        if self.at == self.buf.len() {
            if let Some((delay, line)) = self.lines.pop_front() {
                self.clock.advance(Duration::from_millis(delay));
                self.buf = format!("{line}\n").into_bytes();
                self.at = 0;
            }
        }
        Ok(&self.buf[self.at..])
    }

    fn consume(&mut self, n: usize) {
        self.at += n;
    }
}

/// Black's moves, each after its delay on `clock`.
struct Script {
    moves: VecDeque<(u64, &'static str)>,
    clock: Arc<ManualNow>,
}

impl Opponent for Script {
    fn choose(&mut self, round: &Round, _: Option<PlayClock>) -> Option<(Move, Option<Score>)> {
        let (delay, san) = self.moves.pop_front()?;
        self.clock.advance(Duration::from_millis(delay));
        Some((round.game().position().parse_typed_move(san).ok()?, None))
    }

    fn answer_draw(&mut self, _: &Round) -> Result<(), String> {
        Err("the script plays on".into())
    }
}

/// What a played game gives: the clocks after each move (White's, Black's), the result, the
/// PGN's movetext.
type Played = (Vec<Option<(u64, u64)>>, Option<Finish>, String);

/// The clocks after each move and the result of a stored game, and its PGN's movetext.
fn outcome_of(stored: &StoredGame) -> Played {
    let clocks = stored
        .moves
        .iter()
        .map(|m| m.clocks.map(|c| (c.white_ms, c.black_ms)))
        .collect();
    let game = chess960_store::pgn::to_pgn(stored).unwrap();
    let text =
        chess960_pgn::writer::game_to_string(&game, &chess960_pgn::writer::WriteOptions::default());
    // The movetext: after the tags (the players' names and types differ, as they should).
    let movetext = text
        .lines()
        .filter(|l| !l.starts_with('[') && !l.trim().is_empty())
        .collect::<Vec<_>>()
        .join("\n");
    (clocks, stored.finish.clone(), movetext)
}

/// The game through `chess960 play`'s session.
fn on_the_terminal(dir: &std::path::Path) -> Played {
    let clock = Arc::new(ManualNow::new());
    let store = chess960_store::open(Some(&dir.join("terminal.sqlite3"))).unwrap();
    let opponent = Box::new(Script {
        moves: BLACK.into_iter().collect(),
        clock: Arc::clone(&clock),
    });
    let mut session = Session::new_game(
        store,
        StartId::new(518).unwrap(),
        Color::White,
        "Ann".into(),
        Level::Depth(1),
        Some(TC),
        opponent,
        TimeSource::new(clock.clone()),
    );
    let mut input = TimedInput {
        lines: WHITE.iter().map(|&(d, l)| (d, l.to_string())).collect(),
        clock,
        buf: Vec::new(),
        at: 0,
    };
    let mut out = Vec::new();
    session.play(&mut input, &mut out).unwrap();
    let out = String::from_utf8(out).unwrap();
    assert!(out.contains("Took back 2 half-move(s)."), "{out}");
    assert!(out.contains("Game over: 0-1 (black wins by "), "{out}");
    let Saved::As(id) = session.saved else {
        panic!("the game was not saved: {out}");
    };
    outcome_of(&session.store.game(id).unwrap().unwrap())
}

/// An HTTP client of the server.
struct Client {
    agent: ureq::Agent,
    base: String,
}

impl Client {
    fn call(&self, path: &str, seat: Option<&str>, body: Option<Value>) -> Value {
        let url = format!("{}{path}", self.base);
        let mut response = match body {
            None => self.agent.get(&url).call(),
            Some(body) => {
                let mut req = self.agent.post(&url);
                if let Some(s) = seat {
                    req = req.header("X-Seat-Token", s);
                }
                req.content_type("application/json").send(body.to_string())
            }
        }
        .unwrap();
        let status = response.status().as_u16();
        let text = response.body_mut().read_to_string().unwrap();
        assert!((200..300).contains(&status), "{path}: {status} {text}");
        serde_json::from_str(&text).unwrap_or_else(|e| panic!("{path}: {status} {e}: {text}"))
    }
}

/// The game on a server, between Ann (White) and Bob (Black).
fn on_the_server(dir: &std::path::Path) -> Played {
    let clock = Arc::new(ManualNow::new());
    let path = dir.join("server.sqlite3");
    let store: Arc<dyn GameStore> = Arc::from(chess960_store::open(Some(&path)).unwrap());
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let options = chess960_server::ServeOptions {
        time: TimeSource::new(clock.clone()),
        ..Default::default()
    };
    let server = runtime
        .block_on(chess960_server::Server::bind_with_options(
            "127.0.0.1:0",
            Arc::clone(&store),
            options,
        ))
        .unwrap();
    let client = Client {
        agent: ureq::Agent::config_builder()
            .http_status_as_error(false)
            .build()
            .into(),
        base: server.url().trim_end_matches('/').to_string(),
    };
    let created = client.call(
        "/api/games",
        None,
        Some(
            json!({"start": {"id": 518}, "color": "white", "opponent": "human",
            "name": "Ann", "time_control": TC}),
        ),
    );
    let key = created["key"]
        .as_str()
        .unwrap_or_else(|| panic!("{created}"))
        .to_string();
    let ann = created["seat_token"].as_str().unwrap().to_string();
    let joined = client.call(
        &format!("/api/games/{key}/join"),
        None,
        Some(json!({"name": "Bob"})),
    );
    let bob = joined["seat_token"].as_str().unwrap().to_string();
    let act = |seat: &str, action: &str, body: Value| {
        client.call(
            &format!("/api/games/{key}/{action}"),
            Some(seat),
            Some(body),
        )
    };
    let mut black = BLACK.iter();
    let mut ply = 0;
    for &(delay, what) in &WHITE {
        clock.advance(Duration::from_millis(delay));
        if what == "undo" {
            act(&ann, "takeback", json!({"action": "propose"}));
            act(&bob, "takeback", json!({"action": "accept"}));
            ply -= 2;
            continue;
        }
        let view = client.call(&format!("/api/games/{key}"), None, None);
        if view["status"] == "finished" {
            break;
        }
        act(&ann, "moves", json!({"move": what, "ply": ply}));
        ply += 1;
        if let Some(&(delay, mv)) = black.next() {
            clock.advance(Duration::from_millis(delay));
            act(&bob, "moves", json!({"move": mv, "ply": ply}));
            ply += 1;
        }
    }
    let view = client.call(&format!("/api/games/{key}"), None, None);
    assert_eq!(view["status"], "finished", "{view}");
    let id = GameId(view["id"].as_i64().unwrap());
    runtime.block_on(server.shutdown());
    outcome_of(&store.game(id).unwrap().unwrap())
}

#[test]
fn the_terminal_and_the_server_give_one_game_the_same_clocks_result_and_pgn() {
    let dir = tempfile::tempdir().unwrap();
    let (t_clocks, t_finish, t_pgn) = on_the_terminal(dir.path());
    let (s_clocks, s_finish, s_pgn) = on_the_server(dir.path());
    // The first moves cost nothing and earn no increment (lichess's rule, docs/api.md); then
    // each move costs its time and earns 2 s; the takeback restores the clocks after Nc6.
    let want = [
        (60_000, 60_000), // 1. e4 after 3 s: free
        (60_000, 60_000), // 1... e5 after 4 s: free
        (57_000, 60_000), // 2. Nf3 after 5 s
        (57_000, 55_000), // 2... Nc6 after 7 s
        (55_000, 55_000), // 3. Bc4 after 4 s (Bb5 and a6 were taken back)
        (55_000, 54_500), // 3... Bc5 after 2.5 s
    ];
    let want: Vec<Option<(u64, u64)>> = want.into_iter().map(Some).collect();
    assert_eq!(t_clocks, want, "the terminal's clocks");
    assert_eq!(s_clocks, want, "the server's clocks");
    let lost_on_time = Finish::of(chess960_core::Outcome::on_time(
        Color::White,
        &StartId::new(518).unwrap().position(),
    ));
    assert_eq!(t_finish, Some(lost_on_time.clone()));
    assert_eq!(s_finish, Some(lost_on_time));
    assert_eq!(t_pgn, s_pgn);
    assert!(t_pgn.contains("[%clk 0:00:55]"), "{t_pgn}");
    assert!(t_pgn.ends_with("0-1"), "{t_pgn}");
}
