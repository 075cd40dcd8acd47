"""Fidelity of the Gemini CLI 0.61.0 model against the real client (`@google/gemini-cli` 0.61.0).

For every case the real client is started in the case's project folder (tests/fidelity/gemini_client.py:
private network namespace, fake Gemini API on 127.0.0.1, a HOME of the case's own, every process stopped by
its id), and the `# Available Agent Skills` section of the system instruction it sends is taken at test time.
Then, with the same HOME:

- `skillforge listing --dialect gemini --project P --with-client-skills --client-bundle BUNDLE` must print
  that section byte for byte (nothing when the client sends none);
- `skillforge lint --profile gemini --format json` over each of the case's skill roots: the verdict of every
  SKILL.md must be what the client did with it: listed under this name and description, or not listed (a
  skill replaced by a later one of the same name counts apart: lint judges one file at a time);
- `skillforge listing --dialect gemini ROOT…` over the project's two roots (the ROOTS form) must print the
  section without the client's two built-in entries, where the case has skills in the project only.

Gemini has no budget, so each run holds many skills: every probe of client_probes.py in one project, each
layout tree and the 500 generated skills in their own, the fixture trees spread over the four user and
project roots, and MUTATION_PROJECTS projects of generated frontmatters (quotes, colons, flow collections,
block scalars, anchors, tags, dates, numbers, duplicate keys, tabs, control characters, CRLF, broken
delimiters), several hundred each. Runs 2 at a time.

Usage: test_gemini.py --binary target/debug/skillforge --fixtures tests/fixtures [--keep DIR]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import client_probes  # noqa: E402
import gemini_client as gc  # noqa: E402
import real_clients as rc  # noqa: E402
from fidelity_common import Results  # noqa: E402

G = ".gemini/skills"
A = ".agents/skills"

# Checks this suite runs today: 3,255 (one section and one ROOTS-form check per case where it applies, one
# verdict per SKILL.md a root holds at depth 0 or 1). A smaller count means cases were lost.
MIN_CASES = 3250
MUTATION_PROJECTS = 2
MUTATIONS_PER_PROJECT = 900

# Verdicts where skillforge is known to differ from the client, by folder name of the skill, with the
# reason. Each is still compared and must still differ (a deviation that no longer holds is a failure).
DEVIATIONS: dict[str, str] = {}

# A js-yaml quirk the model does not reproduce (the engine's YAML parser refuses the text, as the YAML
# specification does): a quoted scalar left open at the end of a line and closed by a quote at the start
# of the next line ends there, and js-yaml reads the rest of that line as a new key
# (`description: 'first` + `'next': value` gives the description `first ` and a key `next'`). Gemini then
# uses the YAML values; the model falls back to the line parser. The generator leaves this shape out; the
# case `deviation-quoted-continuation` holds it and must still differ.
QUOTED_CONTINUATION = ("js-yaml ends a quoted scalar left open on one line at a quote that starts the next and reads "
                       "the rest of that line as a new key; the engine's parser refuses the text, so the model takes "
                       "the line parser's values")


@dataclass
class Case:
    label: str
    project: Path
    home: Path
    # The roots lint reads: (path, exists in the client's discovery order)
    roots: list[Path] = field(default_factory=list)
    # Whether the ROOTS form is compared (skills in the project's roots only).
    roots_form: bool = True
    # A documented deviation: the section must still differ from the client's, for this reason.
    deviation: str | None = None


# ---------------------------------------------------------------------------------------------------------------
# Generated frontmatters


# Values written after `description: ` (one line). They span js-yaml's types and errors and the line parser.
ONE_LINE_VALUES = [
    "A plain description.", "Use when: the user asks", "a: b: c", '"quoted: ok"', "'single: ok'", "text # trailing",
    "foo: bar # comment", "yes", "no", "on", "~", "null", "Null", "NULL", "", '""', "''", "'   '", '"   "', "123",
    "-7", "+12", "012", "1.50", "1.", ".5", "1e3", "1E-2", "1e", "0x1F", "0xZZ", "0o17", "0o9", "0b101", "0b2",
    "1_000", "_1", "1_", "1__0", ".inf", "-.Inf", "+.INF", ".nan", ".NaN", "true", "True", "TRUE", "tRUE", "false",
    "2024-01-02", "2024-1-2", "2024-01-02T10:11:12Z", "2001-12-14t21:59:43.10-05:00", "2001-12-14 21:59:43.10 -5",
    "2024-01-02 x", "12:30", "1:2:3", "[a, b]", "[]", "{}", "{a: b}", "[a, [b]]", "{a: {b: c}}", "[unclosed",
    "{unclosed", "]", "}", "a, b", "&anchor anchored", "*unknown", "!!str 123", "! 123", "!!str", "%percent",
    "@mention something", "`code` thing", "- dash", "-dash", "--double", "? question", "?question", ":colon start",
    "| pipe", "> gt", "a | b > c", "x: [y]", "C:\\dir", "path C:\\\\dir: x", "'it''s'", "'unterminated",
    '"unterminated', '"esc \\t \\u00e9 \\x41"', '"bad \\q escape"', '"a\\\\b"', "<tags> & </description> 'apos'",
    "#not a value", "a #b", "a#b", "café", "日本語のテキスト", "emoji ✨ here", "trailing spaces   ",
    "  extra leading spaces", "=", "<<", "...", "---x", "a --- b", "tab\there", "ends with a colon:",
    "say \"hi\": now", "'single: q' extra: x", '"starts quoted" then: more', "when: x, [y]", "x,y: z",
    "a: 'b'", "key: value, other: value", "\\backslash", "multiple   inner   spaces", "a\u00a0nbsp",
    "line\u2028separator", "nel\u0085here", "bom\ufeffinside", "ctrl\x01char", "del\x7fchar", "c1\x9fchar",
    "x\x00nul", "private\ue000use", "!custom tagged", "!!int 12", "!!binary aGVsbG8=", "!!null",
    "!!bool yes", "!!float 1", "!!timestamp 2020-01-01", "&a [x, y]", "&b {k: v}",
    "\tafter a tab", "a\t# tab comment", "a #", "a#", "#", "x\t:y", "!!set {a}", "!!omap [a: 1]", "!!seq [a]",
    "!!map {a: b}", "!!str [a]", "!<tag:yaml.org,2002:str> verbatim", "!!merge <<", "<<: x", '"\\N \\_ \\L \\P"',
    '"\\0 \\a \\e"', '"\\U0001F600 \\x7F"', '"multi', "'it''s", "\U0001F600 astral \U0001D11E",
    "ends with backslash\\", "a: b: c: d", "[a]: b", "{a: b}: c", "- - x", "? a : b", "a ? b", "value with ... dots",
    "... leading dots", "--- leading dashes", "* star", "& amp", "! bang", "~tilde", "null!", "truely", "0x", "0o",
    "00", "-0", "+0.0", "1e+3", "1.2e", "6.8523015e+5", "685.230_15e+03", "190:20:30", "2002-12-14", "2002-12-14T",
    "1_000_", "0b_1", "0x_A", "0o_7", ".", "-", "+", "-.", "._5", "inf", "nan", "NaN", "Yes", "Off", "y", "n",
]

# Whole value blocks: the lines after `description:` (the first item is what follows `description:` on its line).
BLOCK_VALUES = [
    (" |", ["  literal line1", "  literal line2"]),
    (" |-", ["  stripped"]),
    (" |+", ["  kept", ""]),
    (" >", ["  folded line1", "  folded line2"]),
    (" >-", ["  folded", "", "  para"]),
    (" >2", ["    indented more", "  base"]),
    (" |", ["  para one", "", "  para two"]),
    (" |", ["  x: y"]),
    (" |", ["  before", "---after"]),
    (" |", ["\tindented by tab"]),
    (" >", ["  a", "\tb"]),
    (" first line", ["  second: line"]),
    (" first line", ["  second line", "   third line"]),
    (" first line", ["\tsecond by tab"]),
    (" first", ["", "  after blank"]),
    ("", ["  - one", "  - two"]),
    ("", ["  a: b"]),
    ("", ["  a: b", "  c: d"]),
    ("", ["  indented plain", "  continued"]),
    ("", []),
    (" \"double", ["  over two lines\""]),
    (" 'single", ["  over two'"]),
    (" [a,", ["  b]"]),
    (" {a: b,", ["  c: d}"]),
    (" &d anchored", []),
    (" >", []),
    (" |", ["", "  after empty"]),
    (" |", ["  a", " b"]),
    (" plain", ["# comment", "  continued?"]),
    (" value", ["description: again"]),
    (" one", ["  name: inside-description"]),
    (" >-", ["", "  after blank", "    more indented", "  back"]),
    (" |2-", ["    two more", "  base"]),
    (" |1", ["  one more"]),
    (" \"multi", ["", "  line\""]),
    (" 'it''s", ["  continued'"]),
    (" plain", ["  # not a comment here", "  next"]),
    (" plain", [" one space continuation"]),
    ("", ["value at column zero"]),
    (" a", ["  b: c"]),
    (" |", ["  text", "  ---not a closer inside"]),
    (" >", ["  a", "", "", "  b"]),
    (" |+", ["  kept", "", ""]),
    (" |", ["  trailing tab\t"]),
    (" [a,", ["b]"]),
    ("\t|", ["  tabbed indicator"]),
]

# Lines added to some frontmatters, before or after the two fields.
EXTRA_LINES = [
    [], [], [], ["license: MIT"], ["metadata:", "  author: x", "  version: 1.0"], ["metadata:", "  note: a: b"],
    ["allowed-tools: [Read, Write]"], ["# a comment"], ["when_to_use: sometimes"], ["license: MIT: or not"],
    ["metadata:", "  name: nested-name"], ["metadata:", "  description: nested description"],
    ["x: &base {description: merged}"], ["Description: capitalised"], ["  description: indented key"],
    ["hooks:", "  PreToolUse:", "    - matcher: Bash"], ["tags: [a, b"], ["dup: 1", "dup: 2"],
    ["metadata:", "  k: 1", "  k: 2"], ["? complex key", ": complex value"], ["1: one", "'1': again"],
    ["true: yes", "'true': again"], ["<<: {extra: merged}"], ["<<: *nothing"], ["empty:"], ["\tx: tab indented"],
    ["list:", "- a", "- b"], ["...", "name: after-end"],
    ['"description": quoted key'], ["'name': quoted-key-name"], ["name : spaced-key"], ["&k key: anchored"],
    ["%YAML 1.2"], ["? name", ": complex-name"], ["x: |", "  name: in-block"], ["empty: ''"], ["n: !!binary aGk="],
    ["when: x # c"], ["k:\tv"], ["a:", "  - b", "  - c: d"], ["deep:", "  a:", "    b:", "      c: d"],
]

# Name forms, from a unique stem (most loads must stay unique so that verdicts are per file).
NAME_FORMS = [
    "{s}", "{s}", "{s}", '"{s}"', "'{s}'", "{s}: x", "{s}/y", '"{s}:a\\\\b<c>d*e?f|g"', "{s} with space", "{s} # c",
    "  {s}", "{s}  ", "&n {s}", "!!str {s}", '"{s}', "{s}\t", "Ü{s}", "[{s}]", "{{{s}: v}}", "|\n  {s}",
]
UNIQUE_FREE_NAMES = ["42", "true", "~", "null", "", '""', "1.50", "2024-01-02", "0x1F", "[a, b]"]

# Whole-file shapes: (opening, line ending, closing, body).
SHAPES = [
    ("---", "\n", "---", "Body.\n"),
    ("---", "\n", "---", "Body.\n"),
    ("---", "\n", "---", "Body.\n"),
    ("---", "\r\n", "---", "Body.\r\n"),
    ("---", "\n", "---", ""),
    ("---", "\n", "---trailing", "Body.\n"),
    ("---", "\n", "--- ", "Body.\n"),
    ("--- ", "\n", "---", "Body.\n"),
    ("\ufeff---", "\n", "---", "Body.\n"),
    ("\n---", "\n", "---", "Body.\n"),
    ("---", "\r", "---", "Body.\r"),
    ("---", "\n", "...", "Body.\n"),
    ("---", "\n", None, "Body.\n"),
    ("  ---", "\n", "---", "Body.\n"),
    ("---", "\n", "----", "Body.\n"),
]


# Whole frontmatters that are not a plain key list (`{s}` is the unique stem).
WHOLE_DOCUMENTS = [
    "{{name: {s}, description: flow document}}", "[{s}]", "just text {s}", "# only a comment", "",
    "name: {s}\ndescription: before end\n...", "%YAML 1.2\nname: {s}\ndescription: directive",
    "- name: {s}\n  description: in a list", "? name\n: {s}\n? description\n: explicit keys",
    "name: {s}\r\ndescription: crlf inside lf", "name: {s}\ndescription: x\n  name: indented-later",
    "name: {s}\ndescription:\tafter tab", "name:\t{s}\ndescription: tab after name",
    "name: {s}\ndescription: a\u2028b", "name: {s}\ndescription: a\u0085b",
    "name: {s}\ndescription: ok\nmetadata: {{a: 1, a: 2}}", "name: {s}\ndescription: ok\nx: [a, a]",
    "name: {s}\ndescription: ok\n<<: [{{a: 1}}, {{b: 2}}]", "name: {s}\ndescription: ok\n<<: [1]",
    "base: &b {{description: from merge}}\nname: {s}\n<<: *b", "base: &b {{name: {s}}}\n<<: *b\nname: again\ndescription: d",
    "name: {s}\ndescription: d\n? [a, b]\n: list key", "name: {s}\ndescription: d\n? [a, [b]]\n: nested list key",
    "name: {s}\ndescription: d\n? {{a: b}}\n: map key\n? {{c: d}}\n: other map key",
    "name: {s}\ndescription: d\n1: a\n1.0: b", "name: {s}\ndescription: d\nnull: a\n~: b",
    "name: {s}\ndescription: d\n0x1: a\n1: b", "name: {s}\ndescription: d\ntrue: a\nTrue: b",
]


def mutation(rng: random.Random, index: int) -> tuple[str, bytes]:
    """One generated SKILL.md: a folder name and its bytes."""
    stem = f"m{index:04d}"
    folder = stem
    if rng.random() < 0.06:
        text = "---\n" + rng.choice(WHOLE_DOCUMENTS).format(s=stem) + "\n---\nBody.\n"
        return folder, text.encode("utf-8")
    name_line = "name: " + (rng.choice(NAME_FORMS).format(s=stem) if rng.random() < 0.93
                            else rng.choice(UNIQUE_FREE_NAMES))
    if rng.random() < 0.6:
        description = ["description: " + rng.choice(ONE_LINE_VALUES)]
    else:
        first, rest = rng.choice(BLOCK_VALUES)
        description = ["description:" + first, *rest]
    lines = [name_line, *description]
    if rng.random() < 0.25:
        lines.reverse() if len(description) == 1 else None
    extra = rng.choice(EXTRA_LINES)
    if rng.random() < 0.5:
        lines = extra + lines
    else:
        lines = lines + extra
    roll = rng.random()
    if roll < 0.04:
        lines = [line for line in lines if not line.startswith("name:")]
    elif roll < 0.08:
        lines = [line for line in lines if not line.startswith("description:")]
    elif roll < 0.12:
        lines.append(rng.choice(["description: second one", "name: " + stem + "-second"]))
    if rng.random() < 0.05:
        lines.insert(0, "x: &v " + stem + " aliased")
        lines = [line.replace("description: ", "description: *v ", 1) if line.startswith("description: ")
                 else line for line in lines]
    # The js-yaml quirk of QUOTED_CONTINUATION is left out of the generated files: a line that starts with a
    # quote while an earlier line left that quote open is dropped.
    kept = []
    for line in lines:
        quote = line[:1]
        if quote in ("'", '"') and sum(previous.count(quote) for previous in kept) % 2 == 1:
            continue
        kept.append(line)
    lines = kept
    opening, ending, closing, body = SHAPES[0] if rng.random() < 0.6 else rng.choice(SHAPES)
    text = opening + ending + ending.join(lines) + ending
    if closing is not None:
        text += closing + ending + body
    else:
        text += body
    data = text.encode("utf-8")
    if rng.random() < 0.02:
        # Bytes that are not UTF-8, which the client reads as U+FFFD.
        data = data.replace(b"description: ", b"description: caf\xe9 ", 1)
    return folder, data


def write(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)


# ---------------------------------------------------------------------------------------------------------------
# Cases


def new_case(work: Path, label: str) -> Case:
    base = work / label
    project, home = base / "project", base / "home"
    project.mkdir(parents=True)
    home.mkdir(parents=True)
    return Case(label, project.resolve(), home.resolve())


def build_cases(work: Path, fixtures: Path, seed: int) -> list[Case]:
    cases: list[Case] = []
    probes = work / "client-probes"
    made = subprocess.run([sys.executable, str(HERE / "client_probes.py"), str(probes)], capture_output=True,
                          text=True, timeout=300)
    if made.returncode != 0:
        raise SystemExit(f"client_probes.py failed: {made.stderr}")

    # Every probe in one project, each in its own folder of `.gemini/skills`.
    case = new_case(work, "probes")
    for probe_id, folder, content, _covers in client_probes.PROBES:
        target = case.project / G / f"{probe_id}--{folder.replace('/', '_')}"
        write(target / "SKILL.md", content)
        for relative, data in client_probes.EXTRA_FILES.get(probe_id, {}).items():
            write(target / relative, data)
    cases.append(case)

    # Layout trees and the generated skills, as client_probes.py wrote them (`.agents/skills`; the
    # `.claude/skills` copy is not read by Gemini).
    manifest = json.loads((probes / "manifest.json").read_text())
    for entry in manifest:
        if entry["kind"] in ("tree", "world-all"):
            project = (probes / entry["project"]).resolve()
            home = work / "homes" / entry["project"]
            home.mkdir(parents=True)
            cases.append(Case(entry["project"], project, home.resolve()))

    # Fixture trees over the four user and project roots, four at a time (duplicate names across roots
    # exercise the precedence).
    trees = sorted(path for path in fixtures.iterdir() if path.is_dir())
    if len(trees) < 10:
        raise SystemExit(f"only {len(trees)} fixture trees under {fixtures}")
    for start in range(0, len(trees), 4):
        case = new_case(work, f"fixtures-{start // 4}")
        places = [case.home / ".gemini/skills", case.home / ".agents/skills", case.project / G, case.project / A]
        for tree, place in zip(trees[start : start + 4], places):
            shutil.copytree(tree, place, symlinks=True)
        case.roots_form = False
        cases.append(case)

    # The same skill names in every root: the later root's skill takes the first one's place.
    case = new_case(work, "roots")
    for index, place in enumerate([case.home / ".gemini/skills", case.home / ".agents/skills", case.project / G,
                                   case.project / A]):
        write(place / "dup" / "SKILL.md", client_probes.simple("dup", f"dup from root {index}"))
        write(place / f"only{index}" / "SKILL.md", client_probes.simple(f"only{index}", f"only in root {index}"))
        write(place / "SKILL.md", client_probes.simple(f"root-own-{index}", "the root's own file"))
        write(place / f"zz{index}" / "SKILL.md", client_probes.simple("shared-late", f"shared, root {index}"))
    write(case.project / ".claude/skills/claude-only/SKILL.md", client_probes.simple("claude-only", "not read"))
    write(case.project / G / "skill-creator" / "SKILL.md",
          client_probes.simple("skill-creator", "overrides the built-in"))
    case.roots_form = False
    cases.append(case)

    # The documented js-yaml quirk (QUOTED_CONTINUATION).
    case = new_case(work, "deviation-quoted-continuation")
    write(case.project / G / "quoted-continuation" / "SKILL.md",
          b"---\nname: quoted-continuation\ndescription: 'first\n'next': value\n---\nBody.\n")
    case.deviation = QUOTED_CONTINUATION
    cases.append(case)

    # Generated frontmatters.
    rng = random.Random(seed)
    for number in range(MUTATION_PROJECTS):
        case = new_case(work, f"mutations-{number}")
        for index in range(MUTATIONS_PER_PROJECT):
            folder, data = mutation(rng, number * MUTATIONS_PER_PROJECT + index)
            root = G if index % 3 else A
            write(case.project / root / folder / "SKILL.md", data)
        cases.append(case)
    return cases


# ---------------------------------------------------------------------------------------------------------------
# Running and comparing


def case_roots(case: Case) -> list[Path]:
    """The skill roots the client reads, in its order, that exist (a linked root included)."""
    roots = [case.home / ".gemini/skills", case.home / ".agents/skills", case.project / G, case.project / A]
    seen, result = set(), []
    for root in roots:
        if root.is_dir() and root not in seen:
            seen.add(root)
            result.append(root)
    return result


def candidate_files(roots: list[Path]) -> list[str]:
    """Every file named SKILL.md at depth 0 or 1 of the roots, as the client would name it."""
    found = []
    for root in roots:
        if (root / "SKILL.md").exists():
            found.append(str(root / "SKILL.md"))
        for child in sorted(root.iterdir()):
            if (child / "SKILL.md").exists():
                found.append(str(child / "SKILL.md"))
    return found


# How far an entry may sit from its place in the model's order when the client's order differs (the
# asynchronous walk has been seen to move an entry by up to 3 places among 500).
MAX_DISPLACEMENT = 16


def displacement(client: str, ours: str, locations: list[str]) -> int:
    """The largest distance between an entry's place in the two sections."""
    def places(section: str) -> dict[str, int]:
        found = sorted((section.find(f"<location>{location}</location>"), location) for location in locations
                       if f"<location>{location}</location>" in section)
        return {location: index for index, (_, location) in enumerate(found)}
    a, b = places(client), places(ours)
    return max((abs(a[location] - b[location]) for location in a if location in b), default=0)


