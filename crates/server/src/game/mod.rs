//! One game as the server holds it in memory ([`Live`]): the referee's round
//! (`chess960-round`: position, moves, clocks, phase, offers, result) with what the server adds
//! (seats and sides, presence, rematch, the engine's search, the version), and the game view
//! the API returns. The files beside it hold the game's other parts: its seats (`seat.rs`,
//! `sides.rs`), who is here (`presence.rs`), Northam's placement (`placing.rs`), the drawn
//! start's record (`drawn.rs`), the players' ratings (`ratings.rs`) and why an action failed
//! (`error.rs`). Everything here is
//! synchronous and does no I/O; `round/` stores and broadcasts.

pub(crate) mod drawn;
pub(crate) mod error;
pub(crate) mod placing;
pub(crate) mod presence;
pub(crate) mod ratings;
pub(crate) mod seat;
pub(crate) mod sides;

use crate::game::presence::Presence;
use crate::game::ratings::{RatingView, Ratings};
use crate::game::sides::Sides;
use crate::pool::Ticket;
use chess960_core::{
    CastlingMode, CastlingSide, Color, Game, Move, Position, Role, StartId, Termination,
};
use chess960_engine::player::Level;
use chess960_players::speed::Speed;
use chess960_round::now::TimeSource;
use chess960_round::{paused_on_load, Event, Player, Round};
use chess960_store::{GameId, GameKey, MoveRecord, NewGame, StoredGame};
use serde::Serialize;
use std::net::{IpAddr, Ipv4Addr};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

pub use chess960_round::record::{
    engine_game, human_of, now_ms, parse_level_tag, people_game, people_pair, TimeControl,
    DEFAULT_LEVEL, LEVEL_TAG,
};
pub use chess960_round::{mover, Phase, DEFAULT_ABANDON_AFTER};

/// A rematch of a finished game between people: the same start position and time control,
/// colours swapped (`round/rematch.rs`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Rematch {
    /// Nobody asked for one.
    None,
    /// The player of this colour asked; the other has not answered.
    Offered(Color),
    /// Accepted: the new game is being created.
    Creating,
    /// The new game.
    Made(GameKey),
}

/// The engine's search in progress (waiting in the search pool, or running there).
pub struct EngineJob {
    /// The [`Live::generation`] it searches for; a result for another is thrown away.
    pub generation: u64,
    /// The search in the pool: cancels it, tells its place in the queue.
    pub ticket: Ticket,
}

/// A game in memory: the referee's round (`chess960-round`: the position, moves, clocks,
/// phase, offers, premove and result) and what the server adds around it (the store's names
/// for the game, its seats, the engine's search, presence, rematch, lobby, version).
pub struct Live {
    pub id: GameId,
    pub key: GameKey,
    pub meta: NewGame,
    /// The game and its rules.
    pub round: Round,
    /// Who plays each colour.
    pub sides: Sides,
    /// The logged-in players' ratings, as the view shows them (`ratings.rs`).
    pub ratings: Ratings,
    /// A listed challenge whose creator reads it over HTTP instead of holding a WebSocket
    /// open (the terminal's `play --seek`) stays in the lobby until then
    /// (`lobby::POLLED_FOR` after their last reading).
    pub polled_until: Option<Instant>,
    pub engine: Option<EngineJob>,
    /// The address of the client that acted on the game last: the engine's searches are
    /// queued in its name (the search pool is fair between clients).
    pub client: IpAddr,
    /// Counts every change of the position or the game's state; outstanding engine searches
    /// and timers compare it to see whether they are still current.
    pub generation: u64,
    /// Who of the players is here (games between people: `presence.rs`).
    pub presence: Presence,
    /// How long a player between people may be away before the opponent may end the game
    /// (`Capacity::away_after`).
    pub away_after: Duration,
    /// The rematch offered, or made, once a game between people is over (`round/rematch.rs`).
    pub rematch: Rematch,
    /// A challenge its creator listed in the lobby (`lobby/`); not stored.
    pub listed: bool,
    /// The start position the players are placing, until it is complete (`placing.rs`).
    pub placing: Option<crate::game::placing::Placing>,
    /// When the game was created, milliseconds since the Unix epoch.
    pub created_ms: i64,
    /// Deleted from the store: nothing more happens to it.
    pub deleted: bool,
    /// Where the game's clocks read the time (the server's: [`crate::round::Ctx::time`]).
    pub time: TimeSource,
    /// The version of the game's state: it grows with every change the clients are told of
    /// ([`Live::bump`]), so that a client can drop a view older than one it has shown (an HTTP
    /// answer overtaken by a WebSocket event, or the other way round). It starts at the time
    /// the game was loaded, in microseconds since the Unix epoch, so that it also grows across
    /// unloading and reloading the game, and across restarts: each change takes longer than a
    /// microsecond, so a game never counts past the time of its next load.
    pub version: u64,
}

