"""Fidelity of `skillforge lint` against the real peers, skill by skill.

- spec profile against skills-ref 0.1.1's `validate()`: every message skills-ref reports is mapped, by
  the table SKILLS_REF_MESSAGES below, to the rule codes that report the same problem, and one of our
  error findings with such a code (naming the same field, value or YAML line) must be there; a message
  the table does not know is a failure. When skills-ref got past parsing (it stops at the first parse
  error) every error finding of ours must in turn answer one of its messages, so a skill skills-ref
  passes must have none. The verdict must agree too. A skills-ref crash is a failure unless the skill
  is in SPEC_CRASHES; a skill where the profile follows the specification, not skills-ref, is in
  SPEC_DEVIATIONS with exactly the rule codes we report instead (docs/profiles.md). A skill file
  missing from our report is a failure (only a folder skills-ref finds no SKILL.md in must be absent).
- 10xgraph profile: per skill, loads (with the same name and description) or skipped, exactly as
  `SkillsRegistry.discover()` of 10xgraph 0.10.3 decides, and the catalog text equals
  `SkillsRegistry.build_catalog()` byte for byte, on every root, those where 10xGraph finds nothing included.
- nagents profile: per skill, loads (same name and description), skipped (with nagents' own diagnostic
  as the reason, when nagents' bounded list holds it) or fails-catalog (a name nagents' `skill_catalog`
  refuses), as nagents 0.25.2's directory discovery decides, on every fixture tree.

Every expected value comes from the installed packages at test time. The inputs are every rule's fixture
(crates/skillforge-core/tests/fixtures/lint), the trees under tests/fixtures, and cases written here into
a temporary folder. Deviations are printed as they are checked.
"""

import argparse
import json
import logging
import re
import subprocess
import sys
import tempfile
from pathlib import Path

from skills_ref.parser import find_skill_md
from skills_ref.validator import validate as skills_ref_validate
from tenxgraph.core.skills.loader import iter_skill_dirs
from tenxgraph.core.skills.registry import SkillsRegistry

import nagents_peer
from fidelity_common import Results

# 10xGraph logs every diagnostic as a warning; the verdicts are what matter here.
logging.disable(logging.CRITICAL)

# Checks this suite runs today; fewer means cases or trees were lost. Raise it when cases are added.
MIN_CASES = 806

# Skill folders (relative to their tree) where the spec profile follows the specification, not
# skills-ref: skills-ref calls them valid, and we report exactly these rule codes as errors.
SPEC_DEVIATIONS = {
    "metadata-not-string-map/pdf-tools": ({"SF403"}, "skills-ref str()-converts nested metadata"),
    "allowed-tools-list/pdf-tools": ({"SF404"}, "skills-ref does not check allowed-tools' type"),
    "unicode-name/café": ({"SF204"}, "skills-ref accepts Unicode letters in names"),
    "catalog/beta": ({"SF403"}, "skills-ref reads the number 5 in metadata as a string"),
    "catalog/theta": ({"SF403"}, "skills-ref reads the number -3 in metadata as a string"),
    "catalog/eta": ({"SF403"}, "skills-ref does not check that metadata is a mapping"),
    "edge/hex": ({"SF403"}, "skills-ref reads the number 0x10 in metadata as a string"),
    "edge/octal": ({"SF403"}, "skills-ref reads the number 010 in metadata as a string"),
    "edge/triggers-map": ({"SF403"}, "skills-ref str()-converts nested metadata"),
    "edge/dashes-in-text": ({"SF103"}, "skills-ref splits the file at `---` anywhere, even inside a value"),
}

# Skill folders where skills-ref's validate() raises instead of reporting: the exception's type, the
# rule codes we report as errors instead, and why.
SPEC_CRASHES = {
    "content-not-utf8/pdf-tools": (
        "UnicodeDecodeError", {"SF113"}, "skills-ref reads the file as UTF-8 without catching the decoding error"),
    "edge/form-feed-close": (
        "AttributeError", {"SF103"},
        "strictyaml's error report for the refused form feed crashes; on lines, the frontmatter never closes"),
    "yaml-control-character/pdf-tools": (
        "AttributeError", {"SF116"},
        "strictyaml's error report for a character its reader refuses (U+0080) crashes (`ReaderError` has no "
        "`context_mark`): the file is never valid"),
}

