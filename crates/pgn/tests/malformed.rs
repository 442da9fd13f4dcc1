//! A catalogue of broken games, each with the error expected (line, column, move, reason)
//! and the proof that the game after it is still read; and a catalogue of the irregular but
//! harmless forms real files contain, which must be read without complaint.

mod common;

use chess960_pgn::{ErrorKind, GameResult, PgnError, Variant};
use common::read_str;

/// The game appended after every broken one: it must come through intact.
const NEXT: &str = "\n\n[Event \"next\"]\n[Result \"0-1\"]\n\n1. d4 d5 0-1\n";

struct Case {
    name: &'static str,
    pgn: &'static str,
    line: u64,
    column: u64,
    at_move: Option<&'static str>,
    reason: &'static str,
    kind: fn(&ErrorKind) -> bool,
}

fn cases() -> Vec<Case> {
    vec![
        Case {
            name: "not SAN",
            pgn: "[Event \"a\"]\n\n1. e4 e5 2. Qz9 Nf6 *",
            line: 3,
            column: 13,
            at_move: Some("2. Qz9"),
            reason: "'Qz9' is not a move in SAN",
            kind: |k| matches!(k, ErrorKind::IllegalMove(_)),
        },
        Case {
            name: "illegal move",
            pgn: "1. e4 e5 2. Ke3 *",
            line: 1,
            column: 13,
            at_move: Some("2. Ke3"),
            reason: "illegal move 'Ke3'",
            kind: |k| matches!(k, ErrorKind::IllegalMove(_)),
        },
        Case {
            name: "illegal black move",
            pgn: "1. e4 e5 2. Nf3 Nxe4 *",
            line: 1,
            column: 17,
            at_move: Some("2... Nxe4"),
            reason: "illegal move 'Nxe4'",
            kind: |k| matches!(k, ErrorKind::IllegalMove(_)),
        },
        Case {
            name: "ambiguous move",
            pgn: "1. Nf3 e5 2. d3 e4 3. Nd2 *",
            line: 1,
            column: 23,
            at_move: Some("3. Nd2"),
            reason: "ambiguous move 'Nd2': could be Nbd2 or Nfd2",
            kind: |k| matches!(k, ErrorKind::IllegalMove(_)),
        },
        Case {
            name: "castling not allowed",
            pgn: "1. O-O *",
            line: 1,
            column: 4,
            at_move: Some("1. O-O"),
            reason: "white cannot castle h-side (O-O) here",
            kind: |k| matches!(k, ErrorKind::IllegalMove(_)),
        },
        Case {
            name: "promotion without a piece",
            pgn: "[FEN \"8/4P3/8/8/8/8/k7/4K3 w - - 0 1\"]\n\n1. e8 *",
            line: 3,
            column: 4,
            at_move: Some("1. e8"),
            reason: "a promotion needs a piece",
            kind: |k| matches!(k, ErrorKind::IllegalMove(_)),
        },
        Case {
            name: "illegal move inside a variation",
            pgn: "1. e4 ( 1. Ke2 ) 1... e5 *",
            line: 1,
            column: 12,
            at_move: Some("1. Ke2"),
            reason: "illegal move 'Ke2'",
            kind: |k| matches!(k, ErrorKind::IllegalMove(_)),
        },
        Case {
            name: "unknown token",
            pgn: "1. e4 @@ e5 *",
            line: 1,
            column: 7,
            at_move: Some("1..."),
            reason: "unknown token '@@'",
            kind: |k| matches!(k, ErrorKind::UnknownToken { .. }),
        },
        Case {
            name: "unknown annotation",
            pgn: "1. e4 !!! e5 *",
            line: 1,
            column: 7,
            at_move: Some("1..."),
            reason: "unknown token '!!!'",
            kind: |k| matches!(k, ErrorKind::UnknownToken { .. }),
        },
        Case {
            name: "unterminated comment before the next game",
            pgn: "1. e4 {never closed\ne5 *",
            line: 1,
            column: 7,
            at_move: Some("1..."),
            reason: "unterminated comment",
            kind: |k| matches!(k, ErrorKind::UnterminatedComment { next_game: true }),
        },
        Case {
            name: "bad FEN",
            pgn: "[Event \"a\"]\n[SetUp \"1\"]\n[FEN \"8/8/8/8/8/8/8/8 w - - 0 1\"]\n\n*",
            line: 3,
            column: 1,
            at_move: None,
            reason: "bad FEN tag '8/8/8/8/8/8/8/8 w - - 0 1'",
            kind: |k| matches!(k, ErrorKind::BadFen { .. }),
        },
        Case {
            name: "Double Fischer Random start",
            pgn: "[Variant \"fischerandom\"]\n  [FEN \"nrnbkrbq/pppppppp/8/8/8/8/PPPPPPPP/BQNBRNKR w KQkq - 0 1\"]\n\n1. e4 *",
            line: 2,
            column: 3,
            at_move: None,
            reason: "is not a Chess960 start position: Black's back rank NRNBKRBQ",
            kind: |k| matches!(k, ErrorKind::NotChess960Start { .. }),
        },
        Case {
            name: "bishops on one colour",
            pgn: "[Variant \"Chess960\"]\n[FEN \"bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BQBNNRKR w KQkq - 0 1\"]\n\n*",
            line: 2,
            column: 1,
            at_move: None,
            reason: "White's back rank BQBNNRKR is no Chess960 arrangement",
            kind: |k| matches!(k, ErrorKind::NotChess960Start { .. }),
        },
        Case {
            name: "other variant",
            pgn: "[Event \"a\"]\n[Variant \"Atomic\"]\n\n1. e4 *",
            line: 2,
            column: 1,
            at_move: None,
            reason: "unsupported variant 'Atomic'",
            kind: |k| matches!(k, ErrorKind::UnsupportedVariant { .. }),
        },
        Case {
            name: "SetUp without FEN",
            pgn: "[Event \"a\"]\n[SetUp \"1\"]\n\n1. e4 *",
            line: 2,
            column: 1,
            at_move: None,
            reason: "missing FEN tag",
            kind: |k| matches!(k, ErrorKind::MissingFen { .. }),
        },
        Case {
            name: "tag value without closing quote",
            pgn: "[Event \"a]\n[Site \"b\"]\n\n1. e4 *",
            line: 1,
            column: 1,
            at_move: None,
            reason: "the value of tag Event has no closing '\"'",
            kind: |k| matches!(k, ErrorKind::MalformedTag { .. }),
        },
        Case {
            name: "tag value without quotes",
            pgn: "[Event a]\n\n1. e4 *",
            line: 1,
            column: 1,
            at_move: None,
            reason: "expected '\"' to open the value of tag Event",
            kind: |k| matches!(k, ErrorKind::MalformedTag { .. }),
        },
        Case {
            name: "closing parenthesis without opening one",
            pgn: "1. e4 ) e5 *",
            line: 1,
            column: 7,
            at_move: Some("1..."),
            reason: "unbalanced parentheses: ')' without a '('",
            kind: |k| matches!(k, ErrorKind::UnmatchedCloseParen),
        },
        Case {
            name: "variation never closed",
            pgn: "1. e4 ( 1. d4 d5 2. c4\n1... e5 *",
            line: 2,
            column: 9,
            // The reader took "1... e5" for the variation's moves: it is at its third move.
            at_move: Some("3."),
            reason: "column 7 is never closed",
            kind: |k| matches!(k, ErrorKind::UnclosedVariation { column: 7, .. }),
        },
        Case {
            name: "variation before any move",
            pgn: "( 1. d4 ) 1. e4 *",
            line: 1,
            column: 1,
            at_move: Some("1."),
            reason: "no move precedes it",
            kind: |k| matches!(k, ErrorKind::VariationBeforeMove),
        },
        Case {
            name: "NAG before any move",
            pgn: "$1 1. e4 *",
            line: 1,
            column: 1,
            at_move: Some("1."),
            reason: "annotation '$1' does not follow a move",
            kind: |k| matches!(k, ErrorKind::AnnotationBeforeMove { .. }),
        },
        Case {
            name: "null move",
            pgn: "1. e4 -- 2. d4 *",
            line: 1,
            column: 7,
            at_move: Some("1..."),
            reason: "null move '--'",
            kind: |k| matches!(k, ErrorKind::NullMove { .. }),
        },
        Case {
            name: "tag inside the moves",
            pgn: "1. e4 [Event \"x\"] e5 *",
            line: 1,
            column: 7,
            at_move: Some("1..."),
            reason: "'[' inside the moves",
            kind: |k| matches!(k, ErrorKind::TagInMovetext),
        },
    ]
}

