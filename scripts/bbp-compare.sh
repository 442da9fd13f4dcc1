#!/usr/bin/env bash
# Our FIDE Dutch pairings against bbpPairings (the engine lichess's Swiss runs on), on
# tournaments its generator makes and on variants of them for its pairing mode (byes,
# withdrawals, late entries), and on events run through our event model, plain and
# accelerated by the Baku method (TRF XXA lines). See docs/events.md.
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
# scripts/test.sh has the example and the binary from its `cargo test` already and says so
# with CHESS960_BUILT=1: a plain `cargo build` resolves the dependencies' features without the
# dev-dependencies (tokio's test-util, say) and would compile much of the workspace again.
built="${CHESS960_BUILT:-}"
[ -n "$built" ] || cargo build -q --profile ci -p chess960-events --example bbp_compare
target_dir=$(cd "${CARGO_TARGET_DIR:-target}" && pwd)
run() { "$target_dir/ci/examples/bbp_compare" --bbp "$bbp" "$@"; }
cfg=crates/events/tests/bbp
if [ $full -eq 1 ]; then
  for c in swiss40 swiss41 swiss12 swiss20; do
    run --config "$cfg/$c.txt" --seeds 1001-2000 --mutate 2
  done
  run --config "$cfg/swiss100.txt" --seeds 1-300 --mutate 1
  run --events 1000 --seeds 1-1
  run --events 1000 --seeds 1-1 --accelerated
else
  run --config "$cfg/swiss40.txt" --seeds 1-300 --mutate 2
  run --config "$cfg/swiss41.txt" --seeds 1-150
  run --config "$cfg/swiss12.txt" --seeds 1-400 --mutate 2
  run --config "$cfg/swiss20.txt" --seeds 1-150 --mutate 1
  run --config "$cfg/swiss100.txt" --seeds 1-10
  run --events 100 --seeds 1-1
  run --events 100 --seeds 1-1 --accelerated
fi

# An event run from the command line as an arbiter would (a bye asked for, a withdrawal, a
# late entry, forfeits), exported as TRF and re-paired round by round by bbpPairings' checker.
[ -n "$built" ] || cargo build -q --profile ci -p chess960-cli
bin="$target_dir/ci/chess960"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
ev() { "$bin" event --db "$work/e.sqlite3" "$@"; }
ev new "Checked Open" --swiss --rounds 9 --no-518 >/dev/null
for k in $(seq 1 40); do ev add 1 "Player $k" --rating $((2500 - k * 13)) >/dev/null; done
ev bye 1 5 --round 3 --half >/dev/null
ev bye 1 9 --round 2 --zero >/dev/null
res=("1-0" "0-1" "1/2" "1-0" "0-1" "1-0" "1/2" "+/-" "0-1" "1-0" "-/-" "-/+")
for r in $(seq 1 9); do
  if [ "$r" = 4 ]; then ev withdraw 1 12 >/dev/null; ev add 1 "Late Entry" --rating 2300 >/dev/null; fi
  ev draw 1 >/dev/null
  n=$(ev pair 1 --json | python3 -c "import json,sys; print(len(json.load(sys.stdin)['boards']))")
  args=()
  for b in $(seq 1 "$n"); do args+=("$b" "${res[$(( (b * 7 + r * 5) % 12 ))]}"); done
  ev result 1 --round "$r" "${args[@]}" >/dev/null
done
ev export 1 --format trf -o "$work/checked.trf" >/dev/null
checked=$("$bbp" --dutch "$work/checked.trf" -c)
if grep -q "Checker pairings\|No valid pairing" <<<"$checked"; then
  echo "bbpPairings' checker disagrees with the event run from the command line:" >&2
  echo "$checked" >&2
  exit 1
fi
echo "an event run from the command line (40 players, 9 rounds): bbpPairings' checker agrees in all $(grep -c 'Round #' <<<"$checked") rounds"
