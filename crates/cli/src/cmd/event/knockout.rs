//! `chess960 event` for knockouts: the plan from `new`'s flags, the bracket of `show`, the
//! round's matches of `pair` and `sheet`, and `tiebreaks`. The rules are `chess960-events`'s
//! (`knockout`): this only reads the bracket it computes and says it in words.

use super::{entropy, ev_err, load, name_of, save, Db, NewArgs, TiebreaksArgs};
use crate::cmd::json_line;
use crate::error::{quote, CliError, CliResult};
use chess960_core::StartId;
use chess960_events::event::{BoardResult, Event, EventRound};
use chess960_events::knockout::{
    KnockoutPlan, MatchState, MatchView, Seeding, Stage, StageKind, StageScore,
};
use serde_json::json;
use std::fmt::Write as _;

/// The plan from `new`'s flags: the default plan, `--games`, `--seeding`, then `--tiebreak`
/// (replacing the default stages, in order) or `--no-tiebreaks` (none).
pub(super) fn plan_from_args(a: &NewArgs) -> CliResult<KnockoutPlan> {
    let mut plan = KnockoutPlan::default();
    if let Some(g) = a.games {
        plan.games = g;
    }
    if let Some(s) = &a.seeding {
        plan.seeding = match s.trim().to_ascii_lowercase().as_str() {
            "rating" => Seeding::Rating,
            "lot" => Seeding::Lot,
            other => {
                return Err(CliError::new(format!(
                    "--seeding: {} (rating or lot)",
                    quote(other)
                )))
            }
        };
    }
    if a.no_tiebreaks {
        plan.tiebreaks.clear();
    } else if !a.tiebreak.is_empty() {
        plan.tiebreaks = a
            .tiebreak
            .iter()
            .map(|s| {
                Stage::parse(s).map_err(|e| CliError::new(format!("--tiebreak {}", quote(&e))))
            })
            .collect::<CliResult<_>>()?;
    }
    plan.check()
        .map_err(|e| CliError::new(format!("--knockout: {e}")))?;
    Ok(plan)
}

/// The flags `new` refuses with `--knockout`, and those that need it.
pub(super) fn check_new_flags(a: &NewArgs) -> CliResult<()> {
    if !a.knockout {
        if a.games.is_some() || a.seeding.is_some() || !a.tiebreak.is_empty() || a.no_tiebreaks {
            return Err(CliError::new(
                "--games, --seeding, --tiebreak and --no-tiebreaks set a knockout: add --knockout",
            ));
        }
        return Ok(());
    }
    let refused = [
        (a.swiss, "--swiss"),
        (a.round_robin, "--round-robin"),
        (a.double, "--double"),
        (a.second_cycle_repeats, "--second-cycle-repeats"),
    ];
    if let Some((_, flag)) = refused.iter().find(|(on, _)| *on) {
        return Err(CliError::new(format!(
            "--knockout and {flag} are two formats: choose one"
        )));
    }
    if a.rounds.is_some() {
        return Err(CliError::new(
            "a knockout's rounds follow from its players (8 players: 3 rounds): leave out --rounds",
        ));
    }
    if a.accelerated.is_some() {
        return Err(CliError::new(
            "--accelerated is a Swiss's: a knockout is seeded (--seeding rating or lot)",
        ));
    }
    if a.per_board {
        return Err(CliError::new(
            "--per-board: a knockout's match plays one position, colours swapped, so both players have it with each colour",
        ));
    }
    if a.tiebreaks.is_some() {
        return Err(CliError::new(
            "--tiebreaks are a Swiss's and a round robin's standings: a knockout's ties are broken by games, set with --tiebreak KIND:GAMES:TIME",
        ));
    }
    if !a.tiebreak.is_empty() && a.no_tiebreaks {
        return Err(CliError::new("--tiebreak and --no-tiebreaks: choose one"));
    }
    Ok(())
}

/// Points in tenths as a chess score: `1½`, `½`, `0`.
fn score(tenths: u32) -> String {
    let whole = tenths / 10;
    let half = tenths % 10 >= 5;
    match (whole, half) {
        (0, true) => "½".into(),
        (w, true) => format!("{w}½"),
        (w, false) => w.to_string(),
    }
}