/// What the rules need to know of the sides: a person, the engine, or a player outside.
fn players_of(sides: &Sides) -> [Player; 2] {
    use crate::game::sides::Side;
    let of = |c: Color| match sides.get(c) {
        Side::Human(_) => Player::Human,
        Side::Engine(_) => Player::Engine,
        Side::Outside { .. } => Player::Outside,
    };
    [of(Color::White), of(Color::Black)]
}

/// The colour's name in the API (in words and headers; a JSON field is a [`ColorJson`]).
pub fn color_name(c: Color) -> &'static str {
    ColorJson::from(c).name()
}

/// The time control of a game from its record.
fn tc_of(meta: &NewGame) -> Option<TimeControl> {
    meta.time_control.as_deref().and_then(TimeControl::parse)
}

/// The first [`Live::version`] of a game loaded now.
fn first_version() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_micros() as u64)
}

/// How long a player between people may be away before their opponent may claim the win or
/// a draw, unless the server is told otherwise (`Capacity::away_after`).
pub const DEFAULT_AWAY_AFTER: Duration = Duration::from_secs(30);

impl Live {
    /// A new game, just stored with the seats and accounts of `sides` (`id` and `key` are
    /// the store's answer); `records` are the moves of the PGN it starts from (not played
    /// under its clocks).
    pub fn new(
        id: GameId,
        key: GameKey,
        meta: NewGame,
        game: Game,
        records: Vec<MoveRecord>,
        sides: Sides,
        client: IpAddr,
    ) -> Live {
        let tc = tc_of(&meta);
        let phase = if sides.has_open_seat() {
            Phase::Open
        } else {
            Phase::Playing
        };
        let mut round = Round::new(game, records, tc, players_of(&sides), phase);
        if let Some(clocks) = meta
            .clocks
            .filter(|c| tc.is_some_and(|tc| tc.initial() != *c))
        {
            // Each side's own time (an event's Armageddon), as stored with the game.
            round = round.with_start_clocks(clocks);
        }
        Live {
            id,
            key,
            meta,
            round,
            sides,
            ratings: [None, None],
            polled_until: None,
            engine: None,
            client,
            generation: 0,
            presence: Presence::new(Instant::now()),
            away_after: DEFAULT_AWAY_AFTER,
            rematch: Rematch::None,
            listed: false,
            placing: None,
            created_ms: now_ms(),
            deleted: false,
            time: TimeSource::default(),
            version: first_version(),
        }
    }

    /// A game read back from the store. An unfinished game is paused ([`Phase::Paused`])
    /// when pausing means something: its clocks would run, or the engine is to move. Fails if
    /// a stored move is not legal (a damaged database).
    ///
    /// A game unloaded from memory while idle ([`Live::unloadable`]) reads back to exactly the
    /// view it had.
    pub fn from_stored(stored: StoredGame) -> Result<Live, String> {
        let game = stored.replay().map_err(|e| e.to_string())?;
        let meta = stored.game;
        let tc = tc_of(&meta);
        let sides = Sides::of(&meta, &stored.seats, stored.players);
        let open = sides.has_open_seat();
        // A challenge still waits for its placement; a placement cut short by a restart is
        // not resumed (`placement_interrupted`).
        let placing = (open && stored.finish.is_none())
            .then(|| crate::game::placing::Placing::from_tags(&meta.tags))
            .flatten();
        let round = Round::stored(
            game,
            stored.moves,
            stored.finish,
            tc,
            meta.clocks,
            players_of(&sides),
            open,
        )
        // A draw offer or takeback proposal made before the restart still stands.
        .with_offers(stored.offers);
        Ok(Live {
            id: stored.id,
            key: stored.key,
            meta,
            round,
            sides,
            ratings: [None, None],
            polled_until: None,
            engine: None,
            // Until someone acts on it.
            client: IpAddr::V4(Ipv4Addr::LOCALHOST),
            generation: 0,
            presence: Presence::new(Instant::now()),
            away_after: DEFAULT_AWAY_AFTER,
            rematch: Rematch::None,
            listed: false,
            placing,
            created_ms: stored.created_at_ms,
            deleted: false,
            time: TimeSource::default(),
            version: first_version(),
        })
    }

    /// The time now, as the game's clocks read it.
    pub fn now(&self) -> Instant {
        self.time.now()
    }

    /// The engine's level if it is to move.
    pub fn engine_to_move(&self) -> Option<Level> {
        self.sides.engine(self.turn())
    }

    /// Counts a change the clients are told of (see [`Live::version`]).
    pub fn bump(&mut self) {
        self.version += 1;
    }

    /// The side to move.
    pub fn turn(&self) -> Color {
        self.round.turn()
    }

    /// Half-moves played.
    pub fn ply(&self) -> usize {
        self.round.ply()
    }

    /// True once the game has a result.
    pub fn finished(&self) -> bool {
        self.round.finished()
    }

    /// True while the game is played and not paused or in study time.
    pub fn active(&self) -> bool {
        !self.deleted && self.round.active()
    }

    /// True while the game may be aborted: unfinished, and not both sides have moved yet.
    pub fn abortable(&self) -> bool {
        !self.deleted && self.round.abortable()
    }

