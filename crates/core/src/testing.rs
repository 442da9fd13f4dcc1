//! Helpers shared by the unit tests.

/// A xorshift64 generator from `seed` (not zero): fast, reproducible random numbers for random
/// games, with nothing to install.
pub fn xorshift(mut seed: u64) -> impl FnMut() -> u64 {
    move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    }
}
