//! FEN castling dialects (spec §3), the catalogue of malformed and impossible FENs, a
//! no-panic sweep over random and mutated input, and SAN reading tolerance.
//!
//! Expectations about positions (which castling fields mean the same rights, what X-FEN and
//! Shredder-FEN a writer produces, the 960 start positions, SAN disambiguation and what the
//! SAN variants resolve to) were cross-checked with python-chess 1.11.2
//! (`chess.Board(fen, chess960=True)`, `board.fen()`, `board.fen(shredder=True)`,
//! `chess.Board.from_chess960_pos(i)`, `board.parse_san`, `board.san`). Where this library is
//! more tolerant than python-chess (castling letters in any order, `e.p.` suffixes) the test
//! says so.

use chess960_core::{
    BackRank, CastlingDialect, CastlingMode, CastlingSide, Color, FenError, Move, Position, Rank,
    Role, SanError, Square, StartId, Validation,
};

fn pos(fen: &str) -> Position {
    Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn sq(s: &str) -> Square {
    Square::parse(s).unwrap()
}

// ---------------------------------------------------------------------------------------------
// Reading the dialects
// ---------------------------------------------------------------------------------------------

/// Every FEN in a group means the same position; the first is its X-FEN, the second its
/// Shredder-FEN.
fn check_group(xfen: &str, shredder: &str, others: &[&str]) {
    let p = pos(xfen);
    assert_eq!(p.fen(), xfen);
    assert_eq!(p.to_fen(CastlingDialect::XFen), xfen);
    assert_eq!(p.to_fen(CastlingDialect::Shredder), shredder);
    assert_eq!(pos(shredder), p, "{shredder}");
    for fen in others {
        let q = pos(fen);
        assert_eq!(q, p, "{fen}");
        assert_eq!(q.hash(), p.hash(), "{fen}");
        assert_eq!(q.fen(), xfen, "{fen}");
        assert_eq!(q.to_fen(CastlingDialect::Shredder), shredder, "{fen}");
    }
}

#[test]
fn classical_start_in_every_dialect() {
    let x = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    check_group(
        x,
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1",
        &[
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAkq - 0 1",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQha - 0 1",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w AHah - 0 1",
        ],
    );
    assert_eq!(pos(x), StartId::CLASSICAL.position());
    // More tolerant than python-chess, which rejects black letters first.
    assert_eq!(
        pos("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w kqKQ - 0 1"),
        pos(x)
    );
}

#[test]
fn chess960_start_in_every_dialect() {
    // ID 0, BBQNNRKR: rooks f1 and h1, king g1. `KFkf` is how chess960-explorer data writes it.
    check_group(
        "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1",
        "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1",
        &[
            "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KFkf - 0 1",
            "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HQhq - 0 1",
        ],
    );
    let p = StartId::new(0).unwrap().position();
    assert_eq!(
        p,
        pos("bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KFkf - 0 1")
    );
}

#[test]
fn inner_rook_rights_need_file_letters() {
    // Four white rooks, two black: the white rights are the inner rooks b1 and g1, written as
    // file letters; Black's b8 and g8 are its outermost rooks, so X-FEN writes `kq`.
    check_group(
        "1r2k1r1/8/8/8/8/8/8/RR2K1RR w GBkq - 0 1",
        "1r2k1r1/8/8/8/8/8/8/RR2K1RR w GBgb - 0 1",
        &["1r2k1r1/8/8/8/8/8/8/RR2K1RR w BGkq - 0 1"],
    );
    let p = pos("1r2k1r1/8/8/8/8/8/8/RR2K1RR w GBkq - 0 1");
    assert_eq!(
        p.castling_rook(Color::White, CastlingSide::ASide),
        Some(sq("b1"))
    );
    assert_eq!(
        p.castling_rook(Color::White, CastlingSide::HSide),
        Some(sq("g1"))
    );
    assert_eq!(
        p.castling_rook(Color::Black, CastlingSide::ASide),
        Some(sq("b8"))
    );
    assert_eq!(
        p.castling_rook(Color::Black, CastlingSide::HSide),
        Some(sq("g8"))
    );

    // Four rooks each: inner rights (letters) and outer rights (KQkq) are different positions.
    let inner = pos("rr2k1rr/8/8/8/8/8/8/RR2K1RR w GBgb - 0 1");
    check_group(
        "rr2k1rr/8/8/8/8/8/8/RR2K1RR w GBgb - 0 1",
        "rr2k1rr/8/8/8/8/8/8/RR2K1RR w GBgb - 0 1",
        &["rr2k1rr/8/8/8/8/8/8/RR2K1RR w BGbg - 0 1"],
    );
    check_group(
        "rr2k1rr/8/8/8/8/8/8/RR2K1RR w KQkq - 0 1",
        "rr2k1rr/8/8/8/8/8/8/RR2K1RR w HAha - 0 1",
        &[],
    );
    let outer = pos("rr2k1rr/8/8/8/8/8/8/RR2K1RR w HAha - 0 1");
    assert_ne!(inner, outer);
    assert_ne!(inner.hash(), outer.hash());

    // One side only: C (inner, a-side) versus Q = A (outermost).
    check_group(
        "4k3/8/8/8/8/8/8/R1R1K3 w C - 0 1",
        "4k3/8/8/8/8/8/8/R1R1K3 w C - 0 1",
        &[],
    );
    check_group(
        "4k3/8/8/8/8/8/8/R1R1K3 w Q - 0 1",
        "4k3/8/8/8/8/8/8/R1R1K3 w A - 0 1",
        &[],
    );
    assert_ne!(
        pos("4k3/8/8/8/8/8/8/R1R1K3 w C - 0 1"),
        pos("4k3/8/8/8/8/8/8/R1R1K3 w Q - 0 1")
    );
}

// ---------------------------------------------------------------------------------------------
// Writing: all 960 start positions
// ---------------------------------------------------------------------------------------------

fn fnv1a(h: &mut u64, bytes: &[u8]) {
    for &b in bytes {
        *h ^= u64::from(b);
        *h = h.wrapping_mul(0x100000001b3);
    }
}

#[test]
fn all_960_start_positions_write_both_dialects() {
    let mut digest = 0xcbf29ce484222325u64;
    for id in StartId::all() {
        let p = id.position();
        let roles = id.back_rank().roles();
        let rook_files: Vec<char> = (0..8)
            .filter(|&i| roles[i] == Role::Rook)
            .map(|i| (b'a' + i as u8) as char)
            .collect();
        assert_eq!(rook_files.len(), 2);
        // H-side rook first, then a-side, White then Black: `HAha`.
        let shredder_field: String = [
            rook_files[1].to_ascii_uppercase(),
            rook_files[0].to_ascii_uppercase(),
            rook_files[1],
            rook_files[0],
        ]
        .iter()
        .collect();
        let x = p.to_fen(CastlingDialect::XFen);
        let s = p.to_fen(CastlingDialect::Shredder);
        assert_eq!(p.castling_field(CastlingDialect::XFen), "KQkq", "{id}");
        assert_eq!(
            p.castling_field(CastlingDialect::Shredder),
            shredder_field,
            "{id}"
        );
        assert_eq!(x, p.fen());
        assert!(x.ends_with(" w KQkq - 0 1"), "{id}: {x}");
        assert!(
            s.ends_with(&format!(" w {shredder_field} - 0 1")),
            "{id}: {s}"
        );
        assert_eq!(x.replace("KQkq", &shredder_field), s, "{id}");
        assert_eq!(pos(&x), p, "{id}");
        assert_eq!(pos(&s), p, "{id}");
        let back: String = roles.iter().map(|r| r.upper_char()).collect();
        assert_eq!(BackRank::parse(&back).map(|b| b.id()), Ok(id), "{id}");
        assert_eq!(StartId::of_board(p.board()), Some(id));
        fnv1a(&mut digest, s.as_bytes());
        fnv1a(&mut digest, b"\n");
    }
    // FNV-1a 64 of "<shredder fen>\n" for IDs 0..959, computed with python-chess 1.11.2:
    // `chess.Board.from_chess960_pos(i).fen(shredder=True)`.
    assert_eq!(digest, 0x1b000a5856859855);
    // A few spelled out (python-chess).
    for (id, shredder) in [
        (
            0,
            "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1",
        ),
        (
            2,
            "bqnnrbkr/pppppppp/8/8/8/8/PPPPPPPP/BQNNRBKR w HEhe - 0 1",
        ),
        (
            518,
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1",
        ),
        (
            740,
            "rbbknnqr/pppppppp/8/8/8/8/PPPPPPPP/RBBKNNQR w HAha - 0 1",
        ),
        (
            959,
            "rkrnnqbb/pppppppp/8/8/8/8/PPPPPPPP/RKRNNQBB w CAca - 0 1",
        ),
    ] {
        let p = StartId::new(id).unwrap().position();
        assert_eq!(p.to_fen(CastlingDialect::Shredder), shredder);
        let mut fields: Vec<&str> = shredder.split(' ').collect();
        fields[2] = "KQkq";
        assert_eq!(p.fen(), fields.join(" "));
    }
}

// ---------------------------------------------------------------------------------------------
// Malformed and impossible FENs
// ---------------------------------------------------------------------------------------------

type Check = fn(&FenError) -> bool;

/// (FEN, expected variant, text the message must contain, also rejected when lenient?)
///
/// python-chess 1.11.2 rejects or reports invalid every one of these, except those marked
/// "stricter than python-chess" (rules of this library: mirrored castling rights, promoted
/// piece counts, the FEN's required fields, counter range, full-move number 0).
#[rustfmt::skip]
const BAD: &[(&str, Check, &str, bool)] = &[
    // Castling rights without a rook on that side.
    ("4k3/8/8/8/8/8/8/4K3 w K - 0 1", |e| matches!(e, FenError::Castling { field, .. } if field == "K"), "castling field 'K': castling right without a rook: white has no rook on the h-side", false),
    ("4k3/8/8/8/8/8/8/R3K3 w AH - 0 1", |e| matches!(e, FenError::Castling { field, .. } if field == "AH"), "white has no rook on h1", false),
    ("r3k3/8/8/8/8/8/8/4K3 w kq - 0 1", |e| matches!(e, FenError::Castling { .. }), "black has no rook on the h-side", false),
    ("4k3/8/8/8/8/8/8/4K2R w Q - 0 1", |e| matches!(e, FenError::Castling { .. }), "no rook on the a-side", false),
    // A right whose king is off the back rank.
    ("4k3/8/8/8/8/8/4K3/R6R w KQ - 0 1", |e| matches!(e, FenError::Castling { .. }), "king is not on rank 1", false),
    // Two rights on one side.
    ("6k1/8/8/8/8/8/8/1K2R2R w EH - 0 1", |e| matches!(e, FenError::Castling { .. }), "two castling rights on the h-side", false),
    // Castling letter on the king's own file.
    ("4k3/8/8/8/8/8/8/R3K2R w E - 0 1", |e| matches!(e, FenError::Castling { .. }), "king's own file", false),
    // Both sides keep rights but cannot come from one start position.
    // Stricter than python-chess.
    ("r3k2r/8/8/8/8/8/8/R2K3R w KQkq - 0 1", |e| matches!(e, FenError::Castling { .. }), "different files", false),
    // Kings.
    ("4k3/8/8/8/8/8/8/3KK3 w - - 0 1", |e| *e == FenError::TooManyKings(Color::White), "white has more than one king", true),
    ("4k2k/8/8/8/8/8/8/4K3 w - - 0 1", |e| *e == FenError::TooManyKings(Color::Black), "black has more than one king", true),
    ("8/8/8/8/8/8/8/4K3 w - - 0 1", |e| *e == FenError::MissingKing(Color::Black), "black has no king", true),
    ("4k3/8/8/8/8/8/8/8 b - - 0 1", |e| *e == FenError::MissingKing(Color::White), "white has no king", true),
    ("8/8/8/8/8/8/8/8 w - - 0 1", |e| matches!(e, FenError::MissingKing(_)), "has no king", true),
    // Pawns on the first or last rank.
    ("4k3/8/8/8/8/8/8/P3K3 w - - 0 1", |e| *e == FenError::PawnOnBackRank(sq("a1")), "pawn on a1", true),
    ("4k2P/8/8/8/8/8/8/4K3 b - - 0 1", |e| *e == FenError::PawnOnBackRank(sq("h8")), "pawn on h8", true),
    ("p3k3/8/8/8/8/8/8/4K3 w - - 0 1", |e| *e == FenError::PawnOnBackRank(sq("a8")), "pawn on a8", true),
    // The side that just moved is in check.
    ("4k3/8/8/8/8/8/8/4R1K1 w - - 0 1", |e| *e == FenError::OppositeCheck(Color::Black), "black is in check but it is not black's move", true),
    ("4k3/8/8/8/8/8/3p4/4K3 b - - 0 1", |e| *e == FenError::OppositeCheck(Color::White), "white is in check", true),
    // Impossible en-passant squares.
    ("4k3/8/8/3pP3/8/8/8/4K3 w - d3 0 1", |e| matches!(e, FenError::EnPassant { field, .. } if field == "d3"), "en-passant field 'd3': with white to move the en-passant square is on rank 6", false),
    ("4k3/8/8/8/3Pp3/8/8/4K3 b - d6 0 1", |e| matches!(e, FenError::EnPassant { .. }), "on rank 3, not 6", false),
    ("4k3/8/8/4P3/8/8/8/4K3 w - d6 0 1", |e| matches!(e, FenError::EnPassant { .. }), "en-passant field 'd6': no black pawn on d5", false),
    ("4k3/8/8/3PP3/8/8/8/4K3 w - d6 0 1", |e| matches!(e, FenError::EnPassant { .. }), "no black pawn on d5", false),
    ("4k3/3n4/8/3pP3/8/8/8/4K3 w - d6 0 1", |e| matches!(e, FenError::EnPassant { .. }), "d6 and d7 must be empty", false),
    ("4k3/8/3n4/3pP3/8/8/8/4K3 w - d6 0 1", |e| matches!(e, FenError::EnPassant { .. }), "d6 and d7 must be empty", false),
    ("4k3/8/8/3pP3/8/8/8/r3K3 w - d6 0 1", |e| matches!(e, FenError::EnPassant { .. }), "cannot have given or uncovered", false),
    // Too many pieces.
    ("rnbqkbnr/pppppppp/8/8/8/N7/PPPPPPPP/RNBQKBNR w KQkq - 0 1", |e| matches!(e, FenError::TooManyPieces { color: Color::White, .. }), "too many white pieces: 17 pieces, at most 16", false),
    ("4k3/8/8/8/P7/8/PPPPPPPP/4K3 w - - 0 1", |e| matches!(e, FenError::TooManyPieces { color: Color::White, .. }), "9 pawns, at most 8", false),
    // Stricter than python-chess.
    ("qqq1k3/pppppppp/8/8/8/8/8/4K3 w - - 0 1", |e| matches!(e, FenError::TooManyPieces { color: Color::Black, .. }), "too many black pieces: 8 pawns and 2 promoted pieces", false),
    // Stricter than python-chess.
    ("4k3/8/8/8/8/8/PPPPPPPP/QQQ1K3 w - - 0 1", |e| matches!(e, FenError::TooManyPieces { color: Color::White, .. }), "8 pawns and 2 promoted pieces", false),
    // Malformed fields.
    // Stricter than python-chess.
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq", |e| *e == FenError::FieldCount { found: 3 }, "found 3", true),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 x", |e| *e == FenError::FieldCount { found: 7 }, "found 7", true),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1", |e| matches!(e, FenError::Placement { rank: Some(Rank::First), .. }), "rank 1: 'X' is not a piece letter", true),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN w KQkq - 0 1", |e| matches!(e, FenError::Placement { rank: Some(Rank::First), .. }), "rank 1: 'RNBQKBN' describes 7 squares, not 8", true),
    ("rnbqkbnr/ppppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", |e| matches!(e, FenError::Placement { rank: Some(Rank::Seventh), .. }), "rank 7: 'ppppppppp' describes more than 8 squares", true),
    ("rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", |e| matches!(e, FenError::Placement { rank: Some(Rank::Sixth), .. }), "rank 6", true),
    ("rnbqkbnr/pppppppp/44/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", |e| matches!(e, FenError::Placement { rank: Some(Rank::Sixth), .. }), "bad empty-square count", true),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR/8 w KQkq - 0 1", |e| matches!(e, FenError::Placement { rank: None, .. }), "expected 8 ranks separated by '/', found 9", true),
    ("rnbqkbnr/pppppppp/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", |e| matches!(e, FenError::Placement { rank: None, .. }), "found 7", true),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1", |e| matches!(e, FenError::Turn { found } if found == "x"), "side to move: expected 'w' or 'b', found 'x'", true),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR W KQkq - 0 1", |e| matches!(e, FenError::Turn { .. }), "found 'W'", true),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkz - 0 1", |e| matches!(e, FenError::Castling { field, .. } if field == "KQkz"), "castling field 'KQkz': 'z' is not a castling letter", true),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQ- - 0 1", |e| matches!(e, FenError::Castling { .. }), "'-' is not a castling letter", true),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e9 0 1", |e| matches!(e, FenError::EnPassant { field, .. } if field == "e9"), "en-passant field 'e9': expected '-' or a square", true),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq E3 0 1", |e| matches!(e, FenError::EnPassant { .. }), "en-passant field 'E3'", true),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e 0 1", |e| matches!(e, FenError::EnPassant { .. }), "en-passant field 'e'", true),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - -1 1", |e| *e == FenError::Counter { which: "half-move clock", found: "-1".into() }, "half-move clock: expected a number from 0 to 4294967295, found '-1'", true),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 -3", |e| matches!(e, FenError::Counter { which: "full-move number", .. }), "full-move number: expected a number from 0 to 4294967295, found '-3'", true),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - x 1", |e| matches!(e, FenError::Counter { which: "half-move clock", .. }), "found 'x'", true),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 one", |e| matches!(e, FenError::Counter { which: "full-move number", .. }), "found 'one'", true),
    // Stricter than python-chess.
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 99999999999999999999 1", |e| matches!(e, FenError::Counter { .. }), "half-move clock", true),
    // Stricter than python-chess.
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 0", |e| matches!(e, FenError::Counter { which: "full-move number", .. }), "found '0'", false),
    // Nothing at all.
    ("", |e| *e == FenError::Empty, "empty FEN", true),
    ("   \t\n", |e| *e == FenError::Empty, "empty FEN", true),
];

