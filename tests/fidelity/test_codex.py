"""Fidelity of the Codex 0.171.0 model: `skillforge listing --dialect codex --project P` against the real binary.

For every case the real Codex (`@openai/codex` 0.171.0, installed by scripts/ensure-clients.sh) is started in
the case's project folder with a fresh HOME and CODEX_HOME (tests/fidelity/real_clients.py: private network
namespace, every process stopped by its id), and two things are taken from it at test time:

- the exact `<skills_instructions>` block of `codex debug prompt-input` (none when it lists no skill), which
  must equal skillforge's stdout byte for byte (empty when Codex sends no block);
- the load errors of `codex app-server` `skills/list` (path and message), which must equal the skills
  skillforge names on stderr as dropped, path for path; messages are compared exactly, except after
  `invalid YAML: ` (libyaml's own wording and positions are not reproduced: a documented deviation), and the
  exit code must be 1 when Codex drops a skill, else 0;
- where the working folder is the project: `skillforge lint --profile codex` over its `.agents/skills` and
  `.codex/skills`, whose verdict for every SKILL.md must be what `skills/list` says of it (loaded under this
  name and description, and listed in the block or not; dropped with this message; or passed over), and every
  skill Codex loads or reports must be linted (a link out of the linted folder, which lint never follows, is
  named and counted instead); and `skillforge listing --dialect codex ROOT…` over those folders, which must
  print the block byte for byte (not compared, and said so, where lint skips a skill Codex reads).

Cases: every project of tests/fidelity/client_probes.py (probes, layout trees, 500 generated skills); the
extra probes below (`.codex/skills`, `agents/openai.yaml` policies, metadata types, git layouts, links,
nulls, tags, control and line-break characters); every tree under tests/fixtures placed as a project's
`.agents/skills`, and fixture trees placed in `$CODEX_HOME/skills` and `~/.agents/skills` together; the
budget trees at several `model_context_window` values (`--context-window N`). Nothing is skipped: a
client run that fails is a failed case. Runs on 2 workers, each client run bounded by real_clients'
timeout and the whole suite by --deadline.

Usage: test_codex.py --binary target/debug/skillforge --fixtures tests/fixtures [--keep DIR]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import real_clients as rc  # noqa: E402
from fidelity_common import Results, shorten  # noqa: E402

# Checks this suite runs today: 2 per case (block; verdicts and exit code) over 142 probe projects, 28
# extra probes, 11 fixture cases and 27 budget cases, and the lint verdicts of the 174 cases whose working
# folder is the project (probes, extra probes without HOME or CODEX_HOME, fixtures). A smaller count means
# cases were lost.
MIN_CASES = 763

# Context windows for the budget trees: around the 2 % threshold (1,349 / 1,350), where skills drop
# (1,000; 100,000), where descriptions are shared out (200,000; 400,000), and around the largest window
# the budget follows (871,950; 1,000,000; 2,000,000).
WINDOWS = [1_000, 1_349, 1_350, 100_000, 200_000, 400_000, 871_950, 1_000_000, 2_000_000]
BUDGET_TREES = ["tree-many-long", "tree-many-short", "world-all"]

YAML_PREFIX = "invalid YAML: "
YAML_WORDING = "libyaml's error wording and positions are not reproduced; compared up to " + repr(YAML_PREFIX)

# Cases where skillforge is known to differ from Codex, with the reason. Each is still run, and must still
# differ (a deviation that no longer holds is a failure, so the list cannot go stale).
DEVIATIONS = {
    "extra-null-tag-text": "serde_yaml refuses `!!null x` (a null tag on a non-null text); the engine's "
    "YAML layer does not keep tag names, so the text is read as the description",
}


def skill(name: str, description: str, extra: str = "") -> bytes:
    return f"---\nname: {name}\ndescription: {description}\n{extra}---\nBody.\n".encode()


# Extra probes: (id, {path below the project: bytes or a symlink target "->target"}, working folder below
# the project, {path below HOME: bytes}, {path below CODEX_HOME: bytes}). Each rests on a question the
# probe set left open; the ids are named in the model's doc comments.
A = ".agents/skills"
EXTRA: list[tuple[str, dict, str, dict, dict]] = [
    ("p1", {f".codex/skills/cx/SKILL.md": skill("cx", "in .codex/skills"), f"{A}/ag/SKILL.md": skill("ag", "in .agents")}, "", {}, {}),
    ("p2", {
        f"{A}/noimp/SKILL.md": skill("noimp", "implicit off"),
        f"{A}/noimp/agents/openai.yaml": b"policy:\n  allow_implicit_invocation: false\n",
        f"{A}/badyaml/SKILL.md": skill("badyaml", "openai yaml broken"),
        f"{A}/badyaml/agents/openai.yaml": b"policy: [\n",
        f"{A}/prod/SKILL.md": skill("prod", "products"),
        f"{A}/prod/agents/openai.yaml": b"policy:\n  products: [chatgpt]\n",
    }, "", {}, {}),
    ("p3a", {f"{A}/m5/SKILL.md": skill("m5", "meta five", "metadata: 5\n")}, "", {}, {}),
    ("p3b", {f"{A}/msd/SKILL.md": skill("msd", "meta sd list", "metadata:\n  short-description: [a]\n")}, "", {}, {}),
    ("p3c", {f"{A}/msn/SKILL.md": skill("msn", "meta sd num", "metadata:\n  short-description: 5\n")}, "", {}, {}),
    ("p3d", {f"{A}/mlist/SKILL.md": skill("mlist", "meta list", "metadata: [a, b]\n")}, "", {}, {}),
    ("p5", {
        ".git/HEAD": b"ref: refs/heads/main\n",
        f"{A}/s-root/SKILL.md": skill("s-root", "at the git root"),
        f"sub/{A}/s-sub/SKILL.md": skill("s-sub", "between"),
        f"sub/subsub/{A}/s-cwd/SKILL.md": skill("s-cwd", "the working folder"),
        f"other/{A}/s-other/SKILL.md": skill("s-other", "not on the way"),
    }, "sub/subsub", {}, {}),
    ("p5-outside-git", {
        f"{A}/s-parent/SKILL.md": skill("s-parent", "parent, no git"),
        f"here/{A}/s-here/SKILL.md": skill("s-here", "the working folder"),
    }, "here", {}, {}),
    ("p6", {f"{A}/plain/SKILL.md": skill("plain", "plain one"), f"{A}/alias": "->plain", f"{A}/zalias": "->plain"}, "", {}, {}),
    ("extra-name-spaces", {f"{A}/d0/SKILL.md": skill('"  two  words "', "x")}, "", {}, {}),
    ("extra-null-title", {f"{A}/d1/SKILL.md": skill("x", "Null")}, "", {}, {}),
    ("extra-null-upper", {f"{A}/d2/SKILL.md": skill("x", "NULL")}, "", {}, {}),
    ("extra-int-tag", {f"{A}/d3/SKILL.md": skill("x", "!!int 5")}, "", {}, {}),
    ("extra-hex", {f"{A}/d4/SKILL.md": skill("x", "0x1F")}, "", {}, {}),
    ("extra-inf", {f"{A}/d5/SKILL.md": skill("x", ".inf")}, "", {}, {}),
    ("extra-empty-block", {f"{A}/d6/SKILL.md": skill("x", "|")}, "", {}, {}),
    ("extra-null-tag-text", {f"{A}/d8/SKILL.md": skill("x", "!!null x")}, "", {}, {}),
    ("extra-custom-tag", {f"{A}/d9/SKILL.md": skill("x", "!custom foo")}, "", {}, {}),
    ("extra-list-name", {f"{A}/d11/SKILL.md": skill("[a]", "list name")}, "", {}, {}),
    ("extra-top-list", {f"{A}/toplist/SKILL.md": b"---\n- a\n- b\n---\n"}, "", {}, {}),
    ("extra-comment-only", {f"{A}/comment/SKILL.md": b"---\n# only comment\n---\n"}, "", {}, {}),
    ("extra-nel", {f"{A}/nel/SKILL.md": "---\nname: uw\ndescription: a\u00a0b\u2003c\u3000d \u0085e\n---\n".encode()}, "", {}, {}),
    ("extra-dup-metadata", {f"{A}/dupmeta/SKILL.md": b"---\nname: dm\ndescription: ok\nmetadata: {}\nmetadata: {}\n---\n"}, "", {}, {}),
    ("extra-bell", {f"{A}/ctrl/SKILL.md": b"---\nname: ctrl\ndescription: bell \x07 here\n---\n"}, "", {}, {}),
    ("extra-inner-bom", {f"{A}/bomin/SKILL.md": "---\nname: bomin\ndescription: has \ufeff inside\n---\n".encode()}, "", {}, {}),
    ("p21", {
        ".git/HEAD": b"ref: refs/heads/main\n",
        ".codex/skills/c-root/SKILL.md": skill("c-root", "codex at root"),
        f"{A}/a-root/SKILL.md": skill("a-root", "agents at root"),
        "sub/.codex/skills/c-sub/SKILL.md": skill("c-sub", "codex at sub"),
        "sub/.codex/skills/zz/SKILL.md": skill("dup", "codex dup name"),
        f"sub/{A}/a-sub/SKILL.md": skill("a-sub", "agents at sub"),
    }, "sub", {
        ".agents/skills/a-ha/SKILL.md": skill("a-ha", "home agents"),
        ".agents/skills/dup/SKILL.md": skill("dup", "home agents dup"),
    }, {
        "skills/b-ch/SKILL.md": skill("b-ch", "codex home"),
        "skills/dup/SKILL.md": skill("dup", "codex home dup"),
    }),
    ("p21-empty-git", {
        ".git/.keep": b"",
        ".codex/skills/c-root/SKILL.md": skill("c-root", "codex at root"),
        f"{A}/a-root/SKILL.md": skill("a-root", "agents at root"),
        "sub/.codex/skills/c-sub/SKILL.md": skill("c-sub", "codex at sub"),
    }, "sub", {}, {}),
    ("home-is-project", {f"{A}/both/SKILL.md": skill("both", "HOME is the working folder")}, "", {}, {}),
]


@dataclass
class Case:
    label: str
    cwd: Path
    home: Path | None = None
    codex_home: Path | None = None
    window: int | None = None
    # HOME is the project folder itself (its `.agents/skills` is then a user root and a repo root).
    home_is_project: bool = False
    # Also compare `lint --profile codex` verdicts on the working folder's skills folders with `skills/list`.
    verdicts: bool = False


def write_tree(base: Path, files: dict) -> None:
    for relative, data in files.items():
        path = base / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(data, str) and data.startswith("->"):
            os.symlink(data[2:], path)
        else:
            path.write_bytes(data)


def build_cases(work: Path, fixtures: Path) -> list[Case]:
    probes = work / "probes"
    made = subprocess.run([sys.executable, str(HERE / "client_probes.py"), str(probes)], capture_output=True, text=True)
    if made.returncode != 0:
        raise SystemExit(f"client_probes.py failed: {made.stderr}")

    manifest = json.loads((probes / "manifest.json").read_text())
    cases = [Case(entry["project"], probes / entry["project"], verdicts=True) for entry in manifest]
    extra = work / "extra"
    for case_id, files, cwd, home_files, codex_files in EXTRA:
        project = extra / case_id
        project.mkdir(parents=True)
        write_tree(project, files)
        home = codex_home = None
        if home_files:
            home = work / "homes" / case_id / "home"
            home.mkdir(parents=True)
            write_tree(home, home_files)
        if codex_files:
            codex_home = work / "homes" / case_id / "codex-home"
            codex_home.mkdir(parents=True)
            write_tree(codex_home, codex_files)
        cases.append(Case(f"extra-{case_id}" if not case_id.startswith("extra-") else case_id, project / cwd,
                          home, codex_home, home_is_project=case_id == "home-is-project",
                          verdicts=not (cwd or home or codex_home or case_id == "home-is-project")))
    trees = sorted(path for path in fixtures.iterdir() if path.is_dir())
    if len(trees) < 10:
        raise SystemExit(f"only {len(trees)} fixture trees under {fixtures}")
    for tree in trees:
        project = work / "fixtures" / tree.name
        shutil.copytree(tree, project / A, symlinks=True)
        cases.append(Case(f"fixture-{tree.name}", project, verdicts=True))
    # Fixture trees in all three places at once: CODEX_HOME, ~/.agents, and a git project seen from below.
    layered = work / "layered"
    (layered / "project" / ".git").mkdir(parents=True)
    shutil.copytree(fixtures / "previews-workspace", layered / "project" / A, symlinks=True)
    (layered / "project" / "deeper").mkdir()
    shutil.copytree(fixtures / "nagents-formats", layered / "codex-home" / "skills", symlinks=True)
    shutil.copytree(fixtures / "skill-file-case", layered / "home" / ".agents" / "skills", symlinks=True)
    cases.append(Case("fixtures-layered", layered / "project" / "deeper", layered / "home", layered / "codex-home"))
    for tree in BUDGET_TREES:
        for window in WINDOWS:
            cases.append(Case(f"{tree}@{window}", probes / tree, window=window))
    return cases


# ---------------------------------------------------------------------------------------------------------------


def dropped_from_stderr(stderr: str) -> dict[str, str] | None:
    """skillforge's `codex VERSION skips PATH: MESSAGE` lines as {path: message}; None if a line is not one."""
    prefix = f"codex {rc.CODEX_VERSION} skips "
    found = {}
    for line in stderr.splitlines():
        if not line.startswith(prefix) or ".md: " not in line:
            return None
        path, _, message = line[len(prefix):].partition(".md: ")
        found[path + ".md"] = message
    return found


