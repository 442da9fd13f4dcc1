//! The analysis board's server side (docs/api.md, "Analysis"):
//!
//! - `POST /api/analysis/position`: the legal moves (with SAN and castling details) of a
//!   position given as FEN and UCI moves, so that the page plays variations with the rules of
//!   `chess960-core` and without touching any game;
//! - `GET /api/analysis/ws`: one WebSocket per analysis page. On it the page starts a
//!   whole-game analysis (a saved game by key, a PGN, or a FEN and moves), watches its
//!   progress position by position and gets every move judged as lichess does (`judge.rs`)
//!   with a PGN carrying `[%eval]` comments; and it asks for live engine lines (MultiPV 1–5)
//!   of the position on its board.
//!
//! Every search runs on the server's search pool (`pool.rs`), one position at a time per
//! job, so a long game waits its turn like any other search and other clients keep theirs.
//! Nothing outlives the socket: when the page goes (the socket closes), its tasks are dropped,
//! which cancels their searches, queued or running. A client has at most
//! [`MAX_SESSIONS_PER_CLIENT`] analysis sockets open; every message and every limit is
//! bounded (plies, text size, time or nodes per position, MultiPV).

use crate::api::Client;
use crate::error::{ApiError, ApiResult, JsonBody};
use crate::game::{color_name, legal_move, ColorJson, LegalMove};
use crate::http::socket::{self, Next, Session};
use crate::http::ws_limits;
use crate::judge::{judge, Judgement, WhiteEval};
use crate::pool::{SearchPool, Urgency};
use crate::round::{CancelOnDrop, ScoreJson};
use crate::AppState;
use axum::extract::ws::{Message, WebSocket};
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::Response;
use axum::Json;
use chess960_core::{CastlingMode, Move, Position};
use chess960_engine::player::{AnalysisLimit, LinesReport, MAX_MULTIPV};
use chess960_pgn::{game_to_string, Game, Line, Node, Reader, Variant, WriteOptions};
use serde::{Deserialize, Serialize};
use serde_json::json;
use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::mpsc;

/// The most half-moves a game or a position's move list may have.
pub const MAX_PLIES: usize = 600;
/// The longest FEN accepted.
const MAX_FEN: usize = 200;
/// The longest PGN text of a whole-game analysis.
pub const MAX_PGN_BYTES: usize = 256 * 1024;
/// The largest WebSocket message the server reads.
const MAX_MESSAGE: usize = 512 * 1024;
/// Per position of a whole-game analysis: time (milliseconds) ...
pub const MOVETIME_MS: (u64, u64) = (10, 2000);
/// ... by default ...
pub const DEFAULT_MOVETIME_MS: u64 = 300;
/// ... or nodes.
pub const NODES: (u64, u64) = (1000, 5_000_000);
/// How long live engine lines run before they stop by themselves (the page can start them
/// again): a page left open must not hold a search thread for good.
pub const LIVE_LIMIT: Duration = Duration::from_secs(60);
/// Analysis sockets one client (IP address) may have open at once.
pub const MAX_SESSIONS_PER_CLIENT: usize = 4;
/// Moves of a line or a best line sent to the page.
const MAX_PV: usize = 16;
/// Moves of the better line written as a PGN variation on a judged move.
const PGN_VARIATION_PLIES: usize = 10;

// ---- positions -------------------------------------------------------------------------

/// A position as the page gives it: a FEN (the standard start when absent) and UCI moves.
#[derive(Deserialize, Default, Clone)]
#[serde(deny_unknown_fields)]
pub struct PositionIn {
    fen: Option<String>,
    #[serde(default)]
    moves: Vec<String>,
}

