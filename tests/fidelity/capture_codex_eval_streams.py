"""Captures what the real Codex CLI prints with `codex exec --json` for skill evaluation runs, as fixtures.

Each case is one run of the pinned Codex (0.171.0, from $CODEX_BIN or scripts/ensure-clients.sh) in a fresh
sandbox: a project folder holding two skills in `.agents/skills` (`pdf-forms`, `release-notes`), an empty HOME,
an empty CODEX_HOME, and a TMPDIR of its own inside the sandbox. Codex talks to a scripted fake Responses
endpoint on 127.0.0.1 (tests/fidelity/fake_responses.py) that answers the case's query: a command reading a
SKILL.md, a plain answer, an HTTP error, or nothing at all. The whole script runs in a private network
namespace (real_clients.isolate_network); every Codex process is stopped by its process group id.

The command is exactly

    codex -c skills.bundled.enabled=false -c model_provider="fake" \\
          -c model_providers.fake.name="fake" -c model_providers.fake.base_url="http://127.0.0.1:PORT/v1" \\
          -c model_providers.fake.wire_api="responses" -c model_providers.fake.env_key="FAKE_API_KEY" \\
          -c model_providers.fake.request_max_retries=0 -c model_providers.fake.stream_max_retries=0 \\
          [-c model="…"] [case's own -c …] exec --json --skip-git-repo-check -s read-only QUERY </dev/null

with the environment PATH=/usr/bin:/bin, HOME, CODEX_HOME, TMPDIR, FAKE_API_KEY=fake-key, LANG, TERM and
dead proxies (real_clients._base_env).

Written to OUT (default crates/skillforge-core/tests/fixtures/eval/codex):
- `<case>.jsonl`: Codex's stdout, line for line, with the sandbox's folders replaced by placeholders
  (`@PROJECT@` for the project folder, `@HOME@`, `@CODEX_HOME@`, `@SANDBOX@` for the rest of the sandbox) and
  the random thread id by `@THREAD_ID@`; nothing else is changed;
- `cases.json`: per case the query, what the fake endpoint answered, Codex's exit code, the number of requests
  it posted and which skills the first request listed (the size of the first request body is printed);
- `listing-decoys.txt`: the `<skills_instructions>` block Codex sent when skills also lie in the places a
  sandbox must keep empty (HOME/.agents/skills, CODEX_HOME/skills), in the project's `.codex/skills`, and in
  places Codex does not read (HOME/.codex/skills with CODEX_HOME elsewhere, HOME/.claude/skills, the folder
  above the project).

`--check` captures into a temp folder and compares with OUT instead of writing (exit 1 on any difference);
test_codex_eval_streams.sh runs it as a fidelity suite.

Usage: capture_codex_eval_streams.py [--out DIR] [--check] [--case NAME]...
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import real_clients as rc  # noqa: E402
from fake_responses import FakeResponses, Hang, HttpError, ReadFile, Replies, RunCommand, Text, Usage  # noqa: E402

DEFAULT_OUT = rc.REPO / "crates" / "skillforge-core" / "tests" / "fixtures" / "eval" / "codex"
# A run that gets no answer is stopped after this long; its stream is what Codex printed until then.
HANG_BOUND = 8.0

SKILLS = {
    "pdf-forms": "Fill in, flatten and check PDF forms. Use when the user asks to fill or inspect a PDF form.",
    "release-notes": "Write release notes from a list of merged changes. Use when preparing a release.",
}
# Usage the fake endpoint reports: the first request of a turn, and the request that follows a tool output.
FIRST_USAGE = Usage(input_tokens=12000, cached_input_tokens=3072, output_tokens=40, reasoning_tokens=16)
AFTER_TOOL_USAGE = Usage(input_tokens=12300, cached_input_tokens=11776, output_tokens=25, reasoning_tokens=0)


@dataclass
class Case:
    name: str
    query: str
    # What the fake endpoint answers to the query, or a whole script; a function of the project folder (for
    # absolute paths).
    replies: object
    model: str | None = None
    bound: float = rc.RUN_TIMEOUT
    note: str = ""
    # Extra `-c` pairs (these replace the default retry settings of the same key).
    config: tuple[str, ...] = ()


def _failing_first(first: Replies, then: Replies):
    """A script for one query: `first` to the first request, `then` to every later one (a retried request
    carries the same query and no tool output)."""
    seen = []

    def script(_query: str) -> Replies:
        seen.append(_query)
        return first if len(seen) == 1 else then

    return script


def _skill_md(name: str, description: str) -> str:
    return f"---\nname: {name}\ndescription: {description}\n---\n# {name}\n\nSteps for {name}.\n"


CASES = [
    Case("read-relative", "Fill in the tax form in form.pdf",
         lambda project: ReadFile(".agents/skills/pdf-forms/SKILL.md", FIRST_USAGE),
         note="the model reads the skill by the path relative to the working folder"),
    Case("read-absolute", "Fill in the tax form in form.pdf",
         lambda project: ReadFile(f"{project}/.agents/skills/pdf-forms/SKILL.md", FIRST_USAGE),
         note="the model reads the skill by the absolute path of the listing (roots table expanded)"),
    Case("read-cat-absolute", "Fill in the tax form in form.pdf",
         lambda project: RunCommand(f"cat {project}/.agents/skills/pdf-forms/SKILL.md", FIRST_USAGE),
         note="`cat` instead of `sed`: Codex quotes the command differently"),
    Case("read-with-reasoning", "Fill in the tax form in form.pdf",
         lambda project: ReadFile(".agents/skills/pdf-forms/SKILL.md", FIRST_USAGE,
                                  reasoning="The pdf-forms skill covers this; reading it first."),
         note="a reasoning item (with a summary) before the call, as real models send"),
    Case("read-other-skill", "Fill in the tax form in form.pdf",
         lambda project: ReadFile(".agents/skills/release-notes/SKILL.md", FIRST_USAGE),
         note="the model reads a different skill than the one the query is about"),
    Case("read-both-skills", "Fill in the form, then write the release notes",
         lambda project: [ReadFile(".agents/skills/pdf-forms/SKILL.md", FIRST_USAGE),
                          ReadFile(".agents/skills/release-notes/SKILL.md", FIRST_USAGE)],
         note="two commands in one turn, one skill each"),
    Case("list-then-read", "Fill in the tax form in form.pdf",
         lambda project: [RunCommand("ls .agents/skills", FIRST_USAGE),
                          ReadFile(".agents/skills/pdf-forms/SKILL.md", FIRST_USAGE)],
         note="a command that is not a read comes first"),
    Case("read-in-workdir", "Fill in the tax form in form.pdf",
         lambda project: RunCommand("cat SKILL.md", FIRST_USAGE, workdir=".agents/skills/pdf-forms"),
         note="`exec_command` with a `workdir`: the command_execution item shows the command only, not the folder"),
    Case("read-missing-skill", "Fill in the tax form in form.pdf",
         lambda project: ReadFile(".agents/skills/no-such-skill/SKILL.md", FIRST_USAGE),
         note="the command fails (status failed, exit code 2); Codex's own exit code is still 0"),
    Case("read-relative-exec-command", "Fill in the tax form in form.pdf",
         lambda project: ReadFile(".agents/skills/pdf-forms/SKILL.md", FIRST_USAGE), model="gpt-5.5",
         note="a model without code mode: the `exec_command` function tool instead of the freeform `exec` tool"),
    Case("plain-answer", "What is the capital of France?",
         lambda project: Text("Paris.", FIRST_USAGE),
         note="no tool call: the turn ends with the answer"),
    Case("server-error-then-answer", "What is the capital of France?",
         lambda project: _failing_first(HttpError(500), Text("Paris.", FIRST_USAGE)),
         config=("model_providers.fake.stream_max_retries=1",),
         note="stream_max_retries=1: the 500 is retried once; the retry shows as a top-level `error` event "
              "although the turn then completes (exit 0)"),
    Case("unknown-model", "What is the capital of France?", lambda project: Text("Paris.", FIRST_USAGE),
         model="local-model",
         note="a model Codex has no metadata for: an `error` item before turn.started, and the run goes on"),
    Case("server-error-500", "Fill in the tax form in form.pdf", lambda project: HttpError(500),
         note="with request_max_retries=0 and stream_max_retries=0: one request, then turn.failed"),
    Case("rate-limited-429", "Fill in the tax form in form.pdf", lambda project: HttpError(429, "Rate limit reached")),
    Case("bad-request-400", "Fill in the tax form in form.pdf", lambda project: HttpError(400, "Invalid request")),
    Case("no-answer", "Fill in the tax form in form.pdf", lambda project: Hang(), bound=HANG_BOUND,
         note=f"the endpoint never answers; Codex waits (no timeout of its own before the answer's headers) "
              f"and is stopped after {HANG_BOUND:g}s: the stream ends without turn.completed or turn.failed"),
]


class Sandbox:
    """sandbox/{project,home,codex-home,tmp}; removed on exit. TMPDIR points into the sandbox, so that
    CODEX_HOME is not below the temp folder (Codex then refuses to make its helper links, and its Linux
    sandbox cannot start: the command is never run and no command_execution item is printed)."""

    def __init__(self) -> None:
        self.root = Path(tempfile.mkdtemp(prefix="sf-codex-eval-")).resolve()
        self.project, self.home = self.root / "project", self.root / "home"
        self.codex_home, self.tmp = self.root / "codex-home", self.root / "tmp"
        for folder in (self.project, self.home, self.codex_home, self.tmp):
            folder.mkdir()
        for name, description in SKILLS.items():
            skill = self.project / ".agents" / "skills" / name
            skill.mkdir(parents=True)
            (skill / "SKILL.md").write_text(_skill_md(name, description))

    def __enter__(self) -> Sandbox:
        return self

    def __exit__(self, *_exc) -> None:
        shutil.rmtree(self.root, ignore_errors=True)

    def placeholders(self, text: str) -> str:
        for folder, mark in ((self.project, "@PROJECT@"), (self.home, "@HOME@"), (self.codex_home, "@CODEX_HOME@"),
                             (self.root, "@SANDBOX@")):
            text = text.replace(str(folder), mark)
        return text


def codex_argv(codex: str, base_url: str, query: str, model: str | None, config: tuple[str, ...] = ()) -> list[str]:
    pairs = [
        "skills.bundled.enabled=false",
        'model_provider="fake"',
        'model_providers.fake.name="fake"',
        f'model_providers.fake.base_url="{base_url}"',
        'model_providers.fake.wire_api="responses"',
        'model_providers.fake.env_key="FAKE_API_KEY"',
        "model_providers.fake.request_max_retries=0",
        "model_providers.fake.stream_max_retries=0",
    ]
    keys = {pair.split("=", 1)[0] for pair in config}
    pairs = [pair for pair in pairs if pair.split("=", 1)[0] not in keys] + list(config)
    if model:
        pairs.append(f'model="{model}"')
    return [codex, *[arg for pair in pairs for arg in ("-c", pair)],
            "exec", "--json", "--skip-git-repo-check", "-s", "read-only", query]


def codex_env(sandbox: Sandbox) -> dict[str, str]:
    env = rc.codex_env(sandbox.home, sandbox.codex_home)
    env.update({"TMPDIR": str(sandbox.tmp), "FAKE_API_KEY": "fake-key"})
    return env


def run_codex(argv: list[str], cwd: Path, env: dict[str, str], bound: float) -> tuple[int | None, bytes, bytes]:
    """(exit code or None when stopped at `bound`, stdout, stderr); stdin is /dev/null."""
    process = subprocess.Popen(argv, cwd=cwd, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, start_new_session=True)
    try:
        stdout, stderr = process.communicate(timeout=bound)
        return process.returncode, stdout, stderr
    except subprocess.TimeoutExpired:
        rc._kill_group(process)
        stdout, stderr = process.communicate()
        return None, stdout, stderr
    finally:
        rc._kill_group(process)


def listed_skills(body: object) -> list[str]:
    """Names in the `### Available skills` part of the `<skills_instructions>` block of a request body."""
    block = skills_block(body) or ""
    return re.findall(r"^- ([^:\n]+): ", block.split("### Available skills", 1)[-1], re.MULTILINE)


def skills_block(body: object) -> str | None:
    if not isinstance(body, dict):
        return None
    for item in body.get("input") or []:
        for part in item.get("content") or [] if isinstance(item, dict) else []:
            text = part.get("text") if isinstance(part, dict) else None
            if isinstance(text, str) and text.startswith("<skills_instructions>"):
                return text
    return None


def normalise(sandbox: Sandbox, stdout: bytes) -> str:
    text = sandbox.placeholders(stdout.decode())
    return re.sub(r'"thread_id":"[0-9a-f-]{36}"', '"thread_id":"@THREAD_ID@"', text)


def capture_case(codex: str, case: Case) -> tuple[str, dict]:
    with Sandbox() as sandbox:
        replies = case.replies(sandbox.project)  # type: ignore[operator]
        script = replies if callable(replies) else {case.query: replies}
        with FakeResponses(script, after_tool=Text("Done.", AFTER_TOOL_USAGE)) as server:
            argv = codex_argv(codex, server.base_url, case.query, case.model, case.config)
            code, stdout, stderr = run_codex(argv, sandbox.project, codex_env(sandbox), case.bound)
            turns = server.turns()
            posts = [body for path, body in server.posted() if path.endswith("/responses")]
            with server.lock:
                raw = [r["raw"] for r in server.requests if r["method"] == "POST"]
        stream = normalise(sandbox, stdout)
        if not stream.strip():
            raise rc.ClientError(f"{case.name}: codex printed nothing; stderr:\n{stderr.decode(errors='replace')}")
        summary = {
            "query": case.query,
            "model": case.model or "(Codex's default)",
            "replies": [sandbox.placeholders(repr(turn["reply"])) for turn in turns],
            "exit_code": code,
            "stopped_after_seconds": None if code is not None else case.bound,
            "requests": len(posts),
            "listed_skills": listed_skills(posts[0]) if posts else [],
            "note": case.note,
            # Printed, not kept: it changes with the date and ids in the request.
            "_first_request_bytes": len(raw[0]) if raw else None,
        }
        return stream, summary


def capture_decoy_listing(codex: str) -> str:
    """The skills block of a plain run with decoy skills around the project (see the module's documentation)."""
    with Sandbox() as sandbox:
        for folder, name in (
            (sandbox.home / ".agents" / "skills", "decoy-home-agents"),
            (sandbox.codex_home / "skills", "decoy-codex-home"),
            (sandbox.home / ".codex" / "skills", "decoy-home-dot-codex"),
            (sandbox.home / ".claude" / "skills", "decoy-home-claude"),
            (sandbox.root / ".agents" / "skills", "decoy-above-project"),
            (sandbox.project / ".codex" / "skills", "project-dot-codex"),
        ):
            (folder / name).mkdir(parents=True)
            place = sandbox.placeholders(str(folder))
            (folder / name / "SKILL.md").write_text(_skill_md(name, f"Decoy skill in {place}."))
        with FakeResponses() as server:
            argv = codex_argv(codex, server.base_url, "hi", None)
            code, _stdout, stderr = run_codex(argv, sandbox.project, codex_env(sandbox), rc.RUN_TIMEOUT)
            posts = [body for path, body in server.posted() if path.endswith("/responses")]
        if code != 0 or not posts:
            raise rc.ClientError(f"decoy run exited {code}: {stderr.decode(errors='replace')[:2000]}")
        block = skills_block(posts[0])
        if block is None:
            raise rc.ClientError("the decoy run's request lists no skills")
        return sandbox.placeholders(block) + "\n"


def capture(codex: str, out: Path, names: list[str]) -> None:
    out.mkdir(parents=True, exist_ok=True)
    summaries = {}
    for case in CASES:
        if names and case.name not in names:
            continue
        stream, summary = capture_case(codex, case)
        (out / f"{case.name}.jsonl").write_text(stream)
        summaries[case.name] = summary
        print(f"{case.name}: exit {summary['exit_code']}, {summary['requests']} request(s), first request "
              f"{summary.pop('_first_request_bytes')} bytes", file=sys.stderr)
    if not names:
        (out / "cases.json").write_text(json.dumps(summaries, indent=1, ensure_ascii=False) + "\n")
        (out / "listing-decoys.txt").write_text(capture_decoy_listing(codex))


def compare(expected: Path, actual: Path, names: list[str]) -> int:
    """Number of the files `names` that differ between the two folders (each difference printed with both
    sides), after printing `codex eval streams: N equal, N differ`."""
    differences = 0
    for name in names:
        left, right = expected / name, actual / name
        old = left.read_text() if left.exists() else "(missing)"
        new = right.read_text() if right.exists() else "(missing)"
        if old != new:
            differences += 1
            print(f"FAIL {name} differs from what Codex prints now", file=sys.stderr)
            print(f"  committed: {old[:2000]!r}\n  captured:  {new[:2000]!r}", file=sys.stderr)
    print(f"codex eval streams: {len(names) - differences} equal, {differences} differ")
    return differences


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help="fixture folder (default: %(default)s)")
    parser.add_argument("--check", action="store_true", help="compare a fresh capture with --out, write nothing")
    parser.add_argument("--case", action="append", default=[], help="capture only this case (repeatable)")
    args = parser.parse_args(argv[1:])
    rc.isolate_network(argv)
    codex, _claude = rc.client_binaries()
    if not args.check:
        capture(codex, args.out, args.case)
        return 0
    with tempfile.TemporaryDirectory(prefix="sf-codex-eval-check-") as fresh:
        capture(codex, Path(fresh), args.case)
        if args.case:
            names = [f"{name}.jsonl" for name in args.case]
        else:
            names = sorted({p.name for p in args.out.iterdir()} | {p.name for p in Path(fresh).iterdir()})
        return 1 if compare(args.out, Path(fresh), names) else 0


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv))
    except rc.ClientError as error:
        print(f"capture_codex_eval_streams: {error}", file=sys.stderr)
        sys.exit(1)
