//! The live broadcast of an engine event: every board of the round being played, its clocks,
//! the moves with what each engine said about them, and the search of the engine to move as
//! it reports it. `GET /api/events/{key}/live` serves [`Broadcast::view`].

use chess960_arena::engine::{Score, SearchInfo, Watch};
use chess960_core::{CastlingMode, Color, Move, Position};
use serde::Serialize;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// The most moves of a principal variation shown.
pub const MAX_PV: usize = 16;

/// The most finished games of the round the broadcast keeps (the latest): a round of many
/// boards would otherwise make every spectator's poll as long as the whole round.
pub const MAX_FINISHED: usize = 32;

/// An evaluation from White's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct LiveScore {
    /// Centipawns (positive: White is better); `None` for a mate score.
    pub cp: Option<i32>,
    /// Mate in this many moves (positive: White mates); `None` for centipawns.
    pub mate: Option<i32>,
}

impl LiveScore {
    /// `score`, said by the engine of `side`, from White's point of view.
    pub fn of(score: Score, side: Color) -> LiveScore {
        let s = if side == Color::White {
            score
        } else {
            score.flipped()
        };
        match s {
            Score::Cp(cp) => LiveScore {
                cp: Some(cp),
                mate: None,
            },
            Score::Mate(n) => LiveScore {
                cp: None,
                mate: Some(n),
            },
        }
    }
}

/// A side, as the view writes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "lowercase")]
pub enum LiveSide {
    /// White.
    White,
    /// Black.
    Black,
}

impl From<Color> for LiveSide {
    fn from(c: Color) -> LiveSide {
        match c {
            Color::White => LiveSide::White,
            Color::Black => LiveSide::Black,
        }
    }
}

/// Both clocks, milliseconds left.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct LiveClocks {
    /// White's.
    pub white_ms: u64,
    /// Black's.
    pub black_ms: u64,
}

/// A move played, with what its engine said.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct LiveMove {
    /// In SAN.
    pub san: String,
    /// In UCI, Chess960 form (castling as king takes rook).
    pub uci: String,
    /// The engine's last evaluation (White's point of view).
    pub score: Option<LiveScore>,
    /// The depth it reached.
    pub depth: Option<u32>,
    /// Nodes searched.
    pub nodes: Option<u64>,
    /// Nodes a second.
    pub nps: Option<u64>,
    /// The time it took, milliseconds.
    pub ms: u64,
    /// Its principal variation in SAN, from the position before the move (at most
    /// [`MAX_PV`]).
    pub pv: Vec<String>,
    /// White's clock after the move.
    pub white_ms: u64,
    /// Black's clock after the move.
    pub black_ms: u64,
}

/// The search of the engine to move, as it last reported it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct LiveThinking {
    /// Who is thinking.
    pub side: LiveSide,
    /// How long it has been thinking, when the view was taken.
    pub elapsed_ms: u64,
    /// Depth.
    pub depth: Option<u32>,
    /// Selective depth.
    pub seldepth: Option<u32>,
    /// Evaluation (White's point of view).
    pub score: Option<LiveScore>,
    /// Nodes searched.
    pub nodes: Option<u64>,
    /// Nodes a second.
    pub nps: Option<u64>,
    /// Principal variation in SAN (at most [`MAX_PV`]).
    pub pv: Vec<String>,
}

/// One board of the broadcast.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct LiveBoard {
    /// The round.
    pub round: u32,
    /// The board.
    pub board: u32,
    /// White's name.
    pub white: String,
    /// Black's name.
    pub black: String,
    /// The start position, 0..959.
    pub start_id: u16,
    /// The start position in X-FEN.
    pub start_fen: String,
    /// The clock in PGN's form (`60+0.5`, seconds).
    pub time_control: String,
    /// The position now, in X-FEN.
    pub fen: String,
    /// Who is to move.
    pub turn: LiveSide,
    /// The clocks as of the last move (or the start).
    pub clocks: LiveClocks,
    /// The moves so far.
    pub moves: Vec<LiveMove>,
    /// The search of the engine to move, once it has said something.
    pub thinking: Option<LiveThinking>,
    /// `1-0`, `0-1` or `1/2-1/2` once over.
    pub result: Option<String>,
    /// Why it ended, in words.
    pub reason: Option<String>,
    /// The game's key in the database, once stored.
    pub game: Option<String>,
}

