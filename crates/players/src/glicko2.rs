//! Glicko-2, as Mark Glickman defines it in "Example of the Glicko-2 system" (Boston
//! University, 2022 revision; the volatility by the Illinois algorithm of its step 5).
//!
//! A [`Rating`] is a rating, its deviation and its volatility, on the Glicko scale (1500 the
//! centre). [`Rating::rate`] is one rating period: the games played in it against opponents
//! of known rating and deviation. The server rates after every game, as lichess does: each
//! game is a period of its own, so a player's rating moves at once. A player who does not
//! play grows less certain with time: [`Rating::idle`] widens the deviation by the periods
//! passed ([`PERIODS_PER_DAY`]), up to [`MAX_DEVIATION`].

/// Glicko-2's scale: 400 / ln 10, the Glicko scale's points per unit of Glicko-2's.
const SCALE: f64 = 173.7178;
/// The Glicko scale's centre.
const CENTRE: f64 = 1500.0;
/// The system constant τ, which bounds how fast the volatility changes (Glickman suggests
/// 0.3 to 1.2; lichess uses 0.75).
pub const TAU: f64 = 0.75;
/// The volatility's precision in step 5 (Glickman's ε).
const EPSILON: f64 = 0.000_001;
/// The most iterations of step 5's search (it converges in under 20 on any reachable input;
/// the bound only keeps a corrupt stored value from looping).
const MAX_ITERATIONS: usize = 100;

/// A new player's rating.
pub const INITIAL: Rating = Rating {
    rating: 1500.0,
    deviation: MAX_DEVIATION,
    volatility: 0.09,
};
/// The widest deviation: a new player's, and the most that time away can bring back.
pub const MAX_DEVIATION: f64 = 500.0;
/// The narrowest deviation: a rating is never more certain than this (lichess's 45), so that
/// a regular player's rating can still move.
pub const MIN_DEVIATION: f64 = 45.0;
/// A rating whose deviation is above this is provisional (shown with `?`).
pub const PROVISIONAL_DEVIATION: f64 = 110.0;
/// Rating periods per day without games, for [`Rating::idle`] (lichess's 0.21436: a deviation
/// of 60 with volatility 0.06 grows back to about 110 in a year).
pub const PERIODS_PER_DAY: f64 = 0.21436;

/// A player's rating on the Glicko scale.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rating {
    /// The rating (1500 the centre).
    pub rating: f64,
    /// The rating deviation: how uncertain the rating is (about a 95 % interval of twice it).
    pub deviation: f64,
    /// The volatility: how much the player's strength is expected to change.
    pub volatility: f64,
}

/// A game's result for the player rated: 1 a win, ½ a draw, 0 a loss.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// Lost.
    Loss,
    /// Drawn.
    Draw,
    /// Won.
    Win,
}

impl Score {
    /// The points: 0, 0.5 or 1.
    pub fn points(self) -> f64 {
        match self {
            Score::Loss => 0.0,
            Score::Draw => 0.5,
            Score::Win => 1.0,
        }
    }

    /// The opponent's score in the same game.
    pub fn reversed(self) -> Score {
        match self {
            Score::Loss => Score::Win,
            Score::Draw => Score::Draw,
            Score::Win => Score::Loss,
        }
    }
}

/// One game of a rating period: the opponent's rating before the period, and the score.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Game {
    /// The opponent's rating and deviation (the volatility is not used).
    pub opponent: Rating,
    /// The result for the player rated.
    pub score: Score,
}

/// g(φ) of step 3: how much a game against an opponent this uncertain counts.
fn g(phi: f64) -> f64 {
    1.0 / (1.0 + 3.0 * phi * phi / (std::f64::consts::PI * std::f64::consts::PI)).sqrt()
}

/// E of step 3: the expected score against an opponent at `mu_j` with `phi_j`.
fn expected(mu: f64, mu_j: f64, phi_j: f64) -> f64 {
    1.0 / (1.0 + (-g(phi_j) * (mu - mu_j)).exp())
}

impl Rating {
    /// Whether the rating is still provisional (its deviation above
    /// [`PROVISIONAL_DEVIATION`]).
    pub fn is_provisional(&self) -> bool {
        self.deviation > PROVISIONAL_DEVIATION
    }

    /// Whether the three numbers are finite, the deviation and volatility positive: what a
    /// stored rating must be before it is used.
    pub fn is_valid(&self) -> bool {
        self.rating.is_finite()
            && self.deviation.is_finite()
            && self.deviation > 0.0
            && self.volatility.is_finite()
            && self.volatility > 0.0
    }

