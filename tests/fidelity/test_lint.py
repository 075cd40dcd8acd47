"""Fidelity of `skillforge lint` verdicts against the real peers.

- spec profile: valid/invalid per skill equals skills-ref 0.1.1's `validate()`, except the documented
  deviations (docs/profiles.md), which must still disagree (so the list stays true);
- 10xgraph profile: per skill, loads (with the same name and description) or skipped, exactly as
  `SkillsRegistry.discover()` of 10xgraph 0.10.3 decides, and the catalog text equals
  `SkillsRegistry.build_catalog()` byte for byte.

Every expected value comes from the installed packages at test time. The inputs are every rule's fixture
(crates/skillforge-core/tests/fixtures/lint) plus cases written here into a temporary folder.
"""

import argparse
import asyncio
import json
import logging
import subprocess
import sys
import tempfile
from pathlib import Path

from skills_ref.validator import validate as skills_ref_validate
from nagents.skills.sources import DirectorySkillDiscoverer
from tenxgraph.core.skills.loader import iter_skill_dirs
from tenxgraph.core.skills.registry import SkillsRegistry

from fidelity_common import Results

# 10xGraph logs every diagnostic as a warning; the verdicts are what matter here.
logging.disable(logging.CRITICAL)

# Skill folders (relative to their tree) where the spec profile follows the specification, not skills-ref.
SPEC_DEVIATIONS = {
    "metadata-not-string-map/pdf-tools": "skills-ref str()-converts nested metadata",
    "allowed-tools-list/pdf-tools": "skills-ref does not check allowed-tools' type",
    "unicode-name/café": "skills-ref accepts Unicode letters in names",
    "catalog/beta": "skills-ref reads the number 5 in metadata as a string",
    "catalog/theta": "skills-ref reads the number -3 in metadata as a string",
    "catalog/eta": "skills-ref does not check that metadata is a mapping",
    "edge/hex": "skills-ref reads the number 0x10 in metadata as a string",
    "edge/octal": "skills-ref reads the number 010 in metadata as a string",
    "edge/triggers-map": "skills-ref str()-converts nested metadata",
    "edge/dashes-in-text": "skills-ref splits the file at `---` anywhere, even inside a value",
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
    "alias/priority": "---\nname: priority\ndescription: Priority by alias. Use when aliasing.\nbase: &p 9\nmetadata:\n  priority: *p\n---\n",
}


def lint(binary: str, paths: list[str], profile: str) -> dict:
    command = [binary, "lint", *paths, "--profile", profile, "--format", "json", "--no-config"]
    completed = subprocess.run(command, capture_output=True)
    if completed.returncode not in (0, 1):
        raise SystemExit(f"{' '.join(command)} failed ({completed.returncode}): {completed.stderr.decode()}")
    return json.loads(completed.stdout)


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


def check_spec(results: Results, binary: str, tree: Path) -> None:
    report = lint(binary, [str(tree)], "spec")
    ours = {Path(file["path"]).parent: verdict_of(file, "spec") for file in report["files"]}
    for directory in skill_dirs(tree):
        relative = directory.relative_to(tree).as_posix()
        try:
            errors = skills_ref_validate(directory)
        except Exception as exc:  # skills-ref raises on undecodable files instead of reporting them
            errors = [f"raised {type(exc).__name__}"]
        expected_valid = not errors
        verdict = ours.get(directory)
        actual_valid = verdict is not None and verdict["outcome"] == "loads"
        if relative in SPEC_DEVIATIONS:
            results.check(f"spec deviation still holds: {relative} ({SPEC_DEVIATIONS[relative]})", True, expected_valid != actual_valid)
        else:
            detail = errors[:1] if errors else verdict
            results.check(f"spec verdict {relative} {detail}", expected_valid, actual_valid)


def check_tenxgraph(results: Results, binary: str, root: Path, label: str) -> None:
    registry = SkillsRegistry()
    registry.discover([root])
    loaded = {Path(meta.skill_dir): meta for meta in registry.get_all()}
    directories = iter_skill_dirs(root)
    if not directories:
        return
    paths = [str(directory / "SKILL.md") for directory in directories]
    report = lint(binary, paths, "10xgraph")
    by_path = {file["path"]: verdict_of(file, "10xgraph") for file in report["files"]}
    for directory, path in zip(directories, paths):
        meta = loaded.get(directory.resolve())
        expected = ("loads", meta.name, meta.description) if meta else ("skipped",)
        verdict = by_path.get(path, {})
        if verdict.get("outcome") == "loads":
            actual = ("loads", verdict["name"], verdict["description"])
        else:
            actual = (verdict.get("outcome", "missing"),)
        results.check(f"10xgraph verdict {label}/{directory.name}", expected, actual)
    results.check(f"10xgraph catalog {label}", registry.build_catalog(), report["catalogs"].get("10xgraph"))


def check_nagents(results: Results, binary: str, root: Path, label: str) -> None:
    """nagents 0.25.2's directory discovery against the nagents profile's verdicts, skill by skill."""
    discoverer = DirectorySkillDiscoverer([root])
    loaded = {Path(skill.location).parent: skill for skill in asyncio.run(discoverer.discover())}
    report = lint(binary, [str(root)], "nagents")
    ours = {Path(file["path"]).parent: verdict_of(file, "nagents") for file in report["files"]}
    for directory in skill_dirs(root):
        skill = loaded.get(directory)
        expected = ("loads", skill.name, skill.description) if skill else ("skipped",)
        verdict = ours.get(directory, {})
        if verdict.get("outcome") == "loads":
            actual = ("loads", verdict["name"], verdict["description"])
        else:
            actual = ("skipped",)
        results.check(f"nagents verdict {label}/{directory.relative_to(root).as_posix()}", expected, actual)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", required=True)
    parser.add_argument("--fixtures", required=True, help="crates/skillforge-core/tests/fixtures/lint")
    parser.add_argument(
        "--shared-fixtures",
        default=str(Path(__file__).resolve().parents[1] / "fixtures"),
        help="tests/fixtures: its line-endings and skill-file-case trees are checked against all three peers",
    )
    args = parser.parse_args()
    fixtures = Path(args.fixtures)
    shared = [Path(args.shared_fixtures) / name for name in ("line-endings", "skill-file-case")]
    results = Results()
    with tempfile.TemporaryDirectory() as temporary:
        cases = Path(temporary) / "cases"
        write_cases(cases)
        check_spec(results, args.binary, fixtures)
        check_spec(results, args.binary, cases)
        roots = [path for path in sorted(fixtures.iterdir()) if path.is_dir()]
        roots += [fixtures / "symlinked-skill" / "skills", fixtures / "symlinked-skill" / "shared"]
        roots += [path for path in sorted(cases.iterdir()) if path.is_dir()]
        for root in roots:
            check_tenxgraph(results, args.binary, root, root.name)
        for tree in shared:
            check_spec(results, args.binary, tree)
            check_tenxgraph(results, args.binary, tree, tree.name)
            check_nagents(results, args.binary, tree, tree.name)
    print(f"lint fidelity: {results.passed} passed, {results.failed} failed")
    return 1 if results.failed else 0


if __name__ == "__main__":
    sys.exit(main())
