//! Players' accounts in every backend's store: users registered with names unique whatever
//! their case (also when two register one name at once), invitations used once, sessions kept
//! by their hash, ended by logout, by their player, by disabling the user and by time, and all
//! of it still there after the database is opened again.

mod common;

use chess960_players::name::UserName;
use chess960_players::password::StoredHash;
use chess960_store::players::{NewUser, PlayerStore, SessionId};
use chess960_store::rules::{SESSION_IDLE_MS, SESSION_SEEN_STEP_MS};
use chess960_store::StoreError;

const T0: i64 = 1_800_000_000_000;

fn name(n: &str) -> UserName {
    n.parse().unwrap()
}

fn hash_of(n: u8) -> String {
    format!("{n:02x}").repeat(32)
}

fn phc(tag: &str) -> StoredHash {
    StoredHash::from_stored(format!("$argon2id$v=19$m=19456,t=2,p=1$salt${tag}"))
}

fn register(
    s: &dyn PlayerStore,
    n: &str,
    invite: Option<&str>,
) -> Result<chess960_store::User, StoreError> {
    let (n, p) = (name(n), phc(n));
    s.create_user(
        &NewUser {
            name: &n,
            password: &p,
            admin: false,
            invite,
        },
        T0,
    )
}

#[test]
fn users_sessions_and_invitations() {
    common::each_backend(accounts_on);
}

