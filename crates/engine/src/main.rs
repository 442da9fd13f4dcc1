//! `chess960-engine`: UCI on standard input/output; `chess960-engine bench [DEPTH]` for a
//! deterministic node count; `datagen`, `tune` and `wdl-fit` (hidden from the usage text, for
//! developers) generate self-play training data, Texel-tune the evaluation and fit the
//! win/draw/loss model of `UCI_ShowWDL` (see `docs/engine.md`).

use chess960_engine::nnue::{self, Network};
use chess960_engine::{bench, datagen, tune, uci::Uci, wdl};
use std::sync::Arc;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("bench") => {
            // bench [DEPTH] [--net FILE | --hce]
            let mut depth = 9;
            let mut net = nnue::default_net();
            let mut rest = args[1..].iter();
            while let Some(arg) = rest.next() {
                match arg.as_str() {
                    "--hce" => net = None,
                    "--net" => {
                        let path = rest
                            .next()
                            .unwrap_or_else(|| fail("bench: --net needs a file"));
                        let loaded = Network::load(std::path::Path::new(path))
                            .unwrap_or_else(|e| fail(&format!("bench: {path}: {e}")));
                        net = Some(Arc::new(loaded));
                    }
                    flag if flag.starts_with("--") => {
                        fail(&format!("bench: unknown flag {flag} (--net FILE or --hce)"))
                    }
                    d => match d.parse::<i32>() {
                        Ok(d) if (1..=30).contains(&d) => depth = d,
                        _ => {
                            eprintln!("chess960-engine: bench depth must be a number from 1 to 30");
                            std::process::exit(2);
                        }
                    },
                }
            }
            let eval = match &net {
                Some(net) => format!("nnue {net:?} ({})", nnue::simd::instruction_set()),
                None => "hand-crafted".to_string(),
            };
            let (nodes, secs) = bench::run(depth, net);
            println!("depth {depth}");
            println!("eval {eval}");
            println!("nodes {nodes}");
            println!("time {:.3} s", secs);
            println!("nps {}", (nodes as f64 / secs.max(1e-9)) as u64);
        }
        Some("datagen") => {
            let flags = Flags::parse(&args[1..]);
            let path = flags.get("out").unwrap_or("target/datagen.txt");
            let defaults = datagen::Config::default();
            let config = datagen::Config {
                games: flags.num("games", defaults.games),
                nodes: flags.num("nodes", defaults.nodes),
                seed: flags.num("seed", defaults.seed),
                threads: flags.num_in("threads", defaults.threads, 1..=256),
                random_plies: match flags.get("random-plies") {
                    None => defaults.random_plies,
                    Some(v) => datagen::parse_plies(v)
                        .unwrap_or_else(|e| fail(&format!("--random-plies: {e}"))),
                },
                classical_percent: flags.num_in("classical", 0, 0..=100),
                format: datagen::Format::for_path(path),
            };
            let file =
                std::fs::File::create(path).unwrap_or_else(|e| fail(&format!("{path}: {e}")));
            let mut out = std::io::BufWriter::new(file);
            match datagen::run(&config, &mut out, |line| eprintln!("datagen: {line}")) {
                Ok(s) => println!(
                    "{} games ({} dropped openings), {} positions written to {path}",
                    s.games, s.dropped, s.positions
                ),
                Err(e) => fail(&format!("{path}: {e}")),
            }
        }
        Some("tune") => {
            let flags = Flags::parse(&args[1..]);
            let config = tune::Config {
                data: flags.data(),
                epochs: flags.num("epochs", 2000),
                rate: flags.num("rate", 1.0),
                from_hand: flags.get("from") == Some("hand"),
                reg: flags.num("reg", 0.0),
            };
            let out = flags.get("out").unwrap_or("target/weights.rs");
            let o = tune::run(&config, |line| eprintln!("tune: {line}"))
                .unwrap_or_else(|e| fail(&format!("{}: {e}", config.data)));
            let note = format!(
                "\nData: {} ({} training, {} held-out positions); {} epochs at rate {}, L2 {}.\n\
                 K = {:.3}; mean squared error {:.6} -> {:.6} (held out {:.6} -> {:.6}).",
                config.data,
                o.train,
                o.held_out,
                config.epochs,
                config.rate,
                config.reg,
                o.k,
                o.train_error.0,
                o.train_error.1,
                o.held_out_error.0,
                o.held_out_error.1
            );
            std::fs::write(out, tune::to_source(&o.weights, &note))
                .unwrap_or_else(|e| fail(&format!("{out}: {e}")));
            println!("{}", note.trim());
            println!("weights written to {out}");
        }
        Some("wdl-fit") => {
            let flags = Flags::parse(&args[1..]);
            let config = wdl::FitConfig {
                data: flags.data(),
                max_steps: flags.num("steps", 100),
            };
            let o = wdl::run(&config).unwrap_or_else(|e| fail(&format!("{}: {e}", config.data)));
            if o.train.is_empty() || o.held_out.is_empty() {
                fail(&format!(
                    "{}: too few FEN;result;score lines ({} training, {} held out, {} unreadable)",
                    config.data,
                    o.train.len(),
                    o.held_out.len(),
                    o.skipped
                ));
            }
            print!("{}", wdl_report(&config, &o));
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

/// What `wdl-fit` prints: the data, the fit's quality against two simpler predictions, the
/// calibration on the held-out games, and the constants for `wdl::MODEL`.
fn wdl_report(config: &wdl::FitConfig, o: &wdl::FitOutcome) -> String {
    use std::fmt::Write;
    let mut s = String::new();
    let (train, held) = (&o.train, &o.held_out);
    let _ = writeln!(
        s,
        "Data: {} ({} training, {} held-out positions, {} unreadable lines skipped).",
        config.data,
        train.len(),
        held.len(),
        o.skipped
    );
    let _ = writeln!(s, "\nMean log-loss, nats per position (lower is better):");
    let _ = writeln!(s, "| prediction | training | held out |");
    let _ = writeln!(s, "| --- | --- | --- |");
    let rows = [
        (
            "result frequencies only",
            wdl::baseline_log_loss(train, train),
            wdl::baseline_log_loss(train, held),
        ),
        (
            "score only (a, b constant)",
            wdl::log_loss(&o.score_only, train),
            wdl::log_loss(&o.score_only, held),
        ),
        (
            "score and material (the model)",
            wdl::log_loss(&o.model, train),
            wdl::log_loss(&o.model, held),
        ),
    ];
    for (name, t, h) in rows {
        let _ = writeln!(s, "| {name} | {t:.4} | {h:.4} |");
    }
    let _ = writeln!(
        s,
        "\nHeld out, by score for the side to move: predicted / observed, per cent:"
    );
    let _ = writeln!(s, "| score (pawns) | positions | win | draw | loss |");
    let _ = writeln!(s, "| --- | --- | --- | --- | --- |");
    let edges = [
        -99.0, -3.0, -2.0, -1.0, -0.5, -0.2, 0.2, 0.5, 1.0, 2.0, 3.0, 99.0,
    ];
    for b in wdl::calibration(&o.model, held, &edges) {
        let pct = |p: f64, q: f64| format!("{:.1} / {:.1}", 100.0 * p, 100.0 * q);
        let _ = writeln!(
            s,
            "| {} to {} | {} | {} | {} | {} |",
            b.from,
            b.to,
            b.count,
            pct(b.predicted.0, b.observed.0),
            pct(b.predicted.1, b.observed.1),
            pct(b.predicted.2, b.observed.2)
        );
    }
    let _ = writeln!(s, "\nModel, a and b in pawns at some materials:");
    for m in [14, 30, 46, 62, 78] {
        let (a, b) = o.model.params(m);
        let _ = writeln!(s, "  material {m:2}: a {a:.3}, b {b:.3}");
    }
    let (a, b) = o.score_only.params(78);
    let _ = writeln!(s, "  score only: a {a:.3}, b {b:.3}");
    let _ = writeln!(
        s,
        "\nFor crates/engine/src/wdl.rs:\n{}",
        wdl::to_source(&o.model)
    );
    s
}

/// `--name value` pairs of the developer subcommands.
struct Flags(Vec<(String, String)>);

impl Flags {
    fn parse(args: &[String]) -> Flags {
        let mut pairs = Vec::new();
        let mut it = args.iter();
        while let Some(a) = it.next() {
            let Some(name) = a.strip_prefix("--") else {
                fail(&format!("unexpected argument '{a}'"));
            };
            let Some(value) = it.next() else {
                fail(&format!("--{name} needs a value"));
            };
            pairs.push((name.to_string(), value.clone()));
        }
        Flags(pairs)
    }

    fn get(&self, name: &str) -> Option<&str> {
        self.0
            .iter()
            .rev()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// `--data`: the `datagen` output that `tune` and `wdl-fit` read.
    fn data(&self) -> String {
        self.get("data").unwrap_or("target/datagen.txt").to_string()
    }

    fn num<T: std::str::FromStr>(&self, name: &str, default: T) -> T {
        match self.get(name) {
            None => default,
            Some(v) => v
                .parse()
                .unwrap_or_else(|_| fail(&format!("--{name}: '{v}' is not a valid number"))),
        }
    }

    /// A number that must lie in `range`.
    fn num_in<T>(&self, name: &str, default: T, range: std::ops::RangeInclusive<T>) -> T
    where
        T: std::str::FromStr + PartialOrd + std::fmt::Display,
    {
        let n = self.num(name, default);
        if !range.contains(&n) {
            fail(&format!(
                "--{name}: {n} is out of range ({} to {})",
                range.start(),
                range.end()
            ));
        }
        n
    }
}

fn fail(msg: &str) -> ! {
    eprintln!("chess960-engine: {msg}");
    std::process::exit(2);
}
