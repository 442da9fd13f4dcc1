//! The engine under a real client: python-chess's `chess.engine` (PyPI `chess`, pinned in
//! `tests/oracle/requirements.txt`) in Chess960 mode, running `python_chess_client.py`
//! against the binary. python-chess is the referee of every move: games and analyses of
//! Chess960 positions with castling, win/draw/loss estimates, `Clear Hash`, and the malformed
//! `go` and `position` commands (sent raw through python-chess's protocol), each of which must
//! get exactly one `bestmove` legal in the position sent, with its `info string` on standard
//! output. The script's checks are listed in it.
//!
//! Needs `python3` with `chess` installed (`bash scripts/test.sh` installs it).

use std::io::Read;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The script finishes in seconds; this only keeps a broken engine from hanging the suite.
const LIMIT: Duration = Duration::from_secs(300);

#[test]
fn python_chess_plays_analyses_and_gets_a_legal_bestmove_for_every_go() {
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/python_chess_client.py");
    let mut child = Command::new("python3")
        .arg(&script)
        .arg(env!("CARGO_BIN_EXE_chess960-engine"))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("python3 must be installed for the python-chess client test");
    let (mut stdout, mut stderr) = (child.stdout.take().unwrap(), child.stderr.take().unwrap());
    let err_reader = std::thread::spawn(move || {
        let mut text = String::new();
        let _ = stderr.read_to_string(&mut text);
        text
    });
    let out_reader = std::thread::spawn(move || {
        let mut text = String::new();
        let _ = stdout.read_to_string(&mut text);
        text
    });
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break Some(status);
        }
        if started.elapsed() > LIMIT {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    let (out, err) = (out_reader.join().unwrap(), err_reader.join().unwrap());
    let status = status.unwrap_or_else(|| panic!("the client ran past {LIMIT:?}:\n{out}\n{err}"));
    assert!(
        !err.contains("ModuleNotFoundError: No module named 'chess'"),
        "python-chess is missing: `pip install -r tests/oracle/requirements.txt`\n{err}"
    );
    assert!(
        status.success(),
        "the python-chess client failed:\n{out}\n{err}"
    );
    // Every part ran (a script that returned early would not print these).
    for part in [
        "options: UCI_Chess960, UCI_ShowWDL, UCI_AnalyseMode, Clear Hash",
        "mate by castling: found and read in both directions",
        "positions analysed with wdl",
        "malformed go: 6 commands, each one legal bestmove and its info string",
        "malformed position: legal prefix searched; unreadable ones answered 0000",
        "standard error: nothing",
        "all checks passed",
    ] {
        assert!(out.contains(part), "'{part}' missing in\n{out}\n{err}");
    }
}
