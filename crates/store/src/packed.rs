//! A finished game's main line packed into one value (schema version 7 of SQLite, 2 of
//! PostgreSQL): what an import stores instead of a row per move.
//!
//! A row per move is what autosave needs: each acknowledged move is one committed insert.
//! An imported game is complete and never grows, and its 65 rows on average were most of the
//! cost of an import (docs/performance.md). Packed, a move takes two bytes (its
//! [`explorer::encode_move`] code) and its clocks, if any, a few more; the UCI and SAN are
//! rebuilt by replaying the moves from the start position when the game is read.
//!
//! Layout: a format byte (1), a flags byte (bit 0: clocks follow each move), the moves'
//! common `played_at_ms` (zig-zag varint), the number of moves (varint), then per move its
//! code (u16, little-endian) and, with clocks, `0` for none or White's milliseconds plus one
//! followed by Black's milliseconds (varints).

use crate::{explorer, Clocks, MoveRecord, StoreError};
use chess960_core::{CastlingMode, Position};

const FORMAT: u8 = 1;
const CLOCKS: u8 = 1;

/// A packed line read back without replaying it: the move codes and clocks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    /// When the moves were played (one value for all: imports store 0).
    pub played_at_ms: i64,
    /// Each move's [`explorer::encode_move`] code and its clocks.
    pub moves: Vec<(u16, Option<Clocks>)>,
}

/// Packs `moves`; `None` when they cannot be packed exactly (moves played at different
/// times, as autosaved games are, or a move without a code), and then they keep their rows.
pub fn pack(moves: &[MoveRecord]) -> Option<Vec<u8>> {
    let played_at_ms = moves.first().map_or(0, |m| m.played_at_ms);
    if moves.iter().any(|m| m.played_at_ms != played_at_ms) {
        return None;
    }
    let line = Line {
        played_at_ms,
        moves: moves
            .iter()
            .map(|m| Some((explorer::encode_move(&m.uci)?, m.clocks)))
            .collect::<Option<_>>()?,
    };
    Some(encode(&line))
}

/// The bytes of `line`.
pub fn encode(line: &Line) -> Vec<u8> {
    let clocks = line.moves.iter().any(|(_, c)| c.is_some());
    let mut out = Vec::with_capacity(8 + line.moves.len() * if clocks { 8 } else { 2 });
    out.push(FORMAT);
    out.push(if clocks { CLOCKS } else { 0 });
    varint(&mut out, zigzag(line.played_at_ms));
    varint(&mut out, line.moves.len() as u64);
    for (code, c) in &line.moves {
        out.extend_from_slice(&code.to_le_bytes());
        if clocks {
            match c {
                None => varint(&mut out, 0),
                Some(c) => {
                    varint(&mut out, c.white_ms.saturating_add(1));
                    varint(&mut out, c.black_ms);
                }
            }
        }
    }
    out
}

/// Reads packed bytes back into codes and clocks; an error says the value is damaged.
pub fn decode(bytes: &[u8]) -> Result<Line, StoreError> {
    let mut r = Bytes { bytes, at: 0 };
    if r.byte()? != FORMAT {
        return Err(damaged("unknown format"));
    }
    let flags = r.byte()?;
    let played_at_ms = unzigzag(r.varint()?);
    let n = r.varint()?;
    // Each move takes at least two bytes: a count beyond that is damage, not a reason to
    // reserve memory.
    if n > (bytes.len() as u64) / 2 {
        return Err(damaged("move count beyond the value's length"));
    }
    let mut moves = Vec::with_capacity(n as usize);
    for _ in 0..n {
        let code = u16::from_le_bytes([r.byte()?, r.byte()?]);
        let clocks = if flags & CLOCKS != 0 {
            match r.varint()? {
                0 => None,
                w => Some(Clocks {
                    white_ms: w - 1,
                    black_ms: r.varint()?,
                }),
            }
        } else {
            None
        };
        moves.push((code, clocks));
    }
    if r.at != bytes.len() {
        return Err(damaged("bytes after the last move"));
    }
    Ok(Line {
        played_at_ms,
        moves,
    })
}

/// The moves in UCI (Chess960 form), without replaying them.
pub fn ucis(bytes: &[u8]) -> Result<Vec<String>, StoreError> {
    decode(bytes)?
        .moves
        .iter()
        .map(|(code, _)| explorer::decode_move(*code).ok_or_else(|| damaged("a bad move code")))
        .collect()
}

