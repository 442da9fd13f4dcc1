//! A rating list over many players' games, as engine rating lists (Ordo, BayesElo, CCRL)
//! compute one: maximum-likelihood ratings in the logistic Elo model with 95 % error margins,
//! each player's record, and each player's performance per start position.
//!
//! # The model
//! White's expected score against Black is `F(Rw − Rb)` with `F(d) = 1 / (1 + 10^(−d/400))`.
//! A draw counts as half a win and half a loss (Ordo's default): a game with score `y` (1, ½
//! or 0 for White) adds `y·ln F(d) + (1−y)·ln F(−d)` to the log-likelihood. The ratings that
//! maximise it are found by Newton's method (the log-likelihood is concave, so each step is
//! damped by halving until the likelihood does not fall), at most [`MAX_ITERATIONS`] steps,
//! until no rating moves by more than [`TOLERANCE`] Elo. At that optimum every player's
//! expected score over their games equals their actual score: the defining property of the
//! maximum, and what the tests check.
//!
//! Only differences are determined: one constraint fixes the scale's origin ([`Anchor`]),
//! either the average of the listed players or one player's rating.
//!
//! # When there is no maximum
//! A player who won every game (or lost every game), or a group of players who together won
//! every game against the rest, has no finite maximum-likelihood rating: the likelihood keeps
//! rising as that rating goes to infinity. Precisely, a finite maximum exists when the graph
//! "i scored at least half a point against j in some game" is strongly connected. When it is
//! not, [`Prior::Auto`] gives every player one virtual draw against a virtual opponent rated at
//! the pool's average (the same kind of prior as BayesElo's virtual draws, and Ken Thompson's
//! "notional draw" for perfect performances): the estimate stays finite, close to the
//! maximum likelihood for players with many games, and the virtual opponent moves with the
//! pool, so the origin is still free for the anchor. A prior is used only when it is needed,
//! so that a pool with a maximum gets the exact maximum (and the closed form for two players);
//! [`RatingList::prior_draws`] says which was used. Players with no path of games between
//! them at all are refused ([`RatingError::Disconnected`]): no prior makes their ratings
//! comparable.
//!
//! # Error margins
//! The standard errors are those of the maximum-likelihood theory: the inverse of the Fisher
//! information (minus the Hessian of the log-likelihood at the optimum) under the anchor's
//! constraint. It is computed with one player held at 0 (that information matrix is
//! invertible when the games connect everyone), then moved to the anchor by the linear map
//! `r ↦ r − 1·(w·r)`, where `w` is the anchor's weights (one player, or the average of the
//! listed ones): `Σ = M Σ₀ Mᵀ`. The margin is `1.96·σ`, a 95 % interval. With a player as
//! anchor, that player's margin is 0 and the others' are those of their difference to it;
//! with the average, each margin is that of the distance to the average. Optionally a
//! bootstrap ([`Options::bootstrap`]) refits games drawn with replacement and reports
//! `1.96·sd` of each anchored rating over the resamples.
//!
//! # Performance per start position
//! For each player and start position: the games, the points, and the performance rating,
//! the rating `R` at which `Σ F(R − Rⱼ)` over that position's opponents (rated as in the
//! list) equals the points. A 100 % or 0 % score has no such rating; it is given as the
//! opponents' average ± 800 (FIDE's largest `dp`, a 99 % score), and any performance is
//! bounded to that range, marked [`StartPerformance::bounded`].

use crate::openings::Rng;
use serde::Serialize;
use std::collections::{BTreeMap, HashMap};
use std::fmt;

/// Newton's method stops after this many steps (a well-posed pool takes fewer than 20).
pub const MAX_ITERATIONS: u32 = 200;

/// Convergence: the largest rating change of the last step, in Elo (well inside the 0.01 Elo
/// the list is printed to).
pub const TOLERANCE: f64 = 1e-6;

/// The two-sided 95 % quantile of the normal distribution.
const Z95: f64 = crate::stats::Z95;

