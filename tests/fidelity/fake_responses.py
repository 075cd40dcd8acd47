"""An OpenAI Responses-API endpoint on 127.0.0.1 for the real Codex CLI, scripted per user query.

`codex exec` posts `POST /v1/responses` (a JSON body with `stream: true`) and reads a server-sent event stream:
`response.created`, one `response.output_item.done` per output item, then `response.completed` carrying the
usage. One turn of Codex is one or more such requests: when an answer holds a tool call, Codex runs the tool and
posts again with the whole history plus the tool's output (a `function_call_output` or, for freeform tools, a
`custom_tool_call_output` item); the turn ends at the first answer without a tool call.

What the endpoint answers is chosen from the user's query (the text of the last user message in the request's
`input`, see `user_query`) by `script`: a mapping from query text to a reply, or a function of the query text.
A reply is one of

- `ReadFile(path)`: a tool call that prints the file (`sed -n '1,200p' PATH`), made with whatever command tool
  the request offers (see `command_call`); `RunCommand(cmd)` is the same with any shell command;
- `Text(text)`: a plain assistant message, which ends the turn;
- `HttpError(status)`: that status with an OpenAI-style JSON error body (Codex retries 5xx and 429 answers, as
  many times as its provider's `request_max_retries` says);
- `Hang()`: no answer at all; the request stays open until the server is closed.

After a tool call, the next request of the turn carries its output; that request is answered with
`after_tool` (a `Text`, `ok` by default) whatever the query, so the turn ends. The script may also give a list
of replies for a query: the request that carries n tool outputs after the query gets the n-th (from 0), and
`after_tool` once the list is used up (so `[RunCommand("ls .agents/skills"), ReadFile(…)]` is a turn of two
commands). Requests whose query the script does not know get `default` (`Text("ok")`).

Every request is recorded (see `RecordingServer`); `turns()` lists for each POST /v1/responses the query, the
reply given and the tool outputs the request carried after the query. Standard library only.

`ScriptedRuns` scripts successive runs of a query instead (the n-th run gets the n-th entry). The command line
serves one, for tests written in other languages (the app's e2e specs):

  fake_responses.py --script FILE --ready FILE [--log FILE]

serves until stdin closes or SIGTERM. The script FILE holds {"QUERY": [RUN, ...], ...}; a RUN is one reply, or a
list of replies for a turn of several commands, each reply written as ["read", PATH], ["command", CMD],
["text"] or ["text", TEXT], ["error", STATUS] or ["error", STATUS, MESSAGE], ["hang"]. When it listens it
writes {"url": ORIGIN, "base_url": ORIGIN/v1} to the --ready file (whole, by a rename); with --log every
POST /v1/responses it answered is appended to that file as one JSON line {"query", "run", "step", "reply"}
(`run` counts from 1, `step` is the number of tool outputs the request carried, `reply` as the script writes it).
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import signal
import sys
import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from recording_server import RecordingServer


@dataclass(frozen=True)
class Usage:
    """Token counts reported in `response.completed` (Codex sums them over a turn in `turn.completed`)."""

    input_tokens: int = 1000
    cached_input_tokens: int = 0
    output_tokens: int = 10
    reasoning_tokens: int = 0

    def to_json(self) -> dict:
        return {
            "input_tokens": self.input_tokens,
            "input_tokens_details": {"cached_tokens": self.cached_input_tokens},
            "output_tokens": self.output_tokens,
            "output_tokens_details": {"reasoning_tokens": self.reasoning_tokens},
            "total_tokens": self.input_tokens + self.output_tokens,
        }


@dataclass(frozen=True)
class Text:
    """A plain assistant message: the turn ends with it. `reasoning` puts a reasoning item with that summary
    text before the message."""

    text: str = "ok"
    usage: Usage = field(default_factory=Usage)
    reasoning: str | None = None


@dataclass(frozen=True)
class RunCommand:
    """A call of the request's command tool running `cmd` (a shell command line) in the working folder, or in
    `workdir` when given (the `workdir` argument of `exec_command`; the other command tools take none).
    `reasoning` puts a reasoning item with that summary text before the call."""

    cmd: str
    usage: Usage = field(default_factory=Usage)
    workdir: str | None = None
    reasoning: str | None = None


def ReadFile(path: str, usage: Usage | None = None, reasoning: str | None = None) -> RunCommand:  # noqa: N802
    """A command call that prints the file at `path` (relative to the working folder, or absolute) the way
    Codex's models usually read a skill: `sed -n '1,200p' PATH` (named like the reply kinds it stands for)."""
    return RunCommand(f"sed -n '1,200p' {shlex.quote(path)}", usage or Usage(), reasoning=reasoning)


