"""Byte-for-byte fidelity of `skillforge catalog|manifest|load` against the real nagents 0.25.2.

Every expected value is produced here, at test time, by the installed nagents package; nothing is
copied from skillforge's own output. Trees that git cannot hold well (symlinks, FIFOs, huge or
very deep or very wide trees) are built in a temporary directory.

Run through tests/fidelity/run.sh, which installs the pinned peers and builds the binary.
"""

import argparse
import asyncio
import json
import os
import shutil
import subprocess
import sys
import tempfile
import types
from pathlib import Path

from nagents.agent import Agent
from nagents.skills import DirectorySkillDiscoverer
from nagents.skills import budget_skill_content
from nagents.skills import render_skill_manifest
from nagents.skills.types import validate_skill_token_limit

import nagents_peer
from fidelity_common import Results
from nagents_peer import as_dict, working_directory


LIMITS = (1, 7, 100, 10_000, 100_000)

# Checks this suite runs today; fewer means cases were lost (a fixture tree emptied, a loop cut
# short). Raise it when cases are added.
MIN_CASES = 793

# The committed fixture trees besides nagents-formats and nagents-duplicates; each must exist.
SHARED_TREES = (
    "export/skills",
    "activation/skills",
    "e2e-workspace",
    "editor-workspace",
    "hostile-workspace",
    "line-endings",
    "previews-workspace",
    "skill-file-case",
)


def nagents_survey(roots, max_entries, max_depth, cwd):
    """What nagents finds before its duplicate check, and its bounded diagnostics."""
    return nagents_peer.survey(roots, cwd, max_entries, max_depth)


def nagents_strict(roots, max_entries, max_depth, cwd):
    return nagents_peer.strict(roots, cwd, max_entries, max_depth)


def expected_catalog_json(found, diagnostics, error) -> bytes:
    """`skillforge catalog --format json` as nagents decides it, serialised the way the CLI does
    (two-space indent, `": "`, UTF-8 unescaped, a final newline): every descriptor nagents parsed, in
    name order (a stable sort, so repeated names keep nagents' walk order), its diagnostics, the
    message of its `discover()` failure, and the descriptors nagents' own `skill_catalog` refuses as
    duplicates. `shadowed` is nagents' CompositeSkillDiscoverer's business (a later source's skill of a
    name already taken); a directory source alone shadows nothing, so it is empty in every case here."""
    _, refused = nagents_peer.duplicates(found)
    report = {
        "skills": [as_dict(skill) for skill in sorted(found, key=lambda skill: skill.name)],
        "diagnostics": diagnostics,
        "error": error,
        "duplicates": [as_dict(skill) for skill in refused],
        "shadowed": [],
    }
    return (json.dumps(report, indent=2, ensure_ascii=False) + "\n").encode("utf-8")


class StandInAgent:
    """Just the attributes Agent.load_skill and Agent._refresh_skills_locked touch."""

    skills = property(lambda self: self._skills)

    def __init__(self, discoverer) -> None:
        self.skill_discoverer = discoverer
        self.skill_token_limit = 10_000
        self._skills = {}
        self._skill_lock = asyncio.Lock()
        self._refresh_skills_locked = types.MethodType(Agent._refresh_skills_locked, self)

    def _ensure_skill_tool(self) -> None:
        pass


def nagents_unknown(discoverer, name: str) -> str:
    """The message of nagents' own Agent.load_skill for a name the catalog lacks."""

    async def run() -> str:
        try:
            await Agent.load_skill(StandInAgent(discoverer), name)
        except ValueError as error:
            return str(error)
        return ""

    return asyncio.run(run())


class Cli:
    def __init__(self, binary: Path) -> None:
        self.binary = binary

    def run(self, arguments, cwd, env=None):
        completed = subprocess.run(
            [str(self.binary), *arguments], cwd=cwd, capture_output=True, env=env, timeout=120
        )
        return completed.returncode, completed.stdout, completed.stderr


