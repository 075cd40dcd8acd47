#!/usr/bin/env bash
# Catalog preview refresh after a one-buffer change over the 5,000-skill synthetic tree, per dialect
# (goal: p95 < 100 ms), against each peer producing the same listing after the same edit in the same
# run, over as many rounds (bench/peers_preview.py says how each peer does it; Claude Code and Codex
# have no peer library, so their baseline is reading every SKILL.md of the tree). 10xGraph reads one
# level per root, so on this tree (skills inside category folders) it lists no skills, on both sides.
# Prints figures and ratios; nothing here asserts wall-clock time.
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$repo/scripts/ensure-peers.sh"
python="${PEERS_PYTHON:-$repo/.venv-peers/bin/python}"
rounds="${PREVIEW_ROUNDS:-20}"
edited="category-07/skill-00007/SKILL.md"

tree="$(mktemp -d "${TMPDIR:-/tmp}/skillforge-preview.XXXXXX")"
trap 'rm -rf "$tree"' EXIT
"$python" "$repo/bench/generate.py" "$tree/skills" 5000

cd "$repo"
ours="$(cargo run --quiet --locked --release -p skillforge-core --example preview_bench -- "$tree/skills" "$rounds")"
theirs="$("$python" "$repo/bench/peers_preview.py" "$tree/skills" "$rounds" "$edited")"

awk -v rounds="$rounds" '$1 == "session_ms" { printf "engine session read once: %.0f ms; %d refreshes per dialect on each side\n", $2, rounds }' <<<"$ours"
printf '%-12s %6s %7s  %8s %8s %8s  %9s %9s  %s\n' dialect listed bytes "p50 ms" "p95 ms" "max ms" "peer p50" "peer p95" "p95 peer / engine"
for dialect in nagents 10xgraph skills-ref claude-code codex; do
    read -r _ _ listed bytes p50 p95 max < <(awk -v d="$dialect" '$1 == "preview" && $2 == d' <<<"$ours") ||
        { echo "preview_bench printed nothing for $dialect" >&2; exit 1; }
    read -r _ _ peer_listed peer_bytes peer_p50 peer_p95 _ < <(awk -v d="$dialect" '$1 == "peer" && $2 == d' <<<"$theirs") ||
        { echo "peers_preview.py printed nothing for $dialect" >&2; exit 1; }
    # Where a peer renders the listing, it must be the same listing (the same skills, the same length).
    if [[ "$peer_listed" != - && "$listed/$bytes" != "$peer_listed/$peer_bytes" ]]; then
        echo "$dialect: the engine listed $listed skills in $bytes bytes, the peer $peer_listed in $peer_bytes: not the same work" >&2
        exit 1
    fi
    awk -v d="$dialect" -v listed="$listed" -v bytes="$bytes" -v p50="$p50" -v p95="$p95" -v max="$max" \
        -v q50="$peer_p50" -v q95="$peer_p95" 'BEGIN {
        ratio = p95 > 0 ? sprintf("%.1f", q95 / p95) : "n/a (engine p95 under 0.001 ms)"
        printf "%-12s %6s %7s  %8.3f %8.3f %8.3f  %9.3f %9.3f  %s\n", d, listed, bytes, p50, p95, max, q50, q95, ratio
    }'
done
