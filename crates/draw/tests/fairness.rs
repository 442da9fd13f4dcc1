//! The exact analysis against probabilities worked out by hand, and the sampler against the
//! analysis.

use chess960_core::{BackRank, Role, StartId};
use chess960_draw::fairness::{analyse, analyse_all, sample, Analysis};
use chess960_draw::{Method, Ratio};
use std::sync::OnceLock;

/// The analyses, computed once for all tests of this file.
fn analyses() -> &'static [Analysis] {
    static CELL: OnceLock<Vec<Analysis>> = OnceLock::new();
    CELL.get_or_init(|| analyse_all().expect("every method enumerates"))
}

fn of(method: Method) -> &'static Analysis {
    analyses().iter().find(|a| a.method == method).unwrap()
}

fn p(method: Method, rank: &str) -> Ratio {
    of(method).probabilities[BackRank::parse(rank).unwrap().id().get() as usize]
}

/// (times_960, positions, description) of each class, least likely first.
fn classes(method: Method) -> Vec<(String, usize, String)> {
    of(method)
        .classes()
        .into_iter()
        .map(|c| (c.times_960.to_string(), c.ids.len(), c.description))
        .collect()
}

#[test]
fn every_method_sums_to_one_and_always_ends_legally() {
    for a in analyses() {
        assert_eq!(a.total(), Ratio::ONE, "{}", a.method);
        assert!(
            a.illegal.is_zero(),
            "{}: {:?}",
            a.method,
            a.illegal_examples
        );
        assert!(a.probabilities.iter().all(|p| !p.is_zero()), "{}", a.method);
    }
}

#[test]
fn uniform_methods() {
    // Die: 4 · 4 · 6 · 5 · 4 = 1920 accepted sequences, two per position (the knights).
    // Platonic: 8 · 4 · 6 · 20 = 3840 sequences, four per position (bishop order, knight
    // order). Wheeler and cards: a uniformly random square pair for the bishops (see the
    // module docs of `bag`) and a uniform arrangement of the rest.
    for m in [
        Method::Die,
        Method::BagWheeler,
        Method::Cards,
        Method::Platonic,
    ] {
        assert!(of(m).is_uniform(), "{m}");
        assert_eq!(
            classes(m),
            [("1".to_string(), 960, "every start position".to_string())]
        );
        assert_eq!(of(m).max_over_min(), Some(Ratio::ONE));
    }
    assert_eq!(of(Method::Die).sequences, 1920);
    assert_eq!(of(Method::Platonic).sequences, 3840);
}

#[test]
fn coins_by_hand() {
    // Each position has one throw sequence. Bishops 1/4 · 1/4, king 1/4, queen 1/3; the rooks
    // have 4 · 1 choices (king on the 2nd or 5th of the six free squares) or 3 · 2 (3rd or
    // 4th). So 1/768 (= 5/4 of 1/960) for 16 · 4 · 3 · 2 = 384 positions, 1/1152 (= 5/6 of
    // 1/960) for 16 · 6 · 3 · 2 = 576 positions. 384/768 + 576/1152 = 1.
    assert_eq!(
        classes(Method::Coins),
        [
            (
                "5/6".to_string(),
                576,
                "king on the 3rd or 4th of the six squares the bishops leave free".to_string()
            ),
            (
                "5/4".to_string(),
                384,
                "king on the 2nd or 5th of the six squares the bishops leave free".to_string()
            ),
        ]
    );
    // RNBQKBNR: the six are R N Q K N R, king 4th: 1/1152. BBQNNRKR: Q N N R K R, king 5th.
    assert_eq!(p(Method::Coins, "RNBQKBNR"), Ratio::new(1, 1152));
    assert_eq!(p(Method::Coins, "BBQNNRKR"), Ratio::new(1, 768));
    assert_eq!(of(Method::Coins).max_over_min(), Some(Ratio::new(3, 2)));
    // Throws: 2 bishops + king + queen (4/3 with re-throws) + rooks: king on the 2nd or 5th,
    // one throw (1-4); on the 3rd or 4th, 4/3 + 1. Mean 2 + 1 + 4/3 + (1 + 7/3)/2 = 6: the
    // seed's "durchschnittlich ... 6" throws.
    assert_eq!(of(Method::Coins).expected_acts, Ratio::from_integer(6));
}