/// The moves as stored records: replayed from `start_fen` for their SAN.
pub fn unpack(start_fen: &str, bytes: &[u8]) -> Result<Vec<MoveRecord>, StoreError> {
    let line = decode(bytes)?;
    let mut pos = Position::from_fen(start_fen)
        .map_err(|e| damaged(&format!("the start FEN cannot be read: {e}")))?;
    let mut out = Vec::with_capacity(line.moves.len());
    for (i, (code, clocks)) in line.moves.iter().enumerate() {
        let m = explorer::decode_move(*code)
            .and_then(|uci| pos.parse_uci(&uci, CastlingMode::Chess960).ok())
            .ok_or_else(|| damaged(&format!("half-move {} is not legal", i + 1)))?;
        out.push(MoveRecord::of(&pos, m, *clocks, line.played_at_ms));
        pos.play_mut(m);
    }
    Ok(out)
}

fn damaged(what: &str) -> StoreError {
    StoreError::Corrupt {
        detail: format!("a game's packed moves are damaged: {what}"),
    }
}

struct Bytes<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Bytes<'_> {
    fn byte(&mut self) -> Result<u8, StoreError> {
        let b = *self
            .bytes
            .get(self.at)
            .ok_or_else(|| damaged("cut short"))?;
        self.at += 1;
        Ok(b)
    }

    fn varint(&mut self) -> Result<u64, StoreError> {
        let mut v = 0u64;
        for shift in (0..64).step_by(7) {
            let b = self.byte()?;
            v |= u64::from(b & 0x7f) << shift;
            if b & 0x80 == 0 {
                return Ok(v);
            }
        }
        Err(damaged("a number too long"))
    }
}

fn varint(out: &mut Vec<u8>, mut v: u64) {
    while v >= 0x80 {
        out.push((v as u8) | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

fn zigzag(v: i64) -> u64 {
    ((v << 1) ^ (v >> 63)) as u64
}

fn unzigzag(v: u64) -> i64 {
    ((v >> 1) as i64) ^ -((v & 1) as i64)
}

#[cfg(test)]
mod tests {
    use super::*;

    const STANDARD: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

    fn line(start: &Position, ucis: &[&str], clocks: bool, at: i64) -> Vec<MoveRecord> {
        let mut pos = *start;
        ucis.iter()
            .enumerate()
            .map(|(i, u)| {
                let m = pos.parse_uci(u, CastlingMode::Chess960).unwrap();
                let c = clocks.then_some(Clocks {
                    white_ms: 180_000 - i as u64 * 1000,
                    black_ms: u64::MAX - i as u64,
                });
                let r = MoveRecord::of(&pos, m, c, at);
                pos.play_mut(m);
                r
            })
            .collect()
    }

    #[test]
    fn packs_and_unpacks_every_kind_of_move() {
        // Castling both ways as king takes rook, en passant, a promotion with capture.
        let fen = "r3k2r/1P6/8/8/3p4/8/4P3/R3K2R w KQkq - 0 1";
        let start = Position::from_fen(fen).unwrap();
        for (clocks, at) in [
            (false, 0),
            (true, 0),
            (true, -5),
            (false, 1_700_000_000_123),
        ] {
            let moves = line(
                &start,
                &["e2e4", "d4e3", "e1a1", "e8h8", "b7a8q"],
                clocks,
                at,
            );
            let packed = pack(&moves).unwrap();
            assert_eq!(unpack(fen, &packed).unwrap(), moves);
            assert_eq!(
                ucis(&packed).unwrap(),
                moves.iter().map(|m| m.uci.clone()).collect::<Vec<_>>()
            );
        }
        assert_eq!(unpack(fen, &pack(&[]).unwrap()).unwrap(), vec![]);
    }

    #[test]
    fn moves_played_at_different_times_keep_their_rows() {
        let start = Position::from_fen(STANDARD).unwrap();
        let mut moves = line(&start, &["e2e4", "e7e5"], false, 10);
        moves[1].played_at_ms = 11;
        assert_eq!(pack(&moves), None);
    }

    #[test]
    fn damage_is_an_error_never_a_panic() {
        let start = Position::from_fen(STANDARD).unwrap();
        let packed = pack(&line(&start, &["e2e4", "e7e5", "g1f3"], true, 0)).unwrap();
        for cut in 0..packed.len() {
            assert!(decode(&packed[..cut]).is_err(), "cut at {cut}");
        }
        let mut longer = packed.clone();
        longer.push(0);
        assert!(decode(&longer).is_err());
        let mut other = packed.clone();
        other[0] = 9;
        assert!(decode(&other).is_err());
        // A huge count in a short value reserves nothing.
        assert!(decode(&[1, 0, 0, 0xff, 0xff, 0xff, 0xff, 0x0f]).is_err());
        // A code that is no legal move in the position.
        let bad = encode(&Line {
            played_at_ms: 0,
            moves: vec![(explorer::encode_move("e2e5").unwrap(), None)],
        });
        assert!(unpack(STANDARD, &bad).is_err());
        assert!(decode(&bad).is_ok());
    }
}
