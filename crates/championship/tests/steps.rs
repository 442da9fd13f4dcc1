//! The director's steps, read from the event alone: driven here as the director drives them
//! (with results given by hand instead of played), a round robin, a Swiss and a knockout of
//! engines each run through their pairings, position draws and tiebreaks to the end, every
//! step the one the arbiter would take; a person's board, and an event without engines, wait
//! for the arbiter with the reason.

use chess960_championship::step::{next_step, Step};
use chess960_events::event::{BoardResult, DrawSpec, Event, Format, Player, Side};
use chess960_events::knockout::{KnockoutPlan, Seeding, Stage};

fn engine(name: &str, rating: u16) -> Player {
    Player {
        rating: Some(rating),
        engine: Some(name.to_string()),
        ..Player::named(name)
    }
}

fn event(format: Format, rounds: u32, players: usize) -> Event {
    let mut e = Event::new("Engines", format, rounds, Side::White).unwrap();
    for k in 0..players {
        e.add_player(engine(&format!("Engine {k}"), 3000 - k as u16))
            .unwrap();
    }
    e
}

/// Does what `step` asks, the results of a round's games given by `result`; returns the
/// steps taken until the end.
fn drive(e: &mut Event, result: impl Fn(&Event, u32, u32) -> BoardResult) -> Vec<Step> {
    let mut steps = Vec::new();
    for seed in 0.. {
        assert!(
            seed < 500,
            "no end after 500 steps: {:?}",
            &steps[steps.len() - 5..]
        );
        let step = next_step(e);
        steps.push(step.clone());
        match step {
            Step::Finished => break,
            Step::Wait(why) => panic!("waits: {why}"),
            Step::Pair(r) => {
                e.pair(r, seed).unwrap();
            }
            Step::DrawRound(r) => {
                e.draw_position(r, DrawSpec::Computer { seed }, false)
                    .unwrap();
            }
            Step::DrawStage(r, s) => {
                e.draw_stage_position(r, s, DrawSpec::Computer { seed }, false)
                    .unwrap();
            }
            Step::Tiebreaks(r) => {
                e.add_tiebreaks(r, seed).unwrap();
            }
            Step::Play(r, boards) => {
                for b in boards {
                    assert!(
                        e.board_position(r, b).is_some(),
                        "round {r}, board {b}: no position"
                    );
                    let res = result(e, r, b);
                    e.set_result(r, b, Some(res)).unwrap();
                }
            }
        }
    }
    steps
}

#[test]
fn a_double_round_robin_of_engines_plays_every_round_after_its_pairing_and_draw() {
    let mut e = event(Format::RoundRobin { cycles: 2 }, 0, 4);
    e.positions.second_cycle_repeats = true;
    let steps = drive(&mut e, |_, _, _| BoardResult::WhiteWins);
    let total = e.total_rounds();
    assert_eq!(total, 6);
    // Per round: pair, draw, play its two boards at once.
    let mut want = Vec::new();
    for r in 1..=total {
        want.push(Step::Pair(r));
        want.push(Step::DrawRound(r));
        want.push(Step::Play(r, vec![1, 2]));
    }
    want.push(Step::Finished);
    assert_eq!(steps, want);
    // Both colours of each position: each pairing of the second cycle plays on the position
    // its first game had, colours reversed.
    let board_of = |r: usize, w: usize, b: usize| {
        let round = &e.played[r];
        round
            .boards
            .iter()
            .any(|x| (x.white, x.black) == (w, b))
            .then(|| round.draw.as_ref().unwrap().id)
    };
    for first in 0..3 {
        for x in &e.played[first].boards {
            let id = e.played[first].draw.as_ref().unwrap().id;
            let again: Vec<u16> = (3..6)
                .filter_map(|r| board_of(r, x.black, x.white))
                .collect();
            assert_eq!(again, [id], "{} – {} in the second cycle", x.black, x.white);
        }
    }
}

#[test]
fn a_swiss_of_engines_pairs_each_round_once_the_last_is_complete() {
    let mut e = event(Format::Swiss, 3, 5);
    let steps = drive(&mut e, |_, _, b| {
        if b % 2 == 0 {
            BoardResult::Draw
        } else {
            BoardResult::BlackWins
        }
    });
    let pairs: Vec<u32> = steps
        .iter()
        .filter_map(|s| match s {
            Step::Pair(r) => Some(*r),
            _ => None,
        })
        .collect();
    assert_eq!(pairs, [1, 2, 3]);
    assert_eq!(steps.last(), Some(&Step::Finished));
    // Five players: two boards a round and a bye.
    assert!(steps.contains(&Step::Play(2, vec![1, 2])));
}

#[test]
fn a_knockout_of_engines_goes_through_every_tiebreak_stage_to_a_champion() {
    let plan = KnockoutPlan {
        games: 2,
        seeding: Seeding::Rating,
        tiebreaks: ["rapid:2:10+5", "armageddon:5+0"]
            .iter()
            .map(|s| Stage::parse(s).unwrap())
            .collect(),
    };
    let mut e = event(Format::Knockout(plan), 0, 4);
    // Regular games and the rapid games drawn: every match needs its Armageddon, which White
    // wins.
    let steps = drive(&mut e, |e, r, b| {
        let slot = e.played[r as usize - 1].boards[b as usize - 1]
            .slot
            .unwrap();
        if slot.stage < 2 {
            BoardResult::Draw
        } else {
            BoardResult::WhiteWins
        }
    });
    let round1: Vec<Step> = steps.iter().take(9).cloned().collect();
    assert_eq!(
        round1,
        [
            Step::Pair(1),
            Step::DrawRound(1),
            Step::Play(1, vec![1, 2, 3, 4]),
            Step::Tiebreaks(1),
            Step::DrawStage(1, 1),
            Step::Play(1, vec![5, 6, 7, 8]),
            Step::Tiebreaks(1),
            Step::DrawStage(1, 2),
            Step::Play(1, vec![9, 10]),
        ]
    );
    assert_eq!(steps[9], Step::Pair(2));
    assert_eq!(steps.last(), Some(&Step::Finished));
    assert!(e.champion().is_some());
}

#[test]
fn a_persons_board_and_an_event_without_engines_wait_for_the_arbiter() {
    let mut e = event(Format::RoundRobin { cycles: 1 }, 0, 3);
    e.add_player(Player::named("Carlsen, Magnus")).unwrap();
    e.pair(1, 1).unwrap();
    e.draw_position(1, DrawSpec::Computer { seed: 1 }, false)
        .unwrap();
    // Board of the person: waits once the engines' board is played.
    let step = next_step(&e);
    let Step::Play(1, boards) = step else {
        panic!("{step:?}")
    };
    assert_eq!(boards.len(), 1, "one board of two engines");
    e.set_result(1, boards[0], Some(BoardResult::Draw)).unwrap();
    match next_step(&e) {
        Step::Wait(why) => assert!(why.contains("Carlsen, Magnus is not an engine"), "{why}"),
        other => panic!("{other:?}"),
    }

    let mut people = Event::new("People", Format::Swiss, 3, Side::White).unwrap();
    people.add_player(Player::named("A")).unwrap();
    people.add_player(Player::named("B")).unwrap();
    assert_eq!(
        next_step(&people),
        Step::Wait("no player of this event is an engine".into())
    );
}
