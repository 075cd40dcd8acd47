#!/usr/bin/env bash
# Runs every check `make test` promises, in order, and prints one line per step and a summary.
# Every step runs even when an earlier one failed, so one run shows everything that is wrong.
set -uo pipefail
cd "$(dirname "$0")/.."

steps=() results=() durations=()
failed=0 passed=0
log_dir=target/test-logs
mkdir -p "$log_dir"

step() {
  local name=$1; shift
  local log="$log_dir/${name// /-}.log" start=$SECONDS
  printf '==> %s\n' "$name"
  if "$@" >"$log" 2>&1; then
    results+=(ok); passed=$((passed + 1))
  else
    results+=(FAILED); failed=$((failed + 1))
    # Show the end of the log right away; the whole log stays under target/test-logs/.
    tail -n 60 "$log" | sed 's/^/    /'
  fi
  steps+=("$name"); durations+=($((SECONDS - start)))
}

# The files `cargo test` regenerates (the TypeScript bindings, the engine's answers the UI fakes replay) must
# be committed and unchanged by the run.
bindings_unchanged() {
  local generated=(ui/src/lib/bindings.gen.ts ui/src/test/engine-answers.gen.json)
  git ls-files --error-unmatch "${generated[@]}" >/dev/null &&
    git diff --exit-code --stat -- "${generated[@]}"
}

step "cargo fmt" cargo fmt --all -- --check
step "cargo clippy" cargo clippy --workspace --all-targets --locked -- -D warnings
step "cargo test" cargo test --workspace --locked
step "bindings drift" bindings_unchanged
step "svelte-check" npm --prefix ui run --silent check
step "vitest" npm --prefix ui run --silent test
step "fidelity" tests/fidelity/all.sh
step "app build" cargo build -p skillforge-app --locked
step "e2e" tests/e2e/run.sh

echo
echo "Summary (logs in $log_dir/):"
for i in "${!steps[@]}"; do
  printf '  %-16s %-7s %4ss\n' "${steps[$i]}" "${results[$i]}" "${durations[$i]}"
done
echo "steps: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