# Rules whose findings stop skills-ref: it reports one parse error and checks nothing else.
PARSE = "parse"
# skills-ref's messages (validator.py, parser.py, strictyaml's wording inside "Invalid YAML") -> the
# rule codes that report the same problem, what our finding's message must name (a group of the
# pattern, wrapped as the engine quotes it) and whether it is a parse error. YAML errors are matched
# on the line strictyaml points at: one of our findings of those codes must span that line. Patterns
# are tried in order; the first that matches decides.
SKILLS_REF_MESSAGES = [
    (r"SKILL\.md must start with YAML frontmatter \(---\)", {"SF101", "SF102", "SF112"}, None, PARSE),
    (r"SKILL\.md frontmatter not properly closed with ---", {"SF103"}, None, PARSE),
    (r"SKILL\.md frontmatter must be a YAML mapping", {"SF104"}, None, PARSE),
    (r"Invalid YAML in frontmatter: .*Duplicate key '(?P<field>[^']+)' found", {"SF109"}, "`{field}`", PARSE),
    (r"Invalid YAML in frontmatter: .*Found ugly disallowed JSONesque flow mapping", {"SF108"}, None, PARSE),
    # strictyaml refuses anchors and tags as it refuses flow style.
    (r"Invalid YAML in frontmatter: .*Found confusing disallowed anchor token", {"SF115"}, None, PARSE),
    (r"Invalid YAML in frontmatter: .*Found disallowed tag tokens", {"SF115"}, None, PARSE),
    (r"Invalid YAML in frontmatter: .*mapping values are not allowed here", {"SF105", "SF106"}, None, PARSE),
    (r"Invalid YAML in frontmatter: .*while scanning a quoted scalar", {"SF105"}, None, PARSE),
    (r"Invalid YAML in frontmatter: .*found character '\\t' that cannot start any token", {"SF105"}, None, PARSE),
    (r"Missing required field in frontmatter: name", {"SF201"}, None, None),
    (r"Missing required field in frontmatter: description", {"SF301"}, None, None),
    (r"Field 'name' must be a non-empty string", {"SF201"}, None, None),
    (r"Field 'description' must be a non-empty string", {"SF301"}, None, None),
    (r"Skill name '.*' exceeds 64 character limit \((?P<length>\d+) chars\)", {"SF202"}, "{length} characters", None),
    (r"Skill name '(?P<name>.*)' must be lowercase", {"SF203"}, "`{name}`", None),
    (r"Skill name cannot start or end with a hyphen", {"SF205"}, None, None),
    (r"Skill name cannot contain consecutive hyphens", {"SF205"}, None, None),
    (r"Skill name '.*' contains invalid characters\. Only letters, digits, and hyphens are allowed\.", {"SF204"},
     None, None),
    (r"Directory name '(?P<folder>.*)' must match skill name '.*'", {"SF206"}, "`{folder}`", None),
    (r"Description exceeds 1024 character limit \((?P<length>\d+) chars\)", {"SF302"}, "{length} characters", None),
    (r"Compatibility exceeds 500 character limit \((?P<length>\d+) chars\)", {"SF401"}, "{length} characters", None),
    # One message for all unknown keys; each key must be reported, as unknown or as a mis-cased known key.
    (r"Unexpected fields in frontmatter: (?P<fields>.*)\. Only \[.*\] are allowed\.", {"SF402", "SF110"},
     "`{field}`", None),
]
MISSING_FILE = "Missing required file: SKILL.md"

# Trees under tests/fixtures checked here against 10xGraph and nagents; those in SPEC_TREES against
# skills-ref as well (the others are built for other clients and would only add unmapped noise).
SHARED_TREES = ("line-endings", "skill-file-case", "nagents-formats", "nagents-duplicates", "activation/skills",
                "e2e-workspace", "editor-workspace", "hostile-workspace", "previews-workspace", "export/skills")
SPEC_TREES = ("line-endings", "skill-file-case")

