//! The float network the trainer optimises, its gradient, AdamW, and quantisation into the
//! engine's [`Network`].
//!
//! The meaning of the weights is the contract of [`chess960_engine::nnue`]: per perspective an
//! accumulator `acc = bias + Σ rows of the active features`, activation `f(x) = clamp(x, 0, 1)²`,
//! output `out = Σ f(acc_us)·w_us + Σ f(acc_them)·w_them + b`, evaluation `SCALE · out`
//! centipawns for the side to move. Training predicts `sigmoid(eval / 400)` (the logistic
//! `1 / (1 + e^-x)`) against `λ·result + (1 − λ)·sigmoid(score / 400)`, both for the side to
//! move, and minimises the mean squared error.

use crate::data::Packed;
use chess960_engine::datagen::Rng;
use chess960_engine::nnue::{feature, Network, INPUTS, QA, QB, SCALE, WEIGHT_CLIP};
use chess960_engine::trainingdata::Record;

/// Centipawns per unit of the sigmoid's argument, for predictions and score targets alike.
pub const SIGMOID_SCALE: f32 = 400.0;

/// The logistic function.
pub fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// A position as the network sees it: the active features of both perspectives (side to move
/// first) and the labels, for the side to move.
#[derive(Clone, Debug)]
pub struct Sample {
    /// Features of the side to move's accumulator (first `len`).
    pub us: [u16; 32],
    /// Features of the other side's accumulator (first `len`).
    pub them: [u16; 32],
    /// Pieces on the board.
    pub len: usize,
    /// The game's result for the side to move: 0, 0.5 or 1.
    pub result: f32,
    /// The search score for the side to move, centipawns.
    pub score: f32,
}

impl Sample {
    /// The sample of a record.
    pub fn from_record(r: &Record) -> Sample {
        let mut s = Sample {
            us: [0; 32],
            them: [0; 32],
            len: 0,
            result: r.outcome.white_score(),
            score: f32::from(r.white_score),
        };
        for (square, piece) in r.pieces().take(32) {
            s.us[s.len] = feature(r.turn, piece, square) as u16;
            s.them[s.len] = feature(!r.turn, piece, square) as u16;
            s.len += 1;
        }
        if r.turn == chess960_core::Color::Black {
            s.result = 1.0 - s.result;
            s.score = -s.score;
        }
        s
    }

    /// The sample of a packed record (validated when it was loaded).
    pub fn from_packed(p: &Packed) -> Sample {
        Sample::from_record(&Record::decode(p).expect("records are validated when loaded"))
    }

    /// The training target: `λ·result + (1 − λ)·sigmoid(score / 400)`.
    pub fn target(&self, lambda: f32) -> f32 {
        lambda * self.result + (1.0 - lambda) * sigmoid(self.score / SIGMOID_SCALE)
    }
}

/// `f(x) = clamp(x, 0, 1)²`.
#[inline]
fn screlu(x: f32) -> f32 {
    let c = x.clamp(0.0, 1.0);
    c * c
}

/// `f'(x)`: `2x` inside (0, 1), 0 outside.
#[inline]
fn screlu_slope(x: f32) -> f32 {
    if x > 0.0 && x < 1.0 {
        2.0 * x
    } else {
        0.0
    }
}

/// The float network: all weights in one vector (feature weights `[feature][neuron]`, feature
/// biases, output weights side to move then other side, output bias), so that gradients,
/// optimiser state and clamping are plain loops over one slice.
#[derive(Clone, Debug, PartialEq)]
pub struct FloatNet {
    /// Hidden size N.
    pub hidden: usize,
    /// The weights, `768·N + N + 2N + 1`.
    pub params: Vec<f32>,
}

/// Scratch space for one thread's forward and backward passes.
#[derive(Clone, Debug, Default)]
pub struct Scratch {
    us: Vec<f32>,
    them: Vec<f32>,
    d_acc: Vec<f32>,
}

impl FloatNet {
    /// Number of weights for hidden size `hidden`.
    pub fn param_count(hidden: usize) -> usize {
        INPUTS * hidden + 3 * hidden + 1
    }

