//! [`Round`]: one game's state and the rules of playing it, decided once for every program
//! that plays games (the server and the terminal).

use crate::clock::{side_mut, GameClock};
use crate::command::{Command, Event, ForceResult, MoveInput, Premove, RoundError};
use crate::record::{now_ms, TimeControl};
use chess960_core::{Color, Game, Move, Outcome, Termination};
use chess960_engine::player::PlayClock;
use chess960_store::{Clocks, Finish, MoveRecord, Offers};
use std::time::{Duration, Instant};

/// Where a game stands (its result aside: [`Round::finish`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// A game between people waiting for its second player to take the open seat; nothing
    /// moves, no clock runs.
    Open,
    /// The players place their pieces in turn (Northam's placement); no move is played and
    /// no clock runs until the start position is complete.
    Placing,
    /// The players look at the position; no clock runs until `until` (or a move, or `start`).
    Study {
        /// When the study time ends.
        until: Instant,
    },
    /// Being played.
    Playing,
    /// Read back from the store and not resumed yet: the clocks stay stopped and the engine
    /// does not think until a player is back (a game is never lost on time while nobody was
    /// there to play it).
    Paused,
}

/// Who plays a colour, as far as the rules care.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Player {
    /// A person.
    Human,
    /// The engine (it moves at once: nothing waits for its first move, and it answers draw
    /// offers and takebacks itself).
    Engine,
    /// A player who played outside the server (a game of an engine event, an imported
    /// game): nobody moves for it here, so nothing waits for its first move either (the game
    /// is never aborted for it).
    Outside,
}

/// How long a person has for their first move before the game is aborted, unless told
/// otherwise ([`Round::set_abandon_after`]).
pub const DEFAULT_ABANDON_AFTER: Duration = Duration::from_secs(300);

/// One game: the position and its moves as stored, the clocks (with lichess's first-move
/// rule: no clock runs before both sides have moved), the phase, the offers and the premove.
/// [`Round::decide`] judges a command once; [`Round::commit`] applies what it decided, after
/// the caller stored it.
#[derive(Clone, Debug)]
pub struct Round {
    game: Game,
    records: Vec<MoveRecord>,
    finish: Option<Finish>,
    tc: Option<TimeControl>,
    /// The clocks at the start as stored with the game, if any.
    start_clocks: Option<Clocks>,
    clock: GameClock,
    phase: Phase,
    players: [Player; 2],
    base_ply: usize,
    premove: Option<Premove>,
    /// The standing draw offer and takeback proposal, kept with the game by the caller
    /// ([`Round::offers_after`], [`Round::with_offers`]).
    offers: Offers,
    abandon_at: Option<Instant>,
    abandon_after: Duration,
}

impl Round {
    /// A new game at `game` (whose moves, if any, come from a PGN and were not played under
    /// this game's clocks: `records` are theirs), in `phase`.
    pub fn new(
        game: Game,
        records: Vec<MoveRecord>,
        tc: Option<TimeControl>,
        players: [Player; 2],
        phase: Phase,
    ) -> Round {
        let base_ply = records.len();
        Round {
            game,
            records,
            finish: None,
            tc,
            start_clocks: None,
            clock: GameClock::stopped(tc.map(TimeControl::initial)),
            phase,
            players,
            base_ply,
            premove: None,
            offers: Offers::NONE,
            abandon_at: None,
            abandon_after: DEFAULT_ABANDON_AFTER,
        }
    }

    /// The clocks at the start when they are not the time control's for both sides (an
    /// Armageddon's five minutes for White and four for Black): a timed game without a move.
    pub fn with_start_clocks(mut self, clocks: Clocks) -> Round {
        if self.tc.is_some() && self.records.is_empty() {
            self.start_clocks = Some(clocks);
            self.clock = GameClock::stopped(Some(clocks));
        }
        self
    }

