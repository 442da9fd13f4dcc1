//! How a game's start position was drawn by a physical method (spec §1.3), for an arbiter the
//! proof of a fair draw. `POST /api/games` takes the draw as `POST /api/draw` made it (the
//! method with its seed, or with the outcomes a person got at the board), replays it with
//! `chess960-draw` and refuses it unless it gives exactly the start position of the game: the
//! steps are never taken from the client, so a typo cannot forge them. The game keeps the draw
//! in PGN tags ([`METHOD_TAG`], [`SEED_TAG`] or [`OUTCOMES_TAG`], and [`STEPS_TAG`] for people
//! reading the PGN); its view replays the tags again to show the steps.

use crate::catalog::{self, DrawRequest};
use crate::error::{ApiError, ApiResult};
use chess960_core::StartId;
use serde::{Deserialize, Serialize};

/// The drawing method's name (`die`, `cards`, ..., `chosen`), as `chess960 draw --method` takes it.
pub const METHOD_TAG: &str = "StartDrawMethod";
/// The seed that repeats a draw made by the server (`chess960 draw --method M --seed S`).
pub const SEED_TAG: &str = "StartDrawSeed";
/// The outcomes a person got at the board (`chess960 draw --method M --outcomes O`).
pub const OUTCOMES_TAG: &str = "StartDrawOutcomes";
/// The steps in words, separated by [`STEPS_SEPARATOR`]: what the replay says, for people.
pub const STEPS_TAG: &str = "StartDrawSteps";
/// Between two steps in [`STEPS_TAG`] (no step's text contains it).
pub const STEPS_SEPARATOR: &str = " | ";
/// The longest outcomes text accepted: a draw takes at most a few dozen outcomes, re-rolls
/// included.
const MAX_OUTCOMES_CHARS: usize = 1000;

/// `drawn` in `POST /api/games`: the draw that gave `start.id`, as `POST /api/draw` takes it.
#[derive(Deserialize, Serialize, Debug, PartialEq)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(deny_unknown_fields)]
pub struct DrawnIn {
    /// The method's name (`die`, `cards`, ...).
    method: String,
    /// The seed the server drew it with.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, ts(optional))]
    seed: Option<u64>,
    /// The outcomes a person got at the board.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, ts(optional))]
    outcomes: Option<String>,
}

/// `drawn` in the game view: the method, what repeats the draw, and its steps.
#[derive(Serialize, Clone, Debug, PartialEq, Eq)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct DrawnView {
    /// The method's name.
    pub method: String,
    /// The seed of a draw the server made.
    pub seed: Option<u64>,
    /// The outcomes a person gave.
    pub outcomes: Option<String>,
    /// The steps in words.
    pub steps: Vec<String>,
}

/// Replays `method` with its seed or outcomes: the position and the view of the draw.
fn replay(method: &str, seed: Option<u64>, outcomes: Option<&str>) -> ApiResult<(u16, DrawnView)> {
    let request = DrawRequest::new(method, seed, outcomes.map(str::to_string));
    let drawn = catalog::draw(&request)?;
    let steps = drawn.steps().iter();
    let steps = if method.trim() == "chosen" {
        steps.map(|s| on_own_rank(s)).collect()
    } else {
        steps.cloned().collect()
    };
    let view = DrawnView {
        method: method.trim().to_string(),
        seed,
        outcomes: outcomes.map(|o| o.trim().to_string()),
        steps,
    };
    Ok((drawn.id(), view))
}

/// A step of Northam's placement as the players made it: `chosen` names every square on
/// White's rank (`Black: bishop → c1`), while Black's piece stands on the same file of rank 8
/// (`Black: bishop → c8`).
fn on_own_rank(step: &str) -> String {
    match step.strip_prefix("Black: ") {
        Some(rest) if rest.ends_with('1') && rest.contains(" → ") => {
            format!("Black: {}8", &rest[..rest.len() - 1])
        }
        _ => step.to_string(),
    }
}

/// Checks `drawn` against the game's start position `start` (`None` when the request did not
/// give `start.id`) and gives the PGN tags that record it.
pub fn tags_of(drawn: DrawnIn, start: Option<StartId>) -> ApiResult<Vec<(String, String)>> {
    let start = start.ok_or_else(|| {
        ApiError::bad_request("drawn: goes with start.id, the position the draw gave")
    })?;
    if drawn.seed.is_none() && drawn.outcomes.is_none() {
        return Err(ApiError::bad_request(
            "drawn: give the seed or the outcomes that repeat the draw",
        ));
    }
    if drawn.method.chars().count() > 40 {
        return Err(ApiError::bad_request(
            "drawn.method: not a drawing method (die, coins, bag, bag-wheeler, cards, platonic, chosen)",
        ));
    }
    if let Some(o) = &drawn.outcomes {
        if o.chars().count() > MAX_OUTCOMES_CHARS {
            return Err(ApiError::bad_request(format!(
                "drawn.outcomes: at most {MAX_OUTCOMES_CHARS} characters"
            )));
        }
    }
    let (id, view) = replay(&drawn.method, drawn.seed, drawn.outcomes.as_deref())
        .map_err(|e| ApiError::new(e.status, format!("drawn.{}", e.message)))?;
    if id != start.get() {
        let by = match (&view.seed, &view.outcomes) {
            (Some(seed), _) => format!("seed {seed}"),
            (None, Some(o)) => format!("the outcomes '{o}'"),
            (None, None) => unreachable!("checked above"),
        };
        return Err(ApiError::unprocessable(format!(
            "drawn: the {} method with {by} gives start position {id}, not start.id {}",
            view.method,
            start.get()
        )));
    }
    let mut tags = vec![(METHOD_TAG.to_string(), view.method.clone())];
    if let Some(seed) = view.seed {
        tags.push((SEED_TAG.to_string(), seed.to_string()));
    }
    if let Some(o) = &view.outcomes {
        tags.push((OUTCOMES_TAG.to_string(), o.clone()));
    }
    tags.push((STEPS_TAG.to_string(), view.steps.join(STEPS_SEPARATOR)));
    Ok(tags)
}

