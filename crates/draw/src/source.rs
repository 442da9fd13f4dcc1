//! The outcome-source abstraction: every drawing method is one procedure that asks an
//! [`Outcomes`] source for the result of each physical act (a die roll, a coin throw, a piece
//! or card drawn blind). Three sources answer:
//!
//! - [`RandomSource`]: a seeded pseudo-random generator (identical seeds, identical draws, on
//!   every platform);
//! - [`Replay`]: the outcomes a person typed in, checked against the act (a 7 is not a face of
//!   a six-sided die) with an error naming the step;
//! - [`Explorer`]: every branch of the outcome tree in turn, with its exact probability, for
//!   the fairness analysis.
//!
//! Re-rolls belong to the procedure: it says with each [`Roll`] which outcomes it accepts and
//! why it rejects the others ("6 has no square"). The random and replay sources act again
//! after a rejection, exactly as a person at the board does, and record it as a step. The
//! explorer cannot follow an unbounded loop, and need not: the accepted outcome of "roll until
//! accepted" is distributed as one roll conditioned on being accepted, so it branches once
//! over the accepted outcomes with probability weight / (total accepted weight). Because all
//! three sources see the same `accept` function, the procedure stays one code path.

use crate::rational::Ratio;
use crate::rng::SplitMix64;
use crate::row::{ordinal, role_name, SQUARES};
use chess960_core::Role;
use std::fmt;

/// One physical act that produces an outcome, with its possible outcomes ("faces").
///
/// An outcome is a `u32`: the number shown for dice and coins, the card number for cards, the
/// piece's [`Role::index`] for pieces drawn from a bag, 1 (left) or 2 (right) for hidden
/// hands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Act {
    /// An ordinary die with faces 1..=`sides` (Bodlaender's method uses a six-sided one).
    Die {
        /// The number of faces.
        sides: u32,
    },
    /// A Platonic solid thrown as a die: 4 (tetrahedron), 6 (cube), 8 (octahedron),
    /// 12 (dodecahedron) or 20 (icosahedron) faces numbered from 1.
    Solid {
        /// The number of faces.
        sides: u32,
    },
    /// Northam's two distinguishable coins thrown together. The back of the smaller coin
    /// counts 0, the back of the larger 1, the front of either 2; the sum is 1, 2, 3 or 4,
    /// each with probability 1/4.
    BothCoins,
    /// The larger of Northam's coins thrown alone: 1 (back) or 2 (front).
    LargerCoin,
    /// One piece drawn blind from a bag; `counts[role.index()]` pieces of each role are in
    /// it. Outcome: the drawn piece's [`Role::index`].
    Bag {
        /// How many pieces of each role the bag holds, indexed by [`Role::index`].
        counts: [u8; 6],
    },
    /// One card drawn from a shuffled deck of numbered cards. Bit `n - 1` of `deck` is set
    /// when card `n` is in the deck. Outcome: the card's number.
    Card {
        /// The cards in the deck, one bit each (card 1 is bit 0).
        deck: u8,
    },
    /// Wheeler's choice of the bishop that moves, e.g. by picking a pawn from one of two
    /// hidden hands: 1 = the left bishop, 2 = the right one, 1/2 each.
    Hands,
    /// Wheeler's choice of the square: one of the eight black pieces drawn blind from a bag;
    /// a rook means the 1st square of the other colour from the left, a knight the 2nd, a
    /// bishop the 3rd, the queen or the king the 4th (1/4 each). Outcome: the piece's
    /// [`Role::index`].
    BlackPiece,
}

/// The possible outcomes of an act with their weights (relative frequencies): at most 20.
#[derive(Debug, Clone, Copy)]
pub struct Faces {
    list: [(u32, u32); 20],
    len: usize,
}

impl Faces {
    fn new() -> Faces {
        Faces {
            list: [(0, 0); 20],
            len: 0,
        }
    }

    fn push(&mut self, value: u32, weight: u32) {
        self.list[self.len] = (value, weight);
        self.len += 1;
    }

