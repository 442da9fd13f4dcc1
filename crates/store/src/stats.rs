//! Per-start-position statistics: White's score with a 95% confidence interval, which
//! positions significantly favour one side, and an SVG chart of all 960.
//!
//! **The interval.** A game gives White 1, ½ or 0 points. With n games, observed score p̂
//! and draw rate d̂, the variance of one game's points is σ²(p) = p(1 − p) − d/4 (draws
//! pull the points toward ½, so a drawish position has a narrower interval than a coin
//! would). The interval is the Wilson score interval with that variance, the draw rate held
//! at d̂: the p with (p̂ − p)² ≤ z²·σ²(p)/n, z = 1.96. With no draws it is exactly Wilson's
//! interval for a proportion; unlike the plain normal interval p̂ ± z·σ̂/√n it never
//! collapses to a point for a handful of decisive games (3 White wins of 3 give
//! [0.44, 1.00], not [1, 1]) and never leaves [0, 1].
//!
//! A position **significantly favours** White when the whole interval lies above ½, Black
//! when it lies below. With 960 positions tested at 95%, about 5% of positions (48 of 960)
//! will look significant by chance alone even if no position favoured anyone: read the
//! list as "worth a closer look", not as proof.

use crate::PositionCounts;
use chess960_core::StartId;
use std::fmt;
use std::path::Path;

/// z for a two-sided 95% interval.
pub const Z95: f64 = 1.959_963_984_540_054;

/// Which side a position favours, if significantly.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Favours {
    White,
    Black,
}

impl Favours {
    /// `"white"` or `"black"`.
    pub fn as_str(self) -> &'static str {
        match self {
            Favours::White => "white",
            Favours::Black => "black",
        }
    }
}

/// The statistics of one start position.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PositionStats {
    pub counts: PositionCounts,
    /// Finished games.
    pub games: u64,
    /// White's score, (wins + draws/2) / games.
    pub score: f64,
    /// The 95% interval of White's expected score (see the module documentation).
    pub low: f64,
    pub high: f64,
    /// `Some` when the interval excludes ½.
    pub favours: Option<Favours>,
}

/// The score interval of `wins`, `draws`, `losses` (from White's side) at normal quantile
/// `z`: `(score, low, high)`; `None` without games.
pub fn score_interval(wins: u64, draws: u64, losses: u64, z: f64) -> Option<(f64, f64, f64)> {
    let n = (wins + draws + losses) as f64;
    if n == 0.0 {
        return None;
    }
    let p = (wins as f64 + draws as f64 / 2.0) / n;
    let d = draws as f64 / n;
    // Sample variance of one game's points: p - p^2 - d/4 (never below 0 but for rounding).
    let var = (p - p * p - d / 4.0).max(0.0);
    let z2 = z * z;
    let centre = 2.0 * n * p + z2;
    let spread = z * (4.0 * n * var + z2 * (1.0 - d)).max(0.0).sqrt();
    let denom = 2.0 * (n + z2);
    let low = ((centre - spread) / denom).clamp(0.0, 1.0);
    let high = ((centre + spread) / denom).clamp(0.0, 1.0);
    Some((p, low.min(p), high.max(p)))
}

/// The statistics of one position (`None` without finished games).
pub fn position_stats(c: &PositionCounts) -> Option<PositionStats> {
    let (score, low, high) = score_interval(c.white_wins, c.draws, c.black_wins, Z95)?;
    let favours = if low > 0.5 {
        Some(Favours::White)
    } else if high < 0.5 {
        Some(Favours::Black)
    } else {
        None
    };
    Some(PositionStats {
        counts: *c,
        games: c.white_wins + c.draws + c.black_wins,
        score,
        low,
        high,
        favours,
    })
}

/// The statistics of every position with at least `min_games` finished games (and at
/// least one), by ID.
pub fn all_stats(counts: &[PositionCounts], min_games: u64) -> Vec<PositionStats> {
    let mut v: Vec<PositionStats> = counts
        .iter()
        .filter_map(position_stats)
        .filter(|s| s.games >= min_games.max(1))
        .collect();
    v.sort_by_key(|s| s.counts.start_id);
    v
}

/// Why a statistics file could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StatsFileError(pub String);

