//! Who may register on a server (`chess960 serve --registration`).

use std::fmt;
use std::str::FromStr;

/// Who may register an account.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Registration {
    /// Anyone who reaches the server.
    Open,
    /// Whoever has an invitation code (`chess960 user invite`).
    Invite,
    /// Nobody: the owner adds users on the terminal (`chess960 user add`).
    Closed,
}

impl Registration {
    /// The default: open on a server only this machine reaches (loopback), by invitation
    /// otherwise.
    pub fn default_for(loopback: bool) -> Registration {
        if loopback {
            Registration::Open
        } else {
            Registration::Invite
        }
    }

    /// The mode's name, as `--registration` takes it.
    pub fn name(self) -> &'static str {
        match self {
            Registration::Open => "open",
            Registration::Invite => "invite",
            Registration::Closed => "closed",
        }
    }
}

impl fmt::Display for Registration {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Registration {
    type Err = String;

    fn from_str(s: &str) -> Result<Registration, String> {
        match s.trim().to_ascii_lowercase().as_str() {
            "open" => Ok(Registration::Open),
            "invite" => Ok(Registration::Invite),
            "closed" => Ok(Registration::Closed),
            other => Err(format!(
                "'{}' is not a registration mode (open, invite, closed)",
                other.chars().take(20).collect::<String>()
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn modes_read_back_and_default_by_address() {
        for mode in [
            Registration::Open,
            Registration::Invite,
            Registration::Closed,
        ] {
            assert_eq!(mode.name().parse::<Registration>(), Ok(mode));
        }
        assert_eq!(" Invite ".parse::<Registration>(), Ok(Registration::Invite));
        assert!("everyone"
            .parse::<Registration>()
            .unwrap_err()
            .contains("not a registration mode"));
        assert_eq!(Registration::default_for(true), Registration::Open);
        assert_eq!(Registration::default_for(false), Registration::Invite);
    }
}
