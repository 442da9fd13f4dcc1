//! One game as the server holds it in memory: the rules state from `chess960-core`, the
//! moves as stored, both clocks, the phase (study, playing, finished), and the game view the
//! API returns. Everything here is synchronous and does no I/O; `round/` persists and
//! broadcasts.

use crate::pool::Ticket;
use crate::presence::Presence;
use crate::sides::Sides;
use chess960_core::{
    CastlingMode, CastlingSide, Color, Game, Move, Outcome, Position, Role, StartId, Termination,
};
use chess960_engine::player::Level;
use chess960_store::{Clocks, Finish, GameId, GameKey, MoveRecord, NewGame, Seats, StoredGame};
use serde::Serialize;
use std::net::{IpAddr, Ipv4Addr};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

/// PGN tag holding the engine's level (`elo 1500` or `depth 4`), so that a game loaded from the
/// store after a restart is played on at the same level.
pub const LEVEL_TAG: &str = "EngineLevel";

/// The engine's name as a player.
pub fn engine_name(level: Level) -> String {
    match level {
        Level::Elo(elo) => format!("chess960-engine {elo}"),
        Level::Depth(d) => format!("chess960-engine depth {d}"),
    }
}

/// The record of a new game between a person and the engine, as both `chess960 serve` and
/// `chess960 play` store it: players, time control, and the tags (`Variant`, `WhiteType` /
/// `BlackType`, [`LEVEL_TAG`]) from which either program can continue the game later.
pub fn engine_game(
    start: &Position,
    start_id: Option<StartId>,
    human: Color,
    human_name: String,
    level: Level,
    tc: Option<TimeControl>,
    site: &str,
) -> NewGame {
    let engine = engine_name(level);
    let (white, black) = match human {
        Color::White => (human_name, engine),
        Color::Black => (engine, human_name),
    };
    let kind = |c: Color| if c == human { "human" } else { "program" };
    let mut g = casual_game(start, start_id, (white, black), kind, tc, site);
    g.tags.push((LEVEL_TAG.into(), level_tag(level)));
    g
}

/// The record of a new game between two people created through the server: the creator plays
/// `creator` under `name`; the other side is `?` (PGN's unknown player) until its player joins.
pub fn people_game(
    start: &Position,
    start_id: Option<StartId>,
    creator: Color,
    name: String,
    tc: Option<TimeControl>,
    site: &str,
) -> NewGame {
    let players = match creator {
        Color::White => (name, "?".to_string()),
        Color::Black => ("?".to_string(), name),
    };
    people_pair(start, start_id, players, tc, site)
}

/// The record of a game between two people who both hold their seats already (a rematch).
pub fn people_pair(
    start: &Position,
    start_id: Option<StartId>,
    players: (String, String),
    tc: Option<TimeControl>,
    site: &str,
) -> NewGame {
    casual_game(start, start_id, players, |_| "human", tc, site)
}

/// What every new game's record has: the start, the players (White, Black), the time control,
/// and the tags of a casual Chess960 game with `kind` of each colour (`human` / `program`).
fn casual_game(
    start: &Position,
    start_id: Option<StartId>,
    (white, black): (String, String),
    kind: impl Fn(Color) -> &'static str,
    tc: Option<TimeControl>,
    site: &str,
) -> NewGame {
    NewGame {
        start_fen: start.fen(),
        start_id: start_id.map(StartId::get),
        white,
        black,
        time_control: tc.map(TimeControl::to_pgn),
        clocks: tc.map(TimeControl::initial),
        tags: vec![
            ("Event".into(), "Casual game".into()),
            ("Site".into(), site.into()),
            ("Date".into(), today()),
            ("Round".into(), "-".into()),
            // Every game here is Chess960, also from the classical arrangement 518.
            ("Variant".into(), "Chess960".into()),
            ("WhiteType".into(), kind(Color::White).into()),
            ("BlackType".into(), kind(Color::Black).into()),
        ],
    }
}

