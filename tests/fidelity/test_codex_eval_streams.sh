#!/usr/bin/env bash
# The committed `codex exec --json` streams of crates/skillforge-core/tests/fixtures/eval/codex must still be
# what the real Codex 0.171.0 prints: installs it when missing (scripts/ensure-clients.sh), captures every case
# again against the fake Responses endpoint (capture_codex_eval_streams.py --check, in a private network
# namespace) and compares. Prints "codex eval streams: N equal, N differ"; exits non-zero on any difference.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
source "$here/common.bash"
clients="$("$fidelity_repo/scripts/ensure-clients.sh")"
eval "$clients"
export CODEX_BIN CLAUDE_BIN
exec python3 "$here/capture_codex_eval_streams.py" --check "$@"
