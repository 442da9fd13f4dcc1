//! What can be wrong with a game, and where.

use chess960_core::{FenError, SanError};
use std::fmt;

/// A game the reader could not accept: where the problem is and why.
///
/// The reader reports at most one error per game (the first one), then skips the rest of
/// that game and goes on with the next one, so one broken game never costs any other.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PgnError {
    /// The game's number in its file, from 1; bad games are numbered like good ones.
    pub game: u64,
    /// The line of the problem, from 1.
    pub line: u64,
    /// The column of the problem, from 1, counting characters (a UTF-8 sequence counts as
    /// one; in files that are not UTF-8, bytes).
    pub column: u64,
    /// Where in the moves the problem is, as a reader would point at it: `3. Qz9`,
    /// `17... Nxe4`, or just `17...` for something that is not a move; `None` for problems in
    /// the tag section.
    pub at_move: Option<String>,
    /// What is wrong.
    pub kind: ErrorKind,
}

impl PgnError {
    /// The reason alone, as one line of English (the `Display` of [`PgnError::kind`]).
    pub fn reason(&self) -> String {
        self.kind.to_string()
    }
}

impl fmt::Display for PgnError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "game {}, line {}, column {}",
            self.game, self.line, self.column
        )?;
        if let Some(m) = &self.at_move {
            write!(f, ", at {m}")?;
        }
        write!(f, ": {}", self.kind)
    }
}

impl std::error::Error for PgnError {}

/// The kinds of problems a game can have.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum ErrorKind {
    /// A tag pair that is not `[Name "value"]`.
    MalformedTag {
        /// What is wrong with it.
        reason: String,
    },
    /// A `{` comment with no `}`.
    UnterminatedComment {
        /// True if the next game's tag section began inside the comment (the comment was cut
        /// off there); false if the file ended.
        next_game: bool,
    },
    /// Text that is no PGN token at all.
    UnknownToken {
        /// The text, as found (shortened if very long).
        token: String,
    },
    /// The `FEN` tag cannot be read.
    BadFen {
        /// The tag's value.
        fen: String,
        /// Why the core FEN reader refused it.
        error: FenError,
    },
    /// The game is tagged as Chess960 but its `FEN` is a start arrangement that no Chess960
    /// game can begin with (Double Fischer Random files are tagged like this).
    NotChess960Start {
        /// The tag's value.
        fen: String,
        /// Why it is no Chess960 start position.
        reason: String,
    },
    /// A `Variant` other than Chess960 or classical chess.
    UnsupportedVariant {
        /// The tag's value.
        variant: String,
    },
    /// The tags promise a set-up position but give none.
    MissingFen {
        /// Which tag promised it (`SetUp "1"`).
        because: String,
    },
    /// A move that is not legal, not SAN, or ambiguous (the core SAN reader's error).
    IllegalMove(SanError),
    /// A null move (`--`, `Z0`, `0000`): analysis notation, not a chess move.
    NullMove {
        /// The text found.
        token: String,
    },
    /// A `)` with no `(` before it.
    UnmatchedCloseParen,
    /// A `(` that is never closed.
    UnclosedVariation {
        /// Line of the `(`.
        line: u64,
        /// Column of the `(`.
        column: u64,
    },
    /// A `(` before any move of the line it would be a variation of.
    VariationBeforeMove,
    /// A NAG or `!`/`?` annotation that does not follow a move.
    AnnotationBeforeMove {
        /// The annotation as found.
        token: String,
    },
    /// A `[` inside the moves that does not start a line (tags belong before the moves).
    TagInMovetext,
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ErrorKind::MalformedTag { reason } => write!(f, "malformed tag pair: {reason}"),
            ErrorKind::UnterminatedComment { next_game: true } => write!(
                f,
                "unterminated comment: this '{{' has no '}}' before the next game's tags"
            ),
            ErrorKind::UnterminatedComment { next_game: false } => write!(
                f,
                "unterminated comment: this '{{' has no '}}' before the end of the file"
            ),
            ErrorKind::UnknownToken { token } => write!(
                f,
                "unknown token '{token}': expected a move, move number, comment, NAG, variation or result"
            ),
            ErrorKind::BadFen { fen, error } => write!(f, "bad FEN tag '{fen}': {error}"),
            ErrorKind::NotChess960Start { fen, reason } => write!(
                f,
                "the FEN tag '{fen}' is not a Chess960 start position: {reason}"
            ),
            ErrorKind::UnsupportedVariant { variant } => write!(
                f,
                "unsupported variant '{variant}': this reader knows Chess960 and classical chess"
            ),
            ErrorKind::MissingFen { because } => write!(
                f,
                "missing FEN tag: {because} says the game starts from a set-up position, but there is no FEN tag"
            ),
            ErrorKind::IllegalMove(e) => write!(f, "{e}"),
            ErrorKind::NullMove { token } => write!(
                f,
                "null move '{token}': a pass is analysis notation, not a legal chess move"
            ),
            ErrorKind::UnmatchedCloseParen => {
                write!(f, "unbalanced parentheses: ')' without a '(' before it")
            }
            ErrorKind::UnclosedVariation { line, column } => write!(
                f,
                "unbalanced parentheses: the '(' at line {line}, column {column} is never closed"
            ),
            ErrorKind::VariationBeforeMove => write!(
                f,
                "a variation '(' must follow the move it is an alternative to, but no move precedes it"
            ),
            ErrorKind::AnnotationBeforeMove { token } => {
                write!(f, "annotation '{token}' does not follow a move")
            }
            ErrorKind::TagInMovetext => write!(
                f,
                "'[' inside the moves: tag pairs belong in the tag section, each at the start of a line"
            ),
        }
    }
}
