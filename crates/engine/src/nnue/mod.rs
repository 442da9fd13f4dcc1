//! The neural-network evaluation (NNUE): a perspective network (768 → N)×2 → 1 with squared
//! clipped ReLU (SCReLU), trained by `chess960-train` on this engine's own self-play
//! (`chess960-engine datagen`), quantised to integers.
//!
//! This module holds what the trainer and the engine must agree on: the input features, the
//! quantisation constants and the file format of a net. The trainer writes a net with
//! [`Network::to_bytes`]; the engine reads it with [`Network::from_bytes`] and evaluates it
//! incrementally (accumulators updated move by move); [`Network::evaluate_board`] is the plain
//! reference both are tested against.
//!
//! # Features
//! Each side has its own accumulator, seen from its own side of the board: for the perspective
//! of `colour`, a piece is feature `(own ? 0 : 384) + role·64 + square`, with the square
//! mirrored top to bottom (a1 ↔ a8) for Black. Roles are in [`Role`]'s order (pawn … king),
//! squares a1 = 0 … h8 = 63. Chess960 needs nothing special: castling is a king and a rook
//! changing squares, whatever the squares.
//!
//! # Output
//! `eval = (Σ screlu(us)·w_us + Σ screlu(them)·w_them) / QA + bias) · SCALE / (QA·QB)`, in
//! centipawns for the side to move, where `screlu(x) = clamp(x, 0, QA)²`. In floating point
//! (the trainer's view) that is `SCALE · (Σ f(us)·w + Σ f(them)·w' + b)` with
//! `f(x) = clamp(x, 0, 1)²`.
//!
//! # File format (little-endian)
//! | bytes | content |
//! |---|---|
//! | 8 | magic `C960NNUE` |
//! | 4 | format version, 1 |
//! | 4 | hidden size N |
//! | 4 × 3 | QA, QB, SCALE (checked against this build's constants) |
//! | 2 × 768·N | feature weights, i16, feature-major (`[feature][neuron]`) |
//! | 2 × N | accumulator biases, i16 |
//! | 2 × 2N | output weights, i16: N for the side to move, then N for the other side |
//! | 4 | output bias, i32 (in units of QA·QB) |

use chess960_core::{Board, Color, Piece, Square};
use std::sync::{Arc, OnceLock};

mod accumulator;
pub mod simd;

pub use accumulator::AccumulatorStack;
use std::fmt;

/// Input features per perspective: 2 colours × 6 roles × 64 squares.
pub const INPUTS: usize = 768;
/// Quantisation of the accumulator: 1.0 = `QA`.
pub const QA: i32 = 255;
/// Quantisation of the output weights: 1.0 = `QB`.
pub const QB: i32 = 64;
/// Centipawns per unit of the network's output.
pub const SCALE: i32 = 400;
/// The trainer clamps weights to ±`WEIGHT_CLIP` so that `QA · |w|` fits in an i16 (the
/// engine's SIMD multiplies a clipped activation by an output weight in 16 bits).
pub const WEIGHT_CLIP: f32 = 1.98;

const MAGIC: &[u8; 8] = b"C960NNUE";
const VERSION: u32 = 1;
const HEADER: usize = 8 + 4 * 5;

/// The net built into the binary (`crates/engine/nets/default.nnue`; its provenance, the
/// commands that made it and the match that accepted it, is in `nets/README.md`).
static BUILT_IN: &[u8] = include_bytes!("../../nets/default.nnue");

/// The net the engine plays with unless told otherwise: the one built into the binary.
/// `None` would mean the hand-crafted evaluation (`eval.rs`).
pub fn default_net() -> Option<Arc<Network>> {
    static NET: OnceLock<Arc<Network>> = OnceLock::new();
    Some(Arc::clone(NET.get_or_init(|| {
        // Checked by a unit test (`the_built_in_net_loads`): a broken file fails the build's
        // tests, never a user's run.
        Arc::new(Network::from_bytes(BUILT_IN).expect("the built-in net is a valid net file"))
    })))
}

