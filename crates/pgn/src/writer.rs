//! The writer: strict, normalised PGN (export format of the PGN standard, section 8) that
//! python-chess, lichess, pgn-extract and Scid read back exactly.
//!
//! - Tags: the seven-tag roster in its order (`Event`, `Site`, `Date`, `Round`, `White`,
//!   `Black`, `Result`, with `?` / `????.??.??` when missing; `Result` is always the game's
//!   result); then, for a Chess960 game, `Variant "Chess960"`, `SetUp "1"` and `FEN` (X-FEN
//!   castling by default, Shredder-FEN on request); for a classical game from a set-up
//!   position `SetUp "1"` and `FEN`; a classical game from the classical start gets neither.
//!   Then every other tag in its order. `"` and `\` in values are escaped; line breaks and
//!   tabs become spaces.
//! - Movetext: move numbers (`12.` before White's moves, `12...` before a Black move that
//!   follows a comment or variation, or starts a line), SAN from the rules core, NAGs as
//!   `$n`, comments as `{ … }`, variations as `( … )`, the result last. Lines are at most 80
//!   columns, broken only between tokens and between the words of a comment (a single word
//!   longer than a line stands alone); a comment that fits on one line is not broken, and a
//!   command such as `[%clk 0:10:07]` inside a comment is one word. No line starts with `%`
//!   or `[`, which readers would take for an escape line or a tag.
//! - One blank line after each game.

use crate::game::{Game, Line, Step};
use crate::variant::Variant;
use chess960_core::{CastlingDialect, Color, Position, StartId};
use std::fmt::Write as _;
use std::io::{self, Write};

/// How to write.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WriteOptions {
    /// The castling notation of the `FEN` tag (X-FEN by default).
    pub dialect: CastlingDialect,
    /// The longest movetext line (80 by default, as the PGN standard asks).
    pub width: usize,
}

impl Default for WriteOptions {
    fn default() -> WriteOptions {
        WriteOptions {
            dialect: CastlingDialect::XFen,
            width: 80,
        }
    }
}

/// The seven-tag roster, in order, with the value written when a tag is missing.
const ROSTER: [(&str, &str); 7] = [
    ("Event", "?"),
    ("Site", "?"),
    ("Date", "????.??.??"),
    ("Round", "?"),
    ("White", "?"),
    ("Black", "?"),
    ("Result", "*"),
];

/// Writes games to a byte sink.
pub struct Writer<W> {
    out: W,
    options: WriteOptions,
    text: String,
}

impl<W: Write> Writer<W> {
    /// A writer with the given options.
    pub fn new(out: W, options: WriteOptions) -> Writer<W> {
        Writer {
            out,
            options,
            text: String::new(),
        }
    }

    /// Writes one game followed by a blank line.
    pub fn write_game(&mut self, game: &Game) -> io::Result<()> {
        self.text.clear();
        format_game(game, &self.options, &mut self.text);
        self.out.write_all(self.text.as_bytes())
    }

    /// Flushes and returns the sink.
    pub fn into_inner(mut self) -> io::Result<W> {
        self.out.flush()?;
        Ok(self.out)
    }
}

/// The PGN text of one game, followed by a blank line.
pub fn game_to_string(game: &Game, options: &WriteOptions) -> String {
    let mut s = String::new();
    format_game(game, options, &mut s);
    s
}

/// The movetext of `line` played from `start` alone, as [`game_to_string`] writes it but
/// with no result and no line break at the end (the game database keeps a game's annotated
/// movetext like this; [`crate::reader::read_movetext`] reads it back).
pub fn movetext_to_string(line: &Line, start: &Position, options: &WriteOptions) -> String {
    let mut s = String::new();
    let mut wrap = Wrap {
        out: &mut s,
        column: 0,
        width: options.width.max(1),
    };
    write_line(&mut wrap, line, start);
    s
}

/// A tag value with `\` and `"` escaped and control characters (line breaks, tabs) turned
/// into spaces, which a tag pair cannot hold.
fn escape(value: &str) -> String {
    let mut s = String::with_capacity(value.len());
    for c in value.chars() {
        match c {
            '\\' => s.push_str("\\\\"),
            '"' => s.push_str("\\\""),
            c if c.is_control() => s.push(' '),
            c => s.push(c),
        }
    }
    s
}

fn tag(out: &mut String, name: &str, value: &str) {
    let _ = writeln!(out, "[{name} \"{}\"]", escape(value));
}

