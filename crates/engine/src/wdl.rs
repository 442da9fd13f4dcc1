//! Win/draw/loss estimates for `UCI_ShowWDL`, and `chess960-engine wdl-fit`, which fits them.
//!
//! The model is the logistic one Stockfish popularised, fitted here to this engine's own
//! games: from the side to move's point of view, with the score `v` in pawns,
//!
//! ```text
//! win  = 1 / (1 + exp((a - v) / b))
//! loss = 1 / (1 + exp((a + v) / b))
//! draw = 1 - win - loss
//! ```
//!
//! `a` (the score at which a win is as likely as not) and `b` (how fast the odds change with
//! the score) are cubic polynomials in the material on the board, because the same score is
//! worth more with fewer pieces left: a pawn up in a rook ending converts more often than a
//! pawn up in the middlegame. Loss is win with the score negated, so the model treats both
//! sides alike, and draw is positive wherever `a > 0`.
//!
//! The parameters are fitted by maximum likelihood on `FEN;result;score` lines from
//! `chess960-engine datagen` (self-play at a fixed node budget): each position's game result
//! is one observation of win, draw or loss for the side to move. The command, the data and
//! the quality of the fit are in `docs/engine.md` ("Win/draw/loss").

use chess960_core::{Color, Position, Role};
use std::io::BufRead;

/// Material on the board, both sides: pawn 1, knight and bishop 3, rook 5, queen 9 (78 at the
/// start).
pub fn material(pos: &Position) -> u32 {
    let board = pos.board();
    [
        (Role::Pawn, 1),
        (Role::Knight, 3),
        (Role::Bishop, 3),
        (Role::Rook, 5),
        (Role::Queen, 9),
    ]
    .iter()
    .map(|&(role, value)| board.by_role(role).count() * value)
    .sum()
}

/// Material is clamped to this range before the polynomials see it: below it (a few pawns)
/// the games give few positions, and the fit was as good with the floor at 0, 4 or 10 (see
/// `docs/engine.md`); above it only promotions lead.
pub const MATERIAL_RANGE: (u32, u32) = (4, 78);

/// The model's parameters: `a` and `b`, in pawns, as polynomials in the clamped material
/// divided by 78, constant term first.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Model {
    /// Coefficients of `a`, the score (pawns) at which a win is as likely as not.
    pub a: [f64; 4],
    /// Coefficients of `b`, the spread of the logistic (pawns).
    pub b: [f64; 4],
}

/// The model in force, as printed by `chess960-engine wdl-fit` (the run in `docs/engine.md`).
pub const MODEL: Model = Model {
    a: [4.432533, -16.551598, 24.925412, -12.076166],
    b: [1.688490, -5.786209, 11.391715, -5.954405],
};

/// Win, draw and loss for the side to move, in per mille (they add up to 1000).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Wdl {
    /// Wins per thousand.
    pub win: u32,
    /// Draws per thousand.
    pub draw: u32,
    /// Losses per thousand.
    pub loss: u32,
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

fn poly(c: &[f64; 4], x: f64) -> f64 {
    ((c[3] * x + c[2]) * x + c[1]) * x + c[0]
}

/// The polynomials' argument for `material`.
fn scaled(material: u32) -> f64 {
    material.clamp(MATERIAL_RANGE.0, MATERIAL_RANGE.1) as f64 / 78.0
}

impl Model {
    /// `a` and `b` (pawns) at `material`.
    pub fn params(&self, material: u32) -> (f64, f64) {
        let x = scaled(material);
        (poly(&self.a, x), poly(&self.b, x))
    }

    /// (win, draw, loss) probabilities for the side to move with a score of `pawns`.
    pub fn probabilities(&self, pawns: f64, material: u32) -> (f64, f64, f64) {
        let (a, b) = self.params(material);
        let (w, l) = (sigmoid((pawns - a) / b), sigmoid((-pawns - a) / b));
        (w, (1.0 - w - l).max(0.0), l)
    }