/// The input feature of `piece` on `square` for the accumulator of `perspective`.
#[inline]
pub fn feature(perspective: Color, piece: Piece, square: Square) -> usize {
    let own = usize::from(piece.color != perspective) * 384;
    let sq = if perspective == Color::White {
        square.index()
    } else {
        square.index() ^ 56
    };
    own + piece.role.index() * 64 + sq
}

/// A net that cannot be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NetError {
    /// The data does not start with `C960NNUE`.
    Magic,
    /// A format version this build does not read.
    Version(u32),
    /// The quantisation constants differ from this build's.
    Constants {
        /// QA, QB and SCALE in the file.
        found: [u32; 3],
    },
    /// The hidden size is 0 or absurdly large.
    Hidden(u32),
    /// The data is shorter or longer than its header says.
    Length {
        /// Bytes the header calls for.
        expected: usize,
        /// Bytes present.
        found: usize,
    },
}

impl fmt::Display for NetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NetError::Magic => write!(f, "not a chess960 net (no C960NNUE header)"),
            NetError::Version(v) => write!(f, "net format version {v}; this build reads {VERSION}"),
            NetError::Constants { found } => write!(
                f,
                "net quantised with QA={}, QB={}, SCALE={}; this build uses {QA}, {QB}, {SCALE}",
                found[0], found[1], found[2]
            ),
            NetError::Hidden(n) => write!(f, "hidden size {n} is out of range (1 to 4096)"),
            NetError::Length { expected, found } => {
                write!(f, "net is {found} bytes; its header calls for {expected}")
            }
        }
    }
}

impl std::error::Error for NetError {}

/// A quantised network, as stored in a net file.
#[derive(Clone, PartialEq, Eq)]
pub struct Network {
    /// Hidden size N.
    pub hidden: usize,
    /// `[feature][neuron]`, `INPUTS × hidden`.
    pub feature_weights: Vec<i16>,
    /// Accumulator biases, `hidden`.
    pub feature_bias: Vec<i16>,
    /// Output weights: `hidden` for the side to move, then `hidden` for the other side.
    pub output_weights: Vec<i16>,
    /// Output bias in units of `QA · QB`.
    pub output_bias: i32,
}

impl fmt::Debug for Network {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Network(768→{}×2→1)", self.hidden)
    }
}

fn file_len(hidden: usize) -> usize {
    HEADER + 2 * (INPUTS * hidden + hidden + 2 * hidden) + 4
}

impl Network {
    /// Reads a net file.
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, NetError> {
        if bytes.len() < HEADER || &bytes[..8] != MAGIC {
            return Err(NetError::Magic);
        }
        let word = |i: usize| u32::from_le_bytes(bytes[8 + 4 * i..12 + 4 * i].try_into().unwrap());
        if word(0) != VERSION {
            return Err(NetError::Version(word(0)));
        }
        let hidden = word(1);
        if hidden == 0 || hidden > 4096 {
            return Err(NetError::Hidden(hidden));
        }
        let found = [word(2), word(3), word(4)];
        if found != [QA as u32, QB as u32, SCALE as u32] {
            return Err(NetError::Constants { found });
        }
        let hidden = hidden as usize;
        let expected = file_len(hidden);
        if bytes.len() != expected {
            return Err(NetError::Length {
                expected,
                found: bytes.len(),
            });
        }
        let mut at = HEADER;
        let mut take = |n: usize| {
            let v: Vec<i16> = bytes[at..at + 2 * n]
                .chunks_exact(2)
                .map(|c| i16::from_le_bytes([c[0], c[1]]))
                .collect();
            at += 2 * n;
            v
        };
        let feature_weights = take(INPUTS * hidden);
        let feature_bias = take(hidden);
        let output_weights = take(2 * hidden);
        let output_bias = i32::from_le_bytes(bytes[expected - 4..].try_into().unwrap());
        Ok(Network {
            hidden,
            feature_weights,
            feature_bias,
            output_weights,
            output_bias,
        })
    }

