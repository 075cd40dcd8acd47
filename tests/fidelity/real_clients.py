"""Runs the real Codex and Claude Code binaries against a project folder and returns what they did, exactly.

Library and CLI, standard library only. Every run gets a fresh empty HOME and CODEX_HOME (temp folders made here,
removed afterwards), a timeout, and its own process group, which is killed by its id when the run ends or fails.
The only network the clients get is 127.0.0.1: the CLI re-executes itself in a new network namespace
(`unshare --net`, loopback up, nothing else), where the fake Anthropic endpoint also runs.

What is read from the clients (see docs/clients-observed.md for what they do with it):
- Codex `debug prompt-input`: the exact model input (JSON); `codex_skills_block` takes from it the exact text of
  the content item that starts with `<skills_instructions>` (None when Codex lists no skills).
- Codex `app-server` (JSON-RPC over stdio): `initialize`, then `skills/list` {cwds: [PROJECT], forceReload: true},
  giving the loaded skills and the load errors (path, message).
- Claude Code `-p hi --output-format json` against a fake Anthropic Messages endpoint on 127.0.0.1: the request
  bodies it posts; `claude_listing` takes from them the skills listing (the header and its `- ` entries), with the
  client's own built-in entries kept apart from the project's and the user's.

CLI:
  real_clients.py --dump DIR [--codex-config KEY=VALUE]... [--home DIR] [--claude-env KEY=VALUE]...
prints all of that as JSON for the project DIR;
  real_clients.py --dump-all ROOT --out DIR
does it for every project of a probe set (tests/fidelity/client_probes.py), one JSON file each. Binaries come from $CODEX_BIN / $CLAUDE_BIN, else from
scripts/ensure-clients.sh (which installs the pinned versions when missing).
"""

from __future__ import annotations

import argparse
import contextlib
import fcntl
import json
import os
import queue
import re
import shutil
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from recording_server import RecordingServer

REPO = Path(__file__).resolve().parents[2]
CODEX_VERSION = "0.171.0"
CLAUDE_CODE_VERSION = "2.1.332"
# Bounds for one client run; generous because the machine is shared, never used as a measurement.
RUN_TIMEOUT = 120.0


class ClientError(RuntimeError):
    """A client run that did not give an answer (timeout, non-zero exit, unreadable output)."""


# ---------------------------------------------------------------------------------------------------------------
# Binaries and isolation


def client_binaries() -> tuple[str, str]:
    """(codex, claude): $CODEX_BIN / $CLAUDE_BIN when both are set, else what scripts/ensure-clients.sh prints."""
    codex, claude = os.environ.get("CODEX_BIN"), os.environ.get("CLAUDE_BIN")
    if codex and claude:
        return codex, claude
    out = subprocess.run(
        [str(REPO / "scripts" / "ensure-clients.sh")], capture_output=True, text=True, timeout=1800, check=False
    )
    if out.returncode != 0:
        raise ClientError(f"scripts/ensure-clients.sh failed:\n{out.stderr}")
    found = {}
    for line in out.stdout.splitlines():
        key, _, value = line.partition("=")
        found[key] = value
    return codex or found["CODEX_BIN"], claude or found["CLAUDE_BIN"]


def in_private_network() -> bool:
    """True when the only network interface is the loopback (the namespace `isolate_network` makes)."""
    try:
        names = [name for _, name in socket.if_nameindex()]
    except OSError:
        return False
    return names == ["lo"]


def _loopback_up() -> None:
    """Brings `lo` up in a fresh network namespace (SIOCGIFFLAGS / SIOCSIFFLAGS), with no `ip` binary needed."""
    siocgifflags, siocsifflags, iff_up = 0x8913, 0x8914, 0x1
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
        request = struct.pack("16sh", b"lo", 0)
        flags = struct.unpack("16sh", fcntl.ioctl(sock, siocgifflags, request))[1]
        fcntl.ioctl(sock, siocsifflags, struct.pack("16sh", b"lo", flags | iff_up))


