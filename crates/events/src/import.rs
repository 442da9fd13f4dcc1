//! An event from outside: the JSON document that `export` writes (the whole event), or a FIDE
//! TRF file (from another pairing program, or a rating report: its players in starting-rank
//! order, every round's pairings with colours and results, byes; positions are not in a TRF,
//! they can be drawn or set for rounds still to come).
//!
//! Either way the event must pass [`Event::validate`], every check a live event passes, before
//! it is given back: an imported event is one the live operations could have made.

use crate::event::{
    Board, BoardResult, ByeRequest, Event, EventRound, Format, Player, RoundBye, Side, MAX_PLAYERS,
    MAX_ROUNDS,
};
use crate::model::Color;
use crate::trf::{TrfError, TrfFile};
use crate::validate::{DocumentError, Place, Problem};
use std::collections::HashMap;
use std::fmt;

/// The version of the JSON document (`"chess960_event": 1`).
pub const JSON_VERSION: u32 = 1;

/// The longest piece of a JSON parser's message that an error quotes: serde quotes the value
/// it did not expect, which may be a 10 MB string.
const MAX_MESSAGE: usize = 300;

/// Why a file is not an event that can be imported.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ImportError {
    /// Not the JSON document of an exported event (the parser's message, with its line and
    /// column).
    Json(String),
    /// A JSON document of a later version than this program reads.
    Version(u64),
    /// A TRF file that does not read.
    Trf(TrfError),
    /// Read, but not an event the live operations could have made.
    Document(DocumentError),
}

