//! The position index and the explorer, against a brute-force count: every game replayed
//! from its start, positions compared by their FEN (placement, side to move, castling rights,
//! en passant), not by Zobrist key, so the reference shares nothing with the index but the
//! rules. Checked after every kind of change to the games (create, append, takeback, finish,
//! delete, import) and after migrating a version 3 database, and for moves handed over with
//! their index step as for moves the store replays.

mod common;

use chess960_core::{CastlingMode, Position, StartId};
use chess960_players::password::StoredHash;
use chess960_store::explorer::{self, ExplorerMove, IndexStep, MAX_GAMES};
use chess960_store::players::NewUser;
use chess960_store::sqlite::SCHEMA_VERSION;
use chess960_store::GamePlayers;
use chess960_store::{
    Finish, GameFilter, GameId, GameResult, GameStore, ImportGame, MoveRecord, Results, Seats,
    SqliteStore, StoreError, StoredGame,
};
use common::{new_game, scratch};
use std::collections::BTreeMap;
use std::path::Path;

/// A position as the repetition rule sees it: the FEN without its two move counters.
fn identity(pos: &Position) -> String {
    pos.fen().split(' ').take(4).collect::<Vec<_>>().join(" ")
}

/// What the explorer should say about `target`, counted from every stored game.
#[derive(Debug, Default, PartialEq)]
struct Expected {
    total: Results,
    ended: Results,
    moves: BTreeMap<String, Results>,
    /// Ids of the games that reached it, newest first.
    games: Vec<i64>,
}

fn add(r: &mut Results, result: Option<&str>) {
    r.games += 1;
    match result {
        Some("1-0") => r.white += 1,
        Some("1/2-1/2") => r.draws += 1,
        Some("0-1") => r.black += 1,
        _ => r.unfinished += 1,
    }
}

fn all_games(store: &dyn GameStore) -> Vec<StoredGame> {
    let mut out = Vec::new();
    store
        .for_each_game(&GameFilter::default(), &mut |g| {
            out.push(g);
            true
        })
        .unwrap();
    out
}

/// The identities of the positions of a game, from its start to after its last move.
fn replayed(g: &StoredGame) -> Vec<String> {
    let mut pos = Position::from_fen(&g.game.start_fen).unwrap();
    let mut out = vec![identity(&pos)];
    for m in &g.moves {
        pos = pos.play(pos.parse_uci(&m.uci, CastlingMode::Chess960).unwrap());
        out.push(identity(&pos));
    }
    out
}

fn brute_force(games: &[(StoredGame, Vec<String>)], target: &Position) -> Expected {
    let want = identity(target);
    let mut e = Expected::default();
    for (g, line) in games.iter().rev() {
        // Aborted games count nowhere: neither in the totals nor in the games listed.
        if g.finish.as_ref().is_some_and(Finish::is_aborted) {
            continue;
        }
        let result = g.finish.as_ref().map(|f| f.result.as_str());
        let Some(ply) = line.iter().position(|p| *p == want) else {
            continue;
        };
        e.games.push(g.id.0);
        add(&mut e.total, result);
        match g.moves.get(ply) {
            Some(m) => add(e.moves.entry(m.uci.clone()).or_default(), result),
            None => add(&mut e.ended, result),
        }
    }
    e
}

/// Every position of every stored game, once.
fn every_position(games: &[StoredGame]) -> Vec<Position> {
    let mut seen = std::collections::HashSet::new();
    let mut out = Vec::new();
    for g in games {
        let mut pos = Position::from_fen(&g.game.start_fen).unwrap();
        if seen.insert(identity(&pos)) {
            out.push(pos);
        }
        for m in &g.moves {
            pos = pos.play(pos.parse_uci(&m.uci, CastlingMode::Chess960).unwrap());
            if seen.insert(identity(&pos)) {
                out.push(pos);
            }
        }
    }
    out
}

