#!/usr/bin/env bash
# Report size against report time: one SKILL.md with 100,000 missing links on one line, and one with
# 100,000 lines of one missing link each (each half the count too, to see growth), linted with
# `--format text` and `--format json`. The goal: text within a small constant factor of json, and both
# linear (the 100,000 figure about twice the 50,000 one). The json report, timed in the same run on the
# same file with as many runs, is the baseline of the text one. A lint that fails (exit code 2) fails
# the benchmark. Prints figures and ratios only; nothing here asserts wall-clock time.
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
source "$repo/bench/lib.sh"
tree="$(mktemp -d "${TMPDIR:-/tmp}/skillforge-lint-output.XXXXXX")"
trap 'rm -rf "$tree"' EXIT

binary="$(cd "$repo" && skillforge_binary)"

# generate FOLDER LINKS one-line|many-lines
generate() {
    mkdir -p "$1"
    {
        printf -- '---\nname: %s\ndescription: Links to files that do not exist. Use when measuring reports.\n---\n' \
            "$(basename "$1")"
        if [[ "$3" == one-line ]]; then
            awk -v n="$2" 'BEGIN { for (i = 0; i < n; i++) printf "[l%d](missing/%d.md) ", i, i; print "" }'
        else
            awk -v n="$2" 'BEGIN { for (i = 0; i < n; i++) printf "[l%d](missing/%d.md)\n", i, i }'
        fi
    } >"$1/SKILL.md"
}

# seconds FORMAT FOLDER: the best of three runs (the report itself is discarded). Exit code 0 or 1
# (findings below or at error level); 2 is a failure, not a time.
seconds() {
    local best="" start end elapsed status
    for _ in 1 2 3; do
        start="$(date +%s.%N)"
        status=0
        "$binary" lint "$2" --no-config --profile spec --format "$1" >/dev/null || status=$?
        end="$(date +%s.%N)"
        if [[ "$status" -gt 1 ]]; then
            echo "skillforge lint $2 --format $1 exited with $status" >&2
            return 1
        fi
        elapsed="$(awk -v s="$start" -v e="$end" 'BEGIN { printf "%.4f", e - s }')"
        if [[ -z "$best" ]] || awk -v a="$elapsed" -v b="$best" 'BEGIN { exit !(a < b) }'; then
            best="$elapsed"
        fi
    done
    echo "$best"
}

findings() {
    { "$binary" lint "$1" --no-config --profile spec --format json || [[ $? -le 1 ]]; } | awk -F': ' '/"errors"|"warnings"|"infos"/ { gsub(/,/, "", $2); total += $2 } END { print total }'
}

for layout in one-line many-lines; do
    for count in 50000 100000; do
        folder="$tree/$layout-$count"
        generate "$folder" "$count" "$layout"
        text="$(seconds text "$folder")"
        json="$(seconds json "$folder")"
        found="$(findings "$folder")"
        awk -v layout="$layout" -v count="$count" -v found="$found" -v text="$text" -v json="$json" 'BEGIN {
            printf "%-10s %6d links: %6d findings; best of 3 each: text %.3f s, json %.3f s, text / json %.2f  (goal <= 3)\n", layout, count, found, text, json, text / json
        }'
        eval "${layout//-/_}_$count=$text"
    done
done
awk -v a="$one_line_50000" -v b="$one_line_100000" -v c="$many_lines_50000" -v d="$many_lines_100000" 'BEGIN {
    printf "text growth from 50,000 to 100,000 links: one line %.2fx, many lines %.2fx  (linear: about 2)\n", b / a, d / c
}'
