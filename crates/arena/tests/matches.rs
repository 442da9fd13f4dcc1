//! Whole matches with the fake engine: PGN output, schedules, concurrency, SPRT, stopping.

mod common;

use chess960_arena::options::parse_args;
use chess960_arena::referee::GameResult;
use chess960_arena::report;
use chess960_arena::runner::run_match;
use common::{fake, run, words};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

#[test]
fn pgn_output_reads_back_with_every_game_and_reason() {
    let dir = tempfile::tempdir().unwrap();
    let pgn = dir.path().join("games.pgn");
    let f = fake();
    let r = run(words(&format!(
        "-engine cmd={f} name=A -engine cmd={f} name=B arg=--proto arg=xboard proto=xboard \
         -each tc=10+0.1 -games 4 -seed 9 -maxmoves 40 -pgnout {} -event Test",
        pgn.display()
    )));
    let text = std::fs::read_to_string(&pgn).unwrap();
    let mut reader = chess960_pgn::Reader::new(text.as_bytes());
    let mut n = 0;
    while let Some(game) = reader.read_game().unwrap() {
        let game = game.unwrap_or_else(|e| panic!("{e}\n{text}"));
        n += 1;
        assert_eq!(game.tags.get("Event"), Some("Test"));
        assert_eq!(game.tags.get("TimeControl"), Some("10+0.1"));
        assert!(game.start_id().is_some());
        let last = game.moves.nodes.last().unwrap();
        // The per-move comment, then the reason.
        assert!(last.comments[0].ends_with('s'), "{:?}", last.comments);
        assert!(!last.comments[1].is_empty());
        assert!(game.tags.get("Termination").is_some());
    }
    assert_eq!(n, 4);
    assert_eq!(r.played.len(), 4);
    for want in ["[Variant \"Chess960\"]", "[SetUp \"1\"]", "[PlyCount \""] {
        assert!(text.contains(want), "{want}");
    }
    // Game pairs: the same start position with colours reversed.
    let mut by_number: Vec<_> = r.played.iter().collect();
    by_number.sort_by_key(|p| p.record.setup.number);
    assert_eq!(
        by_number[0].record.setup.opening.start,
        by_number[1].record.setup.opening.start
    );
    assert_eq!(by_number[0].white, by_number[1].black);
    assert_eq!(r.standings[0].pairs.pairs(), 2);
}

#[test]
fn the_seed_replays_the_openings() {
    let f = fake();
    let line =
        format!("-engine cmd={f} -engine cmd={f} -each nodes=1 -games 4 -maxmoves 1 -seed 77");
    let ids = |r: &chess960_arena::runner::MatchReport| {
        let mut v: Vec<_> = r
            .played
            .iter()
            .map(|p| (p.record.setup.number, p.record.setup.opening.start_id()))
            .collect();
        v.sort();
        v
    };
    assert_eq!(ids(&run(words(&line))), ids(&run(words(&line))));
    let r = run(words(&format!(
        "-engine cmd={f} -engine cmd={f} -each nodes=1 -games 6 -maxmoves 1 -openings ids=0,959,518"
    )));
    let got: Vec<u16> = ids(&r).iter().map(|(_, id)| id.unwrap().get()).collect();
    assert_eq!(got, vec![0, 0, 959, 959, 518, 518]);
}

#[test]
fn concurrent_round_robin_of_three() {
    let f = fake();
    let r = run(words(&format!(
        "-engine cmd={f} name=A -engine cmd={f} name=B -engine cmd={f} name=C \
         -each nodes=1 -games 2 -rounds 2 -concurrency 2 -maxmoves 30"
    )));
    assert_eq!(r.planned, 12);
    assert_eq!(r.played.len(), 12);
    assert_eq!(r.standings.len(), 3);
    for s in &r.standings {
        assert_eq!(s.total.games(), 4);
        assert_eq!(s.pairs.pairs(), 2);
    }
    let table = report::table(&r);
    assert!(table.contains("Rank Name"), "{table}");
    assert!(table.contains("Score of A vs B"), "{table}");
    assert!(table.contains("Score of B vs C"), "{table}");
    let json = report::json(&r);
    assert_eq!(json["pairs"].as_array().unwrap().len(), 3);
    assert_eq!(json["games"].as_array().unwrap().len(), 12);
    assert_eq!(json["finished"], 12);
}