/// `GET /api/events/{key}/live`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct LiveView {
    /// Whether the event's engine games are being played now.
    pub running: bool,
    /// Where it stands, in words: `playing round 2`, `finished`, `paused`, what it waits for.
    pub status: String,
    /// The boards of the round being played (or last played) and of the round before, by round
    /// and board.
    pub boards: Vec<LiveBoard>,
}

/// A board as kept: the view's fields and what is needed to bring them up to date.
#[derive(Debug)]
struct Kept {
    view: LiveBoard,
    position: Position,
    /// When the engine to move was asked, and what it last said.
    asked: Instant,
    search: Option<(Color, SearchInfo)>,
}

#[derive(Debug, Default)]
struct State {
    running: bool,
    status: String,
    boards: Vec<Kept>,
}

/// The live state of one event's games, shared by the threads that play them and the
/// spectators who read it.
#[derive(Debug, Default)]
pub struct Broadcast {
    state: Mutex<State>,
}

/// The principal variation in SAN, as far as its moves are legal (at most [`MAX_PV`]).
fn pv_san(pos: &Position, pv: &[String]) -> Vec<String> {
    let mut p = *pos;
    let mut out = Vec::new();
    for text in pv.iter().take(MAX_PV) {
        let Ok(m) = p
            .parse_uci(text, CastlingMode::Chess960)
            .or_else(|_| p.parse_uci(text, CastlingMode::Standard))
        else {
            break;
        };
        out.push(p.san(m));
        p = p.play(m);
    }
    out
}

fn ms(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}

fn nps(info: &SearchInfo) -> Option<u64> {
    match (info.nodes, info.time_ms) {
        (Some(n), Some(t)) if t > 0 => Some(n.saturating_mul(1000) / t),
        _ => None,
    }
}