    /// `(outcome, weight)` pairs.
    pub fn as_slice(&self) -> &[(u32, u32)] {
        &self.list[..self.len]
    }

    /// The sum of the weights.
    pub fn total(&self) -> u32 {
        self.as_slice().iter().map(|&(_, w)| w).sum()
    }
}

/// The eight black pieces for [`Act::BlackPiece`], by role index: 2 N, 2 B, 2 R, 1 Q, 1 K.
const BLACK_PIECES: [u8; 6] = [0, 2, 2, 2, 1, 1];

/// Pieces in the order a bag lists them in messages.
const BAG_ORDER: [Role; 5] = [
    Role::King,
    Role::Queen,
    Role::Rook,
    Role::Bishop,
    Role::Knight,
];

impl Act {
    /// The possible outcomes with their weights.
    pub fn faces(&self) -> Faces {
        let mut faces = Faces::new();
        match *self {
            Act::Die { sides } | Act::Solid { sides } => {
                for v in 1..=sides.min(20) {
                    faces.push(v, 1);
                }
            }
            Act::BothCoins => {
                for v in 1..=4 {
                    faces.push(v, 1);
                }
            }
            Act::LargerCoin | Act::Hands => {
                faces.push(1, 1);
                faces.push(2, 1);
            }
            Act::Bag { counts } => {
                for role in BAG_ORDER {
                    if counts[role.index()] > 0 {
                        faces.push(role.index() as u32, u32::from(counts[role.index()]));
                    }
                }
            }
            Act::BlackPiece => {
                for role in BAG_ORDER {
                    faces.push(role.index() as u32, u32::from(BLACK_PIECES[role.index()]));
                }
            }
            Act::Card { deck } => {
                for n in 1..=8 {
                    if deck & (1 << (n - 1)) != 0 {
                        faces.push(n, 1);
                    }
                }
            }
        }
        faces
    }

    /// A short name of the act with its range, for messages: `die 1–6`, `cube 1–6`,
    /// `both coins 1–4`, `bag`, `deck`.
    pub fn short(&self) -> String {
        match *self {
            Act::Die { sides } => format!("die 1–{sides}"),
            Act::Solid { sides } => format!("{} 1–{sides}", solid_name(sides)),
            Act::BothCoins => "both coins 1–4".to_string(),
            Act::LargerCoin => "larger coin 1–2".to_string(),
            Act::Bag { .. } => "draw from the bag".to_string(),
            Act::Card { .. } => "card from the deck".to_string(),
            Act::Hands => "left or right, 1/2 each".to_string(),
            Act::BlackPiece => "black piece from a bag".to_string(),
        }
    }

