//! Small helpers and the rules every backend shares: the duplicate-detection hash (what a
//! duplicate is), the check of a game's moves, timestamps and calendar dates, random keys.

use crate::{GameKey, MoveRecord, StoreError};
use chess960_core::{CastlingMode, Position};
use std::time::{SystemTime, UNIX_EPOCH};

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
pub(crate) fn game_hash<'a>(
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

/// Milliseconds since the Unix epoch, now.
pub(crate) fn now_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
        .unwrap_or(0)
}

/// The UTC calendar date of a timestamp, as PGN writes dates: `YYYY.MM.DD`.
pub(crate) fn pgn_date(ms: i64) -> String {
    chess960_pgn::date::from_unix_ms(ms)
}

/// The game date kept in the `date` column: the PGN `Date` tag when it says at least the
/// year, else the creation date. Dates compare as text, so `2019.??.??` sorts after every
/// full date of 2019, which is what a range filter wants.
pub(crate) fn game_date(date_tag: Option<&str>, created_ms: i64) -> String {
    match date_tag {
        Some(d) if d.len() >= 4 && d.as_bytes()[..4].iter().all(u8::is_ascii_digit) => d.to_owned(),
        _ => pgn_date(created_ms),
    }
}

/// A fresh unguessable key: 128 bits from the operating system's random source.
pub(crate) fn new_key() -> Result<GameKey, StoreError> {
    let mut bytes = [0u8; 16];
    getrandom::fill(&mut bytes)
        .map_err(|e| StoreError::Backend(format!("no random numbers for a game key: {e}")))?;
    let mut s = String::with_capacity(32);
    for b in bytes {
        s.push(char::from(b"0123456789abcdef"[usize::from(b >> 4)]));
        s.push(char::from(b"0123456789abcdef"[usize::from(b & 15)]));
    }
    GameKey::parse(&s).ok_or_else(|| StoreError::Backend("bad game key".into()))
}

/// Checks that `moves` are a game from `start_fen`: each UCI (Chess960 form) is a legal move
/// in the position before it and its SAN is the SAN of that move. `Conflict` names the
/// first half-move that is not.
pub(crate) fn check_moves(start_fen: &str, moves: &[MoveRecord]) -> Result<(), StoreError> {
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
    fn dates() {
        assert_eq!(pgn_date(0), "1970.01.01");
        assert_eq!(pgn_date(951_782_400_000), "2000.02.29");
        assert_eq!(pgn_date(1_767_225_600_000), "2026.01.01");
        assert_eq!(pgn_date(-86_400_000), "1969.12.31");
        assert_eq!(game_date(Some("2019.??.??"), 0), "2019.??.??");
        assert_eq!(game_date(Some("????.??.??"), 0), "1970.01.01");
        assert_eq!(game_date(None, 0), "1970.01.01");
    }

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

    #[test]
    fn keys_are_keys() {
        let k = new_key().unwrap();
        assert_eq!(GameKey::parse(k.as_str()), Some(k.clone()));
        assert_ne!(new_key().unwrap(), k);
    }
}