/// The explorer agrees with the brute-force count on every position of every stored game,
/// and on a position no game reached.
fn check_all(store: &dyn GameStore) -> usize {
    let games = all_games(store);
    let positions = every_position(&games);
    let games: Vec<(StoredGame, Vec<String>)> = games
        .into_iter()
        .map(|g| {
            let line = replayed(&g);
            (g, line)
        })
        .collect();
    for pos in &positions {
        let want = brute_force(&games, pos);
        let got = store.explore(pos, MAX_GAMES).unwrap();
        let moves: BTreeMap<String, Results> = got
            .moves
            .iter()
            .map(|m| (m.uci.clone(), m.results))
            .collect();
        let fen = pos.fen();
        assert_eq!(moves, want.moves, "moves of {fen}");
        assert_eq!(got.results, want.total, "totals of {fen}");
        assert_eq!(got.ended, want.ended, "games ended in {fen}");
        let ids: Vec<i64> = got.games.iter().map(|g| g.id.0).collect();
        assert_eq!(ids, want.games, "games reaching {fen}");
        for m in &got.moves {
            let mv = pos.parse_uci(&m.uci, CastlingMode::Chess960).unwrap();
            assert_eq!(m.san, pos.san(mv));
        }
        assert!(got
            .moves
            .windows(2)
            .all(|w| w[0].results.games >= w[1].results.games));
    }
    let nowhere = Position::from_fen("4k3/8/8/8/8/8/8/4K2R w K - 0 1").unwrap();
    let got = store.explore(&nowhere, 10).unwrap();
    assert_eq!(got.results, Results::default());
    assert!(got.moves.is_empty() && got.games.is_empty());
    positions.len()
}

/// Move `ply` of game `seed`: the ((seed >> ply) & 1)-th legal move in UCI order, so games
/// of nearby seeds share their first moves and branch like a binary tree.
fn branching_move(pos: &Position, ply: u32, seed: u32) -> Option<MoveRecord> {
    let mut moves: Vec<_> = pos.legal_moves().iter().copied().collect();
    moves.sort_by_key(|m| m.to_uci(CastlingMode::Chess960));
    let m = *moves.get(((seed >> (ply % 32)) & 1) as usize % moves.len().max(1))?;
    Some(MoveRecord::of(pos, m, None, 0))
}

fn line(start: &Position, seed: u32, plies: u32) -> Vec<MoveRecord> {
    let mut pos = *start;
    let mut out = Vec::new();
    for ply in 0..plies {
        let Some(mv) = branching_move(&pos, ply, seed) else {
            break;
        };
        pos = pos.play(pos.parse_uci(&mv.uci, CastlingMode::Chess960).unwrap());
        out.push(mv);
    }
    out
}

fn finish(result: &str) -> Finish {
    Finish {
        result: GameResult::parse(result).expect("a result"),
        reason: "test".into(),
    }
}

const RESULTS: [&str; 4] = ["1-0", "0-1", "1/2-1/2", "*"];

