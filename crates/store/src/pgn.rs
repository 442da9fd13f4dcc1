//! Between the store and PGN: a game read by `chess960-pgn` becomes a game to import, and a
//! stored game becomes a `chess960_pgn::Game` for the PGN writer.
//!
//! What is kept: the start position, the main line (as UCI and SAN), the result, every tag,
//! the clocks, and every comment, NAG and variation. `[%clk H:MM:SS]` comments (as lichess
//! and chess.com write them) become the clocks of the moves. A game with annotations beyond
//! those clocks also keeps its movetext as the PGN writer normalises it
//! ([`crate::ImportGame::movetext`]), so that export gives back what `chess960 pgn convert`
//! would write: export, import and export again is byte-identical.

use crate::{Clocks, Finish, MoveRecord, NewGame, StoreError, StoredGame};
use chess960_core::{CastlingMode, Position};
use chess960_pgn::reader::read_movetext;
use chess960_pgn::variant::{classify, needs_chess960, VariantTag};
use chess960_pgn::{movetext_to_string, Game, GameResult, Line, Node, Variant, WriteOptions};

pub use crate::ImportGame;

/// Tags that are columns of their own, or follow from the game: not kept among the tags.
const DERIVED_TAGS: [&str; 6] = ["White", "Black", "TimeControl", "Result", "SetUp", "FEN"];

/// The clocks at the start of a game of time control `tc`: `"300+3"` or `"300"` (seconds)
/// give 300 s each; other forms (moves per period, `-`, `?`) give `None`.
pub fn initial_clocks(tc: &str) -> Option<Clocks> {
    let base = tc.split('+').next()?.trim();
    let secs: f64 = base
        .parse()
        .ok()
        .filter(|s: &f64| s.is_finite() && *s >= 0.0)?;
    if base.contains('/') {
        return None;
    }
    let ms = (secs * 1000.0).round() as u64;
    Some(Clocks {
        white_ms: ms,
        black_ms: ms,
    })
}

/// The time in a `[%clk H:MM:SS(.fff)]` command of a comment, in milliseconds.
pub fn parse_clk(comment: &str) -> Option<u64> {
    let at = comment.find("[%clk")?;
    let rest = comment[at + 5..].trim_start();
    let end = rest.find(']')?;
    let text = rest[..end].trim();
    whole_seconds_clk(text).or_else(|| any_clk(text))
}

/// The milliseconds of a clock `H:MM:SS(.fff)` of any form that [`parse_clk`] takes.
fn any_clk(text: &str) -> Option<u64> {
    let mut total = 0f64;
    for part in text.split(':') {
        let v: f64 = part.trim().parse().ok()?;
        if !v.is_finite() || v < 0.0 {
            return None;
        }
        total = total * 60.0 + v;
    }
    Some((total * 1000.0).round() as u64)
}

/// The milliseconds of a clock of whole seconds, `H:MM:SS` (or `MM:SS`, `SS`), each part one
/// to nine digits: the form of nearly every clock comment, read without floating point. The
/// value is the one the general reading above gives (every sum stays far below 2^53, where
/// `f64` is exact); `None` leaves any other form to it.
fn whole_seconds_clk(text: &str) -> Option<u64> {
    let mut total = 0u64;
    let mut parts = 0;
    for part in text.split(':') {
        parts += 1;
        if parts > 3 || part.is_empty() || part.len() > 9 {
            return None;
        }
        let mut v = 0u64;
        for b in part.bytes() {
            if !b.is_ascii_digit() {
                return None;
            }
            v = v * 10 + u64::from(b - b'0');
        }
        total = total * 60 + v;
    }
    Some(total * 1000)
}

/// `[%clk H:MM:SS]` in whole seconds, as lichess writes it; a fraction is dropped (the clock
/// showed that many whole seconds). An imported game whose clock comments carry fractions
/// keeps them: its comments then differ from this form, so its movetext is kept as imported.
pub fn format_clk(ms: u64) -> String {
    let mut buf = [0u8; 32];
    format!("[%clk {}", clk_time(ms, &mut buf))
}

