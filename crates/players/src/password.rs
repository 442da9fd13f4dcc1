//! Passwords: what the server accepts as a new one, and how it keeps it.
//!
//! A new password has at least [`MIN_CHARS`] characters, at most [`MAX_CHARS`] (so that
//! hashing one costs what it should), is not the user's name, and is not among the 100,000
//! most common passwords of the `passwords` crate's list (checked as typed and in lower case).
//! It is kept only as an Argon2id hash in the PHC string format (salt and parameters inside),
//! with [`PARAMS`]: 19 MiB of memory, 2 passes, 1 lane, the minimum OWASP's password storage
//! cheat sheet recommends, which costs tens of milliseconds a login on one core. A hash made
//! with other parameters (a later version's) still verifies: the string carries its own.
//!
//! [`verify`] of an unknown user checks the password against a hash of nothing, so that a
//! wrong password and an unknown name take the same time and cannot be told apart.

use argon2::password_hash::rand_core::OsRng;
use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use argon2::{Algorithm, Argon2, Params, Version};
use std::fmt;
use std::sync::OnceLock;

use crate::name::UserName;

/// The fewest characters of a new password.
pub const MIN_CHARS: usize = 8;
/// The most characters of a password (longer ones are refused before any hashing).
pub const MAX_CHARS: usize = 256;
/// Argon2id's memory in KiB, passes and lanes.
pub const PARAMS: (u32, u32, u32) = (19 * 1024, 2, 1);

/// Why a new password is refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PasswordError {
    /// Fewer than [`MIN_CHARS`] characters (how many it has).
    TooShort(usize),
    /// More than [`MAX_CHARS`] characters.
    TooLong,
    /// The user's own name.
    SameAsName,
    /// One of the most common passwords.
    Common,
}

impl fmt::Display for PasswordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PasswordError::TooShort(n) => write!(
                f,
                "a password has at least {MIN_CHARS} characters (this one has {n})"
            ),
            PasswordError::TooLong => write!(f, "a password has at most {MAX_CHARS} characters"),
            PasswordError::SameAsName => f.write_str("a password is not the user name"),
            PasswordError::Common => f.write_str(
                "this password is among the most common ones, which are tried first: choose another",
            ),
        }
    }
}

impl std::error::Error for PasswordError {}

/// A new password that passed the checks, not yet hashed.
pub struct NewPassword(String);

impl fmt::Debug for NewPassword {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Never printed, even in a debug message.
        f.write_str("NewPassword(..)")
    }
}

/// The hash of a password as stored: a PHC string (`$argon2id$v=19$m=19456,t=2,p=1$...`).
#[derive(Clone, PartialEq, Eq)]
pub struct StoredHash(String);

impl fmt::Debug for StoredHash {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("StoredHash(..)")
    }
}

impl StoredHash {
    /// A hash read back from the database.
    pub fn from_stored(text: String) -> StoredHash {
        StoredHash(text)
    }

    /// The text to store.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// Hashing failed (no random numbers for a salt, or parameters Argon2 refuses).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HashError(pub String);

impl fmt::Display for HashError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "the password could not be hashed: {}", self.0)
    }
}

impl std::error::Error for HashError {}

fn argon2() -> Argon2<'static> {
    let (m, t, p) = PARAMS;
    let params = Params::new(m, t, p, None).expect("PARAMS are valid Argon2 parameters");
    Argon2::new(Algorithm::Argon2id, Version::V0x13, params)
}

/// Whether `text` is one of the common passwords, as typed or in lower case.
fn is_common(text: &str) -> bool {
    passwords::analyzer::is_common_password(text)
        || passwords::analyzer::is_common_password(text.to_lowercase())
}

impl NewPassword {
    /// Checks `text` as the new password of `user`.
    pub fn check(text: &str, user: &UserName) -> Result<NewPassword, PasswordError> {
        let chars = text.chars().count();
        if chars < MIN_CHARS {
            return Err(PasswordError::TooShort(chars));
        }
        if chars > MAX_CHARS {
            return Err(PasswordError::TooLong);
        }
        if text.eq_ignore_ascii_case(user.as_str()) {
            return Err(PasswordError::SameAsName);
        }
        if is_common(text) {
            return Err(PasswordError::Common);
        }
        Ok(NewPassword(text.to_string()))
    }

