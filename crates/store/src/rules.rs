//! The rules every backend follows, in one place, so that SQLite and PostgreSQL agree by
//! construction (and the contract tests, run on both by `tests/common`'s `each_backend`, check
//! that they do):
//!
//! - **What a duplicate is**: [`game_hash`] over the canonical start, the main line, the
//!   players, the result and the identifying tags (docs/store.md).
//! - **What a stored game may become**: moves only at the next half-move of an unfinished
//!   game ([`check_append`]), takebacks only of moves that exist ([`check_truncate`]), one
//!   result per game ([`check_finish`]), a start position changed only before the first
//!   move ([`check_start_open`]), tags PGN can write ([`check_tag`]), seats given to a token's
//!   hash only ([`check_seat_hash`]); offers (a draw, a takeback: [`crate::Offers`]) stand
//!   only in an unfinished game ([`check_offers`]), and the end or a takeback takes them
//!   back (the statements of `crate::sql` that record them clear the offers too).
//! - **What a game with moves is**: legal moves from its start, in Chess960 UCI with their
//!   SAN ([`check_moves`]).
//! - **Who plays a rated game**: two different accounts, bound before the first move
//!   ([`check_bind`]); a finished rated game is never reopened ([`check_reopen`]), so that a
//!   rating changes once per game.
//! - **What an account's session is**: kept by a token's hash only ([`check_token_hash`]),
//!   begun only for an enabled user ([`check_session_begins`]), ended when unused for
//!   [`SESSION_IDLE_MS`] or when its user is disabled ([`session_use`]).
//!
//! The store's write sequences (`crate::write`, the same for every backend) read the game's
//! [`GameState`] inside the write transaction, ask these functions, and write only when they
//! agree: the checks and the write see the same snapshot, and a refused change leaves
//! nothing behind.

use crate::{
    Finish, GameId, GameResult, ImportGame, MoveRecord, NewGame, Offers, StoreError, ABORTED,
};
use chess960_core::{CastlingMode, Position};
use std::borrow::Cow;

/// What the rules need to know of a stored game before changing it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameState {
    /// Half-moves stored.
    pub plies: u32,
    /// The stored result (`*` while unfinished, and for an aborted game).
    pub result: GameResult,
    /// The stored reason (`None` while unfinished).
    pub reason: Option<String>,
}

impl GameState {
    /// True once the game has a result or was aborted ([`Finish::aborted`]).
    pub fn is_over(&self) -> bool {
        self.result.is_decided() || self.reason.as_deref() == Some(ABORTED)
    }
}

/// A start position number must be one of the 960 (`None`: a FEN start).
pub fn check_start_id(start_id: Option<u16>) -> Result<(), StoreError> {
    match start_id {
        Some(n) if n > 959 => Err(StoreError::Conflict(format!(
            "start position ID {n} is not in 0..959"
        ))),
        _ => Ok(()),
    }
}

/// The number of half-moves of `moves`, as stored.
pub fn plies_of(moves: &[MoveRecord]) -> Result<u32, StoreError> {
    u32::try_from(moves.len())
        .map_err(|_| StoreError::Conflict(format!("{} moves are too many", moves.len())))
}

/// Offers stand only in a game being played: a finished game has none (its end answered them),
/// so setting one there is refused; taking none back is always allowed (it changes nothing).
pub fn check_offers(id: GameId, s: &GameState, offers: Offers) -> Result<(), StoreError> {
    if s.is_over() && !offers.is_none() {
        return Err(StoreError::Conflict(format!(
            "game {id} is finished; no offer can stand in it"
        )));
    }
    Ok(())
}

