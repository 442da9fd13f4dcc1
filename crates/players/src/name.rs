//! User names: 2 to 20 letters, digits, `_` or `-` (ASCII), unique whatever their case. A
//! name keeps the case its owner chose for display; [`UserName::key`] is what makes two names
//! the same.

use std::fmt;
use std::str::FromStr;

/// The shortest and longest names.
pub const LENGTH: (usize, usize) = (2, 20);

/// A valid user name, as its owner wrote it.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct UserName(String);

/// Why a text is not a user name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NameError {
    /// Fewer than 2 or more than 20 characters.
    Length(usize),
    /// A character other than a letter, digit, `_` or `-` (the first one found).
    Character(char),
}

impl fmt::Display for NameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (lo, hi) = LENGTH;
        match self {
            NameError::Length(n) => write!(f, "a user name has {lo} to {hi} characters, not {n}"),
            NameError::Character(c) => write!(
                f,
                "a user name has only letters, digits, _ and - (not {c:?})"
            ),
        }
    }
}

impl std::error::Error for NameError {}

impl UserName {
    /// The name as its owner wrote it.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The name in lower case: two names with the same key are the same user.
    pub fn key(&self) -> String {
        self.0.to_ascii_lowercase()
    }
}

impl FromStr for UserName {
    type Err = NameError;

    /// Reads a name (surrounding white space is not part of it).
    fn from_str(text: &str) -> Result<UserName, NameError> {
        let text = text.trim();
        if let Some(c) = text
            .chars()
            .find(|c| !(c.is_ascii_alphanumeric() || *c == '_' || *c == '-'))
        {
            return Err(NameError::Character(c));
        }
        // Only ASCII is left: bytes are characters.
        let (lo, hi) = LENGTH;
        if !(lo..=hi).contains(&text.len()) {
            return Err(NameError::Length(text.len()));
        }
        Ok(UserName(text.to_string()))
    }
}

impl fmt::Display for UserName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_read_and_compared_without_case() {
        let ann: UserName = " Ann_M-9 ".parse().unwrap();
        assert_eq!(ann.as_str(), "Ann_M-9");
        assert_eq!(ann.key(), "ann_m-9");
        assert_eq!(ann.key(), "ANN_m-9".parse::<UserName>().unwrap().key());
        for ok in ["ab", "x".repeat(20).as_str(), "__", "9-9"] {
            assert!(ok.parse::<UserName>().is_ok(), "{ok}");
        }
    }

    #[test]
    fn bad_names_say_why() {
        let cases = [
            ("a", NameError::Length(1)),
            ("", NameError::Length(0)),
            (&"x".repeat(21), NameError::Length(21)),
            ("ann smith", NameError::Character(' ')),
            ("anné", NameError::Character('é')),
            ("<b>", NameError::Character('<')),
            ("аnn", NameError::Character('а')), // Cyrillic a: no look-alikes
        ];
        for (text, error) in cases {
            assert_eq!(text.parse::<UserName>(), Err(error.clone()), "{text}");
            assert!(!error.to_string().is_empty());
        }
    }
}
