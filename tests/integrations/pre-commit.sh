#!/usr/bin/env bash
# The pre-commit hooks of .pre-commit-hooks.yaml, run by the real pre-commit (`pre-commit try-repo`, as a
# user tries a hook repository) in a new git repository: a staged skill with an error fails with its
# finding, the same skill fixed passes, a commit touching no skill file does not run the hook, and
# `skillforge-fix` repairs a fixable skill. SKILLFORGE_BIN names the binary (else it is built).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
"$repo/scripts/ensure-tools.sh"
if [ -z "${SKILLFORGE_BIN:-}" ]; then
  source "$repo/bench/lib.sh"
  SKILLFORGE_BIN=$(cd "$repo" && built_executable -p skillforge-cli --bin skillforge)
fi
bin_dir=$(cd "$(dirname "$SKILLFORGE_BIN")" && pwd)
pre_commit="$repo/.venv-tools/bin/pre-commit"

scratch=$(mktemp -d "${TMPDIR:-/tmp}/skillforge-pre-commit.XXXXXX")
trap 'rm -rf "$scratch"' EXIT
export PRE_COMMIT_HOME="$scratch/cache" HOME="$scratch" PATH="$bin_dir:$PATH"
export GIT_CONFIG_NOSYSTEM=1 GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@example.invalid GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@example.invalid
work="$scratch/project"
mkdir -p "$work/skills/pdf-tools"
cd "$work"
git init -q .

passed=0 failed=0
check() {
  local what=$1; shift
  if "$@"; then passed=$((passed + 1)); else failed=$((failed + 1)); echo "FAIL pre-commit: $what"; fi
}
try() { # try HOOK: runs the hook on what is staged; output in $scratch/out, status in $status
  status=0
  "$pre_commit" try-repo "$repo" "$1" >"$scratch/out" 2>&1 || status=$?
}

# An uppercase name: every client refuses or misreads it (error).
printf -- '---\nname: PDF-Tools\ndescription: Extracts text from PDF files. Use when the user asks about PDFs.\n---\n\nBody.\n' >skills/pdf-tools/SKILL.md
git add -A
try skillforge-lint
check "a bad skill fails (status $status)" test "$status" -ne 0
check "the finding is shown" grep -q "SF203" "$scratch/out"

printf -- '---\nname: pdf-tools\ndescription: Extracts text from PDF files. Use when the user asks about PDFs.\n---\n\nBody.\n' >skills/pdf-tools/SKILL.md
git add -A
try skillforge-lint
check "the fixed skill passes (status $status)" test "$status" -eq 0
git commit -qm "a skill"

# A change to no skill file: the hook is skipped.
echo "notes" >NOTES.txt
printf -- '---\nname: PDF-Tools\n' >skills/pdf-tools/SKILL.md.bak
git add NOTES.txt
try skillforge-lint
check "an unrelated change skips the hook" grep -q "(no files to check)Skipped" "$scratch/out"
rm -f skills/pdf-tools/SKILL.md.bak
git reset -q

# skillforge-fix quotes an unquoted `: ` and the skill then passes.
printf -- '---\nname: pdf-tools\ndescription: Extracts text: from PDF files. Use when the user asks about PDFs.\n---\n\nBody.\n' >skills/pdf-tools/SKILL.md
git add -A
try skillforge-fix
check "the fix hook reports that it changed a file (status $status)" test "$status" -ne 0
check "the file was fixed" grep -q 'description: "Extracts text: from PDF files' skills/pdf-tools/SKILL.md
git add -A
try skillforge-lint
check "the fixed file passes (status $status)" test "$status" -eq 0

echo "pre-commit: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