/// The start position and the moves of `p`; errors name the field (`field.fen`,
/// `field.moves[3]`).
fn read_position(p: &PositionIn, field: &str) -> ApiResult<(Position, Vec<Move>)> {
    let at = |what: &str| {
        if field.is_empty() {
            what.to_string()
        } else {
            format!("{field}.{what}")
        }
    };
    let start = match p.fen.as_deref().map(str::trim) {
        None | Some("") => chess960_core::StartId::CLASSICAL.position(),
        Some(fen) if fen.len() > MAX_FEN => {
            return Err(ApiError::bad_request(format!(
                "{}: longer than {MAX_FEN} characters",
                at("fen")
            )))
        }
        Some(fen) => Position::from_fen(fen)
            .map_err(|e| ApiError::unprocessable(format!("{}: {e}", at("fen"))))?,
    };
    if p.moves.len() > MAX_PLIES {
        return Err(ApiError::bad_request(format!(
            "{}: at most {MAX_PLIES} moves",
            at("moves")
        )));
    }
    let mut pos = start;
    let mut moves = Vec::with_capacity(p.moves.len());
    for (i, uci) in p.moves.iter().enumerate() {
        let uci = uci.trim();
        let m = pos.parse_uci(uci, CastlingMode::Chess960).map_err(|e| {
            ApiError::unprocessable(format!(
                "{}[{i}]: '{}' is not legal here: {e}",
                at("moves"),
                uci.chars().take(12).collect::<String>()
            ))
        })?;
        moves.push(m);
        pos = pos.play(m);
    }
    Ok((start, moves))
}

/// A played move: UCI (Chess960 castling), SAN, and the position after it.
#[derive(Serialize, Clone, Debug)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct PlayedJson {
    ply: usize,
    uci: String,
    san: String,
    fen: String,
}

/// The moves from `start` as the page shows them.
fn played(start: &Position, moves: &[Move]) -> Vec<PlayedJson> {
    let mut pos = *start;
    moves
        .iter()
        .enumerate()
        .map(|(i, &m)| {
            let san = pos.san(m);
            pos = pos.play(m);
            PlayedJson {
                ply: i + 1,
                uci: m.to_uci(CastlingMode::Chess960),
                san,
                fen: pos.fen(),
            }
        })
        .collect()
}

/// The answer to `POST /api/analysis/position`.
#[derive(Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct PositionJson {
    /// The position after the moves.
    fen: String,
    turn: ColorJson,
    /// The square of the king in check.
    check: Option<String>,
    status: PositionStatus,
    legal: Vec<LegalMove>,
    /// The moves given, with their SAN.
    moves: Vec<PlayedJson>,
}

/// Whether the side to move of an analysed position can play on.
#[derive(Serialize, Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "lowercase")]
pub enum PositionStatus {
    /// It has a legal move.
    Playing,
    /// It is checkmated.
    Checkmate,
    /// It has no legal move and is not in check.
    Stalemate,
}

/// `POST /api/analysis/position`.
pub async fn position(JsonBody(req): JsonBody<PositionIn>) -> ApiResult<Json<PositionJson>> {
    let (start, moves) = read_position(&req, "")?;
    let pos = moves.iter().fold(start, |p, &m| p.play(m));
    let legal: Vec<LegalMove> = pos
        .legal_moves()
        .iter()
        .map(|&m| legal_move(&pos, m))
        .collect();
    let status = match (legal.is_empty(), pos.is_check()) {
        (false, _) => PositionStatus::Playing,
        (true, true) => PositionStatus::Checkmate,
        (true, false) => PositionStatus::Stalemate,
    };
    Ok(Json(PositionJson {
        fen: pos.fen(),
        turn: pos.turn().into(),
        check: pos.is_check().then(|| pos.king_of(pos.turn()).to_string()),
        status,
        legal,
        moves: played(&start, &moves),
    }))
}

// ---- the WebSocket -----------------------------------------------------------------------

