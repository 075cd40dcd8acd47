# Shared by the bench scripts (sourced, not run).

# built_executable CARGO_BUILD_ARGUMENTS...: builds with cargo and prints the path of the one executable
# that build produced, as cargo reports it. So the binary measured is the one just built wherever cargo
# puts it (CARGO_TARGET_DIR, CARGO_BUILD_TARGET_DIR, a relative target dir, a config file), never a stale
# one from a guessed path. Fails unless the build succeeds and names exactly one executable.
built_executable() {
    local messages paths count
    messages="$(cargo build --quiet --locked --message-format=json-render-diagnostics "$@")" || {
        echo "cargo build $* failed" >&2
        return 1
    }
    paths="$(python3 -c '
import json, sys
for line in sys.stdin:
    if not line.startswith("{"):
        continue
    message = json.loads(line)
    if message.get("reason") == "compiler-artifact" and message.get("executable"):
        print(message["executable"])
' <<<"$messages")" || return 1
    count="$(grep -c . <<<"$paths" || true)"
    if [[ "$count" -ne 1 ]]; then
        echo "cargo build $* produced $count executables, expected one:" >&2
        printf '%s\n' "$paths" >&2
        return 1
    fi
    [[ -x "$paths" ]] || { echo "cargo named $paths, which is not an executable file" >&2; return 1; }
    printf '%s\n' "$paths"
}

# skillforge_binary: the release `skillforge` CLI, or SKILLFORGE_BIN when set (as in the fidelity suite).
skillforge_binary() {
    if [[ -n "${SKILLFORGE_BIN:-}" ]]; then
        [[ -x "$SKILLFORGE_BIN" ]] || { echo "SKILLFORGE_BIN=$SKILLFORGE_BIN is not executable" >&2; return 1; }
        printf '%s\n' "$SKILLFORGE_BIN"
    else
        built_executable --release -p skillforge-cli --bin skillforge
    fi
}
