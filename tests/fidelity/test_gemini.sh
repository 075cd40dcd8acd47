#!/usr/bin/env bash
# Gemini CLI fidelity against the real @google/gemini-cli 0.61.0: installs it when missing (scripts/ensure-clients.sh,
# pinned, into ~/.cache/skillforge/clients), builds the CLI (or takes $SKILLFORGE_BIN), then runs test_gemini.py,
# which starts the client in a private network namespace for every case. Prints
# "gemini fidelity: N passed, M failed"; exits non-zero on any failure or too few cases.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
source "$here/common.bash"
binary="$(fidelity_binary)"
clients="$("$fidelity_repo/scripts/ensure-clients.sh")"
eval "$clients"
export GEMINI_JS
exec python3 "$here/test_gemini.py" --binary "$binary" --fixtures "$fidelity_repo/tests/fixtures" "$@"