/// A message from the page.
#[derive(Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
enum ClientMsg {
    /// Analyse a whole game: exactly one of `game` (a saved game's key), `pgn`, or
    /// `position`; per position `movetime_ms` or `nodes`.
    AnalyseGame {
        game: Option<String>,
        pgn: Option<String>,
        position: Option<PositionIn>,
        movetime_ms: Option<u64>,
        nodes: Option<u64>,
    },
    /// Stop the whole-game analysis.
    CancelGame {},
    /// Live lines of a position; replaces the lines running.
    Lines {
        #[serde(default)]
        id: u64,
        fen: Option<String>,
        #[serde(default)]
        moves: Vec<String>,
        multipv: Option<usize>,
    },
    /// Stop the live lines.
    Stop {},
}

/// `GET /api/analysis/ws`.
pub async fn websocket(
    State(state): State<AppState>,
    Client(client): Client,
    ws: ws_limits::Upgrade,
) -> ApiResult<Response> {
    let ws = ws_limits::accept(ws)?;
    let seat = state.sockets().analysis.enter(client).ok_or_else(|| {
        ApiError::new(
            StatusCode::TOO_MANY_REQUESTS,
            format!(
                "at most {MAX_SESSIONS_PER_CLIENT} analysis pages may be open at once from one \
                 address; close one"
            ),
        )
    })?;
    Ok(ws
        .max_message_size(MAX_MESSAGE)
        .max_frame_size(MAX_MESSAGE)
        .on_upgrade(move |socket| session(state, socket, seat, client)))
}

/// Aborts a task when dropped: a task's searches are cancelled with it (its futures own the
/// tickets).
struct AbortOnDrop(tokio::task::JoinHandle<()>);

impl Drop for AbortOnDrop {
    fn drop(&mut self) {
        self.0.abort();
    }
}

type Out = mpsc::UnboundedSender<String>;

async fn session(
    state: AppState,
    mut socket: WebSocket,
    _seat: crate::http::rate::Place,
    client: IpAddr,
) {
    let pool = state.games().ctx().pool.clone();
    let shutdown = state.shutdown_signal();
    let (tx, rx) = mpsc::unbounded_channel::<String>();
    let hello = json!({
        "type": "ready",
        "limits": {
            "max_plies": MAX_PLIES,
            "max_pgn_bytes": MAX_PGN_BYTES,
            "movetime_ms": {"min": MOVETIME_MS.0, "max": MOVETIME_MS.1, "default": DEFAULT_MOVETIME_MS},
            "nodes": {"min": NODES.0, "max": NODES.1},
            "multipv": {"min": 1, "max": MAX_MULTIPV},
            "live_ms": LIVE_LIMIT.as_millis() as u64,
        },
    });
    if socket
        .send(Message::Text(hello.to_string().into()))
        .await
        .is_err()
    {
        return;
    }
    let mut board = Board {
        state,
        pool,
        client,
        tx,
        rx,
        game_job: None,
        lines_job: None,
    };
    // The client's requests are bounded by the searches they start (one of each kind at a
    // time), not by a message rate.
    socket::serve(&mut socket, &mut board, shutdown, None).await;
    // Dropping the board's jobs cancels their searches.
}

/// The analysis board's socket: the client's requests, and what their searches send.
struct Board {
    state: AppState,
    pool: SearchPool,
    client: IpAddr,
    /// Where the searches (and the answers to requests) put their messages.
    tx: Out,
    rx: mpsc::UnboundedReceiver<String>,
    game_job: Option<AbortOnDrop>,
    lines_job: Option<AbortOnDrop>,
}

impl Session for Board {
    type Handoff = ();

    async fn next(&mut self) -> Next<()> {
        match self.rx.recv().await {
            Some(text) => Next::Send(text),
            None => Next::End(()),
        }
    }

    async fn heard(&mut self, text: String) -> Next<()> {
        let msg = crate::error::parse_json::<ClientMsg>(text.as_bytes());
        let Board {
            state,
            pool,
            client,
            tx,
            game_job,
            lines_job,
            ..
        } = self;
        if let Err(e) = handle(msg, state, pool, *client, tx, game_job, lines_job).await {
            let _ = tx.send(json!({"type": "error", "error": e.message}).to_string());
        }
        Next::Quiet
    }

