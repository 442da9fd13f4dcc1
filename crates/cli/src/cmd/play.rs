//! `chess960 play`: a game against the engine on the terminal, saved move by move in the game
//! database like every other game.

use crate::input::{parse_count, parse_id, ID_HELP};
use chess960_core::{Color, Game, Move, Outcome, Position, StartId, Termination};
use chess960_draw::rng::SplitMix64;
use chess960_engine::levels::{ELO_MAX, ELO_MIN};
use chess960_engine::player::{
    draw_decline, AnalysisLimit, Level, PlayClock, Player, Score, DRAW_OFFER_THINK,
};
use chess960_server::record::{
    engine_game, human_of, now_ms, parse_level_tag, TimeControl, LEVEL_TAG,
};
use chess960_store::{Clocks, Finish, GameId, GameStore, MoveRecord, NewGame, StoredGame};
use clap::{Args, ValueEnum};
use std::io::{BufRead, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

/// `chess960 play`.
#[derive(Debug, Args)]
#[command(
    about = "Play Chess960 against the engine on the terminal (saved in the game database)",
    long_about = "Play a game of Chess960 against the chess960 engine on the terminal. The board \
is drawn with Unicode pieces; type your moves in SAN (Nf3, exd5, e8=Q), in UCI (g1f3, e7e8q) or \
as O-O / O-O-O (0-0 too). Castling can also be typed as the king taking its own rook (b1a1) or, \
when the king moves at least two files, as the king's move to its destination (e1g1); a \
one-square king move is always a king move. Type 'help' during the game for the commands: undo, \
resign, draw, pgn, flip, moves, quit.\n\n\
Every move is saved in the game database as it is played (see 'chess960 db'), from your first \
move on: a game left before it (or started with standard input at its end) leaves nothing \
behind. A game left with 'quit' (or interrupted) can be continued with --resume ID, which \
shows the moves so far.",
    after_help = "Examples:\n  chess960 play                         # random start, White, level 1500\n  \
chess960 play --id 518 --color black --level 1800 --tc 5+3\n  \
chess960 play --random --level depth:6\n  chess960 play --resume 12"
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
    /// UCI_Elo, calibrated by matches (docs/strength.md), or a fixed search depth as depth:N
    /// (e.g. depth:6).
    #[arg(
        long,
        value_name = "L",
        default_value = "1500",
        conflicts_with = "resume"
    )]
    pub level: String,
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

