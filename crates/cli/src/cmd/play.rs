//! `chess960 play`: a game against the engine on the terminal, saved move by move in the game
//! database like every other game.

use crate::input::{parse_count, parse_id, ID_HELP};
use chess960_core::{Color, Game, Move, Position, StartId};
use chess960_draw::rng::SplitMix64;
use chess960_engine::levels::{ELO_MAX, ELO_MIN};
use chess960_engine::player::{
    draw_decline, AnalysisLimit, Level, PlayClock, Player, Score, DRAW_OFFER_THINK,
    FULL_MOVETIME_DEFAULT, FULL_MOVETIME_MAX, FULL_MOVETIME_MIN,
};
use chess960_round::now::TimeSource;
use chess960_round::record::{engine_game, human_of, parse_level_tag, TimeControl, LEVEL_TAG};
use chess960_round::{Command, Event, MoveInput, Phase, Player as RoundPlayer, Round, RoundError};
use chess960_store::{Finish, GameId, GameStore, MoveRecord, NewGame, StoredGame};
use clap::{Args, ValueEnum};
use std::io::{BufRead, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// `chess960 play`.
#[derive(Debug, Args)]
#[command(
    about = "Play Chess960 against the engine on the terminal (saved in the game database)",
    long_about = "Play a game of Chess960 against the chess960 engine on the terminal. The board \
is drawn with Unicode pieces; type your moves in SAN (Nf3, exd5, e8=Q), in UCI (g1f3, e7e8q) or \
as O-O / O-O-O (0-0 too). Castling can also be typed as the king taking its own rook (b1a1) or, \
when the king moves at least two files, as the king's move to its destination (e1g1); a \
one-square king move is always a king move. Type 'help' during the game for the commands: undo, \
resign, draw, abort, pgn, flip, moves, quit.\n\n\
The game is judged by the rules of 'chess960 serve' (the same referee): no clock runs before both \
sides have moved (the first moves cost nothing and earn no increment), the game can be aborted \
until then, and a first move not made within five minutes aborts it.\n\n\
Every move is saved in the game database as it is played (see 'chess960 db'), from your first \
move on: a game left before it (or started with standard input at its end) leaves nothing \
behind. A game left with 'quit' (or interrupted) can be continued with --resume ID, which \
shows the moves so far.",
    after_help = "Examples:\n  chess960 play                         # random start, White, level 1500\n  \
chess960 play --id 518 --color black --level 1800 --tc 5+3\n  \
chess960 play --random --level depth:6\n  \
chess960 play --level full --movetime 3000 --tc 10+5\n  chess960 play --resume 12"
)]
pub struct PlayArgs {
    /// The start position, 0..959 (518 = classical). Default: a random one.
    #[arg(long, value_name = "N", allow_negative_numbers = true, long_help = ID_HELP,
          conflicts_with_all = ["random", "resume"])]
    pub id: Option<String>,
    /// A random start position (the default).
    #[arg(long, conflicts_with = "resume")]
    pub random: bool,
    /// Seed for the random start position (repeatable games).
    #[arg(long, value_name = "S", conflicts_with_all = ["id", "resume"])]
    pub seed: Option<String>,
    /// Your colour.
    #[arg(long, value_enum, default_value = "white", conflicts_with = "resume")]
    pub color: ColorChoice,
    /// The engine's strength: an Elo from 1110 to 2100 (e.g. 1500) on the scale of Stockfish's
    /// UCI_Elo, calibrated by matches (docs/strength.md), a fixed search depth as depth:N
    /// (e.g. depth:6), or full: the engine at full strength (no node cap, far above 2100),
    /// thinking at most --movetime a move.
    #[arg(
        long,
        value_name = "L",
        default_value = "1500",
        conflicts_with = "resume"
    )]
    pub level: String,
    /// With --level full: the longest the engine thinks on a move, in milliseconds, from 100
    /// to 10000 (default 1000). With --tc the engine manages its own clock and thinks at most
    /// this long; without a clock it thinks this long on every move.
    #[arg(long, value_name = "MS", conflicts_with_all = ["resume", "join", "seek"])]
    pub movetime: Option<String>,
    /// Time control MINUTES+SECONDS: minutes each, seconds added after every move (5+3,
    /// 0.5+0, 15+10). Without it the game is untimed.
    #[arg(long, value_name = "TC", conflicts_with = "resume")]
    pub tc: Option<String>,
    /// Your name in the saved game (default: the USER environment variable, else "Player").
    #[arg(long, value_name = "NAME", conflicts_with = "resume")]
    pub name: Option<String>,
    /// Continue the unfinished game with this database ID (from 'chess960 db list').
    #[arg(long, value_name = "ID")]
    pub resume: Option<String>,
    /// The game database: a SQLite file, created when it does not exist, or a PostgreSQL
    /// database, postgres://user@host/dbname (default: $CHESS960_DB, else games.sqlite3 in
    /// the user's data directory, ~/.local/share/chess960/ on Linux).
    #[arg(long, value_name = "PATH|URL")]
    pub db: Option<PathBuf>,
    /// Play a game between people on a 'chess960 serve' server from the terminal: the game's
    /// link as the browser shows it (http://HOST:8960/game/KEY; add ?token=T for a server with
    /// an access token). The first time, the terminal takes the open seat (named by --name) and
    /// keeps its token in the config directory (seats.json; $CHESS960_CONFIG_DIR moves it), so
    /// --join with the same link goes on later; a game whose seats are taken is watched.
    #[arg(long, value_name = "URL", conflicts_with_all = ["id", "random", "seed", "level", "tc", "resume", "db"])]
    pub join: Option<String>,
    /// Find an opponent on a 'chess960 serve' server (http://HOST:8960) at the clock --tc:
    /// play the first challenge in its lobby with that clock (and rating: --rated), or list
    /// one of your own there (a random start, colours by lot) and wait for an opponent. Log
    /// in first ('chess960 login URL') to play as your account.
    #[arg(long, value_name = "URL", requires = "tc", conflicts_with_all = ["id", "random", "seed", "level", "resume", "db", "join"])]
    pub seek: Option<String>,
    /// With --seek: a rated game (between two logged-in players; 'chess960 login URL').
    #[arg(long, requires = "seek")]
    pub rated: bool,
}

