"""Runs the real Gemini CLI (@google/gemini-cli 0.61.0) offline in a project folder and returns the skills
section of the system instruction it sends, exactly.

Standard library only; the isolation is real_clients.py's (imported): the caller re-executes itself in a
private network namespace (`real_clients.isolate_network`), every run is bounded by a timeout in its own
process group, killed by its id (`real_clients.run_bounded`), behind dead proxies. Here:

- a fake Gemini API on 127.0.0.1 answers `…:streamGenerateContent` with a one-event SSE stream (`ok`), the
  model router's `…:generateContent` with a valid classification, `…:countTokens` with 1 and anything else
  `{}`, and records every request body;
- HOME is a folder the caller gives (so that skillforge can be run with the same HOME), holding
  `.gemini/settings.json` with only what a headless run needs (the API-key auth type; no telemetry, no
  update checks); `GEMINI_CLI_TRUST_WORKSPACE=true` trusts the project, as headless mode requires.

The section is the text of the first main-turn request's `systemInstruction` from `# Available Agent Skills`
through `</available_skills>` (None when the client sends no such section); `gemini_client.py PROJECT [HOME]`
prints it for one project. docs/clients-observed.md says what the client does with skills.
"""

from __future__ import annotations

import json
import os
import shutil
from dataclasses import dataclass
from pathlib import Path

import real_clients as rc
from recording_server import RecordingServer

VERSION = "0.61.0"
SECTION_HEAD = "# Available Agent Skills"
SECTION_END = "</available_skills>"

SETTINGS = {
    "security": {"auth": {"selectedType": "gemini-api-key"}},
    "privacy": {"usageStatisticsEnabled": False},
    "telemetry": {"enabled": False},
    "general": {"enableAutoUpdate": False, "enableAutoUpdateNotification": False},
}


def gemini_js() -> str:
    """$GEMINI_JS, else what scripts/ensure-clients.sh prints (it installs the pinned client when missing)."""
    found = os.environ.get("GEMINI_JS")
    if found:
        return found
    out = rc.run_bounded([str(rc.REPO / "scripts" / "ensure-clients.sh")], rc.REPO, dict(os.environ), timeout=1800)
    if out.returncode != 0:
        raise rc.ClientError(f"scripts/ensure-clients.sh failed:\n{out.stderr.decode(errors='replace')}")
    for line in out.stdout.decode().splitlines():
        key, _, value = line.partition("=")
        if key == "GEMINI_JS":
            return value
    raise rc.ClientError("scripts/ensure-clients.sh printed no GEMINI_JS")


def bundle_of(entry: str) -> Path:
    """The client's `bundle` folder (its built-in skills are in `bundle/builtin`)."""
    return Path(entry).parent


def _sse(text: str) -> bytes:
    chunk = {
        "candidates": [{"content": {"role": "model", "parts": [{"text": text}]}, "index": 0, "finishReason": "STOP"}],
        "usageMetadata": {"promptTokenCount": 1, "candidatesTokenCount": 1, "totalTokenCount": 2},
        "modelVersion": "gemini-fake",
    }
    return json.dumps(chunk).encode()


class FakeGemini(RecordingServer):
    """A Gemini API stand-in that answers `ok`."""

    def answer(self, method: str, path: str, body: object) -> tuple[int, str, bytes]:
        if method != "POST":
            return 200, "application/json", b"{}"
        if path.endswith(":streamGenerateContent"):
            return 200, "text/event-stream", b"data: " + _sse("ok") + b"\r\n\r\n"
        if path.endswith(":generateContent"):
            # The model router's classifier: a valid answer keeps it from logging a schema error.
            return 200, "application/json", _sse(json.dumps({"complexity_reasoning": "simple",
                                                              "complexity_score": 10}))
        if path.endswith(":countTokens"):
            return 200, "application/json", b'{"totalTokens": 1}'
        return 200, "application/json", b"{}"

    @property
    def url(self) -> str:
        return self.origin


@dataclass
class Outcome:
    returncode: int
    stdout: str
    stderr: str
    section: str | None


