//! Knockouts through their whole life: seeding and byes, mini-matches with colours swapped on
//! the round's position, tiebreak stages on their own positions up to the Armageddon, the
//! bracket, placings, exports, and the documents' checks.

use chess960_events::event::{BoardResult, DrawSpec, Event, EventError, Format, Player, Side};
use chess960_events::export::{to_json, to_pgn};
use chess960_events::import::from_json;
use chess960_events::knockout::{KnockoutPlan, MatchState, Seeding, Stage, StageKind};

fn player(name: &str, rating: u16) -> Player {
    Player {
        rating: Some(rating),
        ..Player::named(name)
    }
}

fn plan(stages: &[&str]) -> KnockoutPlan {
    KnockoutPlan {
        games: 2,
        seeding: Seeding::Rating,
        tiebreaks: stages.iter().map(|s| Stage::parse(s).unwrap()).collect(),
    }
}

/// `names` rated from 2700 down by 10 (so seeded in this order).
fn event(names: &[&str], p: KnockoutPlan, first: Side) -> Event {
    let mut e = Event::new("Knockout 960", Format::Knockout(p), 0, first).unwrap();
    e.time_control = "90+30".into();
    for (k, n) in names.iter().enumerate() {
        e.add_player(player(n, 2700 - 10 * k as u16)).unwrap();
    }
    e
}

/// The boards of `round` as `(white, black, match, stage)` with player numbers from 1.
fn boards(e: &Event, round: u32) -> Vec<(usize, usize, u32, u32)> {
    e.played[round as usize - 1]
        .boards
        .iter()
        .map(|b| {
            let s = b.slot.unwrap();
            (b.white + 1, b.black + 1, s.match_no, s.stage)
        })
        .collect()
}

/// Sets the result of every board of `round` in `stage` of `match_no` from `results`.
fn play(e: &mut Event, round: u32, match_no: u32, stage: u32, results: &[BoardResult]) {
    let at: Vec<u32> = e.played[round as usize - 1]
        .boards
        .iter()
        .enumerate()
        .filter(|(_, b)| {
            b.slot
                .is_some_and(|s| s.match_no == match_no && s.stage == stage)
        })
        .map(|(j, _)| j as u32 + 1)
        .collect();
    assert_eq!(at.len(), results.len(), "match {match_no}, stage {stage}");
    for (&b, &r) in at.iter().zip(results) {
        e.set_result(round, b, Some(r)).unwrap();
    }
    e.validate().unwrap();
}

use BoardResult::{BlackWins as B, Draw as D, WhiteWins as W};

