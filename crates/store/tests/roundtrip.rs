//! Import and export of real PGN files (the shared test data): every good game comes back
//! with its start position, moves, comments, NAGs, variations, result and tags; exporting
//! and importing again finds only duplicates; a second database built from the export has
//! the same statistics and exports the same bytes.

mod common;

use chess960_pgn::{movetext_to_string, Game, Reader, WriteOptions};
use chess960_store::pgn::{from_pgn, to_pgn};
use chess960_store::{GameFilter, GameStore, ImportOutcome};
use common::{data_dir, scratch};
use std::path::PathBuf;

fn files() -> Vec<PathBuf> {
    let pgn = data_dir().join("pgn");
    let mut v: Vec<PathBuf> = std::fs::read_dir(pgn.join("tcec"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    v.sort();
    v.push(pgn.join("fatics/chess960.pgn"));
    v.push(pgn.join("python-chess/cutechess-fischerrandom.pgn"));
    v.push(pgn.join("derived/chess960-explorer_chess960_database_terminated.pgn"));
    v
}

fn read(text: &[u8]) -> (Vec<Game>, usize) {
    let mut r = Reader::new(text);
    let (mut good, mut bad) = (Vec::new(), 0);
    while let Some(g) = r.read_game().unwrap() {
        match g {
            Ok(g) => good.push(g),
            Err(_) => bad += 1,
        }
    }
    (good, bad)
}

/// Every game of the store as PGN, oldest first.
fn export(store: &dyn GameStore) -> Vec<u8> {
    let mut text = Vec::new();
    let mut w = chess960_pgn::Writer::new(&mut text, Default::default());
    store
        .for_each_game(&GameFilter::default(), &mut |g| {
            w.write_game(&to_pgn(&g).unwrap()).unwrap();
            true
        })
        .unwrap();
    w.into_inner().unwrap();
    text
}

#[test]
fn real_pgn_round_trip() {
    common::each_backend(|store| {
        let _dir = scratch();
        let mut originals = Vec::new();
        let mut bad = 0;
        for f in files() {
            let (good, b) = read(&std::fs::read(&f).unwrap());
            originals.extend(good);
            bad += b;
        }
        // The Double-FRC file's games are refused by the reader, not imported.
        assert_eq!(bad, 10);
        assert!(originals.len() > 4800);
        let mut kept = Vec::new();
        for chunk in originals.chunks(500) {
            let batch: Vec<_> = chunk.iter().map(from_pgn).collect();
            for (g, outcome) in chunk.iter().zip(store.import_games(&batch).unwrap()) {
                if let ImportOutcome::Added(_) = outcome {
                    kept.push(g.clone());
                }
            }
        }
        // No game is a duplicate of another. (The tournament database has 20 pairs of games
        // with the same players, date, round and result, one of each pair from the event
        // "Champions Chess960 G30", the other from "Champions Chess960 G5": the Event tag tells
        // them apart.)
        assert_eq!(originals.len(), kept.len());
        assert_eq!(
            store.count(&GameFilter::default()).unwrap(),
            kept.len() as u64
        );

        // Export everything, oldest first, and read it back.
        let text = export(store.store());
        let (back, bad) = read(&text);
        assert_eq!(bad, 0);
        let options = WriteOptions::default();
        assert_eq!(back.len(), kept.len());
        let mut with_moves = 0;
        for (a, b) in kept.iter().zip(&back) {
            assert_eq!(a.start, b.start);
            assert_eq!(a.variant, b.variant);
            // Every comment, NAG and variation, as the writer normalises them.
            assert_eq!(
                movetext_to_string(&a.moves, &a.start, &options),
                movetext_to_string(&b.moves, &b.start, &options)
            );
            assert_eq!(a.result, b.result);
            for (name, value) in a.tags.iter() {
                if !matches!(name, "Variant" | "SetUp" | "FEN" | "Result") {
                    assert_eq!(b.tags.get(name), Some(value), "tag {name}");
                }
            }
            with_moves += usize::from(!a.moves.nodes.is_empty());
        }
        assert!(with_moves >= 450);

        // Importing the export again adds nothing.
        let again: Vec<_> = back.iter().map(from_pgn).collect();
        let outcomes = store.import_games(&again).unwrap();
        for (i, o) in outcomes.iter().enumerate() {
            assert!(
                matches!(o, ImportOutcome::Duplicate(_)),
                "{i}: {:?}",
                back[i].tags
            );
        }

        // A fresh database from the export has the same games per position.
        let other = common::backends()
            .into_iter()
            .find(|b| b.name == store.name)
            .unwrap();
        let outcomes = other.import_games(&again).unwrap();
        assert!(outcomes
            .iter()
            .all(|o| matches!(o, ImportOutcome::Added(_))));
        assert_eq!(
            other.position_counts(&GameFilter::default()).unwrap(),
            store.position_counts(&GameFilter::default()).unwrap()
        );
        // Filters behave the same in both.
        let f = GameFilter {
            start_id: Some(back[0].start_id().unwrap().get()),
            ..Default::default()
        };
        assert_eq!(other.count(&f).unwrap(), store.count(&f).unwrap());
        assert!(store.count(&f).unwrap() >= 1);

        // And it exports the same bytes.
        let again_text = export(other.store());
        assert!(
            again_text == text,
            "the second export differs from the first"
        );
    });
}