/// `--color`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ColorChoice {
    White,
    Black,
    Random,
}

/// The engine's name in saved games starts with this; the level follows.
const ENGINE_NAME: &str = "chess960-engine";

/// Runs `chess960 play`.
pub fn main(args: &PlayArgs) -> ExitCode {
    if let Some(url) = &args.seek {
        let input = Box::new(std::io::BufReader::new(std::io::stdin()));
        let mut stdout = std::io::stdout();
        let result = args
            .tc
            .as_deref()
            .ok_or_else(|| "--seek needs a clock: --tc MINUTES+SECONDS".to_string())
            .and_then(parse_tc)
            .and_then(|tc| {
                let want = super::join::Seek {
                    initial_ms: tc.initial_ms,
                    increment_ms: tc.increment_ms,
                    rated: args.rated,
                };
                super::join::seek(url, &want, args.name.as_deref(), input, &mut stdout)
            });
        return match result {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("chess960: {e}");
                ExitCode::from(2)
            }
        };
    }
    if let Some(url) = &args.join {
        let input = Box::new(std::io::BufReader::new(std::io::stdin()));
        let mut stdout = std::io::stdout();
        return match super::join::run(url, args.name.as_deref(), input, &mut stdout) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("chess960: {e}");
                ExitCode::from(2)
            }
        };
    }
    let stdin = std::io::stdin();
    let stdout = std::io::stdout();
    match run(args, &mut stdin.lock(), &mut stdout.lock()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("chess960: {e}");
            ExitCode::from(2)
        }
    }
}

/// Sets up (or resumes) the game and plays it.
fn run(args: &PlayArgs, input: &mut dyn BufRead, out: &mut dyn Write) -> Result<(), String> {
    let store = chess960_store::open(args.db.as_deref()).map_err(|e| e.to_string())?;
    let mut session = match &args.resume {
        Some(id) => Session::resume(store, id)?,
        None => Session::start(store, args)?,
    };
    session.play(input, out).map_err(|e| e.to_string())
}

/// `--tc MINUTES+SECONDS`, e.g. `5+3`, as the stored games' time control.
fn parse_tc(text: &str) -> Result<TimeControl, String> {
    let bad = || {
        format!(
            "bad --tc '{}': expected MINUTES+SECONDS, e.g. 5+3 or 0.5+0",
            crate::error::quote(text)
        )
    };
    let (m, s) = text.split_once('+').unwrap_or((text, "0"));
    let minutes: f64 = m.trim().parse().map_err(|_| bad())?;
    let seconds: f64 = s.trim().parse().map_err(|_| bad())?;
    if !(minutes.is_finite() && seconds.is_finite())
        || minutes <= 0.0
        || seconds < 0.0
        || minutes > 24.0 * 60.0
        || seconds > 3600.0
    {
        return Err(bad());
    }
    Ok(TimeControl {
        initial_ms: (minutes * 60_000.0).round() as u64,
        increment_ms: (seconds * 1000.0).round() as u64,
    })
}

