//! The streaming reader: one game at a time from any byte source, every move checked against
//! the rules, every broken game reported with its place and reason, and reading resumed at
//! the next game.
//!
//! # What is accepted
//!
//! - Tag pairs `[Name "value"]` (several per line too), `\"` and `\\` escapes. Values are
//!   UTF-8, or Latin-1 when they are not valid UTF-8 (as older Windows programs write).
//! - Movetext: SAN moves with the tolerances of the core SAN reader (`0-0`, `e8Q`, missing or
//!   superfluous `x`, `+`, `#`), move numbers `12.`, `12...`, `12…` (not checked against the
//!   moves: files get them wrong), `{…}` comments (over several lines too), `;` comments to
//!   the end of the line, `%` escape lines, NAGs `$n` and the suffixes `!`, `?`, `!!`, `??`,
//!   `!?`, `?!` (read as NAGs 1 to 6), recursive variations `( … )` whose moves are checked
//!   too, results `1-0`, `0-1`, `1/2-1/2` (or `½-½`) and `*`.
//! - Byte-order marks, CRLF line ends, tabs.
//! - The start position and variant from the `Variant`, `SetUp` and `FEN` tags: see
//!   [`crate::variant`].
//!
//! # Where games begin and end
//!
//! A game is a tag section followed by movetext ending with a termination marker. A game
//! also ends where a line begins with `[` after its moves began (that is the next game's
//! tag section), and at the end of the file. Such a game without a marker is accepted, as
//! lichess's import and python-chess accept it: its result is its `Result` tag, or `*`
//! (unknown) without one. Pasted moves such as `1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7#`, with
//! neither tags nor marker, are a game.
//!
//! A tag section with no movetext at all, followed by a blank line and the next tag section
//! (or by the end of the file), is a game with no moves whose result is its `Result` tag.
//! Header-only collections such as the chess960-explorer databases are written like this.
//! By the grammar of the PGN standard such a file is one single game with a very long tag
//! section, as python-chess reads it; that reading loses every game but one, so this reader
//! does not follow it. A tag section that is followed directly by movetext, with or without
//! blank lines, is one game as usual.
//!
//! Comments before a tag section (between games) are dropped.
//!
//! # Errors and resynchronisation
//!
//! The first problem of a game is reported as a [`PgnError`] (game number, line, column,
//! move, reason); the rest of the game is then scanned without checking, up to its
//! termination marker or the next game's tag section, and reading goes on from there. A `{`
//! comment that is never closed ends at a blank line followed by a tag pair, or at a line
//! starting with `[Event "`, so it does not swallow the games after it.

use crate::error::{ErrorKind, PgnError};
use crate::game::{Game, GameResult, Line, Node, Tags};
use crate::lexer::{is_symbol_byte, CommentEnd, Lexer, Pos};
use crate::san::find_move;
use crate::variant::{start_position, Variant};
use chess960_core::{Color, Move, Position, StartId};
use std::io::{self, Read};
use std::ops::Range;

/// What [`Reader::read_summary`] gives for a game: everything but the tags and the move
/// tree, which it does not build (checking and counting need neither, and skipping them
/// makes reading several times faster on files full of comments).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Summary {
    /// Chess960 or classical chess.
    pub variant: Variant,
    /// The start position.
    pub start: Position,
    /// The result (termination marker, or `Result` tag for a game with no movetext).
    pub result: GameResult,
    /// The number of half-moves in the main line.
    pub plies: u32,
}

impl Summary {
    /// The Chess960 start position ID of the start position, if it is a start arrangement.
    pub fn start_id(&self) -> Option<StartId> {
        StartId::of_board(self.start.board())
    }
}

/// Receives a game's movetext as it is read and checked.
trait Sink {
    /// Whether comment text is wanted (else it is not even copied).
    const TEXT: bool;
    fn push_move(&mut self, m: Move);
    fn nag(&mut self, nag: u16);
    fn comment(&mut self, text: String);
    fn begin_variation(&mut self);
    fn end_variation(&mut self);
}

/// Builds the move tree of a [`Game`].
struct TreeSink {
    /// The main line, then one entry per open variation.
    stack: Vec<Line>,
}

impl Sink for TreeSink {
    const TEXT: bool = true;

    fn push_move(&mut self, m: Move) {
        if let Some(line) = self.stack.last_mut() {
            line.nodes.push(Node::new(m));
        }
    }

