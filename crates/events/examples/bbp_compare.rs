//! Compares our Dutch pairings with bbpPairings on tournaments its generator makes.
//!
//! For each configuration and seed, `bbpPairings.exe --dutch -g CONFIG -o FILE -s SEED`
//! writes a whole tournament paired by bbpPairings; each round is then paired again here
//! from the rounds before it (with that round's byes and absences) and compared board by
//! board: the same opponents, the same colours, the same pairing-allocated bye.
//!
//! ```sh
//! cargo run --release -p chess960-events --example bbp_compare -- \
//!     --bbp /tmp/bbp/bbpPairings.exe --config c40.txt --seeds 1-1000 [--keep DIR]
//! ```
//! Prints one line per tournament that differs, then the totals; exits 1 if any differ.
//!
//! `--mutate K` also makes K variants of each tournament for bbpPairings' pairing mode
//! (`-p`): cut after a random round, some players withdrawn or on a bye (`H`, `Z`, `F`)
//! in the next round, and late entrants (with zero- or half-point byes for the rounds they
//! missed, some of them absent again). Both programs pair the next round; the output,
//! board order included, must be the same.
//!
//! `--events N` runs N Swiss events through our event model (40 players, 9 rounds, random
//! results with forfeits, byes asked for, withdrawals, late entries): before each round the
//! event is exported as TRF and bbpPairings pairs it; the event's own pairing must match.
//!
//! `--accelerated` makes those events accelerated by the Baku method (C.04.5.1) and varies
//! their size (9 to 60 players, 5 to 11 rounds): the TRF carries each player's virtual
//! points as `XXA` lines, which bbpPairings pairs with.

use chess960_events::model::Color;
use chess960_events::swiss::pair_dutch;
use chess960_events::trf::{self, TrfFile, TrfPlayer, TrfRound};
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};
use std::time::Instant;

struct Args {
    bbp: PathBuf,
    configs: Vec<PathBuf>,
    seeds: (u64, u64),
    keep: Option<PathBuf>,
    verbose: bool,
    mutate: u32,
    events: u64,
    accelerated: bool,
}

fn args() -> Result<Args, String> {
    let mut a = Args {
        bbp: PathBuf::new(),
        configs: Vec::new(),
        seeds: (1, 10),
        keep: None,
        verbose: false,
        mutate: 0,
        events: 0,
        accelerated: false,
    };
    let mut it = std::env::args().skip(1);
    while let Some(x) = it.next() {
        let mut val = || it.next().ok_or(format!("{x} needs a value"));
        match x.as_str() {
            "--bbp" => a.bbp = val()?.into(),
            "--config" => a.configs.push(val()?.into()),
            "--seeds" => {
                let v = val()?;
                let (lo, hi) = v.split_once('-').unwrap_or((&v, &v));
                a.seeds = (lo.parse().map_err(|_| "bad --seeds")?, hi.parse().map_err(|_| "bad --seeds")?);
            }
            "--keep" => a.keep = Some(val()?.into()),
            "--verbose" => a.verbose = true,
            "--events" => a.events = val()?.parse().map_err(|_| "bad --events")?,
            "--mutate" => a.mutate = val()?.parse().map_err(|_| "bad --mutate")?,
            "--accelerated" => a.accelerated = true,
            "--help" | "-h" => {
                return Err("usage: bbp_compare --bbp PATH (--config FILE [--config FILE…] | --events N [--accelerated]) --seeds A-B [--mutate K] [--keep DIR] [--verbose]".into())
            }
            other => return Err(format!("unknown argument {other}")),
        }
    }
    if a.bbp.as_os_str().is_empty() || (a.configs.is_empty() && a.events == 0) {
        return Err("--bbp and at least one --config or --events are needed (--help)".into());
    }
    Ok(a)
}