def isolate_network(argv: list[str]) -> None:
    """Re-executes this script inside a new network namespace that has only the loopback, unless already there.

    Root uses `unshare --net`; others add `--map-root-user`. When namespaces are unavailable this stops with an
    error instead of running the clients with network: set SKILLFORGE_CLIENTS_ALLOW_NETWORK=1 to accept that
    (the clients then still only get 127.0.0.1 endpoints and dead proxies, but nothing enforces it)."""
    if os.environ.get("SKILLFORGE_CLIENTS_NETNS") == "1":
        _loopback_up()
        if not in_private_network():
            raise ClientError("inside the network namespace, but interfaces other than lo exist")
        return
    if os.environ.get("SKILLFORGE_CLIENTS_ALLOW_NETWORK") == "1":
        print("real_clients: running WITHOUT a private network namespace", file=sys.stderr)
        return
    unshare = shutil.which("unshare")
    if unshare is None:
        raise ClientError("unshare not found: cannot keep the clients off the network (see isolate_network)")
    command = [unshare, "--net"]
    if os.geteuid() != 0:
        command.append("--map-root-user")
    env = dict(os.environ, SKILLFORGE_CLIENTS_NETNS="1")
    os.execve(unshare, [*command, sys.executable, os.path.abspath(argv[0]), *argv[1:]], env)


# ---------------------------------------------------------------------------------------------------------------
# Bounded processes


def _kill_group(process: subprocess.Popen) -> None:
    """Stops the process group led by `process` (its own session): SIGTERM, then SIGKILL if it lingers."""
    if process.poll() is None:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            pass
    # The leader may be gone while children it spawned live on in its group.
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(process.pid, signal.SIGKILL)
    with contextlib.suppress(subprocess.TimeoutExpired):
        process.wait(timeout=5)


@dataclass
class Run:
    argv: list[str]
    returncode: int
    stdout: bytes
    stderr: bytes


def run_bounded(argv, cwd, env, timeout: float = RUN_TIMEOUT, stdin: bytes = b"") -> Run:
    """Runs argv in its own process group, killing the group by its id on timeout, on error and at the end."""
    process = subprocess.Popen(
        argv,
        cwd=cwd,
        env=env,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )
    try:
        stdout, stderr = process.communicate(stdin, timeout=timeout)
    except subprocess.TimeoutExpired as error:
        raise ClientError(f"{argv[0]} timed out after {timeout}s: {argv[1:]}") from error
    finally:
        _kill_group(process)
    return Run(list(map(str, argv)), process.returncode, stdout, stderr)


# ---------------------------------------------------------------------------------------------------------------
# Sandboxes: empty HOME and CODEX_HOME


@dataclass
class Sandbox:
    """A fresh folder holding `home/` and `codex-home/` (both empty), removed on exit.

    Codex refuses to make its PATH helper aliases under a temp folder and says so on stderr (harmless)."""

    root: Path = field(default_factory=lambda: Path(tempfile.mkdtemp(prefix="sf-clients-")))

    def __post_init__(self) -> None:
        self.home.mkdir()
        self.codex_home.mkdir()

    @property
    def home(self) -> Path:
        return self.root / "home"

    @property
    def codex_home(self) -> Path:
        return self.root / "codex-home"

    def __enter__(self) -> Sandbox:
        return self

    def __exit__(self, *_exc) -> None:
        shutil.rmtree(self.root, ignore_errors=True)


# Proxies that lead nowhere, in case a client tries the network despite the settings below.
_DEAD_PROXY = {
    "HTTP_PROXY": "http://127.0.0.1:9",
    "HTTPS_PROXY": "http://127.0.0.1:9",
    "ALL_PROXY": "http://127.0.0.1:9",
    "NO_PROXY": "127.0.0.1,localhost",
}


def _base_env(home: Path) -> dict[str, str]:
    env = {"PATH": "/usr/bin:/bin", "HOME": str(home), "LANG": "C.UTF-8", "TERM": "dumb"}
    env.update(_DEAD_PROXY)
    env.update({key.lower(): value for key, value in _DEAD_PROXY.items()})
    return env


