//! Event documents from outside (issue 37): validation refuses what no live event can be and
//! says where, accepts every state a live event passes through, and nothing that reads an
//! event panics on any document. The mutated documents go through
//! `chess960_events::check::document`, the same check as the fuzz target `event_doc`.

use chess960_draw::rng::SplitMix64;
use chess960_events::check::{self, Reading};
use chess960_events::event::{
    BoardResult, ByeRequest, DrawSpec, Event, EventError, Format, Player, Side,
};
use chess960_events::export::{to_json, to_trf};
use chess960_events::import::{from_json, read, ImportError};
use chess960_events::knockout::KnockoutPlan;
use chess960_events::trf;
use chess960_events::validate::{DocumentError, Place, Problem};
use serde_json::Value;

/// The draw crate's seeded generator, with the index-sized draws these tests make.
struct Rng(SplitMix64);

impl Rng {
    fn seeded(seed: u64) -> Rng {
        Rng(SplitMix64::from_seed(seed))
    }

    fn next(&mut self) -> u64 {
        self.0.next_u64()
    }

    fn below(&mut self, n: usize) -> usize {
        self.0.below(n.max(1) as u64) as usize
    }
}

fn player(name: &str, rating: u16) -> Player {
    Player {
        name: name.into(),
        rating: Some(rating),
        fide_id: Some(1_000_000 + rating as u64),
        federation: "NOR".into(),
        title: String::new(),
        joined: 1,
        withdrawn: None,
        byes: Vec::new(),
        account: None,
        engine: None,
    }
}

fn all_results(e: &mut Event, round: u32, rng: &mut Rng) {
    let boards = e.played[round as usize - 1].boards.len();
    for b in 0..boards {
        let r = BoardResult::ALL[rng.below(BoardResult::ALL.len())];
        e.set_result(round, b as u32 + 1, Some(r)).unwrap();
    }
}

/// Events as arbiters leave them: a Swiss under way (byes, a late entry, a withdrawal,
/// forfeits, the next round paired without results), a double round robin with physical
/// draws and repeated positions, a Swiss with a position per board, and the Swiss again as
/// a TRF import makes it.
fn real_events() -> Vec<Event> {
    let mut rng = Rng::seeded(0x9e37_79b9_7f4a_7c15);
    let mut swiss = Event::new("Club 960 Open", Format::Swiss, 6, Side::White).unwrap();
    swiss.city = "Oslo".into();
    swiss.start_date = "2026-12-01".into();
    swiss.positions.rules.no_repeat = true;
    for k in 0..13u16 {
        swiss
            .add_player(player(&format!("Player {k:02}"), 2400 - 37 * k))
            .unwrap();
    }
    swiss.request_bye(3, 2, ByeRequest::Half).unwrap();
    swiss.request_bye(5, 5, ByeRequest::Zero).unwrap();
    for round in 1..=4u32 {
        if round == 3 {
            swiss.withdraw(8, None).unwrap();
            swiss.add_player(player("Late, Comer", 2222)).unwrap();
        }
        swiss
            .draw_position(round, DrawSpec::Computer { seed: round as u64 }, false)
            .unwrap();
        swiss.pair(round, 0).unwrap();
        if round < 4 {
            all_results(&mut swiss, round, &mut rng);
        }
    }
    let mut rr = Event::new(
        "Double 960",
        Format::RoundRobin { cycles: 2 },
        0,
        Side::White,
    )
    .unwrap();
    rr.positions.second_cycle_repeats = true;
    for n in ["Anna", "Bert", "Cleo", "Dirk", "Emil"] {
        rr.add_player(player(n, 2000)).unwrap();
    }
    for round in 1..=7u32 {
        let how = DrawSpec::Physical {
            method: "die".into(),
            seed: Some(round as u64),
            outcomes: None,
        };
        rr.draw_position(round, how, false).unwrap();
        rr.pair(round, 3).unwrap();
        all_results(&mut rr, round, &mut rng);
    }
    let mut per_board = Event::new("Per board", Format::Swiss, 3, Side::Black).unwrap();
    per_board.positions.per_board = true;
    for k in 0..6u16 {
        per_board
            .add_player(player(&format!("P{k}"), 1800 + k))
            .unwrap();
    }
    for round in 1..=2u32 {
        per_board.pair(round, 0).unwrap();
        per_board
            .draw_position(round, DrawSpec::Computer { seed: 11 }, false)
            .unwrap();
        all_results(&mut per_board, round, &mut rng);
    }
    let imported = read(&trf::write(&to_trf(&swiss))).unwrap();
    // A knockout of 6 (two byes) with two matches through rapid and blitz to the Armageddon,
    // and round 2 under way.
    let mut ko = Event::new(
        "Knockout 960",
        Format::Knockout(KnockoutPlan::default()),
        0,
        Side::White,
    )
    .unwrap();
    ko.positions.rules.no_repeat = true;
    for k in 0..6u16 {
        ko.add_player(player(&format!("K{k}"), 2500 - 10 * k))
            .unwrap();
    }
    ko.draw_position(1, DrawSpec::Computer { seed: 5 }, false)
        .unwrap();
    ko.pair(1, 0).unwrap();
    // Match 2 (4–5) and match 4 (3–6): each player wins with White, then draws.
    for (b, r) in [
        BoardResult::WhiteWins,
        BoardResult::WhiteWins,
        BoardResult::WhiteWins,
        BoardResult::BlackWins,
    ]
    .into_iter()
    .enumerate()
    {
        ko.set_result(1, b as u32 + 1, Some(r)).unwrap();
    }
    for stage in 1..=3u32 {
        ko.draw_stage_position(1, stage, DrawSpec::Computer { seed: stage as u64 }, false)
            .unwrap();
        ko.add_tiebreaks(1, 9).unwrap();
        let open: Vec<u32> = ko.played[0]
            .boards
            .iter()
            .enumerate()
            .filter(|(_, b)| b.result.is_none())
            .map(|(j, _)| j as u32 + 1)
            .collect();
        for b in open {
            ko.set_result(1, b, Some(BoardResult::Draw)).unwrap();
        }
    }
    ko.pair(2, 0).unwrap();
    ko.set_result(2, 1, Some(BoardResult::Draw)).unwrap();
    let events = vec![swiss, rr, per_board, imported, ko];
    for e in &events {
        e.validate().unwrap();
    }
    events
}