    /// What one act is called: `roll`, `throw`, `draw`, `pick`.
    pub fn verb(&self) -> &'static str {
        match self {
            Act::Die { .. } | Act::Solid { .. } => "roll",
            Act::BothCoins | Act::LargerCoin => "throw",
            Act::Bag { .. } | Act::Card { .. } | Act::BlackPiece => "draw",
            Act::Hands => "pick",
        }
    }

    /// What doing it again is called: `re-roll`, `re-throw`, `re-draw`, `re-pick`.
    pub fn redo(&self) -> String {
        format!("re-{}", self.verb())
    }

    /// An outcome in words: `3`, `knight`, `card 5`, `left`.
    pub fn say(&self, value: u32) -> String {
        match self {
            Act::Die { .. } | Act::Solid { .. } | Act::BothCoins | Act::LargerCoin => {
                value.to_string()
            }
            Act::Bag { .. } | Act::BlackPiece => role_name(role_of(value)).to_string(),
            Act::Card { .. } => format!("card {value}"),
            Act::Hands => if value == 1 { "left" } else { "right" }.to_string(),
        }
    }

    /// Reads an outcome as a person types it. The error says why the text is not a possible
    /// outcome of this act (without the step; the replay source adds that).
    pub fn parse(&self, token: &str) -> Result<u32, String> {
        let t = token.trim();
        let shown = show_token(t);
        match *self {
            Act::Die { sides } => match number(t) {
                Some(n) if (1..=sides).contains(&n) => Ok(n),
                Some(_) => Err(format!("{shown} is not a face of a {} die", sided(sides))),
                None => Err(format!(
                    "'{shown}' is not a number: a {} die shows 1–{sides}",
                    sided(sides)
                )),
            },
            Act::Solid { sides } => match number(t) {
                Some(n) if (1..=sides).contains(&n) => Ok(n),
                Some(_) => Err(format!(
                    "{shown} is not a face of the {} (1–{sides})",
                    solid_name(sides)
                )),
                None => Err(format!(
                    "'{shown}' is not a number: the {} shows 1–{sides}",
                    solid_name(sides)
                )),
            },
            Act::BothCoins => {
                let faces = coin_faces(t);
                match (number(t), faces) {
                    (Some(n), _) if (1..=4).contains(&n) => Ok(n),
                    (_, Some((larger, smaller))) => {
                        // Larger coin: back 1, front 2; smaller coin: back 0, front 2.
                        Ok(if larger { 2 } else { 1 } + if smaller { 2 } else { 0 })
                    }
                    _ => Err(format!(
                        "'{shown}' is not a throw of the two coins: write the value 1–4, or \
                         the faces, larger coin first, as HH, HT, TH or TT (H = heads/front, \
                         T = tails/back)"
                    )),
                }
            }
            Act::LargerCoin => match (number(t), t.to_ascii_lowercase().as_str()) {
                (Some(n), _) if (1..=2).contains(&n) => Ok(n),
                (_, "t" | "tails" | "back") => Ok(1),
                (_, "h" | "heads" | "front") => Ok(2),
                _ => Err(format!(
                    "'{shown}' is not a throw of the larger coin: write 1 or 2, or T (tails, \
                     back = 1) or H (heads, front = 2)"
                )),
            },
            Act::Bag { counts } => match parse_role(t) {
                Some(role) if counts[role.index()] > 0 => Ok(role.index() as u32),
                Some(role) => Err(format!(
                    "there is no {} left in the bag (it holds {})",
                    role_name(role),
                    bag_contents(&counts)
                )),
                None => Err(format!(
                    "'{shown}' is not a piece: write K, Q, R, B or N (or king, queen, rook, \
                     bishop, knight)"
                )),
            },
            Act::BlackPiece => match (number(t), parse_role(t)) {
                // The number of the square, for people who used another 1-in-4 device.
                (Some(n), _) if (1..=4).contains(&n) => {
                    Ok(
                        [Role::Rook, Role::Knight, Role::Bishop, Role::Queen][n as usize - 1]
                            .index() as u32,
                    )
                }
                (_, Some(role)) => Ok(role.index() as u32),
                _ => Err(format!(
                    "'{shown}' is not a black piece: write R (1st square), N (2nd), B (3rd), \
                     Q or K (4th), or the square's number 1–4"
                )),
            },
            Act::Card { deck } => match number(t) {
                Some(n) if (1..=8).contains(&n) && deck & (1 << (n - 1)) != 0 => Ok(n),
                Some(n) if (1..=8).contains(&n) => {
                    let left: Vec<String> = (1..=8u32)
                        .filter(|k| deck & (1 << (k - 1)) != 0)
                        .map(|k| k.to_string())
                        .collect();
                    Err(format!(
                        "card {n} is no longer in the deck (it holds {})",
                        left.join(", ")
                    ))
                }
                Some(_) => Err(format!("{shown} is not a card: the cards are numbered 1–8")),
                None => Err(format!(
                    "'{shown}' is not a card number: the cards are numbered 1–8"
                )),
            },
            Act::Hands => match t.to_ascii_lowercase().as_str() {
                "1" | "l" | "left" => Ok(1),
                "2" | "r" | "right" => Ok(2),
                _ => Err(format!(
                    "'{shown}' is neither left nor right: write L (or left, 1) for the left \
                     bishop, R (or right, 2) for the right one"
                )),
            },
        }
    }
}

