//! The training loop: shuffled mini-batches, per-thread dense gradients summed into one AdamW
//! step (at ~50,000 weights for N = 64 no sparse optimiser is needed), a validation pass per
//! epoch, and the epoch with the best validation loss kept.

use crate::data::{Dataset, Packed};
use crate::model::{sigmoid, AdamW, FloatNet, Sample, Scratch, SIGMOID_SCALE};
use chess960_engine::datagen::Rng;
use chess960_engine::nnue::Network;
use std::time::{Duration, Instant};

/// Settings of a training run.
#[derive(Clone, Debug)]
pub struct Config {
    /// Hidden size N.
    pub hidden: usize,
    /// Passes over the training positions.
    pub epochs: usize,
    /// Positions per optimiser step.
    pub batch: usize,
    /// AdamW's learning rate; ×0.1 from [`Config::drop_epoch`] on.
    pub lr: f32,
    /// The first epoch (from 1) at a tenth of the learning rate; `None`: the one after 75 %
    /// of the epochs.
    pub lr_drop: Option<usize>,
    /// Weight of the game result in the target (the rest is the score's). 0 by default: with
    /// the tens of thousands of games a session can generate, every position of a game shares
    /// its result, and a net fitted to results learns to recognise the games rather than judge
    /// positions (docs/engine.md, "NNUE: data and training").
    pub lambda: f32,
    /// Threads computing gradients.
    pub threads: usize,
    /// Seed of the initial weights and the shuffles.
    pub seed: u64,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            hidden: 64,
            epochs: 40,
            batch: 16_384,
            lr: 0.001,
            lr_drop: None,
            lambda: 0.0,
            threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
            seed: 1,
        }
    }
}

impl Config {
    /// The first epoch (counted from 1) trained at a tenth of the learning rate: `lr_drop`,
    /// by default the one after 75 % of the epochs.
    pub fn drop_epoch(&self) -> usize {
        self.lr_drop.unwrap_or((self.epochs * 3 / 4).max(1) + 1)
    }

    /// The learning rate of `epoch` (counted from 1).
    pub fn lr_at(&self, epoch: usize) -> f32 {
        if epoch >= self.drop_epoch() {
            self.lr * 0.1
        } else {
            self.lr
        }
    }
}

/// What one epoch did.
#[derive(Clone, Copy, Debug)]
pub struct Epoch {
    /// Counted from 1.
    pub epoch: usize,
    /// Learning rate used.
    pub lr: f32,
    /// Mean training loss over the epoch's batches (each measured before its step).
    pub train_loss: f64,
    /// Mean loss on the held-out positions after the epoch.
    pub val_loss: f64,
    /// Training positions per second (forward and backward passes and steps).
    pub positions_per_s: f64,
    /// Time since training began.
    pub elapsed: Duration,
    /// Whether this epoch has the best validation loss so far.
    pub best: bool,
}

/// Splits `items` into at most `threads` contiguous chunks and runs `work` on each in its own
/// thread, returning the results in order.
fn parallel<T: Sync, R: Send>(
    items: &[T],
    threads: usize,
    work: impl Fn(&[T]) -> R + Sync,
) -> Vec<R> {
    let chunk = items.len().div_ceil(threads.max(1)).max(1);
    std::thread::scope(|scope| {
        let handles: Vec<_> = items
            .chunks(chunk)
            .map(|c| scope.spawn(|| work(c)))
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("a training thread panicked"))
            .collect()
    })
}

/// The mean gradient of the squared error over `batch` (into `grad`, overwritten) and the
/// summed error, computed on `threads` threads.
pub fn gradient(
    net: &FloatNet,
    batch: &[Packed],
    lambda: f32,
    threads: usize,
    grad: &mut [f32],
) -> f64 {
    let parts = parallel(batch, threads, |chunk| {
        let mut g = vec![0f32; net.params.len()];
        let mut scratch = Scratch::default();
        let mut loss = 0f64;
        for p in chunk {
            let s = Sample::from_packed(p);
            loss += f64::from(net.backward(&s, s.target(lambda), &mut g, &mut scratch));
        }
        (g, loss)
    });
    grad.iter_mut().for_each(|g| *g = 0.0);
    let mut loss = 0.0;
    let scale = 1.0 / batch.len().max(1) as f32;
    for (g, l) in parts {
        loss += l;
        for (total, part) in grad.iter_mut().zip(&g) {
            *total += part * scale;
        }
    }
    loss
}

/// The mean squared error of `net` over `data`.
pub fn mean_loss(net: &FloatNet, data: &[Packed], lambda: f32, threads: usize) -> f64 {
    if data.is_empty() {
        return 0.0;
    }
    let sums = parallel(data, threads, |chunk| {
        let mut scratch = Scratch::default();
        chunk
            .iter()
            .map(|p| {
                let s = Sample::from_packed(p);
                f64::from(net.loss(&s, s.target(lambda), &mut scratch))
            })
            .sum::<f64>()
    });
    sums.iter().sum::<f64>() / data.len() as f64
}

