//! SplitMix64 (Steele, Lea and Flood), the generator behind [`crate::RandomSource`]: 64 bits
//! of state, integer arithmetic only, so a seed draws the same outcomes on every platform.
//! The one generator of the project's random draws (`chess960 position --random`, `draw`,
//! `fairness --sample`); not for cryptography.

use std::collections::hash_map::RandomState;
use std::hash::{BuildHasher, Hasher};
use std::time::{SystemTime, UNIX_EPOCH};

/// The SplitMix64 generator.
#[derive(Debug, Clone)]
pub struct SplitMix64 {
    state: u64,
}

impl SplitMix64 {
    /// A generator whose output is fully determined by `seed`.
    pub fn from_seed(seed: u64) -> SplitMix64 {
        SplitMix64 { state: seed }
    }

    /// A generator seeded from the OS: `RandomState` draws its keys from the operating
    /// system's random source; the time and process ID are mixed in as well.
    pub fn from_entropy() -> SplitMix64 {
        let mut hasher = RandomState::new().build_hasher();
        let nanos = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos());
        hasher.write_u128(nanos);
        hasher.write_u32(std::process::id());
        SplitMix64::from_seed(hasher.finish())
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A uniformly distributed number in `0..n` (`n > 0`), without modulo bias: draws in the
    /// incomplete last block of `n` values are rejected and drawn again.
    pub fn below(&mut self, n: u64) -> u64 {
        assert!(n > 0, "the range must not be empty");
        let limit = u64::MAX - (u64::MAX % n);
        loop {
            let x = self.next_u64();
            if x < limit {
                return x % n;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reference_output() {
        // Reference value of SplitMix64 seeded with 0.
        assert_eq!(SplitMix64::from_seed(0).next_u64(), 0xE220_A839_7B1D_CDAF);
        let mut a = SplitMix64::from_seed(9);
        let mut b = SplitMix64::from_seed(9);
        for _ in 0..100 {
            let x = a.below(6);
            assert_eq!(x, b.below(6));
            assert!(x < 6);
        }
    }

    #[test]
    fn roughly_uniform() {
        let mut rng = SplitMix64::from_seed(1);
        let mut counts = [0u32; 960];
        for _ in 0..960 * 200 {
            counts[rng.below(960) as usize] += 1;
        }
        assert!(counts.iter().all(|&c| (100..300).contains(&c)));
    }
}