def compare_case(results, cli, label, roots, cwd, max_entries=10_000, max_depth=16, loads=True, limits=LIMITS):
    roots = [str(root) for root in roots]
    bounds = ["--max-entries", str(max_entries), "--max-depth", str(max_depth)]
    found, diagnostics = nagents_survey(roots, max_entries, max_depth, cwd)
    discoverer, strict, error = nagents_strict(roots, max_entries, max_depth, cwd)

    code, out, err = cli.run(["catalog", *roots, *bounds, "--format", "json"], cwd)
    results.check(f"{label}: catalog", expected_catalog_json(found, diagnostics, error), out)
    results.check(f"{label}: catalog exit code and stderr", (1 if error else 0, b""), (code, err))

    code, out, err = cli.run(["manifest", *roots, *bounds], cwd)
    if error is None:
        results.check(f"{label}: manifest", (0, render_skill_manifest(strict).encode("utf-8")), (code, out))
    else:
        results.check(f"{label}: manifest refusal", (1, b"", (error + "\n").encode("utf-8")), (code, out, err))

    for name in ("missing-skill", "it's", "say \"hi\" it's", "tab\tname"):
        code, out, err = cli.run(["load", *roots, *bounds, "--name", name], cwd)
        with working_directory(cwd):
            expected = nagents_unknown(DirectorySkillDiscoverer(roots, max_entries=max_entries, max_depth=max_depth), name)
        results.check(f"{label}: load unknown {name!r}", (1, (expected + "\n").encode("utf-8")), (code, err))

    if error is not None or not loads:
        return
    for skill in strict:
        with working_directory(cwd):
            content = asyncio.run(discoverer.load(skill))
        for limit in limits:
            result = budget_skill_content(skill, content, limit)
            expected = json.dumps(result, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
            code, out, err = cli.run(
                ["load", *roots, *bounds, "--name", skill.name, "--token-limit", str(limit), "--format", "json"], cwd
            )
            results.check(f"{label}: load {skill.name} at {limit}", (0, expected), (code, out))
        result = budget_skill_content(skill, content, 7)
        code, out, err = cli.run(["load", *roots, *bounds, "--name", skill.name, "--token-limit", "7"], cwd)
        results.check(f"{label}: load {skill.name} text", (0, result["content"].encode("utf-8")), (code, out))


def write(path: Path, text) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(text if isinstance(text, bytes) else text.encode("utf-8"))


def skill_text(name: str, body: str = "Body.\n") -> str:
    return f"---\nname: {name}\ndescription: The {name} skill.\n---\n{body}"


def build_links(root: Path) -> Path:
    tree = root / "links"
    write(tree / "real" / "SKILL.md", skill_text("real"))
    (tree / "file-link").mkdir()
    (tree / "file-link" / "SKILL.md").symlink_to(tree / "real" / "SKILL.md")
    (tree / "dir-link").symlink_to(tree / "real", target_is_directory=True)
    (tree / "dangling").symlink_to(tree / "nowhere")
    (root / "links-root").symlink_to(tree, target_is_directory=True)
    return tree


def build_special_files(root: Path) -> Path:
    tree = root / "special"
    (tree / "fifo").mkdir(parents=True)
    os.mkfifo(tree / "fifo" / "SKILL.md")
    write(tree / "ok" / "SKILL.md", skill_text("ok"))
    big = "---\nname: big\n---\n"
    write(tree / "big" / "SKILL.md", big + "x" * (4_000_001 - len(big)))
    exact = "---\nname: exact\n---\n"
    write(tree / "exact" / "SKILL.md", exact + "y" * (4_000_000 - len(exact)))
    (tree / "unreadable").mkdir()
    write(tree / "unreadable" / "inner" / "SKILL.md", skill_text("behind-unreadable"))
    os.chmod(tree / "unreadable", 0)
    return tree


def build_deep(root: Path, levels: int = 20) -> Path:
    tree = root / "deep"
    directory = tree
    for level in range(levels):
        directory = directory / f"d{level:02d}"
        write(directory / "SKILL.md", skill_text(f"deep-{level:02d}"))
    return tree


def build_wide(root: Path, entries: int) -> Path:
    tree = root / f"wide-{entries}"
    write(tree / "a-skill" / "SKILL.md", skill_text("a-skill"))
    crowded = tree / "b-crowded"
    crowded.mkdir(parents=True)
    for index in range(entries):
        (crowded / f"f{index:05d}.md").touch()
    write(crowded / "SKILL.md", skill_text("crowded"))
    write(tree / "c-after" / "SKILL.md", skill_text("c-after"))
    return tree


def build_overflow(root: Path) -> Path:
    tree = root / "overflow"
    for index in range(60):
        description = (f"Skill {index} & <friends> \"quoted\" 'single' " + "é" * 400)[:900]
        write(tree / f"s{index:03d}" / "SKILL.md", f"---\nname: s{index:03d}\ndescription: {description}\n---\n")
    return tree


def build_noisy(root: Path) -> Path:
    """More than 20 problems, and paths and messages longer than 300 characters."""
    tree = root / "noisy"
    for index in range(30):
        write(tree / f"broken-{index:02d}" / "SKILL.md", "---\nname: never-closed\n")
    long_directory = tree / ("long-" + "x" * 120) / ("é" * 120) / ("z" * 100)
    write(long_directory / "SKILL.md", "---\nname: long\n")
    return tree


def token_limit_environment(results, cli, fixtures: Path) -> None:
    root = str(fixtures / "nagents-formats")
    for value in ("7", " 100 ", "1_000", "+5", "abc", "1.5", "", "0", "100001", "-3", "1__0"):
        try:
            parsed = int(value)
            validate_skill_token_limit(parsed)
            expected = None
        except ValueError as error:
            expected = str(error)
        env = {**os.environ, "NGN_SKILL_TOKEN_LIMIT": value}
        code, out, err = cli.run(["load", root, "--name", "plain", "--format", "json"], fixtures, env)
        if expected is None:
            results.check(f"NGN_SKILL_TOKEN_LIMIT={value!r}", (0, parsed), (code, json.loads(out or b"{}").get("token_limit")))
        else:
            results.check(f"NGN_SKILL_TOKEN_LIMIT={value!r}", (2, f"error: {expected}\n".encode()), (code, err))


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", type=Path, required=True)
    parser.add_argument("--fixtures", type=Path, required=True)
    arguments = parser.parse_args()
    fixtures = arguments.fixtures.resolve()
    cli = Cli(arguments.binary.resolve())
    results = Results()

    formats = fixtures / "nagents-formats"
    compare_case(results, cli, "formats", [formats], fixtures)
    compare_case(results, cli, "duplicates", [fixtures / "nagents-duplicates"], fixtures)
    # Every other committed fixture tree, the export source included (test_export.py installs it).
    for tree in SHARED_TREES:
        if not (fixtures / tree).is_dir():
            results.fail(f"{tree}: the fixture tree is missing")
            continue
        compare_case(results, cli, tree, [fixtures / tree], fixtures, limits=(7, 10_000))
    compare_case(results, cli, "overlapping roots", [formats / "nested", formats], fixtures, loads=False)
    compare_case(results, cli, "overlapping roots reversed", [formats, formats / "nested"], fixtures, loads=False)
    compare_case(
        results, cli, "relative root", ["./nagents-formats/../nagents-formats//nested/."], fixtures, limits=(7,)
    )
    for depth in (0, 1, 2):
        compare_case(results, cli, f"formats max_depth={depth}", [formats], fixtures, max_depth=depth, loads=False)
    for entries in (1, 2, 5, 20, 55, 58, 59, 60, 61, 70, 90, 120):
        compare_case(
            results, cli, f"formats max_entries={entries}", [formats], fixtures, max_entries=entries, loads=False
        )
    compare_case(
        results,
        cli,
        "two roots sharing max_entries",
        [formats / "nested", fixtures / "nagents-duplicates"],
        fixtures,
        max_entries=8,
        loads=False,
    )

    with tempfile.TemporaryDirectory(prefix="skillforge-fidelity-") as temporary:
        # Resolve once so the temporary root has no symlinked ancestor (as on macOS).
        root = Path(temporary).resolve()
        links = build_links(root)
        compare_case(results, cli, "symlinks", [links], root, limits=(7,))
        compare_case(results, cli, "symlinked root", [root / "links-root"], root, loads=False)
        special = build_special_files(root)
        # Tests usually run as root here, which reads a mode-000 directory anyway: then the
        # unreadable case checks only that both agree, not the permission error itself.
        compare_case(results, cli, "fifo, size cap, unreadable", [special], root, limits=(1, 100_000))
        deep = build_deep(root)
        compare_case(results, cli, "deep tree", [deep], root, limits=(7,))
        compare_case(results, cli, "deep tree max_depth=3", [deep], root, max_depth=3, loads=False)
        wide = build_wide(root, 10_001)
        compare_case(results, cli, "wide directory past 10,000 entries", [wide], root, limits=(7,))
        narrow = build_wide(root, 30)
        for entries in (10, 31, 32, 33, 34, 35, 36, 40):
            compare_case(results, cli, f"wide max_entries={entries}", [narrow], root, max_entries=entries, loads=False)
        noisy = build_noisy(root)
        compare_case(results, cli, "more than 20 diagnostics", [noisy], root, loads=False)
        compare_case(results, cli, "long paths", [noisy / ("long-" + "x" * 120)], root, loads=False)
        overflow = build_overflow(root)
        compare_case(results, cli, "manifest overflow", [overflow], root, limits=(7,))
        compare_case(results, cli, "overflow with formats", [overflow, formats], root, loads=False)
        for path in (special / "unreadable",):
            os.chmod(path, 0o755)
        shutil.rmtree(root, ignore_errors=True)

    token_limit_environment(results, cli, fixtures)

    return results.finish("fidelity", MIN_CASES)


if __name__ == "__main__":
    sys.exit(main())
