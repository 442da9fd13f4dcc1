#!/usr/bin/env bash
# Our FIDE Dutch pairings against bbpPairings (the engine lichess's Swiss runs on), on
# tournaments its generator makes and on variants of them for its pairing mode (byes,
# withdrawals, late entries), and on events run through our event model. See docs/events.md.
#
#   bash scripts/bbp-compare.sh          # the CI run: about 1,000 tournaments, under a minute
#   bash scripts/bbp-compare.sh --full   # the figures of docs/events.md: 6,000 tournaments
#
# bbpPairings is built from ../shared/tools/bbpPairings into target/bbp (once), or taken
# from $BBP.
set -euo pipefail
cd "$(dirname "$0")/.."
full=0
[ "${1:-}" = "--full" ] && full=1
bbp="${BBP:-}"
if [ -z "$bbp" ]; then
  tools="${CHESS960_SHARED_TOOLS:-../shared/tools}"
  bbp=$(bash "$tools/build-bbpPairings.sh" "$PWD/target/bbp")
fi
cargo build -q --profile ci -p chess960-events --example bbp_compare
target_dir=$(cd "${CARGO_TARGET_DIR:-target}" && pwd)
run() { "$target_dir/ci/examples/bbp_compare" --bbp "$bbp" "$@"; }
cfg=crates/events/tests/bbp
if [ $full -eq 1 ]; then
  for c in swiss40 swiss41 swiss12 swiss20; do
    run --config "$cfg/$c.txt" --seeds 1001-2000 --mutate 2
  done
  run --config "$cfg/swiss100.txt" --seeds 1-300 --mutate 1
  run --events 1000 --seeds 1-1
else
  run --config "$cfg/swiss40.txt" --seeds 1-300 --mutate 2
  run --config "$cfg/swiss41.txt" --seeds 1-150
  run --config "$cfg/swiss12.txt" --seeds 1-400 --mutate 2
  run --config "$cfg/swiss20.txt" --seeds 1-150 --mutate 1
  run --config "$cfg/swiss100.txt" --seeds 1-10
  run --events 100 --seeds 1-1
fi
