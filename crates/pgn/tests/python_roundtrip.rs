//! Round trips with python-chess (PyPI `chess`, pinned in `tests/oracle/requirements.txt`),
//! in both directions, on random Chess960 games that cover every castling shape of spec §2,
//! with comments, NAGs and nested variations:
//!
//! - python-chess writes PGN (with the header spellings real files use) → this crate reads
//!   it and must find exactly python-chess's games;
//! - this crate writes PGN → python-chess reads it back without errors and finds exactly
//!   this crate's games (and so does this crate's own reader).
//!
//! Both sides reduce a game to the same canonical JSON (`describe` in `pgn_oracle.py`):
//! headers, start and end X-FEN, result, and the move tree with UCI, SAN, comments
//! (white space normalised), NAGs and variations.
//!
//! Needs `python3` with `chess` installed (`bash scripts/test.sh` installs it).

mod common;

use chess960_core::{CastlingDialect, CastlingMode, Move, Position, StartId};
use chess960_pgn::{game_to_string, Game, Line, Reader, Variant, WriteOptions};
use common::{random_game, Rng};
use serde_json::{json, Map, Value};
use std::collections::BTreeMap;
use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};

fn oracle() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/pgn_oracle.py")
}

/// Runs the oracle with `args`, feeding `input`; its stdout.
fn python(args: &[&str], input: Option<&str>) -> String {
    let mut child = Command::new("python3")
        .arg(oracle())
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("python3 must be installed for the python-chess round-trip tests");
    let mut stdin = child.stdin.take().expect("stdin");
    let input = input.unwrap_or("").to_string();
    let feeder = std::thread::spawn(move || {
        let _ = stdin.write_all(input.as_bytes());
    });
    let out = child.wait_with_output().expect("python3 runs");
    let _ = feeder.join();
    assert!(
        out.status.success(),
        "the python-chess oracle failed (install python-chess with \
         `pip install -r tests/oracle/requirements.txt`):\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("UTF-8 from the oracle")
}

fn norm(texts: &[String]) -> String {
    texts
        .iter()
        .flat_map(|t| t.split_whitespace())
        .collect::<Vec<_>>()
        .join(" ")
}

/// The canonical description of a line (as `describe_line` in the oracle).
fn describe_line(line: &Line, start: &Position) -> (Value, Position) {
    let mut pos = *start;
    let mut moves = Vec::new();
    for node in &line.nodes {
        let variations: Vec<Value> = node
            .variations
            .iter()
            .map(|v| describe_line(v, &pos).0)
            .collect();
        let mut nags = node.nags.clone();
        nags.sort_unstable();
        nags.dedup();
        moves.push(json!({
            "uci": node.mv.to_uci(CastlingMode::Chess960),
            "san": pos.san(node.mv),
            "comment": norm(&node.comments),
            "nags": nags,
            "variations": variations,
        }));
        pos = pos.play(node.mv);
    }
    (json!({"comment": norm(&line.comment), "moves": moves}), pos)
}

/// The canonical description of a game, with `headers` as given.
fn describe(game: &Game, headers: Map<String, Value>) -> Value {
    let (line, end) = describe_line(&game.moves, &game.start);
    json!({
        "headers": headers,
        "start": game.start.fen(),
        "end": end.fen(),
        "result": game.result.as_str(),
        "line": line,
    })
}

fn tags_map(game: &Game) -> Map<String, Value> {
    game.tags
        .iter()
        .map(|(n, v)| (n.to_string(), Value::String(v.to_string())))
        .collect()
}

/// The castling shapes of spec §2 a castle belongs to.
fn shapes(m: Move) -> Vec<&'static str> {
    let side = m.castling_side().expect("a castle");
    let (kf, rf) = (m.from().file().index() as i32, m.to().file().index() as i32);
    let (kt, rt) = (
        side.king_to_file().index() as i32,
        side.rook_to_file().index() as i32,
    );
    let mut s = vec![if kf == kt {
        "only the rook moves"
    } else if rf == rt {
        "only the king moves"
    } else if kf == rt && rf == kt {
        "king and rook swap"
    } else if (kt - kf).signum() == (rt - rf).signum() {
        "both move the same way"
    } else {
        "they move towards each other"
    }];
    if (kt - kf).abs() == 1 {
        s.push("the king moves one square");
    }
    s
}

fn count_shapes(line: &Line, counts: &mut BTreeMap<&'static str, usize>) {
    for node in &line.nodes {
        if node.mv.is_castle() {
            for s in shapes(node.mv) {
                *counts.entry(s).or_default() += 1;
            }
        }
        for v in &node.variations {
            count_shapes(v, counts);
        }
    }
}