/// `--level` and `--movetime`: `1500`, `depth:6` or `full` (with `--movetime MS`, only there).
fn parse_level_and_movetime(level: &str, movetime: Option<&str>) -> Result<Level, String> {
    match (parse_level(level)?, movetime) {
        (Level::Full { .. }, Some(ms)) => {
            let (min, max) = (FULL_MOVETIME_MIN.as_millis(), FULL_MOVETIME_MAX.as_millis());
            match ms.trim().parse::<u64>() {
                Ok(ms) if (min..=max).contains(&u128::from(ms)) => Ok(Level::Full {
                    movetime: Duration::from_millis(ms),
                }),
                _ => Err(format!(
                    "bad --movetime '{}': give milliseconds from {min} to {max}",
                    crate::error::quote(ms)
                )),
            }
        }
        (_, Some(_)) => Err("--movetime is for --level full".to_string()),
        (level, None) => Ok(level),
    }
}

/// `--level`: `1500`, `depth:6` or `full` (at the default time per move).
fn parse_level(text: &str) -> Result<Level, String> {
    let t = text.trim().to_ascii_lowercase();
    if t == "full" {
        return Ok(Level::Full {
            movetime: FULL_MOVETIME_DEFAULT,
        });
    }
    if let Some(d) = t
        .strip_prefix("depth:")
        .or_else(|| t.strip_prefix("depth "))
    {
        return match d.trim().parse::<u32>() {
            Ok(d) if (1..=chess960_engine::player::MAX_DEPTH).contains(&d) => Ok(Level::Depth(d)),
            _ => Err(format!(
                "bad --level '{}': the depth must be 1..{}",
                crate::error::quote(text),
                chess960_engine::player::MAX_DEPTH
            )),
        };
    }
    match t.parse::<u32>() {
        Ok(elo) if (ELO_MIN..=ELO_MAX).contains(&elo) => Ok(Level::Elo(elo)),
        _ => Err(format!(
            "bad --level '{}': give an Elo from {ELO_MIN} to {ELO_MAX} (e.g. 1500), depth:N \
             or full",
            crate::error::quote(text)
        )),
    }
}

/// Whether the game is in the database yet.
enum Saved {
    /// Under this ID.
    As(GameId),
    /// Not yet: the game to create and the moves played so far (the engine's only).
    Not(Box<NewGame>, Vec<MoveRecord>),
}

/// Who plays against the person on the terminal: the engine, or a script in the tests.
trait Opponent {
    /// The move for the side to move of `round`, whose time left is `clock`, with the score
    /// it expects (from White's point of view); `None` when there is no legal move.
    fn choose(&mut self, round: &Round, clock: Option<PlayClock>) -> Option<(Move, Option<Score>)>;

    /// The answer to a draw offered in `round`'s position: `Err` with the reason to decline.
    fn answer_draw(&mut self, round: &Round) -> Result<(), String>;
}

/// The engine at a level.
struct Engine {
    player: Player,
    level: Level,
}

impl Opponent for Engine {
    fn choose(&mut self, round: &Round, clock: Option<PlayClock>) -> Option<(Move, Option<Score>)> {
        let stop = AtomicBool::new(false);
        let game = round.game();
        let side = round.turn();
        self.player
            .choose_move(game.start(), game.moves(), self.level, clock, &stop, |_| {})
            .map(|c| (c.mv, Some(c.score.for_white(side))))
    }

    fn answer_draw(&mut self, round: &Round) -> Result<(), String> {
        let game = round.game();
        let moves = game.position().fullmoves();
        // Declined at once when no evaluation could make the engine accept.
        if let Some(why) = draw_decline(None, moves) {
            return Err(why.to_string());
        }
        let stop = AtomicBool::new(false);
        let limit = AnalysisLimit::Movetime(DRAW_OFFER_THINK);
        let analysis = self
            .player
            .analyse(game.start(), game.moves(), limit, &stop, |_| {});
        match draw_decline(Some(analysis.score), moves) {
            None => Ok(()),
            Some(why) => Err(why.to_string()),
        }
    }
}

/// A game in progress on the terminal. Its rules are the server's: the referee of
/// `chess960-round` judges every move, claim and clock (as on lichess, no clock runs before
/// both sides have moved).
struct Session {
    store: Box<dyn GameStore>,
    /// Where the game is saved: a new game is written with the human's first move (with the
    /// engine's first move before it, when the human plays Black), so that a game nobody
    /// played, such as one started with standard input at its end, leaves nothing behind.
    saved: Saved,
    round: Round,
    human: Color,
    level: Level,
    flipped: bool,
    opponent: Box<dyn Opponent>,
    /// Where the clocks read the time.
    time: TimeSource,
    /// Whether to draw the board before the next prompt.
    redraw: bool,
}

