"""Fidelity of the GitHub Copilot CLI 1.0.102 model against the real binary, at test time.

For every case the real client (`@github/copilot` 1.0.102, installed by scripts/ensure-clients.sh) is started in
the case's project folder with a fresh HOME (tests/fidelity/copilot_client.py: private network namespace, every
process stopped by its id), and two things are taken from it:

- (a) the exact skills section of the system message `copilot -p hi` sends to a fake chat-completions endpoint
  (none when it sends none), which must equal `skillforge listing --dialect copilot --project P
  --with-client-skills` byte for byte, SKILL_CHAR_BUDGET passed to both (budget cases); and with the client's
  own skills disabled (`disabledSkills` in ~/.copilot/settings.json), the same without `--with-client-skills`,
  and for some of those the ROOTS form (`listing --dialect copilot ROOT… --skill-char-budget N`) too;
- (b) `copilot skill list --json` and its load errors on stderr, against every per-file verdict of
  `skillforge lint --profile copilot --format json` over the project's skill folders: a skill that loads is
  listed under that name and description (or shadowed by an earlier skill of the same name, which the client
  drops silently), a dropped one is reported with exactly that message, one lint says the client never reads is
  neither; and every skill or error the client reports is a file lint judged. Also: `listing --project` exits 1
  exactly when the client reports a load error.

Cases: one project holding every parse probe of tests/fidelity/client_probes.py and the extra probes below, each
in its own folder (precedence plays no part there; two probes that share a name are reported as shadowed); the
layout trees of client_probes.py; 500 generated skills in one project (verdicts, and the budget at several
SKILL_CHAR_BUDGET values); budget probes; a git repository with ancestors' and the user's skill folders.
Two client runs at a time. Prints `copilot fidelity: N passed, M failed`.

Known deviations, not compared (docs/clients-observed.md):
- frontmatter nested more than 1,024 flow levels (`[[[…`) is refused by Skillforge with `recursion limit
  exceeded`, without handing it to libyaml (whose scan is quadratic in the open levels); the client drops it too,
  possibly with a parse message instead;
- `COPILOT_SKILLS_DIRS`, `--add-dir`, `disabledSkills` other than the builtins, plugin skills: not modelled;
- lint judges each file as if its folder sat in a skill root: precedence between skills of one name is the
  listing's business (a shadowed skill is counted as such here, not as a loaded one);
- links out of a linted folder are not followed by lint (tree-symlink is compared through the section only).

Usage: test_copilot.py --binary target/debug/skillforge [--keep DIR]
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
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import client_probes  # noqa: E402
import copilot_client as cc  # noqa: E402
import real_clients as rc  # noqa: E402
from client_probes import fm  # noqa: E402
from fidelity_common import Results  # noqa: E402

# Checks this suite runs today: 4,073 (verdicts of 160 parse probes, 9 layout trees and 500 generated skills;
# 24 sections, 6 of them also in the ROOTS form, and 3 exit codes). Fewer means cases were lost.
MIN_CASES = 4000

ROOTS = (".github/skills", ".agents/skills", ".claude/skills")
BUILTINS = {"customize-cloud-agent", "github-pr-media"}
# Lint's reasons for files the client never reads (rather than reports): its Copilot model's, and the
# engine-wide one for a lowercase `skill.md`.
PASSED_OVER = ("Copilot ", "the file is named `skill.md`")

# Probes beyond client_probes.py: the rules the Copilot model adds (names, typed fields, body fallback).
EXTRA_PROBES: list[tuple[str, str, bytes]] = [
    ("name-spaces", "name-spaces", fm('name: "a  b  c"', "description: runs of spaces")),
    ("name-lead-space", "name-lead-space", fm('name: " lead"', "description: leading space")),
    ("name-blank", "name-blank", fm('name: "   "', "description: blank name")),
    ("name-tab", "name-tab", fm('name: "tab\\tx"', "description: tab in the name")),
    ("name-colon", "name-colon", fm('name: "a:b"', "description: colon in the name")),
    ("name-digit", "name-digit", fm("name: 0start", "description: digit first")),
    ("name-bool", "name-bool", fm("name: true", "description: boolean name")),
    ("name-list", "name-list", fm("name: [a]", "description: list name")),
    ("name-slash", "name-slash", fm("name: a/b", "description: slash")),
    ("name-64-spaces", "name-64-spaces", fm("name: " + "n" * 30 + "   " + "m" * 33, "description: spaces shrink it")),
    ("folder-space", "Upper Folder", fm("description: folder name with a space")),
    ("folder-dot-name", "x.y", fm("description: dots in the folder")),
    ("argument-hint-null", "argument-hint-null", fm("name: argument-hint-null", "description: d", "argument-hint:")),
    ("argument-hint-number", "argument-hint-number", fm("name: argument-hint-number", "description: d", "argument-hint: 3")),
    ("dmi-false", "dmi-false", fm("name: dmi-false", "description: d", "disable-model-invocation: false")),
    ("dmi-null", "dmi-null", fm("name: dmi-null", "description: d", "disable-model-invocation:")),
    ("dmi-yes", "dmi-yes", fm("name: dmi-yes", "description: d", "disable-model-invocation: yes")),
    ("tools-string", "tools-string", fm("name: tools-string", "description: d", "allowed-tools: Read Grep")),
    ("tools-numbers", "tools-numbers", fm("name: tools-numbers", "description: d", "allowed-tools: [1, 2]")),
    ("tools-map", "tools-map", fm("name: tools-map", "description: d", "allowed-tools: {a: b}")),
    ("tools-null", "tools-null", fm("name: tools-null", "description: d", "allowed-tools:")),
    ("fm-list", "fm-list", fm("- a", "- b")),
    ("fm-scalar", "fm-scalar", fm("just text")),
    ("literal-crlf", "literal-crlf", fm("name: literal-crlf", "description: |", "  one", "  two").replace(b"\n", b"\r\n")),
    ("literal-last", "literal-last", fm("name: literal-last", "license: MIT", "description: |", "  last key")),
    ("body-three", "body-three", fm("name: body-three", body="# T\n\n  one  \n## Sub\ntwo\n\n\nthree\nfour\n")),
    ("body-crlf", "body-crlf", fm("name: body-crlf", body="first\r\nsecond\r\n")),
    ("body-long", "body-long", fm("name: body-long", body=("x" * 700 + "\n") * 3)),
    ("body-astral", "body-astral", fm("name: body-astral", body="😀" * 600 + "\n")),
    ("body-hash", "body-hash", fm("name: body-hash", body="#tag line\n  # indented heading\ntext\n")),
    ("desc-1024-astral", "desc-1024-astral", fm("name: desc-1024-astral", "description: " + "😀" * 512)),
    ("desc-tabs", "desc-tabs", fm("name: desc-tabs", 'description: "a\\tb\\nc"')),
    ("desc-escapes", "desc-escapes", fm("name: desc-escapes", "description: a &amp; <b> 'q' \"d\"")),
    ("desc-custom-tag", "desc-custom-tag", fm("name: desc-custom-tag", "description: !custom text")),
    ("desc-binary", "desc-binary", fm("name: desc-binary", "description: !!binary aGVsbG8=")),
    ("closing-trail", "closing-trail", b"---\nname: closing-trail\ndescription: closing with text\n--- x\n---\nBody.\n"),
    ("bom-crlf", "bom-crlf", b"\xef\xbb\xbf" + fm("name: bom-crlf", "description: bom and crlf").replace(b"\n", b"\r\n")),
    ("merge-key", "merge-key", fm("base: &b {description: merged}", "<<: *b", "name: merge-key")),
    ("nested-meta", "nested-meta", fm("name: nested-meta", "description: d", "metadata:", "  a: [1, {b: c}]")),
    ("anchor-name", "anchor-name", fm("name: &n anchor-name", "description: *n")),
]


class Cli:
    def __init__(self, binary: str) -> None:
        self.binary = binary

    def run(self, arguments: list[str], env: dict[str, str]) -> subprocess.CompletedProcess:
        return subprocess.run([self.binary, *arguments], env=env, capture_output=True, timeout=300)


def realpath(path: str | Path, cwd: Path) -> str:
    path = Path(path)
    return os.path.realpath(path if path.is_absolute() else cwd / path)


def lint_verdicts(cli: Cli, project: Path, results: Results, label: str) -> dict[str, dict]:
    """`skillforge lint --profile copilot` over the project's skill folders: the verdict of each SKILL.md."""
    verdicts: dict[str, dict] = {}
    for root in ROOTS:
        folder = project / root
        if not folder.is_dir():
            continue
        out = cli.run(["lint", "--profile", "copilot", "--format", "json", str(folder)], {"PATH": "/usr/bin:/bin"})
        try:
            report = json.loads(out.stdout)
        except ValueError:
            results.fail(f"{label}: lint {root} exited {out.returncode}", out.stderr.decode(errors="replace")[-800:])
            continue
        for file in report["files"]:
            verdicts.setdefault(os.path.realpath(file["path"]), file["verdicts"][0])
    return verdicts


