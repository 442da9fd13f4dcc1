//! The one error type of the command: a one-line message, printed as `chess960: MESSAGE` on
//! standard error, with exit code 2.

use std::fmt;

/// A failure caused by bad input (or, rarely, by failing to write the output).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CliError {
    message: String,
}

impl CliError {
    /// An error with the given message. Line breaks are replaced by spaces so that the
    /// message is always exactly one line.
    pub fn new(message: impl Into<String>) -> CliError {
        let message: String = message.into();
        let message = message
            .chars()
            .map(|c| if c == '\n' || c == '\r' { ' ' } else { c })
            .collect();
        CliError { message }
    }
}

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for CliError {}

/// The result of a subcommand.
pub type CliResult<T> = Result<T, CliError>;

/// `s` for quoting inside an error message: control characters (a pasted line break, a tab,
/// an escape sequence) are escaped so that the message stays on one line and is readable.
pub fn quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        if c.is_control() {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_are_one_line() {
        assert_eq!(CliError::new("a\nb\r\nc").to_string(), "a b  c");
        assert_eq!(quote("x\ny\tz"), "x\\ny\\tz");
    }
}