#[test]
fn the_index_follows_every_change_to_the_games() {
    common::each_backend(|store| {
        let start = StartId::new(518).unwrap().position();

        // Games played move by move (autosave), some finished.
        let mut ids = Vec::new();
        for seed in 0..8u32 {
            let (id, _) = store.create_game(&new_game(518, "W", "B")).unwrap();
            for (ply, mv) in line(&start, seed, 6 + seed).iter().enumerate() {
                store.append_move(id, ply as u32, mv).unwrap();
            }
            if let Some(r) = RESULTS.get(seed as usize % 4).filter(|r| **r != "*") {
                store.finish_game(id, &finish(r)).unwrap();
            }
            ids.push(id);
        }
        // A game with no move yet, and one begun with moves.
        store.create_game(&new_game(518, "W", "B")).unwrap();
        store
            .create_game_with_moves(&new_game(518, "W", "B"), &line(&start, 3, 9), &Seats::NONE)
            .unwrap();
        // A game that comes back to the start position (Nf3 Nf6 Ng1 Ng8) and then plays e4: the
        // start counts it once, with its first move.
        let back = ["g1f3", "g8f6", "f3g1", "f6g8", "e2e4"];
        let (rep, _) = store.create_game(&new_game(518, "W", "B")).unwrap();
        let mut pos = start;
        for (ply, uci) in back.iter().enumerate() {
            let m = pos.parse_uci(uci, CastlingMode::Chess960).unwrap();
            store
                .append_move(rep, ply as u32, &MoveRecord::of(&pos, m, None, 0))
                .unwrap();
            pos = pos.play(m);
        }
        store.finish_game(rep, &finish("0-1")).unwrap();
        // Two aborted games: one with White's first move, one with none.
        let (aborted, _) = store.create_game(&new_game(518, "W", "B")).unwrap();
        let first = line(&start, 1, 1);
        store.append_move(aborted, 0, &first[0]).unwrap();
        store.finish_game(aborted, &Finish::aborted()).unwrap();
        let (aborted_empty, _) = store.create_game(&new_game(518, "W", "B")).unwrap();
        store
            .finish_game(aborted_empty, &Finish::aborted())
            .unwrap();
        assert!(check_all(store.store()) > 20);
        let at_start = store.explore(&start, MAX_GAMES).unwrap();
        assert_eq!(
            at_start.results.games, 11,
            "the aborted games are not counted"
        );
        assert_eq!(at_start.ended.games, 1, "the game without a move");

        // Takebacks: to the middle of a finished game (which clears its result), to nothing.
        store.truncate_moves(ids[4], 3).unwrap();
        store.truncate_moves(ids[5], 0).unwrap();
        check_all(store.store());
        // Continued after the takeback along another line, then finished.
        let other = line(&start, 0x5555, 8);
        let g = store.game(ids[4]).unwrap().unwrap();
        let mut pos = common::replay(&g.game.start_fen, &g.moves);
        for ply in 3..8u32 {
            let mv = branching_move(&pos, ply, 0x5555).unwrap();
            store.append_move(ids[4], ply, &mv).unwrap();
            pos = pos.play(pos.parse_uci(&mv.uci, CastlingMode::Chess960).unwrap());
        }
        assert_ne!(store.game(ids[4]).unwrap().unwrap().moves, other);
        store.finish_game(ids[4], &finish("1/2-1/2")).unwrap();
        check_all(store.store());

        // Deleting games removes their rows: nothing is left behind under any key.
        store.delete_game(ids[0]).unwrap();
        store.delete_game(rep).unwrap();
        check_all(store.store());

        // Import: games of another start position, and the same start again.
        let other_start = StartId::new(7).unwrap().position();
        let batch: Vec<ImportGame> = (0..12u32)
            .map(|seed| {
                let (s, id) = if seed % 3 == 0 {
                    (start, 518)
                } else {
                    (other_start, 7)
                };
                ImportGame {
                    game: {
                        let mut g = new_game(id, &format!("P{seed}"), "Q");
                        g.tags.push(("Round".into(), seed.to_string()));
                        g
                    },
                    moves: line(&s, seed * 5, 4 + seed % 7),
                    finish: RESULTS
                        .get(seed as usize % 4)
                        .filter(|r| **r != "*")
                        .map(|r| finish(r)),
                    movetext: None,
                    index: None,
                }
            })
            .collect();
        store.import_games(&batch).unwrap();
        let n = check_all(store.store());
        assert!(n > 60, "{n} positions");

        // Everything removed: the index is empty.
        for g in all_games(store.store()) {
            store.delete_game(g.id).unwrap();
        }
        assert_eq!(store.rows("positions"), 0);
    });
}

