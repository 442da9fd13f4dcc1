//! `chess960 draw`: a start position drawn by one of the physical methods of spec §1.3, from a
//! seeded generator or from the outcomes a person rolled at the board; and Northam's chosen
//! method as a two-player dialogue.

use crate::cmd::json_line;
use crate::cmd::position::{self, PositionArgs};
use crate::error::{quote, CliError, CliResult};
use crate::input::parse_count;
use chess960_core::{BackRank, Role};
use chess960_draw::chosen::{self, Chosen, PLACEMENT_SYNTAX};
use chess960_draw::rng::SplitMix64;
use chess960_draw::row::{role_name, SQUARES};
use chess960_draw::{draw_seeded, replay, Method, Step};
use chess960_server::catalog::DrawJson;
use clap::Args;
use std::fmt::Write as _;
use std::io::{BufRead, IsTerminal, Write};

/// Arguments of `chess960 draw`.
#[derive(Debug, Args)]
#[command(
    about = "Draw a start position by a method for people: die, coins, bag, cards, Platonic dice, or chosen",
    long_about = "Draw a Chess960 start position the way people do at the board (spec §1.3), and \
print it like 'chess960 position' does: a board, the ID, White's back rank and the X-FEN.\n\n\
Methods:\n  \
die          one six-sided die (Bodlaender): uniform\n  \
coins        two distinguishable coins (Northam): NOT uniform (see 'chess960 fairness')\n  \
bag          the eight pieces drawn blind from a bag (Coffin): NOT uniform\n  \
bag-wheeler  the bag with Wheeler's bishop correction: uniform\n  \
cards        eight numbered cards: uniform\n  \
platonic     octahedron, tetrahedron, cube and icosahedron: uniform\n  \
chosen       not random: the players place B, B, N, N, Q in turn, Black first (Northam)\n\n\
The outcomes come from a pseudo-random generator (seeded with --seed for a repeatable draw, \
otherwise from the operating system), or from --outcomes: the rolls, throws, pieces or cards \
a person actually got, in order, separated by commas. A rejected roll (a 5 or 6 for a \
bishop with the die) is typed too: it is a re-roll, as at the board. --explain lists every \
step in words.\n\n\
What --outcomes holds, per method:\n  \
die          rolls 1-6: dark bishop, light bishop, queen, first knight, second knight\n  \
coins        throws for the light bishop, dark bishop, king, right rook, left rook, queen:\n               \
the value, 1-4 for both coins and 1-2 for the larger one, or the faces, larger\n               \
coin first: HH HT TH TT, or H T (a step with a single square takes no throw)\n  \
bag          the pieces drawn for a1..h1: K Q R B N\n  \
bag-wheeler  as bag; if the bishops share a colour, then L or R (the bishop that\n               \
moves) and the black piece drawn: R N B Q K, or the square number 1-4\n  \
cards        the cards laid out for a1..h1 (1 R, 2 N, 3 B, 4 Q, 5 K, 6 B, 7 N, 8 R);\n               \
if the bishops share a colour, then the card drawn from the reshuffled deck\n  \
platonic     octahedron 1-8, tetrahedron 1-4, cube 1-6, icosahedron 1-20\n  \
chosen       the placements in turn, Black first: \"B c1, B f1, N b1, N g1, Q d1\"\n\n\
With '--method chosen' and no --outcomes, the two players place their pieces in a dialogue \
on standard input and output (it can be piped). Each line is a piece and a square, like \
\"B c1\", \"Bc\", \"knight g\"; 'help' lists the squares allowed, 'quit' stops. An illegal \
placement is refused with the reason and the same player tries again.",
    after_help = "Examples:\n  \
chess960 draw --method die --explain\n  \
chess960 draw --method bag --seed 42 --json\n  \
chess960 draw --method die --outcomes 6,2,3,3,2,3 --explain\n  \
chess960 draw --method cards --outcomes 3,1,2,4,5,7,6,8 --explain\n  \
chess960 draw --method chosen\n  \
printf 'B c1\\nB f1\\nN b1\\nN g1\\nQ d1\\n' | chess960 draw --method chosen"
)]
pub struct DrawArgs {
    /// The method: die, coins, bag, bag-wheeler, cards, platonic or chosen.
    #[arg(long, value_name = "METHOD")]
    pub method: String,
    /// Seed for the random outcomes: the same seed always draws the same position (any
    /// number 0..18446744073709551615). Without it the draw is seeded from the operating
    /// system.
    #[arg(
        long,
        value_name = "S",
        allow_negative_numbers = true,
        conflicts_with = "outcomes"
    )]
    pub seed: Option<String>,
    /// Replay the outcomes a person got at the board instead, in order, comma-separated
    /// (quoted), e.g. "3,2,5,1,4"; see --help for each method.
    #[arg(long, value_name = "LIST", allow_hyphen_values = true)]
    pub outcomes: Option<String>,
    /// Also list every step of the draw in words.
    #[arg(long)]
    pub explain: bool,
    /// Print one line of JSON:
    /// {"method":"die","id":518,"back_rank":"RNBQKBNR","fen":"...","steps":["..."]}
    /// (with the chosen dialogue, the dialogue goes to standard error).
    #[arg(long)]
    pub json: bool,
}