/// A move may be added at half-move `ply` only to an unfinished game with exactly `ply`
/// moves: a second process or a replayed request that is one move behind is refused, not
/// written twice.
pub fn check_append(id: GameId, s: &GameState, ply: u32) -> Result<(), StoreError> {
    if s.is_over() {
        let what = if s.result.is_decided() {
            s.result.as_str()
        } else {
            ABORTED
        };
        return Err(StoreError::Conflict(format!(
            "game {id} is finished ({what}); no move can be added"
        )));
    }
    if s.plies != ply {
        return Err(StoreError::Conflict(format!(
            "game {id} has {} half-moves; a move at half-move {ply} does not follow",
            s.plies
        )));
    }
    Ok(())
}

/// A takeback may keep at most the moves the game has.
pub fn check_truncate(id: GameId, s: &GameState, plies: u32) -> Result<(), StoreError> {
    if plies > s.plies {
        return Err(StoreError::Conflict(format!(
            "game {id} has {} half-moves; cannot keep {plies}",
            s.plies
        )));
    }
    Ok(())
}

/// A finish must be a result (or [`Finish::aborted`]); checked before any transaction.
pub fn check_result(finish: &Finish) -> Result<(), StoreError> {
    if finish.is_valid() {
        Ok(())
    } else {
        Err(StoreError::Conflict(format!(
            "'{}' ({}) is not a result: expected 1-0, 0-1 or 1/2-1/2 (or * for an aborted game)",
            finish.result, finish.reason
        )))
    }
}

/// A game gets one result: finishing it again with the same result is harmless (a retried
/// request), with another is refused.
pub fn check_finish(id: GameId, s: &GameState, finish: &Finish) -> Result<(), StoreError> {
    check_result(finish)?;
    if s.result.is_decided() && s.result != finish.result {
        return Err(StoreError::Conflict(format!(
            "game {id} is already finished ({})",
            s.result
        )));
    }
    Ok(())
}

/// The finish of a stored game from its result and reason columns: a win or a draw, or `*`
/// with the reason [`ABORTED`] (the only finish without a result); `None` while unfinished.
pub fn stored_finish(result: GameResult, reason: Option<String>) -> Option<Finish> {
    (result.is_decided() || reason.as_deref() == Some(ABORTED)).then(|| Finish {
        result,
        reason: reason.unwrap_or_default(),
    })
}

/// A finish's reason as stored: `None` for an empty one.
pub fn stored_reason(finish: &Finish) -> Option<&str> {
    (!finish.reason.is_empty()).then_some(finish.reason.as_str())
}

/// A new start position must read, and its number (if given) must be that position; returns
/// the position (whose FEN is what is stored).
pub fn check_new_start(start_fen: &str, start_id: Option<u16>) -> Result<Position, StoreError> {
    let pos = Position::from_fen(start_fen).map_err(|e| {
        StoreError::Conflict(format!("the start FEN '{start_fen}' cannot be read: {e}"))
    })?;
    if let Some(n) = start_id {
        let fits = chess960_core::StartId::new(n.into()).is_ok_and(|s| s.position() == pos);
        if !fits {
            return Err(StoreError::Conflict(format!(
                "start position {n} is not the FEN '{start_fen}'"
            )));
        }
    }
    Ok(pos)
}

/// The start position can change only before the first move and before any finish.
pub fn check_start_open(id: GameId, s: &GameState) -> Result<(), StoreError> {
    if s.plies > 0 || s.result.is_decided() || s.reason.is_some() {
        return Err(StoreError::Conflict(format!(
            "game {id} has begun or ended: its start position is fixed"
        )));
    }
    Ok(())
}

/// Where a tag is kept: three tags are columns of the game (the players and the time control),
/// every other is a row of its tags.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TagHome {
    White,
    Black,
    TimeControl,
    /// The `Date` tag, which also sets the game's date (see [`crate::util`]'s `game_date`).
    Date,
    Other,
}

impl TagHome {
    /// The value a column takes when the tag is set to `value` (`None`: removed). White and
    /// Black are never empty: a removed name is PGN's unknown, `?`.
    pub fn column_value(self, value: Option<&str>) -> Option<String> {
        match self {
            TagHome::White | TagHome::Black => Some(value.unwrap_or("?").to_owned()),
            _ => value.map(str::to_owned),
        }
    }
}

