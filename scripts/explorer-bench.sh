#!/usr/bin/env bash
# The explorer's benchmark (a benchmark, not a test; figures in docs/performance.md,
# "Explorer"): generates N random Chess960 games (crates/store/examples/gen_games.rs), imports
# them with `chess960 db import` (wall clock, CPU, peak memory, database size), then times
# explorer lookups on the result (crates/store/examples/explorer_bench.rs: every start position,
# positions after 2, 6 and 12 half-moves of 500 games, every ply of one game).
#
#   bash scripts/explorer-bench.sh                        # 100,000 games
#   N=1000000 bash scripts/explorer-bench.sh              # the million of docs/performance.md
#   BEFORE_BIN=/path/to/old/chess960 bash scripts/explorer-bench.sh
#
# BEFORE_BIN: a `chess960` of schema version 3 (before the position index) to import the same
# file with, for the import time and size the index costs; that database is then opened by the
# benchmark, which migrates it (the back-fill of the index, timed as "open").
# Everything goes to DIR (default /tmp/chess960-explorer-bench), never into the repository.
set -euo pipefail
cd "$(dirname "$0")/.."

N="${N:-100000}"
DIR="${DIR:-/tmp/chess960-explorer-bench}"
BEFORE_BIN="${BEFORE_BIN:-}"
mkdir -p "$DIR"

cargo build --profile ci -p chess960-cli
cargo build --profile ci -p chess960-store --example gen_games --example explorer_bench
BIN=target/ci/chess960
PGN="$DIR/$N.pgn"
[ -s "$PGN" ] || target/ci/examples/gen_games "$N" "$PGN"

import() { # label binary database
  rm -f "$3" "$3-wal" "$3-shm"
  /usr/bin/time -f "$1 import: %e s wall, %U s user, %S s system, %M KB max RSS" \
    "$2" db --db "$3" import "$PGN" >/dev/null
  echo "$1 database: $(stat -c %s "$3") bytes"
}

if [ -n "$BEFORE_BIN" ]; then
  import "before (schema 3)" "$BEFORE_BIN" "$DIR/$N-v3.sqlite3"
fi
import "with the position index" "$BIN" "$DIR/$N.sqlite3"
echo "== lookups on the database imported with the index"
target/ci/examples/explorer_bench "$DIR/$N.sqlite3"
if [ -n "$BEFORE_BIN" ]; then
  echo "== the schema 3 database migrated (back-fill) and looked up"
  /usr/bin/time -f "migration run: %e s wall, %U s user, %S s system, %M KB max RSS" \
    target/ci/examples/explorer_bench "$DIR/$N-v3.sqlite3"
  echo "migrated database: $(stat -c %s "$DIR/$N-v3.sqlite3") bytes"
fi