# ---------------------------------------------------------------------------------------------------------------
# Codex


def codex_env(home: Path, codex_home: Path) -> dict[str, str]:
    env = _base_env(home)
    env["CODEX_HOME"] = str(codex_home)
    return env


def codex_config_args(config: list[str] | None, bundled: bool = False) -> list[str]:
    """`-c KEY=VALUE` pairs; Codex's own bundled system skills are hidden unless `bundled`."""
    pairs = [] if bundled else ["skills.bundled.enabled=false"]
    pairs += config or []
    return [arg for pair in pairs for arg in ("-c", pair)]


def codex_prompt_input(
    codex: str, project: Path, home: Path, codex_home: Path, config: list[str] | None = None, message: str = "hi"
) -> list:
    """The exact model input Codex would send for `message`, started in `project` (parsed JSON list)."""
    run = run_bounded(
        [codex, *codex_config_args(config), "debug", "prompt-input", message], project, codex_env(home, codex_home)
    )
    if run.returncode != 0:
        raise ClientError(f"codex debug prompt-input exited {run.returncode}: {run.stderr.decode(errors='replace')}")
    return json.loads(run.stdout)


def codex_skills_block(model_input: list) -> str | None:
    """The text of the single content item that starts with `<skills_instructions>`, exactly; None if none."""
    found = [
        part["text"]
        for item in model_input
        if item.get("type") == "message"
        for part in item.get("content", [])
        if isinstance(part.get("text"), str) and part["text"].startswith("<skills_instructions>")
    ]
    if len(found) > 1:
        raise ClientError(f"{len(found)} <skills_instructions> items in the model input")
    return found[0] if found else None


class JsonRpcSession:
    """A JSON-RPC 2.0 peer over a child's stdio, one JSON object a line (what `codex app-server` speaks)."""

    def __init__(self, argv, cwd, env, timeout: float = RUN_TIMEOUT) -> None:
        self.timeout = timeout
        self.process = subprocess.Popen(
            argv,
            cwd=cwd,
            env=env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            start_new_session=True,
        )
        self.lines: queue.Queue = queue.Queue()
        self.notifications: list[dict] = []
        self.stderr = bytearray()
        self.next_id = 1
        threading.Thread(target=self._read, daemon=True).start()
        threading.Thread(target=self._drain_stderr, daemon=True).start()

    def _read(self) -> None:
        for line in self.process.stdout:
            self.lines.put(line)
        self.lines.put(None)

    def _drain_stderr(self) -> None:
        for chunk in iter(lambda: self.process.stderr.read(4096), b""):
            self.stderr += chunk

    def notify(self, method: str, params: dict | None = None) -> None:
        message = {"jsonrpc": "2.0", "method": method}
        if params is not None:
            message["params"] = params
        self._send(message)

    def call(self, method: str, params: dict) -> dict:
        """Sends a request and waits for its response (notifications in between are kept)."""
        ident = self.next_id
        self.next_id += 1
        self._send({"jsonrpc": "2.0", "id": ident, "method": method, "params": params})
        deadline = time.monotonic() + self.timeout
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise ClientError(f"no answer to {method} within {self.timeout}s")
            try:
                line = self.lines.get(timeout=remaining)
            except queue.Empty as error:
                raise ClientError(f"no answer to {method} within {self.timeout}s") from error
            if line is None:
                raise ClientError(f"the server closed its output before answering {method}: {bytes(self.stderr)!r}")
            message = json.loads(line)
            if message.get("id") == ident and "method" not in message:
                if "error" in message:
                    raise ClientError(f"{method} failed: {message['error']}")
                return message["result"]
            self.notifications.append(message)

    def _send(self, message: dict) -> None:
        self.process.stdin.write(json.dumps(message).encode() + b"\n")
        self.process.stdin.flush()

    def close(self) -> None:
        with contextlib.suppress(BrokenPipeError, OSError):
            self.process.stdin.close()
        _kill_group(self.process)

    def __enter__(self) -> JsonRpcSession:
        return self

    def __exit__(self, *_exc) -> None:
        self.close()


