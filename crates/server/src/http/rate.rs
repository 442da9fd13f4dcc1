//! Rate limits per client address, for the requests that create something that lasts: new games
//! (`POST /api/games`, and rematches, which may create one) and seats taken (`POST /api/games/{key}/join`),
//! and for the tries of a password (`POST /api/account/login` and `…/register`). Each address has a bucket
//! of `burst` requests that refills by one every `every`; an empty bucket is answered 429 with
//! the seconds to wait (`Retry-After`). The guard (`guard.rs`) checks them with the network's
//! other checks, before any handler runs.
//!
//! Beside the rates, [`Places`] counts what a client address holds at once (WebSockets of
//! each kind, challenges being created) against a cap.
//!
//! IPv6 addresses count by their /64 network: one household or host usually has a whole /64,
//! and would otherwise have 2^64 buckets. The buckets of addresses that are full again are
//! forgotten once there are many, so the table stays small whatever the number of clients.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// Buckets kept before the full ones are swept out.
const SWEEP_AT: usize = 4096;

/// One limit: `burst` requests at once, one more every `every`.
#[derive(Debug)]
pub struct RateLimit {
    burst: u32,
    every: Duration,
    buckets: Mutex<HashMap<IpAddr, Bucket>>,
}

#[derive(Clone, Copy, Debug)]
struct Bucket {
    /// Requests left, as of `at` (fractions refill continuously).
    tokens: f64,
    at: Instant,
}

/// The address a client counts as: itself for IPv4, its /64 network for IPv6.
pub(crate) fn key_of(ip: IpAddr) -> IpAddr {
    match ip.to_canonical() {
        IpAddr::V6(v6) => {
            let bits = u128::from(v6) & !((1u128 << 64) - 1);
            IpAddr::V6(bits.into())
        }
        v4 => v4,
    }
}

/// What each client address holds at once of one kind (WebSockets of a kind, challenges being
/// created), at most a number each.
pub struct Places {
    max: usize,
    /// Whether the machine's own clients (loopback) are counted: a reverse proxy on the
    /// same machine brings every client from there.
    loopback: bool,
    held: Mutex<HashMap<IpAddr, usize>>,
}

impl Places {
    /// At most `max` per address; loopback counted too when `loopback`.
    pub fn new(max: usize, loopback: bool) -> Arc<Places> {
        Arc::new(Places {
            max,
            loopback,
            held: Mutex::default(),
        })
    }

    fn lock(&self) -> MutexGuard<'_, HashMap<IpAddr, usize>> {
        self.held.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// A place for `client`, held until dropped; `None` when it holds [`Places::new`]'s
    /// `max` already.
    pub fn enter(self: &Arc<Self>, client: IpAddr) -> Option<Place> {
        self.enter_beside(client, || 0)
    }

    /// As [`Places::enter`], counting `beside()` more of the client's (what it has of the
    /// kind elsewhere) with the places held. `beside` is asked under this counter's lock,
    /// so that the count and the taking of the place are one step.
    pub fn enter_beside(
        self: &Arc<Self>,
        client: IpAddr,
        beside: impl FnOnce() -> usize,
    ) -> Option<Place> {
        let client = client.to_canonical();
        if client.is_loopback() && !self.loopback {
            return Some(Place {
                places: Arc::clone(self),
                client: None,
            });
        }
        let key = key_of(client);
        let mut held = self.lock();
        let n = held.get(&key).copied().unwrap_or(0);
        if n + beside() >= self.max {
            return None;
        }
        held.insert(key, n + 1);
        Some(Place {
            places: Arc::clone(self),
            client: Some(key),
        })
    }
}

/// One place held by a client ([`Places::enter`]), given back when dropped.
pub struct Place {
    places: Arc<Places>,
    /// The address it counts under; `None` when not counted.
    client: Option<IpAddr>,
}

impl Drop for Place {
    fn drop(&mut self) {
        let Some(client) = self.client else { return };
        let mut held = self.places.lock();
        if let Some(n) = held.get_mut(&client) {
            *n -= 1;
            if *n == 0 {
                held.remove(&client);
            }
        }
    }
}

/// True if `a` and `b` count as one client (see [`key_of`]).
pub fn same_client(a: IpAddr, b: IpAddr) -> bool {
    key_of(a) == key_of(b)
}

impl RateLimit {
    /// A limit of `burst` requests at once, refilled by one every `every`.
    pub fn new(burst: u32, every: Duration) -> RateLimit {
        RateLimit {
            burst: burst.max(1),
            every: every.max(Duration::from_millis(1)),
            buckets: Mutex::new(HashMap::new()),
        }
    }

    fn refilled(&self, b: Bucket, now: Instant) -> f64 {
        let gained = now.saturating_duration_since(b.at).as_secs_f64() / self.every.as_secs_f64();
        (b.tokens + gained).min(f64::from(self.burst))
    }

