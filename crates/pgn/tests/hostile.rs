//! Input built to hurt: variations nested 100,000 deep and games with 200,000 tags. Every
//! operation on the result (reading, writing, cloning, comparing, printing, dropping) runs on
//! a thread with a small stack, so that any recursion over the tree would overflow it and
//! abort the test: nesting costs heap, never stack.

use chess960_core::StartId;
use chess960_pgn::game::Step;
use chess960_pgn::reader::read_movetext;
use chess960_pgn::{game_to_string, Game, GameResult, Line, Reader, WriteOptions};

/// A stack far smaller than any thread's default (2 MiB for spawned threads and tokio
/// workers, 8 MiB for the main thread): a recursion of one frame per level fails at a few
/// thousand levels here.
const SMALL_STACK: usize = 256 * 1024;

fn on_small_stack<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    std::thread::Builder::new()
        .stack_size(SMALL_STACK)
        .spawn(f)
        .expect("spawn")
        .join()
        .expect("the work panicked (or would have overflowed its stack)")
}

/// `1. e4 (1. d4 (1. d4 ( … ) ) ) e5 *`, `depth` variations deep.
fn nested(depth: usize) -> String {
    let mut s = String::with_capacity(depth * 9 + 20);
    s.push_str("1. e4 ");
    for _ in 0..depth {
        s.push_str("(1. d4 ");
    }
    for _ in 0..depth {
        s.push(')');
    }
    s.push_str(" e5 *\n");
    s
}

fn read_one(text: &str) -> Game {
    Reader::new(text.as_bytes())
        .read_game()
        .expect("no I/O error")
        .expect("a game")
        .expect("a good game")
}

/// The deepest variation level of a line, counted with the walk.
fn depth(line: &Line) -> usize {
    let (mut open, mut deepest) = (0usize, 0usize);
    for step in line.walk() {
        match step {
            Step::Enter(_) => {
                open += 1;
                deepest = deepest.max(open);
            }
            Step::Leave => open -= 1,
            Step::Move(_) => {}
        }
    }
    deepest - 1
}

#[test]
fn nesting_100000_deep_is_read_written_cloned_compared_printed_and_dropped() {
    on_small_stack(|| {
        const DEPTH: usize = 100_000;
        let game = read_one(&nested(DEPTH));
        let start = StartId::CLASSICAL.position();
        let sans: Vec<String> = {
            let mut pos = start;
            game.moves
                .moves()
                .map(|m| {
                    let s = pos.san(m);
                    pos.play_mut(m);
                    s
                })
                .collect()
        };
        assert_eq!(sans, ["e4", "e5"]);
        assert_eq!(game.result, GameResult::Unknown);
        assert_eq!(depth(&game.moves), DEPTH);

        // Written: every variation with its parentheses, and read back to the same tree.
        let text = game_to_string(&game, &WriteOptions::default());
        assert_eq!(text.matches('(').count(), DEPTH);
        assert_eq!(text.matches(')').count(), DEPTH);
        assert!(text.contains("1. e4 ( 1. d4 ( 1. d4"), "{}", &text[..300]);
        let back = read_one(&text);
        assert!(
            back.moves == game.moves,
            "the written game reads back to the same tree"
        );

        // Cloned and compared; one change deep down makes the trees differ.
        let copy = game.clone();
        assert!(copy == game);
        let mut changed = game.clone();
        let mut line = &mut changed.moves;
        for _ in 0..DEPTH - 1 {
            line = &mut line.nodes[0].variations[0];
        }
        line.nodes[0].nags.push(1);
        assert!(changed != game);

        // Printed: the derived form's shape, all levels.
        let debug = format!("{:?}", game.moves);
        assert!(debug.starts_with("Line { comment: [], nodes: [Node { mv: "));
        assert_eq!(debug.matches("Line {").count(), DEPTH + 1);
        assert_eq!(debug.matches("Node {").count(), DEPTH + 2);

        // Dropped (at the end of this closure) with the copies.
        drop((copy, changed, back));
    });
}

#[test]
fn a_broken_game_deep_inside_nesting_is_reported_and_dropped() {
    on_small_stack(|| {
        // The tree built so far is thrown away when the error is found.
        let text = nested(50_000).replace(" e5 *", " Qz9 *");
        let err = Reader::new(text.as_bytes())
            .read_game()
            .unwrap()
            .unwrap()
            .unwrap_err();
        assert_eq!(err.at_move.as_deref(), Some("1... Qz9"));
        assert_eq!((err.line, err.column), (1, 400_008));
    });
}

