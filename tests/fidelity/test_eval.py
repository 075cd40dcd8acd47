"""`skillforge eval` against the real Claude Code and Codex binaries, with a scripted model endpoint.

Usage: test_eval.py --binary target/debug/skillforge [--only TEXT]

The clients are the pinned real binaries (scripts/ensure-clients.sh); the model is a fake endpoint on 127.0.0.1 that
answers each query as scripted: use a skill, read a skill's SKILL.md, answer in plain text, fail, or never answer.
Each case checks what `skillforge eval` reports against that known outcome, read from the real client's own event
stream, and:
- isolation: skillforge runs with a HOME holding a decoy skill of the same name (and its own settings); no request
  the client sends may carry the decoy, and each request's listing must carry the workspace's skill;
- k-run aggregation: a query answered differently on each of its runs;
- the caps: `--max-requests` stops the eval before the runs could pass it (the endpoint counts the requests), and
  `--max-cost-usd` before the first run;
- timeouts and cancellation (SIGINT): the run is stopped, and no process of any run is left (every client started
  is wrapped to record its process id; its whole process group must be gone), nor any run folder;
- the eval-file round trip between the three layouts, and the messages for a missing client or credentials.

The suite re-executes itself in a private network namespace (only the loopback), as real_clients.py does.
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import real_clients  # noqa: E402
from fidelity_common import Results  # noqa: E402
from fake_responses import FakeResponses, Hang, HttpError, ReadFile, RunCommand, Text  # noqa: E402
from scripted_anthropic import ERROR, HANG, READ, SKILL, TEXT, ScriptedAnthropic  # noqa: E402

SUITE = "eval fidelity"
MIN_CASES = 61

def write_skill(root: Path, folder: str, name: str, description: str, body: str = "Body.\n") -> None:
    (root / folder).mkdir(parents=True, exist_ok=True)
    (root / folder / "SKILL.md").write_text(f"---\nname: {name}\ndescription: {description}\n---\n{body}")


class Harness:
    def __init__(self, binary: Path, claude: str, codex: str, scratch: Path) -> None:
        self.binary = binary
        self.claude = claude
        self.codex = codex
        self.scratch = scratch
        self.workspace = scratch / "workspace"
        write_skill(self.workspace, "pdf", "pdf-tools", "Fill and merge PDF forms. Use for any PDF task.")
        write_skill(self.workspace, "sql", "sql", "Write and review SQL queries.")
        write_skill(self.workspace / "nested", "charts", "charts", "Draw charts from tables.")
        # The decoy HOME skillforge itself runs with: a user-level skill of the same name, user settings.
        self.home = scratch / "decoy-home"
        for folder in (".claude/skills", ".agents/skills", ".codex/skills"):
            write_skill(self.home / folder, "pdf", "pdf-tools", "DECOY-DESCRIPTION never to be used.", "DECOY BODY\n")
        (self.home / ".claude" / "settings.json").write_text('{"env": {"DECOY_SETTING": "1"}}')
        self.tmp = scratch / "tmp"
        self.tmp.mkdir()
        self.pids = scratch / "pids"
        self.wrappers = {}
        for name, real in (("claude", claude), ("codex", codex)):
            wrapper = scratch / f"{name}-recording"
            wrapper.write_text(f'#!/bin/sh\necho $$ >> "{self.pids}"\nexec "{real}" "$@"\n')
            wrapper.chmod(0o755)
            self.wrappers[name] = wrapper

    def env(self, base_url: str | None, extra: dict | None = None) -> dict:
        env = {
            "PATH": "/usr/bin:/bin",
            "HOME": str(self.home),
            "TMPDIR": str(self.tmp),
            "LANG": "C.UTF-8",
            "ANTHROPIC_API_KEY": "dummy-key-never-written",
        }
        if base_url:
            env["ANTHROPIC_BASE_URL"] = base_url
        env.update(extra or {})
        return env

    def queries(self, rows: list[dict], name: str = "queries.json") -> Path:
        path = self.scratch / name
        path.write_text(json.dumps(rows))
        return path

    def eval(self, queries: Path, args: list[str], env: dict, client: str = "claude", timeout: float = 600):
        argv = [
            str(self.binary), "eval", str(self.workspace), "--skill", "pdf-tools", "--queries", str(queries),
            "--client", "claude-code" if client == "claude" else "codex",
            "--client-bin", str(self.wrappers[client]), "--yes", "--format", "json", *args,
        ]
        return subprocess.run(argv, env=env, capture_output=True, timeout=timeout)

    def recorded_pids(self) -> list[int]:
        if not self.pids.exists():
            return []
        return [int(line) for line in self.pids.read_text().split()]

    def left_behind(self) -> list[str]:
        """Processes of any recorded client's group still alive, and run folders still on disk."""
        groups = set(self.recorded_pids())
        alive = []
        for entry in Path("/proc").iterdir():
            if not entry.name.isdigit():
                continue
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            fields = stat[stat.rindex(")") + 2 :].split()
            state, pgid = fields[0], int(fields[2])
            if pgid in groups and state != "Z":
                alive.append(f"process {entry.name} of group {pgid}")
        folders = [str(path) for path in self.tmp.iterdir() if path.name.startswith("skillforge-eval-")]
        return alive + folders


