//! How fast anyone may try an account's password (docs/server.md, "Accounts"). (Logins and
//! registrations per address are limited with the network's other checks, `http/rate.rs`.)
//!
//! After [`FREE_FAILURES`] wrong passwords in a row, an account's next
//!   login waits twice as long after each further failure, up to [`MAX_DELAY`], whatever the
//!   address, except from an address that logged in to it before (this process remembers the
//!   last [`TRUSTED_PER_ACCOUNT`] of them): the real owner still gets in at once while someone
//!   else guesses from elsewhere. A success clears the count.

use crate::http::rate::key_of;
use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Wrong passwords of an account before it is slowed down.
pub const FREE_FAILURES: u32 = 5;
/// The longest wait between two tries on one account.
pub const MAX_DELAY: Duration = Duration::from_secs(60);
/// Addresses that logged in remembered per account.
pub const TRUSTED_PER_ACCOUNT: usize = 8;
/// Accounts whose failures are remembered before the oldest are forgotten.
const MAX_ACCOUNTS: usize = 10_000;

#[derive(Default, Clone)]
struct Account {
    /// Wrong passwords in a row.
    failures: u32,
    /// When the last one was tried.
    last: Option<Instant>,
    /// Address keys that logged in, the newest last.
    trusted: Vec<IpAddr>,
}

/// The wrong passwords of each account, and the addresses that logged in to it.
#[derive(Default)]
pub struct LoginLimits {
    accounts: Mutex<HashMap<String, Account>>,
}

impl LoginLimits {
    /// Whether `client` may try the password of the account `key` at `now`; the time to wait
    /// when not.
    pub fn account(&self, key: &str, client: IpAddr, now: Instant) -> Result<(), Duration> {
        let accounts = self.accounts.lock().unwrap_or_else(|e| e.into_inner());
        let Some(a) = accounts.get(key) else {
            return Ok(());
        };
        if a.failures < FREE_FAILURES || a.trusted.contains(&key_of(client)) {
            return Ok(());
        }
        let delay = delay_after(a.failures);
        let since = a.last.map_or(delay, |t| now.saturating_duration_since(t));
        if since >= delay {
            Ok(())
        } else {
            Err(delay - since)
        }
    }

    /// A wrong password for `key` at `now`.
    pub fn failed(&self, key: &str, now: Instant) {
        let mut accounts = self.accounts.lock().unwrap_or_else(|e| e.into_inner());
        if accounts.len() >= MAX_ACCOUNTS && !accounts.contains_key(key) {
            // Forget those that would not slow anyone down any more.
            accounts.retain(|_, a| {
                a.last
                    .is_some_and(|t| now.saturating_duration_since(t) < MAX_DELAY)
            });
            if accounts.len() >= MAX_ACCOUNTS {
                return;
            }
        }
        let a = accounts.entry(key.to_string()).or_default();
        a.failures = a.failures.saturating_add(1);
        a.last = Some(now);
    }

    /// A login to `key` from `client`: its failures are forgotten, its address trusted.
    pub fn succeeded(&self, key: &str, client: IpAddr) {
        let mut accounts = self.accounts.lock().unwrap_or_else(|e| e.into_inner());
        if accounts.len() >= MAX_ACCOUNTS && !accounts.contains_key(key) {
            return;
        }
        let a = accounts.entry(key.to_string()).or_default();
        a.failures = 0;
        a.last = None;
        let client = key_of(client);
        a.trusted.retain(|&t| t != client);
        a.trusted.push(client);
        if a.trusted.len() > TRUSTED_PER_ACCOUNT {
            a.trusted.remove(0);
        }
    }
}

/// The wait after `failures` wrong passwords in a row: 1 s after the first over the free
/// ones, doubling, at most [`MAX_DELAY`].
fn delay_after(failures: u32) -> Duration {
    let over = failures.saturating_sub(FREE_FAILURES).min(16);
    Duration::from_secs(1u64 << over).min(MAX_DELAY)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_account_slows_down_after_its_free_failures_but_not_for_its_owner() {
        let l = LoginLimits::default();
        let (owner, guesser) = (
            "192.0.2.1".parse::<IpAddr>().unwrap(),
            "198.51.100.7".parse::<IpAddr>().unwrap(),
        );
        let t0 = Instant::now();
        l.succeeded("ann", owner);
        for _ in 0..FREE_FAILURES {
            assert!(l.account("ann", guesser, t0).is_ok());
            l.failed("ann", t0);
        }
        // The sixth try waits a second after the fifth failure; then twice as long each time.
        let wait = l.account("ann", guesser, t0).unwrap_err();
        assert_eq!(wait, Duration::from_secs(1));
        assert!(l
            .account("ann", guesser, t0 + Duration::from_secs(1))
            .is_ok());
        l.failed("ann", t0 + Duration::from_secs(1));
        assert_eq!(
            l.account("ann", guesser, t0 + Duration::from_secs(1))
                .unwrap_err(),
            Duration::from_secs(2)
        );
        // The owner's address is not held back; another account is not either.
        assert!(l.account("ann", owner, t0).is_ok());
        assert!(l.account("bob", guesser, t0).is_ok());
        // The longest wait is a minute; a success clears the count.
        for _ in 0..30 {
            l.failed("ann", t0);
        }
        assert_eq!(l.account("ann", guesser, t0).unwrap_err(), MAX_DELAY);
        l.succeeded("ann", owner);
        assert!(l.account("ann", guesser, t0).is_ok());
    }
}
