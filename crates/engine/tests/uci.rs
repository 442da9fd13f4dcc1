//! UCI transcripts against the real binary: handshake, positions in both castling modes,
//! malformed commands, mates, and many fast games against itself without an illegal move.

use chess960_core::{CastlingMode, Game, Position, StartId};
use chess960_engine::levels::{nodes_for_elo, ELO_MAX, ELO_MIN};
use chess960_engine::wdl;
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// How long any answer may take before the test fails (instead of hanging): the slowest
/// search here is given 10 s, and a loaded machine is slow.
const PATIENCE: Duration = Duration::from_secs(60);

struct Engine {
    child: Child,
    stdin: ChildStdin,
    /// The engine's standard output, line by line, from a reader thread, so that a missing
    /// answer fails the test after [`PATIENCE`] rather than hanging it.
    lines: Receiver<String>,
}

impl Engine {
    fn start() -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_chess960-engine"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let stdin = child.stdin.take().unwrap();
        let stdout = BufReader::new(child.stdout.take().unwrap());
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in stdout.lines() {
                let Ok(line) = line else { break };
                if tx.send(line.trim_end().to_string()).is_err() {
                    break;
                }
            }
        });
        Engine {
            child,
            stdin,
            lines,
        }
    }

    fn send(&mut self, line: &str) {
        writeln!(self.stdin, "{line}").unwrap();
        self.stdin.flush().unwrap();
    }

    /// Lines up to and including the first that starts with `prefix`.
    fn until(&mut self, prefix: &str) -> Vec<String> {
        let mut lines = Vec::new();
        loop {
            match self.lines.recv_timeout(PATIENCE) {
                Ok(line) => {
                    let done = line.starts_with(prefix);
                    lines.push(line);
                    if done {
                        return lines;
                    }
                }
                Err(RecvTimeoutError::Timeout) => {
                    panic!("no '{prefix}' within {PATIENCE:?}; the engine wrote {lines:?}")
                }
                Err(RecvTimeoutError::Disconnected) => {
                    panic!("engine closed its output; waiting for '{prefix}' after {lines:?}")
                }
            }
        }
    }

    /// Sends `quit` and returns all the engine wrote on standard error.
    fn quit_for_stderr(mut self) -> String {
        self.send("quit");
        let mut text = String::new();
        self.child
            .stderr
            .take()
            .unwrap()
            .read_to_string(&mut text)
            .unwrap();
        text
    }

    fn bestmove(&mut self, go: &str) -> (String, Vec<String>) {
        self.send(go);
        let lines = self.until("bestmove");
        let best = lines
            .last()
            .unwrap()
            .split_whitespace()
            .nth(1)
            .unwrap()
            .to_string();
        (best, lines)
    }

    /// Sends `isready` and returns what came before `readyok`: a check that nothing else
    /// (a second `bestmove`) is on its way from the commands sent so far, when no search runs.
    fn settle(&mut self) -> Vec<String> {
        self.send("isready");
        let mut lines = self.until("readyok");
        lines.pop();
        lines
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = writeln!(self.stdin, "quit");
        let _ = self.child.wait();
    }
}

/// The `info string` lines among `lines`, without the prefix.
fn info_strings(lines: &[String]) -> Vec<&str> {
    lines
        .iter()
        .filter_map(|l| l.strip_prefix("info string "))
        .collect()
}

#[test]
fn handshake_lists_the_options() {
    let mut e = Engine::start();
    e.send("uci");
    let lines = e.until("uciok");
    let text = lines.join("\n");
    for opt in [
        "option name Hash type spin",
        "option name Threads type spin",
        "option name MultiPV type spin",
        "option name Move Overhead type spin",
        "option name Ponder type check",
        "option name UCI_Chess960 type check",
        "option name UCI_LimitStrength type check",
        "option name UCI_ShowWDL type check default false",
        "option name UCI_AnalyseMode type check default false",
        "option name Clear Hash type button",
    ] {
        assert!(text.contains(opt), "missing '{opt}' in\n{text}");
    }
    let elo =
        format!("option name UCI_Elo type spin default {ELO_MAX} min {ELO_MIN} max {ELO_MAX}");
    assert!(text.contains(&elo), "missing '{elo}' in\n{text}");
    assert!(lines[0].starts_with("id name chess960-engine"));
    e.send("isready");
    assert_eq!(e.until("readyok"), ["readyok"]);
}