/// The role with this [`Role::index`].
pub fn role_of(value: u32) -> Role {
    Role::ALL[value as usize]
}

/// The name of a Platonic solid by its number of faces.
pub fn solid_name(sides: u32) -> &'static str {
    match sides {
        4 => "tetrahedron",
        6 => "cube",
        8 => "octahedron",
        12 => "dodecahedron",
        20 => "icosahedron",
        _ => "die",
    }
}

/// `six-sided`, `4-sided`.
fn sided(sides: u32) -> String {
    match sides {
        6 => "six-sided".to_string(),
        n => format!("{n}-sided"),
    }
}

/// A whole number written with digits only (no sign, no point); `None` otherwise. Numbers too
/// large for `u32` read as `u32::MAX`, which no act accepts.
fn number(t: &str) -> Option<u32> {
    if t.is_empty() || !t.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some(t.parse::<u32>().unwrap_or(u32::MAX))
}

/// Two coin faces, larger coin first: `HT` → (heads, tails) as (true, false).
fn coin_faces(t: &str) -> Option<(bool, bool)> {
    let b = t.as_bytes();
    if b.len() != 2 {
        return None;
    }
    let face = |c: u8| match c.to_ascii_lowercase() {
        b'h' => Some(true),
        b't' => Some(false),
        _ => None,
    };
    Some((face(b[0])?, face(b[1])?))
}

/// A piece by letter (K, Q, R, B, N, either case) or English name.
pub fn parse_role(t: &str) -> Option<Role> {
    let lower = t.to_ascii_lowercase();
    let role = match lower.as_str() {
        "k" | "king" => Role::King,
        "q" | "queen" => Role::Queen,
        "r" | "rook" => Role::Rook,
        "b" | "bishop" => Role::Bishop,
        "n" | "knight" => Role::Knight,
        _ => return None,
    };
    Some(role)
}

/// `R, R, N, B, K`: what a bag holds.
fn bag_contents(counts: &[u8; 6]) -> String {
    let mut out = Vec::new();
    for role in BAG_ORDER {
        for _ in 0..counts[role.index()] {
            out.push(role.upper_char().to_string());
        }
    }
    if out.is_empty() {
        "nothing".to_string()
    } else {
        out.join(", ")
    }
}

/// A token as shown inside a message: control characters escaped, long text cut short.
pub fn show_token(t: &str) -> String {
    let mut out = String::new();
    for (i, c) in t.chars().enumerate() {
        if i == 24 {
            out.push('…');
            break;
        }
        if c.is_control() {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    out
}

/// What an outcome is for, as it reads after "for": `the queen`, `the first knight`,
/// `square c1`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Purpose {
    text: &'static str,
    square: Option<usize>,
}

impl Purpose {
    /// A fixed purpose such as "the queen".
    pub const fn new(text: &'static str) -> Purpose {
        Purpose { text, square: None }
    }

    /// A purpose naming a square: `Purpose::at("square ", 2)` reads "square c1".
    pub const fn at(text: &'static str, square: usize) -> Purpose {
        Purpose {
            text,
            square: Some(square),
        }
    }

    /// Without a leading "the", for step labels: `queen, die 1–6`.
    fn bare(&self) -> String {
        let s = self.to_string();
        s.strip_prefix("the ").map_or(s.clone(), str::to_string)
    }
}

impl fmt::Display for Purpose {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.text)?;
        if let Some(sq) = self.square {
            f.write_str(SQUARES[sq])?;
        }
        Ok(())
    }
}

/// A procedure's request for one outcome: the act, what it decides, and which outcomes the
/// procedure accepts (`Err(reason)` for an outcome to act again on, e.g. "6 has no square").
pub struct Roll<'a> {
    /// The physical act.
    pub act: Act,
    /// What the outcome decides.
    pub purpose: Purpose,
    /// `Ok(())` for an outcome the procedure uses; `Err(why)` for one it re-rolls.
    pub accept: &'a dyn Fn(u32) -> Result<(), String>,
}