def codex_skills_list(
    codex: str, project: Path, home: Path, codex_home: Path, config: list[str] | None = None
) -> dict:
    """`skills/list` for `project`: {"skills": [...], "errors": [{"path", "message"}]} as the app-server answers."""
    argv = [codex, *codex_config_args(config), "app-server"]
    with JsonRpcSession(argv, project, codex_env(home, codex_home)) as session:
        session.call("initialize", {"clientInfo": {"name": "skillforge-fidelity", "version": "0"}})
        session.notify("initialized")
        result = session.call("skills/list", {"cwds": [str(project)], "forceReload": True})
    entries = result["data"]
    if len(entries) != 1:
        raise ClientError(f"skills/list answered for {len(entries)} cwds, asked for one")
    return {"skills": entries[0]["skills"], "errors": entries[0]["errors"]}


# ---------------------------------------------------------------------------------------------------------------
# Claude Code and its fake Anthropic endpoint


def _sse(events: list[dict]) -> bytes:
    return b"".join(f"event: {event['type']}\ndata: {json.dumps(event)}\n\n".encode() for event in events)


def _message(text: str, model: str, blocks: list[dict] | None = None) -> dict:
    """One assistant message: the text `text`, or the content `blocks` when given (a `tool_use` block among
    them makes it stop for `tool_use`)."""
    content = blocks if blocks is not None else [{"type": "text", "text": text}]
    uses_tool = any(block.get("type") == "tool_use" for block in content)
    return {
        "id": "msg_fidelity",
        "type": "message",
        "role": "assistant",
        "model": model,
        "content": content,
        "stop_reason": "tool_use" if uses_tool else "end_turn",
        "stop_sequence": None,
        "usage": {"input_tokens": 1, "output_tokens": 1},
    }


def _stream(text: str, model: str, blocks: list[dict] | None = None) -> bytes:
    """The SSE form of `_message`: each text block as one text delta, each `tool_use` block's input as one
    `input_json_delta`."""
    content = blocks if blocks is not None else [{"type": "text", "text": text}]
    final = _message(text, model, content)
    start = dict(final, content=[], stop_reason=None)
    events: list[dict] = [{"type": "message_start", "message": start}]
    for index, block in enumerate(content):
        if block.get("type") == "tool_use":
            opened = {"type": "tool_use", "id": block["id"], "name": block["name"], "input": {}}
            delta = {"type": "input_json_delta", "partial_json": json.dumps(block.get("input", {}))}
        else:
            opened = {"type": "text", "text": ""}
            delta = {"type": "text_delta", "text": block.get("text", "")}
        events += [
            {"type": "content_block_start", "index": index, "content_block": opened},
            {"type": "content_block_delta", "index": index, "delta": delta},
            {"type": "content_block_stop", "index": index},
        ]
    events += [
        {
            "type": "message_delta",
            "delta": {"stop_reason": final["stop_reason"], "stop_sequence": None},
            "usage": {"output_tokens": 1},
        },
        {"type": "message_stop"},
    ]
    return _sse(events)


def tool_use(name: str, tool_input: dict, ident: str = "toolu_fidelity_1") -> dict:
    """A `tool_use` content block for a scripted reply (`FakeAnthropic(replies=…)`)."""
    return {"type": "tool_use", "id": ident, "name": name, "input": tool_input}


