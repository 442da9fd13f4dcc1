//! Players' accounts in the game database: users, their sessions and the invitations to
//! register; the accounts of a game's players and their ratings (`crate::ratings`).
//!
//! - A **user** has a name, unique whatever its case ([`UserName::key`]), a password kept
//!   only as its hash ([`StoredHash`]), and may be the server's admin or disabled. Users are
//!   never deleted (their games name them): a disabled user cannot log in, and has no
//!   sessions.
//! - A **session** is kept by the SHA-256 of its id (the id itself is only in the player's
//!   cookie or configuration); it ends when its player logs out or ends it, when the user is
//!   disabled, or after [`rules::SESSION_IDLE_MS`] unused.
//! - An **invitation** lets one person register on a server that asks for one; it is kept by
//!   the SHA-256 of its code, used once, and expires.
//!
//! The decisions are `rules.rs`'s; the sequences below are written once, for every backend.

use crate::backend::{Backend, R};
use crate::ratings::{self, GamePlayers, GameRating, PlayerRating, RatingPoint};
use crate::rules;
use crate::sql::{Arg, Cells, Tx};
use crate::{write, GameId, GameKey, MoveRecord, NewGame, Seats, StoreError};
use chess960_core::Color;
use chess960_players::name::UserName;
use chess960_players::password::StoredHash;
use chess960_players::results::PlayedGame;
use chess960_players::speed::Speed;
use std::fmt;

/// A user's row number.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct UserId(pub i64);

impl fmt::Display for UserId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// A session's row number: how its player names it to end it (never its id or hash).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SessionId(pub i64);

/// A user as stored, without the password's hash ([`PlayerStore::login_record`] gives it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct User {
    /// The row number.
    pub id: UserId,
    /// The name, as its owner wrote it.
    pub name: UserName,
    /// The server's admin.
    pub admin: bool,
    /// Disabled: cannot log in.
    pub disabled: bool,
    /// When the user registered (Unix milliseconds).
    pub created_ms: i64,
}

/// A user's session, as the player sees it in the list of sessions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Session {
    /// The row number.
    pub id: SessionId,
    /// Whose it is.
    pub user: UserId,
    /// When it began (Unix milliseconds).
    pub created_ms: i64,
    /// When it was last used, to the minute ([`rules::SESSION_SEEN_STEP_MS`]).
    pub seen_ms: i64,
    /// The program that logged in, as it named itself (a browser's `User-Agent`, or
    /// `chess960 login`), at most [`rules::MAX_AGENT_CHARS`] characters.
    pub agent: String,
}

/// A user to register.
pub struct NewUser<'a> {
    /// The name.
    pub name: &'a UserName,
    /// The password's hash.
    pub password: &'a StoredHash,
    /// The server's admin.
    pub admin: bool,
    /// The SHA-256 (hex) of the invitation's code, on a server that asks for one.
    pub invite: Option<&'a str>,
}