/// Runs `chess960 draw`.
pub fn run(args: &DrawArgs) -> CliResult<String> {
    let name = args.method.trim();
    if name == "chosen" {
        return run_chosen(args);
    }
    let method: Method = name.parse().map_err(|_| {
        CliError::new(format!(
            "unknown drawing method '{}': expected die, coins, bag, bag-wheeler, cards, \
             platonic or chosen",
            quote(&args.method)
        ))
    })?;
    let (drawn, origin) = match &args.outcomes {
        Some(text) => {
            let drawn = replay(method, text)
                .map_err(|e| CliError::new(format!("--outcomes for the {method} method: {e}")))?;
            (drawn, "from the outcomes given".to_string())
        }
        None => {
            let seed = match &args.seed {
                Some(s) => parse_count(s, "--seed", 0, u64::MAX)?,
                None => SplitMix64::from_entropy().next_u64(),
            };
            let drawn = draw_seeded(method, seed)
                .map_err(|e| CliError::new(format!("the {method} method failed: {e}")))?;
            (drawn, format!("with seed {seed}"))
        }
    };
    let heading = format!("Drawn by {} {origin}:", method.title());
    output(
        method.name(),
        &drawn.back_rank,
        &drawn.steps,
        &heading,
        args,
    )
}

/// The result: the position as `chess960 position` prints it (with the steps first under
/// --explain), or the JSON line.
fn output(
    method: &str,
    rank: &BackRank,
    steps: &[Step],
    heading: &str,
    args: &DrawArgs,
) -> CliResult<String> {
    let id = rank.id();
    if args.json {
        // The same JSON as the web server's /api/draw (which adds the seed it used).
        return json_line(&DrawJson::new(method, rank, steps, None));
    }
    let mut out = String::new();
    if args.explain {
        let _ = writeln!(out, "{heading}");
        for (i, step) in steps.iter().enumerate() {
            let _ = writeln!(out, "{:>3}. {step}", i + 1);
        }
        out.push('\n');
    }
    // Exactly what `chess960 position ID` prints.
    out.push_str(&position::run(&PositionArgs {
        id: Some(id.to_string()),
        random: false,
        seed: None,
        json: false,
    })?);
    Ok(out)
}

/// Northam's chosen method: from --outcomes, or as a dialogue.
fn run_chosen(args: &DrawArgs) -> CliResult<String> {
    if args.seed.is_some() {
        return Err(CliError::new(
            "--seed does not apply to the chosen method: nothing in it is random",
        ));
    }
    let state = match &args.outcomes {
        Some(text) => chosen::replay(text)
            .map_err(|e| CliError::new(format!("--outcomes for the chosen method: {e}")))?,
        None => {
            let stdin = std::io::stdin();
            let echo = !stdin.is_terminal();
            let mut input = stdin.lock();
            // With --json, standard output carries only the JSON line.
            if args.json {
                dialogue(&mut input, &mut std::io::stderr().lock(), echo)?
            } else {
                dialogue(&mut input, &mut std::io::stdout().lock(), echo)?
            }
        }
    };
    let (rank, _) = state.finish().expect("the placement is complete");
    output(
        "chosen",
        &rank,
        &state.steps(),
        "Placed by the players (Northam, §1.3.7):",
        args,
    )
}

const INTRO: &str = "Northam's chosen start position (spec §1.3.7). The players place the
bishops, knights and queen on White's back rank (Black mirrors it), one piece a turn, Black
first, on any free square; the second bishop must stand on the other colour from the first.
Then the king goes on the middle of the three squares left and the rooks on the outer two.";