#[test]
fn castling_in_both_modes() {
    // White: K on f1, rook on g1 (h-side) — castling swaps them. Only the castle wins here?
    // Simpler: ask for moves and check the notation of castling when the engine plays it
    // from a position where O-O is forced: the king is attacked by nothing, but every other
    // move loses the queen to a fork… Instead we check both ways of sending castling in.
    let fen = "1r2k2r/8/8/8/8/8/8/1R2K1R1 w KQkq - 0 1";
    let mut e = Engine::start();
    e.send("uci");
    e.until("uciok");
    // Chess960 mode: castling sent king onto rook.
    e.send("setoption name UCI_Chess960 value true");
    e.send(&format!("position fen {fen} moves e1g1"));
    e.send("d");
    let after = e.until("1r2k2r");
    let fen_line = after.last().unwrap();
    assert!(
        fen_line.starts_with("1r2k2r/8/8/8/8/8/8/1R3RK1 b"),
        "{fen_line}"
    );
    // Classical mode: the two-square king move is also castling (e1g1 here is the king's
    // destination… the rook stands on g1, so the king-onto-rook text is the same). Use the
    // a-side: king e1 → c1 with the rook on b1.
    e.send("setoption name UCI_Chess960 value false");
    e.send(&format!("position fen {fen} moves e1c1"));
    e.send("d");
    let after = e.until("1r2k2r");
    assert!(
        after
            .last()
            .unwrap()
            .starts_with("1r2k2r/8/8/8/8/8/8/2KR2R1 b"),
        "{after:?}"
    );
    // And king onto rook is accepted in classical mode too.
    e.send(&format!("position fen {fen} moves e1b1"));
    e.send("d");
    let after = e.until("1r2k2r");
    assert!(
        after
            .last()
            .unwrap()
            .starts_with("1r2k2r/8/8/8/8/8/8/2KR2R1 b"),
        "{after:?}"
    );
}

#[test]
fn emits_castling_in_the_notation_of_the_mode() {
    // Mate in one by castling O-O: the rook lands on f1 and checks the king on f8 down the
    // open f-file; the king is walled in by its own rooks and pawns.
    let fen = "4rkr1/4p1p1/8/8/8/8/8/4K2R w K - 0 1";
    let pos = Position::from_fen(fen).unwrap();
    let castle = pos.parse_san("O-O").unwrap();
    assert!(
        pos.play(castle).is_checkmate(),
        "test position must be mate by castling"
    );
    for (chess960, expected) in [(true, "e1h1"), (false, "e1g1")] {
        let mut e = Engine::start();
        e.send("uci");
        e.until("uciok");
        e.send(&format!("setoption name UCI_Chess960 value {chess960}"));
        e.send(&format!("position fen {fen}"));
        let (best, _) = e.bestmove("go depth 4");
        assert_eq!(best, expected, "UCI_Chess960 {chess960}");
    }
    // A castle in which the king steps one square has no classical two-square form: the engine
    // writes it king onto rook in both modes, which classical readers also accept.
    let fen = "2rkr3/2p1p3/8/8/8/8/8/RK6 w Q - 0 1";
    let pos = Position::from_fen(fen).unwrap();
    assert!(pos.play(pos.parse_san("O-O-O").unwrap()).is_checkmate());
    for chess960 in [true, false] {
        let mut e = Engine::start();
        e.send(&format!("setoption name UCI_Chess960 value {chess960}"));
        e.send(&format!("position fen {fen}"));
        let (best, _) = e.bestmove("go depth 4");
        assert_eq!(best, "b1a1", "UCI_Chess960 {chess960}");
    }
}

#[test]
fn malformed_commands_are_reported_on_standard_output() {
    let mut e = Engine::start();
    let junk = [
        "",
        "   ",
        "foo bar",
        "setoption",
        "setoption name Hash value -3",
        "setoption name Threads value many",
        "setoption name NoSuchOption value 1",
        "\u{0}\u{1}garbage\u{7f}",
    ];
    for line in junk {
        e.send(line);
    }
    let said = e.settle();
    // Each non-blank line got one reason, as an `info string` on standard output, where GUIs
    // and python-chess read it.
    let reasons = info_strings(&said);
    assert_eq!(reasons.len(), said.len(), "{said:?}");
    assert_eq!(reasons.len(), 6, "{said:?}");
    for expected in [
        "unknown command 'foo' ignored",
        "setoption needs 'name <option> [value <value>]'",
        "bad value '-3' for option 'Hash' ignored",
        "bad value 'many' for option 'Threads' ignored",
        "unknown option 'NoSuchOption' ignored",
        // Control characters are not echoed: the reason stays one clean line.
        "unknown command '  garbage ' ignored",
    ] {
        assert!(
            reasons.iter().any(|r| r.starts_with(expected)),
            "'{expected}' missing in {reasons:?}"
        );
    }
    // A search still works, and nothing went to standard error (no second copy of each
    // reason on a terminal).
    e.send("position startpos moves e2e4");
    let (best, _) = e.bestmove("go depth 3");
    let pos = StartId::CLASSICAL.position();
    let pos = pos.play(pos.parse_uci("e2e4", CastlingMode::Standard).unwrap());
    assert!(
        pos.parse_uci(&best, CastlingMode::Standard).is_ok(),
        "{best}"
    );
    assert_eq!(e.quit_for_stderr(), "");
}

/// The position after 1. e4 (Black to move), where the `go` tests search.
const AFTER_E4: &str = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1";