/// `elo 1500` / `depth 4`, the value of [`LEVEL_TAG`].
pub fn level_tag(level: Level) -> String {
    match level {
        Level::Elo(elo) => format!("elo {elo}"),
        Level::Depth(d) => format!("depth {d}"),
    }
}

/// Reads [`level_tag`]'s form back.
pub fn parse_level_tag(s: &str) -> Option<Level> {
    let (kind, n) = s.trim().split_once(' ')?;
    let n: u32 = n.trim().parse().ok()?;
    match kind {
        "elo" => Some(Level::Elo(n)),
        "depth" => Some(Level::Depth(n)),
        _ => None,
    }
}

/// A time control in milliseconds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, serde::Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct TimeControl {
    /// Each side's time at the start.
    pub initial_ms: u64,
    /// Added to the mover's clock after each move.
    pub increment_ms: u64,
}

impl TimeControl {
    /// The PGN `TimeControl` form: seconds, `300+3`; fractions of a second are written as
    /// decimals (`0.5+0`) so that the stored game keeps the exact control.
    pub fn to_pgn(self) -> String {
        format!(
            "{}+{}",
            seconds(self.initial_ms),
            seconds(self.increment_ms)
        )
    }

    /// Reads [`TimeControl::to_pgn`]'s form back (also a bare `300`).
    pub fn parse(s: &str) -> Option<TimeControl> {
        let (base, inc) = s.trim().split_once('+').unwrap_or((s.trim(), "0"));
        let ms = |t: &str| -> Option<u64> {
            let v: f64 = t.trim().parse().ok()?;
            (v.is_finite() && v >= 0.0).then(|| (v * 1000.0).round() as u64)
        };
        let initial_ms = ms(base)?;
        (initial_ms > 0).then_some(TimeControl {
            initial_ms,
            increment_ms: ms(inc)?,
        })
    }

    /// Both clocks at the start.
    pub fn initial(self) -> Clocks {
        Clocks {
            white_ms: self.initial_ms,
            black_ms: self.initial_ms,
        }
    }
}

fn seconds(ms: u64) -> String {
    if ms % 1000 == 0 {
        (ms / 1000).to_string()
    } else {
        let s = format!("{}.{:03}", ms / 1000, ms % 1000);
        s.trim_end_matches('0').to_string()
    }
}

/// Where a game stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// A game between people waiting for its second player to take the open seat; nothing
    /// moves, no clock runs.
    Open,
    /// The players look at the position; no clock runs until `until` (or `start`).
    Study { until: Instant },
    /// The players place their pieces in turn (Northam's placement, `placing.rs`); no move is
    /// played and no clock runs until the start position is complete.
    Placing,
    /// Being played (the clocks may still be stopped: see [`Live::paused`]).
    Playing,
}

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

/// A game in memory.
pub struct Live {
    pub id: GameId,
    pub key: GameKey,
    pub meta: NewGame,
    pub game: Game,
    pub records: Vec<MoveRecord>,
    pub finish: Option<Finish>,
    /// Who plays each colour.
    pub sides: Sides,
    pub tc: Option<TimeControl>,
    /// Remaining time, as of the moment the running clock started (timed games).
    clocks: Option<Clocks>,
    /// The clock that runs, and since when.
    running: Option<(Color, Instant)>,
    pub phase: Phase,
    /// Loaded from the store and not resumed yet: the clocks stay stopped and the engine does
    /// not think until a client of the game connects or acts (a game is never lost on time
    /// while nobody was there to play it).
    pub paused: bool,
    /// A move queued by a person for their next turn.
    pub premove: Option<Premove>,
    /// The side that offered a draw the other has not answered yet (games between people).
    pub draw_offer: Option<Color>,
    /// The side that asked to take its last move back, not answered yet (games between people).
    pub takeback_offer: Option<Color>,
    pub engine: Option<EngineJob>,
    /// The address of the client that acted on the game last: the engine's searches are
    /// queued in its name (the search pool is fair between clients).
    pub client: IpAddr,
    /// Counts every change of the position or the game's state; outstanding engine searches
    /// and timers compare it to see whether they are still current.
    pub generation: u64,
    /// The half-moves the game had when it began here (the moves of a PGN it was created
    /// from): the clocks start, and aborting ends, once both sides have moved after them.
    pub base_ply: usize,
    /// When the game is aborted for want of the player's first move ([`Live::rearm_abandon`]).
    pub abandon_at: Option<Instant>,
    /// How long the player has for their first move (`Capacity::abandon_after`).
    pub abandon_after: Duration,
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
    pub placing: Option<crate::placing::Placing>,
    /// When the game was created, milliseconds since the Unix epoch.
    pub created_ms: i64,
    /// Deleted from the store: nothing more happens to it.
    pub deleted: bool,
    /// The version of the game's state: it grows with every change the clients are told of
    /// ([`Live::bump`]), so that a client can drop a view older than one it has shown (an HTTP
    /// answer overtaken by a WebSocket event, or the other way round). It starts at the time
    /// the game was loaded, in microseconds since the Unix epoch, so that it also grows across
    /// unloading and reloading the game, and across restarts: each change takes longer than a
    /// microsecond, so a game never counts past the time of its next load.
    pub version: u64,
}