def prepare_home(home: Path) -> None:
    """Writes the settings a headless run needs into HOME (which may already hold skills)."""
    settings = home / ".gemini" / "settings.json"
    settings.parent.mkdir(parents=True, exist_ok=True)
    settings.write_text(json.dumps(SETTINGS, indent=2))


def system_text(body: dict) -> str | None:
    instruction = body.get("systemInstruction")
    if not isinstance(instruction, dict):
        return None
    return "".join(part.get("text", "") for part in instruction.get("parts", []))


def section_of(text: str | None) -> str | None:
    if not text or SECTION_HEAD not in text:
        return None
    start = text.index(SECTION_HEAD)
    end = text.find(SECTION_END, start)
    return text[start:] if end < 0 else text[start : end + len(SECTION_END)]


def run(entry: str, project: Path, home: Path, timeout: float = rc.RUN_TIMEOUT) -> Outcome:
    """Starts `node ENTRY -p hi` in `project` with HOME `home` against the fake API; the skills section of the
    first main-turn request (the one that declares tools)."""
    prepare_home(home)
    node = shutil.which("node") or "/usr/bin/node"
    with FakeGemini() as server:
        env = dict(rc._DEAD_PROXY)
        env.update({
            "PATH": "/usr/bin:/bin:/usr/local/bin",
            "HOME": str(home),
            "LANG": "C.UTF-8",
            "TERM": "dumb",
            "NO_COLOR": "1",
            "GEMINI_API_KEY": "dummy",
            "GOOGLE_GEMINI_BASE_URL": server.url,
            "GEMINI_CLI_TRUST_WORKSPACE": "true",
        })
        result = rc.run_bounded([node, entry, "-p", "hi"], str(project), env, timeout=timeout)
        bodies = server.posted()
    main = [body for path, body in bodies
            if path.endswith(":streamGenerateContent") and isinstance(body, dict) and body.get("tools")]
    stdout = result.stdout.decode(errors="replace")
    stderr = result.stderr.decode(errors="replace")
    if result.returncode != 0 or not main:
        raise rc.ClientError(f"gemini exited {result.returncode} with {len(main)} main requests: {stderr[-2000:]}")
    return Outcome(result.returncode, stdout, stderr, section_of(system_text(main[0])))


def entries(section: str | None, locations: list[str]) -> dict[str, tuple[str, str]]:
    """The entries of a section by location: {location: (name, description)}, for the candidate locations
    given (every SKILL.md that could be listed). Descriptions may hold anything, tags and newlines included, so
    entries are cut at the known locations rather than with a pattern over the whole text."""
    if not section:
        return {}
    found = []
    for location in locations:
        marker = f"</description>\n    <location>{location}</location>\n  </skill>"
        at = section.find(marker)
        if at >= 0:
            found.append((at, at + len(marker), location))
    found.sort()
    result = {}
    start = section.find("<available_skills>\n")
    start = start + len("<available_skills>\n") if start >= 0 else 0
    for at, end, location in found:
        text = section[start:at]
        head = "  <skill>\n    <name>"
        if text.startswith(head) and "</name>\n    <description>" in text:
            name, _, description = text[len(head):].partition("</name>\n    <description>")
            result[location] = (name, description)
        else:
            result[location] = ("?", text)
        start = end + 1
    return result


def main(argv: list[str]) -> int:
    """`gemini_client.py PROJECT [HOME]`: prints the section the client sends for PROJECT (nothing when it sends
    none), with a fresh empty HOME unless one is given (its settings file is then written)."""
    import sys
    import tempfile

    if len(argv) not in (2, 3):
        print("usage: gemini_client.py PROJECT [HOME]", file=sys.stderr)
        return 2
    rc.isolate_network(argv)
    project = Path(argv[1]).resolve()
    with tempfile.TemporaryDirectory(prefix="sf-gemini-home-") as fresh:
        home = Path(argv[2]).resolve() if len(argv) == 3 else Path(fresh)
        outcome = run(gemini_js(), project, home)
    sys.stdout.write(outcome.section or "")
    return 0


if __name__ == "__main__":
    import sys

    try:
        sys.exit(main(sys.argv))
    except rc.ClientError as error:
        print(f"gemini_client: {error}", file=sys.stderr)
        sys.exit(1)
