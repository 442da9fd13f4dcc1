//! `chess960 fairness`: the exact probability of every start position under each random
//! drawing method, by exhaustive enumeration with exact fractions; optionally a sample from
//! the drawing code with a chi-square test against that exact distribution.

use crate::cmd::json_line;
use crate::error::{CliError, CliResult};
use crate::input::parse_count;
use crate::progress::with_progress;
use chess960_draw::describe::properties;
use chess960_draw::fairness::{analyse, sample, Analysis, Class};
use chess960_draw::rng::SplitMix64;
use chess960_draw::stats::ChiSquare;
use chess960_draw::{Method, Ratio};
use chess960_server::catalog::{FairnessJson, MethodJson, SampleJson};
use clap::Args;
use std::fmt::Write as _;

/// The largest `--sample`.
const MAX_SAMPLE: u64 = 1_000_000_000;

/// Arguments of `chess960 fairness`.
#[derive(Debug, Args)]
#[command(
    about = "Exact fairness of each drawing method: the probability of every start position",
    long_about = "For each random drawing method of 'chess960 draw' (die, coins, bag, \
bag-wheeler, cards, platonic), compute the exact probability of each of the 960 start \
positions by walking every outcome sequence of the method's procedure (re-rolls included, by \
conditioning) and adding exact fractions: no sampling, no floating point. Report whether the \
method is uniform, each distinct probability as a multiple of the fair share 1/960 with the \
number of positions that get it, and what those positions have in common (the property is \
found by testing candidate properties against the class).\n\n\
--sample N also draws N positions per method with the seeded random source (the same code \
that 'chess960 draw' runs) and tests the counts against the exact distribution with \
Pearson's chi-square (statistic, degrees of freedom, p-value): a check of the drawing code \
against its own analysis. The first draw of each sample is what 'chess960 draw --method M \
--seed S' draws. A progress bar appears on standard error (if it is a terminal) when the \
work takes more than a second.",
    after_help = "Examples:\n  chess960 fairness\n  chess960 fairness --json\n  \
chess960 fairness --sample 100000 --seed 1"
)]
pub struct FairnessArgs {
    /// Print one line of JSON: {"methods":[{"method":"bag","uniform":false,
    /// "classes":[{"times_960":"4/7","positions":240,"description":"..."},...]},...]}
    /// (with --sample, each method also has "sample":{"n":..,"chi_square":..,"df":..,"p_value":..}).
    #[arg(long)]
    pub json: bool,
    /// Also draw N positions per method (1..1000000000) and run a chi-square test against the
    /// exact distribution.
    #[arg(long, value_name = "N", allow_negative_numbers = true)]
    pub sample: Option<String>,
    /// Seed for --sample (any number 0..18446744073709551615); without it the sample is
    /// seeded from the operating system (the plain output names the seed).
    #[arg(
        long,
        value_name = "S",
        requires = "sample",
        allow_negative_numbers = true
    )]
    pub seed: Option<String>,
}

/// One method's results.
struct Report {
    analysis: Analysis,
    classes: Vec<Class>,
    test: Option<ChiSquare>,
}

