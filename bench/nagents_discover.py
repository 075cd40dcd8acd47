"""Time one nagents directory discovery of a tree; prints seconds and the skill count."""

import asyncio
import sys
import time

from nagents.skills import DirectorySkillDiscoverer

discoverer = DirectorySkillDiscoverer([sys.argv[1]], max_entries=10_000_000, max_depth=16)
start = time.perf_counter()
skills = asyncio.run(discoverer.discover())
print(f"{time.perf_counter() - start:.6f} {len(skills)}")