    /// The estimate for a centipawn score (side to move's view) with `material` on the board.
    pub fn wdl(&self, centipawns: i32, material: u32) -> Wdl {
        let (w, _, l) = self.probabilities(centipawns as f64 / 100.0, material);
        let win = (w * 1000.0).round() as u32;
        let loss = ((l * 1000.0).round() as u32).min(1000 - win);
        Wdl {
            win,
            draw: 1000 - win - loss,
            loss,
        }
    }
}

/// Settings of a `wdl-fit` run.
#[derive(Clone, Debug)]
pub struct FitConfig {
    /// The `FEN;result;score` file from `datagen`.
    pub data: String,
    /// Most Newton steps per fit (it stops earlier once converged).
    pub max_steps: usize,
}

/// One position: the score (pawns) and the game's result, both for the side to move.
#[derive(Clone, Copy, Debug)]
pub struct Sample {
    /// Search score, pawns, side to move's view.
    pub pawns: f64,
    /// Material on the board ([`material`]).
    pub material: u32,
    /// 1.0 win, 0.5 draw, 0.0 loss for the side to move.
    pub result: f64,
}

/// Reads one `FEN;result;score` line (result and score from White's point of view) as a
/// sample for the side to move; `None` when it is not such a line.
pub fn parse_sample(line: &str) -> Option<Sample> {
    let mut fields = line.split(';');
    let (fen, result, score) = (fields.next()?, fields.next()?, fields.next()?);
    let pos = Position::from_fen(fen.trim()).ok()?;
    let result: f64 = result.trim().parse().ok()?;
    let score: i32 = score.trim().parse().ok()?;
    if ![0.0, 0.5, 1.0].contains(&result) {
        return None;
    }
    let white = pos.turn() == Color::White;
    Some(Sample {
        pawns: if white { score } else { -score } as f64 / 100.0,
        material: material(&pos),
        result: if white { result } else { 1.0 - result },
    })
}

/// Mean negative log-likelihood (nats per position) of `samples` under `model`.
pub fn log_loss(model: &Model, samples: &[Sample]) -> f64 {
    let total: f64 = samples
        .iter()
        .map(|s| {
            let (w, d, l) = model.probabilities(s.pawns, s.material);
            -outcome_probability(s.result, w, d, l).max(1e-12).ln()
        })
        .sum();
    total / samples.len().max(1) as f64
}

fn outcome_probability(result: f64, w: f64, d: f64, l: f64) -> f64 {
    if result > 0.75 {
        w
    } else if result < 0.25 {
        l
    } else {
        d
    }
}

/// Mean negative log-likelihood of predicting every sample with the overall frequencies of
/// `train`: the baseline that knows nothing about the score.
pub fn baseline_log_loss(train: &[Sample], samples: &[Sample]) -> f64 {
    let n = train.len().max(1) as f64;
    let count = |r: f64| train.iter().filter(|s| s.result == r).count() as f64 / n;
    let (w, d, l) = (count(1.0), count(0.5), count(0.0));
    let total: f64 = samples
        .iter()
        .map(|s| -outcome_probability(s.result, w, d, l).max(1e-12).ln())
        .sum();
    total / samples.len().max(1) as f64
}

/// Gradient of [`log_loss`] with respect to the eight coefficients (`a` then `b`).
fn gradient(model: &Model, samples: &[Sample]) -> [f64; 8] {
    let mut g = [0.0; 8];
    for s in samples {
        let x = scaled(s.material);
        let (a, b) = (poly(&model.a, x), poly(&model.b, x));
        let (zw, zl) = ((s.pawns - a) / b, (-s.pawns - a) / b);
        let (w, l) = (sigmoid(zw), sigmoid(zl));
        // d(win)/da, d(win)/db, d(loss)/da, d(loss)/db.
        let (dw_da, dw_db) = (-w * (1.0 - w) / b, -w * (1.0 - w) * zw / b);
        let (dl_da, dl_db) = (-l * (1.0 - l) / b, -l * (1.0 - l) * zl / b);
        let (p, dp_da, dp_db) = if s.result > 0.75 {
            (w, dw_da, dw_db)
        } else if s.result < 0.25 {
            (l, dl_da, dl_db)
        } else {
            (1.0 - w - l, -dw_da - dl_da, -dw_db - dl_db)
        };
        let (ga, gb) = (-dp_da / p.max(1e-12), -dp_db / p.max(1e-12));
        let mut xi = 1.0;
        for i in 0..4 {
            g[i] += ga * xi;
            g[4 + i] += gb * xi;
            xi *= x;
        }
    }
    let n = samples.len().max(1) as f64;
    g.map(|v| v / n)
}

