//! Who plays each colour of a game in the server: a person, through a seat (`seat.rs`), the
//! engine at a level, or a player who played the game outside the server. A game against the
//! engine has one of each of the first two; a game between two people has two seats, each
//! bound to its own token; a game the server did not create as one of its own (an engine
//! event's, an imported one) has two outside players.
//!
//! A logged-in player's seat is also bound to their account (`accounts`): from any browser
//! where they are logged in, their session's account acts for that colour as the seat's token
//! does from the browser that holds it.

use crate::game::seat::{Seat, SeatError};
use crate::game::{human_of, parse_level_tag, EventRef, DEFAULT_LEVEL, LEVEL_TAG};
use chess960_core::Color;
use chess960_engine::player::Level;
use chess960_round::record::ENGINE_NAME_PREFIX;
use chess960_store::{GamePlayers, NewGame, Seats, UserId};

/// Who plays one colour.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Side {
    /// A person, through this seat.
    Human(Seat),
    /// The engine, at this level.
    Engine(Level),
    /// A player who played outside the server, named in the game's `White` / `Black`: an
    /// engine of an engine event, a player of an imported game. Nobody moves for it through
    /// the server, and the engine never plays it.
    Outside {
        /// The game's `WhiteType` / `BlackType` tag says `program`: an engine played it.
        program: bool,
    },
}

/// Who plays each colour.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sides {
    /// White's player.
    pub white: Side,
    /// Black's player.
    pub black: Side,
    /// The players' accounts, and whether the game is rated.
    pub accounts: GamePlayers,
}

/// Who played a colour, as the game's `WhiteType` / `BlackType` tag says (the PGN
/// standard's values).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum PlayerType {
    /// `human`: a person.
    Human,
    /// `program`: an engine.
    Program,
}

impl PlayerType {
    /// The type of `tag` in `meta` (any case); `None` without the tag or with another value.
    fn of(meta: &NewGame, tag: &str) -> Option<PlayerType> {
        let (_, value) = meta.tags.iter().find(|(n, _)| n == tag)?;
        let value = value.trim();
        if value.eq_ignore_ascii_case("human") {
            Some(PlayerType::Human)
        } else if value.eq_ignore_ascii_case("program") {
            Some(PlayerType::Program)
        } else {
            None
        }
    }
}

/// True if `meta` is a game between a person and our engine, as the server and `chess960 play`
/// store one: not two programs, and either our engine's level tag or our engine's name on the
/// side that [`human_of`] does not give the person. A game stored without the type tags (an
/// old one of `chess960 play`) counts only outside an event: an engine event's games stored
/// before they carried the tags are between engines.
fn against_our_engine(meta: &NewGame, types: [Option<PlayerType>; 2]) -> bool {
    if types == [Some(PlayerType::Program); 2] {
        return false;
    }
    if meta.tags.iter().any(|(n, _)| n == LEVEL_TAG) {
        return true;
    }
    let ours = |name: &str| name.starts_with(ENGINE_NAME_PREFIX);
    let (person, engine) = match human_of(meta) {
        Color::White => (&meta.white, &meta.black),
        Color::Black => (&meta.black, &meta.white),
    };
    let named = ours(engine) && !ours(person);
    named && (types != [None, None] || EventRef::of(&meta.tags).is_none())
}

impl Sides {
    /// The sides of a game from its record and its stored seats: a person on both sides when
    /// both `WhiteType` and `BlackType` say `human`; a game against the engine when
    /// [`against_our_engine`] says so, the person on the colour [`human_of`] gives, the engine
    /// at the level of the `EngineLevel` tag (the default level without one); otherwise (two
    /// programs, a game imported from elsewhere) two [`Side::Outside`] players.
    /// `accounts` are the players' accounts the store bound to the game.
    pub fn of(meta: &NewGame, seats: &Seats, accounts: GamePlayers) -> Sides {
        let types = [
            PlayerType::of(meta, "WhiteType"),
            PlayerType::of(meta, "BlackType"),
        ];
        let seat = |c: Color| Side::Human(Seat::from_record(seats.get(c)));
        if types == [Some(PlayerType::Human); 2] {
            return Sides {
                white: seat(Color::White),
                black: seat(Color::Black),
                accounts,
            };
        }
        if !against_our_engine(meta, types) {
            let outside = |t: Option<PlayerType>| Side::Outside {
                program: t == Some(PlayerType::Program),
            };
            return Sides {
                white: outside(types[0]),
                black: outside(types[1]),
                accounts,
            };
        }
        let human = human_of(meta);
        let level = meta
            .tags
            .iter()
            .find(|(n, _)| n == LEVEL_TAG)
            .and_then(|(_, v)| parse_level_tag(v))
            .unwrap_or(DEFAULT_LEVEL);
        let mut sides = Sides {
            white: Side::Engine(level),
            black: Side::Engine(level),
            accounts,
        };
        *sides.get_mut(human) = seat(human);
        sides
    }

