//! How a time control is written for people, in lichess's forms: minutes + seconds of
//! increment (`3+2`, `1+0`, `½+0`, `1.5+0`), and a start that is no whole quarter of a minute in
//! seconds (`12s+0`). The web UI's `web/src/timeControl.ts` writes the same forms; the PGN
//! `TimeControl` tag keeps its own form, seconds ([`TimeControl::to_pgn`]).

use crate::record::TimeControl;

impl TimeControl {
    /// `3+2`, `½+0`, `1.5+0`, `12s+0`, `0.5s+1.5`.
    pub fn label(self) -> String {
        let ms = self.initial_ms;
        let initial = if ms % 60_000 == 0 {
            (ms / 60_000).to_string()
        } else if ms % 15_000 == 0 {
            match ms / 15_000 {
                1 => "¼".to_string(),
                2 => "½".to_string(),
                3 => "¾".to_string(),
                q => decimal(q * 250, 1000),
            }
        } else {
            format!("{}s", decimal(ms, 1000))
        };
        format!("{initial}+{}", decimal(self.increment_ms, 1000))
    }
}

/// `n / d` (d a power of ten) with no trailing zeros: `1500 / 1000` is `1.5`.
fn decimal(n: u64, d: u64) -> String {
    let whole = n / d;
    let frac = n % d;
    if frac == 0 {
        return whole.to_string();
    }
    let width = d.ilog10() as usize;
    let digits = format!("{frac:0width$}");
    format!("{whole}.{}", digits.trim_end_matches('0'))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_in_lichess_forms() {
        let cases = [
            (180_000, 2_000, "3+2"),
            (60_000, 0, "1+0"),
            (12_000, 0, "12s+0"),
            (30_000, 0, "½+0"),
            (15_000, 1_000, "¼+1"),
            (45_000, 0, "¾+0"),
            (90_000, 0, "1.5+0"),
            (135_000, 0, "2.25+0"),
            (100_000, 0, "100s+0"),
            (500, 1_500, "0.5s+1.5"),
            (5_400_000, 30_000, "90+30"),
        ];
        for (initial_ms, increment_ms, want) in cases {
            let tc = TimeControl {
                initial_ms,
                increment_ms,
            };
            assert_eq!(tc.label(), want, "{initial_ms}+{increment_ms}");
        }
    }
}
