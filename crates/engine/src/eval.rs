//! Static evaluation: tapered middlegame/endgame terms, from the side to move's point of view.
//!
//! Terms: material, piece-square tables, mobility, pawn structure (doubled, isolated, passed),
//! king safety (pawn shield, attackers near the king), the bishop pair, rooks on open files,
//! and Chess960 terms classical engines lack: a corner bishop blocked by its own pawn, and a
//! king that has not castled while its rooks are still boxed in.

use chess960_core::attacks::{
    bishop_attacks, king_attacks, knight_attacks, pawn_attacks, rook_attacks,
};
use chess960_core::{Bitboard, Color, File, Piece, Position, Rank, Role, Square};

/// A middlegame/endgame score pair.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Score(pub i32, pub i32);

impl std::ops::Add for Score {
    type Output = Score;
    fn add(self, o: Score) -> Score {
        Score(self.0 + o.0, self.1 + o.1)
    }
}
impl std::ops::Sub for Score {
    type Output = Score;
    fn sub(self, o: Score) -> Score {
        Score(self.0 - o.0, self.1 - o.1)
    }
}
impl std::ops::AddAssign for Score {
    fn add_assign(&mut self, o: Score) {
        self.0 += o.0;
        self.1 += o.1;
    }
}
impl std::ops::SubAssign for Score {
    fn sub_assign(&mut self, o: Score) {
        self.0 -= o.0;
        self.1 -= o.1;
    }
}
impl std::ops::Mul<i32> for Score {
    type Output = Score;
    fn mul(self, k: i32) -> Score {
        Score(self.0 * k, self.1 * k)
    }
}

const fn s(mg: i32, eg: i32) -> Score {
    Score(mg, eg)
}

/// Material values (middlegame, endgame), pawn to king.
pub const MATERIAL: [Score; 6] = [
    s(82, 94),
    s(337, 281),
    s(365, 297),
    s(477, 512),
    s(1025, 936),
    s(0, 0),
];

/// Values used for move ordering and SEE (single numbers).
pub const SEE_VALUE: [i32; 6] = [100, 320, 330, 500, 950, 20000];

/// Game phase weight of each role (24 = all pieces on the board).
const PHASE: [i32; 6] = [0, 1, 1, 2, 4, 0];

/// Piece-square bonuses, from White's point of view, a1 first. Built from simple, explainable
/// shapes (centralisation, advancement) rather than copied tables, so that they can be tuned.
struct Tables {
    psq: [[Score; 64]; 6],
}

const fn centre_distance(sq: usize) -> i32 {
    let f = (sq % 8) as i32;
    let r = (sq / 8) as i32;
    let df = if f < 4 { 3 - f } else { f - 4 };
    let dr = if r < 4 { 3 - r } else { r - 4 };
    df + dr
}

const fn build_tables() -> Tables {
    let mut psq = [[Score(0, 0); 64]; 6];
    let mut sq = 0;
    while sq < 64 {
        let f = (sq % 8) as i32;
        let r = (sq / 8) as i32;
        let cd = centre_distance(sq);
        let file_centre = if f < 4 { f } else { 7 - f }; // 0 on the rim, 3 in the centre
                                                         // Pawns: advance, and centre pawns early on.
        psq[0][sq] = if r == 0 || r == 7 {
            Score(0, 0)
        } else {
            Score(
                (r - 1) * 4 + if file_centre >= 2 && r >= 3 { 10 } else { 0 },
                (r - 1) * 10,
            )
        };
        psq[1][sq] = Score(20 - cd * 8, 12 - cd * 5);
        psq[2][sq] = Score(12 - cd * 4, 8 - cd * 3);
        psq[3][sq] = Score(if r == 6 { 15 } else { 0 }, if r == 6 { 10 } else { 0 });
        psq[4][sq] = Score(4 - cd * 2, 12 - cd * 4);
        // King: stay back and to the side in the middlegame, centralise in the endgame.
        psq[5][sq] = Score(
            if r == 0 {
                10 - file_centre * 8
            } else {
                -20 - r * 10
            },
            20 - cd * 8,
        );
        sq += 1;
    }
    Tables { psq }
}

static TABLES: Tables = build_tables();

const MOBILITY: [Score; 6] = [s(0, 0), s(4, 4), s(5, 5), s(2, 4), s(1, 2), s(0, 0)];
const BISHOP_PAIR: Score = s(30, 50);
const DOUBLED: Score = s(-10, -20);
const ISOLATED: Score = s(-12, -10);
const PASSED: [Score; 8] = [
    s(0, 0),
    s(5, 10),
    s(5, 15),
    s(10, 25),
    s(25, 50),
    s(45, 90),
    s(70, 140),
    s(0, 0),
];
const ROOK_OPEN: Score = s(25, 10);
const ROOK_SEMI_OPEN: Score = s(12, 5);
const SHIELD: Score = s(12, 0);
const KING_ATTACK: [i32; 6] = [0, 20, 20, 40, 80, 0];
const TEMPO: i32 = 12;
/// A bishop in a corner (a1, h1 …) whose diagonal is blocked by its own pawn: a Chess960
/// classic that costs a tempo or two to fix.
const CORNER_BISHOP_BLOCKED: Score = s(-35, -15);
/// A king still on the back rank with a rook walled in beside it and no castling right left.
const TRAPPED_ROOK: Score = s(-30, -5);