    /// True while the game is paused ([`Phase::Paused`]) and not over.
    pub fn paused(&self) -> bool {
        self.round.phase() == Phase::Paused && !self.finished()
    }

    /// Applies what the referee decided (and the store holds): a change of the position or
    /// the game's state stops the engine's search that was for the old one.
    pub fn commit(&mut self, events: &[Event], now: Instant) {
        self.round.commit(events, now);
        let changes_position = events.iter().any(|e| {
            matches!(
                e,
                Event::Moved { .. } | Event::Ended(_) | Event::TookBack { .. }
            )
        });
        if events
            .iter()
            .any(|e| matches!(e, Event::Ended(_) | Event::TookBack { .. }))
        {
            self.stop_engine();
        }
        if changes_position {
            self.generation += 1;
        }
    }

    /// Stops the engine's search, if one waits or runs; its result will be ignored.
    pub fn stop_engine(&mut self) {
        if let Some(job) = self.engine.take() {
            job.ticket.cancel();
        }
    }

    /// True when the game may leave memory: nothing is pending in it (no search, no queued
    /// premove, no running clock, no study time), so that [`Live::from_stored`] gives back
    /// exactly this state. A game whose clock runs stays, so that its flag can fall on time.
    pub fn unloadable(&self) -> bool {
        let r = &self.round;
        self.engine.is_none()
            && r.premove().is_none()
            && r.draw_offer().is_none()
            && r.takeback_offer().is_none()
            && r.running().is_none()
            // Waiting for the first move: it stays until it is played or the game is aborted,
            // so that no 0-move game is left unfinished in the store.
            && r.abandon_at().is_none()
            // An open challenge stays, so that the challenges of each address can be counted
            // (`registry.rs`, `Games::open_challenges`), and so does a game in study time.
            && (self.finished()
                || r.phase()
                    == if paused_on_load(false, r.tc().is_some(), self.engine_to_move().is_some())
                    {
                        Phase::Paused
                    } else {
                        Phase::Playing
                    })
    }

    /// The game view at `now`.
    pub fn view(&self, now: Instant) -> GameView {
        let start_id = self.meta.start_id;
        let known = self.start_known();
        GameView {
            key: self.key.to_string(),
            id: self.id.0,
            start_id,
            back_rank: start_id
                .and_then(|n| StartId::new(n.into()).ok())
                .map(|id| id.back_rank().to_string()),
            // Until the players have placed it, the start is not known: no FEN stands for it
            // (the round holds the classical arrangement as a placeholder).
            start_fen: known.then(|| self.round.game().start().fen()),
            start_castling: if known {
                castling_view(self.round.game().start())
            } else {
                CastlingView::default()
            },
            human: self.sides.human().map(ColorJson::from),
            level: self.sides.level().map(LevelJson::from),
            sides: SidesView::of(&self.sides, &self.meta, &self.ratings),
            rated: self.sides.accounts.rated.map(Speed::name),
            version: self.version,
            white: self.meta.white.clone(),
            black: self.meta.black.clone(),
            moves: self
                .round
                .records()
                .iter()
                .zip(self.round.game().positions().iter().skip(1))
                .map(|(r, after)| move_view(r, after))
                .collect(),
            time_control: self.round.tc(),
            drawn: crate::game::drawn::view_of(&self.meta.tags, start_id),
            draw_answer: DrawAnswer::default(),
            has_seat: self.sides.has_seat(),
            seat_token: None,
            seat_color: None,
            hotseat: self.sides.hotseat(),
            event: EventRef::of(&self.meta.tags),
            now: self.now_view(now),
        }
    }

    /// False until the players have placed the start position (Northam's placement, while
    /// the challenge waits, while they place, and in a game aborted before they finished):
    /// the round's start is a placeholder then, which nothing may show or export.
    pub fn start_known(&self) -> bool {
        !self
            .meta
            .tags
            .iter()
            .any(|(n, _)| n == crate::game::placing::PENDING_TAG)
    }

    /// The last move as the view shows it, with the position after it.
    pub fn last_move_view(&self) -> Option<MoveView> {
        let r = self.round.records().last()?;
        Some(move_view(r, self.round.game().positions().last()?))
    }