/// A tag may be set when PGN can write its name (letters, digits and `_`, at most 255 bytes)
/// and the game does not already say it (`Result`, `FEN`, `SetUp`); returns where it is kept.
pub fn check_tag(name: &str) -> Result<TagHome, StoreError> {
    let writable = !name.is_empty()
        && name.len() <= 255
        && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_');
    if !writable {
        return Err(StoreError::Conflict(format!(
            "'{name}' is not a PGN tag name (letters, digits and _)"
        )));
    }
    Ok(match name {
        "Result" | "FEN" | "SetUp" => {
            return Err(StoreError::Conflict(format!(
                "the {name} tag follows from the game itself and cannot be set"
            )))
        }
        "White" => TagHome::White,
        "Black" => TagHome::Black,
        "TimeControl" => TagHome::TimeControl,
        "Date" => TagHome::Date,
        _ => TagHome::Other,
    })
}

/// A seat is given to the SHA-256 of a token, never to nothing or to the open marker.
pub fn check_seat_hash(hash: &str) -> Result<(), StoreError> {
    if hash.is_empty() || hash == crate::seats::OPEN {
        return Err(StoreError::Conflict(format!(
            "'{hash}' is not a seat token's hash"
        )));
    }
    Ok(())
}

/// Text as the store keeps it: without NUL characters, each replaced by U+FFFD. PostgreSQL's
/// text cannot hold a NUL and PGN allows no control characters, so both backends replace it
/// before anything is hashed or written, and keep the same text.
pub fn storable(s: &str) -> Cow<'_, str> {
    if s.contains('\0') {
        Cow::Owned(s.replace('\0', "\u{FFFD}"))
    } else {
        Cow::Borrowed(s)
    }
}

/// A game's texts as the store keeps them ([`storable`]); borrowed when there is nothing to
/// replace.
pub fn storable_game(g: &NewGame) -> Cow<'_, NewGame> {
    let clean = |s: &str| !s.contains('\0');
    let all_clean = clean(&g.start_fen)
        && clean(&g.white)
        && clean(&g.black)
        && g.time_control.as_deref().is_none_or(clean)
        && g.tags.iter().all(|(n, v)| clean(n) && clean(v));
    if all_clean {
        return Cow::Borrowed(g);
    }
    let own = |s: &str| storable(s).into_owned();
    Cow::Owned(NewGame {
        start_fen: own(&g.start_fen),
        start_id: g.start_id,
        white: own(&g.white),
        black: own(&g.black),
        time_control: g.time_control.as_deref().map(own),
        clocks: g.clocks,
        tags: g.tags.iter().map(|(n, v)| (own(n), own(v))).collect(),
    })
}

/// An imported game's texts as the store keeps them ([`storable`]).
pub fn storable_import(g: &ImportGame) -> Cow<'_, ImportGame> {
    let game = storable_game(&g.game);
    let reason_clean = g.finish.as_ref().is_none_or(|f| !f.reason.contains('\0'));
    let movetext_clean = g.movetext.as_deref().is_none_or(|m| !m.contains('\0'));
    if matches!(game, Cow::Borrowed(_)) && reason_clean && movetext_clean {
        return Cow::Borrowed(g);
    }
    Cow::Owned(ImportGame {
        game: game.into_owned(),
        moves: g.moves.clone(),
        finish: g.finish.as_ref().map(storable_finish).map(Cow::into_owned),
        movetext: g.movetext.as_deref().map(|m| storable(m).into_owned()),
        index: g.index.clone(),
    })
}

/// A batch of imported games as the store keeps them ([`storable_import`]); borrowed, with
/// nothing copied, unless a game has something to replace.
pub fn storable_imports(games: &[ImportGame]) -> Cow<'_, [ImportGame]> {
    if games
        .iter()
        .all(|g| matches!(storable_import(g), Cow::Borrowed(_)))
    {
        return Cow::Borrowed(games);
    }
    Cow::Owned(
        games
            .iter()
            .map(|g| storable_import(g).into_owned())
            .collect(),
    )
}