SHARED_ROOT = Path(__file__).resolve().parents[1] / "fixtures"
# Trees lint reports with exit 2 on purpose, with the exact stderr and why (the JSON report is whole).
LINT_EXIT_2 = {
    str(SHARED_ROOT / "nagents-formats"): (
        f"error: {SHARED_ROOT / 'nagents-formats' / 'SKILL.md'}: is a folder, not a regular file; no client reads it; "
        "not linted\n",
        "a folder named SKILL.md cannot be linted, which lint reports as an unreadable path (exit 2)",
    ),
}

D = "Extract text from PDF files. Use when the user mentions PDFs."

# Extra cases: folder -> SKILL.md text (bytes for exact encodings).
CASES = {
    "unicode-name/café": f"---\nname: café\ndescription: {D}\n---\n# Body\n",
    "yaml-types/yes-description": "---\nname: yes-description\ndescription: yes\n---\n",
    "yaml-types/123": f"---\nname: 123\ndescription: {D}\n---\n",
    "yaml-types/dated": "---\nname: dated\ndescription: 2024-01-02\n---\n",
    "yaml-types/quoted": f"---\nname: \"quoted\"\ndescription: '{D}'\n---\n",
    "yaml-types/empty-frontmatter": "---\n---\n# Body\n",
    "yaml-types/list-frontmatter": "---\n- name: x\n---\n",
    "yaml-types/spaced name": f"---\nname: spaced name\ndescription: {D}\n---\n",
    "yaml-types/comment-cut": "---\nname: comment-cut\ndescription: Use for C # projects\n---\n",
    "yaml-types/literal": "---\nname: literal\ndescription: |\n  Line one\n    indented & <b>\n  Line three\n---\n",
    "yaml-types/colon-retry": "---\nname: colon-retry\ndescription: Use when: the user asks\n---\n",
    "yaml-types/colon-broken": "---\nname: colon-broken\ndescription: Use when: x\nlicense: \"unclosed\n---\n",
    "yaml-types/bom": "\ufeff---\nname: bom\ndescription: Has a byte-order mark. Use when testing.\n---\n",
    "yaml-types/crlf": "---\r\nname: crlf\r\ndescription: Windows line endings. Use when testing.\r\n---\r\n",
    "yaml-types/no-close": f"---\nname: no-close\ndescription: {D}\n",
    "yaml-types/late-start": f"\n---\nname: late-start\ndescription: {D}\n---\n",
    "yaml-types/dup-key": "---\nname: dup-key\ndescription: first. Use when.\ndescription: second wins. Use when.\n---\n",
    "yaml-types/flow": f"---\nname: flow\ndescription: {D}\nmetadata: {{tags: a}}\n---\n",
    "yaml-types/empty-name": f"---\nname: \"\"\ndescription: {D}\n---\n",
    "yaml-types/blank-description": "---\nname: blank-description\ndescription: \"   \"\n---\n",
    "catalog/alpha": "---\nname: alpha\ndescription: \"  Spaced   out\\n\\ttext & <tags>  \"\nmetadata:\n  priority: \"5\"\n  triggers: \"first; second\\nthird\"\n---\n",
    "catalog/beta": "---\nname: beta\ndescription: Beta skill. Use when beta.\nmetadata:\n  priority: 5\n  triggers:\n    - one\n    - 2\n    - true\n---\n",
    "catalog/gamma": "---\nname: gamma\ndescription: Gamma. Use when gamma.\nmetadata:\n  priority: high\n---\n",
    "catalog/delta": "---\nname: delta\ndescription: Delta. Use when delta.\nmetadata:\n  priority: \" 12 \"\n---\n",
    "catalog/epsilon": "---\nname: epsilon\ndescription: Epsilon. Use when epsilon.\nmetadata:\n  priority: 1.5\n  triggers: []\n---\n",
    "catalog/zeta": "---\nname: alpha\ndescription: Shadowed by the first alpha. Use when never.\n---\n",
    "catalog/eta": "---\nname: eta\ndescription: Eta. Use when eta.\nmetadata: not-a-map\n---\n",
    "catalog/theta": "---\nname: theta\ndescription: Theta. Use when theta.\nmetadata:\n  priority: -3\n  triggers: \"  \"\n---\n",
    "edge/hex": "---\nname: hex\ndescription: Hex priority. Use when hex.\nmetadata:\n  priority: 0x10\n---\n",
    "edge/octal": "---\nname: octal\ndescription: Octal priority. Use when octal.\nmetadata:\n  priority: 010\n---\n",
    "edge/underscore": "---\nname: underscore\ndescription: Underscored. Use when needed.\nmetadata:\n  priority: 1_000\n---\n",
    "edge/plus": "---\nname: plus\ndescription: Plus. Use when plus.\nmetadata:\n  priority: \"+4\"\n---\n",
    "edge/quoted-hex": "---\nname: quoted-hex\ndescription: Quoted hex. Use when hex.\nmetadata:\n  priority: \"0x10\"\n---\n",
    "edge/sexagesimal": "---\nname: sexagesimal\ndescription: Base 60. Use when time.\nmetadata:\n  priority: 1:30\n---\n",
    "edge/comment": "---\nname: comment # trailing comment\ndescription: With comments. Use when commenting. # here\n---\n",
    "edge/folded-paragraphs": "---\nname: folded-paragraphs\ndescription: >\n  First line\n  continues.\n\n  Second paragraph.\n---\n",
    "edge/single-quote-escape": "---\nname: single-quote-escape\ndescription: 'It''s here. Use when quoting.'\n---\n",
    "edge/quoted-keys": "---\n\"name\": quoted-keys\n'description': Quoted keys. Use when keys.\n---\n",
    "edge/null-description": "---\nname: null-description\ndescription: ~\n---\n",
    "edge/unicode-space": "---\nname: unicode-space\ndescription: \"Non\\u00a0breaking and\\u2003em space. Use when spacing.\"\n---\n",
    "edge/tab-value": "---\nname:\ttab-value\ndescription: Tab after colon. Use when tabs.\n---\n",
    "edge/document-end": "---\nname: document-end\ndescription: Ends early. Use when ending.\n...\n---\n",
    "edge/triggers-map": "---\nname: triggers-map\ndescription: Map triggers. Use when mapping.\nmetadata:\n  triggers:\n    a: b\n---\n",
    "edge/name-trailing-space": "---\nname: 'edge-name '\ndescription: Trailing space. Use when spacing.\n---\n",
    "edge/colon-in-name": "---\nname: colon: in-name\ndescription: Colon in name. Use when colons.\n---\n",
    "edge/two-colon-lines": "---\nname: two-colon-lines\ndescription: Use when: a\nlicense: MIT: or not\n---\n",
    "edge/indented-colon": "---\nname: indented-colon\ndescription: Indented. Use when nested.\nmetadata:\n  note: see: this\n---\n",
    "edge/bool-name": "---\nname: yes\ndescription: Boolean name. Use when yes.\n---\n",
    "edge/float-description": "---\nname: float-description\ndescription: 1.5\n---\n",
    "edge/exp-description": "---\nname: exp-description\ndescription: 1e3\n---\n",
    "edge/cr-only": "---\rname: cr-only\rdescription: Carriage returns only. Use when testing.\r---\r",
    "edge/dashes-in-text": "---\nname: dashes-in-text\ndescription: a --- b. Use when dashing.\n# no closing line\n",
    "edge/form-feed-close": "---\nname: form-feed-close\ndescription: Form feed. Use when testing.\n\x0c---\n",
    "alias/described": "---\nname: &n described\nx-text: &d Aliased description. Use when aliasing.\ndescription: *d\nmetadata:\n  triggers: [*n, *d]\n---\n",
    "alias/list-description": "---\nname: list-description\nitems: &l [a, b]\ndescription: *l\n---\n",
    # Two folders of one name, one of which nagents cannot parse: nagents sees no duplicate.
    "dup-hidden/a": "---\nname: dup-hidden\ndescription: The one nagents reads. Use when testing.\n---\n",
    "dup-hidden/b": "---\nname: dup-hidden\ndescription: |\n  A block scalar nagents refuses.\n---\n",
    "alias/priority": "---\nname: priority\ndescription: Priority by alias. Use when aliasing.\nbase: &p 9\nmetadata:\n  priority: *p\n---\n",
}


