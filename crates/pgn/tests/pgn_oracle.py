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
"""python-chess side of the PGN round-trip tests of chess960-pgn.

Needs the PyPI package ``chess`` (version pinned in tests/oracle/requirements.txt).

Two modes, both printing JSON Lines on stdout, one canonical description per
game (see ``describe``):

``write --seed S --games N``
    Plays N random Chess960 games with python-chess (biased toward castling,
    so that every castling shape occurs, with comments, NAGs and variations,
    some starting from a position in the middle of a game), and prints for each
    ``{"pgn": <the game as python-chess exports it>, "game": <description>}``.
    The PGN headers are varied the way real files vary them: Variant spelled
    Chess960 / chess 960 / fischerandom / FRC, SetUp sometimes missing, FEN
    sometimes in Shredder-FEN.

``read``
    Reads PGN from stdin with ``chess.pgn.read_game`` and prints the
    description of every game, plus ``"errors"``: the errors python-chess
    logged for it (illegal or unreadable moves), which must be none.

The description is what a faithful reader must reproduce exactly:

    {"headers": {name: value}, "start": X-FEN, "end": X-FEN after the main
     line, "result": the Result header,
     "line": {"comment": text before the first move,
              "moves": [{"uci": king-takes-rook UCI, "san": SAN,
                         "comment": text, "nags": sorted list,
                         "variations": [line, ...]}, ...]}}

Comment whitespace is normalised (runs of white space become one space):
PGN writers may re-wrap comments. Alternatives to a move are listed with
that move; python-chess keeps them as its parent's further variations.
"""

import argparse
import json
import random
import sys

import chess
import chess.pgn

COMMENTS = [
    "a comment",
    "[%clk 0:01:02]",
    "[%eval 0.17] [%emt 0:00:03]",
    "%not an escape line",
    "quote \" and backslash \\ inside",
    "Ünïcödé ½ – ok",
    "multi\nline\ncomment",
    " ".join(["long"] * 40),
    "d=27, pd=Ng6, mt=00:06:16, tl=01:54:13, s=22597 kN/s, n=8512418665, "
    "pv=Ng3 Ng6 d4 d5 e3 a5 a4 e6 Nd3 b6 b3 Nd6 Be2 Be7 Bc3 Bc6 f3 f6 Qd2 Qd7",
]
NAGS = [1, 2, 3, 4, 5, 6, 10, 13, 14, 16, 18, 132, 146]
VARIANTS = ["Chess960", "chess 960", "fischerandom", "Fischerandom", "FRC", "Chess960"]


def norm(text):
    return " ".join((text or "").split())


def pick(board, rng):
    """A move biased toward castling and toward emptying the back rank."""
    moves = list(board.legal_moves)
    castles = [m for m in moves if board.is_castling(m)]
    if castles and rng.random() < 0.6:
        return rng.choice(castles)
    home = chess.BB_RANK_1 if board.turn == chess.WHITE else chess.BB_RANK_8
    develop = [
        m
        for m in moves
        if chess.BB_SQUARES[m.from_square] & home
        and board.piece_type_at(m.from_square) in (chess.KNIGHT, chess.BISHOP, chess.QUEEN)
    ]
    if develop and rng.random() < 0.6:
        return rng.choice(develop)
    return rng.choice(moves)


def add_line(parent, board, rng, plies, depth):
    """Adds a line of random moves below `parent` (a node whose position is `board`)."""
    node = parent
    for i in range(plies):
        if board.is_game_over():
            break
        move = pick(board, rng)
        child = node.add_variation(move)
        if rng.random() < 0.15:
            child.comment = rng.choice(COMMENTS)
        if rng.random() < 0.1:
            child.nags = set(rng.sample(NAGS, rng.randint(1, 2)))
        # An alternative to this move, except to the first move of a variation (its
        # alternatives would be siblings of the variation itself).
        if depth < 2 and (depth == 0 or i > 0) and rng.random() < 0.08:
            others = [m for m in board.legal_moves if m != move]
            if others:
                alt = node.add_variation(rng.choice(others))
                if rng.random() < 0.3:
                    alt.starting_comment = rng.choice(COMMENTS)
                b = board.copy()
                b.push(alt.move)
                add_line(alt, b, rng, rng.randint(0, 5), depth + 1)
        board.push(move)
        node = child
    return node