    /// A game read back from the store: `game` replayed from `records`, `start_clocks` as
    /// stored with the game. Unless `open` (a seat waits for its player), an unfinished game
    /// whose clocks would run or whose engine would think is [`Phase::Paused`].
    pub fn stored(
        game: Game,
        records: Vec<MoveRecord>,
        finish: Option<Finish>,
        tc: Option<TimeControl>,
        start_clocks: Option<Clocks>,
        players: [Player; 2],
        open: bool,
    ) -> Round {
        // The moves of the PGN the game was created from carry no clocks, unlike those played
        // here (timed games). An untimed game does not tell: all its moves count.
        let base_ply = if tc.is_some() {
            records.iter().take_while(|r| r.clocks.is_none()).count()
        } else {
            0
        };
        let engine_to_move = players[game.position().turn() as usize] == Player::Engine;
        let phase = if open {
            Phase::Open
        } else if paused_on_load(finish.is_some(), tc.is_some(), engine_to_move) {
            Phase::Paused
        } else {
            Phase::Playing
        };
        let mut round = Round::new(game, records, tc, players, phase);
        round.finish = finish;
        round.start_clocks = start_clocks;
        round.clock = GameClock::stopped(round.stored_clocks());
        round.base_ply = base_ply;
        round
    }

    /// The offers standing in the game as stored with it (a game read back with
    /// [`Round::stored`]); a finished game keeps none.
    pub fn with_offers(mut self, offers: Offers) -> Round {
        if self.finish.is_none() {
            self.offers = offers;
        }
        self
    }

    /// How long a person has for their first move.
    pub fn set_abandon_after(&mut self, d: Duration) {
        self.abandon_after = d;
    }

    /// How long a person has for their first move.
    pub fn abandon_after(&self) -> Duration {
        self.abandon_after
    }

    /// The game (start, moves, position).
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The moves as stored.
    pub fn records(&self) -> &[MoveRecord] {
        &self.records
    }

    /// The result, once the game has one.
    pub fn finish(&self) -> Option<&Finish> {
        self.finish.as_ref()
    }

    /// The time control (`None`: untimed).
    pub fn tc(&self) -> Option<TimeControl> {
        self.tc
    }

    /// The phase.
    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// Who plays `color`.
    pub fn player(&self, color: Color) -> Player {
        self.players[color as usize]
    }

    /// The queued premove.
    pub fn premove(&self) -> Option<&Premove> {
        self.premove.as_ref()
    }

    /// The side whose draw offer waits for an answer.
    pub fn draw_offer(&self) -> Option<Color> {
        self.offers.draw
    }

    /// The side whose takeback proposal waits for an answer.
    pub fn takeback_offer(&self) -> Option<Color> {
        self.offers.takeback
    }

    /// Both standing offers.
    pub fn offers(&self) -> Offers {
        self.offers
    }

    /// The offers that will stand once `events` ([`Round::decide`]'s) are committed: what the
    /// caller stores with them, so that the stored offers are always the referee's.
    pub fn offers_after(&self, events: &[Event]) -> Offers {
        let mut offers = self.offers;
        let mut turn = self.turn();
        for e in events {
            offers = offers_on(offers, turn, e);
            match e {
                Event::Moved { .. } => turn = !turn,
                Event::TookBack { keep } => turn = mover(self.game.start().turn(), *keep),
                _ => {}
            }
        }
        offers
    }

    /// The half-moves the game had when it began here (those of a PGN it was created from).
    pub fn base_ply(&self) -> usize {
        self.base_ply
    }

    /// When the game is aborted for want of a person's first move.
    pub fn abandon_at(&self) -> Option<Instant> {
        self.abandon_at
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

    /// True while the game is played: unfinished, not paused, not in study time.
    pub fn active(&self) -> bool {
        !self.finished() && self.phase == Phase::Playing
    }

    /// Half-moves played since the game began here.
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
        !self.finished() && !self.clocks_started()
    }

    /// True once `color` has made a move since the game began here.
    fn moved(&self, color: Color) -> bool {
        let first = self.game.start().turn();
        (self.base_ply..self.ply()).any(|i| mover(first, i) == color)
    }

    /// True while the game waits for a person's first move: abortable, and a person who has
    /// not moved yet is to move (or the game is paused, with nobody there).
    pub fn waits_for_first_move(&self) -> bool {
        let unmoved = |c: Color| self.player(c) == Player::Human && !self.moved(c);
        self.abortable()
            && match self.phase {
                Phase::Paused => Color::ALL.into_iter().any(unmoved),
                Phase::Playing => unmoved(self.turn()),
                _ => false,
            }
    }