thread_local! {
    /// (players paired, seconds) of every round we paired.
    static TIMES: std::cell::RefCell<Vec<(usize, f64)>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// Differences in one tournament, round by round: (rounds compared, rounds differing, text).
fn compare(path: &Path, verbose: bool) -> Result<(usize, usize, String), String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let f = trf::read(&text).map_err(|e| e.to_string())?;
    let played = f.rounds_played();
    let recorded = f.rounds(played).map_err(|e| e.to_string())?;
    let mut differ = 0;
    let mut report = String::new();
    for round in 1..=played {
        let h = f.history(round).map_err(|e| e.to_string())?;
        let t = Instant::now();
        let paired = pair_dutch(&h);
        let took = t.elapsed().as_secs_f64();
        let players = h.players.iter().filter(|p| !p.absent).count();
        TIMES.with(|x| x.borrow_mut().push((players, took)));
        let ours = match paired {
            Ok(p) => p,
            Err(e) => {
                differ += 1;
                report += &format!("  round {round}: ours failed: {e}\n");
                continue;
            }
        };
        // Ours as (player → (opponent, colour)) and the bye.
        let n = recorded.len();
        let mut mine: Vec<Option<(usize, Option<Color>)>> = vec![None; n];
        for &(w, b) in &ours.boards {
            mine[w] = Some((b, Some(Color::White)));
            mine[b] = Some((w, Some(Color::Black)));
        }
        let mut bad = Vec::new();
        for (i, rounds) in recorded.iter().enumerate() {
            let r = rounds[round - 1];
            let theirs = r.opponent().map(|o| {
                let color = match r {
                    chess960_events::model::Round::Played { color, .. } => Some(color),
                    chess960_events::model::Round::Forfeit { color, .. } => color,
                    _ => None,
                };
                (o, color)
            });
            let is_pab = matches!(r, chess960_events::model::Round::PairingBye);
            let same = match (theirs, mine[i]) {
                (Some((o, c)), Some((mo, mc))) => o == mo && (c.is_none() || c == mc),
                (None, None) => is_pab == (ours.bye == Some(i)),
                _ => false,
            };
            if !same {
                bad.push(i);
            }
        }
        if !bad.is_empty() {
            differ += 1;
            let id = |i: usize| i + 1;
            report += &format!("  round {round}: {} players differ", bad.len());
            if verbose {
                for &i in &bad {
                    let r = recorded[i][round - 1];
                    report += &format!(
                        "\n    {}: bbp {:?}, ours {:?}",
                        id(i),
                        r,
                        mine[i].map(|(o, c)| (id(o), c))
                    );
                }
                report += &format!("\n    our bye {:?}", ours.bye.map(id));
            }
            report += "\n";
        }
    }
    Ok((played, differ, report))
}

/// A small generator for the variants (seeded, so a failure can be replayed).
struct Lcg(u64);
impl Lcg {
    fn below(&mut self, n: u64) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 33) % n.max(1)
    }
}

/// One variant of `f` for the pairing of its next round.
fn variant(f: &TrfFile, rng: &mut Lcg) -> TrfFile {
    let played = f.rounds_played();
    let round = 1 + rng.below(played as u64) as usize;
    let mut v = f.clone();
    v.total_rounds = Some(f.total_rounds.unwrap_or(played).max(round));
    v.initial_color = Some(f.first_color());
    let bye = |rng: &mut Lcg| -> char { ['H', 'Z', 'Z', 'F'][rng.below(4) as usize] };
    for p in &mut v.players {
        p.rounds.truncate(round - 1);
        while p.rounds.len() < round - 1 {
            p.rounds.push(TrfRound {
                opponent: None,
                color: None,
                code: 'Z',
            });
        }
        if rng.below(8) == 0 {
            let code = bye(rng);
            p.rounds.push(TrfRound {
                opponent: None,
                color: None,
                code,
            });
        }
    }
    let last = v.players.iter().map(|p| p.id).max().unwrap_or(0);
    for k in 0..rng.below(4) as u32 {
        let mut rounds: Vec<TrfRound> = (1..round)
            .map(|_| TrfRound {
                opponent: None,
                color: None,
                code: if rng.below(3) == 0 { 'H' } else { 'Z' },
            })
            .collect();
        if rng.below(4) == 0 {
            rounds.push(TrfRound {
                opponent: None,
                color: None,
                code: 'Z',
            });
        }
        v.players.push(TrfPlayer {
            id: last + 1 + k,
            sex: String::new(),
            title: String::new(),
            name: format!("Late entry {}", k + 1),
            rating: 1000,
            federation: String::new(),
            fide_id: String::new(),
            birth: String::new(),
            points: 0,
            rank: 0,
            rounds,
        });
    }
    v
}