    /// A net with small random weights (uniform in ±0.1 for the feature rows, ±1/√(2N) for
    /// the output), zero biases.
    pub fn random(hidden: usize, seed: u64) -> FloatNet {
        let mut rng = Rng::new(seed);
        let mut uniform =
            |r: f32| (rng.next_u64() >> 40) as f32 / (1u64 << 24) as f32 * 2.0 * r - r;
        let mut params = vec![0.0; FloatNet::param_count(hidden)];
        let out_range = 1.0 / (2.0 * hidden as f32).sqrt();
        for w in &mut params[..INPUTS * hidden] {
            *w = uniform(0.1);
        }
        let ow = INPUTS * hidden + hidden;
        for w in &mut params[ow..ow + 2 * hidden] {
            *w = uniform(out_range);
        }
        FloatNet { hidden, params }
    }

    fn feature_bias_at(&self) -> usize {
        INPUTS * self.hidden
    }

    fn output_weights_at(&self) -> usize {
        INPUTS * self.hidden + self.hidden
    }

    fn output_bias_at(&self) -> usize {
        INPUTS * self.hidden + 3 * self.hidden
    }

    /// Fills `acc` with the accumulator of `features`.
    fn accumulate(&self, features: &[u16], acc: &mut Vec<f32>) {
        let n = self.hidden;
        let fb = self.feature_bias_at();
        acc.clear();
        acc.extend_from_slice(&self.params[fb..fb + n]);
        for &f in features {
            let row = &self.params[usize::from(f) * n..(usize::from(f) + 1) * n];
            for (a, w) in acc.iter_mut().zip(row) {
                *a += w;
            }
        }
    }

    /// The accumulators (side to move, other side) of `s`.
    pub fn accumulators(&self, s: &Sample) -> (Vec<f32>, Vec<f32>) {
        let mut scratch = Scratch::default();
        self.accumulate(&s.us[..s.len], &mut scratch.us);
        self.accumulate(&s.them[..s.len], &mut scratch.them);
        (scratch.us, scratch.them)
    }

    /// The raw output (`eval / SCALE`), leaving the accumulators in `scratch`.
    fn forward(&self, s: &Sample, scratch: &mut Scratch) -> f32 {
        self.accumulate(&s.us[..s.len], &mut scratch.us);
        self.accumulate(&s.them[..s.len], &mut scratch.them);
        let ow = self.output_weights_at();
        let (w_us, w_them) = self.params[ow..ow + 2 * self.hidden].split_at(self.hidden);
        let mut out = self.params[self.output_bias_at()];
        for (acc, w) in [(&scratch.us, w_us), (&scratch.them, w_them)] {
            out += acc.iter().zip(w).map(|(&a, &w)| screlu(a) * w).sum::<f32>();
        }
        out
    }

    /// The evaluation of `s` in centipawns for the side to move.
    pub fn eval_cp(&self, s: &Sample, scratch: &mut Scratch) -> f32 {
        SCALE as f32 * self.forward(s, scratch)
    }

    /// The squared error of `s` against `target`.
    pub fn loss(&self, s: &Sample, target: f32, scratch: &mut Scratch) -> f32 {
        let p = sigmoid(self.eval_cp(s, scratch) / SIGMOID_SCALE);
        (p - target) * (p - target)
    }

