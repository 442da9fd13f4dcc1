//! FIDE's Tournament Report File (TRF-16, with the 2026 additions `142`, `152`, `162`): the
//! format rating officers submit and Swiss pairing programs exchange.
//!
//! [`read`] takes any line ending (bbpPairings writes bare carriage returns) and checks what
//! it reads: every error names its line. [`write`] writes the columns of TRF-16 (`001` lines
//! in the layout other programs read) plus `XXR`/`XXC`, and `XXA` (the virtual points of an
//! accelerated pairing, C.04.5), for pairing programs.

use crate::model::{ByeKind, Color, Outcome, PointSystem, Round, SwissHistory, SwissPlayer};
use std::collections::{BTreeMap, HashMap};
use std::fmt;

/// A TRF file that does not read, with the line (from 1) and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TrfError {
    /// The line, from 1 (0: the file as a whole).
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for TrfError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line == 0 {
            write!(f, "TRF: {}", self.message)
        } else {
            write!(f, "TRF line {}: {}", self.line, self.message)
        }
    }
}

impl std::error::Error for TrfError {}

/// One round of a player's `001` line, as written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TrfRound {
    /// The opponent's starting rank (`None`: `0000` or blank).
    pub opponent: Option<u32>,
    /// `w`, `b`, or `-`/blank.
    pub color: Option<Color>,
    /// The result code: `1 = 0 W D L + - U H F Z` or blank.
    pub code: char,
}

/// A player's `001` line.
#[derive(Clone, Debug, PartialEq)]
pub struct TrfPlayer {
    /// Starting rank (the pairing number), 1 to 9999.
    pub id: u32,
    /// `m`, `w` or blank.
    pub sex: String,
    /// FIDE title (`GM`, `WIM`, …) or blank.
    pub title: String,
    /// `Surname, Given name`.
    pub name: String,
    /// FIDE rating (0: none).
    pub rating: u16,
    /// Federation (three letters) or blank.
    pub federation: String,
    /// FIDE ID or blank.
    pub fide_id: String,
    /// Birth date `YYYY/MM/DD` or blank.
    pub birth: String,
    /// Points in tenths, as written.
    pub points: u32,
    /// Rank as written (0: none).
    pub rank: u32,
    /// The rounds, first to last (trailing blanks dropped).
    pub rounds: Vec<TrfRound>,
}

/// A whole TRF file.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TrfFile {
    /// `012` tournament name.
    pub name: String,
    /// `022` city.
    pub city: String,
    /// `032` federation.
    pub federation: String,
    /// `042` start date.
    pub start_date: String,
    /// `052` end date.
    pub end_date: String,
    /// `092` type of tournament.
    pub kind: String,
    /// `102` chief arbiter.
    pub chief_arbiter: String,
    /// `112` deputy arbiters.
    pub deputies: Vec<String>,
    /// `122` time control.
    pub time_control: String,
    /// The players in file order.
    pub players: Vec<TrfPlayer>,
    /// `XXR` / `142`: rounds the event has.
    pub total_rounds: Option<usize>,
    /// `XXC white1|black1` / `152 W|B`: the colour of pairing number 1 in round 1.
    pub initial_color: Option<Color>,
    /// `162`: the points (tenths).
    pub points: PointSystem,
    /// `XXA NNNN  v.v  v.v …`: a player's virtual points (accelerated pairings, C.04.5) by
    /// starting rank, round by round from round 1, in tenths; rounds past the list add none.
    pub accelerations: BTreeMap<u32, Vec<u32>>,
}

fn err(line: usize, message: impl Into<String>) -> TrfError {
    TrfError {
        line,
        message: message.into(),
    }
}

/// The characters `from..to` (0-based, clipped) trimmed.
fn field(chars: &[char], from: usize, to: usize) -> String {
    let to = to.min(chars.len());
    if from >= to {
        return String::new();
    }
    chars[from..to]
        .iter()
        .collect::<String>()
        .trim()
        .to_string()
}