#[test]
fn counts_percentages_and_the_games_list() {
    common::each_backend(|store| {
        let start = StartId::new(518).unwrap().position();
        let play = |ucis: &[&str], result: Option<&str>| -> GameId {
            let mut pos = start;
            let mut moves = Vec::new();
            for u in ucis {
                let m = pos.parse_uci(u, CastlingMode::Chess960).unwrap();
                moves.push(MoveRecord::of(&pos, m, None, 0));
                pos = pos.play(m);
            }
            let (id, _) = store
                .create_game_with_moves(&new_game(518, "W", "B"), &moves, &Seats::NONE)
                .unwrap();
            if let Some(r) = result {
                store.finish_game(id, &finish(r)).unwrap();
            }
            id
        };
        play(&["e2e4", "e7e5"], Some("1-0"));
        play(&["e2e4", "c7c5"], Some("0-1"));
        play(&["e2e4", "e7e5"], Some("1/2-1/2"));
        play(&["d2d4"], Some("1-0"));
        let last = play(&["e2e4"], None);
        let got = store.explore(&start, 2).unwrap();
        assert_eq!(got.key, start.hash());
        assert_eq!(
            got.results,
            Results {
                games: 5,
                white: 2,
                draws: 1,
                black: 1,
                unfinished: 1
            }
        );
        assert_eq!(got.results.score(), Some(2.5 / 4.0));
        let e4 = &got.moves[0];
        assert_eq!((e4.uci.as_str(), e4.san.as_str()), ("e2e4", "e4"));
        assert_eq!(
            (
                e4.results.games,
                e4.results.white,
                e4.results.draws,
                e4.results.black,
                e4.results.unfinished
            ),
            (4, 1, 1, 1, 1)
        );
        assert_eq!(e4.results.score(), Some(0.5));
        assert_eq!(got.moves[1].san, "d4");
        assert_eq!(got.moves[1].results.score(), Some(1.0));
        // Newest first, as many as asked.
        assert_eq!(got.games.len(), 2);
        assert_eq!(got.games[0].id, last);
        assert!(got.games[0].id > got.games[1].id);
        // Black to move after 1. e4: the same counts seen from there.
        let after = start.play(start.parse_uci("e2e4", CastlingMode::Chess960).unwrap());
        let got = store.explore(&after, 10).unwrap();
        assert_eq!(got.results.games, 4);
        assert_eq!(got.ended.unfinished, 1);
        let sans: Vec<&str> = got.moves.iter().map(|m| m.san.as_str()).collect();
        assert_eq!(sans, ["e5", "c5"]);
    });
}

#[test]
fn aborted_games_are_neither_counted_nor_listed() {
    // Issue 40: the explorer and the games that reached a position counted aborted games
    // (shown as "no result yet"), which count nowhere else.
    common::each_backend(|store| {
        let start = StartId::new(518).unwrap().position();
        let e4 = start.parse_uci("e2e4", CastlingMode::Chess960).unwrap();
        // One player's games too (`?account=`): Ann plays White in each game.
        let players = store.player_store().expect("every backend keeps players");
        let (name, password) = (
            "ann".parse().unwrap(),
            StoredHash::from_stored("$argon2id$v=19$m=19456,t=2,p=1$salt$ann".into()),
        );
        let new_user = NewUser {
            name: &name,
            password: &password,
            admin: false,
            invite: None,
        };
        let ann = players
            .create_user(&new_user, 1_800_000_000_000)
            .unwrap()
            .id;
        let hers = GamePlayers {
            white: Some(ann),
            black: None,
            rated: None,
        };
        let game = |moved: bool, finish: Option<Finish>| -> GameId {
            let (id, _) = store.create_game(&new_game(518, "ann", "B")).unwrap();
            players.bind_players(id, hers).unwrap();
            if moved {
                store
                    .append_move(id, 0, &MoveRecord::of(&start, e4, None, 0))
                    .unwrap();
            }
            if let Some(f) = finish {
                store.finish_game(id, &f).unwrap();
            }
            id
        };
        let won = game(true, Some(finish("1-0")));
        let playing = game(true, None);
        game(true, Some(Finish::aborted()));
        game(false, Some(Finish::aborted()));
        let unfinished_only = Results {
            games: 2,
            white: 1,
            draws: 0,
            black: 0,
            unfinished: 1,
        };
        let check = |got: explorer::Explorer| {
            assert_eq!(got.results, unfinished_only);
            assert_eq!(
                got.ended,
                Results::default(),
                "the aborted game without a move"
            );
            assert_eq!(got.moves.len(), 1);
            assert_eq!(got.moves[0].results, unfinished_only);
            let ids: Vec<GameId> = got.games.iter().map(|g| g.id).collect();
            assert_eq!(ids, [playing, won]);
        };
        check(store.explore(&start, MAX_GAMES).unwrap());
        check(players.explore_account(&start, MAX_GAMES, ann).unwrap());
        let after = start.play(e4);
        for got in [
            store.explore(&after, MAX_GAMES).unwrap(),
            players.explore_account(&after, MAX_GAMES, ann).unwrap(),
        ] {
            assert_eq!(got.results, unfinished_only);
            assert_eq!(got.ended, unfinished_only);
            assert_eq!(got.games.len(), 2);
        }
    });
}