    /// The rating after one period with `games` (Glickman's steps 1 to 8, with `tau`). With no
    /// games, only the deviation grows (step 6). The deviation is then kept within
    /// [`MIN_DEVIATION`]..[`MAX_DEVIATION`] when `clamp` is set (the server's ratings); the
    /// paper's own figures come without it.
    pub fn rate_with(&self, games: &[Game], tau: f64, clamp: bool) -> Rating {
        // Step 2: the Glicko-2 scale.
        let mu = (self.rating - CENTRE) / SCALE;
        let phi = self.deviation / SCALE;
        let sigma = self.volatility;
        if games.is_empty() {
            let phi = (phi * phi + sigma * sigma).sqrt();
            return self.with_deviation(phi * SCALE, clamp);
        }
        // Step 3: the estimated variance v; step 4: the improvement Δ.
        let mut inverse_v = 0.0;
        let mut sum = 0.0;
        for game in games {
            let mu_j = (game.opponent.rating - CENTRE) / SCALE;
            let phi_j = game.opponent.deviation / SCALE;
            let (g_j, e_j) = (g(phi_j), expected(mu, mu_j, phi_j));
            inverse_v += g_j * g_j * e_j * (1.0 - e_j);
            sum += g_j * (game.score.points() - e_j);
        }
        let v = 1.0 / inverse_v;
        let delta = v * sum;
        // Step 5: the new volatility.
        let sigma = new_volatility(sigma, phi, v, delta, tau);
        // Steps 6 and 7: the new deviation and rating.
        let phi_star = (phi * phi + sigma * sigma).sqrt();
        let phi = 1.0 / (1.0 / (phi_star * phi_star) + 1.0 / v).sqrt();
        let mu = mu + phi * phi * sum;
        // Step 8: back to the Glicko scale.
        Rating {
            rating: mu * SCALE + CENTRE,
            volatility: sigma,
            ..*self
        }
        .with_deviation(phi * SCALE, clamp)
    }

    /// The rating after one period with `games`, as the server rates: τ = [`TAU`], the
    /// deviation kept within [`MIN_DEVIATION`]..[`MAX_DEVIATION`].
    pub fn rate(&self, games: &[Game]) -> Rating {
        self.rate_with(games, TAU, true)
    }

    /// The rating after `days` without games: step 6 for every period passed
    /// (`days × PERIODS_PER_DAY`, fractions included), the deviation at most
    /// [`MAX_DEVIATION`]. The rating and volatility do not change.
    pub fn idle(&self, days: f64) -> Rating {
        let periods = (days * PERIODS_PER_DAY).max(0.0);
        let phi = self.deviation / SCALE;
        let phi = (phi * phi + self.volatility * self.volatility * periods).sqrt();
        self.with_deviation(phi * SCALE, true)
    }

    fn with_deviation(&self, deviation: f64, clamp: bool) -> Rating {
        let deviation = if clamp {
            deviation.clamp(MIN_DEVIATION, MAX_DEVIATION)
        } else {
            deviation
        };
        Rating { deviation, ..*self }
    }
}

