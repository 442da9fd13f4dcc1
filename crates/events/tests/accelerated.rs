//! Accelerated pairings (the Baku method, FIDE C.04.5.1): the table of virtual points, the
//! TRF `XXA` lines, the event option, and what acceleration changes in a pairing.

use chess960_events::accel::{baku, Acceleration};
use chess960_events::event::{BoardResult, Event, Format, Player, Side};
use chess960_events::export::{to_json, to_trf};
use chess960_events::import::{from_json, from_trf};
use chess960_events::model::{PointSystem, SwissHistory, SwissPlayer};
use chess960_events::swiss::pair_dutch;
use chess960_events::trf;

fn event(players: usize, rounds: u32, acceleration: Acceleration) -> Event {
    let mut e = Event::new("Accelerated", Format::Swiss, rounds, Side::White).unwrap();
    e.set_acceleration(acceleration).unwrap();
    for k in 0..players {
        e.add_player(Player {
            rating: Some(2400 - 10 * k as u16),
            ..Player::named(format!("Player {k:02}"))
        })
        .unwrap();
    }
    e
}

#[test]
fn baku_table_worked_by_hand() {
    // C.04.5.1 for 9 players and 5 rounds. GA: the first half (4.5) rounded up to an even
    // number, 6 (2 · ⌈9/4⌉). Accelerated rounds: the first half of 5 rounded up, 3; the
    // first half of those rounded up, 2, give 1 point, the third 0.5.
    let t = baku(9, 5, 10, 5);
    assert_eq!(t.len(), 9);
    for row in &t[..6] {
        assert_eq!(row, &[10, 10, 5]);
    }
    for row in &t[6..] {
        assert!(row.is_empty());
    }
    // 12 players, 9 rounds (the text's example of the rounds): GA 6, one point in rounds
    // 1-3, half a point in rounds 4-5.
    let t = baku(12, 9, 10, 5);
    assert_eq!(t[5], [10, 10, 10, 5, 5]);
    assert!(t[6].is_empty());
}

/// The pairing by pairing number (1-based), `white-black`, board order.
fn boards(h: &SwissHistory) -> Vec<(usize, usize)> {
    let p = pair_dutch(h).unwrap();
    p.boards.iter().map(|&(w, b)| (w + 1, b + 1)).collect()
}

#[test]
fn acceleration_changes_round_one() {
    let history = |acceleration: Vec<Vec<u32>>| SwissHistory {
        players: acceleration
            .into_iter()
            .map(|acceleration| SwissPlayer {
                rounds: Vec::new(),
                absent: false,
                acceleration,
            })
            .collect(),
        total_rounds: 5,
        points: PointSystem::default(),
        initial_color: chess960_events::model::Color::White,
    };
    // Unaccelerated: one bracket of 8, 1-5, 2-6, 3-7, 4-8.
    assert_eq!(
        boards(&history(vec![Vec::new(); 8])),
        [(1, 5), (6, 2), (3, 7), (8, 4)]
    );
    // Baku: GA = 1-4 on one virtual point, GB = 5-8 on none: each group pairs within itself.
    // Boards are published by real scores (all 0 here), then by the higher player's rank.
    assert_eq!(
        boards(&history(baku(8, 5, 10, 5))),
        [(1, 3), (4, 2), (5, 7), (8, 6)]
    );
}

#[test]
fn event_pairs_with_baku_and_keeps_the_option() {
    let mut e = event(8, 5, Acceleration::Baku);
    let r = e.pair(1, 1).unwrap().clone();
    let number = |i: usize| e.pairing_number(i).unwrap();
    let got: Vec<(usize, usize)> = r
        .boards
        .iter()
        .map(|b| (number(b.white), number(b.black)))
        .collect();
    assert_eq!(got, [(1, 3), (4, 2), (5, 7), (8, 6)]);
    // The JSON document keeps the option; a document without it reads as none.
    let json = to_json(&e);
    let mut doc: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(doc["event"]["acceleration"], "baku", "{json}");
    assert_eq!(from_json(&json).unwrap().acceleration, Acceleration::Baku);
    doc["event"].as_object_mut().unwrap().remove("acceleration");
    let old = doc.to_string();
    assert!(!old.contains("acceleration"));
    assert_eq!(from_json(&old).unwrap().acceleration, Acceleration::None);
    // Standings never include virtual points.
    for b in 1..=4 {
        e.set_result(1, b, Some(BoardResult::Draw)).unwrap();
    }
    for i in 0..8 {
        assert_eq!(e.score(i), 5);
    }
    // Only before round 1 is paired, and only in a Swiss.
    assert!(e.set_acceleration(Acceleration::None).is_err());
    let mut rr = Event::new("RR", Format::RoundRobin { cycles: 1 }, 0, Side::White).unwrap();
    assert!(rr.set_acceleration(Acceleration::Baku).is_err());
}