#[test]
fn five_players_from_byes_to_the_armageddon_and_the_final() {
    let names = ["Ada", "Bo", "Cy", "Di", "Ed"];
    let mut e = event(
        &names,
        plan(&["rapid:2:10+5", "armageddon:5+0"]),
        Side::White,
    );
    assert_eq!(e.total_rounds(), 3);
    e.positions.rules.no_repeat = true;
    e.draw_position(1, DrawSpec::Computer { seed: 7 }, false)
        .unwrap();
    e.pair(1, 0).unwrap();
    // A bracket of 8: lines 1–8, 4–5, 2–7, 3–6; seeds 1, 2 and 3 have byes.
    assert_eq!(boards(&e, 1), vec![(4, 5, 2, 0), (5, 4, 2, 0)]);
    let byes: Vec<usize> = e.played[0].byes.iter().map(|(p, _)| p + 1).collect();
    assert_eq!(byes, vec![1, 2, 3]);
    let pos = e.board_position(1, 1);
    assert!(
        pos.is_some() && pos == e.board_position(1, 2),
        "one position for the match"
    );
    assert_eq!(e.board_time_control(1, 2), "90+30");
    // 1–1 (each wins with White): tied; round 2 waits for the tiebreak.
    play(&mut e, 1, 2, 0, &[W, W]);
    let m = &e.bracket()[0][1];
    assert_eq!(m.state, MatchState::Tied { next_stage: 1 });
    assert_eq!(m.stages[0].points, (10, 10));
    let err = e.pair(2, 0).unwrap_err().to_string();
    assert!(err.contains("match 2 of round 1 is tied"), "{err}");
    // The rapid stage: a position of its own, never the round's (no repeats), its time.
    assert!(e
        .draw_stage_position(1, 2, DrawSpec::Computer { seed: 1 }, false)
        .is_err());
    let rapid = e
        .draw_stage_position(1, 1, DrawSpec::Computer { seed: 8 }, false)
        .unwrap()
        .id;
    assert_ne!(Some(rapid), pos);
    assert_eq!(e.add_tiebreaks(1, 3).unwrap(), vec![2]);
    assert_eq!(
        boards(&e, 1),
        vec![(4, 5, 2, 0), (5, 4, 2, 0), (4, 5, 2, 1), (5, 4, 2, 1)]
    );
    assert_eq!(e.board_position(1, 3), Some(rapid));
    assert_eq!(e.board_time_control(1, 4), "10+5");
    // Adding again while the stage is played: nothing tied.
    assert!(e.add_tiebreaks(1, 3).is_err());
    play(&mut e, 1, 2, 1, &[D, D]);
    assert_eq!(e.bracket()[0][1].state, MatchState::Tied { next_stage: 2 });
    // The Armageddon: one game, colours by lot, a draw is Black's win.
    e.draw_stage_position(1, 2, DrawSpec::Set(100), false)
        .unwrap();
    e.add_tiebreaks(1, 11).unwrap();
    let b = &e.played[0].boards[4];
    assert_eq!(b.slot.unwrap().stage, 2);
    let black = b.black;
    assert_eq!(e.board_time_control(1, 5), "5+0");
    assert_eq!(e.board_position(1, 5), Some(100));
    play(&mut e, 1, 2, 2, &[D]);
    let m = &e.bracket()[0][1];
    assert_eq!(
        m.state,
        MatchState::Won {
            winner: black,
            loser: if black == 3 { 4 } else { 3 },
            stage: 2
        }
    );
    // A result that would undo the decision once it is acted on is refused, and the
    // event stays as it was.
    e.draw_position(2, DrawSpec::Computer { seed: 9 }, false)
        .unwrap();
    e.pair(2, 0).unwrap();
    let before = e.clone();
    let err = e.set_result(1, 5, Some(W)).unwrap_err().to_string();
    assert!(err.contains("take back"), "{err}");
    assert_eq!(e, before);
    // Round 2: seed 1 against the winner of 4–5, seed 2 against seed 3.
    let w = black + 1;
    assert_eq!(
        boards(&e, 2),
        vec![(1, w, 1, 0), (w, 1, 1, 0), (2, 3, 2, 0), (3, 2, 2, 0)]
    );
    play(&mut e, 2, 1, 0, &[W, D]);
    play(&mut e, 2, 2, 0, &[D, W]);
    e.draw_position(3, DrawSpec::Computer { seed: 10 }, false)
        .unwrap();
    e.pair(3, 0).unwrap();
    assert_eq!(boards(&e, 3), vec![(1, 3, 1, 0), (3, 1, 1, 0)]);
    assert_eq!(e.champion(), None);
    play(&mut e, 3, 1, 0, &[D, B]);
    assert_eq!(e.champion(), Some(0));
    let places: Vec<(usize, u32, u32)> = e
        .placings()
        .into_iter()
        .map(|(i, a, b)| (i + 1, a, b))
        .collect();
    let other = if w == 4 { 5 } else { 4 };
    assert_eq!(
        places,
        vec![(1, 1, 1), (3, 2, 2), (2, 3, 4), (w, 3, 4), (other, 5, 5)]
    );
    assert!(e.pair(4, 0).is_err(), "three rounds");
    // The whole event survives its document and the checks of an import.
    let back = from_json(&to_json(&e)).unwrap();
    assert_eq!(back, e);
    e.verify_draws().unwrap();
    // PGN: every game, its match and game number, the stage's position and time control.
    let pgn = to_pgn(&e, &|_| None);
    assert_eq!(pgn.matches("[Event ").count(), 5 + 4 + 2);
    assert!(pgn.contains("[Round \"1.2.5\"]"), "{pgn}");
    assert!(pgn.contains("[StartPosition \"100\"]"));
    assert_eq!(
        pgn.matches("[TimeControl \"10+5\"]").count(),
        2,
        "the rapid games"
    );
    assert_eq!(
        pgn.matches("[TimeControl \"5+0\"]").count(),
        1,
        "the Armageddon"
    );
}