/// Every state a live event passes through validates: random operations (a few hundred
/// events, Swiss and round robin), and after each one that succeeds, `validate`.
#[test]
fn every_live_event_validates() {
    let mut rng = Rng::seeded(12345);
    for k in 0..120 {
        let format = match k % 4 {
            0 | 1 => Format::Swiss,
            2 => Format::RoundRobin {
                cycles: 1 + (k / 4 % 2) as u32,
            },
            _ => Format::Knockout(KnockoutPlan {
                games: 1 + rng.below(3) as u32,
                ..KnockoutPlan::default()
            }),
        };
        let knockout = matches!(format, Format::Knockout(_));
        let mut e = Event::new(
            &format!("Event {k}"),
            format.clone(),
            1 + rng.below(7) as u32,
            Side::White,
        )
        .unwrap();
        e.positions.rules.no_repeat = rng.below(2) == 0;
        e.positions.rules.exclude_518 = rng.below(2) == 0;
        e.positions.per_board = !knockout && rng.below(5) == 0;
        if format == (Format::RoundRobin { cycles: 2 }) {
            e.positions.second_cycle_repeats = rng.below(2) == 0;
        }
        if rng.below(4) == 0 {
            e.positions.list = (0..8).map(|_| rng.below(960) as u16).collect();
        }
        e.validate().unwrap();
        for step in 0..80 {
            let n = e.players.len();
            let next = e.rounds_paired() + 1;
            let any_round = 1 + rng.below(next as usize + 1) as u32;
            let done = match rng.below(10) {
                0 | 1 if n < 16 => e
                    .add_player(player(&format!("P{step}"), 1500 + rng.below(900) as u16))
                    .is_ok(),
                2 => e.withdraw(rng.below(n + 1), None).is_ok(),
                3 => {
                    let kind = [ByeRequest::Half, ByeRequest::Zero, ByeRequest::Full][rng.below(3)];
                    e.request_bye(rng.below(n + 1), any_round, kind).is_ok()
                }
                4 => {
                    let how = match rng.below(4) {
                        0 => DrawSpec::Computer { seed: rng.next() },
                        1 => DrawSpec::Physical {
                            method: ["die", "coins", "bag", "cards"][rng.below(4)].into(),
                            seed: Some(rng.next()),
                            outcomes: None,
                        },
                        2 => DrawSpec::Set(rng.below(960) as u32),
                        _ => DrawSpec::List,
                    };
                    e.draw_position(any_round, how, rng.below(2) == 0).is_ok()
                }
                5 | 6 => e.pair(next, rng.next()).is_ok(),
                7 => e.unpair(next - 1).is_ok(),
                8 if knockout && rng.below(2) == 0 => {
                    let stage = 1 + rng.below(4) as u32;
                    e.draw_stage_position(
                        any_round,
                        stage,
                        DrawSpec::Computer { seed: rng.next() },
                        rng.below(2) == 0,
                    )
                    .is_ok()
                }
                8 if knockout => e.add_tiebreaks(any_round, rng.next()).is_ok(),
                _ => {
                    let round = 1 + rng.below(next as usize) as u32;
                    let boards = e
                        .played
                        .get(round as usize - 1)
                        .map_or(0, |r| r.boards.len());
                    let mut ok = false;
                    for b in 0..boards {
                        let r = match rng.below(8) {
                            0 => None,
                            x => Some(BoardResult::ALL[x % BoardResult::ALL.len()]),
                        };
                        ok |= e.set_result(round, b as u32 + 1, r).is_ok();
                    }
                    ok
                }
            };
            if done {
                if let Err(x) = e.validate() {
                    panic!("event {k}, step {step}: a live event fails validation: {x}\n{e:?}");
                }
            }
        }
        // Its JSON export imports, and so does its TRF export (a Swiss).
        from_json(&to_json(&e)).unwrap();
        if format == Format::Swiss && e.rounds_paired() > 0 {
            let t = trf::write(&to_trf(&e));
            if let Err(x) = read(&t) {
                panic!("event {k}: its TRF export does not import: {x}\n{t}");
            }
        }
    }
}

