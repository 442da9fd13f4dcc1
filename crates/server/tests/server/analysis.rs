//! The analysis board's routes (docs/api.md, "Analysis"): the stateless legal-move route, and
//! the `/api/analysis/ws` socket with whole-game analysis (progress, judgements, PGN with
//! `[%eval]` that python-chess reads back) and live MultiPV lines, all on the search pool and
//! all stopped when the socket closes.
//!
//! The python-chess read-back needs `python3` with `chess` installed (`bash scripts/test.sh`
//! installs it; `pip install -r tests/oracle/requirements.txt`).

use crate::common;

use common::{app, app_with, pgn_from, App, Ws};
use serde_json::{json, Value};
use std::io::Write;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// White leaves the queen en prise: 3. Qxe5+?? Nxe5 (from the classical start, #518).
const QUEEN_BLUNDER: &str = "1. e4 e5 2. Qh5 Nc6 3. Qxe5+ Nxe5";

/// A PGN movetext of `cycles` knight shuffles (four half-moves each), numbered.
fn shuffles(cycles: usize) -> String {
    let mut text = String::new();
    for i in 0..cycles {
        let n = 2 * i + 1;
        text.push_str(&format!("{n}. Nf3 Nf6 {}. Ng1 Ng8 ", n + 1));
    }
    text + "*"
}

/// A finished game: `moves` from start #518 imported, then resigned by White.
async fn finished_game(a: &App, moves: &str) -> String {
    let g = a
        .new_game(json!({"start": {"pgn": pgn_from(518, moves)}, "color": "white"}))
        .await;
    let key = g["key"].as_str().unwrap().to_string();
    let r = a.post(&format!("/api/games/{key}/resign"), json!({})).await;
    assert_eq!(r.status, 200, "{}", r.text);
    key
}

async fn socket(a: &App) -> Ws {
    let mut ws = a.ws_url("/api/analysis/ws").await;
    let (ready, _) = ws.until("ready").await;
    assert_eq!(ready["limits"]["multipv"]["max"], 5);
    ws
}

/// Runs a whole-game analysis to its end; the `game_started` message, the progress messages
/// and the `game_done` report.
async fn analyse(ws: &mut Ws, request: Value) -> (Value, Vec<Value>, Value) {
    ws.send(request).await;
    let (started, _) = ws.until("game_started").await;
    let (done, seen) = ws.until("game_done").await;
    let progress: Vec<Value> = seen
        .into_iter()
        .filter(|m| m["type"] == "progress")
        .collect();
    (started, progress, done)
}

async fn searches(a: &App) -> (u64, u64) {
    let r = a.get("/api/server").await;
    (
        r.json["searches"]["waiting"].as_u64().unwrap(),
        r.json["searches"]["running"].as_u64().unwrap(),
    )
}