def compare_verdicts(label: str, project: Path, listed: cc.SkillList, verdicts: dict[str, dict],
                     results: Results) -> None:
    loaded = {}
    for skill in listed.skills:
        if skill["source"] == "builtin":
            continue
        loaded[realpath(Path(skill["path"]) / "SKILL.md", project)] = skill
    errors = {realpath(path, project): message for path, message in listed.errors}
    names = {skill["name"] for skill in listed.skills}
    for path, verdict in sorted(verdicts.items()):
        short = os.path.relpath(path, project)
        outcome = verdict["outcome"]
        if outcome in ("loads", "unlisted"):
            skill = loaded.get(path)
            if skill is None and verdict["name"] in names and path not in errors:
                results.check(f"{label} {short}: shadowed by an earlier {verdict['name']}", True, True)
                continue
            actual = None if skill is None else {"name": skill["name"], "description": skill["description"]}
            expected = {"name": verdict["name"], "description": verdict.get("description", actual and actual["description"])}
            results.check(f"{label} {short}: loads", actual or errors.get(path, "neither loaded nor reported"), expected)
        elif verdict["reason"].startswith(PASSED_OVER):
            state = "loaded" if path in loaded else "reported" if path in errors else "passed over"
            results.check(f"{label} {short}: passed over ({verdict['reason']})", state, "passed over")
        else:
            actual = errors.get(path, "loaded" if path in loaded else "neither loaded nor reported")
            results.check(f"{label} {short}: dropped", actual, verdict["reason"])
    known = set(verdicts)
    for path in sorted(set(loaded) | set(errors)):
        results.check(f"{label} {os.path.relpath(path, project)}: judged by lint", path in known, True)