/// A result cleared in round 1 after round 2 was paired: pairing round 3 says so (it used to
/// panic: the pairing read round 1's missing result).
#[test]
fn a_result_missing_in_an_earlier_round_stops_the_pairing() {
    let mut e = Event::new("Cleared", Format::Swiss, 5, Side::White).unwrap();
    for k in 0..6u16 {
        e.add_player(player(&format!("P{k}"), 2000 + k)).unwrap();
    }
    let mut rng = Rng::seeded(7);
    for round in 1..=2 {
        e.pair(round, 0).unwrap();
        all_results(&mut e, round, &mut rng);
    }
    e.set_result(1, 2, None).unwrap();
    assert_eq!(
        e.pair(3, 0).unwrap_err(),
        EventError::ResultsMissing {
            round: 1,
            boards: vec![2]
        }
    );
}

fn document(e: &Value) -> String {
    serde_json::to_string(&serde_json::json!({"chess960_event": 1, "event": e})).unwrap()
}

fn refused(text: &str) -> DocumentError {
    match read(text) {
        Err(ImportError::Document(d)) => d,
        other => panic!("expected a document error, got {other:?}"),
    }
}

/// The documents of the issue: each is refused, and the error names the place.
#[test]
fn damaged_documents_are_refused_with_their_place() {
    let swiss = &real_events()[0];
    let base = serde_json::to_value(swiss).unwrap();
    let n = swiss.players.len();

    let mut v = base.clone();
    v["played"][2]["boards"][4]["black"] = Value::from(412);
    let d = refused(&document(&v));
    assert_eq!(
        d,
        DocumentError::new(
            Place::Board { round: 3, board: 5 },
            Problem::NoSuchPlayer {
                index: 412,
                players: n
            }
        )
    );
    assert_eq!(
        d.to_string(),
        format!(
            "round 3, board 5: player index 412 names no player (the event has {n}: 0 to {})",
            n - 1
        )
    );

    let mut v = base.clone();
    v["name"] = Value::from("x".repeat(10 << 20));
    let d = refused(&document(&v));
    assert_eq!(
        d.to_string(),
        "the event: the name has 10485760 characters: at most 200"
    );

    let mut v = base.clone();
    v["players"][3]["name"] = Value::from("y".repeat(201));
    assert_eq!(
        refused(&document(&v)).to_string(),
        "player 4: the name has 201 characters: at most 200"
    );

    let mut v = base.clone();
    let p = v["players"][0].clone();
    v["players"] = Value::Array(vec![p; 120_000]);
    assert_eq!(
        refused(&document(&v)).to_string(),
        "the event: 120000 players: at most 1000"
    );

    let mut v = base.clone();
    v["played"][1]["byes"][0][0] = v["played"][1]["boards"][0]["white"].clone();
    assert!(matches!(
        refused(&document(&v)).problem,
        Problem::PlayerTwice { .. }
    ));

    let mut v = base.clone();
    v["players"][5]["name"] = Value::from("player 00");
    assert_eq!(
        refused(&document(&v)).to_string(),
        "player 6: the same name as player 1"
    );

    let mut v = base.clone();
    v["played"][0]["draw"]["id"] = Value::from(4000);
    assert_eq!(
        refused(&document(&v)).to_string(),
        "round 1: position 4000: positions are 0 to 959"
    );

    let mut v = base.clone();
    v["played"][0]["draw"]["id"] =
        Value::from((swiss.played[0].draw.as_ref().unwrap().id + 1) % 960);
    assert!(matches!(
        refused(&document(&v)),
        DocumentError {
            place: Place::Round(1),
            problem: Problem::Draw(_)
        }
    ));

    let mut v = base.clone();
    v["order"][3] = Value::from(n + 7);
    assert_eq!(refused(&document(&v)).place, Place::Order(4),);

    let mut v = base.clone();
    v["played"][3]["paired"] = Value::from(false);
    assert_eq!(
        refused(&document(&v)).to_string(),
        "round 4: not paired, but it has pairings"
    );

    let mut v = base.clone();
    v["points"]["win"] = Value::from(u32::MAX);
    assert!(refused(&document(&v)).to_string().contains("at most 100"));

    // The JSON reader's own messages stay short, whatever the document holds.
    let mut v = base.clone();
    v["rounds"] = Value::from("z".repeat(1 << 20));
    match read(&document(&v)) {
        Err(ImportError::Json(m)) => assert!(m.len() < 1000, "{} bytes", m.len()),
        other => panic!("{other:?}"),
    }
    match read(r#"{"chess960_event": 2, "event": {}}"#) {
        Err(e @ ImportError::Version(2)) => assert!(e.to_string().contains("format 2")),
        other => panic!("{other:?}"),
    }

    // A TRF of more players than an event takes.
    let mut t = String::new();
    for id in 1..=1100 {
        t += &format!(
            "001 {id:>4}      {:<33} {:>4}                             0.0\n",
            format!("P{id}"),
            1500
        );
    }
    let e = read(&t).unwrap_err();
    assert_eq!(e.to_string(), "the event: 1100 players: at most 1000");
}

