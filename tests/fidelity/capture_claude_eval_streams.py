"""Captures what the real Claude Code 2.1.332 prints with `-p --output-format stream-json --verbose --max-turns 1`
for the model answers a trigger eval must tell apart, into crates/skillforge-core/tests/fixtures/eval/claude-code/:

- skill-tool.jsonl: the model calls the Skill tool for the project's skill `pdf`;
- read-skill-file.jsonl: the model reads `.claude/skills/pdf/SKILL.md` with the Read tool;
- text.jsonl: the model answers in plain text;
- api-error.jsonl: the endpoint answers 400.

The run's temporary folder is written as @SANDBOX@ and the session and message ids are kept as the client printed
them. Usage: capture_claude_eval_streams.py (re-executes itself in a private network namespace; the binary comes
from $CLAUDE_BIN or scripts/ensure-clients.sh). The Rust tests of `clients::claude_code::run` read these files.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import real_clients  # noqa: E402
from real_clients import FakeAnthropic, Sandbox, claude_env, run_bounded, tool_use  # noqa: E402

OUT = HERE.parents[1] / "crates" / "skillforge-core" / "tests" / "fixtures" / "eval" / "claude-code"


class Failing(FakeAnthropic):
    def answer(self, method, path, body):
        if method == "POST" and path.endswith("/v1/messages") and isinstance(body, dict) and body.get("tools"):
            error = {"type": "error", "error": {"type": "invalid_request_error", "message": "scripted failure"}}
            return 400, "application/json", json.dumps(error).encode()
        return super().answer(method, path, body)


def capture(name: str, server_of) -> None:
    _codex, claude = real_clients.client_binaries()
    with Sandbox() as sandbox:
        project = sandbox.root / "project"
        skill = project / ".claude" / "skills" / "pdf"
        skill.mkdir(parents=True)
        (skill / "SKILL.md").write_text("---\nname: pdf\ndescription: Fill PDF forms.\n---\nFill forms.\n")
        with server_of(project) as server:
            run = run_bounded(
                [claude, "-p", "--output-format", "stream-json", "--verbose", "--max-turns", "1"],
                project, claude_env(sandbox.home, server.url), stdin=b"Fill my PDF form",
            )
        text = run.stdout.decode().replace(str(sandbox.root), "@SANDBOX@")
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / f"{name}.jsonl").write_text(text)
    print(f"{name}: exit {run.returncode}, {len(text.splitlines())} lines", file=sys.stderr)


def main(argv: list[str]) -> int:
    real_clients.isolate_network(argv)
    capture("skill-tool", lambda project: FakeAnthropic(replies=[[tool_use("Skill", {"skill": "pdf"})]]))
    capture("read-skill-file", lambda project: FakeAnthropic(
        replies=[[tool_use("Read", {"file_path": str(project / ".claude/skills/pdf/SKILL.md")})]]))
    capture("text", lambda project: FakeAnthropic())
    capture("api-error", lambda project: Failing())
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