impl fmt::Display for StatsFileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for StatsFileError {}

/// The data sets of `per_position_stats.csv` (see [`counts_from_csv`]).
pub const DATASETS: [&str; 2] = ["lichess", "selfplay"];

/// Per-position results from a CSV file with a header line and an `id` column (0..959), in
/// one of two forms:
///
/// - **counts**: columns `white_wins`, `draws`, `black_wins` (whole numbers);
/// - **percentages**, as in `shared/data/positions/derived/per_position_stats.csv`: for the
///   data set `lichess` the columns `lichess_games`, `lichess_white_pct`,
///   `lichess_draw_pct`, `lichess_black_pct` (4.57 million human games on lichess); for
///   `selfplay` the columns `sf16_selfplay_games`, `sf16_white_pct`, `sf16_draw_pct`,
///   `sf16_black_pct` (20,000 Stockfish 16 self-play games per position). Counts are
///   rebuilt as games × percentage, rounded; the percentages have one decimal, so counts
///   are good to about ±0.05% of the games.
///
/// `dataset` picks the percentage columns; with `None` the count columns are used when
/// present, else `lichess`.
pub fn counts_from_csv(
    text: &str,
    dataset: Option<&str>,
) -> Result<Vec<PositionCounts>, StatsFileError> {
    let err = |s: String| StatsFileError(s);
    let mut lines = text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty());
    let (_, header) = lines
        .next()
        .ok_or_else(|| err("the file is empty".into()))?;
    let names: Vec<&str> = header
        .trim_start_matches('\u{feff}')
        .split(',')
        .map(str::trim)
        .collect();
    let col = |name: &str| names.iter().position(|n| *n == name);
    let need =
        |name: &str| col(name).ok_or_else(|| err(format!("the header has no column '{name}'")));
    let id_col = need("id")?;
    enum Form {
        Counts([usize; 3]),
        Percent(usize, [usize; 3]),
    }
    let counts_cols = (col("white_wins"), col("draws"), col("black_wins"));
    let form = match (dataset, counts_cols) {
        (None, (Some(w), Some(d), Some(b))) => Form::Counts([w, d, b]),
        (ds, _) => {
            let prefix = match ds.unwrap_or("lichess") {
                "lichess" => ("lichess_games", "lichess"),
                "selfplay" => ("sf16_selfplay_games", "sf16"),
                other => {
                    return Err(err(format!(
                        "unknown data set '{other}': expected {}",
                        DATASETS.join(" or ")
                    )))
                }
            };
            Form::Percent(
                need(prefix.0)?,
                [
                    need(&format!("{}_white_pct", prefix.1))?,
                    need(&format!("{}_draw_pct", prefix.1))?,
                    need(&format!("{}_black_pct", prefix.1))?,
                ],
            )
        }
    };
    let mut out: Vec<PositionCounts> = Vec::new();
    let mut seen = [false; 960];
    for (i, line) in lines {
        let fields: Vec<&str> = line.split(',').map(str::trim).collect();
        let line_no = i + 1;
        let field = |c: usize| {
            fields
                .get(c)
                .copied()
                .ok_or_else(|| err(format!("line {line_no}: too few fields")))
        };
        let id: u16 = field(id_col)?
            .parse()
            .ok()
            .filter(|&id: &u16| id < 960)
            .ok_or_else(|| err(format!("line {line_no}: the id is not in 0..959")))?;
        if std::mem::replace(&mut seen[usize::from(id)], true) {
            return Err(err(format!("line {line_no}: position {id} occurs twice")));
        }
        let [w, d, b] = match &form {
            Form::Counts(cols) => {
                let mut v = [0u64; 3];
                for (slot, &c) in v.iter_mut().zip(cols) {
                    *slot = field(c)?.parse().map_err(|_| {
                        err(format!(
                            "line {line_no}: '{}' is not a whole number",
                            fields[c]
                        ))
                    })?;
                }
                v
            }
            Form::Percent(games_col, cols) => {
                let games: u64 = field(*games_col)?.parse().map_err(|_| {
                    err(format!(
                        "line {line_no}: '{}' is not a number of games",
                        fields[*games_col]
                    ))
                })?;
                let mut v = [0u64; 3];
                for (slot, &c) in v.iter_mut().zip(cols) {
                    let pct: f64 = field(c)?
                        .parse()
                        .ok()
                        .filter(|p: &f64| (0.0..=100.0).contains(p))
                        .ok_or_else(|| {
                            err(format!(
                                "line {line_no}: '{}' is not a percentage",
                                fields[c]
                            ))
                        })?;
                    *slot = (games as f64 * pct / 100.0).round() as u64;
                }
                v
            }
        };
        out.push(PositionCounts {
            start_id: id,
            white_wins: w,
            draws: d,
            black_wins: b,
        });
    }
    out.sort_by_key(|c| c.start_id);
    Ok(out)
}

