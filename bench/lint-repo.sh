#!/usr/bin/env bash
# Whole-repository lint against what cannot be avoided, on a tree the size of a large public registry
# (bench/generate_registry.py: 4,500 skills, over 20,000 files, about 30 MB of SKILL.md), each figure
# measured in this run, best of the same number of runs on each side:
#   - `skillforge lint TREE` with every profile (json and text) against the read floor: `find TREE -name
#     SKILL.md` with every SKILL.md read (`xargs cat`); goal <= 2.0 (the three take turns, run by run, so
#     a busy machine slows each of them alike);
#   - the peak resident memory of those lint runs (from the kernel's accounting of the process); goal
#     <= 150 MB;
#   - skills-ref 0.1.1's validate() over the same skills against the lint run; goal >= 15x.
# The linter must find every SKILL.md find finds. Prints figures and ratios only; nothing here asserts
# wall-clock time.
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
source "$repo/bench/lib.sh"
"$repo/scripts/ensure-peers.sh"
python="${PEERS_PYTHON:-$repo/.venv-peers/bin/python}"
binary="$(cd "$repo" && skillforge_binary)"

tree="$(mktemp -d "${TMPDIR:-/tmp}/skillforge-lint-repo.XXXXXX")"
trap 'rm -rf "$tree"' EXIT
"$python" "$repo/bench/generate_registry.py" "$tree/registry" "${SKILLS:-4500}"

"$python" - "$binary" "$tree/registry" "${RUNS:-5}" <<'PY'
import os, subprocess, sys, time
from pathlib import Path

binary, tree, runs = sys.argv[1], Path(sys.argv[2]), int(sys.argv[3])

def run_once(command, shell=False):
    """Wall time and peak RSS (KB) of one run of one process (its children's too)."""
    start = time.perf_counter()
    process = subprocess.Popen(command, shell=shell, stdout=subprocess.DEVNULL)
    _, status, usage = os.wait4(process.pid, 0)
    elapsed = time.perf_counter() - start
    code = os.waitstatus_to_exitcode(status)
    if code not in (0, 1):
        sys.exit(f"{command} exited with {code}")
    return elapsed, usage.ru_maxrss

def measure_together(commands):
    """Best wall time and largest peak RSS (KB) of `runs` runs of each command, the commands taking
    turns run by run, so that a change in the machine's load between runs touches every figure alike
    instead of the one measured at that time."""
    best = [float("inf")] * len(commands)
    peak = [0] * len(commands)
    for _ in range(runs):
        for index, (command, shell) in enumerate(commands):
            elapsed, rss = run_once(command, shell)
            best[index], peak[index] = min(best[index], elapsed), max(peak[index], rss)
    return list(zip(best, peak))

skill_files = sorted(tree.rglob("SKILL.md"))
files = sum(1 for path in tree.rglob("*") if path.is_file())
size = sum(path.stat().st_size for path in skill_files)
print(f"tree_skills {len(skill_files)}")
print(f"tree_files {files}")
print(f"tree_skill_md_megabytes {size / 1e6:.1f}")

# Measured while this process is small: a child's peak memory counts the parent's at the fork.
(floor, _), (lint_json, rss_json), (lint_text, rss_text) = measure_together([
    (f"find '{tree}' -name SKILL.md -print0 | xargs -0 cat > /dev/null", True),
    ([binary, "lint", str(tree), "--no-config", "--format", "json"], False),
    ([binary, "lint", str(tree), "--no-config", "--format", "text"], False),
])
print(f"runs {runs}")
print(f"read_floor_seconds {floor:.3f}")
print(f"lint_json_seconds {lint_json:.3f}")
print(f"lint_text_seconds {lint_text:.3f}")
print(f"lint_json_peak_rss_mb {rss_json / 1024:.1f}")
print(f"lint_text_peak_rss_mb {rss_text / 1024:.1f}")

# The linter must have seen what find sees, or the comparison is of different work.
summary = subprocess.run([binary, "lint", str(tree), "--no-config", "--format", "text"],
                         capture_output=True, text=True).stdout.splitlines()[-1]
linted = int(summary.split(" in ", 1)[1].split(" files", 1)[0])
if linted != len(skill_files):
    sys.exit(f"lint read {linted} SKILL.md files, find {len(skill_files)}: not the same work")

from skills_ref.validator import validate
folders = [path.parent for path in skill_files]
best = float("inf")
for _ in range(max(1, runs // 2)):
    start = time.perf_counter()
    for folder in folders:
        validate(folder)
    best = min(best, time.perf_counter() - start)
print(f"skills_ref_validate_seconds {best:.3f}  (best of {max(1, runs // 2)})")

lint = max(lint_json, lint_text)
print(f"lint_to_read_floor_ratio {lint / floor:.2f}  (all profiles, the slower of json and text; goal <= 2.0)")
print(f"lint_peak_rss_mb {max(rss_json, rss_text) / 1024:.1f}  (goal <= 150)")
print(f"skills_ref_to_lint_ratio {best / lint:.1f}  (goal >= 15)")
PY