fn check_error(e: &PgnError, c: &Case, game: u64) {
    assert_eq!(e.game, game, "{}: game", c.name);
    assert_eq!(
        (e.line, e.column),
        (c.line, c.column),
        "{}: place of {e}",
        c.name
    );
    assert_eq!(e.at_move.as_deref(), c.at_move, "{}: move of {e}", c.name);
    assert!(
        e.reason().contains(c.reason),
        "{}: reason {:?}",
        c.name,
        e.reason()
    );
    assert!((c.kind)(&e.kind), "{}: kind {:?}", c.name, e.kind);
    assert!(!e.reason().contains('\n'), "{}: one line", c.name);
}

fn check_next(g: &Result<chess960_pgn::Game, PgnError>, name: &str) {
    let g = g
        .as_ref()
        .unwrap_or_else(|e| panic!("{name}: the next game: {e}"));
    assert_eq!(g.tags.get("Event"), Some("next"), "{name}");
    assert_eq!(g.moves.nodes.len(), 2, "{name}");
    assert_eq!(g.result, GameResult::BlackWins, "{name}");
}

#[test]
fn each_error_is_reported_and_the_next_game_read() {
    for c in cases() {
        // Alone, then after a good game (the numbering and lines move on), then followed by
        // the next game.
        let text = format!("{}{NEXT}", c.pgn);
        let games = read_str(&text);
        assert_eq!(games.len(), 2, "{}: {games:?}", c.name);
        check_error(games[0].as_ref().unwrap_err(), &c, 1);
        check_next(&games[1], c.name);

        let text = format!("1. e4 *\n\n{}{NEXT}", c.pgn);
        let games = read_str(&text);
        assert_eq!(games.len(), 3, "{}", c.name);
        assert!(games[0].is_ok());
        let shifted = Case {
            line: c.line + 2,
            ..c
        };
        check_error(games[1].as_ref().unwrap_err(), &shifted, 2);
        check_next(&games[2], shifted.name);
    }
}

