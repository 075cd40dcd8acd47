#!/usr/bin/env bash
# Discovery and manifest speed on a synthetic tree (5,000 skills, 20,000 bundled files), each against a
# baseline measured in the same run as often: discovery against `find -name SKILL.md` over the same tree
# (the I/O floor) and against nagents' own discovery (best of as many runs), the manifest render against
# nagents' render_skill_manifest over the same skills (as many renders; the byte lengths must agree, so
# both rendered the same manifest). Prints figures and ratios; nothing here asserts wall-clock time.
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
source "$repo/bench/lib.sh"
venv="$repo/.venv-peers"
"$repo/scripts/ensure-peers.sh"

tree="$(mktemp -d "${TMPDIR:-/tmp}/skillforge-bench.XXXXXX")"
trap 'rm -rf "$tree"' EXIT
"$venv/bin/python" "$repo/bench/generate.py" "$tree/skills" 5000

cd "$repo"
bench_discovery="$(built_executable --release -p skillforge-cli --example bench_discovery)"
figures="$("$bench_discovery" "$tree/skills")"
value() { awk -v key="$1" '$1 == key { print $2; found = 1 } END { exit !found }' <<<"$figures"; }
peer="$("$venv/bin/python" "$repo/bench/nagents_discover.py" "$tree/skills" "$(value runs)" "$(value manifest_renders)")"
figures+=$'\n'"$peer"

if [[ "$(value skills)" != "$(value nagents_skills)" ]]; then
    echo "the engine found $(value skills) skills, nagents $(value nagents_skills): not the same work" >&2
    exit 1
fi
if [[ "$(value manifest_bytes)" != "$(value nagents_manifest_bytes)" ]]; then
    echo "the manifests differ in length (engine $(value manifest_bytes) bytes, nagents $(value nagents_manifest_bytes)): not the same work" >&2
    exit 1
fi

awk -v engine="$(value engine_seconds)" -v one_thread="$(value engine_one_thread_seconds)" \
    -v find="$(value find_seconds)" -v nagents="$(value nagents_seconds)" -v runs="$(value runs)" \
    -v manifest="$(value manifest_seconds)" -v nagents_manifest="$(value nagents_manifest_seconds)" \
    -v renders="$(value manifest_renders)" -v threads="$(value threads)" -v load="$(cut -d' ' -f1 /proc/loadavg)" \
    -v cores="$(nproc)" -v skills="$(value skills)" -v nagents_skills="$(value nagents_skills)" \
    -v bytes="$(value manifest_bytes)" -v files="$(find "$tree/skills" -type f | wc -l)" 'BEGIN {
    printf "tree: %d skills (nagents found %d), %d files; %d cores, load %s\n", skills, nagents_skills, files, cores, load
    printf "discovery, best of %d each: engine %.1f ms (%d threads), %.1f ms (1 thread); find -name SKILL.md %.1f ms; nagents %.1f ms\n", runs, engine * 1000, threads, one_thread * 1000, find * 1000, nagents * 1000
    printf "engine / find:    %.2f  (goal <= 1.5); on 1 thread: %.2f\n", engine / find, one_thread / find
    printf "nagents / engine: %.1f  (goal >= 20); on 1 thread: %.1f\n", nagents / engine, nagents / one_thread
    printf "manifest of %d skills (%d bytes), mean of %d renders each: engine %.3f ms (goal < 2 ms), nagents %.3f ms\n", skills, bytes, renders, manifest * 1000, nagents_manifest * 1000
    printf "nagents / engine manifest: %.1f\n", nagents_manifest / manifest
}'