/// Natural log units per Elo point: `F(d) = 1 / (1 + e^(−S·d))`.
const S: f64 = std::f64::consts::LN_10 / 400.0;

/// How far a performance may lie from the opponents' average: FIDE's `dp` for 99 %.
pub const PERFORMANCE_BOUND: f64 = 800.0;

/// The expected score at a rating difference `d`: `1 / (1 + 10^(−d/400))`.
pub fn expected(d: f64) -> f64 {
    1.0 / (1.0 + (-S * d).exp())
}

/// `ln F(d)`, without overflow for large `|d|`.
fn ln_expected(d: f64) -> f64 {
    let z = S * d;
    if z > 0.0 {
        -(-z).exp().ln_1p()
    } else {
        z - z.exp().ln_1p()
    }
}

/// One game: the players' indices and White's score (1, ½ or 0; any value in 0..=1 is taken
/// as that fraction of a win).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Game {
    /// White's index.
    pub white: usize,
    /// Black's index.
    pub black: usize,
    /// White's score.
    pub score: f64,
}

/// A game with the players' names and the start position, as read from a database.
#[derive(Debug, Clone, PartialEq)]
pub struct NamedGame {
    /// White's name.
    pub white: String,
    /// Black's name.
    pub black: String,
    /// White's score: 1, ½ or 0.
    pub score: f64,
    /// The start position (0..959), `None` for a set-up position that is not one of them.
    pub start_id: Option<u16>,
}

/// What fixes the origin of the scale.
#[derive(Debug, Clone, PartialEq)]
pub enum Anchor {
    /// The average of the listed players (those with at least [`Options::min_games`]) is
    /// this rating.
    Average(f64),
    /// This player (by name, case-insensitive for ASCII) has this rating.
    Player(String, f64),
}

impl Default for Anchor {
    fn default() -> Anchor {
        Anchor::Average(0.0)
    }
}

/// The virtual draws of the prior (see the module documentation).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub enum Prior {
    /// None when a finite maximum exists, else one virtual draw per player.
    #[default]
    Auto,
    /// This many virtual draws per player (0: pure maximum likelihood, refused when there
    /// is no finite maximum).
    Draws(f64),
}

/// How to compute a [`RatingList`].
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Options {
    /// The origin of the scale.
    pub anchor: Anchor,
    /// The prior.
    pub prior: Prior,
    /// Players with fewer games are rated (their games count for everyone) but not listed:
    /// no rank, and not part of the average anchor.
    pub min_games: u32,
    /// Bootstrap margins: this many resamples of the games, drawn from this seed.
    pub bootstrap: Option<(u32, u64)>,
}

/// Why there is no rating list.
#[derive(Debug, Clone, PartialEq)]
pub enum RatingError {
    /// No games.
    NoGames,
    /// A game's score is not in 0..=1, or a player index is out of range or plays itself.
    BadGame(usize),
    /// The games fall into groups with no game between them: the groups' players by name
    /// (or index).
    Disconnected(Vec<Vec<String>>),
    /// No finite maximum and no prior: the players (or groups) who scored 100 % against the
    /// rest, and those who scored 0 %.
    NoFiniteMaximum {
        /// Scored 100 % against the rest.
        top: Vec<String>,
        /// Scored 0 % against the rest.
        bottom: Vec<String>,
    },
    /// The anchor names a player who has no game here.
    UnknownAnchor(String),
    /// Newton's method did not converge (not seen in practice; a safeguard).
    NotConverged,
}

