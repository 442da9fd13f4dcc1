//! Faulty engines: each fault is attributed to the engine that made it, with the reason
//! recorded, and the rest of the match goes on (the engine restarted for its next game).
//! The faults come from `chess960-random-engine`'s switches and the scripts in `engines/`.

mod common;

use chess960_arena::runner::MatchError;
use common::{fake, outcomes, run, script, try_run, words};

/// A match of `Good` against `Bad` (the fake with `bad` switches), with `extra` options. Both
/// engines and the match's start positions are seeded, so that every run plays the same games
/// (unseeded, `Bad` took its process id as its seed, and one whole-suite run saw game 1 end
/// 0-1 where the crash test expects Bad's crash).
fn good_vs_bad(bad: &str, extra: &str) -> Vec<String> {
    let bad_args: String = bad
        .split_whitespace()
        .map(|a| format!(" arg={a}"))
        .collect();
    words(&format!(
        "-engine cmd={f} name=Good arg=--seed arg=1 -engine cmd={f} name=Bad arg=--seed arg=2{bad_args} \
         {extra} -seed 11",
        f = fake()
    ))
}

/// A file for `--once`: the fault happens the first time only.
fn once() -> (tempfile::TempDir, String) {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("fired").display().to_string();
    (dir, f)
}

#[test]
fn crash_mid_game_is_a_loss_and_recover_goes_on() {
    let (_d, f) = once();
    let r = run(good_vs_bad(
        &format!("--crash-after 3 --once {f}"),
        "-each nodes=10 -games 4 -maxmoves 20 -recover",
    ));
    let o = outcomes(&r);
    assert_eq!(o.len(), 4, "{o:?}");
    let (result, reason, who, kind) = &o[0];
    // Game 1: Good is White, so Bad (Black) crashed: 1-0.
    assert_eq!(result, "1-0");
    assert_eq!(who.as_deref(), Some("Bad"));
    assert_eq!(kind.as_deref(), Some("crash"));
    assert!(
        reason.starts_with("Black's engine crashed (exit status 3")
            && reason.contains("crashing on purpose"),
        "{reason}"
    );
    for (_, reason, who, _) in &o[1..] {
        assert!(
            who.is_none(),
            "the restarted engine plays normally: {reason}"
        );
    }
    assert!(r.stopped.is_none());
    assert!(chess960_arena::report::table(&r).contains("Losses by fault: Bad: 1 crash"));
}

#[test]
fn crash_without_recover_stops_the_match_and_keeps_the_summary() {
    let (_d, f) = once();
    let r = run(good_vs_bad(
        &format!("--crash-after 2 --once {f}"),
        "-each nodes=10 -games 4 -maxmoves 20",
    ));
    assert_eq!(r.played.len(), 1);
    let stopped = r.stopped.as_deref().unwrap();
    assert!(
        stopped.contains("engine 'Bad' crashed") && stopped.contains("-recover"),
        "{stopped}"
    );
    assert_eq!(r.standings[0].total.wins, 1);
    let table = chess960_arena::report::table(&r);
    assert!(
        table.contains("Stopped early: engine 'Bad' crashed"),
        "{table}"
    );
}

#[test]
fn hang_with_a_clock_loses_on_time() {
    let (_d, f) = once();
    let r = run(good_vs_bad(
        &format!("--hang-after 2 --once {f}"),
        "-each tc=1+0 -games 2 -maxmoves 15 -recover",
    ));
    let o = outcomes(&r);
    assert_eq!(o[0].0, "1-0");
    assert_eq!(o[0].1, "Black loses on time");
    assert_eq!(o[0].2.as_deref(), Some("Bad"));
    assert_eq!(r.played[0].record.termination.pgn(), "time forfeit");
    assert!(o[1].2.is_none(), "{o:?}");
}

