//! The robustness check that the fuzz target `event_doc` (`fuzz/`) and the crate's test of
//! mutated documents (`tests/documents.rs`) both run: any bytes, read as an event's JSON
//! document and as a TRF file, validated, and then put through everything that reads an event.
//!
//! Nothing may panic, whatever the document; on top of that, for every document:
//! - validation gives the same answer for the document and for its own JSON export read back,
//!   and the export reads back as the same event (nothing is lost or invented);
//! - the standings have every player exactly once, places from 1 and in order;
//! - a document that passes validation still passes after a live operation succeeds on it
//!   (pairing the next round, entering its results, drawing a position, a late entry, a
//!   withdrawal): validation accepts what the live operations make.
//!
//! A failed property panics with what failed: that is what a fuzzer looks for.

use crate::event::{BoardResult, DrawSpec, Event, Player, MAX_PLAYERS, MAX_ROUNDS};
use crate::export::{to_json, to_pgn, to_trf};
use crate::import::{build_from_trf, parse_json};
use crate::standings::{crosstable_cell, standings};
use crate::trf;

/// What became of one reading of the input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reading {
    /// It did not read (not UTF-8, not JSON of an event, not a TRF file).
    Unread,
    /// It read, and validation refused it.
    Refused,
    /// It read and passed validation.
    Accepted,
}

/// What [`document`] made of its input, as JSON and as TRF.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// Read as an event's JSON document.
    pub json: Reading,
    /// Read as a TRF file.
    pub trf: Reading,
}

/// The most players of an event that this check pairs (a Swiss pairing of hundreds takes
/// seconds: too slow for a fuzzer's many runs, and the pairing is not what is tested here).
const MAX_PAIRED_HERE: usize = 40;

/// Reads `data` as an event's JSON document and as a TRF file, and exercises every event that
/// reads (module docs: what is checked). Panics when a property fails.
pub fn document(data: &[u8]) -> Outcome {
    let Ok(text) = std::str::from_utf8(data) else {
        return Outcome {
            json: Reading::Unread,
            trf: Reading::Unread,
        };
    };
    let json = match parse_json(text) {
        Ok(e) => event(&e),
        Err(_) => Reading::Unread,
    };
    let trf = match trf::read(text) {
        Ok(f) => {
            // Whatever reads must write and read again without a panic.
            let _ = trf::read(&trf::write(&f));
            for round in 0..=f.rounds_played().min(MAX_ROUNDS as usize) + 1 {
                let _ = f.history(round);
            }
            match build_from_trf(&f) {
                Ok(e) => event(&e),
                Err(_) => Reading::Refused,
            }
        }
        Err(_) => Reading::Unread,
    };
    Outcome { json, trf }
}

/// Exercises one event, checked or not; whether validation accepted it.
pub fn event(e: &Event) -> Reading {
    let verdict = e.validate();
    // The JSON export reads back as the same event, and validation says the same of it.
    let back = parse_json(&to_json(e)).expect("an exported event reads back");
    assert_eq!(&back, e, "the JSON export reads back as the same event");
    assert_eq!(
        back.validate(),
        verdict,
        "validation says the same of the exported event"
    );
    // The limits of a live event, or a damaged document of the same scale: beyond them the
    // standings and exports only cost more (validation refuses such documents, and cheaply).
    if within_limits(e) {
        read_everything(e);
    }
    if verdict.is_err() {
        return Reading::Refused;
    }
    live_operations(e);
    Reading::Accepted
}

fn within_limits(e: &Event) -> bool {
    e.players.len() <= MAX_PLAYERS
        && e.played.len() <= MAX_ROUNDS as usize
        && e.order.len() <= MAX_PLAYERS
        && e.tiebreaks.len() <= 16
        && e.played
            .iter()
            .all(|r| r.boards.len() <= MAX_PLAYERS && r.byes.len() <= MAX_PLAYERS)
}

/// Everything that reads an event: no panic, and the standings are a ranking of the players.
fn read_everything(e: &Event) {
    let n = e.players.len();
    let table = standings(e);
    assert_eq!(table.len(), n, "one line of the standings per player");
    let mut seen = vec![false; n];
    for s in &table {
        assert!(
            !std::mem::replace(&mut seen[s.player], true),
            "player {} twice in the standings",
            s.player
        );
        assert_eq!(s.tiebreaks.len(), e.tiebreaks.len());
    }
    assert!(
        table.first().is_none_or(|s| s.place == 1)
            && table.windows(2).all(|w| w[0].place <= w[1].place),
        "places start at 1 and do not go down"
    );
    let number = |i: usize| e.pairing_number(i).unwrap_or(i.saturating_add(1));
    for s in &table {
        for r in 0..e.played.len() {
            let _ = crosstable_cell(e, r, s.player, &number);
        }
        let _ = e.score(s.player);
    }
    let f = to_trf(e);
    let written = trf::write(&f);
    let _ = trf::read(&written);
    let _ = to_pgn(e, &|_| None);
    let _ = e.pairing_order();
    for (k, r) in e.played.iter().enumerate() {
        for b in 0..=r.boards.len() {
            let _ = e.board_position(k as u32 + 1, b as u32);
            let _ = e.board_time_control(k as u32 + 1, b as u32);
        }
    }
    let _ = e.bracket();
    let _ = e.placings();
    let _ = e.knockout_points();
    let _ = e.knockout_check();
    let _ = e.swiss_history(e.rounds_paired().saturating_add(1));
    let _ = e.verify_draws();
}

/// Live operations on a copy of a checked event: each one that succeeds leaves an event that
/// validation accepts.
fn live_operations(e: &Event) {
    let after = |e: &Event, what: &str| {
        if let Err(x) = e.validate() {
            panic!("validation refuses the event after {what}: {x}");
        }
    };
    let next = e.rounds_paired() + 1;
    let mut d = e.clone();
    if d.draw_position(next, DrawSpec::Computer { seed: 7 }, true)
        .is_ok()
    {
        after(&d, "a draw");
    }
    let mut d = e.clone();
    if d.players.len() <= MAX_PAIRED_HERE && d.pair(next, 7).is_ok() {
        after(&d, "a pairing");
        let boards = d.played[next as usize - 1].boards.len();
        for b in 0..boards {
            let r = BoardResult::ALL[b % BoardResult::ALL.len()];
            if d.set_result(next, b as u32 + 1, Some(r)).is_err() {
                panic!("round {next}, board {}: a result is refused", b + 1);
            }
        }
        after(&d, "the results");
        if boards > 0 && d.unpair(next).is_ok() {
            panic!("a round with results was unpaired");
        }
    }
    // A knockout's tiebreaks: a stage's position, then the stages of its tied matches.
    for round in 1..next {
        let mut d = e.clone();
        let stage = d.played[round as usize - 1].stage_draws.len() as u32 + 1;
        if d.draw_stage_position(round, stage, DrawSpec::Computer { seed: 7 }, false)
            .is_ok()
        {
            after(&d, "a tiebreak position");
        }
        if d.add_tiebreaks(round, 7).is_ok() {
            after(&d, "tiebreak games");
        }
    }
    let mut d = e.clone();
    let late = Player {
        rating: Some(1500),
        ..Player::named("Late entry (check)")
    };
    if d.add_player(late).is_ok() {
        after(&d, "a late entry");
    }
    let mut d = e.clone();
    if !d.players.is_empty() && d.withdraw(0, None).is_ok() {
        after(&d, "a withdrawal");
    }
}