def check_isolation(results: Results, label: str, bodies: list[str], run, key: bytes) -> None:
    """The decoy skill in skillforge's own HOME never reaches the client; every request lists the workspace's
    skills (the nested competitor too); the credential is in neither the report nor the progress."""
    results.check(f"{label}: no request carries the decoy skill", [False] * len(bodies),
                  ["DECOY" in body for body in bodies])
    results.check(f"{label}: every request lists the workspace's skill", [True] * len(bodies),
                  ["Fill and merge PDF forms." in body for body in bodies])
    results.check(f"{label}: the competitor in a nested folder is installed too", [True] * len(bodies),
                  ["Draw charts from tables." in body for body in bodies])
    results.check(f"{label}: the credential is not in the output", False, key in run.stdout + run.stderr)


def report_of(run: subprocess.CompletedProcess, results: Results, label: str) -> dict | None:
    try:
        return json.loads(run.stdout)
    except ValueError:
        results.fail(f"{label}: no JSON report (exit {run.returncode})", run.stderr.decode(errors="replace")[-3000:])
        return None


def outcomes(report: dict) -> list[list[str]]:
    """Each query's runs as short strings: `skill:NAME:HOW`, `no-skill`, `error`, `timed-out`."""
    shown = []
    for query in report["queries"]:
        runs = []
        for run in query["runs"]:
            if run["outcome"] == "skill":
                runs.append(f"skill:{run['name']}:{run['how']}")
            else:
                runs.append(run["outcome"])
        shown.append(runs)
    return shown


# The queries both clients are run on; each client's endpoint script answers them by their index.
ROWS = [
    {"query": "Please fill in the tax PDF form", "should_trigger": True},
    {"query": "What is the capital of France?", "should_trigger": False},
    {"query": "Count orders per customer in SQL", "should_trigger": False, "expected_skill": "sql"},
    {"query": "Merge these two PDF files", "should_trigger": True},
    {"query": "--starts-with-dashes: plot a chart", "should_trigger": False},
]


def selection(only: list[str]):
    """Whether a case label is selected by `--only` (every label when none is given)."""
    return lambda label: not only or any(text in label for text in only)


