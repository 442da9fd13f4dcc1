//! The exact fairness analysis: for each random method, the probability of each of the 960
//! start positions, found by walking every branch of the method's outcome tree with the
//! [`Explorer`] and adding up exact fractions (no sampling, no floating point). Also the
//! sampler for `--sample`: the same procedure with the seeded random source, for a chi-square
//! test of the drawing code against its own analysis.

use crate::describe::{describe, properties, IdSet, Property};
use crate::rational::Ratio;
use crate::source::{DrawError, Explorer, RandomSource, Steps};
use crate::stats::{chi_square, ChiSquare};
use crate::Method;
use std::collections::BTreeMap;

/// The exact distribution of one method.
#[derive(Debug, Clone)]
pub struct Analysis {
    /// The method.
    pub method: Method,
    /// The probability of each start position, indexed by ID.
    pub probabilities: Vec<Ratio>,
    /// The probability that the procedure ends in an arrangement that is not a legal start
    /// position (0 for every method of the spec: each fix is always possible).
    pub illegal: Ratio,
    /// A few such arrangements, if any.
    pub illegal_examples: Vec<String>,
    /// How many outcome sequences (leaves of the outcome tree, re-rolls conditioned out) were
    /// enumerated.
    pub sequences: u64,
    /// The expected number of physical acts (rolls, throws, draws, picks), re-rolls included.
    pub expected_acts: Ratio,
}

/// The positions that share one probability.
#[derive(Debug, Clone)]
pub struct Class {
    /// The probability times 960 (1 for a fair share).
    pub times_960: Ratio,
    /// The positions.
    pub ids: IdSet,
    /// What they have in common, in words.
    pub description: String,
}

/// Enumerates every outcome sequence of `method` and adds up the exact probabilities.
///
/// Panics if the probabilities of all sequences do not add up to exactly 1, which would mean
/// the enumeration itself is broken.
pub fn analyse(method: Method) -> Result<Analysis, DrawError> {
    let mut probabilities = vec![Ratio::ZERO; 960];
    let mut illegal = Ratio::ZERO;
    let mut illegal_examples = Vec::new();
    let mut expected_acts = Ratio::ZERO;
    let mut sequences = 0;
    // Leaves arrive grouped by a handful of distinct probabilities; summing per (ID, p) with
    // counts and multiplying once keeps the fraction arithmetic off the hot path.
    let mut tally: BTreeMap<(u16, Ratio), u64> = BTreeMap::new();
    let mut acts_tally: BTreeMap<(Ratio, Ratio), u64> = BTreeMap::new();
    let mut explorer = Explorer::new();
    loop {
        explorer.begin();
        let mut steps = Steps::silent();
        let result = method.run(&mut explorer, &mut steps);
        let p = explorer.probability();
        sequences += 1;
        *acts_tally.entry((p, explorer.expected_acts())).or_default() += 1;
        match result {
            Ok(rank) => *tally.entry((rank.id().get(), p)).or_default() += 1,
            Err(DrawError::NotAStart { arrangement, .. }) => {
                illegal += p;
                if illegal_examples.len() < 5 && !illegal_examples.contains(&arrangement) {
                    illegal_examples.push(arrangement);
                }
            }
            Err(e) => return Err(e),
        }
        if !explorer.advance() {
            break;
        }
    }
    for ((id, p), count) in tally {
        probabilities[id as usize] += p * Ratio::from_integer(u128::from(count));
    }
    for ((p, acts), count) in acts_tally {
        expected_acts += p * acts * Ratio::from_integer(u128::from(count));
    }
    let total: Ratio = probabilities.iter().copied().sum();
    assert_eq!(
        total + illegal,
        Ratio::ONE,
        "the outcome sequences of {method} do not add up to probability 1"
    );
    Ok(Analysis {
        method,
        probabilities,
        illegal,
        illegal_examples,
        sequences,
        expected_acts,
    })
}

/// [`analyse`] for every random method, in the order of [`Method::ALL`].
pub fn analyse_all() -> Result<Vec<Analysis>, DrawError> {
    Method::ALL.iter().map(|&m| analyse(m)).collect()
}

impl Analysis {
    /// The sum of the probabilities of the 960 positions (1 exactly when no outcome sequence
    /// ends in an illegal arrangement).
    pub fn total(&self) -> Ratio {
        self.probabilities.iter().copied().sum()
    }

    /// Whether every position has probability exactly 1/960.
    pub fn is_uniform(&self) -> bool {
        let fair = Ratio::new(1, 960);
        self.probabilities.iter().all(|&p| p == fair)
    }

    /// The most likely position's probability over the least likely one's (`None` if some
    /// position can never be drawn).
    pub fn max_over_min(&self) -> Option<Ratio> {
        let max = *self.probabilities.iter().max()?;
        let min = *self.probabilities.iter().min()?;
        (!min.is_zero()).then(|| max / min)
    }

    /// The total variation distance from the uniform distribution: half the sum over the 960
    /// positions of |p − 1/960|, which is the largest difference the method makes to the
    /// probability of any set of positions (0 for a fair method).
    pub fn distance_from_uniform(&self) -> Ratio {
        let fair = Ratio::new(1, 960);
        let sum: Ratio = self.probabilities.iter().map(|p| p.abs_diff(fair)).sum();
        sum * Ratio::new(1, 2)
    }

    /// The positions grouped by probability, least likely first, each described in words
    /// (computed with the candidate `properties`).
    pub fn classes_with(&self, properties: &[Property]) -> Vec<Class> {
        let mut groups: BTreeMap<Ratio, IdSet> = BTreeMap::new();
        for (id, &p) in self.probabilities.iter().enumerate() {
            groups
                .entry(p)
                .or_insert_with(IdSet::empty)
                .insert(id as u16);
        }
        groups
            .into_iter()
            .map(|(p, ids)| Class {
                times_960: p * Ratio::from_integer(960),
                description: describe(&ids, properties),
                ids,
            })
            .collect()
    }

    /// [`Analysis::classes_with`] the standard candidate properties.
    pub fn classes(&self) -> Vec<Class> {
        self.classes_with(&properties())
    }

    /// The chi-square test of sampled counts (indexed by ID) against this distribution.
    pub fn test_sample(&self, counts: &[u64]) -> ChiSquare {
        let probs: Vec<f64> = self.probabilities.iter().map(|p| p.to_f64()).collect();
        chi_square(counts, &probs)
    }
}

/// Draws `n` positions by `method` from one seeded random source (the first of them is what
/// `chess960 draw --method M --seed S` draws) and counts them by ID. `progress` is called with
/// the number drawn so far every 4096 draws.
pub fn sample(
    method: Method,
    n: u64,
    seed: u64,
    progress: &mut dyn FnMut(u64),
) -> Result<Vec<u64>, DrawError> {
    let mut counts = vec![0u64; 960];
    let mut src = RandomSource::new(seed);
    for i in 0..n {
        let mut steps = Steps::silent();
        let rank = method.run(&mut src, &mut steps)?;
        counts[rank.id().get() as usize] += 1;
        if (i + 1) % 4096 == 0 {
            progress(i + 1);
        }
    }
    progress(n);
    Ok(counts)
}