/// The seats of a game between the human and the engine.
fn players(human: Color) -> [RoundPlayer; 2] {
    let mut p = [RoundPlayer::Engine; 2];
    p[human as usize] = RoundPlayer::Human;
    p
}

impl Session {
    /// A new game as the command line says.
    fn start(store: Box<dyn GameStore>, args: &PlayArgs) -> Result<Session, String> {
        let level = parse_level_and_movetime(&args.level, args.movetime.as_deref())?;
        let tc = args.tc.as_deref().map(parse_tc).transpose()?;
        let mut rng = match &args.seed {
            Some(seed) => SplitMix64::from_seed(
                parse_count(seed, "--seed", 0, u64::MAX).map_err(|e| e.to_string())?,
            ),
            None => SplitMix64::from_entropy(),
        };
        let id = match &args.id {
            Some(text) => parse_id(text).map_err(|e| e.to_string())?,
            None => StartId::new(rng.below(960) as u32).expect("below(960) is a valid ID"),
        };
        let human = match args.color {
            ColorChoice::White => Color::White,
            ColorChoice::Black => Color::Black,
            ColorChoice::Random if rng.below(2) == 0 => Color::White,
            ColorChoice::Random => Color::Black,
        };
        let name = args
            .name
            .clone()
            .or_else(|| std::env::var("USER").ok())
            .filter(|n| !n.trim().is_empty())
            .unwrap_or_else(|| "Player".to_string());
        let opponent = Box::new(Engine {
            player: Player::new(32),
            level,
        });
        Ok(Session::new_game(
            store,
            id,
            human,
            name,
            level,
            tc,
            opponent,
            TimeSource::default(),
        ))
    }

    /// A new game from start `id`, the human playing `human` against `opponent`.
    #[allow(clippy::too_many_arguments)]
    fn new_game(
        store: Box<dyn GameStore>,
        id: StartId,
        human: Color,
        name: String,
        level: Level,
        tc: Option<TimeControl>,
        opponent: Box<dyn Opponent>,
        time: TimeSource,
    ) -> Session {
        let game = Game::chess960(id);
        // Recorded as 'chess960 serve' records its games, so that either can continue them.
        let new = engine_game(
            game.start(),
            Some(id),
            human,
            name,
            level,
            tc,
            "chess960 play (terminal)",
        );
        let mut round = Round::new(game, Vec::new(), tc, players(human), Phase::Playing);
        round.begin(false, None, time.now());
        Session {
            store,
            saved: Saved::Not(Box::new(new), Vec::new()),
            round,
            human,
            level,
            flipped: human == Color::Black,
            opponent,
            time,
            redraw: true,
        }
    }

    /// An unfinished game from the database, exactly where it stopped (clocks included).
    fn resume(store: Box<dyn GameStore>, id_text: &str) -> Result<Session, String> {
        let id: i64 = id_text.trim().parse().map_err(|_| {
            format!(
                "bad --resume '{}': expected a game ID",
                crate::error::quote(id_text)
            )
        })?;
        let stored = store
            .game(GameId(id))
            .map_err(|e| e.to_string())?
            .ok_or_else(|| format!("no game {id} in {}", store.describe()))?;
        if let Some(f) = &stored.finish {
            return Err(format!("game {id} is over ({} by {})", f.result, f.reason));
        }
        let level = stored
            .game
            .tags
            .iter()
            .find(|(n, _)| n == LEVEL_TAG)
            .and_then(|(_, v)| parse_level_tag(v))
            .ok_or_else(|| {
                format!(
                    "game {id} is not a game against the engine ({} vs {}: no {LEVEL_TAG} tag)",
                    stored.game.white, stored.game.black
                )
            })?;
        let human = human_of(&stored.game);
        let game = stored.replay().map_err(|e| format!("game {id}: {e}"))?;
        let tc = stored
            .game
            .time_control
            .as_deref()
            .and_then(TimeControl::parse);
        let time = TimeSource::default();
        let mut round = Round::stored(
            game,
            stored.moves,
            None,
            tc,
            stored.game.clocks,
            players(human),
            false,
        );
        // The player is back: the clocks go on from where they stopped.
        round.resume(time.now());
        Ok(Session {
            store,
            saved: Saved::As(GameId(id)),
            round,
            human,
            level,
            flipped: human == Color::Black,
            opponent: Box::new(Engine {
                player: Player::new(32),
                level,
            }),
            time,
            redraw: true,
        })
    }