#[test]
fn every_go_is_answered_with_one_legal_bestmove() {
    let pos = Position::from_fen(AFTER_E4).unwrap();
    let mut e = Engine::start();
    // (go command, a reason that must be said, the moves the answer must be among: empty for
    // any legal move).
    let cases: &[(&str, &str, &[&str])] = &[
        (
            "go movetime 300 nodestime 5",
            "go: unknown parameter 'nodestime 5' skipped",
            &[],
        ),
        ("go movetime 300.5", "go: movetime 300.5 read as 300", &[]),
        (
            "go depth abc",
            "go: depth abc: 'abc' is not a number; skipped",
            &[],
        ),
        ("go nodes", "go: 'nodes' needs a number; skipped", &[]),
        (
            "go depth -2 movetime 200",
            "go: depth -2: negative; skipped",
            &[],
        ),
        (
            "go wtime 1000 btime 1e400 winc 10 binc 10",
            "go: btime 1e400: '1e400' is not a number; skipped",
            &[],
        ),
        (
            "go depth 3 searchmoves g8f6 e2e4 d7d5 b8b6",
            "go: searchmoves: illegal move 'e2e4'",
            &["g8f6", "d7d5"],
        ),
        (
            "go depth 3 searchmoves e2e4 a1a8",
            "go: no legal move in searchmoves; searching all moves",
            &[],
        ),
        (
            "go depth 2 searchmoves e7e5 banana 7",
            "go: unknown parameter 'banana 7' skipped",
            &["e7e5"],
        ),
    ];
    for &(go, reason, among) in cases {
        e.send(&format!("position fen {AFTER_E4}"));
        let started = Instant::now();
        let (best, lines) = e.bestmove(go);
        assert!(
            started.elapsed() < Duration::from_secs(20),
            "{go}: {:?}",
            started.elapsed()
        );
        let reasons = info_strings(&lines);
        assert!(
            reasons.iter().any(|r| r.starts_with(reason)),
            "{go}: '{reason}' missing in {reasons:?}"
        );
        let m = pos
            .parse_uci(&best, CastlingMode::Standard)
            .unwrap_or_else(|err| panic!("{go}: bestmove {best}: {err}"));
        assert!(pos.legal_moves().contains(&m));
        assert!(
            among.is_empty() || among.contains(&best.as_str()),
            "{go}: {best}"
        );
        // Exactly one bestmove.
        let after = e.settle();
        assert!(
            after.iter().all(|l| !l.starts_with("bestmove")),
            "{go}: {after:?}"
        );
    }
    // With its limits skipped, a `go` still ends by itself (after a second).
    e.send(&format!("position fen {AFTER_E4}"));
    let (_, lines) = e.bestmove("go depth x nodes y");
    let reasons = info_strings(&lines);
    assert!(
        reasons.contains(&"go: nothing left that ends the search; searching 1000 ms"),
        "{reasons:?}"
    );
    // `go infinite` with junk still waits for `stop`, and answers it once.
    e.send("go infinite banana");
    std::thread::sleep(Duration::from_millis(300));
    let before = e.settle();
    assert!(
        before.iter().all(|l| !l.starts_with("bestmove")),
        "{before:?}"
    );
    e.send("stop");
    e.until("bestmove");
    assert!(e.settle().iter().all(|l| !l.starts_with("bestmove")));
}

/// The FEN the engine shows with `d`.
fn shown_fen(e: &mut Engine) -> String {
    e.send("d");
    e.settle()
        .into_iter()
        .rfind(|l| l.split_whitespace().count() == 6)
        .expect("a FEN line")
}

/// Sends `command` (a `position` whose list stops early) and checks that the engine shows
/// `expected` and plays a move legal there (in `mode`); returns its reason.
fn prefix_applied(
    e: &mut Engine,
    command: &str,
    expected: &Position,
    mode: CastlingMode,
) -> String {
    e.send(command);
    let reasons = e.settle();
    assert_eq!(shown_fen(e), expected.fen(), "{command}");
    let (best, _) = e.bestmove("go depth 3");
    assert!(expected.parse_uci(&best, mode).is_ok(), "{command}: {best}");
    match info_strings(&reasons)[..] {
        [reason] => reason.to_string(),
        _ => panic!("{command}: one reason expected, got {reasons:?}"),
    }
}

/// `fen` after `moves` (UCI in `mode`), by the rules library.
fn after(fen: &str, moves: &[&str], mode: CastlingMode) -> Position {
    moves.iter().fold(Position::from_fen(fen).unwrap(), |p, m| {
        p.play(p.parse_uci(m, mode).unwrap())
    })
}

