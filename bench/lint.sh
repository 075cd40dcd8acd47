#!/usr/bin/env bash
# Lint speed, each figure against a baseline measured in the same run with as many repetitions: one
# 300 KB SKILL.md (goal < 5 ms) against skills-ref 0.1.1's validate of the very same file; the 5,000-skill
# synthetic tree with all profiles against the engine's own discovery walk of the tree (goal <= 2x) and
# against skills-ref's validate over the same skills (goal: the linter >= 30x faster). Every side is the
# best of the same number of runs; any error fails the benchmark. Prints figures and ratios only;
# nothing here asserts wall-clock time.
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$repo/scripts/ensure-peers.sh"
python="${PEERS_PYTHON:-$repo/.venv-peers/bin/python}"
if ! "$python" -c "import skills_ref" 2>/dev/null; then
    echo "skills-ref is not installed for $python: the baseline cannot be measured" >&2
    exit 1
fi

tree="$(mktemp -d "${TMPDIR:-/tmp}/skillforge-lint-bench.XXXXXX")"
trap 'rm -rf "$tree"' EXIT
"$python" "$repo/bench/generate.py" "$tree/skills" 5000

cd "$repo"
figures="$(cargo run --quiet --locked --release -p skillforge-core --example lint_bench -- "$tree/skills" "$tree/large")"
echo "$figures"
value() { awk -v key="$1" '$1 == key { print $2; found = 1 } END { exit !found }' <<<"$figures"; }

# skills-ref's side: validate() over the same folders, the best of as many runs as the engine had.
reference="$("$python" - "$tree/skills" "$tree/large" "$(value tree_runs)" "$(value single_runs)" <<'PY'
import sys, time
from pathlib import Path
from skills_ref.validator import validate

tree, large, tree_runs, single_runs = Path(sys.argv[1]), Path(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])

def best(runs, work):
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return min(times)

skills = sorted(path.parent for path in tree.rglob("SKILL.md"))
problems = {}
def validate_tree():
    problems.clear()
    for skill in skills:
        found = validate(skill)
        if found:
            problems[skill] = found
tree_seconds = best(tree_runs, validate_tree)
large_seconds = best(single_runs, lambda: validate(large))
print(f"skills_ref_skills {len(skills)}")
print(f"skills_ref_skills_with_problems {len(problems)}")
print(f"skills_ref_large_problems {len(validate(large))}")
print(f"skills_ref_300kb_seconds {large_seconds:.6f}")
print(f"skills_ref_validate_seconds {tree_seconds:.6f}")
PY
)"
echo "$reference"
figures+=$'\n'"$reference"

if [[ "$(value skills)" != "$(value skills_ref_skills)" ]]; then
    echo "the linter saw $(value skills) skills, skills-ref $(value skills_ref_skills): not the same work" >&2
    exit 1
fi
awk -v ours="$(value lint_tree_seconds)" -v theirs="$(value skills_ref_validate_seconds)" \
    -v ours_large="$(value lint_300kb_seconds)" -v theirs_large="$(value skills_ref_300kb_seconds)" \
    -v tree_runs="$(value tree_runs)" -v single_runs="$(value single_runs)" 'BEGIN {
    printf "skills_ref_to_lint_ratio %.1f  (tree, best of %d each; goal >= 30)\n", theirs / ours, tree_runs
    printf "skills_ref_to_lint_300kb_ratio %.1f  (300 KB file, best of %d each)\n", theirs_large / ours_large, single_runs
}'