/// Reads a TRF file.
pub fn read(text: &str) -> Result<TrfFile, TrfError> {
    let mut f = TrfFile::default();
    let mut seen: HashMap<u32, usize> = HashMap::new();
    let mut xxa_lines: BTreeMap<u32, usize> = BTreeMap::new();
    for (i, raw) in text.split(['\r', '\n']).enumerate() {
        let line_no = i + 1;
        let chars: Vec<char> = raw.chars().collect();
        if chars.len() < 3 {
            continue;
        }
        let tag: String = chars[..3].iter().collect();
        let rest = field(&chars, 4, chars.len());
        match tag.as_str() {
            "001" => {
                let p = read_player(&chars, line_no)?;
                if let Some(first) = seen.insert(p.id, line_no) {
                    return Err(err(
                        line_no,
                        format!("starting rank {} is on line {first} already", p.id),
                    ));
                }
                f.players.push(p);
            }
            "012" => f.name = rest,
            "022" => f.city = rest,
            "032" => f.federation = rest,
            "042" => f.start_date = rest,
            "052" => f.end_date = rest,
            "092" => f.kind = rest,
            "102" => f.chief_arbiter = rest,
            "112" => f.deputies.push(rest),
            "122" => f.time_control = rest,
            "XXR" | "142" => {
                let n: usize = rest.parse().map_err(|_| {
                    err(
                        line_no,
                        format!("{tag} wants the number of rounds, not {rest:?}"),
                    )
                })?;
                if n == 0 || n > 99 {
                    return Err(err(line_no, format!("{n} rounds: an event has 1 to 99")));
                }
                f.total_rounds = Some(n);
            }
            "XXC" => {
                for word in rest.split_whitespace() {
                    match word {
                        "white1" => f.initial_color = Some(Color::White),
                        "black1" => f.initial_color = Some(Color::Black),
                        "rank" => {}
                        other => {
                            return Err(err(
                                line_no,
                                format!("XXC: unknown setting {other:?} (white1, black1, rank)"),
                            ))
                        }
                    }
                }
            }
            "152" => {
                f.initial_color = match rest.as_str() {
                    "W" | "w" => Some(Color::White),
                    "B" | "b" => Some(Color::Black),
                    _ => return Err(err(line_no, format!("152 wants W or B, not {rest:?}"))),
                }
            }
            "162" => f.points = read_points(&chars, line_no)?,
            "XXA" => {
                let (id, values) = read_xxa(&chars, line_no)?;
                if f.accelerations.insert(id, values).is_some() {
                    return Err(err(
                        line_no,
                        format!("XXA: starting rank {id} has an XXA line already"),
                    ));
                }
                xxa_lines.insert(id, line_no);
            }
            _ => {}
        }
    }
    if f.players.is_empty() {
        return Err(err(0, "no player (001) lines"));
    }
    for (id, &line) in &xxa_lines {
        if !seen.contains_key(id) {
            return Err(err(
                line,
                format!("XXA: starting rank {id} is not a player of the file"),
            ));
        }
        if let Some(total) = f.total_rounds {
            let n = f.accelerations[id].len();
            if n > total {
                return Err(err(
                    line,
                    format!("XXA: {n} rounds of virtual points, but the event has {total}"),
                ));
            }
        }
    }
    check(&f)?;
    Ok(f)
}

