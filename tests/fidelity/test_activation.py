"""Fidelity of activation: `skillforge simulate` against the real nagents 0.25.2 and 10xgraph 0.10.3.

nagents: for each tree and user message, the first request a real `Agent` would send (captured by a
plugin's `before_model` hook, which runs after the request is assembled and before any network
call) must equal `request_messages` byte for byte, and the `skill` tool's description and schema
must match. 10xgraph: every `activate_skill` and `read_skill_resource` output must equal what the
real tool functions return for the same skill tree. Expected values are computed here, at test
time, by the installed packages; nothing is copied from skillforge's own output.

Usage: test_activation.py --binary target/debug/skillforge --fixtures tests/fixtures
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

from nagents import Agent, Provider, ProviderType, SessionManager
from nagents.extensions import AgentPlugin
from nagents.skills import DirectorySkillDiscoverer
from tenxgraph.core.skills import SkillConfig, SkillsRegistry
from tenxgraph.core.skills.activation import (
    has_bundled_files,
    make_activate_skill_tool,
    make_read_skill_resource_tool,
)

from fidelity_common import Results

# Checks this suite runs today; fewer means cases were lost. Raise it when cases are added.
MIN_CASES = 109


class _Captured(Exception):
    """Raised from before_model once the request is captured, so nothing is ever sent."""


class _Capture(AgentPlugin):
    def __init__(self) -> None:
        self.request = None

    async def before_model(self, context, request):
        self.request = request
        raise _Captured()


async def nagents_first_request(root: Path, message: str, token_limit: int, system_prompt):
    provider = Provider(ProviderType.OPENAI_COMPATIBLE, api_key="unused", model="m", base_url="http://127.0.0.1:9/v1")
    with tempfile.TemporaryDirectory() as state:
        capture = _Capture()
        agent = Agent(
            provider,
            SessionManager(Path(state) / "sessions.db"),
            system_prompt=system_prompt,
            plugins=[capture],
            compaction_strategy=None,
            skill_discoverer=DirectorySkillDiscoverer([root]),
            skill_token_limit=token_limit,
        )
        # Model verification would contact the provider; the request is captured before any call.
        agent._initialized = True
        try:
            async for _ in agent.run(message):
                pass
        except _Captured:
            pass
        await agent.session.close() if hasattr(agent.session, "close") else None
    request = capture.request
    if request is None:
        raise RuntimeError("nagents built no request")
    messages = [{"role": m.role, "content": m.content} for m in request.messages]
    tools = [{"name": t.name, "description": t.description, "parameters": t.parameters} for t in request.tools]
    return messages, tools


def run_cli(binary: Path, args: list[str]) -> dict:
    completed = subprocess.run([str(binary), *args, "--format", "json"], capture_output=True, text=True)
    if completed.returncode != 0:
        raise RuntimeError(f"skillforge {' '.join(args)} exited {completed.returncode}: {completed.stderr}")
    return json.loads(completed.stdout)


def nagents_cases(results: Results, binary: Path, skills: Path, many: Path) -> None:
    cases = [
        (skills, "no references at all", 10_000, None),
        (skills, "", 10_000, None),
        (skills, "use $alpha please", 10_000, None),
        (skills, "use $alpha please", 10_000, "You are a careful assistant."),
        (skills, "use $alpha please", 10_000, ""),
        (skills, "$beta then $alpha and $gamma, $plain", 10_000, "sys"),
        (skills, "$alpha $alpha $beta $alpha", 10_000, None),
        (skills, "$nope and $alpha and $also-missing", 10_000, None),
        (skills, "escaped \\$alpha, glued a$alpha, doubled $$alpha", 10_000, None),
        (skills, "é$alpha and $alphaé and $alpha_é and $alpha- and -$beta", 10_000, None),
        (skills, "(\u093e$beta) $gamma\u093e 一$alpha", 10_000, None),
        (skills, "emoji 😀$beta and $beta😀", 10_000, None),
        (skills, "A" * 70 + " $" + "x" * 65 + " $" + "alpha" + "-" * 59, 10_000, None),
        (skills, "$delta-tools then $alpha then $beta", 50, None),
        (skills, "$delta-tools then $alpha then $beta", 4_000, None),
        (skills, "$alpha $beta", 1, None),
    ]
    for limit in (1, 2, 3, 5, 7, 13):
        cases.append((skills, "$gamma and $beta", limit, None))
    names = " ".join(f"$s{i:02d}" for i in range(40))
    cases.append((many, f"{names} $s05 $unknown", 10_000, None))
    cases.append((many, f"$ghost {names}", 30, "sys"))
    cases.append((many, "router free text with no reference", 10_000, None))
    for root, message, limit, system_prompt in cases:
        label = f"nagents {root.name} {message[:60]!r} limit={limit} system={system_prompt!r}"
        expected_messages, expected_tools = asyncio.run(nagents_first_request(root, message, limit, system_prompt))
        args = ["simulate", str(root), "--message", message, "--token-limit", str(limit)]
        if system_prompt is not None:
            args += ["--system-prompt", system_prompt]
        report = run_cli(binary, args)
        results.check(label + " request_messages", expected_messages, report["request_messages"])
        tools = [
            {"name": t["name"], "description": t["description"], "parameters": json.loads(t["parameters"])}
            for t in report["transcript"]["rounds"][0]["tools"]
        ]
        results.check(label + " tools", expected_tools, tools)


def make_tenxgraph_tree(base: Path, fixtures: Path, outside: Path) -> Path:
    root = base / "tenx"
    shutil.copytree(fixtures / "activation" / "skills", root)
    alpha = root / "alpha"
    (alpha / "big.txt").write_bytes(b"x" * 300_000)
    (alpha / "cut.txt").write_bytes(b"y" * 262_143 + "é".encode() + b"tail")
    (alpha / "exact.txt").write_bytes(b"z" * 262_144)
    (alpha / "binary.bin").write_bytes(b"PK\x03\x04\x00\x01binary")
    (alpha / "late-nul.txt").write_bytes(b"a" * 9000 + b"\x00")
    (alpha / "bad.txt").write_bytes(b"ok \xff\xfe bad \xc3 end \xe2\x82")
    (alpha / ".hidden").write_text("secret")
    (alpha / "node_modules").mkdir()
    (alpha / "node_modules" / "x.js").write_text("js")
    (alpha / "__pycache__").mkdir()
    (alpha / "__pycache__" / "x.cpython-312.pyc").write_bytes(b"\x00")
    (alpha / "scripts" / "old.pyc").write_bytes(b"\x00")
    (alpha / "scripts" / ".env").write_text("KEY=1")
    (alpha / "empty-dir").mkdir()
    (alpha / "references" / "deep").mkdir()
    (alpha / "references" / "deep" / "note.md").write_text("deep note\n")
    (outside / "secret.txt").write_text("outside secret\n")
    os.symlink(outside / "secret.txt", alpha / "link-out.txt")
    os.symlink("references/guide.md", alpha / "link-in.md")
    os.symlink(outside, alpha / "linkdir-out")
    os.symlink("references", alpha / "linkdir-in")
    os.symlink("missing-target", alpha / "broken-link")
    os.mkfifo(alpha / "fifo")
    many = root / "many-files"
    (many / "data").mkdir(parents=True)
    (many / "SKILL.md").write_text("---\nname: many-files\ndescription: A skill with too many files.\n---\nBody.\n")
    for i in range(205):
        (many / "data" / f"f{i:03d}.csv").write_text(f"{i}\n")
    empty = root / "empty-body"
    empty.mkdir()
    (empty / "SKILL.md").write_text("---\nname: empty-body\ndescription: Frontmatter only.\n---\n\n")
    return root


def tenxgraph_cases(results: Results, binary: Path, root: Path, scratch: Path) -> None:
    registry = SkillsRegistry()
    registry.discover([str(root)])
    config = SkillConfig(skills_dir=str(root))
    can_read = has_bundled_files(registry)
    activate = make_activate_skill_tool(registry, config, embed_catalog=False, can_read_files=can_read)
    read = make_read_skill_resource_tool(registry, config)

    def text(output) -> str:
        return output if isinstance(output, str) else output.message

    calls = []
    for name in ("alpha", "beta", "gamma", "plain", "delta-tools", "many-files", "empty-body", "nope"):
        calls.append(("activate_skill", {"skill_name": name}))
    paths = [
        "references/guide.md", "./references/guide.md", "././references/guide.md", "references\\guide.md",
        "  references/guide.md  ", "", "   ", ".", "./", "/etc/passwd", "C:/windows", "c:relative",
        "../beta/SKILL.md", "../alpha/references/guide.md", "references/../scripts/extract.py",
        "references/../../beta/SKILL.md", "references", "references/", "scripts", "empty-dir", "missing.md",
        "references/missing.md", "link-out.txt", "link-in.md", "linkdir-out/secret.txt", "linkdir-in/guide.md",
        "linkdir-in", "broken-link", "big.txt", "cut.txt", "exact.txt", "binary.bin", "late-nul.txt", "bad.txt",
        ".hidden", "node_modules/x.js", "node_modules", "__pycache__", "SKILL.md", "fifo", "SKILL.md/../SKILL.md",
        "references/guide.md/..", "a<b>&\"'.md",
    ]
    for path in paths:
        calls.append(("read_skill_resource", {"skill_name": "alpha", "path": path}))
    calls.append(("read_skill_resource", {"skill_name": "many-files", "path": "data"}))
    calls.append(("read_skill_resource", {"skill_name": "many-files", "path": "nothing.txt"}))
    calls.append(("read_skill_resource", {"skill_name": "beta", "path": "nothing.txt"}))
    calls.append(("read_skill_resource", {"skill_name": "nope", "path": "x"}))

    expected = []
    for tool, arguments in calls:
        if tool == "activate_skill":
            expected.append(text(activate(arguments["skill_name"], state=None)))
        else:
            expected.append(text(read(arguments["skill_name"], arguments["path"])))

    # "Already active": a second activation while the first result is in the conversation.
    first = text(activate("alpha", state=None))
    state = types.SimpleNamespace(
        context=[types.SimpleNamespace(text=lambda: first)],
        execution_meta=types.SimpleNamespace(internal_data={}),
    )
    calls.append(("activate_skill", {"skill_name": "alpha"}))
    expected.append(text(activate("alpha", state=state)))

    script = scratch / "script.json"
    steps = [{"tool": tool, "arguments": arguments} for tool, arguments in calls]
    script.write_text(json.dumps(steps + [{"text": "done"}]))
    report = run_cli(
        binary,
        ["simulate", str(root), "--dialect", "10xgraph", "--message", "go", "--model", f"script:{script}",
         "--max-rounds", str(len(steps) + 1)],
    )
    rounds = report["transcript"]["rounds"]
    for index, ((tool, arguments), want) in enumerate(zip(calls, expected)):
        got = rounds[index]["tool_results"][0]["content"] if index < len(rounds) and rounds[index]["tool_results"] else None
        results.check(f"10xgraph {tool} {arguments}", want, got)

    # The catalog prompt and session mode are compared as the system messages of the first request.
    from tenxgraph.core.skills.activation import build_catalog_prompt, format_skill_content

    first_request = report["request_messages"]
    results.check(
        "10xgraph catalog prompt",
        [{"role": "system", "content": build_catalog_prompt(registry, can_read_files=can_read)}, {"role": "user", "content": "go"}],
        first_request,
    )
    for name in ("alpha", "beta"):
        session = run_cli(
            binary, ["simulate", str(root), "--dialect", "10xgraph", "--message", "hi", "--session-skill", name]
        )
        results.check(
            f"10xgraph session mode {name}",
            [{"role": "system", "content": format_skill_content(registry, name, config, can_read_files=can_read)},
             {"role": "user", "content": "hi"}],
            session["request_messages"],
        )


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", type=Path, required=True)
    parser.add_argument("--fixtures", type=Path, required=True)
    options = parser.parse_args()
    binary = options.binary.resolve()
    fixtures = options.fixtures.resolve()
    results = Results()
    with tempfile.TemporaryDirectory() as scratch_name:
        scratch = Path(scratch_name).resolve()
        many = scratch / "many"
        for i in range(40):
            (many / f"s{i:02d}").mkdir(parents=True)
            body = f"Skill {i} body: " + "é" * (i * 3) + "\n"
            (many / f"s{i:02d}" / "SKILL.md").write_text(f"---\nname: s{i:02d}\ndescription: Skill number {i}\n---\n{body}")
        try:
            nagents_cases(results, binary, fixtures / "activation" / "skills", many)
        except Exception as error:  # a crash is a failure, reported with the others
            results.fail("nagents cases crashed", repr(error))
        outside = scratch / "outside"
        outside.mkdir()
        try:
            root = make_tenxgraph_tree(scratch, fixtures, outside)
            tenxgraph_cases(results, binary, root, scratch)
        except Exception as error:
            results.fail("10xgraph cases crashed", repr(error))
    return results.finish("activation fidelity", MIN_CASES)


if __name__ == "__main__":
    sys.exit(main())