#[test]
fn hang_without_a_clock_is_a_stalled_engine() {
    let (_d, f) = once();
    let r = run(good_vs_bad(
        &format!("--hang-after 1 --once {f}"),
        "-each nodes=10 timeout=0.5 -games 2 -maxmoves 10 -recover",
    ));
    let o = outcomes(&r);
    assert_eq!(
        o[0].1,
        "Black's engine stopped responding (no bestmove within 0.5s)"
    );
    assert_eq!(o[0].3.as_deref(), Some("no-reply"));
    assert_eq!(r.played.len(), 2);
    assert!(o[1].2.is_none());
}

#[test]
fn illegal_move_is_a_rules_infraction_and_the_match_goes_on() {
    let (_d, f) = once();
    // No -recover: an illegal move is not a crash.
    let r = run(good_vs_bad(
        &format!("--illegal-after 2 --once {f}"),
        "-each nodes=10 -games 4 -maxmoves 10",
    ));
    let o = outcomes(&r);
    assert_eq!(o.len(), 4);
    assert_eq!(o[0].0, "1-0");
    assert!(
        o[0].1.starts_with("Black's engine made an illegal move: "),
        "{}",
        o[0].1
    );
    assert_eq!(o[0].3.as_deref(), Some("illegal-move"));
    assert_eq!(r.played[0].record.termination.pgn(), "rules infraction");
    assert!(o[1..].iter().all(|g| g.2.is_none()), "{o:?}");
}

#[test]
fn castling_in_the_wrong_notation_is_an_illegal_move() {
    let dir = tempfile::tempdir().unwrap();
    let epd = dir.path().join("castle.epd");
    // Both sides can castle at once, and no first move can stop Black from castling; the
    // fake prefers castling.
    std::fs::write(&epd, "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq -\n").unwrap();
    let r = run(good_vs_bad(
        "--wrong-castling",
        &format!(
            "-each nodes=10 -games 2 -maxmoves 10 -openings file={}",
            epd.display()
        ),
    ));
    let o = outcomes(&r);
    assert_eq!(
        o[0].1,
        "Black's engine made an illegal move: e8c8 (in Chess960 notation castling is written \
         king onto rook)"
    );
    assert_eq!(
        o[1].1,
        "White's engine made an illegal move: e1c1 (in Chess960 notation castling is written \
         king onto rook)"
    );
    assert!(o.iter().all(|g| g.2.as_deref() == Some("Bad")));
}

#[test]
fn an_engine_without_uci_chess960_is_spoken_to_in_classical_notation() {
    let dir = tempfile::tempdir().unwrap();
    let epd = dir.path().join("castle.epd");
    std::fs::write(&epd, "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq -\n").unwrap();
    // `e1g1` is right for an engine that does not offer UCI_Chess960.
    let r = run(good_vs_bad(
        "--wrong-castling --no960",
        &format!(
            "-each nodes=10 -games 2 -maxmoves 5 -openings file={}",
            epd.display()
        ),
    ));
    let o = outcomes(&r);
    assert!(o.iter().all(|g| g.2.is_none()), "{o:?}");
    assert!(r
        .played
        .iter()
        .all(|p| p.record.moves[..2].iter().any(|m| m.san.starts_with("O-O"))));
    assert!(
        r.warnings.iter().any(|w| w.contains("UCI_Chess960")),
        "{:?}",
        r.warnings
    );
}

#[test]
fn garbage_instead_of_a_move() {
    let (_d, f) = once();
    let r = run(good_vs_bad(
        &format!("--garbage-after 1 --once {f}"),
        "-each nodes=10 -games 2 -maxmoves 10",
    ));
    let o = outcomes(&r);
    assert_eq!(
        o[0].1,
        "Black's engine sent garbage: 'bestmove ~~garbage~~'"
    );
    assert_eq!(o[0].3.as_deref(), Some("garbage"));
    assert!(o[1].2.is_none());
}

#[test]
fn a_slow_engine_loses_on_time() {
    let r = run(good_vs_bad("--slow 300", "-each st=0.1 -games 2"));
    let o = outcomes(&r);
    assert_eq!(o[0].0, "1-0");
    assert_eq!(o[0].1, "Black loses on time");
    assert_eq!(o[1].1, "White loses on time");
}

