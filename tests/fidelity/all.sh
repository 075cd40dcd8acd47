#!/usr/bin/env bash
# Runs every fidelity suite against the real peer libraries and clients: run.sh first (it creates
# .venv-peers and builds the CLI), then each other tests/fidelity/*.sh, FIDELITY_JOBS at a time (default
# 2: the suites mostly wait on client processes). Each suite's output is printed whole when it ends, in
# the order the suites are listed, with its time. Every suite runs even when one fails.
set -uo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
jobs="${FIDELITY_JOBS:-2}"

suites=()
for suite in "$here"/*.sh; do
  case "$(basename "$suite")" in all.sh | run.sh) ;; *) suites+=("$suite") ;; esac
done

logs="$(mktemp -d "${TMPDIR:-/tmp}/skillforge-fidelity.XXXXXX")"
trap 'rm -rf "$logs"' EXIT

# run_suite SUITE: its output and exit code into $logs, with the seconds it took.
run_suite() {
  local suite="$1" name start
  name="$(basename "$suite")"
  start=$SECONDS
  "$suite" >"$logs/$name.out" 2>&1
  echo "$?" >"$logs/$name.code"
  echo "$((SECONDS - start))" >"$logs/$name.seconds"
}

report() {
  local name="$1"
  echo "--- $name ($(cat "$logs/$name.seconds") s)"
  cat "$logs/$name.out"
}

failed=0
run_suite "$here/run.sh"
report run.sh
[ "$(cat "$logs/run.sh.code")" = 0 ] || failed=$((failed + 1))

# The real clients are installed once here, before suites that need them run side by side: two npm
# installs into one prefix would race.
echo "--- installing the pinned clients when missing"
"$here/../../scripts/ensure-clients.sh" >/dev/null || echo "scripts/ensure-clients.sh failed; the client suites will say why"

running=0
for suite in "${suites[@]}"; do
  if [ "$running" -ge "$jobs" ]; then
    wait -n
    running=$((running - 1))
  fi
  run_suite "$suite" &
  running=$((running + 1))
done
wait

for suite in "${suites[@]}"; do
  name="$(basename "$suite")"
  report "$name"
  [ "$(cat "$logs/$name.code" 2>/dev/null)" = 0 ] || failed=$((failed + 1))
done
echo "fidelity suites: $((${#suites[@]} + 1 - failed)) passed, $failed failed"
[ "$failed" -eq 0 ]
