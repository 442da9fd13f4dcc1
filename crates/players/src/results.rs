//! A player's results per start position, the figures of their page that no other server
//! shows: for each Chess960 start position the games, the score and the performance; the
//! player's best and worst positions; and how their games went when they castled short, long
//! or not at all.
//!
//! The best positions are those where the player scores best (half the points or more), the
//! worst those where they score worst (under half), each among positions with at least two
//! games.
//!
//! The performance of a set of rated games is the opponents' average rating before the games
//! plus 400 × (wins − losses) / games: the linear performance rating, defined for every score
//! (a perfect score is +400 over the average, not infinite).

use crate::glicko2::Score;

/// How a player castled in a game: the first castling they made.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Castled {
    /// Short, towards the h-file rook (`O-O`).
    Short,
    /// Long, towards the a-file rook (`O-O-O`).
    Long,
    /// Not at all.
    Not,
}

/// One finished game of the player, as their results take it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PlayedGame {
    /// The start position's number, if it was a Chess960 start.
    pub start_id: Option<u16>,
    /// The player's result.
    pub score: Score,
    /// The opponent's rating before the game, if the game was rated.
    pub opponent_rating: Option<f64>,
    /// How the player castled.
    pub castled: Castled,
}

/// Games, wins, draws and losses, and the score in points.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Tally {
    /// Games.
    pub games: u32,
    /// Won.
    pub wins: u32,
    /// Drawn.
    pub draws: u32,
    /// Lost.
    pub losses: u32,
}

impl Tally {
    fn add(&mut self, score: Score) {
        self.games += 1;
        match score {
            Score::Win => self.wins += 1,
            Score::Draw => self.draws += 1,
            Score::Loss => self.losses += 1,
        }
    }

    /// The score in points (a draw is half a point).
    pub fn points(&self) -> f64 {
        f64::from(self.wins) + f64::from(self.draws) / 2.0
    }

    /// The points per game, 0..=1 (0 without games).
    pub fn fraction(&self) -> f64 {
        if self.games == 0 {
            0.0
        } else {
            self.points() / f64::from(self.games)
        }
    }
}

/// The results from one start position.
#[derive(Clone, Debug, PartialEq)]
pub struct StartResults {
    /// The position's number.
    pub start_id: u16,
    /// All of the player's games from it.
    pub tally: Tally,
    /// The performance over its rated games, if it has some.
    pub performance: Option<f64>,
}

/// A player's results per start position.
#[derive(Clone, Debug, PartialEq)]
pub struct Results {
    /// The games counted.
    pub games: u32,
    /// Per start position, by number.
    pub starts: Vec<StartResults>,
    /// The positions with the best score per game, best first (at most [`BEST_OF`]), among
    /// those with at least [`MIN_GAMES`] games and half the points or more.
    pub best: Vec<u16>,
    /// The positions with the worst score per game, worst first (at most [`BEST_OF`]), among
    /// those with at least [`MIN_GAMES`] games and under half the points.
    pub worst: Vec<u16>,
    /// The results by how the player castled: short, long, not at all.
    pub castling: [Tally; 3],
}

/// How many best and worst positions are named.
pub const BEST_OF: usize = 3;
/// The fewest games from a position for it to be named among the best or worst.
pub const MIN_GAMES: u32 = 2;

/// The linear performance of rated games against opponents rated `ratings` (before each game)
/// with `tally`'s results; `None` without rated games.
pub fn performance(ratings: &[f64], tally: &Tally) -> Option<f64> {
    if ratings.is_empty() || tally.games == 0 {
        return None;
    }
    let average = ratings.iter().sum::<f64>() / ratings.len() as f64;
    let margin = f64::from(tally.wins) - f64::from(tally.losses);
    Some(average + 400.0 * margin / f64::from(tally.games))
}

