#!/usr/bin/env bash
# Lint speed: one 300 KB SKILL.md (goal < 5 ms), the 5,000-skill synthetic tree with all profiles (goal
# <= 2x the engine's discovery time), and skills-ref 0.1.1's validate over the same skills (goal: the
# linter >= 30x faster). Prints figures and ratios only; nothing here asserts wall-clock time.
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
python="${PEERS_PYTHON:-$repo/.venv-peers/bin/python}"
[[ -x "$python" ]] || python="$(command -v python3)"

tree="$(mktemp -d "${TMPDIR:-/tmp}/skillforge-lint-bench.XXXXXX")"
trap 'rm -rf "$tree"' EXIT
"$python" "$repo/bench/generate.py" "$tree/skills" 5000

cd "$repo"
figures="$(cargo run --quiet --release -p skillforge-core --example lint_bench -- "$tree/skills")"
echo "$figures"
lint_seconds="$(awk '$1 == "lint_tree_seconds" { print $2 }' <<<"$figures")"

if "$python" -c "import skills_ref" 2>/dev/null; then
    reference_seconds="$("$python" - "$tree/skills" <<'PY'
import sys, time
from pathlib import Path
from skills_ref.validator import validate
skills = sorted(path.parent for path in Path(sys.argv[1]).rglob("SKILL.md"))
start = time.perf_counter()
for skill in skills:
    validate(skill)
print(f"{time.perf_counter() - start:.6f}")
PY
)"
    echo "skills_ref_validate_seconds $reference_seconds"
    awk -v ours="$lint_seconds" -v theirs="$reference_seconds" \
        'BEGIN { printf "skills_ref_to_lint_ratio %.1f\n", theirs / (ours > 0 ? ours : 1e-9) }'
else
    echo "skills-ref is not installed for $python; skipping the comparison" >&2
fi