#[test]
fn debug_of_a_small_tree_matches_the_derived_shape() {
    let game = read_one("1. e4 { a } (1. d4 $1 (1. c4) ) (1. Nf3) e5 *");
    let debug = format!("{:?}", game.moves);
    let m = |san: &str| {
        format!(
            "{:?}",
            StartId::CLASSICAL.position().parse_san(san).unwrap()
        )
    };
    let e5 = format!(
        "{:?}",
        StartId::CLASSICAL
            .position()
            .play(StartId::CLASSICAL.position().parse_san("e4").unwrap())
            .parse_san("e5")
            .unwrap()
    );
    let leaf = |san: &str, nags: &str| {
        format!(
            "Node {{ mv: {}, nags: [{nags}], comments: [], variations: [] }}",
            m(san)
        )
    };
    let expected = format!(
        "Line {{ comment: [], nodes: [Node {{ mv: {}, nags: [], comments: [\"a\"], variations: [\
         Line {{ comment: [], nodes: [Node {{ mv: {}, nags: [1], comments: [], variations: [\
         Line {{ comment: [], nodes: [{}] }}] }}] }}, \
         Line {{ comment: [], nodes: [{}] }}] }}, \
         Node {{ mv: {e5}, nags: [], comments: [], variations: [] }}] }}",
        m("e4"),
        m("d4"),
        leaf("c4", ""),
        leaf("Nf3", ""),
    );
    assert_eq!(debug, expected);
}

#[test]
fn two_hundred_thousand_tags_are_read_in_order_with_the_last_value_of_a_repeat() {
    const N: usize = 200_000;
    let mut text = String::with_capacity(N * 20);
    for i in 0..N {
        text.push_str(&format!("[T{i} \"v{i}\"]\n"));
    }
    // A repeated name keeps its first place and takes the last value.
    text.push_str("[T7 \"again\"]\n[Event \"E\"]\n\n1. e4 e5 *\n");
    let game = read_one(&text);
    assert_eq!(game.tags.len(), N + 1);
    for (i, (name, value)) in game.tags.iter().take(N).enumerate() {
        assert_eq!(name, format!("T{i}"));
        if i == 7 {
            assert_eq!(value, "again");
        } else {
            assert_eq!(value, format!("v{i}"));
        }
    }
    assert_eq!(game.tags.get("T199999"), Some("v199999"));
    assert_eq!(game.tags.get("Event"), Some("E"));
    assert_eq!(game.tags.get("T200000"), None);

    // Written back: every tag once, in order after the roster.
    let out = game_to_string(&game, &WriteOptions::default());
    assert!(out.starts_with("[Event \"E\"]\n"));
    assert_eq!(out.matches("\"]\n").count(), 7 + N);
    let mut tags = game.tags.clone();
    assert_eq!(tags.remove("T5").as_deref(), Some("v5"));
    assert_eq!(tags.get("T6"), Some("v6"));
    assert_eq!(tags.get("T5"), None);
    assert_eq!(tags.len(), N);
    tags.set("T5", "back");
    assert_eq!(tags.iter().last(), Some(("T5", "back")));
}

#[test]
fn movetext_alone_is_read_from_a_start_position() {
    let start = StartId::new(0).unwrap().position();
    let line = read_movetext("1. e4 $1 { c } ( 1. d4 ) 1... e5 2. Nd3", start).unwrap();
    assert_eq!(line.nodes.len(), 3);
    assert_eq!(line.nodes[0].nags, [1]);
    assert_eq!(line.nodes[0].variations.len(), 1);
    // With or without a termination marker.
    assert!(
        read_movetext("1. e4 e5 *", start).unwrap() == read_movetext("1. e4 e5", start).unwrap()
    );
    let err = read_movetext("1. e4 (1. d4", start).unwrap_err();
    assert!(err.reason().contains("never closed"), "{err}");
    assert!(read_movetext("", start).unwrap().nodes.is_empty());
}

#[test]
fn the_main_line_alone_is_read_from_deep_nesting() {
    let depth = 100_000;
    let pgn = format!(
        "[Event \"x\"]\n\n1. e4 {}{} e5 {{ a comment }} 2. Nf3 *\n",
        "(1. d4 ".repeat(depth),
        ")".repeat(depth)
    );
    let mut reader = chess960_pgn::Reader::new(pgn.as_bytes());
    let chess960_pgn::MainLine { summary, moves } =
        reader.read_main_line().unwrap().unwrap().unwrap();
    assert_eq!(summary.plies, 3);
    let pos = summary.start;
    let sans: Vec<String> = moves
        .iter()
        .scan(pos, |p, &m| {
            let san = p.san(m);
            *p = p.play(m);
            Some(san)
        })
        .collect();
    assert_eq!(sans, ["e4", "e5", "Nf3"]);
    // Variations are still checked: an illegal move inside one is the game's error.
    let bad = "1. e4 (1. d4 (1. Ke2)) e5 *\n";
    let mut reader = chess960_pgn::Reader::new(bad.as_bytes());
    assert!(reader.read_main_line().unwrap().unwrap().is_err());
}