    /// Sets or clears the deadline of a person's first move: while the game waits for it, the
    /// game is aborted [`Round::abandon_after`] after it began waiting. A deadline already set
    /// is kept, so that looking at a game does not extend it.
    pub fn rearm_abandon(&mut self, now: Instant) {
        self.abandon_at = if self.waits_for_first_move() {
            Some(self.abandon_at.unwrap_or(now + self.abandon_after))
        } else {
            None
        };
    }

    /// True when a person's first move is overdue at `now`.
    pub fn abandoned(&self, now: Instant) -> bool {
        self.abortable() && self.abandon_at.is_some_and(|at| now >= at)
    }

    /// The time left on both clocks at `now` (timed games).
    pub fn clocks_at(&self, now: Instant) -> Option<Clocks> {
        self.clock.at(now)
    }

    /// The clock that runs.
    pub fn running(&self) -> Option<Color> {
        self.clock.running()
    }

    /// When the running side's flag falls.
    pub fn flag_time(&self) -> Option<Instant> {
        self.clock.flag_time()
    }

    /// The clock of `color` as the engine plays by it at `now`: the time left and the
    /// increment (timed games).
    pub fn play_clock(&self, color: Color, now: Instant) -> Option<PlayClock> {
        let (tc, c) = (self.tc?, self.clocks_at(now)?);
        Some(PlayClock {
            remaining: Duration::from_millis(crate::clock::side(&c, color)),
            increment: Duration::from_millis(tc.increment_ms),
        })
    }

