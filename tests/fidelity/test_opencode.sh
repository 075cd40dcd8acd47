#!/usr/bin/env bash
# OpenCode fidelity against the real OpenCode 1.18.33 binary: installs it when missing (scripts/ensure-clients.sh,
# pinned, into ~/.cache/skillforge/clients), builds the CLI (or takes $SKILLFORGE_BIN), then runs test_opencode.py,
# which starts the binary in a private network namespace for every case. Prints
# "opencode fidelity: N passed, N failed"; exits non-zero on any failure or too few cases.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
source "$here/common.bash"
binary="$(fidelity_binary)"
clients="$("$fidelity_repo/scripts/ensure-clients.sh")"
eval "$clients"
export OPENCODE_BIN
exec python3 "$here/test_opencode.py" --binary "$binary" "$@"