    /// Adds the gradient of `s`'s squared error against `target` to `grad` (laid out like
    /// `params`) and returns the error.
    pub fn backward(
        &self,
        s: &Sample,
        target: f32,
        grad: &mut [f32],
        scratch: &mut Scratch,
    ) -> f32 {
        let n = self.hidden;
        let out = self.forward(s, scratch);
        let p = sigmoid(out * SCALE as f32 / SIGMOID_SCALE);
        let error = p - target;
        // d(error²)/d(out), through the sigmoid.
        let g = 2.0 * error * p * (1.0 - p) * SCALE as f32 / SIGMOID_SCALE;
        let ow = self.output_weights_at();
        let fb = self.feature_bias_at();
        grad[self.output_bias_at()] += g;
        let Scratch { us, them, d_acc } = scratch;
        for (side, (acc, features)) in [(&*us, &s.us), (&*them, &s.them)].into_iter().enumerate() {
            let w = &self.params[ow + side * n..ow + (side + 1) * n];
            let (rows, tail) = grad.split_at_mut(fb);
            let (bias_grad, rest) = tail.split_at_mut(n);
            let out_grad = &mut rest[side * n..(side + 1) * n];
            // The accumulator's gradient goes to the bias and to every active row.
            d_acc.clear();
            d_acc.extend(acc.iter().zip(w).map(|(&a, &w)| g * w * screlu_slope(a)));
            for i in 0..n {
                out_grad[i] += g * screlu(acc[i]);
                bias_grad[i] += d_acc[i];
            }
            for &f in &features[..s.len] {
                let row = &mut rows[usize::from(f) * n..(usize::from(f) + 1) * n];
                for (r, d) in row.iter_mut().zip(d_acc.iter()) {
                    *r += d;
                }
            }
        }
        error * error
    }

    /// The quantised net for the engine: feature weights and biases `round(w·QA)`, output
    /// weights `round(w·QB)`, output bias `round(b·QA·QB)`.
    pub fn quantise(&self) -> Network {
        let n = self.hidden;
        let q16 = |ws: &[f32], scale: i32| -> Vec<i16> {
            ws.iter()
                .map(|w| (w * scale as f32).round().clamp(-32767.0, 32767.0) as i16)
                .collect()
        };
        let (fb, ow, ob) = (
            self.feature_bias_at(),
            self.output_weights_at(),
            self.output_bias_at(),
        );
        Network {
            hidden: n,
            feature_weights: q16(&self.params[..fb], QA),
            feature_bias: q16(&self.params[fb..ow], QA),
            output_weights: q16(&self.params[ow..ob], QB),
            output_bias: (f64::from(self.params[ob]) * f64::from(QA * QB)).round() as i32,
        }
    }
}

/// AdamW (decoupled weight decay) with every weight clamped to ±[`WEIGHT_CLIP`] after each
/// step, so that the quantised weights fit the engine's integer arithmetic.
#[derive(Clone, Debug)]
pub struct AdamW {
    m: Vec<f32>,
    v: Vec<f32>,
    steps: i32,
    /// First-moment decay, 0.9.
    pub beta1: f32,
    /// Second-moment decay, 0.999.
    pub beta2: f32,
    /// Weight decay per unit of learning rate, 0.01.
    pub decay: f32,
}

impl AdamW {
    /// An optimiser for `params` weights.
    pub fn new(params: usize) -> AdamW {
        AdamW {
            m: vec![0.0; params],
            v: vec![0.0; params],
            steps: 0,
            beta1: 0.9,
            beta2: 0.999,
            decay: 0.01,
        }
    }

