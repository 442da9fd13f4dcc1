//! `chess960-engine tune`: Texel tuning of the evaluation weights.
//!
//! The data are `FEN;result` lines from `chess960-engine datagen` (result 1.0, 0.5 or 0.0 for
//! White; a third field, the search score, is ignored). The evaluation is linear in its weights (see [`crate::eval::trace`]): each position
//! becomes a sparse list of (weight, count) pairs plus its game phase, so the tuner can compute
//! the evaluation and its gradient for any weights without the engine. It minimises the mean
//! squared error between the result and `sigmoid(K · eval)`, `sigmoid(x) = 1 / (1 + 10^(-x/400))`:
//! first K with the starting weights (a one-dimensional search), then, with K fixed, all weights
//! by full-batch gradient descent with Adam. A tenth of the data (whole games) is held out and
//! only measured, to show the fit is not just memorising the training positions.

use crate::eval::{self, layout as L, Score};
use chess960_core::Position;
use std::io::BufRead;

/// Settings of a tuning run.
#[derive(Clone, Debug)]
pub struct Config {
    /// The `FEN;result` file.
    pub data: String,
    /// Gradient steps (each over all training positions).
    pub epochs: usize,
    /// Adam's step size, in centipawns.
    pub rate: f64,
    /// Start from the hand-set weights instead of the compiled-in ones.
    pub from_hand: bool,
    /// L2 penalty per squared centipawn of distance from the starting weights. Adam gives
    /// every weight the same step size, so weights seen in a handful of positions (a rook on
    /// b6, a queen with 27 squares) would otherwise drift to wild values fitted to a few games.
    pub reg: f64,
}

/// What a tuning run found.
pub struct Outcome {
    /// The tuned weights, rounded.
    pub weights: [Score; L::N],
    /// The fitted scaling constant.
    pub k: f64,
    /// Training positions.
    pub train: usize,
    /// Held-out positions.
    pub held_out: usize,
    /// Mean squared error on the training set, before and after.
    pub train_error: (f64, f64),
    /// Mean squared error on the held-out set, before and after.
    pub held_out_error: (f64, f64),
}

/// The positions as flat arrays: position `p` owns `idx[start[p]..start[p + 1]]`.
#[derive(Default)]
struct Set {
    start: Vec<usize>,
    idx: Vec<u16>,
    count: Vec<f64>,
    /// Middlegame share of the taper (phase / 24), times the drawish-material scale.
    mg: Vec<f64>,
    /// Endgame share, times the same scale.
    eg: Vec<f64>,
    result: Vec<f64>,
}

impl Set {
    fn push(&mut self, pos: &Position, result: f64) {
        if self.start.is_empty() {
            self.start.push(0);
        }
        let t = eval::trace(pos);
        for (i, n) in t.counts {
            self.idx.push(i);
            self.count.push(n as f64);
        }
        self.start.push(self.idx.len());
        self.mg.push(t.scale * t.phase as f64 / 24.0);
        self.eg.push(t.scale * (24 - t.phase) as f64 / 24.0);
        self.result.push(result);
    }

    fn len(&self) -> usize {
        self.result.len()
    }

    fn eval(&self, p: usize, w: &[[f64; 2]]) -> f64 {
        let (mut mg, mut eg) = (0.0, 0.0);
        for j in self.start[p]..self.start[p + 1] {
            let wi = &w[self.idx[j] as usize];
            mg += wi[0] * self.count[j];
            eg += wi[1] * self.count[j];
        }
        mg * self.mg[p] + eg * self.eg[p]
    }

    fn error(&self, w: &[[f64; 2]], k: f64) -> f64 {
        let total: f64 = (0..self.len())
            .map(|p| {
                let d = self.result[p] - sigmoid(k * self.eval(p, w));
                d * d
            })
            .sum();
        total / self.len().max(1) as f64
    }

    /// Adds the gradient of the error with respect to every weight to `grad`.
    fn gradient(&self, w: &[[f64; 2]], k: f64, grad: &mut [[f64; 2]]) {
        let c = k * std::f64::consts::LN_10 / 400.0 * 2.0 / self.len() as f64;
        for p in 0..self.len() {
            let s = sigmoid(k * self.eval(p, w));
            let g = (s - self.result[p]) * s * (1.0 - s) * c;
            let (gm, ge) = (g * self.mg[p], g * self.eg[p]);
            for j in self.start[p]..self.start[p + 1] {
                let gi = &mut grad[self.idx[j] as usize];
                gi[0] += gm * self.count[j];
                gi[1] += ge * self.count[j];
            }
        }
    }
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-x / 400.0))
}

