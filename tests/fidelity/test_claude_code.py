"""Claude Code 2.1.332 listing fidelity: `skillforge listing --dialect claude-code --project P` against the real
binary, byte for byte, on every project.

Usage: test_claude_code.py --binary target/debug/skillforge --fixtures tests/fixtures [--workers 2]

For each project the real client runs (tests/fidelity/real_clients.py: `claude -p hi` against a fake endpoint on
127.0.0.1, a fresh empty HOME, a private network namespace) and the listing block is taken from the request it
sends; then skillforge runs with the same project and the same HOME, and its stdout must equal that block exactly.
Nothing expected is stored anywhere: every expected value comes from the binary during this run.

For the probe projects and fixture trees, `skillforge lint --profile claude-code` also runs over the project's
`.claude/skills`: a `loads` verdict must be the entry the binary sent for that folder (`- NAME: DESCRIPTION`, or
`- NAME` where the budget shrank it), any other verdict a folder the binary did not list; and every entry the
binary sent must have a linted SKILL.md (hidden folders included), except behind a link out of the linted
folder (lint never follows one): those are named and counted. And `skillforge listing
--dialect claude-code ROOT` over that `.claude/skills` must print the block byte for byte (not compared, and said
so, where lint skips a skill the binary lists).

Projects:
- the probe set of tests/fidelity/client_probes.py (probes, layout trees, real-world-shaped skills, all of them in
  one project, which runs the budget);
- every skill tree under tests/fixtures, placed as a project's `.claude/skills`;
- layouts written here: user skills in HOME beside project skills (order, a folder name in both), a git
  repository with skills at its root, in a subfolder and above it (which roots are read);
- the budget: `SLASH_COMMAND_TOOL_CHAR_BUDGET` against `--budget` on an over-budget tree, at several values, and
  at the edge of a small tree (the measure of the binary's own whole listing, and one either side);
- the client's own entries: `--with-client-skills` against the whole listing the binary sends (empty project,
  an over-budget project where some of them shrink).

No documented deviations: every case is compared byte for byte. (A description cut inside a UTF-16 surrogate
pair, `probe-desc-astral`, leaves a lone surrogate in the client's string; its request body carries U+FFFD there,
and so does skillforge.)

`--only TEXT` (repeatable) keeps the cases whose label contains one of the TEXTs (for a quick look; the case minimum then fails the run).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import real_clients  # noqa: E402
from fidelity_common import Results, run_cli  # noqa: E402

SUITE = "claude code fidelity"
# 142 probe projects, the fixture trees, the layouts, the budgets, the budget edge and the client's own entries
# against 2.1.332, and the lint verdicts of the probe projects and fixture trees: a case list that shrinks below this (a probe generator or a fixture folder that vanished)
# fails the suite.
MIN_CASES = 482
# Bounds the whole run (the machine is shared; this is a guard, never a measurement).
SUITE_TIMEOUT = 2400.0


class Case:
    """One project to compare: where the client starts, what HOME holds, extra client env / skillforge args."""

    def __init__(self, label, project, home_template=None, claude_env=None, cli_args=(), part="block",
                 verdicts=False):
        self.label = label
        self.project = Path(project)
        self.home_template = home_template
        self.claude_env = claude_env or {}
        self.cli_args = list(cli_args)
        # "block": header + project and user entries; "full": the whole listing with the client's own entries.
        self.part = part
        # Also compare `lint --profile claude-code` verdicts on the project's `.claude/skills` with the listing.
        self.verdicts = verdicts


def lint_verdicts(binary: str, root: Path, env: dict) -> tuple[list[dict] | None, list[str], str | None]:
    """The claude-code verdict of every SKILL.md `skillforge lint` finds under `root` ([] when it finds none),
    and the paths it names as not linted or not followed (links out of the root, a SKILL.md that is a folder),
    which lint refuses to read on purpose."""
    out = run_cli(binary, ["lint", "--profile", "claude-code", "--format", "json", str(root)], env=env)
    refused = [line.split(": ", 2)[1] for line in out.stderr.decode(errors="replace").splitlines()
               if line.startswith(("error: ", "note: ")) and line.endswith(("; not linted", "; not followed"))]
    if out.returncode == 2 and b"no SKILL.md found" in out.stderr:
        return [], refused, None
    try:
        reports = json.loads(out.stdout)["files"]
    except (ValueError, KeyError):
        return None, refused, f"skillforge lint exited {out.returncode}: {out.stderr[:500]!r}"
    if out.returncode not in (0, 1) and not refused:
        return None, refused, f"skillforge lint exited {out.returncode}: {out.stderr[:500]!r}"
    return [{"path": report["path"], **report["verdicts"][0]} for report in reports], refused, None


def compare_verdicts(verdicts: list[dict], refused: list[str], root: Path,
                     entries: list[str]) -> tuple[dict, dict, list[str]]:
    """What the client did with each SKILL.md lint found, and what lint's verdict says it does.

    Per file (its path below the root): ("listed", ENTRY) when the client's listing has an entry for its folder
    (ENTRY as sent: `- NAME: DESCRIPTION`, or `- NAME` when the budget shrank it), else ("not listed",). Lint's
    side: a `loads` verdict is ("listed", `- NAME: DESCRIPTION`), shrunk to `- NAME` where the client shrank the
    entry; `unlisted` and `skipped` are ("not listed",). Client entries for folders lint did not find are kept
    apart (returned as the third value) when lint refused to read it (`refused`: a link out of the root); any
    other, hidden folders included, is a difference."""
    refused_folders = {Path(path).relative_to(root).parts[0] for path in refused if Path(path).is_relative_to(root)
                       and Path(path) != root}
    by_folder = {real_clients._entry_name(entry): entry for entry in entries}
    expected: dict = {}
    actual: dict = {}
    for verdict in verdicts:
        relative = Path(verdict["path"]).relative_to(root)
        key = str(relative)
        folder = relative.parts[0]
        entry = by_folder.get(folder) if len(relative.parts) == 2 else None
        expected[key] = ("listed", entry) if entry is not None else ("not listed",)
        if verdict["outcome"] == "loads":
            line = f"- {verdict['name']}: {verdict['description']}"
            if entry is not None and ": " not in entry.split("\n", 1)[0]:
                line = f"- {verdict['name']}"
            actual[key] = ("listed", line)
        else:
            actual[key] = ("not listed",)
    unlinted = []
    for folder, entry in by_folder.items():
        key = f"{folder}/SKILL.md"
        if key in expected:
            continue
        if folder in refused_folders:
            unlinted.append(f"{key} (lint does not follow a link out of the linted folder)")
        else:
            expected[key] = ("listed", entry)
    return expected, actual, unlinted


def run_case(case: Case, claude: str, binary: str, builtin: list[str]) -> tuple[str, bytes | None, str | None, object]:
    """Runs the client and skillforge for one case. Returns (label, skillforge stdout, expected text, problem)."""
    try:
        with real_clients.Sandbox() as sandbox:
            if case.home_template is not None:
                shutil.copytree(case.home_template, sandbox.home, symlinks=True, dirs_exist_ok=True)
            with real_clients.FakeAnthropic() as server:
                env = real_clients.claude_env(sandbox.home, server.url)
                env.update(case.claude_env)
                run = real_clients.run_bounded([claude, "-p", "hi", "--output-format", "json"], case.project, env)
                with server.lock:
                    requests = list(server.requests)
            if run.returncode != 0:
                return case.label, None, None, f"claude exited {run.returncode}: {run.stderr[:500]!r}"
            listing = real_clients.claude_listing(real_clients.claude_listing_text(requests), builtin)
            expected = listing["block"] if case.part == "block" else listing["full"] + "\n"
            cli_env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(sandbox.home), "LANG": "C.UTF-8"}
            out = run_cli(
                binary,
                ["listing", "--dialect", "claude-code", "--project", str(case.project), *case.cli_args],
                env=cli_env,
            )
            if out.returncode != 0:
                return case.label, out.stdout, expected, f"skillforge exited {out.returncode}: {out.stderr[:500]!r}"
            if case.verdicts:
                root = case.project / ".claude" / "skills"
                verdicts, refused, problem = lint_verdicts(binary, root, cli_env) if root.is_dir() else ([], [], None)
                if problem is not None:
                    case.verdict_result = (None, None, [], problem)
                else:
                    case.verdict_result = (*compare_verdicts(verdicts, refused, root, listing["entry_list"]), None)
                if root.is_dir():
                    # The ROOTS form over the same folder.
                    case.roots_form = run_cli(binary, ["listing", "--dialect", "claude-code", str(root)],
                                              env=cli_env).stdout
                    case.expected_block = expected
            return case.label, out.stdout, expected, None
    except (real_clients.ClientError, OSError, ValueError, subprocess.TimeoutExpired) as error:
        return case.label, None, None, repr(error)


def default_listing(claude: str, project: Path, builtin: list[str]) -> str | None:
    """The whole listing body the binary sends for `project` at its default budget (None if it fails)."""
    try:
        with real_clients.Sandbox() as sandbox:
            _run, requests = real_clients.claude_requests(claude, project, sandbox.home)
        full = real_clients.claude_listing(real_clients.claude_listing_text(requests), builtin)["full"]
    except (real_clients.ClientError, OSError, ValueError):
        return None
    return full[len(real_clients.CLAUDE_LISTING_HEADER):]


def fixture_trees(fixtures: Path) -> list[Path]:
    """Every folder under tests/fixtures that holds skill folders (a child folder with a SKILL.md of any case)."""
    found = set()
    for path in fixtures.rglob("*"):
        if path.is_file() and path.name.lower() == "skill.md" and not path.is_symlink():
            found.add(path.parent.parent)
    return sorted(found)


def write_skill(root: Path, folder: str, name: str, description: str) -> None:
    (root / folder).mkdir(parents=True, exist_ok=True)
    (root / folder / "SKILL.md").write_text(f"---\nname: {name}\ndescription: {description}\n---\nBody.\n")


def layouts(base: Path) -> list[Case]:
    """User skills beside project skills, and a git repository's roots."""
    cases = []
    home = base / "home-template"
    user = home / ".claude" / "skills"
    write_skill(user, "user-only", "user-only", "a user skill")
    write_skill(user, "both", "both", "the user's copy")
    write_skill(user, "Zed", "zed-name", "a user skill whose name differs")
    project = base / "with-user"
    write_skill(project / ".claude" / "skills", "both", "both", "the project's copy")
    write_skill(project / ".claude" / "skills", "aaa", "aaa", "a project skill")
    cases.append(Case("layout user and project skills", project, home_template=home))

    outer = base / "outer"
    write_skill(outer / ".claude" / "skills", "above-repo", "above-repo", "above the git root")
    repo = outer / "repo"
    repo.mkdir(parents=True)
    subprocess.run(["git", "init", "-q", str(repo)], check=True, timeout=60, capture_output=True)
    write_skill(repo / ".claude" / "skills", "at-root", "at-root", "at the git root")
    write_skill(repo / ".claude" / "skills", "same", "same", "the root's copy")
    sub = repo / "pkg" / "sub"
    write_skill(sub / ".claude" / "skills", "in-sub", "in-sub", "in the working folder")
    write_skill(sub / ".claude" / "skills", "same", "same", "the working folder's copy")
    write_skill(repo / "pkg" / ".claude" / "skills", "between", "between", "between root and working folder")
    cases.append(Case("layout git repository from a subfolder", sub))
    cases.append(Case("layout git repository from its root", repo))
    return cases


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary", required=True)
    parser.add_argument("--fixtures", required=True)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--only", metavar="TEXT", action="append", default=[],
                        help="keep only the cases whose label contains TEXT (repeatable)")
    args = parser.parse_args(argv[1:])
    real_clients.isolate_network(argv)
    binary = str(Path(args.binary).resolve())
    fixtures = Path(args.fixtures).resolve()
    _codex, claude = real_clients.client_binaries()
    started = time.monotonic()
    results = Results()

    version = subprocess.run([claude, "--version"], capture_output=True, text=True, timeout=60,
                             env={"PATH": "/usr/bin:/bin", "HOME": tempfile.gettempdir()})
    results.check("client version", True, real_clients.CLAUDE_CODE_VERSION in version.stdout)

    with tempfile.TemporaryDirectory(prefix="sf-claude-fidelity-") as temp:
        base = Path(temp)
        probes = base / "probes"
        subprocess.run([sys.executable, str(HERE / "client_probes.py"), str(probes)], check=True, timeout=600,
                       capture_output=True)
        manifest = json.loads((probes / "manifest.json").read_text())
        cases = [Case(f"probe project {entry['project']}", probes / entry["project"], verdicts=True)
                 for entry in manifest]

        trees = fixture_trees(fixtures)
        if not trees:
            results.fail("no fixture trees found", fixtures)
        for tree in trees:
            project = base / "fixtures" / str(tree.relative_to(fixtures)).replace("/", "__")
            project.mkdir(parents=True)
            shutil.copytree(tree, project / ".claude" / "skills", symlinks=True)
            cases.append(Case(f"fixture tree {tree.relative_to(fixtures)}", project, verdicts=True))

        cases += layouts(base / "layouts")

        over = probes / "tree-many-long"
        for budget in (1, 5000, 20000, 29999, 30000, 80000):
            cases.append(Case(f"budget {budget} on tree-many-long", over,
                              claude_env={"SLASH_COMMAND_TOOL_CHAR_BUDGET": str(budget)},
                              cli_args=["--budget", str(budget)]))
        empty = base / "empty-project"
        empty.mkdir()
        cases.append(Case("client's own entries, empty project", empty, cli_args=["--with-client-skills"], part="full"))
        cases.append(Case("client's own entries, over the budget", over, cli_args=["--with-client-skills"], part="full"))
        cases.append(Case("client's own entries, plain probe", probes / "probe-plain", cli_args=["--with-client-skills"],
                          part="full"))

        # The budget's edge: the binary's own whole listing of a small tree gives the measure at which the
        # listing just fits (its characters, newlines inside an entry not counted, plus one per line break:
        # an ASCII tree, so width is length); the binary then decides at that budget and one below it.
        edge_tree = probes / "tree-order"
        edge_text = default_listing(claude, edge_tree, builtin_entries := real_clients.claude_builtin_entries(claude))
        if edge_text is None:
            results.fail("budget edge: the client gave no listing for tree-order")
        else:
            entries = real_clients.split_entries(edge_text)
            edge = sum(len(entry) - entry.count("\n") for entry in entries) + len(entries) - 1
            for budget in (edge - 1, edge, edge + 1):
                cases.append(Case(f"budget edge {budget} (measure {edge}) on tree-order", edge_tree,
                                  claude_env={"SLASH_COMMAND_TOOL_CHAR_BUDGET": str(budget)},
                                  cli_args=["--budget", str(budget)]))
                cases.append(Case(f"budget edge {budget} (measure {edge}) on tree-order, client entries", edge_tree,
                                  claude_env={"SLASH_COMMAND_TOOL_CHAR_BUDGET": str(budget)},
                                  cli_args=["--budget", str(budget), "--with-client-skills"], part="full"))

        if args.only:
            cases = [case for case in cases if any(text in case.label for text in args.only)]
        builtin = builtin_entries
        print(f"{SUITE}: {len(cases)} projects, {args.workers} workers", flush=True)
        deadline = started + SUITE_TIMEOUT
        with ThreadPoolExecutor(max_workers=args.workers) as pool:
            futures = [pool.submit(run_case, case, claude, binary, builtin) for case in cases]
            unlinted_total = 0
            counts: dict[str, int] = {}
            for case, future in zip(cases, futures):
                remaining = max(1.0, deadline - time.monotonic())
                try:
                    label, actual, expected, problem = future.result(timeout=remaining)
                except TimeoutError:
                    results.fail("suite time bound reached", f"{SUITE_TIMEOUT}s")
                    for other in futures:
                        other.cancel()
                    break
                if problem is not None:
                    results.fail(label, problem)
                    continue
                results.check(label, expected.encode("utf-8"), actual)
                if case.verdicts:
                    wanted, linted, unlinted, verdict_problem = getattr(
                        case, "verdict_result", (None, None, [], "no verdicts were compared"))
                    if verdict_problem is not None:
                        results.fail(f"{label}: lint verdicts", verdict_problem)
                    else:
                        results.check(f"{label}: lint verdicts", wanted, linted)
                        for state in wanted.values():
                            counts[state[0]] = counts.get(state[0], 0) + 1
                        unlinted_total += len(unlinted)
                        for key in unlinted:
                            print(f"not linted {label}: {key}")
                        if getattr(case, "roots_form", None) is not None:
                            if unlinted:
                                print(f"not compared {label}: the ROOTS form (lint, which reads the folder for it, "
                                      f"skips {len(unlinted)} of the skills)")
                            else:
                                results.check(f"{label}: ROOTS form", case.expected_block.encode("utf-8"),
                                              case.roots_form)
            print(f"{SUITE}: lint verdicts compared per SKILL.md: "
                  + ", ".join(f"{count} {state}" for state, count in sorted(counts.items()))
                  + f"; {unlinted_total} listed skills that lint does not read (links out)")
    print(f"{SUITE}: {time.monotonic() - started:.0f}s")
    return results.finish(SUITE, MIN_CASES)


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv))
    except real_clients.ClientError as error:
        print(f"FAIL {SUITE}: {error}", file=sys.stderr)
        sys.exit(1)