def claude_cases(harness: Harness, results: Results, only: list[str]) -> None:
    wanted = selection(only)

    rows = ROWS
    script = {
        rows[0]["query"]: [(SKILL, "pdf")],
        rows[1]["query"]: [(TEXT,)],
        rows[2]["query"]: [(SKILL, "sql")],
        rows[3]["query"]: [(READ, "pdf")],
        rows[4]["query"]: [(SKILL, "charts")],
    }
    queries = harness.queries(rows)

    if wanted("claude detection"):
        with ScriptedAnthropic(script) as server:
            run = harness.eval(queries, [], harness.env(server.url))
            turns = list(server.agent_turns)
        report = report_of(run, results, "claude detection")
        if report is not None:
            results.check("claude detection: exit (every query passed)", 0, run.returncode)
            results.check(
                "claude detection: each run's skill, from the client's stream",
                [["skill:pdf-tools:skill-tool"], ["no-skill"], ["skill:sql:skill-tool"],
                 ["skill:pdf-tools:read-skill-file"], ["skill:charts:skill-tool"]],
                outcomes(report),
            )
            results.check("claude detection: the client's version", "2.1.332", report["client_version"])
            results.check("claude detection: one request per run", [5, 5], [report["requests"], len(turns)])
            results.check(
                "claude detection: pass counts",
                [(1, 1, 1), (1, 0, 1), (1, 0, 1), (1, 1, 1), (1, 0, 1)],
                [(q["passed"], q["triggered"], q["completed"]) for q in report["queries"]],
            )
            results.check(
                "claude detection: other skills used",
                [[], [], [{"name": "sql", "runs": 1}], [], [{"name": "charts", "runs": 1}]],
                [q["other_skills"] for q in report["queries"]],
            )
            metrics = {m["name"]: m for m in report["skills"]}
            results.check(
                "claude detection: precision and recall of the skill under test",
                (2, 0, 0, 1.0, 1.0),
                tuple(metrics["pdf-tools"][key] for key in
                      ("true_positives", "false_positives", "false_negatives", "precision", "recall")),
            )
            results.check("claude detection: sql counted as expected and used", (1, 0, 0),
                          tuple(metrics["sql"][k] for k in ("true_positives", "false_positives", "false_negatives")))
            check_isolation(results, "isolation (claude)", [json.dumps(body) for body in turns], run,
                            b"dummy-key-never-written")
            results.check("claude detection: nothing left behind", [], harness.left_behind())

    if wanted("claude text"):
        text_run = None
        with ScriptedAnthropic(script) as server:
            argv_env = harness.env(server.url)
            text_run = subprocess.run(
                [str(harness.binary), "eval", str(harness.workspace), "--skill", "pdf-tools", "--queries",
                 str(queries), "--client", "claude-code", "--client-bin", str(harness.wrappers["claude"]), "--yes"],
                env=argv_env, capture_output=True, timeout=600,
            )
        out = text_run.stdout.decode()
        results.check("claude text: a line per query with its verdict", 5,
                      len(re.findall(r"^  PASS 1/1 ", out, re.MULTILINE)))
        results.check("claude text: the other skill is named", True, "instead: sql 1/1" in out)
        results.check("claude text: the plan on stderr", True,
                      "3 skills installed" in text_run.stderr.decode() and "model requests" in text_run.stderr.decode())

    if wanted("claude runs"):
        flaky = [{"query": "Fill the PDF form for me", "should_trigger": True}]
        with ScriptedAnthropic({flaky[0]["query"]: [(SKILL, "pdf"), (TEXT,), (SKILL, "pdf")]}) as server:
            run = harness.eval(harness.queries(flaky, "flaky.json"), ["--runs", "3"], harness.env(server.url))
        report = report_of(run, results, "claude runs")
        if report is not None:
            query = report["queries"][0]
            results.check("claude runs: triggered 2 of 3", (2, 2, 3), (query["triggered"], query["passed"], query["completed"]))
            results.check("claude runs: pass@3 and not pass^3", (True, False), (query["pass_at_k"], query["pass_all_k"]))
            results.check("claude runs: recall over runs", 2 / 3,
                          {m["name"]: m for m in report["skills"]}["pdf-tools"]["recall"])

    if wanted("claude request cap"):
        with ScriptedAnthropic(script) as server:
            run = harness.eval(queries, ["--max-requests", "3"], harness.env(server.url))
            turns = len(server.agent_turns)
        report = report_of(run, results, "claude request cap")
        if report is not None:
            results.check("claude request cap: the endpoint saw 3 requests", 3, turns)
            results.check("claude request cap: stopped, 3 runs made", ("request-cap", 3),
                          (report["stopped"], report["runs_made"]))
            results.check("claude request cap: exit 2 (incomplete)", 2, run.returncode)
            results.check("claude request cap: the queries not run have no runs", [1, 1, 1, 0, 0],
                          [len(q["runs"]) for q in report["queries"]])

    if wanted("claude cost cap"):
        with ScriptedAnthropic(script) as server:
            run = harness.eval(queries, ["--max-cost-usd", "0"], harness.env(server.url))
            turns = len(server.agent_turns)
        report = report_of(run, results, "claude cost cap")
        if report is not None:
            results.check("claude cost cap: nothing sent", (0, "cost-cap", 0), (turns, report["stopped"], report["runs_made"]))

    if wanted("claude error"):
        failing = [{"query": "Fill the PDF but the service fails", "should_trigger": True}]
        with ScriptedAnthropic({failing[0]["query"]: [(ERROR, 400)]}) as server:
            run = harness.eval(harness.queries(failing, "failing.json"), [], harness.env(server.url))
        report = report_of(run, results, "claude error")
        if report is not None:
            results.check("claude error: the run failed", ["error"], outcomes(report)[0])
            message = report["queries"][0]["runs"][0].get("message", "")
            results.check("claude error: the client's message is kept", True, "scripted failure" in message)
            results.check("claude error: exit 2", 2, run.returncode)
            results.check("claude error: counts for nothing", (0, 0), (report["queries"][0]["completed"], report["queries"][0]["passed"]))

    if wanted("claude timeout"):
        stuck = [{"query": "Fill the PDF while the service hangs", "should_trigger": True}]
        with ScriptedAnthropic({stuck[0]["query"]: [(HANG,)]}) as server:
            run = harness.eval(harness.queries(stuck, "stuck.json"), ["--timeout", "8"], harness.env(server.url))
            left = harness.left_behind()
        report = report_of(run, results, "claude timeout")
        if report is not None:
            results.check("claude timeout: the run timed out", ["timed-out"], outcomes(report)[0])
            results.check("claude timeout: exit 2", 2, run.returncode)
        results.check("claude timeout: nothing left behind", [], left)

    if wanted("claude cancel"):
        stuck = [{"query": "Fill the PDF and wait forever", "should_trigger": True},
                 {"query": "Another query never run", "should_trigger": True}]
        with ScriptedAnthropic({stuck[0]["query"]: [(HANG,)]}) as server:
            argv = [str(harness.binary), "eval", str(harness.workspace), "--skill", "pdf-tools", "--queries",
                    str(harness.queries(stuck, "cancel.json")), "--client", "claude-code", "--client-bin",
                    str(harness.wrappers["claude"]), "--yes", "--format", "json", "--timeout", "500"]
            process = subprocess.Popen(argv, env=harness.env(server.url), stdout=subprocess.PIPE, stderr=subprocess.PIPE)
            deadline = time.monotonic() + 120
            while not server.agent_turns and time.monotonic() < deadline and process.poll() is None:
                time.sleep(0.1)
            if not server.agent_turns:
                process.kill()
                results.fail("claude cancel: the client never sent its request")
                return
            process.send_signal(signal.SIGINT)
            try:
                stdout, stderr = process.communicate(timeout=60)
            except subprocess.TimeoutExpired:
                process.kill()
                results.fail("claude cancel: skillforge did not stop within 60 s of SIGINT")
                return
            left = harness.left_behind()
        results.check("claude cancel: exit 2", 2, process.returncode)
        try:
            report = json.loads(stdout)
            results.check("claude cancel: reported as cancelled, no run kept", ("cancelled", 0, [0, 0]),
                          (report["stopped"], report["runs_made"], [len(q["runs"]) for q in report["queries"]]))
        except ValueError:
            results.fail("claude cancel: no JSON report", stderr.decode(errors="replace")[-2000:])
        results.check("claude cancel: nothing left behind", [], left)


