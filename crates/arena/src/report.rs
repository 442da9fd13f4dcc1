//! The final summary: a table per engine pair as cutechess prints it (plus a ranking for three
//! or more engines), and the `--json` summary for scripts.

use crate::referee::{GameResult, TerminationKind};
use crate::runner::{MatchReport, Played, Standing};
use crate::schedule::Tournament;
use crate::stats::{Elo, Tally};
use chess960_core::{CastlingDialect, Color};
use serde_json::{json, Value};
use std::collections::BTreeMap;

/// `240.8 +/- 230.1`; infinite estimates as `+inf`/`-inf`.
pub fn elo_text(e: &Elo) -> String {
    let diff = e
        .diff
        .map_or_else(|| "inf".to_string(), |d| format!("{d:.1}"));
    let err = e
        .error
        .map_or_else(|| "inf".to_string(), |d| format!("{d:.1}"));
    format!("{diff} +/- {err}")
}

fn elo_of(t: &Tally, e: Option<Elo>) -> String {
    match (e, t.score()) {
        (Some(e), _) if e.diff.is_some() => elo_text(&e),
        (_, Some(p)) if p >= 1.0 => "+inf +/- inf".to_string(),
        (_, Some(p)) if p <= 0.0 => "-inf +/- inf".to_string(),
        _ => "n/a".to_string(),
    }
}

fn wld(t: &Tally) -> String {
    format!(
        "{} - {} - {}  [{:.3}] {}",
        t.wins,
        t.losses,
        t.draws,
        t.score().unwrap_or(0.5),
        t.games()
    )
}

/// Why the loser of a game lost, as a short word, with the engine that lost: for the table's
/// "Losses by fault" line.
fn fault_of(p: &Played) -> Option<(usize, &'static str)> {
    let r = &p.record;
    let loser = match r.result {
        GameResult::WhiteWins => Color::Black,
        GameResult::BlackWins => Color::White,
        _ => return None,
    };
    let idx = if loser == Color::White {
        p.white
    } else {
        p.black
    };
    if r.termination == TerminationKind::TimeForfeit {
        return Some((idx, "time"));
    }
    match &r.fault {
        Some((c, f)) if *c == loser => Some((
            idx,
            match f.kind() {
                "no-reply" => "hang",
                k => k,
            },
        )),
        _ if r.termination == TerminationKind::RulesInfraction => Some((idx, "false-claim")),
        _ => None,
    }
}

/// The summary as text.
pub fn table(report: &MatchReport) -> String {
    let mut out = String::new();
    let finished = report
        .played
        .iter()
        .filter(|p| p.record.result != GameResult::Unknown)
        .count();
    let unfinished = report.played.len() - finished;
    out.push_str(&format!(
        "Chess960 match: {finished} of {} games played in {}, seed {}",
        report.planned,
        crate::pgnout::hms(report.elapsed.as_secs()),
        report.seed
    ));
    if unfinished > 0 {
        out.push_str(&format!(", {unfinished} unfinished"));
    }
    out.push('\n');
    if let Some(why) = &report.stopped {
        out.push_str(&format!("Stopped early: {why}\n"));
    }

    if report.names.len() > 2 {
        out.push('\n');
        out.push_str(&ranking(report));
    }
    for s in &report.standings {
        if s.total.games() == 0 && report.standings.len() > 1 {
            continue;
        }
        out.push('\n');
        out.push_str(&pair_block(report, s));
    }

    let mut faults: BTreeMap<usize, BTreeMap<&'static str, u32>> = BTreeMap::new();
    for p in &report.played {
        if let Some((idx, kind)) = fault_of(p) {
            *faults.entry(idx).or_default().entry(kind).or_default() += 1;
        }
    }
    if !faults.is_empty() {
        out.push('\n');
        out.push_str("Losses by fault:");
        let parts: Vec<String> = faults
            .iter()
            .map(|(idx, kinds)| {
                let k: Vec<String> = kinds.iter().map(|(k, n)| format!("{n} {k}")).collect();
                format!(" {}: {}", report.names[*idx], k.join(", "))
            })
            .collect();
        out.push_str(&parts.join(";"));
        out.push('\n');
    }
    out
}

