"""chess960-engine driven by a real client: python-chess's chess.engine, in Chess960 mode.

Usage: python3 python_chess_client.py PATH-TO-ENGINE

python-chess (pinned in tests/oracle/requirements.txt) is the referee: every move the engine
plays, every principal variation and every bestmove is checked against its rules. The script
plays and analyses Chess960 positions with castling (python-chess sets UCI_Chess960 itself
for a Chess960 board and writes castling king onto rook), asks for win/draw/loss estimates
(UCI_ShowWDL), presses Clear Hash, and then sends malformed `go` and `position` commands as
raw lines through python-chess's own protocol object, checking that every `go` gets exactly
one `bestmove`, legal in the position sent (or `0000` when there is none), and that the
engine's reasons arrive as `info string` on standard output. Anything the engine writes on
standard error is a failure too (python-chess logs it as a warning).

Prints one line per check and exits 0 when all hold; on a failure, a message and exit 1.
"""

import asyncio
import logging
import random
import subprocess
import sys

import chess
import chess.engine

ANSWER_TIMEOUT = 60  # seconds for any one exchange; a missing bestmove fails, not hangs


def fail(message):
    print(f"FAIL: {message}", flush=True)
    sys.exit(1)


def check(condition, message):
    if not condition:
        fail(message)


class StderrCatcher(logging.Handler):
    """python-chess logs each line the engine writes on standard error as a warning."""

    def __init__(self):
        super().__init__(logging.WARNING)
        self.lines = []

    def emit(self, record):
        text = record.getMessage()
        if "stderr >>" in text:
            self.lines.append(text)


class RawExchange(chess.engine.BaseCommand):
    """Writes raw lines through python-chess's protocol and collects what the engine answers
    up to `bestmove`, then asks `isready` and collects up to `readyok`: a second bestmove for
    the same `go` would come before it."""

    def __init__(self, engine, lines):
        super().__init__(engine)
        self.lines = lines
        self.seen = []
        self.answered = False

    def start(self):
        for line in self.lines:
            self._engine.send_line(line)

    def line_received(self, line):
        self.seen.append(line)
        if line.startswith("bestmove") and not self.answered:
            self.answered = True
            self._engine.send_line("isready")
        elif line == "readyok" and self.answered:
            self.result.set_result(self.seen)
            self.set_finished()


def raw(engine, lines):
    """The engine's answer to `lines` (ending with a `go`), through python-chess."""
    coroutine = asyncio.wait_for(
        engine.protocol.communicate(lambda protocol: RawExchange(protocol, lines)),
        ANSWER_TIMEOUT,
    )
    future = asyncio.run_coroutine_threadsafe(coroutine, engine.protocol.loop)
    try:
        return future.result()
    except (asyncio.TimeoutError, TimeoutError):
        fail(f"no bestmove within {ANSWER_TIMEOUT} s after {lines}")


def position_command(board):
    """`position fen <start> moves ...` for a Chess960 board, castling king onto rook."""
    root = board.root()
    replay = root.copy()
    moves = []
    for move in board.move_stack:
        moves.append(replay.uci(move, chess960=True))
        replay.push(move)
    text = f"position fen {root.fen()}"
    return text + (" moves " + " ".join(moves) if moves else "")


def bestmove_of(seen, context):
    answers = [line for line in seen if line.startswith("bestmove")]
    check(len(answers) == 1, f"{context}: {len(answers)} bestmove lines in {seen}")
    return answers[0].split()[1]


def check_legal(board, uci, context):
    try:
        move = board.parse_uci(uci)
    except ValueError as err:
        fail(f"{context}: bestmove {uci} is not legal in {board.fen()}: {err}")
    return move


def check_pv(board, pv, context):
    replay = board.copy()
    for move in pv:
        check(move in replay.legal_moves, f"{context}: pv move {move} illegal in {replay.fen()}")
        replay.push(move)


def random_game_with_castles(start_id, rng, plies):
    """A Chess960 game from `start_id`, random but castling whenever it can: its move list
    gives the engine castles to read in `position`."""
    board = chess.Board.from_chess960_pos(start_id)
    castles = 0
    for _ in range(plies):
        legal = list(board.legal_moves)
        if not legal or board.is_game_over():
            break
        castling = [m for m in legal if board.is_castling(m)]
        move = rng.choice(castling) if castling else rng.choice(legal)
        castles += bool(castling)
        board.push(move)
    return board, castles


def main():
    engine_path = sys.argv[1]
    catcher = StderrCatcher()
    logging.getLogger("chess.engine").addHandler(catcher)
    engine = chess.engine.SimpleEngine.popen_uci(
        [engine_path], stderr=subprocess.PIPE, timeout=ANSWER_TIMEOUT
    )
    try:
        run(engine)
    finally:
        engine.quit()
    check(not catcher.lines, f"the engine wrote on standard error: {catcher.lines}")
    print("standard error: nothing", flush=True)
    print("all checks passed", flush=True)