fn read_player(c: &[char], line: usize) -> Result<TrfPlayer, TrfError> {
    if c.len() < 84 {
        return Err(err(
            line,
            format!(
                "a 001 line has at least 84 characters (up to the points); this one has {}",
                c.len()
            ),
        ));
    }
    let id_s = field(c, 4, 8);
    let id: u32 = id_s
        .parse()
        .map_err(|_| err(line, format!("starting rank {id_s:?} is not a number")))?;
    if id == 0 {
        return Err(err(line, "starting rank 0: ranks start at 1"));
    }
    let rating_s = field(c, 48, 52);
    let rating = if rating_s.is_empty() {
        0
    } else {
        rating_s
            .parse()
            .map_err(|_| err(line, format!("rating {rating_s:?} is not a number")))?
    };
    let points_s = field(c, 80, 84);
    let points = parse_tenths(&points_s)
        .ok_or_else(|| err(line, format!("points {points_s:?} are not like 4.5")))?;
    let rank_s = field(c, 84, 89);
    let rank = if rank_s.is_empty() {
        0
    } else {
        rank_s
            .parse()
            .map_err(|_| err(line, format!("rank {rank_s:?} is not a number")))?
    };
    let mut rounds = Vec::new();
    let mut k = 0;
    while 91 + 10 * k < c.len() {
        let at = 91 + 10 * k;
        let block: String = c[at.min(c.len())..(at + 8).min(c.len())].iter().collect();
        let round = k + 1;
        let padded = format!("{block:<8}");
        let pc: Vec<char> = padded.chars().collect();
        let opp_s: String = pc[0..4].iter().collect();
        let opponent = match opp_s.trim() {
            "" | "0000" | "0" => None,
            s => Some(s.parse::<u32>().map_err(|_| {
                err(
                    line,
                    format!("round {round}: opponent {s:?} is not a number"),
                )
            })?),
        };
        let color = match pc[5] {
            'w' | 'W' => Some(Color::White),
            'b' | 'B' => Some(Color::Black),
            '-' | ' ' => None,
            other => {
                return Err(err(
                    line,
                    format!("round {round}: colour {other:?} (w, b or -)"),
                ))
            }
        };
        let code = pc[7].to_ascii_uppercase();
        if !"1=0WDL+-UHFZ ".contains(code) {
            return Err(err(
                line,
                format!(
                    "round {round}: result {:?} (1 = 0 W D L + - U H F Z)",
                    pc[7]
                ),
            ));
        }
        rounds.push(TrfRound {
            opponent,
            color,
            code,
        });
        k += 1;
    }
    while rounds
        .last()
        .is_some_and(|r| r.opponent.is_none() && r.code == ' ')
    {
        rounds.pop();
    }
    Ok(TrfPlayer {
        id,
        sex: field(c, 9, 10),
        title: field(c, 10, 13),
        name: field(c, 14, 47),
        rating,
        federation: field(c, 53, 56),
        fide_id: field(c, 57, 68),
        birth: field(c, 69, 79),
        points,
        rank,
        rounds,
    })
}

/// An `XXA` line, as bbpPairings reads it: the starting rank in columns 5–8, then one
/// 4-character score per round every 5 characters from column 10 (blank: 0), nothing after.
fn read_xxa(c: &[char], line: usize) -> Result<(u32, Vec<u32>), TrfError> {
    let id_text = field(c, 4, 8);
    let id: u32 = id_text.parse().ok().filter(|&id| id > 0).ok_or_else(|| {
        err(
            line,
            format!("XXA wants a starting rank in columns 5-8, not {id_text:?}"),
        )
    })?;
    let mut values = Vec::new();
    let mut at = 9;
    while at + 4 <= c.len() {
        if c[at - 1] != ' ' {
            return Err(err(
                line,
                format!("XXA: column {} should be blank between the rounds", at),
            ));
        }
        let text = field(c, at, at + 4);
        let v = if text.is_empty() {
            0
        } else {
            parse_tenths(&text).ok_or_else(|| {
                err(
                    line,
                    format!(
                        "XXA: round {}: {text:?} (columns {}-{}) is not like 1.0",
                        values.len() + 1,
                        at + 1,
                        at + 4
                    ),
                )
            })?
        };
        values.push(v);
        at += 5;
    }
    if c.get(at.min(c.len())..)
        .is_some_and(|rest| rest.iter().any(|&ch| ch != ' '))
    {
        return Err(err(
            line,
            format!(
                "XXA: column {} onwards is not a whole 4-column score",
                at + 1
            ),
        ));
    }
    // Trailing zeros say nothing (rounds past the list add none either).
    while values.last() == Some(&0) {
        values.pop();
    }
    Ok((id, values))
}