#[test]
fn bag_by_hand() {
    // The bishop squares of the eight draws are a uniform pair of the 28. An opposite pair
    // {x < y} in different pairs of a-b, c-d, e-f, g-h is drawn directly (1/28) or from the
    // same-coloured pair {partner of x, y} by the swap (1/28): 1/14. A pair inside one of
    // a-b, c-d, e-f, g-h has no such source (swapping its pair keeps both squares): 1/28.
    // The other six pieces: uniform over 6!/(2!2!) = 180 orders, three of which (the orders of
    // K R R) end alike after the king fix: 1/60. So 1/840 = 8/7 of 1/960 for 12 · 60 = 720
    // positions and 1/1680 = 4/7 for 4 · 60 = 240: the seed's "half as likely".
    assert_eq!(
        classes(Method::Bag),
        [
            (
                "4/7".to_string(),
                240,
                "bishops side by side in one of the file pairs a-b, c-d, e-f, g-h".to_string()
            ),
            (
                "8/7".to_string(),
                720,
                "bishops not together in one of the file pairs a-b, c-d, e-f, g-h".to_string()
            ),
        ]
    );
    assert_eq!(p(Method::Bag, "RNBQKBNR"), Ratio::new(1, 840));
    assert_eq!(p(Method::Bag, "BBQNNRKR"), Ratio::new(1, 1680));
    // b1-c1 are adjacent but not one of the pairs: full weight.
    assert_eq!(p(Method::Bag, "RBBKNNQR"), Ratio::new(1, 840));
    assert_eq!(of(Method::Bag).max_over_min(), Some(Ratio::from_integer(2)));
    // 8 · 7 · … draws of pieces by kind: 8!/(2!·2!·2!) = 5040 sequences, 8 draws each.
    assert_eq!(of(Method::Bag).sequences, 5040);
    assert_eq!(of(Method::Bag).expected_acts, Ratio::from_integer(8));
}

#[test]
fn distance_from_uniform() {
    // Coins: 384 · |1/768 − 1/960| + 576 · |1/1152 − 1/960| = 384/3840 + 576/5760 = 1/5;
    // half of it: 1/10. Bag: 720 · (1/840 − 1/960) + 240 · (1/960 − 1/1680) = 720/6720 +
    // 720/6720 = 3/14; half: 3/28.
    assert_eq!(of(Method::Coins).distance_from_uniform(), Ratio::new(1, 10));
    assert_eq!(of(Method::Bag).distance_from_uniform(), Ratio::new(3, 28));
    assert_eq!(of(Method::Die).distance_from_uniform(), Ratio::ZERO);
}

#[test]
fn expected_acts() {
    // Die: 6/4 + 6/4 + 1 + 6/5 + 6/4 = 67/10 rolls. Wheeler: 8 draws, plus a pick and a draw
    // when the bishops share a colour (12 of 28 pairs): 8 + 2 · 3/7 = 62/7. Cards: 8 + 3/7.
    assert_eq!(of(Method::Die).expected_acts, Ratio::new(67, 10));
    assert_eq!(of(Method::BagWheeler).expected_acts, Ratio::new(62, 7));
    assert_eq!(of(Method::Cards).expected_acts, Ratio::new(59, 7));
    assert_eq!(of(Method::Platonic).expected_acts, Ratio::from_integer(4));
}

#[test]
fn class_descriptions_separate_the_classes() {
    // Check the coin classes' description against the positions directly.
    let coins = of(Method::Coins);
    for id in StartId::all() {
        let rank = id.back_rank().roles();
        let others: Vec<Role> = rank.into_iter().filter(|&r| r != Role::Bishop).collect();
        let king = others.iter().position(|&r| r == Role::King).unwrap() + 1;
        let expected = if king == 2 || king == 5 {
            Ratio::new(1, 768)
        } else {
            Ratio::new(1, 1152)
        };
        assert_eq!(coins.probabilities[id.get() as usize], expected, "{id}");
    }
}

#[test]
fn sampler_agrees_with_the_enumeration() {
    // 20000 draws per method from a fixed seed; a chi-square test against the exact
    // distribution (959 degrees of freedom) must not reject.
    for a in analyses() {
        let counts = sample(a.method, 20_000, 7, &mut |_| {}).unwrap();
        assert_eq!(counts.iter().sum::<u64>(), 20_000);
        let t = a.test_sample(&counts);
        assert_eq!(t.df, 959);
        assert!(t.p_value > 0.001, "{}: {t:?}", a.method);
    }
    // And the test has power: the bag's sample against the uniform distribution fails.
    let counts = sample(Method::Bag, 20_000, 7, &mut |_| {}).unwrap();
    let uniform = of(Method::Die);
    let t = uniform.test_sample(&counts);
    assert!(t.p_value < 1e-9, "{t:?}");
    let counts = sample(Method::Coins, 20_000, 7, &mut |_| {}).unwrap();
    assert!(uniform.test_sample(&counts).p_value < 1e-9);
}

#[test]
fn the_first_sample_is_the_seeded_draw() {
    for m in Method::ALL {
        let counts = sample(m, 1, 99, &mut |_| {}).unwrap();
        let drawn = chess960_draw::draw_seeded(m, 99).unwrap().back_rank.id();
        assert_eq!(counts[drawn.get() as usize], 1, "{m}");
    }
}

#[test]
fn analysis_is_repeatable() {
    let again = analyse(Method::Coins).unwrap();
    assert_eq!(again.probabilities, of(Method::Coins).probabilities);
}
