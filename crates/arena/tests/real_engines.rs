//! Short matches with Debian's engines: `stockfish`, `glaurung`, `ethereal-chess`,
//! `fairy-stockfish` (UCI) and `polyglot` wrapping Stockfish (xboard). A missing engine fails
//! its test with the package to install (`scripts/test.sh` installs them). Node and depth
//! limits keep the games short and the results independent of the machine's speed.
//!
//! Two engine quirks found with these tests decide the limits: Ethereal 12 ignores
//! `go nodes N` (it answers at depth 1), and Glaurung 2.2 now and then answers
//! `bestmove (none)` under `go nodes N` in the middle of a game (start 0, after some 20 moves;
//! the same position sent alone gets a move). Both get `depth=` limits here; the runner scores
//! Glaurung's null move as the illegal move it is.

mod common;

use chess960_arena::referee::GameResult;
use chess960_arena::runner::MatchReport;
use common::{fake, outcomes, require, run, words};

/// Every game finished, and nobody was at fault.
fn clean(r: &MatchReport, games: usize) {
    let o = outcomes(r);
    assert_eq!(o.len(), games, "{o:?}");
    for (result, reason, who, _) in &o {
        assert_ne!(result, "*", "{reason}");
        assert!(who.is_none(), "fault: {reason}");
    }
    assert!(r.stopped.is_none());
}

fn score_of_first(r: &MatchReport) -> f64 {
    r.standings[0].total.score().unwrap()
}

#[test]
fn stockfish_against_glaurung_with_inner_rook_starts() {
    let sf = require("stockfish", "stockfish");
    let gl = require("glaurung", "glaurung");
    let dir = tempfile::tempdir().unwrap();
    let pgn = dir.path().join("sg.pgn");
    // Start 0 is BBQNNRKR: the a-side rook is on f1, where X-FEN's Q would confuse Glaurung;
    // 959 is RKRNNQBB.
    let r = run(words(&format!(
        "-engine cmd={sf} option.Hash=16 option.Threads=1 nodes=4000 -engine cmd={gl} \
         option.Hash=16 depth=6 -games 4 -openings ids=0,959 -pgnout {}",
        pgn.display()
    )));
    clean(&r, 4);
    assert!(r.names[0].starts_with("Stockfish"), "{:?}", r.names);
    assert!(r.names[1].starts_with("Glaurung"), "{:?}", r.names);
    let text = std::fs::read_to_string(&pgn).unwrap();
    let mut reader = chess960_pgn::Reader::new(text.as_bytes());
    let mut n = 0;
    while let Some(g) = reader.read_game().unwrap() {
        g.unwrap();
        n += 1;
    }
    assert_eq!(n, 4);
    // The engines' scores and depths reach the PGN comments.
    assert!(text.contains("/"), "{text}");
}

#[test]
fn ethereal_against_the_random_engine() {
    let eth = require("ethereal-chess", "ethereal-chess");
    let r = run(words(&format!(
        "-engine cmd={eth} option.Hash=16 depth=6 -engine cmd={} name=Random nodes=1 -games 2",
        fake()
    )));
    clean(&r, 2);
    assert!(score_of_first(&r) > 0.5, "{:?}", outcomes(&r));
}

#[test]
fn fairy_stockfish_against_the_random_engine() {
    let fsf = require("fairy-stockfish", "fairy-stockfish");
    let r = run(words(&format!(
        "-engine cmd={fsf} option.Hash=16 -engine cmd={} name=Random -each nodes=3000 -games 2",
        fake()
    )));
    clean(&r, 2);
    assert!(score_of_first(&r) > 0.5, "{:?}", outcomes(&r));
}

/// A polyglot configuration for Stockfish in `dir` (scores from the engine's side, as the
/// xboard protocol has them).
fn polyglot_ini(dir: &std::path::Path, sf: &str) -> String {
    let ini = dir.join("stockfish.ini");
    std::fs::write(
        &ini,
        format!(
            "[PolyGlot]\nEngineCommand = {sf}\nEngineDir = .\nLog = false\nScoreWhite = false\n\
             [Engine]\nHash = 16\nThreads = 1\n"
        ),
    )
    .unwrap();
    ini.display().to_string()
}

#[test]
fn stockfish_through_polyglot_on_the_xboard_side() {
    let pg = require("polyglot", "polyglot");
    let sf = require("stockfish", "stockfish");
    let dir = tempfile::tempdir().unwrap();
    let ini = polyglot_ini(dir.path(), &sf);
    let r = run(words(&format!(
        "-engine cmd={pg} arg={ini} proto=xboard name=SF-polyglot depth=5 \
         -engine cmd={} name=Random nodes=1 -games 2 -seed 3",
        fake()
    )));
    clean(&r, 2);
    assert!(score_of_first(&r) > 0.5, "{:?}", outcomes(&r));
    // The xboard thinking output reaches the comments.
    assert!(r.played[0]
        .record
        .moves
        .iter()
        .any(|m| m.info.depth.is_some()));
}

#[test]
fn castling_mate_in_both_protocols() {
    // Only O-O-O mates: king b1 and rook a1 castle to c1 and d1.
    let pg = require("polyglot", "polyglot");
    let sf = require("stockfish", "stockfish");
    let dir = tempfile::tempdir().unwrap();
    let ini = polyglot_ini(dir.path(), &sf);
    let epd = dir.path().join("mate.epd");
    std::fs::write(&epd, "2rkr3/2p1p3/8/8/8/8/5PPP/RK6 w A -\n").unwrap();
    for engine in [
        format!("cmd={pg} arg={ini} proto=xboard depth=3"),
        format!("cmd={sf} depth=3"),
    ] {
        let r = run(words(&format!(
            "-engine {engine} -engine cmd={} name=Random nodes=1 -games 1 -openings file={}",
            fake(),
            epd.display()
        )));
        let g = &r.played[0].record;
        assert_eq!(g.result, GameResult::WhiteWins, "{engine}: {}", g.reason);
        assert_eq!(g.moves[0].san, "O-O-O#", "{engine}");
        assert_eq!(g.reason, "White mates");
    }
}