LINT_EXIT_2_SEEN: dict[str, str] = {}


def lint(binary: str, paths: list[str], profile: str) -> dict:
    """The JSON report; exit 0 or 1, and nothing on stderr, unless the tree is in LINT_EXIT_2 (then
    exit 2 with exactly the listed stderr). Anything else stops the suite with a failure."""
    command = [binary, "lint", *paths, "--profile", profile, "--format", "json", "--no-config"]
    completed = subprocess.run(command, capture_output=True, timeout=300)
    listed = next((entry for tree, entry in LINT_EXIT_2.items() if paths == [tree]), None)
    stderr = completed.stderr.decode("utf-8")
    if listed is not None:
        expected_stderr, reason = listed
        if (completed.returncode, stderr) != (2, expected_stderr):
            raise SystemExit(f"{' '.join(command)}: listed as exit 2 with {expected_stderr!r}, "
                             f"got {completed.returncode} with {stderr!r}")
        LINT_EXIT_2_SEEN[paths[0]] = reason
    elif completed.returncode not in (0, 1) or stderr:
        raise SystemExit(f"{' '.join(command)} failed ({completed.returncode}): {stderr}")
    return json.loads(completed.stdout.decode("utf-8"))


def verdict_of(report: dict, profile: str) -> dict:
    return next(v for v in report["verdicts"] if v["profile"] == profile)


