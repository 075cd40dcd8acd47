#!/usr/bin/env bash
# Lint fidelity against the real skills-ref 0.1.1 and 10xgraph 0.10.3: builds the CLI, then runs
# test_lint.py with the peers' Python (.venv-peers, as tests/fidelity/run.sh prepares it, or
# $PEERS_PYTHON). Prints "lint fidelity: N passed, N failed"; exits non-zero on any failure.
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
python="${PEERS_PYTHON:-$repo/.venv-peers/bin/python}"
if [[ ! -x "$python" ]]; then
    echo "no peer Python at $python; run tests/fidelity/run.sh once, or set PEERS_PYTHON" >&2
    exit 2
fi
if [[ -z "${SKILLFORGE_BIN:-}" ]]; then
    (cd "$repo" && cargo build --quiet -p skillforge-cli)
fi
exec "$python" "$repo/tests/fidelity/test_lint.py" \
    --binary "${SKILLFORGE_BIN:-$repo/target/debug/skillforge}" \
    --fixtures "$repo/crates/skillforge-core/tests/fixtures/lint" "$@"