#[test]
fn a_move_list_is_applied_as_far_as_it_is_legal() {
    let mut e = Engine::start();
    let start = StartId::CLASSICAL.position().fen();
    // The last position had Black to move; then a list whose first move is illegal. The
    // engine must not go on searching the old position (its moves are illegal in the new one).
    e.send(&format!("position fen {AFTER_E4}"));
    e.bestmove("go depth 2");
    let reason = prefix_applied(
        &mut e,
        "position startpos moves e2e5 e7e5",
        &after(&start, &[], CastlingMode::Standard),
        CastlingMode::Standard,
    );
    assert!(
        reason.starts_with("position: move 1 (e2e5) stops the list: illegal move 'e2e5'")
            && reason.ends_with("the position is the one after the start position, white to move"),
        "{reason}"
    );
    // An unreadable word in the middle: the moves before it count, the ones after do not.
    let reason = prefix_applied(
        &mut e,
        "position startpos moves e2e4 e7e5 g1f3 zzzz b8c6",
        &after(&start, &["e2e4", "e7e5", "g1f3"], CastlingMode::Standard),
        CastlingMode::Standard,
    );
    assert!(
        reason.contains("move 4 (zzzz) stops the list")
            && reason.ends_with("after move 3 (g1f3), black to move"),
        "{reason}"
    );
    // Chess960 notation, with castles (king onto rook) in the legal part: both are applied,
    // the list stops at the third move (the king has castled already).
    e.send("setoption name UCI_Chess960 value true");
    let fen = "1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w KQkq - 0 1";
    let expected = after(fen, &["e1g1", "e8b8"], CastlingMode::Chess960);
    assert!(expected.castling_rights().is_empty(), "both sides castled");
    let reason = prefix_applied(
        &mut e,
        &format!("position fen {fen} moves e1g1 e8b8 e1g1 b8a8"),
        &expected,
        CastlingMode::Chess960,
    );
    assert!(
        reason.starts_with("position: move 3 (e1g1) stops the list"),
        "{reason}"
    );
}

#[test]
fn without_a_readable_position_go_answers_bestmove_0000() {
    let mut e = Engine::start();
    for bad in [
        "position fen rnbqkbnr/pppppppp/8/8 w",
        "position",
        "position moves e2e4",
        "position startpos mvoes e2e4",
        "position fen",
    ] {
        // A good position first, so that the engine has one it could wrongly keep.
        e.send(&format!("position fen {AFTER_E4}"));
        e.send(bad);
        let (best, lines) = e.bestmove("go depth 4");
        assert_eq!(best, "0000", "{bad}: {lines:?}");
        let reasons = info_strings(&lines);
        assert!(
            reasons.len() == 2
                && reasons[0].starts_with("position: ")
                && reasons[0].ends_with(
                    "no position until the next 'position' command ('go' answers 'bestmove 0000')"
                )
                && reasons[1]
                    == "no position: the last 'position' command could not be read; bestmove 0000",
            "{bad}: {reasons:?}"
        );
        assert!(e.settle().iter().all(|l| !l.starts_with("bestmove")));
    }
    // `go infinite` with no position still waits for `stop`.
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(200));
    assert!(e.settle().iter().all(|l| !l.starts_with("bestmove")));
    e.send("stop");
    assert_eq!(e.until("bestmove").last().unwrap(), "bestmove 0000");
    // `d` says so too, and the next good position ends it.
    e.send("d");
    assert_eq!(
        info_strings(&e.settle()),
        ["no position: the last 'position' command could not be read"]
    );
    e.send("position startpos");
    let (best, _) = e.bestmove("go depth 2");
    assert_ne!(best, "0000");
}

#[test]
fn isready_answers_while_searching() {
    let mut e = Engine::start();
    e.send("position startpos");
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(200));
    let t = Instant::now();
    e.send("isready");
    let mut lines = e.until("readyok");
    assert!(
        t.elapsed() < Duration::from_millis(500),
        "{:?}",
        t.elapsed()
    );
    assert!(
        !lines.iter().any(|l| l.starts_with("bestmove")),
        "infinite search must not stop by itself"
    );
    std::thread::sleep(Duration::from_millis(100));
    e.send("stop");
    lines.extend(e.until("bestmove"));
    assert!(lines.iter().any(|l| l.starts_with("info depth")));
}

/// The numbers after `name` in an `info` line.
fn info_field(line: &str, name: &str) -> Option<u64> {
    let mut words = line.split_whitespace();
    words.find(|&w| w == name)?;
    words.next()?.parse().ok()
}

