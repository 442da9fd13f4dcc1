#!/usr/bin/env python3
"""A random-mover UCI engine on python-chess (an implementation independent of the rules core):
castling king onto rook when UCI_Chess960 is set. `--slow SECONDS` sleeps before each move."""
import random
import sys
import time

import chess

slow = float(sys.argv[sys.argv.index("--slow") + 1]) if "--slow" in sys.argv else 0.0
board = chess.Board(chess960=True)


def out(text):
    sys.stdout.write(text + "\n")
    sys.stdout.flush()


for line in sys.stdin:
    cmd = line.split()
    if not cmd:
        continue
    if cmd[0] == "uci":
        out("id name PyRandom")
        out("option name UCI_Chess960 type check default false")
        out("uciok")
    elif cmd[0] == "isready":
        out("readyok")
    elif cmd[0] == "position":
        rest = line.split(None, 1)[1]
        fen, _, moves = rest.partition(" moves ")
        fen = fen.strip()
        board = chess.Board(fen[4:].strip(), chess960=True) if fen.startswith("fen") else chess.Board(chess960=True)
        for m in moves.split():
            board.push_uci(m)
    elif cmd[0] == "go":
        time.sleep(slow)
        m = random.choice(list(board.legal_moves))
        out("info depth 1 score cp 0 nodes 1 time 0")
        out("bestmove " + board.uci(m))
    elif cmd[0] == "quit":
        break
