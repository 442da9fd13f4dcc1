#!/usr/bin/env bash
# Our FIDE Dutch pairing beside bbpPairings on the same tournaments: bbpPairings' generator
# writes an open of each size, both programs pair its last round from the same TRF file
# (median of 3 runs each), the pairings must be identical, and the ratio is printed as the
# Markdown rows of docs/performance.md. Run it on an otherwise idle machine.
#
#   bash scripts/pairing-bench.sh                    # 100, 400 and 1,000 players, 11 rounds
#   bash scripts/pairing-bench.sh --players 100,400  # other sizes (any argument of the example)
#
# Generating the 1,000-player open takes bbpPairings several minutes; the whole run about 15.
set -euo pipefail
cd "$(dirname "$0")/.."
bbp="${BBP:-}"
if [ -z "$bbp" ]; then
  tools="${CHESS960_SHARED_TOOLS:-../shared/tools}"
  bbp=$(bash "$tools/build-bbpPairings.sh" "$PWD/target/bbp")
fi
cargo build -q --release -p chess960-events --example pairing_bench
target_dir=$(cd "${CARGO_TARGET_DIR:-target}" && pwd)
"$target_dir/release/examples/pairing_bench" --bbp "$bbp" "$@"
