//! `chess960-train [FLAGS] FILE...`: trains the engine's NNUE on `datagen` output and writes
//! the quantised net of the epoch with the best validation loss. See the section "NNUE: data
//! and training" of `docs/engine.md`.

use chess960_train::data::{Dataset, Filter};
use chess960_train::model::FloatNet;
use chess960_train::train::{self, Config};
use std::str::FromStr;

const USAGE: &str = "\
Usage: chess960-train [FLAGS] FILE...
Trains the engine's NNUE on datagen output (.bin records or FEN;result;score text lines).

  --out FILE          the quantised net of the best epoch (default target/net.nnue)
  --hidden N          hidden neurons per perspective (default 64)
  --epochs E          passes over the data (default 40)
  --lr-drop E         first epoch at a tenth of the learning rate (default: after 75 %)
  --batch B           positions per step (default 16384)
  --lr R              AdamW learning rate (default 0.001)
  --lambda L          weight of the game result in the target, 0 to 1 (default 0)
  --val-share S       share of each file's end held out, 0 to 1 (default 0.05)
  --min-fullmove M    drop positions before this move (default 5)
  --max-score C       drop positions with |score| above C centipawns (default 3000)
  --mirror on|off     add the mirror image (files a-h reversed) of every training
                      position (default on)
  --threads T         threads (default: the available cores)
  --seed S            seed of the initial weights and the shuffles (default 1)
";

struct Options {
    files: Vec<String>,
    out: String,
    config: Config,
    filter: Filter,
    val_share: f64,
    mirror: bool,
}

fn parse(args: &[String]) -> Result<Options, String> {
    let mut o = Options {
        files: Vec::new(),
        out: "target/net.nnue".into(),
        config: Config::default(),
        filter: Filter::default(),
        val_share: 0.05,
        mirror: true,
    };
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        let Some(name) = arg.strip_prefix("--") else {
            o.files.push(arg.clone());
            continue;
        };
        let value = it.next().ok_or_else(|| format!("--{name} needs a value"))?;
        fn num<T: FromStr + PartialOrd + std::fmt::Display>(
            name: &str,
            value: &str,
            lo: T,
            hi: T,
        ) -> Result<T, String> {
            let n: T = value
                .parse()
                .map_err(|_| format!("--{name}: '{value}' is not a valid number"))?;
            // `!(a <= b)` rather than `a > b`, so that NaN is refused too.
            if !(lo <= n && n <= hi) {
                return Err(format!("--{name}: {value} is out of range ({lo} to {hi})"));
            }
            Ok(n)
        }
        let c = &mut o.config;
        match name {
            "out" => o.out = value.clone(),
            "hidden" => c.hidden = num(name, value, 1, 4096)?,
            "epochs" => c.epochs = num(name, value, 1, 100_000)?,
            "batch" => c.batch = num(name, value, 1, 1 << 24)?,
            "lr" => c.lr = num(name, value, 1e-9, 10.0)?,
            "lr-drop" => c.lr_drop = Some(num(name, value, 1, usize::MAX)?),
            "lambda" => c.lambda = num(name, value, 0.0, 1.0)?,
            "val-share" => o.val_share = num(name, value, 0.0, 0.99)?,
            "min-fullmove" => o.filter.min_fullmove = num(name, value, 0, u16::MAX)?,
            "max-score" => o.filter.max_score = num(name, value, 0, 32767)?,
            "mirror" => {
                o.mirror = match value.as_str() {
                    "on" => true,
                    "off" => false,
                    _ => return Err(format!("--mirror: '{value}' is neither on nor off")),
                }
            }
            "threads" => c.threads = num(name, value, 1, 256)?,
            "seed" => c.seed = num(name, value, 0, u64::MAX)?,
            _ => return Err(format!("unknown flag --{name} (try --help)")),
        }
    }
    if o.files.is_empty() {
        return Err("no data files given (try --help)".into());
    }
    Ok(o)
}

/// Prints a line on standard output. A reader that has gone (`| head`) ends the run quietly,
/// as for the `chess960` binary; the net written so far stays whole.
fn say(line: std::fmt::Arguments) {
    use std::io::Write;
    if let Err(e) = writeln!(std::io::stdout().lock(), "{line}") {
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            std::process::exit(0);
        }
        fail(&format!("standard output: {e}"));
    }
}

fn fail(msg: &str) -> ! {
    eprintln!("chess960-train: {msg}");
    std::process::exit(2);
}

/// Writes `bytes` to `path` through a temporary file, so that the net there is always whole.
fn write_net(path: &str, bytes: &[u8]) -> std::io::Result<()> {
    let tmp = format!("{path}.tmp");
    std::fs::write(&tmp, bytes)?;
    std::fs::rename(&tmp, path)
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.iter().any(|a| a == "--help" || a == "-h") {
        say(format_args!("{}", USAGE.trim_end()));
        return;
    }
    let o = parse(&args).unwrap_or_else(|e| fail(&e));
    let mut data =
        Dataset::load(&o.files, o.filter, o.val_share).unwrap_or_else(|e| fail(&e.to_string()));
    let s = data.stats;
    say(format_args!(
        "data: {} files, {} positions read; dropped {} before move {}, {} with |score| > {}, \
         {} duplicates; {} training, {} validation",
        o.files.len(),
        s.read,
        s.early,
        o.filter.min_fullmove,
        s.big_score,
        o.filter.max_score,
        s.duplicates,
        data.train.len(),
        data.val.len()
    ));
    if data.train.is_empty() {
        fail("no training positions left after filtering");
    }
    if o.mirror {
        let added = data.add_mirrored_training();
        say(format_args!(
            "mirrored: {added} mirror images added; {} training positions",
            data.train.len()
        ));
    }
    say(format_args!(
        "the data's own scores as the prediction: training loss {:.6}, validation loss {:.6}",
        train::score_loss(&data.train, o.config.lambda),
        train::score_loss(&data.val, o.config.lambda)
    ));
    let c = &o.config;
    say(format_args!(
        "net: 768->{}x2->1, {} weights; batch {}, lr {} (x0.1 from epoch {}), lambda {}, {} threads",
        c.hidden,
        FloatNet::param_count(c.hidden),
        c.batch,
        c.lr,
        c.drop_epoch(),
        c.lambda,
        c.threads
    ));
    let mut write_error = None;
    let best = train::train(c, &mut data, |e, net| {
        let mut note = String::new();
        if e.best && write_error.is_none() {
            match write_net(&o.out, &net.quantise().to_bytes()) {
                Ok(()) => note = format!("  best, written to {}", o.out),
                Err(err) => write_error = Some(err),
            }
        }
        say(format_args!(
            "epoch {:>3}/{}  lr {:.6}  train loss {:.6}  val loss {:.6}  {:.0} pos/s  {:.1} s{note}",
            e.epoch,
            c.epochs,
            e.lr,
            e.train_loss,
            e.val_loss,
            e.positions_per_s,
            e.elapsed.as_secs_f64()
        ));
    });
    if let Some(e) = write_error {
        fail(&format!("{}: {e}", o.out));
    }
    let quantised = best.quantise();
    let check = if data.val.is_empty() {
        &data.train
    } else {
        &data.val
    };
    let (mean, max) = train::quantisation_error(&best, &quantised, check, c.threads);
    say(format_args!(
        "float vs quantised evaluation over {} {} positions: mean {mean:.2} cp, max {max:.2} cp",
        check.len(),
        if data.val.is_empty() {
            "training"
        } else {
            "validation"
        }
    ));
    say(format_args!(
        "net written to {} ({} bytes)",
        o.out,
        quantised.to_bytes().len()
    ));
}