#[test]
fn unterminated_comment_at_the_end_of_the_file() {
    let games = read_str("1. e4 *\n\n1. e4 { never closed");
    assert_eq!(games.len(), 2);
    let e = games[1].as_ref().unwrap_err();
    assert_eq!((e.line, e.column), (3, 7));
    assert!(matches!(
        e.kind,
        ErrorKind::UnterminatedComment { next_game: false }
    ));
    assert!(e.reason().contains("end of the file"), "{e}");
}

/// Movetext without a termination marker is a game, as lichess's import and python-chess read
/// it: before the next game's tags, at the end of the file, and with neither tags nor marker.
/// Its result is the `Result` tag, else unknown.
#[test]
fn a_game_without_a_termination_marker_is_read() {
    let games =
        read_str("[Event \"a\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Nf3\n[Event \"b\"]\n\n1. d4 d5\n");
    assert_eq!(games.len(), 2);
    let a = games[0].as_ref().expect("first game");
    assert_eq!((a.moves.nodes.len(), a.result), (3, GameResult::WhiteWins));
    let b = games[1].as_ref().expect("second game");
    assert_eq!((b.moves.nodes.len(), b.result), (2, GameResult::Unknown));

    let games = read_str("1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7#");
    assert_eq!(games.len(), 1);
    let mate = games[0].as_ref().expect("pasted moves");
    assert_eq!(mate.moves.nodes.len(), 7);
    assert_eq!(mate.result, GameResult::Unknown);
}