#[test]
fn zobrist_keys_are_stable_because_they_are_stored() {
    // The index stores core's Zobrist keys: if this test fails, the keys changed, and every
    // existing database needs a migration that rebuilds its position index (see
    // crates/store/src/explorer.rs) before the change may ship.
    let classical = StartId::new(518).unwrap().position();
    let after = ["e2e4", "c7c5", "e4e5", "d7d5"]
        .iter()
        .fold(classical, |p, u| {
            p.play(p.parse_uci(u, CastlingMode::Chess960).unwrap())
        });
    assert!(after.ep_square().is_some(), "exd6 e.p. is possible");
    let keys = [
        classical.hash(),
        StartId::new(0).unwrap().position().hash(),
        after.hash(),
    ];
    assert_eq!(keys, PINNED);
}

const PINNED: [u64; 3] = [
    14_975_953_474_172_594_932,
    10_941_180_200_723_347_636,
    10_097_533_889_196_168_097,
];

#[test]
fn a_version_3_database_is_indexed_when_opened() {
    // tests/data/v3.sqlite3 was written by `chess960 db import tests/data/v3.pgn` of schema
    // version 3 (main before issue 14): 60 generated games and 4 short games of the
    // classical start, one unfinished and coming back to the start position.
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data");
    let dir = scratch();
    let path = dir.path().join("v3.sqlite3");
    std::fs::copy(data.join("v3.sqlite3"), &path).unwrap();
    let version = |p: &Path| -> u32 {
        rusqlite::Connection::open(p)
            .unwrap()
            .query_row("PRAGMA user_version", [], |r| r.get(0))
            .unwrap()
    };
    assert_eq!(version(&path), 3);
    let store = SqliteStore::open(&path).unwrap();
    assert_eq!(SCHEMA_VERSION, 11);
    assert_eq!(store.count(&GameFilter::default()).unwrap(), 64);
    let n = check_all(&store);
    assert!(n > 3000, "{n} positions");
    let classical = StartId::new(518).unwrap().position();
    let got = store.explore(&classical, 10).unwrap();
    assert!(got.results.games >= 4);
    assert!(got.results.unfinished >= 1);
    drop(store);
    assert_eq!(version(&path), SCHEMA_VERSION);
}

