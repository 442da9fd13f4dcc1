//! Game outcomes: checkmate, stalemate, insufficient material, repetition and move-count rules.

use chess960_core::{
    CastlingMode, Color, Game, GameError, Outcome, Position, StartId, Termination,
};

fn play(game: &mut Game, moves: &str) {
    for san in moves.split_whitespace() {
        let m = game
            .position()
            .parse_san(san)
            .unwrap_or_else(|e| panic!("{san}: {e}"));
        game.play(m).unwrap();
    }
}

#[test]
fn fools_mate() {
    let mut g = Game::chess960(StartId::CLASSICAL);
    assert_eq!(g.start_id(), Some(StartId::CLASSICAL));
    play(&mut g, "f3 e5 g4 Qh4#");
    assert_eq!(
        g.outcome(),
        Some(Outcome::Win {
            winner: Color::Black,
            reason: Termination::Checkmate
        })
    );
    assert_eq!(g.outcome().unwrap().result(), "0-1");
    let any = g.position().legal_moves();
    assert!(any.is_empty());
    // Moves after the end are refused.
    let pos = Position::from_fen("8/8/8/8/8/8/8/K6k w - - 0 1").unwrap();
    let m = pos.legal_moves()[0];
    assert!(matches!(g.play(m), Err(GameError::Finished(_))));
}

#[test]
fn stalemate() {
    let pos = Position::from_fen("7k/8/6Q1/8/8/8/8/K7 w - - 0 1").unwrap();
    let mut g = Game::from_position(pos);
    assert_eq!(g.start_id(), None);
    play(&mut g, "Qf7");
    assert_eq!(
        g.outcome(),
        Some(Outcome::Draw {
            reason: Termination::Stalemate
        })
    );
}

#[test]
fn insufficient_material_after_capture() {
    let pos = Position::from_fen("8/8/8/8/4n3/2k5/8/K1B5 b - - 0 1").unwrap();
    let mut g = Game::from_position(pos);
    assert_eq!(g.outcome(), None);
    play(&mut g, "Nd2");
    assert_eq!(g.outcome(), None);
    play(&mut g, "Bxd2+");
    assert_eq!(
        g.outcome(),
        Some(Outcome::Draw {
            reason: Termination::InsufficientMaterial
        })
    );
}

#[test]
fn threefold_claim_and_fivefold_automatic() {
    let mut g = Game::chess960(StartId::new(0).unwrap());
    assert_eq!(g.repetitions(), 1);
    assert_eq!(g.claimable_draw(), None);
    assert_eq!(g.claim_draw(), Err(GameError::NoDrawToClaim));
    // Knights out and back: the start position recurs every four plies.
    for _ in 0..2 {
        play(&mut g, "Nf3 Nf6 Ne1 Ne8");
    }
    assert_eq!(g.repetitions(), 3);
    assert_eq!(g.claimable_draw(), Some(Termination::ThreefoldRepetition));
    assert_eq!(g.outcome(), None, "threefold is claimed, not automatic");
    for _ in 0..2 {
        play(&mut g, "Nf3 Nf6 Ne1 Ne8");
    }
    assert_eq!(g.repetitions(), 5);
    assert_eq!(
        g.outcome(),
        Some(Outcome::Draw {
            reason: Termination::FivefoldRepetition
        })
    );
    // Taking back reopens the game.
    g.undo().unwrap();
    assert_eq!(g.outcome(), None);
    assert_eq!(
        g.claim_draw(),
        Ok(Outcome::Draw {
            reason: Termination::ThreefoldRepetition
        })
    );
}

#[test]
fn repetition_respects_castling_rights() {
    // Rook out and back: placement repeats but the castling right is gone, so the first
    // position does not count again.
    let pos = Position::from_fen("r3k3/8/8/8/8/8/8/4K2R w Kq - 0 1").unwrap();
    let mut g = Game::from_position(pos);
    play(&mut g, "Rh2 Kd8 Rh1 Ke8");
    assert_eq!(g.repetitions(), 1);
    play(&mut g, "Rh2 Kd8 Rh1 Ke8");
    assert_eq!(g.repetitions(), 2);
}

#[test]
fn fifty_move_claim_and_75_move_automatic() {
    let pos = Position::from_fen("8/8/8/3k4/8/8/R7/4K3 w - - 98 80").unwrap();
    let mut g = Game::from_position(pos);
    assert_eq!(g.claimable_draw(), None);
    play(&mut g, "Ra3 Kd4");
    assert_eq!(g.position().halfmoves(), 100);
    assert_eq!(g.claimable_draw(), Some(Termination::FiftyMoves));
    assert_eq!(g.outcome(), None);

    let pos = Position::from_fen("8/8/8/3k4/8/8/R7/4K3 w - - 148 80").unwrap();
    let mut g = Game::from_position(pos);
    play(&mut g, "Ra3");
    assert_eq!(g.outcome(), None);
    play(&mut g, "Kd4");
    assert_eq!(
        g.outcome(),
        Some(Outcome::Draw {
            reason: Termination::SeventyFiveMoves
        })
    );
}

#[test]
fn checkmate_on_the_150th_half_move_is_checkmate() {
    // Mate delivered by the move that reaches the 75-move limit: mate takes precedence.
    let pos = Position::from_fen("7k/8/6K1/8/8/8/8/R7 w - - 149 120").unwrap();
    let mut g = Game::from_position(pos);
    let m = g
        .position()
        .parse_uci("a1a8", CastlingMode::Chess960)
        .unwrap();
    g.play(m).unwrap();
    assert_eq!(g.outcome().unwrap().reason(), Termination::Checkmate);
}

#[test]
fn illegal_moves_refused() {
    let mut g = Game::chess960(StartId::CLASSICAL);
    let pos = Position::from_fen("4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1").unwrap();
    let castle = pos.parse_san("O-O").unwrap();
    assert_eq!(g.play(castle), Err(GameError::IllegalMove(castle)));
    assert!(g.moves().is_empty());
}

#[test]
fn a_fallen_flag_loses_unless_the_opponent_cannot_mate() {
    // White has a rook, Black a bare king.
    let pos = Position::from_fen("4k3/8/8/8/8/8/8/R3K3 w - - 0 1").unwrap();
    assert_eq!(
        Outcome::on_time(Color::Black, &pos),
        Outcome::Win {
            winner: Color::White,
            reason: Termination::Timeout
        }
    );
    // White's flag falls: Black has nothing to mate with, so it is a draw (FIDE 6.9).
    assert_eq!(
        Outcome::on_time(Color::White, &pos),
        Outcome::Draw {
            reason: Termination::Timeout
        }
    );
    // A lone knight cannot mate either; a pawn can (it may promote).
    let knight = Position::from_fen("4k3/8/8/8/8/8/8/1N2K3 w - - 0 1").unwrap();
    assert!(matches!(
        Outcome::on_time(Color::Black, &knight),
        Outcome::Draw { .. }
    ));
    let pawn = Position::from_fen("4k3/8/8/8/8/8/P7/4K3 w - - 0 1").unwrap();
    assert!(matches!(
        Outcome::on_time(Color::Black, &pawn),
        Outcome::Win { .. }
    ));
}