@dataclass(frozen=True)
class HttpError:
    """An HTTP error answer with an OpenAI-style JSON body."""

    status: int = 500
    message: str = "fake server error"


@dataclass(frozen=True)
class Hang:
    """No answer: the request is held open until the server is closed (then it gets a 503)."""


Reply = Text | RunCommand | HttpError | Hang
Replies = Reply | Sequence[Reply]
Script = Mapping[str, Replies] | Callable[[str], Replies | None]

# User messages Codex adds itself (context, not the query); the query is the last user message not starting so.
_CONTEXT_PREFIXES = ("<environment_context>", "<user_instructions>", "# AGENTS.md instructions", "<skill>")


def user_query(body: object) -> str | None:
    """The text of the last user message in the request's `input` that Codex did not add itself (its parts'
    texts joined), or None when there is none."""
    if not isinstance(body, dict) or not isinstance(body.get("input"), list):
        return None
    query = None
    for item in body["input"]:
        if not isinstance(item, dict) or item.get("type", "message") != "message" or item.get("role") != "user":
            continue
        texts = [part.get("text") for part in item.get("content") or [] if isinstance(part, dict)]
        text = "".join(t for t in texts if isinstance(t, str))
        if text and not text.startswith(_CONTEXT_PREFIXES):
            query = text
    return query


def tool_outputs(body: object) -> list[dict]:
    """The tool output items (`function_call_output`, `custom_tool_call_output`) that follow the query in this
    request, in order; empty when the request starts the turn."""
    if not isinstance(body, dict) or not isinstance(body.get("input"), list):
        return []
    query = user_query(body)
    found: list[dict] = []
    for item in body["input"]:
        if not isinstance(item, dict):
            continue
        if item.get("type") == "message" and item.get("role") == "user":
            texts = [part.get("text") for part in item.get("content") or [] if isinstance(part, dict)]
            if "".join(t for t in texts if isinstance(t, str)) == query:
                found = []
        elif item.get("type") in ("function_call_output", "custom_tool_call_output"):
            found.append(item)
    return found


def offered_tools(body: object) -> list[dict]:
    """Every tool the request offers the model, flattened: the top-level `tools` and the `tools` of
    `additional_tools` input items (Codex 0.171.0 sends its tools there), namespaces opened (each entry then
    carries the namespace's name under `namespace`)."""
    found: list[dict] = []

    def walk(tools: object, namespace: str | None) -> None:
        for tool in tools if isinstance(tools, list) else []:
            if not isinstance(tool, dict):
                continue
            if tool.get("type") == "namespace":
                walk(tool.get("tools"), tool.get("name"))
            else:
                found.append(dict(tool, namespace=namespace) if namespace else tool)

    if isinstance(body, dict):
        walk(body.get("tools"), None)
        for item in body.get("input") or []:
            if isinstance(item, dict) and item.get("type") == "additional_tools":
                walk(item.get("tools"), None)
    return found


def command_call(body: object, cmd: str, call_id: str, workdir: str | None = None) -> dict:
    """The output item calling the request's command tool to run `cmd`. In order of preference: the freeform
    `exec` tool of Codex's code mode (JavaScript that calls the nested `tools.exec_command` and prints its
    output), the `exec_command` function (`{"cmd": …}`, plus `workdir` when given), `shell_command`
    (`{"command": "…"}`), `shell` (`{"command": ["bash", "-lc", …]}`). Raises ValueError when the request
    offers none of them."""
    tools = {(tool.get("type"), tool.get("name")): tool for tool in offered_tools(body)}
    exec_args = {"cmd": cmd} if workdir is None else {"cmd": cmd, "workdir": workdir}
    if ("custom", "exec") in tools:
        source = f"const r = await tools.exec_command({json.dumps(exec_args)});\ntext(r.output);\n"
        return {"type": "custom_tool_call", "id": f"ctc_{call_id}", "call_id": call_id, "name": "exec",
                "input": source, "status": "completed"}
    for name, arguments in (
        ("exec_command", exec_args),
        ("shell_command", {"command": cmd}),
        ("shell", {"command": ["bash", "-lc", cmd]}),
    ):
        if ("function", name) in tools:
            return {"type": "function_call", "id": f"fc_{call_id}", "call_id": call_id, "name": name,
                    "arguments": json.dumps(arguments), "status": "completed"}
    names = sorted(f"{kind}:{name}" for kind, name in tools)
    raise ValueError(f"the request offers no command tool (tools: {', '.join(names) or 'none'})")


def _sse(events: list[dict]) -> bytes:
    return b"".join(f"event: {event['type']}\ndata: {json.dumps(event)}\n\n".encode() for event in events)


