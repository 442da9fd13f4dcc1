//! `chess960-engine bench`: a fixed search over fixed positions, for regressions. The node
//! count is deterministic (one thread, fresh table per position).

use crate::nnue::Network;
use crate::search::{Limits, Searcher, Shared};
use crate::time::Deadlines;
use chess960_core::{Position, StartId};
use std::sync::Arc;
use std::time::Instant;

/// Positions searched by the bench: Chess960 starts and middlegames, classical middlegames and
/// endgames.
pub const POSITIONS: &[&str] = &[
    "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
    "2nnrbkr/p1qppppp/8/1ppb4/6PP/3PP3/PPP2P2/BQNNRBKR w HEhe - 1 9",
    "b1q1rrkb/pppppppp/3nn3/8/P7/1PPP4/4PPPP/BQNNRKRB w GE - 1 9",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "6k1/5pp1/4p2p/8/3P4/6P1/5PKP/8 w - - 0 1",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
];

/// Runs the bench to `depth`, evaluating with `net` (`None`: the hand-crafted evaluation);
/// returns (nodes, seconds).
pub fn run(depth: i32, net: Option<Arc<Network>>) -> (u64, f64) {
    let mut fens: Vec<String> = POSITIONS.iter().map(|s| s.to_string()).collect();
    for id in [0u32, 518, 959, 402] {
        fens.push(StartId::new(id).expect("valid id").position().fen());
    }
    let start = Instant::now();
    let mut total = 0;
    for fen in &fens {
        let pos = Position::from_fen(fen).expect("bench FENs are valid");
        let shared = Shared::new(16);
        let mut s =
            Searcher::new(&shared, 0, Vec::new(), Deadlines::default()).with_net(net.clone());
        let limits = Limits {
            depth: Some(depth),
            multipv: 1,
            ..Limits::default()
        };
        s.run(&pos, &limits, |_| {});
        total += s.nodes();
    }
    (total, start.elapsed().as_secs_f64())
}