    /// What a move or an action may change in the view, at `now`.
    pub fn now_view(&self, now: Instant) -> NowView {
        let pos = self.round.game().position();
        let status = if self.finished() {
            Status::Finished
        } else if self.round.phase() == Phase::Open {
            Status::Waiting
        } else if self.round.phase() == Phase::Placing {
            Status::Placing
        } else if matches!(self.round.phase(), Phase::Study { .. }) {
            Status::Study
        } else {
            Status::Playing
        };
        let human_turn = status == Status::Playing && self.sides.is_human(pos.turn());
        let legal = if human_turn {
            pos.legal_moves()
                .iter()
                .map(|&m| legal_move(pos, m))
                .collect()
        } else {
            Vec::new()
        };
        let last_move = self.round.game().moves().last().map(|m| LastMove {
            from: m.from().to_string(),
            to: m.to().to_string(),
        });
        let known = self.start_known();
        NowView {
            fen: known.then(|| pos.fen()),
            turn: pos.turn().into(),
            clocks: self.round.clocks_at(now).map(|c| ClockView {
                white_ms: c.white_ms,
                black_ms: c.black_ms,
                running: self.round.running().map(ColorJson::from),
            }),
            status,
            result: self.round.finish().map(|f| f.result.into()),
            reason: self.round.finish().map(|f| f.reason.clone()),
            check: check_square(pos),
            castling: if known {
                castling_view(pos)
            } else {
                CastlingView::default()
            },
            last_move,
            legal,
            draw_claim: self.round.draw_claim().and_then(DrawClaim::of),
            // Between people, a premove is its player's secret: the view every client gets
            // leaves it out (the answer to the premove request shows it, and protocol 2 sends
            // it to its player's sockets only).
            premove: self.public_premove(),
            draw_offered_by: self.round.draw_offer().map(ColorJson::from),
            takeback_proposed_by: self.round.takeback_offer().map(ColorJson::from),
            engine_thinking: self.engine.is_some(),
            engine_queue: self
                .engine
                .as_ref()
                .and_then(|j| j.ticket.place())
                .map(|p| EngineQueue {
                    ahead: p.ahead,
                    waited_ms: p.waited.as_millis() as u64,
                }),
            paused: self.paused(),
            study_ms: match self.round.phase() {
                Phase::Study { until } if !self.finished() => {
                    Some(until.saturating_duration_since(now).as_millis() as u64)
                }
                _ => None,
            },
            abortable: self.abortable(),
            abandon_ms: self
                .round
                .abandon_at()
                .map(|at| at.saturating_duration_since(now).as_millis() as u64),
            away: self.away_view(now),
            placement: self.placing.as_ref().map(|p| p.view(now)),
            listed: self.listed && self.round.phase() == Phase::Open && !self.finished(),
            rematch_offered_by: match self.rematch {
                Rematch::Offered(c) => Some(c.into()),
                _ => None,
            },
            rematch: match &self.rematch {
                Rematch::Made(key) => Some(key.to_string()),
                _ => None,
            },
        }
    }

    /// The premove as every client may see it: in a game against the engine only.
    pub fn public_premove(&self) -> Option<String> {
        self.round
            .premove()
            .filter(|_| self.sides.human().is_some())
            .map(|p| p.text.clone())
    }

    /// True for a game read back while its start was being placed (`placing.rs`): the
    /// placement was not stored, so it cannot go on.
    pub fn placement_interrupted(&self) -> bool {
        self.placing.is_none()
            && self.ply() == 0
            && self
                .meta
                .tags
                .iter()
                .any(|(n, _)| n == crate::game::placing::PENDING_TAG)
    }

    /// True for a game between two people.
    pub fn between_people(&self) -> bool {
        self.sides.is_human(Color::White) && self.sides.is_human(Color::Black)
    }

    /// True while being away counts: a game between people in play.
    pub fn presence_counts(&self) -> bool {
        self.between_people()
            && !self.sides.hotseat()
            && self.round.phase() == Phase::Playing
            && !self.finished()
            && !self.deleted
    }

    /// How long each player has been away, while that counts.
    fn away_view(&self, now: Instant) -> Option<AwayView> {
        let ms = |c| self.presence.away_for(c, now).map(|d| d.as_millis() as u64);
        self.presence_counts().then(|| AwayView {
            white_ms: ms(Color::White),
            black_ms: ms(Color::Black),
            claim_after_ms: self.away_after.as_millis() as u64,
        })
    }
}

/// How long each player of a game between people has been away (`null` while here), and
/// after how long away the opponent may claim the win or a draw (`POST …/force`).
#[derive(Serialize, Clone, Debug, PartialEq, Eq)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct AwayView {
    pub white_ms: Option<u64>,
    pub black_ms: Option<u64>,
    pub claim_after_ms: u64,
}

/// A game being played now, as `GET /api/games/now` lists it for spectators.
#[derive(Serialize, Clone, Debug)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct NowPlaying {
    pub key: String,
    pub start_id: Option<u16>,
    pub white: String,
    pub black: String,
    pub sides: SidesView,
    pub turn: ColorJson,
    /// Half-moves played.
    pub plies: usize,
    pub clocks: Option<ClockView>,
    /// When the last move was played (or the game created), milliseconds since the Unix epoch.
    #[serde(skip)]
    pub last_ms: i64,
}

impl Live {
    /// The game as a line of the list of games being played now; `None` unless it is being
    /// played (a challenge still open, a finished, deleted or paused game is not).
    pub fn now_playing(&self, now: Instant) -> Option<NowPlaying> {
        if self.finished() || self.deleted || self.paused() || self.round.phase() == Phase::Open {
            return None;
        }
        Some(NowPlaying {
            key: self.key.to_string(),
            start_id: self.meta.start_id,
            white: self.meta.white.clone(),
            black: self.meta.black.clone(),
            sides: SidesView::of(&self.sides, &self.meta, &self.ratings),
            turn: self.turn().into(),
            plies: self.ply(),
            clocks: self.round.clocks_at(now).map(|c| ClockView {
                white_ms: c.white_ms,
                black_ms: c.black_ms,
                running: self.round.running().map(ColorJson::from),
            }),
            last_ms: self.round.records().last().map_or(0, |r| r.played_at_ms),
        })
    }
}