/// Step 5: the volatility σ' that solves f(x) = 0 for x = ln σ'², by the Illinois algorithm.
fn new_volatility(sigma: f64, phi: f64, v: f64, delta: f64, tau: f64) -> f64 {
    let a = (sigma * sigma).ln();
    let (phi2, delta2) = (phi * phi, delta * delta);
    let f = |x: f64| {
        let ex = x.exp();
        ex * (delta2 - phi2 - v - ex) / (2.0 * (phi2 + v + ex) * (phi2 + v + ex))
            - (x - a) / (tau * tau)
    };
    let mut big_a = a;
    let mut big_b = if delta2 > phi2 + v {
        (delta2 - phi2 - v).ln()
    } else {
        let mut k = 1.0;
        while f(a - k * tau) < 0.0 && k < MAX_ITERATIONS as f64 {
            k += 1.0;
        }
        a - k * tau
    };
    let (mut f_a, mut f_b) = (f(big_a), f(big_b));
    for _ in 0..MAX_ITERATIONS {
        if (big_b - big_a).abs() <= EPSILON {
            break;
        }
        let big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a);
        let f_c = f(big_c);
        if f_c * f_b <= 0.0 {
            big_a = big_b;
            f_a = f_b;
        } else {
            f_a /= 2.0;
        }
        big_b = big_c;
        f_b = f_c;
    }
    (big_a / 2.0).exp()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn r(rating: f64, deviation: f64) -> Rating {
        Rating {
            rating,
            deviation,
            volatility: 0.06,
        }
    }

    /// Glickman's worked example: a player at 1500 / 200 / 0.06 with τ = 0.5 beats 1400 / 30
    /// and loses to 1550 / 100 and 1700 / 300; the paper gives 1464.06 / 151.52 / 0.05999
    /// (its figures rounded along the way: the exact rating is 1464.05; its step 5 ends at
    /// A = -5.62669, and e^(A/2) = 0.059996, printed cut to 0.05999).
    #[test]
    fn glickmans_worked_example() {
        let games = [
            Game {
                opponent: r(1400.0, 30.0),
                score: Score::Win,
            },
            Game {
                opponent: r(1550.0, 100.0),
                score: Score::Loss,
            },
            Game {
                opponent: r(1700.0, 300.0),
                score: Score::Loss,
            },
        ];
        let after = r(1500.0, 200.0).rate_with(&games, 0.5, false);
        assert!((after.rating - 1464.06).abs() < 0.015, "{after:?}");
        assert!((after.deviation - 151.52).abs() < 0.005, "{after:?}");
        assert!((after.volatility - 0.059996).abs() < 0.000_001, "{after:?}");
    }

    #[test]
    fn a_period_without_games_only_widens_the_deviation() {
        let before = r(1700.0, 80.0);
        let after = before.rate_with(&[], 0.5, false);
        assert_eq!((after.rating, after.volatility), (1700.0, 0.06));
        let expected = ((80.0 / SCALE).powi(2) + 0.06 * 0.06).sqrt() * SCALE;
        assert!((after.deviation - expected).abs() < 1e-9, "{after:?}");
    }

    #[test]
    fn time_away_brings_the_deviation_back_up_to_its_ceiling() {
        let regular = Rating {
            rating: 1900.0,
            deviation: 60.0,
            volatility: 0.06,
        };
        let year = regular.idle(365.0);
        assert!(year.deviation > 100.0 && year.deviation < 120.0, "{year:?}");
        assert_eq!(year.rating, 1900.0);
        for days in [0.0, -5.0] {
            let same = regular.idle(days);
            assert!(
                (same.deviation - regular.deviation).abs() < 1e-9,
                "{same:?}"
            );
        }
        assert_eq!(regular.idle(1e12).deviation, MAX_DEVIATION);
    }

    #[test]
    fn the_servers_ratings_stay_within_their_bounds() {
        // A new player who beats a new player gains a lot and stays provisional.
        let (winner, loser) = (INITIAL, INITIAL);
        let w = winner.rate(&[Game {
            opponent: loser,
            score: Score::Win,
        }]);
        let l = loser.rate(&[Game {
            opponent: winner,
            score: Score::Loss,
        }]);
        assert!(w.rating > 1650.0 && l.rating < 1350.0, "{w:?} {l:?}");
        assert!(
            (w.rating - 1500.0 + l.rating - 1500.0).abs() < 1e-6,
            "symmetric"
        );
        assert!(w.is_provisional() && l.is_provisional());
        // A player who keeps drawing with equals becomes certain, and stays where he is.
        let mut p = INITIAL;
        for _ in 0..200 {
            p = p.rate(&[Game {
                opponent: r(1500.0, 50.0),
                score: Score::Draw,
            }]);
            assert!(
                (MIN_DEVIATION..=MAX_DEVIATION).contains(&p.deviation),
                "{p:?}"
            );
        }
        assert!(!p.is_provisional(), "{p:?}");
        assert!((p.rating - 1500.0).abs() < 1e-6, "{p:?}");
        // A deviation below the floor (a rating from elsewhere) comes back to it.
        let certain = Rating {
            deviation: 20.0,
            ..r(1800.0, 0.0)
        };
        let after = certain.rate(&[Game {
            opponent: r(1800.0, 50.0),
            score: Score::Draw,
        }]);
        assert_eq!(after.deviation, MIN_DEVIATION);
    }

    #[test]
    fn a_stored_rating_is_checked_before_use() {
        assert!(INITIAL.is_valid());
        for bad in [
            Rating {
                rating: f64::NAN,
                ..INITIAL
            },
            Rating {
                deviation: 0.0,
                ..INITIAL
            },
            Rating {
                volatility: f64::INFINITY,
                ..INITIAL
            },
        ] {
            assert!(!bad.is_valid(), "{bad:?}");
        }
    }
}
