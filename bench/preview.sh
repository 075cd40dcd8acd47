#!/usr/bin/env bash
# Catalog preview refresh after a one-buffer change over the 5,000-skill synthetic tree, per dialect
# (goal: p95 < 100 ms). Prints figures only; nothing here asserts wall-clock time. 10xGraph reads one
# level per root, so on this tree (skills inside category folders) it lists no skills.
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
python="${PEERS_PYTHON:-$repo/.venv-peers/bin/python}"
[[ -x "$python" ]] || python="$(command -v python3)"

tree="$(mktemp -d "${TMPDIR:-/tmp}/skillforge-preview.XXXXXX")"
trap 'rm -rf "$tree"' EXIT
"$python" "$repo/bench/generate.py" "$tree/skills" 5000

cd "$repo"
cargo run --quiet --release -p skillforge-core --example preview_bench -- "$tree/skills"