    fn heard_binary(&mut self) -> Next<()> {
        let _ = self
            .tx
            .send(json!({"type": "error", "error": "messages are JSON text"}).to_string());
        Next::Quiet
    }
}

async fn handle(
    msg: ApiResult<ClientMsg>,
    state: &AppState,
    pool: &SearchPool,
    client: IpAddr,
    tx: &Out,
    game_job: &mut Option<AbortOnDrop>,
    lines_job: &mut Option<AbortOnDrop>,
) -> ApiResult<()> {
    match msg? {
        ClientMsg::AnalyseGame {
            game,
            pgn,
            position,
            movetime_ms,
            nodes,
        } => {
            let limit = limit_of(movetime_ms, nodes)?;
            let source = match (game, pgn, position) {
                (Some(key), None, None) => saved_game(state, &key).await?,
                (None, Some(text), None) => pgn_game(&text)?,
                (None, None, Some(p)) => {
                    let (start, moves) = read_position(&p, "position")?;
                    let mut g = Game::new(start, Variant::Chess960);
                    for m in moves {
                        g.push(m)
                            .map_err(|_| ApiError::internal("a checked move"))?;
                    }
                    Source {
                        kind: "position",
                        key: None,
                        game: g,
                    }
                }
                _ => {
                    return Err(ApiError::bad_request(
                        "give exactly one of game, pgn or position",
                    ))
                }
            };
            *game_job = None; // a new job replaces the old one (and cancels its search)
            let (pool, tx) = (pool.clone(), tx.clone());
            *game_job = Some(AbortOnDrop(tokio::spawn(async move {
                run_game(pool, client, source, limit, tx).await;
            })));
        }
        ClientMsg::CancelGame {} => {
            if game_job.take().is_some() {
                let _ = tx.send(json!({"type": "game_cancelled"}).to_string());
            }
        }
        ClientMsg::Lines {
            id,
            fen,
            moves,
            multipv,
        } => {
            let position = PositionIn { fen, moves };
            let multipv = multipv.unwrap_or(1);
            if !(1..=MAX_MULTIPV).contains(&multipv) {
                return Err(ApiError::bad_request(format!(
                    "multipv: must be 1..{MAX_MULTIPV}"
                )));
            }
            let (start, moves) = read_position(&position, "")?;
            *lines_job = None;
            let (pool, tx) = (pool.clone(), tx.clone());
            *lines_job = Some(AbortOnDrop(tokio::spawn(async move {
                run_lines(pool, client, id, start, moves, multipv, tx).await;
            })));
        }
        ClientMsg::Stop {} => {
            *lines_job = None;
        }
    }
    Ok(())
}

fn limit_of(movetime_ms: Option<u64>, nodes: Option<u64>) -> ApiResult<AnalysisLimit> {
    match (movetime_ms, nodes) {
        (Some(_), Some(_)) => Err(ApiError::bad_request(
            "movetime_ms: give either movetime_ms or nodes, not both",
        )),
        (Some(t), None) if (MOVETIME_MS.0..=MOVETIME_MS.1).contains(&t) => {
            Ok(AnalysisLimit::Movetime(Duration::from_millis(t)))
        }
        (Some(_), None) => Err(ApiError::bad_request(format!(
            "movetime_ms: must be {}..{}",
            MOVETIME_MS.0, MOVETIME_MS.1
        ))),
        (None, Some(n)) if (NODES.0..=NODES.1).contains(&n) => Ok(AnalysisLimit::Nodes(n)),
        (None, Some(_)) => Err(ApiError::bad_request(format!(
            "nodes: must be {}..{}",
            NODES.0, NODES.1
        ))),
        (None, None) => Ok(AnalysisLimit::Movetime(Duration::from_millis(
            DEFAULT_MOVETIME_MS,
        ))),
    }
}

