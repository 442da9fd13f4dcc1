//! Secrets: drawn from the operating system's random source as lowercase hex (the players'
//! tokens' one way, `chess960_players::token`), and compared without giving away where they
//! differ. The access token (`guard.rs`) and the seat tokens (`seat.rs`) both use them.

pub use chess960_players::token::hex;

/// `N` random bytes from the operating system, as `2 N` lowercase hex digits.
pub fn random_hex<const N: usize>() -> Result<String, getrandom::Error> {
    chess960_players::token::random_hex(N)
}

/// Whether `given` is `secret`, in time that depends on the lengths only, not on where the
/// first difference is.
pub fn same_secret(given: &[u8], secret: &[u8]) -> bool {
    if given.len() != secret.len() {
        return false;
    }
    let diff = given
        .iter()
        .zip(secret)
        .fold(0u8, |acc, (a, b)| acc | (a ^ b));
    std::hint::black_box(diff) == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn secrets_compare_whole() {
        assert!(same_secret(b"abc", b"abc"));
        assert!(!same_secret(b"abd", b"abc"));
        assert!(!same_secret(b"ab", b"abc"));
        assert!(!same_secret(b"", b"abc"));
    }

    #[test]
    fn hex_is_lowercase_and_two_digits_a_byte() {
        assert_eq!(hex(&[0x00, 0x0f, 0xa5, 0xff]), "000fa5ff");
        let drawn = random_hex::<24>().unwrap();
        assert_eq!(drawn.len(), 48);
        assert!(drawn
            .bytes()
            .all(|b| b.is_ascii_hexdigit() && !b.is_ascii_uppercase()));
    }
}