/// Pairs a variant with both programs: `Ok(true)` when they agree.
fn compare_variant(bbp: &Path, v: &TrfFile, path: &Path) -> Result<(bool, String), String> {
    std::fs::write(path, trf::write(v)).map_err(|e| e.to_string())?;
    let out = path.with_extension("pairing");
    let status = Command::new(bbp)
        .arg("--dutch")
        .arg(path)
        .arg("-p")
        .arg(&out)
        .output()
        .map_err(|e| e.to_string())?;
    let theirs = match status.status.code() {
        Some(0) => Some(
            std::fs::read_to_string(&out)
                .map_err(|e| e.to_string())?
                .replace('\r', "\n"),
        ),
        Some(1) => None,
        c => {
            return Err(format!(
                "bbpPairings exit {c:?}: {}",
                String::from_utf8_lossy(&status.stderr)
            ))
        }
    };
    let read = trf::read(&trf::write(v)).map_err(|e| e.to_string())?;
    let next = read.rounds_played() + 1;
    let ours = pair_dutch(&read.history(next).map_err(|e| e.to_string())?)
        .ok()
        .map(|p| trf::pairing_lines(&p, &read.ids()));
    let same = match (&ours, &theirs) {
        (Some(a), Some(b)) => a.trim() == b.trim(),
        (None, None) => true,
        _ => false,
    };
    Ok((
        same,
        format!("round {next}: ours {ours:?}\n  bbp {theirs:?}"),
    ))
}