fn accounts_on(b: &mut common::Backend) {
    let ann_id;
    {
        let s = b.player_store().expect("every backend keeps players");
        let ann = register(s, "Ann_9", None).unwrap();
        ann_id = ann.id;
        assert_eq!(
            (ann.name.as_str(), ann.admin, ann.disabled),
            ("Ann_9", false, false)
        );
        // The name is taken whatever its case; nothing is written.
        let taken = register(s, "ANN_9", None).unwrap_err();
        assert!(
            matches!(&taken, StoreError::Conflict(m) if m.contains("taken")),
            "{taken}"
        );
        assert_eq!(b.rows("users"), 1);
        // Found by any case; the hash only through the login record.
        assert_eq!(s.user_by_name("ann_9").unwrap().unwrap().id, ann.id);
        assert_eq!(s.user(ann.id).unwrap().unwrap().name.as_str(), "Ann_9");
        let (who, hash) = s.login_record(" aNN_9 ").unwrap().unwrap();
        assert_eq!((who.id, hash), (ann.id, phc("Ann_9")));
        assert!(s.login_record("nobody").unwrap().is_none());

        // Invitations: unknown, then open, then used.
        let code = hash_of(7);
        let refused = register(s, "Bob", Some(&code)).unwrap_err();
        assert!(matches!(refused, StoreError::Conflict(_)), "{refused}");
        s.create_invite(&code, T0 - 10, T0 + 1000).unwrap();
        // A registration refused for its name does not use the invitation.
        assert!(register(s, "ann_9", Some(&code)).is_err());
        let bob = register(s, "Bob", Some(&code)).unwrap();
        let again = register(s, "Carol", Some(&code)).unwrap_err();
        assert!(matches!(again, StoreError::Conflict(_)), "{again}");
        // An expired one is no invitation.
        s.create_invite(&hash_of(8), T0 - 10, T0).unwrap();
        assert!(register(s, "Carol", Some(&hash_of(8))).is_err());
        assert!(s.create_invite("not a hash", T0, T0 + 1).is_err());
        assert_eq!(
            s.users()
                .unwrap()
                .iter()
                .map(|u| u.name.as_str())
                .collect::<Vec<_>>(),
            ["Ann_9", "Bob"]
        );

        // Sessions.
        let one = s
            .create_session(ann.id, &hash_of(1), "Firefox\u{7}", T0)
            .unwrap();
        let two = s
            .create_session(ann.id, &hash_of(2), "chess960 login", T0 + 5)
            .unwrap();
        s.create_session(bob.id, &hash_of(3), "Chromium", T0)
            .unwrap();
        assert!(s.create_session(ann.id, "short", "x", T0).is_err());
        let (user, session) = s.session(&hash_of(1), T0 + 10).unwrap().unwrap();
        assert_eq!(
            (user.id, session.id, session.agent.as_str()),
            (ann.id, one, "Firefox")
        );
        // Seen again after a minute: its last use is written.
        let later = T0 + SESSION_SEEN_STEP_MS + 1;
        assert_eq!(
            s.session(&hash_of(1), later).unwrap().unwrap().1.seen_ms,
            later
        );
        assert_eq!(
            s.sessions(ann.id).unwrap()[0].id,
            one,
            "the most recently used first"
        );
        assert!(s.session(&hash_of(9), T0).unwrap().is_none());
        assert!(s.session("not a hash", T0).unwrap().is_none());
        // A player ends another of their sessions; not someone else's.
        assert!(!s.end_session(bob.id, two).unwrap());
        assert!(s.end_session(ann.id, two).unwrap());
        assert!(s.session(&hash_of(2), T0 + 20).unwrap().is_none());
        // Logging out.
        s.create_session(ann.id, &hash_of(4), "Safari", T0).unwrap();
        assert!(s.end_session_by_hash(&hash_of(4)).unwrap());
        assert!(!s.end_session_by_hash(&hash_of(4)).unwrap());
        // Every other session.
        s.create_session(ann.id, &hash_of(5), "Edge", T0).unwrap();
        assert_eq!(s.end_sessions(ann.id, Some(one)).unwrap(), 1);
        assert_eq!(s.sessions(ann.id).unwrap().len(), 1);

        // A disabled user: no login record, no sessions, none can begin; enabled again.
        s.set_disabled(bob.id, true).unwrap();
        assert!(s.login_record("bob").unwrap().is_none());
        assert!(s.session(&hash_of(3), T0 + 30).unwrap().is_none());
        assert!(s.sessions(bob.id).unwrap().is_empty());
        let refused = s.create_session(bob.id, &hash_of(6), "x", T0).unwrap_err();
        assert!(matches!(refused, StoreError::Conflict(_)), "{refused}");
        s.set_disabled(bob.id, false).unwrap();
        assert!(s.login_record("bob").unwrap().is_some());
        let nobody = s
            .set_disabled(chess960_store::UserId(999), true)
            .unwrap_err();
        assert!(matches!(nobody, StoreError::NoSuchUser(_)), "{nobody}");
        assert!(matches!(
            s.create_session(chess960_store::UserId(999), &hash_of(6), "x", T0),
            Err(StoreError::NoSuchUser(_))
        ));

        // A new password.
        s.set_password(ann.id, &phc("new")).unwrap();
        assert_eq!(s.login_record("ann_9").unwrap().unwrap().1, phc("new"));
    }
    b.reopen();
    let s = b.player_store().expect("every backend keeps players");
    assert_eq!(s.users().unwrap().len(), 2);
    assert_eq!(s.login_record("ANN_9").unwrap().unwrap().1, phc("new"));
    // The session kept across the reopen ends once unused too long.
    let (_, kept) = s.session(&hash_of(1), T0 + 100_000).unwrap().unwrap();
    assert_eq!(kept.user, ann_id);
    assert!(s
        .session(&hash_of(1), kept.seen_ms + SESSION_IDLE_MS + 1)
        .unwrap()
        .is_none());
    assert!(
        s.sessions(ann_id).unwrap().is_empty(),
        "an ended session is removed"
    );
    let _ = SessionId(0);
}

/// Two stores register one name at once, many times: exactly one registration of each name
/// succeeds and the other is told the name is taken (the insert decides, not a read before
/// it: on PostgreSQL a read first would let both through to a unique-key error).
#[test]
fn one_name_registered_at_once_by_two_gets_one_user() {
    common::each_backend(|b| {
        let other = b.another();
        let (mine, theirs) = (b.player_store().unwrap(), other.player_store().unwrap());
        for round in 0..20 {
            let n = format!("racer{round}");
            let (a, c) = std::thread::scope(|scope| {
                let a = scope.spawn(|| register(mine, &n, None));
                let c = scope.spawn(|| register(theirs, &n, None));
                (a.join().unwrap(), c.join().unwrap())
            });
            // One user, and the other told the name is taken (not a database error).
            match (&a, &c) {
                (Ok(_), Err(StoreError::Conflict(m))) | (Err(StoreError::Conflict(m)), Ok(_)) => {
                    assert!(m.contains("taken"), "{m}")
                }
                _ => panic!("{n}: {a:?} {c:?}"),
            }
        }
        assert_eq!(b.rows("users"), 20);
    });
}

