"""Time nagents' directory discovery of a tree: prints the best of several runs in seconds (as
the engine's figure is the best of as many) and the skill count."""

import asyncio
import sys
import time

from nagents.skills import DirectorySkillDiscoverer

RUNS = 5

discoverer = DirectorySkillDiscoverer([sys.argv[1]], max_entries=10_000_000, max_depth=16)
best = float("inf")
for _ in range(RUNS):
    start = time.perf_counter()
    skills = asyncio.run(discoverer.discover())
    best = min(best, time.perf_counter() - start)
print(f"{best:.6f} {len(skills)}")