/// Where players' accounts are kept. Every change is one transaction.
pub trait PlayerStore: Send + Sync {
    /// Registers a user, at `now_ms`. `Conflict` when the name is taken (whatever its case),
    /// or when `invite` is given and is no open invitation (unknown, used or expired); a
    /// refused registration uses no invitation.
    fn create_user(&self, new: &NewUser<'_>, now_ms: i64) -> R<User>;

    /// The user of this name (whatever its case).
    fn user_by_name(&self, name: &str) -> R<Option<User>>;

    /// The user of this id.
    fn user(&self, id: UserId) -> R<Option<User>>;

    /// Every user, in the order they registered.
    fn users(&self) -> R<Vec<User>>;

    /// The user of this name and the hash of their password, to check a login; `None` for
    /// an unknown or disabled user (who cannot log in, and is not told apart).
    fn login_record(&self, name: &str) -> R<Option<(User, StoredHash)>>;

    /// Changes a user's password; `NoSuchUser` when there is none.
    fn set_password(&self, id: UserId, hash: &StoredHash) -> R<()>;

    /// Disables a user (ending all their sessions in the same transaction) or enables them
    /// again; `NoSuchUser` when there is none.
    fn set_disabled(&self, id: UserId, disabled: bool) -> R<()>;

    /// Keeps an invitation by the SHA-256 (hex) of its code, open until `expires_ms`.
    fn create_invite(&self, hash: &str, now_ms: i64, expires_ms: i64) -> R<()>;

    /// Begins a session of `user`, kept by the SHA-256 (hex) of its id; `Conflict` for a
    /// disabled user, `NoSuchUser` for none.
    fn create_session(&self, user: UserId, hash: &str, agent: &str, now_ms: i64) -> R<SessionId>;

    /// The session kept by `hash` and its user, at `now_ms`: `None` when there is none, or
    /// it has not been used for [`rules::SESSION_IDLE_MS`] (then it is ended). Marks it
    /// used (at most once a [`rules::SESSION_SEEN_STEP_MS`], so that most requests only
    /// read).
    fn session(&self, hash: &str, now_ms: i64) -> R<Option<(User, Session)>>;

    /// A user's sessions, the most recently used first.
    fn sessions(&self, user: UserId) -> R<Vec<Session>>;

    /// Ends one of `user`'s sessions; whether there was one.
    fn end_session(&self, user: UserId, id: SessionId) -> R<bool>;

    /// Ends the session kept by `hash` (logging out); whether there was one.
    fn end_session_by_hash(&self, hash: &str) -> R<bool>;

    /// Ends all of `user`'s sessions but `except`; how many it ended.
    fn end_sessions(&self, user: UserId, except: Option<SessionId>) -> R<u64>;

    /// Binds players' accounts to game `id`, and makes it rated in a speed class or not
    /// (`crate::ratings`): before its first move only; a rated game between two different
    /// accounts (`Conflict` otherwise).
    fn bind_players(&self, id: GameId, players: GamePlayers) -> R<()>;

    /// The players' accounts of game `id`, and whether it is rated.
    fn game_players(&self, id: GameId) -> R<GamePlayers>;

    /// [`crate::GameStore::create_game_with_moves`] with its players' accounts bound
    /// ([`PlayerStore::bind_players`]), in one transaction: the game exists with its players,
    /// or nothing was stored.
    fn create_game_for(
        &self,
        game: &NewGame,
        moves: &[MoveRecord],
        seats: &Seats,
        players: GamePlayers,
    ) -> R<(GameId, GameKey)>;

    /// [`crate::GameStore::claim_seat`] by `user` (a guest: `None`), bound to the seat's colour
    /// in the same transaction. A rated game's seat is for an account other than the other
    /// player's (`Conflict` otherwise, and the seat stays open).
    fn claim_seat_for(
        &self,
        id: GameId,
        color: Color,
        hash: &str,
        name: &str,
        user: Option<UserId>,
    ) -> R<()>;

    /// `user`'s ratings as of `now_ms` (deviations widened for the time since their last
    /// rated game), fastest class first; a class without a rated game is left out.
    fn ratings(&self, user: UserId, now_ms: i64) -> R<Vec<PlayerRating>>;

    /// `user`'s rating history in `speed`, oldest first.
    fn rating_history(&self, user: UserId, speed: Speed) -> R<Vec<RatingPoint>>;

    /// The leaderboard of `speed`: the best-rated players as of `now_ms` (disabled accounts
    /// left out), at most `limit`, with their names as written, the highest rating first.
    fn leaderboard(&self, speed: Speed, now_ms: i64, limit: u32) -> R<Vec<(String, PlayerRating)>>;

    /// [`crate::GameStore::explore`] over `user`'s games only.
    fn explore_account(
        &self,
        pos: &chess960_core::Position,
        games: u32,
        user: UserId,
    ) -> R<crate::explorer::Explorer>;

    /// `user`'s latest finished games (at most `limit`, and [`crate::MAX_PLAYED`]), newest
    /// first, as their results per start position count them.
    fn played_games(&self, user: UserId, limit: u32) -> R<Vec<PlayedGame>>;

    /// The ratings in `speed` of game `id`'s players with accounts (`players`; `None` for a
    /// guest's colour), White's first: before the game and, once it was rated, after it.
    fn game_ratings(
        &self,
        id: GameId,
        players: GamePlayers,
        speed: Speed,
        now_ms: i64,
    ) -> R<[Option<GameRating>; 2]>;
}

/// The columns [`user_of`] reads, in its order.
const USER_COLUMNS: &str = "u.id, u.name, u.admin, u.disabled, u.created_ms";
/// The columns [`session_of`] reads, in its order.
const SESSION_COLUMNS: &str = "s.id, s.user_id, s.created_ms, s.seen_ms, s.agent";

/// A user from the row's columns `at..at + 5` ([`USER_COLUMNS`]).
fn user_of(r: &mut Cells, at: usize) -> R<User> {
    let (id, name) = (r.int(at)?, r.text(at + 1)?);
    Ok(User {
        id: UserId(id),
        name: name.parse().map_err(|e| StoreError::Corrupt {
            detail: format!("user {id}: the name '{name}': {e}"),
        })?,
        admin: r.int(at + 2)? != 0,
        disabled: r.int(at + 3)? != 0,
        created_ms: r.int(at + 4)?,
    })
}

/// A session from the row's columns `at..at + 5` ([`SESSION_COLUMNS`]).
fn session_of(r: &mut Cells, at: usize) -> R<Session> {
    Ok(Session {
        id: SessionId(r.int(at)?),
        user: UserId(r.int(at + 1)?),
        created_ms: r.int(at + 2)?,
        seen_ms: r.int(at + 3)?,
        agent: r.text(at + 4)?,
    })
}

/// The users `WHERE …` picks.
fn users_where(tx: &mut dyn Tx, cond: &str, args: &[Arg<'_>]) -> R<Vec<User>> {
    let sql = format!("SELECT {USER_COLUMNS} FROM users u {cond}");
    let rows = tx.query(&sql, args)?;
    rows.into_iter().map(|mut r| user_of(&mut r, 0)).collect()
}

/// A yes-or-no column's value (`SMALLINT` 0 or 1).
fn flag(yes: bool) -> Arg<'static> {
    Arg::Small(Some(i16::from(yes)))
}

fn no_user(id: UserId) -> StoreError {
    StoreError::NoSuchUser(format!("with id {id}"))
}

/// Deletes `user`'s sessions but `except`; how many.
fn delete_sessions(tx: &mut dyn Tx, user: UserId, except: Option<SessionId>) -> R<u64> {
    tx.exec(
        "DELETE FROM sessions WHERE user_id = $1 AND id <> $2",
        &[user.0.into(), except.map_or(-1, |s| s.0).into()],
    )
}

impl<B: Backend> PlayerStore for B {
    fn create_user(&self, new: &NewUser<'_>, now_ms: i64) -> R<User> {
        if let Some(hash) = new.invite {
            rules::check_token_hash(hash, "invitation")?;
        }
        let (name, key) = (new.name.as_str().to_string(), new.name.key());
        let (password, admin) = (new.password.as_str().to_string(), flag(new.admin));
        self.write(|tx| {
            if let Some(hash) = new.invite {
                // Taken before the user is written: two people with one invitation cannot
                // both register (the second finds it used), and a registration refused
                // below gives it back with the rest of the transaction.
                let taken = tx.exec(
                    "UPDATE invites SET used_ms = $2 WHERE hash = $1 AND used_ms IS NULL AND expires_ms > $2",
                    &[hash.into(), now_ms.into()],
                )?;
                if taken == 0 {
                    return Err(StoreError::Conflict(
                        "this invitation is unknown, used or expired".into(),
                    ));
                }
            }
            // One statement: of two registrations of one name at once, exactly one inserts.
            let row = tx.one(
                "INSERT INTO users (name, name_key, password, admin, disabled, created_ms)
                 VALUES ($1, $2, $3, $4, 0, $5)
                 ON CONFLICT (name_key) DO NOTHING RETURNING id",
                &[
                    name.as_str().into(),
                    key.as_str().into(),
                    password.as_str().into(),
                    admin,
                    now_ms.into(),
                ],
            )?;
            let Some(mut row) = row else {
                return Err(StoreError::Conflict(format!(
                    "the name {name} is taken (names are the same whatever their case)"
                )));
            };
            Ok(User {
                id: UserId(row.int(0)?),
                name: new.name.clone(),
                admin: new.admin,
                disabled: false,
                created_ms: now_ms,
            })
        })
    }