def comparable(message: str) -> str:
    return YAML_PREFIX if message.startswith(YAML_PREFIX) else message


def run_case(case: Case, codex: str, binary: str) -> dict:
    """Runs Codex twice (prompt input, skills/list) and skillforge once for `case`; returns what each did."""
    config = [f"model_context_window={case.window}"] if case.window else []
    with rc.Sandbox() as sandbox:
        home, codex_home = sandbox.home, sandbox.codex_home
        if case.home:
            shutil.copytree(case.home, home, symlinks=True, dirs_exist_ok=True)
        if case.codex_home:
            shutil.copytree(case.codex_home, codex_home, symlinks=True, dirs_exist_ok=True)
        if case.home_is_project:
            home = case.cwd.resolve()
        block = rc.codex_skills_block(rc.codex_prompt_input(codex, case.cwd.resolve(), home, codex_home, config))
        listed = rc.codex_skills_list(codex, case.cwd.resolve(), home, codex_home, config)
        arguments = [binary, "listing", "--dialect", "codex", "--project", str(case.cwd)]
        if case.window:
            arguments += ["--context-window", str(case.window)]
        env = {"PATH": "/usr/bin:/bin", "HOME": str(home), "CODEX_HOME": str(codex_home), "LANG": "C.UTF-8"}
        ours = subprocess.run(arguments, env=env, capture_output=True, timeout=300)
        linted = lint_verdicts(binary, case.cwd, env) if case.verdicts else None
        roots_form = None
        if case.verdicts:
            # The ROOTS form over the same skills folders, in Codex's root order.
            roots = [str(root.resolve()) for root in (case.cwd / ".codex" / "skills", case.cwd / A) if root.is_dir()]
            if roots:
                roots_form = subprocess.run([binary, "listing", "--dialect", "codex", *roots], env=env,
                                            capture_output=True, timeout=300).stdout
    return {"block": block, "errors": listed["errors"], "skills": listed["skills"], "ours": ours, "linted": linted,
            "project": case.cwd.resolve(), "roots_form": roots_form}


