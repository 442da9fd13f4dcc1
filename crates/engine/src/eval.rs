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

/// Values used for move ordering and SEE (single numbers).
pub const SEE_VALUE: [i32; 6] = [100, 320, 330, 500, 950, 20000];

/// Game phase weight of each role (24 = all pieces on the board).
const PHASE: [i32; 6] = [0, 1, 1, 2, 4, 0];

/// Layout of the weight vector ([`crate::weights::WEIGHTS`]): every evaluation weight is one
/// middlegame/endgame [`Score`] at a fixed index, so that the tuner can treat the evaluation as
/// a linear function of the weights (see [`trace`]).
pub mod layout {
    /// Material, pawn to king (the king's entry is unused, kept for simple indexing).
    pub const MATERIAL: usize = 0;
    /// Piece-square tables, 32 squares per role (a–d files; e–h mirror them), from the side's
    /// own point of view, rank 1 first.
    pub const PSQ: usize = MATERIAL + 6;
    /// Mobility by number of reachable squares: knight 0–8, bishop 0–13, rook 0–14, queen 0–27.
    pub const MOBILITY: usize = PSQ + 6 * 32;
    /// Offset of each role's mobility table within [`MOBILITY`].
    pub const MOBILITY_OFFSET: [usize; 6] = [0, 0, 9, 23, 38, 0];
    /// Both bishops, on light and dark squares.
    pub const BISHOP_PAIR: usize = MOBILITY + 66;
    /// Each pawn with another own pawn on its file.
    pub const DOUBLED: usize = BISHOP_PAIR + 1;
    /// Each pawn with no own pawn on the adjacent files.
    pub const ISOLATED: usize = DOUBLED + 1;
    /// Passed pawns by relative rank (1–8).
    pub const PASSED: usize = ISOLATED + 1;
    /// A rook on a file without pawns.
    pub const ROOK_OPEN: usize = PASSED + 8;
    /// A rook on a file with enemy pawns only.
    pub const ROOK_SEMI_OPEN: usize = ROOK_OPEN + 1;
    /// Each own pawn (up to three) in front of the king.
    pub const SHIELD: usize = ROOK_SEMI_OPEN + 1;
    /// King attack by role (knight to queen): per attacked king-zone square times the number
    /// of attackers, counted when at least two pieces attack.
    pub const KING_ATTACK: usize = SHIELD + 1;
    /// A corner bishop blocked by its own b-/g-pawn (Chess960).
    pub const CORNER_BISHOP_BLOCKED: usize = KING_ATTACK + 6;
    /// A rook shut in by its uncastled king (Chess960).
    pub const TRAPPED_ROOK: usize = CORNER_BISHOP_BLOCKED + 1;
    /// The side to move.
    pub const TEMPO: usize = TRAPPED_ROOK + 1;
    /// Number of weights.
    pub const N: usize = TEMPO + 1;

    /// A readable name for weight `i` (for the tuner's report).
    pub fn name(i: usize) -> String {
        const ROLES: [&str; 6] = ["pawn", "knight", "bishop", "rook", "queen", "king"];
        const FILES: [char; 4] = ['a', 'b', 'c', 'd'];
        match i {
            _ if i < PSQ => format!("material {}", ROLES[i - MATERIAL]),
            _ if i < MOBILITY => {
                let j = i - PSQ;
                let sq = j % 32;
                format!("psq {} {}{}", ROLES[j / 32], FILES[sq % 4], sq / 4 + 1)
            }
            _ if i < BISHOP_PAIR => {
                let j = i - MOBILITY;
                let role = (1..5).rev().find(|&r| MOBILITY_OFFSET[r] <= j).unwrap_or(1);
                format!("mobility {} {}", ROLES[role], j - MOBILITY_OFFSET[role])
            }
            BISHOP_PAIR => "bishop pair".into(),
            DOUBLED => "doubled pawn".into(),
            ISOLATED => "isolated pawn".into(),
            _ if i < ROOK_OPEN => format!("passed pawn rank {}", i - PASSED + 1),
            ROOK_OPEN => "rook open file".into(),
            ROOK_SEMI_OPEN => "rook half-open file".into(),
            SHIELD => "king pawn shield".into(),
            _ if i < CORNER_BISHOP_BLOCKED => format!("king attack {}", ROLES[i - KING_ATTACK]),
            CORNER_BISHOP_BLOCKED => "corner bishop blocked".into(),
            TRAPPED_ROOK => "rook trapped by king".into(),
            TEMPO => "tempo".into(),
            _ => format!("weight {i}"),
        }
    }
}

use layout as L;

