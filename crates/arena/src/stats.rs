//! Match statistics: W/D/L, score, Elo difference with its 95% error bar from the trinomial
//! (per game) and the pentanomial (per game pair) model, likelihood of superiority, and the
//! SPRT with logistic Elo bounds as fishtest and cutechess compute it.
//!
//! The SPRT is the generalized SPRT of fishtest's `stat_util` (M. Van den Bergh): the
//! empirical distribution of the per-game score (trinomial) or of the per-pair score halved
//! (pentanomial), with a pseudo-count of 1e-3 per outcome, is projected by maximum likelihood
//! onto the distributions whose mean is `s0` and `s1`, the expected scores of the hypotheses'
//! logistic Elo; the LLR is `N · Σ p̂ᵢ · ln(p1ᵢ / p0ᵢ)` over the outcomes, with `N` games or
//! pairs. H1 is accepted at `LLR ≥ ln((1−β)/α)`, H0 at `LLR ≤ ln(β/(1−α))`.

use serde::Serialize;

/// The two-sided 95% quantile of the normal distribution.
pub const Z95: f64 = 1.959_963_984_540_054;

/// Wins, draws and losses from one side's point of view.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Tally {
    /// Wins.
    pub wins: u32,
    /// Draws.
    pub draws: u32,
    /// Losses.
    pub losses: u32,
}

impl Tally {
    /// Games counted.
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// The score fraction, 0..1 (`None` without games).
    pub fn score(&self) -> Option<f64> {
        let n = self.games();
        (n > 0).then(|| (f64::from(self.wins) + 0.5 * f64::from(self.draws)) / f64::from(n))
    }

    /// Adds a game: `points` is 1, 0.5 or 0 for this side.
    pub fn add(&mut self, points: f64) {
        if points > 0.75 {
            self.wins += 1;
        } else if points > 0.25 {
            self.draws += 1;
        } else {
            self.losses += 1;
        }
    }

    /// The same games from the other side.
    pub fn flipped(&self) -> Tally {
        Tally {
            wins: self.losses,
            draws: self.draws,
            losses: self.wins,
        }
    }

    /// The trinomial Elo estimate.
    pub fn elo(&self) -> Option<Elo> {
        let n = f64::from(self.games());
        if n == 0.0 {
            return None;
        }
        let (w, d, l) = (
            f64::from(self.wins) / n,
            f64::from(self.draws) / n,
            f64::from(self.losses) / n,
        );
        let p = w + 0.5 * d;
        let var = w * (1.0 - p).powi(2) + d * (0.5 - p).powi(2) + l * p.powi(2);
        Elo::from_mean_var(p, var, n)
    }

    /// The likelihood of superiority: the probability that this side is the stronger, from
    /// wins and losses (draws carry no information about it).
    pub fn los(&self) -> Option<f64> {
        let (w, l) = (f64::from(self.wins), f64::from(self.losses));
        (w + l > 0.0).then(|| 0.5 * (1.0 + erf((w - l) / (2.0 * (w + l)).sqrt())))
    }
}

/// Game-pair results of one side (pairs of games with colours reversed): LL, LD, DD or WL,
/// WD, WW.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Pentanomial {
    /// Pair counts by points scored in the pair: 0, 0.5, 1, 1.5, 2.
    pub counts: [u32; 5],
    /// Of `counts[2]`, the pairs won once and lost once.
    pub wl: u32,
    /// Of `counts[2]`, the pairs drawn twice.
    pub dd: u32,
}

impl Pentanomial {
    /// Adds a pair with the side's points in each game.
    pub fn add(&mut self, first: f64, second: f64) {
        let total = first + second;
        let i = (total * 2.0).round().clamp(0.0, 4.0) as usize;
        self.counts[i] += 1;
        if i == 2 {
            if (first - 0.5).abs() < 0.25 {
                self.dd += 1;
            } else {
                self.wl += 1;
            }
        }
    }

    /// The number of pairs.
    pub fn pairs(&self) -> u32 {
        self.counts.iter().sum()
    }

    /// The same pairs from the other side.
    pub fn flipped(&self) -> Pentanomial {
        let mut c = self.counts;
        c.reverse();
        Pentanomial {
            counts: c,
            wl: self.wl,
            dd: self.dd,
        }
    }

