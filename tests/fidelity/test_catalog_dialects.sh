#!/usr/bin/env bash
# Catalog dialect fidelity against the real nagents 0.25.2 (manifest at several caps) and skills-ref
# 0.1.1 (to_prompt): builds the CLI (or takes $SKILLFORGE_BIN), then runs test_catalog_dialects.py with
# the peers' Python (.venv-peers, or $PEERS_PYTHON). Prints "catalog dialect fidelity: N passed, N
# failed"; exits non-zero on any failure or too few cases.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
source "$here/common.bash"
python="$(fidelity_python)"
binary="$(fidelity_binary)"
exec "$python" "$here/test_catalog_dialects.py" --binary "$binary" --fixtures "$fidelity_repo/tests/fixtures" "$@"
