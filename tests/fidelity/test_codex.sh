#!/usr/bin/env bash
# Codex fidelity against the real Codex 0.171.0 binary: installs it when missing (scripts/ensure-clients.sh,
# pinned, into ~/.cache/skillforge/clients), builds the CLI (or takes $SKILLFORGE_BIN), then runs
# test_codex.py, which starts the binary in a private network namespace for every case. Prints
# "codex fidelity: N passed, N failed"; exits non-zero on any failure or too few cases.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
source "$here/common.bash"
binary="$(fidelity_binary)"
clients="$("$fidelity_repo/scripts/ensure-clients.sh")"
eval "$clients"
export CODEX_BIN CLAUDE_BIN
exec python3 "$here/test_codex.py" --binary "$binary" --fixtures "$fidelity_repo/tests/fixtures" "$@"
