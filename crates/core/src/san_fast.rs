//! The fast path of the SAN reader: moves (read with the same tokenizer, `san::parse_token`)
//! found directly from the attack tables or one pass over the legal moves, without building
//! strings or lists on the heap. PGN files hold millions of moves, and this makes reading
//! them several times faster. The full reader in `san.rs` stays the authority: this path only
//! answers when its answer is the full reader's, and leaves everything else (tolerated
//! oddities, errors and their messages) to it; the tests compare the two square by square.

use crate::attacks::{
    bishop_attacks, king_attacks, knight_attacks, pawn_attacks, queen_attacks, rook_attacks,
};
use crate::bitboard::Bitboard;
use crate::moves::{Move, MoveList};
use crate::position::Position;
use crate::san::{parse_token, SanToken};
use crate::types::{Color, Piece, Rank, Role};

/// The move of a usual SAN form found without generating all legal moves, when the answer
/// is simple: the side to move is not in check, exactly one piece of the role (after the
/// disambiguation) can reach the square, and it is not pinned, so the move cannot expose its
/// king; or a king step to a square no enemy piece attacks. `None` means "not that simple":
/// castling, en passant, pins, checks, several candidates, unusual text. The caller then
/// matches against the full list of legal moves, so every answer given here is one the full
/// match would give too (the tests `agrees_with_core` and `special_positions` check this
/// square by square against the core reader).
fn direct(pos: &Position, fast: &SanToken) -> Option<Move> {
    let SanToken::Normal {
        role,
        file,
        rank,
        to,
        promotion,
    } = *fast
    else {
        return None;
    };
    if pos.is_check() {
        return None;
    }
    let us = pos.turn();
    let board = pos.board();
    let ours = board.by_color(us);
    let occupied = board.occupied();
    if ours.contains(to) {
        // Also rules out "king takes own rook", which is castling, not a king move.
        return None;
    }
    let mut mask = Bitboard::FULL;
    if let Some(f) = file {
        mask &= Bitboard::from_file(f);
    }
    if let Some(r) = rank {
        mask &= Bitboard::from_rank(r);
    }
    let from = match role {
        Role::Knight | Role::Bishop | Role::Rook | Role::Queen => {
            let reach = match role {
                Role::Knight => knight_attacks(to),
                Role::Bishop => bishop_attacks(to, occupied),
                Role::Rook => rook_attacks(to, occupied),
                _ => queen_attacks(to, occupied),
            };
            (reach & board.by_role(role) & ours & mask).single()?
        }
        Role::King => {
            let king = pos.king_of(us);
            if !king_attacks(king).contains(to) || !mask.contains(king) || promotion.is_some() {
                return None;
            }
            // Attacked with the king lifted off its square, as the move generator tests it.
            if pos.attackers(to, !us, occupied.without(king)).any() {
                return None;
            }
            return Some(Move::normal(king, to));
        }
        Role::Pawn => {
            let our_pawns = board.by_piece(Piece {
                color: us,
                role: Role::Pawn,
            });
            let from = if board.by_color(!us).contains(to) {
                (pawn_attacks(!us, to) & our_pawns & mask).single()?
            } else {
                // A push; a pawn moving diagonally to an empty square would be en passant.
                if file.is_some_and(|f| f != to.file()) {
                    return None;
                }
                let back = if us == Color::White { -8 } else { 8 };
                let behind = to.offset(back)?;
                if our_pawns.contains(behind) {
                    behind
                } else if to.rank() == Rank::Fourth.relative(us) && !occupied.contains(behind) {
                    Some(behind.offset(back)?).filter(|&sq| our_pawns.contains(sq))?
                } else {
                    return None;
                }
            };
            let last_rank = to.rank() == Rank::Eighth.relative(us);
            if !mask.contains(from) || last_rank != promotion.is_some() {
                return None;
            }
            from
        }
    };
    if pos.pinned().contains(from) {
        return None;
    }
    match promotion {
        None => Some(Move::normal(from, to)),
        Some(p) if role == Role::Pawn => Some(Move::promotion(from, to, p)),
        Some(_) => None,
    }
}

