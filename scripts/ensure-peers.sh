#!/usr/bin/env bash
# Creates .venv-peers with the pinned peer libraries (nagents, 10xgraph, skills-ref) unless it already
# has exactly those versions. 10xgraph needs Python 3.12 or newer, taken from pyenv where present.
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
venv="$repo/.venv-peers"
pins=("nagents==0.25.2" "10xgraph==0.10.3" "skills-ref==0.1.1")

if [[ ! -x "$venv/bin/python" ]]; then
    python=""
    for candidate in "$HOME"/.pyenv/versions/3.12.*/bin/python3; do
        [[ -x "$candidate" ]] && python="$candidate"
    done
    # 10xgraph needs Python 3.12 or newer; fall back to whatever python3 is when pyenv has none.
    python="${python:-$(command -v python3)}"
    echo "creating $venv with $python" >&2
    "$python" -m venv "$venv"
fi

installed() {
    "$venv/bin/python" - "$@" <<'PY'
import sys
from importlib.metadata import version, PackageNotFoundError
for pin in sys.argv[1:]:
    name, wanted = pin.split("==")
    try:
        if version(name) != wanted:
            sys.exit(1)
    except PackageNotFoundError:
        sys.exit(1)
PY
}
if ! installed "${pins[@]}"; then
    "$venv/bin/pip" install --quiet "${pins[@]}"
fi

