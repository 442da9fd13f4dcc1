//! The evaluation's weights (layout in `eval::layout`), written by
//! `chess960-engine tune`; see the "Tuning" section of `docs/engine.md`.
//!
//! Data: target/tune/selfplay.txt (203065 training, 22000 held-out positions); 1000 epochs at rate 1, L2 0.00000003.
//! K = 1.057; mean squared error 0.089700 -> 0.085714 (held out 0.095286 -> 0.094140).

use crate::eval::Score;

/// The compiled-in weights.
pub const WEIGHTS: [Score; crate::eval::layout::N] = [
    Score(66, 87),    // material pawn
    Score(344, 284),  // material knight
    Score(344, 277),  // material bishop
    Score(489, 532),  // material rook
    Score(1039, 948), // material queen
    Score(0, 0),      // material king
    Score(0, 0),      // psq pawn a1
    Score(0, 0),      // psq pawn b1
    Score(0, 0),      // psq pawn c1
    Score(0, 0),      // psq pawn d1
    Score(-25, 14),   // psq pawn a2
    Score(8, 27),     // psq pawn b2
    Score(5, 28),     // psq pawn c2
    Score(-5, 0),     // psq pawn d2
    Score(-12, 10),   // psq pawn a3
    Score(5, 8),      // psq pawn b3
    Score(5, 12),     // psq pawn c3
    Score(22, 3),     // psq pawn d3
    Score(-11, 19),   // psq pawn a4
    Score(-6, 23),    // psq pawn b4
    Score(8, 19),     // psq pawn c4
    Score(20, -5),    // psq pawn d4
    Score(9, 33),     // psq pawn a5
    Score(16, 37),    // psq pawn b5
    Score(37, 24),    // psq pawn c5
    Score(34, 15),    // psq pawn d5
    Score(19, 57),    // psq pawn a6
    Score(12, 30),    // psq pawn b6
    Score(33, 25),    // psq pawn c6
    Score(25, 28),    // psq pawn d6
    Score(20, 42),    // psq pawn a7
    Score(24, 53),    // psq pawn b7
    Score(31, 40),    // psq pawn c7
    Score(31, 49),    // psq pawn d7
    Score(0, 0),      // psq pawn a8
    Score(0, 0),      // psq pawn b8
    Score(0, 0),      // psq pawn c8
    Score(0, 0),      // psq pawn d8
    Score(-23, -14),  // psq knight a1
    Score(-25, -15),  // psq knight b1
    Score(-9, -8),    // psq knight c1
    Score(-6, -14),   // psq knight d1
    Score(-15, -15),  // psq knight a2
    Score(-6, -5),    // psq knight b2
    Score(-4, 2),     // psq knight c2
    Score(-3, -2),    // psq knight d2
    Score(-17, -8),   // psq knight a3
    Score(-17, 8),    // psq knight b3
    Score(-4, -2),    // psq knight c3
    Score(16, -7),    // psq knight d3
    Score(-6, -10),   // psq knight a4
    Score(27, 3),     // psq knight b4
    Score(17, 17),    // psq knight c4
    Score(6, 8),      // psq knight d4
    Score(-3, 6),     // psq knight a5
    Score(-7, -2),    // psq knight b5
    Score(7, 25),     // psq knight c5
    Score(35, 16),    // psq knight d5
    Score(-16, -16),  // psq knight a6
    Score(7, 6),      // psq knight b6
    Score(11, -3),    // psq knight c6
    Score(13, 11),    // psq knight d6
    Score(-25, -20),  // psq knight a7
    Score(-9, -6),    // psq knight b7
    Score(-7, -8),    // psq knight c7
    Score(4, -1),     // psq knight d7
    Score(-27, -16),  // psq knight a8
    Score(-20, -14),  // psq knight b8
    Score(-12, -8),   // psq knight c8
    Score(-4, -2),    // psq knight d8
    Score(-10, -12),  // psq bishop a1
    Score(-1, -4),    // psq bishop b1
    Score(-18, -10),  // psq bishop c1
    Score(-5, -13),   // psq bishop d1
    Score(-11, -11),  // psq bishop a2
    Score(-11, -4),   // psq bishop b2
    Score(-12, -4),   // psq bishop c2
    Score(-5, -10),   // psq bishop d2
    Score(9, -4),     // psq bishop a3
    Score(-8, -9),    // psq bishop b3
    Score(-5, 6),     // psq bishop c3
    Score(12, 6),     // psq bishop d3
    Score(5, 3),      // psq bishop a4
    Score(9, -2),     // psq bishop b4
    Score(7, -5),     // psq bishop c4
    Score(22, 17),    // psq bishop d4
    Score(-2, 4),     // psq bishop a5
    Score(3, 14),     // psq bishop b5
    Score(5, 6),      // psq bishop c5
    Score(9, 11),     // psq bishop d5
    Score(-1, 1),     // psq bishop a6
    Score(-2, -5),    // psq bishop b6
    Score(18, 13),    // psq bishop c6
    Score(6, 1),      // psq bishop d6
    Score(-8, -6),    // psq bishop a7
    Score(0, -2),     // psq bishop b7
    Score(-4, -6),    // psq bishop c7
    Score(6, 3),      // psq bishop d7
    Score(-12, -10),  // psq bishop a8
    Score(-9, -10),   // psq bishop b8
    Score(-6, -9),    // psq bishop c8
    Score(-2, 0),     // psq bishop d8
    Score(4, -1),     // psq rook a1
    Score(2, -2),     // psq rook b1
    Score(3, 8),      // psq rook c1
    Score(8, -9),     // psq rook d1
    Score(-3, -5),    // psq rook a2
    Score(-11, -10),  // psq rook b2
    Score(-13, -6),   // psq rook c2
    Score(4, -11),    // psq rook d2
    Score(3, 3),      // psq rook a3
    Score(-3, 3),     // psq rook b3
    Score(7, 2),      // psq rook c3
    Score(-12, -2),   // psq rook d3
    Score(-2, 6),     // psq rook a4
    Score(-5, 10),    // psq rook b4
    Score(-4, 7),     // psq rook c4
    Score(3, 1),      // psq rook d4
    Score(10, 1),     // psq rook a5
    Score(8, 1),      // psq rook b5
    Score(1, 5),      // psq rook c5
    Score(-5, -1),    // psq rook d5
    Score(6, 5),      // psq rook a6
    Score(7, 2),      // psq rook b6
    Score(0, -2),     // psq rook c6
    Score(7, 3),      // psq rook d6
    Score(10, 6),     // psq rook a7
    Score(12, 4),     // psq rook b7
    Score(16, 18),    // psq rook c7
    Score(11, 4),     // psq rook d7
    Score(6, 11),     // psq rook a8
    Score(3, 10),     // psq rook b8
    Score(0, 0),      // psq rook c8
    Score(-1, -1),    // psq rook d8
    Score(2, -11),    // psq queen a1
    Score(-21, -7),   // psq queen b1
    Score(-2, -14),   // psq queen c1
    Score(-18, -4),   // psq queen d1
    Score(-8, -9),    // psq queen a2
    Score(0, -7),     // psq queen b2
    Score(15, -6),    // psq queen c2
    Score(-6, -2),    // psq queen d2
    Score(-6, -3),    // psq queen a3
    Score(5, -4),     // psq queen b3
    Score(-4, 5),     // psq queen c3
    Score(-10, 13),   // psq queen d3
    Score(-1, 1),     // psq queen a4
    Score(6, 6),      // psq queen b4
    Score(4, 11),     // psq queen c4
    Score(15, 17),    // psq queen d4
    Score(-3, 1),     // psq queen a5
    Score(-4, 3),     // psq queen b5
    Score(2, 10),     // psq queen c5
    Score(3, 13),     // psq queen d5
    Score(-2, 0),     // psq queen a6
    Score(4, 8),      // psq queen b6
    Score(1, 4),      // psq queen c6
    Score(3, 9),      // psq queen d6
    Score(-10, -7),   // psq queen a7
    Score(3, -1),     // psq queen b7
    Score(0, -1),     // psq queen c7
    Score(-2, 5),     // psq queen d7
    Score(-7, -10),   // psq queen a8
    Score(-5, -6),    // psq queen b8
    Score(-3, -3),    // psq queen c8
    Score(0, 2),      // psq queen d8
    Score(0, -45),    // psq king a1
    Score(7, -39),    // psq king b1
    Score(-17, -18),  // psq king c1
    Score(-34, -15),  // psq king d1
    Score(-25, -14),  // psq king a2
    Score(-28, -16),  // psq king b2
    Score(-20, -13),  // psq king c2
    Score(-23, 4),    // psq king d2
    Score(-38, -7),   // psq king a3
    Score(-40, 1),    // psq king b3
    Score(-41, 1),    // psq king c3
    Score(-41, 17),   // psq king d3
    Score(-48, 5),    // psq king a4
    Score(-50, -1),   // psq king b4
    Score(-51, 10),   // psq king c4
    Score(-50, 14),   // psq king d4
    Score(-59, 1),    // psq king a5
    Score(-57, 14),   // psq king b5
    Score(-60, 8),    // psq king c5
    Score(-59, 21),   // psq king d5
    Score(-68, -7),   // psq king a6
    Score(-68, 5),    // psq king b6
    Score(-70, 9),    // psq king c6
    Score(-70, 16),   // psq king d6
    Score(-80, -20),  // psq king a7
    Score(-80, -8),   // psq king b7
    Score(-78, 1),    // psq king c7
    Score(-80, 6),    // psq king d7
    Score(-90, -28),  // psq king a8
    Score(-90, -19),  // psq king b8
    Score(-89, -10),  // psq king c8
    Score(-89, -1),   // psq king d8
    Score(-14, -5),   // mobility knight 0
    Score(-2, -8),    // mobility knight 1
    Score(8, 12),     // mobility knight 2
    Score(15, 11),    // mobility knight 3
    Score(19, 20),    // mobility knight 4
    Score(25, 32),    // mobility knight 5
    Score(32, 33),    // mobility knight 6
    Score(38, 32),    // mobility knight 7
    Score(30, 21),    // mobility knight 8
    Score(-11, -8),   // mobility bishop 0
    Score(-6, -3),    // mobility bishop 1
    Score(9, -3),     // mobility bishop 2
    Score(19, 7),     // mobility bishop 3
    Score(19, 24),    // mobility bishop 4
    Score(23, 24),    // mobility bishop 5
    Score(30, 28),    // mobility bishop 6
    Score(36, 39),    // mobility bishop 7
    Score(37, 52),    // mobility bishop 8
    Score(48, 47),    // mobility bishop 9
    Score(51, 52),    // mobility bishop 10
    Score(55, 58),    // mobility bishop 11
    Score(60, 57),    // mobility bishop 12
    Score(65, 64),    // mobility bishop 13
    Score(-7, -5),    // mobility rook 0
    Score(1, 1),      // mobility rook 1
    Score(-1, 5),     // mobility rook 2
    Score(7, 15),     // mobility rook 3
    Score(10, 15),    // mobility rook 4
    Score(12, 19),    // mobility rook 5
    Score(20, 29),    // mobility rook 6
    Score(23, 33),    // mobility rook 7
    Score(25, 37),    // mobility rook 8
    Score(12, 43),    // mobility rook 9
    Score(24, 44),    // mobility rook 10
    Score(18, 43),    // mobility rook 11
    Score(21, 49),    // mobility rook 12
    Score(27, 46),    // mobility rook 13
    Score(31, 64),    // mobility rook 14
    Score(-16, -1),   // mobility queen 0
    Score(-12, 3),    // mobility queen 1
    Score(-10, 1),    // mobility queen 2
    Score(-1, 3),     // mobility queen 3
    Score(3, 4),      // mobility queen 4
    Score(7, 7),      // mobility queen 5
    Score(9, 11),     // mobility queen 6
    Score(9, 11),     // mobility queen 7
    Score(13, 17),    // mobility queen 8
    Score(6, 22),     // mobility queen 9
    Score(19, 23),    // mobility queen 10
    Score(18, 23),    // mobility queen 11
    Score(21, 26),    // mobility queen 12
    Score(25, 30),    // mobility queen 13
    Score(14, 31),    // mobility queen 14
    Score(21, 36),    // mobility queen 15
    Score(18, 33),    // mobility queen 16
    Score(19, 38),    // mobility queen 17
    Score(21, 39),    // mobility queen 18
    Score(21, 40),    // mobility queen 19
    Score(22, 42),    // mobility queen 20
    Score(21, 41),    // mobility queen 21
    Score(22, 43),    // mobility queen 22
    Score(23, 44),    // mobility queen 23
    Score(24, 47),    // mobility queen 24
    Score(25, 49),    // mobility queen 25
    Score(26, 52),    // mobility queen 26
    Score(27, 54),    // mobility queen 27
    Score(26, 54),    // bishop pair
    Score(-5, -12),   // doubled pawn
    Score(-14, -18),  // isolated pawn
    Score(0, 0),      // passed pawn rank 1
    Score(7, 16),     // passed pawn rank 2
    Score(3, 23),     // passed pawn rank 3
    Score(-7, 35),    // passed pawn rank 4
    Score(14, 50),    // passed pawn rank 5
    Score(40, 71),    // passed pawn rank 6
    Score(76, 125),   // passed pawn rank 7
    Score(0, 0),      // passed pawn rank 8
    Score(38, -6),    // rook open file
    Score(13, 8),     // rook half-open file
    Score(19, -11),   // king pawn shield
    Score(0, 0),      // king attack pawn
    Score(13, -12),   // king attack knight
    Score(19, -4),    // king attack bishop
    Score(11, 0),     // king attack rook
    Score(18, 24),    // king attack queen
    Score(0, 0),      // king attack king
    Score(-32, -14),  // corner bishop blocked
    Score(-32, -12),  // rook trapped by king
    Score(9, 1),      // tempo
];
