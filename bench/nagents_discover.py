"""nagents' side of bench/run.sh: the same work as the engine's bench_discovery, as often.

Usage: nagents_discover.py TREE RUNS RENDERS. Prints `key value` lines: the best of RUNS discoveries
of TREE by nagents' DirectorySkillDiscoverer (the engine's figure is the best of as many), the skill
count, and the mean time and byte length of RENDERS calls of nagents' render_skill_manifest over
the skills it found (the engine renders its manifest as many times).
"""

import asyncio
import sys
import time

from nagents.skills import DirectorySkillDiscoverer, render_skill_manifest

tree, runs, renders = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])

discoverer = DirectorySkillDiscoverer([tree], max_entries=10_000_000, max_depth=16)
best = float("inf")
for _ in range(runs):
    start = time.perf_counter()
    skills = asyncio.run(discoverer.discover())
    best = min(best, time.perf_counter() - start)

start = time.perf_counter()
for _ in range(renders):
    manifest = render_skill_manifest(skills)
manifest_seconds = (time.perf_counter() - start) / renders

print(f"nagents_seconds {best:.6f}")
print(f"nagents_skills {len(skills)}")
print(f"nagents_manifest_seconds {manifest_seconds:.9f}")
print(f"nagents_manifest_bytes {len(manifest.encode())}")
