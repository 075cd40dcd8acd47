"""What the real nagents 0.25.2 directory source finds, asked in ways the fidelity suites share.

`survey` lets nagents' own discovery run to its end with its duplicate check recorded instead of
raised, so a suite sees every descriptor nagents parsed (in its walk order) and its bounded
diagnostics; `strict` is the plain `discover()` a client calls; `duplicates` asks nagents' own
`skill_catalog` which descriptors it refuses, one after the other. Nothing here reimplements nagents.
"""

import asyncio
import contextlib
import os
from pathlib import Path

import nagents.skills.sources as sources
from nagents.skills import DirectorySkillDiscoverer
from nagents.skills.types import skill_catalog


@contextlib.contextmanager
def working_directory(path):
    previous = os.getcwd()
    os.chdir(path)
    try:
        yield
    finally:
        os.chdir(previous)


def as_dict(skill) -> dict:
    """A descriptor as nagents' `Skill` dataclass holds it, fields in its declaration order."""
    return {"name": skill.name, "description": skill.description, "location": skill.location}


def survey(roots, cwd=None, max_entries=10_000, max_depth=16):
    """Every descriptor nagents parsed before its duplicate check, in walk order, and its diagnostics."""
    recorded = []
    real = sources.skill_catalog

    def recording(skills):
        recorded.extend(skills)
        return {}

    sources.skill_catalog = recording
    try:
        with working_directory(cwd or os.getcwd()):
            discoverer = DirectorySkillDiscoverer([str(root) for root in roots], max_entries=max_entries,
                                                  max_depth=max_depth)
            asyncio.run(discoverer.discover())
    finally:
        sources.skill_catalog = real
    return recorded, list(discoverer.diagnostics)


def strict(roots, cwd=None, max_entries=10_000, max_depth=16):
    """(discoverer, skills, None) when nagents' discovery succeeds, (discoverer, None, message) when it raises."""
    with working_directory(cwd or os.getcwd()):
        discoverer = DirectorySkillDiscoverer([str(root) for root in roots], max_entries=max_entries,
                                              max_depth=max_depth)
        try:
            skills = asyncio.run(discoverer.discover())
        except ValueError as error:
            return discoverer, None, str(error)
    return discoverer, list(skills), None


def duplicates(found) -> tuple[list, list]:
    """(kept, refused): walks `found` in order and lets nagents' own `skill_catalog` decide, for each
    descriptor, whether adding it to those kept so far makes the catalog fail."""
    kept, refused = [], []
    for skill in found:
        try:
            skill_catalog([*kept, skill])
        except ValueError:
            refused.append(skill)
            continue
        kept.append(skill)
    return kept, refused


def skill_dir_of(skill) -> Path:
    return Path(skill.location).parent