class ScriptedResponses(FakeResponses):
    """FakeResponses whose script gives each query a list of runs: the n-th run of a query (counted at the
    request that carries no tool output yet) gets the n-th entry, the last one repeating."""

    def __init__(self, runs: dict[str, list]) -> None:
        super().__init__()
        self.runs = runs
        self.started: dict[str, int] = {}

    def reply_for(self, query, step):
        if query not in self.runs:
            return super().reply_for(query, step)
        if step == 0:
            self.started[query] = self.started.get(query, 0) + 1
        entries = self.runs[query]
        chosen = entries[min(self.started.get(query, 1), len(entries)) - 1]
        replies = list(chosen) if isinstance(chosen, list) else [chosen]
        return replies[step] if step < len(replies) else self.after_tool


def codex_config(base_url: str) -> list[str]:
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
    return [arg for pair in pairs for arg in ("--codex-config", pair)]


def codex_cases(harness: Harness, results: Results, only: list[str]) -> None:
    wanted = selection(only)

    def env() -> dict:
        environment = harness.env(None, {"FAKE_API_KEY": "fake-key-never-written"})
        del environment["ANTHROPIC_API_KEY"]
        return environment

    rows = ROWS
    runs = {
        rows[0]["query"]: [ReadFile(".agents/skills/pdf/SKILL.md")],
        rows[1]["query"]: [Text("Paris.")],
        rows[2]["query"]: [ReadFile(".agents/skills/sql/SKILL.md")],
        rows[3]["query"]: [[RunCommand("ls .agents/skills"), ReadFile(".agents/skills/pdf/SKILL.md")]],
        rows[4]["query"]: [ReadFile(".agents/skills/charts/SKILL.md")],
    }
    queries = harness.queries(rows, "codex.json")

    if wanted("codex detection"):
        with ScriptedResponses(runs) as server:
            run = harness.eval(queries, codex_config(server.base_url), env(), client="codex")
            bodies = [json.dumps(body) for path, body in server.posted()]
            queries_seen = [turn["query"] for turn in server.turns()]
        report = report_of(run, results, "codex detection")
        if report is not None:
            results.check("codex detection: exit (every query passed)", 0, run.returncode)
            results.check(
                "codex detection: each run's skill, from the client's stream",
                [["skill:pdf-tools:read-skill-file"], ["no-skill"], ["skill:sql:read-skill-file"],
                 ["skill:pdf-tools:read-skill-file"], ["skill:charts:read-skill-file"]],
                outcomes(report),
            )
            results.check("codex detection: the client's version", True,
                          "0.171.0" in (report["client_version"] or ""))
            results.check("codex detection: a listing before the read is its own request", [1, 1, 1, 2, 1],
                          [q["runs"][0]["requests"] for q in report["queries"]])
            results.check("codex detection: the query went whole, dashes and all", True,
                          rows[4]["query"] in queries_seen)
            check_isolation(results, "isolation (codex)", bodies, run, b"fake-key-never-written")
            results.check("codex detection: nothing left behind", [], harness.left_behind())

    if wanted("codex runs"):
        flaky = [{"query": "Fill the PDF form for me", "should_trigger": True}]
        script = {flaky[0]["query"]: [ReadFile(".agents/skills/pdf/SKILL.md"), Text("No."),
                                      ReadFile(".agents/skills/pdf/SKILL.md")]}
        with ScriptedResponses(script) as server:
            run = harness.eval(harness.queries(flaky, "codex-flaky.json"), ["--runs", "3", *codex_config(server.base_url)],
                               env(), client="codex")
        report = report_of(run, results, "codex runs")
        if report is not None:
            query = report["queries"][0]
            results.check("codex runs: triggered 2 of 3, pass@3, not pass^3", (2, 3, True, False),
                          (query["triggered"], query["completed"], query["pass_at_k"], query["pass_all_k"]))

    if wanted("codex request cap"):
        plain = [{"query": f"Plain question number {n}", "should_trigger": False} for n in range(5)]
        with ScriptedResponses({row["query"]: [Text("ok")] for row in plain}) as server:
            run = harness.eval(harness.queries(plain, "codex-cap.json"), ["--max-requests", "6", *codex_config(server.base_url)],
                               env(), client="codex")
            posts = len(server.turns())
        report = report_of(run, results, "codex request cap")
        if report is not None:
            # Each run may take 3 requests: after 4 runs of one request each, a fifth could reach 7.
            results.check("codex request cap: 4 runs, 4 requests, stopped", (4, 4, 4, "request-cap", 2),
                          (report["runs_made"], report["requests"], posts, report["stopped"], run.returncode))

    if wanted("codex error"):
        failing = [{"query": "Fill the PDF but the service fails", "should_trigger": True}]
        with ScriptedResponses({failing[0]["query"]: [HttpError(400, "scripted failure")]}) as server:
            run = harness.eval(harness.queries(failing, "codex-failing.json"), codex_config(server.base_url), env(),
                               client="codex")
        report = report_of(run, results, "codex error")
        if report is not None:
            message = report["queries"][0]["runs"][0].get("message", "")
            results.check("codex error: the run failed with the service's message", (["error"], True, 2),
                          (outcomes(report)[0], "scripted failure" in message, run.returncode))

    if wanted("codex timeout"):
        stuck = [{"query": "Fill the PDF while the service hangs", "should_trigger": True}]
        with ScriptedResponses({stuck[0]["query"]: [Hang()]}) as server:
            run = harness.eval(harness.queries(stuck, "codex-stuck.json"), ["--timeout", "8", *codex_config(server.base_url)],
                               env(), client="codex")
            left = harness.left_behind()
        report = report_of(run, results, "codex timeout")
        if report is not None:
            results.check("codex timeout: the run timed out", ["timed-out"], outcomes(report)[0])
        results.check("codex timeout: nothing left behind", [], left)

    if wanted("codex bad setting"):
        run = harness.eval(queries, ["--codex-config", "model_provider"], env(), client="codex")
        results.check("codex bad setting: refused before anything runs, naming it", (2, True),
                      (run.returncode, '--codex-config "model_provider" has no `=`' in run.stderr.decode()))
    if wanted("codex credentials"):
        run = harness.eval(queries, [], {k: v for k, v in env().items() if k != "FAKE_API_KEY"}, client="codex")
        results.check("codex credentials: CODEX_API_KEY named", (2, True),
                      (run.returncode, "CODEX_API_KEY" in run.stderr.decode()))