    fn nag(&mut self, nag: u16) {
        if let Some(node) = self.stack.last_mut().and_then(|l| l.nodes.last_mut()) {
            node.nags.push(nag);
        }
    }

    fn comment(&mut self, text: String) {
        if let Some(line) = self.stack.last_mut() {
            match line.nodes.last_mut() {
                Some(node) => node.comments.push(text),
                None => line.comment.push(text),
            }
        }
    }

    fn begin_variation(&mut self) {
        self.stack.push(Line::default());
    }

    fn end_variation(&mut self) {
        if self.stack.len() > 1 {
            if let Some(line) = self.stack.pop() {
                if let Some(node) = self.stack.last_mut().and_then(|l| l.nodes.last_mut()) {
                    node.variations.push(line);
                }
            }
        }
    }
}

/// What [`Reader::read_main_line`] gives for a game: its summary and its main line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MainLine {
    /// Variant, start, result and the number of half-moves.
    pub summary: Summary,
    /// The main line's moves.
    pub moves: Vec<Move>,
}

/// Follows the main line: counts its moves, and keeps them when `moves` is `Some`.
/// Variations are checked but not kept, comments not even copied, so memory follows the main
/// line, however deep the input nests.
struct MainLineSink {
    depth: u32,
    plies: u32,
    moves: Option<Vec<Move>>,
}

impl Sink for MainLineSink {
    const TEXT: bool = false;

    fn push_move(&mut self, m: Move) {
        if self.depth == 0 {
            self.plies = self.plies.saturating_add(1);
            if let Some(moves) = &mut self.moves {
                moves.push(m);
            }
        }
    }
    fn nag(&mut self, _nag: u16) {}
    fn comment(&mut self, _text: String) {}
    fn begin_variation(&mut self) {
        self.depth += 1;
    }
    fn end_variation(&mut self) {
        self.depth = self.depth.saturating_sub(1);
    }
}

/// One tag pair, its text kept in [`RawTags::bytes`].
struct RawTag {
    name: Range<usize>,
    value: Range<usize>,
    at: Pos,
}

/// The tags of the game being read, in one reused buffer (no allocation per tag).
#[derive(Default)]
struct RawTags {
    bytes: Vec<u8>,
    items: Vec<RawTag>,
}

impl RawTags {
    fn clear(&mut self) {
        self.bytes.clear();
        self.items.clear();
    }

    fn push(&mut self, name: &[u8], value: &[u8], at: Pos) {
        let n0 = self.bytes.len();
        self.bytes.extend_from_slice(name);
        let v0 = self.bytes.len();
        self.bytes.extend_from_slice(value);
        self.items.push(RawTag {
            name: n0..v0,
            value: v0..self.bytes.len(),
            at,
        });
    }

    /// The last value of `name` (a repeated tag's last value wins) and where it is.
    fn get(&self, name: &str) -> Option<(String, Pos)> {
        self.items
            .iter()
            .rev()
            .find(|t| &self.bytes[t.name.clone()] == name.as_bytes())
            .map(|t| (decode(&self.bytes[t.value.clone()]), t.at))
    }

    fn to_tags(&self) -> Tags {
        let mut tags = Tags::new();
        for t in &self.items {
            tags.set(
                decode(&self.bytes[t.name.clone()]),
                decode(&self.bytes[t.value.clone()]),
            );
        }
        tags
    }
}

/// Text from the file: UTF-8 when it is, else Latin-1 (every byte one character), so that
/// nothing is lost and nothing is rejected.
fn decode(bytes: &[u8]) -> String {
    match std::str::from_utf8(bytes) {
        Ok(s) => s.to_string(),
        Err(_) => bytes.iter().map(|&b| char::from(b)).collect(),
    }
}

/// How far the reader looks ahead for the real end of a tag value with unescaped quotes.
const TAG_LOOKAHEAD: usize = 4096;

/// True if `rest` (what follows a `"` in a tag pair) is spaces and a `]`: that `"` closes
/// the value.
fn closes_tag(rest: &[u8]) -> bool {
    rest.iter()
        .find(|b| !matches!(b, b' ' | b'\t' | b'\r'))
        .is_none_or(|&b| b == b']')
}

/// For messages: the text of a token, control characters escaped.
fn show(bytes: &[u8]) -> String {
    decode(bytes).chars().flat_map(char::escape_debug).collect()
}