impl Broadcast {
    /// An empty broadcast, not running.
    pub fn new() -> Broadcast {
        Broadcast::default()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// What a spectator sees now.
    pub fn view(&self) -> LiveView {
        let s = self.lock();
        let mut boards: Vec<LiveBoard> = s
            .boards
            .iter()
            .map(|k| {
                let mut v = k.view.clone();
                if v.result.is_none() {
                    v.thinking = k.search.as_ref().map(|(c, info)| LiveThinking {
                        side: LiveSide::from(*c),
                        elapsed_ms: ms(k.asked.elapsed()),
                        depth: info.depth,
                        seldepth: info.seldepth,
                        score: info.score.map(|sc| LiveScore::of(sc, *c)),
                        nodes: info.nodes,
                        nps: nps(info),
                        pv: pv_san(&k.position, &info.pv),
                    });
                }
                v
            })
            .collect();
        boards.sort_by_key(|b| (b.round, b.board));
        LiveView {
            running: s.running,
            status: s.status.clone(),
            boards,
        }
    }

    /// Sets whether the games are being played, and the status line.
    pub fn set_status(&self, running: bool, status: impl Into<String>) {
        let mut s = self.lock();
        s.running = running;
        s.status = status.into();
    }

    /// A game begins on `round`'s board `board`: boards of rounds before the one before leave
    /// the broadcast (the round before stays, so that a spectator sees how its last games
    /// ended).
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn begin(
        &self,
        round: u32,
        board: u32,
        names: [&str; 2],
        start_id: u16,
        start: &Position,
        time_control: String,
        clocks: [Duration; 2],
    ) {
        let mut s = self.lock();
        s.boards.retain(|k| {
            k.view.round + 1 >= round && !(k.view.round == round && k.view.board == board)
        });
        s.boards.push(Kept {
            view: LiveBoard {
                round,
                board,
                white: names[0].to_string(),
                black: names[1].to_string(),
                start_id,
                start_fen: start.fen(),
                time_control,
                fen: start.fen(),
                turn: start.turn().into(),
                clocks: LiveClocks {
                    white_ms: ms(clocks[0]),
                    black_ms: ms(clocks[1]),
                },
                moves: Vec::new(),
                thinking: None,
                result: None,
                reason: None,
                game: None,
            },
            position: *start,
            asked: Instant::now(),
            search: None,
        });
        let finished = s.boards.iter().filter(|k| k.view.result.is_some()).count();
        if finished > MAX_FINISHED {
            // The boards are kept in the order their games began: the first finished is the
            // oldest.
            if let Some(i) = s.boards.iter().position(|k| k.view.result.is_some()) {
                s.boards.remove(i);
            }
        }
    }

    fn with_board(&self, round: u32, board: u32, f: impl FnOnce(&mut Kept)) {
        let mut s = self.lock();
        if let Some(k) = s
            .boards
            .iter_mut()
            .find(|k| k.view.round == round && k.view.board == board)
        {
            f(k);
        }
    }

    /// The game of a board ended: its result, why, and its key in the database.
    pub(crate) fn finish(
        &self,
        round: u32,
        board: u32,
        result: &str,
        reason: &str,
        game: Option<String>,
    ) {
        self.with_board(round, board, |k| {
            k.view.result = Some(result.to_string());
            k.view.reason = Some(reason.to_string());
            k.view.game = game;
            k.view.thinking = None;
            k.search = None;
        });
    }

    /// The game of a board was stopped before its end: it leaves the broadcast (it is played
    /// again from the start).
    pub(crate) fn abandon(&self, round: u32, board: u32) {
        let mut s = self.lock();
        s.boards
            .retain(|k| !(k.view.round == round && k.view.board == board));
    }

    /// A watcher of one board's game, for the referee.
    pub(crate) fn watcher(&self, round: u32, board: u32) -> BoardWatch<'_> {
        BoardWatch {
            broadcast: self,
            round,
            board,
        }
    }
}

/// Follows one game for the broadcast ([`Watch`]).
pub(crate) struct BoardWatch<'a> {
    broadcast: &'a Broadcast,
    round: u32,
    board: u32,
}

