//! The byte-level scanner under the reader: a window over the input, refilled in large
//! chunks, with line and column tracking. It knows the shapes of PGN's lexical pieces
//! (white space, `%` escape lines, symbols, strings, comments); the grammar is the reader's.
//!
//! Memory stays constant whatever the input: the window holds one chunk plus the token being
//! read, and every unbounded piece (comments, strings, junk) is consumed chunk by chunk.

use memchr::{memchr, memchr2};
use std::io::{self, Read};

/// How much is read from the source at a time, at most: the window starts at [`FIRST`]
/// bytes and doubles with every refill up to this (small inputs, as in tests and fuzzing,
/// never pay for a large window).
const CHUNK: usize = 64 * 1024;

/// The window's first size.
const FIRST: usize = 4096;

/// The longest symbol (move, move number, result, tag name) kept whole; longer runs of
/// symbol characters are junk and are reported shortened.
pub(crate) const MAX_SYMBOL: usize = 255;

/// How far ahead the unterminated-comment check looks for the next game's tags.
const LOOKAHEAD: usize = 512;

/// Where something is: line and column, both from 1.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) struct Pos {
    pub line: u64,
    pub column: u64,
}

/// How a `{` comment ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum CommentEnd {
    /// At its `}`.
    Closed,
    /// At the end of the input, with no `}`.
    Eof,
    /// Before a blank line followed by a tag pair: the next game started inside the comment,
    /// which therefore has no `}`. The window is left at that blank line.
    NextGame,
}

/// What `skip_space` passed over.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Space {
    /// A line with nothing but white space (or an escape line) was passed.
    pub blank_line: bool,
}

/// True for bytes that may continue a symbol: SAN, move numbers, results, tag names.
#[inline]
pub(crate) fn is_symbol_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'_' | b'+' | b'#' | b'=' | b':' | b'-' | b'/')
}

pub(crate) struct Lexer<R> {
    src: R,
    buf: Vec<u8>,
    pos: usize,
    end: usize,
    eof: bool,
    /// Absolute offset of `buf[0]` in the input.
    base: u64,
    line: u64,
    /// Absolute offset of the current line's first byte.
    line_start: u64,
    /// Bytes on the current line before `pos` that do not start a character (UTF-8
    /// continuation bytes, a byte-order mark), so that columns count characters.
    line_skew: u64,
    /// True until something other than white space is read on the current line.
    line_empty: bool,
}

impl<R: Read> Lexer<R> {
    pub fn new(src: R) -> Lexer<R> {
        Lexer {
            src,
            buf: Vec::new(),
            pos: 0,
            end: 0,
            eof: false,
            base: 0,
            line: 1,
            line_start: 0,
            line_skew: 0,
            line_empty: true,
        }
    }

    /// Bytes consumed so far.
    pub fn offset(&self) -> u64 {
        self.base + self.pos as u64
    }

    /// Where the next byte is.
    #[inline]
    pub fn here(&self) -> Pos {
        Pos {
            line: self.line,
            column: (self.offset() - self.line_start).saturating_sub(self.line_skew) + 1,
        }
    }

    /// True if nothing but white space precedes the next byte on its line.
    #[inline]
    pub fn at_line_start(&self) -> bool {
        self.line_empty
    }