# The forms of the messages Codex's `skills/list` reports for a dropped skill (as observed on the binary): a
# skipped verdict whose reason has one of them is a drop Codex reports; any other is one it makes silently.
CODEX_MESSAGES = ("failed to read file: ", "missing YAML frontmatter delimited by ---", "invalid YAML: ",
                  "missing field `description`", "invalid name: ")


def lint_verdicts(binary: str, project: Path, env: dict) -> dict:
    """`skillforge lint --profile codex` over the project's `.agents/skills` and `.codex/skills`: the verdicts by
    resolved path, and the paths lint names as not linted or not followed (links out of the folder)."""
    verdicts: dict = {}
    refused: list[str] = []
    problems: list[str] = []
    for root in (project / A, project / ".codex" / "skills"):
        if not root.is_dir():
            continue
        out = subprocess.run([binary, "lint", "--profile", "codex", "--format", "json", str(root)], env=env,
                             capture_output=True, timeout=300)
        stderr = out.stderr.decode(errors="replace")
        refused += [line.split(": ", 2)[1] for line in stderr.splitlines()
                    if line.startswith(("error: ", "note: ")) and line.endswith(("; not linted", "; not followed"))]
        if out.returncode == 2 and "no SKILL.md found" in stderr:
            continue
        try:
            reports = json.loads(out.stdout)["files"]
        except (ValueError, KeyError):
            problems.append(f"skillforge lint exited {out.returncode}: {stderr[:500]}")
            continue
        for report in reports:
            verdicts.setdefault(os.path.realpath(report["path"]), report["verdicts"][0])
    return {"verdicts": verdicts, "refused": refused, "problems": problems}


