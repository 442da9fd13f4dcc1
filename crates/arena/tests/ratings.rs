//! The rating list (`chess960_arena::ratings`) against references that do not come from it:
//! the closed form for two players, the maximum-likelihood condition recomputed here, and an
//! independent program (`ratings_reference.py`: pure Python, the MM algorithm and a
//! pseudo-inverse, see its docstring) on random pools.
//!
//! Needs `python3` (no packages beyond the standard library).

use chess960_arena::openings::Rng;
use chess960_arena::ratings::{
    fit, performance, rating_list, Anchor, Game, NamedGame, Options, Prior, RatingError,
};
use serde_json::{json, Value};
use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};

/// The expected score at a difference, written out here rather than taken from the module.
fn logistic(d: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-d / 400.0))
}

fn named(white: &str, black: &str, score: f64, start: Option<u16>) -> NamedGame {
    NamedGame {
        white: white.into(),
        black: black.into(),
        score,
        start_id: start,
    }
}

#[test]
fn two_players_follow_the_closed_form() {
    // 7 wins, 5 draws, 3 losses for A over 15 games, colours mixed: s = 9.5/15.
    let mut games = Vec::new();
    for i in 0..15 {
        let a_points = if i < 7 {
            1.0
        } else if i < 12 {
            0.5
        } else {
            0.0
        };
        if i % 2 == 0 {
            games.push(named("A", "B", a_points, Some(i)));
        } else {
            games.push(named("B", "A", 1.0 - a_points, Some(i)));
        }
    }
    let list = rating_list(&games, &Options::default()).unwrap();
    let s: f64 = 9.5 / 15.0;
    let closed = 400.0 * (s / (1.0 - s)).log10();
    let a = list.players.iter().find(|p| p.name == "A").unwrap();
    let b = list.players.iter().find(|p| p.name == "B").unwrap();
    assert!(
        (a.rating - b.rating - closed).abs() < 1e-6,
        "{} vs {closed}",
        a.rating - b.rating
    );
    assert!(
        (a.rating + b.rating).abs() < 1e-9,
        "the average is the anchor, 0"
    );
    assert_eq!(list.prior_draws, 0.0);
    assert_eq!(a.rank, Some(1));
    assert_eq!((a.wins, a.draws, a.losses), (7, 5, 3));
    // The variance of the difference is 1 / (N · S² · p(1 − p)) (the information of N
    // Bernoulli-like games at p = s); each side carries a quarter of it about the average.
    let scale = std::f64::consts::LN_10 / 400.0;
    let var_diff = 1.0 / (15.0 * scale * scale * s * (1.0 - s));
    assert!(
        (a.error - (var_diff / 4.0).sqrt()).abs() < 1e-6,
        "{}",
        a.error
    );
    assert!((a.margin - 1.959_963_984_540_054 * a.error).abs() < 1e-9);

    // Anchored at B = 2800: A is the closed form above it, B has no margin.
    let options = Options {
        anchor: Anchor::Player("b".into(), 2800.0),
        ..Options::default()
    };
    let list = rating_list(&games, &options).unwrap();
    assert_eq!(list.players[0].name, "A");
    assert!((list.players[0].rating - 2800.0 - closed).abs() < 1e-6);
    assert!((list.players[1].rating - 2800.0).abs() < 1e-9);
    assert!(list.players[1].margin.abs() < 1e-9);
    assert!((list.players[0].error - var_diff.sqrt()).abs() < 1e-6);
}

/// A random pool: `n` players with true ratings, `rounds` games between random pairs, results
/// drawn from the logistic model with draws.
fn random_pool(rng: &mut Rng, n: usize, count: usize) -> Vec<Game> {
    let truth: Vec<f64> = (0..n).map(|_| rng.below(800) as f64).collect();
    (0..count)
        .map(|_| {
            let w = rng.below(n as u64) as usize;
            let b = (w + 1 + rng.below(n as u64 - 1) as usize) % n;
            let p = logistic(truth[w] - truth[b] + 30.0);
            let u = rng.below(1_000_000) as f64 / 1e6;
            // A third of the expected score as draws, the rest decisive.
            let draw = (1.0 - (2.0 * p - 1.0).abs()) * 0.5;
            let score = if u < p - draw / 2.0 {
                1.0
            } else if u < p + draw / 2.0 {
                0.5
            } else {
                0.0
            };
            Game {
                white: w,
                black: b,
                score,
            }
        })
        .collect()
}