#[test]
fn uci_elo_caps_the_search() {
    for elo in [ELO_MIN, 1600, ELO_MAX] {
        let mut e = Engine::start();
        e.send("setoption name UCI_LimitStrength value true");
        e.send(&format!("setoption name UCI_Elo value {elo}"));
        e.send("position startpos moves e2e4 e7e5 g1f3");
        let started = Instant::now();
        // Ten seconds of thinking time that the cap must cut short.
        let (best, lines) = e.bestmove("go movetime 10000");
        assert!(started.elapsed() < Duration::from_secs(8), "UCI_Elo {elo}");
        assert_ne!(best, "0000");
        let cap = nodes_for_elo(elo);
        let infos: Vec<&String> = lines
            .iter()
            .filter(|l| l.starts_with("info depth"))
            .collect();
        assert!(!infos.is_empty(), "UCI_Elo {elo}: no info line");
        for info in &infos {
            // Reports come after completed iterations, so within the cap (one node means a
            // 1-ply search, whatever it costs).
            let nodes = info_field(info, "nodes").unwrap();
            assert!(nodes <= cap.max(1_000) + 16, "UCI_Elo {elo}: {info}");
        }
        if elo == ELO_MIN {
            assert!(
                infos.iter().all(|l| info_field(l, "depth") == Some(1)),
                "{infos:?}"
            );
        }
    }
    // Switched off again, the same search runs to its time.
    let mut e = Engine::start();
    e.send("setoption name UCI_LimitStrength value true");
    e.send(&format!("setoption name UCI_Elo value {ELO_MIN}"));
    e.send("setoption name UCI_LimitStrength value false");
    e.send("position startpos moves e2e4 e7e5 g1f3");
    let (_, lines) = e.bestmove("go depth 6");
    assert!(lines.iter().any(|l| info_field(l, "depth") == Some(6)));
    // Out of range: ignored with a reason, and the engine goes on.
    let mut e = Engine::start();
    let too_high = ELO_MAX + 1;
    e.send(&format!("setoption name UCI_Elo value {too_high}"));
    e.send("setoption name UCI_Elo");
    assert_eq!(
        info_strings(&e.settle()),
        [
            format!("bad value '{too_high}' for option 'UCI_Elo' ignored ('uci' lists its type and range)"),
            "option 'UCI_Elo' needs a value; ignored".to_string()
        ]
    );
}

/// (score in centipawns or `None` for a mate, the `wdl` triple if any) of an `info depth` line.
fn score_and_wdl(line: &str) -> (Option<i32>, Option<[u32; 3]>) {
    let words: Vec<&str> = line.split_whitespace().collect();
    let after = |name: &str| words.iter().position(|&w| w == name).map(|i| i + 1);
    let cp = after("cp").map(|i| words[i].parse().unwrap());
    let wdl = after("wdl").map(|i| [0, 1, 2].map(|k| words[i + k].parse().unwrap()));
    (cp, wdl)
}

#[test]
fn wdl_is_shown_on_request() {
    // Black to move, a rook up; then the same with White a rook up (Black to move, losing);
    // then a mate in one.
    let up = "3r2k1/5pp1/7p/8/8/7P/5PP1/6K1 b - - 0 1";
    let down = "6k1/5pp1/7p/8/8/7P/5PP1/3R2K1 b - - 0 1";
    let mate = "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1";
    let mut e = Engine::start();
    e.send(&format!("position fen {up}"));
    let (_, lines) = e.bestmove("go depth 5");
    assert!(lines.iter().all(|l| !l.contains(" wdl ")), "{lines:?}");
    e.send("setoption name UCI_ShowWDL value true");
    for (fen, winning) in [(up, true), (down, false)] {
        e.send(&format!("position fen {fen}"));
        let (_, lines) = e.bestmove("go depth 6");
        let material = wdl::material(&Position::from_fen(fen).unwrap());
        let infos: Vec<&String> = lines
            .iter()
            .filter(|l| l.starts_with("info depth"))
            .collect();
        assert!(!infos.is_empty());
        for info in infos {
            let (cp, shown) = score_and_wdl(info);
            let (cp, [w, d, l]) = (cp.unwrap(), shown.expect("a wdl field"));
            // The side to move's view, from the model, for the root's material.
            let model = wdl::MODEL.wdl(cp, material);
            assert_eq!([w, d, l], [model.win, model.draw, model.loss], "{info}");
            assert_eq!(w + d + l, 1000);
            assert_eq!(cp > 0, winning, "{info}");
            if winning {
                assert!(w > l, "{info}");
            } else {
                assert!(l > w, "{info}");
            }
            // It comes after the score, as Stockfish writes it and python-chess reads it.
            assert!(
                info.contains(&format!("score cp {cp} wdl {w} {d} {l} ")),
                "{info}"
            );
        }
    }
    e.send(&format!("position fen {mate}"));
    let (_, lines) = e.bestmove("go depth 4");
    let last = lines.iter().rfind(|l| l.starts_with("info depth")).unwrap();
    assert!(last.contains("score mate 1 wdl 1000 0 0 "), "{last}");
    // Switched off again: no wdl.
    e.send("setoption name UCI_ShowWDL value false");
    let (_, lines) = e.bestmove("go depth 3");
    assert!(lines.iter().all(|l| !l.contains(" wdl ")), "{lines:?}");
}

/// The node count of the last `info depth` line of a `go`.
fn nodes_of(lines: &[String]) -> u64 {
    let last = lines.iter().rfind(|l| l.starts_with("info depth")).unwrap();
    info_field(last, "nodes").unwrap()
}

