"""The real GitHub Copilot CLI (`@github/copilot` 1.0.102) as an oracle, offline. Standard library only.

Isolation comes from tests/fidelity/real_clients.py (private network namespace with only the loopback, every
process in its own group stopped by its id, bounded runs, dead proxies): every run gets a fresh HOME (a temp
folder, optionally a copy of a template). The client unpacks its 235 MB package on first run into
`$XDG_CACHE_HOME/copilot/pkg`; XDG_CACHE_HOME points at `.xdg-cache` beside the install (outside the repository,
scripts/ensure-clients.sh), so it is unpacked once and reused by every run.

Two observations:
- `skill_list(project)`: `copilot skill list --json` (no model, no auth): the loaded skills (name, description,
  source, path of the folder) and the load errors the client prints on stderr (`  • PATH: MESSAGE` after
  `✖ The following skills failed to load:`; PATH relative to the working folder for its own skills).
- `section(project)`: one `copilot -p hi` in BYOK offline mode against a fake chat-completions endpoint on
  127.0.0.1 (COPILOT_OFFLINE=true, COPILOT_PROVIDER_BASE_URL, COPILOT_MODEL=gpt-5.4, COPILOT_PROVIDER_API_KEY):
  the exact `<skill>\\n<available_skills>…</available_skills>\\n</skill>` section of the system message the
  client sends, None when it sends none.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import real_clients as rc  # noqa: E402
from recording_server import RecordingServer  # noqa: E402

COPILOT_VERSION = "1.0.102"
# The system message's tool sections: the skills section sits between these two (docs/clients-observed.md).
SECTION_START = "<skill>\n<available_skills>\n"
SECTION_END = "</available_skills>\n</skill>"
ERROR_HEADER = "The following skills failed to load:"


def copilot_binary() -> str:
    """$COPILOT_BIN when set, else what scripts/ensure-clients.sh prints."""
    found = os.environ.get("COPILOT_BIN")
    if found:
        return found
    out = subprocess.run(
        [str(rc.REPO / "scripts" / "ensure-clients.sh")], capture_output=True, text=True, timeout=1800, check=False
    )
    if out.returncode != 0:
        raise rc.ClientError(f"scripts/ensure-clients.sh failed:\n{out.stderr}")
    for line in out.stdout.splitlines():
        key, _, value = line.partition("=")
        if key == "COPILOT_BIN":
            return value
    raise rc.ClientError("scripts/ensure-clients.sh printed no COPILOT_BIN")


def unpack_cache(binary: str) -> Path:
    """`PREFIX/.xdg-cache` for a binary at `PREFIX/node_modules/@github/copilot-PLATFORM/copilot`."""
    return Path(binary).resolve().parents[3] / ".xdg-cache"


def copilot_env(binary: str, home: Path, extra: dict[str, str] | None = None) -> dict[str, str]:
    env = rc._base_env(home)
    env.update({"XDG_CACHE_HOME": str(unpack_cache(binary)), "COPILOT_AUTO_UPDATE": "false", "NO_COLOR": "1"})
    env.update(extra or {})
    return env


class Home:
    """A fresh HOME (a copy of `template` when given), removed on exit."""

    def __init__(self, template: Path | None = None) -> None:
        self.root = Path(tempfile.mkdtemp(prefix="sf-copilot-"))
        self.path = self.root / "home"
        if template is not None:
            shutil.copytree(template, self.path, symlinks=True)
        else:
            self.path.mkdir()

    def __enter__(self) -> Path:
        return self.path

    def __exit__(self, *_exc) -> None:
        shutil.rmtree(self.root, ignore_errors=True)


@dataclass
class SkillList:
    skills: list[dict]
    # (path as printed, message)
    errors: list[tuple[str, str]]


def skill_list(binary: str, project: Path, home_template: Path | None = None, env: dict | None = None) -> SkillList:
    """`copilot skill list --json` started in `project`."""
    with Home(home_template) as home:
        run = rc.run_bounded([binary, "skill", "list", "--json"], project, copilot_env(binary, home, env))
    if run.returncode != 0:
        raise rc.ClientError(f"copilot skill list exited {run.returncode}: {run.stderr.decode(errors='replace')}")
    skills = json.loads(run.stdout)
    errors = []
    stderr = run.stderr.decode("utf-8", "replace")
    in_report = False
    for line in stderr.splitlines():
        if ERROR_HEADER in line:
            in_report = True
            continue
        if in_report and line.startswith("  • "):
            path, _, message = line[4:].partition(": ")
            errors.append((path, message))
    return SkillList(skills, errors)


def _chat_stream(model: str) -> bytes:
    chunks = [
        {"id": "c", "object": "chat.completion.chunk", "created": 0, "model": model,
         "choices": [{"index": 0, "delta": {"role": "assistant", "content": "ok"}, "finish_reason": None}]},
        {"id": "c", "object": "chat.completion.chunk", "created": 0, "model": model,
         "choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}],
         "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2}},
    ]
    return b"".join(f"data: {json.dumps(chunk)}\n\n".encode() for chunk in chunks) + b"data: [DONE]\n\n"


class FakeOpenAI(RecordingServer):
    """A chat-completions endpoint that answers `ok`, streamed when asked."""

    def answer(self, method: str, path: str, body: object) -> tuple[int, str, bytes]:
        if method != "POST":
            return 200, "application/json", b'{"object":"list","data":[{"id":"gpt-5.4","object":"model"}]}'
        body = body if isinstance(body, dict) else {}
        if not path.endswith("/chat/completions"):
            return 404, "application/json", b'{"error":{"message":"not found"}}'
        if body.get("stream"):
            return 200, "text/event-stream", _chat_stream(body.get("model", "m"))
        message = {"id": "c", "object": "chat.completion", "created": 0, "model": body.get("model", "m"),
                   "choices": [{"index": 0, "message": {"role": "assistant", "content": "ok"},
                                "finish_reason": "stop"}],
                   "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2}}
        return 200, "application/json", json.dumps(message).encode()

    @property
    def url(self) -> str:
        return f"{self.origin}/v1"


def system_message(binary: str, project: Path, home_template: Path | None = None, env: dict | None = None) -> str:
    """The system message of the one chat request `copilot -p hi` sends from `project`."""
    with FakeOpenAI() as server, Home(home_template) as home:
        extra = {"COPILOT_OFFLINE": "true", "COPILOT_PROVIDER_BASE_URL": server.url, "COPILOT_MODEL": "gpt-5.4",
                 "COPILOT_PROVIDER_API_KEY": "dummy", **(env or {})}
        run = rc.run_bounded(
            [binary, "-p", "hi", "--output-format", "json", "--no-auto-update", "--disable-client-telemetry",
             "--log-dir", str(home / "logs")],
            project,
            copilot_env(binary, home, extra),
        )
        bodies = [body for _, body in server.posted()
                  if isinstance(body, dict) and isinstance(body.get("messages"), list)]
    if run.returncode != 0 or not bodies:
        raise rc.ClientError(f"copilot -p exited {run.returncode}, {len(bodies)} requests: "
                             f"{run.stderr.decode(errors='replace')[-2000:]}")
    messages = bodies[0]["messages"]
    return "".join(
        message["content"] if isinstance(message["content"], str)
        else "".join(part.get("text", "") for part in message["content"])
        for message in messages
        if message.get("role") == "system"
    )


def section(binary: str, project: Path, home_template: Path | None = None, env: dict | None = None) -> str | None:
    """The exact skills section of the system message; None when the client sends none."""
    system = system_message(binary, project, home_template, env)
    start = system.find(SECTION_START)
    if start < 0:
        return None
    # The section is followed by the next tool's section; a description may hold the closing tags itself,
    # so the last closing before `\n<sql>` (the next section) ends it.
    limit = system.find("\n<sql>", start)
    end = system.rfind(SECTION_END, start, limit if limit >= 0 else len(system))
    if end < 0:
        raise rc.ClientError("the skills section is not closed")
    return system[start : end + len(SECTION_END)]


if __name__ == "__main__":
    rc.isolate_network(sys.argv)
    binary = copilot_binary()
    target = Path(sys.argv[1]).resolve()
    listed = skill_list(binary, target)
    print(json.dumps({"skills": listed.skills, "errors": listed.errors, "section": section(binary, target)},
                     indent=1, ensure_ascii=False))
