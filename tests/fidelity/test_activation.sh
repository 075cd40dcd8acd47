#!/usr/bin/env bash
# Activation fidelity against the real nagents 0.25.2 and 10xgraph 0.10.3: builds the CLI, then runs
# test_activation.py with the peers' Python (.venv-peers, as tests/fidelity/run.sh prepares it, or
# $PEERS_PYTHON). Prints "activation fidelity: N passed, N failed"; exits non-zero on any failure.
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
if [[ -z "${PEERS_PYTHON:-}" ]]; then
    "$repo/scripts/ensure-peers.sh"
fi
python="${PEERS_PYTHON:-$repo/.venv-peers/bin/python}"
if [[ -z "${SKILLFORGE_BIN:-}" ]]; then
    (cd "$repo" && cargo build --quiet -p skillforge-cli)
fi
exec "$python" "$repo/tests/fidelity/test_activation.py" \
    --binary "${SKILLFORGE_BIN:-$repo/target/debug/skillforge}" \
    --fixtures "$repo/tests/fixtures" "$@"