/// A rated game's end updates both players' ratings once, in the transaction of its result,
/// as Glicko-2 says; a second finish, a finish by a second handle at the same time and an
/// aborted or casual game change no rating; a finished rated game cannot be reopened.
#[test]
fn a_rated_games_end_rates_both_players_once() {
    common::each_backend(rated_on);
}

fn rated_on(b: &mut common::Backend) {
    use chess960_players::glicko2::{Game, Score, INITIAL};
    use chess960_players::speed::Speed;
    use chess960_store::{Finish, GamePlayers, GameResult, Seats};
    let s = b.player_store().unwrap();
    let (ann, bob) = (
        register(s, "ann", None).unwrap().id,
        register(s, "bob", None).unwrap().id,
    );
    let game = |b: &common::Backend| {
        b.create_game_with_moves(&common::new_game(518, "ann", "bob"), &[], &Seats::NONE)
            .unwrap()
            .0
    };
    let rated = GamePlayers {
        white: Some(ann),
        black: Some(bob),
        rated: Some(Speed::Blitz),
    };
    let win = Finish {
        result: GameResult::WhiteWins,
        reason: "resignation".into(),
    };

    // Refused bindings.
    let g = game(b);
    let same = GamePlayers {
        black: Some(ann),
        ..rated
    };
    assert!(matches!(
        s.bind_players(g, same),
        Err(StoreError::Conflict(_))
    ));
    let nobody = GamePlayers {
        white: None,
        black: None,
        ..rated
    };
    assert!(matches!(
        s.bind_players(g, nobody),
        Err(StoreError::Conflict(_))
    ));
    s.bind_players(g, rated).unwrap();
    assert_eq!(s.game_players(g).unwrap(), rated);

    // Two handles finish it at once: it is rated once.
    let other = b.another();
    std::thread::scope(|scope| {
        let one = scope.spawn(|| b.finish_game(g, &win));
        let two = scope.spawn(|| other.finish_game(g, &win));
        let (one, two) = (one.join().unwrap(), two.join().unwrap());
        assert!(one.is_ok() || two.is_ok(), "{one:?} {two:?}");
    });
    let expect_w = INITIAL.rate(&[Game {
        opponent: INITIAL,
        score: Score::Win,
    }]);
    let expect_b = INITIAL.rate(&[Game {
        opponent: INITIAL,
        score: Score::Loss,
    }]);
    let now = now_ms();
    let (w, l) = (s.ratings(ann, now).unwrap(), s.ratings(bob, now).unwrap());
    assert_eq!((w.len(), l.len()), (1, 1));
    assert_eq!((w[0].speed, w[0].games, l[0].games), (Speed::Blitz, 1, 1));
    assert!(
        (w[0].rating.rating - expect_w.rating).abs() < 0.001,
        "{w:?} {expect_w:?}"
    );
    assert!(
        (l[0].rating.rating - expect_b.rating).abs() < 0.001,
        "{l:?} {expect_b:?}"
    );
    assert!(
        (w[0].rating.deviation - expect_w.deviation).abs() < 0.01,
        "{w:?}"
    );
    assert!(w[0].rating.rating > 1600.0 && l[0].rating.rating < 1400.0);
    // Finished again with the same result (a retried request): nothing changes.
    b.finish_game(g, &win).unwrap();
    assert_eq!(s.rating_history(ann, Speed::Blitz).unwrap().len(), 1);
    assert_eq!(b.rows("rating_history"), 2);
    // It is not reopened by a takeback.
    let reopen = b.truncate_moves(g, 0).unwrap_err();
    assert!(matches!(reopen, StoreError::Conflict(_)), "{reopen}");

    // A second rated game, drawn: Ann (higher) loses points, Bob gains; both histories grow.
    let g2 = game(b);
    s.bind_players(g2, rated).unwrap();
    let before = (
        s.ratings(ann, now).unwrap()[0].rating,
        s.ratings(bob, now).unwrap()[0].rating,
    );
    b.finish_game(
        g2,
        &Finish {
            result: GameResult::Draw,
            reason: "draw agreed".into(),
        },
    )
    .unwrap();
    let after = (
        s.ratings(ann, now).unwrap()[0].rating,
        s.ratings(bob, now).unwrap()[0].rating,
    );
    assert!(after.0.rating < before.0.rating && after.1.rating > before.1.rating);
    let history = s.rating_history(bob, Speed::Blitz).unwrap();
    assert_eq!(history.iter().map(|p| p.game).collect::<Vec<_>>(), [g, g2]);
    assert!((history[1].rating - after.1.rating).abs() < 0.001);
    // Each game's page: the ratings before and after it. The first game began from a new
    // player's rating; the second from the first's result.
    let close = |a: f64, b: f64| (a - b).abs() < 0.001;
    let [Some(w1), Some(b1)] = s.game_ratings(g, rated, Speed::Blitz, now).unwrap() else {
        panic!("both players have accounts")
    };
    assert!(close(w1.rating, INITIAL.rating) && close(w1.deviation, INITIAL.deviation));
    assert!(close(w1.after.unwrap(), expect_w.rating), "{w1:?}");
    assert!(close(b1.after.unwrap(), expect_b.rating), "{b1:?}");
    let [Some(w2), Some(b2)] = s.game_ratings(g2, rated, Speed::Blitz, now).unwrap() else {
        panic!("both players have accounts")
    };
    assert!(close(w2.rating, expect_w.rating) && close(w2.after.unwrap(), after.0.rating));
    assert!(close(b2.rating, expect_b.rating) && close(b2.after.unwrap(), after.1.rating));
    // A game not rated yet: the ratings as of now, nothing after; a guest's colour has none.
    let g6 = game(b);
    let guest = GamePlayers {
        black: None,
        ..rated
    };
    let [Some(w6), None] = s.game_ratings(g6, guest, Speed::Blitz, now).unwrap() else {
        panic!("White has an account, Black none")
    };
    assert!(close(w6.rating, after.0.rating) && w6.after.is_none());

    // The leaderboard: the higher rating first, a class without games is empty, a disabled
    // account is left out.
    let board = s.leaderboard(Speed::Blitz, now, 10).unwrap();
    let names: Vec<&str> = board.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(names, ["ann", "bob"]);
    assert!((board[0].1.rating.rating - after.0.rating).abs() < 0.001);
    assert_eq!(board[0].1.games, 2);
    assert_eq!(s.leaderboard(Speed::Blitz, now, 1).unwrap().len(), 1);
    assert!(s.leaderboard(Speed::Rapid, now, 10).unwrap().is_empty());
    s.set_disabled(ann, true).unwrap();
    let board = s.leaderboard(Speed::Blitz, now, 10).unwrap();
    assert_eq!(
        board.iter().map(|(n, _)| n.as_str()).collect::<Vec<_>>(),
        ["bob"]
    );
    s.set_disabled(ann, false).unwrap();

    // An aborted rated game and a casual game rate nobody.
    let g3 = game(b);
    s.bind_players(g3, rated).unwrap();
    b.finish_game(g3, &Finish::aborted()).unwrap();
    let g4 = game(b);
    s.bind_players(
        g4,
        GamePlayers {
            rated: None,
            ..rated
        },
    )
    .unwrap();
    b.finish_game(g4, &win).unwrap();
    assert_eq!(s.rating_history(ann, Speed::Blitz).unwrap().len(), 2);
    assert!(s.rating_history(ann, Speed::Rapid).unwrap().is_empty());
    // Players are bound before the first move only.
    let g5 = game(b);
    let pos = chess960_core::StartId::new(518).unwrap().position();
    b.append_move(g5, 0, &common::scripted_move(&pos, 0).unwrap())
        .unwrap();
    assert!(matches!(
        s.bind_players(g5, rated),
        Err(StoreError::Conflict(_))
    ));
    // Ratings survive a reopen, exactly.
    b.reopen();
    let s = b.player_store().unwrap();
    assert_eq!(s.ratings(ann, now).unwrap()[0].rating, after.0);
}