    /// Reads the net file at `path`. Reads at most the size of the largest net this format
    /// allows, so that a wrong path (`/dev/zero`, a huge file) is refused rather than read
    /// without end.
    pub fn load(path: &std::path::Path) -> Result<Network, String> {
        use std::io::Read;
        let limit = file_len(4096);
        let mut bytes = Vec::new();
        std::fs::File::open(path)
            .and_then(|f| f.take(limit as u64 + 1).read_to_end(&mut bytes))
            .map_err(|e| e.to_string())?;
        if bytes.len() > limit {
            return Err(format!("larger than any net ({limit} bytes at most)"));
        }
        Network::from_bytes(&bytes).map_err(|e| e.to_string())
    }

    /// The net file of this network.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(file_len(self.hidden));
        out.extend_from_slice(MAGIC);
        for word in [
            VERSION,
            self.hidden as u32,
            QA as u32,
            QB as u32,
            SCALE as u32,
        ] {
            out.extend_from_slice(&word.to_le_bytes());
        }
        for w in self
            .feature_weights
            .iter()
            .chain(&self.feature_bias)
            .chain(&self.output_weights)
        {
            out.extend_from_slice(&w.to_le_bytes());
        }
        out.extend_from_slice(&self.output_bias.to_le_bytes());
        out
    }

    /// The accumulator of `perspective` for `board`, computed from scratch.
    pub fn accumulate(&self, board: &Board, perspective: Color) -> Vec<i16> {
        let mut acc = self.feature_bias.clone();
        for (square, piece) in board.pieces() {
            let row = feature(perspective, piece, square) * self.hidden;
            for (a, w) in acc
                .iter_mut()
                .zip(&self.feature_weights[row..row + self.hidden])
            {
                *a = a.wrapping_add(*w);
            }
        }
        acc
    }

    /// The output for the two accumulators, in centipawns for the side to move (`us` is its
    /// accumulator): the plain reference of the engine's SIMD code.
    pub fn output(&self, us: &[i16], them: &[i16]) -> i32 {
        let (w_us, w_them) = self.output_weights.split_at(self.hidden);
        self.scale_output(
            simd::portable::screlu_dot(us, w_us) + simd::portable::screlu_dot(them, w_them),
        )
    }

    /// Centipawns from the sum of `clamp(x)²·w` over both accumulators.
    fn scale_output(&self, sum: i64) -> i32 {
        let out = sum / i64::from(QA) + i64::from(self.output_bias);
        (out * i64::from(SCALE) / i64::from(QA * QB)) as i32
    }

    /// The evaluation of `board` with `turn` to move, in centipawns for the side to move,
    /// computed from scratch.
    pub fn evaluate_board(&self, board: &Board, turn: Color) -> i32 {
        let us = self.accumulate(board, turn);
        let them = self.accumulate(board, !turn);
        self.output(&us, &them)
    }
}

/// Random nets and values for the tests of this module and its submodules.
#[cfg(test)]
pub(crate) mod testing {
    use super::{Network, INPUTS};

    /// `n` values in `-range..=range` from a linear congruential generator advanced in `seed`.
    pub(crate) fn random_values(n: usize, seed: &mut u64, range: i16) -> Vec<i16> {
        (0..n)
            .map(|_| {
                *seed = seed
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                ((*seed >> 33) % (2 * range as u64 + 1)) as i16 - range
            })
            .collect()
    }

