#!/usr/bin/env bash
# The language server in a real editor: headless Neovim (Debian's package) starts `skillforge lsp`, opens
# a skill with an unquoted `: ` in its description and a missing link target, waits for the findings,
# applies the server's preferred quick fix and checks the buffer and the findings after it.
# SKILLFORGE_BIN names the binary (else it is built). Prints `editors: N passed, N failed`.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
"$repo/scripts/install-system-deps.sh" editors
if [ -z "${SKILLFORGE_BIN:-}" ]; then
  source "$repo/bench/lib.sh"
  SKILLFORGE_BIN=$(cd "$repo" && built_executable -p skillforge-cli --bin skillforge)
fi
export SKILLFORGE_BIN

scratch=$(mktemp -d "${TMPDIR:-/tmp}/skillforge-neovim.XXXXXX")
trap 'rm -rf "$scratch"' EXIT
export WORKSPACE="$scratch/skills"
mkdir -p "$WORKSPACE/pdf-tools"
export SKILL_FILE="$WORKSPACE/pdf-tools/SKILL.md"
printf -- '---\nname: pdf-tools\ndescription: Extracts text: from PDF files. Use when the user asks about PDFs.\n---\n\nSee [the guide](references/guide.md).\n' >"$SKILL_FILE"
export RESULT="$scratch/result.jsonl"

status=0
HOME="$scratch" XDG_CONFIG_HOME="$scratch/config" XDG_DATA_HOME="$scratch/data" XDG_STATE_HOME="$scratch/state" \
  timeout 120 nvim --headless --clean -u NONE -c "luafile $here/neovim.lua" </dev/null >"$scratch/nvim.log" 2>&1 || status=$?

python3 - "$RESULT" "$status" <<'PY'
import json, sys
path, status = sys.argv[1], int(sys.argv[2])
try:
    records = [json.loads(line) for line in open(path, encoding="utf-8")]
except FileNotFoundError:
    records = []
failures = []
def check(condition, what):
    if not condition:
        failures.append(what)
errors = [record for record in records if "error" in record]
check(not errors, f"neovim reported {errors}")
check(status == 0, f"neovim exited {status}")
opened = next((r for r in records if r.get("phase") == "opened"), None)
fixed = next((r for r in records if r.get("phase") == "fixed"), None)
check(opened is not None and opened["codes"] == ["SF106", "SF503"], f"findings when opened: {opened}")
check(fixed is not None and fixed["codes"] == ["SF503"], f"findings after the fix: {fixed}")
if fixed:
    check('description: "Extracts text: from PDF files. Use when the user asks about PDFs."' in fixed["lines"],
          f"the buffer after the fix: {fixed['lines']}")
for failure in failures:
    print(f"FAIL neovim: {failure}")
print(f"editors: {0 if failures else 1} passed, {1 if failures else 0} failed")
sys.exit(1 if failures else 0)
PY
