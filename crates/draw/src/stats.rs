//! Pearson's chi-square goodness-of-fit test, with its distribution function computed here:
//! the p-value of a statistic `x` with `k` degrees of freedom is the regularized upper
//! incomplete gamma function `Q(k/2, x/2)`, evaluated by its power series below `a + 1` and by
//! its continued fraction (modified Lentz) above, with `ln Γ` from Lanczos' approximation
//! (g = 7, 9 terms; relative error about 1e-15). Floating point is fine here: this is the
//! statistical check of a sample, not the exact analysis.

/// The result of a chi-square test.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ChiSquare {
    /// Pearson's statistic, the sum of (observed − expected)² / expected.
    pub statistic: f64,
    /// Degrees of freedom: the number of outcomes with non-zero probability, minus one.
    pub df: u32,
    /// The probability of a statistic at least this large if the sample follows the
    /// distribution.
    pub p_value: f64,
}

/// Tests observed counts against expected probabilities (which must sum to 1). Outcomes with
/// probability 0 are left out of the degrees of freedom; one observed there makes the
/// statistic infinite and the p-value 0.
pub fn chi_square(observed: &[u64], probabilities: &[f64]) -> ChiSquare {
    assert_eq!(observed.len(), probabilities.len());
    let n: u64 = observed.iter().sum();
    let mut statistic = 0.0;
    let mut cells = 0u32;
    for (&o, &p) in observed.iter().zip(probabilities) {
        if p > 0.0 {
            let expected = n as f64 * p;
            let d = o as f64 - expected;
            statistic += d * d / expected;
            cells += 1;
        } else if o > 0 {
            statistic = f64::INFINITY;
        }
    }
    let df = cells.saturating_sub(1);
    let p_value = if statistic.is_infinite() {
        0.0
    } else {
        chi_square_sf(statistic, df)
    };
    ChiSquare {
        statistic,
        df,
        p_value,
    }
}

/// `P(X ≥ x)` for a chi-square variable `X` with `df` degrees of freedom.
pub fn chi_square_sf(x: f64, df: u32) -> f64 {
    if df == 0 {
        return if x > 0.0 { 0.0 } else { 1.0 };
    }
    gamma_q(f64::from(df) / 2.0, x / 2.0)
}

/// `ln Γ(x)` for `x > 0` (Lanczos).
pub fn ln_gamma(x: f64) -> f64 {
    const G: f64 = 7.0;
    const C: [f64; 9] = [
        0.999_999_999_999_809_9,
        676.520_368_121_885_1,
        -1_259.139_216_722_402_8,
        771.323_428_777_653_1,
        -176.615_029_162_140_6,
        12.507_343_278_686_905,
        -0.138_571_095_265_720_12,
        9.984_369_578_019_572e-6,
        1.505_632_735_149_311_6e-7,
    ];
    if x < 0.5 {
        // Reflection: Γ(x) Γ(1 − x) = π / sin(πx).
        let pi = std::f64::consts::PI;
        return (pi / (pi * x).sin()).ln() - ln_gamma(1.0 - x);
    }
    let x = x - 1.0;
    let mut a = C[0];
    let t = x + G + 0.5;
    for (i, &c) in C.iter().enumerate().skip(1) {
        a += c / (x + i as f64);
    }
    0.5 * (2.0 * std::f64::consts::PI).ln() + (x + 0.5) * t.ln() - t + a.ln()
}

/// The regularized upper incomplete gamma function `Q(a, x) = Γ(a, x) / Γ(a)`.
pub fn gamma_q(a: f64, x: f64) -> f64 {
    assert!(a > 0.0, "Q(a, x) needs a > 0");
    if x <= 0.0 {
        return 1.0;
    }
    if x < a + 1.0 {
        (1.0 - gamma_p_series(a, x)).clamp(0.0, 1.0)
    } else {
        gamma_q_fraction(a, x).clamp(0.0, 1.0)
    }
}

const EPS: f64 = 1e-16;
const TINY: f64 = 1e-300;

/// `P(a, x)` by its power series (converges quickly for `x < a + 1`).
fn gamma_p_series(a: f64, x: f64) -> f64 {
    let mut ap = a;
    let mut term = 1.0 / a;
    let mut sum = term;
    for _ in 0..100_000 {
        ap += 1.0;
        term *= x / ap;
        sum += term;
        if term.abs() < sum.abs() * EPS {
            break;
        }
    }
    sum * (-x + a * x.ln() - ln_gamma(a)).exp()
}

/// `Q(a, x)` by its continued fraction (converges quickly for `x ≥ a + 1`).
fn gamma_q_fraction(a: f64, x: f64) -> f64 {
    let mut b = x + 1.0 - a;
    let mut c = 1.0 / TINY;
    let mut d = 1.0 / b;
    let mut h = d;
    for i in 1..100_000 {
        let an = -f64::from(i) * (f64::from(i) - a);
        b += 2.0;
        d = an * d + b;
        if d.abs() < TINY {
            d = TINY;
        }
        c = b + an / c;
        if c.abs() < TINY {
            c = TINY;
        }
        d = 1.0 / d;
        let delta = d * c;
        h *= delta;
        if (delta - 1.0).abs() < EPS {
            break;
        }
    }
    (-x + a * x.ln() - ln_gamma(a)).exp() * h
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() <= tol
    }

    #[test]
    fn gamma_function() {
        assert!(close(ln_gamma(1.0), 0.0, 1e-13));
        assert!(close(ln_gamma(5.0), 24f64.ln(), 1e-12));
        assert!(close(
            ln_gamma(0.5),
            std::f64::consts::PI.sqrt().ln(),
            1e-12
        ));
        assert!(close(ln_gamma(480.0), 2_481.249_548_965_269_2, 1e-9)); // ln(479!)
    }

    #[test]
    fn chi_square_tail_probabilities() {
        // Two degrees of freedom: P(X ≥ x) = e^(−x/2) exactly.
        for x in [0.1, 1.0, 5.0, 20.0] {
            assert!(close(chi_square_sf(x, 2), (-x / 2.0).exp(), 1e-12), "{x}");
        }
        // Textbook 5% critical values.
        assert!(close(chi_square_sf(3.841_458_820_694_124, 1), 0.05, 1e-9));
        assert!(close(chi_square_sf(18.307_038_053_275_146, 10), 0.05, 1e-9));
        assert!(close(chi_square_sf(124.342_113_404_656_6, 100), 0.05, 1e-9));
        // 959 degrees of freedom: the median is close to df (1 − 2/(9 df))³ ≈ 958.3.
        let median = 959.0 * (1.0 - 2.0 / (9.0 * 959.0_f64)).powi(3);
        assert!(close(chi_square_sf(median, 959), 0.5, 1e-3));
        assert!(chi_square_sf(1_100.0, 959) < 0.002);
        assert!(chi_square_sf(820.0, 959) > 0.999);
    }

    #[test]
    fn pearson_statistic() {
        let r = chi_square(&[10, 20, 30, 40], &[0.25; 4]);
        // Expected 25 each: (225 + 25 + 25 + 225) / 25 = 20.
        assert!(close(r.statistic, 20.0, 1e-12));
        assert_eq!(r.df, 3);
        assert!(r.p_value < 0.001);
        let r = chi_square(&[5, 1], &[1.0, 0.0]);
        assert_eq!(r.p_value, 0.0);
    }
}