impl fmt::Display for ImportError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ImportError::Json(m) => write!(f, "not an exported event: {m}"),
            ImportError::Version(v) => write!(
                f,
                "event format {v} is not one this program reads (it reads {JSON_VERSION})"
            ),
            ImportError::Trf(e) => write!(f, "{e}"),
            ImportError::Document(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for ImportError {}

impl From<DocumentError> for ImportError {
    fn from(e: DocumentError) -> ImportError {
        ImportError::Document(e)
    }
}

/// An event file's text, whichever it is: a JSON document (text starting with `{`) or a TRF
/// file; checked ([`Event::validate`]).
pub fn read(text: &str) -> Result<Event, ImportError> {
    if text.trim_start().starts_with('{') {
        from_json(text)
    } else {
        let f = crate::trf::read(text).map_err(ImportError::Trf)?;
        Ok(from_trf(&f)?)
    }
}

/// The event of a JSON document as `export` writes it ([`crate::export::to_json`]), checked
/// ([`Event::validate`]).
pub fn from_json(text: &str) -> Result<Event, ImportError> {
    let e = parse_json(text)?;
    e.validate()?;
    Ok(e)
}

/// The event of a JSON document, not checked: what the store holds may be read this way
/// (every function of this crate takes it without a panic), but only a checked event should
/// be changed or saved.
pub fn parse_json(text: &str) -> Result<Event, ImportError> {
    #[derive(serde::Deserialize)]
    struct Version {
        chess960_event: u64,
    }
    #[derive(serde::Deserialize)]
    struct Doc {
        event: Event,
    }
    let json = |e: serde_json::Error| ImportError::Json(shorten(&e.to_string()));
    // The version first, so that a later version's document is refused as such and not
    // for a field this version does not know.
    let v: Version = serde_json::from_str(text).map_err(json)?;
    if v.chess960_event != JSON_VERSION as u64 {
        return Err(ImportError::Version(v.chess960_event));
    }
    let doc: Doc = serde_json::from_str(text).map_err(json)?;
    Ok(doc.event)
}

/// `m` cut to [`MAX_MESSAGE`] characters, with control characters escaped: one short line.
fn shorten(m: &str) -> String {
    let mut out: String = m
        .chars()
        .take(MAX_MESSAGE)
        .flat_map(|c| {
            if c.is_control() {
                c.escape_default().collect::<Vec<_>>()
            } else {
                vec![c]
            }
        })
        .collect();
    if m.chars().nth(MAX_MESSAGE).is_some() {
        out.push('…');
    }
    out
}

/// The event a TRF file describes (a Swiss; the rounds planned from `XXR`/`142`, else the
/// rounds played), checked ([`Event::validate`]). Dates that are not `YYYY/MM/DD` are left
/// out (a live event keeps only `YYYY-MM-DD`).
pub fn from_trf(f: &TrfFile) -> Result<Event, DocumentError> {
    let e = build_from_trf(f)?;
    e.validate()?;
    Ok(e)
}

/// [`from_trf`] without the final check (the fuzz check exercises such events too).
pub(crate) fn build_from_trf(f: &TrfFile) -> Result<Event, DocumentError> {
    let whole = |problem: Problem| DocumentError::new(Place::Event, problem);
    // Counts first: what follows costs in proportion to them.
    if f.players.len() > MAX_PLAYERS {
        return Err(whole(Problem::TooMany {
            what: "players",
            count: f.players.len() as u64,
            max: MAX_PLAYERS as u64,
        }));
    }
    let played = f.rounds_played();
    let total = f.total_rounds.unwrap_or(played).max(played).max(1);
    if total > MAX_ROUNDS as usize {
        return Err(whole(Problem::TooMany {
            what: "rounds",
            count: total as u64,
            max: MAX_ROUNDS as u64,
        }));
    }
    let side = match f.first_color() {
        Color::White => Side::White,
        Color::Black => Side::Black,
    };
    let name = if f.name.trim().is_empty() {
        "Imported event"
    } else {
        f.name.as_str()
    };
    let mut e = Event::new(name, Format::Swiss, total as u32, side)
        .map_err(|x| whole(Problem::Inconsistent(x.to_string())))?;
    e.city = f.city.clone();
    e.federation = f.federation.clone();
    e.start_date = trf_date(&f.start_date);
    e.end_date = trf_date(&f.end_date);
    e.arbiter = f.chief_arbiter.clone();
    e.time_control = f.time_control.clone();
    e.points.win = f.points.win;
    e.points.draw = f.points.draw;
    let index_of: HashMap<u32, usize> =
        f.ids().iter().enumerate().map(|(k, &id)| (id, k)).collect();
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
            account: None,
            engine: None,
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
                    let j = *index_of.get(&o).ok_or_else(|| {
                        DocumentError::new(
                            Place::Round(k as u32 + 1),
                            Problem::Inconsistent(format!("unknown opponent {o}")),
                        )
                    })?;
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
                            let theirs =
                                by_rank.get(j).and_then(|q| q.rounds.get(k)).map(|x| x.code);
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
                        slot: None,
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
    // XXA lines: the Baku method's virtual points if they are exactly those (C.04.5.1 as
    // `Event::acceleration_table` reads it), else each player's as written.
    if !f.accelerations.is_empty() {
        let rows: Vec<(usize, Vec<u32>)> = by_rank
            .iter()
            .enumerate()
            .filter_map(|(i, p)| {
                let v = f.accelerations.get(&p.id)?;
                (!v.is_empty()).then(|| (i, v.clone()))
            })
            .collect();
        let mut written = vec![Vec::new(); by_rank.len()];
        for (i, v) in &rows {
            written[*i].clone_from(v);
        }
        let mut baku = e.clone();
        baku.acceleration = crate::accel::Acceleration::Baku;
        if baku.acceleration_table() == written {
            e.acceleration = crate::accel::Acceleration::Baku;
        } else if !rows.is_empty() {
            e.acceleration = crate::accel::Acceleration::Custom;
            e.virtual_points = rows;
        }
    }
    // A next-round entry (a bye asked for) is a request for that round, if the event has it.
    if played < total {
        for (i, p) in by_rank.iter().enumerate() {
            if let Some(r) = p.rounds.get(played).filter(|r| r.opponent.is_none()) {
                let kind = match r.code {
                    'H' => Some(ByeRequest::Half),
                    'F' => Some(ByeRequest::Full),
                    'Z' | '-' => Some(ByeRequest::Zero),
                    _ => None,
                };
                if let (Some(kind), Some(q)) = (kind, e.players.get_mut(i)) {
                    q.byes.push((played as u32 + 1, kind));
                }
            }
        }
    }
    Ok(e)
}

/// A TRF date (`YYYY/MM/DD`) as the event keeps it (`YYYY-MM-DD`); anything else as none.
fn trf_date(d: &str) -> String {
    let d = d.trim().replace('/', "-");
    if crate::validate::is_date(&d) {
        d
    } else {
        String::new()
    }
}
