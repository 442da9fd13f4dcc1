//! Castling in every shape of spec §2, for both colours and both sides, and the castling
//! rules (checks, blockers, rights, inner rooks).
//!
//! Every expectation hard-coded below (legal castles, Chess960 UCI strings, SAN, resulting
//! FENs, legality verdicts) was cross-checked with python-chess 1.11.2 (`chess.Board(fen,
//! chess960=True)`, `board.uci(m, chess960=True)`, `board.san(m)`, `board.fen()`), an
//! independent implementation. The Standard-mode UCI strings (king's destination) follow spec
//! §3 and the library's `CastlingMode::Standard`; python-chess only rewrites the e1/e8 king
//! that way, so those were derived by hand (king's square + c/g file).

use chess960_core::{CastlingMode, CastlingSide, Color, Move, Position, Role, Square};

fn pos(fen: &str) -> Position {
    Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn sq(s: &str) -> Square {
    Square::parse(s).unwrap()
}

fn castles(p: &Position) -> Vec<Move> {
    p.legal_moves()
        .iter()
        .copied()
        .filter(|m| m.is_castle())
        .collect()
}

fn castle_ucis(p: &Position) -> Vec<String> {
    let mut v: Vec<String> = castles(p)
        .iter()
        .map(|m| m.to_uci(CastlingMode::Chess960))
        .collect();
    v.sort();
    v
}

/// One castling move and everything that must be true of it.
struct Castle {
    /// The position; the side to move castles.
    fen: &'static str,
    /// Chess960 UCI: king onto its rook.
    uci: &'static str,
    /// Standard UCI: king onto its destination square when it moves two or more files,
    /// else king onto rook (no classical form exists).
    uci_std: &'static str,
    /// SAN with suffix.
    san: &'static str,
    /// FEN after the castle.
    after: &'static str,
}

fn check_castle(c: &Castle) {
    let p = pos(c.fen);
    let ctx = format!("{} [{}]", c.fen, c.uci);
    let us = p.turn();
    let side = if c.san.starts_with("O-O-O") {
        CastlingSide::ASide
    } else {
        CastlingSide::HSide
    };
    let king = p.king_of(us);
    let rook = p
        .castling_rook(us, side)
        .unwrap_or_else(|| panic!("{ctx}: no castling rook on the {side}"));

    // Among the legal moves, exactly once, as king onto rook.
    let found: Vec<Move> = castles(&p)
        .into_iter()
        .filter(|m| m.castling_side() == Some(side))
        .collect();
    assert_eq!(found.len(), 1, "{ctx}: castles {:?}", castles(&p));
    let m = found[0];
    assert_eq!(m, Move::castle(king, rook), "{ctx}");
    assert!(p.is_legal(m), "{ctx}");
    assert_eq!((m.from(), m.to()), (king, rook), "{ctx}");

    // Notation.
    assert_eq!(m.to_uci(CastlingMode::Chess960), c.uci, "{ctx}");
    assert_eq!(m.to_uci(CastlingMode::Standard), c.uci_std, "{ctx}");
    assert_eq!(p.san(m), c.san, "{ctx}");

    // Reading it back.
    let bare = side.san();
    assert_eq!(p.parse_san(bare), Ok(m), "{ctx}: {bare}");
    assert_eq!(p.parse_san(c.san), Ok(m), "{ctx}: {}", c.san);
    assert_eq!(p.parse_san(&bare.replace('O', "0")), Ok(m), "{ctx}: zeros");
    assert_eq!(p.parse_uci(c.uci, CastlingMode::Chess960), Ok(m), "{ctx}");
    // King onto rook is accepted in Standard mode too.
    assert_eq!(p.parse_uci(c.uci, CastlingMode::Standard), Ok(m), "{ctx}");
    let king_to = side.king_to(us);
    let distance = king.file().index().abs_diff(king_to.file().index());
    match distance {
        0 | 1 => {
            // No classical two-square form exists: Standard notation writes king onto rook
            // too, which it also reads.
            assert_eq!(c.uci_std, c.uci, "{ctx}");
            assert_eq!(
                p.parse_uci(c.uci_std, CastlingMode::Standard),
                Ok(m),
                "{ctx}"
            );
            if distance == 1 && king_to != rook {
                // The king's destination as text is the one-square king move, never a
                // castle (§4), in both modes.
                let step = Move::normal(king, king_to);
                let step_uci = format!("{king}{king_to}");
                assert!(p.is_legal(step), "{ctx}: the king step should be legal");
                assert_ne!(step, m);
                assert_eq!(
                    p.parse_uci(&step_uci, CastlingMode::Standard),
                    Ok(step),
                    "{ctx}"
                );
                assert_eq!(
                    p.parse_uci(&step_uci, CastlingMode::Chess960),
                    Ok(step),
                    "{ctx}"
                );
                assert_eq!(p.san(step), format!("K{king_to}"), "{ctx}");
            }
        }
        _ => {
            assert_eq!(
                p.parse_uci(c.uci_std, CastlingMode::Standard),
                Ok(m),
                "{ctx}"
            );
        }
    }

    // Playing it.
    let after = p.play(m);
    assert_eq!(after.fen(), c.after, "{ctx}");
    assert_eq!(after, pos(c.after), "{ctx}: parsed result differs");
    assert_eq!(after.hash(), pos(c.after).hash(), "{ctx}: hash");
    let piece = |s: Square| after.piece_at(s).map(|pc| (pc.color, pc.role));
    assert_eq!(piece(king_to), Some((us, Role::King)), "{ctx}");
    assert_eq!(piece(side.rook_to(us)), Some((us, Role::Rook)), "{ctx}");
    for s in CastlingSide::ALL {
        assert_eq!(after.castling_rook(us, s), None, "{ctx}: rights of {us}");
        assert_eq!(
            after.castling_rook(!us, s),
            p.castling_rook(!us, s),
            "{ctx}: rights of {}",
            !us
        );
    }
}

#[test]
#[rustfmt::skip]
fn only_the_king_moves() {
    // O-O with the rook on f1 and the king on b1..e1; O-O-O with the rook on d1 and the king
    // on e1..g1.
    for c in [
        Castle { fen: "rk3r2/pppppppp/8/8/8/8/PPPPPPPP/RK3R2 w KQkq - 0 1", uci: "b1f1", uci_std: "b1g1", san: "O-O", after: "rk3r2/pppppppp/8/8/8/8/PPPPPPPP/R4RK1 b kq - 1 1" },
        Castle { fen: "rk3r2/pppppppp/8/8/8/8/PPPPPPPP/RK3R2 b KQkq - 0 1", uci: "b8f8", uci_std: "b8g8", san: "O-O", after: "r4rk1/pppppppp/8/8/8/8/PPPPPPPP/RK3R2 w KQ - 1 2" },
        Castle { fen: "r1k2r2/pppppppp/8/8/8/8/PPPPPPPP/R1K2R2 w KQkq - 0 1", uci: "c1f1", uci_std: "c1g1", san: "O-O", after: "r1k2r2/pppppppp/8/8/8/8/PPPPPPPP/R4RK1 b kq - 1 1" },
        Castle { fen: "r1k2r2/pppppppp/8/8/8/8/PPPPPPPP/R1K2R2 b KQkq - 0 1", uci: "c8f8", uci_std: "c8g8", san: "O-O", after: "r4rk1/pppppppp/8/8/8/8/PPPPPPPP/R1K2R2 w KQ - 1 2" },
        Castle { fen: "r2k1r2/pppppppp/8/8/8/8/PPPPPPPP/R2K1R2 w KQkq - 0 1", uci: "d1f1", uci_std: "d1g1", san: "O-O", after: "r2k1r2/pppppppp/8/8/8/8/PPPPPPPP/R4RK1 b kq - 1 1" },
        Castle { fen: "r2k1r2/pppppppp/8/8/8/8/PPPPPPPP/R2K1R2 b KQkq - 0 1", uci: "d8f8", uci_std: "d8g8", san: "O-O", after: "r4rk1/pppppppp/8/8/8/8/PPPPPPPP/R2K1R2 w KQ - 1 2" },
        Castle { fen: "r3kr2/pppppppp/8/8/8/8/PPPPPPPP/R3KR2 w KQkq - 0 1", uci: "e1f1", uci_std: "e1g1", san: "O-O", after: "r3kr2/pppppppp/8/8/8/8/PPPPPPPP/R4RK1 b kq - 1 1" },
        Castle { fen: "r3kr2/pppppppp/8/8/8/8/PPPPPPPP/R3KR2 b KQkq - 0 1", uci: "e8f8", uci_std: "e8g8", san: "O-O", after: "r4rk1/pppppppp/8/8/8/8/PPPPPPPP/R3KR2 w KQ - 1 2" },
        Castle { fen: "3rk2r/pppppppp/8/8/8/8/PPPPPPPP/3RK2R w KQkq - 0 1", uci: "e1d1", uci_std: "e1c1", san: "O-O-O", after: "3rk2r/pppppppp/8/8/8/8/PPPPPPPP/2KR3R b kq - 1 1" },
        Castle { fen: "3rk2r/pppppppp/8/8/8/8/PPPPPPPP/3RK2R b KQkq - 0 1", uci: "e8d8", uci_std: "e8c8", san: "O-O-O", after: "2kr3r/pppppppp/8/8/8/8/PPPPPPPP/3RK2R w KQ - 1 2" },
        Castle { fen: "3r1k1r/pppppppp/8/8/8/8/PPPPPPPP/3R1K1R w KQkq - 0 1", uci: "f1d1", uci_std: "f1c1", san: "O-O-O", after: "3r1k1r/pppppppp/8/8/8/8/PPPPPPPP/2KR3R b kq - 1 1" },
        Castle { fen: "3r1k1r/pppppppp/8/8/8/8/PPPPPPPP/3R1K1R b KQkq - 0 1", uci: "f8d8", uci_std: "f8c8", san: "O-O-O", after: "2kr3r/pppppppp/8/8/8/8/PPPPPPPP/3R1K1R w KQ - 1 2" },
        Castle { fen: "3r2kr/pppppppp/8/8/8/8/PPPPPPPP/3R2KR w KQkq - 0 1", uci: "g1d1", uci_std: "g1c1", san: "O-O-O", after: "3r2kr/pppppppp/8/8/8/8/PPPPPPPP/2KR3R b kq - 1 1" },
        Castle { fen: "3r2kr/pppppppp/8/8/8/8/PPPPPPPP/3R2KR b KQkq - 0 1", uci: "g8d8", uci_std: "g8c8", san: "O-O-O", after: "2kr3r/pppppppp/8/8/8/8/PPPPPPPP/3R2KR w KQ - 1 2" },
    ] {
        check_castle(&c);
    }
}

#[test]
#[rustfmt::skip]
fn only_the_rook_moves() {
    // O-O with K g1, R h1; O-O-O with K c1 and R a1 or b1.
    for c in [
        Castle { fen: "3r2kr/pppppppp/8/8/8/8/PPPPPPPP/3R2KR w KQkq - 0 1", uci: "g1h1", uci_std: "g1h1", san: "O-O", after: "3r2kr/pppppppp/8/8/8/8/PPPPPPPP/3R1RK1 b kq - 1 1" },
        Castle { fen: "3r2kr/pppppppp/8/8/8/8/PPPPPPPP/3R2KR b KQkq - 0 1", uci: "g8h8", uci_std: "g8h8", san: "O-O", after: "3r1rk1/pppppppp/8/8/8/8/PPPPPPPP/3R2KR w KQ - 1 2" },
        Castle { fen: "r1k4r/pppppppp/8/8/8/8/PPPPPPPP/R1K4R w KQkq - 0 1", uci: "c1a1", uci_std: "c1a1", san: "O-O-O", after: "r1k4r/pppppppp/8/8/8/8/PPPPPPPP/2KR3R b kq - 1 1" },
        Castle { fen: "r1k4r/pppppppp/8/8/8/8/PPPPPPPP/R1K4R b KQkq - 0 1", uci: "c8a8", uci_std: "c8a8", san: "O-O-O", after: "2kr3r/pppppppp/8/8/8/8/PPPPPPPP/R1K4R w KQ - 1 2" },
        Castle { fen: "1rk1r3/pppppppp/8/8/8/8/PPPPPPPP/1RK1R3 w KQkq - 0 1", uci: "c1b1", uci_std: "c1b1", san: "O-O-O", after: "1rk1r3/pppppppp/8/8/8/8/PPPPPPPP/2KRR3 b kq - 1 1" },
        Castle { fen: "1rk1r3/pppppppp/8/8/8/8/PPPPPPPP/1RK1R3 b KQkq - 0 1", uci: "c8b8", uci_std: "c8b8", san: "O-O-O", after: "2krr3/pppppppp/8/8/8/8/PPPPPPPP/1RK1R3 w KQ - 1 2" },
    ] {
        check_castle(&c);
    }
}

#[test]
#[rustfmt::skip]
fn king_and_rook_swap() {
    // O-O with K f1, R g1; O-O-O with K d1, R c1.
    for c in [
        Castle { fen: "4rkr1/pppppppp/8/8/8/8/PPPPPPPP/4RKR1 w KQkq - 0 1", uci: "f1g1", uci_std: "f1g1", san: "O-O", after: "4rkr1/pppppppp/8/8/8/8/PPPPPPPP/4RRK1 b kq - 1 1" },
        Castle { fen: "4rkr1/pppppppp/8/8/8/8/PPPPPPPP/4RKR1 b KQkq - 0 1", uci: "f8g8", uci_std: "f8g8", san: "O-O", after: "4rrk1/pppppppp/8/8/8/8/PPPPPPPP/4RKR1 w KQ - 1 2" },
        Castle { fen: "2rk3r/pppppppp/8/8/8/8/PPPPPPPP/2RK3R w KQkq - 0 1", uci: "d1c1", uci_std: "d1c1", san: "O-O-O", after: "2rk3r/pppppppp/8/8/8/8/PPPPPPPP/2KR3R b kq - 1 1" },
        Castle { fen: "2rk3r/pppppppp/8/8/8/8/PPPPPPPP/2RK3R b KQkq - 0 1", uci: "d8c8", uci_std: "d8c8", san: "O-O-O", after: "2kr3r/pppppppp/8/8/8/8/PPPPPPPP/2RK3R w KQ - 1 2" },
    ] {
        check_castle(&c);
    }
}

#[test]
#[rustfmt::skip]
fn king_and_rook_move_the_same_way() {
    // O-O-O with K b1 R a1, K f1 R e1, K g1 R e1, K g1 R f1; and O-O with K c1 R e1 (both
    // move toward the h-file).
    for c in [
        Castle { fen: "rk3r2/pppppppp/8/8/8/8/PPPPPPPP/RK3R2 w KQkq - 0 1", uci: "b1a1", uci_std: "b1a1", san: "O-O-O", after: "rk3r2/pppppppp/8/8/8/8/PPPPPPPP/2KR1R2 b kq - 1 1" },
        Castle { fen: "rk3r2/pppppppp/8/8/8/8/PPPPPPPP/RK3R2 b KQkq - 0 1", uci: "b8a8", uci_std: "b8a8", san: "O-O-O", after: "2kr1r2/pppppppp/8/8/8/8/PPPPPPPP/RK3R2 w KQ - 1 2" },
        Castle { fen: "4rkr1/pppppppp/8/8/8/8/PPPPPPPP/4RKR1 w KQkq - 0 1", uci: "f1e1", uci_std: "f1c1", san: "O-O-O", after: "4rkr1/pppppppp/8/8/8/8/PPPPPPPP/2KR2R1 b kq - 1 1" },
        Castle { fen: "4rkr1/pppppppp/8/8/8/8/PPPPPPPP/4RKR1 b KQkq - 0 1", uci: "f8e8", uci_std: "f8c8", san: "O-O-O", after: "2kr2r1/pppppppp/8/8/8/8/PPPPPPPP/4RKR1 w KQ - 1 2" },
        Castle { fen: "4r1kr/pppppppp/8/8/8/8/PPPPPPPP/4R1KR w KQkq - 0 1", uci: "g1e1", uci_std: "g1c1", san: "O-O-O", after: "4r1kr/pppppppp/8/8/8/8/PPPPPPPP/2KR3R b kq - 1 1" },
        Castle { fen: "4r1kr/pppppppp/8/8/8/8/PPPPPPPP/4R1KR b KQkq - 0 1", uci: "g8e8", uci_std: "g8c8", san: "O-O-O", after: "2kr3r/pppppppp/8/8/8/8/PPPPPPPP/4R1KR w KQ - 1 2" },
        Castle { fen: "5rkr/pppppppp/8/8/8/8/PPPPPPPP/5RKR w KQkq - 0 1", uci: "g1f1", uci_std: "g1c1", san: "O-O-O", after: "5rkr/pppppppp/8/8/8/8/PPPPPPPP/2KR3R b kq - 1 1" },
        Castle { fen: "5rkr/pppppppp/8/8/8/8/PPPPPPPP/5RKR b KQkq - 0 1", uci: "g8f8", uci_std: "g8c8", san: "O-O-O", after: "2kr3r/pppppppp/8/8/8/8/PPPPPPPP/5RKR w KQ - 1 2" },
        Castle { fen: "1rk1r3/pppppppp/8/8/8/8/PPPPPPPP/1RK1R3 w KQkq - 0 1", uci: "c1e1", uci_std: "c1g1", san: "O-O", after: "1rk1r3/pppppppp/8/8/8/8/PPPPPPPP/1R3RK1 b kq - 1 1" },
        Castle { fen: "1rk1r3/pppppppp/8/8/8/8/PPPPPPPP/1RK1R3 b KQkq - 0 1", uci: "c8e8", uci_std: "c8g8", san: "O-O", after: "1r3rk1/pppppppp/8/8/8/8/PPPPPPPP/1RK1R3 w KQ - 1 2" },
    ] {
        check_castle(&c);
    }
    // With K g1, R f1, R h1 the h-side castle is blocked by the other rook on f1 (the h1
    // rook's destination); only O-O-O is legal (python-chess agrees).
    let p = pos("5rkr/pppppppp/8/8/8/8/PPPPPPPP/5RKR w KQkq - 0 1");
    assert_eq!(castle_ucis(&p), ["g1f1"]);
}

#[test]
#[rustfmt::skip]
fn king_moves_a_single_square() {
    // K f1 → g1 (rook h1 or g1), K b1 → c1 (rook a1), K d1 → c1 (rook a1, b1 or c1).
    for c in [
        Castle { fen: "r4k1r/pppppppp/8/8/8/8/PPPPPPPP/R4K1R w KQkq - 0 1", uci: "f1h1", uci_std: "f1h1", san: "O-O", after: "r4k1r/pppppppp/8/8/8/8/PPPPPPPP/R4RK1 b kq - 1 1" },
        Castle { fen: "r4k1r/pppppppp/8/8/8/8/PPPPPPPP/R4K1R b KQkq - 0 1", uci: "f8h8", uci_std: "f8h8", san: "O-O", after: "r4rk1/pppppppp/8/8/8/8/PPPPPPPP/R4K1R w KQ - 1 2" },
        Castle { fen: "4rkr1/pppppppp/8/8/8/8/PPPPPPPP/4RKR1 w KQkq - 0 1", uci: "f1g1", uci_std: "f1g1", san: "O-O", after: "4rkr1/pppppppp/8/8/8/8/PPPPPPPP/4RRK1 b kq - 1 1" },
        Castle { fen: "4rkr1/pppppppp/8/8/8/8/PPPPPPPP/4RKR1 b KQkq - 0 1", uci: "f8g8", uci_std: "f8g8", san: "O-O", after: "4rrk1/pppppppp/8/8/8/8/PPPPPPPP/4RKR1 w KQ - 1 2" },
        Castle { fen: "rk3r2/pppppppp/8/8/8/8/PPPPPPPP/RK3R2 w KQkq - 0 1", uci: "b1a1", uci_std: "b1a1", san: "O-O-O", after: "rk3r2/pppppppp/8/8/8/8/PPPPPPPP/2KR1R2 b kq - 1 1" },
        Castle { fen: "rk3r2/pppppppp/8/8/8/8/PPPPPPPP/RK3R2 b KQkq - 0 1", uci: "b8a8", uci_std: "b8a8", san: "O-O-O", after: "2kr1r2/pppppppp/8/8/8/8/PPPPPPPP/RK3R2 w KQ - 1 2" },
        Castle { fen: "r2k3r/pppppppp/8/8/8/8/PPPPPPPP/R2K3R w KQkq - 0 1", uci: "d1a1", uci_std: "d1a1", san: "O-O-O", after: "r2k3r/pppppppp/8/8/8/8/PPPPPPPP/2KR3R b kq - 1 1" },
        Castle { fen: "r2k3r/pppppppp/8/8/8/8/PPPPPPPP/R2K3R b KQkq - 0 1", uci: "d8a8", uci_std: "d8a8", san: "O-O-O", after: "2kr3r/pppppppp/8/8/8/8/PPPPPPPP/R2K3R w KQ - 1 2" },
        Castle { fen: "1r1k3r/pppppppp/8/8/8/8/PPPPPPPP/1R1K3R w KQkq - 0 1", uci: "d1b1", uci_std: "d1b1", san: "O-O-O", after: "1r1k3r/pppppppp/8/8/8/8/PPPPPPPP/2KR3R b kq - 1 1" },
        Castle { fen: "1r1k3r/pppppppp/8/8/8/8/PPPPPPPP/1R1K3R b KQkq - 0 1", uci: "d8b8", uci_std: "d8b8", san: "O-O-O", after: "2kr3r/pppppppp/8/8/8/8/PPPPPPPP/1R1K3R w KQ - 1 2" },
        Castle { fen: "2rk3r/pppppppp/8/8/8/8/PPPPPPPP/2RK3R w KQkq - 0 1", uci: "d1c1", uci_std: "d1c1", san: "O-O-O", after: "2rk3r/pppppppp/8/8/8/8/PPPPPPPP/2KR3R b kq - 1 1" },
        Castle { fen: "2rk3r/pppppppp/8/8/8/8/PPPPPPPP/2RK3R b KQkq - 0 1", uci: "d8c8", uci_std: "d8c8", san: "O-O-O", after: "2kr3r/pppppppp/8/8/8/8/PPPPPPPP/2RK3R w KQ - 1 2" },
    ] {
        check_castle(&c);
    }
}

#[test]
#[rustfmt::skip]
fn classical_castling() {
    for c in [
        Castle { fen: "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1", uci: "e1h1", uci_std: "e1g1", san: "O-O", after: "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R4RK1 b kq - 1 1" },
        Castle { fen: "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R b KQkq - 0 1", uci: "e8h8", uci_std: "e8g8", san: "O-O", after: "r4rk1/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQ - 1 2" },
        Castle { fen: "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1", uci: "e1a1", uci_std: "e1c1", san: "O-O-O", after: "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/2KR3R b kq - 1 1" },
        Castle { fen: "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R b KQkq - 0 1", uci: "e8a8", uci_std: "e8c8", san: "O-O-O", after: "2kr3r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQ - 1 2" },
    ] {
        check_castle(&c);
    }
    // In Chess960 mode the two-square king move is not castling, and says why.
    let p = pos("r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1");
    let err = p.parse_uci("e1g1", CastlingMode::Chess960).unwrap_err();
    assert!(err.to_string().contains("king onto rook"), "{err}");
    assert!(p.parse_uci("e1c1", CastlingMode::Chess960).is_err());
}

#[test]
fn castling_with_check_suffix() {
    // K g1 R h1 O-O: the rook lands on f1 and checks the king on f8.
    check_castle(&Castle {
        fen: "5k2/8/8/8/8/8/8/6KR w K - 0 1",
        uci: "g1h1",
        uci_std: "g1h1",
        san: "O-O+",
        after: "5k2/8/8/8/8/8/8/5RK1 b - - 1 1",
    });
}

/// The one-square king move and the castle are two different legal moves, and every notation
/// keeps them apart (§2, §4).
#[test]
#[rustfmt::skip]
fn one_square_king_move_is_not_castling() {
    // (fen, king step, castle, SAN of the step, FEN after the step, FEN after the castle)
    let cases = [
        ("4k3/8/8/8/8/8/8/RK6 w Q - 0 1", "b1c1", "b1a1", "Kc1", "4k3/8/8/8/8/8/8/R1K5 b - - 1 1", "4k3/8/8/8/8/8/8/2KR4 b - - 1 1"),
        ("rk6/8/8/8/8/8/8/4K3 b q - 0 1", "b8c8", "b8a8", "Kc8", "r1k5/8/8/8/8/8/8/4K3 w - - 1 2", "2kr4/8/8/8/8/8/8/4K3 w - - 1 2"),
        ("4k3/8/8/8/8/8/8/5K1R w K - 0 1", "f1g1", "f1h1", "Kg1", "4k3/8/8/8/8/8/8/6KR b - - 1 1", "4k3/8/8/8/8/8/8/5RK1 b - - 1 1"),
        ("5k1r/8/8/8/8/8/8/4K3 b k - 0 1", "f8g8", "f8h8", "Kg8", "6kr/8/8/8/8/8/8/4K3 w - - 1 2", "5rk1/8/8/8/8/8/8/4K3 w - - 1 2"),
        ("4k3/8/8/8/8/8/8/R2K4 w Q - 0 1", "d1c1", "d1a1", "Kc1", "4k3/8/8/8/8/8/8/R1K5 b - - 1 1", "4k3/8/8/8/8/8/8/2KR4 b - - 1 1"),
        ("r2k4/8/8/8/8/8/8/4K3 b q - 0 1", "d8c8", "d8a8", "Kc8", "r1k5/8/8/8/8/8/8/4K3 w - - 1 2", "2kr4/8/8/8/8/8/8/4K3 w - - 1 2"),
    ];
    for (fen, step_uci, castle_uci, step_san, after_step, after_castle) in cases {
        let p = pos(fen);
        let step = p.parse_uci(step_uci, CastlingMode::Chess960).unwrap();
        let castle = p.parse_uci(castle_uci, CastlingMode::Chess960).unwrap();
        assert_ne!(step, castle, "{fen}");
        assert!(!step.is_castle() && castle.is_castle(), "{fen}");
        assert!(p.legal_moves().contains(&step) && p.legal_moves().contains(&castle));
        assert_eq!(p.san(step), step_san, "{fen}");
        assert!(p.san(castle).starts_with("O-O"), "{fen}");
        // SAN: the king move is never castling, castling is never the king move.
        assert_eq!(p.parse_san(step_san), Ok(step), "{fen}");
        assert_eq!(p.parse_san(&format!("K{}", &castle_uci[2..])).ok(), None, "{fen}: K onto own rook");
        assert_eq!(p.parse_san(&p.san(castle)), Ok(castle), "{fen}");
        // Standard mode: a one-square king move is never a castle; king onto rook still is.
        assert_eq!(p.parse_uci(step_uci, CastlingMode::Standard), Ok(step), "{fen}");
        assert_eq!(p.parse_uci(castle_uci, CastlingMode::Standard), Ok(castle), "{fen}");
        // Writing: Chess960 keeps them apart.
        assert_eq!(step.to_uci(CastlingMode::Chess960), step_uci);
        assert_eq!(castle.to_uci(CastlingMode::Chess960), castle_uci);
        assert_eq!(p.play(step).fen(), after_step, "{fen}");
        assert_eq!(p.play(castle).fen(), after_castle, "{fen}");
    }
}

#[test]
fn no_castling_out_of_check_even_if_the_king_stays() {
    for fen in [
        // K g1 R h1 (only the rook would move), checked by the rook on g8.
        "4k1r1/8/8/8/8/8/8/6KR w K - 0 1",
        // K c1 R a1, checked by the rook on c8.
        "2r1k3/8/8/8/8/8/8/R1K5 w Q - 0 1",
        // Black K b8 R a8, checked by the rook on b1.
        "rk6/8/8/8/8/8/8/1R2K3 b q - 0 1",
    ] {
        let p = pos(fen);
        assert!(p.is_check(), "{fen}");
        assert!(castles(&p).is_empty(), "{fen}: {:?}", castles(&p));
        assert!(
            p.parse_san("O-O").is_err() && p.parse_san("O-O-O").is_err(),
            "{fen}"
        );
    }
}

#[test]
fn the_king_may_not_end_in_check_when_its_rook_shielded_it() {
    // The castling rook stood between the king's final square and an enemy rook on the back
    // rank: after castling nothing shields the king. Each position is followed by the same
    // one without the enemy rook, where castling is legal.
    let cases = [
        // K c1 R b1, black rook a1: only the rook would move.
        (
            "4k3/8/8/8/8/8/8/rRK5 w Q - 0 1",
            "4k3/8/8/8/8/8/8/1RK5 w Q - 0 1",
            "c1b1",
        ),
        // K d1 R c1 swap, black rook b1.
        (
            "4k3/8/8/8/8/8/8/1rRK4 w Q - 0 1",
            "4k3/8/8/8/8/8/8/2RK4 w Q - 0 1",
            "d1c1",
        ),
        // K f1 R g1 swap, black rook h1.
        (
            "4k3/8/8/8/8/8/8/5KRr w K - 0 1",
            "4k3/8/8/8/8/8/8/5KR1 w K - 0 1",
            "f1g1",
        ),
        // Black: K c8 R b8, white rook a8.
        (
            "Rrk5/8/8/8/8/8/8/4K3 b q - 0 1",
            "1rk5/8/8/8/8/8/8/4K3 b q - 0 1",
            "c8b8",
        ),
        // Black: K f8 R g8, white rook h8.
        (
            "5krR/8/8/8/8/8/8/4K3 b k - 0 1",
            "5kr1/8/8/8/8/8/8/4K3 b k - 0 1",
            "f8g8",
        ),
    ];
    for (shielded, free, uci) in cases {
        let p = pos(shielded);
        assert!(!p.is_check(), "{shielded}: the rook shields the king now");
        assert!(castles(&p).is_empty(), "{shielded}: {:?}", castles(&p));
        assert!(
            p.parse_uci(uci, CastlingMode::Chess960).is_err(),
            "{shielded}"
        );
        let q = pos(free);
        assert_eq!(castle_ucis(&q), [uci], "{free}");
    }
}

#[test]
fn the_king_may_not_pass_or_land_on_an_attacked_square() {
    for fen in [
        // K b1 R f1 O-O: d1 (passed) attacked by the rook on d8.
        "3rk3/8/8/8/8/8/8/1K3R2 w K - 0 1",
        // K b1 R f1 O-O: g1 (landing) attacked by the knight on h3.
        "4k3/8/8/8/8/7n/8/1K3R2 w K - 0 1",
        // K b1 R d1 O-O: the king passes its own rook's square d1, attacked by the rook on d8.
        "3rk3/8/8/8/8/8/8/1K1R4 w K - 0 1",
        // Black K b8 R f8 O-O: d8 attacked by the rook on d1.
        "1k3r2/8/8/8/8/8/8/3RK3 b k - 0 1",
    ] {
        let p = pos(fen);
        assert!(!p.is_check(), "{fen}");
        assert!(castles(&p).is_empty(), "{fen}: {:?}", castles(&p));
    }
    // Without the attackers the same castles are legal.
    assert_eq!(
        castle_ucis(&pos("4k3/8/8/8/8/8/8/1K3R2 w K - 0 1")),
        ["b1f1"]
    );
    assert_eq!(
        castle_ucis(&pos("4k3/8/8/8/8/8/8/1K1R4 w K - 0 1")),
        ["b1d1"]
    );
    assert_eq!(
        castle_ucis(&pos("1k3r2/8/8/8/8/8/8/4K3 b k - 0 1")),
        ["b8f8"]
    );
}

#[test]
fn squares_only_the_rook_crosses_may_be_attacked() {
    // K c1 R a1: the rook crosses b1, attacked by the rook on b8; legal.
    let p = pos("1r2k3/8/8/8/8/8/8/R1K5 w Q - 0 1");
    assert_eq!(castle_ucis(&p), ["c1a1"]);
    // The castling rook itself attacked (a8 rook on the a-file): legal.
    let p = pos("r3k3/8/8/8/8/8/8/R1K5 w Q - 0 1");
    assert_eq!(castle_ucis(&p), ["c1a1"]);
    assert_eq!(
        p.play(p.parse_san("O-O-O").unwrap()).fen(),
        "r3k3/8/8/8/8/8/8/2KR4 b - - 1 1"
    );
}

#[test]
fn own_pieces_on_the_paths_block_castling() {
    for fen in [
        // A knight on the king's path (d1) for K b1 R f1 O-O.
        "4k3/8/8/8/8/8/8/1K1N1R2 w K - 0 1",
        // A bishop on the rook's destination (d1) for K c1 R a1 O-O-O.
        "4k3/8/8/8/8/8/8/R1KB4 w Q - 0 1",
        // The other rook (c1) on the king's path for K b1 R h1 O-O.
        "4k3/8/8/8/8/8/8/1KR4R w H - 0 1",
        // The other rook (f1) on the rook's destination for K g1 R h1 O-O (no right on f1).
        "6k1/8/8/8/8/8/8/5RKR w H - 0 1",
    ] {
        let p = pos(fen);
        assert!(castles(&p).is_empty(), "{fen}: {:?}", castles(&p));
        assert!(
            p.parse_san("O-O").is_err() && p.parse_san("O-O-O").is_err(),
            "{fen}"
        );
    }
}

#[test]
fn enemy_pieces_on_the_paths_block_castling() {
    for fen in [
        // A black bishop on d1, the rook's destination, for K b1 R a1 O-O-O (no capture).
        "4k3/8/8/8/8/8/8/RK1b4 w Q - 0 1",
        // A black knight on e1, on the king's path, for K b1 R f1 O-O.
        "4k3/8/8/8/8/8/8/1K2nR2 w K - 0 1",
    ] {
        let p = pos(fen);
        assert!(!p.is_check(), "{fen}");
        assert!(castles(&p).is_empty(), "{fen}: {:?}", castles(&p));
    }
}

#[test]
fn squares_off_the_paths_may_be_occupied() {
    // K b1 R a1 O-O-O: the king goes to c1, the rook to d1; a knight on e1 is in nobody's way
    // ("after O-O-O, a1, b1 or e1 can still be occupied").
    let p = pos("4k3/8/8/8/8/8/8/RK2N3 w Q - 0 1");
    assert_eq!(castle_ucis(&p), ["b1a1"]);
    assert_eq!(
        p.play(p.parse_san("O-O-O").unwrap()).fen(),
        "4k3/8/8/8/8/8/8/2KRN3 b - - 1 1"
    );
}

#[test]
fn rights_are_lost_by_king_moves_rook_moves_and_captures() {
    let start = pos("1r4kr/8/8/8/8/8/8/1R4KR w KQkq - 0 1");
    assert_eq!(castle_ucis(&start), ["g1b1", "g1h1"]);

    // King move: both white rights gone, for good.
    let p = start.play(start.parse_uci("g1f1", CastlingMode::Chess960).unwrap());
    assert_eq!(p.fen(), "1r4kr/8/8/8/8/8/8/1R3K1R b kq - 1 1");
    assert_eq!(p.castling_rook(Color::White, CastlingSide::HSide), None);
    assert_eq!(p.castling_rook(Color::White, CastlingSide::ASide), None);
    let mut q = start;
    for san in ["Kf1", "Kf8", "Kg1", "Kg8"] {
        q = q.play(q.parse_san(san).unwrap());
    }
    assert_eq!(q.fen(), "1r4kr/8/8/8/8/8/8/1R4KR w - - 4 3");
    assert!(castles(&q).is_empty());

    // h-side rook move: only that right goes.
    let p = start.play(start.parse_san("Rh2").unwrap());
    assert_eq!(p.fen(), "1r4kr/8/8/8/8/8/7R/1R4K1 b Qkq - 1 1");
    assert_eq!(p.castling_rook(Color::White, CastlingSide::HSide), None);
    assert_eq!(
        p.castling_rook(Color::White, CastlingSide::ASide),
        Some(sq("b1"))
    );
    // a-side rook move.
    let p = start.play(start.parse_san("Rb2").unwrap());
    assert_eq!(p.fen(), "1r4kr/8/8/8/8/8/1R6/6KR b Kkq - 1 1");

    // Capture: Rxb1 removes White's a-side right (its rook is gone) and Black's (its rook
    // moved).
    let start_b = pos("1r4kr/8/8/8/8/8/8/1R4KR b KQkq - 0 1");
    let m = start_b.parse_san("Rxb1").unwrap();
    assert_eq!(start_b.san(m), "Rxb1+");
    let p = start_b.play(m);
    assert_eq!(p.fen(), "6kr/8/8/8/8/8/8/1r4KR w Kk - 0 2");
    assert_eq!(p.castling_rook(Color::White, CastlingSide::ASide), None);
    assert_eq!(
        p.castling_rook(Color::White, CastlingSide::HSide),
        Some(sq("h1"))
    );
    assert_eq!(p.castling_rook(Color::Black, CastlingSide::ASide), None);
    assert_eq!(
        p.castling_rook(Color::Black, CastlingSide::HSide),
        Some(sq("h8"))
    );
}

#[test]
fn inner_rook_right_castles_with_that_rook() {
    // Two white rooks on the h-side of the king (e1, h1); the right names the inner one (E).
    let p = pos("6k1/8/8/8/8/8/8/1K2R2R w E - 0 1");
    assert_eq!(
        p.castling_rook(Color::White, CastlingSide::HSide),
        Some(sq("e1"))
    );
    assert_eq!(p.fen(), "6k1/8/8/8/8/8/8/1K2R2R w E - 0 1");
    assert_eq!(
        p.to_fen(chess960_core::CastlingDialect::Shredder),
        "6k1/8/8/8/8/8/8/1K2R2R w E - 0 1"
    );
    check_castle(&Castle {
        fen: "6k1/8/8/8/8/8/8/1K2R2R w E - 0 1",
        uci: "b1e1",
        uci_std: "b1g1",
        san: "O-O",
        after: "6k1/8/8/8/8/8/8/5RKR b - - 1 1",
    });
    // The outer rook has no right: b1h1 is not a move.
    assert!(p.parse_uci("b1h1", CastlingMode::Chess960).is_err());
    check_castle(&Castle {
        fen: "1k2r2r/8/8/8/8/8/8/6K1 b e - 0 1",
        uci: "b8e8",
        uci_std: "b8g8",
        san: "O-O",
        after: "5rkr/8/8/8/8/8/8/6K1 w - - 1 2",
    });

    // With the right on the outer rook (K = H), the inner rook blocks the king's path.
    for fen in [
        "6k1/8/8/8/8/8/8/1K2R2R w K - 0 1",
        "6k1/8/8/8/8/8/8/1K2R2R w H - 0 1",
    ] {
        let p = pos(fen);
        assert_eq!(
            p.castling_rook(Color::White, CastlingSide::HSide),
            Some(sq("h1"))
        );
        assert_eq!(p.castling_field(chess960_core::CastlingDialect::XFen), "K");
        assert!(castles(&p).is_empty(), "{fen}");
    }
    // A middle rook's right (F, rooks c1 f1 h1): the c1 rook blocks the king.
    let p = pos("6k1/8/8/8/8/8/8/1KR2R1R w F - 0 1");
    assert_eq!(
        p.castling_rook(Color::White, CastlingSide::HSide),
        Some(sq("f1"))
    );
    assert_eq!(p.fen(), "6k1/8/8/8/8/8/8/1KR2R1R w F - 0 1");
    assert!(castles(&p).is_empty());
}

#[test]
fn standard_mode_reads_the_two_square_king_move() {
    let p = pos("6k1/8/8/8/8/8/8/3RK2R w KQ - 0 1");
    let oo = p.parse_uci("e1g1", CastlingMode::Standard).unwrap();
    assert_eq!(oo, Move::castle(sq("e1"), sq("h1")));
    // K e1 R d1: O-O-O only moves the king (to c1, two squares).
    let ooo = p.parse_uci("e1c1", CastlingMode::Standard).unwrap();
    assert_eq!(ooo, Move::castle(sq("e1"), sq("d1")));
    assert_eq!(ooo.to_uci(CastlingMode::Standard), "e1c1");
    assert_eq!(ooo.to_uci(CastlingMode::Chess960), "e1d1");
    assert_eq!(p.play(oo).fen(), "6k1/8/8/8/8/8/8/3R1RK1 b - - 1 1");
}