/// Runs the dialogue: prompts and the rank on `out`, placements read from `input`. Ends with
/// the completed placement, or an error at the end of the input or on 'quit'.
fn dialogue(input: &mut dyn BufRead, out: &mut dyn Write, echo: bool) -> CliResult<Chosen> {
    let mut state = Chosen::new();
    // A closed output (the reader went away) must not stop the players; ignore write errors.
    let _ = writeln!(
        out,
        "{INTRO}\nType {PLACEMENT_SYNTAX}.\n'help' lists the squares allowed, 'quit' stops."
    );
    while let Some(color) = state.to_move() {
        let player = chosen::player(color);
        let _ = write!(
            out,
            "\n{}\n{player} to place a piece (left: {}): ",
            board(&state),
            letters(&state.remaining())
        );
        let _ = out.flush();
        let mut bytes = Vec::new();
        let n = input
            .read_until(b'\n', &mut bytes)
            .map_err(|e| CliError::new(format!("cannot read the placements: {e}")))?;
        if n == 0 {
            let _ = writeln!(out);
            let placed = state.placements().len();
            return Err(CliError::new(format!(
                "the input ended before the position was complete: {placed} of the 5 pieces \
                 placed, {player} to place the next"
            )));
        }
        let line = String::from_utf8_lossy(&bytes);
        let line = line.trim();
        if echo {
            let _ = writeln!(out, "{}", quote(line));
        }
        match line.to_ascii_lowercase().as_str() {
            "" => continue,
            "help" | "?" | "h" => {
                let _ = write!(out, "{}", help(&state));
                continue;
            }
            "quit" | "exit" | "q" => {
                return Err(CliError::new(format!(
                    "stopped by {player} before the position was complete ({} of the 5 pieces \
                     placed)",
                    state.placements().len()
                )))
            }
            _ => {}
        }
        let placed = chosen::parse_placement(line)
            .map_err(|e| e.to_string())
            .and_then(|(role, sq)| state.place(role, sq).map_err(|e| e.to_string()));
        let _ = match placed {
            Ok(p) => writeln!(
                out,
                "  {player}: {} on {}",
                role_name(p.role),
                SQUARES[p.square]
            ),
            Err(why) => writeln!(out, "  Refused: {why}. {player}, try again."),
        };
    }
    let (_, [r1, k, r2]) = state.finish().expect("complete");
    let _ = writeln!(
        out,
        "\n{}\nAll five placed: {}.\n",
        board_of(&state.finish().expect("complete").0.to_string()),
        chosen::king_and_rooks(r1, k, r2)
    );
    let _ = out.flush();
    Ok(state)
}

/// The rank so far under its file letters.
fn board(state: &Chosen) -> String {
    format!("  a b c d e f g h\n  {}", state.diagram())
}

/// A finished rank under its file letters.
fn board_of(letters: &str) -> String {
    let spaced: Vec<String> = letters.chars().map(String::from).collect();
    format!("  a b c d e f g h\n  {}", spaced.join(" "))
}

/// `B, N, N, Q`.
fn letters(roles: &[Role]) -> String {
    roles
        .iter()
        .map(|r| r.upper_char().to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

/// The help text of the dialogue: the syntax and the squares each piece may go on now.
fn help(state: &Chosen) -> String {
    let mut out = format!("  Type {PLACEMENT_SYNTAX}.\n");
    let mut roles = state.remaining();
    roles.dedup();
    for role in roles {
        let squares: Vec<&str> = state
            .legal_squares(role)
            .into_iter()
            .map(|s| SQUARES[s])
            .collect();
        let _ = writeln!(
            out,
            "  {} ({}) may go on {}",
            role_name(role),
            role.upper_char(),
            squares.join(", ")
        );
    }
    if let Some(color) = state.to_move() {
        let _ = writeln!(
            out,
            "  {} places next. 'quit' stops without a position.",
            chosen::player(color)
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn talk(input: &str) -> (CliResult<Chosen>, String) {
        let mut out = Vec::new();
        let r = dialogue(&mut input.as_bytes(), &mut out, true);
        (r, String::from_utf8(out).unwrap())
    }

    #[test]
    fn dialogue_places_and_refuses() {
        let (r, out) = talk("B c1\nB e1\nhelp\nBf\n\nN b\nknight g1\nQd8\n");
        let state = r.unwrap();
        assert_eq!(state.finish().unwrap().0.to_string(), "RNBQKBNR");
        assert!(out.contains("Refused: the second bishop may not stand on a dark square"));
        assert!(out.contains("bishop (B) may go on b1, d1, f1, h1"), "{out}");
        assert!(out.contains("White: bishop on f1"), "{out}");
        assert!(out.contains("king on e1, the middle of the three squares left"));
    }

    #[test]
    fn dialogue_end_of_input_and_quit() {
        let (r, _) = talk("B c1\n");
        let e = r.unwrap_err().to_string();
        assert!(e.contains("the input ended"), "{e}");
        assert!(
            e.contains("1 of the 5 pieces placed, White to place"),
            "{e}"
        );
        let (r, _) = talk("quit\n");
        assert!(r.unwrap_err().to_string().contains("stopped by Black"));
        let (r, _) = talk("\u{1b}[A\u{fffd}\n");
        assert!(r.is_err());
    }
}
