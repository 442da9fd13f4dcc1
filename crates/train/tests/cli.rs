//! The `chess960-train` binary: flags and data errors are reported with the place and exit
//! status 2, and a short run writes a net the engine reads.

use chess960_engine::nnue::Network;
use std::path::PathBuf;
use std::process::{Command, Output};

fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_chess960-train"))
        .args(args)
        .output()
        .expect("the binary runs")
}

fn scratch_dir(name: &str) -> PathBuf {
    let dir =
        std::env::temp_dir().join(format!("chess960-train-cli-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

const FENS: [&str; 3] = [
    "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
    "2nnrbkr/p1qppppp/8/1ppb4/6PP/3PP3/PPP2P2/BQNNRBKR b HEhe - 1 9",
    "1bbnnrkr/1ppp2pp/p7/4pp2/8/P3PP2/1PPP2PP/QBBNNRKR w HFhf - 0 9",
];

#[test]
fn bad_flags_are_refused_with_the_reason() {
    for (args, says) in [
        (
            vec!["--hidden", "x", "d.txt"],
            "--hidden: 'x' is not a valid number",
        ),
        (
            vec!["--lambda", "2", "d.txt"],
            "--lambda: 2 is out of range (0 to 1)",
        ),
        (vec!["--lr", "NaN", "d.txt"], "--lr: NaN is out of range"),
        (
            vec!["--threads", "0", "d.txt"],
            "--threads: 0 is out of range",
        ),
        (vec!["--epochs"], "--epochs needs a value"),
        (
            vec!["--frobnicate", "1", "d.txt"],
            "unknown flag --frobnicate",
        ),
        (vec!["--epochs", "3"], "no data files given"),
    ] {
        let out = run(&args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(says), "{args:?}: {err}");
    }
}

#[test]
fn broken_data_is_refused_with_the_file_and_line() {
    let dir = scratch_dir("broken");
    let path = dir.join("data.txt");
    std::fs::write(&path, format!("{};0.5;10\n{};draw;10\n", FENS[0], FENS[1])).unwrap();
    let out = run(&[path.to_str().unwrap()]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("data.txt: line 2: result 'draw'"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

fn write_data(path: &std::path::Path) {
    let mut text = String::new();
    for i in 0..300 {
        let result = ["1.0", "0.5", "0.0"][i % 3];
        text.push_str(&format!("{};{result};{}\n", FENS[i % 3], i as i32 - 150));
    }
    std::fs::write(path, text).unwrap();
}

#[test]
fn a_reader_that_goes_away_ends_the_run_quietly() {
    let dir = scratch_dir("pipe");
    let data = dir.join("data.txt");
    write_data(&data);
    let mut child = Command::new(env!("CARGO_BIN_EXE_chess960-train"))
        .args(["--hidden", "4", "--epochs", "1000", "--batch", "64"])
        .arg("--out")
        .arg(dir.join("net.nnue"))
        .arg(&data)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take()); // as `| head -0` would
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{err}");
    assert!(err.is_empty(), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_short_run_writes_a_net_the_engine_reads() {
    let dir = scratch_dir("run");
    let data = dir.join("data.txt");
    write_data(&data);
    let net = dir.join("net.nnue");
    let out = run(&[
        "--hidden",
        "8",
        "--epochs",
        "2",
        "--batch",
        "64",
        "--threads",
        "2",
        "--out",
        net.to_str().unwrap(),
        data.to_str().unwrap(),
    ]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.contains("300 positions read"), "{stdout}");
    assert!(stdout.contains("285 training, 15 validation"), "{stdout}");
    assert!(stdout.contains("epoch   2/2"), "{stdout}");
    assert!(stdout.contains("float vs quantised evaluation over 15 validation positions"));
    let read = Network::from_bytes(&std::fs::read(&net).unwrap()).unwrap();
    assert_eq!(read.hidden, 8);
    std::fs::remove_dir_all(&dir).unwrap();
}
