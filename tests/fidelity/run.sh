#!/usr/bin/env bash
# Fidelity against the real peers: installs the pinned packages in .venv-peers (once), builds the
# CLI (or takes $SKILLFORGE_BIN), then compares catalog, manifest and load byte for byte with what
# nagents itself produces. Prints "fidelity: N passed, N failed"; exits non-zero on any failure or
# when fewer cases than the suite's committed minimum ran.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
source "$here/common.bash"
python="$(fidelity_python)"
binary="$(fidelity_binary)"
exec "$python" "$here/test_nagents.py" --binary "$binary" --fixtures "$fidelity_repo/tests/fixtures" "$@"