impl fmt::Display for RatingError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RatingError::NoGames => write!(f, "no games with a result to rate"),
            RatingError::BadGame(i) => write!(
                f,
                "game {} is not a game between two players with a score 0..1",
                i + 1
            ),
            RatingError::Disconnected(groups) => {
                let shown: Vec<String> = groups
                    .iter()
                    .map(|g| {
                        let mut names = g.iter().take(4).cloned().collect::<Vec<_>>().join(", ");
                        if g.len() > 4 {
                            names.push_str(&format!(" and {} more", g.len() - 4));
                        }
                        format!("[{names}]")
                    })
                    .collect();
                write!(
                    f,
                    "the players fall into {} groups with no game between them, whose ratings \
                     cannot be compared: {}",
                    groups.len(),
                    shown.join(" ")
                )
            }
            RatingError::NoFiniteMaximum { top, bottom } => write!(
                f,
                "no finite maximum-likelihood ratings: {} scored 100 % against the rest and {} \
                 0 %; a prior of virtual draws makes them finite",
                top.join(", "),
                bottom.join(", ")
            ),
            RatingError::UnknownAnchor(name) => {
                write!(f, "the anchor {name} has no game in the selection")
            }
            RatingError::NotConverged => write!(
                f,
                "the ratings did not converge in {MAX_ITERATIONS} iterations"
            ),
        }
    }
}

impl std::error::Error for RatingError {}

/// A fit: ratings with player 0 at 0 and their covariance (row and column 0 are zero).
#[derive(Debug, Clone, PartialEq)]
pub struct Fit {
    /// The ratings, player 0 at 0.
    pub ratings: Vec<f64>,
    /// Their covariance with player 0 held fixed, Elo².
    pub covariance: Vec<Vec<f64>>,
    /// Newton steps taken.
    pub iterations: u32,
    /// Virtual draws per player that were used.
    pub prior_draws: f64,
}

impl Fit {
    /// The ratings and standard errors with the origin set by `weights` (summing to 1):
    /// `w·r = value`. One player's weight 1 anchors that player; equal weights anchor an
    /// average.
    pub fn anchored(&self, weights: &[f64], value: f64) -> (Vec<f64>, Vec<f64>) {
        let n = self.ratings.len();
        let shift = value - dot(weights, &self.ratings);
        let ratings = self.ratings.iter().map(|r| r + shift).collect();
        // Σ = M Σ₀ Mᵀ with M = I − 1 wᵀ: Σᵢᵢ = Σ₀ᵢᵢ − 2 (Σ₀w)ᵢ + wᵀΣ₀w.
        let sw: Vec<f64> = (0..n).map(|i| dot(&self.covariance[i], weights)).collect();
        let wsw = dot(weights, &sw);
        let errors = (0..n)
            .map(|i| (self.covariance[i][i] - 2.0 * sw[i] + wsw).max(0.0).sqrt())
            .collect();
        (ratings, errors)
    }
}