impl Watch for BoardWatch<'_> {
    fn thinking(&self, side: Color, info: &SearchInfo, elapsed: Duration) {
        self.broadcast.with_board(self.round, self.board, |k| {
            k.asked = Instant::now()
                .checked_sub(elapsed)
                .unwrap_or_else(Instant::now);
            k.search = Some((side, info.clone()));
        });
    }

    fn moved(
        &self,
        mv: Move,
        san: &str,
        info: &SearchInfo,
        elapsed: Duration,
        clocks: [Duration; 2],
    ) {
        self.broadcast.with_board(self.round, self.board, |k| {
            let mover = k.position.turn();
            k.view.moves.push(LiveMove {
                san: san.to_string(),
                uci: mv.to_uci(CastlingMode::Chess960),
                score: info.score.map(|s| LiveScore::of(s, mover)),
                depth: info.depth,
                nodes: info.nodes,
                nps: nps(info),
                ms: ms(elapsed),
                pv: pv_san(&k.position, &info.pv),
                white_ms: ms(clocks[0]),
                black_ms: ms(clocks[1]),
            });
            k.position = k.position.play(mv);
            k.view.fen = k.position.fen();
            k.view.turn = k.position.turn().into();
            k.view.clocks = LiveClocks {
                white_ms: ms(clocks[0]),
                black_ms: ms(clocks[1]),
            };
            k.asked = Instant::now();
            k.search = None;
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chess960_core::StartId;

    fn begin(b: &Broadcast, round: u32, board: u32) {
        let start = StartId::new(518).unwrap().position();
        let clock = Duration::from_secs(60);
        b.begin(
            round,
            board,
            ["W", "B"],
            518,
            &start,
            "60".into(),
            [clock, clock],
        );
    }

    #[test]
    fn moves_and_searches_are_seen_from_whites_side() {
        let b = Broadcast::new();
        begin(&b, 1, 1);
        let w = b.watcher(1, 1);
        let start = StartId::new(518).unwrap().position();
        let e4 = start.parse_san("e4").unwrap();
        let info = SearchInfo {
            score: Some(Score::Cp(30)),
            depth: Some(9),
            nodes: Some(50_000),
            time_ms: Some(100),
            pv: vec!["e2e4".into(), "e7e5".into(), "zz".into(), "g1f3".into()],
            ..SearchInfo::default()
        };
        w.thinking(Color::White, &info, Duration::from_millis(100));
        let v = b.view();
        let t = v.boards[0].thinking.as_ref().unwrap();
        assert_eq!(
            (t.side, t.depth, t.nps),
            (LiveSide::White, Some(9), Some(500_000))
        );
        assert_eq!(
            t.pv,
            ["e4", "e5"],
            "the PV stops at its first unreadable move"
        );
        w.moved(
            e4,
            "e4",
            &info,
            Duration::from_millis(120),
            [clock_ms(59_880), clock_ms(60_000)],
        );
        // Black's engine thinks Black is worse: White's side sees it better for White.
        let black = SearchInfo {
            score: Some(Score::Cp(-45)),
            ..SearchInfo::default()
        };
        w.thinking(Color::Black, &black, Duration::from_millis(10));
        let v = b.view();
        let board = &v.boards[0];
        assert_eq!(board.moves.len(), 1);
        assert_eq!(board.moves[0].uci, "e2e4");
        assert_eq!(
            board.moves[0].score,
            Some(LiveScore {
                cp: Some(30),
                mate: None
            })
        );
        assert_eq!(board.turn, LiveSide::Black);
        assert_eq!(board.clocks.white_ms, 59_880);
        let t = board.thinking.as_ref().unwrap();
        assert_eq!(
            t.score,
            Some(LiveScore {
                cp: Some(45),
                mate: None
            })
        );
        assert_eq!(
            LiveScore::of(Score::Mate(3), Color::Black),
            LiveScore {
                cp: None,
                mate: Some(-3)
            }
        );
        b.finish(1, 1, "1-0", "White mates", Some("k".into()));
        let v = b.view();
        assert!(v.boards[0].thinking.is_none());
        assert_eq!(v.boards[0].result.as_deref(), Some("1-0"));
    }

    fn clock_ms(ms: u64) -> Duration {
        Duration::from_millis(ms)
    }

    #[test]
    fn a_new_round_clears_the_last_and_finished_games_are_bounded() {
        let b = Broadcast::new();
        for board in 1..=(MAX_FINISHED as u32 + 10) {
            begin(&b, 1, board);
            b.finish(1, board, "1/2-1/2", "draw", None);
        }
        begin(&b, 1, 999);
        let v = b.view();
        assert_eq!(v.boards.len(), MAX_FINISHED + 1);
        assert!(v
            .boards
            .iter()
            .any(|x| x.board == 999 && x.result.is_none()));
        assert!(
            !v.boards.iter().any(|x| x.board == 1),
            "the oldest finished game left"
        );
        // The round before stays in view, the one before that leaves.
        begin(&b, 2, 1);
        let v = b.view();
        assert_eq!(v.boards.len(), MAX_FINISHED + 2);
        assert_eq!(v.boards.last().map(|x| x.round), Some(2));
        begin(&b, 3, 1);
        let v = b.view();
        assert_eq!(v.boards.iter().map(|x| x.round).collect::<Vec<_>>(), [2, 3]);
        b.abandon(3, 1);
        assert_eq!(b.view().boards.len(), 1);
    }
}