#[test]
fn clear_hash_empties_the_table_and_analyse_mode_is_accepted() {
    // One thread and a fixed depth: the same search from an empty table visits the same
    // nodes; from a table that knows the position, fewer.
    let go = "go depth 8";
    let mut e = Engine::start();
    e.send("position startpos moves e2e4 e7e5 g1f3");
    let (_, fresh) = e.bestmove(go);
    let (_, warm) = e.bestmove(go);
    assert!(nodes_of(&warm) < nodes_of(&fresh), "{warm:?}");
    e.send("setoption name Clear Hash");
    e.send("setoption name UCI_AnalyseMode value true");
    assert_eq!(e.settle(), Vec::<String>::new(), "no complaint");
    let (_, cleared) = e.bestmove(go);
    assert_eq!(nodes_of(&cleared), nodes_of(&fresh));
    // Analyse mode changes nothing in the search.
    e.send("setoption name Clear Hash");
    e.send("setoption name UCI_AnalyseMode value false");
    let (_, off) = e.bestmove(go);
    assert_eq!(nodes_of(&off), nodes_of(&fresh));
    e.send("setoption name UCI_AnalyseMode value maybe");
    assert_eq!(
        info_strings(&e.settle()),
        ["bad value 'maybe' for option 'UCI_AnalyseMode' ignored ('uci' lists its type and range)"]
    );
}

#[test]
fn info_lines_have_the_fields() {
    let mut e = Engine::start();
    e.send("setoption name MultiPV value 3");
    e.send("position startpos");
    let (_, lines) = e.bestmove("go depth 6");
    let info = lines
        .iter()
        .rfind(|l| l.contains("multipv 3"))
        .expect("a third line");
    for field in [
        "depth ",
        "seldepth ",
        "multipv ",
        "score cp ",
        "nodes ",
        "nps ",
        "hashfull ",
        "time ",
        "pv ",
    ] {
        assert!(info.contains(field), "'{field}' missing in {info}");
    }
}

#[test]
fn finds_mates() {
    for (fen, mate_in) in [
        // Back-rank mate in one.
        ("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1", 1),
        // Scholar's mate.
        (
            "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4",
            1,
        ),
        // King and rook against king: mate in two (1. Kf7 Kh7 2. Rh1#).
        ("7k/8/5K2/8/8/8/8/6R1 w - - 0 1", 2),
    ] {
        let mut e = Engine::start();
        e.send(&format!("position fen {fen}"));
        let (best, lines) = e.bestmove(&format!("go mate {mate_in} depth 12"));
        let last_info = lines.iter().rfind(|l| l.starts_with("info depth")).unwrap();
        assert!(
            last_info.contains(&format!("score mate {mate_in} ")),
            "{fen}: {last_info}"
        );
        // The move really mates in time: after it, the defender is mated in one move fewer.
        let pos = Position::from_fen(fen).unwrap();
        let after = pos.play(pos.parse_uci(&best, CastlingMode::Standard).unwrap());
        if mate_in == 1 {
            assert!(after.is_checkmate(), "{fen}: {best}");
        } else {
            e.send(&format!("position fen {}", after.fen()));
            let (_, lines) = e.bestmove("go depth 10");
            let last = lines.iter().rfind(|l| l.starts_with("info depth")).unwrap();
            assert!(
                last.contains(&format!("score mate -{} ", mate_in - 1)),
                "{fen} {best}: {last}"
            );
        }
    }
}

#[test]
fn no_illegal_move_in_fast_self_play() {
    // Fast games from random Chess960 starts; the engine plays both sides and every move is
    // checked by the rules library.
    let mut e = Engine::start();
    e.send("uci");
    e.until("uciok");
    e.send("setoption name UCI_Chess960 value true");
    let mut seed = 12345u64;
    let mut played = 0;
    for _ in 0..4 {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let id = StartId::new((seed >> 33) as u32 % 960).unwrap();
        let mut game = Game::chess960(id);
        let mut moves: Vec<String> = Vec::new();
        e.send("ucinewgame");
        while game.outcome().is_none() && moves.len() < 160 {
            e.send(&format!(
                "position fen {} moves {}",
                id.position().fen(),
                moves.join(" ")
            ));
            let (best, _) = e.bestmove("go wtime 1000 btime 1000 winc 10 binc 10");
            let m = game
                .position()
                .parse_uci(&best, CastlingMode::Chess960)
                .unwrap_or_else(|err| {
                    panic!("illegal move {best} in {}: {err}", game.position().fen())
                });
            game.play(m).unwrap();
            moves.push(best);
            played += 1;
        }
    }
    assert!(played > 60, "{played} moves");
}

/// The highest `info depth` among `lines`.
fn deepest(lines: &[String]) -> u32 {
    lines
        .iter()
        .filter_map(|l| l.strip_prefix("info depth "))
        .filter_map(|l| l.split_whitespace().next()?.parse().ok())
        .max()
        .unwrap_or(0)
}