/// A game created for its players carries their accounts from the start (one transaction:
/// a refused binding stores no game); the open seat of a rated challenge goes only to another
/// logged-in player, and a guest's or the same player's claim leaves it open; a game read back
/// names its players.
#[test]
fn seats_are_claimed_by_accounts() {
    common::each_backend(claims_on);
}

fn claims_on(b: &mut common::Backend) {
    use chess960_players::speed::Speed;
    use chess960_store::{GamePlayers, SeatRecord, Seats};
    let s = b.player_store().unwrap();
    let (ann, bob) = (
        register(s, "ann", None).unwrap().id,
        register(s, "bob", None).unwrap().id,
    );
    let hash = |c: char| c.to_string().repeat(64);
    let challenge = Seats {
        white: SeatRecord::Held { hash: hash('a') },
        black: SeatRecord::Open,
    };
    let rated = GamePlayers {
        white: Some(ann),
        black: None,
        rated: Some(Speed::Blitz),
    };
    let meta = common::new_game(518, "ann", "?");
    let before = b.rows("games");
    // Refused before anything is stored: the same account on both sides, a rated game
    // with moves.
    let same = GamePlayers {
        black: Some(ann),
        ..rated
    };
    assert!(matches!(
        s.create_game_for(&meta, &[], &challenge, same),
        Err(StoreError::Conflict(_))
    ));
    let pos = chess960_core::StartId::new(518).unwrap().position();
    let first = common::scripted_move(&pos, 0).unwrap();
    assert!(matches!(
        s.create_game_for(&meta, std::slice::from_ref(&first), &challenge, rated),
        Err(StoreError::Conflict(_))
    ));
    assert_eq!(b.rows("games"), before);

    let (g, key) = s.create_game_for(&meta, &[], &challenge, rated).unwrap();
    assert_eq!(s.game_players(g).unwrap(), rated);
    // A guest, then Ann herself, cannot take the rated seat; it stays open.
    for user in [None, Some(ann)] {
        assert!(matches!(
            s.claim_seat_for(g, chess960_core::Color::Black, &hash('b'), "x", user),
            Err(StoreError::Conflict(_))
        ));
        assert_eq!(
            b.game_by_key(&key).unwrap().unwrap().seats.black,
            SeatRecord::Open
        );
    }
    s.claim_seat_for(g, chess960_core::Color::Black, &hash('b'), "bob", Some(bob))
        .unwrap();
    let stored = b.game_by_key(&key).unwrap().unwrap();
    assert_eq!(
        stored.players,
        GamePlayers {
            black: Some(bob),
            ..rated
        }
    );
    assert_eq!(stored.seats.black, SeatRecord::Held { hash: hash('b') });
    assert_eq!(stored.game.black, "bob");

    // A casual challenge: a guest takes the seat, nobody's account is bound to it.
    let casual = GamePlayers {
        rated: None,
        ..rated
    };
    let (g2, key2) = s
        .create_game_for(&meta, std::slice::from_ref(&first), &challenge, casual)
        .unwrap();
    s.claim_seat_for(g2, chess960_core::Color::Black, &hash('c'), "guest", None)
        .unwrap();
    let stored = b.game_by_key(&key2).unwrap().unwrap();
    assert_eq!(stored.players, casual);
    assert_eq!(stored.moves.len(), 1);
    // A game of guests names nobody.
    let (_, key3) = b.create_game_with_moves(&meta, &[], &challenge).unwrap();
    assert_eq!(
        b.game_by_key(&key3).unwrap().unwrap().players,
        GamePlayers::NONE
    );
}