/// A finish's reason as the store keeps it ([`storable`]).
pub fn storable_finish(f: &Finish) -> Cow<'_, Finish> {
    match storable(&f.reason) {
        Cow::Borrowed(_) => Cow::Borrowed(f),
        Cow::Owned(reason) => Cow::Owned(Finish {
            result: f.result,
            reason,
        }),
    }
}

/// What an imported game is as stored: its result (`*` when unfinished), its reason (`None`
/// when empty) and its duplicate hash ([`stored_hash`]: finished games only).
pub fn import_row(g: &crate::ImportGame) -> (GameResult, Option<&str>, Option<[u8; 16]>) {
    let result = g.finish.as_ref().map_or(GameResult::Unknown, |f| f.result);
    let reason = g
        .finish
        .as_ref()
        .map(|f| f.reason.as_str())
        .filter(|r| !r.is_empty());
    let hash = stored_hash(
        &g.game.start_fen,
        g.moves.iter().map(|m| m.uci.as_str()),
        &g.game.white,
        &g.game.black,
        result,
        &g.game.tags,
    );
    (result, reason, hash)
}

/// How an imported game's moves are stored: packed ([`crate::packed`]) when the game is
/// finished, so that it never takes another move, and its moves can be packed exactly;
/// `None`: a row per move, as for games played here.
pub fn import_packed(g: &crate::ImportGame) -> Option<Vec<u8>> {
    g.finish.as_ref()?;
    crate::packed::pack(&g.moves)
}

/// The duplicate hash of a game as stored: finished games have one, unfinished games none
/// (two games stopped at the same move may be two different games, and nothing tells them
/// apart).
pub fn stored_hash<'a>(
    start_fen: &str,
    ucis: impl Iterator<Item = &'a str>,
    white: &str,
    black: &str,
    result: GameResult,
    tags: &[(String, String)],
) -> Option<[u8; 16]> {
    result
        .is_decided()
        .then(|| game_hash(start_fen, ucis, white, black, result.as_str(), tags))
}

/// FNV-1a with 128 bits. Not cryptographic, and it needs not be: it only has to make two
/// different games collide with negligible probability (about 10^-27 for a million games),
/// be stable across versions and platforms (it is stored), and cost nothing beside parsing a
/// game. A 64-bit hash would give roughly one false duplicate in 10^7 million-game imports;
/// 128 bits removes the question.
#[derive(Clone, Copy)]
pub(crate) struct Fnv128(u128);

impl Fnv128 {
    const OFFSET: u128 = 0x6c62_272e_07bb_0142_62b8_2175_6295_c58d;
    const PRIME: u128 = 0x0000_0000_0100_0000_0000_0000_0000_013b;

    pub(crate) fn new() -> Fnv128 {
        Fnv128(Self::OFFSET)
    }

    pub(crate) fn bytes(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 ^= u128::from(b);
            self.0 = self.0.wrapping_mul(Self::PRIME);
        }
    }

    /// A field: its bytes then a separator that cannot occur in text, so that ("ab", "c")
    /// and ("a", "bc") hash differently.
    pub(crate) fn field(&mut self, s: &str) {
        self.bytes(s.as_bytes());
        self.bytes(&[0xff]);
    }

    pub(crate) fn finish(self) -> [u8; 16] {
        self.0.to_be_bytes()
    }
}

/// The start FEN as the hash sees it: re-written in X-FEN when it parses, so that the same
/// start in Shredder-FEN or X-FEN is the same game.
fn canonical_fen(fen: &str) -> String {
    chess960_core::Position::from_fen(fen).map_or_else(|_| fen.trim().to_owned(), |p| p.fen())
}

