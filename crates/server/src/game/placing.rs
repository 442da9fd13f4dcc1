//! Northam's alternate placement as a live game start (spec §1.3.7): the two players of a game
//! between people place bishops, knights and queen on the back rank in turn, Black first, each
//! seeing the other's choices, with a time limit per placement; the king and the rooks then take
//! the three squares left, and the game starts from the position both chose. The rules of the
//! placement are `chess960-draw`'s (`chosen.rs`); this module keeps the live state: whose turn,
//! the deadline, and which placements the server made for a player whose time ran out.

use chess960_core::{Color, Role, StartId};
use chess960_draw::chosen::{Chosen, PLAYERS_PIECES};
use chess960_draw::rng::SplitMix64;
use serde::Serialize;
use std::time::{Duration, Instant};

/// The time for one placement unless the game asks for another.
pub const DEFAULT_PER_PLACEMENT: Duration = Duration::from_secs(30);
/// The shortest and longest time per placement a game may ask for.
pub const PER_PLACEMENT_RANGE: (Duration, Duration) =
    (Duration::from_secs(5), Duration::from_secs(600));
/// The tag a game carries until its start is placed, with the time per placement in
/// milliseconds (`30000`): a challenge read back with it still waits for its second player and
/// the placement; a game read back with it while both seats were taken (the server stopped
/// during the placement) is aborted, as placements are not stored.
pub const PENDING_TAG: &str = "StartPlacement";

/// A placement in progress.
#[derive(Clone, Debug)]
pub struct Placing {
    chosen: Chosen,
    /// The time each placement may take.
    pub per: Duration,
    /// When the player to place runs out of time (`None` until the placement begins).
    pub until: Option<Instant>,
    /// For each placement made, whether the server made it (the player's time ran out).
    auto: Vec<bool>,
}

/// The placement in the game view.
#[derive(Serialize, Clone, Debug, PartialEq, Eq)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct PlacingView {
    /// Who places next; `null` once done.
    pub to_place: Option<crate::game::ColorJson>,
    /// The placements so far.
    pub placed: Vec<PlacedView>,
    /// White's back rank so far, a1 to h1, `.` for a free square (Black's mirrors it).
    pub rank: String,
    /// The pieces still to place (`B`, `N`, `Q`).
    pub remaining: Vec<&'static str>,
    /// The files each remaining piece may go on now (`{"B": ["b", "d"], ...}`).
    pub legal: std::collections::BTreeMap<&'static str, Vec<String>>,
    /// Time left for the placement, as of the view.
    pub ms_left: Option<u64>,
    /// The time each placement may take.
    pub per_ms: u64,
}

/// One placement made.
#[derive(Serialize, Clone, Debug, PartialEq, Eq)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct PlacedView {
    pub player: crate::game::ColorJson,
    pub piece: &'static str,
    /// The file, `a`..`h` (White's piece on rank 1, Black's on rank 8).
    pub file: String,
    /// The server placed it: the player's time ran out.
    pub auto: bool,
}

fn letter(role: Role) -> &'static str {
    match role {
        Role::Bishop => "B",
        Role::Knight => "N",
        Role::Queen => "Q",
        Role::Rook => "R",
        Role::King => "K",
        Role::Pawn => "P",
    }
}

fn file(square: usize) -> String {
    char::from(b'a' + square as u8).to_string()
}

impl Placing {
    /// A placement not begun yet.
    pub fn new(per: Duration) -> Placing {
        Placing {
            chosen: Chosen::new(),
            per,
            until: None,
            auto: Vec::new(),
        }
    }

    /// The value of [`PENDING_TAG`].
    pub fn tag_value(&self) -> String {
        self.per.as_millis().to_string()
    }

    /// The placement a challenge read back from the store waits for, from its tags.
    pub fn from_tags(tags: &[(String, String)]) -> Option<Placing> {
        let (_, v) = tags.iter().find(|(n, _)| n == PENDING_TAG)?;
        let per = v
            .trim()
            .parse::<u64>()
            .map(Duration::from_millis)
            .ok()
            .filter(|d| (PER_PLACEMENT_RANGE.0..=PER_PLACEMENT_RANGE.1).contains(d))
            .unwrap_or(DEFAULT_PER_PLACEMENT);
        Some(Placing::new(per))
    }

    /// The player to place; `None` once all five pieces are placed.
    pub fn to_place(&self) -> Option<Color> {
        self.chosen.to_move()
    }

    /// Starts the clock of the next placement at `now`.
    pub fn start_turn(&mut self, now: Instant) {
        self.until = self.to_place().map(|_| now + self.per);
    }

    /// Places what `text` says (`B c`, `Nf1`, `queen d8`) for the player to place; the reason
    /// if it may not go there.
    pub fn place(&mut self, text: &str, now: Instant) -> Result<(), String> {
        let (role, square) = chess960_draw::chosen::parse_placement(text)?;
        self.chosen.place(role, square).map_err(|e| e.to_string())?;
        self.auto.push(false);
        self.start_turn(now);
        Ok(())
    }