def skill_dirs(tree: Path) -> list[Path]:
    """Folders holding a skill file in any letter case (skills-ref accepts `skill.md`; a `Skill.md` is
    compared too, as a folder both sides must call invalid)."""
    return sorted({path.parent for path in tree.rglob("*") if path.name.lower() == "skill.md" and path.is_file()})


def write_cases(root: Path) -> None:
    for folder, text in CASES.items():
        path = root / folder / "SKILL.md"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(text.encode("utf-8") if isinstance(text, str) else text)


def yaml_lines(message: str) -> set[int]:
    """The lines strictyaml's report points at (its marks count lines of the text after the opening
    `---`, which starts on the file's first line, so they are file lines)."""
    return {int(line) for line in re.findall(r"line (\d+), column", message)}


def covers(finding: dict, lines: set[int]) -> bool:
    return any(finding["span"]["start"]["line"] <= line <= finding["span"]["end"]["line"] for line in lines)


def explain(message: str, errors: list[dict]) -> tuple[list[dict] | None, str | None, bool]:
    """(our findings answering the skills-ref message, or None when none does; the problem, if any;
    whether the message is a parse error)."""
    for pattern, codes, needle, stage in SKILLS_REF_MESSAGES:
        match = re.match(pattern, message, re.DOTALL)
        if match is None:
            continue
        candidates = [finding for finding in errors if finding["code"] in codes]
        if message.startswith("Invalid YAML"):
            lines = yaml_lines(message)
            candidates = [finding for finding in candidates if covers(finding, lines)]
        groups = match.groupdict()
        if "fields" in groups:  # every listed key needs its own finding
            needles = ["`" + field + "`" for field in groups["fields"].split(", ")]
        else:
            needles = [needle.format(**groups)] if needle else []
        answering = []
        for text in needles or [None]:
            found = [finding for finding in candidates if text is None or text in finding["message"]]
            if not found:
                return None, f"no {'/'.join(sorted(codes))} error{' naming ' + text if text else ''}", stage == PARSE
            answering.extend(found)
        return answering, None, stage == PARSE
    return None, "skills-ref message not in SKILLS_REF_MESSAGES", False