/// The tags that, with the players, identify a game (the PGN standard's seven-tag roster
/// less the players and the result, which are columns of their own).
const IDENTIFYING_TAGS: [&str; 4] = ["Event", "Site", "Date", "Round"];

/// The duplicate-detection hash of a finished game: start, main line, players, result, and
/// the tags `Event`, `Site`, `Date` and `Round`. (docs/store.md says what a duplicate is; a
/// change here needs a migration that recomputes the stored hashes.)
pub fn game_hash<'a>(
    start_fen: &str,
    ucis: impl Iterator<Item = &'a str>,
    white: &str,
    black: &str,
    result: &str,
    tags: &[(String, String)],
) -> [u8; 16] {
    // A missing tag and PGN's "unknown" (`?`, `????.??.??`, as the writer fills in the
    // seven-tag roster) are the same, so that an exported game is its own duplicate.
    let unknown = |v: &str| {
        v.trim()
            .trim_matches(|c| c == '?' || c == '.' || c == '-')
            .to_owned()
    };
    let mut values = [""; IDENTIFYING_TAGS.len()];
    for (name, value) in tags {
        if let Some(i) = IDENTIFYING_TAGS.iter().position(|n| n == name) {
            values[i] = value;
        }
    }
    let mut h = Fnv128::new();
    h.field(&canonical_fen(start_fen));
    for u in ucis {
        h.bytes(u.as_bytes());
        h.bytes(b" ");
    }
    h.field("");
    h.field(&unknown(white));
    h.field(&unknown(black));
    h.field(result);
    for v in values {
        h.field(&unknown(v));
    }
    h.finish()
}

/// Checks that `moves` are a game from `start_fen`: each UCI (Chess960 form) is a legal move
/// in the position before it and its SAN is the SAN of that move. `Conflict` names the
/// first half-move that is not.
pub fn check_moves(start_fen: &str, moves: &[MoveRecord]) -> Result<(), StoreError> {
    let mut pos = Position::from_fen(start_fen).map_err(|e| {
        StoreError::Conflict(format!("the start FEN '{start_fen}' cannot be read: {e}"))
    })?;
    for (i, record) in moves.iter().enumerate() {
        let bad = |why: String| {
            StoreError::Conflict(format!("half-move {} ('{}'): {why}", i + 1, record.uci))
        };
        let m = pos
            .parse_uci(&record.uci, CastlingMode::Chess960)
            .map_err(|e| bad(e.to_string()))?;
        if m.to_uci(CastlingMode::Chess960) != record.uci {
            return Err(bad(format!(
                "not in Chess960 UCI form, which is '{}'",
                m.to_uci(CastlingMode::Chess960)
            )));
        }
        let san = pos.san(m);
        if san != record.san {
            return Err(bad(format!("its SAN is '{san}', not '{}'", record.san)));
        }
        pos.play_mut(m);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hash_separates_fields() {
        let mut a = Fnv128::new();
        a.field("ab");
        a.field("c");
        let mut b = Fnv128::new();
        b.field("a");
        b.field("bc");
        assert_ne!(a.finish(), b.finish());
    }
}

/// A session unused this long is ended (60 days).
pub const SESSION_IDLE_MS: i64 = 60 * 24 * 3600 * 1000;
/// A session's last use is written at most this often (a minute): most requests only read.
pub const SESSION_SEEN_STEP_MS: i64 = 60 * 1000;
/// The most characters of a session's program name that are kept.
pub const MAX_AGENT_CHARS: usize = 200;

/// A session's, an invitation's hash: the SHA-256 of its token, 64 lowercase hex digits.
pub fn check_token_hash(hash: &str, what: &str) -> Result<(), StoreError> {
    if hash.len() == 64 && hash.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f')) {
        Ok(())
    } else {
        Err(StoreError::Conflict(format!(
            "an {what} is kept by the SHA-256 of its token (64 lowercase hex digits)"
        )))
    }
}

