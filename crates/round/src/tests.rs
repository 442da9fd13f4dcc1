//! The referee's rules, one by one, on a clock moved by hand.

use crate::record::TimeControl;
use crate::{Command, Event, ForceResult, MoveInput, Phase, Player, Round, RoundError};
use chess960_core::{Color, Game, GameResult, StartId};
use chess960_store::{Clocks, Finish};
use std::time::{Duration, Instant};

const TC: TimeControl = TimeControl {
    initial_ms: 60_000,
    increment_ms: 1_000,
};

/// A timed game between people from the classical start, in `phase`, not begun.
fn unbegun(phase: Phase) -> Round {
    let game = Game::chess960(StartId::new(518).unwrap());
    Round::new(game, Vec::new(), Some(TC), [Player::Human; 2], phase)
}

/// A timed game between people from the classical start, begun at `t0`.
fn people(t0: Instant) -> Round {
    let mut r = unbegun(Phase::Playing);
    r.begin(false, None, t0);
    r
}

/// [`people`] after 1. e4 e5, both played at `t0`.
fn both_moved(t0: Instant) -> Round {
    let mut r = people(t0);
    r.apply(&mv(Color::White, "e4"), t0).unwrap();
    r.apply(&mv(Color::Black, "e5"), t0).unwrap();
    r
}

fn mv(by: Color, text: &str) -> Command {
    Command::Move {
        by,
        mv: MoveInput::Typed(text.into()),
    }
}

/// The result and reason of a finished game.
fn ended(r: &Round) -> (GameResult, &str) {
    let f = r.finish().expect("the game is over");
    (f.result, f.reason.as_str())
}

fn ms(d: u64) -> Duration {
    Duration::from_millis(d)
}

fn clocks(w: u64, b: u64) -> Option<Clocks> {
    Some(Clocks {
        white_ms: w,
        black_ms: b,
    })
}

#[test]
fn no_clock_runs_before_both_sides_have_moved() {
    let t0 = Instant::now();
    let mut r = people(t0);
    assert_eq!(r.running(), None);
    r.apply(&mv(Color::White, "e4"), t0 + ms(5_000)).unwrap();
    // White's first move cost nothing and earned no increment; Black's clock does not run.
    assert_eq!(r.records()[0].clocks, clocks(60_000, 60_000));
    assert_eq!(r.running(), None);
    r.apply(&mv(Color::Black, "e5"), t0 + ms(9_000)).unwrap();
    assert_eq!(r.records()[1].clocks, clocks(60_000, 60_000));
    // Now White's runs, from Black's first move on.
    assert_eq!(r.running(), Some(Color::White));
    assert_eq!(r.clocks_at(t0 + ms(12_000)), clocks(57_000, 60_000));
    r.apply(&mv(Color::White, "Nf3"), t0 + ms(12_000)).unwrap();
    assert_eq!(r.records()[2].clocks, clocks(58_000, 60_000));
    assert_eq!(r.running(), Some(Color::Black));
}

#[test]
fn deciding_changes_nothing_and_commit_applies_it() {
    let t0 = Instant::now();
    let r = people(t0);
    let events = r.decide(&mv(Color::White, "e4"), t0).unwrap();
    assert_eq!(r.ply(), 0);
    assert!(matches!(events.as_slice(), [Event::Moved { .. }]));
    let mut r2 = r.clone();
    r2.commit(&events, t0);
    assert_eq!(r2.ply(), 1);
    assert_eq!(r2.records()[0].san, "e4");
}

#[test]
fn moves_out_of_turn_and_illegal_ones_are_refused() {
    let t0 = Instant::now();
    let mut r = people(t0);
    assert_eq!(
        r.apply(&mv(Color::Black, "e5"), t0),
        Err(RoundError::NotYourTurn {
            to_move: Color::White,
            engine: false
        })
    );
    assert!(matches!(
        r.apply(&mv(Color::White, "e5"), t0),
        Err(RoundError::IllegalMove(_))
    ));
    let pos = *r.game().position();
    let after_e4 = pos.play(pos.parse_typed_move("e4").unwrap());
    let foreign = after_e4.parse_typed_move("e5").unwrap();
    // A move chosen in another position is checked against this one's legal moves.
    assert!(matches!(
        r.apply(
            &Command::Move {
                by: Color::White,
                mv: MoveInput::Chosen(foreign)
            },
            t0
        ),
        Err(RoundError::IllegalMove(_))
    ));
    assert_eq!(r.ply(), 0);
}