/// Accepts every outcome (no re-rolls).
pub fn any(_: u32) -> Result<(), String> {
    Ok(())
}

/// One step of a draw, in words: "roll 3 → dark-squared bishop on e1".
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Step {
    /// The text.
    pub text: String,
}

impl fmt::Display for Step {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

/// The record of a draw's steps. The explorer and the sampler run procedures hundreds of
/// thousands of times and need no words, so recording can be off; then the text is never
/// even formatted.
#[derive(Debug, Clone, Default)]
pub struct Steps {
    on: bool,
    list: Vec<Step>,
}

impl Steps {
    /// A record that keeps every step.
    pub fn recording() -> Steps {
        Steps {
            on: true,
            list: Vec::new(),
        }
    }

    /// A record that keeps nothing.
    pub fn silent() -> Steps {
        Steps::default()
    }

    /// Records the step `text()` (called only when recording).
    pub fn say(&mut self, text: impl FnOnce() -> String) {
        if self.on {
            self.list.push(Step { text: text() });
        }
    }

    /// The steps so far.
    pub fn list(&self) -> &[Step] {
        &self.list
    }

    /// The steps.
    pub fn into_vec(self) -> Vec<Step> {
        self.list
    }
}

/// Why a draw failed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DrawError {
    /// A typed outcome that is not a possible outcome of the act at that step.
    BadOutcome {
        /// The step (1 = the first act the method asks for; re-rolls stay in their step).
        step: usize,
        /// What the step decides and the act: `queen, die 1–6`.
        label: String,
        /// Which of the given outcomes it was (1-based).
        position: usize,
        /// Why it does not fit.
        reason: String,
    },
    /// The typed outcomes ran out before the procedure was complete.
    TooFew {
        /// The step that needed an outcome.
        step: usize,
        /// What it needed: `a roll for the first knight (die 1–6)`.
        need: String,
        /// How many outcomes were given.
        given: usize,
    },
    /// More outcomes were typed than the procedure used.
    TooMany {
        /// How many it used.
        used: usize,
        /// How many were given.
        given: usize,
        /// The unused ones, as typed.
        left_over: Vec<String>,
    },
    /// The procedure ended in an arrangement that is not a Chess960 start position.
    NotAStart {
        /// The arrangement, a1 first (`.` for an empty square).
        arrangement: String,
        /// Why it is not a start position.
        reason: String,
    },
    /// The procedure asked for an act none of whose outcomes it accepts (a bug in a
    /// procedure, reported rather than looping for ever).
    NoAcceptedOutcome {
        /// The step label.
        label: String,
    },
}

impl fmt::Display for DrawError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DrawError::BadOutcome {
                step,
                label,
                position,
                reason,
            } => {
                write!(f, "step {step} ({label}): {reason}")?;
                if position != step {
                    // Re-rolls shift outcomes against steps; say which outcome it was.
                    write!(f, " (the {} outcome given)", ordinal(*position))?;
                }
                Ok(())
            }
            DrawError::TooFew { step, need, given } => {
                let given = match given {
                    0 => "no outcomes were given".to_string(),
                    1 => "only 1 outcome was given".to_string(),
                    n => format!("only {n} outcomes were given"),
                };
                write!(f, "step {step} needs {need}, but {given}")
            }
            DrawError::TooMany {
                used,
                given,
                left_over,
            } => write!(
                f,
                "the draw was complete after {used} outcome{}, but {given} were given: '{}' left over",
                if *used == 1 { "" } else { "s" },
                left_over
                    .iter()
                    .take(8)
                    .map(|t| show_token(t))
                    .collect::<Vec<_>>()
                    .join(", ")
                    + if left_over.len() > 8 { ", …" } else { "" }
            ),
            DrawError::NotAStart {
                arrangement,
                reason,
            } => write!(
                f,
                "the procedure ended in {arrangement}, which is not a Chess960 start position: {reason}"
            ),
            DrawError::NoAcceptedOutcome { label } => write!(
                f,
                "internal error: the procedure accepts no outcome at {label}"
            ),
        }
    }
}