def usage_cases(harness: Harness, results: Results, only: list[str]) -> None:
    wanted = selection(only)

    rows = [{"query": "Fill the PDF", "should_trigger": True}]
    queries = harness.queries(rows, "usage.json")
    if wanted("usage missing client"):
        run = subprocess.run(
            [str(harness.binary), "eval", str(harness.workspace), "--skill", "pdf-tools", "--queries", str(queries),
             "--client", "claude-code", "--yes"],
            env=harness.env(None, {"PATH": str(harness.scratch / "empty-path")}), capture_output=True, timeout=60,
        )
        results.check("usage missing client: exit 2", 2, run.returncode)
        results.check("usage missing client: says what to do", True,
                      "Claude Code (`claude`) is not on PATH" in run.stderr.decode() and "--client-bin" in run.stderr.decode())
    if wanted("usage credentials"):
        env = harness.env(None)
        del env["ANTHROPIC_API_KEY"]
        run = harness.eval(queries, [], env)
        results.check("usage credentials: exit 2", 2, run.returncode)
        results.check("usage credentials: names the variable", True,
                      "no credentials for Claude Code" in run.stderr.decode() and "ANTHROPIC_API_KEY" in run.stderr.decode())
    if wanted("usage no such skill"):
        run = subprocess.run(
            [str(harness.binary), "eval", str(harness.workspace), "--skill", "nope", "--queries", str(queries),
             "--client", "claude-code", "--client-bin", str(harness.wrappers["claude"]), "--yes"],
            env=harness.env(None), capture_output=True, timeout=60,
        )
        results.check("usage no such skill: exit 2 and the skills there", (2, True),
                      (run.returncode, "skills there: charts, pdf-tools, sql" in run.stderr.decode()))
    if wanted("usage not asked"):
        run = subprocess.run(
            [str(harness.binary), "eval", str(harness.workspace), "--skill", "pdf-tools", "--queries", str(queries),
             "--client", "claude-code", "--client-bin", str(harness.wrappers["claude"])],
            env=harness.env("http://127.0.0.1:9"), capture_output=True, timeout=60, stdin=subprocess.DEVNULL,
        )
        results.check("usage not asked: no --yes without a terminal refuses to start", (2, True),
                      (run.returncode, "pass --yes" in run.stderr.decode()))
    if wanted("usage round trip"):
        table = [
            {"query": "fill", "should_trigger": "pdf-tools"},
            {"query": "sql please", "should_trigger": "sql"},
            {"query": "nothing", "should_trigger": None},
        ]
        source = harness.queries(table, "table.json")

        def convert(source: Path, layout: str, out: str) -> list | None:
            target = harness.scratch / out
            run = subprocess.run(
                [str(harness.binary), "eval", str(harness.workspace), "--skill", "pdf-tools", "--queries", str(source),
                 "--write-queries", str(target), "--layout", layout],
                env=harness.env(None), capture_output=True, timeout=60,
            )
            if run.returncode != 0:
                results.fail(f"usage round trip: --layout {layout}", run.stderr.decode())
                return None
            return json.loads(target.read_text())

        evals = convert(source, "evals-json", "evals.json")
        results.check("usage round trip: evals.json keeps the other skill", [
            {"query": "fill", "should_trigger": True},
            {"query": "sql please", "should_trigger": False, "expected_skill": "sql"},
            {"query": "nothing", "should_trigger": False},
        ], evals)
        creator = convert(harness.scratch / "evals.json", "skill-creator", "creator.json")
        results.check("usage round trip: skill-creator list", [
            {"query": "fill", "should_trigger": True},
            {"query": "sql please", "should_trigger": False},
            {"query": "nothing", "should_trigger": False},
        ], creator)
        back = convert(harness.scratch / "evals.json", "workspace", "back.json")
        results.check("usage round trip: back to the table", [
            {"query": "fill", "should_trigger": "pdf-tools"},
            {"query": "sql please", "should_trigger": "sql"},
            {"query": "nothing", "should_trigger": None},
        ], back)
        again = subprocess.run(
            [str(harness.binary), "eval", str(harness.workspace), "--skill", "pdf-tools", "--queries", str(source),
             "--client", "claude-code", "--write-queries", str(harness.scratch / "evals.json")],
            env=harness.env(None), capture_output=True, timeout=60,
        )
        results.check("usage round trip: an existing file is never replaced", (2, True),
                      (again.returncode, "never replaced" in again.stderr.decode()))


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary", required=True, type=Path)
    parser.add_argument("--only", action="append", default=[])
    args = parser.parse_args(argv[1:])
    real_clients.isolate_network(argv)
    codex, claude = real_clients.client_binaries()
    results = Results()
    scratch = Path(tempfile.mkdtemp(prefix="sf-eval-suite-"))
    try:
        harness = Harness(args.binary.resolve(), claude, codex, scratch)
        usage_cases(harness, results, args.only)
        claude_cases(harness, results, args.only)
        codex_cases(harness, results, args.only)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    return results.finish(SUITE, 0 if args.only else MIN_CASES)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