    /// One step against the mean gradient `grad` with learning rate `lr`.
    pub fn step(&mut self, params: &mut [f32], grad: &[f32], lr: f32) {
        self.steps += 1;
        let c1 = 1.0 - self.beta1.powi(self.steps);
        let c2 = 1.0 - self.beta2.powi(self.steps);
        for (((w, &g), m), v) in params
            .iter_mut()
            .zip(grad)
            .zip(&mut self.m)
            .zip(&mut self.v)
        {
            *m = self.beta1 * *m + (1.0 - self.beta1) * g;
            *v = self.beta2 * *v + (1.0 - self.beta2) * g * g;
            let update = (*m / c1) / ((*v / c2).sqrt() + 1e-8);
            *w -= lr * (update + self.decay * *w);
            *w = w.clamp(-WEIGHT_CLIP, WEIGHT_CLIP);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chess960_core::{Color, Position};
    use chess960_engine::trainingdata::Outcome;

    /// Chess960 positions with castling rights, a king on its rook's file side, pawns about to
    /// promote and bare material.
    pub(crate) const FENS: [&str; 6] = [
        "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
        "2nnrbkr/p1qppppp/8/1ppb4/6PP/3PP3/PPP2P2/BQNNRBKR w HEhe - 1 9",
        "b1q1rrkb/pppppppp/3nn3/8/P7/1PPP4/4PPPP/BQNNRKRB w GE - 1 9",
        "qbbnnrkr/2pp2pp/p7/1p2pp2/8/P3PP2/1PPP1KPP/QBBNNR1R w hf - 0 9",
        "1r2k1r1/pppq1ppp/2n5/4p3/3PP3/5N2/PPPQ1PPP/1R2K1R1 w GBgb - 4 12",
        "8/2k1P3/8/3K4/8/6r1/8/8 w - - 0 60",
    ];

    /// A record of each fixed position with each side to move.
    pub(crate) fn records() -> Vec<Record> {
        let mut out = Vec::new();
        for (i, fen) in FENS.iter().enumerate() {
            let pos = Position::from_fen(fen).unwrap();
            for turn in [Color::White, Color::Black] {
                out.push(Record {
                    board: *pos.board(),
                    turn,
                    white_score: 40 * i as i16 - 90,
                    outcome: [Outcome::WhiteWins, Outcome::Draw, Outcome::BlackWins][i % 3],
                    fullmove: 9,
                });
            }
        }
        out
    }

    /// A random net with biases that put most accumulators inside (0, 1), where the
    /// activation is neither flat nor clipped.
    fn lively(hidden: usize, seed: u64) -> FloatNet {
        let mut net = FloatNet::random(hidden, seed);
        let mut rng = Rng::new(seed + 1);
        let fb = net.feature_bias_at();
        for b in &mut net.params[fb..fb + hidden] {
            *b = 0.15 + (rng.below(1000) as f32) / 3000.0;
        }
        let ob = net.output_bias_at();
        net.params[ob] = 0.05;
        net
    }

    #[test]
    fn float_and_quantised_evaluations_agree_within_the_rounding() {
        let net = lively(32, 3);
        let q = net.quantise();
        let (qa, qb) = (f64::from(QA), f64::from(QB));
        let ow = &q.output_weights;
        let mut scratch = Scratch::default();
        let (mut evals, mut errors) = (Vec::new(), Vec::new());
        for r in records() {
            let s = Sample::from_record(&r);
            let float = f64::from(net.eval_cp(&s, &mut scratch));
            let int = f64::from(q.evaluate_board(&r.board, r.turn));
            // The integer accumulators differ from QA·float by at most half a unit per
            // rounded weight summed (the bias and one row per piece).
            let (f_us, f_them) = net.accumulators(&s);
            let (q_us, q_them) = (
                q.accumulate(&r.board, r.turn),
                q.accumulate(&r.board, !r.turn),
            );
            let slack = 0.5 * (s.len + 1) as f64 + 1e-3;
            // In units of QA²·QB: the accumulators' rounding through the activation (bounded
            // by what it did to each activation), and the output weights' rounding (exact).
            let (mut through_acc, mut through_out) = (0.0, 0.0);
            for (side, (fa, qacc)) in [(&f_us, &q_us), (&f_them, &q_them)].into_iter().enumerate() {
                for (i, (&f, &a)) in fa.iter().zip(qacc.iter()).enumerate() {
                    let exact = f64::from(f) * qa;
                    assert!((f64::from(a) - exact).abs() <= slack, "{a} vs {exact}");
                    let xq = f64::from(a).clamp(0.0, qa);
                    let xf = exact.clamp(0.0, qa);
                    let j = side * net.hidden + i;
                    let wq = f64::from(ow[j]);
                    through_acc += wq.abs() * (xq * xq - xf * xf).abs();
                    through_out +=
                        xf * xf * (wq - f64::from(net.params[net.output_weights_at() + j]) * qb);
                }
            }
            // Then the output bias's rounding (half a unit) and the engine's two integer
            // divisions (each off by less than one unit of its result).
            let units = (through_acc + through_out.abs()) / qa + 0.5 + 1.0;
            let bound = units * f64::from(SCALE) / (qa * qb) + 1.0 + 0.01;
            assert!(bound < 25.0, "a bound of {bound} cp would prove little");
            assert!(
                (float - int).abs() <= bound,
                "{r:?}: float {float:.2}, quantised {int}, bound {bound:.2}"
            );
            evals.push(float);
            errors.push((float - int).abs());
        }
        let mean = errors.iter().sum::<f64>() / errors.len() as f64;
        assert!(mean < 3.0, "mean error {mean:.2} cp: {errors:?}");
        // The positions give the net different things to say, for both sides to move.
        let spread = evals.iter().cloned().fold(f64::MIN, f64::max)
            - evals.iter().cloned().fold(f64::MAX, f64::min);
        assert!(spread > 100.0, "evaluations {evals:?}");
    }

    #[test]
    fn the_gradient_matches_finite_differences() {
        let mut net = lively(8, 5);
        let samples: Vec<Sample> = records().iter().map(Sample::from_record).collect();
        let lambda = 0.4;
        let packed: Vec<Packed> = records().iter().map(|r| r.encode().unwrap()).collect();
        let mut grad = vec![0.0; net.params.len()];
        crate::train::gradient(&net, &packed, lambda, 2, &mut grad);
        let mean_loss = |net: &FloatNet| {
            let mut scratch = Scratch::default();
            samples
                .iter()
                .map(|s| f64::from(net.loss(s, s.target(lambda), &mut scratch)))
                .sum::<f64>()
                / samples.len() as f64
        };
        // Rows of the first position's pieces for both perspectives, the biases, the output
        // weights and the output bias.
        let n = net.hidden;
        let mut indices: Vec<usize> = Vec::new();
        for &f in samples[0].us[..4].iter().chain(&samples[1].them[..4]) {
            indices.extend((0..n).map(|i| usize::from(f) * n + i));
        }
        indices.extend(net.feature_bias_at()..net.params.len());
        let eps = 5e-3;
        let mut checked = 0;
        for i in indices {
            let w = net.params[i];
            net.params[i] = w + eps;
            let up = mean_loss(&net);
            net.params[i] = w - eps;
            let down = mean_loss(&net);
            net.params[i] = w;
            let numeric = (up - down) / (2.0 * f64::from(eps));
            let analytic = f64::from(grad[i]);
            let tolerance = 0.03 * numeric.abs().max(analytic.abs()) + 2e-6;
            assert!(
                (numeric - analytic).abs() <= tolerance,
                "weight {i}: analytic {analytic:e}, numeric {numeric:e}"
            );
            if analytic.abs() > 1e-4 {
                checked += 1;
            }
        }
        assert!(
            checked > 40,
            "only {checked} gradients large enough to compare"
        );
    }

    #[test]
    fn adamw_steps_against_the_gradient_and_keeps_weights_clipped() {
        let mut params = vec![1.0, -1.0, 1.97, 0.0];
        let grad = [0.5, -0.5, -10.0, 0.0];
        let mut adam = AdamW::new(params.len());
        adam.step(&mut params, &grad, 0.1);
        // The first step of Adam moves each weight by lr against the gradient's sign, plus
        // the decay.
        assert!((params[0] - (1.0 - 0.1 - 0.001)).abs() < 1e-5, "{params:?}");
        assert!(
            (params[1] - (-1.0 + 0.1 + 0.001)).abs() < 1e-5,
            "{params:?}"
        );
        assert_eq!(params[2], WEIGHT_CLIP);
        assert_eq!(params[3], 0.0);
    }

    #[test]
    fn quantisation_rounds_each_part_with_its_scale() {
        let mut net = FloatNet::random(2, 1);
        let fb = net.feature_bias_at();
        let ow = net.output_weights_at();
        net.params[0] = 0.5; // feature 0, neuron 0: 127.5 rounds away from zero
        net.params[fb + 1] = -1.98;
        net.params[ow + 3] = 1.0;
        net.params[ow + 4] = 0.3;
        let q = net.quantise();
        assert_eq!(q.feature_weights[0], 128);
        assert_eq!(q.feature_bias[1], -505);
        assert_eq!(q.output_weights[3], 64);
        assert_eq!(q.output_bias, (0.3f64 * 255.0 * 64.0).round() as i32);
        assert_eq!(q.hidden, 2);
        assert_eq!(
            Network::from_bytes(&q.to_bytes())
                .unwrap()
                .feature_weights
                .len(),
            768 * 2
        );
    }
}