/// A line being read: the main line or a variation.
struct Level {
    /// The position after the line's last move.
    cur: Position,
    /// The position before the line's last move (where a variation of it starts).
    prev: Position,
    has_move: bool,
    /// Where the `(` of a variation is.
    open: Pos,
}

/// How the movetext of a game ended.
enum End {
    /// At a termination marker.
    Result(GameResult, Pos),
    /// At the next game's tag section, or at the end of the input.
    Cut,
}

/// Reads games one at a time from a byte source, in constant memory (see the module
/// documentation for what it accepts).
///
/// ```
/// use chess960_pgn::Reader;
///
/// let pgn = "[Variant \"Chess960\"]\n[FEN \"bqrnkrnb/pppppppp/8/8/8/8/PPPPPPPP/BQRNKRNB w KQkq - 0 1\"]\n\n1. d4 d5 2. Nf3 Nf6 3. O-O *\n";
/// let mut reader = Reader::new(pgn.as_bytes());
/// let game = reader.read_game().unwrap().unwrap().unwrap();
/// assert_eq!(game.moves.nodes.len(), 5);
/// assert!(reader.read_game().unwrap().is_none());
/// ```
pub struct Reader<R> {
    lx: Lexer<R>,
    games: u64,
    tok: Vec<u8>,
    text: Vec<u8>,
    tags: RawTags,
    levels: Vec<Level>,
}

/// Reads a movetext alone (no tag section) from `start`: the moves with their comments,
/// NAGs and variations, checked as [`Reader::read_game`] checks them, up to a termination
/// marker or the end of the text. The game database keeps a
/// game's annotated movetext this way beside its move rows.
///
/// ```
/// use chess960_core::StartId;
/// use chess960_pgn::reader::read_movetext;
///
/// let line = read_movetext("1. e4 { best } (1. d4) e5", StartId::CLASSICAL.position()).unwrap();
/// assert_eq!(line.nodes.len(), 2);
/// assert_eq!(line.nodes[0].comments, ["best"]);
/// assert!(read_movetext("1. e4 e4", StartId::CLASSICAL.position()).is_err());
/// ```
#[allow(clippy::result_large_err)]
pub fn read_movetext(text: &str, start: Position) -> Result<Line, PgnError> {
    let mut reader = Reader::new(text.as_bytes());
    reader.games = 1;
    let mut sink = TreeSink {
        stack: vec![Line::default()],
    };
    let mut err = None;
    // A byte slice cannot fail to read: the `Err` arm is never taken.
    let _ = reader.movetext(&mut sink, start, &mut err);
    match err {
        Some(e) => Err(e),
        None => Ok(sink.stack.into_iter().next().unwrap_or_default()),
    }
}

impl<R: Read> Reader<R> {
    /// A reader of `src`. It reads in large chunks itself, so `src` need not be buffered.
    pub fn new(src: R) -> Reader<R> {
        Reader {
            lx: Lexer::new(src),
            games: 0,
            tok: Vec::with_capacity(256),
            text: Vec::with_capacity(1024),
            tags: RawTags::default(),
            levels: Vec::new(),
        }
    }

    /// The number of games found so far, good and bad.
    pub fn games(&self) -> u64 {
        self.games
    }

    /// The number of bytes consumed so far (for progress reports).
    pub fn bytes_read(&self) -> u64 {
        self.lx.offset()
    }

    /// The next game with its tags and move tree: `Ok(None)` at the end of the input,
    /// `Ok(Some(Err(_)))` for a game that could not be read (reading can go on with the
    /// next), `Err(_)` if the source itself fails.
    // A `PgnError` is large, but so is a `Game` or a `Summary` beside it, and there is one
    // result per game, not per move: boxing the error would buy nothing.
    #[allow(clippy::result_large_err)]
    pub fn read_game(&mut self) -> io::Result<Option<Result<Game, PgnError>>> {
        let mut sink = TreeSink {
            stack: vec![Line::default()],
        };
        Ok(self.read_with(&mut sink)?.map(|r| {
            r.map(|s| Game {
                tags: self.tags.to_tags(),
                variant: s.variant,
                start: s.start,
                moves: sink.stack.into_iter().next().unwrap_or_default(),
                result: s.result,
            })
        }))
    }