/// One event through the event model, each round checked against bbpPairings. Accelerated:
/// the Baku method, 9 to 60 players and 5 to 11 rounds (else 40 players, 9 rounds).
/// Returns the rounds compared and, of those, the rounds whose pairing the virtual points
/// changed (what the same history pairs to without them).
fn run_event(bbp: &Path, seed: u64, dir: &Path, accelerated: bool) -> Result<(u64, u64), String> {
    use chess960_events::accel::Acceleration;
    use chess960_events::event::{BoardResult, ByeRequest, Event, Format, Player, Side};
    let mut rng = Lcg(seed ^ 0x5eed);
    let side = if rng.below(2) == 0 {
        Side::White
    } else {
        Side::Black
    };
    // The plain events draw nothing more, so that they stay what they were.
    let (players, rounds) = if accelerated {
        (9 + rng.below(52) as usize, 5 + rng.below(7) as u32)
    } else {
        (40, 9)
    };
    let mut e = Event::new("Generated", Format::Swiss, rounds, side).map_err(|x| x.to_string())?;
    if accelerated {
        e.set_acceleration(Acceleration::Baku)
            .map_err(|x| x.to_string())?;
    }
    let player = |name: String, rating: u16| Player {
        rating: Some(rating),
        ..Player::named(name)
    };
    for k in 0..players {
        e.add_player(player(format!("P{k}"), 1200 + rng.below(1400) as u16))
            .map_err(|x| x.to_string())?;
    }
    let (mut compared, mut changed) = (0u64, 0u64);
    for round in 1..=rounds {
        // Byes asked for, withdrawals and late entries before the round.
        for _ in 0..rng.below(3) {
            let p = rng.below(e.players.len() as u64) as usize;
            let kind =
                [ByeRequest::Half, ByeRequest::Zero, ByeRequest::Full][rng.below(3) as usize];
            let _ = e.request_bye(p, round, kind);
        }
        if rng.below(4) == 0 {
            let p = rng.below(e.players.len() as u64) as usize;
            let _ = e.withdraw(p, None);
        }
        if round > 1 && rng.below(3) == 0 {
            let r = 1200 + rng.below(1400) as u16;
            e.add_player(player(format!("Late{round}"), r))
                .map_err(|x| x.to_string())?;
        }
        let path = dir.join(format!("event-{seed}-r{round}.trf"));
        std::fs::write(&path, trf::write(&chess960_events::export::to_trf(&e)))
            .map_err(|x| x.to_string())?;
        let out = path.with_extension("pairing");
        let status = Command::new(bbp)
            .arg("--dutch")
            .arg(&path)
            .arg("-p")
            .arg(&out)
            .output()
            .map_err(|x| x.to_string())?;
        let theirs = match status.status.code() {
            Some(0) => Some(
                std::fs::read_to_string(&out)
                    .map_err(|x| x.to_string())?
                    .replace('\r', "\n"),
            ),
            Some(1) => None,
            c => {
                return Err(format!(
                    "round {round}: bbpPairings exit {c:?}: {}",
                    String::from_utf8_lossy(&status.stderr)
                ))
            }
        };
        // What the round would pair to without virtual points (round 1's order fixed as
        // `pair` fixes it), to show that the acceleration is exercised.
        let plain = accelerated.then(|| {
            let mut t = e.clone();
            let _ = t.set_acceleration(Acceleration::None);
            t.acceleration = Acceleration::None;
            t.pair(round, seed).ok().map(|r| r.boards.clone())
        });
        let ours = match e.pair(round, seed) {
            Ok(r) => {
                let r = r.clone();
                let num = |i: usize| e.pairing_number(i).unwrap();
                let mut text = format!(
                    "{}\n",
                    r.boards.len()
                        + r.byes
                            .iter()
                            .any(|(_, k)| *k == chess960_events::event::RoundBye::Pab)
                            as usize
                );
                for b in &r.boards {
                    text += &format!("{} {}\n", num(b.white), num(b.black));
                }
                if let Some((p, _)) = r
                    .byes
                    .iter()
                    .find(|(_, k)| *k == chess960_events::event::RoundBye::Pab)
                {
                    text += &format!("{} 0\n", num(*p));
                }
                Some(text)
            }
            Err(_) => None,
        };
        let same = match (&ours, &theirs) {
            (Some(a), Some(b)) => a.trim() == b.trim(),
            (None, None) => true,
            _ => false,
        };
        if !same {
            return Err(format!(
                "round {round} differs ({}): ours {ours:?}, bbp {theirs:?}",
                path.display()
            ));
        }
        let _ = std::fs::remove_file(&path);
        let _ = std::fs::remove_file(&out);
        compared += 1;
        if let (Some(plain), Some(_)) = (plain, &ours) {
            if plain.as_ref() != Some(&e.played[round as usize - 1].boards) {
                changed += 1;
            }
        }
        if ours.is_none() {
            return Ok((compared, changed));
        }
        let boards = e.played[round as usize - 1].boards.len();
        for b in 0..boards {
            let res = match rng.below(20) {
                0..=7 => BoardResult::WhiteWins,
                8..=13 => BoardResult::BlackWins,
                14..=17 => BoardResult::Draw,
                18 => BoardResult::WhiteForfeit,
                _ => BoardResult::DoubleForfeit,
            };
            e.set_result(round, b as u32 + 1, Some(res))
                .map_err(|x| x.to_string())?;
        }
    }
    Ok((compared, changed))
}