    /// Makes at least `n` bytes available at `pos` unless the input ends first.
    fn ensure(&mut self, n: usize) -> io::Result<()> {
        if self.end - self.pos >= n || self.eof {
            return Ok(());
        }
        if self.pos > 0 {
            self.buf.copy_within(self.pos..self.end, 0);
            self.base += self.pos as u64;
            self.end -= self.pos;
            self.pos = 0;
        }
        let size = (self.buf.len() * 2).clamp(FIRST, CHUNK).max(n);
        if self.buf.len() < size {
            self.buf.resize(size, 0);
        }
        while self.end < n && !self.eof {
            match self.src.read(&mut self.buf[self.end..]) {
                Ok(0) => self.eof = true,
                Ok(k) => self.end += k,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
        Ok(())
    }

    /// The next byte, without consuming it.
    #[inline]
    pub fn peek(&mut self) -> io::Result<Option<u8>> {
        if self.pos == self.end {
            self.ensure(1)?;
            if self.pos == self.end {
                return Ok(None);
            }
        }
        Ok(Some(self.buf[self.pos]))
    }

    /// The next `n` bytes or fewer at the end of the input.
    pub fn peek_slice(&mut self, n: usize) -> io::Result<&[u8]> {
        self.ensure(n)?;
        let stop = self.end.min(self.pos + n);
        Ok(&self.buf[self.pos..stop])
    }

    /// Consumes `n` bytes known to be available, on one line, each starting a character.
    #[inline]
    pub fn bump(&mut self, n: usize) {
        debug_assert!(self.pos + n <= self.end);
        self.pos += n;
        self.line_empty = false;
    }

    /// Records `n` bytes just consumed with [`Lexer::bump`] that do not start a character
    /// (the tail of a multi-byte character such as `…`).
    pub fn bump_skew(&mut self, n: u64) {
        self.line_skew += n;
    }

    /// Consumes bytes that are known to be available and hold no line break, counting the
    /// ones that do not start a character.
    fn consume_text(&mut self, n: usize) {
        let text = &self.buf[self.pos..self.pos + n];
        // Most text is ASCII, which `is_ascii` confirms a word at a time.
        if !text.is_ascii() {
            let skew = text.iter().filter(|&&b| (0x80..0xC0).contains(&b)).count();
            self.line_skew += skew as u64;
        }
        self.pos += n;
    }

    /// Consumes a line break at `pos`.
    #[inline]
    fn newline(&mut self) {
        self.pos += 1;
        self.line += 1;
        self.line_start = self.offset();
        self.line_skew = 0;
        self.line_empty = true;
    }

    /// Skips white space, byte-order marks and `%` escape lines (a `%` in the first column
    /// makes the whole line invisible, PGN standard 6).
    pub fn skip_space(&mut self) -> io::Result<Space> {
        let mut space = Space::default();
        loop {
            if self.pos == self.end {
                self.ensure(1)?;
                if self.pos == self.end {
                    return Ok(space);
                }
            }
            match self.buf[self.pos] {
                b'\n' => {
                    space.blank_line |= self.line_empty;
                    self.newline();
                }
                b' ' | b'\t' | b'\r' | 0x0B | 0x0C => self.pos += 1,
                b'%' if self.offset() == self.line_start => {
                    self.skip_to_line_end(false, &mut Vec::new())?;
                }
                0xEF => {
                    self.ensure(3)?;
                    if self.buf[self.pos..self.end].starts_with(&[0xEF, 0xBB, 0xBF]) {
                        // A byte-order mark (at the start, or where files were concatenated)
                        // takes no column.
                        self.pos += 3;
                        self.line_skew += 3;
                    } else {
                        return Ok(space);
                    }
                }
                _ => return Ok(space),
            }
        }
    }

    /// Consumes the rest of the line (not the line break), appending it to `out` if `keep`.
    pub fn skip_to_line_end(&mut self, keep: bool, out: &mut Vec<u8>) -> io::Result<()> {
        loop {
            self.ensure(1)?;
            if self.pos == self.end {
                return Ok(());
            }
            let hay = &self.buf[self.pos..self.end];
            let (n, done) = match memchr(b'\n', hay) {
                Some(i) => (i, true),
                None => (hay.len(), false),
            };
            if keep {
                out.extend_from_slice(&hay[..n]);
            }
            self.consume_text(n);
            self.line_empty = false;
            if done {
                return Ok(());
            }
        }
    }

    /// Reads a run of symbol bytes into `out` (at most [`MAX_SYMBOL`] of them; the rest of a
    /// longer run is consumed and dropped, and the result is true).
    pub fn symbol(&mut self, out: &mut Vec<u8>) -> io::Result<bool> {
        out.clear();
        self.ensure(MAX_SYMBOL + 1)?;
        let avail = &self.buf[self.pos..self.end];
        let n = avail
            .iter()
            .position(|&b| !is_symbol_byte(b))
            .unwrap_or(avail.len());
        self.line_empty = false;
        if n <= MAX_SYMBOL {
            out.extend_from_slice(&avail[..n]);
            self.pos += n;
            return Ok(false);
        }
        out.extend_from_slice(&avail[..MAX_SYMBOL]);
        self.pos += n;
        while self.peek()?.is_some_and(is_symbol_byte) {
            self.pos += 1;
        }
        Ok(true)
    }

    /// Reads the rest of a tag value after its opening `"` (or after a `"` that turned out
    /// to be part of the value), resolving `\"` and `\\`, appending to `out`. False if the
    /// line (or the input) ends before the next `"`; the line break is not consumed then.
    pub fn string(&mut self, out: &mut Vec<u8>) -> io::Result<bool> {
        loop {
            self.ensure(2)?;
            if self.pos == self.end {
                return Ok(false);
            }
            let hay = &self.buf[self.pos..self.end];
            let stop = hay
                .iter()
                .position(|&b| matches!(b, b'"' | b'\\' | b'\n' | b'\r'))
                .unwrap_or(hay.len());
            out.extend_from_slice(&hay[..stop]);
            self.consume_text(stop);
            if stop > 0 {
                // Look at the stop byte with the one after it in view (for escapes).
                continue;
            }
            match self.buf[self.pos] {
                b'"' => {
                    self.pos += 1;
                    return Ok(true);
                }
                b'\\' => {
                    // `\"` and `\\` are the only escapes; any other backslash is kept as is.
                    match self
                        .buf
                        .get(self.pos + 1)
                        .filter(|_| self.pos + 1 < self.end)
                    {
                        Some(&c @ (b'"' | b'\\')) => {
                            out.push(c);
                            self.pos += 2;
                        }
                        _ => {
                            out.push(b'\\');
                            self.pos += 1;
                        }
                    }
                }
                b'\r' if !(self.pos + 1 < self.end && self.buf[self.pos + 1] == b'\n') => {
                    // A lone carriage return is just a character here.
                    out.push(b'\r');
                    self.pos += 1;
                }
                _ => return Ok(false),
            }
        }
    }

    /// Reads the rest of a `{` comment (after the `{`), appending its text to `out` if
    /// `keep`.
    pub fn brace_comment(&mut self, keep: bool, out: &mut Vec<u8>) -> io::Result<CommentEnd> {
        loop {
            self.ensure(1)?;
            if self.pos == self.end {
                return Ok(CommentEnd::Eof);
            }
            let hay = &self.buf[self.pos..self.end];
            match memchr2(b'}', b'\n', hay) {
                None => {
                    let n = hay.len();
                    if keep {
                        out.extend_from_slice(hay);
                    }
                    self.consume_text(n);
                }
                Some(i) => {
                    let closing = hay[i] == b'}';
                    if keep {
                        out.extend_from_slice(&hay[..i]);
                    }
                    self.consume_text(i);
                    if closing {
                        self.pos += 1;
                        self.line_empty = false;
                        return Ok(CommentEnd::Closed);
                    }
                    self.newline();
                    if self.next_game_follows()? {
                        return Ok(CommentEnd::NextGame);
                    }
                    if keep {
                        out.push(b'\n');
                    }
                }
            }
        }
    }

    /// At the start of a line inside a comment: is this line blank, and the next line that is
    /// not blank a tag pair (`[Name "`)? Then a game's tag section has begun and the comment
    /// was never closed. Nothing is consumed.
    fn next_game_follows(&mut self) -> io::Result<bool> {
        let window = self.peek_slice(LOOKAHEAD)?;
        let mut i = 0;
        let skip = |i: &mut usize, set: &[u8]| {
            while window.get(*i).is_some_and(|b| set.contains(b)) {
                *i += 1;
            }
        };
        // `[Event "` at the start of a line is a new game even without a blank line before
        // it; other tags only after a blank line (comments can hold bracketed text).
        if window.starts_with(b"[Event \"") {
            return Ok(true);
        }
        skip(&mut i, b" \t\r");
        if window.get(i) != Some(&b'\n') {
            return Ok(false);
        }
        skip(&mut i, b" \t\r\n");
        if window.get(i) != Some(&b'[') {
            return Ok(false);
        }
        i += 1;
        let name_start = i;
        while window
            .get(i)
            .is_some_and(|b| b.is_ascii_alphanumeric() || *b == b'_')
        {
            i += 1;
        }
        if i == name_start {
            return Ok(false);
        }
        skip(&mut i, b" \t");
        Ok(window.get(i) == Some(&b'"'))
    }

    /// Consumes a run of bytes up to the next white space or PGN delimiter, keeping at most
    /// 40 characters of it in `out` (for a message). At least one byte is consumed.
    pub fn junk(&mut self, out: &mut Vec<u8>) -> io::Result<()> {
        out.clear();
        let mut first = true;
        while let Some(b) = self.peek()? {
            let delimiter = matches!(
                b,
                b' ' | b'\t' | b'\r' | b'\n' | b'{' | b'}' | b'(' | b')' | b'[' | b']' | b';'
            );
            if delimiter && !first {
                break;
            }
            if out.len() < 40 {
                out.push(b);
            }
            if b == b'\n' {
                self.newline();
            } else {
                self.consume_text(1);
            }
            self.line_empty = false;
            first = false;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A reader that hands out one byte per call, so that every token straddles refills.
    struct Trickle<'a>(&'a [u8]);

    impl Read for Trickle<'_> {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            match self.0.split_first() {
                Some((&b, rest)) if !buf.is_empty() => {
                    buf[0] = b;
                    self.0 = rest;
                    Ok(1)
                }
                _ => Ok(0),
            }
        }
    }