fn parse_tenths(s: &str) -> Option<u32> {
    let (whole, frac) = s.split_once('.').unwrap_or((s, "0"));
    if whole.is_empty() || frac.len() != 1 {
        return None;
    }
    // Checked: a `162` line may hold any number of digits.
    whole
        .parse::<u32>()
        .ok()?
        .checked_mul(10)?
        .checked_add(frac.parse::<u32>().ok()?)
}

fn read_points(c: &[char], line: usize) -> Result<PointSystem, TrfError> {
    let mut p = PointSystem::default();
    let text: String = c[3..].iter().collect();
    for item in text.split_whitespace().collect::<Vec<_>>().chunks(2) {
        let [key, value] = item else {
            return Err(err(line, "162 wants pairs like `W 1.0`"));
        };
        let v = parse_tenths(value)
            .ok_or_else(|| err(line, format!("162: {value:?} is not like 1.0")))?;
        match *key {
            "W" => p.win = v,
            "D" => p.draw = v,
            "L" => p.loss = v,
            "Z" => p.zero_bye = v,
            "P" => p.pab = v,
            "FL" => p.forfeit_loss = v,
            other => {
                return Err(err(
                    line,
                    format!("162: unknown key {other:?} (W D L Z P FL)"),
                ))
            }
        }
    }
    Ok(p)
}

/// Opponents exist and name each other back with the other colour.
fn check(f: &TrfFile) -> Result<(), TrfError> {
    let by_id: HashMap<u32, &TrfPlayer> = f.players.iter().map(|p| (p.id, p)).collect();
    for p in &f.players {
        for (k, r) in p.rounds.iter().enumerate() {
            let Some(o) = r.opponent else { continue };
            let fail = |m: String| {
                err(
                    0,
                    format!("player {} ({}), round {}: {m}", p.id, p.name, k + 1),
                )
            };
            if o == p.id {
                return Err(fail("plays against himself".into()));
            }
            let Some(q) = by_id.get(&o) else {
                return Err(fail(format!("opponent {o} is not a player of the file")));
            };
            let back = q.rounds.get(k);
            if back.and_then(|b| b.opponent) != Some(p.id) {
                return Err(fail(format!(
                    "opponent {o} does not have {} in that round",
                    p.id
                )));
            }
            if let (Some(a), Some(b)) = (r.color, back.and_then(|b| b.color)) {
                if a == b {
                    return Err(fail(format!("both {} and {o} have the same colour", p.id)));
                }
            }
        }
    }
    Ok(())
}

impl TrfRound {
    /// The round as the pairing reads it (`index_of` maps starting ranks to player indexes).
    pub fn to_round(&self, index_of: &HashMap<u32, usize>) -> Result<Round, String> {
        let c = self.code;
        match self.opponent {
            Some(o) => {
                let opponent = *index_of
                    .get(&o)
                    .ok_or_else(|| format!("unknown opponent {o}"))?;
                match c {
                    '+' | '-' => Ok(Round::Forfeit {
                        opponent,
                        color: self.color,
                        won: c == '+',
                    }),
                    '1' | 'W' | '=' | 'D' | '0' | 'L' => {
                        let color = self.color.ok_or("a played game needs a colour (w or b)")?;
                        let outcome = match c {
                            '1' | 'W' => Outcome::Win,
                            '=' | 'D' => Outcome::Draw,
                            _ => Outcome::Loss,
                        };
                        Ok(Round::Played {
                            opponent,
                            color,
                            outcome,
                        })
                    }
                    other => Err(format!("result {other:?} needs no opponent")),
                }
            }
            None => match c {
                'U' | '+' => Ok(Round::PairingBye),
                'H' | '=' | 'D' => Ok(Round::Bye(ByeKind::Half)),
                'F' => Ok(Round::Bye(ByeKind::Full)),
                'Z' | '-' | ' ' => Ok(Round::Bye(ByeKind::Zero)),
                other => Err(format!("result {other:?} needs an opponent")),
            },
        }
    }
}

