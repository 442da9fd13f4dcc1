//! Secret tokens of players: session ids and invitation codes. A token is random bits from
//! the operating system in lowercase hex; the database keeps only its SHA-256 ([`hash`]), so
//! that a copy of the database logs nobody in and invites nobody.

use sha2::{Digest, Sha256};
use std::fmt::Write;

/// A session id: 256 bits, 64 hex digits.
pub fn new_session_id() -> Result<String, getrandom::Error> {
    random_hex(32)
}

/// An invitation code: 128 bits, 32 hex digits (short enough to pass on by hand).
pub fn new_invite_code() -> Result<String, getrandom::Error> {
    random_hex(16)
}

/// What the database keeps of a token: its SHA-256, 64 lowercase hex digits.
pub fn hash(token: &str) -> String {
    hex(&Sha256::digest(token.trim().as_bytes()))
}

/// `bytes` random bytes from the operating system, as `2 × bytes` lowercase hex digits (every
/// secret token of the project: sessions and invitations here, the server's seat and access
/// tokens).
pub fn random_hex(bytes: usize) -> Result<String, getrandom::Error> {
    let mut buf = vec![0u8; bytes];
    getrandom::fill(&mut buf)?;
    Ok(hex(&buf))
}

/// `bytes` as lowercase hex digits, two a byte.
pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().fold(String::new(), |mut s, b| {
        let _ = write!(s, "{b:02x}");
        s
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_random_hex_and_hashes_are_sha256() {
        let (a, b) = (new_session_id().unwrap(), new_session_id().unwrap());
        assert_eq!(a.len(), 64);
        assert_ne!(a, b);
        assert!(a
            .bytes()
            .all(|c| c.is_ascii_hexdigit() && !c.is_ascii_uppercase()));
        assert_eq!(new_invite_code().unwrap().len(), 32);
        // SHA-256 of "abc" (FIPS 180-2's example).
        assert_eq!(
            hash("abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
        // A code pasted with a newline is the same code.
        assert_eq!(hash("abc\n"), hash("abc"));
    }
}