def random_game(rng):
    pos_id = 518 if rng.random() < 0.05 else rng.randrange(960)
    board = chess.Board.from_chess960_pos(pos_id)
    if rng.random() < 0.25:
        # Start in the middle of a game: partial castling rights, maybe X-FEN letters.
        for _ in range(rng.randint(1, 30)):
            if board.is_game_over():
                break
            board.push(pick(board, rng))
        board = chess.Board(board.fen(), chess960=True)
    game = chess.pgn.Game()
    game.headers["Event"] = f"oracle {rng.randrange(10**6)}"
    game.headers["White"] = rng.choice(["Ünïcödé, Ä", 'Quote "Q" \\ Backslash', "A"])
    game.setup(board)
    if rng.random() < 0.1:
        game.comment = rng.choice(COMMENTS)
    add_line(game, board.copy(), rng, rng.randint(0, 120), 0)
    game.headers["Result"] = rng.choice(["1-0", "0-1", "1/2-1/2", "*"])
    # The header variations real files have, applied to the exported text only (python-chess
    # itself needs its own spelling to rebuild the board).
    edits = {}
    if "FEN" in game.headers:
        edits["Variant"] = rng.choice(VARIANTS)
        if rng.random() < 0.3:
            edits["FEN"] = board.fen(shredder=True)
        if rng.random() < 0.2:
            edits["SetUp"] = None
    return game, edits


def export(game, edits):
    """The game as python-chess writes it, with the header edits applied."""
    text = game.accept(chess.pgn.StringExporter(headers=True, variations=True, comments=True))
    headers = dict(game.headers)
    lines = text.split("\n")
    for name, value in edits.items():
        prefix = f'[{name} "'
        index = next(i for i, line in enumerate(lines) if line.startswith(prefix))
        if value is None:
            del lines[index]
            del headers[name]
        else:
            lines[index] = f'[{name} "{value}"]'
            headers[name] = value
    return "\n".join(lines), headers


def describe_line(first, board, main):
    """The line starting at node `first` (played from `board`)."""
    moves = []
    node = first
    b = board.copy()
    while node is not None:
        alternatives = []
        if main or node is not first:
            for alt in node.parent.variations[1:]:
                alternatives.append(describe_line(alt, b, False)[0])
        moves.append(
            {
                "uci": b.uci(node.move, chess960=True),
                "san": b.san(node.move),
                "comment": norm(node.comment),
                "nags": sorted(node.nags),
                "variations": alternatives,
            }
        )
        b.push(node.move)
        node = node.variations[0] if node.variations else None
    comment = "" if main else norm(first.starting_comment)
    return {"comment": comment, "moves": moves}, b


def describe(game):
    board = game.board()
    if game.variations:
        line, end = describe_line(game.variations[0], board, True)
    else:
        line, end = {"comment": "", "moves": []}, board
    line["comment"] = norm(game.comment)
    return {
        "headers": dict(game.headers),
        "start": board.fen(),
        "end": end.fen(),
        "result": game.headers.get("Result", "*"),
        "line": line,
    }


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="mode", required=True)
    w = sub.add_parser("write")
    w.add_argument("--seed", type=int, default=1)
    w.add_argument("--games", type=int, default=100)
    sub.add_parser("read")
    args = ap.parse_args()
    out = sys.stdout
    if args.mode == "write":
        rng = random.Random(args.seed)
        for _ in range(args.games):
            game, edits = random_game(rng)
            pgn, headers = export(game, edits)
            description = describe(game)
            description["headers"] = headers
            out.write(json.dumps({"pgn": pgn, "game": description}) + "\n")
    else:
        while True:
            game = chess.pgn.read_game(sys.stdin)
            if game is None:
                break
            d = describe(game)
            d["errors"] = [str(e) for e in game.errors]
            out.write(json.dumps(d) + "\n")


if __name__ == "__main__":
    main()