def check_spec(results: Results, binary: str, tree: Path) -> None:
    report = lint(binary, [str(tree)], "spec")
    ours = {Path(file["path"]): file for file in report["files"]}
    for directory in skill_dirs(tree):
        relative = directory.relative_to(tree).as_posix()
        label = f"spec {tree.name}/{relative}"
        chosen = find_skill_md(directory)  # the file skills-ref reads
        file = ours.get(chosen) if chosen else None
        if file is None and chosen is None:
            # Only a `Skill.md` or the like: skills-ref finds no skill, and neither may we.
            results.check(f"{label}: skills-ref finds no SKILL.md", [MISSING_FILE], skills_ref_validate(directory))
            results.check(f"{label}: not in our report either", [],
                          [path for path in ours if path.parent == directory])
            continue
        if file is None:
            results.fail(f"{label}: {chosen.name} missing from our report")
            continue
        errors = [finding for finding in file["diagnostics"] if finding["severity"] == "error"]
        codes = {finding["code"] for finding in errors}
        outcome = verdict_of(file, "spec")["outcome"]
        try:
            messages = skills_ref_validate(directory)
        except Exception as exc:
            if relative not in SPEC_CRASHES:
                results.fail(f"{label}: skills-ref raised {type(exc).__name__}", exc)
                continue
            kind, expected_codes, reason = SPEC_CRASHES[relative]
            results.deviation(label, f"skills-ref raises {kind}: {reason}")
            results.check(f"{label}: skills-ref still raises {kind}; we report {sorted(expected_codes)}",
                          (kind, expected_codes, "skipped"), (type(exc).__name__, codes, outcome))
            continue
        if relative in SPEC_CRASHES:
            results.fail(f"{label}: listed in SPEC_CRASHES, but skills-ref no longer raises", messages)
            continue
        if relative in SPEC_DEVIATIONS:
            expected_codes, reason = SPEC_DEVIATIONS[relative]
            results.deviation(label, reason)
            results.check(f"{label}: skills-ref still passes it; we report {sorted(expected_codes)}",
                          ([], expected_codes, "skipped"), (messages, codes, outcome))
            continue
        problems = []
        answered = []
        parse_error = False
        for message in messages:
            answering, problem, parse = explain(message, errors)
            parse_error = parse_error or parse
            if problem:
                problems.append(f"skills-ref: {message!r}: {problem}")
            else:
                answered.extend(answering)
        if not parse_error:
            # skills-ref checked every field: each error of ours must answer one of its messages.
            for finding in errors:
                if not any(finding is other for other in answered):
                    problems.append(f"ours: {finding['code']} {finding['message']!r} answers no skills-ref message")
        results.check(f"{label}: findings against skills-ref {messages}", [], problems)
        results.check(f"{label}: verdict", "skipped" if messages else "loads", outcome)


def check_tenxgraph(results: Results, binary: str, root: Path, label: str) -> None:
    directories = iter_skill_dirs(root)
    if directories:
        # 10xGraph's own discovery of the root; its files are linted in its order.
        paths = [str(directory / "SKILL.md") for directory in directories]
        report = lint(binary, paths, "10xgraph")
        roots = [root]
    else:
        # 10xGraph finds no skill one level down (they sit deeper): the root is linted as a folder, and
        # every skill file we find is compared with 10xGraph pointed at that file's folder, all of them
        # in one discovery (so shadowing counts). Every skill file below the root must be among them.
        report = lint(binary, [str(root)], "10xgraph")
        paths = [file["path"] for file in report["files"] if Path(file["path"]).name == "SKILL.md"]
        directories = [Path(path).parent for path in paths]
        walked = sorted(str(path) for path in root.rglob("SKILL.md") if path.is_file())
        results.check(f"10xgraph {label}: every skill file below the root is linted", [],
                      [path for path in walked if path not in paths])
        roots = directories
    registry = SkillsRegistry()
    registry.discover([str(path) for path in roots])
    loaded = {Path(meta.skill_dir): meta for meta in registry.get_all()}
    by_path = {file["path"]: verdict_of(file, "10xgraph") for file in report["files"]}
    claimed = set()  # a folder reached a second time (through a link) is shadowed by the first
    for directory, path in zip(directories, paths):
        meta = loaded.get(directory.resolve()) if directory.resolve() not in claimed else None
        claimed.add(directory.resolve())
        expected = ("loads", meta.name, meta.description) if meta else ("skipped",)
        verdict = by_path.get(path, {})
        if verdict.get("outcome") == "loads":
            actual = ("loads", verdict["name"], verdict["description"])
        else:
            actual = (verdict.get("outcome", "missing from our report"),)
        results.check(f"10xgraph verdict {label}/{directory.relative_to(root).as_posix()}", expected, actual)
    results.check(f"10xgraph catalog {label}", registry.build_catalog(), report["catalogs"].get("10xgraph"))