def _stream(response_id: str, model: str, items: list[dict], usage: Usage) -> bytes:
    """A complete Responses-API event stream giving `items` as the response's output."""
    created = {"id": response_id, "object": "response", "created_at": 0, "status": "in_progress", "model": model,
               "output": []}
    events: list[dict] = [{"type": "response.created", "sequence_number": 0, "response": created}]
    for index, item in enumerate(items):
        events.append({"type": "response.output_item.added", "output_index": index,
                       "item": dict(item, status="in_progress")})
        events.append({"type": "response.output_item.done", "output_index": index, "item": item})
    done = dict(created, status="completed", output=items, usage=usage.to_json())
    events.append({"type": "response.completed", "response": done})
    for number, event in enumerate(events):
        event["sequence_number"] = number
    return _sse(events)


def _reasoning(summary: str | None, ident: str) -> list[dict]:
    """A reasoning output item with one summary text (none when `summary` is None)."""
    if summary is None:
        return []
    return [{"type": "reasoning", "id": ident, "summary": [{"type": "summary_text", "text": summary}],
             "encrypted_content": None}]


def _message(text: str, ident: str) -> dict:
    return {"type": "message", "id": ident, "role": "assistant", "status": "completed",
            "content": [{"type": "output_text", "text": text, "annotations": []}]}


class FakeResponses(RecordingServer):
    """`POST /v1/responses` answered from `script` (see the module's documentation); any other request gets
    404. Use as a `with` block; `base_url` is what Codex's provider `base_url` must be."""

    def __init__(self, script: Script | None = None, default: Reply | None = None,
                 after_tool: Text | None = None) -> None:
        super().__init__()
        self.script = script if script is not None else {}
        self.default = default if default is not None else Text()
        self.after_tool = after_tool if after_tool is not None else Text()
        self.released = threading.Event()
        self.log: list[dict] = []
        self.count = 0
        report = self.server.handle_error

        def handle_error(request, client_address) -> None:
            # A client that gave up on a held request (Hang) has closed its socket: not worth a traceback.
            if not isinstance(sys.exc_info()[1], ConnectionError):
                report(request, client_address)

        self.server.handle_error = handle_error

    @property
    def base_url(self) -> str:
        return f"{self.origin}/v1"

    def reply_for(self, query: str | None, step: int) -> Reply:
        """What the script says for `query` at `step` (the number of tool outputs after the query): the
        default when it says nothing, `after_tool` once its replies are used up."""
        chosen = None
        if query is not None:
            chosen = self.script(query) if callable(self.script) else self.script.get(query)
        if chosen is None:
            chosen = self.default
        replies = list(chosen) if isinstance(chosen, Sequence) else [chosen]
        return replies[step] if step < len(replies) else self.after_tool

    def turns(self) -> list[dict]:
        """For each POST /v1/responses in arrival order: `query`, `reply` (the Reply given) and `tool_outputs`
        (the tool output items the request carried after the query)."""
        with self.lock:
            return list(self.log)

    def answer(self, method: str, path: str, body: object) -> tuple[int, str, bytes]:
        if method != "POST" or not path.endswith("/responses"):
            return 404, "application/json", b'{"error": {"message": "not found", "type": "invalid_request_error"}}'
        query, carried = user_query(body), tool_outputs(body)
        reply = self.reply_for(query, len(carried))
        with self.lock:
            self.count += 1
            number = self.count
            self.log.append({"query": query, "reply": reply, "tool_outputs": carried})
        model = body.get("model", "fake-model") if isinstance(body, dict) else "fake-model"
        if isinstance(reply, Hang):
            self.released.wait()
            return 503, "application/json", b'{"error": {"message": "server closed", "type": "server_error"}}'
        if isinstance(reply, HttpError):
            kind = {429: "rate_limit_exceeded"}.get(reply.status, "server_error" if reply.status >= 500
                                                     else "invalid_request_error")
            error = {"error": {"message": reply.message, "type": kind, "code": kind}}
            return reply.status, "application/json", json.dumps(error).encode()
        if isinstance(reply, RunCommand):
            items = [*_reasoning(reply.reasoning, f"rs_{number}"),
                     command_call(body, reply.cmd, f"call_{number}", reply.workdir)]
            return 200, "text/event-stream", _stream(f"resp_{number}", model, items, reply.usage)
        items = [*_reasoning(reply.reasoning, f"rs_{number}"), _message(reply.text, f"msg_{number}")]
        return 200, "text/event-stream", _stream(f"resp_{number}", model, items, reply.usage)

    def __exit__(self, *exc) -> None:
        self.released.set()
        super().__exit__(*exc)


