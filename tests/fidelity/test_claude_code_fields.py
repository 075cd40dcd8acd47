"""Claude Code 2.1.332's own frontmatter fields: what the real binary does with each probe skill when it runs,
against the findings of `skillforge lint --profile claude-code` (rules SF408-SF418).

Usage: test_claude_code_fields.py --binary target/debug/skillforge [--workers 2] [--only TEXT]

Each case is one probe project (`.claude/skills/demo/SKILL.md`, an empty HOME, a private network namespace, the
fake endpoint of real_clients.py) run through the binary in one of two ways:
- `model`: `claude -p hi`, the fake endpoint answering the first turn with a Skill tool call for `demo` (with
  `args` when the case has them); what comes back is the tool result and the skill's text the client sent;
- `user`: `claude -p "/demo ARGS"`, the skill typed as a command, the fake endpoint answering the first turn
  with the case's scripted tool call (a Bash `touch out.txt` for `allowed-tools`).
Every run also writes the client's `--debug-file` log. From the run, each case decides whether the binary showed
the problem its rule is about (a tool refused, the model sent verbatim and priced `unknown`, `invalid effort` or
`not recognized` in the log, no forked execution, a placeholder left as written, the arguments appended…); the
rule's finding must be present exactly then. Nothing expected is stored: every verdict comes from the binary
during this run. One documented deviation: `model: claude-sonet-4-5` (a misspelled full id, which skillforge
does not judge) is checked to stay a deviation.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import real_clients  # noqa: E402
from fidelity_common import Results, run_cli  # noqa: E402

SUITE = "claude code fields fidelity"
# 92 probe cases (one per field value) and the client-version check against 2.1.332; a list that shrinks below
# this fails.
MIN_CASES = 93
SUITE_TIMEOUT = 2400.0
SKILL = "demo"
BASH_TOUCH = real_clients.tool_use("Bash", {"command": "touch out.txt", "description": "touch"}, "toolu_fidelity_2")


@dataclass
class Case:
    label: str
    code: str
    frontmatter: str
    body: str = "Body."
    mode: str = "model"  # "model": a Skill tool call; "user": `/demo ARGS` typed
    args: str | None = None
    replies: list = field(default_factory=list)
    # Given the run's observation, whether the binary showed the rule's problem.
    shows_problem: object = None
    deviation: str | None = None


def skill_text(frontmatter: str, body: str) -> str:
    return f"---\nname: {SKILL}\ndescription: a probe skill for its fields\n{frontmatter}\n---\n{body}\n"


def message_texts(message: dict) -> list[str]:
    """The text parts and tool results of one message, tool results prefixed `TOOL_RESULT: `."""
    content = message.get("content")
    if isinstance(content, str):
        return [content]
    texts = []
    for part in content or []:
        if part.get("type") == "text":
            texts.append(part["text"])
        elif part.get("type") == "tool_result":
            inner = part.get("content")
            if isinstance(inner, list):
                inner = "".join(item.get("text", "") for item in inner if isinstance(item, dict))
            texts.append("TOOL_RESULT: " + str(inner))
    return texts


@dataclass
class Observation:
    result: dict
    posts: list[dict]
    log: str

    def turns(self) -> list[dict]:
        """The agent-turn requests (those that carry a tools list), in order."""
        return [post for post in self.posts if isinstance(post.get("tools"), list)]

    def after_skill(self) -> list[str]:
        """What the client sent back after the first turn (the last message of the main thread's second turn)."""
        main = [post for post in self.turns() if post is not self.turns()[0]]
        main = [post for post in main if len(post.get("messages", [])) > 2] or main
        return message_texts(main[0]["messages"][-1]) if main else []

    def skill_content(self) -> str:
        """The skill's text as the model received it: the text part after the tool result (model path) or the
        user message that carries the skill's base directory (user path)."""
        for post in self.turns():
            for message in post.get("messages", []):
                for text in message_texts(message):
                    if "Base directory for this skill:" in text:
                        return text
        return ""

    def denied(self, tool: str) -> bool:
        return any(denial.get("tool_name") == tool for denial in self.result.get("permission_denials") or [])


def observe(claude: str, project: Path, case: Case) -> Observation:
    with real_clients.Sandbox() as sandbox:
        log = sandbox.root / "debug.log"
        if case.mode == "model":
            skill_input = {"skill": SKILL, **({"args": case.args} if case.args is not None else {})}
            replies = [[real_clients.tool_use("Skill", skill_input)]]
            prompt = "hi"
        else:
            replies = case.replies
            prompt = f"/{SKILL}" + (f" {case.args}" if case.args else "")
        with real_clients.FakeAnthropic(replies) as server:
            env = real_clients.claude_env(sandbox.home, server.url)
            argv = [claude, "-p", prompt, "--output-format", "json", "--debug-file", str(log)]
            run = real_clients.run_bounded(argv, project, env)
            with server.lock:
                requests = list(server.requests)
        if run.returncode != 0:
            raise real_clients.ClientError(f"claude exited {run.returncode}: {run.stderr[:500]!r}")
        text = log.read_text(errors="replace") if log.exists() else ""
    posts = [r["body"] for r in requests if r["method"] == "POST" and isinstance(r["body"], dict)
             and r["path"].split("?")[0].endswith("/v1/messages")]
    return Observation(json.loads(run.stdout), posts, text)


# ---------------------------------------------------------------------------------------------------------------
# What counts as the problem, per field, read from the run


def tool_refused(obs: Observation) -> bool:
    """The skill meant to grant Bash; the Bash call it was followed by needed approval (refused headless)."""
    return obs.denied("Bash")


def model_problem(baseline_model: str):
    def decide(obs: Observation) -> bool:
        used = obs.turns()[0]["model"]
        usage = obs.result.get("modelUsage", {}).get(used, {})
        # Sent as written and unknown to the binary's own price table, or ignored (the session's model).
        # (An alias that resolves to the session's own model would look ignored; the probes name others.)
        return usage.get("costBasis") == "unknown" or used == baseline_model
    return decide


def log_has(text: str):
    return lambda obs: text in obs.log


def not_forked(obs: Observation) -> bool:
    return not any("(forked execution)" in text for text in obs.after_skill())


def skill_not_refused(obs: Observation) -> bool:
    """The skill was meant to be kept from the model; the Skill tool call loaded it."""
    return not any("cannot be used with Skill tool" in text for text in obs.after_skill())


def user_invocation_refused(obs: Observation) -> bool:
    """The skill was meant to be typed as a command; typed as `/demo` it was refused."""
    return "can only be invoked by Claude" in str(obs.result.get("result"))


def left_as_written(*texts: str):
    return lambda obs: any(text in obs.skill_content() for text in texts)


def arguments_appended(obs: Observation) -> bool:
    return "\nARGUMENTS: " in obs.skill_content()


def cases(baseline_model: str) -> list[Case]:
    found: list[Case] = []
    # Entries meant to grant Bash; the skill is typed as a command, then the model runs `touch out.txt`.
    for value in ["Bash", "bash", "Bsh", "BASH", "Bash(touch:*)", "bash(touch:*)", "[Bash]", "[bash, Read]",
                  "Read, Bash", "Read Bash", "Task Bash"]:
        found.append(Case(f"allowed-tools: {value}", "SF408", f"allowed-tools: {value}", mode="user",
                          replies=[[BASH_TOUCH]], shows_problem=tool_refused))

    decide_model = model_problem(baseline_model)
    for value in ["sonnet", "Sonnet", "haiku", "sonnet[1m]", "sonet", "gpt-4o", "4", "[sonnet]", "claude-sonnet-4-5"]:
        found.append(Case(f"model: {value}", "SF409", f"model: {value}", mode="user", shows_problem=decide_model))
    found.append(Case("model: claude-sonet-4-5", "SF409", "model: claude-sonet-4-5", mode="user",
                      shows_problem=decide_model,
                      deviation="a misspelled full model id: the binary sends it and prices it `unknown`; "
                                "skillforge holds no list of the API's ids and does not judge `claude-…` ids"))

    for value in ["high", "HIGH", "xhigh", "max", "3", "3x", "extreme", "ultra", '"high "', "[high]"]:
        found.append(Case(f"effort: {value}", "SF410", f"effort: {value}",
                          shows_problem=log_has(f"Skill {SKILL} has invalid effort")))

    for value in ["fork", "Fork", "forks", '"fork "', "[fork]"]:
        found.append(Case(f"context: {value}", "SF411", f"context: {value}", shows_problem=not_forked))
    for frontmatter in ["agent: Explore", "context: fork\nagent: Explore", "context: forks\nagent: Plan",
                        "context: fork\nagent: explorer"]:
        found.append(Case(f"agent, {frontmatter!r}", "SF412", frontmatter, shows_problem=not_forked))

    for value in ["bash", "BASH", "powershell", '" bash "', "fish", "zsh", "sh"]:
        found.append(Case(f"shell: {value}", "SF413", f"shell: {value}", body="Out: !`echo ok`",
                          shows_problem=log_has("is not recognized. Valid values: bash, powershell")))

    def hooks(event: str, hook: str) -> str:
        return f"hooks:\n  {event}:\n    - matcher: Bash\n      hooks:\n        - {hook}"
    hook_cases = {
        "valid command hook": hooks("PreToolUse", 'type: command\n          command: "true"'),
        "valid prompt hook": hooks("PreToolUse", "type: prompt\n          prompt: check"),
        "valid http hook": hooks("PreToolUse", 'type: http\n          url: "http://127.0.0.1:9/h"'),
        "valid agent hook": hooks("PostToolUse", "type: agent\n          prompt: check"),
        "unknown event": hooks("PreTooluse", 'type: command\n          command: "true"'),
        "matcher as a map": "hooks:\n  PreToolUse:\n    matcher: Bash",
        "command missing": hooks("PreToolUse", "type: command"),
        "unknown type": hooks("PreToolUse", 'type: shell\n          command: "true"'),
        "no type": hooks("PreToolUse", 'command: "true"'),
        "hooks as text": 'hooks: "echo hi"',
        "hooks as a list": 'hooks:\n  - matcher: Bash',
    }
    for label, frontmatter in hook_cases.items():
        found.append(Case(f"hooks, {label}", "SF414", frontmatter, shows_problem=lambda obs: (
            f"Skill '{SKILL}': hooks" in obs.log or f"Invalid hooks in skill '{SKILL}'" in obs.log)))

    # Values meant as true: the model's call must be refused.
    for value in ["true", '"true"', "yes", "On", "1", "TRUE", "ture", "enabled", "[true]"]:
        found.append(Case(f"disable-model-invocation: {value}", "SF415", f"disable-model-invocation: {value}",
                          shows_problem=skill_not_refused))
    # Values meant as true: typed as a command, the skill must run.
    for value in ["true", "yes", "On", "1", "ture", "enabled"]:
        found.append(Case(f"user-invocable: {value}", "SF415", f"user-invocable: {value}", mode="user", args="x",
                          shows_problem=user_invocation_refused))

    # Placeholders meant to take the arguments: a braced one stays as written.
    braced = {
        "${ARGUMENTS}": ("", "${ARGUMENTS}"),
        "${0}": ("", "${0}"),
        "${ARGUMENTS[0]}": ("", "${ARGUMENTS[0]}"),
        "${file}": ("arguments: file", "${file}"),
        "$ARGUMENTS": ("", "$ARGUMENTS"),
        "$0": ("", "$0"),
        "$ARGUMENTS[1]": ("", "$ARGUMENTS[1]"),
        "$file": ("arguments: file", "$file"),
    }
    for label, (frontmatter, placeholder) in braced.items():
        found.append(Case(f"placeholder {label}", "SF416", frontmatter, body=f"Use [{placeholder}].",
                          args="a0 a1 a2", shows_problem=left_as_written(f"[{placeholder}]")))
    # Positional placeholders, invoked with as many arguments as distinct indices: a skipped index leaves one.
    indexed = {"$0 $1": 2, "$1": 1, "$1 $2": 2, "$0 $2": 2, "$ARGUMENTS[1]": 1, "$ARGUMENTS[0] $1": 2}
    for body, count in indexed.items():
        written = body.split()
        found.append(Case(f"indices {body}", "SF417", "", body=" ".join(f"[{p}]" for p in written),
                          args=" ".join(f"a{i}" for i in range(count)),
                          shows_problem=left_as_written(*(f"[{p}]" for p in written))))
    # The hint, invoked with ten arguments: with no placeholder the arguments are appended.
    hinted = {
        "hint, no placeholder": ('argument-hint: "[title]"', "Open a ticket."),
        "hint, $ARGUMENTS": ('argument-hint: "[title]"', "Title: $ARGUMENTS."),
        "hint, $0": ('argument-hint: "[title]"', "Title: $0."),
        "hint, braced only": ('argument-hint: "[title]"', "Title: ${ARGUMENTS}."),
        "no hint, no placeholder": ("", "Open a ticket."),
    }
    for label, (frontmatter, body) in hinted.items():
        has_hint = "argument-hint" in frontmatter
        found.append(Case(label, "SF418", frontmatter, body=body, args=" ".join(f"a{i}" for i in range(10)),
                          shows_problem=lambda obs, has_hint=has_hint: has_hint and arguments_appended(obs)))
    return found


def lint_codes(binary: str, root: Path) -> set[str]:
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "LANG": "C.UTF-8", "HOME": tempfile.gettempdir()}
    out = run_cli(binary, ["lint", "--profile", "claude-code", "--format", "json", str(root)], env=env)
    if out.returncode not in (0, 1):
        raise real_clients.ClientError(f"skillforge lint exited {out.returncode}: {out.stderr[:500]!r}")
    files = json.loads(out.stdout)["files"]
    return {diagnostic["code"] for report in files for diagnostic in report["diagnostics"]}