impl TrfFile {
    /// Rounds with at least one player in the pairing.
    pub fn rounds_played(&self) -> usize {
        self.players
            .iter()
            .map(|p| {
                p.rounds
                    .iter()
                    .rposition(|r| r.opponent.is_some() || matches!(r.code, 'U' | '+'))
                    .map_or(0, |k| k + 1)
            })
            .max()
            .unwrap_or(0)
    }

    /// Player indexes by starting rank, in pairing order (by starting rank).
    fn order(&self) -> Vec<usize> {
        let mut order: Vec<usize> = (0..self.players.len()).collect();
        order.sort_by_key(|&i| self.players[i].id);
        order
    }

    /// Every player's rounds as the pairing reads them, padded to `rounds` with absences.
    /// Players are in starting-rank order.
    pub fn rounds(&self, rounds: usize) -> Result<Vec<Vec<Round>>, TrfError> {
        let order = self.order();
        let index_of: HashMap<u32, usize> = order
            .iter()
            .enumerate()
            .map(|(k, &i)| (self.players[i].id, k))
            .collect();
        order
            .iter()
            .map(|&i| {
                let p = &self.players[i];
                (0..rounds)
                    .map(|k| match p.rounds.get(k) {
                        None => Ok(Round::Bye(ByeKind::Zero)),
                        Some(r) => r.to_round(&index_of).map_err(|m| {
                            err(
                                0,
                                format!("player {} ({}), round {}: {m}", p.id, p.name, k + 1),
                            )
                        }),
                    })
                    .collect()
            })
            .collect()
    }

    /// The colour of pairing number 1 in round 1: as written, or worked out from the first
    /// round with colours (the first player in it, by pairing order, had it if an even
    /// number of players precede him there).
    pub fn first_color(&self) -> Color {
        if let Some(c) = self.initial_color {
            return c;
        }
        let order = self.order();
        let Some(first) = order
            .iter()
            .filter_map(|&i| {
                self.players[i]
                    .rounds
                    .iter()
                    .position(|r| r.color.is_some())
            })
            .min()
        else {
            return Color::White;
        };
        let mut count = 0;
        for &i in &order {
            let p = &self.players[i];
            let was_paired = p
                .rounds
                .iter()
                .take(first + 1)
                .any(|r| r.opponent.is_some() || matches!(r.code, 'U' | '+'));
            if was_paired {
                if let Some(c) = p.rounds.get(first).and_then(|r| r.color) {
                    return if count % 2 == 1 { c.flip() } else { c };
                }
                count += 1;
            }
        }
        Color::White
    }

    /// What the pairing of round `round` (from 1) reads: the rounds before it, and who is
    /// absent from it (a bye or no entry there while later rounds exist).
    pub fn history(&self, round: usize) -> Result<SwissHistory, TrfError> {
        if round == 0 {
            return Err(err(0, "round 0: rounds start at 1"));
        }
        let played = self.rounds_played();
        let total = self.total_rounds.unwrap_or(played).max(round);
        let all = self.rounds(round)?;
        let order = self.order();
        let players = all
            .into_iter()
            .zip(order)
            .map(|(mut rounds, i)| {
                // `round` ≥ 1 entries were made for every player (checked above).
                let now = rounds.pop().unwrap_or(Round::Bye(ByeKind::Zero));
                // A round not played yet: only an entry written for it (a bye, `0000 - Z`)
                // keeps a player out. A round played: no entry means absent.
                let written = self.players[i].rounds.len() >= round;
                let absent = if round > played && !written {
                    false
                } else {
                    !now.paired()
                };
                let acceleration = self
                    .accelerations
                    .get(&self.players[i].id)
                    .cloned()
                    .unwrap_or_default();
                SwissPlayer {
                    rounds,
                    absent,
                    acceleration,
                }
            })
            .collect();
        Ok(SwissHistory {
            players,
            total_rounds: total,
            points: self.points,
            initial_color: self.first_color(),
        })
    }
}