/// Waits until the pool has no search waiting or running.
async fn pool_goes_idle(a: &App) {
    let start = Instant::now();
    while searches(a).await != (0, 0) {
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "the pool still searches: {:?}",
            searches(a).await
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

#[tokio::test]
async fn a_saved_game_is_analysed_to_the_end_and_the_queen_blunder_is_marked() {
    let a = app().await;
    let key = finished_game(&a, QUEEN_BLUNDER).await;
    let mut ws = socket(&a).await;
    let (started, progress, done) = analyse(
        &mut ws,
        json!({"type": "analyse_game", "game": key, "nodes": 30000}),
    )
    .await;
    assert_eq!(started["source"], "game");
    assert_eq!(started["total"], 7);
    assert_eq!(started["moves"].as_array().unwrap().len(), 6);
    assert_eq!(started["moves"][4]["san"], "Qxe5+");
    // One progress message per position, in order, the last at total.
    let done_counts: Vec<u64> = progress
        .iter()
        .map(|p| p["done"].as_u64().unwrap())
        .collect();
    assert_eq!(done_counts, (1..=7).collect::<Vec<u64>>());
    assert!(progress.iter().all(|p| p["total"] == 7));

    let positions = done["positions"].as_array().unwrap();
    let moves = done["moves"].as_array().unwrap();
    assert_eq!(positions.len(), 7);
    assert_eq!(moves.len(), 6);
    for (i, p) in positions.iter().enumerate() {
        assert_eq!(p["ply"], i);
        let win = p["win"].as_f64().unwrap();
        assert!((0.0..=100.0).contains(&win));
    }
    // After 3. Qxe5+ Nxe5 White is a queen down.
    assert!(positions[6]["eval"]["cp"].as_i64().unwrap() < -500);
    let blunder = &moves[4];
    assert_eq!(blunder["san"], "Qxe5+");
    assert_eq!(blunder["color"], "white");
    assert_eq!(blunder["judgement"], "blunder");
    assert_eq!(blunder["glyph"], "??");
    assert_ne!(blunder["better"], "h5e5");
    assert!(blunder["better_san"].as_str().is_some());
    assert!(done["summary"]["white"]["blunder"].as_u64().unwrap() >= 1);
    // Black's recapture is the engine's move: never judged.
    assert_eq!(moves[5]["judgement"], Value::Null);
    // The writer wraps at 80 columns: compare with line breaks as spaces.
    let pgn = done["pgn"]
        .as_str()
        .unwrap()
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    assert!(pgn.contains("[%eval "), "{pgn}");
    assert!(pgn.contains("Qxe5+ $4 { [%eval -"), "{pgn}");
    assert!(pgn.contains("Blunder."), "{pgn}");
    ws.close().await;
    pool_goes_idle(&a).await;
}

/// python-chess reads the PGN back: one evaluation per move (White's view), equal to the
/// positions' evaluations of the report, and the blunder's NAG.
#[tokio::test]
async fn python_chess_reads_the_evals_back() {
    let a = app().await;
    let mut ws = socket(&a).await;
    let pgn = format!("[White \"Ann\"]\n[Black \"Bob\"]\n\n{QUEEN_BLUNDER} 4. Bc4 Nf6 *\n");
    let (started, _, done) = analyse(
        &mut ws,
        json!({"type": "analyse_game", "pgn": pgn, "movetime_ms": 50}),
    )
    .await;
    assert_eq!(started["white"], "Ann");
    let text = done["pgn"].as_str().unwrap();
    let script = r#"
import chess.pgn, io, json, sys
game = chess.pgn.read_game(io.StringIO(sys.stdin.read()))
out = []
for node in game.mainline():
    e = node.eval()
    if e is None:
        out.append(None)
    elif e.white().is_mate():
        out.append({"mate": e.white().mate()})
    else:
        out.append({"cp": e.white().score()})
print(json.dumps({"evals": out, "nags": [sorted(n.nags) for n in game.mainline()],
                  "white": game.headers["White"], "errors": [str(e) for e in game.errors]}))
"#;
    let mut child = Command::new("python3")
        .args(["-c", script])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("python3 must be installed for the python-chess read-back test");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(text.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "python-chess failed (pip install -r tests/oracle/requirements.txt):\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let read: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(read["errors"], json!([]));
    assert_eq!(read["white"], "Ann");
    let evals = read["evals"].as_array().unwrap();
    let positions = done["positions"].as_array().unwrap();
    assert_eq!(evals.len(), 8);
    for (i, e) in evals.iter().enumerate() {
        assert_eq!(e, &positions[i + 1]["eval"], "ply {}: {text}", i + 1);
    }
    assert_eq!(read["nags"][4], json!([4]), "{text}");
}

#[tokio::test]
async fn a_position_with_moves_is_analysed_and_mate_ends_it() {
    let a = app().await;
    let mut ws = socket(&a).await;
    let fen = "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1";
    let (started, progress, done) = analyse(
        &mut ws,
        json!({"type": "analyse_game", "position": {"fen": fen, "moves": ["a1a8"]}, "nodes": 5000}),
    )
    .await;
    assert_eq!(started["source"], "position");
    assert_eq!(progress.len(), 2);
    let p = done["positions"].as_array().unwrap();
    assert_eq!(p[0]["eval"], json!({"mate": 1}));
    assert_eq!(p[0]["best"], "a1a8");
    assert_eq!(p[1]["eval"], json!({"mate": 0}));
    assert_eq!(p[1]["win"], 97.5);
    assert_eq!(done["moves"][0]["judgement"], Value::Null);
    // The mated position has no [%eval] (#0 would not say who won).
    assert!(!done["pgn"].as_str().unwrap().contains("[%eval"));
}

#[tokio::test]
async fn bad_requests_get_clear_errors_and_the_socket_lives_on() {
    let a = app().await;
    let g = a
        .new_game(json!({"start": {"id": 518}, "color": "white"}))
        .await;
    let playing = g["key"].as_str().unwrap();
    let mut ws = socket(&a).await;
    let long_pgn = shuffles(160);
    let cases = [
        (
            json!({"type": "analyse_game", "game": playing}),
            "still being played",
        ),
        (
            json!({"type": "analyse_game", "game": "0".repeat(32)}),
            "game: ",
        ),
        (
            json!({"type": "analyse_game"}),
            "exactly one of game, pgn or position",
        ),
        (
            json!({"type": "analyse_game", "pgn": "1. e4 e5", "position": {}}),
            "exactly one of",
        ),
        (
            json!({"type": "analyse_game", "pgn": "1. e4", "movetime_ms": 5}),
            "movetime_ms: must be 10..2000",
        ),
        (
            json!({"type": "analyse_game", "pgn": "1. e4", "nodes": 10_000_000}),
            "nodes: must be",
        ),
        (
            json!({"type": "analyse_game", "pgn": long_pgn}),
            "at most 600 are analysed",
        ),
        (
            json!({"type": "analyse_game", "pgn": "x".repeat(300_000)}),
            "pgn: longer than",
        ),
        (
            json!({"type": "analyse_game", "pgn": "1. e4 e5 2. Ke3 *"}),
            "pgn: ",
        ),
        (
            json!({"type": "analyse_game", "position": {"moves": ["e2e4", "e2e4"]}}),
            "position.moves[1]: 'e2e4' is not legal",
        ),
        (
            json!({"type": "lines", "multipv": 6}),
            "multipv: must be 1..5",
        ),
        (json!({"type": "lines", "fen": "nonsense"}), "fen: "),
        (json!({"type": "explode"}), "type: unknown variant"),
        (json!({"type": "lines", "depth": 3}), "unknown field"),
    ];
    for (msg, expected) in cases {
        ws.send(msg.clone()).await;
        let (e, _) = ws.until("error").await;
        let text = e["error"].as_str().unwrap();
        assert!(text.contains(expected), "{msg}: {text}");
    }
    // Still serving after all that.
    ws.send(json!({"type": "lines", "multipv": 2})).await;
    let (lines, _) = ws.until("lines").await;
    assert_eq!(lines["lines"].as_array().unwrap().len(), 2);
    ws.close().await;
    pool_goes_idle(&a).await;
}

#[tokio::test]
async fn multipv_lines_stream_and_stop_on_stop_on_a_new_position_and_on_close() {
    let a = app().await;
    let mut ws = socket(&a).await;
    ws.send(json!({"type": "lines", "id": 1, "fen": chess960_core::StartId::new(0).unwrap().position().fen(), "moves": [], "multipv": 3}))
        .await;
    // Lines deepen; wait for depth 4.
    let last = loop {
        let (l, _) = ws.until("lines").await;
        assert_eq!(l["id"], 1);
        let lines = l["lines"].as_array().unwrap();
        assert_eq!(lines.len(), 3);
        if l["depth"].as_u64().unwrap() >= 4 {
            break l;
        }
    };
    let lines = last["lines"].as_array().unwrap();
    let firsts: Vec<&str> = lines.iter().map(|l| l["pv"][0].as_str().unwrap()).collect();
    assert!(firsts[0] != firsts[1] && firsts[1] != firsts[2] && firsts[0] != firsts[2]);
    assert!(lines
        .iter()
        .all(|l| !l["pv_san"].as_array().unwrap().is_empty()));
    assert!(last["nodes"].as_u64().unwrap() > 0);
    assert_eq!(searches(&a).await.1, 1, "the lines run on the pool");
    // Stop: the search ends.
    ws.send(json!({"type": "stop"})).await;
    pool_goes_idle(&a).await;
    // A new position replaces the running search (still one search).
    ws.send(json!({"type": "lines", "id": 2, "moves": ["e2e4"]}))
        .await;
    ws.send(json!({"type": "lines", "id": 3, "moves": ["d2d4"]}))
        .await;
    loop {
        let (l, _) = ws.until("lines").await;
        if l["id"] == 3 {
            assert_eq!(l["lines"].as_array().unwrap().len(), 1);
            break;
        }
    }
    // The replaced search stops on its own thread a moment later; an analysis runs until it
    // is stopped, so a search that was not replaced would keep the count at two.
    let start = Instant::now();
    while searches(&a).await != (0, 1) {
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "the replaced search still runs: {:?}",
            searches(&a).await
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    // Closing the socket (the page leaves) stops it.
    ws.close().await;
    pool_goes_idle(&a).await;
}

#[tokio::test]
async fn leaving_stops_a_whole_game_analysis() {
    let a = app_with(chess960_server::Capacity {
        search_threads: 1,
        ..chess960_server::Capacity::default()
    })
    .await;
    let mut ws = socket(&a).await;
    let pgn = shuffles(20);
    ws.send(json!({"type": "analyse_game", "pgn": pgn, "movetime_ms": 2000}))
        .await;
    ws.until("game_started").await;
    let t = Instant::now();
    while searches(&a).await.1 == 0 {
        assert!(t.elapsed() < Duration::from_secs(10));
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    ws.close().await;
    pool_goes_idle(&a).await;
    // And cancel_game does the same without closing.
    let mut ws = socket(&a).await;
    let pgn = shuffles(20);
    ws.send(json!({"type": "analyse_game", "pgn": pgn, "movetime_ms": 2000}))
        .await;
    ws.until("game_started").await;
    ws.send(json!({"type": "cancel_game"})).await;
    ws.until("game_cancelled").await;
    pool_goes_idle(&a).await;
}

#[tokio::test]
async fn one_client_has_at_most_four_analysis_sockets() {
    let a = app().await;
    let mut open = Vec::new();
    for _ in 0..4 {
        open.push(socket(&a).await);
    }
    let url = format!("{}/api/analysis/ws", a.base.replace("http", "ws"));
    let refused = tokio_tungstenite::connect_async(url.clone()).await;
    match refused {
        Err(tokio_tungstenite::tungstenite::Error::Http(resp)) => {
            assert_eq!(resp.status().as_u16(), 429);
            let body =
                String::from_utf8_lossy(resp.body().as_deref().unwrap_or_default()).to_string();
            assert!(body.contains("at most 4 analysis pages"), "{body}");
        }
        other => panic!("a fifth socket was not refused: {:?}", other.map(|_| ())),
    }
    // Closing one frees its place.
    open.pop().unwrap().close().await;
    let t = Instant::now();
    loop {
        match tokio_tungstenite::connect_async(url.clone()).await {
            Ok(_) => break,
            Err(_) if t.elapsed() < Duration::from_secs(5) => {
                tokio::time::sleep(Duration::from_millis(20)).await
            }
            Err(e) => panic!("no place after a close: {e}"),
        }
    }
}

#[tokio::test]
async fn the_position_route_gives_legal_moves_with_san_and_chess960_castling() {
    let a = app().await;
    // White's rooks on b and g, king on e (X-FEN rights GB); the b-rook goes and comes back.
    let fen = "4k3/8/8/8/8/8/8/1R2K1R1 w GB - 0 1";
    let r = a
        .post(
            "/api/analysis/position",
            json!({"fen": fen, "moves": ["b1c1", "e8d8", "c1b1", "d8e8"]}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.text);
    let pos = chess960_core::Position::from_fen(r.json["fen"].as_str().unwrap()).unwrap();
    let legal = r.json["legal"].as_array().unwrap();
    assert_eq!(legal.len(), pos.legal_moves().len());
    assert_eq!(r.json["turn"], "white");
    assert_eq!(r.json["status"], "playing");
    assert_eq!(r.json["moves"][0]["san"], "Rc1");
    // The rook's move lost the b-side right; the g-side castle stays, king e1 to g1 (its rook's
    // square), written e1g1 as the king takes its rook.
    assert!(
        !legal.iter().any(|m| m["san"] == "O-O-O"),
        "{}",
        r.json["legal"]
    );
    let castle = legal.iter().find(|m| m["san"] == "O-O");
    assert!(castle.is_some(), "{}", r.json["legal"]);
    let castle = castle.unwrap();
    assert_eq!(castle["uci"], "e1g1");
    assert_eq!(castle["castle"]["king_to"], "g1");
    assert_eq!(castle["castle"]["rook_to"], "f1");
    // Mate.
    let r = a
        .post(
            "/api/analysis/position",
            json!({"moves": ["f2f3", "e7e5", "g2g4", "d8h4"]}),
        )
        .await;
    assert_eq!(r.json["status"], "checkmate");
    assert_eq!(r.json["legal"], json!([]));
    assert_eq!(r.json["check"], "e1");
    // Errors name the field.
    let r = a
        .post("/api/analysis/position", json!({"fen": "8/8 w"}))
        .await;
    assert_eq!(r.status, 422);
    assert!(r.error().starts_with("fen: "), "{}", r.text);
    let r = a
        .post("/api/analysis/position", json!({"moves": ["e2e5"]}))
        .await;
    assert_eq!(r.status, 422);
    assert!(r.error().starts_with("moves[0]: 'e2e5'"), "{}", r.text);
    let r = a
        .post(
            "/api/analysis/position",
            json!({"moves": vec!["g1f3"; 601]}),
        )
        .await;
    assert_eq!(r.status, 400);
    assert!(r.error().contains("at most 600 moves"), "{}", r.text);
}