#[test]
fn malformed_and_impossible_fens_are_rejected_with_the_right_error() {
    for &(fen, is_expected, text, lenient_too) in BAD {
        let err = match Position::from_fen(fen) {
            Ok(p) => panic!("{fen:?} was accepted as {p:?}"),
            Err(e) => e,
        };
        assert!(is_expected(&err), "{fen:?}: unexpected error {err:?}");
        let msg = err.to_string();
        assert!(
            msg.contains(text),
            "{fen:?}: message {msg:?} lacks {text:?}"
        );
        let lenient = Position::from_fen_with(fen, Validation::Lenient);
        if lenient_too {
            assert_eq!(lenient.as_ref().err(), Some(&err), "{fen:?}: lenient");
        } else {
            let p = lenient.unwrap_or_else(|e| panic!("{fen:?}: lenient reading fails: {e}"));
            // What a lenient read keeps is a position the writer can express and re-read.
            let again = Position::from_fen_with(&p.fen(), Validation::Lenient).unwrap();
            assert_eq!(again, p, "{fen:?}");
        }
    }
}

#[test]
fn lenient_reading_drops_what_cannot_be() {
    let p =
        Position::from_fen_with("4k3/8/8/8/8/8/8/4K3 w KQkq - 0 1", Validation::Lenient).unwrap();
    assert_eq!(p.fen(), "4k3/8/8/8/8/8/8/4K3 w - - 0 1");
    let p =
        Position::from_fen_with("4k3/8/8/4P3/8/8/8/4K3 w - d6 0 1", Validation::Lenient).unwrap();
    assert_eq!(p.ep_square(), None);
    let p = Position::from_fen_with(
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 0",
        Validation::Lenient,
    )
    .unwrap();
    assert_eq!(p.fullmoves(), 1);
}

