//! An event out to other programs: FIDE's TRF (for rating officers and pairing programs),
//! PGN (every board with the round's start position and its result, and the moves of games
//! played on the server) and the JSON document that `import` reads back.
//!
//! Every export takes any document, checked or not (the database may hold one written by an
//! older version): a player index that names no player is written as an unknown player, a
//! position outside 0..959 as no position, never a panic.

use crate::event::{BoardResult, Event, Player, RoundBye};
use crate::model::Color;
use crate::standings::standings;
use crate::trf::{TrfFile, TrfPlayer, TrfRound};
use chess960_core::StartId;
use chess960_pgn::{game_to_string, Game, Variant, WriteOptions};

/// The JSON document of a whole event (`{"chess960_event": 1, "event": …}`), as
/// [`crate::import::from_json`] reads it back.
pub fn to_json(e: &Event) -> String {
    #[derive(serde::Serialize)]
    struct Doc<'a> {
        chess960_event: u32,
        event: &'a Event,
    }
    let doc = Doc {
        chess960_event: crate::import::JSON_VERSION,
        event: e,
    };
    // An event holds only strings, numbers and lists: serialising it cannot fail.
    serde_json::to_string_pretty(&doc).unwrap_or_default() + "\n"
}

/// The event as a TRF file: players numbered by pairing order ([`Event::pairing_order`]), points and places from the standings, every paired round, the absences
/// already known for the next round (`H`, `F`, `Z`) and the virtual points of an accelerated
/// Swiss (`XXA`), so that a pairing program pairs it as we do.
pub fn to_trf(e: &Event) -> TrfFile {
    let order: Vec<usize> = e
        .pairing_order()
        .into_iter()
        .filter(|&i| i < e.players.len())
        .collect();
    let mut number = vec![0u32; e.players.len()];
    for (k, &i) in order.iter().enumerate() {
        number[i] = k as u32 + 1;
    }
    let places = standings(e);
    let mut place = vec![0u32; e.players.len()];
    for s in &places {
        if let Some(p) = place.get_mut(s.player) {
            *p = s.place;
        }
    }
    let paired = e.rounds_paired();
    // Virtual points (accelerated pairings) as `XXA` lines, by the TRF's starting ranks.
    let table = e.acceleration_table();
    let accelerations = order
        .iter()
        .filter(|&&i| table[i].iter().any(|&v| v > 0))
        .map(|&i| (number[i], table[i].clone()))
        .collect();
    let players = order
        .iter()
        .filter_map(|&i| Some((i, e.players.get(i)?)))
        .map(|(i, p)| {
            let mut rounds: Vec<TrfRound> = e
                .played
                .iter()
                .take(paired as usize)
                .map(|r| trf_round(r, i, &number))
                .collect();
            let next = paired.saturating_add(1);
            if next <= e.total_rounds() {
                let absence = if p.withdrawn.is_some_and(|w| next >= w) || next < p.joined {
                    Some('Z')
                } else {
                    p.byes
                        .iter()
                        .find(|(r, _)| *r == next)
                        .map(|(_, k)| match k {
                            crate::event::ByeRequest::Half => 'H',
                            crate::event::ByeRequest::Zero => 'Z',
                            crate::event::ByeRequest::Full => 'F',
                        })
                };
                if let Some(code) = absence {
                    rounds.push(TrfRound {
                        opponent: None,
                        color: None,
                        code,
                    });
                }
            }
            TrfPlayer {
                id: number[i],
                sex: String::new(),
                title: p.title.clone(),
                name: p.name.clone(),
                rating: p.rating.unwrap_or(0),
                federation: p.federation.clone(),
                fide_id: p.fide_id.map_or(String::new(), |id| id.to_string()),
                birth: String::new(),
                points: e.score(i),
                rank: place[i],
                rounds,
            }
        })
        .collect();
    TrfFile {
        name: e.name.clone(),
        city: e.city.clone(),
        federation: e.federation.clone(),
        start_date: e.start_date.replace('-', "/"),
        end_date: e.end_date.replace('-', "/"),
        kind: match e.format {
            crate::event::Format::Swiss => "Swiss (FIDE Dutch), Chess960".into(),
            crate::event::Format::RoundRobin { cycles: 1 } => "Round robin, Chess960".into(),
            crate::event::Format::RoundRobin { .. } => "Double round robin, Chess960".into(),
            crate::event::Format::Knockout(_) => "Knockout, Chess960".into(),
        },
        chief_arbiter: e.arbiter.clone(),
        deputies: Vec::new(),
        time_control: e.time_control.clone(),
        players,
        total_rounds: Some(e.total_rounds() as usize),
        initial_color: Some(e.initial_color.into()),
        points: e.points.system(),
        accelerations,
    }
}

/// The player at `i`, or a nameless stand-in when the index names no player.
fn player_or_unknown(e: &Event, i: usize) -> Player {
    e.players
        .get(i)
        .cloned()
        .unwrap_or_else(|| Player::named(format!("unknown player (index {i})")))
}