#[test]
fn a_tied_last_stage_repeats_and_no_tiebreaks_repeats_the_games() {
    let mut e = event(&["A", "B"], plan(&["blitz:2:3+2"]), Side::Black);
    e.pair(1, 0).unwrap();
    // Black first for the higher seed: the event's lot says so.
    assert_eq!(boards(&e, 1), vec![(2, 1, 1, 0), (1, 2, 1, 0)]);
    play(&mut e, 1, 1, 0, &[D, D]);
    for stage in 1..=3 {
        e.draw_stage_position(1, stage, DrawSpec::Computer { seed: stage as u64 }, false)
            .unwrap();
        e.add_tiebreaks(1, 0).unwrap();
        assert_eq!(e.board_time_control(1, 2 * stage + 1), "3+2");
        play(&mut e, 1, 1, stage, &[W, W]);
    }
    assert_eq!(e.bracket()[0][0].state, MatchState::Tied { next_stage: 4 });
    let mut e = event(&["A", "B"], plan(&[]), Side::White);
    e.pair(1, 0).unwrap();
    play(&mut e, 1, 1, 0, &[W, W]);
    e.add_tiebreaks(1, 0).unwrap();
    assert_eq!(boards(&e, 1).len(), 4, "two more games");
    assert_eq!(e.board_time_control(1, 3), "90+30");
    // A stage's games have no position until it is drawn.
    assert_eq!(e.board_position(1, 3), None);
    play(&mut e, 1, 1, 1, &[B, W]);
    assert_eq!(e.champion(), Some(1));
    // One-game stages go on alternating colours from game to game.
    let mut one = plan(&["games:1:5+3"]);
    one.games = 1;
    let mut e = event(&["A", "B"], one, Side::White);
    e.pair(1, 0).unwrap();
    play(&mut e, 1, 1, 0, &[D]);
    for stage in 1..=3 {
        e.add_tiebreaks(1, 0).unwrap();
        play(&mut e, 1, 1, stage, &[D]);
    }
    let colours: Vec<usize> = boards(&e, 1).iter().map(|b| b.0).collect();
    assert_eq!(colours, vec![1, 2, 1, 2], "White by game");
}

#[test]
fn lots_seed_reproducibly_and_late_entries_are_refused() {
    let names: Vec<String> = (1..=11).map(|k| format!("P{k}")).collect();
    let refs: Vec<&str> = names.iter().map(String::as_str).collect();
    let mut p = plan(&["armageddon:5+0"]);
    p.seeding = Seeding::Lot;
    let mut a = event(&refs, p.clone(), Side::White);
    let mut b = event(&refs, p, Side::White);
    a.pair(1, 42).unwrap();
    b.pair(1, 42).unwrap();
    assert_eq!(a.order, b.order);
    assert!(a.order_note.contains("seed 42"), "{}", a.order_note);
    assert_ne!(a.order, (0..11).collect::<Vec<_>>(), "drawn, not by rating");
    assert_eq!(a.played[0].byes.len(), 5, "16 − 11 byes");
    let err = a.add_player(player("Late", 2800)).unwrap_err().to_string();
    assert!(err.contains("knockout under way"), "{err}");
    let err = a.withdraw(0, None).unwrap_err().to_string();
    assert!(err.contains("by forfeit"), "{err}");
    // A stage without its own time control plays the event's.
    let mut p = plan(&["rapid:2:10+5"]);
    p.tiebreaks[0].time_control.clear();
    let mut e = event(&["A", "B"], p, Side::White);
    e.pair(1, 0).unwrap();
    play(&mut e, 1, 1, 0, &[W, W]);
    e.add_tiebreaks(1, 0).unwrap();
    assert_eq!(e.board_time_control(1, 3), "90+30");
}

#[test]
fn plans_and_documents_that_cannot_be_are_refused() {
    let mut p = plan(&[]);
    p.games = 13;
    assert!(matches!(
        Event::new("X", Format::Knockout(p), 0, Side::White),
        Err(EventError::Invalid(_))
    ));
    assert!(Stage::parse("armageddon:2:5+0").is_err());
    let mut e = event(&["A", "B", "C", "D"], plan(&["rapid:2:10+5"]), Side::White);
    e.pair(1, 0).unwrap();
    e.validate().unwrap();
    // A board moved to the other match.
    let mut bad = e.clone();
    bad.played[0].boards[0].slot.as_mut().unwrap().match_no = 2;
    let why = bad.validate().unwrap_err().to_string();
    assert!(why.contains("not those of match"), "{why}");
    // A tiebreak after a decided stage.
    let mut bad = e.clone();
    play(&mut bad, 1, 1, 0, &[W, D]);
    let mut extra = bad.played[0].boards[0].clone();
    extra.slot.as_mut().unwrap().stage = 1;
    extra.result = None;
    bad.played[0].boards.push(extra.clone());
    bad.played[0].boards.push(extra);
    let why = bad.validate().unwrap_err().to_string();
    assert!(why.contains("which is decided"), "{why}");
    // A board without its match; a stage of the wrong size.
    let mut bad = e.clone();
    bad.played[0].boards[1].slot = None;
    assert!(bad.validate().is_err());
    let mut bad = e.clone();
    bad.played[0].boards.pop();
    let why = bad.validate().unwrap_err().to_string();
    assert!(why.contains("1 games where the plan has 2"), "{why}");
    // The list fixed before the event is for rounds, not tiebreaks.
    let mut e2 = e.clone();
    play(&mut e2, 1, 1, 0, &[W, W]);
    assert!(e2.draw_stage_position(1, 1, DrawSpec::List, false).is_err());
}