/// Runs `chess960 fairness`.
pub fn run(args: &FairnessArgs) -> CliResult<String> {
    let n = match &args.sample {
        Some(text) => Some(parse_count(text, "--sample", 1, MAX_SAMPLE)?),
        None => None,
    };
    let seed = match &args.seed {
        Some(text) => parse_count(text, "--seed", 0, u64::MAX)?,
        None => SplitMix64::from_entropy().next_u64(),
    };
    let props = properties();
    let reports = with_progress(
        1,
        "{spinner} {msg} [{elapsed_precise}] {wide_bar} {pos}/{len}",
        |bar| -> CliResult<Vec<Report>> {
            bar.set_length(Method::ALL.len() as u64);
            bar.set_message("enumerating the outcome sequences");
            let mut reports = Vec::new();
            for method in Method::ALL {
                let analysis = analyse(method)
                    .map_err(|e| CliError::new(format!("enumerating the {method} method: {e}")))?;
                // The spec's fixes always succeed, so the 960 probabilities alone sum to 1.
                assert_eq!(analysis.total(), Ratio::ONE);
                let classes = analysis.classes_with(&props);
                reports.push(Report {
                    analysis,
                    classes,
                    test: None,
                });
                bar.inc(1);
            }
            if let Some(n) = n {
                let per = n;
                bar.set_length(per * Method::ALL.len() as u64);
                bar.set_position(0);
                bar.set_message("sampling");
                for (i, report) in reports.iter_mut().enumerate() {
                    let base = per * i as u64;
                    let counts = sample(report.analysis.method, per, seed, &mut |done| {
                        bar.set_position(base + done)
                    })
                    .map_err(|e| {
                        CliError::new(format!(
                            "sampling the {} method: {e}",
                            report.analysis.method
                        ))
                    })?;
                    report.test = Some(report.analysis.test_sample(&counts));
                }
            }
            Ok(reports)
        },
    )?;

    if args.json {
        // The same JSON as the web server's /api/fairness (which has no sample).
        return json_line(&FairnessJson {
            methods: reports
                .iter()
                .map(|r| {
                    let sample = r.test.map(|t| SampleJson::new(n.unwrap_or(0), t));
                    MethodJson::new(&r.analysis, &r.classes, sample)
                })
                .collect(),
        });
    }

    let mut out = String::from(
        "Exact probability of each of the 960 start positions under each drawing method, by\n\
         exhaustive enumeration of every outcome sequence with exact fractions, written as a\n\
         multiple of the fair share 1/960.\n",
    );
    for r in &reports {
        let a = &r.analysis;
        let _ = writeln!(out, "\n{} — {}", a.method.name(), a.method.title());
        if a.is_uniform() {
            let _ = writeln!(
                out,
                "  uniform: each of the 960 positions has probability exactly 1/960"
            );
        } else {
            let ratio = a.max_over_min().map_or("∞".to_string(), |q| q.to_string());
            let _ = writeln!(
                out,
                "  NOT uniform: the most likely positions are {ratio} times as likely as the \
                 least likely"
            );
            for c in &r.classes {
                let share = c.times_960 * Ratio::new(c.ids.len() as u128, 960);
                let _ = writeln!(
                    out,
                    "  {:>5} × 1/960  {:>4} positions ({:>3} of the draws)  {}",
                    c.times_960.to_string(),
                    c.ids.len(),
                    share.to_string(),
                    c.description
                );
            }
            let tv = a.distance_from_uniform();
            let _ = writeln!(
                out,
                "  distance from uniform (total variation): {tv} ({:.3})",
                tv.to_f64()
            );
        }
        let acts = a.expected_acts;
        let _ = writeln!(
            out,
            "  {} outcome sequences enumerated; {acts} ({:.2}) {} on average",
            a.sequences,
            acts.to_f64(),
            acts_word(a.method)
        );
        if !a.illegal.is_zero() {
            let _ = writeln!(
                out,
                "  ends in an illegal arrangement with probability {} (e.g. {})",
                a.illegal,
                a.illegal_examples.join(", ")
            );
        }
        if let (Some(t), Some(n)) = (r.test, n) {
            let _ = writeln!(
                out,
                "  sample of {n} (seed {seed}): chi-square {:.2}, {} degrees of freedom, \
                 p-value {:.4}",
                t.statistic, t.df, t.p_value
            );
        }
    }
    let _ = writeln!(
        out,
        "\nEvery outcome sequence of every method ends in a legal start position, and each\n\
         method's 960 probabilities add up to exactly 1."
    );
    Ok(out)
}

/// What the acts of a method are called.
fn acts_word(method: Method) -> &'static str {
    match method {
        Method::Die => "rolls (re-rolls included)",
        Method::Coins => "throws (re-throws included)",
        Method::Bag => "draws",
        Method::BagWheeler => "draws and picks",
        Method::Cards => "cards drawn",
        Method::Platonic => "dice",
    }
}
