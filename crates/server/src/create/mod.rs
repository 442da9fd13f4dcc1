//! Creating a game, against the engine or between two people: what `POST /api/games` does once
//! its request is read and checked (`request.rs`). The game, the moves it starts with (from a PGN)
//! and its seats are written to the store in one transaction, then the game goes into memory
//! and starts (a game between people once its second player has joined, `round/join.rs`).

use crate::game::error::{GameError, GameResult};
use crate::game::placing::Placing;
use crate::game::ratings::Ratings;
use crate::game::seat;
use crate::game::sides::Sides;
use crate::game::{engine_game, people_game, GameView, Live, TimeControl};
use crate::registry::Games;
use crate::round::{blocking, ratings, RematchPlan};
use chess960_core::{Color, Game, Move, Position, StartId};
use chess960_engine::player::Level;
use chess960_players::speed::Speed;
use chess960_round::Event;
use chess960_store::players::User;
use chess960_store::{Finish, GameId, GamePlayers, NewGame};
use chess960_store::{GameKey, MoveRecord, SeatRecord, Seats};
use std::net::IpAddr;
use std::sync::Arc;
use std::time::Duration;

pub mod request;

/// A new game as asked for, already checked field by field.
pub struct NewGameSpec {
    /// The start position.
    pub start: Position,
    /// Moves already played from it (a PGN continued); legal ones, checked here again.
    pub moves: Vec<Move>,
    /// The creator's colour.
    pub human: Color,
    /// The creator's name.
    pub name: String,
    /// Who plays the other colour.
    pub opponent: Opponent,
    /// The time control, if the game is timed.
    pub tc: Option<TimeControl>,
    /// Time to look at the position before the clocks start.
    pub study: Duration,
    /// More PGN tags for the game (how its start was drawn, `drawn.rs`).
    pub tags: Vec<(String, String)>,
}

/// The `Site` tag of the games created here.
pub const SITE: &str = "chess960 serve";

/// The most challenges one address may have waiting for their second player at once.
pub const MAX_OPEN_CHALLENGES: usize = 20;

/// Who plays against the creator of a game, with what only that kind of game has.
pub enum Opponent {
    /// The engine, at this level.
    Engine(Level),
    /// A person, who takes the open seat by the game's link.
    Human {
        /// The challenge is listed in the lobby.
        listed: bool,
        /// The players place the start position once the game begins (Northam).
        placing: Option<Placing>,
        /// Rated: between two logged-in players (checked when the game is created and when
        /// it is joined).
        rated: bool,
    },
    /// A person at the same device: both seats are the creator's, the board is shared.
    Hotseat {
        /// The other player's name ([`HOTSEAT_OTHER`] when none is given).
        name: Option<String>,
        /// The players place the start position once the game begins (Northam).
        placing: Option<Placing>,
    },
}

/// The name of the other player at one device when none is given: what the new-game form's
/// box shows as its placeholder (the creator's own default is "Player").
pub const HOTSEAT_OTHER: &str = "Player 2";

impl Opponent {
    /// The placement of the start position the players make, if they make one.
    pub fn placing(&self) -> Option<&Placing> {
        match self {
            Opponent::Engine(_) => None,
            Opponent::Human { placing, .. } | Opponent::Hotseat { placing, .. } => placing.as_ref(),
        }
    }
}

/// Stores a new game with its moves, seats and players' accounts in one transaction: through
/// the store's players when an account is bound, else as a game of guests. The logged-in
/// players' ratings are read in the same blocking call.
pub(crate) async fn store_game(
    games: &Games,
    meta: &NewGame,
    records: &[MoveRecord],
    seats: &Seats,
    players: GamePlayers,
) -> GameResult<(GameId, GameKey, Ratings)> {
    let store = Arc::clone(&games.ctx().store);
    let (m, r, s) = (meta.clone(), records.to_vec(), seats.clone());
    let tc = m.time_control.as_deref().and_then(TimeControl::parse);
    blocking(move || {
        if players == GamePlayers::NONE {
            let (id, key) = store.create_game_with_moves(&m, &r, &s)?;
            return Ok((id, key, [None, None]));
        }
        let (id, key) = crate::accounts::players(&*store)?.create_game_for(&m, &r, &s, players)?;
        Ok((id, key, ratings::read(&*store, id, players, tc)))
    })
    .await
}