#[test]
fn a_flag_falls_with_the_time_and_ends_the_game_on_tick() {
    let t0 = Instant::now();
    let mut r = both_moved(t0);
    assert_eq!(r.flag_time(), Some(t0 + ms(60_000)));
    assert_eq!(r.apply(&Command::Tick, t0 + ms(59_999)).unwrap(), vec![]);
    let events = r.apply(&Command::Tick, t0 + ms(60_000)).unwrap();
    assert_eq!(events.len(), 1);
    assert_eq!(ended(&r), (GameResult::BlackWins, "time forfeit"));
    assert_eq!(r.running(), None);
    assert!(matches!(
        r.apply(&mv(Color::White, "Nf3"), t0 + ms(60_000)),
        Err(RoundError::Over { .. })
    ));
}

#[test]
fn a_move_declines_the_opponents_draw_offer_but_keeps_ones_own() {
    let t0 = Instant::now();
    let mut r = people(t0);
    r.apply(&Command::OfferDraw(Color::White), t0).unwrap();
    r.apply(&mv(Color::White, "e4"), t0).unwrap();
    assert_eq!(r.draw_offer(), Some(Color::White));
    r.apply(&mv(Color::Black, "e5"), t0).unwrap();
    assert_eq!(r.draw_offer(), None);
    // Crossing offers agree the draw.
    r.apply(&Command::OfferDraw(Color::White), t0).unwrap();
    r.apply(&Command::OfferDraw(Color::Black), t0).unwrap();
    assert_eq!(ended(&r), (GameResult::Draw, "draw agreed"));
}

#[test]
fn answers_need_an_offer_from_the_opponent() {
    let t0 = Instant::now();
    let mut r = people(t0);
    r.apply(&Command::OfferDraw(Color::White), t0).unwrap();
    assert_eq!(
        r.apply(
            &Command::AnswerDraw {
                by: Color::White,
                accept: true
            },
            t0
        ),
        Err(RoundError::NoOffer { what: "draw offer" })
    );
    r.apply(
        &Command::AnswerDraw {
            by: Color::Black,
            accept: false,
        },
        t0,
    )
    .unwrap();
    assert_eq!(r.draw_offer(), None);
    assert!(!r.finished());
}

#[test]
fn a_takeback_restores_the_clocks_after_the_last_remaining_move() {
    let t0 = Instant::now();
    let mut r = people(t0);
    for (i, (by, m)) in [
        (Color::White, "e4"),
        (Color::Black, "e5"),
        (Color::White, "Nf3"),
        (Color::Black, "Nc6"),
    ]
    .into_iter()
    .enumerate()
    {
        r.apply(&mv(by, m), t0 + ms(10_000 * i as u64)).unwrap();
    }
    assert_eq!(r.records()[3].clocks, clocks(51_000, 51_000));
    let t = t0 + ms(45_000);
    r.apply(&Command::ProposeTakeback(Color::White), t).unwrap();
    let events = r
        .apply(
            &Command::AnswerTakeback {
                by: Color::Black,
                accept: true,
            },
            t,
        )
        .unwrap();
    assert_eq!(events, vec![Event::TookBack { keep: 2 }]);
    assert_eq!(r.ply(), 2);
    // As after 1... e5, White to move with its clock running from now.
    assert_eq!(r.clocks_at(t), clocks(60_000, 60_000));
    assert_eq!(r.running(), Some(Color::White));
    // Black's last move is now e5, the second half-move.
    assert_eq!(r.takeback_point(Color::Black), Ok(1));
}

#[test]
fn a_takeback_after_a_resignation_is_refused() {
    let t0 = Instant::now();
    let mut r = people(t0);
    r.apply(&mv(Color::White, "e4"), t0).unwrap();
    r.apply(&Command::Resign(Color::Black), t0).unwrap();
    assert_eq!(
        r.apply(&Command::TakeBack(Color::White), t0),
        Err(RoundError::TakebackAfter("resignation".into()))
    );
}

