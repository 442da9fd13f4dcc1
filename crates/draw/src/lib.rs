//! # chess960-draw
//!
//! Chess960 start positions for people: every way of drawing one at the board that the spec
//! describes (§1.3), the two tables of §1.2, and an exact analysis of which methods are fair.
//!
//! Each random method is **one procedure** written against an [`Outcomes`] source (see
//! [`source`]): the same code draws from a seeded generator ([`RandomSource`]), replays the
//! outcomes a person rolled at the board ([`Replay`]), and is walked exhaustively with exact
//! probabilities ([`Explorer`], used by [`fairness`]). Every step is recorded in words.
//!
//! ```
//! use chess960_draw::{replay, Method};
//!
//! // Die: dark bishop roll 2 → c1, light bishop 3 → f1, queen 3 → d1 (free: a b d e g h),
//! // first knight 2 → b1 (free: a b e g h), second knight 3 → g1 (free: a e g h).
//! let drawn = replay(Method::Die, "2,3,3,2,3").unwrap();
//! assert_eq!(drawn.back_rank.to_string(), "RNBQKBNR");
//! assert_eq!(drawn.steps[0].text, "roll 2 → dark-squared bishop on c1");
//! ```
#![warn(missing_docs)]

pub mod bag;
pub mod cards;
pub mod chosen;
pub mod coins;
pub mod describe;
pub mod die;
pub mod fairness;
pub mod platonic;
pub mod rational;
pub mod rng;
pub mod row;
pub mod source;
pub mod stats;
pub mod tables;

pub use rational::Ratio;
pub use source::{
    Act, DrawError, Explorer, Outcomes, Purpose, RandomSource, Replay, Roll, Step, Steps,
};

use chess960_core::BackRank;
use std::fmt;
use std::str::FromStr;

/// A random drawing method of spec §1.3.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Method {
    /// §1.3.1: one six-sided die (Bodlaender).
    Die,
    /// §1.3.2: two distinguishable coins (Northam).
    Coins,
    /// §1.3.3: a bag of the eight pieces with Coffin's fixes.
    Bag,
    /// §1.3.4: the bag with Wheeler's bishop correction.
    BagWheeler,
    /// §1.3.5: eight numbered cards.
    Cards,
    /// §1.3.6: tetrahedron, cube, octahedron and icosahedron.
    Platonic,
}

impl Method {
    /// Every random method, in the spec's order.
    pub const ALL: [Method; 6] = [
        Method::Die,
        Method::Coins,
        Method::Bag,
        Method::BagWheeler,
        Method::Cards,
        Method::Platonic,
    ];

    /// The name used on the command line and in JSON: `die`, `coins`, `bag`, `bag-wheeler`,
    /// `cards`, `platonic`.
    pub fn name(self) -> &'static str {
        match self {
            Method::Die => "die",
            Method::Coins => "coins",
            Method::Bag => "bag",
            Method::BagWheeler => "bag-wheeler",
            Method::Cards => "cards",
            Method::Platonic => "platonic",
        }
    }

    /// A title: `one die (Bodlaender, §1.3.1)`.
    pub fn title(self) -> &'static str {
        match self {
            Method::Die => "one die (Bodlaender, §1.3.1)",
            Method::Coins => "two coins (Northam, §1.3.2)",
            Method::Bag => "bag (Coffin, §1.3.3)",
            Method::BagWheeler => "bag with Wheeler's correction (§1.3.4)",
            Method::Cards => "eight cards (§1.3.5)",
            Method::Platonic => "Platonic dice (§1.3.6)",
        }
    }

    /// Runs the method's procedure once with outcomes from `src`, recording into `steps`.
    pub fn run(self, src: &mut dyn Outcomes, steps: &mut Steps) -> Result<BackRank, DrawError> {
        match self {
            Method::Die => die::draw(src, steps),
            Method::Coins => coins::draw(src, steps),
            Method::Bag => bag::draw(src, steps),
            Method::BagWheeler => bag::draw_wheeler(src, steps),
            Method::Cards => cards::draw(src, steps),
            Method::Platonic => platonic::draw(src, steps),
        }
    }
}

impl fmt::Display for Method {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A method name that is not one of [`Method::ALL`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownMethod(pub String);

impl fmt::Display for UnknownMethod {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown drawing method '{}': expected die, coins, bag, bag-wheeler, cards or platonic",
            source::show_token(&self.0)
        )
    }
}

impl std::error::Error for UnknownMethod {}

impl FromStr for Method {
    type Err = UnknownMethod;
    fn from_str(s: &str) -> Result<Method, UnknownMethod> {
        Method::ALL
            .into_iter()
            .find(|m| m.name() == s.trim())
            .ok_or_else(|| UnknownMethod(s.to_string()))
    }
}

/// A drawn position with the steps that led to it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Drawn {
    /// White's back rank.
    pub back_rank: BackRank,
    /// The steps, in words.
    pub steps: Vec<Step>,
}

/// Draws by `method` from a random source seeded with `seed` (same seed, same draw, on every
/// platform).
pub fn draw_seeded(method: Method, seed: u64) -> Result<Drawn, DrawError> {
    let mut steps = Steps::recording();
    let back_rank = method.run(&mut RandomSource::new(seed), &mut steps)?;
    Ok(Drawn {
        back_rank,
        steps: steps.into_vec(),
    })
}

/// Replays the outcomes a person typed (`"3,2,5,…"`); an error names the step whose outcome
/// does not fit, or says that outcomes are missing or left over.
pub fn replay(method: Method, outcomes: &str) -> Result<Drawn, DrawError> {
    let mut steps = Steps::recording();
    let mut src = Replay::new(outcomes);
    let back_rank = method.run(&mut src, &mut steps)?;
    src.finish()?;
    Ok(Drawn {
        back_rank,
        steps: steps.into_vec(),
    })
}