    /// The player of `color`.
    pub fn get(&self, color: Color) -> &Side {
        match color {
            Color::White => &self.white,
            Color::Black => &self.black,
        }
    }

    /// The player of `color`, to change.
    pub fn get_mut(&mut self, color: Color) -> &mut Side {
        match color {
            Color::White => &mut self.white,
            Color::Black => &mut self.black,
        }
    }

    /// The engine's level if the engine plays `color`.
    pub fn engine(&self, color: Color) -> Option<Level> {
        match self.get(color) {
            Side::Engine(level) => Some(*level),
            Side::Human(_) | Side::Outside { .. } => None,
        }
    }

    /// True if a person plays `color` through the server.
    pub fn is_human(&self, color: Color) -> bool {
        matches!(self.get(color), Side::Human(_))
    }

    /// In a game against the engine, the person's colour; `None` in a game between people.
    pub fn human(&self) -> Option<Color> {
        match (self.is_human(Color::White), self.is_human(Color::Black)) {
            (true, false) => Some(Color::White),
            (false, true) => Some(Color::Black),
            _ => None,
        }
    }

    /// In a game against the engine, the engine's level; `None` in a game between people.
    pub fn level(&self) -> Option<Level> {
        self.engine(Color::White).or(self.engine(Color::Black))
    }

    /// The colour whose seat `token` holds, or else whose player's account is `user`. The
    /// refusals say why: neither given, neither of a seat here, or a game nobody can play
    /// through the server (its `id` named for `chess960 play --resume`).
    pub fn seat_of(
        &self,
        token: Option<&str>,
        user: Option<UserId>,
        id: i64,
    ) -> Result<Color, SeatError> {
        let seat = |c: Color| match self.get(c) {
            Side::Human(seat) => Some(seat),
            Side::Engine(_) | Side::Outside { .. } => None,
        };
        let playable = Color::ALL
            .into_iter()
            .any(|c| matches!(seat(c), Some(Seat::Held { .. } | Seat::Open)));
        if !playable {
            return Err(SeatError::Unclaimed { id });
        }
        if token.is_none() && user.is_none() {
            return Err(SeatError::Missing);
        }
        let by_token = token.and_then(|token| {
            Color::ALL
                .into_iter()
                .find(|&c| seat(c).is_some_and(|s| s.holds(token)))
        });
        let by_account = || {
            let color = self.accounts.color_of(user?)?;
            matches!(seat(color), Some(Seat::Held { .. })).then_some(color)
        };
        by_token.or_else(by_account).ok_or(SeatError::Wrong)
    }

    /// The colour whose seat waits for its player, if one does.
    pub fn open_seat(&self) -> Option<Color> {
        Color::ALL
            .into_iter()
            .find(|&c| matches!(self.get(c), Side::Human(Seat::Open)))
    }

    /// True while a seat waits for its player.
    pub fn has_open_seat(&self) -> bool {
        self.open_seat().is_some()
    }

    /// True for two people at one device: both seats held by the same token. Every action is
    /// then the side to move's, and what one would ask the other (a draw, a takeback, a
    /// rematch) is agreed at once.
    pub fn hotseat(&self) -> bool {
        match (&self.white, &self.black) {
            (Side::Human(Seat::Held { hash: w }), Side::Human(Seat::Held { hash: b })) => w == b,
            _ => false,
        }
    }

    /// True if no more than one person has a part in the game: at most one seat token holds
    /// a seat (a game against the engine, two people at one device, a challenge nobody has
    /// joined). Such a game is its player's to delete; one between two people is not.
    pub fn one_person(&self) -> bool {
        let held: Vec<&String> = Color::ALL
            .into_iter()
            .filter_map(|c| match self.get(c) {
                Side::Human(Seat::Held { hash }) => Some(hash),
                _ => None,
            })
            .collect();
        held.windows(2).all(|w| w[0] == w[1])
    }