/// The mean squared error of the data's own search scores as the prediction,
/// `sigmoid(score / 400)` against the target: what a net that only reproduced the scores would
/// reach, a yardstick for the validation loss.
pub fn score_loss(data: &[Packed], lambda: f32) -> f64 {
    let sum: f64 = data
        .iter()
        .map(|p| {
            let s = Sample::from_packed(p);
            let e = sigmoid(s.score / SIGMOID_SCALE) - s.target(lambda);
            f64::from(e * e)
        })
        .sum();
    sum / data.len().max(1) as f64
}

/// The mean and largest |float − quantised| evaluation over `data`, in centipawns, the
/// quantised one from the engine's [`Network::evaluate_board`].
pub fn quantisation_error(
    net: &FloatNet,
    quantised: &Network,
    data: &[Packed],
    threads: usize,
) -> (f64, f64) {
    if data.is_empty() {
        return (0.0, 0.0);
    }
    let parts = parallel(data, threads, |chunk| {
        let mut scratch = Scratch::default();
        let (mut sum, mut max) = (0f64, 0f64);
        for p in chunk {
            let record = chess960_engine::trainingdata::Record::decode(p)
                .expect("records are validated when loaded");
            let float = f64::from(net.eval_cp(&Sample::from_record(&record), &mut scratch));
            let int = f64::from(quantised.evaluate_board(&record.board, record.turn));
            sum += (float - int).abs();
            max = max.max((float - int).abs());
        }
        (sum, max)
    });
    let sum: f64 = parts.iter().map(|p| p.0).sum();
    let max = parts.iter().map(|p| p.1).fold(0.0, f64::max);
    (sum / data.len() as f64, max)
}

/// Trains on `data` (its training part is shuffled in place every epoch) and returns the net
/// of the epoch with the best validation loss. `on_epoch` sees each epoch's figures and the
/// net after it.
pub fn train(
    config: &Config,
    data: &mut Dataset,
    mut on_epoch: impl FnMut(&Epoch, &FloatNet),
) -> FloatNet {
    let mut net = FloatNet::random(config.hidden, config.seed);
    let mut best = net.clone();
    let mut best_loss = f64::INFINITY;
    let mut adam = AdamW::new(net.params.len());
    let mut grad = vec![0f32; net.params.len()];
    let batch = config.batch.max(1);
    let started = Instant::now();
    for epoch in 1..=config.epochs {
        let lr = config.lr_at(epoch);
        shuffle(
            &mut data.train,
            config.seed ^ (epoch as u64).rotate_left(32),
        );
        let epoch_start = Instant::now();
        let mut loss_sum = 0.0;
        for chunk in data.train.chunks(batch) {
            loss_sum += gradient(&net, chunk, config.lambda, config.threads, &mut grad);
            adam.step(&mut net.params, &grad, lr);
        }
        let train_secs = epoch_start.elapsed().as_secs_f64().max(1e-9);
        let val_loss = mean_loss(&net, &data.val, config.lambda, config.threads);
        let improved = val_loss < best_loss || data.val.is_empty();
        if improved {
            best_loss = val_loss;
            best = net.clone();
        }
        let report = Epoch {
            epoch,
            lr,
            train_loss: loss_sum / data.train.len().max(1) as f64,
            val_loss,
            positions_per_s: data.train.len() as f64 / train_secs,
            elapsed: started.elapsed(),
            best: improved,
        };
        on_epoch(&report, &net);
    }
    best
}