/// Runs the engine on `input`, closing its input after `linger`; its output lines.
fn piped(input: &str, linger: Duration) -> Vec<String> {
    let mut child = Command::new(env!("CARGO_BIN_EXE_chess960-engine"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    writeln!(stdin, "{input}").unwrap();
    std::thread::sleep(linger);
    drop(stdin);
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(child.wait_with_output());
    });
    let out = rx
        .recv_timeout(PATIENCE)
        .unwrap_or_else(|_| panic!("the engine did not end after its input: {input}"))
        .unwrap();
    assert!(out.status.success());
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect()
}

#[test]
fn end_of_input_lets_a_limited_search_finish_and_stops_an_unlimited_one() {
    // The issue's pipe: the input ends right after `go`. A search with a limit still runs
    // to it (here 300 ms: far deeper than depth 1), with a legal bestmove.
    let pos = StartId::CLASSICAL.position();
    let pos = pos.play(pos.parse_uci("e2e4", CastlingMode::Standard).unwrap());
    for go in [
        "go movetime 300",
        "go depth 6",
        "go movetime 300 nodestime 5",
    ] {
        let lines = piped(
            &format!("position startpos moves e2e4\n{go}"),
            Duration::ZERO,
        );
        let best = lines
            .iter()
            .find_map(|l| l.strip_prefix("bestmove "))
            .unwrap_or_else(|| panic!("{go}: no bestmove in {lines:?}"));
        let mv = best.split_whitespace().next().unwrap();
        assert!(
            pos.parse_uci(mv, CastlingMode::Standard).is_ok(),
            "{go}: {mv}"
        );
        assert!(deepest(&lines) >= 4, "{go}: stopped early: {lines:?}");
    }
    // `go infinite` has no end of its own: the end of the input stops it, still with a move.
    let lines = piped("position startpos\ngo infinite", Duration::from_millis(200));
    assert!(
        lines.iter().any(|l| l.starts_with("bestmove ")),
        "{lines:?}"
    );
}

/// The score of the deepest `info … score cp` line.
fn last_cp(lines: &[String]) -> i32 {
    lines
        .iter()
        .rev()
        .find_map(|l| score_and_wdl(l).0)
        .unwrap_or_else(|| panic!("no score in {lines:?}"))
}