    /// The game loop: the engine moves when it is its turn, the human is asked otherwise.
    fn play(&mut self, input: &mut dyn BufRead, out: &mut dyn Write) -> std::io::Result<()> {
        let game = self.round.game();
        writeln!(
            out,
            "Chess960 start position {} ({}). You play {}; the engine plays at {}.{}",
            game.start_id()
                .map_or("-".to_string(), |i| i.get().to_string()),
            game.start_id()
                .map_or("?".to_string(), |i| i.back_rank().to_string()),
            self.human,
            level_text(self.level),
            self.round
                .tc()
                .map_or(String::new(), |t| format!(" Time control {}.", t.label())),
        )?;
        match self.saved {
            Saved::As(id) => {
                writeln!(
                    out,
                    "Saved as game {id} in {}. Type 'help' for the commands.",
                    self.store.describe()
                )?;
                if self.round.ply() > 0 {
                    writeln!(out, "Moves so far: {}", self.moves_text())?;
                }
            }
            Saved::Not(..) => writeln!(
                out,
                "Saved in {} from your first move on. Type 'help' for the commands.",
                self.store.describe()
            )?,
        }
        loop {
            // (A game stored with its last move ending it but not its result, when the program
            // stopped between the two writes, ends here too.)
            let over = self.round.finish().cloned();
            if let Some(f) = over.or_else(|| self.round.game().outcome().map(Finish::of)) {
                self.show(out)?;
                return self.end(&f, out);
            }
            if self.round.turn() != self.human {
                self.engine_move(out)?;
                continue;
            }
            if std::mem::take(&mut self.redraw) {
                self.show(out)?;
            }
            write!(out, "{}> ", self.prompt())?;
            out.flush()?;
            let mut line = String::new();
            if input.read_line(&mut line)? == 0 {
                writeln!(out)?;
                return self.leave(out);
            }
            // The time passed while the human thought: a flag may have fallen meanwhile.
            self.judge(Command::Tick, out)?;
            if self.round.finished() {
                continue;
            }
            if let Step::Quit = self.command(line.trim(), out)? {
                return self.leave(out);
            }
        }
    }

    /// Handles one line typed by the human.
    fn command(&mut self, text: &str, out: &mut dyn Write) -> std::io::Result<Step> {
        let me = self.human;
        let command = match text.to_ascii_lowercase().as_str() {
            "" => return Ok(Step::Continue),
            "help" | "?" => {
                out.write_all(HELP.as_bytes())?;
                return Ok(Step::Continue);
            }
            "quit" | "exit" => return Ok(Step::Quit),
            "flip" => {
                self.flipped = !self.flipped;
                self.redraw = true;
                return Ok(Step::Continue);
            }
            "moves" => {
                let pos = self.round.game().position();
                let list: Vec<String> = pos.legal_moves().iter().map(|&m| pos.san(m)).collect();
                writeln!(out, "Legal moves: {}", list.join(" "))?;
                return Ok(Step::Continue);
            }
            "pgn" => {
                match self.pgn() {
                    Ok(text) => out.write_all(text.as_bytes())?,
                    Err(e) => writeln!(out, "Cannot write the PGN: {e}")?,
                }
                return Ok(Step::Continue);
            }
            "undo" | "takeback" => Command::TakeBack(me),
            "resign" => Command::Resign(me),
            "abort" => Command::Abort,
            "draw" if self.round.draw_claim().is_some() => Command::ClaimDraw,
            "draw" => match self.opponent.answer_draw(&self.round) {
                Ok(()) => Command::AgreeDraw,
                Err(why) => {
                    writeln!(out, "The engine declines: {why}.")?;
                    return Ok(Step::Continue);
                }
            },
            _ => Command::Move {
                by: me,
                mv: MoveInput::Typed(text.to_string()),
            },
        };
        let plies = self.round.ply();
        if let Some(events) = self.judge(command, out)? {
            for e in &events {
                if let Event::TookBack { keep } = e {
                    writeln!(out, "Took back {} half-move(s).", plies - keep)?;
                }
            }
            self.redraw = true;
        }
        Ok(Step::Continue)
    }

    /// Asks the referee to judge `command` now; stores what it decided, then applies it. A
    /// refusal is told (`None`), and so is a failure to store (nothing is applied then).
    fn judge(
        &mut self,
        command: Command,
        out: &mut dyn Write,
    ) -> std::io::Result<Option<Vec<Event>>> {
        let now = self.time.now();
        let events = match self.round.decide(&command, now) {
            Ok(events) => events,
            Err(e) => {
                match (&command, e) {
                    (Command::Move { .. }, RoundError::IllegalMove(why)) => writeln!(
                        out,
                        "{why}. Type 'help' for the commands, 'moves' for the legal moves."
                    )?,
                    (Command::TakeBack(_), RoundError::NothingToTakeBack) => {
                        writeln!(out, "Nothing to take back.")?
                    }
                    (_, e) => writeln!(out, "{}.", capitalized(&e.to_string()))?,
                }
                return Ok(None);
            }
        };
        if let Err(e) = self.store_events(&events) {
            let what = match command {
                Command::Move { .. } => "Cannot save the move, so it was not played",
                Command::TakeBack(_) => "Cannot take back",
                _ => "Cannot save the game",
            };
            writeln!(out, "{what}: {e}")?;
            return Ok(None);
        }
        self.round.commit(&events, now);
        Ok(Some(events))
    }