/// A player with his seed: `Carlsen, Magnus (1)`.
fn seeded(e: &Event, i: usize) -> String {
    match e.pairing_number(i) {
        Some(s) => format!("{} ({s})", name_of(e, i)),
        None => name_of(e, i),
    }
}

/// A stage's name for the scores: none for the regular games, `rapid`, `blitz`,
/// `Armageddon`, `more games`; a repeat of the last stage says its number.
fn stage_label(plan: &KnockoutPlan, stage: u32) -> String {
    if stage == 0 {
        return "regular games".into();
    }
    let base = match plan.stage(stage, "").0 {
        Some(StageKind::Rapid) => "rapid",
        Some(StageKind::Blitz) => "blitz",
        Some(StageKind::Armageddon) => "Armageddon",
        Some(StageKind::Games) => "more games",
        None => "more regular games",
    };
    if stage as usize > plan.tiebreaks.len() {
        format!("{base} (stage {stage})")
    } else {
        base.to_string()
    }
}

/// A stage as the plan has it, for the lists: `stage 1: 2 rapid games (10+5)`.
fn stage_text(e: &Event, plan: &KnockoutPlan, stage: u32) -> String {
    let (_, games, tc) = plan.stage(stage, &e.time_control);
    match plan.tiebreaks.get(
        (stage as usize)
            .saturating_sub(1)
            .min(plan.tiebreaks.len().saturating_sub(1)),
    ) {
        Some(s) if stage > 0 => format!("tiebreak stage {stage}: {s}"),
        _ => format!(
            "stage {stage}: {games} more game{}{}",
            if games == 1 { "" } else { "s" },
            if tc.is_empty() {
                String::new()
            } else {
                format!(" ({tc})")
            }
        ),
    }
}