class FakeAnthropic(RecordingServer):
    """A Messages-API endpoint that answers `ok`.

    POST /v1/messages: an SSE stream when the body asks for `stream`, else one JSON message;
    POST /v1/messages/count_tokens: a token count; anything else: 200 with `{}`.

    `replies` scripts the answers instead: the n-th POST /v1/messages that carries a `tools` list (the client's
    agent turns, not its side requests) gets the n-th reply, a list of content blocks (`tool_use(…)`, or
    `{"type": "text", …}`); once they are used up, `ok` again."""

    headers = {"request-id": "req_fidelity"}

    def __init__(self, replies: list[list[dict]] | None = None) -> None:
        super().__init__()
        self.replies = list(replies or [])
        self.turns = 0

    def answer(self, method: str, path: str, body: object) -> tuple[int, str, bytes]:
        if method == "HEAD":
            return 200, "text/plain", b""
        if method != "POST":
            return 200, "application/json", b"{}"
        model = body.get("model", "claude-fidelity") if isinstance(body, dict) else "claude-fidelity"
        if path.endswith("/count_tokens"):
            return 200, "application/json", b'{"input_tokens": 1}'
        if not path.endswith("/v1/messages"):
            return 200, "application/json", b"{}"
        blocks = None
        if isinstance(body, dict) and isinstance(body.get("tools"), list):
            with self.lock:
                if self.turns < len(self.replies):
                    blocks = self.replies[self.turns]
                self.turns += 1
        if isinstance(body, dict) and body.get("stream"):
            return 200, "text/event-stream", _stream("ok", model, blocks)
        return 200, "application/json", json.dumps(_message("ok", model, blocks)).encode()

    @property
    def url(self) -> str:
        return self.origin


def claude_env(home: Path, base_url: str) -> dict[str, str]:
    env = _base_env(home)
    env.update(
        {
            "ANTHROPIC_BASE_URL": base_url,
            "ANTHROPIC_API_KEY": "dummy",
            "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
            "DISABLE_TELEMETRY": "1",
            "DISABLE_AUTOUPDATER": "1",
            "DISABLE_ERROR_REPORTING": "1",
        }
    )
    return env


def claude_requests(claude: str, project: Path, home: Path, prompt: str = "hi", extra_args: list[str] | None = None):
    """Runs `claude -p PROMPT --output-format json` in `project` against a fresh fake endpoint.

    Returns (run, requests): the finished run and every request the endpoint recorded."""
    with FakeAnthropic() as server:
        argv = [claude, "-p", prompt, "--output-format", "json", *(extra_args or [])]
        run = run_bounded(argv, project, claude_env(home, server.url))
        with server.lock:
            requests = list(server.requests)
    if run.returncode != 0:
        raise ClientError(f"claude exited {run.returncode}: {run.stderr.decode(errors='replace')[:2000]}")
    return run, requests


CLAUDE_LISTING_HEADER = "The following skills are available for use with the Skill tool:\n\n"


def claude_listing_text(requests: list[dict]) -> str:
    """The text part that holds the listing, from its header to the end of the part.

    It is in the first streamed POST /v1/messages, in a text part of its messages (a `system` role message in
    2.1.332). After the listing the part goes on, after a blank line, with other context (`Today's date is …`);
    `claude_listing` finds the listing's end from the client's own entries, which come last."""
    posts = [r for r in requests if r["method"] == "POST" and r["path"].split("?")[0].endswith("/v1/messages")]
    streamed = [r for r in posts if isinstance(r["body"], dict) and r["body"].get("stream")]
    if not streamed:
        raise ClientError(f"Claude Code sent no streamed /v1/messages request ({len(requests)} requests)")
    found = []
    for message in streamed[0]["body"].get("messages", []):
        content = message.get("content")
        parts = [{"text": content}] if isinstance(content, str) else content or []
        for part in parts:
            text = part.get("text")
            if isinstance(text, str) and CLAUDE_LISTING_HEADER in text:
                found.append(text[text.index(CLAUDE_LISTING_HEADER) :])
    if len(found) != 1:
        raise ClientError(f"{len(found)} skill listings in the first request, expected one")
    return found[0]


def split_entries(entries_text: str) -> list[str]:
    """`- ` entries of a listing body; a line that does not start with `- ` continues the entry before it."""
    entries: list[str] = []
    for line in entries_text.split("\n"):
        if line.startswith("- ") or not entries:
            entries.append(line)
        else:
            entries[-1] += "\n" + line
    return entries


