#!/usr/bin/env bash
# The GitHub Action's lint step (action.yml): lints INPUT_PATHS with INPUT_PROFILES, annotates the pull
# request (`--format github`), writes the SARIF report to INPUT_SARIF_FILE, names it in GITHUB_OUTPUT and
# fails as INPUT_FAIL_LEVEL says: error, warning or never (unreadable input fails whatever the level).
set -euo pipefail

# Words are split on spaces and newlines (a YAML block lists one per line) and never glob-expanded.
set -f
paths=()
while read -r -a words; do
  paths+=("${words[@]}")
done <<<"${INPUT_PATHS:-}"
[ ${#paths[@]} -gt 0 ] || paths=(.)
profiles=()
while read -r -a words; do
  for profile in "${words[@]}"; do
    profiles+=(--profile "$profile")
  done
done <<<"${INPUT_PROFILES:-}"
set +f
level=${INPUT_FAIL_LEVEL:-error}
case "$level" in
  error | warning | never) ;;
  *) echo "::error title=skillforge::fail-level must be error, warning or never, not '$level'"; exit 2 ;;
esac
sarif=${INPUT_SARIF_FILE:-skillforge.sarif}
if ! { mkdir -p "$(dirname "$sarif")" && : >"$sarif"; } 2>/dev/null; then
  echo "::error title=skillforge::cannot write the SARIF report to $sarif"
  exit 2
fi

# Annotations on the pull request; the exit status is taken from the SARIF run below.
# `--` before the paths: a folder named like an option is linted, never taken as one.
skillforge lint "${profiles[@]}" --format github -- "${paths[@]}" || true
status=0
skillforge lint "${profiles[@]}" --format sarif -- "${paths[@]}" >"$sarif" || status=$?
if [ -n "${GITHUB_OUTPUT:-}" ]; then
  echo "sarif-file=$sarif" >>"$GITHUB_OUTPUT"
fi

if [ "$status" -ge 2 ]; then
  echo "::error title=skillforge::lint could not read its input (exit $status)"
  exit "$status"
fi
case "$level" in
  never) exit 0 ;;
  error) exit "$status" ;;
  warning)
    [ "$status" -eq 0 ] || exit "$status"
    warnings=$(python3 -c '
import json, sys
report = json.load(open(sys.argv[1], encoding="utf-8"))
print(sum(1 for run in report["runs"] for result in run["results"] if result.get("level") == "warning"))
' "$sarif")
    [ "$warnings" -eq 0 ] || { echo "$warnings warnings, and fail-level is warning"; exit 1; }
    ;;
esac