#[test]
fn entries_of_a_stored_game_are_what_the_store_keeps() {
    // The rows of one game, read straight from the table, are its entries.
    let dir = scratch();
    let path = dir.path().join("g.sqlite3");
    let store = SqliteStore::open(&path).unwrap();
    let start = StartId::new(100).unwrap().position();
    let moves = line(&start, 0b1011, 12);
    let (id, _) = store
        .create_game_with_moves(&new_game(100, "W", "B"), &moves, &Seats::NONE)
        .unwrap();
    store.finish_game(id, &finish("0-1")).unwrap();
    drop(store);
    let conn = rusqlite::Connection::open(&path).unwrap();
    let mut rows: Vec<(i64, Option<i64>, Option<i64>)> = conn
        .prepare("SELECT key, move, result FROM positions WHERE game_id = ?1")
        .unwrap()
        .query_map([id.0], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    rows.sort();
    let mut want: Vec<(i64, Option<i64>, Option<i64>)> =
        explorer::entries(&start.fen(), moves.iter().map(|m| m.uci.as_str()))
            .iter()
            .map(|e| (e.key as i64, e.mv.map(i64::from), Some(0)))
            .collect();
    want.sort();
    assert!(rows.len() > 5);
    assert_eq!(rows, want);
}

fn import_batch(start: &Position, id: u16, seeds: std::ops::Range<u32>) -> Vec<ImportGame> {
    seeds
        .map(|seed| ImportGame {
            game: {
                let mut g = new_game(id, &format!("P{seed}"), "Q");
                g.tags.push(("Round".into(), seed.to_string()));
                g
            },
            moves: line(start, seed * 3, 5 + seed % 9),
            finish: RESULTS
                .get(seed as usize % 4)
                .filter(|r| **r != "*")
                .map(|r| finish(r)),
            movetext: None,
            index: None,
        })
        .collect()
}

#[test]
fn a_large_rebuild_shares_the_replay_among_threads_and_merges_in_batches() {
    // Enough pending games for the rebuild to replay them on several threads (256 and more)
    // and enough rows for the merge to hand over several batches and insert many rows a
    // statement, beside an index that has rows already. At most 80 games a start position,
    // so that every game list of the check is whole. Three ways: the games replayed; their
    // rows given by the importer (`ImportGame::index`, staged, nothing replayed); given, but
    // a pending game deleted before the index is written (the staged rows no longer fit:
    // everything is replayed).
    for way in ["replayed", "staged", "staged, then one deleted"] {
        let dir = scratch();
        let path = dir.path().join("g.sqlite3");
        let store = SqliteStore::open(&path).unwrap();
        for i in 0..20u32 {
            let id = 100 + 37 * i as u16;
            let start = StartId::new(id.into()).unwrap().position();
            let mut batch = import_batch(&start, id, i * 80..i * 80 + 80);
            if way != "replayed" {
                for g in &mut batch {
                    g.index = Some(explorer::entries(
                        &g.game.start_fen,
                        g.moves.iter().map(|m| m.uci.as_str()),
                    ));
                }
            }
            if i < 4 {
                store.import_games(&batch).unwrap();
            } else {
                store.import_games_unindexed(&batch).unwrap();
            }
        }
        let mut pending = 1280;
        if way == "staged, then one deleted" {
            store.delete_game(GameId(700)).unwrap();
            pending -= 1;
        }
        let mut steps = Vec::new();
        assert_eq!(
            store.index_pending(&mut |n| steps.push(n)).unwrap(),
            pending,
            "{way}"
        );
        assert_eq!(store.pending_index().unwrap(), 0, "{way}");
        check_all(&store);
    }
    // The staged rows are what the rebuild writes, unreplayed: a game imported with no
    // entries at all is then in no position of the index.
    let dir = scratch();
    let store = SqliteStore::open(dir.path().join("g.sqlite3")).unwrap();
    let start = StartId::new(518).unwrap().position();
    let mut batch = import_batch(&start, 518, 0..1);
    batch[0].index = Some(Vec::new());
    store.import_games_unindexed(&batch).unwrap();
    assert_eq!(store.index_pending(&mut |_| {}).unwrap(), 1);
    assert_eq!(store.explore(&start, 0).unwrap().results.games, 0);
}

#[test]
fn a_bulk_import_is_indexed_at_its_end_or_when_the_database_is_opened_again() {
    let dir = scratch();
    let path = dir.path().join("g.sqlite3");
    let start = StartId::new(518).unwrap().position();
    let store = SqliteStore::open(&path).unwrap();
    store
        .import_games(&import_batch(&start, 518, 0..5))
        .unwrap();
    store
        .import_games_unindexed(&import_batch(&start, 518, 5..20))
        .unwrap();
    store
        .import_games_unindexed(&import_batch(&start, 518, 20..30))
        .unwrap();
    assert_eq!(store.pending_index().unwrap(), 25);
    // Not counted yet.
    assert_eq!(store.explore(&start, 0).unwrap().results.games, 5);
    // A pending game deleted leaves nothing behind.
    store.delete_game(GameId(7)).unwrap();
    let mut steps = Vec::new();
    assert_eq!(store.index_pending(&mut |n| steps.push(n)).unwrap(), 24);
    assert_eq!(steps, [24]);
    assert_eq!(store.pending_index().unwrap(), 0);
    assert_eq!(store.explore(&start, 0).unwrap().results.games, 29);
    check_all(&store);

    // A bulk import killed before its end: the next opening writes the rows.
    store
        .import_games_unindexed(&import_batch(&start, 518, 30..40))
        .unwrap();
    drop(store);
    let store = SqliteStore::open(&path).unwrap();
    assert_eq!(store.pending_index().unwrap(), 0);
    assert_eq!(store.explore(&start, 0).unwrap().results.games, 39);
    check_all(&store);
}

#[test]
fn a_bulk_import_is_indexed_at_its_end_after_writes_to_its_games_on_every_backend() {
    common::each_backend(|b| {
        let start = StartId::new(518).unwrap().position();
        b.import_games(&import_batch(&start, 518, 0..5)).unwrap();
        let ids: Vec<GameId> = b
            .import_games_unindexed(&import_batch(&start, 518, 5..30))
            .unwrap()
            .into_iter()
            .map(|o| match o {
                chess960_store::ImportOutcome::Added(id) => id,
                other => panic!("{}: {other:?}", b.name),
            })
            .collect();
        assert_eq!(b.pending_index().unwrap(), 25, "{}", b.name);
        // Not counted yet.
        assert_eq!(b.explore(&start, 0).unwrap().results.games, 5, "{}", b.name);

        // Writes to pending games before their index is written: each must leave the index
        // as if the game had been indexed first. Seeds 5.. are the games in `ids`' order;
        // seed 7 (index 2) is unfinished ('*'), so it may take a move.
        b.delete_game(ids[0]).unwrap();
        b.truncate_moves(ids[1], 2).unwrap();
        let seed = 7u32;
        let moves = line(&start, seed * 3, 5 + seed % 9);
        let pos = common::replay(&start.fen(), &moves);
        let next = branching_move(&pos, moves.len() as u32, 1).expect("a legal move");
        b.append_move(ids[2], moves.len() as u32, &next).unwrap();
        b.finish_game(ids[2], &finish("1-0")).unwrap();
        b.truncate_moves(ids[3], 0).unwrap();
        b.set_start(
            ids[3],
            &StartId::new(100).unwrap().position().fen(),
            Some(100),
        )
        .unwrap();
        b.index_pending(&mut |_| {}).unwrap();
        assert_eq!(b.pending_index().unwrap(), 0, "{}", b.name);
        assert_eq!(
            b.explore(&start, 0).unwrap().results.games,
            28,
            "{}",
            b.name
        );
        check_all(b.store());

        // A bulk import killed before its end (its store never calls index_pending): rows
        // stay pending while another handle opens (PostgreSQL: the import still holds its
        // lock); the next opening after it is gone writes them.
        b.import_games_unindexed(&import_batch(&start, 518, 30..40))
            .unwrap();
        if b.name == "postgres" {
            let other = b.another();
            assert_eq!(other.pending_index().unwrap(), 10);
        }
        b.reopen();
        assert_eq!(b.pending_index().unwrap(), 0, "{}", b.name);
        assert_eq!(
            b.explore(&start, 0).unwrap().results.games,
            38,
            "{}",
            b.name
        );
        check_all(b.store());
    });
}

/// A move handed over with its index step ([`GameStore::append_move_indexed`]: the keys of the
/// positions before and after it, which whoever played it knows) gives the explorer what the
/// store's own replay of the game gives: the same game played both ways, compared after every
/// write under every position it reaches. Its line comes back to earlier positions (where the
/// first visit keeps its move), is taken back and played on along another line, and is
/// finished.
#[test]
fn a_move_handed_over_with_its_step_indexes_as_the_replay_does() {
    common::each_backend(|store| {
        let start = StartId::new(518).unwrap().position();
        // Nf3 Nf6 Ng1 Ng8 (the start again), Nf3 (again) Nc6 e4 Nb8 Ng1 Nc6.
        let ucis = [
            "g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "b8c6", "e2e4", "c6b8", "f3g1", "b8c6",
        ];
        // Every position the game reaches, whose explorer answers are compared.
        let mut positions = vec![start];
        let mut first = Vec::new();
        let mut pos = start;
        for uci in ucis {
            let m = pos.parse_uci(uci, CastlingMode::Chess960).unwrap();
            first.push(MoveRecord::of(&pos, m, None, 0));
            pos = pos.play(m);
            positions.push(pos);
        }
        // After a takeback to half-move 6, another line.
        let kept = 6;
        let mut branch = Vec::new();
        let mut pos = common::replay(&start.fen(), &first[..kept]);
        for ply in kept as u32..12 {
            let mv = branching_move(&pos, ply, 0x2a).unwrap();
            pos = pos.play(pos.parse_uci(&mv.uci, CastlingMode::Chess960).unwrap());
            branch.push(mv);
            positions.push(pos);
        }
        let seen = || -> Vec<(Results, Results, Vec<ExplorerMove>)> {
            (positions.iter())
                .map(|p| {
                    let e = store.explore(p, 0).unwrap();
                    (e.results, e.ended, e.moves)
                })
                .collect()
        };
        let play = |stepped: bool| {
            let (id, _) = store.create_game(&new_game(518, "W", "B")).unwrap();
            let append = |ply: u32, pos: &Position, mv: &MoveRecord| {
                let after = pos.play(pos.parse_uci(&mv.uci, CastlingMode::Chess960).unwrap());
                if stepped {
                    let step = IndexStep::of(pos, &after);
                    store.append_move_indexed(id, ply, mv, step).unwrap();
                } else {
                    store.append_move(id, ply, mv).unwrap();
                }
                after
            };
            let mut states = vec![seen()];
            let mut pos = start;
            for (ply, mv) in first.iter().enumerate() {
                pos = append(ply as u32, &pos, mv);
                states.push(seen());
            }
            store.truncate_moves(id, kept as u32).unwrap();
            states.push(seen());
            let mut pos = common::replay(&start.fen(), &first[..kept]);
            for (i, mv) in branch.iter().enumerate() {
                pos = append((kept + i) as u32, &pos, mv);
                states.push(seen());
            }
            // A step does not spare the checks: a move that does not follow is refused.
            let stale = store.append_move_indexed(id, 3, &branch[0], IndexStep::of(&pos, &pos));
            assert!(matches!(stale, Err(StoreError::Conflict(_))), "{stale:?}");
            store.finish_game(id, &finish("1-0")).unwrap();
            states.push(seen());
            check_all(store.store());
            (id, states)
        };
        let (replayed, computed) = play(false);
        store.delete_game(replayed).unwrap();
        let (_, stepped) = play(true);
        assert_eq!(stepped.len(), computed.len());
        for (i, (s, c)) in stepped.iter().zip(&computed).enumerate() {
            assert_eq!(s, c, "{}: after write {i}", store.name);
        }
        // Not trivially equal: after its ten moves the game is counted at its start.
        assert_eq!(computed[10][0].0.games, 1, "{}", store.name);
    });
}