/// The results of `games` (games from a start that is not a Chess960 position count in the
/// total and in castling, not per position).
pub fn results(games: &[PlayedGame]) -> Results {
    let mut per: std::collections::BTreeMap<u16, (Tally, Tally, Vec<f64>)> = Default::default();
    let mut castling = [Tally::default(); 3];
    for g in games {
        let slot = match g.castled {
            Castled::Short => 0,
            Castled::Long => 1,
            Castled::Not => 2,
        };
        castling[slot].add(g.score);
        let Some(id) = g.start_id else { continue };
        let (all, rated, ratings) = per.entry(id).or_default();
        all.add(g.score);
        if let Some(r) = g.opponent_rating {
            rated.add(g.score);
            ratings.push(r);
        }
    }
    let starts: Vec<StartResults> = per
        .into_iter()
        .map(|(start_id, (tally, rated, ratings))| StartResults {
            start_id,
            tally,
            performance: performance(&ratings, &rated),
        })
        .collect();
    let mut ranked: Vec<&StartResults> = starts
        .iter()
        .filter(|s| s.tally.games >= MIN_GAMES)
        .collect();
    // Best: the highest score per game, then the most games, then the lower number.
    ranked.sort_by(|a, b| {
        b.tally
            .fraction()
            .total_cmp(&a.tally.fraction())
            .then(b.tally.games.cmp(&a.tally.games))
            .then(a.start_id.cmp(&b.start_id))
    });
    let best: Vec<u16> = ranked
        .iter()
        .filter(|s| s.tally.fraction() >= 0.5)
        .take(BEST_OF)
        .map(|s| s.start_id)
        .collect();
    // Worst: the lowest score per game, then the most games.
    ranked.sort_by(|a, b| {
        a.tally
            .fraction()
            .total_cmp(&b.tally.fraction())
            .then(b.tally.games.cmp(&a.tally.games))
            .then(a.start_id.cmp(&b.start_id))
    });
    let worst: Vec<u16> = ranked
        .iter()
        .filter(|s| s.tally.fraction() < 0.5)
        .take(BEST_OF)
        .map(|s| s.start_id)
        .collect();
    Results {
        games: games.len() as u32,
        starts,
        best,
        worst,
        castling,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(start: u16, score: Score, rated: Option<f64>, castled: Castled) -> PlayedGame {
        PlayedGame {
            start_id: Some(start),
            score,
            opponent_rating: rated,
            castled,
        }
    }

    #[test]
    fn results_per_position_with_best_worst_and_castling() {
        use Castled::*;
        use Score::*;
        let games = [
            game(518, Win, Some(1600.0), Short),
            game(518, Draw, Some(1400.0), Short),
            game(518, Loss, None, Long),
            game(7, Win, None, Not),
            game(7, Win, Some(1500.0), Short),
            game(100, Loss, Some(1700.0), Long),
            game(100, Loss, Some(1500.0), Not),
            game(42, Win, None, Short),
            PlayedGame {
                start_id: None,
                score: Draw,
                opponent_rating: None,
                castled: Not,
            },
        ];
        let r = results(&games);
        assert_eq!(r.games, 9);
        assert_eq!(
            r.starts.iter().map(|s| s.start_id).collect::<Vec<_>>(),
            [7, 42, 100, 518]
        );
        let p518 = &r.starts[3];
        assert_eq!(
            (p518.tally.games, p518.tally.wins, p518.tally.draws),
            (3, 1, 1)
        );
        assert_eq!(p518.tally.points(), 1.5);
        // Rated games only: 1600 and 1400 average 1500, one win, one draw: +200.
        assert_eq!(p518.performance, Some(1700.0));
        assert_eq!(r.starts[0].performance, Some(1900.0));
        // Two losses against 1700 and 1500: 1600 − 400.
        assert_eq!(r.starts[2].performance, Some(1200.0));
        // 42 has one game: not ranked. Half the points or more is among the best.
        assert_eq!(r.best, [7, 518]);
        assert_eq!(r.worst, [100]);
        // Short: W D W W; long: L L; not: W L D.
        assert_eq!(r.castling[0].points(), 3.5);
        assert_eq!((r.castling[1].games, r.castling[1].points()), (2, 0.0));
        assert_eq!((r.castling[2].games, r.castling[2].points()), (3, 1.5));
    }

    #[test]
    fn at_most_three_best_and_worst_and_no_games_say_nothing() {
        let r = results(&[]);
        assert_eq!((r.games, r.starts.len(), r.best.len()), (0, 0, 0));
        assert_eq!(performance(&[], &Tally::default()), None);
        let many: Vec<PlayedGame> = (0..9u16)
            .flat_map(|id| {
                let score = if id < 4 { Score::Win } else { Score::Loss };
                let more = if id % 2 == 0 { 3 } else { 2 };
                vec![game(id, score, None, Castled::Not); more]
            })
            .collect();
        let r = results(&many);
        // Ties in score: the most games first, then the lower number.
        assert_eq!(r.best, [0, 2, 1]);
        assert_eq!(r.worst, [4, 6, 8]);
    }
}