def nagents_dirs(root: Path) -> list[Path]:
    """Folders whose `SKILL.md` nagents walks (a regular file, named exactly so; no link on the way),
    and folders with only a lowercase `skill.md`, which we lint and nagents never reads."""
    exact = {path.parent for path in root.rglob("SKILL.md") if path.is_file()}
    lower = {path.parent for path in root.rglob("skill.md") if path.is_file() and path.name == "skill.md"}
    return sorted(exact | lower)


def check_nagents(results: Results, binary: str, root: Path, label: str) -> None:
    """nagents 0.25.2's directory discovery against the nagents profile's verdicts, skill by skill."""
    found, diagnostics = nagents_peer.survey([root])
    _, refused = nagents_peer.duplicates(found)
    failing_names = {skill.name for skill in refused}
    parsed = {nagents_peer.skill_dir_of(skill): skill for skill in found}
    report = lint(binary, [str(root)], "nagents")
    ours = {Path(file["path"]): verdict_of(file, "nagents") for file in report["files"]}
    for directory in nagents_dirs(root):
        relative = directory.relative_to(root).as_posix()
        skill = parsed.get(directory)
        path = directory / "SKILL.md"
        if skill is not None and skill.name in failing_names:
            expected = ("fails-catalog",)
        elif skill is not None:
            expected = ("loads", skill.name, skill.description)
        else:
            # nagents' diagnostic for this file, when its bounded list (20, each cut at 300) kept it whole.
            prefix = f"{path}: "
            reason = next((line[len(prefix):] for line in diagnostics if line.startswith(prefix)), None)
            expected = ("skipped",) if reason is None else ("skipped", reason)
        verdict = ours.get(path) or ours.get(directory / "skill.md")
        if verdict is None:
            actual = ("missing from our report",)
        elif verdict["outcome"] == "loads":
            actual = ("loads", verdict["name"], verdict["description"])
        elif verdict["outcome"] == "skipped" and len(expected) == 2:
            actual = ("skipped", verdict["reason"])
        else:
            actual = (verdict["outcome"],)
        results.check(f"nagents verdict {label}/{relative}", expected, actual)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", required=True)
    parser.add_argument("--fixtures", required=True, help="crates/skillforge-core/tests/fixtures/lint")
    parser.add_argument(
        "--shared-fixtures",
        default=str(SHARED_ROOT),
        help="tests/fixtures: its trees are checked against all three peers",
    )
    args = parser.parse_args()
    fixtures = Path(args.fixtures).resolve()
    shared_root = Path(args.shared_fixtures).resolve()
    shared = [shared_root / name for name in SHARED_TREES]
    results = Results()
    for tree in [fixtures, *shared]:
        if not tree.is_dir():
            results.fail(f"{tree}: the fixture tree is missing")
    with tempfile.TemporaryDirectory() as temporary:
        cases = Path(temporary).resolve() / "cases"
        write_cases(cases)
        check_spec(results, args.binary, fixtures)
        check_spec(results, args.binary, cases)
        roots = [path for path in sorted(fixtures.iterdir()) if path.is_dir()]
        roots += [fixtures / "symlinked-skill" / "skills", fixtures / "symlinked-skill" / "shared"]
        roots += [path for path in sorted(cases.iterdir()) if path.is_dir()]
        for root in roots:
            check_tenxgraph(results, args.binary, root, root.name)
            check_nagents(results, args.binary, root, root.name)
        for tree in shared:
            if tree.name in SPEC_TREES:
                check_spec(results, args.binary, tree)
            check_tenxgraph(results, args.binary, tree, tree.name)
            check_nagents(results, args.binary, tree, tree.name)
    for tree, reason in LINT_EXIT_2_SEEN.items():
        results.deviation(f"lint {tree}", reason)
    return results.finish("lint fidelity", MIN_CASES)


if __name__ == "__main__":
    sys.exit(main())
