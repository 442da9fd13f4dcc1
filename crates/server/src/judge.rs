//! Judging the moves of an analysed game as lichess does: winning chances from the engine's
//! evaluation, and a move marked inaccuracy, mistake or blunder by how much of them it gives
//! away. No I/O; the analysis jobs (`analysis.rs`) call it once per move.
//!
//! The formulas and thresholds are lichess's (lila, `modules/tree/src/main/Advice.scala` and
//! `WinPercent.scala`; the multiplier is from lila pull request 11148), see docs/analysis.md:
//!
//! - winning chances `w(cp) = 2 / (1 + exp(-0.00368208 · cp)) − 1`, in −1..+1, with the
//!   centipawns first clamped to ±1000; win% = 50 + 50·w;
//! - a move whose evaluations before and after are both in centipawns is judged by the drop
//!   `w(before) − w(after)` from the mover's point of view: 0.3 or more is a blunder, 0.2 a
//!   mistake, 0.1 an inaccuracy (on the win% scale: 15, 10 and 5 points);
//! - a move that lets a mate in ("mate created") or loses one of its own ("mate lost") is
//!   judged by the centipawns on the other side: beyond 999 an inaccuracy, beyond 700 a
//!   mistake, else a blunder. A slower mate than the best is not judged.

use chess960_core::Color;
use chess960_engine::player::Score;
use serde::Serialize;

/// lichess's logistic multiplier (lila pull request 11148).
const MULTIPLIER: f64 = -0.00368208;
/// Centipawns beyond this count as this (lila `Eval.Cp.CEILING`).
const CP_CEILING: i32 = 1000;

/// A position's evaluation from White's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WhiteEval {
    /// Centipawns, positive when White is better.
    Cp(i32),
    /// Mate in this many moves, positive when White mates.
    Mate(i32),
    /// The side to move is checkmated on the board; the other side has won.
    Checkmate {
        /// The side that gave mate.
        winner: Color,
    },
}

impl WhiteEval {
    /// The evaluation of a position where `turn` is to move, from `score` (the side to
    /// move's point of view, as the engine gives it: `Mate(0)` when it is checkmated).
    pub fn of(score: Score, turn: Color) -> WhiteEval {
        match score {
            Score::Mate(0) => WhiteEval::Checkmate { winner: !turn },
            s => match s.for_white(turn) {
                Score::Cp(cp) => WhiteEval::Cp(cp),
                Score::Mate(n) => WhiteEval::Mate(n),
            },
        }
    }

    /// The evaluation from `side`'s point of view: centipawns or mate (positive when `side`
    /// mates; a checkmate on the board counts as a mate now).
    fn pov(self, side: Color) -> Pov {
        let sign = if side == Color::White { 1 } else { -1 };
        match self {
            WhiteEval::Cp(cp) => Pov::Cp(cp * sign),
            WhiteEval::Mate(n) => Pov::Mate(n * sign),
            WhiteEval::Checkmate { winner } => Pov::Mate(if winner == side { 1 } else { -1 }),
        }
    }

    /// White's win percentage, 0..=100, as lichess computes it (a mate counts as the
    /// centipawn ceiling).
    pub fn win_percent(self) -> f64 {
        let cp = match self.pov(Color::White) {
            Pov::Cp(cp) => cp,
            Pov::Mate(n) => CP_CEILING * n.signum(),
        };
        50.0 + 50.0 * winning_chances(cp)
    }

    /// The evaluation as a `[%eval]` value of lichess's PGN: pawns with two decimals
    /// (`0.35`, `-1.20`) or `#3` / `#-3`. `None` for a checkmate on the board, which lichess
    /// writes no evaluation for (and `#0` would not say who won).
    pub fn pgn_eval(self) -> Option<String> {
        match self {
            WhiteEval::Cp(cp) => Some(format!("{:.2}", f64::from(cp) / 100.0)),
            WhiteEval::Mate(n) => Some(format!("#{n}")),
            WhiteEval::Checkmate { .. } => None,
        }
    }
}

/// An evaluation from one side's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Pov {
    Cp(i32),
    Mate(i32),
}

/// Winning chances of `cp` centipawns, −1..=+1 (lichess `WinPercent.winningChances`).
pub fn winning_chances(cp: i32) -> f64 {
    let cp = cp.clamp(-CP_CEILING, CP_CEILING);
    (2.0 / (1.0 + (MULTIPLIER * f64::from(cp)).exp()) - 1.0).clamp(-1.0, 1.0)
}

/// How bad a move is.
#[derive(Serialize, Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "lowercase")]
pub enum Judgement {
    /// `?!`
    Inaccuracy,
    /// `?`
    Mistake,
    /// `??`
    Blunder,
}

impl Judgement {
    /// The move's mark: `?!`, `?` or `??`.
    pub fn glyph(self) -> &'static str {
        match self {
            Judgement::Inaccuracy => "?!",
            Judgement::Mistake => "?",
            Judgement::Blunder => "??",
        }
    }

    /// The PGN NAG of the mark ($6, $2, $4).
    pub fn nag(self) -> u16 {
        match self {
            Judgement::Inaccuracy => 6,
            Judgement::Mistake => 2,
            Judgement::Blunder => 4,
        }
    }

    /// The word lichess writes in its comment.
    pub fn word(self) -> &'static str {
        match self {
            Judgement::Inaccuracy => "Inaccuracy",
            Judgement::Mistake => "Mistake",
            Judgement::Blunder => "Blunder",
        }
    }
}