/// The hand-set weights the engine had before tuning, built from simple shapes
/// (centralisation, advancement): the tuner's documented starting point
/// (`chess960-engine tune --from hand`).
pub const fn hand_set() -> [Score; L::N] {
    let mut w = [Score(0, 0); L::N];
    let material = [
        s(82, 94),
        s(337, 281),
        s(365, 297),
        s(477, 512),
        s(1025, 936),
        s(0, 0),
    ];
    let mut i = 0;
    while i < 6 {
        w[L::MATERIAL + i] = material[i];
        i += 1;
    }
    let mut h = 0;
    while h < 32 {
        let f = (h % 4) as i32; // 0 on the rim, 3 in the centre
        let r = (h / 4) as i32;
        let cd = centre_distance((r * 8 + f) as usize);
        let file_centre = f;
        w[L::PSQ + h] = if r == 0 || r == 7 {
            Score(0, 0)
        } else {
            Score(
                (r - 1) * 4 + if file_centre >= 2 && r >= 3 { 10 } else { 0 },
                (r - 1) * 10,
            )
        };
        w[L::PSQ + 32 + h] = Score(20 - cd * 8, 12 - cd * 5);
        w[L::PSQ + 64 + h] = Score(12 - cd * 4, 8 - cd * 3);
        w[L::PSQ + 96 + h] = Score(if r == 6 { 15 } else { 0 }, if r == 6 { 10 } else { 0 });
        w[L::PSQ + 128 + h] = Score(4 - cd * 2, 12 - cd * 4);
        w[L::PSQ + 160 + h] = Score(
            if r == 0 {
                10 - file_centre * 8
            } else {
                -20 - r * 10
            },
            20 - cd * 8,
        );
        h += 1;
    }
    // Mobility was linear in the number of squares.
    let per_square = [s(0, 0), s(4, 4), s(5, 5), s(2, 4), s(1, 2), s(0, 0)];
    let max = [0, 8, 13, 14, 27, 0];
    let mut role = 1;
    while role < 5 {
        let mut n = 0;
        while n <= max[role] {
            w[L::MOBILITY + L::MOBILITY_OFFSET[role] + n] =
                Score(per_square[role].0 * n as i32, per_square[role].1 * n as i32);
            n += 1;
        }
        role += 1;
    }
    w[L::BISHOP_PAIR] = s(30, 50);
    w[L::DOUBLED] = s(-10, -20);
    w[L::ISOLATED] = s(-12, -10);
    let passed = [
        s(0, 0),
        s(5, 10),
        s(5, 15),
        s(10, 25),
        s(25, 50),
        s(45, 90),
        s(70, 140),
        s(0, 0),
    ];
    let mut r = 0;
    while r < 8 {
        w[L::PASSED + r] = passed[r];
        r += 1;
    }
    w[L::ROOK_OPEN] = s(25, 10);
    w[L::ROOK_SEMI_OPEN] = s(12, 5);
    w[L::SHIELD] = s(12, 0);
    w[L::KING_ATTACK + 1] = s(10, 1);
    w[L::KING_ATTACK + 2] = s(10, 1);
    w[L::KING_ATTACK + 3] = s(20, 2);
    w[L::KING_ATTACK + 4] = s(40, 5);
    w[L::CORNER_BISHOP_BLOCKED] = s(-35, -15);
    w[L::TRAPPED_ROOK] = s(-30, -5);
    w[L::TEMPO] = s(12, 12);
    w
}

const fn centre_distance(sq: usize) -> i32 {
    let f = (sq % 8) as i32;
    let r = (sq / 8) as i32;
    let df = if f < 4 { 3 - f } else { f - 4 };
    let dr = if r < 4 { 3 - r } else { r - 4 };
    df + dr
}

/// The 32-square half-board index of a (relative) square: files e–h mirror a–d.
const fn half_index(sq: usize) -> usize {
    let f = sq % 8;
    (sq / 8) * 4 + if f < 4 { f } else { 7 - f }
}

/// Material plus piece-square bonus for every role and relative square, expanded from the
/// compiled-in weights so that the evaluation pays one table look-up per piece.
const fn expand_psq(w: &[Score; L::N]) -> [[Score; 64]; 6] {
    let mut t = [[Score(0, 0); 64]; 6];
    let mut role = 0;
    while role < 6 {
        let mut sq = 0;
        while sq < 64 {
            let m = w[L::MATERIAL + role];
            let p = w[L::PSQ + role * 32 + half_index(sq)];
            t[role][sq] = Score(m.0 + p.0, m.1 + p.1);
            sq += 1;
        }
        role += 1;
    }
    t
}

static WEIGHTS: [Score; L::N] = crate::weights::WEIGHTS;
static PSQ_FULL: [[Score; 64]; 6] = expand_psq(&crate::weights::WEIGHTS);

