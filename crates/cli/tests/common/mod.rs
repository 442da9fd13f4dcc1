//! Helpers shared by the command-line tests.

use std::path::PathBuf;
use std::process::Output;

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