    /// Writes what `events` change: a move (held back until the human's first move), the
    /// end, a takeback.
    fn store_events(&mut self, events: &[Event]) -> Result<(), String> {
        let mut ply = self.round.ply() as u32;
        for e in events {
            match e {
                Event::Moved { record, .. } => {
                    let mover =
                        chess960_round::mover(self.round.game().start().turn(), ply as usize);
                    self.record(record.clone(), ply, mover)?;
                    ply += 1;
                }
                Event::TookBack { keep } => {
                    // The human has moved, so the game is saved.
                    if let Saved::As(id) = self.saved {
                        self.store
                            .truncate_moves(id, *keep as u32)
                            .map_err(|e| e.to_string())?;
                    }
                }
                // The end is saved by `end`, with what it prints.
                _ => {}
            }
        }
        Ok(())
    }

    /// Saves a move of `mover` at half-move `ply`.
    fn record(&mut self, rec: MoveRecord, ply: u32, mover: Color) -> Result<(), String> {
        match &mut self.saved {
            Saved::As(id) => self
                .store
                .append_move(*id, ply, &rec)
                .map_err(|e| e.to_string()),
            Saved::Not(_, moves) if mover != self.human => {
                moves.push(rec);
                Ok(())
            }
            Saved::Not(new, moves) => {
                moves.push(rec);
                let (id, _key) = self
                    .store
                    .create_game_with_moves(new, moves, &chess960_store::Seats::NONE)
                    .map_err(|e| {
                        moves.pop();
                        e.to_string()
                    })?;
                self.saved = Saved::As(id);
                Ok(())
            }
        }
    }

    /// The engine's turn: it thinks, then its move is judged like any other (its flag may
    /// have fallen meanwhile).
    fn engine_move(&mut self, out: &mut dyn Write) -> std::io::Result<()> {
        let side = !self.human;
        writeln!(out, "{ENGINE_NAME} is thinking...")?;
        out.flush()?;
        let clock = self.round.play_clock(side, self.time.now());
        let chosen = self.opponent.choose(&self.round, clock);
        self.judge(Command::Tick, out)?;
        if self.round.finished() {
            return Ok(());
        }
        let Some((mv, score)) = chosen else {
            // No legal move: the game's outcome says why (the loop ends it).
            return Ok(());
        };
        let pos = *self.round.game().position();
        let number = move_number(&pos);
        let san = pos.san(mv);
        let command = Command::Move {
            by: side,
            mv: MoveInput::Chosen(mv),
        };
        if self.judge(command, out)?.is_none() {
            // The store failed: nothing more can be saved, so stop rather than play on.
            return Err(std::io::Error::other(
                "the engine's move could not be saved",
            ));
        }
        self.redraw = true;
        match score {
            Some(s) => writeln!(out, "{ENGINE_NAME} plays {number}{san} ({})", score_text(s)),
            None => writeln!(out, "{ENGINE_NAME} plays {number}{san}"),
        }
    }

    /// Saves the result and says it.
    fn end(&mut self, finish: &Finish, out: &mut dyn Write) -> std::io::Result<()> {
        writeln!(out, "Game over: {}.", finish_text(finish))?;
        if finish.is_aborted() {
            if let Saved::Not(..) = self.saved {
                return writeln!(out, "Nothing was saved: you had not moved.");
            }
        }
        // A game over before the human's first move (resigned at once, or the engine mated
        // from a set-up position) is a result too: it is saved with it.
        let saved = match &self.saved {
            Saved::As(id) => Ok(*id),
            Saved::Not(new, moves) => self
                .store
                .create_game_with_moves(new, moves, &chess960_store::Seats::NONE)
                .map(|(id, _key)| id),
        }
        .and_then(|id| self.store.finish_game(id, finish).map(|()| id));
        match saved {
            Ok(id) => {
                self.saved = Saved::As(id);
                writeln!(out, "Saved as game {id} ('chess960 db show {id}').")
            }
            Err(e) => writeln!(out, "The result could not be saved: {e}"),
        }
    }

    /// `quit`: the game stays in the database, unfinished.
    fn leave(&mut self, out: &mut dyn Write) -> std::io::Result<()> {
        match self.saved {
            Saved::As(id) => writeln!(
                out,
                "Game {id} left unfinished; continue it with 'chess960 play --resume {id}'."
            ),
            Saved::Not(..) => writeln!(out, "Left before your first move: the game was not saved."),
        }
    }

