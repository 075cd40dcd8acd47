#!/usr/bin/env bash
# Discovery and manifest speed on a synthetic tree (5,000 skills, 20,000 bundled files).
# Prints figures from one run; nothing here asserts wall-clock time.
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
venv="$repo/.venv-peers"
"$repo/scripts/ensure-peers.sh"

tree="$(mktemp -d "${TMPDIR:-/tmp}/skillforge-bench.XXXXXX")"
trap 'rm -rf "$tree"' EXIT
"$venv/bin/python" "$repo/bench/generate.py" "$tree/skills" 5000

(cd "$repo" && cargo build --quiet --release -p skillforge-cli --example bench_discovery)
figures="$("${CARGO_TARGET_DIR:-$repo/target}/release/examples/bench_discovery" "$tree/skills")"
read -r nagents_seconds nagents_skills < <("$venv/bin/python" "$repo/bench/nagents_discover.py" "$tree/skills")

value() { awk -v key="$1" '$1 == key { print $2 }' <<<"$figures"; }
engine="$(value engine_seconds)"
one_thread="$(value engine_one_thread_seconds)"
find_time="$(value find_seconds)"
manifest="$(value manifest_seconds)"
awk -v engine="$engine" -v one_thread="$one_thread" -v find="$find_time" -v nagents="$nagents_seconds" \
    -v manifest="$manifest" -v threads="$(value threads)" -v load="$(cut -d' ' -f1 /proc/loadavg)" \
    -v cores="$(nproc)" -v skills="$(value skills)" -v nagents_skills="$nagents_skills" \
    -v files="$(find "$tree/skills" -type f | wc -l)" 'BEGIN {
    printf "tree: %d skills (nagents found %d), %d files; %d cores, load %s\n", skills, nagents_skills, files, cores, load
    printf "discovery, best of 5: engine %.1f ms (%d threads), %.1f ms (1 thread); find -name SKILL.md %.1f ms; nagents %.1f ms\n", engine * 1000, threads, one_thread * 1000, find * 1000, nagents * 1000
    printf "engine / find:    %.2f  (goal <= 1.5)\n", engine / find
    printf "nagents / engine: %.1f  (goal >= 20); on 1 thread: %.1f\n", nagents / engine, nagents / one_thread
    printf "manifest render of %d skills: %.3f ms  (goal < 2 ms)\n", skills, manifest * 1000
}'