    #[test]
    fn positions_count_characters() {
        let text = "\u{feff}  ab\n{é} cd".as_bytes();
        let mut lx = Lexer::new(Trickle(text));
        lx.skip_space().unwrap();
        assert_eq!(lx.here(), Pos { line: 1, column: 3 });
        let mut tok = Vec::new();
        lx.symbol(&mut tok).unwrap();
        assert_eq!(tok, b"ab");
        lx.skip_space().unwrap();
        assert_eq!(lx.peek().unwrap(), Some(b'{'));
        lx.bump(1);
        let mut c = Vec::new();
        assert_eq!(lx.brace_comment(true, &mut c).unwrap(), CommentEnd::Closed);
        assert_eq!(c, "é".as_bytes());
        lx.skip_space().unwrap();
        assert_eq!(lx.here(), Pos { line: 2, column: 5 });
    }

    #[test]
    fn strings_and_escapes() {
        let mut lx = Lexer::new(Trickle(br#"a \"b\" \\ c" x"#));
        let mut s = Vec::new();
        assert!(lx.string(&mut s).unwrap());
        assert_eq!(s, br#"a "b" \ c"#);
        let mut lx = Lexer::new(Trickle(b"abc\n\"x"));
        s.clear();
        assert!(!lx.string(&mut s).unwrap());
        assert_eq!(s, b"abc");
    }

    #[test]
    fn unterminated_comment_stops_at_next_game() {
        let text = b"a\nb\n\n[Event \"x\"]";
        let mut lx = Lexer::new(Trickle(text));
        let mut c = Vec::new();
        assert_eq!(
            lx.brace_comment(true, &mut c).unwrap(),
            CommentEnd::NextGame
        );
        assert_eq!(c, b"a\nb");
        let mut lx = Lexer::new(&b"a\n[not a tag]\n}"[..]);
        assert_eq!(lx.brace_comment(false, &mut c).unwrap(), CommentEnd::Closed);
        let mut lx = Lexer::new(&b"never closed"[..]);
        assert_eq!(lx.brace_comment(false, &mut c).unwrap(), CommentEnd::Eof);
    }

    #[test]
    fn escape_lines_and_blank_lines() {
        let mut lx = Lexer::new(&b"% ignored [x]\n\n  e4"[..]);
        let sp = lx.skip_space().unwrap();
        assert!(sp.blank_line);
        assert_eq!(lx.here(), Pos { line: 3, column: 3 });
        let mut lx = Lexer::new(&b"x\n  e4"[..]);
        assert_eq!(lx.peek().unwrap(), Some(b'x'));
        lx.bump(1);
        assert!(!lx.skip_space().unwrap().blank_line);
        assert!(lx.at_line_start());
    }
}