    /// The next game, checked like [`Reader::read_game`] but without building its tags and
    /// move tree.
    #[allow(clippy::result_large_err)]
    pub fn read_summary(&mut self) -> io::Result<Option<Result<Summary, PgnError>>> {
        let mut sink = MainLineSink {
            depth: 0,
            plies: 0,
            moves: None,
        };
        Ok(self.read_with(&mut sink)?.map(|r| {
            r.map(|mut s| {
                s.plies = sink.plies;
                s
            })
        }))
    }

    /// The next game's summary and the moves of its main line, checked like
    /// [`Reader::read_game`] (variations included) but keeping neither tags, comments nor
    /// variations: for a caller that only plays the game on, as `chess960 serve` does with a
    /// PGN that a new game continues.
    #[allow(clippy::result_large_err)]
    pub fn read_main_line(&mut self) -> io::Result<Option<Result<MainLine, PgnError>>> {
        let mut sink = MainLineSink {
            depth: 0,
            plies: 0,
            moves: Some(Vec::new()),
        };
        Ok(self.read_with(&mut sink)?.map(|r| {
            r.map(|mut s| {
                s.plies = sink.plies;
                MainLine {
                    summary: s,
                    moves: sink.moves.unwrap_or_default(),
                }
            })
        }))
    }

    fn read_with<S: Sink>(
        &mut self,
        sink: &mut S,
    ) -> io::Result<Option<Result<Summary, PgnError>>> {
        self.tags.clear();
        // Comments before a tag section belong to no game; before movetext, to its game.
        let mut early_comments: Vec<String> = Vec::new();
        loop {
            self.lx.skip_space()?;
            match self.lx.peek()? {
                None => return Ok(None),
                Some(b'{' | b';') => {
                    let at = self.lx.here();
                    if let Err(next_game) = self
                        .read_comment(S::TEXT)?
                        .map(|text| early_comments.extend(text))
                    {
                        self.games += 1;
                        let kind = ErrorKind::UnterminatedComment { next_game };
                        return Ok(Some(Err(self.error(at, None, kind))));
                    }
                }
                Some(_) => break,
            }
        }
        self.games += 1;
        let mut err: Option<PgnError> = None;

        // The tag section.
        let mut blank_before;
        loop {
            if self.lx.peek()? != Some(b'[') {
                blank_before = false;
                break;
            }
            self.read_tag(&mut err)?;
            let space = self.lx.skip_space()?;
            blank_before = space.blank_line;
            if blank_before && self.lx.peek()? == Some(b'[') {
                break;
            }
        }
        let header_only = !self.tags.items.is_empty()
            && match self.lx.peek()? {
                None => true,
                Some(b'[') => blank_before,
                _ => false,
            };

        let tag = |name: &str| self.tags.get(name);
        let variant_tag = tag("Variant");
        let setup_tag = tag("SetUp");
        let fen_tag = tag("FEN");
        let result_tag = tag("Result").and_then(|(v, _)| GameResult::parse(&v));
        let section_start = self.tags.items.first().map(|t| t.at);
        let (start, variant) = match start_position(
            variant_tag.as_ref().map(|(v, _)| v.as_str()),
            setup_tag.as_ref().map(|(v, _)| v.as_str()),
            fen_tag.as_ref().map(|(v, _)| v.as_str()),
        ) {
            Ok(sv) => sv,
            Err((which, kind)) => {
                let at = match which {
                    "Variant" => variant_tag.map(|t| t.1),
                    "SetUp" => setup_tag.map(|t| t.1),
                    _ => fen_tag.map(|t| t.1),
                }
                .or(section_start)
                .unwrap_or_default();
                if err.is_none() {
                    err = Some(self.error(at, None, kind));
                }
                (StartId::CLASSICAL.position(), Variant::Standard)
            }
        };

        if header_only {
            return Ok(Some(match err {
                Some(e) => Err(e),
                None => Ok(Summary {
                    variant,
                    start,
                    result: result_tag.unwrap_or_default(),
                    plies: 0,
                }),
            }));
        }

        for c in early_comments {
            sink.comment(c);
        }
        let end = self.movetext(sink, start, &mut err)?;
        if let Some(e) = err {
            return Ok(Some(Err(e)));
        }
        let result = match end {
            End::Result(r, _) => r,
            End::Cut => result_tag.unwrap_or_default(),
        };
        Ok(Some(Ok(Summary {
            variant,
            start,
            result,
            plies: 0,
        })))
    }