impl TrfFile {
    /// Starting ranks in pairing order (the order of [`TrfFile::history`]'s players).
    pub fn ids(&self) -> Vec<u32> {
        let mut ids: Vec<u32> = self.players.iter().map(|p| p.id).collect();
        ids.sort_unstable();
        ids
    }
}

/// A pairing as pairing programs print it (bbpPairings' `-p`): the number of boards, then
/// `white black` per board by starting rank, the PAB last as `id 0`.
pub fn pairing_lines(p: &crate::model::Pairing, ids: &[u32]) -> String {
    let mut out = format!("{}\n", p.boards.len() + p.bye.is_some() as usize);
    for &(w, b) in &p.boards {
        out += &format!("{} {}\n", ids[w], ids[b]);
    }
    if let Some(b) = p.bye {
        out += &format!("{} 0\n", ids[b]);
    }
    out
}

fn tenths(p: u32) -> String {
    format!("{}.{}", p / 10, p % 10)
}

/// Writes a TRF file: the header lines that are set, the `001` lines (points recomputed
/// from the rounds, real points only), then `XXR`, `XXC` and the `XXA` lines (players with
/// virtual points) for pairing programs. Lines end in `\n`.
pub fn write(f: &TrfFile) -> String {
    let mut out = String::new();
    for (tag, v) in [
        ("012", &f.name),
        ("022", &f.city),
        ("032", &f.federation),
        ("042", &f.start_date),
        ("052", &f.end_date),
        ("092", &f.kind),
        ("102", &f.chief_arbiter),
    ] {
        if !v.is_empty() {
            out += &format!("{tag} {v}\n");
        }
    }
    for d in &f.deputies {
        out += &format!("112 {d}\n");
    }
    if !f.time_control.is_empty() {
        out += &format!("122 {}\n", f.time_control);
    }
    let index_of: HashMap<u32, usize> =
        f.ids().iter().enumerate().map(|(k, &id)| (id, k)).collect();
    for p in &f.players {
        let points: u32 = p
            .rounds
            .iter()
            .map(|r| r.to_round(&index_of).map_or(0, |r| f.points.points(&r)))
            .fold(0, u32::saturating_add);
        let mut line = format!(
            "001 {:>4} {:1}{:>3} {:<33} {:>4} {:>3} {:>11} {:<10} {:>4} {:>4}",
            p.id,
            p.sex,
            p.title,
            p.name.chars().take(33).collect::<String>(),
            if p.rating > 0 {
                p.rating.to_string()
            } else {
                String::new()
            },
            p.federation,
            p.fide_id,
            p.birth,
            tenths(points),
            if p.rank > 0 {
                p.rank.to_string()
            } else {
                String::new()
            },
        );
        for r in &p.rounds {
            let opp = r.opponent.map_or("0000".to_string(), |o| format!("{o:>4}"));
            let color = match r.color {
                Some(Color::White) => 'w',
                Some(Color::Black) => 'b',
                None => '-',
            };
            line += &format!("  {opp} {color} {}", r.code);
        }
        out += line.trim_end();
        out.push('\n');
    }
    if let Some(r) = f.total_rounds {
        out += &format!("XXR {r}\n");
    }
    if let Some(c) = f.initial_color {
        out += &format!(
            "XXC {}\n",
            if c == Color::White {
                "white1"
            } else {
                "black1"
            }
        );
    }
    for (id, values) in &f.accelerations {
        if values.iter().all(|&v| v == 0) {
            continue;
        }
        // Every round up to the last with points is written, zeros as ` 0.0`, not blank:
        // each program reads a written score the same way.
        let mut line = format!("XXA {id:>4}");
        for &v in values {
            line += &format!(" {:>4}", tenths(v));
        }
        out += line.trim_end();
        out.push('\n');
    }
    out
}