def same_entries(client: str, ours: str, locations: list[str]) -> bool:
    """Whether two sections hold the same entries, in orders no further apart than MAX_DISPLACEMENT: the same
    names, each location both list with the same name and description, and a location only one lists holding a
    name both list (of two skills of one name, the walk's order decides which wins)."""
    a, b = gc.entries(client, locations), gc.entries(ours, locations)
    if client.count("\n  <skill>\n") != ours.count("\n  <skill>\n"):
        return False
    if sorted(name for name, _ in a.values()) != sorted(name for name, _ in b.values()):
        return False
    if any(a[location] != b[location] for location in set(a) & set(b)):
        return False
    return displacement(client, ours, locations) <= MAX_DISPLACEMENT


# Client runs repeated because their section differed from the model's (see ORDER_NOTE).
RETRIES = {"runs": 0}
ORDER_NOTE = ("in a folder of hundreds of skills the client's asynchronous glob now and then yields a few entries a "
              "few places out of order (and then, of two skills of one name, the other may win); the model keeps the "
              "descending byte order it yields otherwise. A case whose section differs is run again, up to three "
              f"times; if the order still differs, its entries are compared, each within {MAX_DISPLACEMENT} places of the model's")


def run_case(case: Case, entry: str, binary: str) -> dict:
    outcome = gc.run(entry, case.project, case.home)
    env = {"PATH": "/usr/bin:/bin", "HOME": str(case.home), "LANG": "C.UTF-8"}
    bundle = gc.bundle_of(entry)
    listing = subprocess.run([binary, "listing", "--dialect", "gemini", "--project", str(case.project),
                              "--with-client-skills", "--client-bundle", str(bundle)],
                             env=env, capture_output=True, timeout=300)
    roots = case_roots(case)
    builtin = [str(bundle / "builtin" / name / "SKILL.md") for name in ("skill-creator", "antigravity-support")]
    locations = candidate_files(roots) + builtin
    # The client's order (and so which of two skills of one name in a root wins) can differ from run to run in a
    # large root, the more so on a busy machine: a differing case is run again, up to three times.
    for _ in range(3):
        if (outcome.section or "").encode() == listing.stdout or case.deviation:
            break
        RETRIES["runs"] += 1
        outcome = gc.run(entry, case.project, case.home)
    section = outcome.section or ""
    verdicts: dict[str, dict] = {}
    problems: list[str] = []
    for root in roots:
        out = subprocess.run([binary, "lint", "--profile", "gemini", "--format", "json", str(root)], env=env,
                             capture_output=True, timeout=300)
        try:
            reports = json.loads(out.stdout)["files"]
        except (ValueError, KeyError):
            if b"no SKILL.md found" not in out.stderr:
                problems.append(f"lint {root} exited {out.returncode}: {out.stderr.decode(errors='replace')[:500]}")
            continue
        for report in reports:
            path = report["path"]
            path = path if os.path.isabs(path) else os.path.abspath(path)
            verdicts[path] = report["verdicts"][0]
    roots_form = None
    project_roots = [root for root in roots if root.is_relative_to(case.project)]
    if case.roots_form and project_roots:
        roots_form = subprocess.run([binary, "listing", "--dialect", "gemini", *map(str, project_roots)], env=env,
                                    capture_output=True, timeout=300)
    return {"outcome": outcome, "listing": listing, "verdicts": verdicts, "problems": problems,
            "roots_form": roots_form, "candidates": candidate_files(roots), "builtin": builtin}