#[test]
fn an_abort_only_before_both_sides_have_moved() {
    let t0 = Instant::now();
    let mut r = people(t0);
    r.apply(&mv(Color::White, "e4"), t0).unwrap();
    let mut aborted = r.clone();
    aborted.apply(&Command::Abort, t0).unwrap();
    assert_eq!(aborted.finish(), Some(&Finish::aborted()));
    r.apply(&mv(Color::Black, "e5"), t0).unwrap();
    assert_eq!(r.apply(&Command::Abort, t0), Err(RoundError::NotAbortable));
}

#[test]
fn an_overdue_first_move_aborts_the_game() {
    let t0 = Instant::now();
    let mut r = unbegun(Phase::Playing);
    r.set_abandon_after(ms(30_000));
    r.begin(false, None, t0);
    assert_eq!(r.abandon_at(), Some(t0 + ms(30_000)));
    r.apply(&mv(Color::White, "e4"), t0 + ms(10_000)).unwrap();
    // Black's first move has its own deadline, from White's.
    assert_eq!(r.abandon_at(), Some(t0 + ms(40_000)));
    assert_eq!(r.apply(&Command::Tick, t0 + ms(39_000)).unwrap(), vec![]);
    r.apply(&Command::Tick, t0 + ms(40_000)).unwrap();
    assert_eq!(r.finish(), Some(&Finish::aborted()));
}

#[test]
fn a_premove_is_played_when_its_turn_comes_and_a_stale_clear_leaves_a_newer_one() {
    let t0 = Instant::now();
    let mut r = people(t0);
    let set = |text: &str| Command::SetPremove {
        by: Color::Black,
        text: text.into(),
    };
    assert_eq!(
        r.apply(
            &Command::SetPremove {
                by: Color::White,
                text: "e4".into()
            },
            t0
        ),
        Err(RoundError::YourTurn)
    );
    r.apply(&set("d5"), t0).unwrap();
    r.apply(&set("e5"), t0).unwrap();
    // The clear sent for d5 arrives after e5 replaced it: e5 stays.
    r.apply(
        &Command::ClearPremove {
            by: Color::Black,
            clears: Some("d5".into()),
        },
        t0,
    )
    .unwrap();
    assert_eq!(r.premove().map(|p| p.text.as_str()), Some("e5"));
    r.apply(&mv(Color::White, "e4"), t0).unwrap();
    r.apply(&Command::PlayPremove, t0).unwrap();
    assert_eq!(r.records()[1].san, "e5");
    assert_eq!(r.premove(), None);
}

#[test]
fn an_illegal_premove_is_dropped_when_its_turn_comes() {
    let t0 = Instant::now();
    let mut r = people(t0);
    r.apply(
        &Command::SetPremove {
            by: Color::Black,
            text: "e4".into(),
        },
        t0,
    )
    .unwrap();
    r.apply(&mv(Color::White, "e4"), t0).unwrap();
    assert_eq!(
        r.apply(&Command::PlayPremove, t0).unwrap(),
        vec![Event::PremoveCleared]
    );
    assert_eq!(r.ply(), 1);
    assert_eq!(r.premove(), None);
}

#[test]
fn nothing_is_played_while_a_seat_waits_or_the_pieces_are_placed() {
    let t0 = Instant::now();
    let mut r = unbegun(Phase::Open);
    assert_eq!(
        r.apply(&mv(Color::White, "e4"), t0),
        Err(RoundError::WaitingForOpponent)
    );
    r.seat_taken();
    r.begin(true, None, t0);
    assert_eq!(r.phase(), Phase::Placing);
    assert_eq!(
        r.apply(&Command::Resign(Color::White), t0),
        Err(RoundError::StillPlacing)
    );
}

#[test]
fn an_absent_players_opponent_takes_the_win_or_a_draw() {
    let t0 = Instant::now();
    let mut r = people(t0);
    r.apply(
        &Command::Forfeit {
            absent: Color::Black,
            claim: ForceResult::Win,
        },
        t0,
    )
    .unwrap();
    assert_eq!(ended(&r), (GameResult::WhiteWins, "abandonment"));
}

