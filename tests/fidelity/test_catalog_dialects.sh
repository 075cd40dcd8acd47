#!/usr/bin/env bash
# Catalog dialect fidelity against the real nagents 0.25.2 (manifest at several caps) and skills-ref
# 0.1.1 (to_prompt): builds the CLI, then runs test_catalog_dialects.py with the peers' Python
# (.venv-peers, or $PEERS_PYTHON). Prints "catalog dialect fidelity: N passed, N failed"; exits
# non-zero on any failure.
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
if [[ -z "${PEERS_PYTHON:-}" ]]; then
    "$repo/scripts/ensure-peers.sh"
fi
python="${PEERS_PYTHON:-$repo/.venv-peers/bin/python}"
if [[ -z "${SKILLFORGE_BIN:-}" ]]; then
    (cd "$repo" && cargo build --quiet -p skillforge-cli)
fi
exec "$python" "$repo/tests/fidelity/test_catalog_dialects.py" \
    --binary "${SKILLFORGE_BIN:-${CARGO_TARGET_DIR:-$repo/target}/debug/skillforge}" \
    --fixtures "$repo/tests/fixtures" "$@"
