//! Glicko-2 against PyPI's `glicko2` package (pinned in `tests/oracle/requirements.txt`):
//! thousands of random rating periods (ratings 600..2900, deviations 30..500, volatilities
//! 0.02..0.15, τ 0.3..1.2, 0 to 12 games with wins, draws and losses) give the same rating,
//! deviation and volatility. `glicko2_reference.py` says which one term of the package is
//! taken from the paper instead.
//!
//! Needs `python3` with `glicko2` installed (`bash scripts/test.sh` installs it).

use chess960_draw::rng::SplitMix64;
use chess960_players::glicko2::{Game, Rating, Score};
use serde_json::{json, Value};
use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};

const PERIODS: usize = 5_000;

/// A number in `lo..hi` from `rng`.
fn uniform(rng: &mut SplitMix64, lo: f64, hi: f64) -> f64 {
    lo + (hi - lo) * (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64
}

fn rating(rng: &mut SplitMix64) -> Rating {
    Rating {
        rating: uniform(rng, 600.0, 2900.0),
        deviation: uniform(rng, 30.0, 500.0),
        volatility: uniform(rng, 0.02, 0.15),
    }
}

#[test]
fn random_periods_agree_with_pypi_glicko2() {
    let mut rng = SplitMix64::from_seed(1960);
    let mut cases = Vec::with_capacity(PERIODS);
    let mut input = String::new();
    for _ in 0..PERIODS {
        let player = rating(&mut rng);
        let tau = uniform(&mut rng, 0.3, 1.2);
        let games: Vec<Game> = (0..rng.below(13))
            .map(|_| Game {
                opponent: rating(&mut rng),
                score: [Score::Loss, Score::Draw, Score::Win][rng.below(3) as usize],
            })
            .collect();
        let line = json!({
            "rating": player.rating,
            "deviation": player.deviation,
            "volatility": player.volatility,
            "tau": tau,
            "games": games.iter().map(|g| json!([g.opponent.rating, g.opponent.deviation, g.score.points()])).collect::<Vec<_>>(),
        });
        input.push_str(&line.to_string());
        input.push('\n');
        cases.push((player, tau, games));
    }
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/glicko2_reference.py");
    let mut child = Command::new("python3")
        .arg(script)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("python3 must be installed for the Glicko-2 reference test");
    let mut stdin = child.stdin.take().expect("stdin");
    let feeder = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let out = child.wait_with_output().expect("python3 runs");
    feeder
        .join()
        .expect("feeder")
        .expect("the reference reads its input");
    assert!(
        out.status.success(),
        "the glicko2 reference failed (install it with `pip install -r tests/oracle/requirements.txt`):\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let answers: Vec<Value> = String::from_utf8(out.stdout)
        .expect("UTF-8")
        .lines()
        .map(|l| serde_json::from_str(l).expect("JSON from the reference"))
        .collect();
    assert_eq!(answers.len(), PERIODS);
    let mut worst = [0.0f64; 3];
    for ((player, tau, games), answer) in cases.iter().zip(&answers) {
        let ours = player.rate_with(games, *tau, false);
        let theirs: Vec<f64> = answer
            .as_array()
            .expect("an array")
            .iter()
            .map(|v| v.as_f64().expect("a number"))
            .collect();
        let diffs = [
            (ours.rating - theirs[0]).abs(),
            (ours.deviation - theirs[1]).abs(),
            (ours.volatility - theirs[2]).abs(),
        ];
        assert!(
            diffs[0] < 1e-6 && diffs[1] < 1e-6 && diffs[2] < 1e-9,
            "{player:?} tau {tau} with {games:?}: ours {ours:?}, the package's {theirs:?}"
        );
        for (w, d) in worst.iter_mut().zip(diffs) {
            *w = w.max(d);
        }
    }
    // Shown with --nocapture: how close the two are.
    println!(
        "{PERIODS} periods: largest differences {:.1e} (rating), {:.1e} (deviation), {:.1e} (volatility)",
        worst[0], worst[1], worst[2]
    );
}