#[test]
fn optional_counters_and_spacing() {
    let full = pos("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    assert_eq!(
        pos("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -"),
        full
    );
    assert_eq!(
        pos("  rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR   w KQkq - 0 1 \n"),
        full
    );
    let p = pos("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 5");
    assert_eq!((p.halfmoves(), p.fullmoves()), (5, 1));
}

#[test]
fn a_legal_en_passant_square_is_kept_a_useless_one_dropped() {
    // python-chess writes the same (`en_passant="legal"`).
    let p = pos("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1");
    assert_eq!(p.ep_square(), Some(sq("d6")));
    assert_eq!(p.fen(), "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1");
    // Possible double push, but no white pawn can take: dropped, equal to the '-' position.
    let p = pos("4k3/8/8/3p4/8/8/8/4K3 w - d6 0 1");
    assert_eq!(p.fen(), "4k3/8/8/3p4/8/8/8/4K3 w - - 0 1");
    assert_eq!(p, pos("4k3/8/8/3p4/8/8/8/4K3 w - - 0 1"));
}

// ---------------------------------------------------------------------------------------------
// No input panics
// ---------------------------------------------------------------------------------------------

struct XorShift(u64);

impl XorShift {
    fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

const SEEDS: &[&str] = &[
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1",
    "1r2k1r1/8/8/8/8/8/8/RR2K1RR w GBkq - 0 1",
    "rk3r2/pppppppp/8/8/8/8/PPPPPPPP/RK3R2 w KQkq - 0 1",
    "4rkr1/pppppppp/8/8/8/8/PPPPPPPP/4RKR1 b KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1",
    "8/P3k3/8/8/8/8/8/4K3 w - - 0 1",
    "6k1/8/8/8/8/8/8/1K2R2R w E - 0 1",
    "rnbqkbnr/pppppppp/8/8/8/N7/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
];

const FEN_CHARS: &[u8] = b"pnbrqkPNBRQK12345678/ wb-KQkqABCDEFGHabcdefgh0123456789 e3e6";

/// Everything a parsed position offers must work without panicking, and be consistent.
fn exercise(p: &Position, validation: Validation) {
    for dialect in [CastlingDialect::XFen, CastlingDialect::Shredder] {
        let fen = p.to_fen(dialect);
        let again = Position::from_fen_with(&fen, validation)
            .unwrap_or_else(|e| panic!("{p:?}: own {dialect:?} output {fen:?} rejected: {e}"));
        assert_eq!(&again, p, "{fen}");
    }
    let moves = p.legal_moves();
    for &m in moves.iter() {
        let after = p.play(m);
        let _ = after.fen();
        let san = p.san(m);
        assert_eq!(p.parse_san(&san), Ok(m), "{p:?} {san}");
        let uci = m.to_uci(CastlingMode::Chess960);
        assert_eq!(
            p.parse_uci(&uci, CastlingMode::Chess960),
            Ok(m),
            "{p:?} {uci}"
        );
    }
    let _ = (
        p.is_checkmate(),
        p.is_stalemate(),
        p.is_insufficient_material(),
    );
}

#[test]
fn no_input_panics() {
    let mut rng = XorShift(0x9E37_79B9_7F4A_7C15);
    let mut accepted = 0;
    let mut try_one = |s: &str| {
        if let Ok(p) = Position::from_fen(s) {
            accepted += 1;
            exercise(&p, Validation::Strict);
        }
        if let Ok(p) = Position::from_fen_with(s, Validation::Lenient) {
            exercise(&p, Validation::Lenient);
        }
        let _ = Position::from_fen(s).map_err(|e| e.to_string());
    };
    // Random bytes (lossily made text), random FEN-alphabet strings.
    for i in 0..5000 {
        let len = rng.below(90);
        let bytes: Vec<u8> = (0..len)
            .map(|_| {
                if i % 2 == 0 {
                    rng.next() as u8
                } else {
                    FEN_CHARS[rng.below(FEN_CHARS.len())]
                }
            })
            .collect();
        try_one(&String::from_utf8_lossy(&bytes));
    }
    // Mutated valid FENs: a few replacements, deletions, insertions, duplications.
    for _ in 0..20000 {
        let mut b = SEEDS[rng.below(SEEDS.len())].as_bytes().to_vec();
        for _ in 0..1 + rng.below(3) {
            let at = rng.below(b.len() + 1);
            match rng.below(5) {
                0 if at < b.len() => b[at] = FEN_CHARS[rng.below(FEN_CHARS.len())],
                1 if at < b.len() => {
                    b.remove(at);
                }
                2 => b.insert(at, FEN_CHARS[rng.below(FEN_CHARS.len())]),
                3 if at < b.len() => b[at] = rng.next() as u8,
                _ => {
                    let end = (at + rng.below(8)).min(b.len());
                    let chunk = b[at..end].to_vec();
                    b.splice(at..at, chunk);
                }
            }
        }
        try_one(&String::from_utf8_lossy(&b));
    }
    // The mutations must reach valid positions too, or this test proves little.
    assert!(accepted > 150, "only {accepted} inputs were accepted");
}

// ---------------------------------------------------------------------------------------------
// SAN reading tolerance
// ---------------------------------------------------------------------------------------------

fn uci(p: &Position, s: &str) -> Move {
    p.parse_uci(s, CastlingMode::Chess960).unwrap()
}

#[test]
fn san_castling_with_zeros_and_suffixes() {
    let p = pos("r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1");
    let oo = uci(&p, "e1h1");
    let ooo = uci(&p, "e1a1");
    for s in ["O-O", "0-0", "O-O+", "0-0#", "O-O!", "o-o"] {
        assert_eq!(p.parse_san(s), Ok(oo), "{s}");
    }
    for s in ["O-O-O", "0-0-0", "O-O-O+", "0-0-0?!"] {
        assert_eq!(p.parse_san(s), Ok(ooo), "{s}");
    }
    // Castling when it is not available is illegal, not a syntax error.
    let q = pos("4k3/8/8/8/8/8/8/4K3 w - - 0 1");
    assert!(matches!(q.parse_san("O-O"), Err(SanError::Illegal { .. })));
}

#[test]
fn san_promotions() {
    let p = pos("8/P3k3/8/8/8/8/8/4K3 w - - 0 1");
    let q = Move::promotion(sq("a7"), sq("a8"), Role::Queen);
    for s in ["a8=Q", "a8Q", "a8=q", "a8=Q+", "Pa8=Q"] {
        assert_eq!(p.parse_san(s), Ok(q), "{s}");
    }
    assert_eq!(p.san(q), "a8=Q");
    assert_eq!(
        p.parse_san("a8=N"),
        Ok(Move::promotion(sq("a7"), sq("a8"), Role::Knight))
    );
    // Missing piece: illegal, and the message says why.
    let err = p.parse_san("a8").unwrap_err();
    assert!(err.to_string().contains("promotion needs a piece"), "{err}");
    assert!(p.parse_san("a8=K").is_err());
}

#[test]
fn san_en_passant_spellings() {
    let p = pos("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1");
    let ep = Move::en_passant(sq("e5"), sq("d6"));
    assert_eq!(p.san(ep), "exd6");
    // `ed6` also by python-chess; the `e.p.` forms only here.
    for s in ["exd6", "ed6", "exd6e.p.", "exd6 e.p.", "exd6+"] {
        assert_eq!(p.parse_san(s), Ok(ep), "{s}");
    }
}

#[test]
fn san_capture_marks_and_check_marks_are_not_checked() {
    // python-chess accepts all of these too.
    let p = pos("4k3/8/8/4p3/8/5N2/8/4K3 w - - 0 1");
    let take = uci(&p, "f3e5");
    let quiet = uci(&p, "f3d4");
    assert_eq!(p.san(take), "Nxe5");
    assert_eq!(p.san(quiet), "Nd4");
    for s in ["Nxe5", "Ne5", "N:e5", "Nfe5", "Nf3e5", "Nxe5+", "Nxe5#"] {
        assert_eq!(p.parse_san(s), Ok(take), "{s}");
    }
    for s in ["Nd4", "Nxd4", "Nd4+", "Nd4#", "Nfd4", "Nd4!?"] {
        assert_eq!(p.parse_san(s), Ok(quiet), "{s}");
    }
    // The wrong disambiguation is illegal.
    assert!(matches!(p.parse_san("Ngd4"), Err(SanError::Illegal { .. })));
    // Garbage is a syntax error.
    for s in ["", "Zz9", "e9", "Nxxe5", "N", "O-O-O-O", "Nx"] {
        assert!(
            matches!(p.parse_san(s), Err(SanError::Syntax { .. })),
            "{s:?}"
        );
    }
}

#[test]
fn san_king_moves_are_never_castling() {
    // K g1 R h1: `Kh1` is not O-O (python-chess: illegal too).
    let p = pos("6k1/8/8/8/8/8/8/6KR w K - 0 1");
    assert!(matches!(p.parse_san("Kh1"), Err(SanError::Illegal { .. })));
    assert!(p.parse_san("O-O").unwrap().is_castle());
    // K e1 R h1: `Kg1` is not O-O.
    let p = pos("4k3/8/8/8/8/8/8/4K2R w K - 0 1");
    assert!(matches!(p.parse_san("Kg1"), Err(SanError::Illegal { .. })));
    assert_eq!(p.parse_san("Kf1"), Ok(uci(&p, "e1f1")));
    // K f1 R h1: `Kg1` is the king step.
    let p = pos("4k3/8/8/8/8/8/8/5K1R w K - 0 1");
    let m = p.parse_san("Kg1").unwrap();
    assert!(!m.is_castle());
    assert_eq!(m, Move::normal(sq("f1"), sq("g1")));
    // K b1 R a1: `Kc1` is the king step, `Ka1` nothing.
    let p = pos("4k3/8/8/8/8/8/8/RK6 w Q - 0 1");
    assert_eq!(p.parse_san("Kc1"), Ok(Move::normal(sq("b1"), sq("c1"))));
    assert!(p.parse_san("Ka1").is_err());
}

#[test]
fn san_disambiguation_ignores_pinned_pieces() {
    // Knights b1 and f3 both reach d2, but f3 is pinned by the bishop on e4 against the king
    // on h1: the SAN is `Nd2` (python-chess: `Nd2`; `Nfd2` illegal).
    let p = pos("4k3/8/8/8/4b3/5N2/8/1N5K w - - 0 1");
    assert!(p.pinned().contains(sq("f3")));
    let m = Move::normal(sq("b1"), sq("d2"));
    assert_eq!(p.san(m), "Nd2");
    assert_eq!(p.parse_san("Nd2"), Ok(m));
    assert_eq!(p.parse_san("Nbd2"), Ok(m));
    assert!(matches!(p.parse_san("Nfd2"), Err(SanError::Illegal { .. })));

    // Without the pin both can go: `Nbd2` / `Nfd2`, and `Nd2` is ambiguous.
    let p = pos("4k3/8/8/8/8/5N2/8/1N5K w - - 0 1");
    assert_eq!(p.san(m), "Nbd2");
    assert_eq!(p.san(Move::normal(sq("f3"), sq("d2"))), "Nfd2");
    match p.parse_san("Nd2") {
        Err(SanError::Ambiguous { candidates, .. }) => {
            let mut c = candidates.clone();
            c.sort();
            assert_eq!(c, ["Nbd2", "Nfd2"]);
        }
        other => panic!("expected ambiguity, got {other:?}"),
    }
    // Knights b1 and d1 can both block the bishop's check on c3: `Nbc3` / `Ndc3`.
    let p = pos("4k3/8/8/8/1b6/8/8/RN1NK3 w - - 0 1");
    assert_eq!(p.san(Move::normal(sq("b1"), sq("c3"))), "Nbc3");
    assert_eq!(p.san(Move::normal(sq("d1"), sq("c3"))), "Ndc3");
    assert!(matches!(
        p.parse_san("Nc3"),
        Err(SanError::Ambiguous { .. })
    ));
}

/// Found by the `fen` fuzz target: the reader once took six-digit counters only while `play`
/// counted on. Every counter the library writes must read back, up to the saturation point.
#[test]
fn own_output_with_large_counters_reads_back() {
    let p = pos("4k3/8/8/8/8/8/8/4K3 w - - 999999 999999");
    let after = p.play(p.parse_san("Kd1").unwrap());
    assert_eq!(after.fen(), "4k3/8/8/8/8/8/8/3K4 b - - 1000000 999999");
    assert_eq!(Position::from_fen(&after.fen()), Ok(after));
    let p = pos("4k3/8/8/8/8/8/8/4K3 b - - 0 999999");
    let after = p.play(p.parse_san("Kd8").unwrap());
    assert_eq!(Position::from_fen(&after.fen()), Ok(after));
    // At the top of the range the counters stay put instead of wrapping.
    let p = pos("4k3/8/8/8/8/8/8/4K3 b - - 4294967295 4294967295");
    let after = p.play(p.parse_san("Kd8").unwrap());
    assert_eq!(
        after.fen(),
        "3k4/8/8/8/8/8/8/4K3 w - - 4294967295 4294967295"
    );
    assert!(Position::from_fen("4k3/8/8/8/8/8/8/4K3 b - - 4294967296 1").is_err());
}