/// Fits a model whose `a` and `b` are polynomials of `degree` (0 to 3) in the material, by
/// maximum likelihood, from `a` = 1 pawn, `b` = 0.5: Newton steps (the Hessian by central
/// differences of the exact gradient) damped as Levenberg and Marquardt do, a step being kept
/// only when it lowers the loss. The cubic's coefficients are strongly correlated, which
/// plain gradient descent crawls along; Newton's method converges in a few dozen steps.
pub fn fit(samples: &[Sample], degree: usize, max_steps: usize) -> Model {
    let free: Vec<usize> = (0..=degree.min(3)).flat_map(|i| [i, 4 + i]).collect();
    let k = free.len();
    let mut model = Model {
        a: [1.0, 0.0, 0.0, 0.0],
        b: [0.5, 0.0, 0.0, 0.0],
    };
    let get = |m: &Model, i: usize| if i < 4 { m.a[i] } else { m.b[i - 4] };
    let set = |m: &mut Model, i: usize, v: f64| {
        if i < 4 {
            m.a[i] = v
        } else {
            m.b[i - 4] = v
        }
    };
    let mut loss = log_loss(&model, samples);
    let mut damping = 1e-3;
    for _ in 0..max_steps {
        let g = gradient(&model, samples);
        let h = 1e-5;
        let mut hessian = vec![vec![0.0; k]; k];
        for (c, &j) in free.iter().enumerate() {
            let (mut plus, mut minus) = (model, model);
            set(&mut plus, j, get(&model, j) + h);
            set(&mut minus, j, get(&model, j) - h);
            let (gp, gm) = (gradient(&plus, samples), gradient(&minus, samples));
            for (r, &i) in free.iter().enumerate() {
                hessian[r][c] = (gp[i] - gm[i]) / (2.0 * h);
            }
        }
        let grad: Vec<f64> = free.iter().map(|&i| g[i]).collect();
        if grad.iter().map(|v| v * v).sum::<f64>().sqrt() < 1e-9 {
            break;
        }
        // Try ever stronger damping until a step lowers the loss (or give up: converged).
        let mut improved = false;
        while damping < 1e9 {
            let mut system = hessian.clone();
            for (r, row) in system.iter_mut().enumerate() {
                row[r] += damping * (1.0 + hessian[r][r].abs());
            }
            let Some(step) = solve(system, grad.iter().map(|v| -v).collect()) else {
                damping *= 10.0;
                continue;
            };
            let mut next = model;
            for (&i, d) in free.iter().zip(&step) {
                set(&mut next, i, get(&model, i) + d);
            }
            let next_loss = log_loss(&next, samples);
            if next_loss < loss {
                (model, loss, damping) = (next, next_loss, (damping / 10.0).max(1e-9));
                improved = true;
                break;
            }
            damping *= 10.0;
        }
        if !improved {
            break;
        }
    }
    model
}

/// Solves `m x = v` by Gaussian elimination with partial pivoting; `None` if `m` is singular.
fn solve(mut m: Vec<Vec<f64>>, mut v: Vec<f64>) -> Option<Vec<f64>> {
    let n = v.len();
    for col in 0..n {
        let pivot = (col..n).max_by(|&a, &b| m[a][col].abs().total_cmp(&m[b][col].abs()))?;
        if m[pivot][col].abs() < 1e-300 {
            return None;
        }
        m.swap(col, pivot);
        v.swap(col, pivot);
        let (upper, lower) = m.split_at_mut(col + 1);
        let pivot_row = &upper[col];
        for (k, row) in lower.iter_mut().enumerate() {
            let f = row[col] / pivot_row[col];
            for (x, p) in row[col..].iter_mut().zip(&pivot_row[col..]) {
                *x -= f * p;
            }
            v[col + 1 + k] -= f * v[col];
        }
    }
    let mut x = vec![0.0; n];
    for row in (0..n).rev() {
        let tail: f64 = (row + 1..n).map(|c| m[row][c] * x[c]).sum();
        x[row] = (v[row] - tail) / m[row][row];
    }
    Some(x)
}