impl std::error::Error for DrawError {}

/// A source of outcomes for the procedures.
pub trait Outcomes {
    /// Performs `roll.act`, again and again while the outcome is rejected (recording each
    /// rejection as a step), and returns the accepted outcome.
    fn roll(&mut self, roll: &Roll<'_>, steps: &mut Steps) -> Result<u32, DrawError>;
}

/// Asks `src` for one accepted outcome of `act` for `purpose`.
pub fn roll(
    src: &mut dyn Outcomes,
    steps: &mut Steps,
    act: Act,
    purpose: Purpose,
    accept: &dyn Fn(u32) -> Result<(), String>,
) -> Result<u32, DrawError> {
    src.roll(
        &Roll {
            act,
            purpose,
            accept,
        },
        steps,
    )
}

fn label(roll: &Roll<'_>) -> String {
    format!("{}, {}", roll.purpose.bare(), roll.act.short())
}

/// Outcomes from a seeded pseudo-random generator (SplitMix64 with rejection sampling, so
/// every platform draws the same outcomes from the same seed).
#[derive(Debug, Clone)]
pub struct RandomSource {
    rng: SplitMix64,
}

impl RandomSource {
    /// A source whose outcomes are fully determined by `seed`.
    pub fn new(seed: u64) -> RandomSource {
        RandomSource {
            rng: SplitMix64::from_seed(seed),
        }
    }
}

impl Outcomes for RandomSource {
    fn roll(&mut self, roll: &Roll<'_>, steps: &mut Steps) -> Result<u32, DrawError> {
        let faces = roll.act.faces();
        let faces = faces.as_slice();
        if !faces.iter().any(|&(v, _)| (roll.accept)(v).is_ok()) {
            return Err(DrawError::NoAcceptedOutcome { label: label(roll) });
        }
        let total: u32 = faces.iter().map(|&(_, w)| w).sum();
        loop {
            let mut x = self.rng.below(u64::from(total)) as u32;
            let value = faces
                .iter()
                .find_map(|&(v, w)| {
                    if x < w {
                        Some(v)
                    } else {
                        x -= w;
                        None
                    }
                })
                .expect("x < total weight");
            match (roll.accept)(value) {
                Ok(()) => return Ok(value),
                Err(why) => steps.say(|| format!("{}: {why}", roll.act.redo())),
            }
        }
    }
}

/// Outcomes a person typed: a list such as `3,2,5,…` (commas and/or spaces between), read
/// one by one as the procedure asks for them. A rejected outcome (a 6 when only 1–5 count) is
/// a re-roll, as at the board, and the next outcome is read for the same step.
#[derive(Debug, Clone)]
pub struct Replay {
    tokens: Vec<String>,
    next: usize,
    step: usize,
}

impl Replay {
    /// The outcomes in `text`, separated by commas, semicolons or white space.
    pub fn new(text: &str) -> Replay {
        let tokens = text
            .split(|c: char| c == ',' || c == ';' || c.is_whitespace())
            .filter(|t| !t.is_empty())
            .map(str::to_string)
            .collect();
        Replay {
            tokens,
            next: 0,
            step: 0,
        }
    }

    /// How many outcomes were given.
    pub fn given(&self) -> usize {
        self.tokens.len()
    }