/// Reads [`counts_from_csv`] from a file.
pub fn counts_from_file(
    path: &Path,
    dataset: Option<&str>,
) -> Result<Vec<PositionCounts>, StatsFileError> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| StatsFileError(format!("cannot read {}: {e}", path.display())))?;
    counts_from_csv(&text, dataset).map_err(|e| StatsFileError(format!("{}: {e}", path.display())))
}

/// The back rank of a start position as letters, e.g. `RNBQKBNR` for 518.
pub fn back_rank(id: u16) -> String {
    StartId::new(u32::from(id))
        .map(|s| {
            s.back_rank()
                .roles()
                .iter()
                .map(|r| r.upper_char())
                .collect()
        })
        .unwrap_or_default()
}

/// Draws White's score for each position (x: start position ID 0..959; y: score) with its
/// 95% interval as an error bar, a line at ½, positions significantly favouring White in
/// red and Black in blue, into an SVG document. Text is left to the SVG viewer's fonts, so
/// nothing here needs a font file.
pub fn chart_svg(stats: &[PositionStats], title: &str) -> Result<String, StatsFileError> {
    use plotters::prelude::*;
    let fail = |e: &dyn fmt::Display| StatsFileError(format!("cannot draw the chart: {e}"));
    let (mut lo, mut hi) = stats.iter().fold((0.5f64, 0.5f64), |(lo, hi), s| {
        (lo.min(s.low), hi.max(s.high))
    });
    let pad = ((hi - lo) * 0.05).max(0.01);
    lo = (lo - pad).max(0.0);
    hi = (hi + pad).min(1.0);
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (1600, 600)).into_drawing_area();
        root.fill(&WHITE).map_err(|e| fail(&e))?;
        let mut chart = ChartBuilder::on(&root)
            .caption(title, ("sans-serif", 22))
            .margin(15)
            .x_label_area_size(45)
            .y_label_area_size(60)
            .build_cartesian_2d(-5f64..965f64, lo..hi)
            .map_err(|e| fail(&e))?;
        chart
            .configure_mesh()
            .x_desc("start position ID (Scharnagl)")
            .y_desc("White's score, 95% interval")
            .x_labels(13)
            .y_labels(10)
            .y_label_formatter(&|y| format!("{y:.2}"))
            .x_label_formatter(&|x| format!("{x:.0}"))
            .light_line_style(RGBColor(240, 240, 240))
            .draw()
            .map_err(|e| fail(&e))?;
        chart
            .draw_series(LineSeries::new(
                [(-5.0, 0.5), (965.0, 0.5)],
                BLACK.stroke_width(1),
            ))
            .map_err(|e| fail(&e))?;
        let colour = |s: &PositionStats| match s.favours {
            Some(Favours::White) => RGBColor(200, 40, 40),
            Some(Favours::Black) => RGBColor(40, 70, 200),
            None => RGBColor(130, 130, 130),
        };
        chart
            .draw_series(stats.iter().map(|s| {
                let x = f64::from(s.counts.start_id);
                ErrorBar::new_vertical(x, s.low, s.score, s.high, colour(s).stroke_width(1), 3)
            }))
            .map_err(|e| fail(&e))?;
        chart
            .draw_series(stats.iter().map(|s| {
                Circle::new(
                    (f64::from(s.counts.start_id), s.score),
                    2,
                    colour(s).filled(),
                )
            }))
            .map_err(|e| fail(&e))?;
        root.present().map_err(|e| fail(&e))?;
    }
    Ok(svg)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-3
    }

    #[test]
    fn wilson_without_draws() {
        // Wilson's interval for 3 of 3: [n / (n + z^2), 1].
        let (p, lo, hi) = score_interval(3, 0, 0, Z95).unwrap();
        assert_eq!(p, 1.0);
        assert!(close(lo, 3.0 / (3.0 + Z95 * Z95)), "{lo}");
        assert_eq!(hi, 1.0);
        // 60 of 100: Wilson gives [0.5020, 0.6906].
        let (_, lo, hi) = score_interval(60, 0, 40, Z95).unwrap();
        assert!(close(lo, 0.5020) && close(hi, 0.6906), "{lo} {hi}");
    }

    #[test]
    fn draws_narrow_the_interval() {
        let (_, lo1, hi1) = score_interval(30, 0, 30, Z95).unwrap();
        let (_, lo2, hi2) = score_interval(15, 30, 15, Z95).unwrap();
        assert!(hi2 - lo2 < hi1 - lo1);
        assert!(lo2 < 0.5 && hi2 > 0.5);
        // All draws: the score is ½ and the interval a point at ½ (no side favoured).
        let s = position_stats(&PositionCounts {
            start_id: 3,
            white_wins: 0,
            draws: 10,
            black_wins: 0,
        })
        .unwrap();
        assert!(close(s.low, 0.5) && close(s.high, 0.5) && s.favours.is_none());
    }

    #[test]
    fn large_samples_match_the_normal_interval() {
        // 20,000 games, 27% / 53% / 20%: trinomial normal interval p +- z * s / sqrt(n).
        let (w, d, l) = (5400u64, 10600u64, 4000u64);
        let n = 20_000.0f64;
        let p = (5400.0 + 5300.0) / n;
        let var =
            (w as f64 * (1.0 - p).powi(2) + d as f64 * (0.5 - p).powi(2) + l as f64 * p * p) / n;
        let half = Z95 * (var / n).sqrt();
        let (_, lo, hi) = score_interval(w, d, l, Z95).unwrap();
        assert!(
            close(lo, p - half) && close(hi, p + half),
            "{lo} {hi} {}",
            p - half
        );
        let s = position_stats(&PositionCounts {
            start_id: 0,
            white_wins: w,
            draws: d,
            black_wins: l,
        })
        .unwrap();
        assert_eq!(s.favours, Some(Favours::White));
    }

    #[test]
    fn csv_forms() {
        let counts = "id,white_wins,draws,black_wins\n5,1,2,3\n0,4,0,0\n";
        let c = counts_from_csv(counts, None).unwrap();
        assert_eq!(c.len(), 2);
        assert_eq!((c[0].start_id, c[0].white_wins), (0, 4));
        assert_eq!((c[1].draws, c[1].black_wins), (2, 3));
        let pct = "id,lichess_games,lichess_white_pct,lichess_draw_pct,lichess_black_pct\n\
                   7,1000,50.5,3.5,46.0\n";
        let c = counts_from_csv(pct, None).unwrap();
        assert_eq!(
            (c[0].white_wins, c[0].draws, c[0].black_wins),
            (505, 35, 460)
        );
        assert!(counts_from_csv(pct, Some("selfplay")).is_err());
        assert!(counts_from_csv("id,x\n1,2\n", None).is_err());
        assert!(counts_from_csv("id,white_wins,draws,black_wins\n960,1,1,1\n", None).is_err());
        assert!(
            counts_from_csv("id,white_wins,draws,black_wins\n1,1,1,1\n1,1,1,1\n", None).is_err()
        );
        assert!(counts_from_csv("id,white_wins,draws,black_wins\n1,x,1,1\n", None).is_err());
    }

    #[test]
    fn chart_is_svg() {
        let stats = all_stats(
            &[
                PositionCounts {
                    start_id: 0,
                    white_wins: 60,
                    draws: 20,
                    black_wins: 20,
                },
                PositionCounts {
                    start_id: 959,
                    white_wins: 10,
                    draws: 20,
                    black_wins: 30,
                },
            ],
            1,
        );
        let svg = chart_svg(&stats, "test").unwrap();
        assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"));
        assert!(svg.contains("start position ID"));
    }
}