def compare_section(cli: Cli, binary: str, label: str, project: Path, results: Results, home: Path | None = None,
                    env: dict | None = None, client_skills: bool = True, dropped: bool | None = None,
                    roots: bool = False) -> None:
    expected = cc.section(binary, project, home, env)
    with cc.Home(home) as sandbox:
        cli_env = {"PATH": "/usr/bin:/bin", "HOME": str(sandbox), **(env or {})}
        arguments = ["listing", "--dialect", "copilot", "--project", str(project)]
        if client_skills:
            arguments.append("--with-client-skills")
        out = cli.run(arguments, cli_env)
    results.check(f"{label}: section", expected or "", out.stdout.decode("utf-8", "replace"))
    if dropped is not None:
        results.check(f"{label}: exit code", 1 if dropped else 0, out.returncode)
    if roots:
        # The ROOTS form over the project's own skill folders, the budget given as a flag: the same section
        # when the client's own skills are off and every skill sits in the working folder's roots.
        folders = [str(project / root) for root in ROOTS if (project / root).is_dir()]
        budget = (env or {}).get("SKILL_CHAR_BUDGET")
        arguments = ["listing", *folders, "--dialect", "copilot"]
        if budget:
            arguments += ["--skill-char-budget", budget]
        out = cli.run(arguments, {"PATH": "/usr/bin:/bin"})
        results.check(f"{label}: ROOTS form", expected or "", out.stdout.decode("utf-8", "replace"))


def build_parse_project(root: Path) -> Path:
    project = root / "parse"
    seen = set()
    for probe_id, folder, content, *_ in [*client_probes.PROBES, *EXTRA_PROBES]:
        if probe_id in seen:
            raise SystemExit(f"duplicate probe id {probe_id}")
        seen.add(probe_id)
        skill = project / ".github/skills" / f"p-{probe_id}" / folder
        skill.mkdir(parents=True)
        (skill / "SKILL.md").write_bytes(content)
    return project


def build_budget_project(root: Path) -> Path:
    project = root / "budget"
    for name, description in [("a", "x" * 400), ("b", "y&" * 300), ("c", "z"), ("d", "é😀" * 100)]:
        skill = project / ".github/skills" / name
        skill.mkdir(parents=True)
        (skill / "SKILL.md").write_bytes(fm(f"name: {name}", f"description: {description}"))
    return project