fn dot(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

/// Groups of players connected by games (weakly), each sorted; one group when all are.
fn components(n: usize, edges: &[(usize, usize)]) -> Vec<Vec<usize>> {
    let mut parent: Vec<usize> = (0..n).collect();
    fn find(p: &mut [usize], mut x: usize) -> usize {
        while p[x] != x {
            p[x] = p[p[x]];
            x = p[x];
        }
        x
    }
    for &(a, b) in edges {
        let (ra, rb) = (find(&mut parent, a), find(&mut parent, b));
        if ra != rb {
            parent[ra] = rb;
        }
    }
    let mut groups: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
    for i in 0..n {
        let r = find(&mut parent, i);
        groups.entry(r).or_default().push(i);
    }
    let mut out: Vec<Vec<usize>> = groups.into_values().collect();
    out.sort_by_key(|g| g[0]);
    out
}

/// The players who make the maximum infinite: those who scored 100 % against the rest and
/// those who scored 0 % (both empty when a finite maximum exists).
///
/// Draw the graph "i took points from j" and its strongly connected components (Kosaraju's
/// two depth-first passes). A finite maximum exists when there is one component. Otherwise
/// the components form a chain of dominance; those that took no point from any other
/// component (scored 0 % against the rest) and those that no other component took a point
/// from (scored 100 %) are the ones named.
fn unbounded_players(n: usize, games: &[Game]) -> (Vec<usize>, Vec<usize>) {
    let mut out_edges = vec![Vec::new(); n];
    let mut in_edges = vec![Vec::new(); n];
    for g in games {
        if g.score > 0.0 {
            out_edges[g.white].push(g.black);
            in_edges[g.black].push(g.white);
        }
        if g.score < 1.0 {
            out_edges[g.black].push(g.white);
            in_edges[g.white].push(g.black);
        }
    }
    // First pass: the order in which depth-first searches finish.
    let mut seen = vec![false; n];
    let mut finished = Vec::with_capacity(n);
    for start in 0..n {
        if seen[start] {
            continue;
        }
        seen[start] = true;
        let mut stack = vec![(start, 0usize)];
        while let Some((x, next)) = stack.pop() {
            if let Some(&y) = out_edges[x].get(next) {
                stack.push((x, next + 1));
                if !seen[y] {
                    seen[y] = true;
                    stack.push((y, 0));
                }
            } else {
                finished.push(x);
            }
        }
    }
    // Second pass, on the reversed graph in reverse finishing order: one component each.
    let mut component = vec![usize::MAX; n];
    let mut count = 0;
    for &start in finished.iter().rev() {
        if component[start] != usize::MAX {
            continue;
        }
        component[start] = count;
        let mut stack = vec![start];
        while let Some(x) = stack.pop() {
            for &y in &in_edges[x] {
                if component[y] == usize::MAX {
                    component[y] = count;
                    stack.push(y);
                }
            }
        }
        count += 1;
    }
    if count == 1 {
        return (Vec::new(), Vec::new());
    }
    let (mut takes, mut gives) = (vec![false; count], vec![false; count]);
    for x in 0..n {
        for &y in &out_edges[x] {
            if component[x] != component[y] {
                takes[component[x]] = true;
                gives[component[y]] = true;
            }
        }
    }
    (
        (0..n).filter(|&i| !gives[component[i]]).collect(),
        (0..n).filter(|&i| !takes[component[i]]).collect(),
    )
}

/// The log-likelihood (with the prior) of `r`, and optionally its gradient and Hessian.
fn evaluate(
    r: &[f64],
    games: &[Game],
    prior: f64,
    derivatives: bool,
) -> (f64, Vec<f64>, Vec<Vec<f64>>) {
    let n = r.len();
    let mut value = 0.0;
    let (mut grad, mut hess) = if derivatives {
        (vec![0.0; n], vec![vec![0.0; n]; n])
    } else {
        (Vec::new(), Vec::new())
    };
    for g in games {
        let d = r[g.white] - r[g.black];
        value += g.score * ln_expected(d) + (1.0 - g.score) * ln_expected(-d);
        if derivatives {
            let p = expected(d);
            let gr = S * (g.score - p);
            grad[g.white] += gr;
            grad[g.black] -= gr;
            let h = S * S * p * (1.0 - p);
            hess[g.white][g.white] -= h;
            hess[g.black][g.black] -= h;
            hess[g.white][g.black] += h;
            hess[g.black][g.white] += h;
        }
    }
    if prior > 0.0 {
        // `prior` draws of each player against a virtual opponent at the mean m: a term
        // prior·(½ ln F(rᵢ − m) + ½ ln F(m − rᵢ)). Its derivative in rₖ goes through both
        // rᵢ and m = Σr/n.
        let nf = n as f64;
        let mean = r.iter().sum::<f64>() / nf;
        let mut a = vec![0.0; n];
        let mut b = vec![0.0; n];
        for i in 0..n {
            let d = r[i] - mean;
            value += prior * 0.5 * (ln_expected(d) + ln_expected(-d));
            let p = expected(d);
            b[i] = prior * S * (0.5 - p);
            a[i] = prior * S * S * p * (1.0 - p);
        }
        if derivatives {
            let (sa, sb) = (a.iter().sum::<f64>(), b.iter().sum::<f64>());
            for k in 0..n {
                grad[k] += b[k] - sb / nf;
                for l in 0..n {
                    let diag = if k == l { a[k] } else { 0.0 };
                    hess[k][l] -= diag - (a[k] + a[l]) / nf + sa / (nf * nf);
                }
            }
        }
    }
    (value, grad, hess)
}

/// The Cholesky factor `L` of a symmetric positive definite `a` (`None` if it is not).
fn cholesky(a: &[Vec<f64>]) -> Option<Vec<Vec<f64>>> {
    let n = a.len();
    let mut l = vec![vec![0.0; n]; n];
    for i in 0..n {
        for j in 0..=i {
            let s = a[i][j] - (0..j).map(|k| l[i][k] * l[j][k]).sum::<f64>();
            if i == j {
                if s <= 0.0 || !s.is_finite() {
                    return None;
                }
                l[i][i] = s.sqrt();
            } else {
                l[i][j] = s / l[j][j];
            }
        }
    }
    Some(l)
}

/// Solves `L Lᵀ x = b`.
fn cholesky_solve(l: &[Vec<f64>], b: &[f64]) -> Vec<f64> {
    let n = l.len();
    let mut y = vec![0.0; n];
    for i in 0..n {
        y[i] = (b[i] - (0..i).map(|k| l[i][k] * y[k]).sum::<f64>()) / l[i][i];
    }
    let mut x = vec![0.0; n];
    for i in (0..n).rev() {
        x[i] = (y[i] - (i + 1..n).map(|k| l[k][i] * x[k]).sum::<f64>()) / l[i][i];
    }
    x
}

/// Maximum-likelihood ratings of `n` players (player 0 at 0) and their covariance.
///
/// `prior` is the [`Prior`]; `names` (may be empty) name the players in errors.
pub fn fit(n: usize, games: &[Game], prior: Prior, names: &[String]) -> Result<Fit, RatingError> {
    let name = |i: usize| {
        names
            .get(i)
            .cloned()
            .unwrap_or_else(|| format!("player {i}"))
    };
    if games.is_empty() || n == 0 {
        return Err(RatingError::NoGames);
    }
    for (i, g) in games.iter().enumerate() {
        if g.white >= n || g.black >= n || g.white == g.black || !(0.0..=1.0).contains(&g.score) {
            return Err(RatingError::BadGame(i));
        }
    }
    let groups = components(
        n,
        &games.iter().map(|g| (g.white, g.black)).collect::<Vec<_>>(),
    );
    if groups.len() > 1 {
        return Err(RatingError::Disconnected(
            groups
                .iter()
                .map(|g| g.iter().map(|&i| name(i)).collect())
                .collect(),
        ));
    }
    let (top, bottom) = unbounded_players(n, games);
    let prior_draws = match prior {
        Prior::Draws(d) => d.max(0.0),
        Prior::Auto if top.is_empty() => 0.0,
        Prior::Auto => 1.0,
    };
    if prior_draws == 0.0 && !top.is_empty() {
        return Err(RatingError::NoFiniteMaximum {
            top: top.into_iter().map(name).collect(),
            bottom: bottom.into_iter().map(name).collect(),
        });
    }
    let mut r = vec![0.0; n];
    let mut iterations = 0;
    let information = loop {
        let (value, grad, hess) = evaluate(&r, games, prior_draws, true);
        // Player 0 is held at 0: the rest of the information matrix is positive definite.
        let info: Vec<Vec<f64>> = (1..n)
            .map(|i| (1..n).map(|j| -hess[i][j]).collect())
            .collect();
        if n == 1 {
            break info;
        }
        let l = cholesky(&info).ok_or(RatingError::NotConverged)?;
        if iterations == MAX_ITERATIONS {
            return Err(RatingError::NotConverged);
        }
        iterations += 1;
        let step = cholesky_solve(&l, &grad[1..]);
        // Damped: halve until the likelihood does not fall (Newton from 0 can overshoot when
        // the ratings lie far apart).
        let mut t = 1.0;
        let mut next = r.clone();
        for _ in 0..60 {
            for i in 1..n {
                next[i] = r[i] + t * step[i - 1];
            }
            if evaluate(&next, games, prior_draws, false).0 >= value - 1e-12 * value.abs() {
                break;
            }
            t *= 0.5;
        }
        let moved = (1..n).map(|i| (next[i] - r[i]).abs()).fold(0.0, f64::max);
        r = next;
        if moved < TOLERANCE {
            let (_, _, hess) = evaluate(&r, games, prior_draws, true);
            break (1..n)
                .map(|i| (1..n).map(|j| -hess[i][j]).collect())
                .collect();
        }
    };
    // The covariance: the inverse of the information, column by column.
    let mut covariance = vec![vec![0.0; n]; n];
    if n > 1 {
        let l = cholesky(&information).ok_or(RatingError::NotConverged)?;
        for j in 0..n - 1 {
            let mut e = vec![0.0; n - 1];
            e[j] = 1.0;
            let col = cholesky_solve(&l, &e);
            for i in 0..n - 1 {
                covariance[i + 1][j + 1] = col[i];
            }
        }
    }
    Ok(Fit {
        ratings: r,
        covariance,
        iterations,
        prior_draws,
    })
}

/// The performance rating against `opponents` (their ratings) with `points`: `R` such that
/// `Σ F(R − Rⱼ) = points`, bounded to the opponents' average ± [`PERFORMANCE_BOUND`]; the
/// flag says whether the bound was used (always for 0 % and 100 %).
pub fn performance(opponents: &[f64], points: f64) -> (f64, bool) {
    let n = opponents.len() as f64;
    let avg = opponents.iter().sum::<f64>() / n;
    let (lo_bound, hi_bound) = (avg - PERFORMANCE_BOUND, avg + PERFORMANCE_BOUND);
    if points <= 0.0 {
        return (lo_bound, true);
    }
    if points >= n {
        return (hi_bound, true);
    }
    let total = |r: f64| opponents.iter().map(|o| expected(r - o)).sum::<f64>();
    if total(hi_bound) <= points {
        return (hi_bound, true);
    }
    if total(lo_bound) >= points {
        return (lo_bound, true);
    }
    // The expected total rises with R: bisection to far below 0.01 Elo.
    let (mut lo, mut hi) = (lo_bound, hi_bound);
    for _ in 0..100 {
        let mid = 0.5 * (lo + hi);
        if total(mid) < points {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    (0.5 * (lo + hi), false)
}

/// One player's performance from one start position.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct StartPerformance {
    /// The start position, `null` for set-up positions that are not one of the 960.
    pub start_id: Option<u16>,
    /// Games from it.
    pub games: u32,
    /// Points scored.
    pub points: f64,
    /// `points / games`.
    pub score: f64,
    /// The average rating of the opponents in these games.
    pub opponents_average: f64,
    /// The performance rating.
    pub performance: f64,
    /// Whether the performance is the bound (0 %, 100 %, or beyond ± 800 of the opponents).
    pub bounded: bool,
}

/// One line of the list.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PlayerRating {
    /// 1 for the highest rated listed player; `None` for players not listed (too few games).
    pub rank: Option<u32>,
    /// The name.
    pub name: String,
    /// The rating.
    pub rating: f64,
    /// Its standard error (Fisher information), Elo.
    pub error: f64,
    /// The 95 % margin: `1.96 · error`.
    pub margin: f64,
    /// The bootstrap's 95 % margin, when asked for.
    pub bootstrap_margin: Option<f64>,
    /// Games.
    pub games: u32,
    /// Wins.
    pub wins: u32,
    /// Draws.
    pub draws: u32,
    /// Losses.
    pub losses: u32,
    /// Points.
    pub points: f64,
    /// `points / games`.
    pub score: f64,
    /// `draws / games`.
    pub draw_rate: f64,
    /// The average rating of the opponents over all games.
    pub opponents_average: f64,
    /// Per start position, in order of position (`None` last).
    pub per_start: Vec<StartPerformance>,
}

/// The bootstrap's figures.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Bootstrap {
    /// Resamples drawn.
    pub resamples: u32,
    /// Those that could be fitted (a resample in which the games no longer connect everyone
    /// is skipped).
    pub used: u32,
    /// The seed.
    pub seed: u64,
}

