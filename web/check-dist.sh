#!/usr/bin/env bash
# Is the committed web/dist what the sources build to? The server embeds web/dist at compile time,
# so a stale dist means the binary serves an old UI. Builds into a temporary directory and
# compares byte for byte; exit 1 (with the differing files) when dist is stale.
#   bash web/check-dist.sh          # needs `npm ci` in web/ first
set -euo pipefail
cd "$(dirname "$0")"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
npx --no-install tsc --noEmit
npx --no-install vite build --logLevel warn --outDir "$out/dist" --emptyOutDir
if ! diff -r "$out/dist" dist >"$out/diff.txt"; then
  echo "web/dist is stale: it differs from what web/src builds to. Run 'npm run build' in web/ and commit web/dist." >&2
  head -n 40 "$out/diff.txt" | cut -c1-200 >&2
  exit 1
fi
echo "web/dist is current"