def build_layers(root: Path, repository: bool) -> tuple[Path, Path]:
    """A git repository (or a `.git` folder holding only HEAD, which is none) whose working folder is two levels
    down, with skill folders at every level, above the repository and in HOME."""
    root = root / ("layers" if repository else "layers-head-only")
    top = root / "top"
    cwd = top / "mid" / "cwd"
    (top / ".git").mkdir(parents=True)
    (top / ".git" / "HEAD").write_text("ref: refs/heads/main\n")
    if repository:
        (top / ".git" / "objects").mkdir()
        (top / ".git" / "refs").mkdir()
    layout = {
        top / ".github/skills": ["r-gh", "shared", "zz-root"],
        top / ".agents/skills": ["r-ag"],
        top / "mid/.claude/skills": ["m-cl", "shared"],
        top / "mid/.github/skills": ["m-gh", "aa-mid"],
        cwd / ".github/skills": ["c-gh", "b-cwd", "a-cwd"],
        cwd / ".agents/skills": ["c-ag", "shared"],
        cwd / ".claude/skills": ["c-cl"],
        cwd / "below/.github/skills": ["below"],
        root / ".github/skills": ["above-git"],
    }
    for folder, names in layout.items():
        for name in names:
            skill = folder / name
            skill.mkdir(parents=True)
            (skill / "SKILL.md").write_bytes(fm(f"name: {name}", f"description: from {folder.relative_to(root)}"))
    home = root / "home"
    for folder, names in {home / ".copilot/skills": ["u-cop", "shared", "0-user"],
                          home / ".agents/skills": ["u-ag", "u-cop", "b-user"]}.items():
        for name in names:
            skill = folder / name
            skill.mkdir(parents=True)
            (skill / "SKILL.md").write_bytes(fm(f"name: {name}", f"description: from ~/{folder.relative_to(home)}"))
    broken = home / ".copilot/skills/u-broken"
    broken.mkdir()
    (broken / "SKILL.md").write_bytes(fm("name: u-broken", "description: a: b"))
    return cwd, home


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary", required=True)
    parser.add_argument("--keep", type=Path, help="write the projects here and keep them")
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args(argv[1:])
    rc.isolate_network(argv)
    started = time.monotonic()
    binary = cc.copilot_binary()
    cli = Cli(os.path.abspath(args.binary))
    work = args.keep or Path(tempfile.mkdtemp(prefix="sf-copilot-fidelity-"))
    work.mkdir(parents=True, exist_ok=True)
    work = work.resolve()
    results = Results()
    lock = threading.Lock()
    try:
        probes = work / "probes"
        subprocess.run([sys.executable, str(HERE / "client_probes.py"), str(probes), "--count", "500", "--chunk", "500"],
                       check=True, capture_output=True)
        parse = build_parse_project(work)
        budget = build_budget_project(work)
        layers, layers_home = build_layers(work, repository=True)
        loose, loose_home = build_layers(work, repository=False)
        nobuiltin = work / "home-nobuiltin"
        (nobuiltin / ".copilot").mkdir(parents=True)
        (nobuiltin / ".copilot/settings.json").write_text(json.dumps({"disabledSkills": sorted(BUILTINS)}))
        empty = work / "empty"
        empty.mkdir()

        def verdict_case(label: str, project: Path, home: Path | None = None) -> None:
            listed = cc.skill_list(binary, project, home)
            verdicts = lint_verdicts(cli, project, results, label)
            with lock:
                compare_verdicts(label, project, listed, verdicts, results)

        def section_case(label: str, project: Path, **options) -> None:
            local = Results()
            compare_section(cli, binary, label, project, local, **options)
            with lock:
                results.passed += local.passed
                results.failed += local.failed

        tasks = []
        budget_env = {"SKILL_CHAR_BUDGET": "100000000"}
        tasks.append(lambda: verdict_case("parse", parse))
        tasks.append(lambda: section_case("parse (all listed)", parse, env=budget_env, dropped=True))
        tasks.append(lambda: section_case("parse (no client skills)", parse, env=budget_env, home=nobuiltin,
                                          client_skills=False, roots=True))
        tasks.append(lambda: section_case("parse (default budget)", parse))
        trees = sorted(path for path in probes.iterdir() if path.name.startswith("tree-"))
        for tree in trees:
            # Lint does not follow links out of the folder it is given; the listing covers those.
            if tree.name != "tree-symlink":
                tasks.append(lambda tree=tree: verdict_case(tree.name, tree))
            tasks.append(lambda tree=tree: section_case(tree.name, tree))
        world = probes / "world-all"
        tasks.append(lambda: verdict_case("world-all", world))
        for value in (None, "5000", "14999", "1"):
            env = {"SKILL_CHAR_BUDGET": value} if value else None
            tasks.append(lambda env=env, value=value: section_case(f"world-all budget {value}", world, env=env))
        for value in ("20", "419", "420", "1200", "2000", "0", "abc"):
            tasks.append(lambda value=value: section_case(f"budget {value}", budget, env={"SKILL_CHAR_BUDGET": value},
                                                          home=nobuiltin, client_skills=False,
                                                          roots=value.isdigit() and value != "0"))
        tasks.append(lambda: section_case("layers", layers, home=layers_home, dropped=True))
        tasks.append(lambda: section_case("layers-head-only", loose, home=loose_home, dropped=True))
        tasks.append(lambda: section_case("empty, no client skills", empty, home=nobuiltin, client_skills=False))
        tasks.append(lambda: section_case("empty", empty))

        def guarded(task) -> None:
            try:
                task()
            except (rc.ClientError, subprocess.SubprocessError, OSError, ValueError) as error:
                with lock:
                    results.fail("client run", error)

        with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
            list(pool.map(guarded, tasks))
    finally:
        if args.keep is None:
            shutil.rmtree(work, ignore_errors=True)
    print(f"copilot fidelity: {time.monotonic() - started:.0f} s")
    return results.finish("copilot fidelity", MIN_CASES)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