/// Where the evaluation's terms go: summed with the weights for play, or counted per weight
/// for tuning. Generic, so the playing evaluation is monomorphised and pays nothing for it.
trait Terms {
    /// Subsequent terms belong to `color`.
    fn side(&mut self, color: Color);
    /// A piece of `role` on `rel_sq` (relative to its side): material and piece-square terms.
    fn piece(&mut self, role: Role, rel_sq: usize);
    /// `count` times weight `index`.
    fn add(&mut self, index: usize, count: i32);
    /// The king attack: units (attacked zone squares × attackers) per role.
    fn king_danger(&mut self, units: &[i32; 6]);
}

/// Sums the compiled-in weights.
#[derive(Default)]
struct Sum {
    side: usize,
    score: [Score; 2],
}

impl Terms for Sum {
    #[inline(always)]
    fn side(&mut self, color: Color) {
        self.side = color.index();
    }
    #[inline(always)]
    fn piece(&mut self, role: Role, rel_sq: usize) {
        self.score[self.side] += PSQ_FULL[role.index()][rel_sq];
    }
    #[inline(always)]
    fn add(&mut self, index: usize, count: i32) {
        self.score[self.side] += WEIGHTS[index] * count;
    }
    #[inline(always)]
    fn king_danger(&mut self, units: &[i32; 6]) {
        let mut d = Score(0, 0);
        for role in 1..5 {
            d += WEIGHTS[L::KING_ATTACK + role] * units[role];
        }
        // A cap, because a few attackers cannot be worth more than a piece or so.
        self.score[self.side] += Score(d.0.min(500), d.1.min(62));
    }
}

/// How often each weight occurs in a position, White's count minus Black's: the evaluation is
/// (up to rounding, the king-danger cap and the drawish-material scaling) the dot product of
/// this trace with the weights, tapered by `phase`.
#[derive(Clone, Debug)]
pub struct Trace {
    /// (weight index, count) for every weight with a non-zero count.
    pub counts: Vec<(u16, i16)>,
    /// Game phase, 0 (bare kings and pawns) to 24 (all pieces).
    pub phase: i32,
    /// 1, or 1/8 when the side ahead by the current weights has a drawish material edge.
    pub scale: f64,
}

struct Counter {
    sign: i32,
    counts: [i32; L::N],
}

impl Terms for Counter {
    fn side(&mut self, color: Color) {
        self.sign = if color == Color::White { 1 } else { -1 };
    }
    fn piece(&mut self, role: Role, rel_sq: usize) {
        self.counts[L::MATERIAL + role.index()] += self.sign;
        self.counts[L::PSQ + role.index() * 32 + half_index(rel_sq)] += self.sign;
    }
    fn add(&mut self, index: usize, count: i32) {
        self.counts[index] += self.sign * count;
    }
    fn king_danger(&mut self, units: &[i32; 6]) {
        for (role, &u) in units.iter().enumerate() {
            self.counts[L::KING_ATTACK + role] += self.sign * u;
        }
    }
}

/// The trace of `pos` for the tuner (see [`Trace`]).
pub fn trace(pos: &Position) -> Trace {
    let mut c = Counter {
        sign: 1,
        counts: [0; L::N],
    };
    let phase = terms(pos, &mut c);
    let scale = if drawish(pos, white_eval(pos) > 0) {
        0.125
    } else {
        1.0
    };
    Trace {
        counts: c
            .counts
            .iter()
            .enumerate()
            .filter(|(_, &n)| n != 0)
            .map(|(i, &n)| (i as u16, n as i16))
            .collect(),
        phase,
        scale,
    }
}

/// The evaluation of `pos` in centipawns, from the side to move's point of view.
pub fn evaluate(pos: &Position) -> i32 {
    let v = white_eval(pos);
    if pos.turn() == Color::White {
        v
    } else {
        -v
    }
}

/// The evaluation from White's point of view.
fn white_eval(pos: &Position) -> i32 {
    let mut sum = Sum::default();
    let phase = terms(pos, &mut sum);
    let score = sum.score[0] - sum.score[1];
    let v = (score.0 * phase + score.1 * (24 - phase)) / 24;
    // Drawish material: scale down when the side ahead has no pawns and little extra.
    if drawish(pos, v > 0) {
        v / 8
    } else {
        v
    }
}

/// Every term of the evaluation, for both sides, into `t`; returns the game phase (0–24).
#[inline(always)]
fn terms<T: Terms>(pos: &Position, t: &mut T) -> i32 {
    let occ = pos.board().occupied();
    let mut phase = 0;
    for color in Color::ALL {
        t.side(color);
        side_terms(pos, color, occ, &mut phase, t);
        if color == pos.turn() {
            t.add(L::TEMPO, 1);
        }
    }
    phase.min(24)
}