    /// A [`PgnError`] of the current game.
    fn error(&self, at: Pos, at_move: Option<String>, kind: ErrorKind) -> PgnError {
        PgnError {
            game: self.games,
            line: at.line,
            column: at.column,
            at_move,
            kind,
        }
    }

    /// Reads one tag pair at `[`; a malformed one is recorded in `err` (if it is the first
    /// problem) and the rest of its line skipped.
    fn read_tag(&mut self, err: &mut Option<PgnError>) -> io::Result<()> {
        let at = self.lx.here();
        self.lx.bump(1);
        let problem = self.tag_body()?;
        if let Some(reason) = problem {
            if err.is_none() {
                *err = Some(self.error(at, None, ErrorKind::MalformedTag { reason }));
            }
            let mut sink = Vec::new();
            self.lx.skip_to_line_end(false, &mut sink)?;
            return Ok(());
        }
        self.tags.push(&self.tok, &self.text, at);
        Ok(())
    }

    /// The part of a tag pair after `[`: name into `tok`, value into `text`; the reason if
    /// it is malformed.
    fn tag_body(&mut self) -> io::Result<Option<String>> {
        self.skip_inline_space()?;
        match self.lx.peek()? {
            Some(b) if b.is_ascii_alphanumeric() || b == b'_' => {}
            _ => return Ok(Some("expected a tag name after '['".to_string())),
        }
        self.lx.symbol(&mut self.tok)?;
        if !self
            .tok
            .iter()
            .all(|b| b.is_ascii_alphanumeric() || *b == b'_')
        {
            return Ok(Some(format!(
                "'{}' is not a tag name (letters, digits and '_')",
                show(&self.tok)
            )));
        }
        self.skip_inline_space()?;
        if self.lx.peek()? != Some(b'"') {
            return Ok(Some(format!(
                "expected '\"' to open the value of tag {}",
                show(&self.tok)
            )));
        }
        self.lx.bump(1);
        self.text.clear();
        loop {
            if !self.lx.string(&mut self.text)? {
                return Ok(Some(format!(
                    "the value of tag {} has no closing '\"' on its line",
                    show(&self.tok)
                )));
            }
            // Some writers (python-chess among them) do not escape quotes inside values:
            // a `"` not followed by `]` is part of the value when a `"` that is followed by
            // `]` comes later on the line.
            let ahead = self.lx.peek_slice(TAG_LOOKAHEAD)?;
            let ahead = &ahead[..memchr::memchr(b'\n', ahead).unwrap_or(ahead.len())];
            let later_close =
                (0..ahead.len()).any(|j| ahead[j] == b'"' && closes_tag(&ahead[j + 1..]));
            if closes_tag(ahead) || !later_close {
                break;
            }
            self.text.push(b'"');
        }
        self.skip_inline_space()?;
        if self.lx.peek()? != Some(b']') {
            return Ok(Some(format!(
                "expected ']' after the value of tag {}",
                show(&self.tok)
            )));
        }
        self.lx.bump(1);
        Ok(None)
    }

    /// Skips spaces and tabs (not line breaks).
    fn skip_inline_space(&mut self) -> io::Result<()> {
        while let Some(b' ' | b'\t' | b'\r') = self.lx.peek()? {
            self.lx.bump(1);
        }
        Ok(())
    }

    /// Reads a `{` or `;` comment at the window: its trimmed text if `keep` and not empty;
    /// `Err(next_game)` for an unterminated `{` comment.
    fn read_comment(&mut self, keep: bool) -> io::Result<Result<Option<String>, bool>> {
        self.text.clear();
        let first = self.lx.peek()?;
        self.lx.bump(1);
        if first == Some(b';') {
            self.lx.skip_to_line_end(keep, &mut self.text)?;
        } else {
            match self.lx.brace_comment(keep, &mut self.text)? {
                CommentEnd::Closed => {}
                CommentEnd::Eof => return Ok(Err(false)),
                CommentEnd::NextGame => return Ok(Err(true)),
            }
        }
        if !keep {
            return Ok(Ok(None));
        }
        let text = decode(&self.text);
        let trimmed = text.trim();
        Ok(Ok(if trimmed.is_empty() {
            None
        } else if trimmed.len() == text.len() {
            Some(text)
        } else {
            Some(trimmed.to_string())
        }))
    }

