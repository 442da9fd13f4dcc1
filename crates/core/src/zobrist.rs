//! Zobrist keys, generated at compile time from a fixed seed (SplitMix64).

use crate::types::{Color, Role, Square};

const fn splitmix(state: u64) -> u64 {
    let mut z = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

const fn keys<const N: usize>(stream: u64) -> [u64; N] {
    let mut out = [0u64; N];
    let mut i = 0;
    while i < N {
        out[i] = splitmix(
            stream
                .wrapping_mul(0x1_0000_0001)
                .wrapping_add(i as u64 * 0x9E37_79B9),
        );
        i += 1;
    }
    out
}

static PIECE_SQUARE: [u64; 768] = keys::<768>(1);
static CASTLING: [u64; 64] = keys::<64>(2);
static EN_PASSANT: [u64; 8] = keys::<8>(3);
const TURN: u64 = 0xF8D6_26AA_AF27_8509;

/// Key for `color`'s `role` on `sq`.
#[inline(always)]
pub(crate) fn piece(color: Color, role: Role, sq: Square) -> u64 {
    PIECE_SQUARE[(color.index() * 6 + role.index()) * 64 + sq.index()]
}

/// Key for a castling right with the rook on `rook`.
#[inline(always)]
pub(crate) fn castling(rook: Square) -> u64 {
    CASTLING[rook.index()]
}

/// Key for an en-passant capture being possible on `file`.
#[inline(always)]
pub(crate) fn en_passant(file: crate::types::File) -> u64 {
    EN_PASSANT[file.index()]
}

/// Key XORed in when Black is to move.
#[inline(always)]
pub(crate) const fn turn() -> u64 {
    TURN
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_distinct() {
        let mut all: Vec<u64> = PIECE_SQUARE
            .iter()
            .chain(CASTLING.iter())
            .chain(EN_PASSANT.iter())
            .copied()
            .collect();
        all.push(TURN);
        let n = all.len();
        all.sort_unstable();
        all.dedup();
        assert_eq!(all.len(), n);
    }
}
