//! Events through their whole life: players, positions, pairings, results, standings, and
//! the errors an arbiter meets.

use chess960_events::event::{
    BoardResult, ByeRequest, DrawSpec, Event, EventError, Format, Player, Side, Tiebreak,
};
use chess960_events::export::{to_pgn, to_trf};
use chess960_events::standings::{show, standings};
use chess960_events::swiss::pair_dutch;
use chess960_events::trf;

fn player(name: &str, rating: u16) -> Player {
    Player {
        name: name.into(),
        rating: Some(rating),
        fide_id: None,
        federation: "GER".into(),
        title: String::new(),
        joined: 1,
        withdrawn: None,
        byes: Vec::new(),
        account: None,
        engine: None,
    }
}

/// A result from a seed: mostly decisive, some draws, now and then a forfeit.
fn result(seed: u64) -> BoardResult {
    let x = seed
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407)
        >> 33;
    match x % 20 {
        0..=7 => BoardResult::WhiteWins,
        8..=13 => BoardResult::BlackWins,
        14..=18 => BoardResult::Draw,
        _ => BoardResult::BlackForfeit,
    }
}

#[test]
fn double_round_robin_of_six() {
    let mut e = Event::new(
        "Club 960 double",
        Format::RoundRobin { cycles: 2 },
        0,
        Side::White,
    )
    .unwrap();
    e.positions.second_cycle_repeats = true;
    e.positions.rules.exclude_518 = true;
    for (k, name) in ["Anna", "Bert", "Cleo", "Dirk", "Emil", "Frida"]
        .iter()
        .enumerate()
    {
        assert_eq!(e.add_player(player(name, 2000 + k as u16)).unwrap(), k + 1);
    }
    assert_eq!(e.total_rounds(), 10);
    let mut met = std::collections::HashMap::new();
    for round in 1..=10u32 {
        e.draw_position(
            round,
            DrawSpec::Computer {
                seed: 100 + round as u64,
            },
            false,
        )
        .unwrap();
        let r = e.pair(round, 42).unwrap().clone();
        assert_eq!(r.boards.len(), 3);
        for (b, board) in r.boards.iter().enumerate() {
            *met.entry((board.white.min(board.black), board.white.max(board.black)))
                .or_insert(0) += 1;
            e.set_result(
                round,
                b as u32 + 1,
                Some(result(round as u64 * 7 + b as u64)),
            )
            .unwrap();
        }
        // The second cycle plays each pairing on the position of its first game.
        if round > 5 {
            let id = e.played[round as usize - 1].draw.as_ref().unwrap().id;
            let first: Vec<u16> = e.played[..5]
                .iter()
                .map(|r| r.draw.as_ref().unwrap().id)
                .collect();
            assert!(
                first.contains(&id),
                "round {round} repeats a first-cycle position"
            );
        }
    }
    assert_eq!(met.len(), 15);
    assert!(
        met.values().all(|&n| n == 2),
        "everyone meets everyone twice"
    );
    // Lots drew the pairing numbers, recorded with the seed.
    assert!(e.order_note.contains("seed 42"));
    assert_eq!(e.pair(11, 1).unwrap_err(), EventError::NoSuchRound(11));
    assert_eq!(e.pair(3, 1).unwrap_err(), EventError::AlreadyPaired(3));
    e.verify_draws().unwrap();
    let table = standings(&e);
    assert_eq!(table.len(), 6);
    let total: u32 = table.iter().map(|s| s.points).sum();
    assert_eq!(total, 300 - forfeits_lost(&e), "30 games, a point each");
    // The event survives a trip through JSON whole.
    let json = serde_json::to_string(&e).unwrap();
    let back: Event = serde_json::from_str(&json).unwrap();
    assert_eq!(back, e);
}

/// Points no one got: a double forfeit gives none.
fn forfeits_lost(e: &Event) -> u32 {
    e.played
        .iter()
        .flat_map(|r| &r.boards)
        .filter(|b| b.result == Some(BoardResult::DoubleForfeit))
        .count() as u32
        * 10
}

/// Hand-computed tie-breaks: four players, single round robin.
///
/// Round 1: A–D 1-0, B–C ½; round 2: D–C 0-1, A–B ½; round 3: B–D 1-0, C–A 0-1 (by the
/// Berger table with pairing numbers A1 B2 C3 D4 set by hand).
#[test]
fn tiebreaks_by_hand() {
    let mut e = Event::new("Four", Format::RoundRobin { cycles: 1 }, 0, Side::White).unwrap();
    for n in ["A", "B", "C", "D"] {
        e.add_player(player(n, 1500)).unwrap();
    }
    e.tiebreaks = vec![
        Tiebreak::DirectEncounter,
        Tiebreak::SonnebornBerger,
        Tiebreak::Buchholz,
        Tiebreak::Wins,
    ];
    e.pair(1, 0).unwrap();
    // Fix the numbers A=1 … D=4 (the lots are tested above) and pair round 1 again.
    e.unpair(1).unwrap();
    e.pair(1, 0).unwrap();
    e.order = vec![0, 1, 2, 3];
    let boards = |e: &Event, r: usize| -> Vec<(usize, usize)> {
        e.played[r]
            .boards
            .iter()
            .map(|b| (b.white, b.black))
            .collect()
    };
    e.played[0].boards = vec![board(0, 3), board(1, 2)];
    e.set_result(1, 1, Some(BoardResult::WhiteWins)).unwrap();
    e.set_result(1, 2, Some(BoardResult::Draw)).unwrap();
    e.pair(2, 0).unwrap();
    assert_eq!(boards(&e, 1), [(3, 2), (0, 1)], "Berger round 2: 4-3, 1-2");
    e.set_result(2, 1, Some(BoardResult::BlackWins)).unwrap();
    e.set_result(2, 2, Some(BoardResult::Draw)).unwrap();
    e.pair(3, 0).unwrap();
    assert_eq!(boards(&e, 2), [(1, 3), (2, 0)], "Berger round 3: 2-4, 3-1");
    e.set_result(3, 1, Some(BoardResult::WhiteWins)).unwrap();
    e.set_result(3, 2, Some(BoardResult::BlackWins)).unwrap();
    // A 2.5, B 2, C 1.5, D 0.
    let t = standings(&e);
    let row = |name: &str| {
        t.iter()
            .find(|s| e.players[s.player].name == name)
            .unwrap()
            .clone()
    };
    assert_eq!((row("A").place, row("A").points), (1, 25));
    assert_eq!((row("B").place, row("B").points), (2, 20));
    assert_eq!((row("C").place, row("C").points), (3, 15));
    assert_eq!((row("D").place, row("D").points), (4, 0));
    // SB of A: beat D (0) and C (1.5), drew B (2 × ½ = 1): 2.5. BH of A: 0 + 2 + 1.5 = 3.5.
    assert_eq!(show(row("A").tiebreaks[1]), "2.5");
    assert_eq!(show(row("A").tiebreaks[2]), "3.5");
    // SB of B: drew C (0.75) and A (1.25), beat D (0): 2. Wins: A 2, B 1.
    assert_eq!(show(row("B").tiebreaks[1]), "2");
    assert_eq!(show(row("A").tiebreaks[3]), "2");
    assert_eq!(show(row("B").tiebreaks[3]), "1");
    // No tie, so no direct encounter.
    assert_eq!(row("A").tiebreaks[0], None);
}