/// Whether the side ahead (White if `white_ahead`) has no pawns and at most a minor piece's
/// worth of extra material, which rarely wins.
fn drawish(pos: &Position, white_ahead: bool) -> bool {
    let b = pos.board();
    let strong = if white_ahead {
        Color::White
    } else {
        Color::Black
    };
    let strong_pawns = (b.by_color(strong) & b.by_role(Role::Pawn)).count();
    if strong_pawns == 0 {
        let value = |c: Color| -> i32 {
            [Role::Knight, Role::Bishop, Role::Rook, Role::Queen]
                .iter()
                .map(|&r| (b.by_color(c) & b.by_role(r)).count() as i32 * SEE_VALUE[r.index()])
                .sum()
        };
        return value(strong) - value(!strong) <= SEE_VALUE[Role::Bishop.index()];
    }
    false
}

fn relative(sq: Square, color: Color) -> usize {
    sq.relative(color).index()
}

#[inline(always)]
fn side_terms<T: Terms>(pos: &Position, us: Color, occ: Bitboard, phase: &mut i32, t: &mut T) {
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
    let mut zone_hits = [0i32; 6];
    let mut attackers = 0;

    for role in Role::ALL {
        for sq in ours & b.by_role(role) {
            t.piece(role, relative(sq, us));
            *phase += PHASE[role.index()];
            let att = match role {
                Role::Knight => knight_attacks(sq),
                Role::Bishop => bishop_attacks(sq, occ),
                Role::Rook => rook_attacks(sq, occ),
                Role::Queen => bishop_attacks(sq, occ) | rook_attacks(sq, occ),
                _ => continue,
            };
            let mobility = (att & mobility_area).count() as usize;
            t.add(L::MOBILITY + L::MOBILITY_OFFSET[role.index()] + mobility, 1);
            if (att & king_zone).any() {
                attackers += 1;
                zone_hits[role.index()] += (att & king_zone).count() as i32;
            }
        }
    }

    if (ours & b.by_role(Role::Bishop) & Bitboard::LIGHT_SQUARES).any()
        && (ours & b.by_role(Role::Bishop) & Bitboard::DARK_SQUARES).any()
    {
        t.add(L::BISHOP_PAIR, 1);
    }

    // Pawn structure.
    for sq in our_pawns {
        let file = sq.file();
        let file_bb = Bitboard::from_file(file);
        let adjacent = adjacent_files(file);
        if (our_pawns & file_bb).more_than_one() {
            t.add(L::DOUBLED, 1);
        }
        if (our_pawns & adjacent).is_empty() {
            t.add(L::ISOLATED, 1);
        }
        let ahead = ahead_mask(sq, us);
        if (their_pawns & ahead & (file_bb | adjacent)).is_empty() {
            t.add(L::PASSED + sq.rank().relative(us).index(), 1);
        }
    }

    // Rooks on open and half-open files.
    for sq in ours & b.by_role(Role::Rook) {
        let file_bb = Bitboard::from_file(sq.file());
        if (our_pawns & file_bb).is_empty() {
            if (their_pawns & file_bb).is_empty() {
                t.add(L::ROOK_OPEN, 1);
            } else {
                t.add(L::ROOK_SEMI_OPEN, 1);
            }
        }
    }

    // King safety: our pawn shield, and the attack on their king gathered above.
    let king = pos.king_of(us);
    let shield_zone = king_attacks(king) & ahead_mask(king, us);
    t.add(L::SHIELD, (shield_zone & our_pawns).count().min(3) as i32);
    if attackers >= 2 {
        for h in zone_hits.iter_mut() {
            *h *= attackers;
        }
        t.king_danger(&zone_hits);
    }

    chess960_terms(pos, us, t);
}

/// Terms for Chess960 starting structures.
fn chess960_terms<T: Terms>(pos: &Position, us: Color, t: &mut T) {
    let b = pos.board();
    let ours = b.by_color(us);
    let back = us.back_rank();
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
                t.add(L::CORNER_BISHOP_BLOCKED, 1);
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
                    t.add(L::TRAPPED_ROOK, 1);
                }
            }
        }
    }
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
    fn trace_matches_evaluation() {
        // The tuner's linear model with the compiled-in weights must be the evaluation itself
        // (up to integer rounding), or the tuner optimises something else.
        for fen in [
            "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
            "8/5k2/3p4/1p1Pp2p/pP2Pp1P/P4P1K/8/8 b - - 0 1",
            "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        ] {
            let pos = Position::from_fen(fen).unwrap();
            let t = trace(&pos);
            let (mut mg, mut eg) = (0.0, 0.0);
            for &(i, n) in &t.counts {
                mg += (WEIGHTS[i as usize].0 * n as i32) as f64;
                eg += (WEIGHTS[i as usize].1 * n as i32) as f64;
            }
            let model = t.scale * (mg * t.phase as f64 + eg * (24 - t.phase) as f64) / 24.0;
            assert!(
                (model - white_eval(&pos) as f64).abs() <= 1.0,
                "{fen}: {model}"
            );
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
