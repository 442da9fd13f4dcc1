//! The start position of a round: drawn by the computer (uniform, optionally without 518 or
//! without a position the event has played already), by a physical method of spec §1.3 with
//! its steps (a seed, or the outcomes rolled at the board), set by the arbiter, or taken from
//! a list fixed before the event. Each draw is recorded with what repeats it, and
//! [`PositionDraw::verify`] repeats it: anyone can check a round's position later.

use chess960_core::StartId;
use chess960_draw::Method;
use serde::{Deserialize, Serialize};
use std::fmt;

/// How a position was chosen.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum DrawKind {
    /// Uniform over the positions the rules allow, from a seeded generator.
    Computer {
        /// The seed: `chess960 event` repeats the draw from it.
        seed: u64,
    },
    /// A physical method (spec §1.3), from a seed or from what was rolled at the board.
    Physical {
        /// The method's name (`die`, `coins`, `bag`, `bag-wheeler`, `cards`, `platonic`).
        method: String,
        /// The seed of a draw the program made.
        seed: Option<u64>,
        /// The outcomes a person got at the board.
        outcomes: Option<String>,
    },
    /// Set by the arbiter.
    Set,
    /// The event's list fixed before the event, entry `index` (from 0).
    List {
        /// The entry.
        index: usize,
    },
    /// The same position as an earlier round (the second cycle of a double round robin).
    Repeat {
        /// That round.
        round: u32,
    },
}

/// A round's (or a board's) start position with how it was drawn.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PositionDraw {
    /// The position, 0..959.
    pub id: u16,
    /// How it was chosen.
    pub how: DrawKind,
    /// The steps in words (for the hall and the record).
    pub steps: Vec<String>,
}

/// The longest outcomes a physical draw takes (characters): a die's five rolls are
/// `2,3,3,2,4`, and even a long run of rerolls stays far below this.
pub const MAX_OUTCOMES: usize = 1000;
/// The most steps a recorded draw has. The longest seen in 20,000 seeded draws of each method
/// is 21 (the die, with its rerolls); outcomes of [`MAX_OUTCOMES`] characters give fewer than
/// this.
pub const MAX_STEPS: usize = 1000;
/// The longest step of a recorded draw (characters); the methods' longest is about 220.
pub const MAX_STEP: usize = 500;

/// What the event allows.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PositionRules {
    /// No 518 (the classical start).
    pub exclude_518: bool,
    /// No position the event has played already.
    pub no_repeat: bool,
}

/// A draw that cannot be made or does not check.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PositionError(pub String);

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for PositionError {}

/// SplitMix64: a small generator whose output anyone can recompute from the seed.
pub(crate) struct SplitMix(pub(crate) u64);