    /// The draw a player may claim now.
    pub fn draw_claim(&self) -> Option<Termination> {
        if self.finished() {
            None
        } else {
            self.game.claimable_draw()
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
        if crate::clock::side(&c, color) > 0 {
            return None;
        }
        Some(Finish::of(Outcome::on_time(color, self.game.position())))
    }

    /// How many half-moves remain when `color`'s last move is taken back: refused after a game
    /// that did not end on the board, and when `color` has not moved.
    pub fn takeback_point(&self, color: Color) -> Result<usize, RoundError> {
        if let Some(f) = &self.finish {
            if self.game.outcome().is_none() {
                return Err(RoundError::TakebackAfter(f.reason.clone()));
            }
        }
        let first = self.game.start().turn();
        (0..self.ply())
            .rev()
            .find(|&i| mover(first, i) == color)
            .ok_or(RoundError::NothingToTakeBack)
    }

    // --- The lifecycle, as the caller's set-up drives it. ---

    /// The open seat is taken: the game can begin ([`Round::begin`]).
    pub fn seat_taken(&mut self) {
        if self.phase == Phase::Open {
            self.phase = Phase::Playing;
        }
    }

    /// Begins a game: the players place the start position first, or study it until `study`
    /// ends, or the clocks start now. A game over or waiting for its second player stays.
    pub fn begin(&mut self, placing: bool, study: Option<Duration>, now: Instant) {
        if self.finished() || self.phase == Phase::Open {
            return;
        }
        // The first move's deadline counts from the end of the study time.
        self.abandon_at = None;
        self.phase = if placing {
            Phase::Placing
        } else {
            match study {
                Some(d) if !d.is_zero() => Phase::Study { until: now + d },
                _ => Phase::Playing,
            }
        };
        if self.phase == Phase::Playing {
            self.start_clock(now);
            self.rearm_abandon(now);
        }
    }

    /// The placement is complete: the game is played from `game`'s start.
    pub fn placed(&mut self, game: Game, now: Instant) {
        self.game = game;
        self.phase = Phase::Playing;
        self.start_clock(now);
        self.rearm_abandon(now);
    }

    /// Ends study time or a pause: the clocks start (once both sides have moved). Returns
    /// whether anything changed.
    pub fn resume(&mut self, now: Instant) -> bool {
        if self.finished() || !matches!(self.phase, Phase::Paused | Phase::Study { .. }) {
            return false;
        }
        self.phase = Phase::Playing;
        self.start_clock(now);
        self.rearm_abandon(now);
        true
    }

    /// Stops everything that runs (the game was deleted): clocks, premove, deadline.
    pub fn halt(&mut self, now: Instant) {
        self.clock.stop(now);
        self.premove = None;
        self.abandon_at = None;
    }

    /// Starts the side to move's clock (a timed game being played, once both sides have
    /// moved).
    fn start_clock(&mut self, now: Instant) {
        self.clock.stop(now);
        if self.tc.is_some() && self.active() && self.clocks_started() {
            self.clock.start(self.turn(), now);
        }
    }

    // --- The referee. ---

    /// Judges `command` at `now` without changing anything: what happens, or why not. The
    /// caller stores the events (a move, the end) and then [`Round::commit`]s them.
    pub fn decide(&self, command: &Command, now: Instant) -> Result<Vec<Event>, RoundError> {
        match command {
            Command::Move { by, mv } => {
                self.over()?;
                self.waiting()?;
                if self.turn() != *by {
                    return Err(RoundError::NotYourTurn {
                        to_move: self.turn(),
                        engine: self.player(self.turn()) == Player::Engine,
                    });
                }
                let pos = self.game.position();
                let m = match mv {
                    MoveInput::Typed(text) => pos
                        .parse_typed_move(text)
                        .map_err(|e| RoundError::IllegalMove(e.to_string()))?,
                    MoveInput::Chosen(m) => {
                        if !pos.legal_moves().contains(m) {
                            return Err(RoundError::IllegalMove(format!(
                                "{} is not legal here",
                                m.to_uci(chess960_core::CastlingMode::Chess960)
                            )));
                        }
                        *m
                    }
                };
                Ok(self.move_events(m, now))
            }
            Command::Resign(by) => {
                self.over()?;
                self.waiting()?;
                Ok(vec![Event::Ended(Finish::of(Outcome::Win {
                    winner: !*by,
                    reason: Termination::Resignation,
                }))])
            }
            Command::Abort => {
                self.over()?;
                if !self.abortable() {
                    return Err(RoundError::NotAbortable);
                }
                Ok(vec![Event::Ended(Finish::aborted())])
            }
            Command::ClaimDraw => {
                self.over()?;
                let reason = self.draw_claim().ok_or(RoundError::NoDrawToClaim)?;
                Ok(vec![Event::Ended(Finish::of(Outcome::Draw { reason }))])
            }
            Command::OfferDraw(by) => {
                self.over()?;
                self.waiting()?;
                Ok(if self.offers.draw == Some(!*by) {
                    vec![agreed()]
                } else if self.offers.draw == Some(*by) {
                    Vec::new()
                } else {
                    vec![Event::DrawOffered(*by)]
                })
            }
            Command::AgreeDraw => {
                self.over()?;
                self.waiting()?;
                Ok(vec![agreed()])
            }
            Command::AnswerDraw { by, accept } => {
                self.over()?;
                if self.offers.draw != Some(!*by) {
                    return Err(RoundError::NoOffer { what: "draw offer" });
                }
                Ok(vec![if *accept {
                    agreed()
                } else {
                    Event::DrawDeclined
                }])
            }
            Command::ProposeTakeback(by) => {
                self.waiting()?;
                self.over()?;
                self.takeback_point(*by)?;
                Ok(if self.offers.takeback == Some(*by) {
                    Vec::new()
                } else {
                    vec![Event::TakebackProposed(*by)]
                })
            }
            Command::AnswerTakeback { by, accept } => {
                self.waiting()?;
                self.over()?;
                if self.offers.takeback != Some(!*by) {
                    return Err(RoundError::NoOffer {
                        what: "takeback proposal",
                    });
                }
                Ok(vec![if *accept {
                    Event::TookBack {
                        keep: self.takeback_point(!*by)?,
                    }
                } else {
                    Event::TakebackDeclined
                }])
            }
            Command::TakeBack(by) => {
                self.waiting()?;
                Ok(vec![Event::TookBack {
                    keep: self.takeback_point(*by)?,
                }])
            }
            Command::Forfeit { absent, claim } => {
                self.over()?;
                self.waiting()?;
                let reason = Termination::Abandonment;
                Ok(vec![Event::Ended(Finish::of(match claim {
                    ForceResult::Win => Outcome::Win {
                        winner: !*absent,
                        reason,
                    },
                    ForceResult::Draw => Outcome::Draw { reason },
                }))])
            }
            Command::Tick => Ok(if self.finished() {
                Vec::new()
            } else if let Some(f) = self.flag_fall(now) {
                vec![Event::Ended(f)]
            } else if self.abandoned(now) {
                vec![Event::Ended(Finish::aborted())]
            } else {
                Vec::new()
            }),
            Command::SetPremove { by, text } => {
                self.over()?;
                self.waiting()?;
                let text = text.trim();
                if !chess960_core::typed::looks_like_move(text) {
                    return Err(RoundError::IllegalMove(format!(
                        "'{}' is not a move in UCI (g1f3, e7e8q) or SAN (Nf3, O-O)",
                        text.chars().take(20).collect::<String>()
                    )));
                }
                if self.turn() == *by && self.phase == Phase::Playing {
                    return Err(RoundError::YourTurn);
                }
                Ok(vec![Event::PremoveSet(Premove {
                    color: *by,
                    text: text.to_string(),
                })])
            }
            Command::ClearPremove { by, clears } => {
                self.over()?;
                self.waiting()?;
                let mine = self.premove.as_ref().filter(|p| p.color == *by);
                let clear = match (mine, clears) {
                    (None, _) => false,
                    (Some(p), Some(c)) => p.text == c.trim(),
                    (Some(_), None) => true,
                };
                Ok(if clear {
                    vec![Event::PremoveCleared]
                } else {
                    Vec::new()
                })
            }
            Command::PlayPremove => {
                let due = self
                    .premove
                    .as_ref()
                    .filter(|p| self.active() && p.color == self.turn());
                let Some(p) = due else {
                    return Ok(Vec::new());
                };
                Ok(match self.game.position().parse_typed_move(&p.text) {
                    Ok(m) => self.move_events(m, now),
                    // Illegal now: dropped.
                    Err(_) => vec![Event::PremoveCleared],
                })
            }
        }
    }

    /// Applies events [`Round::decide`] gave (and the caller stored) at `now`.
    pub fn commit(&mut self, events: &[Event], now: Instant) {
        for e in events {
            // The offers follow the one rule that `offers_after` tells in advance.
            self.offers = offers_on(self.offers, self.turn(), e);
            match e {
                Event::Moved { mv, record } => self.play(*mv, record.clone(), now),
                Event::Ended(f) => {
                    self.clock.stop(now);
                    self.finish = Some(f.clone());
                    self.premove = None;
                    self.abandon_at = None;
                }
                Event::DrawOffered(_)
                | Event::DrawDeclined
                | Event::TakebackProposed(_)
                | Event::TakebackDeclined => {}
                Event::TookBack { keep } => self.truncate(*keep, now),
                Event::PremoveSet(p) => self.premove = Some(p.clone()),
                Event::PremoveCleared => self.premove = None,
            }
        }
    }

    /// [`Round::decide`], then [`Round::commit`]: for a caller with nothing to store first.
    pub fn apply(&mut self, command: &Command, now: Instant) -> Result<Vec<Event>, RoundError> {
        let events = self.decide(command, now)?;
        self.commit(&events, now);
        Ok(events)
    }

    /// The events of the side to move playing legal `m` at `now`: its record (the clocks after
    /// it, with the time used taken off and the increment added once the clocks run), and the
    /// end if the move ends the game by the rules.
    fn move_events(&self, m: Move, now: Instant) -> Vec<Event> {
        let pos = self.game.position();
        // Before both sides have moved no clock runs: the move costs nothing and earns no
        // increment. (A move in study time or in a paused game finds its clock stopped: it
        // costs nothing either.)
        let clocks = self.clock.at(now).map(|mut c| {
            if self.clocks_started() {
                *side_mut(&mut c, pos.turn()) += self.tc.map_or(0, |t| t.increment_ms);
            }
            c
        });
        let record = MoveRecord::of(pos, m, clocks, now_ms());
        let mut events = vec![Event::Moved { mv: m, record }];
        let mut after = self.game.clone();
        if after.play(m).is_ok() {
            if let Some(o) = after.outcome() {
                events.push(Event::Ended(Finish::of(o)));
            }
        }
        events
    }

    /// Plays a legal move stored as `record`; the other side's clock starts; it replaces the
    /// mover's premove. (What it does to the offers, [`offers_on`] tells, for `commit`.)
    fn play(&mut self, m: Move, record: MoveRecord, now: Instant) {
        // A move in study time or in a paused game begins it.
        self.resume(now);
        let mover = self.turn();
        if self.premove.as_ref().is_some_and(|p| p.color == mover) {
            self.premove = None;
        }
        if self.game.play(m).is_err() {
            // `decide` checked the move against this position.
            return;
        }
        self.clock.reset(record.clocks.or(self.clock.at(now)));
        self.records.push(record);
        self.start_clock(now);
        // Each player's first move has its own deadline: between people, Black's counts from
        // White's first move, not from the start.
        self.abandon_at = None;
        self.rearm_abandon(now);
    }

    /// Takes moves back so that `plies` remain: the clocks are those after the last remaining
    /// move and the side to move's clock starts.
    fn truncate(&mut self, plies: usize, now: Instant) {
        while self.game.moves().len() > plies {
            self.game.undo();
        }
        self.records.truncate(plies);
        self.finish = None;
        self.premove = None;
        self.phase = Phase::Playing;
        self.clock.reset(self.stored_clocks());
        self.start_clock(now);
        self.rearm_abandon(now);
    }

    /// The clocks as stored with the last move, else as at the start (timed games).
    fn stored_clocks(&self) -> Option<Clocks> {
        self.tc.map(|tc| {
            self.records
                .last()
                .and_then(|r| r.clocks)
                .or(self.start_clocks)
                .unwrap_or_else(|| tc.initial())
        })
    }

    /// Refuses anything on a finished game.
    fn over(&self) -> Result<(), RoundError> {
        match &self.finish {
            Some(f) => Err(RoundError::Over {
                result: f.result,
                reason: f.reason.clone(),
            }),
            None => Ok(()),
        }
    }

    /// Refuses playing a game whose second seat is open, or whose start is being placed.
    fn waiting(&self) -> Result<(), RoundError> {
        match self.phase {
            Phase::Open => Err(RoundError::WaitingForOpponent),
            Phase::Placing => Err(RoundError::StillPlacing),
            _ => Ok(()),
        }
    }
}

/// What `event` leaves of `offers`, `mover` being the side to move before it: a move declines
/// the opponent's draw offer (the mover's own stands) and answers any takeback proposal; a
/// takeback and the end answer every offer.
fn offers_on(offers: Offers, mover: Color, event: &Event) -> Offers {
    match event {
        Event::Moved { .. } => Offers {
            draw: offers.draw.filter(|&c| c == mover),
            takeback: None,
        },
        Event::TookBack { .. } | Event::Ended(_) => Offers::NONE,
        Event::DrawOffered(c) => Offers {
            draw: Some(*c),
            ..offers
        },
        Event::DrawDeclined => Offers {
            draw: None,
            ..offers
        },
        Event::TakebackProposed(c) => Offers {
            takeback: Some(*c),
            ..offers
        },
        Event::TakebackDeclined => Offers {
            takeback: None,
            ..offers
        },
        Event::PremoveSet(_) | Event::PremoveCleared => offers,
    }
}

/// A draw by agreement.
fn agreed() -> Event {
    Event::Ended(Finish::of(Outcome::Draw {
        reason: Termination::Agreement,
    }))
}

/// The side that moved at half-move `ply` of a game starting with `first` to move.
pub fn mover(first: Color, ply: usize) -> Color {
    if ply % 2 == 0 {
        first
    } else {
        !first
    }
}

/// Whether a game read from the store starts paused: an unfinished game whose clocks would
/// run or whose engine would think, so that nothing happens to it until its player is back.
/// An untimed game waiting for the player's move has nothing to pause.
pub fn paused_on_load(finished: bool, timed: bool, engine_to_move: bool) -> bool {
    !finished && (timed || engine_to_move)
}