    /// After the procedure: an error if outcomes are left over.
    pub fn finish(&self) -> Result<(), DrawError> {
        if self.next < self.tokens.len() {
            return Err(DrawError::TooMany {
                used: self.next,
                given: self.tokens.len(),
                left_over: self.tokens[self.next..].to_vec(),
            });
        }
        Ok(())
    }
}

impl Outcomes for Replay {
    fn roll(&mut self, roll: &Roll<'_>, steps: &mut Steps) -> Result<u32, DrawError> {
        self.step += 1;
        loop {
            let Some(token) = self.tokens.get(self.next) else {
                let noun = match roll.act {
                    Act::Card { .. } => "a card".to_string(),
                    ref act => format!("a {}", act.verb()),
                };
                return Err(DrawError::TooFew {
                    step: self.step,
                    need: format!("{noun} for {} ({})", roll.purpose, roll.act.short()),
                    given: self.tokens.len(),
                });
            };
            self.next += 1;
            let value = roll
                .act
                .parse(token)
                .map_err(|reason| DrawError::BadOutcome {
                    step: self.step,
                    label: label(roll),
                    position: self.next,
                    reason,
                })?;
            match (roll.accept)(value) {
                Ok(()) => return Ok(value),
                Err(why) => steps.say(|| format!("{}: {why}", roll.act.redo())),
            }
        }
    }
}

/// One choice point on the current path of the [`Explorer`].
#[derive(Debug, Clone, Copy)]
struct Branch {
    /// Which accepted outcome is taken.
    index: u8,
    /// How many accepted outcomes there are.
    count: u8,
}

/// Walks the whole outcome tree of a procedure, depth first, by running the procedure once
/// per leaf: each run follows the recorded path of choices and, past its end, takes the
/// first accepted outcome; [`Explorer::advance`] then moves to the next leaf. Each run's
/// probability is the product over its acts of weight / (total accepted weight), exact.
#[derive(Debug, Clone, Default)]
pub struct Explorer {
    path: Vec<Branch>,
    depth: usize,
    numer: u128,
    denom: u128,
    acts_whole: u64,
    acts_extra: Ratio,
}

impl Explorer {
    /// An explorer at the first leaf.
    pub fn new() -> Explorer {
        let mut e = Explorer::default();
        e.begin();
        e
    }

    /// Prepares the next run along the current path.
    pub fn begin(&mut self) {
        self.depth = 0;
        self.numer = 1;
        self.denom = 1;
        self.acts_whole = 0;
        self.acts_extra = Ratio::ZERO;
    }

    /// The probability of the run just made.
    pub fn probability(&self) -> Ratio {
        Ratio::new(self.numer, self.denom)
    }

    /// The expected number of physical acts (rolls, throws, draws) of the run just made,
    /// counting the expected re-rolls of each step: an act with accepted weight `a` out of
    /// `t` is repeated `t / a` times on average.
    pub fn expected_acts(&self) -> Ratio {
        Ratio::from_integer(u128::from(self.acts_whole)) + self.acts_extra
    }

