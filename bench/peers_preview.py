"""The baselines of bench/preview.sh: the same listing after the same edit, as often as the engine.

Usage: peers_preview.py ROOT ROUNDS EDITED. Each round edits the buffer of ROOT/EDITED exactly as
preview_bench does (`description: ` becomes `description: edit {round} `) and gets each dialect's
listing the way its peer can:

- nagents: parse the edited buffer with nagents' `parse_skill_metadata`, put it in place of the
  skill in the catalog its DirectorySkillDiscoverer found once, and `render_skill_manifest` it: the
  same incremental work as the engine's session.
- skills-ref: `to_prompt` takes folders, not buffers, so the edit is written to the file first and
  every folder is read again (the file is restored at the end).
- 10xgraph: `SkillsRegistry.discover` of the root again and `build_catalog` (its one-level walk lists
  no skill on this tree, as the engine's preview does not).
- claude-code and codex have no peer library: their baseline is the least a listing that is not kept
  in memory needs, reading every SKILL.md of the tree (`find ROOT -name SKILL.md -exec cat {} +`).

Prints one `peer DIALECT LISTED BYTES P50 P95 MAX` line per dialect: the skills in the last round's
listing and its length in bytes (- for the `cat` baseline), then milliseconds, the percentiles taken
as preview_bench takes them.
"""

import asyncio
import math
import re
import subprocess
import sys
import time
from pathlib import Path

from nagents.skills import DirectorySkillDiscoverer, parse_skill_metadata, render_skill_manifest
from skills_ref.prompt import to_prompt
from tenxgraph.core.skills import SkillsRegistry

root, rounds, edited = Path(sys.argv[1]).absolute(), int(sys.argv[2]), sys.argv[3]
path = root / edited
original = path.read_text(encoding="utf-8")


def edit(round_number: int) -> str:
    return original.replace("description: ", f"description: edit {round_number} ", 1)


def report(dialect: str, listing, times: list[float]) -> None:
    times = sorted(times)

    def at(q: float) -> float:
        # Rust's f64::round (half away from zero), as preview_bench indexes.
        return times[math.floor((len(times) - 1) * q + 0.5)]

    listed, size = listing
    print(f"peer {dialect} {listed} {size} {at(0.5):.3f} {at(0.95):.3f} {at(1.0):.3f}")


def measure(work) -> tuple[object, list[float]]:
    times, result = [], None
    for round_number in range(rounds):
        started = time.perf_counter()
        result = work(round_number)
        times.append((time.perf_counter() - started) * 1000)
    return result, times


# nagents: the catalog discovered once, then one re-parse and a full render per round.
skills = list(asyncio.run(DirectorySkillDiscoverer([root], max_entries=10_000_000, max_depth=64).discover()))
position = next(index for index, skill in enumerate(skills) if Path(skill.location) == path)


def nagents_round(round_number: int):
    current = list(skills)
    current[position] = parse_skill_metadata(edit(round_number), str(path), path.parent.name)
    current.sort(key=lambda skill: skill.name)
    manifest = render_skill_manifest(current)
    return manifest.count("<skill "), len(manifest.encode())


listing, times = measure(nagents_round)
report("nagents", listing, times)

# 10xgraph: discovery of the root again and its catalog.
def tenxgraph_round(round_number: int):
    registry = SkillsRegistry()
    registry.discover([str(root)])
    return len(registry), len(registry.build_catalog().encode())


listing, times = measure(tenxgraph_round)
report("10xgraph", listing, times)

# skills-ref: the edit saved, then every folder read again.
folders = sorted(skill.parent for skill in root.rglob("SKILL.md"))


def skills_ref_round(round_number: int):
    path.write_text(edit(round_number), encoding="utf-8")
    prompt = to_prompt(folders)
    return len(re.findall(r"^<skill>$", prompt, flags=re.MULTILINE)), len(prompt.encode())


try:
    listing, times = measure(skills_ref_round)
finally:
    path.write_text(original, encoding="utf-8")
report("skills-ref", listing, times)

# Claude Code and Codex: every SKILL.md read once per round.
def cat_round(round_number: int):
    subprocess.run(
        ["find", str(root), "-name", "SKILL.md", "-exec", "cat", "{}", "+"],
        stdout=subprocess.DEVNULL,
        check=True,
    )
    return "-", "-"


for dialect in ("claude-code", "codex"):
    listing, times = measure(cat_round)
    report(dialect, listing, times)