fn format_game(game: &Game, options: &WriteOptions, out: &mut String) {
    for (name, default) in ROSTER {
        let value = if name == "Result" {
            game.result.as_str()
        } else {
            game.tags.get(name).unwrap_or(default)
        };
        tag(out, name, value);
    }
    let from_classical_start = game.start == StartId::CLASSICAL.position();
    match game.variant {
        Variant::Chess960 => {
            tag(out, "Variant", "Chess960");
            tag(out, "SetUp", "1");
            tag(out, "FEN", &game.start.to_fen(options.dialect));
        }
        Variant::Standard if !from_classical_start => {
            tag(out, "SetUp", "1");
            tag(out, "FEN", &game.start.to_fen(options.dialect));
        }
        Variant::Standard => {}
    }
    for (name, value) in game.tags.iter() {
        let replaced =
            ROSTER.iter().any(|(n, _)| *n == name) || matches!(name, "Variant" | "SetUp" | "FEN");
        if !replaced {
            tag(out, name, value);
        }
    }
    out.push('\n');
    let mut wrap = Wrap {
        out,
        column: 0,
        width: options.width.max(1),
    };
    write_line(&mut wrap, &game.moves, &game.start);
    wrap.token(game.result.as_str());
    wrap.out.push_str("\n\n");
}

/// Joins tokens with spaces into lines of at most `width` columns.
struct Wrap<'a> {
    out: &'a mut String,
    column: usize,
    width: usize,
}

impl Wrap<'_> {
    fn token(&mut self, t: &str) {
        let len = if t.is_ascii() {
            t.len()
        } else {
            t.chars().count()
        };
        if self.column > 0 {
            if self.column + 1 + len > self.width {
                self.out.push('\n');
                self.column = 0;
            } else {
                self.out.push(' ');
                self.column += 1;
            }
        }
        if self.column == 0 && (t.starts_with('%') || t.starts_with('[')) {
            // A `%` in the first column would make the line an escape line; a `[` there
            // could pass for a tag pair. One space in front keeps them what they are.
            self.out.push(' ');
            self.column += 1;
        }
        self.out.push_str(t);
        self.column += len;
    }

    fn comment(&mut self, text: &str) {
        // Words are separated by PGN's (ASCII) white space, re-wrapped to the line width. A
        // comment ends at the first `}`: that character cannot be written inside one.
        let words = comment_words(text);
        if words.is_empty() {
            return;
        }
        // A comment that fits on a line is not split over two: `{ [%clk 0:10:07] }` stays
        // whole, which readers that scan line by line need.
        let whole = words.iter().map(|w| w.chars().count() + 1).sum::<usize>() + 3;
        if self.column > 0 && self.column + 1 + whole > self.width && whole <= self.width {
            self.out.push('\n');
            self.column = 0;
        }
        self.token("{");
        for word in words {
            self.token(word);
        }
        self.token("}");
    }
}

/// The words of a comment, split at PGN's (ASCII) white space and `}`, with each embedded
/// command such as `[%clk 0:10:07]` or `[%eval 0.35]` kept as one word: a command split over
/// two lines is misread by simple tools. Its inner spaces are written as found.
fn comment_words(text: &str) -> Vec<&str> {
    let separator = |b: u8| matches!(b, b' ' | b'\t' | b'\n' | b'\r' | 0x0B | 0x0C | b'}');
    let bytes = text.as_bytes();
    let mut words = Vec::new();
    let mut i = 0;
    loop {
        while i < bytes.len() && separator(bytes[i]) {
            i += 1;
        }
        if i == bytes.len() {
            return words;
        }
        let start = i;
        if bytes[i..].starts_with(b"[%") {
            // Up to the command's `]`, if it closes on the same line and before any `}`.
            let close = bytes[i..]
                .iter()
                .position(|&b| matches!(b, b']' | b'}' | b'\n' | b'\r'))
                .filter(|&at| bytes[i + at] == b']');
            if let Some(at) = close {
                i += at + 1;
                words.push(&text[start..i]);
                continue;
            }
        }
        while i < bytes.len() && !separator(bytes[i]) {
            i += 1;
        }
        // Both ends are at ASCII bytes (or the ends of the text): character boundaries.
        words.push(&text[start..i]);
    }
}

/// `12.` or `12...` into `out`.
fn move_number(pos: &Position, out: &mut String) {
    out.clear();
    let _ = write!(out, "{}", pos.fullmoves());
    out.push_str(match pos.turn() {
        Color::White => ".",
        Color::Black => "...",
    });
}

/// A line being written: the position after its last move, the position before it (where
/// a variation of that move starts), and whether the next move needs its number.
struct Open {
    pos: Position,
    before: Position,
    need_number: bool,
}

