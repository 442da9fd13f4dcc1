//! `chess960-engine`: UCI on standard input/output; `chess960-engine bench [DEPTH]` for a
//! deterministic node count.

use chess960_engine::{bench, uci::Uci};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("bench") => {
            let depth = match args.get(1).map(|d| d.parse::<i32>()) {
                None => 9,
                Some(Ok(d)) if (1..=30).contains(&d) => d,
                Some(_) => {
                    eprintln!("chess960-engine: bench depth must be a number from 1 to 30");
                    std::process::exit(2);
                }
            };
            let (nodes, secs) = bench::run(depth);
            println!("depth {depth}");
            println!("nodes {nodes}");
            println!("time {:.3} s", secs);
            println!("nps {}", (nodes as f64 / secs.max(1e-9)) as u64);
        }
        Some("-h" | "--help" | "help") => {
            println!("chess960-engine: a Chess960 and classical chess engine speaking UCI.\n");
            println!("Usage:\n  chess960-engine            speak UCI on standard input/output (for GUIs)");
            println!("  chess960-engine bench [D]  search fixed positions to depth D (default 9) and print nodes and nps");
        }
        Some(other) => {
            eprintln!("chess960-engine: unknown argument '{other}' (try --help)");
            std::process::exit(2);
        }
        None => {
            let stdin = std::io::stdin();
            let mut uci = Uci::new(std::io::stdout());
            uci.run(stdin.lock());
        }
    }
}