fn pair_block(report: &MatchReport, s: &Standing) -> String {
    let (a, b) = (&report.names[s.a], &report.names[s.b]);
    let mut out = String::new();
    out.push_str(&format!("Score of {a} vs {b}: {}\n", wld(&s.total)));
    out.push_str(&format!(
        "...      {a} playing White: {}\n",
        wld(&s.a_white)
    ));
    out.push_str(&format!(
        "...      {a} playing Black: {}\n",
        wld(&s.a_black)
    ));
    out.push_str(&format!(
        "...      White vs Black: {}\n",
        wld(&s.white_black)
    ));
    let t = &s.total;
    let los = t
        .los()
        .map_or_else(|| "n/a".to_string(), |l| format!("{:.1} %", l * 100.0));
    let draws = if t.games() > 0 {
        f64::from(t.draws) * 100.0 / f64::from(t.games())
    } else {
        0.0
    };
    out.push_str(&format!(
        "Elo difference: {}, LOS: {los}, DrawRatio: {draws:.1} %\n",
        elo_of(t, t.elo())
    ));
    let p = &s.pairs;
    if p.pairs() > 0 {
        let pair_tally = Tally {
            wins: p.counts[3] + p.counts[4],
            draws: p.counts[2],
            losses: p.counts[0] + p.counts[1],
        };
        out.push_str(&format!(
            "Ptnml(0-2): [{}], WL/DD: {}/{}, pair Elo: {} ({} pairs)\n",
            p.counts
                .iter()
                .map(u32::to_string)
                .collect::<Vec<_>>()
                .join(", "),
            p.wl,
            p.dd,
            elo_of(&pair_tally, p.elo()),
            p.pairs()
        ));
    }
    if let Some(sprt) = &report.sprt {
        if report.standings.len() == 1 {
            let st = sprt.status(&s.total, &s.pairs);
            out.push_str(&format!(
                "SPRT: llr {:.2} ({:.1}%), lbound {:.2}, ubound {:.2} - {} ({} model, elo0 {} \
                 elo1 {} alpha {} beta {})\n",
                st.llr,
                st.llr / st.upper * 100.0,
                st.lower,
                st.upper,
                st.state.describe(),
                st.model,
                sprt.elo0,
                sprt.elo1,
                sprt.alpha,
                sprt.beta
            ));
        }
    }
    out
}

/// Each engine's total against the field.
fn engine_totals(report: &MatchReport) -> Vec<Tally> {
    let mut totals = vec![Tally::default(); report.names.len()];
    for s in &report.standings {
        let t = s.total;
        let add = |into: &mut Tally, t: Tally| {
            into.wins += t.wins;
            into.draws += t.draws;
            into.losses += t.losses;
        };
        add(&mut totals[s.a], t);
        add(&mut totals[s.b], t.flipped());
    }
    totals
}

fn ranking(report: &MatchReport) -> String {
    let totals = engine_totals(report);
    let mut order: Vec<usize> = (0..report.names.len()).collect();
    order.sort_by(|&x, &y| {
        let sx = totals[x].score().unwrap_or(0.0);
        let sy = totals[y].score().unwrap_or(0.0);
        sy.total_cmp(&sx)
    });
    let width = report
        .names
        .iter()
        .map(|n| n.len())
        .max()
        .unwrap_or(4)
        .max(4);
    let kind = match report.tournament {
        Tournament::RoundRobin => "round robin",
        Tournament::Gauntlet => "gauntlet",
    };
    let mut out = format!(
        "Rank {:<width$} {:>16} {:>6} {:>7} {:>6}   ({kind}; Elo against the field)\n",
        "Name", "Elo", "Games", "Score", "Draw"
    );
    for (rank, &i) in order.iter().enumerate() {
        let t = &totals[i];
        let draw = if t.games() > 0 {
            f64::from(t.draws) * 100.0 / f64::from(t.games())
        } else {
            0.0
        };
        out.push_str(&format!(
            "{:>4} {:<width$} {:>16} {:>6} {:>6.1}% {:>5.1}%\n",
            rank + 1,
            report.names[i],
            elo_of(t, t.elo()),
            t.games(),
            t.score().unwrap_or(0.0) * 100.0,
            draw
        ));
    }
    out
}