    fn user_by_name(&self, name: &str) -> R<Option<User>> {
        let key = name.trim().to_ascii_lowercase();
        let mut users =
            self.read(|tx| users_where(tx, "WHERE u.name_key = $1", &[key.as_str().into()]))?;
        Ok(users.pop())
    }

    fn user(&self, id: UserId) -> R<Option<User>> {
        let mut users = self.read(|tx| users_where(tx, "WHERE u.id = $1", &[id.0.into()]))?;
        Ok(users.pop())
    }

    fn users(&self) -> R<Vec<User>> {
        self.read(|tx| users_where(tx, "ORDER BY u.id", &[]))
    }

    fn login_record(&self, name: &str) -> R<Option<(User, StoredHash)>> {
        let key = name.trim().to_ascii_lowercase();
        let sql = format!(
            "SELECT {USER_COLUMNS}, u.password FROM users u WHERE u.name_key = $1 AND u.disabled = 0"
        );
        let row = self.read(|tx| tx.one(&sql, &[key.as_str().into()]))?;
        row.map(|mut r| Ok((user_of(&mut r, 0)?, StoredHash::from_stored(r.text(5)?))))
            .transpose()
    }

    fn set_password(&self, id: UserId, hash: &StoredHash) -> R<()> {
        let hash = hash.as_str().to_string();
        let n = self.write(|tx| {
            tx.exec(
                "UPDATE users SET password = $2 WHERE id = $1",
                &[id.0.into(), hash.as_str().into()],
            )
        })?;
        if n == 0 {
            return Err(no_user(id));
        }
        Ok(())
    }

