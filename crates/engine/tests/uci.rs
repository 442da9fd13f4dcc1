//! UCI transcripts against the real binary: handshake, positions in both castling modes,
//! malformed commands, mates, and many fast games against itself without an illegal move.

use chess960_core::{CastlingMode, Game, Position, StartId};
use chess960_engine::uci::{nodes_for_elo, ELO_MAX, ELO_MIN};
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::time::{Duration, Instant};

struct Engine {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
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
        Engine {
            child,
            stdin,
            stdout,
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
            let mut line = String::new();
            let n = self.stdout.read_line(&mut line).unwrap();
            assert!(
                n > 0,
                "engine closed its output; waiting for '{prefix}' after {lines:?}"
            );
            let line = line.trim_end().to_string();
            let done = line.starts_with(prefix);
            lines.push(line);
            if done {
                return lines;
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
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = writeln!(self.stdin, "quit");
        let _ = self.child.wait();
    }
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
fn malformed_commands_are_ignored() {
    let mut e = Engine::start();
    for junk in [
        "",
        "   ",
        "foo bar",
        "position",
        "position fen",
        "position fen not a fen at all",
        "position startpos moves e2e5",
        "position startpos moves e2e4 zzzz",
        "setoption",
        "setoption name Hash value -3",
        "setoption name Threads value many",
        "setoption name NoSuchOption value 1",
        "go wtime abc",
        "go depth",
        "\u{0}\u{1}garbage\u{7f}",
    ] {
        e.send(junk);
    }
    e.send("isready");
    e.until("readyok");
    // The position is still the start, and a search still works.
    e.send("position startpos moves e2e4");
    let (best, _) = e.bestmove("go depth 3");
    let pos = StartId::CLASSICAL.position();
    let pos = pos.play(pos.parse_uci("e2e4", CastlingMode::Standard).unwrap());
    assert!(
        pos.parse_uci(&best, CastlingMode::Standard).is_ok(),
        "{best}"
    );
    // Each non-blank line got one reason on standard error.
    let stderr = e.quit_for_stderr();
    let reasons: Vec<&str> = stderr.lines().collect();
    assert_eq!(reasons.len(), 13, "{stderr}");
    assert!(
        reasons.iter().all(|l| l.starts_with("info string ")),
        "{stderr}"
    );
    for expected in [
        "unknown command 'foo' ignored",
        "position ignored: move 1 (e2e5): illegal move 'e2e5'",
        "bad value '-3' for option 'Hash' ignored",
        "unknown option 'NoSuchOption' ignored",
        "go ignored: 'abc' is not a number",
    ] {
        assert!(
            stderr.contains(expected),
            "'{expected}' missing in\n{stderr}"
        );
    }
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
    // Out of range: ignored with a reason on standard error, and the engine goes on.
    let mut e = Engine::start();
    let too_high = ELO_MAX + 1;
    e.send(&format!("setoption name UCI_Elo value {too_high}"));
    e.send("setoption name UCI_Elo");
    e.send("isready");
    assert_eq!(e.until("readyok"), ["readyok"]);
    let stderr = e.quit_for_stderr();
    assert!(
        stderr.contains(&format!(
            "bad value '{too_high}' for option 'UCI_Elo' ignored"
        )),
        "{stderr}"
    );
    assert!(
        stderr.contains("option 'UCI_Elo' needs a value"),
        "{stderr}"
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