#[test]
fn gauntlet_plays_the_first_engine_against_the_others() {
    let f = fake();
    let r = run(words(&format!(
        "-engine cmd={f} name=A -engine cmd={f} name=B -engine cmd={f} name=C \
         -each nodes=1 -games 2 -maxmoves 5 -tournament gauntlet"
    )));
    assert_eq!(r.played.len(), 4);
    assert!(r.played.iter().all(|p| p.white == 0 || p.black == 0));
}

#[test]
fn sprt_stops_the_match_when_it_decides() {
    let f = fake();
    // B resigns at once, every game.
    let r = run(words(&format!(
        "-engine cmd={f} name=A -engine cmd={f} name=B arg=--proto arg=xboard \
         arg=--resign-after arg=0 proto=xboard -each depth=1 -games 2 -rounds 200 \
         -sprt elo0=0 elo1=50 alpha=0.05 beta=0.05"
    )));
    assert_eq!(r.stopped.as_deref(), Some("SPRT: H1 accepted"));
    assert!(
        r.played.len() < 400 && r.played.len() >= 2,
        "{}",
        r.played.len()
    );
    assert!(r
        .played
        .iter()
        .all(|p| p.record.result != GameResult::Unknown));
    let json = report::json(&r);
    assert_eq!(json["pairs"][0]["sprt"]["state"], "H1 accepted");
    assert_eq!(json["pairs"][0]["sprt"]["model"], "pentanomial");
}

#[test]
fn stopping_abandons_the_game_in_progress_and_keeps_the_rest() {
    let dir = tempfile::tempdir().unwrap();
    let pgn = dir.path().join("stopped.pgn");
    let f = fake();
    let mut parsed = parse_args(
        &words(&format!(
            "-engine cmd={f} arg=--slow arg=40 -engine cmd={f} arg=--slow arg=40 -each st=1 \
             -games 10 -maxmoves 4 -pgnout {}",
            pgn.display()
        )),
        1,
    )
    .unwrap();
    parsed.config.quiet = true;
    let stop = Arc::new(AtomicBool::new(false));
    let flag = Arc::clone(&stop);
    let written = pgn.clone();
    let stopper = std::thread::spawn(move || {
        // Stop once the first game is in the PGN file (each takes about 8 × 40 ms), whatever
        // the machine's load: the next game is then in progress.
        let deadline = std::time::Instant::now() + Duration::from_secs(60);
        while std::time::Instant::now() < deadline {
            let games =
                std::fs::read_to_string(&written).map_or(0, |t| t.matches("[Event ").count());
            if games >= 1 {
                break;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        std::thread::sleep(Duration::from_millis(100));
        flag.store(true, Ordering::SeqCst);
    });
    let r = run_match(&parsed.config, stop).unwrap();
    stopper.join().unwrap();
    assert_eq!(r.stopped.as_deref(), Some("interrupted"));
    let unfinished = r
        .played
        .iter()
        .filter(|p| p.record.result == GameResult::Unknown)
        .count();
    assert_eq!(unfinished, 1, "the game in progress is abandoned");
    assert!(r.played.len() >= 2 && r.played.len() < 10);
    let text = std::fs::read_to_string(&pgn).unwrap();
    assert_eq!(text.matches("[Event ").count(), r.played.len());
    assert!(text.contains("[Result \"*\"]") && text.contains("[Termination \"unterminated\"]"));
    assert!(report::table(&r).contains("Stopped early: interrupted"));
}

#[test]
fn openings_from_a_pgn_file_with_book_moves() {
    let dir = tempfile::tempdir().unwrap();
    let book = dir.path().join("book.pgn");
    std::fs::write(
        &book,
        "[Variant \"Chess960\"]\n[FEN \"bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1\"]\n\n\
         1. e4 e5 2. Nd3 *\n",
    )
    .unwrap();
    let f = fake();
    let r = run(words(&format!(
        "-engine cmd={f} -engine cmd={f} -each nodes=1 -games 2 -maxmoves 4 -openings file={} plies=2",
        book.display()
    )));
    for p in &r.played {
        let m = &p.record.moves;
        assert!(
            m[0].book && m[1].book && !m[2].book,
            "{:?}",
            m.iter().map(|m| m.book).collect::<Vec<_>>()
        );
        assert_eq!((m[0].san.as_str(), m[1].san.as_str()), ("e4", "e5"));
        assert_eq!(p.record.setup.opening.start_id().unwrap().get(), 0);
    }
}