    /// True if some seat is held (the game was created through the server).
    pub fn has_seat(&self) -> bool {
        Color::ALL
            .into_iter()
            .any(|c| matches!(self.get(c), Side::Human(Seat::Held { .. })))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::seat::{hash, new_token};
    use chess960_store::SeatRecord;

    fn meta(white_type: &str, black_type: &str, level: Option<&str>) -> NewGame {
        let mut tags = vec![
            ("WhiteType".to_string(), white_type.to_string()),
            ("BlackType".to_string(), black_type.to_string()),
        ];
        if let Some(l) = level {
            tags.push((LEVEL_TAG.to_string(), l.to_string()));
        }
        NewGame {
            start_fen: chess960_core::StartId::new(518).unwrap().position().fen(),
            start_id: Some(518),
            white: "W".into(),
            black: "B".into(),
            time_control: None,
            clocks: None,
            tags,
        }
    }

    #[test]
    fn a_game_against_the_engine_has_one_seat() {
        let token = new_token().unwrap();
        let seats = Seats::one(Color::Black, hash(&token));
        let sides = Sides::of(
            &meta("program", "human", Some("depth 3")),
            &seats,
            GamePlayers::NONE,
        );
        assert_eq!(sides.white, Side::Engine(Level::Depth(3)));
        assert_eq!(sides.human(), Some(Color::Black));
        assert_eq!(sides.level(), Some(Level::Depth(3)));
        assert_eq!(sides.seat_of(Some(&token), None, 1), Ok(Color::Black));
        assert_eq!(sides.seat_of(None, None, 1), Err(SeatError::Missing));
        assert_eq!(sides.seat_of(Some("0000"), None, 1), Err(SeatError::Wrong));
        assert!(sides.has_seat());
        assert!(sides.one_person());
        // Without a level tag, the default level, when the program is named as our engine.
        let mut ours = meta("human", "program", None);
        ours.black = "chess960-engine 1500".into();
        let sides = Sides::of(&ours, &Seats::NONE, GamePlayers::NONE);
        assert_eq!(sides.engine(Color::Black), Some(DEFAULT_LEVEL));
        // Another program, with no level of ours: both played outside the server.
        let sides = Sides::of(
            &meta("human", "program", None),
            &Seats::NONE,
            GamePlayers::NONE,
        );
        assert_eq!(sides.white, Side::Outside { program: false });
        assert_eq!(sides.black, Side::Outside { program: true });
        assert_eq!((sides.human(), sides.level()), (None, None));
    }

    #[test]
    fn a_game_without_a_seat_is_refused_with_its_id() {
        let sides = Sides::of(
            &meta("human", "program", Some("elo 1500")),
            &Seats::NONE,
            GamePlayers::NONE,
        );
        assert!(!sides.has_seat());
        let token = new_token().unwrap();
        let refused = sides.seat_of(Some(&token), None, 7);
        assert_eq!(refused, Err(SeatError::Unclaimed { id: 7 }));
        assert!(refused
            .unwrap_err()
            .to_string()
            .contains("chess960 play --resume 7"));
    }

    #[test]
    fn two_people_each_hold_their_own_seat() {
        let (a, b) = (new_token().unwrap(), new_token().unwrap());
        let seats = Seats {
            white: SeatRecord::Held { hash: hash(&a) },
            black: SeatRecord::Held { hash: hash(&b) },
        };
        let sides = Sides::of(&meta("human", "Human", None), &seats, GamePlayers::NONE);
        assert_eq!(sides.human(), None);
        assert_eq!(sides.level(), None);
        assert!(!sides.one_person());
        assert_eq!(sides.seat_of(Some(&a), None, 1), Ok(Color::White));
        assert_eq!(sides.seat_of(Some(&b), None, 1), Ok(Color::Black));
        assert_eq!(
            sides.seat_of(Some(&new_token().unwrap()), None, 1),
            Err(SeatError::Wrong)
        );
        // A seat still open: only the holder of the other can act.
        let open = Seats {
            black: SeatRecord::Open,
            ..seats
        };
        let sides = Sides::of(&meta("human", "human", None), &open, GamePlayers::NONE);
        assert_eq!(sides.black, Side::Human(Seat::Open));
        assert_eq!(sides.open_seat(), Some(Color::Black));
        assert!(sides.one_person(), "nobody joined yet");
        assert_eq!(sides.seat_of(Some(&b), None, 1), Err(SeatError::Wrong));
        assert_eq!(sides.seat_of(Some(&a), None, 1), Ok(Color::White));
    }

    #[test]
    fn a_players_account_acts_for_their_seat() {
        let (a, b) = (new_token().unwrap(), new_token().unwrap());
        let seats = Seats {
            white: SeatRecord::Held { hash: hash(&a) },
            black: SeatRecord::Held { hash: hash(&b) },
        };
        let (ann, bob, eve) = (UserId(1), UserId(2), UserId(3));
        let accounts = GamePlayers {
            white: Some(ann),
            black: Some(bob),
            rated: None,
        };
        let sides = Sides::of(&meta("human", "human", None), &seats, accounts);
        assert_eq!(sides.seat_of(None, Some(ann), 1), Ok(Color::White));
        assert_eq!(sides.seat_of(None, Some(bob), 1), Ok(Color::Black));
        assert_eq!(sides.seat_of(None, Some(eve), 1), Err(SeatError::Wrong));
        // The token is asked first; a token of no seat here still leaves the account.
        assert_eq!(sides.seat_of(Some(&b), Some(ann), 1), Ok(Color::Black));
        assert_eq!(sides.seat_of(Some("0000"), Some(ann), 1), Ok(Color::White));
        assert_eq!(
            sides.seat_of(Some("0000"), Some(eve), 1),
            Err(SeatError::Wrong)
        );
        // An account bound to a seat nobody holds yet opens nothing.
        let open = Seats {
            black: SeatRecord::Open,
            ..seats
        };
        let sides = Sides::of(&meta("human", "human", None), &open, accounts);
        assert_eq!(sides.seat_of(None, Some(bob), 1), Err(SeatError::Wrong));
    }
}