/// A session begins only for an enabled user.
pub fn check_session_begins(
    user: crate::players::UserId,
    disabled: bool,
) -> Result<(), StoreError> {
    if disabled {
        return Err(StoreError::Conflict(format!(
            "user {user} is disabled: no session can begin"
        )));
    }
    Ok(())
}

/// What a request with a session does to it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SessionUse {
    /// Uses it; its last use is recent enough.
    Read,
    /// Uses it and writes the time of this use.
    Touch,
    /// It has ended (unused too long, or its user disabled): it is removed, and the request
    /// has no session.
    Ended,
}

/// What a request at `now_ms` does to `session`, whose user is `disabled` or not.
pub fn session_use(session: &crate::players::Session, disabled: bool, now_ms: i64) -> SessionUse {
    let idle = now_ms.saturating_sub(session.seen_ms);
    if disabled || idle > SESSION_IDLE_MS {
        SessionUse::Ended
    } else if idle >= SESSION_SEEN_STEP_MS {
        SessionUse::Touch
    } else {
        SessionUse::Read
    }
}

/// A session's program name as kept: without control characters, trimmed, at most
/// [`MAX_AGENT_CHARS`] characters.
pub fn storable_agent(agent: &str) -> String {
    agent
        .chars()
        .filter(|c| !c.is_control())
        .take(MAX_AGENT_CHARS)
        .collect::<String>()
        .trim()
        .to_string()
}

/// Players may be bound to a game only before its first move and while it is unfinished
/// ([`check_players`] says which).
pub fn check_bind(
    id: GameId,
    s: &GameState,
    players: &crate::ratings::GamePlayers,
) -> Result<(), StoreError> {
    if s.is_over() || s.plies > 0 {
        return Err(StoreError::Conflict(format!(
            "game {id} has begun: its players are bound before the first move"
        )));
    }
    check_players(id, players)
}

/// A rated game has a player's account bound (the other's may be bound when they take the
/// open seat, [`check_claim`]), and never one account on both sides.
pub fn check_players(id: GameId, players: &crate::ratings::GamePlayers) -> Result<(), StoreError> {
    if players.rated.is_none() {
        return Ok(());
    }
    match (players.white, players.black) {
        (None, None) => Err(StoreError::Conflict(format!(
            "game {id}: a rated game is between two accounts, and it has none"
        ))),
        (Some(w), Some(b)) if w == b => Err(StoreError::Conflict(format!(
            "game {id}: a rated game is between two different accounts"
        ))),
        _ => Ok(()),
    }
}

/// A new game's players: as [`check_players`]; a rated game starts at its start position
/// (`plies`, the moves it is created with, is 0).
pub fn check_new_players(
    players: &crate::ratings::GamePlayers,
    plies: usize,
) -> Result<(), StoreError> {
    if players.rated.is_some() && plies > 0 {
        return Err(StoreError::Conflict(
            "a rated game starts from its start position, without moves".into(),
        ));
    }
    check_players(GameId(0), players)
}

/// The open seat of `color` goes to a player whose account (if any) is now `players`'s for
/// that colour: in a rated game, an account other than the other player's.
pub fn check_claim(
    id: GameId,
    players: &crate::ratings::GamePlayers,
    color: chess960_core::Color,
) -> Result<(), StoreError> {
    if players.rated.is_some() && (players.get(color).is_none() || players.get(!color).is_none()) {
        return Err(StoreError::Conflict(format!(
            "game {id} is rated: its seat is for a logged-in player"
        )));
    }
    check_players(id, players)
}

/// A finished rated game stays finished: its ratings were updated once (a takeback after the
/// end is for casual games).
pub fn check_reopen(
    id: GameId,
    s: &GameState,
    players: &crate::ratings::GamePlayers,
) -> Result<(), StoreError> {
    if players.rated.is_some() && s.is_over() {
        return Err(StoreError::Conflict(format!(
            "game {id} is a finished rated game: it cannot be reopened"
        )));
    }
    Ok(())
}
