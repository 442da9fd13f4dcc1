//! Rating levels: the node budget per move that `UCI_LimitStrength` with `UCI_Elo` (and the
//! Elo levels of the server and `chess960 play`) search with, from a table of measured points.
//!
//! Each point is a node budget and the strength it showed in Chess960 at 10s+0.1s against
//! Stockfish 15.1 limited by its own `UCI_Elo` (docs/strength.md, "Calibration of
//! `UCI_Elo`"). The levels search with the hand-crafted evaluation, on which the table was
//! measured: the net at one node is already far above a beginner.

/// One measured point of the scale: `elo` is what `nodes` per move showed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Calibration {
    /// Strength on the scale of Stockfish's `UCI_Elo`, rounded to 10.
    pub elo: u32,
    /// Nodes per move.
    pub nodes: u64,
}

const fn point(elo: u32, nodes: u64) -> Calibration {
    Calibration { elo, nodes }
}

/// The calibration of `UCI_Elo`, weakest first. One node means a complete 1-ply search and
/// nothing more (the node limit waits for depth 1). Between two points the node count grows
/// geometrically.
pub const ELO_CALIBRATION: [Calibration; 6] = [
    point(1160, 1),
    point(1170, 200),
    point(1450, 1_024),
    point(1790, 10_000),
    point(1990, 100_000),
    point(2100, 300_000),
];

/// Lowest `UCI_Elo` accepted. The weakest point of the table measured 1110 when it was first
/// measured and 1175 ± 81 now (nearly the same one-node search); settings and requests that
/// were valid then stay valid, and a level below the weakest point plays as that point.
pub const ELO_MIN: u32 = 1110;
/// Highest `UCI_Elo`: the largest calibrated budget (the unlimited engine is stronger still).
pub const ELO_MAX: u32 = ELO_CALIBRATION[ELO_CALIBRATION.len() - 1].elo;

/// Nodes per move at a given `UCI_Elo` (clamped to the table's range), interpolated in
/// [`ELO_CALIBRATION`].
pub fn nodes_for_elo(elo: u32) -> u64 {
    let elo = elo.clamp(ELO_CALIBRATION[0].elo, ELO_MAX);
    let upper = ELO_CALIBRATION
        .iter()
        .position(|p| p.elo >= elo)
        .unwrap_or(ELO_CALIBRATION.len() - 1)
        .max(1);
    let (p0, p1) = (ELO_CALIBRATION[upper - 1], ELO_CALIBRATION[upper]);
    let t = (elo - p0.elo) as f64 / (p1.elo - p0.elo) as f64;
    let (l0, l1) = ((p0.nodes as f64).ln(), (p1.nodes as f64).ln());
    (l0 + t * (l1 - l0)).exp().round() as u64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_mapping_goes_through_the_calibration_points() {
        for p in &ELO_CALIBRATION {
            assert_eq!(nodes_for_elo(p.elo), p.nodes, "UCI_Elo {}", p.elo);
        }
        // Below the weakest point (from the accepted minimum on) the weakest point's budget.
        assert!(ELO_MIN <= ELO_CALIBRATION[0].elo);
        for elo in [0, ELO_MIN, ELO_CALIBRATION[0].elo - 1] {
            assert_eq!(nodes_for_elo(elo), ELO_CALIBRATION[0].nodes);
        }
        assert_eq!(nodes_for_elo(u32::MAX), nodes_for_elo(ELO_MAX));
        // More Elo never means fewer nodes, and a level in the middle of two points is their
        // geometric mean.
        assert!(ELO_CALIBRATION
            .windows(2)
            .all(|w| w[0].elo < w[1].elo && w[0].nodes < w[1].nodes));
        let all: Vec<u64> = (ELO_MIN..=ELO_MAX).map(nodes_for_elo).collect();
        assert!(all.windows(2).all(|w| w[0] <= w[1]));
        for w in ELO_CALIBRATION.windows(2) {
            let mid = nodes_for_elo((w[0].elo + w[1].elo) / 2) as f64;
            let geo = ((w[0].nodes * w[1].nodes) as f64).sqrt();
            assert!(
                (mid / geo - 1.0).abs() < 0.02,
                "{mid} between {:?} and {:?}",
                w[0],
                w[1]
            );
        }
    }

    #[test]
    fn the_documented_calibration_is_the_one_in_force() {
        // docs/strength.md holds the measured table; the code must use the same points.
        let doc = include_str!("../../../docs/strength.md");
        let table: Vec<Calibration> = doc
            .split("<!-- UCI_Elo calibration table -->")
            .nth(1)
            .expect("the calibration table marker in docs/strength.md")
            .lines()
            .skip_while(|l| !l.starts_with('|'))
            .take_while(|l| l.starts_with('|'))
            .skip(2)
            .map(|row| {
                let cells: Vec<String> = row
                    .split('|')
                    .map(|c| c.trim().replace([',', '`', '*'], ""))
                    .collect();
                point(cells[1].parse().unwrap(), cells[2].parse().unwrap())
            })
            .collect();
        assert_eq!(table, ELO_CALIBRATION.to_vec());
    }
}