    fn set_disabled(&self, id: UserId, disabled: bool) -> R<()> {
        self.write(|tx| {
            let n = tx.exec(
                "UPDATE users SET disabled = $2 WHERE id = $1",
                &[id.0.into(), flag(disabled)],
            )?;
            if n == 0 {
                return Err(no_user(id));
            }
            if disabled {
                delete_sessions(tx, id, None)?;
            }
            Ok(())
        })
    }

    fn create_invite(&self, hash: &str, now_ms: i64, expires_ms: i64) -> R<()> {
        rules::check_token_hash(hash, "invitation")?;
        self.write(|tx| {
            tx.exec(
                "INSERT INTO invites (hash, created_ms, expires_ms) VALUES ($1, $2, $3)",
                &[hash.into(), now_ms.into(), expires_ms.into()],
            )
            .map(drop)
        })
    }

    fn create_session(&self, user: UserId, hash: &str, agent: &str, now_ms: i64) -> R<SessionId> {
        rules::check_token_hash(hash, "session")?;
        let agent = rules::storable_agent(agent);
        self.write(|tx| {
            let row = tx.one("SELECT disabled FROM users WHERE id = $1", &[user.0.into()])?;
            let disabled = match row {
                None => return Err(no_user(user)),
                Some(mut r) => r.int(0)? != 0,
            };
            rules::check_session_begins(user, disabled)?;
            let mut row = tx
                .one(
                    "INSERT INTO sessions (hash, user_id, created_ms, seen_ms, agent)
                     VALUES ($1, $2, $3, $3, $4) RETURNING id",
                    &[
                        hash.into(),
                        user.0.into(),
                        now_ms.into(),
                        agent.as_str().into(),
                    ],
                )?
                .ok_or_else(|| {
                    StoreError::Backend("a session was inserted without an id".into())
                })?;
            Ok(SessionId(row.int(0)?))
        })
    }

    fn session(&self, hash: &str, now_ms: i64) -> R<Option<(User, Session)>> {
        if rules::check_token_hash(hash, "session").is_err() {
            return Ok(None);
        }
        let sql = format!(
            "SELECT {SESSION_COLUMNS}, {USER_COLUMNS} FROM sessions s
             JOIN users u ON u.id = s.user_id WHERE s.hash = $1"
        );
        let row = self.read(|tx| tx.one(&sql, &[hash.into()]))?;
        let Some(mut row) = row else {
            return Ok(None);
        };
        let (mut session, user) = (session_of(&mut row, 0)?, user_of(&mut row, 5)?);
        match rules::session_use(&session, user.disabled, now_ms) {
            rules::SessionUse::Ended => {
                self.write(|tx| {
                    tx.exec("DELETE FROM sessions WHERE id = $1", &[session.id.0.into()])
                })?;
                Ok(None)
            }
            rules::SessionUse::Touch => {
                self.write(|tx| {
                    tx.exec(
                        "UPDATE sessions SET seen_ms = $2 WHERE id = $1",
                        &[session.id.0.into(), now_ms.into()],
                    )
                })?;
                session.seen_ms = now_ms;
                Ok(Some((user, session)))
            }
            rules::SessionUse::Read => Ok(Some((user, session))),
        }
    }

