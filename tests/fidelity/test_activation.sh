#!/usr/bin/env bash
# Activation fidelity against the real nagents 0.25.2 and 10xgraph 0.10.3: builds the CLI (or takes
# $SKILLFORGE_BIN), then runs test_activation.py with the peers' Python (.venv-peers, or $PEERS_PYTHON).
# Prints "activation fidelity: N passed, N failed"; exits non-zero on any failure or too few cases.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
source "$here/common.bash"
python="$(fidelity_python)"
binary="$(fidelity_binary)"
exec "$python" "$here/test_activation.py" --binary "$binary" --fixtures "$fidelity_repo/tests/fixtures" "$@"
