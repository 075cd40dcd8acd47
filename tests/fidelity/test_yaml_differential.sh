#!/usr/bin/env bash
# Differential test of the 10xgraph and nagents verdicts on thousands of seeded mutations of real
# SKILL.md files, against the real 10xgraph 0.10.3 and nagents 0.25.2: builds the CLI (or takes
# $SKILLFORGE_BIN), then runs test_yaml_differential.py with the peers' Python (.venv-peers, or
# $PEERS_PYTHON). Prints the counts and "yaml differential: N passed, N failed"; exits non-zero on any
# disagreement or too few cases.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
source "$here/common.bash"
python="$(fidelity_python)"
binary="$(fidelity_binary)"
exec "$python" "$here/test_yaml_differential.py" --binary "$binary" "$@"