#[test]
fn unterminated_comment_stops_at_an_event_tag_without_blank_line() {
    let games = read_str("1. e4 { oops\n[Event \"b\"]\n\n1. d4 *\n");
    assert_eq!(games.len(), 2);
    assert!(matches!(
        games[0].as_ref().unwrap_err().kind,
        ErrorKind::UnterminatedComment { next_game: true }
    ));
    assert_eq!(games[1].as_ref().unwrap().tags.get("Event"), Some("b"));
}

#[test]
fn one_error_per_game_and_nothing_lost() {
    // Many broken games in a row, each followed by a good one.
    let mut text = String::new();
    let cases = cases();
    for c in &cases {
        text.push_str(c.pgn);
        text.push_str(NEXT);
        text.push('\n');
    }
    let games = read_str(&text);
    assert_eq!(games.len(), 2 * cases.len());
    for (i, c) in cases.iter().enumerate() {
        let e = games[2 * i].as_ref().unwrap_err();
        assert_eq!(e.game, 2 * i as u64 + 1);
        assert!(e.reason().contains(c.reason), "{}: {e}", c.name);
        check_next(&games[2 * i + 1], c.name);
    }
}

/// Irregular forms real files contain, read without complaint.
#[test]
fn tolerated_forms() {
    let text = concat!(
        "\u{feff}[Event \"bom, crlf\"]\r\n[Result \"1-0\"]\r\n\r\n1. e4 e5 2. Nf3 1-0\r\n\r\n",
        "% an escape line\n[Event \"escape and semicolon\"][Round \"1\"]\n\n",
        "1. e4 ; a comment to the end of the line 2. Qz9\n e5 *\n\n",
        "[Event \"numbers\"]\n\n1.e4 e5 2.Nf3 2...Nc6 3. Bb5 3… a6 4 Ba4 *\n\n",
        "[Event \"tolerant SAN\"]\n[FEN \"r3k2r/6P1/8/8/8/8/8/R3K2R w KQkq - 0 1\"]\n\n",
        "1. 0-0 0-0-0 2. gxh8Q Rxh8 3. Kg2 *\n\n",
        "[Event \"annotations\"]\n\n1. e4! e5? 2. Nf3!! Nc6?? 3. Bb5!? a6?! 4. Ba4 $14 $132 Nf6 *\n\n",
        "[Event \"draw sign\"]\n\n1. e4 ½-½\n\n",
        "[Event \"no moves\"]\n[Result \"0-1\"]\n\n0-1\n\n",
        "[Event \"pawn captures without x\"]\n\n1. e4 d5 2. ed5 Qxd5 *\n\n",
        "[Event \"multi-line comment\"]\n\n{ first\n\nsecond\n[not a tag] } 1. e4 *\n\n",
        "[Event \"evaluation sign\"]\n\n1. e4 +- *\n\n",
        "1. d4 *\n",
    );
    let games = read_str(text);
    let errors: Vec<String> = games
        .iter()
        .filter_map(|g| g.as_ref().err().map(|e| e.to_string()))
        .collect();
    assert!(errors.iter().any(|e| e.contains("+-")), "{errors:?}");
    // Only the evaluation sign '+-', which is no PGN token, is refused.
    assert_eq!(errors.len(), 1, "{errors:?}");
    let ok: Vec<_> = games.iter().filter_map(|g| g.as_ref().ok()).collect();
    assert_eq!(ok.len(), 10);
    assert_eq!(ok[0].tags.get("Event"), Some("bom, crlf"));
    assert_eq!(ok[0].moves.nodes.len(), 3);
    assert_eq!(ok[0].result, GameResult::WhiteWins);
    assert_eq!(ok[1].tags.get("Round"), Some("1"));
    assert_eq!(ok[1].moves.nodes.len(), 2);
    assert!(ok[1].moves.nodes[0].comments[0].contains("2. Qz9"));
    assert_eq!(ok[2].moves.nodes.len(), 7);
    assert_eq!(ok[3].moves.nodes.len(), 5);
    assert!(ok[3].moves.nodes[2].mv.is_promotion());
    assert_eq!(ok[4].moves.nodes[0].nags, vec![1]);
    assert_eq!(ok[4].moves.nodes[1].nags, vec![2]);
    assert_eq!(ok[4].moves.nodes[2].nags, vec![3]);
    assert_eq!(ok[4].moves.nodes[3].nags, vec![4]);
    assert_eq!(ok[4].moves.nodes[4].nags, vec![5]);
    assert_eq!(ok[4].moves.nodes[5].nags, vec![6]);
    assert_eq!(ok[4].moves.nodes[6].nags, vec![14, 132]);
    assert_eq!(ok[5].result, GameResult::Draw);
    assert_eq!(ok[6].moves.nodes.len(), 0);
    assert_eq!(ok[6].result, GameResult::BlackWins);
    assert_eq!(ok[7].moves.nodes.len(), 4);
    assert!(ok[8].moves.comment[0].contains("[not a tag]"));
    assert_eq!(ok[9].tags.len(), 0);
    assert_eq!(ok[9].variant, Variant::Standard);
}