def run(engine):
    options = engine.options
    for name, kind in [
        ("UCI_Chess960", "check"),
        ("UCI_ShowWDL", "check"),
        ("UCI_AnalyseMode", "check"),
        ("Clear Hash", "button"),
    ]:
        check(name in options and options[name].type == kind, f"option {name} ({kind})")
    print("options: UCI_Chess960, UCI_ShowWDL, UCI_AnalyseMode, Clear Hash", flush=True)

    # Mate by castling, in both directions; python-chess reads the castle king onto rook.
    for fen in ["4rkr1/4p1p1/8/8/8/8/8/4K2R w K - 0 1", "2rkr3/2p1p3/8/8/8/8/8/RK6 w Q - 0 1"]:
        board = chess.Board(fen, chess960=True)
        result = engine.play(board, chess.engine.Limit(depth=4))
        check(board.is_castling(result.move), f"{fen}: {result.move} is not the castle")
        board.push(result.move)
        check(board.is_checkmate(), f"{fen}: castling {result.move} does not mate")
    print("mate by castling: found and read in both directions", flush=True)

    # Games from Chess960 starts whose move lists hold castles; the engine plays on from them
    # and analyses with win/draw/loss estimates. Clear Hash between games.
    engine.configure({"UCI_ShowWDL": True})
    rng = random.Random(960)
    played = castles_sent = analysed = 0
    for start_id in [0, 518, 959, 123, 700]:
        board, castles = random_game_with_castles(start_id, rng, 24)
        castles_sent += castles
        for _ in range(6):
            if board.is_game_over():
                break
            result = engine.play(board, chess.engine.Limit(nodes=3000))
            check(result.move in board.legal_moves, f"{board.fen()}: {result.move} illegal")
            board.push(result.move)
            played += 1
        if board.is_game_over():
            continue
        info = engine.analyse(board, chess.engine.Limit(depth=7), multipv=2)
        for line in info:
            check("wdl" in line, f"no wdl in {line}")
            wdl = line["wdl"].relative
            check(wdl.total() == 1000, f"wdl {wdl} does not add up to 1000")
            score = line["score"].relative
            if score.score() is not None and score.score() > 50:
                check(wdl.wins >= wdl.losses, f"score {score} but {wdl}")
            if score.score() is not None and score.score() < -50:
                check(wdl.losses >= wdl.wins, f"score {score} but {wdl}")
            check_pv(board, line["pv"], f"start {start_id}")
        analysed += 1
        engine.configure({"Clear Hash": None})
    check(castles_sent >= 3, f"only {castles_sent} castles in the games sent")
    check(played >= 20 and analysed >= 4, f"{played} moves played, {analysed} analysed")
    print(
        f"chess960 games: {played} moves played, {castles_sent} castles sent, "
        f"{analysed} positions analysed with wdl",
        flush=True,
    )

    # Malformed `go` commands, raw, in a Chess960 position after castles (python-chess has
    # set UCI_Chess960 already, for the games above).
    board, castles = random_game_with_castles(318, random.Random(7), 15)
    check(castles >= 1 and not board.is_game_over(), "a test position after a castle")
    position = position_command(board)
    legal = [board.uci(m, chess960=True) for m in board.legal_moves]
    illegal = next(
        f"{a}{b}"
        for a in chess.SQUARE_NAMES
        for b in chess.SQUARE_NAMES
        if a != b and f"{a}{b}" not in legal
    )
    cases = [
        ("go movetime 300 nodestime 5", "unknown parameter 'nodestime 5' skipped", None),
        ("go movetime 300.5", "movetime 300.5 read as 300", None),
        ("go depth abc", "depth abc: 'abc' is not a number", None),
        ("go wtime 1000 btime 1000 winc x binc 10", "winc x: 'x' is not a number", None),
        (
            f"go depth 3 searchmoves {legal[0]} {illegal} {legal[-1]}",
            f"searchmoves: illegal move '{illegal}'",
            {legal[0], legal[-1]},
        ),
        (f"go depth 3 searchmoves {illegal}", "no legal move in searchmoves", None),
    ]
    for go, reason, among in cases:
        seen = raw(engine, [position, go])
        best = bestmove_of(seen, go)
        check_legal(board, best, go)
        check(among is None or best in among, f"{go}: {best} not among {among}")
        strings = [line for line in seen if line.startswith("info string ")]
        check(any(reason in s for s in strings), f"{go}: no info string with '{reason}' in {seen}")
    print(f"malformed go: {len(cases)} commands, each one legal bestmove and its info string",
          flush=True)

    # Malformed `position` commands. First one with an illegal move in the middle, after a
    # position with the other side to move: the engine must search the legal prefix, not the
    # position it had.
    prefix = position_command(board)
    other = board.copy()
    other.push(next(iter(other.legal_moves)))
    rest = [other.uci(m, chess960=True) for m in list(other.legal_moves)[:1]]
    raw(engine, [position_command(other), "go depth 2"])
    seen = raw(engine, [f"{prefix} {illegal} " + " ".join(rest), "go depth 3"])
    if " moves " not in prefix:
        fail("the test position needs a move list")
    best = bestmove_of(seen, "illegal move in the list")
    check_legal(board, best, "illegal move in the list")
    check(
        any("stops the list" in line for line in seen if line.startswith("info string ")),
        f"no info string about the illegal move in {seen}",
    )
    # Positions that cannot be read at all: no position, bestmove 0000.
    for bad in [
        "position fen not/a/fen w - - 0 1",
        "position startpos mvoes e2e4",
        "position",
    ]:
        seen = raw(engine, [position, bad, "go depth 3"])
        check(bestmove_of(seen, bad) == "0000", f"{bad}: {seen}")
        check(
            any(line.startswith("info string no position") for line in seen),
            f"{bad}: no info string in {seen}",
        )
    # And python-chess carries on normally afterwards.
    result = engine.play(board, chess.engine.Limit(depth=3))
    check(result.move in board.legal_moves, "play after the malformed commands")
    print("malformed position: legal prefix searched; unreadable ones answered 0000", flush=True)


if __name__ == "__main__":
    main()