/// The scores of a match's stages: `1–1, rapid 1½–½`.
fn stage_scores(e: &Event, plan: &KnockoutPlan, round: u32, stages: &[StageScore]) -> String {
    let rd = e.played.get(round.saturating_sub(1) as usize);
    let has_result = |b: u32| {
        rd.and_then(|r| r.boards.get(b.saturating_sub(1) as usize))
            .is_some_and(|b| b.result.is_some())
    };
    stages
        .iter()
        // A stage none of whose games has a result yet has no score to show.
        .filter(|s| s.boards.iter().any(|&b| has_result(b)))
        .map(|s| {
            let label = if s.stage == 0 {
                String::new()
            } else {
                format!("{} ", stage_label(plan, s.stage))
            };
            let mut t = format!("{label}{}–{}", score(s.points.0), score(s.points.1));
            let drawn_armageddon = s.kind == Some(StageKind::Armageddon)
                && s.boards.iter().any(|&b| {
                    rd.and_then(|r| r.boards.get(b.saturating_sub(1) as usize))
                        .is_some_and(|b| b.result == Some(BoardResult::Draw))
                });
            if drawn_armageddon {
                t += " (drawn: Black wins)";
            }
            t
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// One match in words: `Match 1: Carlsen (1) – Nakamura (8)  1–1, rapid 1½–½: Carlsen goes
/// through`.
fn match_line(e: &Event, plan: &KnockoutPlan, round: u32, m: &MatchView) -> String {
    let side = |p: Option<usize>, feeder: u32| match p {
        Some(i) => seeded(e, i),
        None => format!("the winner of round {} match {feeder}", round - 1),
    };
    let head = format!("Match {}: ", m.number);
    match &m.state {
        MatchState::Bye { winner } => {
            format!("{head}{} has a bye and goes through", seeded(e, *winner))
        }
        MatchState::Waiting => format!(
            "{head}{} – {}",
            side(m.first, 2 * m.number - 1),
            side(m.second, 2 * m.number)
        ),
        state => {
            let (a, b) = (
                m.first.map_or("?".into(), |i| seeded(e, i)),
                m.second.map_or("?".into(), |i| seeded(e, i)),
            );
            let scores = stage_scores(e, plan, round, &m.stages);
            let tail = match state {
                MatchState::Unpaired => "not paired yet".to_string(),
                MatchState::Playing { stage } if *stage == 0 => "playing".into(),
                MatchState::Playing { stage } => {
                    format!("playing {}", stage_label(plan, *stage))
                }
                MatchState::Tied { next_stage } => format!(
                    "tied; next {} (chess960 event tiebreaks EVENT --round {round})",
                    stage_text(e, plan, *next_stage)
                ),
                MatchState::Won { winner, stage, .. } => {
                    let after = if *stage == 0 {
                        String::new()
                    } else {
                        format!(" after the {} tiebreak", stage_label(plan, *stage))
                    };
                    format!("{} goes through{after}", name_of(e, *winner))
                }
                MatchState::Bye { .. } | MatchState::Waiting => String::new(),
            };
            if scores.is_empty() {
                format!("{head}{a} – {b}  {tail}")
            } else {
                format!("{head}{a} – {b}  {scores}: {tail}")
            }
        }
    }
}

/// A round's positions: the regular games' and each tiebreak stage's drawn so far.
fn positions_line(r: &EventRound) -> String {
    let mut parts = vec![match &r.draw {
        Some(d) => format!("position {}", d.id),
        None => "position not drawn".into(),
    }];
    for (k, d) in r.stage_draws.iter().enumerate() {
        parts.push(format!("tiebreak stage {} position {}", k + 1, d.id));
    }
    parts.join(", ")
}

/// `event show`'s bracket: every round's matches, the champion and the places.
pub(super) fn bracket_text(e: &Event) -> String {
    let Some(plan) = e.knockout_plan() else {
        return String::new();
    };
    let br = e.bracket();
    let mut out = String::new();
    if br.is_empty() {
        let _ = writeln!(
            out,
            "\nBracket: drawn when round 1 is paired ({} players, {} rounds)",
            e.players.len(),
            e.total_rounds()
        );
        return out;
    }
    if !e.order_note.is_empty() {
        let _ = writeln!(
            out,
            "\nBracket (seeds {}):",
            e.order_note.trim_start_matches("seeded ")
        );
    } else {
        out += "\nBracket:\n";
    }
    for (k, ms) in br.iter().enumerate() {
        let round = k as u32 + 1;
        let name = round_name(br.len(), k);
        let r = e.played.get(k).filter(|r| r.paired);
        let _ = writeln!(
            out,
            "Round {round} ({name}){}",
            r.map_or(String::new(), |r| format!(": {}", positions_line(r)))
        );
        for m in ms {
            let _ = writeln!(out, "  {}", match_line(e, plan, round, m));
        }
    }
    match e.champion() {
        Some(c) => {
            let _ = writeln!(out, "Champion: {}", name_of(e, c));
        }
        None => out += "Champion: not decided yet\n",
    }
    out += &placings_text(e);
    out
}

/// `Final`, `Semi-finals`, `Quarter-finals`, else `round of N`.
fn round_name(total: usize, k: usize) -> String {
    match total - k {
        1 => "final".into(),
        2 => "semi-finals".into(),
        3 => "quarter-finals".into(),
        left => format!("round of {}", 1usize << left.min(20)),
    }
}

fn place(lo: u32, hi: u32) -> String {
    if lo == hi {
        lo.to_string()
    } else {
        format!("{lo}–{hi}")
    }
}

/// The places as the bracket has them so far.
pub(super) fn placings_text(e: &Event) -> String {
    let mut out = String::from("Places:\n");
    // A field that is not a power of two has fewer players than its bracket has lines: the
    // places end at the last player.
    let n = u32::try_from(e.players.len()).unwrap_or(u32::MAX);
    for (i, lo, hi) in e.placings() {
        let hi = hi.min(n).max(lo);
        let _ = writeln!(out, "  {:>7}  {}", place(lo, hi), seeded(e, i));
    }
    out
}

fn player_json(e: &Event, i: usize) -> serde_json::Value {
    json!({"player": i.saturating_add(1), "name": name_of(e, i), "seed": e.pairing_number(i)})
}

/// `show --json`'s `knockout`: the plan in words, the bracket with player numbers (from 1),
/// the champion and the places.
pub(super) fn knockout_json(e: &Event) -> Option<serde_json::Value> {
    let plan = e.knockout_plan()?;
    let br = e.bracket();
    let rounds: Vec<_> = br
        .iter()
        .enumerate()
        .map(|(k, ms)| {
            let r = e.played.get(k);
            json!({
                "round": k + 1,
                "position": r.and_then(|r| r.draw.as_ref()).map(|d| d.id),
                "stage_positions": r.map(|r| r.stage_draws.iter().map(|d| d.id).collect::<Vec<_>>()).unwrap_or_default(),
                "matches": ms.iter().map(|m| {
                    let (state, winner, loser, stage) = match m.state {
                        MatchState::Waiting => ("waiting", None, None, None),
                        MatchState::Bye { winner } => ("bye", Some(winner), None, None),
                        MatchState::Unpaired => ("unpaired", None, None, None),
                        MatchState::Playing { stage } => ("playing", None, None, Some(stage)),
                        MatchState::Tied { next_stage } => ("tied", None, None, Some(next_stage)),
                        MatchState::Won { winner, loser, stage } => ("won", Some(winner), Some(loser), Some(stage)),
                    };
                    json!({
                        "match": m.number,
                        "first": m.first.map(|i| player_json(e, i)),
                        "second": m.second.map(|i| player_json(e, i)),
                        "state": state,
                        "stage": stage,
                        "winner": winner.map(|i| player_json(e, i)),
                        "loser": loser.map(|i| player_json(e, i)),
                        "stages": m.stages.iter().map(|s| json!({
                            "stage": s.stage,
                            "kind": s.kind.map(StageKind::name),
                            "boards": s.boards,
                            "points": [s.points.0 as f64 / 10.0, s.points.1 as f64 / 10.0],
                            "complete": s.complete,
                        })).collect::<Vec<_>>(),
                    })
                }).collect::<Vec<_>>(),
            })
        })
        .collect();
    Some(json!({
        "plan": plan.describe(),
        "rounds": rounds,
        "champion": e.champion().map(|i| player_json(e, i)),
        "placings": e.placings().iter().map(|&(i, lo, hi)| json!({
            "player": i + 1, "name": name_of(e, i), "first": lo,
            "last": hi.min(u32::try_from(e.players.len()).unwrap_or(u32::MAX)).max(lo),
        })).collect::<Vec<_>>(),
    }))
}

fn position_text(id: u16) -> String {
    match StartId::new(id as u32) {
        Ok(s) => format!("{id} {}", s.back_rank()),
        Err(_) => format!("{id} (not one of 0..959)"),
    }
}

/// A knockout round's pairing list (and result sheet): its matches, each with its boards by
/// stage, each stage with its position and time control; the byes.
pub(super) fn round_sheet(e: &Event, round: u32, results: bool) -> String {
    let Some(plan) = e.knockout_plan() else {
        return String::new();
    };
    let empty = EventRound::default();
    let r: &EventRound = round
        .checked_sub(1)
        .and_then(|k| e.played.get(k as usize))
        .unwrap_or(&empty);
    let br = e.bracket();
    let total = br.len();
    let mut out = format!("{} — round {round}", e.name);
    if (1..=total).contains(&(round as usize)) {
        out += &format!(" ({})", round_name(total, round as usize - 1));
    }
    if !e.time_control.is_empty() {
        out += &format!(" — {}", e.time_control);
    }
    out.push('\n');
    match &r.draw {
        Some(d) => out += &super::start_line(d.id),
        None => out += "Start position: not drawn yet (chess960 event draw)\n",
    }
    let Some(matches) = br.get(round.saturating_sub(1) as usize) else {
        return out;
    };
    for m in matches {
        out.push('\n');
        let _ = writeln!(out, "{}", match_line(e, plan, round, m));
        for s in &m.stages {
            let (_, _, tc) = plan.stage(s.stage, &e.time_control);
            let pos = if s.stage == 0 {
                String::new()
            } else {
                match r.stage_draws.get(s.stage as usize - 1) {
                    Some(d) => format!(", position {}", position_text(d.id)),
                    None => format!(
                        ", position not drawn yet (chess960 event draw EVENT --round {round} --stage {})",
                        s.stage
                    ),
                }
            };
            let _ = writeln!(
                out,
                "  {}{}{pos}",
                if s.stage == 0 {
                    format!(
                        "{} game{}",
                        s.boards.len(),
                        if s.boards.len() == 1 { "" } else { "s" }
                    )
                } else {
                    stage_text(e, plan, s.stage)
                },
                if tc.is_empty() || s.stage > 0 {
                    String::new()
                } else {
                    format!(" ({tc})")
                },
            );
            for &bn in &s.boards {
                let Some(b) = r.boards.get(bn as usize - 1) else {
                    continue;
                };
                let res = match b.result {
                    Some(x) => x.text().to_string(),
                    None if results => "______".into(),
                    None => String::new(),
                };
                let line = format!(
                    "    board {bn:>3}  {:<32} – {:<32} {res}",
                    seeded(e, b.white),
                    seeded(e, b.black)
                );
                let _ = writeln!(out, "{}", line.trim_end());
            }
        }
    }
    out
}

/// `chess960 event tiebreaks`: the next stage for every tied match of the round.
pub(super) fn tiebreaks(store: &Db, a: &TiebreaksArgs) -> CliResult<String> {
    let mut s = load(store, &a.event)?;
    if s.event.knockout_plan().is_none() {
        return Err(CliError::new(format!(
            "event {} is not a knockout: tiebreak stages are a knockout's",
            s.id
        )));
    }
    let round = a.round.unwrap_or(s.event.rounds_paired());
    let added = s
        .event
        .add_tiebreaks(round, a.seed.unwrap_or_else(entropy))
        .map_err(ev_err)?;
    save(store, &s)?;
    let e = &s.event;
    let plan = e.knockout_plan().expect("a knockout, checked above");
    let br = e.bracket();
    let r = &e.played[round as usize - 1];
    let ms: Vec<&MatchView> = br
        .get(round as usize - 1)
        .into_iter()
        .flatten()
        .filter(|m| added.contains(&m.number))
        .collect();
    if a.json {
        let v: Vec<_> = ms
            .iter()
            .filter_map(|m| {
                let st = m.stages.last()?;
                Some(json!({
                    "match": m.number,
                    "stage": st.stage,
                    "kind": st.kind.map(StageKind::name),
                    "boards": st.boards,
                    "position": r.stage_draws.get(st.stage as usize - 1).map(|d| d.id),
                    "time_control": plan.stage(st.stage, &e.time_control).2,
                }))
            })
            .collect();
        return json_line(&json!({"round": round, "added": v}));
    }
    let mut out = String::new();
    let mut undrawn = Vec::new();
    for m in ms {
        let Some(st) = m.stages.last() else { continue };
        let boards: Vec<String> = st
            .boards
            .iter()
            .filter_map(|&bn| {
                let b = r.boards.get(bn as usize - 1)?;
                Some(format!(
                    "board {bn} {} – {}",
                    name_of(e, b.white),
                    name_of(e, b.black)
                ))
            })
            .collect();
        let pos = match r.stage_draws.get(st.stage as usize - 1) {
            Some(d) => format!("position {}", position_text(d.id)),
            None => {
                undrawn.push(st.stage);
                "position not drawn yet".into()
            }
        };
        let _ = writeln!(
            out,
            "round {round} match {}: {} – {}: {}, {pos}\n  {}",
            m.number,
            m.first.map_or("?".into(), |i| seeded(e, i)),
            m.second.map_or("?".into(), |i| seeded(e, i)),
            stage_text(e, plan, st.stage),
            boards.join("; ")
        );
    }
    undrawn.sort_unstable();
    undrawn.dedup();
    for st in undrawn {
        let _ = writeln!(
            out,
            "next: draw the position of tiebreak stage {st}: chess960 event draw {} --round {round} --stage {st}",
            s.id
        );
    }
    Ok(out)
}

/// After results: the matches of the round whose boards were given, where they stand now.
pub(super) fn after_results(e: &Event, round: u32, boards: &[u32]) -> String {
    let Some(plan) = e.knockout_plan() else {
        return String::new();
    };
    let br = e.bracket();
    let mut out = String::new();
    let r = e.played.get(round.saturating_sub(1) as usize);
    let mut seen = Vec::new();
    for &bn in boards {
        let Some(slot) = r
            .and_then(|r| r.boards.get(bn.saturating_sub(1) as usize))
            .and_then(|b| b.slot)
        else {
            continue;
        };
        if seen.contains(&slot.match_no) {
            continue;
        }
        seen.push(slot.match_no);
        if let Some(m) = br
            .get(round.saturating_sub(1) as usize)
            .and_then(|ms| ms.iter().find(|m| m.number == slot.match_no))
        {
            let _ = writeln!(out, "{}", match_line(e, plan, round, m));
        }
    }
    if let Some(c) = e.champion() {
        let _ = writeln!(out, "{} wins {}", name_of(e, c), e.name);
    }
    out
}
