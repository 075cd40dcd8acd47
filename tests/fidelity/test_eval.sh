#!/usr/bin/env bash
# `skillforge eval` against the real Claude Code and Codex binaries with a scripted model endpoint on 127.0.0.1:
# installs the pinned clients when missing (scripts/ensure-clients.sh, outside the repository), builds the CLI (or
# takes $SKILLFORGE_BIN), then runs test_eval.py (standard library only; it re-executes itself in a private network
# namespace). Prints "eval fidelity: N passed, N failed"; exits non-zero on any failure or too few cases.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
source "$here/common.bash"
eval "$("$fidelity_repo/scripts/ensure-clients.sh")"
export CODEX_BIN CLAUDE_BIN
binary="$(fidelity_binary)"
exec python3 "$here/test_eval.py" --binary "$binary" "$@"