/// The JSON of an event, as the export writes it, is the value's `pointer`-addressable tree:
/// every node's pointer (a walk with a stack, not recursion).
fn pointers(v: &Value) -> Vec<String> {
    let mut out = Vec::new();
    let mut stack = vec![(String::new(), v)];
    while let Some((at, node)) = stack.pop() {
        match node {
            Value::Array(a) => {
                for (k, x) in a.iter().enumerate() {
                    stack.push((format!("{at}/{k}"), x));
                }
            }
            Value::Object(o) => {
                for (k, x) in o {
                    stack.push((
                        format!("{at}/{}", k.replace('~', "~0").replace('/', "~1")),
                        x,
                    ));
                }
            }
            _ => {}
        }
        out.push(at);
    }
    out
}

/// One structural change of a document: a number, a text, a list or a flag.
fn mutate(v: &mut Value, rng: &mut Rng, players: usize) {
    let all = pointers(v);
    let at = &all[rng.below(all.len())];
    let Some(node) = v.pointer_mut(at) else {
        return;
    };
    match node {
        Value::Number(_) => {
            *node = match rng.below(9) {
                0 => Value::from(players),
                1 => Value::from(players + 1 + rng.below(500)),
                2 => Value::from(0),
                3 => Value::from(u64::MAX),
                4 => Value::from(u32::MAX),
                5 => Value::from(960 + rng.below(100)),
                6 => Value::from(rng.below(players.max(1))),
                7 => Value::from(1 + rng.below(120)),
                _ => Value::from(-1),
            }
        }
        Value::String(s) => {
            *s = match rng.below(6) {
                0 => String::new(),
                1 => "x".repeat(150 + rng.below(200)),
                2 => "line\nbreak".into(),
                3 => "Player 01".into(),
                4 => "2026-13-45".into(),
                _ => "x".repeat(600 + rng.below(2000)),
            }
        }
        Value::Bool(b) => *b = !*b,
        Value::Array(a) if !a.is_empty() => match rng.below(5) {
            0 => {
                a.remove(rng.below(a.len()));
            }
            1 => {
                let x = a[rng.below(a.len())].clone();
                let at = rng.below(a.len() + 1);
                a.insert(at, x);
            }
            2 => {
                let x = a[rng.below(a.len())].clone();
                let more = 1 + rng.below(600);
                a.extend(std::iter::repeat_n(x, more));
            }
            3 => a.reverse(),
            _ => a.clear(),
        },
        Value::Null => *node = Value::from(rng.below(players + 2)),
        _ => *node = Value::Null,
    }
}

