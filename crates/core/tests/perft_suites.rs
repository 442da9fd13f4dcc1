//! Perft against published node counts (see `shared/data/SOURCES.md`).

mod common;

use chess960_core::perft::perft;
use chess960_core::{Position, StartId, Validation};
use common::*;
use std::sync::Mutex;

fn run(cases: &[PerftCase], max_depth: u32, validation: Validation) {
    let failures = Mutex::new(Vec::new());
    parallel(cases, |case| {
        let pos = match Position::from_fen_with(&case.fen, validation) {
            Ok(p) => p,
            Err(e) => {
                failures
                    .lock()
                    .unwrap()
                    .push(format!("{}: {} : {e}", case.name, case.fen));
                return;
            }
        };
        for &(depth, expected) in &case.counts {
            if depth > max_depth {
                continue;
            }
            let got = perft(&pos, depth);
            if got != expected {
                failures.lock().unwrap().push(format!(
                    "{} ({}): depth {depth}: expected {expected}, got {got}",
                    case.name, case.fen
                ));
                break;
            }
        }
    });
    let failures = failures.into_inner().unwrap();
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn chess960_start_positions_by_id() {
    let cases = parse_epd(&read("perft/derived/chess960_startpos_perft_by_id.epd"));
    assert_eq!(cases.len(), 960);
    // The file's IDs must be ours, and its FENs our start positions.
    for case in &cases {
        let id: u32 = case.name.strip_prefix("id ").unwrap().parse().unwrap();
        let ours = StartId::new(id).unwrap().position();
        let theirs = Position::from_fen(&case.fen).unwrap();
        assert_eq!(ours, theirs, "{}", case.name);
    }
    run(&cases, max_depth(), Validation::Strict);
}

#[test]
fn chess960_middlegame_positions() {
    let cases = parse_epd(&read("perft/ethereal/fischer.epd"));
    assert_eq!(cases.len(), 960);
    run(&cases, max_depth(), Validation::Strict);
}

#[test]
fn standard_suite() {
    let cases = parse_epd(&read("perft/ethereal/standard.epd"));
    run(&cases, max_depth(), Validation::Strict);
}

/// Positions the tricky files mark as impossible: strict reading must refuse them with the
/// named error, and lenient reading must reproduce the published counts.
const IMPOSSIBLE: &[(&str, &str)] = &[
    ("asymmetrical-and-king-on-h", "corner file"),
    ("max-legals-too-much-material", "too many white pieces"),
    ("align-ep", "cannot have given or uncovered"),
    ("align-ep-pinned", "cannot have given or uncovered"),
    ("ep-unrelated-check", "cannot have given or uncovered"),
];

fn tricky(file: &str) {
    let cases = parse_perft(&read(file));
    assert!(!cases.is_empty());
    let (bad, good): (Vec<_>, Vec<_>) = cases
        .into_iter()
        .partition(|c| IMPOSSIBLE.iter().any(|(n, _)| *n == c.name));
    for case in &bad {
        let (_, why) = IMPOSSIBLE.iter().find(|(n, _)| *n == case.name).unwrap();
        let err = Position::from_fen(&case.fen).unwrap_err().to_string();
        assert!(
            err.contains(why),
            "{}: error '{err}' should mention '{why}'",
            case.name
        );
    }
    run(&good, max_depth(), Validation::Strict);
    run(&bad, max_depth(), Validation::Lenient);
}

#[test]
fn tricky_python_chess() {
    tricky("perft/python-chess/tricky.perft");
}

#[test]
fn tricky_shakmaty() {
    tricky("perft/shakmaty/tricky.perft");
}

#[test]
fn tricky_scalachess() {
    tricky("perft/scalachess/tricky.perft");
}

#[test]
fn chess960_perft_files_in_perft_format() {
    for file in [
        "perft/python-chess/chess960.perft",
        "perft/shakmaty/chess960.perft",
    ] {
        let cases = parse_perft(&read(file));
        assert_eq!(cases.len(), 960, "{file}");
        // Same positions as fischer.epd: depth 3 here keeps the test quick.
        run(&cases, 3, Validation::Strict);
    }
}

#[test]
fn random_sample() {
    let cases = parse_perft(&read("perft/python-chess/random.perft"));
    assert!(cases.len() > 6000);
    // Every 10th position, to depth 4 (depth 5 with CHESS960_PERFT_DEPTH=6).
    let sample: Vec<PerftCase> = cases.into_iter().step_by(10).collect();
    run(&sample, max_depth() - 1, Validation::Strict);
}