/// The evaluation of `pos` in centipawns, from the side to move's point of view.
pub fn evaluate(pos: &Position) -> i32 {
    let b = pos.board();
    let occ = b.occupied();
    let mut score = Score(0, 0);
    let mut phase = 0;
    for color in Color::ALL {
        let sign_score = side_score(pos, color, occ, &mut phase);
        if color == Color::White {
            score += sign_score;
        } else {
            score -= sign_score;
        }
    }
    let phase = phase.min(24);
    let mut v = (score.0 * phase + score.1 * (24 - phase)) / 24;
    // Drawish material: scale down when the side ahead has no pawns and little extra.
    v = scale_for_material(pos, v);
    let v = if pos.turn() == Color::White { v } else { -v };
    v + TEMPO
}

fn scale_for_material(pos: &Position, v: i32) -> i32 {
    let b = pos.board();
    let strong = if v > 0 { Color::White } else { Color::Black };
    let strong_pawns = (b.by_color(strong) & b.by_role(Role::Pawn)).count();
    if strong_pawns == 0 {
        let value = |c: Color| -> i32 {
            [Role::Knight, Role::Bishop, Role::Rook, Role::Queen]
                .iter()
                .map(|&r| (b.by_color(c) & b.by_role(r)).count() as i32 * SEE_VALUE[r.index()])
                .sum()
        };
        if value(strong) - value(!strong) <= SEE_VALUE[Role::Bishop.index()] {
            return v / 8;
        }
    }
    v
}

fn relative(sq: Square, color: Color) -> usize {
    sq.relative(color).index()
}

fn side_score(pos: &Position, us: Color, occ: Bitboard, phase: &mut i32) -> Score {
    let b = pos.board();
    let them = !us;
    let ours = b.by_color(us);
    let our_pawns = ours & b.by_role(Role::Pawn);
    let their_pawns = b.by_color(them) & b.by_role(Role::Pawn);
    let their_pawn_attacks = their_pawns
        .into_iter()
        .fold(Bitboard::EMPTY, |acc, sq| acc | pawn_attacks(them, sq));
    let their_king = pos.king_of(them);
    let king_zone = king_attacks(their_king).with(their_king);
    let mobility_area = !(ours | their_pawn_attacks);
    let mut score = Score(0, 0);
    let mut attack_weight = 0;
    let mut attackers = 0;

    for role in Role::ALL {
        for sq in ours & b.by_role(role) {
            score += MATERIAL[role.index()];
            score += TABLES.psq[role.index()][relative(sq, us)];
            *phase += PHASE[role.index()];
            let att = match role {
                Role::Knight => knight_attacks(sq),
                Role::Bishop => bishop_attacks(sq, occ),
                Role::Rook => rook_attacks(sq, occ),
                Role::Queen => bishop_attacks(sq, occ) | rook_attacks(sq, occ),
                _ => continue,
            };
            score += MOBILITY[role.index()] * (att & mobility_area).count() as i32;
            if (att & king_zone).any() {
                attackers += 1;
                attack_weight += KING_ATTACK[role.index()] * (att & king_zone).count() as i32;
            }
        }
    }

    if (ours & b.by_role(Role::Bishop) & Bitboard::LIGHT_SQUARES).any()
        && (ours & b.by_role(Role::Bishop) & Bitboard::DARK_SQUARES).any()
    {
        score += BISHOP_PAIR;
    }

    // Pawn structure.
    for sq in our_pawns {
        let file = sq.file();
        let file_bb = Bitboard::from_file(file);
        let adjacent = adjacent_files(file);
        if (our_pawns & file_bb).more_than_one() {
            score += DOUBLED;
        }
        if (our_pawns & adjacent).is_empty() {
            score += ISOLATED;
        }
        let ahead = ahead_mask(sq, us);
        if (their_pawns & ahead & (file_bb | adjacent)).is_empty() {
            let rank = sq.rank().relative(us).index();
            score += PASSED[rank];
        }
    }

    // Rooks on open and half-open files.
    for sq in ours & b.by_role(Role::Rook) {
        let file_bb = Bitboard::from_file(sq.file());
        if (our_pawns & file_bb).is_empty() {
            score += if (their_pawns & file_bb).is_empty() {
                ROOK_OPEN
            } else {
                ROOK_SEMI_OPEN
            };
        }
    }

    // King safety: our pawn shield, and the attack on their king computed above.
    let king = pos.king_of(us);
    let shield_zone = king_attacks(king) & ahead_mask(king, us);
    score += SHIELD * (shield_zone & our_pawns).count().min(3) as i32;
    if attackers >= 2 {
        let danger = attack_weight * attackers / 2;
        score += Score(danger.min(500), danger.min(500) / 8);
    }

    score += chess960_terms(pos, us);
    score
}

