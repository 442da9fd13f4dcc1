#!/usr/bin/env bash
# PGN read + validate benchmark (a benchmark, not a test): games per second on one large file
# for `chess960 pgn check` (this workspace, release build), python-chess and pgn-extract, in
# one run. See docs/performance.md ("PGN") for what each tool does and the numbers.
#
#   bash scripts/pgn-bench.sh                 # ~100 MB file, best of 3 runs per tool
#   ROUNDS=5 SIZE_MB=200 bash scripts/pgn-bench.sh
#   SOURCE=compact bash scripts/pgn-bench.sh  # moves only: the same games without comments
#   BENCH_FILE=/path/to/games.pgn bash scripts/pgn-bench.sh   # any file (kept as is)
#
# The file is built in /tmp (never committed) from the shared test data, concatenated again and
# again until it reaches SIZE_MB: SOURCE=tcec (the default) takes the TCEC Chess960 files as
# published, long engine-output comments after every move included (all but the Double Fischer
# Random file, whose games are not Chess960); SOURCE=compact takes derived/tcec_frc_compact.pgn,
# the same 440 games with no comments, so that reading moves dominates. Needs python3 with
# python-chess (tests/oracle/requirements.txt) and pgn-extract (apt-get install pgn-extract).
set -euo pipefail
cd "$(dirname "$0")/.."

ROUNDS="${ROUNDS:-3}"
SIZE_MB="${SIZE_MB:-100}"
DATA="${CHESS960_SHARED_DATA:-../shared/data}"
SOURCE="${SOURCE:-tcec}"
case "$SOURCE" in
  tcec) SOURCES=("$DATA"/pgn/tcec/*.pgn) ;;
  compact) SOURCES=("$DATA"/pgn/derived/tcec_frc_compact.pgn) ;;
  *) echo "SOURCE must be tcec or compact" >&2; exit 1 ;;
esac
FILE="${BENCH_FILE:-/tmp/chess960-pgn-bench-${SOURCE}-${SIZE_MB}mb.pgn}"

PGN_EXTRACT="$(command -v pgn-extract || true)"
[ -z "$PGN_EXTRACT" ] && [ -x /usr/games/pgn-extract ] && PGN_EXTRACT=/usr/games/pgn-extract
if [ -z "$PGN_EXTRACT" ]; then
  echo "pgn-extract not found: apt-get install pgn-extract" >&2
  exit 1
fi
python3 -c 'import chess.pgn' 2>/dev/null || {
  echo "python-chess not found: pip install -r tests/oracle/requirements.txt" >&2
  exit 1
}

cargo build --release --quiet -p chess960-cli
OURS=target/release/chess960

if [ ! -s "$FILE" ]; then
  echo "building $FILE (~${SIZE_MB} MB) from ${SOURCES[*]} ..." >&2
  tmp="$FILE.tmp"
  : >"$tmp"
  limit=$((SIZE_MB * 1000 * 1000))
  while [ "$(stat -c %s "$tmp")" -lt "$limit" ]; do
    for f in "${SOURCES[@]}"; do
      case "$f" in *Dfrc*) continue ;; esac
      cat "$f" >>"$tmp"
      printf '\n' >>"$tmp"
    done
  done
  mv "$tmp" "$FILE"
fi

python3 - "$FILE" "$ROUNDS" "$OURS" "$PGN_EXTRACT" <<'PY'
import os, platform, re, subprocess, sys, time

path, rounds, ours, pgn_extract = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
size = os.path.getsize(path)

# python-chess: chess.pgn.read_game builds every game, reading each SAN move against the
# board (an illegal move is logged in game.errors); every game must have none.
PYCHESS = r'''
import sys, chess, chess.pgn
n = bad = 0
with open(sys.argv[1], encoding="utf-8", errors="replace") as f:
    while True:
        g = chess.pgn.read_game(f)
        if g is None:
            break
        n += 1
        bad += bool(g.errors)
print(f"{n} games, {bad} with errors")
'''

tools = [
    ("chess960 pgn check", [ours, "pgn", "check", path],
     lambda out, err: int(re.search(r"(\d+) games?, (\d+) with errors", out).group(1))),
    ("pgn-extract -r", [pgn_extract, "-r", path],
     lambda out, err: int(re.search(r"(\d+) games? matched out of (\d+)", err).group(2))),
    ("pgn-extract -o /dev/null", [pgn_extract, "-o", "/dev/null", path],
     lambda out, err: int(re.search(r"(\d+) games? matched out of (\d+)", err).group(2))),
    ("chess960 pgn convert -o /dev/null", [ours, "pgn", "convert", path, "-o", "/dev/null"],
     lambda out, err: int(re.search(r"wrote (\d+) games?", out).group(1))),
    ("python-chess read_game", [sys.executable, "-c", PYCHESS, path],
     lambda out, err: int(re.search(r"(\d+) games", out).group(1))),
]

def version(cmd):
    try:
        p = subprocess.run(cmd, capture_output=True, text=True)
        return (p.stdout + p.stderr).strip().splitlines()[0]
    except Exception:
        return "?"

import chess
print(f"file: {path} ({size / 1e6:.1f} MB)")
print(f"machine: {platform.machine()}, {os.cpu_count()} CPUs; best of {rounds} runs, wall-clock time")
print(f"versions: {version([ours, '--version'])}; {version([pgn_extract, '--version'])}; "
      f"python-chess {chess.__version__} on Python {platform.python_version()}")
print()
results = []
for name, cmd, count in tools:
    best, games = None, None
    for _ in range(rounds):
        t0 = time.perf_counter()
        p = subprocess.run(cmd, capture_output=True, text=True)
        dt = time.perf_counter() - t0
        if p.returncode != 0:
            sys.exit(f"{name} failed ({p.returncode}): {p.stderr[-500:]}")
        games = count(p.stdout, p.stderr)
        best = dt if best is None else min(best, dt)
    results.append((name, games, best))

ref = results[0][2]
print(f"{'tool':<36} {'games':>7} {'seconds':>9} {'games/s':>10} {'MB/s':>8} {'time vs ours':>13}")
for name, games, t in results:
    print(f"{name:<36} {games:>7} {t:>9.3f} {games / t:>10.0f} {size / 1e6 / t:>8.1f} {t / ref:>12.1f}x")
counts = {g for _, g, _ in results}
if len(counts) != 1:
    sys.exit(f"the tools disagree on the number of games: {results}")
PY
