#!/usr/bin/env python3
"""Rewrites a PGN file of gen_games (crates/store/examples/gen_games.rs) in the form of lichess's
monthly database files (database.lichess.org): the tags lichess writes for a rated Chess960
game (Site with a game id, UTCDate, UTCTime, Elo and rating changes, Variant, TimeControl,
Termination, FEN, SetUp), the whole movetext on one line with a [%clk] comment after every move,
and Black's moves numbered `N...`. The moves and results are the generator's. For the import
benchmarks of docs/performance.md; compress the result with `zstd` as lichess does.

Usage: python3 scripts/to-lichess.py IN.pgn OUT.pgn
"""
import sys, re, random
random.seed(7)
src, dst = sys.argv[1], sys.argv[2]
out = open(dst, 'w')
def clk(ms):
    s = ms // 1000
    return f"{s//3600}:{(s//60)%60:02d}:{s%60:02d}"
n = 0
for block in open(src).read().split("\n\n["):
    if not block.startswith("["): block = "[" + block
    head, _, moves = block.partition("\n\n")
    tags = dict(re.findall(r'\[(\w+) "([^"]*)"\]', head))
    toks = moves.split()
    if not toks or "FEN" not in tags:
        continue
    result = toks[-1]; sans = [t for t in toks[:-1] if not re.match(r'^\d+\.', t)]
    n += 1
    base, inc = random.choice([(60,0),(180,0),(180,2),(300,3),(600,0)])
    w = b = base*1000
    gid = ''.join(random.choice('abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789') for _ in range(8))
    we, be = random.randint(1200,2600), random.randint(1200,2600)
    d = tags.get("Date","2024.01.01")
    term = "Time forfeit" if random.random() < 0.1 else "Normal"
    out.write(f'[Event "Rated Blitz game"]\n[Site "https://lichess.org/{gid}"]\n[Date "{d}"]\n[Round "-"]\n'
              f'[White "{tags["White"].replace(" ","_")}"]\n[Black "{tags["Black"].replace(" ","_")}"]\n[Result "{result}"]\n'
              f'[UTCDate "{d}"]\n[UTCTime "{random.randint(0,23):02d}:{random.randint(0,59):02d}:{random.randint(0,59):02d}"]\n'
              f'[WhiteElo "{we}"]\n[BlackElo "{be}"]\n[WhiteRatingDiff "+5"]\n[BlackRatingDiff "-5"]\n'
              f'[Variant "Chess960"]\n[TimeControl "{base}+{inc}"]\n[Termination "{term}"]\n'
              f'[FEN "{tags["FEN"]}"]\n[SetUp "1"]\n\n')
    parts = []
    for i, s in enumerate(sans):
        if i % 2 == 0:
            w = max(0, w - random.randint(0, 4000) + inc*1000); parts.append(f"{i//2+1}. {s} {{ [%clk {clk(w)}] }}")
        else:
            b = max(0, b - random.randint(0, 4000) + inc*1000); parts.append(f"{i//2+1}... {s} {{ [%clk {clk(b)}] }}")
    parts.append(result)
    out.write(" ".join(parts) + "\n\n")
print(n, "games")