    /// Takes one request from `ip`'s bucket at `now`; refused with the time until the next
    /// one is allowed.
    pub fn take(&self, ip: IpAddr, now: Instant) -> Result<(), Duration> {
        let key = key_of(ip);
        let mut buckets = self.buckets.lock().unwrap_or_else(|e| e.into_inner());
        if buckets.len() >= SWEEP_AT && !buckets.contains_key(&key) {
            let full = f64::from(self.burst);
            buckets.retain(|_, b| self.refilled(*b, now) < full);
        }
        let full = Bucket {
            tokens: f64::from(self.burst),
            at: now,
        };
        let bucket = buckets.entry(key).or_insert(full);
        let tokens = self.refilled(*bucket, now);
        if tokens >= 1.0 {
            *bucket = Bucket {
                tokens: tokens - 1.0,
                at: now,
            };
            Ok(())
        } else {
            *bucket = Bucket { tokens, at: now };
            Err(self.every.mul_f64(1.0 - tokens))
        }
    }
}

/// The server's limits (see the module documentation and docs/server.md).
#[derive(Debug)]
pub struct Limits {
    /// `POST /api/games` (and `POST /api/games/{key}/rematch`, which may create a game): 20 at
    /// once, then one every 6 s (10 a minute).
    pub new_games: RateLimit,
    /// `POST /api/games/{key}/join`: 20 at once, then one every 3 s.
    pub joins: RateLimit,
    /// `POST /api/account/login` and `…/register`: 10 at once, then one every 6 s (the
    /// tries on each account are slowed down too: `accounts/limits.rs`).
    pub logins: RateLimit,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            new_games: RateLimit::new(20, Duration::from_secs(6)),
            joins: RateLimit::new(20, Duration::from_secs(3)),
            logins: RateLimit::new(10, Duration::from_secs(6)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn places_are_counted_per_address_and_given_back() {
        let ip = |t: &str| t.parse::<IpAddr>().unwrap();
        let s = Places::new(2, false);
        let a = s.enter(ip("192.0.2.1")).unwrap();
        let _b = s.enter(ip("192.0.2.1")).unwrap();
        assert!(s.enter(ip("192.0.2.1")).is_none(), "the third");
        assert!(s.enter(ip("192.0.2.2")).is_some(), "another address");
        drop(a);
        assert!(s.enter(ip("192.0.2.1")).is_some(), "a place given back");
        // One /64 is one client; loopback is not counted here.
        let _c = s.enter(ip("2001:db8::1")).unwrap();
        let _d = s.enter(ip("2001:db8::2")).unwrap();
        assert!(s.enter(ip("2001:db8::3")).is_none());
        let local: Vec<_> = (0..10).filter_map(|_| s.enter(ip("127.0.0.1"))).collect();
        assert_eq!(local.len(), 10);
        assert!(
            !s.lock().contains_key(&ip("127.0.0.1")),
            "loopback is not counted"
        );
        // Counted where asked to be, with what the client has elsewhere.
        let counted = Places::new(3, true);
        let _e = counted.enter_beside(ip("::1"), || 1).unwrap();
        assert!(counted.enter_beside(ip("::1"), || 2).is_none());
        assert!(counted.enter_beside(ip("::1"), || 1).is_some());
    }

    #[test]
    fn a_bucket_empties_and_refills() {
        let limit = RateLimit::new(3, Duration::from_secs(2));
        let t0 = Instant::now();
        let a: IpAddr = "192.0.2.1".parse().unwrap();
        let b: IpAddr = "192.0.2.2".parse().unwrap();
        for _ in 0..3 {
            limit.take(a, t0).unwrap();
        }
        let wait = limit.take(a, t0).unwrap_err();
        assert_eq!(wait, Duration::from_secs(2));
        // Another address has its own bucket.
        limit.take(b, t0).unwrap();
        // Half a refill later: a second to wait; a whole one: allowed again, once.
        assert_eq!(
            limit.take(a, t0 + Duration::from_secs(1)).unwrap_err(),
            Duration::from_secs(1)
        );
        limit.take(a, t0 + Duration::from_secs(2)).unwrap();
        assert!(limit.take(a, t0 + Duration::from_secs(2)).is_err());
    }

    #[test]
    fn an_ipv6_network_shares_one_bucket() {
        let limit = RateLimit::new(1, Duration::from_secs(60));
        let t0 = Instant::now();
        limit.take("2001:db8::1".parse().unwrap(), t0).unwrap();
        assert!(limit.take("2001:db8::ffff:2".parse().unwrap(), t0).is_err());
        limit.take("2001:db8:0:1::1".parse().unwrap(), t0).unwrap();
        // An IPv4-mapped address is the IPv4 address.
        limit.take("192.0.2.9".parse().unwrap(), t0).unwrap();
        assert!(limit.take("::ffff:192.0.2.9".parse().unwrap(), t0).is_err());
    }

    #[test]
    fn full_buckets_are_forgotten_when_there_are_many() {
        let limit = RateLimit::new(2, Duration::from_millis(10));
        let t0 = Instant::now();
        for i in 0..SWEEP_AT as u32 {
            limit.take(IpAddr::V4(i.into()), t0).unwrap();
        }
        let later = t0 + Duration::from_secs(1);
        limit.take("198.51.100.1".parse().unwrap(), later).unwrap();
        assert_eq!(limit.buckets.lock().unwrap().len(), 1);
    }
}