fn assert_all_shapes(counts: &BTreeMap<&'static str, usize>) {
    for shape in [
        "only the rook moves",
        "only the king moves",
        "king and rook swap",
        "both move the same way",
        "they move towards each other",
        "the king moves one square",
    ] {
        assert!(
            counts.get(shape).copied().unwrap_or(0) > 0,
            "no castle where {shape}: {counts:?}"
        );
    }
}

#[test]
fn python_chess_writes_we_read() {
    let out = python(&["write", "--seed", "1", "--games", "300"], None);
    let mut text = String::new();
    let mut expected = Vec::new();
    for line in out.lines() {
        let v: Value = serde_json::from_str(line).unwrap();
        text.push_str(v["pgn"].as_str().unwrap());
        text.push_str("\n\n");
        expected.push(v["game"].clone());
    }
    assert_eq!(expected.len(), 300);
    let games = common::read_str(&text);
    assert_eq!(games.len(), expected.len(), "game count");
    let mut castles = BTreeMap::new();
    for (i, (g, e)) in games.iter().zip(&expected).enumerate() {
        let g = g
            .as_ref()
            .unwrap_or_else(|err| panic!("game {}: {err}", i + 1));
        assert_eq!(describe(g, tags_map(g)), *e, "game {}", i + 1);
        count_shapes(&g.moves, &mut castles);
    }
    eprintln!("castles: {castles:?}");
    assert_all_shapes(&castles);
}

/// A tag value as python-chess 1.11 reads it: it does not undo the PGN standard's `\"` and
/// `\\` escapes (nor does it write them).
fn as_python_reads(v: &str) -> String {
    v.replace('\\', "\\\\").replace('"', "\\\"")
}

#[test]
fn we_write_python_chess_reads() {
    let mut rng = Rng(0x1234_5678_9ABC_DEF1);
    let games: Vec<Game> = (0..300).map(|n| random_game(&mut rng, n)).collect();
    let mut text = String::new();
    for (i, g) in games.iter().enumerate() {
        let dialect = if i % 3 == 0 {
            CastlingDialect::Shredder
        } else {
            CastlingDialect::XFen
        };
        text.push_str(&game_to_string(
            g,
            &WriteOptions {
                dialect,
                ..WriteOptions::default()
            },
        ));
    }
    for line in text.lines() {
        assert!(
            line.chars().count() <= 80 || !line.contains(' ') || line.starts_with('['),
            "line longer than 80 columns: {line:?}"
        );
        assert!(!line.starts_with('%'), "{line:?}");
    }

    // Our own reader gets the same games back, with the written tags.
    let mut reader = Reader::new(text.as_bytes());
    let mut reread = Vec::new();
    while let Some(g) = reader.read_game().unwrap() {
        reread.push(g.unwrap_or_else(|e| panic!("own output: {e}")));
    }
    assert_eq!(reread.len(), games.len());
    let mut castles = BTreeMap::new();
    for (i, (a, b)) in games.iter().zip(&reread).enumerate() {
        assert_eq!(
            describe(b, tags_map(b)),
            describe(a, tags_map(b)),
            "own round trip, game {}",
            i + 1
        );
        assert_eq!(a.variant, b.variant, "game {}", i + 1);
        for name in ["Event", "White", "Annotator"] {
            assert_eq!(a.tags.get(name), b.tags.get(name), "game {}", i + 1);
        }
        count_shapes(&a.moves, &mut castles);
    }
    eprintln!("castles: {castles:?}");
    assert_all_shapes(&castles);

    // python-chess reads them without errors and finds the same games.
    let out = python(&["read"], Some(&text));
    let described: Vec<Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(described.len(), games.len(), "python-chess game count");
    for (i, (g, (mut p, r))) in games
        .iter()
        .zip(described.into_iter().zip(&reread))
        .enumerate()
    {
        assert_eq!(
            p["errors"],
            json!([]),
            "game {}: python-chess errors",
            i + 1
        );
        p.as_object_mut().unwrap().remove("errors");
        let headers: Map<String, Value> = r
            .tags
            .iter()
            .map(|(n, v)| (n.to_string(), Value::String(as_python_reads(v))))
            .collect();
        assert_eq!(p, describe(g, headers), "game {}", i + 1);
        if g.variant == Variant::Standard && g.start == StartId::CLASSICAL.position() {
            assert!(p["headers"].get("FEN").is_none() && p["headers"].get("Variant").is_none());
        } else {
            assert_eq!(p["headers"]["SetUp"], "1");
        }
    }
}
