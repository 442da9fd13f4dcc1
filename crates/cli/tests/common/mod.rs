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