/// A move queued by the player of `color` for their next turn, as typed (its legality is
/// known only then).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Premove {
    /// Whose move it is.
    pub color: Color,
    /// The move as typed (UCI or SAN).
    pub text: String,
}

/// The phase of a game whose seats are `sides`: open while a seat waits for its player.
fn phase_of(sides: &Sides) -> Phase {
    if sides.has_open_seat() {
        Phase::Open
    } else {
        Phase::Playing
    }
}

/// The side that moved at half-move `ply` of a game starting with `first` to move.
pub fn mover(first: Color, ply: usize) -> Color {
    if ply % 2 == 0 {
        first
    } else {
        !first
    }
}

/// The colour's name in the API.
pub fn color_name(c: Color) -> &'static str {
    match c {
        Color::White => "white",
        Color::Black => "black",
    }
}

pub use chess960_pgn::date::today;

/// Milliseconds since the Unix epoch.
pub fn now_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64)
}

/// Reads a move as the API accepts it: UCI with castling as king onto rook (`e1h1`) or as the
/// king's destination (`e1g1`), or SAN including `O-O`, `O-O-O` and `0-0`.
pub fn parse_move(pos: &Position, text: &str) -> Result<Move, String> {
    pos.parse_typed_move(text).map_err(|e| e.to_string())
}

/// Which player is the human in a stored game: the `WhiteType`/`BlackType` tags
/// (`human`/`program`) when present, else the side whose name is not the engine's, else
/// White.
pub fn human_of(meta: &NewGame) -> Color {
    let tag = |name: &str| {
        meta.tags
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.to_ascii_lowercase())
    };
    match (tag("WhiteType").as_deref(), tag("BlackType").as_deref()) {
        (Some("human"), _) | (_, Some("program")) => Color::White,
        (_, Some("human")) | (Some("program"), _) => Color::Black,
        _ => {
            if meta.white.starts_with("chess960-engine")
                && !meta.black.starts_with("chess960-engine")
            {
                Color::Black
            } else {
                Color::White
            }
        }
    }
}