/// Predicted against observed outcomes of the samples whose score falls in one range.
#[derive(Clone, Debug)]
pub struct Bucket {
    /// Score range, pawns (side to move), lower bound included.
    pub from: f64,
    /// Upper bound, excluded.
    pub to: f64,
    /// Samples in the range.
    pub count: usize,
    /// Mean predicted (win, draw, loss).
    pub predicted: (f64, f64, f64),
    /// Observed (win, draw, loss) frequencies.
    pub observed: (f64, f64, f64),
}

/// Calibration of `model` on `samples` in score ranges bounded by `edges` (pawns).
pub fn calibration(model: &Model, samples: &[Sample], edges: &[f64]) -> Vec<Bucket> {
    edges
        .windows(2)
        .map(|e| {
            let inside: Vec<&Sample> = samples
                .iter()
                .filter(|s| s.pawns >= e[0] && s.pawns < e[1])
                .collect();
            let n = inside.len().max(1) as f64;
            let mut predicted = (0.0, 0.0, 0.0);
            let mut observed = (0.0, 0.0, 0.0);
            for s in &inside {
                let (w, d, l) = model.probabilities(s.pawns, s.material);
                predicted = (
                    predicted.0 + w / n,
                    predicted.1 + d / n,
                    predicted.2 + l / n,
                );
                let (w, d, l) = (s.result > 0.75, s.result == 0.5, s.result < 0.25);
                observed.0 += f64::from(u8::from(w)) / n;
                observed.1 += f64::from(u8::from(d)) / n;
                observed.2 += f64::from(u8::from(l)) / n;
            }
            Bucket {
                from: e[0],
                to: e[1],
                count: inside.len(),
                predicted,
                observed,
            }
        })
        .collect()
}

/// What `wdl-fit` found.
pub struct FitOutcome {
    /// The fitted model (cubic in the material).
    pub model: Model,
    /// The same fitted with `a` and `b` constant (score only), for comparison.
    pub score_only: Model,
    /// Training and held-out samples.
    pub train: Vec<Sample>,
    /// Held-out samples (every tenth block of 1,000 lines: whole games).
    pub held_out: Vec<Sample>,
    /// Lines that were not `FEN;result;score`.
    pub skipped: usize,
}

/// Reads `config.data` and fits the model and the score-only model on nine tenths of it.
pub fn run(config: &FitConfig) -> std::io::Result<FitOutcome> {
    let file = std::fs::File::open(&config.data)?;
    let (mut train, mut held_out, mut skipped) = (Vec::new(), Vec::new(), 0);
    for (n, line) in std::io::BufReader::new(file).lines().enumerate() {
        let Some(s) = parse_sample(&line?) else {
            skipped += 1;
            continue;
        };
        // As in `tune`: a game's positions are consecutive and alike, so hold out whole runs.
        if (n / 1000) % 10 == 9 {
            held_out.push(s);
        } else {
            train.push(s);
        }
    }
    Ok(FitOutcome {
        model: fit(&train, 3, config.max_steps),
        score_only: fit(&train, 0, config.max_steps),
        train,
        held_out,
        skipped,
    })
}