    /// Reads the movetext from the window up to its end, checking the moves from `start`
    /// unless `err` is (or becomes) set; after an error the rest is only scanned.
    fn movetext<S: Sink>(
        &mut self,
        sink: &mut S,
        start: Position,
        err: &mut Option<PgnError>,
    ) -> io::Result<End> {
        self.levels.clear();
        self.levels.push(Level {
            cur: start,
            prev: start,
            has_move: false,
            open: Pos::default(),
        });
        let mut last_end = self.lx.here();
        let end = loop {
            self.lx.skip_space()?;
            let Some(b) = self.lx.peek()? else {
                break End::Cut;
            };
            let at = self.lx.here();
            let ok = err.is_none();
            // Everything below either consumes at least one byte or ends the movetext.
            let problem: Option<(Option<String>, ErrorKind)> = match b {
                b'[' if self.lx.at_line_start() => break End::Cut,
                b'[' => {
                    self.lx.junk(&mut self.tok)?;
                    Some((self.label(None), ErrorKind::TagInMovetext))
                }
                b'{' | b';' => match self.read_comment(S::TEXT && ok)? {
                    Ok(Some(text)) if ok => {
                        sink.comment(text);
                        None
                    }
                    Ok(_) => None,
                    Err(next_game) => {
                        if ok {
                            *err = Some(self.error(
                                at,
                                self.label(None),
                                ErrorKind::UnterminatedComment { next_game },
                            ));
                        }
                        break End::Cut;
                    }
                },
                // After an error the rest of the game is only scanned: its variations need
                // no positions (so nesting costs no memory).
                b'(' | b')' if !ok => {
                    self.lx.bump(1);
                    None
                }
                b'(' => {
                    self.lx.bump(1);
                    let parent = self.levels.last().filter(|l| l.has_move).map(|l| l.prev);
                    match parent {
                        Some(p) => {
                            self.levels.push(Level {
                                cur: p,
                                prev: p,
                                has_move: false,
                                open: at,
                            });
                            sink.begin_variation();
                            None
                        }
                        None => Some((self.label(None), ErrorKind::VariationBeforeMove)),
                    }
                }
                b')' => {
                    self.lx.bump(1);
                    if self.levels.len() > 1 {
                        self.levels.pop();
                        sink.end_variation();
                        None
                    } else {
                        Some((self.label(None), ErrorKind::UnmatchedCloseParen))
                    }
                }
                b'$' => {
                    self.lx.bump(1);
                    let long = self.lx.symbol(&mut self.tok)?;
                    let nag = if long || self.tok.is_empty() {
                        None
                    } else {
                        std::str::from_utf8(&self.tok)
                            .ok()
                            .filter(|s| s.bytes().all(|b| b.is_ascii_digit()))
                            .and_then(|s| s.parse::<u16>().ok())
                    };
                    match nag {
                        Some(n) => self.annotate(sink, n, ok),
                        None => Some((
                            self.label(None),
                            ErrorKind::UnknownToken {
                                token: format!("${}", show(&self.tok)),
                            },
                        )),
                    }
                }
                b'!' | b'?' => {
                    self.tok.clear();
                    while let Some(c @ (b'!' | b'?')) = self.lx.peek()? {
                        if self.tok.len() < 8 {
                            self.tok.push(c);
                        }
                        self.lx.bump(1);
                    }
                    let nag = match self.tok.as_slice() {
                        b"!" => Some(1),
                        b"?" => Some(2),
                        b"!!" => Some(3),
                        b"??" => Some(4),
                        b"!?" => Some(5),
                        b"?!" => Some(6),
                        _ => None,
                    };
                    match nag {
                        Some(n) => self.annotate(sink, n, ok),
                        None => Some((
                            self.label(None),
                            ErrorKind::UnknownToken {
                                token: show(&self.tok),
                            },
                        )),
                    }
                }
                b'*' => {
                    self.lx.bump(1);
                    break End::Result(GameResult::Unknown, at);
                }
                b'.' => {
                    self.skip_dots()?;
                    None
                }
                0xE2 if self.lx.peek_slice(3)? == "…".as_bytes() => {
                    self.skip_dots()?;
                    None
                }
                0xC2 if self.lx.peek_slice(5)? == "½-½".as_bytes() => {
                    self.lx.bump(5);
                    self.lx.bump_skew(2);
                    break End::Result(GameResult::Draw, at);
                }
                b if is_symbol_byte(b) => {
                    let long = self.lx.symbol(&mut self.tok)?;
                    if long {
                        Some((
                            self.label(None),
                            ErrorKind::UnknownToken {
                                token: format!("{}…", show(&self.tok[..40])),
                            },
                        ))
                    } else if let Some(r) = match self.tok.as_slice() {
                        b"1-0" => Some(GameResult::WhiteWins),
                        b"0-1" => Some(GameResult::BlackWins),
                        b"1/2-1/2" => Some(GameResult::Draw),
                        _ => None,
                    } {
                        break End::Result(r, at);
                    } else if self.tok.iter().all(u8::is_ascii_digit) {
                        // A move number; its dots (if any) follow.
                        self.skip_dots()?;
                        None
                    } else if matches!(self.tok.as_slice(), b"--" | b"Z0" | b"z0") {
                        Some((
                            self.label(None),
                            ErrorKind::NullMove {
                                token: show(&self.tok),
                            },
                        ))
                    } else if self.tok == b"e" && self.lx.peek_slice(3)? == b".p." {
                        // The "e.p." some writers put after an en-passant capture.
                        self.lx.bump(3);
                        None
                    } else if ok {
                        self.play_san(sink)
                    } else {
                        None
                    }
                }
                _ => {
                    self.lx.junk(&mut self.tok)?;
                    Some((
                        self.label(None),
                        ErrorKind::UnknownToken {
                            token: show(&self.tok),
                        },
                    ))
                }
            };
            last_end = self.lx.here();
            if let Some((at_move, kind)) = problem {
                if err.is_none() {
                    *err = Some(self.error(at, at_move, kind));
                }
            }
        };
        if err.is_none() {
            let unclosed = self.levels.last().filter(|_| self.levels.len() > 1);
            let problem = match (&end, unclosed) {
                (_, Some(level)) => Some((
                    match end {
                        End::Result(_, at) => at,
                        End::Cut => last_end,
                    },
                    ErrorKind::UnclosedVariation {
                        line: level.open.line,
                        column: level.open.column,
                    },
                )),
                _ => None,
            };
            if let Some((at, kind)) = problem {
                *err = Some(self.error(at, self.label(None), kind));
            }
        }
        Ok(end)
    }

