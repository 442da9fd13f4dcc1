//! bbpPairings' own Dutch test cases (`shared/tools/bbpPairings/test/tests`): a TRF with the
//! rounds so far and the pairing bbpPairings publishes for the next one, board order
//! included. Read in place; see `shared/tools/README.md`.

use chess960_events::swiss::pair_dutch;
use chess960_events::trf;
use std::path::PathBuf;

fn fixtures() -> PathBuf {
    std::env::var_os("CHESS960_SHARED_TOOLS")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/tools"))
        .join("bbpPairings/test/tests")
}

fn check(name: &str) {
    let dir = fixtures();
    let input = std::fs::read_to_string(dir.join(format!("{name}.input"))).unwrap_or_else(|e| {
        panic!(
            "{}: {e} (shared/tools beside the repository?)",
            dir.display()
        )
    });
    let expected = std::fs::read_to_string(dir.join(format!("{name}.output.expected"))).unwrap();
    let f = trf::read(&input).unwrap();
    let next = f.rounds_played() + 1;
    let h = f.history(next).unwrap();
    let p = pair_dutch(&h).unwrap();
    let ours = trf::pairing_lines(&p, &f.ids());
    assert_eq!(
        ours.trim(),
        expected.replace('\r', "\n").trim(),
        "{name}: round {next}"
    );
}

/// C5: the PAB goes to the lowest score (player 6), with player 4 absent (`0000 - Z`).
#[test]
fn dutch_2025_c5() {
    check("dutch_2025_C5");
}

/// C9: the PAB goes to player 4, not to player 5 who has a round without a game already.
#[test]
fn dutch_2025_c9() {
    check("dutch_2025_C9");
}

/// Round 15 of a 60-player event with forfeits.
#[test]
fn issue_7() {
    check("issue_7");
}

/// What we write reads back the same, and pairs the same.
#[test]
fn written_files_read_back() {
    let input = std::fs::read_to_string(fixtures().join("issue_7.input")).unwrap();
    let f = trf::read(&input).unwrap();
    let again = trf::read(&trf::write(&f)).unwrap();
    assert_eq!(again.players, f.players);
    assert_eq!(again.total_rounds, f.total_rounds);
    let next = f.rounds_played() + 1;
    assert_eq!(
        pair_dutch(&again.history(next).unwrap()),
        pair_dutch(&f.history(next).unwrap())
    );
}