fn main() -> ExitCode {
    let a = match args() {
        Ok(a) => a,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::from(2);
        }
    };
    let dir = a.keep.clone().unwrap_or_else(|| {
        std::env::temp_dir().join(format!("bbp-compare-{}", std::process::id()))
    });
    if let Err(e) = std::fs::create_dir_all(&dir) {
        eprintln!("{}: {e}", dir.display());
        return ExitCode::from(2);
    }
    let started = Instant::now();
    let (mut tournaments, mut agree, mut rounds, mut rounds_agree, mut skipped) = (0, 0, 0, 0, 0);
    let (mut variants, mut variants_agree) = (0, 0);
    for config in &a.configs {
        let stem = config
            .file_stem()
            .map_or("cfg".into(), |s| s.to_string_lossy().to_string());
        let config = match config.canonicalize() {
            Ok(c) => c,
            Err(e) => {
                eprintln!("{}: {e}", config.display());
                return ExitCode::from(2);
            }
        };
        for seed in a.seeds.0..=a.seeds.1 {
            let out = dir.join(format!("{stem}-{seed}.trf"));
            let status = Command::new(&a.bbp)
                .args(["--dutch", "-g"])
                .arg(&config)
                .arg("-o")
                .arg(&out)
                .args(["-s", &seed.to_string()])
                .output();
            let status = match status {
                Ok(s) => s,
                Err(e) => {
                    eprintln!("{}: {e}", a.bbp.display());
                    return ExitCode::from(2);
                }
            };
            // Exit 1: bbpPairings found no valid pairing for some round; the file holds the
            // rounds before it. Those rounds still compare.
            if !status.status.success() && status.status.code() != Some(1) {
                skipped += 1;
                continue;
            }
            tournaments += 1;
            if a.mutate > 0 {
                let mut rng = Lcg(seed.wrapping_mul(7919) ^ 0x9e37_79b9);
                let f = std::fs::read_to_string(&out)
                    .ok()
                    .and_then(|t| trf::read(&t).ok());
                for k in 0..a.mutate {
                    let Some(f) = &f else { break };
                    if f.rounds_played() == 0 {
                        break;
                    }
                    let v = variant(f, &mut rng);
                    let path = dir.join(format!("{stem}-{seed}-v{k}.trf"));
                    variants += 1;
                    match compare_variant(&a.bbp, &v, &path) {
                        Ok((true, _)) => {
                            variants_agree += 1;
                            if a.keep.is_none() {
                                let _ = std::fs::remove_file(&path);
                                let _ = std::fs::remove_file(path.with_extension("pairing"));
                            }
                        }
                        Ok((false, text)) => println!(
                            "{stem} seed {seed} variant {k} differs ({}): {text}",
                            path.display()
                        ),
                        Err(e) => println!("{stem} seed {seed} variant {k}: {e}"),
                    }
                }
            }
            match compare(&out, a.verbose) {
                Ok((n, differ, report)) => {
                    rounds += n;
                    rounds_agree += n - differ;
                    if differ == 0 {
                        agree += 1;
                        if a.keep.is_none() {
                            let _ = std::fs::remove_file(&out);
                        }
                    } else {
                        println!(
                            "{stem} seed {seed}: {differ} of {n} rounds differ ({})\n{report}",
                            out.display()
                        );
                    }
                }
                Err(e) => println!("{stem} seed {seed}: {e}"),
            }
        }
    }
    if tournaments + skipped > 0 {
        println!(
            "{agree} of {tournaments} tournaments agree in every round; {rounds_agree} of {rounds} rounds agree \
             ({skipped} not generated; {:.1} s)",
            started.elapsed().as_secs_f64()
        );
    }
    TIMES.with(|t| {
        let t = t.borrow();
        if t.is_empty() {
            return;
        }
        let total: f64 = t.iter().map(|x| x.1).sum();
        let (np, worst) = t
            .iter()
            .fold((0, 0.0f64), |m, x| if x.1 > m.1 { (x.0, x.1) } else { m });
        println!(
            "our pairing: {} rounds in {:.2} s, mean {:.2} ms, slowest {:.1} ms ({np} players)",
            t.len(),
            total,
            1000.0 * total / t.len() as f64,
            1000.0 * worst
        );
    });
    if a.mutate > 0 {
        println!("{variants_agree} of {variants} variants (byes, withdrawals, late entries) pair the same");
    }
    let (mut events_agree, mut event_rounds, mut accelerated_rounds) = (0, 0, 0);
    for seed in a.seeds.0..a.seeds.0 + a.events {
        match run_event(&a.bbp, seed, &dir, a.accelerated) {
            Ok((n, c)) => {
                events_agree += 1;
                event_rounds += n;
                accelerated_rounds += c;
            }
            Err(e) => println!("event {seed}: {e}"),
        }
    }
    if a.events > 0 {
        let what = if a.accelerated {
            "Baku-accelerated events (9-60 players, 5-11 rounds, late entries, withdrawals, byes)"
        } else {
            "events (late entries, withdrawals, byes)"
        };
        println!(
            "{events_agree} of {} {what} pair as bbpPairings in every round ({event_rounds} rounds)",
            a.events
        );
        if a.accelerated {
            println!("virtual points changed the pairing of {accelerated_rounds} of those rounds");
        }
    }
    if agree == tournaments
        && variants_agree == variants
        && events_agree == a.events
        && tournaments + a.events > 0
    {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