# What the compared verdicts were, over the whole run (printed at the end).
VERDICT_COUNTS: dict[str, int] = {}


def compare_verdicts(outcome: dict) -> tuple[dict, dict, list[str]]:
    """Codex's `skills/list` and the block against lint's verdicts, per resolved SKILL.md path: ("loads", NAME,
    DESCRIPTION, listed) (DESCRIPTION None when not listed), ("dropped", MESSAGE) or ("ignored",). Paths Codex
    loaded or reported that lint did not read are kept apart when lint refused them on purpose (a link out of
    the folder); any other is a difference."""
    linted = outcome["linted"]
    block = outcome["block"] or ""
    loaded = {os.path.realpath(skill["path"]): skill for skill in outcome["skills"]}
    errors = {os.path.realpath(error["path"]): error["message"] for error in outcome["errors"]}

    def listed(name: str) -> bool:
        return any(line.startswith(f"- {name}:") for line in block.splitlines())

    def client(path: str) -> tuple:
        if path in loaded:
            skill = loaded[path]
            shown = listed(skill["name"])
            return ("loads", skill["name"], skill["description"] if shown else None, shown)
        if path in errors:
            return ("dropped", comparable(errors[path]))
        return ("ignored",)

    expected, actual = {}, {}
    for path, verdict in linted["verdicts"].items():
        expected[path] = client(path)
        if verdict["outcome"] == "loads":
            actual[path] = ("loads", verdict["name"], verdict["description"], True)
        elif verdict["outcome"] == "unlisted":
            actual[path] = ("loads", verdict["name"], None, False)
        elif verdict["reason"].startswith(CODEX_MESSAGES):
            actual[path] = ("dropped", comparable(verdict["reason"]))
        else:
            actual[path] = ("ignored",)
    refused = {os.path.realpath(path) for path in linted["refused"]}
    unlinted = []
    for path in sorted(set(loaded) | set(errors)):
        if path in expected:
            continue
        if any(path == r or path.startswith(r + "/") for r in refused) or not any(
                path.startswith(os.path.realpath(outcome["project"] / root) + "/") for root in (A, ".codex/skills")):
            unlinted.append(f"{path} (lint does not follow a link out of the linted folder)")
        else:
            expected[path] = client(path)
    return expected, actual, unlinted