#[test]
fn variant_detection() {
    let frc = "bqrnkrnb/pppppppp/8/8/8/8/PPPPPPPP/BQRNKRNB w KQkq - 0 1";
    let text = format!(
        "[Variant \"chess 960\"]\n[SetUp \"1\"]\n[FEN \"{frc}\"]\n\n1. d4 *\n\n\
         [FEN \"{frc}\"]\n\n1. d4 *\n\n\
         [Variant \"FRC\"]\n[FEN \"bqrnkrnb/pppppppp/8/8/8/8/PPPPPPPP/BQRNKRNB w FCfc - 0 1\"]\n\n1. d4 *\n\n\
         [SetUp \"1\"]\n[FEN \"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\"]\n\n1. e4 *\n\n\
         [Variant \"Standard\"]\n\n1. e4 *\n\n\
         [SetUp \"1\"]\n[FEN \"1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w GBgb - 0 1\"]\n\n1. O-O O-O-O *\n\n\
         [Variant \"Chess960\"]\n\n1. e4 *\n"
    );
    let games = read_str(&text);
    let v: Vec<Variant> = games.iter().map(|g| g.as_ref().unwrap().variant).collect();
    use Variant::{Chess960 as C, Standard as S};
    assert_eq!(v, vec![C, C, C, S, S, C, C]);
    let ids: Vec<Option<u16>> = games
        .iter()
        .map(|g| g.as_ref().unwrap().start_id().map(|i| i.get()))
        .collect();
    assert_eq!(ids[0], ids[1]);
    assert_eq!(ids[0], ids[2]);
    assert_eq!(ids[3], Some(518));
    assert_eq!(ids[6], Some(518));
}

#[test]
fn latin1_and_unescaped_quotes_in_tags() {
    let mut text: Vec<u8> = b"[White \"M\xfcller, J\xf6rg\"]\n".to_vec();
    text.extend_from_slice(b"[Black \"Say \"hi\" \\ there\"]\n[Site \"a\\\"b\"]\n\n*\n");
    let mut r = chess960_pgn::Reader::new(&text[..]);
    let g = r.read_game().unwrap().unwrap().unwrap();
    assert_eq!(g.tags.get("White"), Some("Müller, Jörg"));
    assert_eq!(g.tags.get("Black"), Some("Say \"hi\" \\ there"));
    assert_eq!(g.tags.get("Site"), Some("a\"b"));
}

#[test]
fn positions_count_characters_and_tabs() {
    let games = read_str("{ é ü } 1. e4 \tKe1 *");
    let e = games[0].as_ref().unwrap_err();
    assert_eq!((e.line, e.column), (1, 16));
}