/// The squares of the rooks that may still castle in `pos`, per side (from the position's
/// castling rights: the UI marks them without knowing the rules).
fn castling_view(pos: &Position) -> CastlingView {
    let rooks = |color: Color| -> Vec<String> {
        [CastlingSide::ASide, CastlingSide::HSide]
            .into_iter()
            .filter_map(|side| pos.castling_rook(color, side))
            .map(|sq| sq.to_string())
            .collect()
    };
    CastlingView {
        white: rooks(Color::White),
        black: rooks(Color::Black),
    }
}

/// The square of the king in check in `pos` (the side to move's), if it is in check.
fn check_square(pos: &Position) -> Option<String> {
    pos.is_check().then(|| pos.king_of(pos.turn()).to_string())
}

/// A legal move with what the board needs to show it, castling details included.
pub(crate) fn legal_move(pos: &Position, m: Move) -> LegalMove {
    let castle = m.castling_side().map(|side| {
        let color = pos.turn();
        let king_to = side.king_to(color);
        let king_files = m.from().file().index().abs_diff(king_to.file().index());
        CastleJson {
            side: match side {
                CastlingSide::HSide => "king",
                CastlingSide::ASide => "queen",
            },
            king_to: king_to.to_string(),
            rook_from: m.to().to_string(),
            rook_to: side.rook_to(color).to_string(),
            // Two or more files: a king drag to its destination cannot be a king step.
            king_destination_move: king_files >= 2,
            // One file: the king's part of the castle is a one-square step on the board.
            looks_like_king_step: king_files == 1,
        }
    });
    LegalMove {
        uci: m.to_uci(CastlingMode::Chess960),
        san: pos.san(m),
        from: m.from().to_string(),
        to: m.to().to_string(),
        promotion: m.promotion_role().map(|r: Role| r.lower_char().to_string()),
        castle,
    }
}

/// The level in the API: `{"elo": 1500}`, `{"depth": 4}` or `{"full": {"movetime_ms": 1000}}`
/// (full strength: no node cap, at most `movetime_ms` a move).
#[derive(Serialize, Clone, Copy, Debug, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
#[cfg_attr(test, derive(ts_rs::TS))]
pub enum LevelJson {
    Elo(u32),
    Depth(u32),
    Full { movetime_ms: u64 },
}

impl From<LevelJson> for Level {
    fn from(l: LevelJson) -> Level {
        match l {
            LevelJson::Elo(n) => Level::Elo(n),
            LevelJson::Depth(n) => Level::Depth(n),
            LevelJson::Full { movetime_ms } => Level::Full {
                movetime: Duration::from_millis(movetime_ms),
            },
        }
    }
}

impl From<Level> for LevelJson {
    fn from(l: Level) -> LevelJson {
        match l {
            Level::Elo(n) => LevelJson::Elo(n),
            Level::Depth(n) => LevelJson::Depth(n),
            Level::Full { movetime } => LevelJson::Full {
                movetime_ms: movetime.as_millis() as u64,
            },
        }
    }
}

/// Both clocks.
#[derive(Serialize, Clone, Copy, Debug)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct ClocksJson {
    pub white_ms: u64,
    pub black_ms: u64,
}

/// Both clocks and which runs.
#[derive(Serialize, Clone, Copy, Debug)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct ClockView {
    pub white_ms: u64,
    pub black_ms: u64,
    pub running: Option<ColorJson>,
}

/// A move of the game.
#[derive(Serialize, Clone, Debug)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct MoveView {
    pub uci: String,
    pub san: String,
    pub clocks: Option<ClocksJson>,
    /// The position after the move (X-FEN).
    pub fen: String,
    /// The square of the king in check after the move, if any.
    pub check: Option<String>,
    /// The rooks that may still castle after the move.
    pub castling: CastlingView,
}

/// The rooks that may still castle, by their squares: the a-side rook first.
#[derive(Serialize, Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct CastlingView {
    pub white: Vec<String>,
    pub black: Vec<String>,
}

/// The last move's squares.
#[derive(Serialize, Clone, Debug)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct LastMove {
    pub from: String,
    pub to: String,
}

/// Castling details of a legal move.
#[derive(Serialize, Clone, Debug)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct CastleJson {
    pub side: &'static str,
    pub king_to: String,
    pub rook_from: String,
    pub rook_to: String,
    pub king_destination_move: bool,
    pub looks_like_king_step: bool,
}

/// A legal move.
#[derive(Serialize, Clone, Debug)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct LegalMove {
    pub uci: String,
    pub san: String,
    pub from: String,
    pub to: String,
    pub promotion: Option<String>,
    pub castle: Option<CastleJson>,
}