    fn mean_var(&self) -> Option<(f64, f64, f64)> {
        let n = f64::from(self.pairs());
        if n == 0.0 {
            return None;
        }
        let scores = [0.0, 0.25, 0.5, 0.75, 1.0];
        let mean: f64 = self
            .counts
            .iter()
            .zip(scores)
            .map(|(&c, s)| f64::from(c) * s)
            .sum::<f64>()
            / n;
        let var: f64 = self
            .counts
            .iter()
            .zip(scores)
            .map(|(&c, s)| f64::from(c) * (s - mean).powi(2))
            .sum::<f64>()
            / n;
        Some((mean, var, n))
    }

    /// The pentanomial Elo estimate.
    pub fn elo(&self) -> Option<Elo> {
        let (mean, var, n) = self.mean_var()?;
        Elo::from_mean_var(mean, var, n)
    }
}

/// An Elo difference with its 95% error bar (half the width of the interval).
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Elo {
    /// The estimate; infinite scores (all wins or all losses) have none.
    pub diff: Option<f64>,
    /// ± this much, 95%.
    pub error: Option<f64>,
}

impl Elo {
    fn from_mean_var(p: f64, var: f64, n: f64) -> Option<Elo> {
        let se = (var / n).sqrt();
        let lo = p - Z95 * se;
        let hi = p + Z95 * se;
        let diff = elo_of_score(p);
        let error = match (elo_of_score(hi), elo_of_score(lo)) {
            (Some(h), Some(l)) => Some((h - l) / 2.0),
            _ => None,
        };
        Some(Elo { diff, error })
    }
}

/// The logistic Elo difference of a score fraction (`None` at 0 and 1, which are infinite).
pub fn elo_of_score(p: f64) -> Option<f64> {
    (p > 0.0 && p < 1.0).then(|| -400.0 * (1.0 / p - 1.0).log10())
}

/// The expected score of a logistic Elo difference.
pub fn score_of_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The error function (W. J. Cody's rational approximations would be overkill here; this is
/// Numerical Recipes' `erfc` Chebyshev fit, relative error below 1.2e-7).
pub fn erf(x: f64) -> f64 {
    let z = x.abs();
    let t = 1.0 / (1.0 + 0.5 * z);
    let r = t
        * (-z * z - 1.265_512_23
            + t * (1.000_023_68
                + t * (0.374_091_96
                    + t * (0.096_784_18
                        + t * (-0.186_288_06
                            + t * (0.278_868_07
                                + t * (-1.135_203_98
                                    + t * (1.488_515_87
                                        + t * (-0.822_152_23 + t * 0.170_872_77)))))))))
            .exp();
    if x >= 0.0 {
        1.0 - r
    } else {
        r - 1.0
    }
}

/// `-sprt elo0= elo1= alpha= beta=`.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Sprt {
    /// Elo of H0 (logistic).
    pub elo0: f64,
    /// Elo of H1 (logistic).
    pub elo1: f64,
    /// Type I error.
    pub alpha: f64,
    /// Type II error.
    pub beta: f64,
}

/// Where an SPRT stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum SprtState {
    /// Not decided.
    #[serde(rename = "continue")]
    Continue,
    /// H0 accepted: the first engine is not stronger by elo1.
    #[serde(rename = "H0 accepted")]
    H0,
    /// H1 accepted.
    #[serde(rename = "H1 accepted")]
    H1,
}

impl SprtState {
    /// `continue`, `H0 accepted`, `H1 accepted`.
    pub fn describe(self) -> &'static str {
        match self {
            SprtState::Continue => "continue",
            SprtState::H0 => "H0 accepted",
            SprtState::H1 => "H1 accepted",
        }
    }
}

/// The SPRT's current value.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct SprtStatus {
    /// The log-likelihood ratio.
    pub llr: f64,
    /// `ln(β/(1−α))`.
    pub lower: f64,
    /// `ln((1−β)/α)`.
    pub upper: f64,
    /// The decision.
    pub state: SprtState,
    /// `pentanomial` (game pairs) or `trinomial` (games).
    pub model: &'static str,
}

