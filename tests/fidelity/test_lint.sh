#!/usr/bin/env bash
# Lint fidelity against the real skills-ref 0.1.1, 10xgraph 0.10.3 and nagents 0.25.2: builds the CLI
# (or takes $SKILLFORGE_BIN), then runs test_lint.py with the peers' Python (.venv-peers, or
# $PEERS_PYTHON). Prints "lint fidelity: N passed, N failed"; exits non-zero on any failure or too
# few cases.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
source "$here/common.bash"
python="$(fidelity_python)"
binary="$(fidelity_binary)"
exec "$python" "$here/test_lint.py" --binary "$binary" --fixtures "$fidelity_repo/crates/skillforge-core/tests/fixtures/lint" "$@"