/// The time of [`format_clk`]'s comment with its closing bracket, `H:MM:SS]`, written into
/// `buf` (the import compares it with every move's comment, and needs no heap for that).
fn clk_time(ms: u64, buf: &mut [u8; 32]) -> &str {
    let (h, m, s) = (ms / 3_600_000, ms / 60_000 % 60, ms / 1000 % 60);
    // Written from the end: "]", the seconds, the minutes, then the hours' digits.
    let mut at = buf.len();
    let mut put = |b: u8| {
        at -= 1;
        buf[at] = b;
    };
    put(b']');
    for two in [s, m] {
        put(b'0' + (two % 10) as u8);
        put(b'0' + (two / 10) as u8);
        put(b':');
    }
    let mut h = h;
    loop {
        put(b'0' + (h % 10) as u8);
        h /= 10;
        if h == 0 {
            break;
        }
    }
    // Only ASCII digits, colons and a bracket were written.
    std::str::from_utf8(&buf[at..]).unwrap_or_default()
}

/// True if `comment` is, word for word, [`format_clk`]`(ms)`: what the PGN writer would
/// write for a move's clock, so that the movetext says nothing more.
fn is_clk_comment(comment: &str, ms: u64) -> bool {
    let mut buf = [0u8; 32];
    let mut w = words(comment);
    w.next() == Some("[%clk") && w.next() == Some(clk_time(ms, &mut buf)) && w.next().is_none()
}

/// Why a game ended, when the board says it: checkmate, stalemate, insufficient material.
fn board_reason(end: &Position) -> Option<&'static str> {
    if end.is_checkmate() {
        Some("checkmate")
    } else if end.is_stalemate() {
        Some("stalemate")
    } else if end.is_insufficient_material() {
        Some("insufficient material")
    } else {
        None
    }
}

/// The result the board gives a game that ends in `end`: checkmate (the side to move lost),
/// stalemate or insufficient material (a draw); `None` while the game can go on.
fn board_result(end: &Position) -> Option<GameResult> {
    if end.is_checkmate() {
        Some(GameResult::win(!end.turn()))
    } else if end.is_stalemate() || end.is_insufficient_material() {
        Some(GameResult::Draw)
    } else {
        None
    }
}