#[test]
fn xboard_faults_resign_false_claims_and_rejected_moves() {
    let xb = |bad: &str| {
        let (_d, f) = once();
        let r = run(good_vs_bad(
            &format!("--proto xboard {bad} --once {f}"),
            "proto=xboard -each depth=1 -games 2 -maxmoves 10",
        ));
        outcomes(&r)
    };
    let o = xb("--illegal-after 1");
    assert!(
        o[0].1.starts_with("Black's engine made an illegal move"),
        "{o:?}"
    );
    let o = xb("--garbage-after 1");
    assert_eq!(o[0].1, "Black's engine sent garbage: 'move ~~garbage~~'");
    let o = xb("--resign-after 1");
    assert_eq!((o[0].0.as_str(), o[0].1.as_str()), ("1-0", "Black resigns"));
    let o = xb("--claim-after 1");
    assert_eq!(o[0].0, "1-0");
    assert!(
        o[0].1.contains("made a false claim: 0-1 {I say I won}"),
        "{o:?}"
    );
    let o = xb("--reject-after 1");
    assert!(
        o[0].1.starts_with("Black's engine rejected the legal move"),
        "{o:?}"
    );
    assert_eq!(o[0].3.as_deref(), Some("rejected-move"));
    // Every second game is played normally.
    assert!(o[1].2.is_none());
}

#[test]
fn adjudication_by_score_and_move_count() {
    let f = fake();
    let r = run(words(&format!(
        "-engine cmd={f} arg=--score arg=0 arg=--seed arg=1 -engine cmd={f} arg=--score arg=3 \
         arg=--seed arg=2 -each nodes=10 -games 2 -seed 11 -draw movenumber=3 movecount=2 score=5"
    )));
    for (result, reason, _, _) in outcomes(&r) {
        assert_eq!(
            (result.as_str(), reason.as_str()),
            ("1/2-1/2", "adjudication: draw by score")
        );
    }
    assert!(r.played.iter().all(|p| p.record.moves.len() == 6));

    let r = run(words(&format!(
        "-engine cmd={f} name=Up arg=--score arg=800 arg=--seed arg=1 -engine cmd={f} name=Down \
         arg=--score arg=-800 arg=--seed arg=2 -each nodes=10 -games 2 -seed 11 \
         -resign movecount=3 score=500 twosided=true"
    )));
    let o = outcomes(&r);
    assert_eq!(o[0].0, "1-0");
    assert_eq!(
        o[0].1,
        "adjudication: White wins by score (Black at -5.00 or worse for 3 moves)"
    );
    assert_eq!(o[1].0, "0-1");
    assert_eq!(r.standings[0].total.wins, 2);

    let r = run(words(&format!(
        "-engine cmd={f} -engine cmd={f} -each nodes=10 -games 2 -maxmoves 7"
    )));
    for p in &r.played {
        assert!(p.record.moves.len() <= 14);
    }
}

#[test]
fn engines_that_cannot_play_are_reported_before_the_match() {
    let f = fake();
    let err = |line: String| match try_run(words(&line)) {
        Err(MatchError::Engine { engine, fault }) => format!("{engine}: {fault}"),
        other => panic!("expected an engine error, got {other:?}"),
    };
    let e = err(format!(
        "-engine cmd=/nonexistent/engine -engine cmd={f} -each nodes=1"
    ));
    assert!(
        e.contains("could not be started: cannot start '/nonexistent/engine'"),
        "{e}"
    );
    let e = err(format!(
        "-engine cmd=cat -engine cmd={f} -each nodes=1 timeout=0.3"
    ));
    assert!(e.contains("no uciok within 0.3s"), "{e}");
    let e = err(format!(
        "-engine cmd={} -engine cmd={f} -each nodes=1",
        script("dies_at_start.sh")
    ));
    assert!(
        e.contains("exited during the handshake (exit status 1; stderr: dies_at_start: missing network file)"),
        "{e}"
    );
    let e = err(format!(
        "-engine cmd={} proto=xboard depth=1 -engine cmd={f} -each depth=1",
        script("no_fischerandom.sh")
    ));
    assert!(e.contains("do not include fischerandom"), "{e}");
}
