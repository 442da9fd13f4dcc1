//! # chess960-pgn
//!
//! PGN (Portable Game Notation) for Chess960 and classical chess: a streaming reader that
//! checks every move against the rules of `chess960-core`, is tolerant of what real files
//! contain (TCEC, lichess, FICS, cutechess, ChessBase, Scid and header-only collections) and
//! reports each broken game with its place and reason without losing the others; and a
//! strict writer of normalised PGN.
//!
//! ```
//! use chess960_pgn::{Reader, WriteOptions, game_to_string};
//!
//! let pgn = r#"[Event "Example"]
//! [Variant "fischerandom"]
//! [FEN "bqrnkrnb/pppppppp/8/8/8/8/PPPPPPPP/BQRNKRNB w KQkq - 0 1"]
//!
//! 1. d4 d5 2. Nf3 {a comment} Nf6 (2... c6) 3. O-O 1-0
//! "#;
//! let mut reader = Reader::new(pgn.as_bytes());
//! let game = reader.read_game().unwrap().unwrap().unwrap();
//! assert_eq!(game.start_id().unwrap().get(), 579);
//! assert_eq!(game.moves.nodes.len(), 5);
//! let text = game_to_string(&game, &WriteOptions::default());
//! assert!(text.contains("[Variant \"Chess960\"]\n[SetUp \"1\"]\n"));
//! assert!(text.contains("1. d4 d5 2. Nf3 { a comment } 2... Nf6 ( 2... c6 ) 3. O-O 1-0"));
//!
//! // A broken game is reported with its place; the reader goes on.
//! let mut reader = Reader::new("1. e4 e5 2. Qz9 *\n\n1. d4 *\n".as_bytes());
//! let err = reader.read_game().unwrap().unwrap().unwrap_err();
//! assert_eq!((err.game, err.line, err.column), (1, 1, 13));
//! assert_eq!(err.at_move.as_deref(), Some("2. Qz9"));
//! assert!(reader.read_game().unwrap().unwrap().is_ok());
//! ```
#![warn(missing_docs)]

pub mod date;
pub mod error;
pub mod game;
mod lexer;
pub mod reader;
mod san;
pub mod variant;
pub mod writer;

pub use error::{ErrorKind, PgnError};
pub use game::{Game, GameResult, Line, Node, Tags};
pub use reader::{MainLine, Reader, Summary};
pub use variant::Variant;
pub use writer::{game_to_string, movetext_to_string, WriteOptions, Writer};