/// A colour in the API: `"white"` or `"black"`.
#[derive(Serialize, serde::Deserialize, Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "lowercase")]
pub enum ColorJson {
    White,
    Black,
}

impl From<Color> for ColorJson {
    fn from(c: Color) -> ColorJson {
        match c {
            Color::White => ColorJson::White,
            Color::Black => ColorJson::Black,
        }
    }
}

impl ColorJson {
    /// `"white"` or `"black"`, as serialized.
    pub fn name(self) -> &'static str {
        match self {
            ColorJson::White => "white",
            ColorJson::Black => "black",
        }
    }
}

/// A draw the player may claim now (the rule's name as the store writes a game's reason).
#[derive(Serialize, Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub enum DrawClaim {
    /// The same position for the third time.
    #[serde(rename = "threefold repetition")]
    ThreefoldRepetition,
    /// Fifty moves by each side without a capture or a pawn move.
    #[serde(rename = "fifty-move rule")]
    FiftyMoves,
}

impl DrawClaim {
    /// The claim of the rule `t` (none for a rule that ends the game by itself).
    fn of(t: Termination) -> Option<DrawClaim> {
        match t {
            Termination::ThreefoldRepetition => Some(DrawClaim::ThreefoldRepetition),
            Termination::FiftyMoves => Some(DrawClaim::FiftyMoves),
            _ => None,
        }
    }
}

/// Where a game stands, in its view (docs/api.md, "Game view").
#[derive(Serialize, Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// A game between people whose second seat is still open.
    Waiting,
    /// The players place the start position (Northam).
    Placing,
    /// Study time before the clocks start.
    Study,
    Playing,
    Finished,
}

/// A game's result as PGN writes it.
#[derive(Serialize, Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub enum ResultJson {
    #[serde(rename = "1-0")]
    WhiteWins,
    #[serde(rename = "0-1")]
    BlackWins,
    #[serde(rename = "1/2-1/2")]
    Draw,
    /// No result: an aborted game.
    #[serde(rename = "*")]
    None,
}

impl From<chess960_core::GameResult> for ResultJson {
    fn from(r: chess960_core::GameResult) -> ResultJson {
        use chess960_core::GameResult as R;
        match r {
            R::WhiteWins => ResultJson::WhiteWins,
            R::BlackWins => ResultJson::BlackWins,
            R::Draw => ResultJson::Draw,
            R::Unknown => ResultJson::None,
        }
    }
}

/// A move as the view shows it: `r` as recorded, and the position `after` it.
fn move_view(r: &MoveRecord, after: &Position) -> MoveView {
    MoveView {
        uci: r.uci.clone(),
        san: r.san.clone(),
        clocks: r.clocks.map(|c| ClocksJson {
            white_ms: c.white_ms,
            black_ms: c.black_ms,
        }),
        fen: after.fen(),
        check: check_square(after),
        castling: castling_view(after),
    }
}

/// The game view (docs/api.md): what does not change with a move (the players, the start,
/// the time control), the moves, and [`NowView`], all that a move or an action may change.
/// Protocol 2's `move` event (`round/broadcast.rs`) carries the new move and a [`NowView`]
/// instead of the whole view.
#[derive(Serialize, Clone, Debug)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct GameView {
    pub key: String,
    pub id: i64,
    pub start_id: Option<u16>,
    pub back_rank: Option<String>,
    /// The start position (X-FEN); `null` while the players place it (Northam's placement:
    /// `placement` shows the back rank so far) and in a game aborted before they finished.
    pub start_fen: Option<String>,
    /// The rooks that may castle in the start position.
    pub start_castling: CastlingView,
    /// In a game against the engine, the person's colour (`null` between two people).
    pub human: Option<ColorJson>,
    /// In a game against the engine, its level (`null` between two people).
    pub level: Option<LevelJson>,
    /// Who plays each colour.
    pub sides: SidesView,
    /// The speed class of a rated game (`bullet`, `blitz`, `rapid`, `classical`); `null` for
    /// a casual one.
    #[cfg_attr(
        test,
        ts(type = "\"bullet\" | \"blitz\" | \"rapid\" | \"classical\" | null")
    )]
    pub rated: Option<&'static str>,
    /// The version of this state ([`Live::version`]): of two views of one game, the one with
    /// the higher version is the newer. Not in the JSON view (a game reloaded from the store
    /// gives the same view): HTTP answers carry it in the `X-Game-Version` header, events as
    /// their `version`.
    #[serde(skip)]
    pub version: u64,
    pub white: String,
    pub black: String,
    pub moves: Vec<MoveView>,
    pub time_control: Option<TimeControl>,
    /// How the start position was drawn at the board (`drawn.rs`), if it was.
    pub drawn: Option<crate::game::drawn::DrawnView>,
    /// The engine's answer to a draw offer, in the answer to that offer only.
    #[serde(flatten)]
    pub draw_answer: DrawAnswer,
    /// Whether the game has a seat token. Without one (created on the terminal, imported, or
    /// by a server older than seat tokens) it can only be watched through the server.
    pub has_seat: bool,
    /// The seat token, in the answer to `POST /api/games` and to `POST …/join` only: the
    /// secret that every action on the game needs (see `seat.rs`).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, ts(optional))]
    pub seat_token: Option<String>,
    /// The colour of that seat, with `seat_token`.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, ts(optional))]
    pub seat_color: Option<ColorJson>,
    /// Two people at one device (one seat token for both colours).
    pub hotseat: bool,
    /// The event (tournament) whose round made this game, if one did: its games are paired
    /// by the event, never replayed by a rematch.
    pub event: Option<EventRef>,
    /// The position, the clocks and the status: what a move or an action changes.
    #[serde(flatten)]
    pub now: NowView,
}

