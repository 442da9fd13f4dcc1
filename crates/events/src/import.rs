//! An event from a FIDE TRF file (from another pairing program, or a rating report): its
//! players in starting-rank order, every round's pairings with colours and results, byes.
//! Positions are not in a TRF; they can be drawn or set for rounds still to come.

use crate::event::{Board, BoardResult, Event, EventRound, Format, Player, RoundBye, Side};
use crate::model::Color;
use crate::trf::TrfFile;

/// The event a TRF file describes (a Swiss; the rounds planned from `XXR`/`142`, else the
/// rounds played).
pub fn from_trf(f: &TrfFile) -> Result<Event, String> {
    let played = f.rounds_played();
    let total = f.total_rounds.unwrap_or(played).max(played).max(1) as u32;
    let side = match f.first_color() {
        Color::White => Side::White,
        Color::Black => Side::Black,
    };
    let name = if f.name.trim().is_empty() {
        "Imported event"
    } else {
        f.name.as_str()
    };
    let mut e = Event::new(name, Format::Swiss, total, side).map_err(|x| x.to_string())?;
    e.city = f.city.clone();
    e.federation = f.federation.clone();
    e.start_date = f.start_date.replace('/', "-");
    e.end_date = f.end_date.replace('/', "-");
    e.arbiter = f.chief_arbiter.clone();
    e.time_control = f.time_control.clone();
    e.points.win = f.points.win;
    e.points.draw = f.points.draw;
    let ids = f.ids();
    let index_of = |id: u32| ids.iter().position(|&x| x == id);
    let mut by_rank: Vec<&crate::trf::TrfPlayer> = f.players.iter().collect();
    by_rank.sort_by_key(|p| p.id);
    for p in &by_rank {
        e.players.push(Player {
            name: p.name.clone(),
            rating: (p.rating > 0).then_some(p.rating),
            fide_id: p.fide_id.parse().ok(),
            federation: p.federation.clone(),
            title: p.title.clone(),
            joined: 1,
            withdrawn: None,
            byes: Vec::new(),
        });
    }
    e.order = (0..by_rank.len()).collect();
    e.order_note = "starting ranks of the imported TRF".into();
    for k in 0..played {
        let mut round = EventRound {
            paired: true,
            ..EventRound::default()
        };
        for (i, p) in by_rank.iter().enumerate() {
            let Some(r) = p.rounds.get(k) else {
                round.byes.push((i, RoundBye::Zero));
                continue;
            };
            match r.opponent {
                Some(o) => {
                    let j = index_of(o)
                        .ok_or_else(|| format!("round {}: unknown opponent {o}", k + 1))?;
                    // Each board once: from White's line (or the lower number when the
                    // colours are not written).
                    let white_here = match r.color {
                        Some(Color::White) => true,
                        Some(Color::Black) => false,
                        None => i < j,
                    };
                    if !white_here {
                        continue;
                    }
                    let result = match r.code {
                        '1' | 'W' => Some(BoardResult::WhiteWins),
                        '0' | 'L' => Some(BoardResult::BlackWins),
                        '=' | 'D' => Some(BoardResult::Draw),
                        '+' => Some(BoardResult::WhiteForfeit),
                        '-' => {
                            let theirs = by_rank[j].rounds.get(k).map(|x| x.code);
                            Some(if theirs == Some('+') {
                                BoardResult::BlackForfeit
                            } else {
                                BoardResult::DoubleForfeit
                            })
                        }
                        _ => None,
                    };
                    round.boards.push(Board {
                        white: i,
                        black: j,
                        result,
                        position: None,
                        game: None,
                    });
                }
                None => {
                    let kind = match r.code {
                        'U' | '+' => RoundBye::Pab,
                        'H' | '=' | 'D' => RoundBye::Half,
                        'F' => RoundBye::Full,
                        _ => RoundBye::Zero,
                    };
                    round.byes.push((i, kind));
                }
            }
        }
        e.played.push(round);
    }
    // A next-round entry (a bye asked for) is a request for that round.
    for (i, p) in by_rank.iter().enumerate() {
        if let Some(r) = p.rounds.get(played).filter(|r| r.opponent.is_none()) {
            let kind = match r.code {
                'H' => Some(crate::event::ByeRequest::Half),
                'F' => Some(crate::event::ByeRequest::Full),
                'Z' | '-' => Some(crate::event::ByeRequest::Zero),
                _ => None,
            };
            if let Some(kind) = kind {
                e.players[i].byes.push((played as u32 + 1, kind));
            }
        }
    }
    Ok(e)
}