/// The K minimising the error of `w` on `set`: a coarse scan refined three times.
fn fit_k(set: &Set, w: &[[f64; 2]]) -> f64 {
    let (mut best, mut step) = (1.0, 0.1);
    for _ in 0..4 {
        let centre = best;
        let mut best_err = f64::INFINITY;
        for i in -10..=10 {
            let k = centre + step * i as f64;
            if k <= 0.0 {
                continue;
            }
            let e = set.error(w, k);
            if e < best_err {
                best_err = e;
                best = k;
            }
        }
        step /= 10.0;
    }
    best
}

/// Runs the tuner; `progress` receives a line now and then.
pub fn run(config: &Config, mut progress: impl FnMut(&str)) -> std::io::Result<Outcome> {
    let file = std::fs::File::open(&config.data)?;
    let (mut train, mut held) = (Set::default(), Set::default());
    let mut skipped = 0;
    for (n, line) in std::io::BufReader::new(file).lines().enumerate() {
        let line = line?;
        // `FEN;result`, or `FEN;result;score` as `datagen` writes now (the score is not used).
        let mut fields = line.split(';');
        let parsed = fields.next().zip(fields.next()).and_then(|(fen, r)| {
            let r: f64 = r.trim().parse().ok()?;
            Some((Position::from_fen(fen.trim()).ok()?, r))
        });
        let Some((pos, result)) = parsed else {
            skipped += 1;
            continue;
        };
        // Positions of one game are alike, so hold out whole runs of lines (a game's positions
        // are consecutive) rather than every tenth position.
        if (n / 1000) % 10 == 9 {
            held.push(&pos, result);
        } else {
            train.push(&pos, result);
        }
    }
    progress(&format!(
        "{} training and {} held-out positions ({skipped} unreadable lines skipped)",
        train.len(),
        held.len()
    ));
    let start = if config.from_hand {
        eval::hand_set()
    } else {
        crate::weights::WEIGHTS
    };
    let mut w: Vec<[f64; 2]> = start.iter().map(|s| [s.0 as f64, s.1 as f64]).collect();
    let w0 = w.clone();
    let k = fit_k(&train, &w);
    let before = (train.error(&w, k), held.error(&w, k));
    progress(&format!(
        "K = {k:.3}; error {:.6} (held out {:.6})",
        before.0, before.1
    ));

    // Adam: per-weight step sizes, so rarely seen weights (a queen with 27 squares) still move.
    let (b1, b2, eps) = (0.9, 0.999, 1e-8);
    let mut m = vec![[0.0; 2]; L::N];
    let mut v = vec![[0.0; 2]; L::N];
    for epoch in 1..=config.epochs {
        let mut grad = vec![[0.0; 2]; L::N];
        train.gradient(&w, k, &mut grad);
        for i in 0..L::N {
            for ph in 0..2 {
                let g = grad[i][ph] + 2.0 * config.reg * (w[i][ph] - w0[i][ph]);
                m[i][ph] = b1 * m[i][ph] + (1.0 - b1) * g;
                v[i][ph] = b2 * v[i][ph] + (1.0 - b2) * g * g;
                let mh = m[i][ph] / (1.0 - b1.powi(epoch as i32));
                let vh = v[i][ph] / (1.0 - b2.powi(epoch as i32));
                w[i][ph] -= config.rate * mh / (vh.sqrt() + eps);
            }
        }
        if epoch % 100 == 0 || epoch == config.epochs {
            progress(&format!(
                "epoch {epoch}: error {:.6} (held out {:.6})",
                train.error(&w, k),
                held.error(&w, k)
            ));
        }
    }
    let mut weights = [Score(0, 0); L::N];
    for (out, wi) in weights.iter_mut().zip(&w) {
        *out = Score(wi[0].round() as i32, wi[1].round() as i32);
    }
    let rounded: Vec<[f64; 2]> = weights.iter().map(|s| [s.0 as f64, s.1 as f64]).collect();
    Ok(Outcome {
        weights,
        k,
        train: train.len(),
        held_out: held.len(),
        train_error: (before.0, train.error(&rounded, k)),
        held_out_error: (before.1, held.error(&rounded, k)),
    })
}

/// `weights` as the Rust source of `src/weights.rs`, one named weight a line; `note` goes into
/// the module documentation (how the weights were made).
pub fn to_source(weights: &[Score; L::N], note: &str) -> String {
    let mut s = String::new();
    s.push_str("//! The evaluation's weights (layout in `eval::layout`), written by\n");
    s.push_str("//! `chess960-engine tune`; see the \"Tuning\" section of `docs/engine.md`.\n");
    for line in note.lines() {
        s.push_str(&format!("//! {line}\n").replace("//! \n", "//!\n"));
    }
    s.push_str("\nuse crate::eval::Score;\n\n");
    s.push_str("/// The compiled-in weights.\n");
    s.push_str("pub const WEIGHTS: [Score; crate::eval::layout::N] = [\n");
    for (i, w) in weights.iter().enumerate() {
        s.push_str(&format!("    Score({}, {}), // {}\n", w.0, w.1, L::name(i)));
    }
    s.push_str("];\n");
    s
}
