//! `chess960 position`: a start position by ID, or a random one.

use crate::cmd::json_line;
use crate::error::CliResult;
use crate::input::{parse_count, parse_id, ID_HELP};
use chess960_core::StartId;
use chess960_draw::rng::SplitMix64;
use clap::Args;
use serde::Serialize;

/// Arguments of `chess960 position`.
#[derive(Debug, Args)]
#[command(
    about = "Show a start position by its ID (0..959), or a random one",
    long_about = "Show a Chess960 start position: a board diagram, its ID, White's back rank \
and its X-FEN.\n\n\
Start positions are numbered 0..959 in Scharnagl's scheme, used by most Chess960 software: \
518 is the classical RNBQKBNR, 0 is BBQNNRKR, 959 is RKRNNQBB. 960 is accepted as a synonym of \
0 (for the 1..960 numbering, whose 960 is Scharnagl's 0).",
    after_help = "Examples:\n  chess960 position 518\n  chess960 position 0 --json\n  \
chess960 position --random\n  chess960 position --random --seed 42 --json"
)]
pub struct PositionArgs {
    /// The start position ID, 0..959 (518 = classical; 960 is accepted as 0).
    #[arg(value_name = "ID", allow_negative_numbers = true, required_unless_present = "random",
          conflicts_with = "random", long_help = ID_HELP)]
    pub id: Option<String>,
    /// Draw one of the 960 start positions uniformly at random instead.
    #[arg(long)]
    pub random: bool,
    /// Seed for --random: the same seed always draws the same position (any number
    /// 0..18446744073709551615). Without it the draw is seeded from the operating system.
    #[arg(
        long,
        value_name = "S",
        requires = "random",
        allow_negative_numbers = true
    )]
    pub seed: Option<String>,
    /// Print one line of JSON: {"id":518,"back_rank":"RNBQKBNR","fen":"..."}.
    #[arg(long)]
    pub json: bool,
}

#[derive(Serialize)]
struct PositionJson {
    id: u16,
    back_rank: String,
    fen: String,
}

/// Runs `chess960 position`.
pub fn run(args: &PositionArgs) -> CliResult<String> {
    let id = match (&args.id, args.random) {
        (Some(text), _) => parse_id(text)?,
        (None, _) => {
            let mut rng = match &args.seed {
                Some(seed) => SplitMix64::from_seed(parse_count(seed, "--seed", 0, u64::MAX)?),
                None => SplitMix64::from_entropy(),
            };
            StartId::new(rng.below(960) as u32).expect("below(960) is a valid ID")
        }
    };
    let back_rank = id.back_rank().to_string();
    let position = id.position();
    let fen = position.fen();
    if args.json {
        return json_line(&PositionJson {
            id: id.get(),
            back_rank,
            fen,
        });
    }
    Ok(format!(
        "{}\nID:        {}\nBack rank: {}\nX-FEN:     {}\n",
        position.board().to_unicode(false),
        id,
        back_rank,
        fen
    ))
}