    /// The player's time ran out: a piece of theirs goes on a square, both drawn at random
    /// among the legal ones.
    pub fn place_for(&mut self, rng: &mut SplitMix64, now: Instant) {
        let options: Vec<(Role, usize)> = self
            .chosen
            .remaining()
            .into_iter()
            .flat_map(|role| {
                self.chosen
                    .legal_squares(role)
                    .into_iter()
                    .map(move |sq| (role, sq))
            })
            .collect();
        if options.is_empty() {
            return;
        }
        let (role, square) = options[rng.below(options.len() as u64) as usize];
        if self.chosen.place(role, square).is_ok() {
            self.auto.push(true);
        }
        self.start_turn(now);
    }

    /// Once done: the start position and the placements as `chess960 draw --method chosen
    /// --outcomes` takes them (`B c1, N b1, ...`).
    pub fn result(&self) -> Option<(StartId, String)> {
        let (rank, _) = self.chosen.finish()?;
        let id = rank.id();
        let outcomes: Vec<String> = self
            .chosen
            .placements()
            .iter()
            .map(|p| {
                format!(
                    "{} {}{}",
                    letter(p.role),
                    file(p.square),
                    if p.player == Color::White { 1 } else { 8 }
                )
            })
            .collect();
        Some((id, outcomes.join(", ")))
    }

    /// The placement in the game view at `now`.
    pub fn view(&self, now: Instant) -> PlacingView {
        let remaining = self.chosen.remaining();
        let mut legal = std::collections::BTreeMap::new();
        for role in PLAYERS_PIECES {
            if remaining.contains(&role) {
                legal.insert(
                    letter(role),
                    self.chosen
                        .legal_squares(role)
                        .into_iter()
                        .map(file)
                        .collect(),
                );
            }
        }
        PlacingView {
            to_place: self.to_place().map(crate::game::ColorJson::from),
            placed: self
                .chosen
                .placements()
                .iter()
                .zip(&self.auto)
                .map(|(p, &auto)| PlacedView {
                    player: p.player.into(),
                    piece: letter(p.role),
                    file: file(p.square),
                    auto,
                })
                .collect(),
            rank: self.chosen.diagram().replace(' ', ""),
            remaining: remaining.into_iter().map(letter).collect(),
            legal,
            ms_left: self
                .until
                .filter(|_| self.to_place().is_some())
                .map(|u| u.saturating_duration_since(now).as_millis() as u64),
            per_ms: self.per.as_millis() as u64,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn black_first_then_in_turn_to_the_classical_start() {
        let t = Instant::now();
        let mut p = Placing::new(DEFAULT_PER_PLACEMENT);
        p.start_turn(t);
        assert_eq!(p.to_place(), Some(Color::Black));
        for (text, next) in [
            ("B c8", Some(Color::White)),
            ("B f1", Some(Color::Black)),
            ("N b", Some(Color::White)),
            ("N g1", Some(Color::Black)),
            ("Q d8", None),
        ] {
            p.place(text, t).unwrap();
            assert_eq!(p.to_place(), next, "after {text}");
        }
        let (id, outcomes) = p.result().unwrap();
        assert_eq!(id.get(), 518);
        assert_eq!(outcomes, "B c8, B f1, N b8, N g1, Q d8");
        // The outcomes replay to the same start with chess960-draw.
        let replayed = chess960_draw::chosen::replay(&outcomes).unwrap();
        assert_eq!(replayed.finish().map(|(r, _)| r), Some(id.back_rank()));
        let v = p.view(t);
        assert_eq!(
            v.rank, ".NBQ.BN.",
            "the players' pieces; king and rooks go on the rest"
        );
        assert_eq!(v.to_place, None);
        assert_eq!(v.ms_left, None);
    }

    #[test]
    fn refusals_and_the_time_running_out() {
        let t = Instant::now();
        let mut p = Placing::new(Duration::from_secs(10));
        p.start_turn(t);
        p.place("B c", t).unwrap();
        // The second bishop on the first's colour, a taken square, a king: refused.
        assert!(p.place("B e", t).unwrap_err().contains("bishop"));
        assert!(p.place("N c", t).is_err());
        assert!(p.place("K e", t).is_err());
        assert!(p.place("xyz", t).is_err());
        let v = p.view(t + Duration::from_secs(4));
        assert_eq!(v.to_place, Some(crate::game::ColorJson::White));
        assert_eq!(v.ms_left, Some(6000));
        assert_eq!(v.legal["B"], vec!["b", "d", "f", "h"]);
        // White's time runs out four times in a row: the server places for whoever is to
        // place; every result is a legal start.
        let mut rng = SplitMix64::from_seed(7);
        for _ in 0..4 {
            p.place_for(&mut rng, t);
        }
        let (id, outcomes) = p.result().expect("complete");
        assert!(id.get() < 960);
        assert_eq!(
            chess960_draw::chosen::replay(&outcomes)
                .unwrap()
                .finish()
                .map(|(r, _)| r),
            Some(id.back_rank())
        );
        assert_eq!(p.view(t).placed.iter().filter(|x| x.auto).count(), 4);
    }
}
