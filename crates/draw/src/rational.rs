//! Exact non-negative fractions for probabilities: `u128` numerator and denominator, always in
//! lowest terms. The fairness analysis must not round (a method that is off by one part in a
//! billion is still unfair), and every probability it meets has a small denominator (at most
//! 8! × 8 before reduction), so `u128` with reduction after each operation never overflows in
//! practice; overflow panics rather than wrapping to a wrong answer.

use std::cmp::Ordering;
use std::fmt;
use std::ops::{Add, AddAssign, Div, Mul};

/// A fraction `numer / denom` with `denom > 0`, in lowest terms.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Ratio {
    numer: u128,
    denom: u128,
}

/// Greatest common divisor (Euclid); `gcd(0, 0) = 0`.
pub fn gcd(mut a: u128, mut b: u128) -> u128 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

impl Ratio {
    /// 0.
    pub const ZERO: Ratio = Ratio { numer: 0, denom: 1 };
    /// 1.
    pub const ONE: Ratio = Ratio { numer: 1, denom: 1 };

    /// `numer / denom`, reduced. Panics if `denom` is 0.
    pub fn new(numer: u128, denom: u128) -> Ratio {
        assert!(denom != 0, "a fraction needs a non-zero denominator");
        let g = gcd(numer, denom);
        if g == 0 {
            return Ratio::ZERO;
        }
        Ratio {
            numer: numer / g,
            denom: denom / g,
        }
    }

    /// The whole number `n`.
    pub fn from_integer(n: u128) -> Ratio {
        Ratio { numer: n, denom: 1 }
    }

    /// The numerator (in lowest terms).
    pub fn numer(self) -> u128 {
        self.numer
    }

    /// The denominator (in lowest terms, at least 1).
    pub fn denom(self) -> u128 {
        self.denom
    }

    /// Whether this is 0.
    pub fn is_zero(self) -> bool {
        self.numer == 0
    }

    /// `|self − other|`.
    pub fn abs_diff(self, other: Ratio) -> Ratio {
        let (hi, lo) = if self >= other {
            (self, other)
        } else {
            (other, self)
        };
        let g = gcd(hi.denom, lo.denom);
        let denom = (hi.denom / g)
            .checked_mul(lo.denom)
            .expect("fraction denominator overflow");
        let a = hi.numer * (denom / hi.denom);
        let b = lo.numer * (denom / lo.denom);
        Ratio::new(a - b, denom)
    }

    /// The nearest `f64`, for display and statistics only (never for the exact analysis).
    pub fn to_f64(self) -> f64 {
        self.numer as f64 / self.denom as f64
    }
}

impl Default for Ratio {
    /// 0.
    fn default() -> Ratio {
        Ratio::ZERO
    }
}

impl Mul for Ratio {
    type Output = Ratio;
    fn mul(self, rhs: Ratio) -> Ratio {
        // Cross-reduce first so the products stay as small as possible.
        let g1 = gcd(self.numer, rhs.denom).max(1);
        let g2 = gcd(rhs.numer, self.denom).max(1);
        let numer = (self.numer / g1)
            .checked_mul(rhs.numer / g2)
            .expect("fraction numerator overflow");
        let denom = (self.denom / g2)
            .checked_mul(rhs.denom / g1)
            .expect("fraction denominator overflow");
        Ratio::new(numer, denom)
    }
}

impl Div for Ratio {
    type Output = Ratio;
    fn div(self, rhs: Ratio) -> Ratio {
        assert!(!rhs.is_zero(), "division of a fraction by zero");
        self * Ratio {
            numer: rhs.denom,
            denom: rhs.numer,
        }
    }
}

impl Add for Ratio {
    type Output = Ratio;
    fn add(self, rhs: Ratio) -> Ratio {
        let g = gcd(self.denom, rhs.denom);
        let denom = (self.denom / g)
            .checked_mul(rhs.denom)
            .expect("fraction denominator overflow");
        let a = self
            .numer
            .checked_mul(denom / self.denom)
            .expect("fraction numerator overflow");
        let b = rhs
            .numer
            .checked_mul(denom / rhs.denom)
            .expect("fraction numerator overflow");
        Ratio::new(
            a.checked_add(b).expect("fraction numerator overflow"),
            denom,
        )
    }
}

impl AddAssign for Ratio {
    fn add_assign(&mut self, rhs: Ratio) {
        *self = *self + rhs;
    }
}

impl std::iter::Sum for Ratio {
    fn sum<I: Iterator<Item = Ratio>>(iter: I) -> Ratio {
        iter.fold(Ratio::ZERO, |a, b| a + b)
    }
}

impl Ord for Ratio {
    fn cmp(&self, other: &Ratio) -> Ordering {
        let a = self
            .numer
            .checked_mul(other.denom)
            .expect("fraction comparison overflow");
        let b = other
            .numer
            .checked_mul(self.denom)
            .expect("fraction comparison overflow");
        a.cmp(&b)
    }
}

impl PartialOrd for Ratio {
    fn partial_cmp(&self, other: &Ratio) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

/// `3/7`, or `2` for a whole number.
impl fmt::Display for Ratio {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.denom == 1 {
            write!(f, "{}", self.numer)
        } else {
            write!(f, "{}/{}", self.numer, self.denom)
        }
    }
}

impl fmt::Debug for Ratio {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Ratio({self})")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arithmetic_is_exact_and_reduced() {
        let third = Ratio::new(1, 3);
        let sixth = Ratio::new(2, 12);
        assert_eq!(sixth.to_string(), "1/6");
        assert_eq!((third + sixth).to_string(), "1/2");
        assert_eq!((third * Ratio::new(3, 5)).to_string(), "1/5");
        assert_eq!((Ratio::new(4, 7) / Ratio::new(8, 7)).to_string(), "1/2");
        assert_eq!(Ratio::new(960, 840).to_string(), "8/7");
        assert_eq!(Ratio::new(6, 3).to_string(), "2");
        assert_eq!(Ratio::new(0, 5), Ratio::ZERO);
        assert!(Ratio::new(4, 7) < Ratio::new(8, 7));
        let total: Ratio = (0..960).map(|_| Ratio::new(1, 960)).sum();
        assert_eq!(total, Ratio::ONE);
        assert_eq!(
            Ratio::new(1, 768).abs_diff(Ratio::new(1, 960)),
            Ratio::new(1, 3840)
        );
        assert_eq!(
            Ratio::new(1, 960).abs_diff(Ratio::new(1, 768)),
            Ratio::new(1, 3840)
        );
    }
}
