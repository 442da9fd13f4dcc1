//! Wide signed integers for matching weights.
//!
//! A Dutch pairing packs more than twenty criteria into one edge weight, one field per
//! criterion, most important highest (see `dutch/weights.rs`). For a few hundred players
//! that is several hundred bits, so weights are integers of `64·N` bits: two's complement,
//! wrapping, with the width chosen per round from what the round needs.

use std::cmp::Ordering;
use std::ops::{Add, AddAssign, Sub, SubAssign};

/// A signed integer of `64·N` bits (two's complement, little-endian limbs, wrapping).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Wide<const N: usize>([u64; N]);

impl<const N: usize> Wide<N> {
    /// Zero.
    pub const ZERO: Wide<N> = Wide([0; N]);

    /// The bits this width holds.
    pub const BITS: u32 = 64 * N as u32;

    /// A small non-negative value.
    pub fn from_u64(v: u64) -> Wide<N> {
        let mut w = Wide::ZERO;
        w.0[0] = v;
        w
    }

    /// Whether the value is zero.
    pub fn is_zero(&self) -> bool {
        self.0.iter().all(|&l| l == 0)
    }

    /// Whether the value is odd.
    pub fn is_odd(&self) -> bool {
        self.0[0] & 1 == 1
    }

    /// Whether the value is below zero.
    pub fn is_negative(&self) -> bool {
        self.0[N - 1] >> 63 == 1
    }

    /// The value shifted left by `k` bits (bits shifted past the top are lost).
    pub fn lsh(self, k: u32) -> Wide<N> {
        if k == 0 {
            return self;
        }
        let (limbs, bits) = ((k / 64) as usize, k % 64);
        let mut out = [0u64; N];
        for i in (limbs..N).rev() {
            let src = i - limbs;
            let mut v = self.0[src] << bits;
            if bits > 0 && src > 0 {
                v |= self.0[src - 1] >> (64 - bits);
            }
            out[i] = v;
        }
        Wide(out)
    }

    /// Half of the value, rounded towards minus infinity (an arithmetic shift right by one).
    pub fn half(self) -> Wide<N> {
        let mut out = [0u64; N];
        for (i, o) in out.iter_mut().enumerate() {
            // Each limb takes the lowest bit of the one above; the top one keeps its sign.
            let high = if i + 1 < N {
                self.0[i + 1] << 63
            } else {
                self.0[N - 1] & (1 << 63)
            };
            *o = (self.0[i] >> 1) | high;
        }
        Wide(out)
    }

    /// The value with the lowest bit of `v`'s bits or-ed in (`v` fits in 64 bits).
    pub fn or_u64(mut self, v: u64) -> Wide<N> {
        self.0[0] |= v;
        self
    }

    /// The number of bits the (non-negative) value needs.
    pub fn bit_len(&self) -> u32 {
        for i in (0..N).rev() {
            if self.0[i] != 0 {
                return 64 * i as u32 + (64 - self.0[i].leading_zeros());
            }
        }
        0
    }

    /// The value as `u128` when it fits (for tests and messages).
    pub fn to_u128(&self) -> Option<u128> {
        if self.is_negative() || self.bit_len() > 128 {
            return None;
        }
        let low = self.0[0] as u128;
        let high = if N > 1 { self.0[1] as u128 } else { 0 };
        Some(low | high << 64)
    }
}

impl<const N: usize> Default for Wide<N> {
    fn default() -> Self {
        Wide::ZERO
    }
}

impl<const N: usize> Add for Wide<N> {
    type Output = Wide<N>;
    fn add(self, rhs: Wide<N>) -> Wide<N> {
        let mut out = [0u64; N];
        let mut carry = false;
        for (i, o) in out.iter_mut().enumerate() {
            let (s, c1) = self.0[i].overflowing_add(rhs.0[i]);
            let (s, c2) = s.overflowing_add(carry as u64);
            *o = s;
            carry = c1 || c2;
        }
        Wide(out)
    }
}

impl<const N: usize> Sub for Wide<N> {
    type Output = Wide<N>;
    fn sub(self, rhs: Wide<N>) -> Wide<N> {
        let mut out = [0u64; N];
        let mut borrow = false;
        for (i, o) in out.iter_mut().enumerate() {
            let (d, b1) = self.0[i].overflowing_sub(rhs.0[i]);
            let (d, b2) = d.overflowing_sub(borrow as u64);
            *o = d;
            borrow = b1 || b2;
        }
        Wide(out)
    }
}

impl<const N: usize> AddAssign for Wide<N> {
    fn add_assign(&mut self, rhs: Wide<N>) {
        *self = *self + rhs;
    }
}

impl<const N: usize> SubAssign for Wide<N> {
    fn sub_assign(&mut self, rhs: Wide<N>) {
        *self = *self - rhs;
    }
}

impl<const N: usize> Ord for Wide<N> {
    fn cmp(&self, other: &Wide<N>) -> Ordering {
        match (self.is_negative(), other.is_negative()) {
            (true, false) => return Ordering::Less,
            (false, true) => return Ordering::Greater,
            _ => {}
        }
        for i in (0..N).rev() {
            match self.0[i].cmp(&other.0[i]) {
                Ordering::Equal => continue,
                o => return o,
            }
        }
        Ordering::Equal
    }
}

impl<const N: usize> PartialOrd for Wide<N> {
    fn partial_cmp(&self, other: &Wide<N>) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl<const N: usize> std::fmt::Debug for Wide<N> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.to_u128() {
            Some(v) => write!(f, "{v}"),
            None => write!(f, "Wide{:x?}", self.0),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    type W = Wide<2>;

    fn w(v: i128) -> W {
        let u = v as u128;
        Wide([u as u64, (u >> 64) as u64])
    }

    fn v(x: W) -> i128 {
        (x.0[0] as u128 | (x.0[1] as u128) << 64) as i128
    }

    #[test]
    fn agrees_with_i128() {
        let samples: [i128; 9] = [
            0,
            1,
            -1,
            5,
            -7,
            1 << 70,
            -(1 << 90),
            i64::MAX as i128 * 3,
            12345678901234567890,
        ];
        for &a in &samples {
            assert_eq!(v(w(a).half()), a >> 1, "half {a}");
            for k in [0u32, 1, 13, 63, 64, 65, 100] {
                assert_eq!(v(w(a).lsh(k)), a.wrapping_shl(k), "{a} << {k}");
            }
            for &b in &samples {
                assert_eq!(v(w(a) + w(b)), a.wrapping_add(b));
                assert_eq!(v(w(a) - w(b)), a.wrapping_sub(b));
                assert_eq!(w(a).cmp(&w(b)), a.cmp(&b), "{a} vs {b}");
            }
        }
        assert_eq!(W::from_u64(5).lsh(70).bit_len(), 73);
        assert!(W::ZERO.is_zero() && !W::from_u64(1).is_zero());
    }
}