class ScriptedRuns(FakeResponses):
    """FakeResponses whose script gives each query a list of runs: the n-th run of a query (counted at the request
    that carries no tool output yet) gets the n-th entry, the last one repeating; an entry is a Reply or a list of
    replies, as in `FakeResponses`. Queries it does not know get `default`. With `log`, every answer is appended to
    that file as one JSON line {"query", "run", "step", "reply"} (`reply` as `reply_json` writes it)."""

    def __init__(self, runs: Mapping[str, Sequence[Replies]], log: Path | None = None) -> None:
        super().__init__()
        self.runs = runs
        self.log_file = log
        self.started: dict[str, int] = {}

    def reply_for(self, query: str | None, step: int) -> Reply:
        if query not in self.runs:
            reply, run = super().reply_for(query, step), None
        else:
            with self.lock:
                if step == 0:
                    self.started[query] = self.started.get(query, 0) + 1
                run = max(self.started.get(query, 0), 1)
            entries = self.runs[query]
            chosen = entries[min(run, len(entries)) - 1]
            replies = list(chosen) if isinstance(chosen, Sequence) else [chosen]
            reply = replies[step] if step < len(replies) else self.after_tool
        if self.log_file is not None:
            line = json.dumps({"query": query, "run": run, "step": step, "reply": reply_json(reply)})
            with self.lock, self.log_file.open("a") as log:
                log.write(line + "\n")
        return reply


def reply_json(reply: Reply) -> list:
    """`reply` as a script file writes it (a `ReadFile` is a ["command", …] here)."""
    if isinstance(reply, Text):
        return ["text", reply.text]
    if isinstance(reply, RunCommand):
        return ["command", reply.cmd]
    if isinstance(reply, HttpError):
        return ["error", reply.status, reply.message]
    return ["hang"]


def reply_from_json(value: object, where: str) -> Reply:
    """The Reply a script file writes as `value` (see the module's documentation); ValueError naming `where`."""
    kind = value[0] if isinstance(value, list) and value and isinstance(value[0], str) else None
    rest = value[1:] if kind is not None else []
    if kind == "read" and len(rest) == 1 and isinstance(rest[0], str):
        return ReadFile(rest[0])
    if kind == "command" and len(rest) == 1 and isinstance(rest[0], str):
        return RunCommand(rest[0])
    if kind == "text" and len(rest) <= 1 and all(isinstance(text, str) for text in rest):
        return Text(*rest)
    if kind == "error" and 1 <= len(rest) <= 2 and isinstance(rest[0], int) and 400 <= rest[0] <= 599 and all(
            isinstance(message, str) for message in rest[1:]):
        return HttpError(rest[0], rest[1] if len(rest) == 2 else "scripted failure")
    if kind == "hang" and not rest:
        return Hang()
    raise ValueError(f"{where}: {json.dumps(value)} is not a reply: write [\"read\", PATH], [\"command\", CMD], "
                     f"[\"text\"], [\"text\", TEXT], [\"error\", STATUS], [\"error\", STATUS, MESSAGE] or [\"hang\"]")


def runs_from_json(script: object, where: str) -> dict[str, list[Replies]]:
    """The runs of a script file's JSON value, each query's entries turned into replies; ValueError naming the
    query and the entry that is wrong."""
    if not isinstance(script, dict):
        raise ValueError(f"{where}: the script must be an object mapping each query to its list of runs")
    runs: dict[str, list[Replies]] = {}
    for query, entries in script.items():
        if not isinstance(entries, list) or not entries:
            raise ValueError(f"{where}: {json.dumps(query)}: give a non-empty list of runs")
        runs[query] = []
        for number, entry in enumerate(entries, 1):
            at = f"{where}: {json.dumps(query)}, run {number}"
            if isinstance(entry, list) and entry and all(isinstance(step, list) for step in entry):
                runs[query].append([reply_from_json(step, f"{at}, step {index}") for index, step in enumerate(entry)])
            else:
                runs[query].append(reply_from_json(entry, at))
    return runs


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--script", required=True, type=Path)
    parser.add_argument("--ready", required=True, type=Path)
    parser.add_argument("--log", type=Path)
    args = parser.parse_args(argv[1:])
    try:
        try:
            script = json.loads(args.script.read_text())
        except json.JSONDecodeError as error:
            raise ValueError(f"{args.script}: not JSON ({error})") from error
        runs = runs_from_json(script, str(args.script))
    except (OSError, ValueError) as error:
        print(f"fake_responses: {error}", file=sys.stderr)
        return 2
    done = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: done.set())
    threading.Thread(target=lambda: (sys.stdin.read(), done.set()), daemon=True).start()
    with ScriptedRuns(runs, args.log) as server:
        partial = args.ready.with_name(args.ready.name + ".partial")
        partial.write_text(json.dumps({"url": server.origin, "base_url": server.base_url}))
        os.replace(partial, args.ready)
        done.wait()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
