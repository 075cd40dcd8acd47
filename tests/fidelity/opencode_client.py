"""Runs the real OpenCode CLI (opencode-ai 1.18.33) offline on a project folder, for the fidelity suite.

Standard library only. The network namespace, bounded processes and killing by process group come from
real_clients.py (imported); what is OpenCode's own is here:

- a fake OpenAI-compatible endpoint on 127.0.0.1 that records every request and answers
  `POST /v1/chat/completions` with a minimal streamed reply (`ok`), which the client is pointed at through a
  custom provider (`@ai-sdk/openai-compatible` ships inside the binary, so nothing is installed);
- the environment: an empty HOME (or a given template copied in) with every XDG folder inside it, the config
  in OPENCODE_CONFIG, autoupdate / models.dev / share off, dead proxies;
- `system_section(requests)`: the skills section of the agent request's system message (from "Skills provide
  specialized…" to its end; OpenCode puts it last, with no newline after);
- `debug_skill(...)`: `opencode debug skill`, every loaded skill as JSON, no model involved.

The project is run where it is: callers put it in a fresh temp folder, because OpenCode walks up to `/`
outside a git repository and writes `.opencode/.gitignore` into every `.opencode` folder it uses.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path

import real_clients as rc
from recording_server import RecordingServer

VERSION = "1.18.33"
SKILLS_HEAD = "Skills provide specialized instructions and workflows for specific tasks.\n"
RUN_TIMEOUT = 120.0


def binary() -> str:
    """The native binary scripts/ensure-clients.sh installed (OPENCODE_BIN)."""
    path = os.environ.get("OPENCODE_BIN")
    if not path or not os.access(path, os.X_OK):
        raise rc.ClientError("OPENCODE_BIN is not set to an executable; run scripts/ensure-clients.sh")
    return path


def _stream(model: str) -> bytes:
    base = {"id": "chatcmpl-fidelity", "object": "chat.completion.chunk", "created": 1, "model": model}
    events = [
        dict(base, choices=[{"index": 0, "delta": {"role": "assistant", "content": "ok"}, "finish_reason": None}]),
        dict(base, choices=[{"index": 0, "delta": {}, "finish_reason": "stop"}],
             usage={"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2}),
    ]
    return b"".join(b"data: " + json.dumps(e).encode() + b"\n\n" for e in events) + b"data: [DONE]\n\n"


class FakeOpenAI(RecordingServer):
    """Answers chat completions with the text "ok", streamed."""

    def answer(self, method: str, path: str, body: object) -> tuple[int, str, bytes]:
        if method != "POST":
            return 200, "application/json", b'{"object":"list","data":[]}'
        model = body.get("model", "m1") if isinstance(body, dict) else "m1"
        return 200, "text/event-stream", _stream(model)


def environment(home: Path, config_file: Path) -> dict[str, str]:
    env = {
        "PATH": "/usr/local/bin:/usr/bin:/bin",
        "HOME": str(home),
        "XDG_CONFIG_HOME": str(home / ".config"),
        "XDG_DATA_HOME": str(home / ".local/share"),
        "XDG_CACHE_HOME": str(home / ".cache"),
        "XDG_STATE_HOME": str(home / ".local/state"),
        "LANG": "C.UTF-8",
        "TERM": "dumb",
        "OPENCODE_CONFIG": str(config_file),
        "OPENCODE_DISABLE_AUTOUPDATE": "1",
        "OPENCODE_DISABLE_MODELS_FETCH": "1",
        "OPENCODE_DISABLE_SHARE": "1",
    }
    for key in ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY"):
        env[key] = env[key.lower()] = "http://127.0.0.1:9"
    env["NO_PROXY"] = env["no_proxy"] = "127.0.0.1,localhost"
    return env


def provider_config(port: int) -> dict:
    return {
        "$schema": "https://opencode.ai/config.json",
        "autoupdate": False,
        "share": "disabled",
        "provider": {"fake": {"npm": "@ai-sdk/openai-compatible", "name": "Fake",
                              "options": {"baseURL": f"http://127.0.0.1:{port}/v1", "apiKey": "dummy"},
                              "models": {"m1": {"name": "m1"}}}},
        "model": "fake/m1",
    }


@dataclass
class Outcome:
    """What one start of OpenCode in a project showed: the skills section (None when the agent request
    carried none) and `debug skill`'s loaded skills."""

    section: str | None
    loaded: list[dict] | None
    errors: list[str]


def system_section(requests: list[dict]) -> str | None:
    """The skills section of the agent request (the one with tools): from its header to the end of the
    system message."""
    for body in requests:
        if not isinstance(body, dict) or not body.get("tools"):
            continue
        texts = []
        for message in body.get("messages", []):
            if message.get("role") != "system":
                continue
            content = message.get("content")
            if isinstance(content, list):
                content = "".join(part.get("text", "") for part in content if isinstance(part, dict))
            texts.append(content or "")
        system = "\n".join(texts)
        start = system.find(SKILLS_HEAD)
        return None if start < 0 else system[start:]
    return None


def run(project: Path, home: Path, with_section: bool = True, extra_env: dict[str, str] | None = None) -> Outcome:
    """Starts OpenCode in `project` with `home` as HOME: `opencode run hi` (the section) and `opencode debug
    skill` (the loaded skills), each bounded in time and stopped by its process group."""
    opencode = binary()
    errors: list[str] = []
    scratch = Path(tempfile.mkdtemp(prefix="sf-opencode-"))
    try:
        config_file = scratch / "opencode.json"
        section = None
        with FakeOpenAI() as server:
            config_file.write_text(json.dumps(provider_config(server.server.server_address[1])))
            env = environment(home, config_file)
            env.update(extra_env or {})
            if with_section:
                done = rc.run_bounded([opencode, "run", "hi"], cwd=project, env=env, timeout=RUN_TIMEOUT)
                if done.returncode != 0:
                    errors.append(f"opencode run exited {done.returncode}: {done.stderr[-800:]!r}")
                section = system_section([body for _, body in server.posted()])
            # Into a file: with hundreds of skills the client exits before a pipe takes all of its output.
            dump = scratch / "skills.json"
            listed = rc.run_bounded(["/bin/sh", "-c", 'exec "$0" debug skill >"$1"', opencode, str(dump)],
                                    cwd=project, env=env, timeout=RUN_TIMEOUT)
        loaded = None
        try:
            loaded = json.loads(dump.read_bytes())
        except (OSError, ValueError):
            errors.append(f"opencode debug skill exited {listed.returncode}: {listed.stderr[-800:]!r}")
        return Outcome(section, loaded, errors)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
