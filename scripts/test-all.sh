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

# The committed generated files (the TypeScript bindings, and the engine's answers the UI test fakes
# replay) must be exactly what the code generates. They are regenerated here, in this step, by their
# export tests themselves (the "cargo test" step stops at the first failing test binary, so it may never
# reach the app's), and compared with HEAD's version: comparing with the index would let a staged but
# uncommitted file pass. A staged version that differs from HEAD fails too, since committing it would
# commit a file the code does not generate.
generated_unchanged() {
  local file=$1 test=$2
  local before="$log_dir/$(basename "$file").before"
  if ! git cat-file -e "HEAD:$file" 2>/dev/null; then
    echo "$file is not committed (untracked or only staged): commit the generated file"
    return 1
  fi
  # Moved aside so that a run that regenerates nothing cannot pass on the old file.
  mv "$file" "$before" || return 1
  cargo test -p skillforge-app --lib --locked -- --exact "$test" ||
    { mv "$before" "$file"; return 1; }
  if [ ! -f "$file" ]; then
    mv "$before" "$file"
    echo "the export test did not write $file (did it run?)"
    return 1
  fi
  rm -f "$before"
  if ! git show "HEAD:$file" | diff -u --label "HEAD:$file" - --label "$file (regenerated)" "$file"; then
    echo "the regenerated $file differs from HEAD's: commit it with the change that caused it"
    return 1
  fi
  if ! git diff --cached --exit-code --stat -- "$file"; then
    echo "the staged $file differs from what the code generates (and from HEAD's): unstage it"
    return 1
  fi
}

bindings_unchanged() {
  local failed=0
  generated_unchanged ui/src/lib/bindings.gen.ts tests::export_typescript_bindings || failed=1
  generated_unchanged ui/src/test/engine-answers.gen.json engine_answers::export_engine_answers || failed=1
  return $failed
}

step "cargo fmt" cargo fmt --all -- --check
step "cargo clippy" cargo clippy --workspace --all-targets --locked -- -D warnings
step "cargo test" cargo test --workspace --locked
# The fuzz targets are a workspace of their own (cargo-fuzz runs them on nightly); checking that they
# build on stable keeps them in step with the engine's API.
step "fuzz targets" cargo check --manifest-path fuzz/Cargo.toml --bins --locked
step "bindings drift" bindings_unchanged
step "integrations" tests/integrations/run.sh
step "svelte-check" npm --prefix ui run --silent check
step "vitest" npm --prefix ui run --silent test
step "vscode extension" bash -c "npm --prefix editors/vscode run --silent check && npm --prefix editors/vscode run --silent test"
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
