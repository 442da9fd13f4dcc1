//! The leases, heartbeats and notices of several servers on one database
//! (`chess960_store::cluster`), on PostgreSQL (SQLite offers none: one process holds every
//! game there).

mod common;

use chess960_store::cluster::{Holder, Member};
use common::{new_game, pg_backend, pg_server, sqlite_backend};
use std::time::{Duration, Instant};

fn member(id: &str) -> Member {
    Member {
        id: id.into(),
        address: format!("http://{id}.example:8961"),
    }
}

#[test]
fn sqlite_has_no_cluster() {
    assert!(sqlite_backend().cluster().is_none());
}

#[test]
fn one_holder_per_game_and_takeover_after_the_time_to_live() {
    let Some(admin) = pg_server() else { return };
    let db = pg_backend(&admin);
    let other = db.another();
    let (a, b) = (member("a"), member("b"));
    let (ca, cb) = (db.cluster().unwrap(), other.cluster().unwrap());
    let (id, key) = db.create_game(&new_game(518, "Ann", "Bob")).unwrap();
    let (_, key2) = db.create_game(&new_game(519, "Cid", "Dan")).unwrap();
    assert!(ca.heartbeat(&a, Duration::from_secs(2)).unwrap().is_empty());
    cb.heartbeat(&b, Duration::from_secs(30)).unwrap();

    // The first to ask holds the game; the other is told where it runs; asking again keeps it.
    assert_eq!(ca.claim(&key, &a).unwrap(), Holder::Me);
    assert_eq!(
        cb.claim(&key, &b).unwrap(),
        Holder::Other {
            address: a.address.clone()
        }
    );
    assert_eq!(ca.claim(&key, &a).unwrap(), Holder::Me);
    assert_eq!(cb.claim(&key2, &b).unwrap(), Holder::Me);
    assert_eq!(
        ca.heartbeat(&a, Duration::from_secs(2)).unwrap(),
        vec![key.clone()]
    );
    let unknown = chess960_store::GameKey::parse("0123456789abcdef0123456789abcdef").unwrap();
    assert_eq!(ca.claim(&unknown, &a).unwrap(), Holder::NoSuchGame);

    // Two servers racing for a free game: exactly one gets it.
    let (_, key3) = db.create_game(&new_game(520, "Eve", "Fay")).unwrap();
    let wins: Vec<bool> = std::thread::scope(|s| {
        let t1 = s.spawn(|| ca.claim(&key3, &a).unwrap() == Holder::Me);
        let t2 = s.spawn(|| cb.claim(&key3, &b).unwrap() == Holder::Me);
        vec![t1.join().unwrap(), t2.join().unwrap()]
    });
    assert_eq!(wins.iter().filter(|&&w| w).count(), 1, "{wins:?}");

    // A stops beating: nobody takes its games before its time to live is over...
    assert!(cb.take_orphans(&b, 100).unwrap().is_empty());
    // ...and then the other takes the unfinished ones, once.
    let deadline = Instant::now() + Duration::from_secs(10);
    let taken = loop {
        cb.heartbeat(&b, Duration::from_secs(30)).unwrap();
        let taken = cb.take_orphans(&b, 100).unwrap();
        if !taken.is_empty() {
            break taken;
        }
        assert!(Instant::now() < deadline, "no takeover");
        std::thread::sleep(Duration::from_millis(100));
    };
    assert!(taken.contains(&key), "{taken:?}");
    assert!(cb.take_orphans(&b, 100).unwrap().is_empty());
    assert_eq!(cb.claim(&key, &b).unwrap(), Holder::Me);
    // A comes back: the game is no longer among its leases.
    assert!(!ca
        .heartbeat(&a, Duration::from_secs(2))
        .unwrap()
        .contains(&key));
    assert_eq!(
        ca.claim(&key, &a).unwrap(),
        Holder::Other {
            address: b.address.clone()
        }
    );

    // A finished game of a dead server is not taken over: its lease just goes.
    db.finish_game(id, &chess960_store::Finish::aborted())
        .unwrap();
    cb.leave(&b).unwrap();
    assert_eq!(ca.claim(&key, &a).unwrap(), Holder::Me, "b left: free");
    assert_eq!(ca.claim(&key2, &a).unwrap(), Holder::Me);

    // The secret is made once and shared.
    let secret = ca.shared_secret().unwrap();
    assert!(secret.len() >= 32, "{secret}");
    assert_eq!(cb.shared_secret().unwrap(), secret);
}

#[test]
fn notices_reach_every_listener_in_order() {
    let Some(admin) = pg_server() else { return };
    let db = pg_backend(&admin);
    let other = db.another();
    let mut one = db.cluster().unwrap().listen().unwrap();
    let mut two = other.cluster().unwrap().listen().unwrap();
    let sent: Vec<String> = (0..50).map(|i| format!("a k{i} {{\"n\":{i}}}")).collect();
    db.cluster().unwrap().publish(&sent[..20]).unwrap();
    other.cluster().unwrap().publish(&sent[20..]).unwrap();
    for l in [&mut one, &mut two] {
        let mut got = Vec::new();
        let deadline = Instant::now() + Duration::from_secs(10);
        while got.len() < sent.len() && Instant::now() < deadline {
            if let Some(n) = l.next(Duration::from_millis(200)).unwrap() {
                got.push(n);
            }
        }
        assert_eq!(got, sent);
    }
    // Too long for a notice: refused, nothing sent.
    let long = "x".repeat(chess960_store::cluster::NOTICE_MAX + 1);
    assert!(db.cluster().unwrap().publish(&[long]).is_err());
    assert_eq!(one.next(Duration::from_millis(300)).unwrap(), None);
}