/// Now, in Unix milliseconds.
fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_millis() as i64
}

/// The moves `ucis` (Chess960 UCI) from start position `id`, as records.
fn records(id: u16, ucis: &[&str]) -> Vec<chess960_store::MoveRecord> {
    use chess960_core::CastlingMode;
    let mut pos = chess960_core::StartId::new(id.into()).unwrap().position();
    let mut out = Vec::new();
    for (ply, uci) in ucis.iter().enumerate() {
        let m = pos.parse_uci(uci, CastlingMode::Chess960).unwrap();
        out.push(chess960_store::MoveRecord {
            uci: uci.to_string(),
            san: pos.san(m),
            clocks: None,
            played_at_ms: 1_700_000_000_000 + ply as i64,
        });
        pos = pos.play(m);
    }
    out
}

/// A player's finished games as their results per start position count them: the player's
/// score by colour, how they castled (their own castling, not the opponent's), the opponent's
/// rating before a rated game; unfinished games and other players' games are left out.
#[test]
fn a_players_finished_games_for_their_results() {
    common::each_backend(played_on);
}

fn played_on(b: &mut common::Backend) {
    use chess960_players::glicko2::{Score, INITIAL};
    use chess960_players::results::Castled;
    use chess960_players::speed::Speed;
    use chess960_store::{Finish, GamePlayers, GameResult, Seats};
    let s = b.player_store().unwrap();
    let (ann, bob) = (
        register(s, "ann", None).unwrap().id,
        register(s, "bob", None).unwrap().id,
    );
    let finish = |r: GameResult| Finish {
        result: r,
        reason: "resignation".into(),
    };
    // Ann White, castles short (e1g1 is e1h1 in Chess960 UCI); Bob castles long; Ann wins,
    // rated.
    let short = records(
        518,
        &[
            "e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "d7d6", "e1h1", "c8g4", "d2d3", "d8d7", "b1c3",
            "e8a8",
        ],
    );
    assert_eq!(short[6].san, "O-O");
    assert_eq!(short[11].san, "O-O-O");
    let rated = GamePlayers {
        white: Some(ann),
        black: Some(bob),
        rated: Some(Speed::Blitz),
    };
    let (g1, _) = s
        .create_game_for(
            &common::new_game(518, "ann", "bob"),
            &[],
            &Seats::NONE,
            rated,
        )
        .unwrap();
    for (ply, m) in short.iter().enumerate() {
        b.append_move(g1, ply as u32, m).unwrap();
    }
    b.finish_game(g1, &finish(GameResult::WhiteWins)).unwrap();
    // Ann Black, a casual draw from 7; the same moves' castling is White's (Bob's).
    let casual = GamePlayers {
        white: Some(bob),
        black: Some(ann),
        rated: None,
    };
    let (g2, _) = s
        .create_game_for(
            &common::new_game(518, "bob", "ann"),
            &short[..7],
            &Seats::NONE,
            casual,
        )
        .unwrap();
    b.finish_game(g2, &finish(GameResult::Draw)).unwrap();
    // A second rated game, Ann Black, lost: Bob's rating before it is his first game's.
    let swapped = GamePlayers {
        white: Some(bob),
        black: Some(ann),
        rated: Some(Speed::Blitz),
    };
    let (g3, _) = s
        .create_game_for(
            &common::new_game(518, "bob", "ann"),
            &[],
            &Seats::NONE,
            swapped,
        )
        .unwrap();
    b.finish_game(g3, &finish(GameResult::WhiteWins)).unwrap();
    // Not counted: an unfinished game of Ann's, an aborted one, a game of guests.
    s.create_game_for(
        &common::new_game(518, "ann", "?"),
        &[],
        &Seats::NONE,
        casual,
    )
    .unwrap();
    let (g5, _) = s
        .create_game_for(
            &common::new_game(518, "ann", "?"),
            &[],
            &Seats::NONE,
            casual,
        )
        .unwrap();
    b.finish_game(g5, &Finish::aborted()).unwrap();
    let (g6, _) = b
        .create_game_with_moves(&common::new_game(518, "x", "y"), &[], &Seats::NONE)
        .unwrap();
    b.finish_game(g6, &finish(GameResult::Draw)).unwrap();

    let played = s.played_games(ann, 100).unwrap();
    assert_eq!(played.len(), 3, "{played:?}");
    // Newest first: g3, g2, g1.
    assert_eq!(played[0].score, Score::Loss);
    assert_eq!(played[0].castled, Castled::Not);
    let bob_after_first = s.rating_history(bob, Speed::Blitz).unwrap()[0].rating;
    assert!((played[0].opponent_rating.unwrap() - bob_after_first).abs() < 0.001);
    assert_eq!(
        (played[1].score, played[1].castled),
        (Score::Draw, Castled::Not)
    );
    assert_eq!(played[1].opponent_rating, None);
    assert_eq!(
        (played[2].score, played[2].castled),
        (Score::Win, Castled::Short)
    );
    assert_eq!(played[2].opponent_rating, Some(INITIAL.rating));
    assert_eq!(played[2].start_id, Some(518));
    // Bob's side of the first game: long castling, a loss.
    let bobs = s.played_games(bob, 100).unwrap();
    assert_eq!(
        (bobs[2].score, bobs[2].castled),
        (Score::Loss, Castled::Long)
    );
    assert_eq!(bobs[1].castled, Castled::Short);
    // The limit keeps the newest.
    assert_eq!(s.played_games(ann, 1).unwrap()[0].score, Score::Loss);
}
