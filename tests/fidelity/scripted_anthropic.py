"""A Messages-API endpoint on 127.0.0.1 scripted per query, for trigger evals against the real Claude Code.

Library: `ScriptedAnthropic(script)` (see its doc). CLI, for tests written in other languages (the app's e2e specs):

  scripted_anthropic.py --script FILE --ready FILE

serves until stdin closes or SIGTERM; FILE holds {"QUERY": [["skill", "pdf"], ["text"], ...], ...}. When it listens it
writes {"url": ...} to the --ready file; every agent turn it answered is appended to the --log file as one JSON line
{"query", "action"} when --log is given.
"""

from __future__ import annotations

import argparse
import json
import re
import signal
import sys
import threading
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import real_clients  # noqa: E402
from real_clients import FakeAnthropic, tool_use  # noqa: E402

# Actions a scripted endpoint takes for a query.
SKILL, READ, TEXT, ERROR, HANG = "skill", "read", "text", "error", "hang"


class ScriptedAnthropic(FakeAnthropic):
    """A Messages endpoint that answers each agent turn by the query it carries: `script` maps a query to the
    actions of its successive runs (the n-th request for that query takes the n-th action, the last one
    repeating). An action is (SKILL, name), (READ, skill folder), (TEXT,), (ERROR, status) or (HANG,)."""

    def __init__(self, script: dict[str, list[tuple]], log: Path | None = None) -> None:
        super().__init__()
        self.log = log
        self.script = script
        self.seen: dict[str, int] = {}
        self.agent_turns: list[dict] = []
        self.release = threading.Event()

    def query_of(self, body: dict) -> str | None:
        text = json.dumps(body.get("messages", []))
        found = [query for query in self.script if json.dumps(query)[1:-1] in text]
        return max(found, key=len) if found else None

    def answer(self, method, path, body):
        if method != "POST" or not path.endswith("/v1/messages") or not isinstance(body, dict) or not isinstance(
            body.get("tools"), list
        ):
            return super().answer(method, path, body)
        query = self.query_of(body)
        with self.lock:
            self.agent_turns.append(body)
            count = self.seen.get(query, 0)
            self.seen[query] = count + 1
        actions = self.script.get(query) or [(TEXT,)]
        action = actions[min(count, len(actions) - 1)]
        if self.log is not None:
            with self.lock, self.log.open("a") as log:
                log.write(json.dumps({"query": query, "action": list(action)}) + "\n")
        model = body.get("model", "claude-fidelity")
        if action[0] == HANG:
            self.release.wait(600)
            return 500, "application/json", b"{}"
        if action[0] == ERROR:
            error = {"type": "error", "error": {"type": "invalid_request_error", "message": "scripted failure"}}
            return action[1], "application/json", json.dumps(error).encode()
        if action[0] == SKILL:
            blocks = [tool_use("Skill", {"skill": action[1]}, f"toolu_{count}")]
        elif action[0] == READ:
            project = re.search(r"(/[^\"\s]*?skillforge-eval-[^/\"\s]+/project)", json.dumps(body))
            where = project.group(1) if project else "/nonexistent"
            blocks = [tool_use("Read", {"file_path": f"{where}/.claude/skills/{action[1]}/SKILL.md"}, f"toolu_{count}")]
        else:
            blocks = [{"type": "text", "text": "Here is an answer without any skill."}]
        stream = real_clients._stream("ok", model, blocks)
        return 200, "text/event-stream", stream

    def __exit__(self, *exc) -> None:
        self.release.set()
        super().__exit__(*exc)




def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--script", required=True, type=Path)
    parser.add_argument("--ready", required=True, type=Path)
    parser.add_argument("--log", type=Path)
    args = parser.parse_args(argv[1:])
    script = {query: [tuple(action) for action in actions] for query, actions in json.loads(args.script.read_text()).items()}
    done = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: done.set())
    threading.Thread(target=lambda: (sys.stdin.read(), done.set()), daemon=True).start()
    with ScriptedAnthropic(script, args.log) as server:
        args.ready.write_text(json.dumps({"url": server.url}))
        done.wait()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