impl Sprt {
    /// The test's bounds.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The status from the game pairs when there are any, from the games otherwise.
    pub fn status(&self, games: &Tally, pairs: &Pentanomial) -> SprtStatus {
        let (lower, upper) = self.bounds();
        let (llr, model) = if pairs.pairs() > 0 {
            let counts: Vec<f64> = pairs.counts.iter().map(|&c| f64::from(c)).collect();
            (
                self.llr(&counts, &[0.0, 0.25, 0.5, 0.75, 1.0]),
                "pentanomial",
            )
        } else {
            let counts = [
                f64::from(games.losses),
                f64::from(games.draws),
                f64::from(games.wins),
            ];
            (self.llr(&counts, &[0.0, 0.5, 1.0]), "trinomial")
        };
        let state = if llr >= upper {
            SprtState::H1
        } else if llr <= lower {
            SprtState::H0
        } else {
            SprtState::Continue
        };
        SprtStatus {
            llr,
            lower,
            upper,
            state,
            model,
        }
    }

    /// The GSPRT log-likelihood ratio of outcome `counts` over `scores`.
    fn llr(&self, counts: &[f64], scores: &[f64]) -> f64 {
        // Without it, identical results (all wins) would give zero-probability outcomes.
        const PRIOR: f64 = 1e-3;
        let n: f64 = counts.iter().sum();
        if n == 0.0 {
            return 0.0;
        }
        let total = n + PRIOR * counts.len() as f64;
        let pdf: Vec<f64> = counts.iter().map(|c| (c + PRIOR) / total).collect();
        let p0 = mle_with_mean(&pdf, scores, score_of_elo(self.elo0));
        let p1 = mle_with_mean(&pdf, scores, score_of_elo(self.elo1));
        n * pdf
            .iter()
            .zip(p0.iter().zip(&p1))
            .map(|(p, (a, b))| p * (b.ln() - a.ln()))
            .sum::<f64>()
    }
}