/// The legal move a usual SAN form names, found quickly; `None` leaves the answer (and the
/// explanation of any error) to the full reader in `san.rs`.
pub(crate) fn find(pos: &Position, san: &[u8]) -> Option<Move> {
    let mut list = MoveList::new();
    if let Some(fast) = std::str::from_utf8(san).ok().and_then(parse_token) {
        if let Some(m) = direct(pos, &fast) {
            return Some(m);
        }
        pos.legal_moves_into(&mut list);
        let mut found = None;
        let mut count = 0;
        match fast {
            SanToken::Castle(side) => {
                for &m in list.iter() {
                    if m.castling_side() == Some(side) {
                        found = Some(m);
                        count += 1;
                    }
                }
            }
            SanToken::Normal {
                role,
                file,
                rank,
                to,
                promotion,
            } => {
                let board = pos.board();
                for &m in list.iter() {
                    if m.to() == to
                        && !m.is_castle()
                        && m.promotion_role() == promotion
                        && file.is_none_or(|f| m.from().file() == f)
                        && rank.is_none_or(|r| m.from().rank() == r)
                        && board.role_at(m.from()) == Some(role)
                    {
                        found = Some(m);
                        count += 1;
                    }
                }
            }
        }
        if count == 1 {
            return found;
        }
    }
    // Unusual text, no move or several: the full reader decides, and explains.
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::san::SanError;
    use crate::types::Square;

    /// What `parse_san` answers: the fast path if it answers, else the full reader.
    fn fast_or_full(pos: &Position, san: &str) -> Result<Move, SanError> {
        find(pos, san.as_bytes()).map_or_else(|| pos.parse_san_full(san), Ok)
    }
    use crate::startpos::StartId;

    /// The fast path must agree with the core reader on every legal move's own SAN and on
    /// a handful of tolerated and broken forms, over positions from random games.
    #[test]
    fn agrees_with_core() {
        let mut rand = crate::testing::xorshift(0x9E37_79B9_7F4A_7C15u64);
        let mut checked = 0;
        for _ in 0..100 {
            let mut pos = StartId::new((rand() % 960) as u32).unwrap().position();
            for _ in 0..60 {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                for &m in moves.iter() {
                    let san = pos.san(m);
                    let variants = [
                        san.clone(),
                        san.trim_end_matches(['+', '#']).to_string(),
                        san.replace('x', ""),
                        san.replace("O-O", "0-0"),
                        san.replace('=', ""),
                        format!("{san}+"),
                    ];
                    for v in variants {
                        let core = pos.parse_san_full(&v);
                        let ours = fast_or_full(&pos, &v);
                        assert_eq!(ours, core, "{} in {}", v, pos.fen());
                        checked += 1;
                    }
                }
                for bad in [
                    "Qz9", "e9", "Kxx1", "O-O-O-O", "", "N", "exd", "Pe4", "e8=K",
                ] {
                    assert_eq!(fast_or_full(&pos, bad), pos.parse_san_full(bad), "{bad}");
                }
                if rand() % 16 == 0 {
                    checked += every_target(&pos);
                }
                pos = pos.play(moves[(rand() % moves.len() as u64) as usize]);
            }
        }
        assert!(checked > 50_000, "{checked}");
    }

    /// Every role to every square, with no disambiguation and with each file, and pawns with
    /// each promotion: the direct path must answer as the core does, legal or not.
    fn every_target(pos: &Position) -> usize {
        let mut n = 0;
        for to in Square::all() {
            for role in ["", "N", "B", "R", "Q", "K"] {
                for from_file in ["", "a", "b", "c", "d", "e", "f", "g", "h"] {
                    for promo in ["", "=Q", "=N"] {
                        if !promo.is_empty() && !role.is_empty() {
                            continue;
                        }
                        let san = format!("{role}{from_file}{to}{promo}");
                        assert_eq!(
                            fast_or_full(pos, &san),
                            pos.parse_san_full(&san),
                            "{san} in {}",
                            pos.fen()
                        );
                        n += 1;
                    }
                }
            }
        }
        n
    }

    /// Positions made for the direct path's exceptions: pins (along the pin line and off
    /// it), checks, en passant (also the one that would expose the king), promotions, king
    /// steps next to attacked squares and next to its own castling rook.
    #[test]
    fn special_positions() {
        for fen in [
            "4k3/8/8/1b6/8/3N4/4K3/8 w - - 0 1",
            "4k3/4r3/8/8/8/8/4R3/4K3 w - - 0 1",
            "4k3/8/8/8/1b6/8/3P4/4K3 w - - 0 1",
            "8/8/8/KPp4r/8/8/8/4k3 w - c6 0 1",
            "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1",
            "r3k2r/1P4P1/8/8/8/8/6p1/R3K2R w KQkq - 0 1",
            "4k3/8/8/8/8/8/3q4/4K3 w - - 0 1",
            "1r4kr/8/8/8/8/8/8/1R4KR w KQkq - 0 1",
            "rk6/8/8/8/8/8/8/RK5r w Q - 0 1",
            "4k3/8/8/8/8/2n5/8/R3K2R w KQ - 0 1",
            "3k4/8/8/8/8/8/2N1N3/3K4 w - - 0 1",
            "4k3/8/8/8/8/8/PPPPPPPP/4K3 w - - 0 1",
            "4k3/pppppppp/8/8/8/8/8/4K3 b - - 0 1",
        ] {
            let pos = Position::from_fen(fen).unwrap();
            every_target(&pos);
            for &m in pos.legal_moves().iter() {
                let san = pos.san(m);
                assert_eq!(fast_or_full(&pos, &san), Ok(m), "{san} {fen}");
            }
        }
    }
}