    fn sessions(&self, user: UserId) -> R<Vec<Session>> {
        let sql = format!(
            "SELECT {SESSION_COLUMNS} FROM sessions s WHERE s.user_id = $1 ORDER BY s.seen_ms DESC, s.id DESC"
        );
        let rows = self.read(|tx| tx.query(&sql, &[user.0.into()]))?;
        rows.into_iter()
            .map(|mut r| session_of(&mut r, 0))
            .collect()
    }

    fn end_session(&self, user: UserId, id: SessionId) -> R<bool> {
        let n = self.write(|tx| {
            tx.exec(
                "DELETE FROM sessions WHERE id = $1 AND user_id = $2",
                &[id.0.into(), user.0.into()],
            )
        })?;
        Ok(n > 0)
    }

    fn end_session_by_hash(&self, hash: &str) -> R<bool> {
        if rules::check_token_hash(hash, "session").is_err() {
            return Ok(false);
        }
        let n = self.write(|tx| tx.exec("DELETE FROM sessions WHERE hash = $1", &[hash.into()]))?;
        Ok(n > 0)
    }

    fn end_sessions(&self, user: UserId, except: Option<SessionId>) -> R<u64> {
        self.write(|tx| delete_sessions(tx, user, except))
    }

    fn bind_players(&self, id: GameId, players: GamePlayers) -> R<()> {
        self.write(|tx| ratings::bind(tx, id, players))
    }

    fn create_game_for(
        &self,
        game: &NewGame,
        moves: &[MoveRecord],
        seats: &Seats,
        players: GamePlayers,
    ) -> R<(GameId, GameKey)> {
        let game = rules::storable_game(game).into_owned();
        rules::check_moves(&game.start_fen, moves)?;
        rules::plies_of(moves)?;
        rules::check_new_players(&players, moves.len())?;
        let (moves, seats) = (moves.to_vec(), seats.clone());
        self.write_played(move |tx| {
            let (id, key) = write::create(tx, &game, &moves, &seats)?;
            ratings::set_players(tx, id, players)?;
            Ok((id, key))
        })
    }

    fn claim_seat_for(
        &self,
        id: GameId,
        color: Color,
        hash: &str,
        name: &str,
        user: Option<UserId>,
    ) -> R<()> {
        rules::check_seat_hash(hash)?;
        let (hash, name) = (hash.to_owned(), rules::storable(name).into_owned());
        self.write_played(move |tx| {
            write::claim_seat(tx, id, color, &hash, &name)?;
            let mut players = ratings::players_of(tx, id)?;
            *players.get_mut(color) = user;
            rules::check_claim(id, &players, color)?;
            ratings::set_players(tx, id, players)
        })
    }

    fn leaderboard(&self, speed: Speed, now_ms: i64, limit: u32) -> R<Vec<(String, PlayerRating)>> {
        self.read(|tx| ratings::leaders(tx, speed, now_ms, limit))
    }

    fn explore_account(
        &self,
        pos: &chess960_core::Position,
        games: u32,
        user: UserId,
    ) -> R<crate::explorer::Explorer> {
        crate::explorer::explore_with(
            pos,
            games,
            |key| self.read(|tx| tx.index_counts(key, Some(user))),
            |key, limit| self.read(|tx| tx.position_games(key, limit, Some(user))),
        )
    }

    fn played_games(&self, user: UserId, limit: u32) -> R<Vec<PlayedGame>> {
        self.read(|tx| crate::played::played(tx, user, limit))
    }

    fn game_ratings(
        &self,
        id: GameId,
        players: GamePlayers,
        speed: Speed,
        now_ms: i64,
    ) -> R<[Option<GameRating>; 2]> {
        self.read(|tx| {
            let mut out = [None, None];
            for (slot, user) in out.iter_mut().zip([players.white, players.black]) {
                if let Some(user) = user {
                    *slot = Some(ratings::in_game(tx, user, speed, id, now_ms)?);
                }
            }
            Ok(out)
        })
    }

    fn game_players(&self, id: GameId) -> R<GamePlayers> {
        self.read(|tx| ratings::players_of(tx, id))
    }

    fn ratings(&self, user: UserId, now_ms: i64) -> R<Vec<PlayerRating>> {
        self.read(|tx| ratings::ratings(tx, user, now_ms))
    }

    fn rating_history(&self, user: UserId, speed: Speed) -> R<Vec<RatingPoint>> {
        self.read(|tx| ratings::history(tx, user, speed))
    }
}
