#!/usr/bin/env bash
# Export fidelity: builds the CLI, exports the fixture skills to every target and proves them with the
# real consumers — the wheel pip-installed beside nagents 0.25.2 in a fresh venv and driven by a real
# nagents Agent, the installed folder read by 10xGraph 0.10.3 — plus determinism and refusal cases.
# Uses .venv-peers (created by scripts/ensure-peers.sh) or $PEERS_PYTHON; nagents' wheels are fetched
# once into .venv-peers/wheelhouse. Prints "export fidelity: N passed, N failed".
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
if [[ -z "${PEERS_PYTHON:-}" ]]; then
    "$repo/scripts/ensure-peers.sh"
fi
python="${PEERS_PYTHON:-$repo/.venv-peers/bin/python}"
if [[ -z "${SKILLFORGE_BIN:-}" ]]; then
    (cd "$repo" && cargo build --quiet -p skillforge-cli)
fi
exec "$python" "$repo/tests/fidelity/test_export.py" \
    --binary "${SKILLFORGE_BIN:-${CARGO_TARGET_DIR:-$repo/target}/debug/skillforge}" \
    --fixtures "$repo/tests/fixtures" "$@"