/// Terms for Chess960 starting structures.
fn chess960_terms(pos: &Position, us: Color) -> Score {
    let b = pos.board();
    let ours = b.by_color(us);
    let back = us.back_rank();
    let mut score = Score(0, 0);
    // Corner bishops whose only diagonal out is blocked by an own pawn.
    for (corner, block) in [(File::A, File::B), (File::H, File::G)] {
        let sq = Square::from_coords(corner, back);
        if b.piece_at(sq)
            == Some(Piece {
                color: us,
                role: Role::Bishop,
            })
        {
            let pawn_sq = Square::from_coords(block, Rank::Second.relative(us));
            if b.piece_at(pawn_sq)
                == Some(Piece {
                    color: us,
                    role: Role::Pawn,
                })
            {
                score += CORNER_BISHOP_BLOCKED;
            }
        }
    }
    // A king on the back rank, no castling rights left, with a rook shut in between it and the
    // corner: the rook cannot get out without the king moving.
    let king = pos.king_of(us);
    let no_rights = (pos.castling_rights() & Bitboard::from_rank(back)).is_empty();
    if no_rights && king.rank() == back {
        for rook in ours & b.by_role(Role::Rook) & Bitboard::from_rank(back) {
            let shut_in = if rook < king {
                rook.file() < king.file() && king.file() <= File::D
            } else {
                rook.file() > king.file() && king.file() >= File::E
            };
            if shut_in {
                let out = rook_attacks(rook, b.occupied()) & !Bitboard::from_rank(back);
                if out.count() <= 1 {
                    score += TRAPPED_ROOK;
                }
            }
        }
    }
    score
}

fn adjacent_files(file: File) -> Bitboard {
    let mut bb = Bitboard::EMPTY;
    if file != File::A {
        bb |= Bitboard::from_file(File::ALL[file.index() - 1]);
    }
    if file != File::H {
        bb |= Bitboard::from_file(File::ALL[file.index() + 1]);
    }
    bb
}

/// Squares on the ranks ahead of `sq` from `color`'s point of view.
fn ahead_mask(sq: Square, color: Color) -> Bitboard {
    let r = sq.rank().index();
    match color {
        Color::White => {
            if r == 7 {
                Bitboard::EMPTY
            } else {
                Bitboard(!0u64 << (8 * (r + 1)))
            }
        }
        Color::Black => Bitboard((1u64 << (8 * r)) - 1),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chess960_core::StartId;

    fn mirror(fen: &str) -> String {
        // Swap colours and flip ranks, so the evaluation must be the same for the side to move.
        let parts: Vec<&str> = fen.split(' ').collect();
        let ranks: Vec<String> = parts[0]
            .split('/')
            .rev()
            .map(|r| {
                r.chars()
                    .map(|c| {
                        if c.is_ascii_uppercase() {
                            c.to_ascii_lowercase()
                        } else {
                            c.to_ascii_uppercase()
                        }
                    })
                    .collect()
            })
            .collect();
        let turn = if parts[1] == "w" { "b" } else { "w" };
        let castling: String = if parts[2] == "-" {
            "-".into()
        } else {
            parts[2]
                .chars()
                .map(|c| {
                    if c.is_ascii_uppercase() {
                        c.to_ascii_lowercase()
                    } else {
                        c.to_ascii_uppercase()
                    }
                })
                .collect()
        };
        format!("{} {turn} {castling} - 0 1", ranks.join("/"))
    }

    #[test]
    fn symmetric() {
        for fen in [
            "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
            "8/5k2/3p4/1p1Pp2p/pP2Pp1P/P4P1K/8/8 b - - 0 1",
            "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
        ] {
            let a = Position::from_fen(fen).unwrap();
            let b = Position::from_fen(&mirror(fen)).unwrap();
            assert_eq!(evaluate(&a), evaluate(&b), "{fen}");
        }
    }

    #[test]
    fn start_positions_are_near_balanced() {
        for id in StartId::all() {
            let v = evaluate(&id.position());
            assert!(v.abs() <= 40, "{id}: {v}");
        }
    }

    #[test]
    fn material_counts() {
        let up_queen = Position::from_fen("4k3/8/8/8/8/8/8/3QK3 w - - 0 1").unwrap();
        assert!(evaluate(&up_queen) > 800);
        let bare = Position::from_fen("4k3/8/8/8/8/8/8/3NK3 w - - 0 1").unwrap();
        assert!(evaluate(&bare) < 100, "a lone knight cannot win");
    }
}