// ---- whole-game analysis ---------------------------------------------------------------

/// The game to analyse, as a PGN game (tags, start, main line; the saved game's clocks).
struct Source {
    kind: &'static str,
    key: Option<String>,
    game: Game,
}

async fn saved_game(state: &AppState, key: &str) -> ApiResult<Source> {
    let h = state.games().get(key).await.map_err(|e| {
        let e = ApiError::from(e);
        ApiError::new(e.status, format!("game: {}", e.message))
    })?;
    let stored = h.stored().await?;
    if stored.finish.is_none() {
        return Err(ApiError::conflict(
            "game: the game is still being played; it can be analysed once it is over",
        ));
    }
    let game = chess960_store::pgn::to_pgn(&stored).map_err(ApiError::from)?;
    check_length(&game)?;
    Ok(Source {
        kind: "game",
        key: Some(stored.key.as_str().to_string()),
        game,
    })
}

fn pgn_game(text: &str) -> ApiResult<Source> {
    if text.len() > MAX_PGN_BYTES {
        return Err(ApiError::bad_request(format!(
            "pgn: longer than {MAX_PGN_BYTES} bytes"
        )));
    }
    let mut reader = Reader::new(text.as_bytes());
    let game = match reader.read_game() {
        Ok(Some(Ok(g))) => g,
        Ok(Some(Err(e))) => return Err(ApiError::unprocessable(format!("pgn: {e}"))),
        Ok(None) => return Err(ApiError::unprocessable("pgn: there is no game in the text")),
        Err(e) => return Err(ApiError::unprocessable(format!("pgn: {e}"))),
    };
    check_length(&game)?;
    Ok(Source {
        kind: "pgn",
        key: None,
        game,
    })
}

fn check_length(game: &Game) -> ApiResult<()> {
    let n = game.moves.nodes.len();
    if n > MAX_PLIES {
        return Err(ApiError::bad_request(format!(
            "the game has {n} half-moves; at most {MAX_PLIES} are analysed"
        )));
    }
    Ok(())
}

/// One position's analysis: its evaluation from White's view and the best line.
#[derive(Clone, Debug)]
struct Evaluated {
    eval: WhiteEval,
    depth: u32,
    pv: Vec<Move>,
}

/// A position of the game as the page gets it.
#[derive(Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub(crate) struct PositionEvalJson {
    /// Half-moves played before it (0: the start).
    ply: usize,
    /// White's view; `{"mate": 0}` when the side to move is checkmated.
    eval: ScoreJson,
    /// White's win percentage (lichess's formula).
    win: f64,
    depth: u32,
    /// The engine's move here (UCI, Chess960 castling) and its line in SAN.
    best: Option<String>,
    best_san: Option<String>,
    pv_san: Vec<String>,
}

fn score_json(e: WhiteEval) -> ScoreJson {
    match e {
        WhiteEval::Cp(cp) => ScoreJson::Cp(cp),
        WhiteEval::Mate(n) => ScoreJson::Mate(n),
        WhiteEval::Checkmate { .. } => ScoreJson::Mate(0),
    }
}

fn position_json(ply: usize, pos: &Position, e: &Evaluated) -> PositionEvalJson {
    let pv_san = pv_san(pos, &e.pv);
    PositionEvalJson {
        ply,
        eval: score_json(e.eval),
        win: (e.eval.win_percent() * 10.0).round() / 10.0,
        depth: e.depth,
        best: e.pv.first().map(|m| m.to_uci(CastlingMode::Chess960)),
        best_san: pv_san.first().cloned(),
        pv_san,
    }
}

/// The first [`MAX_PV`] moves of `pv` in SAN from `pos` (stopping at an illegal one).
fn pv_san(pos: &Position, pv: &[Move]) -> Vec<String> {
    crate::round::pv_san(pos, &pv[..pv.len().min(MAX_PV)])
}