/// The distribution closest to `pdf` (maximum likelihood) whose mean score is `s`:
/// `pᵢ / (1 + x·(aᵢ − s))` with `x` the root of `Σ pᵢ (aᵢ − s) / (1 + x (aᵢ − s)) = 0`,
/// found by bisection (the left side falls with `x`).
fn mle_with_mean(pdf: &[f64], scores: &[f64], s: f64) -> Vec<f64> {
    let a: Vec<f64> = scores.iter().map(|v| v - s).collect();
    let max = a.iter().copied().fold(f64::MIN, f64::max);
    let min = a.iter().copied().fold(f64::MAX, f64::min);
    // 1 + x·aᵢ > 0 for every i.
    let (mut lo, mut hi) = (-1.0 / max, -1.0 / min);
    let f = |x: f64| -> f64 {
        pdf.iter()
            .zip(&a)
            .map(|(p, ai)| p * ai / (1.0 + x * ai))
            .sum()
    };
    let span = hi - lo;
    lo += span * 1e-12;
    hi -= span * 1e-12;
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if f(mid) > 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    let x = 0.5 * (lo + hi);
    pdf.iter()
        .zip(&a)
        .map(|(p, ai)| p / (1.0 + x * ai))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, eps: f64) -> bool {
        (a - b).abs() < eps
    }

    #[test]
    fn elo_and_error_bar() {
        // 60 wins, 20 draws, 20 losses: score 0.7, Elo +147.2 (cutechess prints
        // 147.2 +/- 70-ish for this tally).
        let t = Tally {
            wins: 60,
            draws: 20,
            losses: 20,
        };
        assert!(close(t.score().unwrap(), 0.7, 1e-12));
        let e = t.elo().unwrap();
        assert!(close(e.diff.unwrap(), 147.19, 0.01), "{e:?}");
        // p = 0.7, var = .6*.09 + .2*.04 + .2*.49 = 0.16, se = 0.04.
        let (hi, lo) = (0.7 + Z95 * 0.04, 0.7 - Z95 * 0.04);
        let want = (elo_of_score(hi).unwrap() - elo_of_score(lo).unwrap()) / 2.0;
        assert!(close(e.error.unwrap(), want, 1e-9));
        assert!(close(e.error.unwrap(), 67.0, 1.0), "{e:?}");
        assert!(Tally {
            wins: 3,
            draws: 0,
            losses: 0
        }
        .elo()
        .unwrap()
        .diff
        .is_none());
    }

    #[test]
    fn los() {
        let t = Tally {
            wins: 10,
            draws: 5,
            losses: 10,
        };
        assert!(close(t.los().unwrap(), 0.5, 1e-6));
        let t = Tally {
            wins: 20,
            draws: 0,
            losses: 10,
        };
        // erf(10/sqrt(60)) = erf(1.29099) = 0.93211; LOS = 0.966.
        assert!(close(t.los().unwrap(), 0.96605, 1e-4), "{:?}", t.los());
        assert!(close(erf(0.5), 0.520_499_877_8, 1e-7));
        assert!(close(erf(-1.0), -0.842_700_792_9, 1e-7));
    }

    #[test]
    fn pentanomial_pairs() {
        let mut p = Pentanomial::default();
        p.add(1.0, 0.0);
        p.add(0.5, 0.5);
        p.add(1.0, 1.0);
        p.add(0.0, 0.5);
        assert_eq!(p.counts, [0, 1, 2, 0, 1]);
        assert_eq!((p.wl, p.dd), (1, 1));
        assert_eq!(p.flipped().counts, [1, 0, 2, 1, 0]);
        let e = p.elo().unwrap();
        // Mean pair score (0.25 + 0.5 + 0.5 + 1) / 4 = 0.5625.
        assert!(close(e.diff.unwrap(), elo_of_score(0.5625).unwrap(), 1e-9));
    }

    #[test]
    fn sprt_bounds_and_decisions() {
        let s = Sprt {
            elo0: 0.0,
            elo1: 10.0,
            alpha: 0.05,
            beta: 0.05,
        };
        let (lo, hi) = s.bounds();
        assert!(close(lo, -2.944_438_979, 1e-6));
        assert!(close(hi, 2.944_438_979, 1e-6));
        // A strong engine: H1 quickly.
        let mut p = Pentanomial::default();
        for _ in 0..300 {
            p.add(1.0, 0.5);
            p.add(0.5, 0.5);
        }
        let st = s.status(&Tally::default(), &p);
        assert_eq!(st.state, SprtState::H1, "{st:?}");
        assert_eq!(st.model, "pentanomial");
        // Equal engines, many games: H0.
        let t = Tally {
            wins: 2000,
            draws: 4000,
            losses: 2000,
        };
        let st = s.status(&t, &Pentanomial::default());
        assert_eq!((st.state, st.model), (SprtState::H0, "trinomial"), "{st:?}");
        // The MLE distributions have the hypotheses' means, and the LLR is close to the
        // normal approximation N·(s1−s0)(2x̄−s0−s1)/(2σ²) when there are many games.
        let pdf = [0.25, 0.4, 0.35];
        let sc = [0.0, 0.5, 1.0];
        let p = mle_with_mean(&pdf, &sc, 0.53);
        let mean: f64 = p.iter().zip(sc).map(|(p, a)| p * a).sum();
        assert!(
            close(mean, 0.53, 1e-9) && close(p.iter().sum::<f64>(), 1.0, 1e-9),
            "{p:?}"
        );
        let t = Tally {
            wins: 350,
            draws: 400,
            losses: 250,
        };
        let (s0, s1) = (score_of_elo(0.0), score_of_elo(10.0));
        let x = 0.55;
        let var = 0.35 * 0.45f64.powi(2) + 0.4 * 0.05f64.powi(2) + 0.25 * 0.55f64.powi(2);
        let approx = 1000.0 * (s1 - s0) * (2.0 * x - s0 - s1) / (2.0 * var);
        let exact = s.status(&t, &Pentanomial::default()).llr;
        assert!(
            close(exact, approx, 0.05 * approx.abs()),
            "{exact} vs {approx}"
        );
        // Identical results decide, but not at once.
        let wins = |n| Tally {
            wins: n,
            draws: 0,
            losses: 0,
        };
        assert_eq!(
            s.status(&wins(3), &Pentanomial::default()).state,
            SprtState::Continue
        );
        assert_eq!(
            s.status(&wins(200), &Pentanomial::default()).state,
            SprtState::H1
        );
    }
}