def _entry_name(entry: str) -> str:
    """The listed name of a `- name: description` / `- name (shown): description` / `- name` entry."""
    head = entry[2:].split("\n", 1)[0]
    head = head.split(": ", 1)[0]
    return head.split(" (", 1)[0]


def claude_listing(text: str, builtin_entries: list[str]) -> dict:
    """Splits the listing text into the header, the project's and user's entries, and the client's own.

    `builtin_entries` are the exact entries Claude Code lists for an empty project (`claude_builtin_entries`).
    They follow the other entries, contiguous and in the same order; over the budget some of them (its prompt
    commands such as `security-review`, unlike its bundled skills) shrink to `- name`, so each is matched as its
    full text or its bare name. The listing ends at the blank line after them. If they are not found that way
    this raises (a split would be a guess). Returns {"header", "entries" (the project's and user's entries as
    sent, joined by newlines), "entry_list", "builtin" (the client's own entries as sent), "block" (header +
    entries + a newline: what `skillforge listing --dialect claude-code` prints), "full" (the whole listing as
    sent), "all_full" (no entry was shortened to its name)}."""
    if not text.startswith(CLAUDE_LISTING_HEADER):
        raise ClientError("the listing does not start with its header")
    if not builtin_entries:
        raise ClientError("no built-in entries to anchor the listing's end")
    body = text[len(CLAUDE_LISTING_HEADER) :]
    alternatives = [f"(?:{re.escape(entry)}|{re.escape('- ' + _entry_name(entry))})" for entry in builtin_entries]
    pattern = re.compile(r"(?:^|\n)(" + r"\n".join(alternatives) + r")\n\n")
    found = pattern.search(body)
    if found is None:
        raise ClientError("the client's built-in entries are not where expected at the end of the listing")
    own = body[: max(found.start(1) - 1, 0)]
    builtin = found.group(1)
    entry_list = split_entries(own) if own else []
    sent_builtin = split_entries(builtin)
    all_full = all(": " in entry.split("\n", 1)[0] for entry in entry_list) and sent_builtin == builtin_entries
    return {
        "header": CLAUDE_LISTING_HEADER,
        "entries": own,
        "entry_list": entry_list,
        "builtin": builtin,
        "block": CLAUDE_LISTING_HEADER + own + ("\n" if own else ""),
        "full": CLAUDE_LISTING_HEADER + body[: found.end(1)],
        "all_full": all_full,
    }


_builtin_cache: dict[str, list[str]] = {}


def claude_builtin_entries(claude: str) -> list[str]:
    """The entries Claude Code lists for an empty, non-git project folder with an empty HOME (its own skills)."""
    if claude not in _builtin_cache:
        with Sandbox() as sandbox:
            project = sandbox.root / "empty-project"
            project.mkdir()
            _run, requests = claude_requests(claude, project, sandbox.home)
            text = claude_listing_text(requests)
        body = text[len(CLAUDE_LISTING_HEADER) :]
        end = body.find("\n\n")
        if end < 0:
            raise ClientError("the empty project's listing has no end")
        _builtin_cache[claude] = split_entries(body[:end])
    return _builtin_cache[claude]


# ---------------------------------------------------------------------------------------------------------------
# Everything for one project


