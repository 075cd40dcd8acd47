# Sourced by the fidelity runners (not a suite itself: all.sh runs only *.sh files).
#
# fidelity_binary prints the skillforge binary to test: $SKILLFORGE_BIN when set (nothing is built),
# else the `executable` cargo reports for the skillforge bin artifact of `cargo build -p skillforge-cli`,
# so CARGO_TARGET_DIR, build profiles and target triples are honoured without guessing a path.
# fidelity_python prints the peers' Python: $PEERS_PYTHON when set, else .venv-peers (created and
# pinned by scripts/ensure-peers.sh).

fidelity_repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"

fidelity_binary() {
    if [[ -n "${SKILLFORGE_BIN:-}" ]]; then
        printf '%s\n' "$SKILLFORGE_BIN"
        return
    fi
    local messages executable
    messages="$(cd "$fidelity_repo" && cargo build --quiet -p skillforge-cli --message-format=json)" || {
        echo "cargo build -p skillforge-cli failed" >&2
        return 1
    }
    executable="$(printf '%s\n' "$messages" | python3 -c '
import json, sys
found = []
for line in sys.stdin:
    if not line.startswith("{"):
        continue
    message = json.loads(line)
    if (message.get("reason") == "compiler-artifact" and message.get("executable")
            and message["target"]["name"] == "skillforge" and "bin" in message["target"]["kind"]):
        found.append(message["executable"])
if len(found) != 1:
    sys.exit(f"expected one skillforge bin artifact from cargo, found {found}")
print(found[0])
')" || return 1
    printf '%s\n' "$executable"
}

fidelity_python() {
    if [[ -n "${PEERS_PYTHON:-}" ]]; then
        printf '%s\n' "$PEERS_PYTHON"
        return
    fi
    "$fidelity_repo/scripts/ensure-peers.sh"
    printf '%s\n' "$fidelity_repo/.venv-peers/bin/python"
}