def run_case(number: int, case: Case, claude: str, binary: str, base: Path):
    # Named by number: nothing of the case's text may show up in the paths the client echoes.
    project = base / f"probe-{number:03}"
    skill = project / ".claude" / "skills" / SKILL
    skill.mkdir(parents=True)
    (skill / "SKILL.md").write_text(skill_text(case.frontmatter, case.body))
    try:
        observation = observe(claude, project, case)
        problem = bool(case.shows_problem(observation))
        codes = lint_codes(binary, project / ".claude" / "skills")
    except (real_clients.ClientError, OSError, ValueError, KeyError, IndexError, subprocess.TimeoutExpired) as error:
        return None, None, repr(error)
    return problem, case.code in codes, None


def baseline(claude: str, base: Path) -> str:
    """The session's model: what `/demo` runs on when the skill sets none."""
    case = Case("baseline", "", "", mode="user")
    project = base / "baseline"
    skill = project / ".claude" / "skills" / SKILL
    skill.mkdir(parents=True)
    (skill / "SKILL.md").write_text(skill_text("", "Body."))
    return observe(claude, project, case).turns()[0]["model"]


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary", required=True)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--only", metavar="TEXT", action="append", default=[])
    args = parser.parse_args(argv[1:])
    real_clients.isolate_network(argv)
    binary = str(Path(args.binary).resolve())
    _codex, claude = real_clients.client_binaries()
    started = time.monotonic()
    results = Results()
    version = subprocess.run([claude, "--version"], capture_output=True, text=True, timeout=60,
                             env={"PATH": "/usr/bin:/bin", "HOME": tempfile.gettempdir()})
    results.check("client version", True, real_clients.CLAUDE_CODE_VERSION in version.stdout)
    with tempfile.TemporaryDirectory(prefix="sf-claude-fields-") as temp:
        base = Path(temp)
        session_model = baseline(claude, base)
        print(f"{SUITE}: the session's model is {session_model}")
        all_cases = cases(session_model)
        if args.only:
            all_cases = [case for case in all_cases if any(text in case.label for text in args.only)]
        print(f"{SUITE}: {len(all_cases)} probe projects, {args.workers} workers", flush=True)
        shown = {"problem": 0, "fine": 0}
        with ThreadPoolExecutor(max_workers=args.workers) as pool:
            futures = [pool.submit(run_case, number, case, claude, binary, base)
                       for number, case in enumerate(all_cases)]
            deadline = started + SUITE_TIMEOUT
            for case, future in zip(all_cases, futures):
                try:
                    problem, flagged, failure = future.result(timeout=max(1.0, deadline - time.monotonic()))
                except TimeoutError:
                    results.fail("suite time bound reached", f"{SUITE_TIMEOUT}s")
                    break
                label = f"{case.code} {case.label}"
                if failure is not None:
                    results.fail(label, failure)
                    continue
                shown["problem" if problem else "fine"] += 1
                if case.deviation is not None:
                    results.deviation(label, case.deviation)
                    # The deviation must hold as described: the binary shows the problem, lint is silent.
                    results.check(f"{label} (deviation holds)", (True, False), (problem, flagged))
                    continue
                results.check(f"{label}: binary showed the problem / lint flags it", problem, flagged)
        print(f"{SUITE}: the binary showed the problem in {shown['problem']} probes, not in {shown['fine']}")
    print(f"{SUITE}: {time.monotonic() - started:.0f}s")
    return results.finish(SUITE, MIN_CASES)


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv))
    except real_clients.ClientError as error:
        print(f"FAIL {SUITE}: {error}", file=sys.stderr)
        sys.exit(1)
