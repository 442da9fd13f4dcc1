//! Game records as PGN, written by chess960-pgn's writer (the product's one PGN writer).
//!
//! Tags: the seven-tag roster; `Variant "Chess960"`, `SetUp "1"`, `FEN` (X-FEN) from the
//! writer; `TimeControl` in the PGN standard's form (`40/60+0.6`, `60+0.6`, `-` without a
//! clock; `WhiteTimeControl`/`BlackTimeControl` too when the engines' differ); `Termination`
//! (PGN standard values); `PlyCount`; `GameDuration`. Moves carry cutechess's comments
//! (`{+0.35/12 0.8s}`, `{book}`), and the reason the game ended is the last comment.

use crate::referee::GameRecord;
use chess960_pgn::{game_to_string, Game, Node, Variant, WriteOptions};
use std::time::SystemTime;

/// What goes into every game's tags besides the game itself.
#[derive(Debug, Clone, Default)]
pub struct PgnContext {
    /// `Event`.
    pub event: String,
    /// `Site`.
    pub site: String,
    /// Leave out the per-move comments (`-pgnout FILE min`).
    pub minimal: bool,
}

/// The record as a chess960-pgn game.
pub fn to_pgn_game(record: &GameRecord, ctx: &PgnContext) -> Game {
    let setup = &record.setup;
    let mut game = Game::new(setup.opening.start, Variant::Chess960);
    let tags = &mut game.tags;
    tags.set("Event", ctx.event.as_str());
    tags.set("Site", if ctx.site.is_empty() { "?" } else { &ctx.site });
    tags.set("Date", pgn_date(record.started));
    tags.set("Round", setup.round.to_string());
    tags.set("White", setup.names[0].as_str());
    tags.set("Black", setup.names[1].as_str());
    let (w, b) = (setup.limits[0].pgn(), setup.limits[1].pgn());
    if w == b {
        tags.set("TimeControl", w);
    } else {
        tags.set("TimeControl", "?");
        tags.set("WhiteTimeControl", w);
        tags.set("BlackTimeControl", b);
    }
    tags.set("Termination", record.termination.pgn());
    tags.set("PlyCount", record.moves.len().to_string());
    tags.set("GameDuration", hms(record.duration.as_secs()));

    for m in &record.moves {
        let mut node = Node::new(m.mv);
        if !ctx.minimal {
            node.comments.push(m.comment());
        }
        game.moves.nodes.push(node);
    }
    if !record.reason.is_empty() {
        match game.moves.nodes.last_mut() {
            Some(last) => last.comments.push(record.reason.clone()),
            None => game.moves.comment.push(record.reason.clone()),
        }
    }
    game.result = record.result;
    game
}

/// The PGN text of one game, followed by a blank line.
pub fn pgn_text(record: &GameRecord, ctx: &PgnContext) -> String {
    game_to_string(&to_pgn_game(record, ctx), &WriteOptions::default())
}

/// `YYYY.MM.DD` (UTC) of a time.
pub fn pgn_date(t: SystemTime) -> String {
    chess960_pgn::date::of(t)
}

/// `HH:MM:SS`.
pub fn hms(secs: u64) -> String {
    format!("{:02}:{:02}:{:02}", secs / 3600, secs / 60 % 60, secs % 60)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{Score, SearchInfo};
    use crate::referee::{
        Adjudication, GameResult, GameSetup, MoveRecord, Opening, TerminationKind,
    };
    use crate::timecontrol::{parse_tc, Limits};
    use chess960_core::StartId;
    use std::time::{Duration, UNIX_EPOCH};

    #[test]
    fn dates() {
        assert_eq!(hms(3725), "01:02:05");
    }

    #[test]
    fn a_game_as_pgn() {
        let opening = Opening::from_id(StartId::new(0).unwrap());
        let pos = opening.start;
        let e4 = pos.parse_san("e4").unwrap();
        let limits = Limits {
            clock: parse_tc("40/60+0.6").unwrap(),
            ..Limits::default()
        };
        let record = GameRecord {
            setup: GameSetup {
                number: 1,
                round: 2,
                opening,
                names: ["A".into(), "B".into()],
                limits: [limits, limits],
                timeouts: [Duration::from_secs(1); 2],
                adjudication: Adjudication::default(),
            },
            moves: vec![MoveRecord {
                mv: e4,
                san: "e4".into(),
                book: false,
                info: SearchInfo {
                    score: Some(Score::Cp(35)),
                    depth: Some(12),
                    ..SearchInfo::default()
                },
                elapsed: Duration::from_millis(800),
            }],
            result: GameResult::BlackWins,
            termination: TerminationKind::Abandoned,
            reason: "White's engine crashed (exit status 3)".into(),
            fault: None,
            started: UNIX_EPOCH,
            duration: Duration::from_secs(3),
        };
        let ctx = PgnContext {
            event: "Test".into(),
            site: String::new(),
            minimal: false,
        };
        let text = pgn_text(&record, &ctx);
        for want in [
            "[Event \"Test\"]",
            "[Date \"1970.01.01\"]",
            "[Round \"2\"]",
            "[Result \"0-1\"]",
            "[Variant \"Chess960\"]",
            "[SetUp \"1\"]",
            "[FEN \"bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1\"]",
            "[TimeControl \"40/60+0.6\"]",
            "[Termination \"abandoned\"]",
            "[PlyCount \"1\"]",
            "[GameDuration \"00:00:03\"]",
            "1. e4 { +0.35/12 0.8s } { White's engine crashed (exit status 3) } 0-1",
        ] {
            assert!(text.contains(want), "missing {want} in\n{text}");
        }
        // The result round-trips through chess960-pgn's reader.
        let mut r = chess960_pgn::Reader::new(text.as_bytes());
        let back = r.read_game().unwrap().unwrap().unwrap();
        assert_eq!(back.start_id(), Some(StartId::new(0).unwrap()));
        assert_eq!(back.result, GameResult::BlackWins);
    }
}