#[test]
fn at_the_maximum_expected_scores_equal_actual_scores() {
    let mut rng = Rng::new(41);
    let mut checked = 0;
    for case in 0..200 {
        let n = 3 + case % 9;
        let games = random_pool(&mut rng, n, 10 * n);
        let Ok(f) = fit(n, &games, Prior::Draws(0.0), &[]) else {
            continue;
        };
        checked += 1;
        for p in 0..n {
            let (mut actual, mut expect) = (0.0, 0.0);
            for g in &games {
                let d = f.ratings[g.white] - f.ratings[g.black];
                if g.white == p {
                    actual += g.score;
                    expect += logistic(d);
                } else if g.black == p {
                    actual += 1.0 - g.score;
                    expect += logistic(-d);
                }
            }
            assert!(
                (actual - expect).abs() < 1e-6,
                "case {case} player {p}: {actual} vs {expect}"
            );
        }
    }
    assert!(checked > 150, "only {checked} pools had a finite maximum");
}

#[test]
fn the_prior_is_used_only_without_a_finite_maximum() {
    // A beats everyone: no finite maximum. With the prior (one virtual draw each against
    // the pool's average) the list exists, A on top; the prior's stationarity holds.
    let games = vec![
        named("A", "B", 1.0, Some(1)),
        named("C", "A", 0.0, Some(2)),
        named("B", "C", 0.5, Some(3)),
        named("C", "B", 1.0, Some(4)),
        named("A", "C", 1.0, Some(5)),
    ];
    let list = rating_list(&games, &Options::default()).unwrap();
    assert_eq!(list.prior_draws, 1.0);
    assert_eq!(list.players[0].name, "A");
    assert!(list
        .players
        .iter()
        .all(|p| p.rating.is_finite() && p.margin.is_finite()));
    let r = |name: &str| list.players.iter().find(|p| p.name == name).unwrap().rating;
    let mean = (r("A") + r("B") + r("C")) / 3.0;
    // The derivative of the log-posterior in each rating is 0: (actual − expected) over the
    // games, plus the virtual draw's ½ − F(rᵢ − m), minus the average of those terms.
    let prior_term = |x: f64| 0.5 - logistic(x - mean);
    let prior_avg = (prior_term(r("A")) + prior_term(r("B")) + prior_term(r("C"))) / 3.0;
    for name in ["A", "B", "C"] {
        let mut residual = prior_term(r(name)) - prior_avg;
        for g in &games {
            let d = r(&g.white) - r(&g.black);
            if g.white == name {
                residual += g.score - logistic(d);
            } else if g.black == name {
                residual += 1.0 - g.score - logistic(-d);
            }
        }
        assert!(residual.abs() < 1e-6, "{name}: {residual}");
    }
    // Without a prior it is refused, naming the player.
    let err = rating_list(
        &games,
        &Options {
            prior: Prior::Draws(0.0),
            ..Options::default()
        },
    )
    .unwrap_err();
    assert!(
        matches!(&err, RatingError::NoFiniteMaximum { top, bottom } if top == &["A"] && bottom == &["B", "C"]),
        "{err}"
    );
    // Two groups that never met.
    let games = vec![named("A", "B", 0.5, None), named("C", "D", 0.5, None)];
    let err = rating_list(&games, &Options::default()).unwrap_err();
    assert!(
        matches!(err, RatingError::Disconnected(ref g) if g.len() == 2),
        "{err}"
    );
    assert!(matches!(
        rating_list(&[], &Options::default()),
        Err(RatingError::NoGames)
    ));
}

#[test]
fn performance_per_start_position() {
    // 1.5/2 against opponents at 0 and 100: R with F(R) + F(R − 100) = 1.5.
    let (r, bounded) = performance(&[0.0, 100.0], 1.5);
    assert!(!bounded);
    assert!((logistic(r) + logistic(r - 100.0) - 1.5).abs() < 1e-9);
    // One game: the closed form.
    let (r, _) = performance(&[2500.0], 0.75);
    assert!((r - 2500.0 - 400.0 * 3f64.log10()).abs() < 1e-6);
    // Perfect scores are bounded at the opponents' average ± 800.
    assert_eq!(performance(&[2500.0, 2700.0], 2.0), (3400.0, true));
    assert_eq!(performance(&[2500.0, 2700.0], 0.0), (1800.0, true));

    let games = vec![
        named("A", "B", 1.0, Some(7)),
        named("B", "A", 0.5, Some(7)),
        named("A", "B", 0.0, Some(9)),
        named("B", "A", 0.0, Some(9)),
        named("A", "B", 0.5, None),
    ];
    let list = rating_list(&games, &Options::default()).unwrap();
    let a = list.players.iter().find(|p| p.name == "A").unwrap();
    let starts: Vec<_> = a
        .per_start
        .iter()
        .map(|s| (s.start_id, s.games, s.points))
        .collect();
    assert_eq!(
        starts,
        vec![(Some(7), 2, 1.5), (Some(9), 2, 1.0), (None, 1, 0.5)]
    );
    let b_rating = list.players.iter().find(|p| p.name == "B").unwrap().rating;
    let seven = &a.per_start[0];
    assert!((seven.performance - b_rating - 400.0 * 3f64.log10()).abs() < 1e-6);
    assert!((a.per_start[1].performance - b_rating).abs() < 1e-6);
}

