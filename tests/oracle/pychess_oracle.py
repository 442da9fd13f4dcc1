#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Copyright (C) the chess960 project contributors.
#
# This program is free software: you can redistribute it and/or modify it
# under the terms of the GNU General Public License as published by the Free
# Software Foundation, either version 3 of the License, or (at your option)
# any later version.
#
# This program is distributed in the hope that it will be useful, but WITHOUT
# ANY WARRANTY; without even the implied warranty of MERCHANTABILITY or
# FITNESS FOR A PARTICULAR PURPOSE. See the GNU General Public License for
# more details.
#
# You should have received a copy of the GNU General Public License along
# with this program. If not, see <https://www.gnu.org/licenses/>.
"""Reference-data oracle for the Chess960 differential tests.

Generates positions by biased random play from random Chess960 start
positions using python-chess (PyPI package ``chess``) and writes, for each
position, everything python-chess says about it: FEN (X-FEN and Shredder-FEN),
the legal moves in both UCI castling conventions and in SAN, the FEN after each
move, and the status flags. The Rust differential test spawns this script and
compares its own answers with these.

Games start at a random Chess960 position (id uniform in 0..959, with about
5% forced to 518, the classical start) and are played with biases that favour
castling: castle when legal (p=0.5), otherwise prefer developing moves that
empty the back rank; some games move a king or rook early (partial castling
rights), some walk a rook round to the outside of the other rook (X-FEN file
letters), some favour captures (bare endgames), and long games push pawns
(promotions) and make/take en passant. The final position of every game is
emitted, and often one intermediate position too (a random ply, or the first
one with castling, en passant or an X-FEN file letter).

Usage::

    python3 pychess_oracle.py --seed S --positions N [--stats]

Output is JSON Lines on stdout: exactly N objects, one per line, and the
output depends only on S, N and the python-chess version (the script uses its
own ``random.Random(S)``, never the global generator). With ``--stats``,
coverage counts are printed to stderr.

Each object has these keys::

    fen         board.fen(): X-FEN castling field (KQkq where unambiguous,
                file letters otherwise), en passant square only when an
                en passant capture is legal (python-chess's en_passant="legal")
    shredder    board.fen(shredder=True): castling field as rook files (HAha)
    id          Chess960 start position id (0..959; 518 = standard chess)
    ply         number of half-moves played from the start position
    moves       legal moves, sorted by "uci", each an object:
                  uci       UCI, castling as king-takes-own-rook (e.g. "e1h1")
                  uci_std   board.uci(m, chess960=False). python-chess
                            rewrites only the two classical castlings, king
                            on e1/e8 with rook on the a/h corner, to the king's
                            target square ("e1h1" -> "e1g1", "e8a8" -> "e8c8");
                            every other castling stays king-takes-rook, and
                            non-castling moves are the same as "uci"
                  san       SAN with check/mate suffix ("O-O", "Nf3+", ...)
                  fen_after X-FEN after playing the move
    check       the side to move is in check
    checkmate   the side to move is checkmated
    stalemate   the side to move is stalemated
    insufficient  board.is_insufficient_material()
    castling    legal castling moves in king-takes-rook UCI, sorted
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
from collections import Counter

import chess

STANDARD_ID = 518


def castle_shape(board: chess.Board, move: chess.Move) -> dict[str, bool]:
    """Classify a castling move (python-chess encodes it king-takes-rook)."""
    king_from = move.from_square
    rook_from = move.to_square
    rank = chess.square_rank(king_from)
    kingside = chess.square_file(rook_from) > chess.square_file(king_from)
    king_to = chess.square(6 if kingside else 2, rank)
    rook_to = chess.square(5 if kingside else 3, rank)
    kd = chess.square_file(king_to) - chess.square_file(king_from)
    rd = chess.square_file(rook_to) - chess.square_file(rook_from)
    return {
        "king_only": rd == 0,
        "rook_only": kd == 0,
        "swap": king_to == rook_from and rook_to == king_from,
        "king_one": abs(kd) == 1,
        "same_dir": kd != 0 and rd != 0 and (kd > 0) == (rd > 0),
    }


def is_developing(board: chess.Board, move: chess.Move) -> bool:
    """Moves that help open castling paths.

    Moves of a non-king, non-rook piece off its own back rank, and pawn moves
    from the pawn's start rank (they open diagonals/files for the back-rank
    pieces to leave).
    """
    piece = board.piece_at(move.from_square)
    if piece is None:
        return False
    back = 0 if piece.color == chess.WHITE else 7
    rank = chess.square_rank(move.from_square)
    if piece.piece_type == chess.PAWN:
        return rank == (1 if piece.color == chess.WHITE else 6)
    if piece.piece_type in (chess.KING, chess.ROOK):
        return False
    return rank == back


def creates_en_passant(board: chess.Board, move: chess.Move) -> bool:
    """A double pawn push after which the opponent can capture en passant."""
    if board.piece_type_at(move.from_square) != chess.PAWN:
        return False
    if abs(move.to_square - move.from_square) != 16:
        return False
    board.push(move)
    try:
        return board.has_legal_en_passant()
    finally:
        board.pop()


def xfen_needs_files(board: chess.Board) -> bool:
    """The X-FEN castling field uses a file letter (not just KQkq)."""
    field = board.fen().split()[2]
    return any(c not in "KQkq-" for c in field)


def wander_plan(board: chess.Board, color: chess.Color) -> dict | None:
    """Pick a rook to wander and the squares it should reach, if any."""
    king = board.king(color)
    rooks = list(board.pieces(chess.ROOK, color))
    if king is None or len(rooks) != 2:
        return None
    kf = chess.square_file(king)
    back = chess.square_rank(king)
    # The staying rook must have a square beyond it, away from the king.
    stay = [r for r in rooks if chess.square_file(r) not in (0, 7)]
    if not stay:
        return None
    s = stay[0] if len(stay) == 1 else stay[board.ply() % 2]
    go = rooks[0] if rooks[1] == s else rooks[1]
    sf = chess.square_file(s)
    files = range(sf + 1, 8) if sf > kf else range(0, sf)
    return {"rook": go, "files": set(files), "back": back,
            "targets": {chess.square(f, back) for f in files}}


def wander_move(rng: random.Random, board: chess.Board,
                legal: list[chess.Move], w: dict) -> chess.Move | None:
    if w["rook"] is None or board.piece_type_at(w["rook"]) != chess.ROOK:
        return None
    rm = [m for m in legal if m.from_square == w["rook"]
          and not board.is_castling(m)]
    pick = None
    hit = [m for m in rm if m.to_square in w["targets"]]
    if hit:
        pick = rng.choice(hit)
        w["rook"] = None          # arrived: stay there
        return pick
    if rm:
        on_file = [m for m in rm if chess.square_file(m.to_square) in w["files"]]
        back = w["back"]
        up = [m for m in rm if chess.square_rank(m.to_square) != back]
        if on_file and rng.random() < 0.7:
            pick = rng.choice(on_file)
        elif chess.square_rank(w["rook"]) == back and up:
            pick = rng.choice(up)
        elif rng.random() < 0.5:
            pick = rng.choice(rm)
    if pick is None:
        # Clear the way: move pieces off the target squares, push pawns on
        # the rook's file and the target files.
        files = w["files"] | {chess.square_file(w["rook"])}
        clear = [m for m in legal
                 if m.from_square in w["targets"]
                 and board.piece_type_at(m.from_square) not in (chess.KING, chess.ROOK)]
        clear += [m for m in legal
                  if board.piece_type_at(m.from_square) == chess.PAWN
                  and chess.square_file(m.from_square) in files]
        if clear:
            pick = rng.choice(clear)
    if pick is not None and pick.from_square == w["rook"]:
        w["rook"] = pick.to_square
    return pick


def choose_move(rng: random.Random, board: chess.Board, ply: int,
                plan: dict) -> chess.Move:
    legal = list(board.legal_moves)
    # Early king or rook move, to create partial castling rights.
    if plan["kr_ply"] == ply:
        kr = [m for m in legal
              if not board.is_castling(m)
              and board.piece_type_at(m.from_square) in (chess.KING, chess.ROOK)]
        if kr:
            return rng.choice(kr)
    # Rook wandering: walk one rook to the back rank outside the other rook
    # (which keeps its castling right), where X-FEN needs a file letter
    # instead of K/Q/k/q.
    w = plan["wander"].get(board.turn)
    if w is not None and rng.random() < 0.8:
        m = wander_move(rng, board, legal, w)
        if m is not None:
            return m
    castles = [m for m in legal if board.is_castling(m)]
    if castles and rng.random() < plan["castle_p"]:
        return rng.choice(castles)
    # En passant: take it sometimes, and make it possible sometimes.
    r = rng.random()
    if r < 0.3:
        eps = [m for m in legal if board.is_en_passant(m)]
        if eps:
            return rng.choice(eps)
    elif r < 0.5:
        eps = [m for m in legal if creates_en_passant(board, m)]
        if eps:
            return rng.choice(eps)
    # Capture-heavy games, to reach bare endgames (insufficient material,
    # stalemate).
    if plan["captures"] and rng.random() < 0.7:
        caps = [m for m in legal if board.is_capture(m)]
        if caps:
            return rng.choice(caps)
    # Late game: push pawns to reach promotions.
    if ply >= 40 and rng.random() < 0.5:
        proms = [m for m in legal if m.promotion is not None]
        if proms:
            return rng.choice(proms)
        pawns = [m for m in legal
                 if board.piece_type_at(m.from_square) == chess.PAWN]
        if pawns:
            return rng.choice(pawns)
    if ply < 40 and rng.random() < 0.6:
        dev = [m for m in legal if is_developing(board, m)]
        if dev:
            return rng.choice(dev)
    return rng.choice(legal)


def game_length(rng: random.Random) -> int:
    r = rng.random()
    if r < 0.08:
        return rng.randint(0, 4)          # start and just after it
    if r < 0.75:
        return rng.randint(4, 40)         # opening / early middlegame
    return rng.randint(40, 140)           # endgames, promotions, en passant


def describe(board: chess.Board, start_id: int) -> dict:
    moves = []
    for m in board.legal_moves:
        san = board.san(m)
        uci = board.uci(m, chess960=True)
        uci_std = board.uci(m, chess960=False)
        board.push(m)
        fen_after = board.fen()
        board.pop()
        moves.append({"uci": uci, "uci_std": uci_std, "san": san,
                      "fen_after": fen_after})
    moves.sort(key=lambda d: d["uci"])
    castling = sorted(board.uci(m, chess960=True)
                      for m in board.legal_moves if board.is_castling(m))
    return {
        "fen": board.fen(),
        "shredder": board.fen(shredder=True),
        "id": start_id,
        "ply": board.ply(),
        "moves": moves,
        "check": board.is_check(),
        "checkmate": board.is_checkmate(),
        "stalemate": board.is_stalemate(),
        "insufficient": board.is_insufficient_material(),
        "castling": castling,
    }


def play_game(rng: random.Random) -> tuple[int, list[chess.Board]]:
    """Play one biased random game; return its id and the boards to emit.

    The final position is always emitted. Before it, at most one intermediate
    position: either one at a random ply, or the first position where
    castling (or an en passant capture) is legal, which would otherwise often
    be gone by the end of the game.
    """
    start_id = STANDARD_ID if rng.random() < 0.05 else rng.randrange(960)
    board = chess.Board.from_chess960_pos(start_id)
    board.chess960 = True
    captures = rng.random() < 0.06
    length = rng.randint(60, 250) if captures else game_length(rng)
    plan = {
        "kr_ply": rng.randint(0, 12) if rng.random() < 0.10 else -1,
        "castle_p": 0.5,
        "captures": captures,
        "wander": {},
    }
    if not captures and rng.random() < 0.12:
        for color in (chess.WHITE, chess.BLACK):
            w = wander_plan(board, color)
            if w is not None:
                plan["wander"][color] = w
        if plan["wander"]:
            length = rng.randint(20, 80)
    r = rng.random()
    snap_mode = ("random" if r < 0.2 else "castle" if r < 0.65
                 else "ep" if r < 0.8 else None)
    if plan["wander"]:
        snap_mode = "xfen"
    snap_ply = rng.randint(0, length) if length else -1
    snap = None
    for ply in range(length):
        if snap is None and (
                (snap_mode == "random" and ply == snap_ply)
                or (snap_mode == "castle" and ply > 0
                    and any(board.generate_castling_moves()))
                or (snap_mode == "ep" and board.has_legal_en_passant())
                or (snap_mode == "xfen" and xfen_needs_files(board))):
            snap = board.copy(stack=False)
        if board.is_game_over(claim_draw=False):
            break
        board.push(choose_move(rng, board, ply, plan))
    final = board.copy(stack=False)
    return start_id, [snap, final] if snap is not None else [final]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seed", type=int, required=True)
    ap.add_argument("--positions", type=int, required=True)
    ap.add_argument("--stats", action="store_true",
                    help="print coverage counts to stderr")
    args = ap.parse_args(argv)

    rng = random.Random(args.seed)
    stats: Counter = Counter()
    out = sys.stdout
    emitted = 0
    while emitted < args.positions:
        start_id, boards = play_game(rng)
        for board in boards:
            if emitted >= args.positions:
                break
            obj = describe(board, start_id)
            out.write(json.dumps(obj, separators=(",", ":")) + "\n")
            emitted += 1
            if args.stats:
                collect(stats, board, obj)
    out.flush()
    if args.stats:
        print_stats(stats)
    return 0


def collect(stats: Counter, board: chess.Board, obj: dict) -> None:
    stats["positions"] += 1
    if obj["id"] == STANDARD_ID:
        stats["standard (id 518)"] += 1
    castles = [m for m in board.legal_moves if board.is_castling(m)]
    if castles:
        stats["positions with castling"] += 1
    for m in castles:
        stats["castles (moves)"] += 1
        if board.uci(m, chess960=False) != board.uci(m, chess960=True):
            stats["castle uci_std rewritten"] += 1
        for k, v in castle_shape(board, m).items():
            if v:
                stats["castle " + k] += 1
    cr = board.clean_castling_rights()
    if cr and bin(cr).count("1") < 4:
        stats["partial castling rights"] += 1
    if obj["check"]:
        stats["check"] += 1
    if obj["checkmate"]:
        stats["checkmate"] += 1
    if obj["stalemate"]:
        stats["stalemate"] += 1
    if obj["insufficient"]:
        stats["insufficient"] += 1
    if board.has_legal_en_passant():
        stats["en passant legal"] += 1
    if any(m.promotion for m in board.legal_moves):
        stats["promotions legal"] += 1
    if xfen_needs_files(board):
        stats["X-FEN with file letters"] += 1
    stats["legal moves"] += len(obj["moves"])


def print_stats(stats: Counter) -> None:
    order = ["positions", "standard (id 518)", "positions with castling",
             "castles (moves)", "castle king_only", "castle rook_only",
             "castle swap", "castle king_one", "castle same_dir",
             "castle uci_std rewritten",
             "partial castling rights", "X-FEN with file letters",
             "check", "checkmate", "stalemate", "insufficient",
             "en passant legal", "promotions legal", "legal moves"]
    for k in order:
        print(f"{k:28} {stats[k]}", file=sys.stderr)


if __name__ == "__main__":
    try:
        sys.exit(main())
    except BrokenPipeError:
        # The reader stopped early (e.g. `| head`): exit quietly.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        sys.exit(1)