/// Fisher–Yates with a seeded generator.
fn shuffle<T>(items: &mut [T], seed: u64) {
    let mut rng = Rng::new(seed);
    for i in (1..items.len()).rev() {
        items.swap(i, rng.below(i as u64 + 1) as usize);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::Filter;
    use chess960_core::{Color, Position, Role, StartId};
    use chess960_engine::trainingdata::{Outcome, Record};

    /// Material for White in centipawns (1, 3, 3, 5, 9).
    fn material(pos: &Position) -> i32 {
        pos.board()
            .pieces()
            .map(|(_, p)| {
                let v = match p.role {
                    Role::Pawn => 100,
                    Role::Knight | Role::Bishop => 300,
                    Role::Rook => 500,
                    Role::Queen => 900,
                    Role::King => 0,
                };
                if p.color == Color::White {
                    v
                } else {
                    -v
                }
            })
            .sum()
    }

    /// Positions from random games, labelled by material: a simple truth the net must learn.
    fn material_games(games: u64, seed: u64) -> Vec<Record> {
        let mut rng = Rng::new(seed);
        let mut out = Vec::new();
        for _ in 0..games {
            let mut pos = StartId::new(rng.below(960) as u32).unwrap().position();
            for ply in 0..120 {
                let legal = pos.legal_moves();
                if legal.is_empty() || pos.is_insufficient_material() {
                    break;
                }
                if ply >= 8 {
                    let m = material(&pos);
                    out.push(Record {
                        board: *pos.board(),
                        turn: pos.turn(),
                        white_score: m.clamp(-3000, 3000) as i16,
                        outcome: match m {
                            m if m >= 300 => Outcome::WhiteWins,
                            m if m <= -300 => Outcome::BlackWins,
                            _ => Outcome::Draw,
                        },
                        fullmove: pos.fullmoves() as u16,
                    });
                }
                pos = pos.play(legal.as_slice()[rng.below(legal.len() as u64) as usize]);
            }
        }
        out
    }

    #[test]
    fn training_on_material_learns_that_a_queen_is_worth_much() {
        let filter = Filter {
            min_fullmove: 0,
            max_score: 32767,
        };
        let mut data = Dataset::from_files(vec![material_games(300, 9)], filter, 0.1);
        assert!(data.train.len() > 20_000 && data.val.len() > 2_000);
        let config = Config {
            hidden: 16,
            epochs: 6,
            batch: 256,
            lr: 0.01,
            lr_drop: None,
            lambda: 0.3,
            threads: 2,
            seed: 4,
        };
        let before = mean_loss(
            &FloatNet::random(config.hidden, config.seed),
            &data.val,
            config.lambda,
            2,
        );
        let mut curve = Vec::new();
        let net = train(&config, &mut data, |e, _| curve.push(e.val_loss));
        assert_eq!(curve.len(), 6);
        let best = curve.iter().cloned().fold(f64::MAX, f64::min);
        assert!(best < before * 0.3, "validation loss {before} -> {curve:?}");
        assert_eq!(mean_loss(&net, &data.val, config.lambda, 2), best);
        // The quantised net, in the engine's own inference, sees a queen.
        let q = net.quantise();
        let even =
            Position::from_fen("qbbnnrkr/1ppp2pp/p7/4pp2/8/P3PP2/1PPP2PP/QBBNNRKR w HFhf - 0 9")
                .unwrap();
        let no_black_queen =
            Position::from_fen("1bbnnrkr/1ppp2pp/p7/4pp2/8/P3PP2/1PPP2PP/QBBNNRKR w HFhf - 0 9")
                .unwrap();
        let e = |pos: &Position, turn| q.evaluate_board(pos.board(), turn);
        assert!(
            e(&even, Color::White).abs() < 150,
            "{}",
            e(&even, Color::White)
        );
        assert!(e(&no_black_queen, Color::White) > e(&even, Color::White) + 400);
        assert!(e(&no_black_queen, Color::Black) < e(&even, Color::Black) - 400);
        // Evaluations here span thousands of centipawns; the rounding stays a few.
        let (mean, max) = quantisation_error(&net, &q, &data.val, 2);
        assert!(mean < 8.0 && max < 50.0, "mean {mean}, max {max}");
    }

    #[test]
    fn the_learning_rate_drops_after_three_quarters_of_the_epochs() {
        let c = |epochs| Config {
            epochs,
            lr: 1.0,
            ..Config::default()
        };
        assert_eq!(c(40).drop_epoch(), 31);
        assert_eq!(c(10).drop_epoch(), 8);
        assert_eq!(c(1).drop_epoch(), 2);
        assert_eq!(c(40).lr_at(30), 1.0);
        assert_eq!(c(40).lr_at(31), 0.1);
        let early = Config {
            lr_drop: Some(5),
            ..c(40)
        };
        assert_eq!((early.lr_at(4), early.lr_at(5)), (1.0, 0.1));
    }

    #[test]
    fn the_scores_yardstick_is_the_results_share_of_the_target() {
        // With the score as prediction, only the result's part of the target is missed:
        // error λ·(result − sigmoid(score/400)).
        let record = |score: i16, outcome| {
            let pos = Position::from_fen(
                "qbbnnrkr/1ppp2pp/p7/4pp2/8/P3PP2/1PPP2PP/QBBNNRKR b HFhf - 0 9",
            )
            .unwrap();
            Record {
                board: *pos.board(),
                turn: pos.turn(),
                white_score: score,
                outcome,
                fullmove: 9,
            }
            .encode()
            .unwrap()
        };
        // Black to move, White won, White's score 0: the error is 0.4 · (0 − 0.5).
        let data = [record(0, Outcome::WhiteWins)];
        assert!((score_loss(&data, 0.4) - 0.04).abs() < 1e-6);
        assert_eq!(score_loss(&data, 0.0), 0.0);
        let data = [record(0, Outcome::Draw), record(400, Outcome::BlackWins)];
        let e = 0.4 * (1.0 - (1.0 / (1.0 + 1f64.exp())));
        assert!((score_loss(&data, 0.4) - e * e / 2.0).abs() < 1e-6);
    }

    #[test]
    fn shuffling_is_seeded_and_keeps_every_item() {
        let mut a: Vec<u32> = (0..1000).collect();
        let mut b = a.clone();
        shuffle(&mut a, 7);
        shuffle(&mut b, 7);
        assert_eq!(a, b);
        assert_ne!(a, (0..1000).collect::<Vec<_>>());
        a.sort_unstable();
        assert_eq!(a, (0..1000).collect::<Vec<_>>());
    }
}