/// A game read from PGN as a game to import. The reason of a finished game is what the
/// board shows (checkmate, stalemate, insufficient material), else the `Termination` tag,
/// else empty; a game without a result (`*`) that the board has ended gets the board's.
/// Imported moves have `played_at_ms` 0 (unknown). The annotated movetext is
/// kept when the moves with their clocks would not give the same movetext back.
pub fn from_pgn(game: &Game) -> ImportGame {
    let tag = |n: &str| game.tags.get(n).map(str::to_owned);
    let time_control = tag("TimeControl").filter(|t| !matches!(t.trim(), "" | "?" | "-"));
    let initial = time_control.as_deref().and_then(initial_clocks);
    let new = NewGame {
        start_fen: game.start.fen(),
        start_id: game.start_id().map(|id| id.get()),
        white: tag("White").unwrap_or_else(|| "?".into()),
        black: tag("Black").unwrap_or_else(|| "?".into()),
        time_control,
        clocks: initial,
        tags: game
            .tags
            .iter()
            .filter(|(n, _)| !DERIVED_TAGS.contains(n))
            .map(|(n, v)| (n.to_owned(), v.to_owned()))
            .collect(),
    };
    // Clocks: each [%clk] gives the mover's time; the other side's is carried from before.
    let any_clk = game
        .moves
        .nodes
        .iter()
        .any(|n| n.comments.iter().any(|c| parse_clk(c).is_some()));
    let mut running = initial;
    let mut pos = game.start;
    let mut moves = Vec::with_capacity(game.moves.nodes.len());
    // Whether the moves with their clocks give this movetext back (as `plain_line` would
    // make it): then there is nothing more to keep.
    let mut plain = game.moves.comment.is_empty();
    let mut index = Some(crate::explorer::IndexWalk::new(&pos));
    for node in &game.moves.nodes {
        let white_moved = pos.turn() == chess960_core::Color::White;
        let clocks = if any_clk {
            if let Some(t) = node.comments.iter().find_map(|c| parse_clk(c)) {
                let mut c = running.unwrap_or(Clocks {
                    white_ms: t,
                    black_ms: t,
                });
                if white_moved {
                    c.white_ms = t;
                } else {
                    c.black_ms = t;
                }
                running = Some(c);
            }
            running
        } else {
            None
        };
        let clock = clocks.map(|c| if white_moved { c.white_ms } else { c.black_ms });
        plain = plain
            && node.nags.is_empty()
            && node.variations.is_empty()
            && node.comments.len() == usize::from(clock.is_some())
            && node
                .comments
                .first()
                .zip(clock)
                .is_none_or(|(c, ms)| is_clk_comment(c, ms));
        let record = MoveRecord::of(&pos, node.mv, clocks, 0);
        let code = crate::explorer::encode_move(&record.uci);
        moves.push(record);
        pos = pos.play(node.mv);
        // A move the index cannot encode (none is legal) leaves the entries to the store.
        match (code, &mut index) {
            (Some(code), Some(walk)) => walk.step(code, &pos),
            _ => index = None,
        }
    }
    let finish = match game.result {
        // No result given (`*`, or pasted moves without a marker): a game the board has ended
        // gets the board's result, as lichess's import gives it.
        GameResult::Unknown => board_result(&pos).map(|result| Finish {
            result,
            reason: board_reason(&pos).unwrap_or_default().to_owned(),
        }),
        r => Some(Finish {
            result: r,
            reason: board_reason(&pos)
                .map(str::to_owned)
                .or_else(|| tag("Termination"))
                .unwrap_or_default(),
        }),
    };
    let movetext =
        (!plain).then(|| movetext_to_string(&game.moves, &game.start, &WriteOptions::default()));
    ImportGame {
        game: new,
        moves,
        finish,
        movetext,
        index: index.map(crate::explorer::IndexWalk::finish),
    }
}

/// A comment's words: the PGN writer re-wraps a comment's words, so that only the words count
/// (a `[%clk …]` comment it broke across two lines reads back with a line break inside).
/// Words are separated as the writer separates them.
fn words(s: &str) -> impl Iterator<Item = &str> {
    s.split([' ', '\t', '\n', '\r', '\x0B', '\x0C', '}'])
        .filter(|w| !w.is_empty())
}

/// The main line of stored moves as a PGN line, each move's clock as a `[%clk]` comment;
/// the half-move (from 1) and reason of a move that cannot be played.
fn plain_line(start: &Position, moves: &[MoveRecord]) -> Result<Line, String> {
    let mut line = Line::default();
    let mut pos = *start;
    for (i, m) in moves.iter().enumerate() {
        let node = plain_node(&pos, m).map_err(|e| format!("half-move {}: {e}", i + 1))?;
        pos.play_mut(node.mv);
        line.nodes.push(node);
    }
    Ok(line)
}

/// One stored move as a PGN node with its clock comment.
fn plain_node(pos: &Position, m: &MoveRecord) -> Result<Node, chess960_core::UciError> {
    let mv = pos.parse_uci(&m.uci, CastlingMode::Chess960)?;
    let mut node = Node::new(mv);
    if let Some(c) = m.clocks {
        let mover = if pos.turn() == chess960_core::Color::White {
            c.white_ms
        } else {
            c.black_ms
        };
        node.comments.push(format_clk(mover));
    }
    Ok(node)
}