#[test]
fn xxa_round_trip() {
    // 10 players, 7 rounds: GA is 6 players (2 · ⌈10/4⌉), 1 point in rounds 1-2, 0.5 in 3-4.
    let mut e = event(10, 7, Acceleration::Baku);
    e.pair(1, 1).unwrap();
    for b in 1..=5 {
        e.set_result(1, b, Some(BoardResult::WhiteWins)).unwrap();
    }
    let text = trf::write(&to_trf(&e));
    let xxa: Vec<&str> = text.lines().filter(|l| l.starts_with("XXA")).collect();
    assert_eq!(xxa.len(), 6, "{text}");
    assert_eq!(xxa[0], "XXA    1  1.0  1.0  0.5  0.5");
    assert_eq!(xxa[5], "XXA    6  1.0  1.0  0.5  0.5");
    let f = trf::read(&text).unwrap();
    assert_eq!(f.accelerations.len(), 6);
    assert_eq!(f.accelerations[&6], [10, 10, 5, 5]);
    assert_eq!(trf::write(&f), text);
    // Imported, the lines are the Baku method's again, and the event pairs as before.
    let back = from_trf(&f).unwrap();
    assert_eq!(back.acceleration, Acceleration::Baku);
    let h = f.history(2).unwrap();
    assert_eq!(h.players[0].acceleration, [10, 10, 5, 5]);
    assert!(h.players[6].acceleration.is_empty());
    let mut a = e.clone();
    let mut b = back.clone();
    let pa = a.pair(2, 1).unwrap().boards.clone();
    let pb = b.pair(2, 1).unwrap().boards.clone();
    let num = |e: &Event, i: usize| e.pairing_number(i).unwrap();
    let pa: Vec<_> = pa
        .iter()
        .map(|x| (num(&a, x.white), num(&a, x.black)))
        .collect();
    let pb: Vec<_> = pb
        .iter()
        .map(|x| (num(&b, x.white), num(&b, x.black)))
        .collect();
    assert_eq!(pa, pb);

    // Lines that are not the Baku method's are kept as written (`custom`), blanks as 0.
    let custom = text
        .lines()
        .filter(|l| !l.starts_with("XXA"))
        .chain(["XXA    2  2.0       1.0", "XXA    9  0.5"])
        .collect::<Vec<_>>()
        .join("\n");
    let f = trf::read(&custom).unwrap();
    assert_eq!(f.accelerations[&2], [20, 0, 10]);
    let c = from_trf(&f).unwrap();
    assert_eq!(c.acceleration, Acceleration::Custom);
    assert_eq!(c.virtual_points, [(1, vec![20, 0, 10]), (8, vec![5])]);
    let again = trf::write(&to_trf(&c));
    assert!(again.contains("\nXXA    2  2.0  0.0  1.0\n"), "{again}");
    assert!(again.contains("\nXXA    9  0.5\n"), "{again}");
}

#[test]
fn bad_xxa_lines_name_their_line() {
    let e = event(4, 5, Acceleration::None);
    let text = trf::write(&to_trf(&e));
    let lines = text.lines().count();
    for (bad, what) in [
        ("XXA    x  1.0", "starting rank"),
        ("XXA    1  1.x", "round 1"),
        ("XXA    1  1.0x 0.5", "column 14"),
        ("XXA    1  1.0  0.5  zz", "column 20"),
        ("XXA    7  1.0", "not a player"),
        ("XXA    1  1.0  1.0  1.0  1.0  1.0  1.0", "the event has 5"),
    ] {
        let f = format!("{text}{bad}\n");
        let err = trf::read(&f).unwrap_err();
        assert_eq!(err.line, lines + 1, "{bad}: {err}");
        assert!(err.message.contains(what), "{bad}: {err}");
    }
    let twice = format!("{text}XXA    1  1.0\nXXA    1  0.5\n");
    let err = trf::read(&twice).unwrap_err();
    assert_eq!(err.line, lines + 2);
}