    /// The game so far as PGN, from the database (so it shows what is saved).
    fn pgn(&self) -> Result<String, String> {
        let Saved::As(id) = self.saved else {
            return Err("nothing is saved yet: the game is saved from your first move on".into());
        };
        let stored: StoredGame = self
            .store
            .game(id)
            .map_err(|e| e.to_string())?
            .ok_or_else(|| format!("game {id} is gone from the database"))?;
        let game = chess960_store::pgn::to_pgn(&stored).map_err(|e| e.to_string())?;
        Ok(chess960_pgn::writer::game_to_string(
            &game,
            &chess960_pgn::writer::WriteOptions::default(),
        ))
    }

    /// The moves played, numbered: `1. e4 e5 2. Nf3`.
    fn moves_text(&self) -> String {
        let game = self.round.game();
        let mut text = String::new();
        for (pos, &m) in game.positions().iter().zip(game.moves()) {
            if !text.is_empty() {
                text.push(' ');
            }
            if pos.turn() == Color::White || text.is_empty() {
                text.push_str(&move_number(pos));
            }
            text.push_str(&pos.san(m));
        }
        text
    }

    fn prompt(&self) -> String {
        let pos = self.round.game().position();
        format!(
            "{}{}",
            move_number(pos),
            if pos.is_check() { " (check)" } else { "" }
        )
    }

    /// The board, the last move and the clocks.
    fn show(&self, out: &mut dyn Write) -> std::io::Result<()> {
        let game = self.round.game();
        writeln!(out)?;
        out.write_all(game.position().board().to_unicode(self.flipped).as_bytes())?;
        if let (Some(&m), Some(before)) =
            (game.moves().last(), game.positions().iter().rev().nth(1))
        {
            writeln!(out, "Last move: {}{}", move_number(before), before.san(m))?;
        }
        if let Some(c) = self.round.clocks_at(self.time.now()) {
            writeln!(
                out,
                "Clocks: White {}  Black {}",
                clock_text(Duration::from_millis(c.white_ms)),
                clock_text(Duration::from_millis(c.black_ms))
            )?;
        }
        Ok(())
    }
}

/// The end of a game in words, as the rules' outcome reads: `0-1 (black wins by resignation)`,
/// `1/2-1/2 (draw by agreement)`, `aborted (no result)`.
fn finish_text(f: &Finish) -> String {
    use chess960_core::{GameResult, Termination};
    // The store says "draw agreed"; the outcome's words are "draw by agreement".
    let reason = if f.reason == chess960_store::reason_text(Termination::Agreement) {
        Termination::Agreement.describe()
    } else {
        f.reason.as_str()
    };
    match f.result {
        GameResult::WhiteWins => format!("{} (white wins by {reason})", f.result),
        GameResult::BlackWins => format!("{} (black wins by {reason})", f.result),
        GameResult::Draw => format!("{} (draw by {reason})", f.result),
        GameResult::Unknown if f.is_aborted() => "aborted (no result)".to_string(),
        GameResult::Unknown => format!("{} ({reason})", f.result),
    }
}

/// `text` with its first letter in capitals.
fn capitalized(text: &str) -> String {
    let mut c = text.chars();
    c.next()
        .map_or(String::new(), |f| f.to_uppercase().chain(c).collect())
}

/// What the loop does after a command.
enum Step {
    Continue,
    Quit,
}

const HELP: &str = "\
Type a move in SAN (Nf3, exd5, e8=Q, O-O, O-O-O) or UCI (g1f3, e7e8q; castling as the king
onto its rook, b1a1, or to its destination when it moves two or more files, e1g1), or:
  moves    list the legal moves
  undo     take back your last move and the engine's reply
  draw     claim a draw (threefold repetition, fifty moves) or offer one
  resign   resign the game
  abort    end the game without a result, before both sides have moved
  pgn      print the game so far as PGN
  flip     turn the board around
  quit     stop; the game stays saved, unfinished (chess960 play --resume ID)
";

fn level_text(level: Level) -> String {
    match level {
        Level::Elo(e) => format!("Elo {e}"),
        Level::Depth(d) => format!("depth {d}"),
        Level::Full { movetime } => format!(
            "full strength (at most {} s a move)",
            movetime.as_millis() as f64 / 1000.0
        ),
    }
}

/// `12.` before White's move, `12...` before Black's.
fn move_number(pos: &Position) -> String {
    match pos.turn() {
        Color::White => format!("{}. ", pos.fullmoves()),
        Color::Black => format!("{}... ", pos.fullmoves()),
    }
}