#[test]
fn eval_file_loads_a_net_and_reports_a_bad_one() {
    use chess960_engine::nnue::{Network, INPUTS, QA, QB, SCALE};
    // A net that calls every position +300 for the side to move: searched one ply deep, every
    // move leaves the opponent at +300, so the root scores -300, which no hand-crafted
    // evaluation of the start position would.
    let hidden = 16;
    let constant = Network {
        hidden,
        feature_weights: vec![0; INPUTS * hidden],
        feature_bias: vec![0; hidden],
        output_weights: vec![0; 2 * hidden],
        output_bias: 300 * QA * QB / SCALE,
    };
    let dir = std::env::temp_dir().join(format!("chess960-evalfile-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let good = dir.join("constant.nnue");
    let bad = dir.join("truncated.nnue");
    let bytes = constant.to_bytes();
    std::fs::write(&good, &bytes).unwrap();
    std::fs::write(&bad, &bytes[..100]).unwrap();

    let mut e = Engine::start();
    e.send("uci");
    let lines = e.until("uciok");
    assert!(lines
        .iter()
        .any(|l| l == "option name UseNNUE type check default true"));
    assert!(lines
        .iter()
        .any(|l| l == "option name EvalFile type string default <embedded>"));
    let depth_one = |e: &mut Engine| {
        e.send("position startpos");
        e.send("go depth 1");
        last_cp(&e.until("bestmove"))
    };
    let built_in = depth_one(&mut e);
    assert_ne!(built_in, -300);

    e.send(&format!("setoption name EvalFile value {}", good.display()));
    e.send("isready");
    let said = e.until("readyok");
    assert!(
        info_strings(&said).iter().any(|s| s.contains("loaded")),
        "{said:?}"
    );
    assert_eq!(depth_one(&mut e), -300);

    // A broken file is reported with its reason, and the loaded net stays.
    for (path, reason) in [
        (bad.display().to_string(), "net is 100 bytes"),
        (
            dir.join("missing.nnue").display().to_string(),
            "missing.nnue",
        ),
        // Read without end, were it not for the size limit.
        ("/dev/zero".to_string(), "larger than any net"),
    ] {
        e.send(&format!("setoption name EvalFile value {path}"));
        e.send("isready");
        let said = e.until("readyok");
        let strings = info_strings(&said);
        assert!(
            strings
                .iter()
                .any(|s| s.contains(reason) && s.contains("the previous net stays")),
            "{said:?}"
        );
        assert_eq!(depth_one(&mut e), -300);
    }

    // Limited strength plays with the hand-crafted evaluation its calibration was measured on,
    // and so does UseNNUE false.
    e.send("setoption name UCI_LimitStrength value true");
    assert_ne!(depth_one(&mut e), -300);
    e.send("setoption name UCI_LimitStrength value false");
    assert_eq!(depth_one(&mut e), -300);
    e.send("setoption name UseNNUE value false");
    assert_ne!(depth_one(&mut e), -300);
    e.send("setoption name UseNNUE value true");
    e.send("setoption name EvalFile value <embedded>");
    assert_eq!(depth_one(&mut e), built_in);
    e.send("quit");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Runs `command` (the engine, perhaps under a shell) with `input` as its whole standard
/// input; its exit status, its output lines and its standard error.
fn run_on_bytes(
    mut command: Command,
    input: Vec<u8>,
) -> (std::process::ExitStatus, Vec<String>, String) {
    let mut child = command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    // Written from a thread: the engine answers while it reads, and an input larger than the
    // pipe would otherwise wait on an output nobody reads.
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(child.wait_with_output());
    });
    let out = rx
        .recv_timeout(PATIENCE)
        .expect("the engine did not end after its input")
        .unwrap();
    writer.join().unwrap();
    let lines = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(str::to_string)
        .collect();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    (out.status, lines, stderr)
}

/// The index of the first of `lines` for which `f` holds, after `from`.
fn index_after(lines: &[String], from: usize, f: impl Fn(&str) -> bool) -> Option<usize> {
    lines[from..].iter().position(|l| f(l)).map(|i| from + i)
}

#[test]
fn a_line_that_is_not_utf8_is_reported_and_skipped() {
    // Issue 37: the byte 0xff ended the engine, silently, as if the input had ended.
    let (status, lines, _) = run_on_bytes(
        Command::new(env!("CARGO_BIN_EXE_chess960-engine")),
        b"uci\n\xff\nisready\nquit\n".to_vec(),
    );
    assert!(status.success(), "{status}: {lines:?}");
    let uciok = index_after(&lines, 0, |l| l == "uciok").expect("uciok");
    let said = index_after(&lines, uciok, |l| {
        l.starts_with("info string ") && l.contains("not UTF-8")
    })
    .unwrap_or_else(|| panic!("no info string about the line: {lines:?}"));
    // Shown as text, the bad byte replaced.
    assert!(lines[said].contains("'\u{FFFD}'"), "{}", lines[said]);
    assert!(
        index_after(&lines, said, |l| l == "readyok").is_some(),
        "no readyok after the bad line: {lines:?}"
    );
}

#[test]
fn an_overlong_line_is_skipped_unstored_and_reported() {
    let mut input = b"uci\n".to_vec();
    input.extend(std::iter::repeat_n(b'x', 3 << 20));
    input.extend(b"\nisready\nquit\n");
    let (status, lines, _) =
        run_on_bytes(Command::new(env!("CARGO_BIN_EXE_chess960-engine")), input);
    assert!(status.success(), "{status}");
    let said = index_after(&lines, 0, |l| {
        l == format!(
            "info string ignored a line of {} bytes: a command may have at most 1048576",
            (3 << 20) + 1
        )
    })
    .unwrap_or_else(|| {
        // Each line cut short: today's engine would have echoed the three million letters.
        let short: Vec<String> = lines
            .iter()
            .map(|l| l.chars().take(100).collect())
            .collect();
        panic!("no info string about the line: {short:?}")
    });
    assert!(index_after(&lines, said, |l| l == "readyok").is_some());
    // Not echoed back (as an unknown command of three million letters would be).
    assert!(lines.iter().all(|l| l.len() < 1000));
}

/// `Hash` at the most the option allows (64 GiB; a table of 32 GiB) under a limit of 4 GB of
/// address space, so that the allocation fails on any machine, at once and without touching
/// memory (Linux's `ulimit -v`, which other systems do not all enforce).
#[cfg(target_os = "linux")]
#[test]
fn a_hash_that_cannot_be_allocated_keeps_the_old_table() {
    let mut sh = Command::new("sh");
    sh.args([
        "-c",
        r#"ulimit -v 4000000 && exec "$0""#,
        env!("CARGO_BIN_EXE_chess960-engine"),
    ]);
    // No `quit`: the end of the input lets the search of depth 5 finish.
    let (status, lines, stderr) = run_on_bytes(
        sh,
        b"setoption name Hash value 65536\nisready\nposition startpos\ngo depth 5\n".to_vec(),
    );
    assert!(status.success(), "{status}: {lines:?}\n{stderr}");
    let said = index_after(&lines, 0, |l| {
        l == "info string Hash 65536: could not allocate its table of 32768 MiB; \
               Hash stays 16 (its table of 8 MiB, entries kept)"
    })
    .unwrap_or_else(|| panic!("no info string about Hash: {lines:?}\n{stderr}"));
    let ready = index_after(&lines, said, |l| l == "readyok").expect("readyok");
    let best = index_after(&lines, ready, |l| l.starts_with("bestmove ")).expect("bestmove");
    assert_eq!(deepest(&lines[ready..best]), 5, "{lines:?}");
    let mv = lines[best].split_whitespace().nth(1).unwrap();
    assert!(StartId::CLASSICAL
        .position()
        .parse_uci(mv, CastlingMode::Standard)
        .is_ok());
}