/// The tags of a start the players placed live (Northam's method, `placing.rs`), replayed and
/// checked like any draw: `outcomes` are the placements (`B c8, B f1, ...`).
pub fn placed_tags(outcomes: &str, start: StartId) -> ApiResult<Vec<(String, String)>> {
    tags_of(
        DrawnIn {
            method: "chosen".into(),
            seed: None,
            outcomes: Some(outcomes.into()),
        },
        Some(start),
    )
}

/// The draw recorded in a game's tags, replayed; `None` when the game has none, or when the
/// tags (say, of an imported PGN) do not replay to the game's start position `start_id`.
pub fn view_of(tags: &[(String, String)], start_id: Option<u16>) -> Option<DrawnView> {
    let tag = |name: &str| {
        tags.iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    };
    let method = tag(METHOD_TAG)?;
    let seed = match tag(SEED_TAG) {
        Some(s) => Some(s.trim().parse::<u64>().ok()?),
        None => None,
    };
    let outcomes = tag(OUTCOMES_TAG);
    if seed.is_none() && outcomes.is_none()
        || outcomes.is_some_and(|o| o.len() > MAX_OUTCOMES_CHARS)
    {
        return None;
    }
    let (id, view) = replay(method, seed, outcomes).ok()?;
    (Some(id) == start_id).then_some(view)
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::StatusCode;

    fn drawn(method: &str, seed: Option<u64>, outcomes: Option<&str>) -> DrawnIn {
        DrawnIn {
            method: method.into(),
            seed,
            outcomes: outcomes.map(Into::into),
        }
    }

    fn id(n: u32) -> Option<StartId> {
        Some(StartId::new(n).unwrap())
    }

    #[test]
    fn outcomes_that_give_the_start_are_kept_with_the_replayed_steps() {
        // The crate's own example: die 2,3,3,2,3 gives the classical arrangement, 518.
        let tags = tags_of(drawn("die", None, Some("2,3,3,2,3")), id(518)).unwrap();
        let tag = |name: &str| tags.iter().find(|(n, _)| n == name).map(|(_, v)| v.clone());
        assert_eq!(tag(METHOD_TAG).as_deref(), Some("die"));
        assert_eq!(tag(OUTCOMES_TAG).as_deref(), Some("2,3,3,2,3"));
        assert_eq!(tag(SEED_TAG), None);
        let steps = tag(STEPS_TAG).unwrap();
        assert!(
            steps.starts_with("roll 2 → dark-squared bishop on c1 | "),
            "{steps}"
        );
        let view = view_of(&tags, Some(518)).unwrap();
        assert_eq!(view.steps.len(), steps.split(STEPS_SEPARATOR).count());
        assert_eq!(view.steps[0], "roll 2 → dark-squared bishop on c1");
        // Tags that replay to another position than the game's are not shown as its draw.
        assert_eq!(view_of(&tags, Some(517)), None);
    }

    #[test]
    fn a_placement_names_blacks_squares_on_rank_8() {
        let tags = placed_tags("B c8, B f1, N b8, N g1, Q d8", StartId::new(518).unwrap()).unwrap();
        let view = view_of(&tags, Some(518)).unwrap();
        assert_eq!(view.method, "chosen");
        assert_eq!(
            &view.steps[..5],
            [
                "Black: bishop → c8",
                "White: bishop → f1",
                "Black: knight → b8",
                "White: knight → g1",
                "Black: queen → d8"
            ]
        );
        let steps = tags.iter().find(|(n, _)| n == STEPS_TAG).unwrap();
        assert!(steps.1.starts_with("Black: bishop → c8 | "), "{}", steps.1);
    }

    #[test]
    fn a_seed_is_checked_against_the_start_id() {
        let made = chess960_draw::draw_seeded(chess960_draw::Method::Cards, 7).unwrap();
        let right = u32::from(made.back_rank.id().get());
        let tags = tags_of(drawn("cards", Some(7), None), id(right)).unwrap();
        let view = view_of(&tags, Some(right as u16)).unwrap();
        assert_eq!(view.seed, Some(7));
        let texts: Vec<String> = made.steps.iter().map(|s| s.text.clone()).collect();
        assert_eq!(view.steps, texts);

        let wrong = (right + 1) % 960;
        let e = tags_of(drawn("cards", Some(7), None), id(wrong))
            .err()
            .unwrap();
        assert_eq!(e.status, StatusCode::UNPROCESSABLE_ENTITY);
        assert!(
            e.message.contains(&format!(
                "gives start position {right}, not start.id {wrong}"
            )),
            "{}",
            e.message
        );
    }

    #[test]
    fn bad_draws_are_refused_with_the_field() {
        let cases = [
            (drawn("die", None, None), id(518), "drawn: give the seed"),
            (
                drawn("die", Some(1), None),
                None,
                "drawn: goes with start.id",
            ),
            (drawn("dice", Some(1), None), id(518), "drawn.method:"),
            (
                drawn("die", None, Some("2,3,9")),
                id(518),
                "drawn.outcomes:",
            ),
            (drawn("die", Some(1), Some("2")), id(518), "drawn.seed:"),
            (
                drawn("die", None, Some(&"1,".repeat(600))),
                id(518),
                "drawn.outcomes: at most",
            ),
        ];
        for (d, start, want) in cases {
            let e = tags_of(d, start).err().unwrap();
            assert!(e.message.starts_with(want), "{} (wanted {want})", e.message);
        }
    }
}