fn clock_text(d: Duration) -> String {
    let s = d.as_secs();
    if s < 20 {
        format!("{}:{:02}.{}", s / 60, s % 60, d.subsec_millis() / 100)
    } else {
        format!("{}:{:02}", s / 60, s % 60)
    }
}

/// A score from White's point of view, as people read it.
fn score_text(score: Score) -> String {
    match score {
        Score::Cp(cp) => format!("{:+.2}", cp as f64 / 100.0),
        Score::Mate(n) if n >= 0 => format!("White mates in {n}"),
        Score::Mate(n) => format!("Black mates in {}", -n),
    }
}

#[cfg(test)]
#[path = "play_one_referee.rs"]
mod one_referee;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_help_names_the_calibrated_elo_range() {
        use clap::CommandFactory;
        let mut cli = crate::Cli::command();
        let play = cli.find_subcommand_mut("play").expect("a play subcommand");
        let level = play
            .get_arguments()
            .find(|a| a.get_id() == "level")
            .expect("--level");
        let help = level.get_help().expect("help for --level").to_string();
        assert!(
            help.contains(&format!("from {ELO_MIN} to {ELO_MAX}")),
            "{help}"
        );
    }

    #[test]
    fn a_resumed_game_whose_last_move_ended_it_gets_its_result() {
        // The fool's mate, stored without its result (the program stopped between the move's
        // write and the result's): resuming it ends it, instead of asking the mated engine.
        let dir = tempfile::tempdir().unwrap();
        let store = chess960_store::open(Some(&dir.path().join("g.sqlite3"))).unwrap();
        let id = StartId::new(518).unwrap();
        let start = id.position();
        let new = engine_game(
            &start,
            Some(id),
            Color::Black,
            "Ann".into(),
            Level::Depth(1),
            None,
            "t",
        );
        let mut pos = start;
        let mut moves = Vec::new();
        for san in ["f3", "e5", "g4", "Qh4#"] {
            let m = pos.parse_typed_move(san).unwrap();
            moves.push(MoveRecord::of(&pos, m, None, 0));
            pos = pos.play(m);
        }
        let (gid, _) = store
            .create_game_with_moves(&new, &moves, &chess960_store::Seats::NONE)
            .unwrap();
        let mut session = Session::resume(store, &gid.0.to_string()).unwrap();
        let mut out = Vec::new();
        session.play(&mut std::io::empty(), &mut out).unwrap();
        let out = String::from_utf8(out).unwrap();
        assert!(
            out.contains("Game over: 0-1 (black wins by checkmate)."),
            "{out}"
        );
        let stored = session.store.game(gid).unwrap().unwrap();
        assert_eq!(stored.finish.unwrap().reason, "checkmate");
    }

    #[test]
    fn levels_and_time_controls() {
        assert_eq!(parse_level("1500"), Ok(Level::Elo(1500)));
        assert_eq!(parse_level("depth:6"), Ok(Level::Depth(6)));
        assert_eq!(parse_level(&ELO_MIN.to_string()), Ok(Level::Elo(ELO_MIN)));
        assert_eq!(parse_level(&ELO_MAX.to_string()), Ok(Level::Elo(ELO_MAX)));
        assert!(parse_level(&(ELO_MIN - 1).to_string()).is_err());
        assert!(parse_level(&(ELO_MAX + 1).to_string()).is_err());
        assert!(parse_level("depth:0").is_err());
        let full = |ms| Level::Full {
            movetime: Duration::from_millis(ms),
        };
        assert_eq!(parse_level("full"), Ok(full(1000)));
        assert_eq!(parse_level_and_movetime("Full", Some("250")), Ok(full(250)));
        assert_eq!(parse_level_and_movetime("full", None), Ok(full(1000)));
        assert_eq!(parse_level_and_movetime("1500", None), Ok(Level::Elo(1500)));
        for bad in ["99", "10001", "fast"] {
            let e = parse_level_and_movetime("full", Some(bad)).unwrap_err();
            assert!(e.contains("from 100 to 10000"), "{e}");
        }
        let e = parse_level_and_movetime("1500", Some("500")).unwrap_err();
        assert!(e.contains("--level full"), "{e}");
        assert_eq!(
            level_text(full(1500)),
            "full strength (at most 1.5 s a move)"
        );
        let tc = parse_tc("5+3").unwrap();
        assert_eq!(tc.to_pgn(), "300+3");
        assert_eq!(TimeControl::parse(&tc.to_pgn()), Some(tc));
        assert_eq!(parse_tc("0.5+0").unwrap().to_pgn(), "30+0");
        assert!(parse_tc("5+x").is_err());
        assert!(parse_tc("-1+0").is_err());
    }
}