/// Byte-level damage to a text: a character replaced by one a JSON document or a TRF line
/// holds, a piece cut out or doubled.
fn damage(text: &str, rng: &mut Rng) -> Vec<u8> {
    let mut b = text.as_bytes().to_vec();
    for _ in 0..1 + rng.below(4) {
        if b.is_empty() {
            break;
        }
        let at = rng.below(b.len());
        match rng.below(4) {
            0 | 1 => {
                let alphabet = b"0123456789 wb=+-UHFZ,:[]{}\"\n";
                b[at] = alphabet[rng.below(alphabet.len())];
            }
            2 => {
                let end = (at + 1 + rng.below(40)).min(b.len());
                b.drain(at..end);
            }
            _ => {
                let end = (at + 1 + rng.below(200)).min(b.len());
                let piece = b[at..end].to_vec();
                b.splice(at..at, piece);
            }
        }
    }
    b
}

/// Thousands of damaged documents through the fuzz target's check: no panic, every accepted
/// document exports and has its standings (`check::document` asserts that), and both answers
/// come up often.
#[test]
fn mutated_documents_never_panic() {
    let events = real_events();
    let mut rng = Rng::seeded(0x37);
    let rounds: usize = std::env::var("CHESS960_DOC_MUTATIONS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(600);
    let (mut accepted, mut refused) = (0, 0);
    let mut count = |r: Reading| match r {
        Reading::Accepted => accepted += 1,
        Reading::Refused => refused += 1,
        Reading::Unread => {}
    };
    for k in 0..rounds {
        let e = &events[k % events.len()];
        let n = e.players.len();
        // Structural: the document's tree changed in one to three places.
        let mut v = serde_json::to_value(e).unwrap();
        for _ in 0..1 + rng.below(3) {
            mutate(&mut v, &mut rng, n);
        }
        let out = check::document(document(&v).as_bytes());
        count(out.json);
        // Byte-level: the JSON text and the TRF export.
        count(check::document(&damage(&to_json(e), &mut rng)).json);
        count(check::document(&damage(&trf::write(&to_trf(e)), &mut rng)).trf);
    }
    println!(
        "{} documents: {accepted} accepted, {refused} refused, the rest unread",
        3 * rounds
    );
    assert!(
        accepted > rounds / 20 && refused > rounds / 10,
        "{accepted} accepted, {refused} refused of {} documents",
        3 * rounds
    );
    // The undamaged events pass the same check.
    for e in &events {
        assert_eq!(check::event(e), Reading::Accepted);
        assert_eq!(
            check::document(to_json(e).as_bytes()).json,
            Reading::Accepted
        );
    }
}
