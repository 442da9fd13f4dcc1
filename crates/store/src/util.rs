//! Small helpers every backend uses: timestamps, calendar dates, random keys. (The rules a
//! backend must follow are in [`crate::rules`].)

use crate::{Clocks, GameKey, NewGame, StoreError};
use std::time::{SystemTime, UNIX_EPOCH};

/// Both clocks from their two columns; `None` unless both are there (an untimed game).
pub(crate) fn clocks(white: Option<i64>, black: Option<i64>) -> Option<Clocks> {
    match (white, black) {
        (Some(w), Some(b)) => Some(Clocks {
            white_ms: u64::try_from(w).unwrap_or(0),
            black_ms: u64::try_from(b).unwrap_or(0),
        }),
        _ => None,
    }
}

/// Milliseconds as a column holds them.
pub(crate) fn ms(v: u64) -> i64 {
    i64::try_from(v).unwrap_or(i64::MAX)
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

/// The `date` column of a new game: [`game_date`] of its `Date` tag.
pub(crate) fn new_game_date(g: &NewGame, created_ms: i64) -> String {
    let tag = g
        .tags
        .iter()
        .find(|(n, _)| n == "Date")
        .map(|(_, v)| v.as_str());
    game_date(tag, created_ms)
}

/// A fresh unguessable key: the milliseconds since 1970 in 48 bits, then 80 bits from the
/// operating system's random source, as 32 hex digits. The random part makes it unguessable
/// (2^80 keys per millisecond); the time in front makes keys made one after the other sort
/// together, so that the unique index on keys grows at its end, as the rowid does, instead of
/// at a random page: a bulk import of millions of games touches a few pages of it rather than
/// the whole index for every batch.
pub(crate) fn new_key() -> Result<GameKey, StoreError> {
    let mut bytes = [0u8; 16];
    getrandom::fill(&mut bytes[6..])
        .map_err(|e| StoreError::Backend(format!("no random numbers for a game key: {e}")))?;
    let ms = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as u64);
    bytes[..6].copy_from_slice(&ms.to_be_bytes()[2..]);
    let mut s = String::with_capacity(32);
    for b in bytes {
        s.push(char::from(b"0123456789abcdef"[usize::from(b >> 4)]));
        s.push(char::from(b"0123456789abcdef"[usize::from(b & 15)]));
    }
    GameKey::parse(&s).ok_or_else(|| StoreError::Backend("bad game key".into()))
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
    fn keys_are_keys() {
        let k = new_key().unwrap();
        assert_eq!(GameKey::parse(k.as_str()), Some(k.clone()));
        assert_ne!(new_key().unwrap(), k);
    }

    #[test]
    fn keys_made_later_sort_after() {
        // The time in front: keys made a few milliseconds apart sort in the order made.
        let mut keys = Vec::new();
        for _ in 0..4 {
            keys.push(new_key().unwrap());
            std::thread::sleep(std::time::Duration::from_millis(2));
        }
        let mut sorted = keys.clone();
        sorted.sort_by(|a, b| a.as_str().cmp(b.as_str()));
        assert_eq!(keys, sorted);
        // And the random part differs between keys of the same millisecond.
        let (a, b) = (new_key().unwrap(), new_key().unwrap());
        assert_ne!(a.as_str()[12..], b.as_str()[12..]);
    }
}