/// Whether a game read from the store starts paused: an unfinished game whose clocks would
/// run or whose engine would think, so that nothing happens to it until its player is back.
/// An untimed game waiting for the player's move has nothing to pause.
fn paused_on_load(finished: bool, timed: bool, engine_to_move: bool) -> bool {
    !finished && (timed || engine_to_move)
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

/// How long the player has for their first move before the game is aborted, unless the
/// server is told otherwise (`Capacity::abandon_after`).
pub const DEFAULT_ABANDON_AFTER: Duration = Duration::from_secs(300);

/// How long a player between people may be away before their opponent may claim the win or
/// a draw, unless the server is told otherwise (`Capacity::away_after`).
pub const DEFAULT_AWAY_AFTER: Duration = Duration::from_secs(30);

/// The default level for a stored game that does not record one.
pub const DEFAULT_LEVEL: Level = Level::Elo(1500);

impl Live {
    /// A new game, just stored with `seats` (`id` and `key` are the store's answer).
    pub fn new(
        id: GameId,
        key: GameKey,
        meta: NewGame,
        game: Game,
        seats: &Seats,
        client: IpAddr,
    ) -> Live {
        let tc = tc_of(&meta);
        let sides = Sides::of(&meta, seats);
        let phase = phase_of(&sides);
        Live {
            id,
            key,
            clocks: tc.map(TimeControl::initial),
            meta,
            game,
            records: Vec::new(),
            finish: None,
            sides,
            tc,
            running: None,
            phase,
            paused: false,
            premove: None,
            draw_offer: None,
            takeback_offer: None,
            engine: None,
            client,
            generation: 0,
            base_ply: 0,
            abandon_at: None,
            abandon_after: DEFAULT_ABANDON_AFTER,
            presence: Presence::new(Instant::now()),
            away_after: DEFAULT_AWAY_AFTER,
            rematch: Rematch::None,
            listed: false,
            placing: None,
            created_ms: now_ms(),
            deleted: false,
            version: first_version(),
        }
    }

    /// A game read back from the store. An unfinished game is paused (see [`Live::paused`])
    /// when pausing means something: its clocks would run, or the engine is to move. Fails if
    /// a stored move is not legal (a damaged database).
    ///
    /// A game unloaded from memory while idle ([`Live::unloadable`]) reads back to exactly the
    /// view it had.
    pub fn from_stored(stored: StoredGame) -> Result<Live, String> {
        let game = stored.replay().map_err(|e| e.to_string())?;
        let meta = stored.game;
        let tc = tc_of(&meta);
        let sides = Sides::of(&meta, &stored.seats);
        let phase = phase_of(&sides);
        // The clocks as stored with the last move, else as at the start.
        let clocks = tc.map(|tc| {
            stored
                .moves
                .last()
                .and_then(|r| r.clocks)
                .or(meta.clocks)
                .unwrap_or_else(|| tc.initial())
        });
        // A challenge still waits for its placement; a placement cut short by a restart is
        // not resumed (`placement_interrupted`).
        let placing = (phase == Phase::Open && stored.finish.is_none())
            .then(|| crate::placing::Placing::from_tags(&meta.tags))
            .flatten();
        let paused = phase == Phase::Playing
            && paused_on_load(
                stored.finish.is_some(),
                tc.is_some(),
                sides.engine(game.position().turn()).is_some(),
            );
        // The moves of the PGN the game was created from carry no clocks, unlike those played
        // here (timed games). An untimed game does not tell: all its moves count.
        let base_ply = if tc.is_some() {
            stored
                .moves
                .iter()
                .take_while(|r| r.clocks.is_none())
                .count()
        } else {
            0
        };
        Ok(Live {
            id: stored.id,
            key: stored.key,
            meta,
            game,
            records: stored.moves,
            finish: stored.finish,
            sides,
            tc,
            clocks,
            running: None,
            phase,
            paused,
            premove: None,
            draw_offer: None,
            takeback_offer: None,
            engine: None,
            // Until someone acts on it.
            client: IpAddr::V4(Ipv4Addr::LOCALHOST),
            generation: 0,
            base_ply,
            abandon_at: None,
            abandon_after: DEFAULT_ABANDON_AFTER,
            presence: Presence::new(Instant::now()),
            away_after: DEFAULT_AWAY_AFTER,
            rematch: Rematch::None,
            listed: false,
            placing,
            created_ms: stored.created_at_ms,
            deleted: false,
            version: first_version(),
        })
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
        self.game.position().turn()
    }

    /// Half-moves played.
    pub fn ply(&self) -> usize {
        self.game.moves().len()
    }

    /// True once the game has a result.
    pub fn finished(&self) -> bool {
        self.finish.is_some()
    }

    /// True while the game is played and not paused or in study time.
    pub fn active(&self) -> bool {
        !self.finished() && !self.deleted && !self.paused && self.phase == Phase::Playing
    }

    /// Half-moves played since the game began here (see [`Live::base_ply`]).
    pub fn moved_here(&self) -> usize {
        self.ply().saturating_sub(self.base_ply)
    }

    /// True once both sides have made their first move: as on lichess, no clock runs before
    /// that (a side's first move costs it no time and earns no increment).
    pub fn clocks_started(&self) -> bool {
        self.moved_here() >= 2
    }

    /// True while the game may be aborted: unfinished, and not both sides have moved yet.
    pub fn abortable(&self) -> bool {
        !self.finished() && !self.deleted && !self.clocks_started()
    }

    /// True once `color` has made a move since the game began here.
    fn moved(&self, color: Color) -> bool {
        let first = self.game.start().turn();
        (self.base_ply..self.ply()).any(|i| mover(first, i) == color)
    }

    /// True while the game waits for a person's first move: abortable, and a person who has
    /// not moved yet is to move (or the game is paused with nobody there).
    pub fn waits_for_first_move(&self) -> bool {
        let unmoved = |c: Color| self.sides.is_human(c) && !self.moved(c);
        self.abortable()
            && if self.paused {
                Color::ALL.into_iter().any(unmoved)
            } else {
                self.phase == Phase::Playing && unmoved(self.turn())
            }
    }

    /// Sets or clears the deadline of the human's first move: while the game waits for it
    /// ([`Live::waits_for_first_move`]), the game is aborted [`Live::abandon_after`] after it
    /// began waiting. A deadline already set is kept, so that looking at a game does not
    /// extend it.
    pub fn rearm_abandon(&mut self, now: Instant) {
        self.abandon_at = if self.waits_for_first_move() {
            Some(self.abandon_at.unwrap_or(now + self.abandon_after))
        } else {
            None
        };
    }

    /// True when the player's first move is overdue at `now`: the game is to be aborted.
    pub fn abandoned(&self, now: Instant) -> bool {
        self.abortable() && self.abandon_at.is_some_and(|at| now >= at)
    }

    /// Remaining time on both clocks at `now`.
    pub fn clocks_at(&self, now: Instant) -> Option<Clocks> {
        let mut c = self.clocks?;
        if let Some((color, since)) = self.running {
            let used = now.saturating_duration_since(since).as_millis() as u64;
            match color {
                Color::White => c.white_ms = c.white_ms.saturating_sub(used),
                Color::Black => c.black_ms = c.black_ms.saturating_sub(used),
            }
        }
        Some(c)
    }

    /// The clock that runs.
    pub fn running(&self) -> Option<Color> {
        self.running.map(|(c, _)| c)
    }

    /// When the running side's flag falls.
    pub fn flag_time(&self) -> Option<Instant> {
        let (color, since) = self.running?;
        let c = self.clocks?;
        let left = match color {
            Color::White => c.white_ms,
            Color::Black => c.black_ms,
        };
        Some(since + Duration::from_millis(left))
    }

    /// Stops the running clock, keeping the time used.
    pub fn stop_clock(&mut self, now: Instant) {
        self.clocks = self.clocks_at(now);
        self.running = None;
    }

    /// Starts the side to move's clock (timed games being played, once both sides have
    /// moved: [`Live::clocks_started`]).
    pub fn start_clock(&mut self, now: Instant) {
        self.stop_clock(now);
        if self.tc.is_some() && self.active() && self.clocks_started() {
            self.running = Some((self.turn(), now));
        }
    }

    /// The result if the running side's flag has fallen by `now`: a loss on time, or a draw
    /// when the opponent has no material to mate with (FIDE 6.9).
    pub fn flag_fall(&self, now: Instant) -> Option<Finish> {
        if self.finished() {
            return None;
        }
        let color = self.running()?;
        let c = self.clocks_at(now)?;
        let left = match color {
            Color::White => c.white_ms,
            Color::Black => c.black_ms,
        };
        if left > 0 {
            return None;
        }
        Some(Finish::of(Outcome::on_time(color, self.game.position())))
    }

    /// Ends the game with `finish` (already stored); the clocks stop and any search is
    /// stopped.
    pub fn set_finished(&mut self, finish: Finish, now: Instant) {
        self.stop_clock(now);
        self.finish = Some(finish);
        self.premove = None;
        self.draw_offer = None;
        self.takeback_offer = None;
        self.abandon_at = None;
        self.stop_engine();
        self.generation += 1;
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
        self.engine.is_none()
            && self.premove.is_none()
            && self.draw_offer.is_none()
            && self.takeback_offer.is_none()
            && self.running.is_none()
            // Waiting for the first move: it stays until it is played or the game is aborted,
            // so that no 0-move game is left unfinished in the store.
            && self.abandon_at.is_none()
            // An open challenge stays, so that the challenges of each address can be counted
            // (`registry.rs`, `Games::open_challenges`).
            && (self.phase == Phase::Playing || self.finished())
            && (self.finished()
                || self.paused
                    == (self.phase == Phase::Playing
                        && paused_on_load(
                            false,
                            self.tc.is_some(),
                            self.engine_to_move().is_some(),
                        )))
    }

    /// The record of `m` played by the side to move at `now`: SAN, and the clocks after it
    /// with the mover's time used taken off and the increment added (once the clocks run).
    pub fn record_for(&self, m: Move, now: Instant) -> MoveRecord {
        let pos = self.game.position();
        let clocks = self.clocks_at(now).map(|mut c| {
            let inc = if self.clocks_started() {
                self.tc.map_or(0, |t| t.increment_ms)
            } else {
                0
            };
            match pos.turn() {
                Color::White => c.white_ms += inc,
                Color::Black => c.black_ms += inc,
            }
            c
        });
        MoveRecord::of(pos, m, clocks, now_ms())
    }

    /// Applies a legal move already stored as `record`; the other side's clock starts.
    /// Returns the game's end if the move ended it by the rules (checkmate, stalemate,
    /// insufficient material, fivefold repetition, 75 moves), still to be stored.
    /// A move answers the offers: it declines the opponent's draw offer (the mover's own
    /// stands) and any takeback proposal.
    pub fn apply(&mut self, m: Move, record: MoveRecord, now: Instant) -> Option<Finish> {
        let mover = self.turn();
        if self.draw_offer.is_some_and(|c| c != mover) {
            self.draw_offer = None;
        }
        self.takeback_offer = None;
        self.game
            .play(m)
            .expect("the caller checked the move against the position");
        self.clocks = record.clocks.or(self.clocks);
        self.running = None;
        self.records.push(record);
        self.generation += 1;
        self.start_clock(now);
        // Each player's first move has its own deadline: between people, Black's counts from
        // White's first move, not from the start.
        self.abandon_at = None;
        self.rearm_abandon(now);
        self.game.outcome().map(Finish::of)
    }

    /// Takes moves back so that `plies` remain (already done in the store); the clocks are
    /// those after the last remaining move and the side to move's clock starts.
    pub fn truncate(&mut self, plies: usize, now: Instant) {
        while self.game.moves().len() > plies {
            self.game.undo();
        }
        self.records.truncate(plies);
        self.finish = None;
        self.premove = None;
        self.draw_offer = None;
        self.takeback_offer = None;
        self.stop_engine();
        self.generation += 1;
        if let Some(tc) = self.tc {
            self.clocks = Some(
                self.records
                    .last()
                    .and_then(|r| r.clocks)
                    .or(self.meta.clocks)
                    .unwrap_or_else(|| tc.initial()),
            );
        }
        self.running = None;
        self.start_clock(now);
        self.rearm_abandon(now);
    }

    /// The draw the human may claim now.
    pub fn draw_claim(&self) -> Option<Termination> {
        if self.finished() {
            None
        } else {
            self.game.claimable_draw()
        }
    }

    /// The game view at `now`.
    pub fn view(&self, now: Instant) -> GameView {
        let start_id = self.meta.start_id;
        GameView {
            key: self.key.to_string(),
            id: self.id.0,
            start_id,
            back_rank: start_id
                .and_then(|n| StartId::new(n.into()).ok())
                .map(|id| id.back_rank().to_string()),
            start_fen: self.game.start().fen(),
            start_castling: castling_view(self.game.start()),
            human: self.sides.human().map(ColorJson::from),
            level: self.sides.level().map(LevelJson::from),
            sides: SidesView::of(&self.sides),
            version: self.version,
            white: self.meta.white.clone(),
            black: self.meta.black.clone(),
            moves: self
                .records
                .iter()
                .zip(self.game.positions().iter().skip(1))
                .map(|(r, after)| move_view(r, after))
                .collect(),
            time_control: self.tc,
            drawn: crate::drawn::view_of(&self.meta.tags, start_id),
            draw_answer: DrawAnswer::default(),
            has_seat: self.sides.has_seat(),
            seat_token: None,
            seat_color: None,
            hotseat: self.sides.hotseat(),
            now: self.now_view(now),
        }
    }

    /// The last move as the view shows it, with the position after it.
    pub fn last_move_view(&self) -> Option<MoveView> {
        let r = self.records.last()?;
        Some(move_view(r, self.game.positions().last()?))
    }

    /// What a move or an action may change in the view, at `now`.
    pub fn now_view(&self, now: Instant) -> NowView {
        let pos = self.game.position();
        let status = if self.finished() {
            Status::Finished
        } else if self.phase == Phase::Open {
            Status::Waiting
        } else if self.phase == Phase::Placing {
            Status::Placing
        } else if matches!(self.phase, Phase::Study { .. }) {
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
        let last_move = self.game.moves().last().map(|m| LastMove {
            from: m.from().to_string(),
            to: m.to().to_string(),
        });
        NowView {
            fen: pos.fen(),
            turn: pos.turn().into(),
            clocks: self.clocks_at(now).map(|c| ClockView {
                white_ms: c.white_ms,
                black_ms: c.black_ms,
                running: self.running().map(ColorJson::from),
            }),
            status,
            result: self.finish.as_ref().map(|f| f.result.into()),
            reason: self.finish.as_ref().map(|f| f.reason.clone()),
            check: check_square(pos),
            castling: castling_view(pos),
            last_move,
            legal,
            draw_claim: self.draw_claim().map(chess960_store::reason_text),
            // Between people, a premove is its player's secret: the view every client gets
            // leaves it out (the answer to the premove request shows it, and protocol 2 sends
            // it to its player's sockets only).
            premove: self.public_premove(),
            draw_offered_by: self.draw_offer.map(ColorJson::from),
            takeback_proposed_by: self.takeback_offer.map(ColorJson::from),
            engine_thinking: self.engine.is_some(),
            engine_queue: self
                .engine
                .as_ref()
                .and_then(|j| j.ticket.place())
                .map(|p| EngineQueue {
                    ahead: p.ahead,
                    waited_ms: p.waited.as_millis() as u64,
                }),
            paused: self.paused && !self.finished(),
            study_ms: match self.phase {
                Phase::Study { until } if !self.finished() => {
                    Some(until.saturating_duration_since(now).as_millis() as u64)
                }
                _ => None,
            },
            abortable: self.abortable(),
            abandon_ms: self
                .abandon_at
                .map(|at| at.saturating_duration_since(now).as_millis() as u64),
            away: self.away_view(now),
            placement: self.placing.as_ref().map(|p| p.view(now)),
            listed: self.listed && self.phase == Phase::Open && !self.finished(),
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
        self.premove
            .as_ref()
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
                .any(|(n, _)| n == crate::placing::PENDING_TAG)
    }

    /// True for a game between two people.
    pub fn between_people(&self) -> bool {
        self.sides.is_human(Color::White) && self.sides.is_human(Color::Black)
    }

    /// True while being away counts: a game between people in play.
    pub fn presence_counts(&self) -> bool {
        self.between_people()
            && !self.sides.hotseat()
            && self.phase == Phase::Playing
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
pub struct NowPlaying {
    pub key: String,
    pub start_id: Option<u16>,
    pub white: String,
    pub black: String,
    pub sides: SidesView,
    pub turn: &'static str,
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
        if self.finished() || self.deleted || self.paused || self.phase == Phase::Open {
            return None;
        }
        Some(NowPlaying {
            key: self.key.to_string(),
            start_id: self.meta.start_id,
            white: self.meta.white.clone(),
            black: self.meta.black.clone(),
            sides: SidesView::of(&self.sides),
            turn: color_name(self.turn()),
            plies: self.ply(),
            clocks: self.clocks_at(now).map(|c| ClockView {
                white_ms: c.white_ms,
                black_ms: c.black_ms,
                running: self.running().map(ColorJson::from),
            }),
            last_ms: self.records.last().map_or(0, |r| r.played_at_ms),
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

/// The level in the API: `{"elo": 1500}` or `{"depth": 4}`.
#[derive(Serialize, Clone, Copy, Debug, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
#[cfg_attr(test, derive(ts_rs::TS))]
pub enum LevelJson {
    Elo(u32),
    Depth(u32),
}

impl From<Level> for LevelJson {
    fn from(l: Level) -> LevelJson {
        match l {
            Level::Elo(n) => LevelJson::Elo(n),
            Level::Depth(n) => LevelJson::Depth(n),
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
#[derive(Serialize, Clone, Debug, PartialEq, Eq)]
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
#[derive(Serialize, Clone, Copy, Debug, PartialEq, Eq)]
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
/// Protocol 2's `move` event (`round/events.rs`) carries the new move and a [`NowView`]
/// instead of the whole view.
#[derive(Serialize, Clone, Debug)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct GameView {
    pub key: String,
    pub id: i64,
    pub start_id: Option<u16>,
    pub back_rank: Option<String>,
    pub start_fen: String,
    /// The rooks that may castle in the start position.
    pub start_castling: CastlingView,
    /// In a game against the engine, the person's colour (`null` between two people).
    pub human: Option<ColorJson>,
    /// In a game against the engine, its level (`null` between two people).
    pub level: Option<LevelJson>,
    /// Who plays each colour.
    pub sides: SidesView,
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
    pub drawn: Option<crate::drawn::DrawnView>,
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
    pub fen: String,
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
    pub draw_claim: Option<&'static str>,
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
    pub placement: Option<crate::placing::PlacingView>,
    /// A challenge listed in the lobby (shown there while its creator has its page open).
    pub listed: bool,
    /// Between people, once the game is over: the side whose rematch offer waits for the
    /// other's answer.
    pub rematch_offered_by: Option<ColorJson>,
    /// The key of the rematch, once both agreed to it.
    pub rematch: Option<String>,
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
/// be played through the server).
#[derive(Serialize, Clone, Debug)]
#[serde(tag = "type", rename_all = "lowercase")]
#[cfg_attr(test, derive(ts_rs::TS))]
pub enum SideView {
    Engine { level: LevelJson },
    Human { seat: &'static str },
}

impl SidesView {
    /// Who plays each colour of `sides`.
    fn of(sides: &Sides) -> SidesView {
        SidesView {
            white: side_view(&sides.white),
            black: side_view(&sides.black),
        }
    }
}

fn side_view(side: &crate::sides::Side) -> SideView {
    use crate::seat::Seat;
    use crate::sides::Side;
    match side {
        Side::Engine(l) => SideView::Engine {
            level: LevelJson::from(*l),
        },
        Side::Human(seat) => SideView::Human {
            seat: match seat {
                Seat::Held { .. } => "held",
                Seat::Open => "open",
                Seat::Unclaimed => "none",
            },
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

    #[test]
    fn time_control_round_trip() {
        let tc = TimeControl {
            initial_ms: 300_000,
            increment_ms: 3000,
        };
        assert_eq!(tc.to_pgn(), "300+3");
        assert_eq!(TimeControl::parse("300+3"), Some(tc));
        let small = TimeControl {
            initial_ms: 1500,
            increment_ms: 250,
        };
        assert_eq!(small.to_pgn(), "1.5+0.25");
        assert_eq!(TimeControl::parse(&small.to_pgn()), Some(small));
        assert_eq!(TimeControl::parse("-"), None);
    }

    #[test]
    fn date_is_plausible() {
        let d = today();
        assert_eq!(d.len(), 10);
        assert!(d.starts_with("20"));
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
}
