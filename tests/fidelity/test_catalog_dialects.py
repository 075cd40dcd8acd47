"""Fidelity of the catalog dialects: `skillforge listing` against the real nagents 0.25.2 and skills-ref 0.1.1.

nagents: for each fixture tree and manifest cap, `render_skill_manifest` over the skills nagents' own
directory discoverer finds, with `MAX_SKILL_MANIFEST_TOKENS` monkeypatched to the cap, must equal
`skillforge listing --dialect nagents --manifest-tokens CAP` byte for byte (the default cap included),
with exit code 0 and nagents' own diagnostics, one a line, as the whole of stderr. A tree where nagents'
discovery raises (a repeated name) is compared too: exit 1, nagents' exact error on stderr, and the
preview (a documented deviation, printed) equal to nagents' manifest over the descriptors nagents'
own `skill_catalog` keeps.

skills-ref: `to_prompt` over the folders skills-ref can read (`read_properties` does not raise) must
equal `skillforge listing --dialect skills-ref` byte for byte, exit 0, and stderr must name every
folder skills-ref refuses with skills-ref's own message (`{SKILL.md path}: {message}`), in path order.

Every tree is required: a missing one, a peer that raises where it should not, or output that is not
UTF-8 is a failure, never a skip. 10xGraph's catalog is compared by the lint fidelity suite; Claude
Code and Codex are compared with their real binaries by test_claude_code.py and test_codex.py (`listing
--project` and the ROOTS form). Expected values are computed at
test time by the installed packages.

Usage: test_catalog_dialects.py --binary target/debug/skillforge --fixtures tests/fixtures
"""

import argparse
import random
import shutil
import sys
import tempfile
from pathlib import Path

import nagents.skills.types as nagents_types
from skills_ref.errors import SkillError
from skills_ref.parser import read_properties
from skills_ref.prompt import to_prompt

import nagents_peer
from fidelity_common import Results, run_cli, utf8

# Checks this suite runs today (nagents: 4 trees x 7 caps x 3 checks; skills-ref: 6 trees x 3 checks).
# A smaller count means cases were lost; raise it when cases are added.
MIN_CASES = 102

CAPS = [10_000, 2_000, 500, 120, 61, 60, 1]

# The one way the nagents dialect differs from nagents on purpose.
DUPLICATE_PREVIEW = (
    "nagents renders no manifest when a name repeats; skillforge exits 1 with nagents' error and "
    "previews the manifest over the first skill of each name"
)
# skills-ref's YAML errors are strictyaml's multi-line reports (marks and source snippets); skillforge
# names the same refusal on one line in its own words. Such a line is compared up to this prefix.
YAML_PREFIX = "Invalid YAML in frontmatter: "
YAML_WORDING = "skills-ref's YAML error text is strictyaml's multi-line report; compared up to " + repr(YAML_PREFIX)


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


def compare(results: Results, label: str, expected: tuple, done) -> str | None:
    """(exit code, stdout text, stderr text) against the CLI's, decoded strictly; returns the CLI's
    stderr when the expected stderr is None (the caller compares it)."""
    out = utf8(done.stdout, label + " stdout", results)
    err = utf8(done.stderr, label + " stderr", results)
    if out is None or err is None:
        return None
    code, stdout, stderr = expected
    results.check(f"{label}: exit code", code, done.returncode)
    results.check(f"{label}: stdout", stdout, out)
    if stderr is None:
        return err
    results.check(f"{label}: stderr", stderr, err)
    return None


def nagents_tree(results: Results, binary: str, tree: Path) -> None:
    found, diagnostics = nagents_peer.survey([tree])
    _, skills, error = nagents_peer.strict([tree])
    diagnostics_text = "".join(line + "\n" for line in diagnostics)
    if error is None:
        code, stderr = 0, diagnostics_text
    else:
        results.deviation(f"nagents {tree.name}", DUPLICATE_PREVIEW)
        skills, _ = nagents_peer.duplicates(found)
        skills = sorted(skills, key=lambda skill: skill.name)
        code = 1
        stderr = f"nagents fails the whole catalog: {error} (the preview keeps the first skill of each name)\n"
        stderr += diagnostics_text
    for cap in CAPS:
        extra = [] if cap == 10_000 else ["--manifest-tokens", str(cap)]
        done = run_cli(binary, ["listing", str(tree), "--dialect", "nagents", *extra])
        compare(results, f"nagents {tree.name} cap {cap}", (code, nagents_manifest(skills, cap), stderr), done)


def skills_ref_tree(results: Results, binary: str, tree: Path) -> None:
    folders = sorted(path.parent for path in tree.rglob("SKILL.md"))
    readable, problems = [], []
    for folder in folders:
        try:
            read_properties(folder)
        except SkillError as error:  # skills-ref's own refusals; anything else is a crash, a failure
            problems.append((f"{folder.resolve() / 'SKILL.md'}: ", str(error)))
            continue
        readable.append(folder)
    label = f"skills-ref {tree.name}"
    done = run_cli(binary, ["listing", str(tree), "--dialect", "skills-ref"])
    err = compare(results, label, (0, to_prompt(readable), None), done)
    if err is None:
        return
    # One line per refused folder, in path order; a YAML refusal compared up to YAML_PREFIX.
    expected = []
    for (where, message), line in zip(problems, err.splitlines() + [None] * len(problems)):
        if message.startswith(YAML_PREFIX) and line is not None and line.startswith(where + YAML_PREFIX):
            results.deviation(f"{label} {where.rstrip(': ')}", YAML_WORDING)
            message = line[len(where):]
        expected.append(where + message)
    actual = err.splitlines()
    results.check(f"{label}: stderr", expected, actual)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", required=True)
    parser.add_argument("--fixtures", required=True)
    args = parser.parse_args()
    fixtures = Path(args.fixtures).resolve()
    results = Results()
    with tempfile.TemporaryDirectory() as temp:
        temp = Path(temp).resolve()
        synthetic = temp / "synthetic"
        synthetic_tree(synthetic, 120)
        readable = temp / "readable"
        readable.mkdir()
        for name in ("alpha", "beta", "gamma"):
            shutil.copytree(fixtures / "activation" / "skills" / name, readable / name)
        empty = temp / "empty"
        empty.mkdir()
        nagents_trees = [fixtures / "activation" / "skills", fixtures / "e2e-workspace", fixtures / "nagents-duplicates",
                         synthetic]
        skills_ref_trees = [readable, synthetic, empty, fixtures / "activation" / "skills", fixtures / "e2e-workspace",
                            fixtures / "nagents-duplicates"]
        for compare_tree, trees in ((nagents_tree, nagents_trees), (skills_ref_tree, skills_ref_trees)):
            for tree in trees:
                if not tree.is_dir():
                    results.fail(f"{compare_tree.__name__} {tree}: the tree is missing")
                    continue
                try:
                    compare_tree(results, args.binary, tree)
                except Exception as error:  # a peer or the CLI crashed: a failure, never a skip
                    results.fail(f"{compare_tree.__name__} {tree.name} crashed", repr(error))
    return results.finish("catalog dialect fidelity", MIN_CASES)


if __name__ == "__main__":
    sys.exit(main())
