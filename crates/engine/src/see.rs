//! Static exchange evaluation: does a capture sequence on one square win material?

use crate::eval::SEE_VALUE;
use chess960_core::attacks::{bishop_attacks, rook_attacks};
use chess960_core::{Bitboard, Color, Move, MoveKind, Position, Role};

/// True if `m` wins at least `threshold` centipawns when both sides keep capturing on its
/// destination with their least valuable attacker (Stockfish's algorithm).
pub fn see_ge(pos: &Position, m: Move, threshold: i32) -> bool {
    if m.is_castle() {
        return threshold <= 0;
    }
    let b = pos.board();
    let from = m.from();
    let to = m.to();
    let captured = match m.kind() {
        MoveKind::EnPassant => Some(Role::Pawn),
        _ => b.role_at(to),
    };
    let mut value = captured.map_or(0, |r| SEE_VALUE[r.index()]) - threshold;
    if let MoveKind::Promotion(r) = m.kind() {
        value += SEE_VALUE[r.index()] - SEE_VALUE[Role::Pawn.index()];
    }
    if value < 0 {
        return false;
    }
    let moving = match m.kind() {
        MoveKind::Promotion(r) => r,
        _ => b.role_at(from).unwrap_or(Role::Pawn),
    };
    value -= SEE_VALUE[moving.index()];
    if value >= 0 {
        return true;
    }
    let mut occ = b.occupied() ^ Bitboard::from_square(from);
    occ = occ.with(to);
    if m.is_en_passant() {
        let cap = if pos.turn() == Color::White {
            to.offset(-8)
        } else {
            to.offset(8)
        };
        if let Some(c) = cap {
            occ = occ.without(c);
        }
    }
    let mut attackers =
        (pos.attackers(to, Color::White, occ) | pos.attackers(to, Color::Black, occ)) & occ;
    let diag = b.bishops_and_queens();
    let orth = b.rooks_and_queens();
    let mut stm = !pos.turn();
    // `value` is from the point of view of the side that made the last capture; it flips each
    // time and ends when the side to move has nothing left to capture with.
    let mut result = true;
    loop {
        let mine = attackers & occ & b.by_color(stm);
        if mine.is_empty() {
            break;
        }
        let mut lva = Role::King;
        let mut lva_sq = None;
        for role in Role::ALL {
            if let Some(sq) = (mine & b.by_role(role)).first() {
                lva = role;
                lva_sq = Some(sq);
                break;
            }
        }
        let sq = lva_sq.expect("a piece of some role");
        occ = occ.without(sq);
        attackers |= (bishop_attacks(to, occ) & diag) | (rook_attacks(to, occ) & orth);
        attackers &= occ;
        result = !result;
        value = -value - 1 - SEE_VALUE[lva.index()];
        if value >= 0 {
            // A king may only capture if the square is not defended any more.
            if lva == Role::King && (attackers & b.by_color(!stm)).any() {
                result = !result;
            }
            break;
        }
        stm = !stm;
    }
    result
}

#[cfg(test)]
mod tests {
    use super::*;
    use chess960_core::CastlingMode;

    fn check(fen: &str, uci: &str, threshold: i32, expected: bool) {
        let pos = Position::from_fen(fen).unwrap();
        let m = pos.parse_uci(uci, CastlingMode::Chess960).unwrap();
        assert_eq!(
            see_ge(&pos, m, threshold),
            expected,
            "{fen} {uci} {threshold}"
        );
    }

    #[test]
    fn exchanges() {
        // Pawn takes an undefended knight.
        check("4k3/8/8/3n4/4P3/8/8/4K3 w - - 0 1", "e4d5", 300, true);
        // Queen takes a pawn defended by a pawn: loses the queen.
        check("4k3/8/2p5/3p4/8/8/8/3QK3 w - - 0 1", "d1d5", 0, false);
        // Rook takes a knight defended once, with a second rook behind (x-ray): wins 320-500+...
        check("3rk3/8/8/3n4/8/8/3R4/3RK3 w - - 0 1", "d2d5", 0, true);
        check("3rk3/3r4/8/3n4/8/8/3R4/3RK3 w - - 0 1", "d2d5", 1, false);
        // Quiet move to an attacked square.
        check("4k3/8/8/8/8/2p5/8/3NK3 w - - 0 1", "d1b2", 0, false);
        check("4k3/8/8/8/8/8/8/3NK3 w - - 0 1", "d1b2", 0, true);
    }
}