/// The judgement of a move by `mover`, from the evaluations of the positions before and after
/// it; `None` for a good move.
pub fn judge(mover: Color, before: WhiteEval, after: WhiteEval) -> Option<Judgement> {
    let (prev, next) = (before.pov(mover), after.pov(mover));
    match (prev, next) {
        (Pov::Cp(p), Pov::Cp(n)) => {
            let drop = winning_chances(p) - winning_chances(n);
            [
                (0.3, Judgement::Blunder),
                (0.2, Judgement::Mistake),
                (0.1, Judgement::Inaccuracy),
            ]
            .into_iter()
            .find(|&(threshold, _)| drop >= threshold)
            .map(|(_, j)| j)
        }
        // Mate created: the mover had no mate against it, now it has.
        (Pov::Cp(p), Pov::Mate(n)) if n < 0 => Some(if p < -999 {
            Judgement::Inaccuracy
        } else if p < -700 {
            Judgement::Mistake
        } else {
            Judgement::Blunder
        }),
        // Mate lost: the mover had a mate and now has none (or is mated).
        (Pov::Mate(p), next) if p > 0 => {
            let n = match next {
                Pov::Cp(n) => n,
                Pov::Mate(m) if m < 0 => 0,
                Pov::Mate(_) => return None, // still mating, maybe slower: not judged
            };
            Some(if n > 999 {
                Judgement::Inaccuracy
            } else if n > 700 {
                Judgement::Mistake
            } else {
                Judgement::Blunder
            })
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use Color::{Black, White};

    #[test]
    fn win_percent_follows_lichess() {
        // Values of lichess's formula computed independently (python: 50 + 50 * (2 / (1 +
        // math.exp(-0.00368208 * cp)) - 1)).
        for (cp, expected) in [
            (0, 50.0),
            (100, 59.10),
            (-300, 24.88),
            (1000, 97.54),
            (5000, 97.54),
        ] {
            let got = WhiteEval::Cp(cp).win_percent();
            assert!((got - expected).abs() < 0.01, "{cp}: {got} != {expected}");
        }
        assert_eq!(
            WhiteEval::Mate(-2).win_percent(),
            WhiteEval::Cp(-1000).win_percent()
        );
        assert_eq!(
            WhiteEval::Checkmate { winner: White }.win_percent(),
            WhiteEval::Cp(1000).win_percent()
        );
    }

    #[test]
    fn thresholds_are_on_the_winning_chances_scale() {
        // From an equal position, White's move to -x centipawns: the drop in winning
        // chances (−1..+1) crosses 0.1 at 55 cp, 0.2 at 111 cp, 0.3 at 169 cp.
        let j = |cp| judge(White, WhiteEval::Cp(0), WhiteEval::Cp(cp));
        assert_eq!(j(-50), None);
        assert_eq!(j(-60), Some(Judgement::Inaccuracy));
        assert_eq!(j(-105), Some(Judgement::Inaccuracy));
        assert_eq!(j(-115), Some(Judgement::Mistake));
        assert_eq!(j(-165), Some(Judgement::Mistake));
        assert_eq!(j(-175), Some(Judgement::Blunder));
        // Black's move is judged from Black's side: White's evaluation going up.
        assert_eq!(
            judge(Black, WhiteEval::Cp(0), WhiteEval::Cp(900)),
            Some(Judgement::Blunder)
        );
        assert_eq!(judge(Black, WhiteEval::Cp(0), WhiteEval::Cp(-900)), None);
        // Deep in a won position the curve is flat: a queen less is no blunder at +2000.
        assert_eq!(judge(White, WhiteEval::Cp(2000), WhiteEval::Cp(1100)), None);
    }

    #[test]
    fn mates_created_and_lost() {
        let cp = WhiteEval::Cp;
        // Allowing a mate from equality is a blunder; from a lost position less so.
        assert_eq!(
            judge(White, cp(0), WhiteEval::Mate(-3)),
            Some(Judgement::Blunder)
        );
        assert_eq!(
            judge(White, cp(-800), WhiteEval::Mate(-3)),
            Some(Judgement::Mistake)
        );
        assert_eq!(
            judge(White, cp(-1200), WhiteEval::Mate(-3)),
            Some(Judgement::Inaccuracy)
        );
        // Losing one's own mate.
        assert_eq!(
            judge(Black, WhiteEval::Mate(-2), cp(-300)),
            Some(Judgement::Blunder)
        );
        assert_eq!(
            judge(Black, WhiteEval::Mate(-2), cp(-1500)),
            Some(Judgement::Inaccuracy)
        );
        assert_eq!(
            judge(White, WhiteEval::Mate(2), WhiteEval::Mate(-4)),
            Some(Judgement::Blunder)
        );
        // A slower mate, or the mate itself, is not judged.
        assert_eq!(judge(White, WhiteEval::Mate(2), WhiteEval::Mate(5)), None);
        assert_eq!(
            judge(
                White,
                WhiteEval::Mate(1),
                WhiteEval::Checkmate { winner: White }
            ),
            None
        );
    }

    #[test]
    fn evaluations_as_lichess_writes_them() {
        assert_eq!(WhiteEval::Cp(35).pgn_eval().as_deref(), Some("0.35"));
        assert_eq!(WhiteEval::Cp(-120).pgn_eval().as_deref(), Some("-1.20"));
        assert_eq!(WhiteEval::Mate(3).pgn_eval().as_deref(), Some("#3"));
        assert_eq!(WhiteEval::Mate(-3).pgn_eval().as_deref(), Some("#-3"));
        assert_eq!(WhiteEval::Checkmate { winner: Black }.pgn_eval(), None);
        assert_eq!(
            WhiteEval::of(Score::Mate(0), Black),
            WhiteEval::Checkmate { winner: White }
        );
        assert_eq!(WhiteEval::of(Score::Cp(40), Black), WhiteEval::Cp(-40));
        assert_eq!(WhiteEval::of(Score::Mate(2), Black), WhiteEval::Mate(-2));
    }
}