    /// A net with random weights small enough for the 16-bit products of the output layer.
    pub(crate) fn random_net(hidden: usize, seed: u64) -> Network {
        let mut seed = seed;
        Network {
            hidden,
            feature_weights: random_values(INPUTS * hidden, &mut seed, 90),
            feature_bias: random_values(hidden, &mut seed, 60),
            output_weights: random_values(2 * hidden, &mut seed, 127),
            output_bias: 777,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::testing::random_net;
    use super::*;
    use chess960_core::Role;

    #[test]
    fn the_built_in_net_loads() {
        let net = Network::from_bytes(BUILT_IN).unwrap();
        assert!(net.hidden % 16 == 0, "the SIMD code wants a multiple of 16");
        // It plays chess: a queen up is good for the side that has it, whoever moves.
        let up = chess960_core::Position::from_fen(
            "rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        )
        .unwrap();
        assert!(net.evaluate_board(up.board(), Color::White) > 500);
        assert!(net.evaluate_board(up.board(), Color::Black) < -500);
    }

    #[test]
    fn a_net_survives_writing_and_reading() {
        let net = random_net(16, 7);
        let bytes = net.to_bytes();
        assert_eq!(bytes.len(), 8 + 20 + 2 * (768 * 16 + 16 + 32) + 4);
        assert_eq!(Network::from_bytes(&bytes).unwrap(), net);
    }

    #[test]
    fn broken_nets_are_refused_with_the_reason() {
        let bytes = random_net(8, 7).to_bytes();
        assert_eq!(
            Network::from_bytes(b"nonsense").unwrap_err(),
            NetError::Magic
        );
        assert_eq!(
            Network::from_bytes(&bytes[..bytes.len() - 1]).unwrap_err(),
            NetError::Length {
                expected: bytes.len(),
                found: bytes.len() - 1
            }
        );
        let mut other = bytes.clone();
        other[8] = 2;
        assert_eq!(
            Network::from_bytes(&other).unwrap_err(),
            NetError::Version(2)
        );
        let mut other = bytes.clone();
        other[16] = 0;
        other[17] = 1; // QA = 256
        assert!(matches!(
            Network::from_bytes(&other).unwrap_err(),
            NetError::Constants {
                found: [256, 64, 400]
            }
        ));
    }

    #[test]
    fn features_mirror_between_the_perspectives() {
        use chess960_core::{File, Rank};
        let e2 = Square::from_coords(File::E, Rank::Second);
        let e7 = Square::from_coords(File::E, Rank::Seventh);
        let white_pawn = Piece {
            color: Color::White,
            role: Role::Pawn,
        };
        let black_pawn = Piece {
            color: Color::Black,
            role: Role::Pawn,
        };
        assert_eq!(feature(Color::White, white_pawn, e2), 12);
        assert_eq!(feature(Color::Black, black_pawn, e7), 12);
        assert_eq!(feature(Color::Black, white_pawn, e2), 384 + 52);
        let black_king = Piece {
            color: Color::Black,
            role: Role::King,
        };
        assert_eq!(
            feature(Color::White, black_king, Square::H8),
            384 + 5 * 64 + 63
        );
    }

    #[test]
    fn the_mirrored_position_has_the_same_evaluation() {
        // A position and its colour-flipped mirror image are the same position for the side to
        // move: the perspective encoding must give both the same score.
        let net = random_net(32, 7);
        let pos = chess960_core::Position::from_fen(
            "1r2k1r1/pppp1ppp/2n5/4p3/3PP3/8/PPP2PPP/1R2K1R1 w GBgb - 0 1",
        )
        .unwrap();
        let mut mirror = Board::empty();
        for (sq, piece) in pos.board().pieces() {
            mirror.set_piece_at(
                sq.flip_vertical(),
                Some(Piece {
                    color: !piece.color,
                    role: piece.role,
                }),
            );
        }
        let a = net.evaluate_board(pos.board(), Color::White);
        let b = net.evaluate_board(&mirror, Color::Black);
        assert_eq!(a, b);
        assert_ne!(a, net.evaluate_board(pos.board(), Color::Black));
    }
}
