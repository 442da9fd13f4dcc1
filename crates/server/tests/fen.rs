//! `GET /api/fen`: the board editor's check of a position by the rules library — a FEN in each
//! castling dialect read and written back in X-FEN and Shredder-FEN, the reader's reasons for
//! a broken one (422), and hostile input refused without harm.

mod common;

use common::app;

/// `s` percent-encoded for a query string (every byte but unreserved ones).
fn encode(s: &str) -> String {
    s.bytes()
        .map(|b| {
            if b.is_ascii_alphanumeric() || b"-._~".contains(&b) {
                (b as char).to_string()
            } else {
                format!("%{b:02X}")
            }
        })
        .collect()
}

async fn check(a: &common::App, fen: &str) -> common::Reply {
    a.get(&format!("/api/fen?fen={}", encode(fen))).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_fen_in_each_dialect_is_read_and_written_in_both() {
    let a = app().await;
    // The classical start, in classical FEN (= X-FEN) and in Shredder-FEN.
    let classical = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    for fen in [
        classical,
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1",
    ] {
        let r = check(&a, fen).await;
        assert_eq!(r.status, 200, "{}", r.text);
        assert_eq!(r.json["ok"], true);
        assert_eq!(r.json["xfen"], classical);
        assert_eq!(
            r.json["shredder"],
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1"
        );
        assert_eq!(r.json["start_id"], 518);
        assert_eq!(r.json["turn"], "white");
        assert_eq!(r.json["legal_moves"], 20);
        assert_eq!(r.json["check"], false);
        assert_eq!(r.json["outcome"], serde_json::Value::Null);
    }

    // Inner-rook rights: White's king on b1 with rooks a1, c1 and h1; the right with the c1
    // rook (h1 stands beyond it) is C in X-FEN, and the a1 rook's is Q (the outermost).
    for fen in [
        "4k3/8/8/8/8/8/8/RKR4R w CQ - 0 1",
        "4k3/8/8/8/8/8/8/RKR4R w CA - 0 1",
        "4k3/8/8/8/8/8/8/RKR4R w AC - 0 1",
    ] {
        let r = check(&a, fen).await;
        assert_eq!(r.status, 200, "{fen}: {}", r.text);
        assert_eq!(r.json["xfen"], "4k3/8/8/8/8/8/8/RKR4R w CQ - 0 1");
        assert_eq!(r.json["shredder"], "4k3/8/8/8/8/8/8/RKR4R w CA - 0 1");
        assert_eq!(r.json["start_id"], serde_json::Value::Null);
    }
    // The h1 rook's right instead: the outermost, K in X-FEN, H in Shredder.
    let r = check(&a, "4k3/8/8/8/8/8/8/RKR4R w H - 0 1").await;
    assert_eq!(r.json["xfen"], "4k3/8/8/8/8/8/8/RKR4R w K - 0 1");
    assert_eq!(r.json["shredder"], "4k3/8/8/8/8/8/8/RKR4R w H - 0 1");

    // A Chess960 start position in X-FEN; Black to move gives no start number.
    let r = check(
        &a,
        "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1",
    )
    .await;
    assert_eq!(r.json["start_id"], 0, "{}", r.text);
    assert_eq!(
        r.json["shredder"],
        "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1"
    );
    let r = check(
        &a,
        "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR b KQkq - 0 1",
    )
    .await;
    assert_eq!(r.json["start_id"], serde_json::Value::Null);
    assert_eq!(r.json["turn"], "black");

    // Checkmate and stalemate are positions too, with no legal move.
    let r = check(&a, "R5k1/5ppp/8/8/8/8/8/6K1 b - - 0 1").await;
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(r.json["check"], true);
    assert_eq!(r.json["legal_moves"], 0);
    assert_eq!(r.json["outcome"], "checkmate");
    let r = check(&a, "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1").await;
    assert_eq!(r.json["outcome"], "stalemate");
    assert_eq!(r.json["check"], false);

    // An en-passant square is kept when the capture is legal.
    let r = check(&a, "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2").await;
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(r.json["xfen"], "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_broken_fen_is_refused_with_the_readers_reason() {
    let a = app().await;
    for (fen, reason) in [
        ("8/8/8/8/8/8/8/K7 w - - 0 1", "fen: black has no king"),
        (
            "4k3/8/8/8/8/8/8/4RK2 w - - 0 1",
            "fen: black is in check but it is not black's move",
        ),
        (
            "4k3/8/8/8/8/8/8/P3K3 w - - 0 1",
            "fen: pawn on a1: pawns cannot stand on rank 1 or 8",
        ),
        ("4k3/8/8/8/8/8/8/RKR4R w B - 0 1", "fen: castling field 'B'"),
        ("4k3/8/8/8/8/8/8/4K3 x - - 0 1", "fen: side to move"),
        ("", "fen: empty FEN"),
        ("not a fen at all", "fen: piece placement: expected 8 ranks"),
        ("8/8/8/8/8/8/8/8", "fen: expected 6 fields"),
    ] {
        let r = check(&a, fen).await;
        assert_eq!(r.status, 422, "{fen}: {}", r.text);
        assert!(r.error().starts_with(reason), "{fen}: {}", r.text);
        assert_eq!(r.json["field"], "fen", "{}", r.text);
        assert_eq!(r.json["code"], "unprocessable", "{}", r.text);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hostile_input_is_refused_without_harm() {
    let a = app().await;
    // Over the FEN's bound, and over the query's.
    let long = format!("{}/8/8/8/8/8/8/4K3 w - - 0 1", "1".repeat(300));
    let r = check(&a, &long).await;
    assert_eq!(r.status, 400, "{}", r.text);
    assert!(
        r.error().contains("longer than 200 characters"),
        "{}",
        r.text
    );
    assert_eq!(r.json["field"], "fen");
    let r = a.get(&format!("/api/fen?fen={}", "%41".repeat(2000))).await;
    assert_eq!(r.status, 400, "{}", r.text);
    assert!(r.error().contains("query is longer"), "{}", r.text);
    // No FEN, an unknown parameter, bytes that are not UTF-8.
    let r = a.get("/api/fen").await;
    assert_eq!(r.status, 400, "{}", r.text);
    assert_eq!(r.json["field"], "fen");
    let r = a.get("/api/fen?fen=8&x=1").await;
    assert_eq!(r.status, 400, "{}", r.text);
    let r = a.get("/api/fen?fen=%FF%FE").await;
    assert!(r.status == 400 || r.status == 422, "{}", r.text);
    // Odd but short input: numbers that overflow, many ranks, control characters, counters
    // out of range. Each is answered (never a panic), and the server still answers after.
    for fen in [
        "99999999999999999999/8/8/8/8/8/8/8 w - - 0 1",
        "8/8/8/8/8/8/8/8/8/8/8/8 w - - 0 1",
        "k7/8/8/8/8/8/8/7K w - - 99999999999 1",
        "k7/8/8/8/8/8/8/7K w - - 0 0",
        "k7/8/8/8/8/8/8/7K w KQkqHAha - 0 1",
        "k7/8/8/8/8/8/8/7K w - z9 0 1",
        "k7/8/8/8/8/8/8/7K\u{0}w - - 0 1",
        "kkkkkkkk/8/8/8/8/8/8/KKKKKKKK w - - 0 1",
        "QQQQQQQQ/QQQQQQQQ/QQQQQQQQ/QQQQQQQQ/8/8/8/K6k w - - 0 1",
        "é/8/8/8/8/8/8/8 w - - 0 1",
    ] {
        let r = check(&a, fen).await;
        assert!(r.status == 422 || r.status == 200, "{fen:?}: {}", r.text);
        if r.status == 422 {
            assert!(r.error().starts_with("fen: "), "{}", r.text);
        }
    }
    let r = check(&a, "4k3/8/8/8/8/8/8/4K3 w - - 0 1").await;
    assert_eq!(r.status, 200, "{}", r.text);
}
