//! Arbitrary bytes as a PGN file. The reader must never panic, and every game it accepts must
//! survive the writer: written, read back, and equal (same start, variant, moves, comments up
//! to white space, NAGs, variations, result, tags). The summary reader must agree with the full
//! reader on every game.
#![no_main]

use chess960_pgn::{game_to_string, Game, Line, Reader, WriteOptions};
use libfuzzer_sys::fuzz_target;

/// The line with comments reduced to their words, as the writer re-wraps them (a `}`, which
/// cannot be written inside a comment, separates words like white space). A loop over an
/// explicit stack: the input may nest variations as deep as it likes.
fn normalised(line: &Line) -> Line {
    let norm = |cs: &[String]| -> Vec<String> {
        cs.iter()
            .map(|c| {
                c.replace('}', " ")
                    .split_whitespace()
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .filter(|c| !c.is_empty())
            .collect()
    };
    let mut out = line.clone();
    let mut open: Vec<&mut Line> = vec![&mut out];
    while let Some(Line { comment, nodes }) = open.pop() {
        *comment = norm(comment);
        for node in nodes {
            node.comments = norm(&node.comments);
            open.extend(node.variations.iter_mut());
        }
    }
    out
}

fn check_round_trip(g: &Game) {
    let text = game_to_string(g, &WriteOptions::default());
    let mut again = Reader::new(text.as_bytes());
    let back = match again.read_game() {
        Ok(Some(Ok(back))) => back,
        other => panic!("own output not read back: {other:?}\n{text}"),
    };
    assert!(
        matches!(again.read_game(), Ok(None)),
        "one game only:\n{text}"
    );
    assert_eq!(back.start, g.start, "{text}");
    assert_eq!(back.variant, g.variant, "{text}");
    assert_eq!(back.result, g.result, "{text}");
    assert_eq!(normalised(&back.moves), normalised(&g.moves), "{text}");
    for (name, value) in g.tags.iter() {
        if matches!(name, "Variant" | "SetUp" | "FEN" | "Result") {
            continue;
        }
        let expected: String = value
            .chars()
            .map(|c| if c.is_control() { ' ' } else { c })
            .collect();
        assert_eq!(
            back.tags.get(name),
            Some(expected.as_str()),
            "tag {name}:\n{text}"
        );
    }
    for line in text.lines() {
        assert!(!line.starts_with('%'), "escape line written: {line:?}");
        if !line.starts_with('[') {
            assert!(
                line.chars().count() <= 80 || !line.trim().contains(' '),
                "line too long: {line:?}"
            );
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let mut full = Reader::new(data);
    let mut summary = Reader::new(data);
    loop {
        let (Ok(a), Ok(b)) = (full.read_game(), summary.read_summary()) else {
            panic!("reading a byte slice cannot fail");
        };
        match (a, b) {
            (None, None) => break,
            (Some(Ok(g)), Some(Ok(s))) => {
                assert_eq!(
                    (g.start, g.variant, g.result),
                    (s.start, s.variant, s.result)
                );
                assert_eq!(g.moves.nodes.len() as u32, s.plies);
                check_round_trip(&g);
            }
            (Some(Err(e)), Some(Err(f))) => {
                assert_eq!(e, f);
                assert!(e.line >= 1 && e.column >= 1 && e.game == full.games());
                assert!(!e.to_string().contains('\n'));
            }
            (a, b) => panic!("full and summary readers disagree: {a:?} / {b:?}"),
        }
    }
    assert_eq!(full.games(), summary.games());
});