fn board(w: usize, b: usize) -> chess960_events::event::Board {
    chess960_events::event::Board::paired(w, b)
}

/// A 40-player, 9-round Swiss with a late entry, a withdrawal and byes: every round's
/// pairing is the one the TRF we export pairs to (the way bbpPairings reads it), and the
/// errors an arbiter meets say what is wrong.
#[test]
fn swiss_of_forty() {
    let mut e = Event::new("Open 960", Format::Swiss, 9, Side::White).unwrap();
    for k in 0..40u16 {
        e.add_player(player(&format!("Player {k:02}"), 2400 - 17 * k))
            .unwrap();
    }
    e.request_bye(4, 3, ByeRequest::Half).unwrap();
    e.request_bye(30, 1, ByeRequest::Zero).unwrap();
    assert!(matches!(
        e.pair(2, 1),
        Err(EventError::NotNext { round: 2, next: 1 })
    ));
    for round in 1..=9u32 {
        if round == 4 {
            e.withdraw(7, None).unwrap();
            let late = e.add_player(player("Late Comer", 2222)).unwrap();
            assert_eq!(e.players[late - 1].joined, 4);
        }
        e.draw_position(round, DrawSpec::Computer { seed: round as u64 }, false)
            .unwrap();
        // The TRF of the event pairs the next round the same way.
        let f = trf::read(&trf::write(&to_trf(&e))).unwrap();
        let expected = pair_dutch(&f.history(round as usize).unwrap()).unwrap();
        let r = e.pair(round, 0).unwrap().clone();
        let ids = |i: usize| e.pairing_number(i).unwrap();
        let ours: Vec<(usize, usize)> = r
            .boards
            .iter()
            .map(|b| (ids(b.white) - 1, ids(b.black) - 1))
            .collect();
        assert_eq!(ours, expected.boards, "round {round}");
        assert_eq!(
            r.byes
                .iter()
                .any(|(_, k)| *k == chess960_events::event::RoundBye::Pab),
            expected.bye.is_some()
        );
        if round < 9 {
            assert!(matches!(
                e.pair(round + 1, 0),
                Err(EventError::ResultsMissing { .. })
            ));
        }
        for b in 0..r.boards.len() {
            e.set_result(
                round,
                b as u32 + 1,
                Some(result(round as u64 * 100 + b as u64)),
            )
            .unwrap();
        }
    }
    assert!(e.played[2]
        .byes
        .contains(&(4, chess960_events::event::RoundBye::Half)));
    assert!(
        e.played[5]
            .boards
            .iter()
            .all(|b| b.white != 7 && b.black != 7),
        "withdrawn"
    );
    // Errors name what is wrong.
    assert_eq!(
        e.set_result(3, 99, None).unwrap_err().to_string(),
        "round 3 has no board 99"
    );
    assert_eq!(
        e.player("77").unwrap_err().to_string(),
        "no player 77 in this event"
    );
    assert!(e
        .request_bye(1, 2, ByeRequest::Half)
        .unwrap_err()
        .to_string()
        .contains("paired already"));
    let pgn = to_pgn(&e, &|_| None);
    assert_eq!(
        pgn.matches("[Event \"Open 960\"]").count(),
        e.played.iter().map(|r| r.boards.len()).sum::<usize>()
    );
    assert!(
        pgn.contains("[Variant \"Chess960\"]") || pgn.contains("[Variant \"chess 960\"]"),
        "{}",
        &pgn[..400]
    );
    let t = standings(&e);
    assert_eq!(t.len(), 41);
    assert!(t.windows(2).all(|w| w[0].points >= w[1].points));
}

#[test]
fn bad_trf_names_its_line() {
    let e = trf::read("012 x\n001    1      Someone                           2000                             1,0\n").unwrap_err();
    assert_eq!(e.line, 2, "{e}");
    let line = format!(
        "{:<80}{:>4}{:5}  {:>4} w 1\n",
        "001    1      A", "0.0", "", 2
    );
    let e = trf::read(&line).unwrap_err();
    assert!(e.to_string().contains("opponent 2 is not a player"), "{e}");
}