/// `model` as the Rust source of [`MODEL`].
pub fn to_source(model: &Model) -> String {
    let list = |c: &[f64; 4]| {
        c.iter()
            .map(|v| format!("{v:.6}"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    format!(
        "pub const MODEL: Model = Model {{\n    a: [{}],\n    b: [{}],\n}};",
        list(&model.a),
        list(&model.b)
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::datagen::Rng;

    /// Samples drawn from `model` at random scores and materials.
    fn synthetic(model: &Model, n: usize, seed: u64) -> Vec<Sample> {
        let mut rng = Rng::new(seed);
        (0..n)
            .map(|_| {
                let pawns = (rng.below(1201) as f64 - 600.0) / 100.0;
                let material = 10 + rng.below(69) as u32;
                let (w, d, _) = model.probabilities(pawns, material);
                let u = rng.below(1_000_000) as f64 / 1e6;
                let result = if u < w {
                    1.0
                } else if u < w + d {
                    0.5
                } else {
                    0.0
                };
                Sample {
                    pawns,
                    material,
                    result,
                }
            })
            .collect()
    }

    #[test]
    fn the_fit_recovers_a_known_model() {
        let truth = Model {
            a: [2.4, -2.0, 0.5, 0.0],
            b: [0.9, -0.4, 0.0, 0.0],
        };
        let samples = synthetic(&truth, 40_000, 7);
        let fitted = fit(&samples, 3, 100);
        // The coefficients of a cubic trade off against each other; what must agree is the
        // model: a and b along the material range, and the likelihood.
        for material in [12, 30, 50, 78] {
            let (ta, tb) = truth.params(material);
            let (fa, fb) = fitted.params(material);
            assert!((ta - fa).abs() < 0.15, "a at {material}: {fa} against {ta}");
            assert!((tb - fb).abs() < 0.1, "b at {material}: {fb} against {tb}");
        }
        let (lt, lf) = (log_loss(&truth, &samples), log_loss(&fitted, &samples));
        assert!(lf <= lt, "fitted {lf} against truth {lt}");
        // And a model without the material does worse on data that depend on it.
        let flat = fit(&samples, 0, 100);
        assert!(log_loss(&flat, &samples) > lf + 0.01);
        assert!(baseline_log_loss(&samples, &samples) > log_loss(&flat, &samples));
    }

    #[test]
    fn the_model_in_force_is_coherent() {
        for material in 0..=90 {
            let (a, b) = MODEL.params(material);
            assert!(a > 0.0 && b > 0.0, "material {material}: a {a}, b {b}");
            let mut last_win = 0;
            for cp in (-3000..=3000).step_by(10) {
                let e = MODEL.wdl(cp, material);
                assert_eq!(e.win + e.draw + e.loss, 1000);
                // More score never means fewer wins, and the sides are treated alike.
                assert!(e.win >= last_win, "{cp} cp, material {material}");
                last_win = e.win;
                let mirror = MODEL.wdl(-cp, material);
                assert_eq!((e.win, e.loss), (mirror.loss, mirror.win), "{cp} cp");
            }
            assert!(MODEL.wdl(0, material).draw > 0);
            assert!(MODEL.wdl(3000, material).win > 990);
        }
        // The example in docs/engine.md ("Win/draw/loss").
        let start = MODEL.wdl(10, 78);
        assert_eq!((start.win, start.draw, start.loss), (385, 265, 350));
        let doc = include_str!("../../../docs/engine.md");
        assert!(doc.contains("shows `wdl 385 265 350`"));
    }

    #[test]
    fn samples_are_read_for_the_side_to_move() {
        let s = parse_sample("4k3/8/8/8/8/8/4P3/4K2R b K - 0 1;1.0;250").unwrap();
        assert_eq!((s.pawns, s.material, s.result), (-2.5, 6, 0.0));
        let s = parse_sample("4k3/8/8/8/8/8/4P3/4K2R w K - 0 1;0.5;-40").unwrap();
        assert_eq!((s.pawns, s.result), (-0.4, 0.5));
        for bad in [
            "4k3/8/8/8/8/8/4P3/4K2R w K - 0 1;1.0",
            "4k3/8/8/8/8/8/4P3/4K2R w K - 0 1;0.7;10",
            "4k3/8/8/8/8/8/4P3/4K2R w K - 0 1;1.0;ten",
            "not a fen;1.0;10",
        ] {
            assert!(parse_sample(bad).is_none(), "{bad}");
        }
        assert_eq!(material(&chess960_core::StartId::CLASSICAL.position()), 78);
    }
}
