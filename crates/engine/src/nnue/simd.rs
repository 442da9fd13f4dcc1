//! The three loops the net spends its time in, with AVX2 where the CPU has it (chosen at run
//! time, once) and a portable fallback. Both give identical results: integer arithmetic in the
//! same widths, no rounding anywhere (tested below on random data).

use super::QA;
use std::sync::OnceLock;

/// Whether this CPU runs the AVX2 code (asked once; `CHESS960_NO_AVX2=1` forces the portable
/// code, for comparing the two).
fn use_avx2() -> bool {
    static AVX2: OnceLock<bool> = OnceLock::new();
    *AVX2.get_or_init(|| {
        #[cfg(target_arch = "x86_64")]
        {
            std::env::var_os("CHESS960_NO_AVX2").is_none() && is_x86_feature_detected!("avx2")
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            false
        }
    })
}

/// The instruction set the evaluation uses on this machine, for `bench` and the docs.
pub fn instruction_set() -> &'static str {
    if use_avx2() {
        "avx2"
    } else {
        "portable"
    }
}

/// `acc += add[0] + add[1] + … − sub[0] − …`, element-wise with wrapping i16 arithmetic, into
/// `out` (which may be a different accumulator than the source `acc`).
pub fn update(out: &mut [i16], acc: &[i16], add: &[&[i16]], sub: &[&[i16]]) {
    #[cfg(target_arch = "x86_64")]
    if use_avx2() && out.len() % 16 == 0 {
        // SAFETY: AVX2 is present (checked above) and every slice has `out.len()` elements.
        unsafe { avx2::update(out, acc, add, sub) };
        return;
    }
    portable::update(out, acc, add, sub);
}

/// `Σ clamp(x, 0, QA)² · w` over both slices, as the engine's output layer computes it.
pub fn screlu_dot(acc: &[i16], weights: &[i16]) -> i64 {
    #[cfg(target_arch = "x86_64")]
    if use_avx2() && acc.len() % 16 == 0 {
        // SAFETY: AVX2 is present (checked above); the slices have the same length.
        return unsafe { avx2::screlu_dot(acc, weights) };
    }
    portable::screlu_dot(acc, weights)
}

/// The reference loops: plain Rust, any length.
pub mod portable {
    use super::QA;

    /// See [`super::update`].
    pub fn update(out: &mut [i16], acc: &[i16], add: &[&[i16]], sub: &[&[i16]]) {
        out.copy_from_slice(acc);
        for row in add {
            for (o, w) in out.iter_mut().zip(row.iter()) {
                *o = o.wrapping_add(*w);
            }
        }
        for row in sub {
            for (o, w) in out.iter_mut().zip(row.iter()) {
                *o = o.wrapping_sub(*w);
            }
        }
    }

    /// See [`super::screlu_dot`]. The product `clamp(x)·w` is taken in i16 as the AVX2 code
    /// does (it fits: the trainer clips |w| to 1.98·QB, and 255·127 < 2¹⁵).
    pub fn screlu_dot(acc: &[i16], weights: &[i16]) -> i64 {
        let mut sum = 0i64;
        for (&a, &w) in acc.iter().zip(weights) {
            let x = a.clamp(0, QA as i16);
            sum += i64::from(i32::from(x.wrapping_mul(w)) * i32::from(x));
        }
        sum
    }
}

#[cfg(target_arch = "x86_64")]
mod avx2 {
    use super::QA;
    use std::arch::x86_64::*;

    /// # Safety
    /// AVX2 must be available; every slice has `out.len()` elements, a multiple of 16.
    #[target_feature(enable = "avx2")]
    pub unsafe fn update(out: &mut [i16], acc: &[i16], add: &[&[i16]], sub: &[&[i16]]) {
        let n = out.len();
        let mut i = 0;
        while i < n {
            let mut v = _mm256_loadu_si256(acc.as_ptr().add(i).cast());
            for row in add {
                v = _mm256_add_epi16(v, _mm256_loadu_si256(row.as_ptr().add(i).cast()));
            }
            for row in sub {
                v = _mm256_sub_epi16(v, _mm256_loadu_si256(row.as_ptr().add(i).cast()));
            }
            _mm256_storeu_si256(out.as_mut_ptr().add(i).cast(), v);
            i += 16;
        }
    }

    /// # Safety
    /// AVX2 must be available; both slices have the same length, a multiple of 16.
    #[target_feature(enable = "avx2")]
    pub unsafe fn screlu_dot(acc: &[i16], weights: &[i16]) -> i64 {
        let zero = _mm256_setzero_si256();
        let top = _mm256_set1_epi16(QA as i16);
        let mut sum = _mm256_setzero_si256();
        let mut i = 0;
        while i < acc.len() {
            let a = _mm256_loadu_si256(acc.as_ptr().add(i).cast());
            let w = _mm256_loadu_si256(weights.as_ptr().add(i).cast());
            let x = _mm256_min_epi16(_mm256_max_epi16(a, zero), top);
            // (x·w) in i16, then pairs of (x·w)·x summed into i32: no overflow for a lane over
            // a few hundred neurons (each term is below 255·127·255 ≈ 8.3M).
            sum = _mm256_add_epi32(sum, _mm256_madd_epi16(_mm256_mullo_epi16(x, w), x));
            i += 16;
        }
        let mut lanes = [0i32; 8];
        _mm256_storeu_si256(lanes.as_mut_ptr().cast(), sum);
        lanes.iter().map(|&l| i64::from(l)).sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nnue::testing::random_values as random;

    #[test]
    fn the_fast_code_gives_the_portable_results() {
        // On a machine without AVX2 both sides run the portable code and the test is trivially
        // true; the test machine and CI have AVX2 (checked by `instruction_set` in bench).
        let mut seed = 1;
        for n in [16, 64, 128, 256] {
            let acc = random(n, &mut seed, 600);
            let rows: Vec<Vec<i16>> = (0..4).map(|_| random(n, &mut seed, 127)).collect();
            let (add, sub): (Vec<&[i16]>, Vec<&[i16]>) = (
                vec![rows[0].as_slice(), rows[1].as_slice()],
                vec![rows[2].as_slice(), rows[3].as_slice()],
            );
            let mut fast = vec![0; n];
            let mut slow = vec![0; n];
            update(&mut fast, &acc, &add, &sub);
            portable::update(&mut slow, &acc, &add, &sub);
            assert_eq!(fast, slow, "update, {n} neurons");
            let weights = random(n, &mut seed, 127);
            assert_eq!(
                screlu_dot(&acc, &weights),
                portable::screlu_dot(&acc, &weights),
                "output, {n} neurons"
            );
        }
    }

    #[test]
    fn the_output_loop_computes_the_squared_clipped_relu() {
        let acc = [-5i16, 0, 10, 300, 255, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11];
        let w = [3i16; 16];
        let expected: i64 = acc
            .iter()
            .map(|&a| i64::from(a.clamp(0, 255)).pow(2) * 3)
            .sum();
        assert_eq!(screlu_dot(&acc, &w), expected);
        assert_eq!(portable::screlu_dot(&acc, &w), expected);
    }
}