    /// Skips `.` and `…` (after a move number, or stray).
    fn skip_dots(&mut self) -> io::Result<()> {
        loop {
            match self.lx.peek()? {
                Some(b'.') => self.lx.bump(1),
                Some(0xE2) if self.lx.peek_slice(3)? == "…".as_bytes() => {
                    self.lx.bump(3);
                    self.lx.bump_skew(2);
                }
                _ => return Ok(()),
            }
        }
    }

    /// Attaches a NAG to the last move of the current line.
    fn annotate<S: Sink>(
        &mut self,
        sink: &mut S,
        nag: u16,
        ok: bool,
    ) -> Option<(Option<String>, ErrorKind)> {
        if !self.levels.last().is_some_and(|l| l.has_move) {
            let token = if self.tok.first().is_some_and(u8::is_ascii_digit) {
                format!("${}", show(&self.tok))
            } else {
                show(&self.tok)
            };
            return Some((self.label(None), ErrorKind::AnnotationBeforeMove { token }));
        }
        if ok {
            sink.nag(nag);
        }
        None
    }

    /// Plays the SAN move in `tok` on the current line.
    fn play_san<S: Sink>(&mut self, sink: &mut S) -> Option<(Option<String>, ErrorKind)> {
        let level = self.levels.last_mut()?;
        match find_move(&level.cur, &self.tok) {
            Ok(m) => {
                level.prev = level.cur;
                level.cur.play_mut(m);
                level.has_move = true;
                sink.push_move(m);
                None
            }
            Err(e) => Some((self.label(Some(&self.tok)), ErrorKind::IllegalMove(e))),
        }
    }

    /// `17. Nf3`, `17... Nxe4` or `17...`: the current line's move number and side, with the
    /// move text if given.
    fn label(&self, token: Option<&[u8]>) -> Option<String> {
        let pos = self.levels.last()?.cur;
        let dots = if pos.turn() == Color::White {
            "."
        } else {
            "..."
        };
        Some(match token {
            Some(t) => format!("{}{dots} {}", pos.fullmoves(), show(t)),
            None => format!("{}{dots}", pos.fullmoves()),
        })
    }
}
