//! Helpers shared by the command-line tests.

// Each test file uses some of them.
#![allow(dead_code)]

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

/// A command's standard output as text.
pub fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).expect("UTF-8 stdout")
}

/// A command's standard error as text.
pub fn stderr(o: &Output) -> String {
    String::from_utf8(o.stderr.clone()).expect("UTF-8 stderr")
}

/// `shared/data/<rel>` (or under `CHESS960_SHARED_DATA`), which must exist.
pub fn shared(rel: &str) -> String {
    let base = match std::env::var("CHESS960_SHARED_DATA") {
        Ok(p) => PathBuf::from(p),
        Err(_) => PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data"),
    };
    let p = base.join(rel);
    assert!(p.is_file(), "test data not found: {}", p.display());
    p.to_string_lossy().into_owned()
}

/// Runs `chess960` with `args` and `stdin` as its standard input (a pipe, not a terminal).
pub fn run_with(args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_chess960"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the chess960 binary runs");
    let mut input = child.stdin.take().expect("stdin is piped");
    // The program may stop reading early (and close the pipe): that is not a test failure.
    let _ = input.write_all(stdin.as_bytes());
    drop(input);
    child.wait_with_output().expect("the chess960 binary ends")
}

/// `chess960 event --db DB ARGS…` (the environment's database left out).
pub fn event(db: &std::path::Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_chess960"))
        .arg("event")
        .arg("--db")
        .arg(db)
        .args(args)
        .env_remove("CHESS960_DB")
        .output()
        .expect("the chess960 binary runs")
}

/// [`event`], which must succeed: its standard output.
pub fn event_ok(db: &std::path::Path, args: &[&str]) -> String {
    let o = event(db, args);
    assert!(
        o.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8(o.stdout).unwrap()
}

/// [`event`], which must fail with status 2 and one line on standard error: that line.
pub fn event_fails(db: &std::path::Path, args: &[&str]) -> String {
    let o = event(db, args);
    assert_eq!(o.status.code(), Some(2), "{args:?} should fail");
    assert!(o.stdout.is_empty());
    let e = String::from_utf8(o.stderr).unwrap();
    assert_eq!(e.lines().count(), 1, "one line: {e}");
    e
}

/// A fresh scratch folder for one test (`tag`: the test file, `name`: the test).
pub fn scratch_dir(tag: &str, name: &str) -> PathBuf {
    let dir =
        std::env::temp_dir().join(format!("chess960-cli-{tag}-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// `chess960-random-engine`, built by crates/arena beside the `chess960` binary. A whole
/// workspace build has it; when only this package was built, it is built here.
pub fn random_engine() -> PathBuf {
    let bin = PathBuf::from(env!("CARGO_BIN_EXE_chess960"));
    let dir = bin.parent().expect("the binary's directory");
    let engine = dir.join(format!(
        "chess960-random-engine{}",
        std::env::consts::EXE_SUFFIX
    ));
    if !engine.is_file() {
        // target/<profile>/chess960: the profile's directory name is the profile's name
        // ("debug" is the dev profile's).
        let profile = dir
            .file_name()
            .and_then(|p| p.to_str())
            .map(|p| if p == "debug" { "dev" } else { p })
            .unwrap_or("dev")
            .to_string();
        let status = Command::new(env!("CARGO"))
            .args([
                "build",
                "--profile",
                &profile,
                "-p",
                "chess960-arena",
                "--bin",
                "chess960-random-engine",
            ])
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .status()
            .expect("cargo runs");
        assert!(status.success(), "building chess960-random-engine failed");
    }
    assert!(engine.is_file(), "no {}", engine.display());
    engine
}