/// A move of the game, judged.
#[derive(Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub(crate) struct MoveJudgedJson {
    ply: usize,
    uci: String,
    san: String,
    color: ColorJson,
    judgement: Option<Judgement>,
    glyph: Option<&'static str>,
    /// The engine's move in the position before, when the played move was judged bad.
    better: Option<String>,
    better_san: Option<String>,
}

async fn run_game(pool: SearchPool, client: IpAddr, source: Source, limit: AnalysisLimit, tx: Out) {
    let start = source.game.start;
    let moves: Arc<[Move]> = source.game.moves.moves().collect();
    let n = moves.len();
    let tag = |name: &str| source.game.tags.get(name).map(str::to_owned);
    let limit_json = match limit {
        AnalysisLimit::Nodes(n) => json!({"nodes": n}),
        AnalysisLimit::Movetime(t) => json!({"movetime_ms": t.as_millis() as u64}),
        AnalysisLimit::Depth(d) => json!({"depth": d}),
    };
    let _ = tx.send(
        json!({
            "type": "game_started",
            "source": source.kind,
            "key": source.key,
            "start_fen": start.fen(),
            "white": tag("White"),
            "black": tag("Black"),
            "result": source.game.result.as_str(),
            "moves": played(&start, &moves),
            "total": n + 1,
            "limit": limit_json,
        })
        .to_string(),
    );
    let mut evals: Vec<Evaluated> = Vec::with_capacity(n + 1);
    let mut pos = start;
    for i in 0..=n {
        let job_moves = Arc::clone(&moves);
        let (ticket, result) = pool.submit(client, Urgency::Normal, move |player, stop, _| {
            player.analyse(&start, &job_moves[..i], limit, stop, |_| {})
        });
        let _cancel = CancelOnDrop(ticket);
        let Ok(a) = result.await else {
            let _ = tx.send(
                json!({"type": "error", "error": "the server is shutting down: the analysis stopped"})
                    .to_string(),
            );
            return;
        };
        let e = Evaluated {
            eval: WhiteEval::of(a.score, pos.turn()),
            depth: a.depth,
            pv: a.pv,
        };
        let _ = tx.send(
            json!({
                "type": "progress",
                "done": i + 1,
                "total": n + 1,
                "position": position_json(i, &pos, &e),
            })
            .to_string(),
        );
        evals.push(e);
        if i < n {
            pos = pos.play(moves[i]);
        }
    }
    let report = report(source, &evals);
    let _ = tx.send(report.to_string());
}

/// The `game_done` message: every position, every move judged, the PGN with `[%eval]`.
fn report(source: Source, evals: &[Evaluated]) -> serde_json::Value {
    let mut game = source.game;
    let start = game.start;
    let mut positions = Vec::with_capacity(evals.len());
    let mut judged = Vec::with_capacity(evals.len().saturating_sub(1));
    let mut counts: HashMap<(&str, Judgement), usize> = HashMap::new();
    let mut pos = start;
    for (i, node) in game.moves.nodes.iter_mut().enumerate() {
        let (before, after) = (&evals[i], &evals[i + 1]);
        positions.push(position_json(i, &pos, before));
        let mover = pos.turn();
        let m = node.mv;
        let san = pos.san(m);
        let j = judge(mover, before.eval, after.eval);
        // The engine's move is no worse than itself: a judgement on it is noise of a short
        // search, not a mistake.
        let j = j.filter(|_| before.pv.first() != Some(&m));
        let better = j.and(before.pv.first().copied());
        if let Some(j) = j {
            *counts.entry((color_name(mover), j)).or_default() += 1;
        }
        annotate(node, &pos, after.eval, j, &before.pv);
        judged.push(MoveJudgedJson {
            ply: i + 1,
            uci: m.to_uci(CastlingMode::Chess960),
            san,
            color: mover.into(),
            judgement: j,
            glyph: j.map(Judgement::glyph),
            better: better.map(|b| b.to_uci(CastlingMode::Chess960)),
            better_san: better.map(|b| pos.san(b)),
        });
        pos = pos.play(m);
    }
    let last = evals.len() - 1;
    positions.push(position_json(last, &pos, &evals[last]));
    game.tags.set("Annotator", "chess960 analysis");
    let pgn = game_to_string(&game, &WriteOptions::default());
    let summary = |c: &str| {
        json!({
            "inaccuracy": counts.get(&(c, Judgement::Inaccuracy)).copied().unwrap_or(0),
            "mistake": counts.get(&(c, Judgement::Mistake)).copied().unwrap_or(0),
            "blunder": counts.get(&(c, Judgement::Blunder)).copied().unwrap_or(0),
        })
    };
    json!({
        "type": "game_done",
        "positions": positions,
        "moves": judged,
        "summary": {"white": summary("white"), "black": summary("black")},
        "pgn": pgn,
    })
}

