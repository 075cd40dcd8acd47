#!/usr/bin/env bash
# The doors into editors and CI, each with the real tool: the language server in Neovim, the pre-commit
# hooks through pre-commit, the GitHub Action's steps. Prints `integrations: N passed, N failed`.
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
if [ -z "${SKILLFORGE_BIN:-}" ]; then
  source "$repo/bench/lib.sh"
  SKILLFORGE_BIN=$(cd "$repo" && built_executable -p skillforge-cli --bin skillforge) || exit 1
fi
export SKILLFORGE_BIN
passed=0 failed=0
for suite in "$repo/tests/editors/neovim.sh" "$here/pre-commit.sh" "$here/action.sh"; do
  echo "--- $(basename "$suite")"
  if "$suite"; then passed=$((passed + 1)); else failed=$((failed + 1)); fi
done
echo "integrations: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
