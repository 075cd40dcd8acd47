#!/usr/bin/env bash
# Export fidelity: builds the CLI (or takes $SKILLFORGE_BIN), exports the fixture skills to every
# target and proves them with the real consumers — the wheel pip-installed beside nagents 0.25.2 in a
# fresh venv and driven by a real nagents Agent, compared with nagents' own directory discoverer on the
# source folder; the installed folder read by 10xGraph 0.10.3 — plus determinism and refusal cases.
# Uses .venv-peers (created by scripts/ensure-peers.sh) or $PEERS_PYTHON; nagents' wheels are fetched
# once into .venv-peers/wheelhouse. Prints "export fidelity: N passed, N failed".
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
source "$here/common.bash"
python="$(fidelity_python)"
binary="$(fidelity_binary)"
exec "$python" "$here/test_export.py" --binary "$binary" --fixtures "$fidelity_repo/tests/fixtures" "$@"