/// A rating list.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RatingList {
    /// Games rated.
    pub games: u32,
    /// The players: listed ones by rating (highest first), then the others by rating.
    pub players: Vec<PlayerRating>,
    /// The anchor's player, `None` for the average.
    pub anchor_player: Option<String>,
    /// The anchor's rating.
    pub anchor_rating: f64,
    /// Virtual draws per player used by the prior (0: exact maximum likelihood).
    pub prior_draws: f64,
    /// Newton steps taken.
    pub iterations: u32,
    /// The bootstrap, when asked for.
    pub bootstrap: Option<Bootstrap>,
}

/// Computes the rating list of `games` (see the module documentation).
pub fn rating_list(games: &[NamedGame], options: &Options) -> Result<RatingList, RatingError> {
    // Players by name, in order of first appearance; names compare as typed.
    let mut index: HashMap<&str, usize> = HashMap::new();
    let mut names: Vec<String> = Vec::new();
    let mut indexed = Vec::with_capacity(games.len());
    for g in games {
        let (w, b) = (
            intern(&mut index, &mut names, &g.white),
            intern(&mut index, &mut names, &g.black),
        );
        indexed.push(Game {
            white: w,
            black: b,
            score: g.score,
        });
    }
    let n = names.len();
    let result = fit(n, &indexed, options.prior, &names)?;

    let mut record = vec![(0u32, 0u32, 0u32, 0.0f64); n];
    for g in &indexed {
        for (p, pts) in [(g.white, g.score), (g.black, 1.0 - g.score)] {
            let r = &mut record[p];
            if pts > 0.75 {
                r.0 += 1;
            } else if pts > 0.25 {
                r.1 += 1;
            } else {
                r.2 += 1;
            }
            r.3 += pts;
        }
    }
    let games_of = |p: usize| record[p].0 + record[p].1 + record[p].2;
    let listed: Vec<bool> = (0..n).map(|p| games_of(p) >= options.min_games).collect();

    let (weights, value, anchor_player) = match &options.anchor {
        Anchor::Player(name, rating) => {
            let p = names
                .iter()
                .position(|x| x.eq_ignore_ascii_case(name))
                .ok_or_else(|| RatingError::UnknownAnchor(name.clone()))?;
            let mut w = vec![0.0; n];
            w[p] = 1.0;
            (w, *rating, Some(names[p].clone()))
        }
        Anchor::Average(rating) => {
            // The average of the listed players; of everyone when none is listed.
            let count = listed.iter().filter(|&&l| l).count();
            let w = if count == 0 {
                vec![1.0 / n as f64; n]
            } else {
                listed
                    .iter()
                    .map(|&l| if l { 1.0 / count as f64 } else { 0.0 })
                    .collect()
            };
            (w, *rating, None)
        }
    };
    let (ratings, errors) = result.anchored(&weights, value);

    let bootstrap = options.bootstrap.map(|(resamples, seed)| {
        let mut rng = Rng::new(seed);
        let mut samples: Vec<Vec<f64>> = Vec::new();
        for _ in 0..resamples {
            let drawn: Vec<Game> = (0..indexed.len())
                .map(|_| indexed[rng.below(indexed.len() as u64) as usize])
                .collect();
            // The same prior as the fit, so that the spread is that of the same estimator;
            // a resample of an exact fit that has no finite maximum (a player's few losses
            // drawn alone) takes the prior as the fit would have. A resample in which a
            // player has no game is skipped.
            let prior = if result.prior_draws > 0.0 {
                Prior::Draws(result.prior_draws)
            } else {
                Prior::Auto
            };
            if let Ok(f) = fit(n, &drawn, prior, &[]) {
                samples.push(f.anchored(&weights, value).0);
            }
        }
        samples
    });
    let bootstrap_margin = |p: usize| {
        bootstrap.as_ref().and_then(|s| {
            (s.len() > 1).then(|| {
                let k = s.len() as f64;
                let mean = s.iter().map(|r| r[p]).sum::<f64>() / k;
                let var = s.iter().map(|r| (r[p] - mean).powi(2)).sum::<f64>() / (k - 1.0);
                Z95 * var.sqrt()
            })
        })
    };

    let players: Vec<PlayerRating> = (0..n)
        .map(|p| {
            let mut opponents_all = Vec::new();
            let mut by_start: BTreeMap<(bool, u16), (Vec<f64>, f64)> = BTreeMap::new();
            for (g, named) in indexed.iter().zip(games) {
                let (opp, pts) = if g.white == p {
                    (g.black, g.score)
                } else if g.black == p {
                    (g.white, 1.0 - g.score)
                } else {
                    continue;
                };
                opponents_all.push(ratings[opp]);
                // `None` sorts after every position.
                let key = (named.start_id.is_none(), named.start_id.unwrap_or(0));
                let e = by_start.entry(key).or_default();
                e.0.push(ratings[opp]);
                e.1 += pts;
            }
            let per_start = by_start
                .into_iter()
                .map(|((none, id), (opps, points))| {
                    let (perf, bounded) = performance(&opps, points);
                    StartPerformance {
                        start_id: (!none).then_some(id),
                        games: opps.len() as u32,
                        points,
                        score: points / opps.len() as f64,
                        opponents_average: opps.iter().sum::<f64>() / opps.len() as f64,
                        performance: perf,
                        bounded,
                    }
                })
                .collect();
            let (w, d, l, pts) = record[p];
            let games = w + d + l;
            PlayerRating {
                rank: None,
                name: names[p].clone(),
                rating: ratings[p],
                error: errors[p],
                margin: Z95 * errors[p],
                bootstrap_margin: bootstrap_margin(p),
                games,
                wins: w,
                draws: d,
                losses: l,
                points: pts,
                score: pts / f64::from(games),
                draw_rate: f64::from(d) / f64::from(games),
                opponents_average: opponents_all.iter().sum::<f64>() / opponents_all.len() as f64,
                per_start,
            }
        })
        .collect();
    let order_listed: Vec<bool> = players
        .iter()
        .map(|p| p.games >= options.min_games)
        .collect();
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&a, &b| {
        order_listed[b]
            .cmp(&order_listed[a])
            .then(players[b].rating.total_cmp(&players[a].rating))
            .then(players[a].name.cmp(&players[b].name))
    });
    let mut sorted = Vec::with_capacity(n);
    for (rank, &p) in order.iter().enumerate() {
        let mut player = players[p].clone();
        if order_listed[p] {
            player.rank = Some(rank as u32 + 1);
        }
        sorted.push(player);
    }
    Ok(RatingList {
        games: indexed.len() as u32,
        players: sorted,
        anchor_player,
        anchor_rating: value,
        prior_draws: result.prior_draws,
        iterations: result.iterations,
        bootstrap: options.bootstrap.map(|(resamples, seed)| Bootstrap {
            resamples,
            used: bootstrap.as_ref().map_or(0, |s| s.len() as u32),
            seed,
        }),
    })
}

/// The index of the player `name`, numbered in order of first appearance.
fn intern<'a>(
    index: &mut HashMap<&'a str, usize>,
    names: &mut Vec<String>,
    name: &'a str,
) -> usize {
    let next = names.len();
    let i = *index.entry(name).or_insert(next);
    if i == next {
        names.push(name.to_owned());
    }
    i
}
