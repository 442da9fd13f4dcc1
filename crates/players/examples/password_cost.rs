//! What one login costs: the time to verify a password against its Argon2id hash with the
//! server's parameters (`password::PARAMS`), the median of 20, on one core.
//!
//! `cargo run --release -p chess960-players --example password_cost`

use chess960_players::name::UserName;
use chess960_players::password::{verify, NewPassword, PARAMS};
use std::time::Instant;

fn main() {
    let user: UserName = "Ann".parse().expect("a name");
    let hash = NewPassword::check("castle on h1 queenside", &user)
        .expect("a good password")
        .hash()
        .expect("hashed");
    let mut times: Vec<f64> = (0..20)
        .map(|_| {
            let t = Instant::now();
            assert!(verify("castle on h1 queenside", Some(&hash)));
            t.elapsed().as_secs_f64() * 1000.0
        })
        .collect();
    times.sort_by(f64::total_cmp);
    // The first unknown user's check also makes the decoy hash (once a process).
    assert!(!verify("castle on h1 queenside", None));
    let mut unknown: Vec<f64> = (0..20)
        .map(|_| {
            let t = Instant::now();
            assert!(!verify("castle on h1 queenside", None));
            t.elapsed().as_secs_f64() * 1000.0
        })
        .collect();
    unknown.sort_by(f64::total_cmp);
    let (m, t, p) = PARAMS;
    println!(
        "Argon2id m={m} KiB t={t} p={p}: a login takes {:.1} ms (median of 20; {:.1}..{:.1}), an unknown user's {:.1} ms",
        times[10], times[0], times[19], unknown[10]
    );
}