/// The engine's answer to a draw offer (`accepted`, `declined`) and why it declined (the same
/// words as on the terminal): in the answer to that offer only, in either protocol.
#[derive(Serialize, Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct DrawAnswer {
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, ts(optional))]
    pub draw_offer: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, ts(optional))]
    pub draw_offer_reason: Option<String>,
}

/// What a move or an action may change in a game's view: the position, the clocks, the
/// status and what is offered. Flattened into [`GameView`]; alone in protocol 2's `move`
/// event.
#[derive(Serialize, Clone, Debug)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct NowView {
    /// The current position (X-FEN); `null` until the start is known (as `start_fen`).
    pub fen: Option<String>,
    pub turn: ColorJson,
    pub clocks: Option<ClockView>,
    pub status: Status,
    pub result: Option<ResultJson>,
    pub reason: Option<String>,
    pub check: Option<String>,
    /// The rooks that may still castle (both sides), by square.
    pub castling: CastlingView,
    pub last_move: Option<LastMove>,
    pub legal: Vec<LegalMove>,
    pub draw_claim: Option<DrawClaim>,
    pub premove: Option<String>,
    /// Between people: the side whose draw offer waits for the other's answer.
    pub draw_offered_by: Option<ColorJson>,
    /// Between people: the side whose takeback proposal waits for the other's answer.
    pub takeback_proposed_by: Option<ColorJson>,
    pub engine_thinking: bool,
    /// While the engine's search waits for a free search thread (the server runs a bounded
    /// number at once): how many searches start before it, and how long it has waited.
    pub engine_queue: Option<EngineQueue>,
    /// Loaded after a restart and waiting for the player: the clocks are stopped.
    pub paused: bool,
    /// Study time left, while in study.
    pub study_ms: Option<u64>,
    /// Whether the game may be aborted now (`POST …/abort`): unfinished, and not both sides
    /// have moved yet (no clock has started).
    pub abortable: bool,
    /// While the game waits for the player's first move: the time left before it is aborted
    /// by itself.
    pub abandon_ms: Option<u64>,
    /// Between people, while the game is played: how long each player has been away.
    pub away: Option<AwayView>,
    /// The start position being placed by the players (Northam), until the game begins.
    pub placement: Option<crate::game::placing::PlacingView>,
    /// A challenge listed in the lobby (shown there while its creator has its page open).
    pub listed: bool,
    /// Between people, once the game is over: the side whose rematch offer waits for the
    /// other's answer.
    pub rematch_offered_by: Option<ColorJson>,
    /// The key of the rematch, once both agreed to it.
    pub rematch: Option<String>,
}

/// The event of a game made by an event's round (`POST /api/events/{key}/rounds/{r}/games`),
/// as its PGN tags name it: the event's name and `round.board`.
#[derive(Serialize, Clone, Debug, PartialEq, Eq)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct EventRef {
    /// The event's name (its `Event` tag).
    pub name: String,
    /// The round and board, `3.1` (its `Round` tag).
    pub round: String,
}

impl EventRef {
    /// The event of a game with the PGN tags `tags`: a `Round` tag `round.board` with an
    /// `Event` tag other than a casual game's. The last of each counts (an event's tags are
    /// added after the casual game's).
    pub fn of(tags: &[(String, String)]) -> Option<EventRef> {
        let last = |name: &str| {
            tags.iter()
                .rev()
                .find(|(n, _)| n == name)
                .map(|(_, v)| v.trim())
        };
        let round = last("Round")?;
        let number = |part: Option<&str>| {
            part.is_some_and(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()))
        };
        let mut parts = round.split('.');
        let paired = number(parts.next()) && number(parts.next()) && parts.next().is_none();
        let name = last("Event")?;
        (paired && !name.is_empty() && name != "Casual game" && name != "?").then(|| EventRef {
            name: name.to_string(),
            round: round.to_string(),
        })
    }
}

/// Who plays each colour, in the game view.
#[derive(Serialize, Clone, Debug)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct SidesView {
    pub white: SideView,
    pub black: SideView,
}

