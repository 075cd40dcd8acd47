"""Prints the manifest nagents' own builtin source renders for Skillforge's builtin skills.

Usage: nagents_builtin.py SKILLS_DIR

nagents' BuiltinSkillDiscoverer reads the skills bundled in a package (its `bundled/` folder, through
importlib.resources) and names each `package:nagents.skills/bundled/{dir}/SKILL.md`. Skillforge ships the folders of
SKILLS_DIR as its builtin skills in the same way, under `package:skillforge/skills/{dir}/SKILL.md`. So this runs the
real discoverer over a throwaway package whose `bundled/` is a copy of SKILLS_DIR, changes only the package part of
each location, and renders the manifest with nagents' render_skill_manifest. Everything else (which folders count,
their order, parsing the frontmatter, duplicates, escaping, the budget) is nagents' own code.
"""

import asyncio
import dataclasses
import importlib
import shutil
import sys
import tempfile
from pathlib import Path

import nagents.skills.sources as sources
from nagents.skills import BuiltinSkillDiscoverer
from nagents.skills import render_skill_manifest

NAGENTS_PREFIX = "package:nagents.skills/bundled/"
SKILLFORGE_PREFIX = "package:skillforge/skills/"


def main() -> int:
    skills_dir = Path(sys.argv[1])
    with tempfile.TemporaryDirectory(prefix="skillforge-e2e-nagents-") as scratch:
        package = Path(scratch) / "skillforge_e2e_builtin"
        package.mkdir()
        (package / "__init__.py").write_text("")
        shutil.copytree(skills_dir, package / "bundled")
        sys.path.insert(0, scratch)
        # The discoverer reads the package it was imported from (sources._PACKAGE); point it at ours.
        sources._PACKAGE = importlib.import_module(package.name)
        skills = asyncio.run(BuiltinSkillDiscoverer().discover())
    renamed = []
    for skill in skills:
        if not skill.location.startswith(NAGENTS_PREFIX):
            raise SystemExit(f"unexpected builtin location from nagents: {skill.location!r}")
        location = SKILLFORGE_PREFIX + skill.location[len(NAGENTS_PREFIX):]
        renamed.append(dataclasses.replace(skill, location=location))
    if not renamed:
        raise SystemExit(f"nagents found no skills in {skills_dir}")
    sys.stdout.write(render_skill_manifest(renamed))
    return 0


if __name__ == "__main__":
    sys.exit(main())
