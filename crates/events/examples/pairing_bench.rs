//! How fast our Dutch pairing is beside bbpPairings, on the same tournaments.
//!
//! For each size, bbpPairings' generator (`--dutch -g`) writes a whole tournament; the
//! tournament is then cut before its last round and both programs pair that round from the
//! same TRF file: bbpPairings as a new process (`--dutch FILE -p OUT`), ours in this process
//! from the file's text (reading the TRF counted). Each is timed `--runs` times and the
//! median kept; the two pairings must be the same, board order included.
//!
//! ```sh
//! cargo run --release -p chess960-events --example pairing_bench -- \
//!     --bbp target/bbp/bbpPairings.exe --players 100,400,1000 [--rounds 11] [--runs 3] [--seed 1]
//! ```
//! Prints one Markdown table row per size: players, the round paired, bbpPairings' time,
//! ours, and ours ÷ bbpPairings'. Exits 1 if a pairing differs. `scripts/pairing-bench.sh`
//! builds everything and runs the sizes of docs/performance.md.

use chess960_events::swiss::pair_dutch;
use chess960_events::trf::{self, TrfFile};
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};
use std::time::Instant;

struct Args {
    bbp: PathBuf,
    players: Vec<u32>,
    rounds: u32,
    runs: usize,
    seed: u64,
}

fn args() -> Result<Args, String> {
    let mut a = Args {
        bbp: PathBuf::new(),
        players: vec![100, 400, 1000],
        rounds: 11,
        runs: 3,
        seed: 1,
    };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let mut val = || it.next().ok_or(format!("{flag} needs a value"));
        match flag.as_str() {
            "--bbp" => a.bbp = val()?.into(),
            "--players" => {
                a.players = val()?
                    .split(',')
                    .map(|s| s.trim().parse().map_err(|_| format!("--players: '{s}' is no number")))
                    .collect::<Result<_, _>>()?
            }
            "--rounds" => a.rounds = val()?.parse().map_err(|_| "--rounds needs a number")?,
            "--runs" => a.runs = val()?.parse().map_err(|_| "--runs needs a number")?,
            "--seed" => a.seed = val()?.parse().map_err(|_| "--seed needs a number")?,
            "--help" | "-h" => {
                return Err("usage: pairing_bench --bbp PATH [--players 100,400,1000] [--rounds 11] [--runs 3] [--seed 1]".into())
            }
            other => return Err(format!("unknown argument {other} (--help)")),
        }
    }
    if a.bbp.as_os_str().is_empty() {
        return Err("--bbp PATH is needed (--help)".into());
    }
    if a.rounds < 2 || a.runs == 0 || a.players.iter().any(|&p| p < 2) {
        return Err(
            "--rounds must be at least 2, --runs at least 1, each size at least 2 players".into(),
        );
    }
    Ok(a)
}

fn median(mut xs: Vec<f64>) -> f64 {
    xs.sort_by(f64::total_cmp);
    xs[xs.len() / 2]
}

/// The tournament in `f` cut before round `round`: what bbpPairings' `-p` pairs next.
fn cut(f: &TrfFile, round: usize) -> TrfFile {
    let mut v = f.clone();
    v.total_rounds = Some(f.total_rounds.unwrap_or(f.rounds_played()));
    v.initial_color = Some(f.first_color());
    for p in &mut v.players {
        p.rounds.truncate(round - 1);
    }
    v
}

/// One size: (round paired, bbpPairings' median seconds, ours).
fn bench(a: &Args, players: u32, dir: &Path) -> Result<(usize, f64, f64), String> {
    let config = dir.join(format!("bench{players}.txt"));
    // An open of club players: draws, a few forfeits and byes, ratings over a wide range.
    std::fs::write(
        &config,
        format!(
            "PlayersNumber={players}\nRoundsNumber={}\nDrawPercentage=30\nForfeitRate=2\nRetiredRate=2\nHalfPointByeRate=2\nLowestRating=1000\nHighestRating=2700\n",
            a.rounds
        ),
    )
    .map_err(|e| e.to_string())?;
    let whole = dir.join(format!("bench{players}.trf"));
    let out = Command::new(&a.bbp)
        .args(["--dutch", "-g"])
        .arg(&config)
        .arg("-o")
        .arg(&whole)
        .args(["-s", &a.seed.to_string()])
        .output()
        .map_err(|e| format!("{}: {e}", a.bbp.display()))?;
    if !out.status.success() {
        return Err(format!(
            "bbpPairings' generator failed for {players} players: {}",
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    let text = std::fs::read_to_string(&whole).map_err(|e| e.to_string())?;
    let f = trf::read(&text).map_err(|e| e.to_string())?;
    let round = f.rounds_played();
    let file = dir.join(format!("bench{players}-before-{round}.trf"));
    let cut_text = trf::write(&cut(&f, round));
    std::fs::write(&file, &cut_text).map_err(|e| e.to_string())?;
    let pairing = dir.join(format!("bench{players}-round-{round}.txt"));

    let mut theirs_s = Vec::new();
    let mut theirs = String::new();
    for _ in 0..a.runs {
        let t = Instant::now();
        let out = Command::new(&a.bbp)
            .arg("--dutch")
            .arg(&file)
            .arg("-p")
            .arg(&pairing)
            .output()
            .map_err(|e| e.to_string())?;
        theirs_s.push(t.elapsed().as_secs_f64());
        if !out.status.success() {
            return Err(format!(
                "bbpPairings could not pair round {round} of {players} players"
            ));
        }
        theirs = std::fs::read_to_string(&pairing)
            .map_err(|e| e.to_string())?
            .replace('\r', "\n");
    }
    let mut ours_s = Vec::new();
    let mut ours = String::new();
    for _ in 0..a.runs {
        let t = Instant::now();
        let text = std::fs::read_to_string(&file).map_err(|e| e.to_string())?;
        let read = trf::read(&text).map_err(|e| e.to_string())?;
        let h = read.history(round).map_err(|e| e.to_string())?;
        let p = pair_dutch(&h).map_err(|e| format!("round {round} of {players} players: {e}"))?;
        ours_s.push(t.elapsed().as_secs_f64());
        ours = trf::pairing_lines(&p, &read.ids());
    }
    if ours.trim() != theirs.trim() {
        return Err(format!(
            "round {round} of {players} players: our pairing differs from bbpPairings' ({} and {} kept)",
            file.display(),
            pairing.display()
        ));
    }
    Ok((round, median(theirs_s), median(ours_s)))
}

fn main() -> ExitCode {
    let a = match args() {
        Ok(a) => a,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::from(2);
        }
    };
    let dir = std::env::temp_dir().join(format!("pairing-bench-{}", std::process::id()));
    if let Err(e) = std::fs::create_dir_all(&dir) {
        eprintln!("{}: {e}", dir.display());
        return ExitCode::from(2);
    }
    println!(
        "| players | round paired | bbpPairings (median of {}) | ours | ours ÷ bbpPairings |",
        a.runs
    );
    println!("| ---: | ---: | ---: | ---: | ---: |");
    let mut failed = false;
    for &players in &a.players {
        match bench(&a, players, &dir) {
            Ok((round, theirs, ours)) => println!(
                "| {players} | {round} of {} | {theirs:.3} s | {ours:.3} s | {:.2} |",
                a.rounds,
                ours / theirs
            ),
            Err(e) => {
                eprintln!("{e}");
                failed = true;
            }
        }
    }
    if failed {
        eprintln!("files kept in {}", dir.display());
        return ExitCode::from(1);
    }
    let _ = std::fs::remove_dir_all(&dir);
    ExitCode::SUCCESS
}