fn trf_round(r: &crate::event::EventRound, player: usize, number: &[u32]) -> TrfRound {
    for b in &r.boards {
        let white = b.white == player;
        if !white && b.black != player {
            continue;
        }
        // An opponent that is no player (a damaged document): the round reads as no game.
        let Some(&opp) = number.get(if white { b.black } else { b.white }) else {
            break;
        };
        let color = Some(if white { Color::White } else { Color::Black });
        let code = match (b.result, white) {
            (None, _) => ' ',
            (Some(BoardResult::Draw), _) => '=',
            (Some(BoardResult::WhiteWins), true) | (Some(BoardResult::BlackWins), false) => '1',
            (Some(BoardResult::WhiteWins), false) | (Some(BoardResult::BlackWins), true) => '0',
            (Some(BoardResult::WhiteForfeit), true) | (Some(BoardResult::BlackForfeit), false) => {
                '+'
            }
            _ => '-',
        };
        return TrfRound {
            opponent: Some(opp),
            color,
            code,
        };
    }
    let code = match r.byes.iter().find(|(p, _)| *p == player).map(|(_, k)| *k) {
        Some(RoundBye::Pab) => 'U',
        Some(RoundBye::Half) => 'H',
        Some(RoundBye::Full) => 'F',
        _ => 'Z',
    };
    TrfRound {
        opponent: None,
        color: None,
        code,
    }
}

/// A board's `Round` tag: `3.2` (round 3, board 2); in a knockout `3.2.4`: round 3, match 2,
/// the match's 4th game (tiebreak games counted on).
fn round_tag(r: &crate::event::EventRound, round: u32, board: u32) -> String {
    let slot = r.boards.get(board as usize - 1).and_then(|b| b.slot);
    match slot {
        Some(s) => {
            let game = r
                .boards
                .iter()
                .take(board as usize)
                .filter(|b| b.slot.is_some_and(|x| x.match_no == s.match_no))
                .count();
            format!("{round}.{}.{game}", s.match_no)
        }
        None => format!("{round}.{board}"),
    }
}

/// Every board of every paired round as PGN: the event's tags, the round's (or board's)
/// start position, the result. `moves` gives the game played on the server for a board's
/// game key, when there is one: its moves are written too.
pub fn to_pgn(e: &Event, moves: &dyn Fn(&str) -> Option<Game>) -> String {
    let mut out = String::new();
    let options = WriteOptions::default();
    for (k, r) in e.played.iter().enumerate().filter(|(_, r)| r.paired) {
        let round = k as u32 + 1;
        for (j, b) in r.boards.iter().enumerate() {
            let board = j as u32 + 1;
            // A position outside 0..959 (a damaged document) is written as none.
            let id = e
                .board_position(round, board)
                .filter(|&id| StartId::new(id as u32).is_ok());
            let mut g = b.game.as_deref().and_then(moves).unwrap_or_else(|| {
                let start = id
                    .and_then(|id| StartId::new(id as u32).ok())
                    .unwrap_or(StartId::CLASSICAL)
                    .position();
                Game::new(start, Variant::Chess960)
            });
            let (w, bl) = (player_or_unknown(e, b.white), player_or_unknown(e, b.black));
            let result = match b.result {
                Some(BoardResult::WhiteWins | BoardResult::WhiteForfeit) => {
                    chess960_core::GameResult::WhiteWins
                }
                Some(BoardResult::BlackWins | BoardResult::BlackForfeit) => {
                    chess960_core::GameResult::BlackWins
                }
                Some(BoardResult::Draw) => chess960_core::GameResult::Draw,
                // A double forfeit has no PGN result: both lost.
                Some(BoardResult::DoubleForfeit) | None => chess960_core::GameResult::Unknown,
            };
            g.result = result;
            let tags = &mut g.tags;
            tags.set("Event", e.name.clone());
            tags.set(
                "Site",
                if e.city.is_empty() {
                    "?".to_string()
                } else {
                    e.city.clone()
                },
            );
            tags.set(
                "Date",
                if e.start_date.is_empty() {
                    "????.??.??".to_string()
                } else {
                    e.start_date.replace('-', ".")
                },
            );
            tags.set("Round", round_tag(r, round, board));
            tags.set("White", w.name.clone());
            tags.set("Black", bl.name.clone());
            tags.set("Result", result.to_string());
            if let Some(r) = w.rating {
                tags.set("WhiteElo", r.to_string());
            }
            if let Some(r) = bl.rating {
                tags.set("BlackElo", r.to_string());
            }
            if let Some(id) = id {
                tags.set("StartPosition", id.to_string());
            }
            let tc = e.board_time_control(round, board);
            if !tc.is_empty() {
                tags.set("TimeControl", tc.to_string());
            }
            if let Some(res) = b.result.filter(|r| !r.played()) {
                tags.set("Termination", format!("forfeit ({})", res.text()));
            }
            out += &game_to_string(&g, &options);
            out.push('\n');
        }
    }
    out
}