/// Writes a line from `start`: its comment, then each move with its number where one is
/// needed, NAGs, comments and variations. A loop over [`Line::walk`] with one [`Open`] per
/// open variation, not a recursion: variations nest as deep as the input does.
fn write_line(w: &mut Wrap<'_>, line: &Line, start: &Position) {
    let mut open: Vec<Open> = Vec::new();
    let mut scratch = String::with_capacity(16);
    for step in line.walk() {
        match step {
            Step::Enter(l) => {
                let pos = match open.last_mut() {
                    Some(parent) => {
                        w.token("(");
                        parent.need_number = true;
                        parent.before
                    }
                    None => *start,
                };
                open.push(Open {
                    pos,
                    before: pos,
                    need_number: true,
                });
                for c in &l.comment {
                    w.comment(c);
                }
            }
            Step::Move(node) => {
                let Some(cur) = open.last_mut() else { continue };
                if cur.pos.turn() == Color::White || cur.need_number {
                    move_number(&cur.pos, &mut scratch);
                    w.token(&scratch);
                }
                w.token(&cur.pos.san(node.mv));
                cur.need_number = false;
                for nag in &node.nags {
                    scratch.clear();
                    let _ = write!(scratch, "${nag}");
                    w.token(&scratch);
                }
                for c in &node.comments {
                    w.comment(c);
                    cur.need_number = true;
                }
                // The variations of this move (if any) come next and start from `before`.
                cur.before = cur.pos;
                cur.pos.play_mut(node.mv);
            }
            Step::Leave => {
                open.pop();
                if !open.is_empty() {
                    w.token(")");
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Node, Tags};

    #[test]
    fn layout() {
        let start = StartId::new(0).unwrap().position();
        let mut game = Game::new(start, Variant::Chess960);
        game.tags = Tags::new();
        game.tags.set("White", "A \"quoted\" \\ name");
        game.tags.set("Annotator", "me");
        game.tags.set("Variant", "fischerandom");
        let mut pos = start;
        let mut line = Line::default();
        for san in ["e4", "e5", "Nd3", "Nd6"] {
            let m = pos.parse_san(san).unwrap();
            line.nodes.push(Node::new(m));
            pos = pos.play(m);
        }
        line.nodes[0].nags.push(1);
        line.nodes[0].comments.push("best }by test".to_string());
        let d4 = start.parse_san("d4").unwrap();
        line.nodes[0].variations.push(Line {
            comment: vec![],
            nodes: vec![Node::new(d4)],
        });
        game.moves = line;
        game.result = crate::GameResult::Draw;
        let text = game_to_string(&game, &WriteOptions::default());
        assert_eq!(
            text,
            "[Event \"?\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n\
             [White \"A \\\"quoted\\\" \\\\ name\"]\n[Black \"?\"]\n[Result \"1/2-1/2\"]\n\
             [Variant \"Chess960\"]\n[SetUp \"1\"]\n\
             [FEN \"bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1\"]\n\
             [Annotator \"me\"]\n\n\
             1. e4 $1 { best by test } ( 1. d4 ) 1... e5 2. Nd3 Nd6 1/2-1/2\n\n"
        );
    }

    #[test]
    fn wrapping_never_exceeds_width_and_guards_first_columns() {
        let mut s = String::new();
        let mut w = Wrap {
            out: &mut s,
            column: 0,
            width: 20,
        };
        for t in [
            "1.",
            "e4",
            "{",
            "aaaaaaaaaa",
            "%bbbbbbbbbbbb",
            "[cccccccccccccc",
            "}",
        ] {
            w.token(t);
        }
        for line in s.lines() {
            assert!(line.chars().count() <= 20, "{line:?}");
            assert!(!line.starts_with('%') && !line.starts_with('['), "{line:?}");
        }
    }

    #[test]
    fn clock_commands_and_short_comments_stay_on_one_line() {
        // Moves with a clock comment each, as a saved game has them: no `{ [%clk` may end a
        // line with its time on the next, whatever the column the comment starts at.
        let start = StartId::CLASSICAL.position();
        let mut game = Game::new(start, crate::Variant::Standard);
        let mut pos = start;
        for (i, san) in ["Nf3", "Nf6", "Ng1", "Ng8"]
            .iter()
            .cycle()
            .take(40)
            .enumerate()
        {
            let m = pos.parse_san(san).unwrap();
            pos.play_mut(m);
            let node = game.push(m).unwrap();
            node.comments.push(format!("[%clk 0:10:{:02}]", i % 60));
        }
        let text = game_to_string(&game, &WriteOptions::default());
        let movetext = text.split("\n\n").nth(1).unwrap();
        for line in movetext.lines() {
            assert!(line.chars().count() <= 80, "{line:?}");
            assert_eq!(
                line.matches('{').count(),
                line.matches('}').count(),
                "{line:?}"
            );
            assert_eq!(
                line.matches("[%clk").count(),
                line.matches(']').count(),
                "{line:?}"
            );
        }

        // A command is one word even in a long comment that has to wrap.
        let mut s = String::new();
        let mut w = Wrap {
            out: &mut s,
            column: 0,
            width: 24,
        };
        w.comment("a long remark that wraps [%clk 0:10:07.058] [%eval -1.25] and more words");
        assert!(s.contains("[%clk 0:10:07.058]"), "{s}");
        assert!(s.contains("[%eval -1.25]"), "{s}");
        // An unclosed bracket is plain words.
        let mut s = String::new();
        let mut w = Wrap {
            out: &mut s,
            column: 0,
            width: 80,
        };
        w.comment("[%clk 0:10 oops");
        assert_eq!(s, "{ [%clk 0:10 oops }");
    }
}