def dump(
    project: Path,
    codex_config: list[str] | None = None,
    home_template: Path | None = None,
    claude_env_extra: dict[str, str] | None = None,
) -> dict:
    """All four observations for `project` (resolved), each client with its own fresh HOME (a copy of
    `home_template` when given, symlinks kept; Codex's CODEX_HOME is then HOME/.codex if the template has one)."""
    codex, claude = client_binaries()
    project = project.resolve()
    result: dict = {"project": str(project), "codex_version": CODEX_VERSION, "claude_code_version": CLAUDE_CODE_VERSION}

    def prepared(sandbox: Sandbox) -> Path:
        if home_template is not None:
            shutil.copytree(home_template, sandbox.home, symlinks=True, dirs_exist_ok=True)
        template_codex = sandbox.home / ".codex"
        return template_codex if template_codex.is_dir() else sandbox.codex_home

    with Sandbox() as sandbox:
        codex_home = prepared(sandbox)
        model_input = codex_prompt_input(codex, project, sandbox.home, codex_home, codex_config)
        result["codex_skills_block"] = codex_skills_block(model_input)
    with Sandbox() as sandbox:
        codex_home = prepared(sandbox)
        result["codex_skills_list"] = codex_skills_list(codex, project, sandbox.home, codex_home, codex_config)
    builtin = claude_builtin_entries(claude)
    with Sandbox() as sandbox:
        prepared(sandbox)
        with FakeAnthropic() as server:
            env = claude_env(sandbox.home, server.url)
            env.update(claude_env_extra or {})
            run = run_bounded([claude, "-p", "hi", "--output-format", "json"], project, env)
            with server.lock:
                requests = list(server.requests)
        if run.returncode != 0:
            raise ClientError(f"claude exited {run.returncode}: {run.stderr.decode(errors='replace')[:2000]}")
    result["claude_listing"] = claude_listing(claude_listing_text(requests), builtin)
    result["claude_requests"] = [{"method": r["method"], "path": r["path"]} for r in requests]
    return result


def dump_all(root: Path, out: Path, codex_config: list[str] | None = None) -> int:
    """Dumps every project of a probe set (the folders named in ROOT/manifest.json, else every subfolder) into
    OUT/<project>.json; a project whose run fails gets {"error": …} instead. Returns the number of failures."""
    manifest = root / "manifest.json"
    if manifest.is_file():
        projects = [root / entry["project"] for entry in json.loads(manifest.read_text())]
    else:
        projects = sorted(path for path in root.iterdir() if path.is_dir())
    out.mkdir(parents=True, exist_ok=True)
    failures = 0
    for number, project in enumerate(projects, 1):
        try:
            result = dump(project, codex_config)
        except (ClientError, OSError, ValueError) as error:
            failures += 1
            result = {"project": str(project.resolve()), "error": str(error)}
        (out / f"{project.name}.json").write_text(json.dumps(result, indent=1, ensure_ascii=False) + "\n")
        print(f"[{number}/{len(projects)}] {project.name}{' ERROR' if 'error' in result else ''}", file=sys.stderr)
    return failures


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    what = parser.add_mutually_exclusive_group(required=True)
    what.add_argument("--dump", metavar="DIR", type=Path, help="print everything both clients do in project DIR")
    what.add_argument("--dump-all", metavar="ROOT", type=Path, help="dump every project of a probe set (see --out)")
    parser.add_argument("--out", metavar="DIR", type=Path, help="with --dump-all: where the JSON files go")
    parser.add_argument("--codex-config", metavar="KEY=VALUE", action="append", default=[], help="extra codex -c")
    parser.add_argument("--home", metavar="DIR", type=Path, help="copy this folder into each run's empty HOME")
    parser.add_argument("--claude-env", metavar="KEY=VALUE", action="append", default=[], help="extra env for claude")
    args = parser.parse_args(argv[1:])
    if args.dump_all is not None:
        if args.out is None:
            parser.error("--dump-all needs --out")
        isolate_network(argv)
        failures = dump_all(args.dump_all, args.out, args.codex_config)
        print(f"real_clients: {failures} project(s) failed", file=sys.stderr)
        return 1 if failures else 0
    if not args.dump.is_dir():
        parser.error(f"{args.dump} is not a folder")
    isolate_network(argv)
    extra = dict(pair.split("=", 1) for pair in args.claude_env)
    result = dump(args.dump, args.codex_config, args.home, extra)
    json.dump(result, sys.stdout, indent=2, ensure_ascii=False)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv))
    except ClientError as error:
        print(f"real_clients: {error}", file=sys.stderr)
        sys.exit(1)
