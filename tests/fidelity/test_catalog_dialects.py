"""Fidelity of the catalog dialects: `skillforge listing` against the real nagents 0.25.2 and skills-ref 0.1.1.

nagents: for each fixture tree and manifest cap, `render_skill_manifest` over the skills nagents' own
directory discoverer finds, with `MAX_SKILL_MANIFEST_TOKENS` monkeypatched to the cap, must equal
`skillforge listing --dialect nagents --manifest-tokens CAP` byte for byte (the default cap included).
skills-ref: `to_prompt` over the skill folders skills-ref can read must equal `skillforge listing
--dialect skills-ref` on trees where every skill is readable. 10xGraph's catalog is compared by the
lint fidelity suite; Claude Code and Codex have no peer library, so they are not compared here.
Expected values are computed at test time by the installed packages.

Usage: test_catalog_dialects.py --binary target/debug/skillforge --fixtures tests/fixtures
"""

import argparse
import asyncio
import random
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import nagents.skills.types as nagents_types
from nagents.skills import DirectorySkillDiscoverer
from skills_ref.prompt import to_prompt

from fidelity_common import Results


def listing(binary: str, root: Path, *extra: str) -> str:
    done = subprocess.run([binary, "listing", str(root), *extra], capture_output=True)
    return done.stdout.decode("utf-8", errors="replace")


async def nagents_skills(root: Path):
    return await DirectorySkillDiscoverer([root]).discover()


def nagents_manifest(skills, cap: int) -> str:
    original = nagents_types.MAX_SKILL_MANIFEST_TOKENS
    nagents_types.MAX_SKILL_MANIFEST_TOKENS = cap
    try:
        return nagents_types.render_skill_manifest(skills)
    finally:
        nagents_types.MAX_SKILL_MANIFEST_TOKENS = original


def synthetic_tree(root: Path, count: int) -> None:
    """Skills with varied, escapable, multibyte descriptions, so lowered caps cut in many places."""
    generator = random.Random(11)
    words = ["pdf", "<tag>", "a&b", "\"quoted\"", "it's", "résumé", "漢字", "😀", "table", "chart"]
    for index in range(count):
        folder = root / f"skill-{index:03d}"
        folder.mkdir(parents=True)
        description = " ".join(generator.choice(words) for _ in range(generator.randint(3, 60)))
        (folder / "SKILL.md").write_text(
            f"---\nname: skill-{index:03d}\ndescription: Use for {description}\n---\n# Body {index}\n", encoding="utf-8"
        )


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", required=True)
    parser.add_argument("--fixtures", required=True)
    args = parser.parse_args()
    fixtures = Path(args.fixtures)
    results = Results()
    with tempfile.TemporaryDirectory() as temp:
        synthetic = Path(temp) / "synthetic"
        synthetic_tree(synthetic, 120)
        trees = [fixtures / "activation" / "skills", fixtures / "e2e-workspace", synthetic]
        caps = [10_000, 2_000, 500, 120, 61, 60, 1]
        for tree in trees:
            if not tree.is_dir():
                continue
            try:
                skills = asyncio.run(nagents_skills(tree))
            except Exception as error:  # a duplicate name fails nagents' discovery: nothing to compare
                print(f"skip nagents {tree.name}: {error}", file=sys.stderr)
                continue
            for cap in caps:
                expected = nagents_manifest(skills, cap)
                extra = [] if cap == 10_000 else ["--manifest-tokens", str(cap)]
                actual = listing(args.binary, tree, "--dialect", "nagents", *extra)
                results.check(f"nagents {tree.name} cap {cap}", expected, actual)

        # skills-ref: a tree where every skill is readable by skills-ref (to_prompt raises otherwise).
        readable = Path(temp) / "readable"
        readable.mkdir()
        for folder in sorted((fixtures / "activation" / "skills").iterdir()):
            if folder.name in ("alpha", "beta", "gamma"):
                shutil.copytree(folder, readable / folder.name)
        for tree in (readable, synthetic):
            folders = sorted(path.parent for path in tree.rglob("SKILL.md"))
            expected = to_prompt(folders)
            actual = listing(args.binary, tree, "--dialect", "skills-ref")
            results.check(f"skills-ref {tree.name}", expected, actual)
        empty = Path(temp) / "empty"
        empty.mkdir()
        results.check("skills-ref empty", to_prompt([]), listing(args.binary, empty, "--dialect", "skills-ref"))
    print(f"catalog dialect fidelity: {results.passed} passed, {results.failed} failed")
    return 1 if results.failed else 0


if __name__ == "__main__":
    sys.exit(main())