#[test]
fn min_games_and_bootstrap() {
    let mut rng = Rng::new(7);
    let games: Vec<NamedGame> = random_pool(&mut rng, 5, 200)
        .into_iter()
        .map(|g| {
            named(
                &format!("E{}", g.white),
                &format!("E{}", g.black),
                g.score,
                None,
            )
        })
        .chain([
            named("Rare", "E0", 0.5, None),
            named("E1", "Rare", 0.0, None),
        ])
        .collect();
    let options = Options {
        min_games: 10,
        bootstrap: Some((200, 5)),
        ..Options::default()
    };
    let list = rating_list(&games, &options).unwrap();
    let rare = list.players.last().unwrap();
    assert_eq!((rare.name.as_str(), rare.rank), ("Rare", None));
    let listed: Vec<_> = list.players.iter().filter(|p| p.rank.is_some()).collect();
    assert_eq!(listed.len(), 5);
    let avg = listed.iter().map(|p| p.rating).sum::<f64>() / 5.0;
    assert!(
        avg.abs() < 1e-9,
        "the average of the listed players is the anchor: {avg}"
    );
    let b = list.bootstrap.as_ref().unwrap();
    assert_eq!((b.resamples, b.seed), (200, 5));
    assert!(b.used > 140, "{}", b.used);
    // The bootstrap and the Fisher information agree roughly on 200 games.
    for p in &listed {
        let bm = p.bootstrap_margin.unwrap();
        assert!(
            bm > 0.6 * p.margin && bm < 1.6 * p.margin,
            "{}: {bm} vs {}",
            p.name,
            p.margin
        );
    }
    // The same seed gives the same margins.
    assert_eq!(rating_list(&games, &options).unwrap(), list);
}

#[test]
fn random_pools_agree_with_an_independent_python_program() {
    let mut rng = Rng::new(960);
    let mut cases = Vec::new();
    let mut input = String::new();
    while cases.len() < 60 {
        let n = 2 + cases.len() % 11;
        let count = 6 * n + rng.below(40) as usize;
        let games = random_pool(&mut rng, n, count);
        let Ok(f) = fit(n, &games, Prior::Draws(0.0), &[]) else {
            continue;
        };
        let anchor = (cases.len() % 3 == 0).then(|| rng.below(n as u64) as usize);
        let line = json!({
            "players": n,
            "games": games.iter().map(|g| json!([g.white, g.black, g.score])).collect::<Vec<_>>(),
            "anchor": anchor,
        });
        input.push_str(&line.to_string());
        input.push('\n');
        cases.push((n, f, anchor));
    }
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/ratings_reference.py");
    let mut child = Command::new("python3")
        .arg(script)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("python3 runs");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "the reference program failed");
    let lines: Vec<Value> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), cases.len());
    let mut worst: f64 = 0.0;
    for (k, ((n, f, anchor), reference)) in cases.iter().zip(&lines).enumerate() {
        let weights: Vec<f64> = match anchor {
            Some(a) => (0..*n).map(|i| if i == *a { 1.0 } else { 0.0 }).collect(),
            None => vec![1.0 / *n as f64; *n],
        };
        let (ratings, errors) = f.anchored(&weights, 0.0);
        for i in 0..*n {
            let (r, e) = (
                reference["ratings"][i].as_f64().unwrap(),
                reference["errors"][i].as_f64().unwrap(),
            );
            worst = worst.max((ratings[i] - r).abs()).max((errors[i] - e).abs());
            assert!(
                (ratings[i] - r).abs() < 0.1,
                "case {k} player {i}: rating {} vs {r}",
                ratings[i]
            );
            assert!(
                (errors[i] - e).abs() < 0.1,
                "case {k} player {i}: error {} vs {e}",
                errors[i]
            );
        }
    }
    eprintln!("{} pools, largest difference {worst:.2e} Elo", cases.len());
}