/// Creates the game for `client`, logged in as `account` or a guest, and starts it; the view
/// in the answer carries the seat token (the only time it is ever shown). A logged-in
/// player plays under their account's name, bound to their seat (except at one device, where
/// one person's account would hold both colours).
pub async fn create_game(
    games: &Games,
    mut spec: NewGameSpec,
    client: IpAddr,
    account: Option<&User>,
) -> GameResult<GameView> {
    if let Some(user) = account {
        spec.name = user.name.to_string();
    }
    // Held until the challenge is in memory (where it counts as open): the count and the
    // creation are one step.
    let _place = match spec.opponent {
        Opponent::Human { .. } => Some(games.reserve_challenge(client).ok_or(
            GameError::TooManyChallenges {
                max: MAX_OPEN_CHALLENGES,
            },
        )?),
        Opponent::Engine(_) | Opponent::Hotseat { .. } => None,
    };
    let start = spec.start;
    // The start's number only when the position is exactly that start position (and none yet
    // for a start the players are still to place).
    let start_id = StartId::of_board(start.board())
        .filter(|id| id.position() == start && spec.opponent.placing().is_none());
    let mut game = match start_id {
        Some(id) => Game::chess960(id),
        None => Game::from_position(start),
    };
    let mut records = Vec::with_capacity(spec.moves.len());
    for (i, &m) in spec.moves.iter().enumerate() {
        let pos = *game.position();
        game.play(m)
            .map_err(|e| GameError::BadStart(format!("start.pgn: move {}: {e}", i + 1)))?;
        records.push(MoveRecord::of(&pos, m, None, crate::game::now_ms()));
    }
    let token = seat::new_token()
        .map_err(|e| GameError::Worker(format!("no random numbers for a seat token: {e}")))?;
    let creator = SeatRecord::Held {
        hash: seat::hash(&token),
    };
    // The other seat: the engine's, open for the person who joins, or the creator's too at
    // one device.
    let hotseat = matches!(spec.opponent, Opponent::Hotseat { .. });
    let rated = matches!(spec.opponent, Opponent::Human { rated: true, .. });
    let (listed, placing, other_seat) = match &spec.opponent {
        Opponent::Engine(_) => (false, None, SeatRecord::None),
        Opponent::Human {
            listed, placing, ..
        } => (*listed, placing.clone(), SeatRecord::Open),
        Opponent::Hotseat { placing, .. } => (false, placing.clone(), creator.clone()),
    };
    let mut meta = match spec.opponent {
        Opponent::Engine(level) => engine_game(
            &start, start_id, spec.human, spec.name, level, spec.tc, SITE,
        ),
        Opponent::Human { .. } => {
            people_game(&start, start_id, spec.human, spec.name, spec.tc, SITE)
        }
        Opponent::Hotseat { name, .. } => {
            let other = name.unwrap_or_else(|| HOTSEAT_OTHER.into());
            let players = match spec.human {
                Color::White => (spec.name, other),
                Color::Black => (other, spec.name),
            };
            crate::game::people_pair(&start, start_id, players, spec.tc, SITE)
        }
    };
    meta.tags.extend(spec.tags);
    let mut seats = Seats::NONE;
    *seats.get_mut(spec.human) = creator;
    *seats.get_mut(!spec.human) = other_seat;
    let mut players = GamePlayers::NONE;
    if !hotseat {
        *players.get_mut(spec.human) = account.map(|u| u.id);
    }
    if rated {
        if account.is_none() {
            return Err(GameError::RatedNeedsAccount);
        }
        // The request was checked to have a clock.
        players.rated = spec.tc.map(|tc| Speed::of(tc.initial_ms, tc.increment_ms));
    }
    let (id, key, ratings) = store_game(games, &meta, &records, &seats, players).await?;
    // The PGN's moves were not played under this game's clocks.
    let sides = Sides::of(&meta, &seats, players);
    let mut live = Live::new(id, key, meta, game, records, sides, client);
    live.ratings = ratings;
    live.listed = listed;
    live.placing = placing;
    if let Some(o) = live.round.game().outcome() {
        // A PGN that ends in mate or stalemate: the game is over before it starts.
        let store = Arc::clone(&games.ctx().store);
        let f = Finish::of(o);
        let f2 = f.clone();
        blocking(move || store.finish_game(id, &f2)).await?;
        let now = live.now();
        live.commit(&[Event::Ended(f)], now);
    }
    let handle = games.insert(live).await?;
    let mut g = handle.lock().await;
    handle.begin(&mut g, Some(spec.study));
    let mut view = g.view(g.now());
    view.seat_token = Some(token);
    view.seat_color = Some(spec.human.into());
    Ok(view)
}

/// Creates the game of an agreed rematch (`round/rematch.rs`) and starts it; returns its key.
/// Both seats are held already, by the players' tokens of the old game.
pub async fn create_rematch(
    games: &Games,
    plan: RematchPlan,
    client: IpAddr,
) -> GameResult<GameKey> {
    let game = match plan.start_id {
        Some(id) => Game::chess960(id),
        None => Game::from_position(plan.start),
    };
    let (id, key, ratings) = store_game(games, &plan.meta, &[], &plan.seats, plan.players).await?;
    let sides = Sides::of(&plan.meta, &plan.seats, plan.players);
    let mut live = Live::new(id, key.clone(), plan.meta, game, Vec::new(), sides, client);
    live.ratings = ratings;
    let handle = games.insert(live).await?;
    let mut g = handle.lock().await;
    handle.begin(&mut g, None);
    Ok(key)
}

/// Creates a game whose two seats are held already (an event's board: each player has his own
/// token, and their accounts if they were entered by one, `tournaments.rs`) and starts it;
/// returns its key.
pub async fn create_seated(
    games: &Games,
    start: StartId,
    meta: chess960_store::NewGame,
    seats: Seats,
    accounts: GamePlayers,
    client: IpAddr,
) -> GameResult<GameKey> {
    let (id, key, ratings) = store_game(games, &meta, &[], &seats, accounts).await?;
    let sides = Sides::of(&meta, &seats, accounts);
    let game = Game::chess960(start);
    let mut live = Live::new(id, key.clone(), meta, game, Vec::new(), sides, client);
    live.ratings = ratings;
    let handle = games.insert(live).await?;
    let mut g = handle.lock().await;
    handle.begin(&mut g, None);
    Ok(key)
}
