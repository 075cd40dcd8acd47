#!/usr/bin/env bash
# Fidelity against the real peers: installs the pinned packages in .venv-peers (once), builds the
# CLI, then compares its output byte for byte with what nagents itself produces.
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
venv="$repo/.venv-peers"
"$repo/scripts/ensure-peers.sh"

(cd "$repo" && cargo build --quiet -p skillforge-cli)

exec "$venv/bin/python" "$repo/tests/fidelity/test_nagents.py" \
    --binary "${SKILLFORGE_BIN:-${CARGO_TARGET_DIR:-$repo/target}/debug/skillforge}" \
    --fixtures "$repo/tests/fixtures" "$@"
