#!/usr/bin/env bash
# Runs every fidelity suite against the real peer libraries: run.sh first (it creates .venv-peers and
# builds the CLI), then each other tests/fidelity/*.sh. Every suite runs even when one fails.
set -uo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"

suites=("$here/run.sh")
for suite in "$here"/*.sh; do
  case "$(basename "$suite")" in all.sh | run.sh) ;; *) suites+=("$suite") ;; esac
done

failed=0
for suite in "${suites[@]}"; do
  echo "--- $(basename "$suite")"
  "$suite" || failed=$((failed + 1))
done
echo "fidelity suites: $((${#suites[@]} - failed)) passed, $failed failed"
[ "$failed" -eq 0 ]