VERDICT_COUNTS: dict[str, int] = {}
# Cases whose client order differed from the model's in both runs.
ORDER_ONLY: list[str] = []


def without_builtins(section: str, builtin: list[str]) -> str:
    """The section with the client's built-in entries removed (empty when nothing else is listed)."""
    entries = gc.entries(section, builtin)
    for location, (name, description) in entries.items():
        text = (f"  <skill>\n    <name>{name}</name>\n    <description>{description}</description>\n"
                f"    <location>{location}</location>\n  </skill>\n")
        section = section.replace(text, "", 1)
    return "" if section.endswith("<available_skills>\n</available_skills>") else section


def compare(case: Case, result: dict, results: Results) -> None:
    section = result["outcome"].section or ""
    listing = result["listing"]
    candidates = result["candidates"]
    ours = listing.stdout.decode(errors="replace")
    if case.deviation:
        results.deviation(case.label, case.deviation)
        results.check(f"{case.label}: section still differs as documented", True, section.encode() != listing.stdout)
        return
    if section.encode() != listing.stdout and same_entries(section, ours, candidates + result["builtin"]):
        print(f"order differs {case.label}: the client's order differed from the model's in two runs; "
              "entries compared whatever their order")
        ORDER_ONLY.append(case.label)
        results.check(f"{case.label}: section entries", True, True)
    else:
        results.check(f"{case.label}: section", section.encode(), listing.stdout)
    if result["problems"]:
        results.fail(f"{case.label}: lint", result["problems"])
        return
    # The built-in entries come first; they are cut out by their locations like the others.
    listed = gc.entries(section, candidates + result["builtin"])
    listed_names = {name: location for location, (name, _) in listed.items()}
    unlinted = 0
    for path in candidates:
        folder = Path(path).parent.name
        verdict = result["verdicts"].get(path)
        expected = ("listed", *listed[path]) if path in listed else ("not listed",)
        if verdict is None:
            linked = any(Path(*Path(path).parts[:end]).is_symlink() for end in range(2, len(Path(path).parts) + 1))
            if linked:
                # Lint never follows a link out of the folder it reads (as for Codex).
                print(f"not linted {case.label}: {path} (through a symbolic link)")
                unlinted += 1
                VERDICT_COUNTS["not linted (a link)"] = VERDICT_COUNTS.get("not linted (a link)", 0) + 1
            elif path in listed:
                results.fail(f"{case.label}: {path} is listed by the client but lint gave no verdict")
            else:
                VERDICT_COUNTS["not linted, not listed"] = VERDICT_COUNTS.get("not linted, not listed", 0) + 1
            continue
        if verdict["outcome"] == "loads":
            actual = ("listed", verdict["name"], verdict["description"])
            if path not in listed and listed_names.get(verdict["name"]) not in (None, path):
                # Replaced by a later skill of the same name, which lint (one file at a time) does not see.
                expected = actual = ("replaced by a later skill of its name",)
        else:
            actual = ("not listed",)
        VERDICT_COUNTS[expected[0]] = VERDICT_COUNTS.get(expected[0], 0) + 1
        label = f"{case.label}: verdict {path}"
        if folder in DEVIATIONS:
            results.deviation(label, DEVIATIONS[folder])
            results.check(f"{label} still differs as documented", True, expected != actual)
        else:
            results.check(label, expected, actual)
    if result["roots_form"] is not None:
        expected = without_builtins(section, result["builtin"])
        if unlinted:
            print(f"not compared {case.label}: the ROOTS form (the workspace walk, like lint, does not follow "
                  f"{unlinted} links)")
        elif case.label in ORDER_ONLY:
            results.check(f"{case.label}: ROOTS form entries", True,
                          same_entries(expected, result["roots_form"].stdout.decode(errors="replace"), candidates))
        else:
            results.check(f"{case.label}: ROOTS form", expected.encode(), result["roots_form"].stdout)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary", required=True)
    parser.add_argument("--fixtures", required=True, type=Path)
    parser.add_argument("--keep", type=Path, help="build the cases here and keep them (must not exist)")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=61)
    parser.add_argument("--only", help="run only the cases whose label starts with this")
    args = parser.parse_args(argv[1:])
    rc.isolate_network(argv)
    entry = gc.gemini_js()
    binary = str(Path(args.binary).resolve())
    work = args.keep.resolve() if args.keep else Path(tempfile.mkdtemp(prefix="sf-gemini-")).resolve()
    work.mkdir(parents=True, exist_ok=True)
    results = Results()
    started = time.monotonic()
    try:
        cases = build_cases(work, args.fixtures.resolve(), args.seed)
        if args.only:
            cases = [case for case in cases if case.label.startswith(args.only)]

        def one(case: Case):
            try:
                return case, run_case(case, entry, binary), None
            except (rc.ClientError, OSError, ValueError, subprocess.TimeoutExpired) as error:
                return case, None, str(error)

        with ThreadPoolExecutor(max(1, min(args.jobs, 2))) as pool:
            for case, result, error in pool.map(one, cases):
                if result is None:
                    results.fail(f"{case.label}: client run", error)
                else:
                    compare(case, result, results)
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)
    print(f"gemini fidelity: {len(cases)} client runs against gemini-cli {gc.VERSION} "
          f"in {time.monotonic() - started:.0f}s")
    if RETRIES["runs"]:
        results.deviation("client order", ORDER_NOTE)
        print(f"gemini fidelity: {RETRIES['runs']} cases run twice; "
              f"{len(ORDER_ONLY)} compared whatever the order: {', '.join(ORDER_ONLY) or 'none'}")
    print("gemini fidelity: verdicts compared per SKILL.md: "
          + ", ".join(f"{count} {state}" for state, count in sorted(VERDICT_COUNTS.items())))
    return results.finish("gemini fidelity", MIN_CASES if not args.only else 0)


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv))
    except rc.ClientError as error:
        print(f"test_gemini: {error}", file=sys.stderr)
        sys.exit(1)
