"""The peers' side of bench/simulate.sh: the same conversation, driven through the real libraries.

Usage: peers_simulate.py nagents once|boundaries RUNS ROOT MESSAGE ANSWERS
       peers_simulate.py 10xgraph RUNS ANSWERS ROOT...

ANSWERS is a JSON list with one entry per request of the engine's run: the name of the skill the
model loads in that request, or null for a plain answer. The peers replay those answers, so they
do the same requests as the engine; they do not score skills (the engine's router does), which
only makes their side lighter.

nagents: a real `Agent` runs the message, with the provider's transport replaced in process by the
replayed answers (no network). `once` wraps nagents' directory discoverer so that it walks the tree
a single time, as the engine's `--refresh once`; `boundaries` is nagents as released, rediscovering
at every client boundary. 10xGraph: `SkillsRegistry.discover` over the roots, then for each request
the catalog prompt, and `activate_skill` for each load.

Prints `key value` lines: the skill count, the number of requests, and the best of RUNS runs of the
discovery and of the requests after discovery, in seconds. Any failure (a skill that does not load,
a different number of requests) exits with an error instead of printing a time.
"""

import asyncio
import json
import sys
import tempfile
import time
from pathlib import Path


def fail(message: str) -> None:
    print(f"peers_simulate: {message}", file=sys.stderr)
    sys.exit(1)


class OnceDiscoverer:
    """nagents' directory discoverer, walked once: later discoveries return the first catalog."""

    def __init__(self, inner) -> None:
        self.inner = inner
        self.skills = None

    async def discover(self):
        if self.skills is None:
            self.skills = await self.inner.discover()
        return self.skills

    async def load(self, skill):
        return await self.inner.load(skill)


async def nagents_run(mode: str, root: str, message: str, answers: list) -> tuple[float, float, int, int]:
    from nagents import Agent, Provider, ProviderType, SessionManager
    from nagents.events.types import FinishReason, TextDoneEvent, ToolCallEvent
    from nagents.skills import DirectorySkillDiscoverer

    provider = Provider(ProviderType.OPENAI_COMPATIBLE, api_key="unused", model="m", base_url="http://127.0.0.1:9/v1")
    requests = 0
    results = []

    async def replay(messages, tools, config, stream):
        nonlocal requests
        if requests >= len(answers):
            fail(f"nagents sent more than the engine's {len(answers)} requests")
        answer = answers[requests]
        requests += 1
        if answer is None:
            yield TextDoneEvent(text="done", finish_reason=FinishReason.STOP)
        else:
            yield TextDoneEvent(text="", finish_reason=FinishReason.TOOL_CALLS)
            yield ToolCallEvent(id=f"call-{requests}", name="skill", arguments={"name": answer})

    # The transport below the provider's error handling: everything above it is nagents' own code.
    provider._dispatch = replay
    directory = DirectorySkillDiscoverer([root], max_entries=10_000_000, max_depth=16)
    discoverer = OnceDiscoverer(directory) if mode == "once" else directory
    with tempfile.TemporaryDirectory() as state:
        agent = Agent(
            provider,
            SessionManager(Path(state) / "sessions.db"),
            compaction_strategy=None,
            skill_discoverer=discoverer,
        )
        # Model verification would contact the provider; the replayed transport needs none.
        agent._initialized = True
        started = time.perf_counter()
        skills = await agent.refresh_skills()
        discovery = time.perf_counter() - started
        started = time.perf_counter()
        async for event in agent.run(message):
            kind = type(event).__name__
            if kind == "ErrorEvent":
                fail(f"nagents failed: {event.message}")
            if kind == "ToolResultEvent":
                results.append(event)
        run = time.perf_counter() - started
    if requests != len(answers):
        fail(f"nagents sent {requests} requests, the engine {len(answers)}")
    loads = sum(answer is not None for answer in answers)
    errors = [result.error for result in results if result.error]
    if len(results) != loads or errors:
        fail(f"nagents loaded {len(results) - len(errors)} of the engine's {loads} skills: {errors}")
    return discovery, run, requests, len(skills)


def tenxgraph_run(roots: list[str], answers: list) -> tuple[float, float, int, int]:
    from tenxgraph.core.skills import SkillConfig, SkillsRegistry
    from tenxgraph.core.skills.activation import build_catalog_prompt, has_bundled_files, make_activate_skill_tool

    started = time.perf_counter()
    registry = SkillsRegistry()
    registry.discover(roots)
    discovery = time.perf_counter() - started
    started = time.perf_counter()
    can_read = has_bundled_files(registry)
    activate = make_activate_skill_tool(registry, SkillConfig(skills_dir=roots[0]), embed_catalog=False, can_read_files=can_read)
    for answer in answers:
        prompt = build_catalog_prompt(registry, can_read_files=can_read)
        if not prompt:
            fail("10xgraph built an empty catalog")
        if answer is not None:
            output = activate(answer, state=None)
            # Errors come back as a ToolResult; the skill's content as a string.
            if not isinstance(output, str):
                fail(f"10xgraph did not activate {answer}: {output.message[:300]}")
    run = time.perf_counter() - started
    return discovery, run, len(answers), len(registry)


def main() -> None:
    dialect = sys.argv[1]
    if dialect == "nagents":
        mode, runs, root, message, answers = sys.argv[2], int(sys.argv[3]), sys.argv[4], sys.argv[5], json.loads(sys.argv[6])
        measure = lambda: asyncio.run(nagents_run(mode, root, message, answers))
    elif dialect == "10xgraph":
        runs, answers, roots = int(sys.argv[2]), json.loads(sys.argv[3]), sys.argv[4:]
        measure = lambda: tenxgraph_run(roots, answers)
    else:
        fail(f"unknown dialect {dialect}")
    best_discovery = best_run = float("inf")
    for _ in range(runs):
        discovery, run, requests, skills = measure()
        best_discovery = min(best_discovery, discovery)
        best_run = min(best_run, run)
    print(f"skills {skills}")
    print(f"requests {requests}")
    print(f"discovery_seconds {best_discovery:.6f}")
    print(f"run_seconds {best_run:.6f}")


if __name__ == "__main__":
    main()