/// Who plays one colour: `{"type": "engine", "level": {"elo": 1500}}` or `{"type": "human",
/// "seat": "held"}` (`open` while the seat waits for its player, `none` for a game that cannot
/// be played through the server), with `"account": "name"` when a logged-in player holds it,
/// or `{"type": "outside", "program": true}` for a player from outside the server's own games
/// (an engine event's engine, which the event's director ran; a player of an imported game;
/// named in `white` / `black`).
#[derive(Serialize, Clone, Debug)]
#[serde(tag = "type", rename_all = "lowercase")]
#[cfg_attr(test, derive(ts_rs::TS))]
pub enum SideView {
    Engine {
        level: LevelJson,
    },
    Human {
        seat: &'static str,
        /// The player's account name (their page is `/@/name`); absent for a guest.
        #[serde(skip_serializing_if = "Option::is_none")]
        #[cfg_attr(test, ts(optional))]
        account: Option<String>,
        /// The account's rating in the game's speed class (none for a guest, or an untimed
        /// casual game).
        #[serde(skip_serializing_if = "Option::is_none")]
        #[cfg_attr(test, ts(optional))]
        rating: Option<RatingView>,
    },
    /// A player who played the game outside the server: nobody plays it here, and the engine
    /// never does. Its name is the game's `white` / `black`.
    Outside {
        /// True when the game's `WhiteType` / `BlackType` tag says `program` (an engine).
        program: bool,
    },
}

impl SidesView {
    /// Who plays each colour of `sides`, named as in `meta`, rated as `ratings` say.
    fn of(sides: &Sides, meta: &NewGame, ratings: &Ratings) -> SidesView {
        let view = |c: Color| {
            let (name, rating) = match c {
                Color::White => (&meta.white, ratings[0]),
                Color::Black => (&meta.black, ratings[1]),
            };
            let account = sides.accounts.get(c).map(|_| name.clone());
            side_view(sides.get(c), account, rating)
        };
        SidesView {
            white: view(Color::White),
            black: view(Color::Black),
        }
    }
}

fn side_view(
    side: &crate::game::sides::Side,
    account: Option<String>,
    rating: Option<RatingView>,
) -> SideView {
    use crate::game::seat::Seat;
    use crate::game::sides::Side;
    match side {
        Side::Engine(l) => SideView::Engine {
            level: LevelJson::from(*l),
        },
        Side::Outside { program } => SideView::Outside { program: *program },
        Side::Human(seat) => SideView::Human {
            seat: match seat {
                Seat::Held { .. } => "held",
                Seat::Open => "open",
                Seat::Unclaimed => "none",
            },
            rating: rating.filter(|_| account.is_some()),
            account,
        },
    }
}

/// The engine's search waiting in the search pool.
#[derive(Serialize, Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct EngineQueue {
    /// Searches that start before it.
    pub ahead: usize,
    /// How long it has waited, in milliseconds.
    pub waited_ms: u64,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Reads a move as the API does.
    fn parse_move(pos: &Position, text: &str) -> Result<Move, String> {
        pos.parse_typed_move(text).map_err(|e| e.to_string())
    }

    #[test]
    fn moves_in_every_form() {
        // Start 249: NRKBBQNR, king c1 and rook b1 side by side; with d1 cleared, O-O-O moves
        // only the rook (the king already stands on c1).
        let pos =
            Position::from_fen("nrk1bqnr/pppppppp/8/8/8/8/PPPPPPPP/NRK1BQNR w KQkq - 0 1").unwrap();
        let castle = parse_move(&pos, "c1b1").unwrap();
        assert!(castle.is_castle());
        assert_eq!(parse_move(&pos, "O-O-O").unwrap(), castle);
        assert_eq!(parse_move(&pos, "0-0-0").unwrap(), castle);
        let step = parse_move(&pos, "c1d1").unwrap();
        assert!(!step.is_castle());
        let view = legal_move(&pos, castle);
        let c = view.castle.unwrap();
        assert_eq!((c.king_to.as_str(), c.rook_to.as_str()), ("c1", "d1"));
        assert!(!c.king_destination_move && !c.looks_like_king_step);
        assert!(parse_move(&pos, "e2e5").is_err());
        assert!(parse_move(&pos, "hello").is_err());
    }

    #[test]
    fn an_event_game_is_known_by_its_event_and_round_tags() {
        let tags = |pairs: &[(&str, &str)]| -> Vec<(String, String)> {
            pairs
                .iter()
                .map(|(n, v)| (n.to_string(), v.to_string()))
                .collect()
        };
        // An event's round adds its tags after the casual game's.
        let event = tags(&[
            ("Event", "Casual game"),
            ("Round", "-"),
            ("Event", "Oslo Open"),
            ("Round", "3.2"),
        ]);
        assert_eq!(
            EventRef::of(&event),
            Some(EventRef {
                name: "Oslo Open".into(),
                round: "3.2".into()
            })
        );
        for casual in [
            tags(&[("Event", "Casual game"), ("Round", "-")]),
            tags(&[("Event", "Casual game"), ("Round", "1.1")]),
            tags(&[("Event", "Oslo Open"), ("Round", "3")]),
            tags(&[("Event", "Oslo Open"), ("Round", "3.x")]),
            tags(&[("Round", "3.1")]),
        ] {
            assert_eq!(EventRef::of(&casual), None, "{casual:?}");
        }
    }
}