    /// The hash to store, with a new random salt.
    pub fn hash(&self) -> Result<StoredHash, HashError> {
        let salt = SaltString::generate(&mut OsRng);
        argon2()
            .hash_password(self.0.as_bytes(), &salt)
            .map(|h| StoredHash(h.to_string()))
            .map_err(|e| HashError(e.to_string()))
    }
}

/// A hash of nothing anyone types, made on first use (a server makes it at start, with
/// [`prepare`]), that an unknown user's password is checked against so that the answer takes
/// as long as for a known one.
fn decoy() -> &'static str {
    static DECOY: OnceLock<String> = OnceLock::new();
    DECOY.get_or_init(|| {
        let salt = SaltString::generate(&mut OsRng);
        argon2()
            .hash_password(b"\0 no user has this password \0", &salt)
            .map(|h| h.to_string())
            .unwrap_or_default()
    })
}

/// Makes the decoy hash that [`verify`] uses for unknown users, so that the first of them does
/// not take longer than the others.
pub fn prepare() {
    decoy();
}

/// Whether `text` is the password of the hash `stored`; with `None` (no such user, or a
/// disabled one) it is checked against a decoy hash and is never right, in the same time. A
/// stored hash that does not read is never right either.
pub fn verify(text: &str, stored: Option<&StoredHash>) -> bool {
    if text.chars().count() > MAX_CHARS {
        return false;
    }
    let (phc, known) = match stored {
        Some(h) => (h.0.as_str(), true),
        None => (decoy(), false),
    };
    let Ok(parsed) = PasswordHash::new(phc) else {
        return false;
    };
    // The parameters are the stored hash's own.
    let right = Argon2::default()
        .verify_password(text.as_bytes(), &parsed)
        .is_ok();
    right && known
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ann() -> UserName {
        "Ann".parse().unwrap()
    }

    #[test]
    fn weak_passwords_are_refused_with_the_reason() {
        let cases = [
            ("short", PasswordError::TooShort(5)),
            ("ñandú12", PasswordError::TooShort(7)),
            ("password", PasswordError::Common),
            ("PASSWORD1", PasswordError::Common),
            ("12345678", PasswordError::Common),
            ("qwertyuiop", PasswordError::Common),
            ("iloveyou", PasswordError::Common),
            ("LetMeIn1", PasswordError::Common),
        ];
        for (text, error) in cases {
            assert_eq!(
                NewPassword::check(text, &ann()).unwrap_err(),
                error,
                "{text}"
            );
        }
        let long: UserName = "Longname1".parse().unwrap();
        assert_eq!(
            NewPassword::check("longNAME1", &long).unwrap_err(),
            PasswordError::SameAsName
        );
        assert_eq!(
            NewPassword::check(&"x".repeat(MAX_CHARS + 1), &ann()).unwrap_err(),
            PasswordError::TooLong
        );
        assert!(NewPassword::check("castle on h1 queenside", &ann()).is_ok());
    }

    #[test]
    fn a_hash_verifies_its_password_only() {
        let hash = NewPassword::check("castle on h1 queenside", &ann())
            .unwrap()
            .hash()
            .unwrap();
        assert!(
            hash.as_str().starts_with("$argon2id$v=19$m=19456,t=2,p=1$"),
            "{}",
            hash.as_str()
        );
        assert!(verify("castle on h1 queenside", Some(&hash)));
        assert!(!verify("castle on h1 Queenside", Some(&hash)));
        assert!(!verify("", Some(&hash)));
        // Two hashes of one password differ (their salts).
        let again = NewPassword::check("castle on h1 queenside", &ann())
            .unwrap()
            .hash()
            .unwrap();
        assert_ne!(hash, again);
        // Neither shows in a debug message.
        assert_eq!(format!("{hash:?}"), "StoredHash(..)");
    }

    #[test]
    fn an_unknown_user_or_a_bad_hash_is_never_right() {
        assert!(!verify("anything at all", None));
        assert!(!verify("\0 no user has this password \0", None));
        let bad = StoredHash::from_stored("not a PHC string".into());
        assert!(!verify("anything at all", Some(&bad)));
    }

    #[test]
    fn a_hash_made_with_other_parameters_still_verifies() {
        let salt = SaltString::generate(&mut OsRng);
        let other = Argon2::new(
            Algorithm::Argon2id,
            Version::V0x13,
            Params::new(8 * 1024, 1, 1, None).unwrap(),
        );
        let phc = other
            .hash_password(b"an older hash", &salt)
            .unwrap()
            .to_string();
        assert!(verify("an older hash", Some(&StoredHash::from_stored(phc))));
    }
}
