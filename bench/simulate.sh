#!/usr/bin/env bash
# simulate with the router over the 5,000-skill synthetic tree: per-request time after discovery
# (goal < 50 ms). Prints figures from single runs; nothing here asserts wall-clock time.
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
python="${PEERS_PYTHON:-$repo/.venv-peers/bin/python}"
[[ -x "$python" ]] || python="$(command -v python3)"

tree="$(mktemp -d "${TMPDIR:-/tmp}/skillforge-simulate.XXXXXX")"
trap 'rm -rf "$tree"' EXIT
"$python" "$repo/bench/generate.py" "$tree/skills" 5000

(cd "$repo" && cargo build --quiet --release -p skillforge-cli)
binary="${CARGO_TARGET_DIR:-$repo/target}/release/skillforge"
message="render a pdf table chart for the deploy review"

run() {
    # The figures go to standard error; the transcript itself is discarded.
    "$binary" simulate "$@" --message "$message" --model router --timings --format json 2>&1 >/dev/null
}

echo "nagents, catalog discovered once (per-request work only):"
for _ in 1 2 3; do run "$tree/skills" --max-entries 1000000 --refresh once; done
echo "nagents, rediscovered at every client boundary (what nagents itself does):"
run "$tree/skills" --max-entries 1000000 --refresh boundaries
echo "10xgraph (one level per root, so each category folder is a root):"
run "$tree"/skills/category-*