/// Writes the analysis into a main-line node as lichess does: `[%eval]` of the position after
/// the move first in its comment (any older `[%eval]` dropped, a `[%clk]` kept), and for a
/// judged move its NAG, "Blunder. Nf3 was best." and the better line as a variation.
fn annotate(
    node: &mut Node,
    before: &Position,
    after: WhiteEval,
    j: Option<Judgement>,
    best: &[Move],
) {
    let kept: Vec<String> = node
        .comments
        .iter()
        .map(|c| strip_eval(c))
        .filter(|c| !c.is_empty())
        .collect();
    let mut first = after
        .pgn_eval()
        .map(|e| format!("[%eval {e}]"))
        .unwrap_or_default();
    node.comments = kept;
    node.variations.clear();
    if let Some(j) = j {
        node.nags.retain(|&n| !matches!(n, 1..=6));
        node.nags.push(j.nag());
        if let Some(&b) = best.first() {
            first = format!("{first} {}. {} was best.", j.word(), before.san(b))
                .trim()
                .to_string();
            let mut line = Line::default();
            let mut p = *before;
            for &m in best.iter().take(PGN_VARIATION_PLIES) {
                if !p.is_legal(m) {
                    break;
                }
                line.nodes.push(Node::new(m));
                p = p.play(m);
            }
            node.variations.push(line);
        }
    }
    if !first.is_empty() {
        match node.comments.first_mut() {
            Some(c) => *c = format!("{first} {c}"),
            None => node.comments.push(first),
        }
    }
}

/// `comment` without its `[%eval ...]` commands.
fn strip_eval(comment: &str) -> String {
    let mut out = String::with_capacity(comment.len());
    let mut rest = comment;
    while let Some(at) = rest.find("[%eval") {
        out.push_str(&rest[..at]);
        rest = match rest[at..].find(']') {
            Some(end) => &rest[at + end + 1..],
            None => "",
        };
    }
    out.push_str(rest);
    out.split_whitespace().collect::<Vec<_>>().join(" ")
}

// ---- live lines --------------------------------------------------------------------------

#[derive(Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub(crate) struct LineJson {
    /// White's view.
    score: ScoreJson,
    pv: Vec<String>,
    pv_san: Vec<String>,
}

fn lines_json(id: u64, pos: &Position, r: &LinesReport, done: bool) -> String {
    let lines: Vec<LineJson> = r
        .lines
        .iter()
        .map(|l| LineJson {
            score: score_json(WhiteEval::of(l.score, pos.turn())),
            pv: l
                .pv
                .iter()
                .take(MAX_PV)
                .map(|m| m.to_uci(CastlingMode::Chess960))
                .collect(),
            pv_san: pv_san(pos, &l.pv),
        })
        .collect();
    let ms = r.elapsed.as_millis() as u64;
    json!({
        "type": "lines",
        "id": id,
        "fen": pos.fen(),
        "depth": r.depth,
        "seldepth": r.seldepth,
        "nodes": r.nodes,
        "nps": (r.nodes * 1000).checked_div(ms).unwrap_or(0),
        "time_ms": ms,
        "lines": lines,
        "done": done,
    })
    .to_string()
}