def compare(case: Case, outcome: dict, results: Results) -> None:
    expected = (outcome["block"] or "").encode()
    ours = outcome["ours"]
    label = case.label
    if label in DEVIATIONS:
        results.deviation(label, DEVIATIONS[label])
        results.check(f"{label}: still differs as documented", True, ours.stdout != expected)
    else:
        results.check(f"{label}: block", expected, ours.stdout)
    stderr = ours.stderr.decode("utf-8", errors="strict") if ours.stderr else ""
    ours_dropped = dropped_from_stderr(stderr)
    codex_dropped = {error["path"]: comparable(error["message"]) for error in outcome["errors"]}
    if label in DEVIATIONS:
        results.check(f"{label}: verdict still differs as documented", True, ours_dropped != codex_dropped)
        return
    if ours_dropped is None:
        results.fail(f"{label}: stderr holds more than dropped skills", stderr)
        return
    ours_dropped = {path: comparable(message) for path, message in ours_dropped.items()}
    results.check(
        f"{label}: dropped skills and exit code",
        (codex_dropped, 1 if codex_dropped else 0),
        (ours_dropped, ours.returncode),
    )
    if outcome["linted"] is not None:
        if outcome["linted"]["problems"]:
            results.fail(f"{label}: lint verdicts", outcome["linted"]["problems"])
            return
        expected_verdicts, linted_verdicts, unlinted = compare_verdicts(outcome)
        results.check(f"{label}: lint verdicts", expected_verdicts, linted_verdicts)
        for state in expected_verdicts.values():
            VERDICT_COUNTS[state[0]] = VERDICT_COUNTS.get(state[0], 0) + 1
        VERDICT_COUNTS["not linted"] = VERDICT_COUNTS.get("not linted", 0) + len(unlinted)
        for path in unlinted:
            print(f"not linted {label}: {path}")
        if outcome["roots_form"] is not None:
            if unlinted:
                print(f"not compared {label}: the ROOTS form (lint, which reads the folders for it, skips "
                      f"{len(unlinted)} of the skills)")
            else:
                results.check(f"{label}: ROOTS form", expected, outcome["roots_form"])


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary", required=True)
    parser.add_argument("--fixtures", required=True, type=Path)
    parser.add_argument("--keep", type=Path, help="build the cases here and keep them (must not exist)")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--deadline", type=float, default=1200.0, help="seconds for the whole suite")
    args = parser.parse_args(argv[1:])
    rc.isolate_network(argv)
    codex, _claude = rc.client_binaries()
    binary = str(Path(args.binary).resolve())
    work = args.keep.resolve() if args.keep else Path(tempfile.mkdtemp(prefix="sf-codex-"))
    work.mkdir(parents=True, exist_ok=True)
    results = Results()
    results.deviation("invalid-YAML messages", YAML_WORDING)
    started = time.monotonic()
    lock = threading.Lock()
    try:
        cases = build_cases(work, args.fixtures.resolve())

        def one(case: Case):
            if time.monotonic() - started > args.deadline:
                return case, None, f"not run: the suite's {args.deadline:.0f}s deadline passed"
            try:
                return case, run_case(case, codex, binary), None
            except (rc.ClientError, OSError, ValueError, subprocess.TimeoutExpired) as error:
                return case, None, str(error)

        with ThreadPoolExecutor(max(1, args.jobs)) as pool:
            for case, outcome, error in pool.map(one, cases):
                with lock:
                    if outcome is None:
                        results.fail(f"{case.label}: block", error)
                        results.fail(f"{case.label}: dropped skills and exit code", error)
                    else:
                        compare(case, outcome, results)
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)
    print(f"codex fidelity: {len(cases)} cases against codex {rc.CODEX_VERSION} in {time.monotonic() - started:.0f}s")
    print("codex fidelity: lint verdicts compared per SKILL.md: "
          + ", ".join(f"{count} {state}" for state, count in sorted(VERDICT_COUNTS.items())))
    return results.finish("codex fidelity", MIN_CASES)


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv))
    except rc.ClientError as error:
        print(f"test_codex: {error}", file=sys.stderr)
        sys.exit(1)