#[test]
fn a_stored_game_reads_back_paused_with_its_clocks() {
    let t0 = Instant::now();
    let mut r = both_moved(t0);
    r.apply(&mv(Color::White, "Nf3"), t0 + ms(4_000)).unwrap();
    let mut back = Round::stored(
        r.game().clone(),
        r.records().to_vec(),
        None,
        Some(TC),
        None,
        [Player::Human; 2],
        false,
    );
    assert_eq!(back.phase(), Phase::Paused);
    assert_eq!(back.clocks_at(t0 + ms(99_000)), clocks(57_000, 60_000));
    assert_eq!(back.running(), None);
    assert!(back.resume(t0 + ms(100_000)));
    assert_eq!(back.running(), Some(Color::Black));
}

/// Decides `command`, checks that [`Round::offers_after`] tells the offers `commit` leaves,
/// and commits.
fn judged(r: &mut Round, command: Command, now: Instant) -> Vec<Event> {
    let events = r.decide(&command, now).unwrap();
    let told = r.offers_after(&events);
    r.commit(&events, now);
    assert_eq!(told, r.offers(), "{command:?}");
    events
}

#[test]
fn the_offers_after_events_are_those_commit_leaves() {
    use chess960_store::Offers;
    let t0 = Instant::now();
    let mut r = both_moved(t0);
    let offer = |by| Command::OfferDraw(by);
    let answer_draw = |by, accept| Command::AnswerDraw { by, accept };
    judged(&mut r, offer(Color::White), t0);
    judged(&mut r, Command::ProposeTakeback(Color::Black), t0);
    assert_eq!(
        r.offers(),
        Offers {
            draw: Some(Color::White),
            takeback: Some(Color::Black)
        }
    );
    // White's move keeps White's offer and answers Black's proposal.
    judged(&mut r, mv(Color::White, "Nf3"), t0);
    assert_eq!(
        (r.draw_offer(), r.takeback_offer()),
        (Some(Color::White), None)
    );
    // Black's move declines it.
    judged(&mut r, mv(Color::Black, "Nc6"), t0);
    assert_eq!(r.offers(), Offers::NONE);
    judged(&mut r, offer(Color::Black), t0);
    judged(&mut r, answer_draw(Color::White, false), t0);
    assert_eq!(r.offers(), Offers::NONE);
    // A takeback answers every offer.
    judged(&mut r, offer(Color::Black), t0);
    judged(&mut r, Command::ProposeTakeback(Color::White), t0);
    judged(
        &mut r,
        Command::AnswerTakeback {
            by: Color::Black,
            accept: true,
        },
        t0,
    );
    assert_eq!(r.offers(), Offers::NONE);
    // A premove leaves the offers alone; the end takes them back.
    judged(&mut r, offer(Color::Black), t0);
    judged(
        &mut r,
        Command::SetPremove {
            by: Color::Black,
            text: "Nf6".into(),
        },
        t0,
    );
    assert_eq!(r.draw_offer(), Some(Color::Black));
    judged(&mut r, Command::ProposeTakeback(Color::Black), t0);
    judged(&mut r, Command::Resign(Color::White), t0);
    assert_eq!(r.offers(), Offers::NONE);
}

#[test]
fn a_stored_game_keeps_its_offers_and_they_can_be_answered() {
    use chess960_store::Offers;
    let t0 = Instant::now();
    let mut r = both_moved(t0);
    r.apply(&Command::OfferDraw(Color::Black), t0).unwrap();
    let back = |r: &Round, finish: Option<Finish>| {
        Round::stored(
            r.game().clone(),
            r.records().to_vec(),
            finish,
            Some(TC),
            None,
            [Player::Human; 2],
            false,
        )
        .with_offers(r.offers())
    };
    let mut again = back(&r, None);
    assert_eq!(again.phase(), Phase::Paused);
    assert_eq!(again.draw_offer(), Some(Color::Black));
    again
        .apply(
            &Command::AnswerDraw {
                by: Color::White,
                accept: true,
            },
            t0,
        )
        .unwrap();
    assert_eq!(ended(&again), (GameResult::Draw, "draw agreed"));
    // A finished game keeps none, whatever it is given.
    let over = back(&r, Some(Finish::aborted()));
    assert_eq!(over.offers(), Offers::NONE);
}