async fn run_lines(
    pool: SearchPool,
    client: IpAddr,
    id: u64,
    start: Position,
    moves: Vec<Move>,
    multipv: usize,
    tx: Out,
) {
    let pos = moves.iter().fold(start, |p, &m| p.play(m));
    if !pos.has_legal_moves() {
        let _ = tx.send(
            json!({"type": "lines", "id": id, "fen": pos.fen(), "depth": 0, "seldepth": 0,
                   "nodes": 0, "nps": 0, "time_ms": 0, "lines": [], "done": true})
            .to_string(),
        );
        return;
    }
    let reports = tx.clone();
    let (ticket, result) = pool.submit(client, Urgency::Normal, move |player, stop, _| {
        let mut last = None;
        player.analyse_lines(
            &start,
            &moves,
            AnalysisLimit::Movetime(LIVE_LIMIT),
            multipv,
            stop,
            |r| {
                let _ = reports.send(lines_json(id, &pos, r, false));
                last = Some(r.clone());
            },
        );
        last
    });
    let _cancel = CancelOnDrop(ticket);
    if let Ok(Some(last)) = result.await {
        let _ = tx.send(lines_json(id, &pos, &last, true));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn old_evals_leave_a_comment_and_clocks_stay() {
        assert_eq!(strip_eval("[%eval 0.35] [%clk 0:05:00]"), "[%clk 0:05:00]");
        assert_eq!(strip_eval("good [%eval #-3] move"), "good move");
        assert_eq!(strip_eval("[%eval 1.0"), "");
    }

    #[test]
    fn positions_are_read_with_their_errors_named() {
        let p = PositionIn {
            fen: None,
            moves: vec!["e2e4".into(), "e7e5".into(), "e1e3".into()],
        };
        let e = read_position(&p, "position").err().unwrap();
        assert!(
            e.message.starts_with("position.moves[2]: 'e1e3'"),
            "{}",
            e.message
        );
        let long = PositionIn {
            fen: None,
            moves: vec!["e2e4".into(); MAX_PLIES + 1],
        };
        assert!(read_position(&long, "")
            .err()
            .unwrap()
            .message
            .contains("at most 600 moves"));
        let bad = PositionIn {
            fen: Some("8/8/8 w - - 0 1".into()),
            moves: vec![],
        };
        assert!(read_position(&bad, "")
            .err()
            .unwrap()
            .message
            .starts_with("fen: "));
    }

    #[test]
    fn limits_are_bounded() {
        assert!(limit_of(Some(5), None).is_err());
        assert!(limit_of(Some(3000), None).is_err());
        assert!(limit_of(None, Some(10)).is_err());
        assert!(limit_of(Some(100), Some(5000)).is_err());
        assert_eq!(
            limit_of(None, Some(5000)).unwrap(),
            AnalysisLimit::Nodes(5000)
        );
    }

    #[test]
    fn a_judged_move_gets_eval_nag_comment_and_variation() {
        let start = chess960_core::StartId::CLASSICAL.position();
        let e4 = start.parse_uci("e2e4", CastlingMode::Chess960).unwrap();
        let d4 = start.parse_uci("d2d4", CastlingMode::Chess960).unwrap();
        let mut node = Node::new(e4);
        node.comments.push("[%eval 9.99] [%clk 0:01:00]".into());
        annotate(
            &mut node,
            &start,
            WhiteEval::Cp(-250),
            Some(Judgement::Blunder),
            &[d4],
        );
        assert_eq!(node.nags, vec![4]);
        assert_eq!(
            node.comments,
            vec!["[%eval -2.50] Blunder. d4 was best. [%clk 0:01:00]".to_string()]
        );
        assert_eq!(node.variations.len(), 1);
        assert_eq!(node.variations[0].nodes[0].mv, d4);
    }
}