fn tally_json(t: &Tally) -> Value {
    json!({"wins": t.wins, "draws": t.draws, "losses": t.losses})
}

fn finite(x: Option<f64>) -> Value {
    match x {
        Some(v) if v.is_finite() => json!((v * 100.0).round() / 100.0),
        _ => Value::Null,
    }
}

/// The `--json` summary (one JSON document).
pub fn json(report: &MatchReport) -> Value {
    let totals = engine_totals(report);
    let engines: Vec<Value> = report
        .names
        .iter()
        .zip(&totals)
        .map(|(name, t)| {
            json!({
                "name": name,
                "games": t.games(),
                "wins": t.wins, "draws": t.draws, "losses": t.losses,
                "score": finite(t.score()),
                "elo": finite(t.elo().and_then(|e| e.diff)),
            })
        })
        .collect();
    let pairs: Vec<Value> = report
        .standings
        .iter()
        .map(|s| {
            let t = &s.total;
            let elo = t.elo();
            let pelo = s.pairs.elo();
            let sprt = report.sprt.as_ref().map(|sp| {
                let st = sp.status(&s.total, &s.pairs);
                json!({
                    "elo0": sp.elo0, "elo1": sp.elo1, "alpha": sp.alpha, "beta": sp.beta,
                    "llr": finite(Some(st.llr)), "lower": finite(Some(st.lower)),
                    "upper": finite(Some(st.upper)), "state": st.state.describe(),
                    "model": st.model,
                })
            });
            json!({
                "engine1": report.names[s.a],
                "engine2": report.names[s.b],
                "games": t.games(),
                "wins": t.wins, "draws": t.draws, "losses": t.losses,
                "score": finite(t.score()),
                "draw_ratio": finite((t.games() > 0).then(|| f64::from(t.draws) / f64::from(t.games()))),
                "elo": finite(elo.and_then(|e| e.diff)),
                "elo_error": finite(elo.and_then(|e| e.error)),
                "los": finite(t.los()),
                "engine1_white": tally_json(&s.a_white),
                "engine1_black": tally_json(&s.a_black),
                "white_black": tally_json(&s.white_black),
                "pentanomial": s.pairs.counts,
                "pairs_wl": s.pairs.wl,
                "pairs_dd": s.pairs.dd,
                "pentanomial_elo": finite(pelo.and_then(|e| e.diff)),
                "pentanomial_elo_error": finite(pelo.and_then(|e| e.error)),
                "sprt": sprt,
            })
        })
        .collect();
    let games: Vec<Value> = report
        .played
        .iter()
        .map(|p| {
            let r = &p.record;
            let fault = r.fault.as_ref().map(|(c, f)| {
                let idx = if *c == Color::White { p.white } else { p.black };
                json!({
                    "engine": report.names[idx],
                    "side": if *c == Color::White { "white" } else { "black" },
                    "kind": f.kind(),
                    "detail": f.to_string(),
                })
            });
            json!({
                "number": r.setup.number,
                "round": r.setup.round,
                "white": report.names[p.white],
                "black": report.names[p.black],
                "start_id": r.setup.opening.start_id().map(|i| i.get()),
                "fen": r.setup.opening.start.to_fen(CastlingDialect::XFen),
                "result": r.result.as_str(),
                "termination": r.termination.pgn(),
                "reason": r.reason,
                "plies": r.moves.len(),
                "fault": fault,
            })
        })
        .collect();
    let finished = report
        .played
        .iter()
        .filter(|p| p.record.result != GameResult::Unknown)
        .count();
    json!({
        "planned": report.planned,
        "finished": finished,
        "unfinished": report.played.len() - finished,
        "stopped": report.stopped,
        "seed": report.seed,
        "elapsed_seconds": (report.elapsed.as_secs_f64() * 10.0).round() / 10.0,
        "engines": engines,
        "pairs": pairs,
        "games": games,
        "warnings": report.warnings,
    })
}
