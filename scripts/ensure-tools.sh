#!/usr/bin/env bash
# Creates .venv-tools with the pinned Python tools the integration tests drive (pre-commit, and
# check-jsonschema with its bundled GitHub schemas) unless it already has exactly those versions.
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
venv="$repo/.venv-tools"
pins=("pre-commit==4.0.1" "check-jsonschema==0.29.4")

if [[ ! -x "$venv/bin/python" ]]; then
    echo "creating $venv" >&2
    python3 -m venv "$venv"
fi
if ! "$venv/bin/python" - "${pins[@]}" <<'PY'
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
then
    "$venv/bin/pip" install --quiet "${pins[@]}"
fi