impl SplitMix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n` (rejection, no modulo bias).
    pub(crate) fn below(&mut self, n: u64) -> u64 {
        let zone = u64::MAX - u64::MAX % n;
        loop {
            let x = self.next();
            if x < zone {
                return x % n;
            }
        }
    }
}

/// The positions `rules` allow, given those played already.
pub fn allowed(rules: PositionRules, played: &[u16]) -> Vec<u16> {
    // A table rather than `played.contains` for each of the 960: checking every draw of an
    // event with a position per board stays linear in its positions.
    let mut seen = [false; 960];
    if rules.no_repeat {
        for &id in played {
            if let Some(s) = seen.get_mut(id as usize) {
                *s = true;
            }
        }
    }
    (0..960u16)
        .filter(|&id| !(rules.exclude_518 && id == 518))
        .filter(|&id| !seen[id as usize])
        .collect()
}

fn why_not(id: u16, rules: PositionRules, played: &[u16]) -> Option<String> {
    if rules.exclude_518 && id == 518 {
        return Some("518 (the classical start) is excluded in this event".into());
    }
    if rules.no_repeat && played.contains(&id) {
        return Some(format!(
            "position {id} has been played in this event already"
        ));
    }
    None
}

fn describe(id: u16) -> String {
    match StartId::new(id as u32) {
        Ok(s) => format!("position {id}: {}", s.back_rank()),
        // Only from a list that was not checked (a damaged document); never drawn.
        Err(_) => format!("position {id}"),
    }
}

impl PositionDraw {
    /// A computer draw: uniform over the allowed positions.
    pub fn computer(
        seed: u64,
        rules: PositionRules,
        played: &[u16],
    ) -> Result<PositionDraw, PositionError> {
        let pool = allowed(rules, played);
        if pool.is_empty() {
            return Err(PositionError(
                "no position is left to draw: every allowed one has been played".into(),
            ));
        }
        let id = pool[SplitMix(seed).below(pool.len() as u64) as usize];
        let mut steps = vec![format!(
            "the computer draws one of {} positions uniformly (seed {seed})",
            pool.len()
        )];
        if rules.exclude_518 {
            steps.push("518 is excluded".into());
        }
        if rules.no_repeat && !played.is_empty() {
            steps.push(format!(
                "{} positions played already are excluded",
                960 - pool.len() - rules.exclude_518 as usize
            ));
        }
        steps.push(describe(id));
        Ok(PositionDraw {
            id,
            how: DrawKind::Computer { seed },
            steps,
        })
    }

    /// A physical method, from a seed or from the outcomes of the board. A result the rules
    /// exclude is refused: the arbiter draws again.
    pub fn physical(
        method: &str,
        seed: Option<u64>,
        outcomes: Option<&str>,
        rules: PositionRules,
        played: &[u16],
    ) -> Result<PositionDraw, PositionError> {
        let m: Method = method
            .parse()
            .map_err(|e: chess960_draw::UnknownMethod| PositionError(e.to_string()))?;
        // The same bound as an imported document's (`Event::validate`): what is stored stays
        // small, and a mistyped paste is refused before it is replayed.
        if let Some(p) = outcomes.and_then(|o| {
            crate::validate::text_problem("the outcomes text", o.trim(), MAX_OUTCOMES)
        }) {
            return Err(PositionError(p.to_string()));
        }
        let drawn = match (seed, outcomes) {
            (_, Some(o)) => chess960_draw::replay(m, o),
            (Some(s), None) => chess960_draw::draw_seeded(m, s),
            (None, None) => {
                return Err(PositionError(
                    "a physical draw needs a seed or the outcomes".into(),
                ))
            }
        }
        .map_err(|e| PositionError(format!("{method}: {e}")))?;
        let id = drawn.back_rank.id().get();
        if let Some(why) = why_not(id, rules, played) {
            return Err(PositionError(format!(
                "the {method} draw gives {id}, but {why}: draw again"
            )));
        }
        let mut steps: Vec<String> = drawn.steps.iter().map(|s| s.text.clone()).collect();
        steps.push(describe(id));
        Ok(PositionDraw {
            id,
            how: DrawKind::Physical {
                method: m.name().to_string(),
                seed: if outcomes.is_some() { None } else { seed },
                outcomes: outcomes.map(|o| o.trim().to_string()),
            },
            steps,
        })
    }

    /// A position the arbiter sets.
    pub fn set(
        id: u32,
        rules: PositionRules,
        played: &[u16],
    ) -> Result<PositionDraw, PositionError> {
        let id = StartId::new(id)
            .map_err(|e| PositionError(e.to_string()))?
            .get();
        if let Some(why) = why_not(id, rules, played) {
            return Err(PositionError(why));
        }
        Ok(PositionDraw {
            id,
            how: DrawKind::Set,
            steps: vec![format!("set by the arbiter: {}", describe(id))],
        })
    }

    /// Entry `index` of the event's list.
    pub fn listed(list: &[u16], index: usize) -> Result<PositionDraw, PositionError> {
        let id = *list.get(index).ok_or_else(|| {
            PositionError(format!(
                "the event's list has {} positions; round {} has none",
                list.len(),
                index.saturating_add(1)
            ))
        })?;
        StartId::new(id as u32).map_err(|e| PositionError(e.to_string()))?;
        Ok(PositionDraw {
            id,
            how: DrawKind::List { index },
            steps: vec![format!(
                "entry {} of the list fixed before the event: {}",
                index + 1,
                describe(id)
            )],
        })
    }

    /// Repeats the draw and checks that it gives this position (the rules as they were then:
    /// `played` holds the positions of the rounds before).
    pub fn verify(
        &self,
        rules: PositionRules,
        played: &[u16],
        list: &[u16],
    ) -> Result<(), PositionError> {
        let again = match &self.how {
            DrawKind::Computer { seed } => PositionDraw::computer(*seed, rules, played)?.id,
            DrawKind::Physical {
                method,
                seed,
                outcomes,
            } => PositionDraw::physical(method, *seed, outcomes.as_deref(), rules, played)?.id,
            DrawKind::Set => self.id,
            DrawKind::List { index } => PositionDraw::listed(list, *index)?.id,
            DrawKind::Repeat { .. } => self.id,
        };
        if again == self.id {
            Ok(())
        } else {
            Err(PositionError(format!(
                "the recorded draw gives {again}, not {}",
                self.id
            )))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn computer_draws_repeat_and_respect_the_rules() {
        let rules = PositionRules {
            exclude_518: true,
            no_repeat: true,
        };
        let a = PositionDraw::computer(7, rules, &[]).unwrap();
        assert_eq!(
            a,
            PositionDraw::computer(7, rules, &[]).unwrap(),
            "the seed repeats it"
        );
        a.verify(rules, &[], &[]).unwrap();
        // With every position but one played, that one comes.
        let played: Vec<u16> = (0..960).filter(|&i| i != 17).collect();
        assert_eq!(
            PositionDraw::computer(
                1,
                PositionRules {
                    exclude_518: false,
                    no_repeat: true
                },
                &played
            )
            .unwrap()
            .id,
            17
        );
        let all: Vec<u16> = (0..960).collect();
        assert!(PositionDraw::computer(1, rules, &all).is_err());
        // Uniform enough: 960 positions over many seeds, 518 never.
        let mut seen = std::collections::HashSet::new();
        for s in 0..20000 {
            let id = PositionDraw::computer(s, rules, &[]).unwrap().id;
            assert_ne!(id, 518);
            seen.insert(id);
        }
        assert_eq!(seen.len(), 959);
    }

    #[test]
    fn physical_draws_replay_the_board() {
        let rules = PositionRules::default();
        // Die: 2, 3, 3, 2, 3 gives RNBQKBNR (the draw crate's own example).
        let d = PositionDraw::physical("die", None, Some("2,3,3,2,3"), rules, &[]).unwrap();
        assert_eq!(d.id, 518);
        assert!(d.steps[0].starts_with("roll 2"));
        d.verify(rules, &[], &[]).unwrap();
        let no518 = PositionRules {
            exclude_518: true,
            no_repeat: false,
        };
        let e = PositionDraw::physical("die", None, Some("2,3,3,2,3"), no518, &[]).unwrap_err();
        assert!(e.0.contains("draw again"), "{e}");
        assert!(PositionDraw::physical("dice", None, Some("1"), rules, &[]).is_err());
        // A forged record does not verify.
        let mut forged = d.clone();
        forged.id = 519;
        assert!(forged.verify(rules, &[], &[]).is_err());
    }

    #[test]
    fn set_and_listed() {
        let rules = PositionRules {
            exclude_518: true,
            no_repeat: true,
        };
        assert!(PositionDraw::set(518, rules, &[]).is_err());
        assert!(
            PositionDraw::set(960, rules, &[0]).is_err(),
            "960 is 0, played already"
        );
        assert_eq!(PositionDraw::set(12, rules, &[]).unwrap().id, 12);
        assert_eq!(PositionDraw::listed(&[5, 9], 1).unwrap().id, 9);
        assert!(PositionDraw::listed(&[5, 9], 2).is_err());
    }
}