/// The stored game's moves with their annotations: the kept movetext as far as its main
/// line agrees with the move rows (which stay the authority: moves appended or taken back
/// since the import are honoured), then the remaining rows as plain moves.
fn annotated_line(stored: &StoredGame, start: &Position, text: &str) -> Result<Line, String> {
    let mut line = read_movetext(text, *start).map_err(|e| {
        format!(
            "kept movetext, line {}, column {}: {}",
            e.line,
            e.column,
            e.reason()
        )
    })?;
    let mut pos = *start;
    let mut agree = 0;
    for (node, m) in line.nodes.iter().zip(&stored.moves) {
        if node.mv.to_uci(CastlingMode::Chess960) != m.uci {
            break;
        }
        pos.play_mut(node.mv);
        agree += 1;
    }
    line.nodes.truncate(agree);
    for (i, m) in stored.moves.iter().enumerate().skip(agree) {
        let node = plain_node(&pos, m).map_err(|e| format!("half-move {}: {e}", i + 1))?;
        pos.play_mut(node.mv);
        line.nodes.push(node);
    }
    Ok(line)
}

/// A stored game as a PGN game: tags (White, Black and TimeControl from their columns; a
/// `Termination` tag from the reason when the game has none and the board does not show it),
/// the moves with their comments, NAGs and variations as imported (see
/// [`StoredGame::movetext`]) or else with their clocks as `[%clk]` comments, the result. The
/// variant is Chess960 when a `Variant` tag says so or the start position needs it, else
/// classical chess.
pub fn to_pgn(stored: &StoredGame) -> Result<Game, StoreError> {
    let g = &stored.game;
    let bad = |what: String| StoreError::Corrupt {
        detail: format!("game {}: {what}", stored.id),
    };
    let start = Position::from_fen(&g.start_fen)
        .map_err(|e| bad(format!("start FEN '{}': {e}", g.start_fen)))?;
    let tagged = g
        .tags
        .iter()
        .find(|(n, _)| n == "Variant")
        .map(|(_, v)| classify(v));
    let variant = if tagged == Some(VariantTag::Chess960) || needs_chess960(&start) {
        Variant::Chess960
    } else {
        Variant::Standard
    };
    let mut game = Game::new(start, variant);
    game.tags.set("White", g.white.clone());
    game.tags.set("Black", g.black.clone());
    for (n, v) in &g.tags {
        game.tags.set(n.clone(), v.clone());
    }
    if let Some(tc) = &g.time_control {
        game.tags.set("TimeControl", tc.clone());
    }
    game.moves = match &stored.movetext {
        Some(text) => annotated_line(stored, &start, text),
        None => plain_line(&start, &stored.moves),
    }
    .map_err(bad)?;
    let end = game.end_position();
    if let Some(f) = &stored.finish {
        game.result = f.result;
        if !f.reason.is_empty()
            && game.tags.get("Termination").is_none()
            && board_reason(&end) != Some(f.reason.as_str())
        {
            game.tags.set("Termination", f.reason.clone());
        }
    }
    Ok(game)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clocks_read_and_written() {
        assert_eq!(parse_clk("[%clk 0:05:00]"), Some(300_000));
        assert_eq!(parse_clk("x [%clk 1:00:01.5] y"), Some(3_601_500));
        assert_eq!(parse_clk("[%clk nope]"), None);
        assert_eq!(parse_clk("no clock"), None);
        for ms in [0, 1, 999, 1000, 59_999, 3_600_000, 3_601_500, 7_322_040] {
            assert_eq!(parse_clk(&format_clk(ms)), Some(ms / 1000 * 1000), "{ms}");
        }
        assert_eq!(format_clk(300_000), "[%clk 0:05:00]");
        assert_eq!(format_clk(61_500), "[%clk 0:01:01]");
        assert_eq!(format_clk(612_840), "[%clk 0:10:12]");
    }

    /// `from_pgn` decides "nothing to keep beside the moves" without building the line the
    /// moves give back; that decision must be the comparison of what the writer makes of
    /// the game's line and of that line.
    #[test]
    fn movetext_is_kept_exactly_when_the_moves_do_not_give_it_back() {
        let cases = [
            ("", "1. e4 e5 *", false),
            (
                "[TimeControl \"60+0\"]",
                "1. e4 { [%clk 0:00:59] } e5 { [%clk 0:00:58] } *",
                false,
            ),
            (
                "[TimeControl \"60+0\"]",
                "1. e4 { [%clk 0:00:59] } e5 *",
                true,
            ),
            (
                "",
                "1. e4 { [%clk 0:00:59] } e5 { [%clk 0:00:58] } *",
                false,
            ),
            ("", "1. e4 { [%clk 0:00:59.0] } e5 *", true),
            (
                "",
                "1. e4 { [%clk\n0:00:59] } e5 { \t[%clk 0:00:58] } *",
                false,
            ),
            ("", "1. e4 { [%clk 0:00:59] and more } *", true),
            ("", "1. e4 { a } { [%clk 0:00:59] } *", true),
            ("", "{ first } 1. e4 *", true),
            ("", "1. e4 $1 *", true),
            ("", "1. e4 (1. d4) *", true),
        ];
        for (tags, moves, kept) in cases {
            let text = format!("{tags}\n\n{moves}\n");
            let game = chess960_pgn::Reader::new(text.as_bytes())
                .read_game()
                .unwrap()
                .unwrap()
                .unwrap();
            let import = from_pgn(&game);
            let plain = plain_line(&game.start, &import.moves).unwrap();
            let write =
                |line: &Line| movetext_to_string(line, &game.start, &WriteOptions::default());
            assert_eq!(
                import.movetext.is_some(),
                write(&plain) != write(&game.moves),
                "{text}"
            );
            assert_eq!(import.movetext.is_some(), kept, "{text}");
        }
    }

    /// The integer reading of whole-second clocks gives what the floating-point one gives, and
    /// the clock comment is written as `format!` wrote it before it was written by hand.
    #[test]
    fn clock_fast_paths_agree_with_the_general_ones() {
        for text in [
            "0:05:00",
            "1:00:01",
            "59",
            "3:07",
            "0:0:0",
            "123456789:59:59",
            "999999999:999999999:999999999",
            "00:00:07",
            "1:00:01.5",
            "1:2:3:4",
            "1::2",
            "",
            "12a",
            "1234567890",
            "-1:00",
            "+1",
        ] {
            if let Some(ms) = whole_seconds_clk(text) {
                assert_eq!(Some(ms), any_clk(text), "{text}");
            }
        }
        assert_eq!(whole_seconds_clk("1:00:01.5"), None);
        assert_eq!(whole_seconds_clk("1:2:3:4"), None);
        let mut ms = 0u64;
        while ms < u64::MAX / 3 {
            let (h, m, s) = (ms / 3_600_000, ms / 60_000 % 60, ms / 1000 % 60);
            let text = format!("[%clk {h}:{m:02}:{s:02}]");
            assert_eq!(format_clk(ms), text);
            assert!(is_clk_comment(&format!(" {text} "), ms));
            assert!(is_clk_comment(&text.replace(' ', "\n\t"), ms));
            assert!(!is_clk_comment(&format!("{text} x"), ms));
            assert!(!is_clk_comment(&text, ms + 1000));
            ms = ms * 3 + 7_919;
        }
    }

    #[test]
    fn time_controls() {
        assert_eq!(
            initial_clocks("300+3"),
            Some(Clocks {
                white_ms: 300_000,
                black_ms: 300_000
            })
        );
        assert_eq!(initial_clocks("60").map(|c| c.black_ms), Some(60_000));
        assert_eq!(initial_clocks("40/7200:3600"), None);
        assert_eq!(initial_clocks("-"), None);
    }
}