/// A tiny generator for the random knockouts.
struct Lcg(u64);
impl Lcg {
    fn below(&mut self, n: u64) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 33) % n
    }
}

#[test]
fn random_knockouts_of_every_size_play_to_a_champion() {
    let mut rng = Lcg(5);
    for n in 2..=40usize {
        let names: Vec<String> = (1..=n).map(|k| format!("P{k}")).collect();
        let refs: Vec<&str> = names.iter().map(String::as_str).collect();
        let mut e = event(&refs, KnockoutPlan::default(), Side::White);
        let size = n.next_power_of_two();
        let rounds = e.total_rounds();
        assert_eq!(1usize << rounds, size);
        for round in 1..=rounds {
            e.draw_position(
                round,
                DrawSpec::Computer {
                    seed: rng.below(1000),
                },
                false,
            )
            .unwrap();
            e.pair(round, 0).unwrap();
            if round == 1 {
                // The top seeds get the byes, one per missing player.
                let mut byes: Vec<usize> = e.played[0].byes.iter().map(|(p, _)| *p).collect();
                byes.sort_unstable();
                assert_eq!(byes, (0..size - n).collect::<Vec<_>>(), "{n} players");
            }
            let matches = e.bracket()[round as usize - 1]
                .iter()
                .filter(|m| m.second.is_some())
                .count();
            assert_eq!(e.played[round as usize - 1].boards.len(), 2 * matches);
            // Play every match to its end, tiebreaks as needed.
            loop {
                let open: Vec<(u32, u32, Vec<u32>)> = e.bracket()[round as usize - 1]
                    .iter()
                    .filter_map(|m| match m.state {
                        MatchState::Playing { stage } => {
                            let s = m.stages.iter().find(|s| s.stage == stage)?;
                            Some((m.number, stage, s.boards.clone()))
                        }
                        _ => None,
                    })
                    .collect();
                for (_, _, bs) in &open {
                    for &b in bs {
                        let r = [W, D, B][rng.below(3) as usize];
                        e.set_result(round, b, Some(r)).unwrap();
                    }
                }
                let tied = e.bracket()[round as usize - 1]
                    .iter()
                    .filter_map(|m| match m.state {
                        MatchState::Tied { next_stage } => Some(next_stage),
                        _ => None,
                    })
                    .max();
                let Some(stage) = tied else { break };
                let have = e.played[round as usize - 1].stage_draws.len() as u32;
                for s in have + 1..=stage {
                    e.draw_stage_position(
                        round,
                        s,
                        DrawSpec::Computer {
                            seed: rng.below(999),
                        },
                        false,
                    )
                    .unwrap();
                }
                e.add_tiebreaks(round, rng.below(1 << 30)).unwrap();
                e.validate().unwrap();
            }
            // Nothing past the Armageddon (stage 3 of the default plan).
            for m in &e.bracket()[round as usize - 1] {
                if let MatchState::Won { stage, .. } = m.state {
                    assert!(stage <= 3);
                    let last = m.stages.last().unwrap();
                    if last.kind == Some(StageKind::Armageddon) {
                        assert_eq!(last.boards.len(), 1);
                    }
                }
            }
            e.validate().unwrap();
        }
        let champ = e.champion().expect("a champion");
        let places = e.placings();
        assert_eq!(places.len(), n);
        assert_eq!(places[0], (champ, 1, 1));
        // Each round's losers share the places below those who went on, down to the last.
        assert!(places.iter().all(|p| p.1 <= p.2 && p.2 as usize <= n));
        assert_eq!(places.iter().map(|p| p.2).max(), Some(n as u32));
        for r in 0..rounds {
            let ms = &e.bracket()[r as usize];
            let on = ms.len() as u32;
            let losers = ms
                .iter()
                .filter(|m| matches!(m.state, MatchState::Won { .. }))
                .count();
            let band = places
                .iter()
                .filter(|p| p.1 == on + 1 && p.2 == on + losers as u32)
                .count();
            assert_eq!(band, losers, "{n} players, round {}", r + 1);
        }
        assert_eq!(from_json(&to_json(&e)).unwrap(), e);
    }
}