    /// Moves to the next leaf; `false` when the whole tree has been walked.
    pub fn advance(&mut self) -> bool {
        self.path.truncate(self.depth);
        while let Some(last) = self.path.last_mut() {
            if last.index + 1 < last.count {
                last.index += 1;
                return true;
            }
            self.path.pop();
        }
        false
    }
}

impl Outcomes for Explorer {
    fn roll(&mut self, roll: &Roll<'_>, _steps: &mut Steps) -> Result<u32, DrawError> {
        let faces = roll.act.faces();
        let mut accepted = [(0u32, 0u32); 20];
        let mut n = 0;
        let mut accepted_weight = 0;
        for &(v, w) in faces.as_slice() {
            if (roll.accept)(v).is_ok() {
                accepted[n] = (v, w);
                n += 1;
                accepted_weight += w;
            }
        }
        if n == 0 {
            return Err(DrawError::NoAcceptedOutcome { label: label(roll) });
        }
        if self.depth == self.path.len() {
            self.path.push(Branch {
                index: 0,
                count: n as u8,
            });
        }
        let branch = self.path[self.depth];
        debug_assert_eq!(branch.count as usize, n, "the procedure is deterministic");
        self.depth += 1;
        let (value, weight) = accepted[branch.index as usize];
        self.numer *= u128::from(weight);
        self.denom *= u128::from(accepted_weight);
        let total = faces.total();
        if total == accepted_weight {
            self.acts_whole += 1;
        } else {
            self.acts_extra += Ratio::new(u128::from(total), u128::from(accepted_weight));
        }
        Ok(value)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parsing_outcomes() {
        let die = Act::Die { sides: 6 };
        assert_eq!(die.parse("3"), Ok(3));
        assert_eq!(
            die.parse("7").unwrap_err(),
            "7 is not a face of a six-sided die"
        );
        assert!(die.parse("x").unwrap_err().contains("not a number"));
        assert!(die.parse("99999999999999").is_err());
        assert_eq!(Act::BothCoins.parse("HT"), Ok(2));
        assert_eq!(Act::BothCoins.parse("th"), Ok(3));
        assert_eq!(Act::BothCoins.parse("TT"), Ok(1));
        assert_eq!(Act::BothCoins.parse("HH"), Ok(4));
        assert_eq!(Act::LargerCoin.parse("H"), Ok(2));
        let bag = Act::Bag {
            counts: [0, 1, 0, 2, 0, 0],
        };
        assert_eq!(bag.parse("n"), Ok(Role::Knight.index() as u32));
        assert_eq!(
            bag.parse("Q").unwrap_err(),
            "there is no queen left in the bag (it holds R, R, N)"
        );
        let deck = Act::Card { deck: 0b1111_1101 };
        assert_eq!(
            deck.parse("2").unwrap_err(),
            "card 2 is no longer in the deck (it holds 1, 3, 4, 5, 6, 7, 8)"
        );
        assert_eq!(
            Act::Solid { sides: 8 }.parse("9").unwrap_err(),
            "9 is not a face of the octahedron (1–8)"
        );
        assert_eq!(Act::BlackPiece.parse("4"), Ok(Role::Queen.index() as u32));
        assert_eq!(Act::Hands.parse("Right"), Ok(2));
    }

    #[test]
    fn black_piece_weights() {
        // R, N, B: two each; Q and K one each, together the 4th square: 1/4 each.
        let faces = Act::BlackPiece.faces();
        assert_eq!(faces.total(), 8);
    }

    #[test]
    fn replay_rerolls_and_errors() {
        let accept = |v: u32| {
            if v <= 4 {
                Ok(())
            } else {
                Err(format!("{v} has no square"))
            }
        };
        let mut steps = Steps::recording();
        let mut src = Replay::new("6, 5 2");
        let v = roll(
            &mut src,
            &mut steps,
            Act::Die { sides: 6 },
            Purpose::new("the dark-squared bishop"),
            &accept,
        )
        .unwrap();
        assert_eq!(v, 2);
        assert_eq!(
            steps.list()[0].text,
            "re-roll: 6 has no square",
            "a rejected outcome is a re-roll"
        );
        assert!(src.finish().is_ok());
        let e = roll(
            &mut src,
            &mut steps,
            Act::Die { sides: 6 },
            Purpose::new("the queen"),
            &any,
        )
        .unwrap_err();
        assert_eq!(
            e.to_string(),
            "step 2 needs a roll for the queen (die 1–6), but only 3 outcomes were given"
        );
    }

    #[test]
    fn explorer_conditions_on_accepted_faces() {
        // One die roll accepting 1–4: four leaves of 1/4; 6/4 rolls expected.
        let mut ex = Explorer::new();
        let mut seen = Vec::new();
        loop {
            ex.begin();
            let accept = |v: u32| if v <= 4 { Ok(()) } else { Err(String::new()) };
            let v = roll(
                &mut ex,
                &mut Steps::silent(),
                Act::Die { sides: 6 },
                Purpose::new("x"),
                &accept,
            )
            .unwrap();
            seen.push((v, ex.probability(), ex.expected_acts()));
            if !ex.advance() {
                break;
            }
        }
        assert_eq!(seen.len(), 4);
        for (i, (v, p, acts)) in seen.into_iter().enumerate() {
            assert_eq!(v, i as u32 + 1);
            assert_eq!(p, Ratio::new(1, 4));
            assert_eq!(acts, Ratio::new(3, 2));
        }
    }
}
