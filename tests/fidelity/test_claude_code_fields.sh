#!/usr/bin/env bash
# Claude Code 2.1.332's own frontmatter fields against the real binary: installs the pinned client when
# missing (scripts/ensure-clients.sh, into a cache folder outside the repository), builds the CLI (or takes
# $SKILLFORGE_BIN), then runs test_claude_code_fields.py (standard library only; it re-executes itself in a
# private network namespace). Prints "claude code fields fidelity: N passed, N failed"; exits non-zero on any
# failure or too few cases.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
source "$here/common.bash"
eval "$("$fidelity_repo/scripts/ensure-clients.sh")"
export CODEX_BIN CLAUDE_BIN
binary="$(fidelity_binary)"
exec python3 "$here/test_claude_code_fields.py" --binary "$binary" "$@"