/// `--level`: `1500` or `depth:6`.
fn parse_level(text: &str) -> Result<Level, String> {
    let t = text.trim().to_ascii_lowercase();
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
            "bad --level '{}': give an Elo from {ELO_MIN} to {ELO_MAX} (e.g. 1500) or depth:N",
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

/// A game in progress on the terminal.
struct Session {
    store: Box<dyn GameStore>,
    /// Where the game is saved: a new game is written with the human's first move (with the
    /// engine's first move before it, when the human plays Black), so that a game nobody
    /// played, such as one started with standard input at its end, leaves nothing behind.
    saved: Saved,
    game: Game,
    human: Color,
    level: Level,
    tc: Option<TimeControl>,
    /// Time left, White's and Black's.
    clocks: [Duration; 2],
    /// The clocks after each move, to restore them on undo.
    clock_history: Vec<[Duration; 2]>,
    flipped: bool,
    player: Player,
    /// When the human's clock started running on this turn (it keeps running through typos
    /// and commands, as at the board).
    turn_started: Option<Instant>,
    /// Whether to draw the board before the next prompt.
    redraw: bool,
}

impl Session {
    /// A new game as the command line says.
    fn start(store: Box<dyn GameStore>, args: &PlayArgs) -> Result<Session, String> {
        let level = parse_level(&args.level)?;
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
        let game = Game::chess960(id);
        let initial = tc.map_or(Duration::ZERO, |t| Duration::from_millis(t.initial_ms));
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
        Ok(Session {
            store,
            saved: Saved::Not(Box::new(new), Vec::new()),
            game,
            human,
            level,
            tc,
            clocks: [initial; 2],
            clock_history: Vec::new(),
            flipped: human == Color::Black,
            player: Player::new(32),
            turn_started: None,
            redraw: true,
        })
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
        let initial = tc.map_or(Duration::ZERO, |t| Duration::from_millis(t.initial_ms));
        let clock_history: Vec<[Duration; 2]> = stored
            .moves
            .iter()
            .map(|rec| stored_clocks(rec, initial))
            .collect();
        let clocks = clock_history.last().copied().unwrap_or([initial; 2]);
        Ok(Session {
            store,
            saved: Saved::As(GameId(id)),
            game,
            human,
            level,
            tc,
            clocks,
            clock_history,
            flipped: human == Color::Black,
            player: Player::new(32),
            turn_started: None,
            redraw: true,
        })
    }

    /// The game loop: the engine moves when it is its turn, the human is asked otherwise.
    fn play(&mut self, input: &mut dyn BufRead, out: &mut dyn Write) -> std::io::Result<()> {
        writeln!(
            out,
            "Chess960 start position {} ({}). You play {}; the engine plays at {}.{}",
            self.game
                .start_id()
                .map_or("-".to_string(), |i| i.get().to_string()),
            self.game
                .start_id()
                .map_or("?".to_string(), |i| i.back_rank().to_string()),
            self.human,
            level_text(self.level),
            self.tc
                .map_or(String::new(), |t| format!(" Time control {}.", t.label())),
        )?;
        match self.saved {
            Saved::As(id) => {
                writeln!(
                    out,
                    "Saved as game {id} in {}. Type 'help' for the commands.",
                    self.store.describe()
                )?;
                if !self.game.moves().is_empty() {
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
            if let Some(outcome) = self.game.outcome() {
                self.show(out)?;
                return self.end(outcome, out);
            }
            if self.game.position().turn() != self.human {
                if let Some(outcome) = self.engine_move(out)? {
                    self.show(out)?;
                    return self.end(outcome, out);
                }
                continue;
            }
            if std::mem::take(&mut self.redraw) {
                self.show(out)?;
            }
            write!(out, "{}> ", self.prompt())?;
            out.flush()?;
            let started = *self.turn_started.get_or_insert_with(Instant::now);
            let mut line = String::new();
            if input.read_line(&mut line)? == 0 {
                writeln!(out)?;
                return self.leave(out);
            }
            match self.command(line.trim(), started.elapsed(), out)? {
                Step::Continue => {}
                Step::Quit => return self.leave(out),
                Step::Over(outcome) => return self.end(outcome, out),
            }
        }
    }

    /// Handles one line typed by the human.
    fn command(
        &mut self,
        text: &str,
        used: Duration,
        out: &mut dyn Write,
    ) -> std::io::Result<Step> {
        match text.to_ascii_lowercase().as_str() {
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
                let pos = self.game.position();
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
            "undo" | "takeback" => {
                self.undo(out)?;
                return Ok(Step::Continue);
            }
            "resign" => {
                let outcome = Outcome::Win {
                    winner: !self.human,
                    reason: Termination::Resignation,
                };
                return Ok(Step::Over(outcome));
            }
            "draw" => return self.draw(out),
            _ => {}
        }
        // A move: the clock ran while the human thought.
        let side = self.human as usize;
        if self.tc.is_some() && used >= self.clocks[side] {
            self.clocks[side] = Duration::ZERO;
            return Ok(Step::Over(self.flag(self.human)));
        }
        let pos = *self.game.position();
        let m = match pos.parse_typed_move(text) {
            Ok(m) => m,
            Err(e) => {
                writeln!(
                    out,
                    "{e}. Type 'help' for the commands, 'moves' for the legal moves."
                )?;
                return Ok(Step::Continue);
            }
        };
        let before = self.clocks;
        if let Some(tc) = self.tc {
            self.clocks[side] = self.clocks[side] - used + Duration::from_millis(tc.increment_ms);
        }
        match self.record(m) {
            Ok(()) => {
                self.turn_started = None;
                self.redraw = true;
            }
            Err(e) => {
                self.clocks = before;
                writeln!(out, "Cannot save the move, so it was not played: {e}")?;
            }
        }
        Ok(Step::Continue)
    }

    /// Plays a move and saves it; the move is played only once the store has it.
    fn record(&mut self, m: Move) -> Result<(), String> {
        let pos = *self.game.position();
        let clocks = self.tc.map(|_| Clocks {
            white_ms: self.clocks[Color::White as usize].as_millis() as u64,
            black_ms: self.clocks[Color::Black as usize].as_millis() as u64,
        });
        let rec = MoveRecord::of(&pos, m, clocks, now_ms());
        let ply = self.game.moves().len() as u32;
        match &mut self.saved {
            Saved::As(id) => self
                .store
                .append_move(*id, ply, &rec)
                .map_err(|e| e.to_string())?,
            Saved::Not(_, moves) if pos.turn() != self.human => moves.push(rec),
            Saved::Not(new, moves) => {
                moves.push(rec);
                let (id, _key) = self
                    .store
                    .create_game_with_moves(new, moves, &chess960_store::Seats::NONE)
                    .map_err(|e| e.to_string())?;
                self.saved = Saved::As(id);
            }
        }
        self.game.play(m).map_err(|e| e.to_string())?;
        self.clock_history.push(self.clocks);
        Ok(())
    }

    /// The engine's turn. Returns the outcome if the engine lost on time.
    fn engine_move(&mut self, out: &mut dyn Write) -> std::io::Result<Option<Outcome>> {
        let side = !self.human;
        writeln!(out, "{ENGINE_NAME} is thinking...")?;
        out.flush()?;
        let stop = AtomicBool::new(false);
        let clock = self.tc.map(|tc| PlayClock {
            remaining: self.clocks[side as usize],
            increment: Duration::from_millis(tc.increment_ms),
        });
        let started = Instant::now();
        let chosen = self.player.choose_move(
            self.game.start(),
            self.game.moves(),
            self.level,
            clock,
            &stop,
            |_| {},
        );
        let used = started.elapsed();
        if let Some(tc) = self.tc {
            if used >= self.clocks[side as usize] {
                self.clocks[side as usize] = Duration::ZERO;
                return Ok(Some(self.flag(side)));
            }
            self.clocks[side as usize] =
                self.clocks[side as usize] - used + Duration::from_millis(tc.increment_ms);
        }
        let Some(chosen) = chosen else {
            // No legal move: the game's outcome says why.
            return Ok(None);
        };
        let pos = *self.game.position();
        let number = move_number(&pos);
        let san = pos.san(chosen.mv);
        if let Err(e) = self.record(chosen.mv) {
            // The store failed: nothing more can be saved, so stop rather than play on.
            return Err(std::io::Error::other(e));
        }
        self.redraw = true;
        writeln!(
            out,
            "{ENGINE_NAME} plays {number}{san} ({})",
            score_text(chosen.score.for_white(side))
        )?;
        Ok(None)
    }

    /// Who wins when `side`'s flag falls: the other side, unless it cannot mate (a draw).
    fn flag(&self, side: Color) -> Outcome {
        Outcome::on_time(side, self.game.position())
    }

    /// `undo`: the human's last move and the engine's reply.
    fn undo(&mut self, out: &mut dyn Write) -> std::io::Result<()> {
        let plies = self.game.moves().len();
        let last_human = (0..plies)
            .rev()
            .find(|&i| self.game.positions()[i].turn() == self.human);
        let Some(keep) = last_human else {
            writeln!(out, "Nothing to take back.")?;
            return Ok(());
        };
        // The human has moved, so the game is saved.
        if let Saved::As(id) = self.saved {
            if let Err(e) = self.store.truncate_moves(id, keep as u32) {
                writeln!(out, "Cannot take back: {e}")?;
                return Ok(());
            }
        }
        while self.game.moves().len() > keep {
            self.game.undo();
            self.clock_history.pop();
        }
        let initial = self
            .tc
            .map_or(Duration::ZERO, |t| Duration::from_millis(t.initial_ms));
        self.clocks = self.clock_history.last().copied().unwrap_or([initial; 2]);
        // The clocks are back where they were when that move was made; the turn starts afresh.
        self.turn_started = None;
        self.redraw = true;
        writeln!(out, "Took back {} half-move(s).", plies - keep)?;
        Ok(())
    }

    /// `draw`: claim when a claim is valid, else offer; the engine answers as
    /// [`accepts_draw`] says.
    fn draw(&mut self, out: &mut dyn Write) -> std::io::Result<Step> {
        if let Ok(outcome) = self.game.clone().claim_draw() {
            return Ok(Step::Over(outcome));
        }
        let pos = *self.game.position();
        // Declined at once when no evaluation could make the engine accept.
        if let Some(why) = draw_decline(None, pos.fullmoves()) {
            writeln!(out, "The engine declines: {why}.")?;
            return Ok(Step::Continue);
        }
        let stop = AtomicBool::new(false);
        let analysis = self.player.analyse(
            self.game.start(),
            self.game.moves(),
            AnalysisLimit::Movetime(DRAW_OFFER_THINK),
            &stop,
            |_| {},
        );
        match draw_decline(Some(analysis.score), pos.fullmoves()) {
            None => {
                return Ok(Step::Over(Outcome::Draw {
                    reason: Termination::Agreement,
                }))
            }
            Some(why) => writeln!(out, "The engine declines: {why}.")?,
        }
        Ok(Step::Continue)
    }

    /// Saves the result and says it.
    fn end(&mut self, outcome: Outcome, out: &mut dyn Write) -> std::io::Result<()> {
        if self.game.outcome().is_none() {
            // Resignation, agreement, time: the game does not know yet.
            let _ = self.game.finish(outcome);
        }
        let finish = Finish::of(outcome);
        writeln!(out, "Game over: {outcome}.")?;
        // A game over before the human's first move (resigned at once, or the engine mated
        // from a set-up position) is a result too: it is saved with it.
        let saved = match &self.saved {
            Saved::As(id) => Ok(*id),
            Saved::Not(new, moves) => self
                .store
                .create_game_with_moves(new, moves, &chess960_store::Seats::NONE)
                .map(|(id, _key)| id),
        }
        .and_then(|id| self.store.finish_game(id, &finish).map(|()| id));
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
        let mut text = String::new();
        for (pos, &m) in self.game.positions().iter().zip(self.game.moves()) {
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
        let pos = self.game.position();
        format!(
            "{}{}",
            move_number(pos),
            if pos.is_check() { " (check)" } else { "" }
        )
    }

    /// The board, the last move and the clocks.
    fn show(&self, out: &mut dyn Write) -> std::io::Result<()> {
        writeln!(out)?;
        out.write_all(
            self.game
                .position()
                .board()
                .to_unicode(self.flipped)
                .as_bytes(),
        )?;
        if let (Some(&m), Some(before)) = (
            self.game.moves().last(),
            self.game.positions().iter().rev().nth(1),
        ) {
            writeln!(out, "Last move: {}{}", move_number(before), before.san(m))?;
        }
        if self.tc.is_some() {
            writeln!(
                out,
                "Clocks: White {}  Black {}",
                clock_text(self.clocks[Color::White as usize]),
                clock_text(self.clocks[Color::Black as usize])
            )?;
        }
        Ok(())
    }
}

/// What the loop does after a command.
enum Step {
    Continue,
    Quit,
    Over(Outcome),
}

const HELP: &str = "\
Type a move in SAN (Nf3, exd5, e8=Q, O-O, O-O-O) or UCI (g1f3, e7e8q; castling as the king
onto its rook, b1a1, or to its destination when it moves two or more files, e1g1), or:
  moves    list the legal moves
  undo     take back your last move and the engine's reply
  draw     claim a draw (threefold repetition, fifty moves) or offer one
  resign   resign the game
  pgn      print the game so far as PGN
  flip     turn the board around
  quit     stop; the game stays saved, unfinished (chess960 play --resume ID)
";

fn level_text(level: Level) -> String {
    match level {
        Level::Elo(e) => format!("Elo {e}"),
        Level::Depth(d) => format!("depth {d}"),
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

/// The clocks stored with a move, or the initial clocks if none were stored.
fn stored_clocks(rec: &MoveRecord, initial: Duration) -> [Duration; 2] {
    rec.clocks.map_or([initial; 2], |c| {
        [
            Duration::from_millis(c.white_ms),
            Duration::from_millis(c.black_ms),
        ]
    })
}

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
    fn levels_and_time_controls() {
        assert_eq!(parse_level("1500"), Ok(Level::Elo(1500)));
        assert_eq!(parse_level("depth:6"), Ok(Level::Depth(6)));
        assert_eq!(parse_level(&ELO_MIN.to_string()), Ok(Level::Elo(ELO_MIN)));
        assert_eq!(parse_level(&ELO_MAX.to_string()), Ok(Level::Elo(ELO_MAX)));
        assert!(parse_level(&(ELO_MIN - 1).to_string()).is_err());
        assert!(parse_level(&(ELO_MAX + 1).to_string()).is_err());
        assert!(parse_level("depth:0").is_err());
        let tc = parse_tc("5+3").unwrap();
        assert_eq!(tc.to_pgn(), "300+3");
        assert_eq!(TimeControl::parse(&tc.to_pgn()), Some(tc));
        assert_eq!(parse_tc("0.5+0").unwrap().to_pgn(), "30+0");
        assert!(parse_tc("5+x").is_err());
        assert!(parse_tc("-1+0").is_err());
    }
}
