#!/usr/bin/env bash
# simulate with the router over the 5,000-skill synthetic tree: per-request time after discovery (goal
# < 50 ms), against the peer doing the same conversation on the same tree in the same run: the real
# nagents Agent (its transport replaced in process by the engine's answers, bench/peers_simulate.py),
# and 10xGraph's registry, catalog prompt and activate_skill. Each side is the best of as many runs.
# The peers replay the engine's choices instead of scoring skills, so their side does a little less.
# Prints figures and ratios; nothing here asserts wall-clock time.
set -euo pipefail
shopt -s inherit_errexit

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
source "$repo/bench/lib.sh"
"$repo/scripts/ensure-peers.sh"
python="${PEERS_PYTHON:-$repo/.venv-peers/bin/python}"

tree="$(mktemp -d "${TMPDIR:-/tmp}/skillforge-simulate.XXXXXX")"
trap 'rm -rf "$tree"' EXIT
"$python" "$repo/bench/generate.py" "$tree/skills" 5000

binary="$(cd "$repo" && skillforge_binary)"
message="render a pdf table chart for the deploy review"
runs=3

# engine LABEL ARGS...: runs the simulation `runs` times and prints `key value` lines: skills, requests,
# the best discovery and run times, and the model's answers (JSON) for the peer to replay.
engine() {
    local best_discovery="" best_run="" timing report skills requests discovery run
    for _ in $(seq "$runs"); do
        report="$("$binary" simulate "$@" --message "$message" --model router --timings --format json 2>"$tree/timing")" ||
            { cat "$tree/timing" >&2; return 1; }
        timing="$(cat "$tree/timing")"
        # simulate: N skills; discovery X ms; R request(s) in Y ms, Z ms per request after discovery
        run=""
        read -r skills requests discovery run < <(awk '/^simulate: / {
            gsub(/;|,/, ""); print $2, $7, $5, $10 }' <<<"$timing") || true
        [[ -n "$run" ]] || { echo "no timing from simulate: $timing" >&2; return 1; }
        best_discovery="$(awk -v a="$discovery" -v b="${best_discovery:-$discovery}" 'BEGIN { print (a < b ? a : b) }')"
        best_run="$(awk -v a="$run" -v b="${best_run:-$run}" 'BEGIN { print (a < b ? a : b) }')"
    done
    echo "skills $skills"
    echo "requests $requests"
    echo "discovery_seconds $(awk -v ms="$best_discovery" 'BEGIN { printf "%.6f", ms / 1000 }')"
    echo "run_seconds $(awk -v ms="$best_run" 'BEGIN { printf "%.6f", ms / 1000 }')"
    echo "answers $("$python" -c '
import json, sys
answers = []
for round in json.load(sys.stdin)["transcript"]["rounds"]:
    action = round["action"]
    if action["kind"] == "text":
        answers.append(None)
        continue
    if len(action["calls"]) != 1:
        sys.exit("a request with several tool calls cannot be replayed")
    arguments = action["calls"][0]["arguments"]
    answers.append(arguments.get("name") or arguments["skill_name"])
print(json.dumps(answers, separators=(",", ":")))
' <<<"$report")"
}

value() { awk -v key="$1" '$1 == key { print $2; found = 1 } END { exit !found }' <<<"$2"; }

# compare LABEL ENGINE_FIGURES PEER_FIGURES
compare() {
    local ours=$2 theirs=$3
    for key in skills requests; do
        if [[ "$(value $key "$ours")" != "$(value $key "$theirs")" ]]; then
            echo "$1: the engine had $(value $key "$ours") $key, the peer $(value $key "$theirs"): not the same work" >&2
            return 1
        fi
    done
    awk -v label="$1" -v skills="$(value skills "$ours")" -v requests="$(value requests "$ours")" -v runs="$runs" \
        -v ours_discovery="$(value discovery_seconds "$ours")" -v ours_run="$(value run_seconds "$ours")" \
        -v theirs_discovery="$(value discovery_seconds "$theirs")" -v theirs_run="$(value run_seconds "$theirs")" 'BEGIN {
        printf "%s: %d skills, %d requests, best of %d each\n", label, skills, requests, runs
        printf "  per request after discovery: engine %.2f ms (goal < 50 ms), peer %.2f ms; peer / engine %.1f\n", ours_run * 1000 / requests, theirs_run * 1000 / requests, theirs_run / ours_run
        printf "  discovery: engine %.1f ms, peer %.1f ms; peer / engine %.1f\n", ours_discovery * 1000, theirs_discovery * 1000, theirs_discovery / ours_discovery
    }'
}

for refresh in once boundaries; do
    ours="$(engine "$tree/skills" --max-entries 1000000 --refresh "$refresh")"
    theirs="$("$python" "$repo/bench/peers_simulate.py" nagents "$refresh" "$runs" "$tree/skills" "$message" "$(value answers "$ours")")"
    case "$refresh" in
        once) label="nagents, catalog discovered once (per-request work only)" ;;
        boundaries) label="nagents, rediscovered at every client boundary (what nagents itself does)" ;;
    esac
    compare "$label" "$ours" "$theirs"
done

ours="$(engine "$tree"/skills/category-* --dialect 10xgraph)"
theirs="$("$python" "$repo/bench/peers_simulate.py" 10xgraph "$runs" "$(value answers "$ours")" "$tree"/skills/category-*)"
compare "10xgraph (one level per root, so each category folder is a root)" "$ours" "$theirs"
