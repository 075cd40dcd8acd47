#!/usr/bin/env bash
# GitHub Copilot CLI fidelity against the real Copilot CLI 1.0.102 binary: installs it when missing
# (scripts/ensure-clients.sh, pinned, into ~/.cache/skillforge/clients), builds the CLI (or takes $SKILLFORGE_BIN),
# then runs test_copilot.py, which starts the binary in a private network namespace for every case. Prints
# "copilot fidelity: N passed, N failed"; exits non-zero on any failure or too few cases.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
source "$here/common.bash"
binary="$(fidelity_binary)"
clients="$("$fidelity_repo/scripts/ensure-clients.sh")"
eval "$clients"
export COPILOT_BIN
exec python3 "$here/test_copilot.py" --binary "$binary" "$@"
