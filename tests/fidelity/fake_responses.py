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
"""

from __future__ import annotations

import json
import shlex
import sys
import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

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
