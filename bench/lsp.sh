#!/usr/bin/env bash
# The language server's keystroke latency: `skillforge lsp` (release build) holds a 300 KB SKILL.md open;
# each of N one-character edits (textDocument/didChange) is timed until the publishDiagnostics of that
# version arrives (goal: p95 < 20 ms). Baseline in the same run, same process, same pipe: the round trip of
# a request the server answers without linting (an unknown method), so the transport's share is visible.
# Prints figures and ratios only; nothing here asserts wall-clock time.
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
source "$repo/bench/lib.sh"
binary="$(cd "$repo" && built_executable --release -p skillforge-cli --bin skillforge)"
scratch="$(mktemp -d "${TMPDIR:-/tmp}/skillforge-lsp-bench.XXXXXX")"
trap 'rm -rf "$scratch"' EXIT

python3 - "$binary" "$scratch" "${EDITS:-300}" <<'PY'
import json, os, subprocess, sys, time
from pathlib import Path

binary, scratch, edits = sys.argv[1], Path(sys.argv[2]), int(sys.argv[3])
skill = scratch / "skills" / "big-skill"
(skill / "references").mkdir(parents=True)
(skill / "references" / "guide.md").write_text("# Guide\n")
head = "---\nname: big-skill\ndescription: A large skill for timing. Use when measuring the language server.\n---\n\n"
paragraph = ("Step {i}: read [the guide](references/guide.md) and check the `output` of each tool before "
             "going on; keep notes in a list.\n\n- item one\n- item two with **bold** text\n\n")
body, i = [], 0
while len(head) + sum(map(len, body)) < 300_000:
    body.append(paragraph.format(i=i))
    i += 1
text = head + "".join(body)
(skill / "SKILL.md").write_text(text)
uri = (skill / "SKILL.md").as_uri()

server = subprocess.Popen([binary, "lsp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE)

def send(message):
    payload = json.dumps(message).encode()
    server.stdin.write(b"Content-Length: %d\r\n\r\n" % len(payload) + payload)
    server.stdin.flush()

def receive():
    length = None
    while True:
        line = server.stdout.readline()
        if not line:
            sys.exit("the server closed its output")
        if line in (b"\r\n", b"\n"):
            break
        name, _, value = line.decode().partition(":")
        if name.lower() == "content-length":
            length = int(value)
    return json.loads(server.stdout.read(length))

def until(predicate):
    while True:
        message = receive()
        if predicate(message):
            return message

root = (scratch / "skills").as_uri()
send({"jsonrpc": "2.0", "id": 1, "method": "initialize",
      "params": {"processId": None, "rootUri": root, "capabilities": {},
                 "workspaceFolders": [{"uri": root, "name": "skills"}]}})
until(lambda m: m.get("id") == 1)
send({"jsonrpc": "2.0", "method": "initialized", "params": {}})
send({"jsonrpc": "2.0", "method": "textDocument/didOpen",
      "params": {"textDocument": {"uri": uri, "languageId": "markdown", "version": 1, "text": text}}})
published = lambda version: lambda m: (m.get("method") == "textDocument/publishDiagnostics"
                                       and m["params"]["uri"] == uri and m["params"].get("version") == version)
until(published(1))

line = text.count("\n") // 2
keystrokes, transport = [], []
for n in range(edits):
    version = n + 2
    # Type a character in the middle of the body, then take it back: the text stays 300 KB.
    change = ({"range": {"start": {"line": line, "character": 0}, "end": {"line": line, "character": 0}}, "text": "x"}
              if n % 2 == 0 else
              {"range": {"start": {"line": line, "character": 0}, "end": {"line": line, "character": 1}}, "text": ""})
    start = time.perf_counter()
    send({"jsonrpc": "2.0", "method": "textDocument/didChange",
          "params": {"textDocument": {"uri": uri, "version": version}, "contentChanges": [change]}})
    until(published(version))
    keystrokes.append(time.perf_counter() - start)
    start = time.perf_counter()
    send({"jsonrpc": "2.0", "id": 1000 + n, "method": "skillforge/timing", "params": {}})
    until(lambda m, ident=1000 + n: m.get("id") == ident)
    transport.append(time.perf_counter() - start)

send({"jsonrpc": "2.0", "id": 2, "method": "shutdown", "params": None})
until(lambda m: m.get("id") == 2)
send({"jsonrpc": "2.0", "method": "exit", "params": None})
server.wait(timeout=30)

def percentile(values, p):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]

p50, p95 = percentile(keystrokes, 50) * 1000, percentile(keystrokes, 95) * 1000
t95 = percentile(transport, 95) * 1000
print(f"lsp_skill_md_kilobytes {len(text.encode()) / 1000:.0f}")
print(f"lsp_edits {edits}")
print(f"lsp_did_change_to_diagnostics_p50_ms {p50:.2f}")
print(f"lsp_did_change_to_diagnostics_p95_ms {p95:.2f}  (goal < 20)")
print(f"lsp_transport_round_trip_p95_ms {t95:.2f}  (baseline: a request answered without linting)")
print(f"lsp_keystroke_to_transport_ratio {p95 / t95:.1f}")
PY
