"""Fidelity of the OpenCode 1.18.33 model against the real binary.

For every case the real OpenCode (`opencode-ai` 1.18.33, installed by scripts/ensure-clients.sh) is started
in the case's project folder, in a private network namespace with a fake chat-completions endpoint and a
fresh HOME (tests/fidelity/opencode_client.py, over real_clients.py), and two things are taken from it at
test time:

- the skills section at the end of the system message `opencode run` sends, which must equal the stdout of
  `skillforge listing --dialect opencode --project P --with-client-skills`, byte for byte;
- the skills `opencode debug skill` loads (name, description or none, location): for every SKILL.md
  `skillforge lint --profile opencode --format json` reports on in the project's skill folders, the verdict
  must agree: loads under this name and description (listed), unlisted under this name (no description), or
  skipped (the client has no skill at that location). Every skill the client loads from those folders must
  have been linted.

OpenCode has no budget, so a case is one project holding many skills: every probe of client_probes.py, many
mutated frontmatters (quotes, colons, flow collections, block scalars, anchors, tags, dates, numbers,
duplicate keys, tabs, control characters, CRLF, unclosed blocks, gray-matter languages), the collation order,
layouts (depth, hidden folders per root kind, links, the walk up to the git root, HOME's roots), the
environment switches and `$OPENCODE_CONFIG_DIR`, an empty project, every fixture tree of the repository, and 300 real-world-shaped skills. Where several files load
under one name, the client keeps one of them, a different one from run to run (it parses concurrently and the
last to finish wins): its pick is accepted when it is one of those files, with that file's description, and
the others count as loading in other runs. Nothing is skipped; a client run that fails is a failed case. Two
cases run at a time.

Usage: test_opencode.py --binary target/debug/skillforge [--keep DIR]
"""

from __future__ import annotations

import argparse
import difflib
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import client_probes  # noqa: E402
import opencode_client as oc  # noqa: E402
import real_clients as rc  # noqa: E402
from fidelity_common import Results, shorten  # noqa: E402

# Checks this suite runs today: over 12 client starts (probes, mutations, order, layout, home, walkup, git, empty,
# no-claude, no-external, fixtures, world), a listing and an "every loaded skill was linted" check each, the ROOTS form on 4 of them, one
# verdict per linted SKILL.md, and one check per name several fixtures share. A smaller count means cases or skills were lost.
MIN_CASES = 852

ROOTS = (".opencode/skills", ".opencode/skill", ".claude/skills", ".agents/skills")

# What the model leaves out on purpose; no case here depends on it (printed with every run so it stays in view).
NOT_MODELLED = {
    "a link back to a folder above it": "the client follows it over and over (the same skill under ever longer "
    "paths, the longest one listed); the model reads each folder once per chain of folders",
    "the config's skills.paths, skills.urls and permission.skill": "the suite's config sets none of them",
    "OPENCODE_DISABLE_PROJECT_CONFIG": "seen only in the client's code, never run",
}

# Skills whose verdict is known to differ from the client, with the reason. Each is still compared and must
# still differ (a deviation that no longer holds is a failure, so the list cannot go stale).
DEVIATIONS: dict[str, str] = {}


def fm(*lines: str, body: str = "Body.\n") -> bytes:
    return client_probes.fm(*lines, body=body)


# Values written after `description: ` (the skill's name is its id). Each is one js-yaml or sanitizer question.
DESCRIPTIONS: list[tuple[str, str]] = [
    ("m-simple", "simple text"), ("m-colon", "Use when: asked"), ("m-colon2", "a: b: c"), ("m-colon-nospace", "x:y"),
    ("m-url", "see http://x.y/z now"), ("m-url-colon", "see http://x.y: now"), ("m-ends-colon", "ends:"),
    ("m-dq-colon", '"quoted: x"'), ("m-sq", "'single'"), ("m-dq-then-pair", '"a" b: c'),
    ("m-sq-then-pair", "'a' b: c"), ("m-dq-then-word", '"a" b'), ("m-flow-seq", "[a, b]"), ("m-flow-map", "{a: b}"),
    ("m-flow-pair", "[a: b]"), ("m-flow-set", "{a}"), ("m-dash-item", "- item"), ("m-question", "? q"),
    ("m-pipe-only", "|"), ("m-gt-only", ">"), ("m-anchor", "&a anchored"), ("m-alias-unknown", "*nope"),
    ("m-tag-str", "!!str 12"), ("m-tag-int", "!!int 12"), ("m-tag-binary", "!!binary aGk="),
    ("m-tag-custom", "!custom x"), ("m-tag-nonspecific", "! 12"), ("m-tag-timestamp", "!!timestamp 2024-01-01"),
    ("m-date", "2024-01-02"), ("m-datetime", "2024-01-02T10:00:00Z"), ("m-datetime-space", "2024-1-2 3:04:05"),
    ("m-date-bad", "2024-13-45"), ("m-date-short", "2024-1-2"), ("m-sexagesimal", "12:30"),
    ("m-sexagesimal3", "1:30:00"), ("m-sexagesimal-float", "1:30.5"), ("m-underscore", "1_000"), ("m-hex", "0x1F"),
    ("m-octal-o", "0o17"), ("m-octal-legacy", "017"), ("m-nine", "09"), ("m-binary", "0b101"), ("m-exp", "1e3"),
    ("m-dot5", ".5"), ("m-plus", "+1"), ("m-negfloat", "-1.5"), ("m-inf", ".inf"), ("m-nan", ".NaN"),
    ("m-version", "1.2.3"), ("m-v", "v1.0"), ("m-yes", "yes"), ("m-No", "No"), ("m-on", "on"), ("m-y", "y"),
    ("m-True", "True"), ("m-TRUE", "TRUE"), ("m-tRue", "tRue"), ("m-false", "false"), ("m-null", "null"),
    ("m-Null", "Null"), ("m-nUll", "nUll"), ("m-tilde", "~"), ("m-empty-sq", "''"), ("m-space-dq", '" "'),
    ("m-tab-dq", '"\\t"'), ("m-sq-escape", "'it''s'"), ("m-dq-escape", '"esc \\" q"'),
    ("m-dq-unicode", '"\\x41\\u00e9\\U0001F600"'), ("m-dq-named", '"\\N \\_ \\L \\P"'), ("m-comment", "text # c"),
    ("m-hash-inside", "text#c"), ("m-percent", "%pct"), ("m-at", "@at"), ("m-backtick", "`bt`"),
    ("m-tab-inside", "a\tb"), ("m-tab-trailing", "trailing\t"), ("m-cafe", "café"), ("m-cjk-colon", "日本語: 値"),
    ("m-emoji-colon", "emoji 😀: x"), ("m-markup", "<b>bold</b> & co"), ("m-commas", "a, b, c"),
    ("m-dash-mid", "a - b"), ("m-dash-lead", "-a"), ("m-dashes-lead", "--a"), ("m-space-colon", "x : y"),
    ("m-windows-path", "C:\\path"), ("m-colon-dq-value", 'a: "b"'), ("m-colon-sq-value", "a: 'b'"),
    ("m-unclosed-seq", "[unclosed"), ("m-unclosed-map", "{unclosed"), ("m-unclosed-dq", '"unclosed'),
    ("m-unclosed-sq", "'unclosed"), ("m-close-bracket", "a]"), ("m-close-brace", "a}"),
    ("m-flow-colon", "a, [b]: c"), ("m-control", "ctl \x01 here"), ("m-del", "del \x7f here"),
    ("m-nel", "nel \x85 here"), ("m-ls", "ls \u2028 here"), ("m-bell-colon", "bell \x07: x"),
    ("m-nbsp", "nbsp\u00a0here"), ("m-zero-width", "zw\u200bhere"), ("m-fffe", "bad \ufffe char"),
    ("m-long-colon", "x: " + "y" * 3000),
    # Values over several lines.
    ("b-literal", "|\n  line1\n  line2"), ("b-folded", ">\n  a\n  b"), ("b-literal-indent", "|2\n    x"),
    ("b-tab-indent", "|\n\tx"), ("b-dq-two-lines", '"a\n  b"'), ("b-plain-cont-colon", "plain\n  cont: x"),
    ("b-plain-cont", "plain\n  cont"), ("b-next-line", "\n  on next line"), ("b-next-list", "\n  - list"),
    ("b-next-map", "\n  k: v"), ("b-literal-blanks", "|\n  a\n\n\n  b\n\n"), ("b-folded-strip", ">-\n  a\n\n  b"),
    ("b-keep", "|+\n  kept\n\n"), ("b-literal-colon-first", "|\n  a: b"), ("b-strip-pipe", "|-\n  stripped"),
]

# Whole files (the name is the id unless the case is about the name).
FILES: list[tuple[str, bytes]] = [
    ("f-crlf", fm("name: f-crlf", "description: crlf: yes").replace(b"\n", b"\r\n")),
    ("f-cr-only", fm("name: f-cr-only", "description: cr").replace(b"\n", b"\r")),
    ("f-bom-crlf", b"\xef\xbb\xbf" + fm("name: f-bom-crlf", "description: bom and crlf").replace(b"\n", b"\r\n")),
    ("f-open-spaces", b"---   \nname: f-open-spaces\ndescription: spaces after the opener\n---\n"),
    ("f-lang-yaml", b"---yaml\nname: f-lang-yaml\ndescription: yaml named\n---\n"),
    ("f-lang-yml-space", b"--- yml\nname: f-lang-yml-space\ndescription: yml named\n---\n"),
    ("f-lang-json", b'---json\n{"name": "f-lang-json", "description": "json frontmatter"}\n---\n'),
    ("f-lang-toml", b"---toml\nname = \"f-lang-toml\"\ndescription = \"toml\"\n---\n"),
    ("f-lang-comment", b"--- # c\nname: f-lang-comment\ndescription: comment on the opener\n---\n"),
    ("f-unclosed-colon", b"---\nname: f-unclosed-colon\ndescription: never: closed\n"),
    ("f-four-dashes", b"----\nname: f-four-dashes\ndescription: four\n---\n"),
    ("f-close-four", b"---\nname: f-close-four\ndescription: closed by four\n----\nBody\n"),
    ("f-close-x", b"---\nname: f-close-x\ndescription: closed by ---x\n---x\nBody\n"),
    ("f-close-spaces", b"---\nname: f-close-spaces\ndescription: closed by --- and text\n--- trailing\nBody\n"),
    ("f-body-dashes", b"---\nname: f-body-dashes\ndescription: dashes in body\n---\nBody\n---\nmore: x\n"),
    ("f-empty-file", b""),
    ("f-only-opener", b"---"),
    ("f-comments-only", b"---\n# just a comment\n---\n"),
    ("f-hash-only", b"---\n#\n---\n"),
    ("f-scalar-doc", b"---\njust text\n---\n"),
    ("f-list-doc", b"---\n- a\n- b\n---\n"),
    ("f-flow-doc", b"---\n{name: f-flow-doc, description: flow mapping document}\n---\n"),
    ("f-explicit-keys", b"---\n? name\n: f-explicit-keys\n? description\n: explicit keys\n---\n"),
    ("f-dup-name", fm("name: f-dup-name", "name: f-dup-name", "description: dup name")),
    ("f-dup-desc", fm("name: f-dup-desc", "description: one", "description: two")),
    ("f-dup-nested", fm("name: f-dup-nested", "description: nested dup", "metadata:", "  a: 1", "  a: 2")),
    ("f-dup-colon-fixed", fm("name: f-dup-colon-fixed", "description: a: b", "description: c")),
    ("f-capital-key", fm("Name: f-capital-key", "description: capital Name only")),
    ("f-name-quoted-colon", fm('name: "f-name: quoted"', "description: quoted name with a colon")),
    ("f-name-string-number", fm("name: '123'", "description: quoted number name")),
    ("f-name-list", fm("name: [f-name-list]", "description: list name")),
    ("f-name-alias", fm("name: &n f-name-alias", "description: *n")),
    ("f-merge-flow", fm("name: f-merge-flow", "<<: {description: merged in}")),
    ("f-merge-alias", fm("base: &b", "  description: from base", "name: f-merge-alias", "<<: *b")),
    ("f-merge-override", fm("base: &b", "  description: from base", "name: f-merge-override", "<<: *b",
                            "description: own")),
    ("f-nul", fm("name: f-nul", "description: nul \x00 here")),
    ("f-latin1", b"---\nname: f-latin1\ndescription: caf\xe9 ok\n---\n"),
    ("f-tab-meta", fm("name: f-tab-meta", "description: tab indented metadata", "metadata:", "\tkey: v")),
    ("f-tab-desc", fm("name: f-tab-desc", "metadata:", "\tdescription: tabbed under metadata")),
    ("f-tab-desc-top", fm("name: f-tab-desc-top", "\tdescription: tabbed at the top")),
    ("f-tab-scalar", fm("name: f-tab-scalar", "description: a", "\tb")),
    ("f-indented-key", fm("name: f-indented-key", "  description: indented")),
    ("f-no-space", fm("name: f-no-space", "description:no space")),
    ("f-no-space-colon", fm("name: f-no-space-colon", "description:a: b")),
    ("f-space-before-colon", fm("name: f-space-before-colon", "description : spaced key")),
    ("f-directive", b"---\n%YAML 1.2\n---\nname: f-directive\n"),
    ("f-hyphen-key-colon", fm("name: f-hyphen-key-colon", "description: fine", "allowed-tools: a: b")),
    ("f-underscore-key-colon", fm("name: f-underscore-key-colon", "description: fine", "when_to_use: a: b")),
    ("f-digit-key-colon", fm("name: f-digit-key-colon", "description: fine", "k2: a: b")),
    ("f-sanitize-after-block", fm("name: f-sanitize-after-block", "metadata:", "  x: 1", "description: a: b")),
    ("f-sanitize-in-block", fm("name: f-sanitize-in-block", "description: |", "  fine", "other: a: b")),
    ("f-sanitize-comment-line", fm("name: f-sanitize-comment-line", "# note: x: y", "description: a: b")),
    ("f-sanitize-quote-start", fm("name: f-sanitize-quote-start", "description: 'a: b' c: d")),
    ("f-sanitize-gt", fm("name: f-sanitize-gt", "description: >", "  a: b")),
    ("f-sanitize-pipe-dash", fm("name: f-sanitize-pipe-dash", "description: |-", "  a: b: c")),
    ("f-sanitize-crlf", fm("name: f-sanitize-crlf", "description: a: b").replace(b"\n", b"\r\n")),
    ("f-sanitize-name", fm("name: f-sanitize: name", "description: colon in the name")),
    ("f-sanitize-tab-key", fm("name: f-sanitize-tab-key", "description:\ta: b")),
    ("f-sanitize-unicode-key", fm("name: f-sanitize-unicode-key", "descriptión: a: b", "description: ok")),
    ("f-long-name", fm("name: f-" + "n" * 300, "description: a 302-character name")),
    ("f-description-missing", fm("name: f-description-missing", "license: MIT")),
    ("f-description-missing-colon", fm("name: f-description-missing-colon", "license: a: b")),
    ("f-alias-bomb-lite", fm("a: &a [x, x]", "b: &b [*a, *a]", "name: f-alias-bomb-lite", "description: aliases")),
]

ORDER_NAMES = ["_under", "-lead", "~tilde", "0-first", "ä", "a b", "a_b", "a-b", "A-B", "a-name", "a.b", "a01",
               "a1", "ab", "aB", "Ab", "alpha", "Alpha", "b10", "b9", "beta", "Beta", "dash_x", "dash-x", "e", "é",
               "f", "ü-dir", "zeta", "Zeta", "日本", "Ω", "ω", "1", "!bang", "x<&>y", " padded "]


def write(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)


@dataclass
class Case:
    """One start of the client: the project (copied into a fresh folder), the working folder below it, and
    HOME's template (files below HOME)."""

    case_id: str
    files: dict[str, bytes] = field(default_factory=dict)
    links: dict[str, str] = field(default_factory=dict)
    home: dict[str, bytes] = field(default_factory=dict)
    cwd: str = ""
    git: list[str] = field(default_factory=list)
    # Extra environment for the client and skillforge alike; `{BASE}` is the case's temp folder.
    env: dict[str, str] = field(default_factory=dict)
    # Skill folders the switches in `env` turn off: lint judges a file as if the client read its folder.
    off: tuple[str, ...] = ()


def cases() -> list[Case]:
    out: list[Case] = []
    probes = Case("probes")
    for probe_id, folder, data, _covers in client_probes.PROBES:
        probes.files[f".opencode/skills/{folder}/SKILL.md"] = data
    out.append(probes)

    mutations = Case("mutations")
    for skill_id, value in DESCRIPTIONS:
        mutations.files[f".claude/skills/{skill_id}/SKILL.md"] = fm(f"name: {skill_id}", f"description: {value}")
    for skill_id, data in FILES:
        mutations.files[f".claude/skills/{skill_id}/SKILL.md"] = data
    out.append(mutations)

    order = Case("order")
    for index, name in enumerate(ORDER_NAMES):
        quoted = json.dumps(name, ensure_ascii=False)
        order.files[f".opencode/skills/o{index:02d}/SKILL.md"] = fm(f"name: {quoted}", f"description: order {index}")
    out.append(order)

    layout = Case("layout")
    simple = client_probes.simple
    for path, name in [
        (".opencode/skills/a/b/c/d/e/f/g/h/i/j/deep11", "deep11-oc"), (".opencode/skills/top", "top-oc"),
        (".opencode/skills/top/child", "child-oc"), (".opencode/skills/.hidden-oc", "hidden-oc"),
        (".opencode/skills/vis/.inner", "inner-oc"), (".opencode/skill/singular", "singular-oc"),
        (".opencode/skills", "root-file-oc"), (".opencode", "not-read-opencode"),
        (".claude/skills/x", "x-claude"), (".claude/skills/.hidden-claude", "hidden-claude"),
        (".claude/skills/.group/nested", "nested-in-hidden-claude"), (".claude/skills", "root-file-claude"),
        (".claude/skill/no", "not-read-claude-skill"), (".agents/skills/ag", "agents-one"),
        (".agents/skills/deep/er/ag2", "agents-deep"), (".agents/skill/no", "not-read-agents-skill"),
        ("skills/no", "not-read-skills"), (".codex/skills/no", "not-read-codex"),
        (".opencode/Skills/no", "not-read-case"), (".opencode/skillsx/no", "not-read-skillsx"),
        (".opencode/skills/a&b'c<d>\"e", "escaped-location"), (".opencode/skills/sp ace", "space-folder"),
    ]:
        layout.files[f"{path}/SKILL.md"] = simple(name, f"layout {name}")
    layout.files[".opencode/skills/lower/skill.md"] = simple("lower-oc", "lower-case file")
    layout.files[".opencode/skills/readme/README.md"] = simple("readme-oc", "not a skill file")
    layout.files["shared/linked-target/SKILL.md"] = simple("linked-folder", "through a folder link")
    layout.files["shared/file.md"] = simple("linked-file", "SKILL.md is a link")
    layout.files["shared/oc-target/SKILL.md"] = simple("linked-folder-oc", "through a folder link in .opencode")
    layout.links[".claude/skills/linked"] = "../../shared/linked-target"
    layout.links[".opencode/skills/filelink/SKILL.md"] = "../../../shared/file.md"
    layout.links[".opencode/skills/oclinked"] = "../../shared/oc-target"
    layout.links[".opencode/skills/dangling"] = "does-not-exist"
    out.append(layout)

    home = Case("home")
    for path, name in [
        (".claude/skills/home-claude", "home-claude"), (".claude/skills/.hidden-home", "hidden-home-claude"),
        (".agents/skills/home-agents", "home-agents"), (".config/opencode/skills/cfg-skills", "cfg-skills"),
        (".config/opencode/skill/cfg-skill", "cfg-skill"), (".config/opencode/skills/.hid/cfg", "cfg-hidden"),
        (".opencode/skills/home-oc", "home-oc"), (".opencode/skill/home-oc-skill", "home-oc-skill"),
        (".claude/skill/no", "home-not-read"), (".codex/skills/no", "home-not-read-codex"),
    ]:
        home.home[f"{path}/SKILL.md"] = simple(name, f"in HOME: {name}")
    home.files[".opencode/skills/project-one/SKILL.md"] = simple("project-one", "in the project")
    home.home[".claude/skills/customize-opencode/SKILL.md"] = simple("customize-opencode", "replaces the built-in")
    out.append(home)

    walkup = Case("walkup", cwd="mid/cwd")
    for path, name in [
        (".claude/skills/top-claude", "top-claude"), (".opencode/skills/top-oc", "top-oc"),
        ("mid/.agents/skills/mid-agents", "mid-agents"), ("mid/.opencode/skill/mid-oc", "mid-oc"),
        ("mid/cwd/.claude/skills/cwd-claude", "cwd-claude"), ("mid/cwd/below/.claude/skills/no", "below-not-read"),
        ("mid/cwd/below/.opencode/skills/no2", "below-not-read-oc"),
    ]:
        walkup.files[f"{path}/SKILL.md"] = simple(name, f"walk up: {name}")
    out.append(walkup)
    git = Case("git", cwd="repo/sub", git=["repo"])
    for path, name in [
        (".claude/skills/outside-repo", "outside-repo"), (".opencode/skills/outside-repo-oc", "outside-repo-oc"),
        ("repo/.claude/skills/repo-root", "repo-root"), ("repo/sub/.opencode/skills/repo-sub", "repo-sub"),
    ]:
        git.files[f"{path}/SKILL.md"] = simple(name, f"git: {name}")
    out.append(git)
    out.append(Case("empty", files={"README.md": b"nothing here\n"}))

    # The environment switches: `.claude` and `.agents` roots off, `$OPENCODE_CONFIG_DIR` read (hidden skipped).
    for case_id, switches, off in (
            ("no-claude", {"OPENCODE_DISABLE_CLAUDE_CODE_SKILLS": "1"}, (".claude/skills",)),
            ("no-external", {"OPENCODE_DISABLE_EXTERNAL_SKILLS": "true"}, (".claude/skills", ".agents/skills"))):
        switched = Case(case_id, env={**switches, "OPENCODE_CONFIG_DIR": "{BASE}/cfgdir"}, off=off)
        for path, name in [
            (".claude/skills/c", "switch-claude"), (".agents/skills/a", "switch-agents"),
            (".opencode/skills/o", "switch-oc"), ("../../cfgdir/skills/d", "config-dir"),
            ("../../cfgdir/skill/.hid/h", "config-dir-hidden"),
        ]:
            switched.files[f"{path}/SKILL.md"] = simple(name, f"{case_id}: {name}")
        switched.home[".claude/skills/hc/SKILL.md"] = simple("home-claude-switch", "in HOME")
        switched.home[".agents/skills/ha/SKILL.md"] = simple("home-agents-switch", "in HOME")
        out.append(switched)

    # Every fixture tree of the repository, read from `.claude/skills/<tree>/` (any depth). Fixtures share
    # names (many are `pdf-tools`): those are compared as "one of them", see run_case.
    fixtures = Case("fixtures")
    core = HERE.parents[1] / "crates" / "skillforge-core" / "tests" / "fixtures" / "lint"
    for tree_root, prefix in ((HERE.parent / "fixtures", "fx"), (core, "lint")):
        for path in sorted(tree_root.rglob("*")):
            relative = path.relative_to(tree_root)
            target = f".claude/skills/{prefix}/{relative}"
            if path.is_symlink():
                fixtures.links[target] = os.readlink(path)
            elif path.is_file() and path.name == "SKILL.md":
                fixtures.files[target] = path.read_bytes()
    out.append(fixtures)

    world = Case("world")
    rng = random.Random(7)
    for index in range(300):
        folder, data = client_probes.world_skill(rng, index)
        world.files[f".claude/skills/{folder}/SKILL.md"] = data
    out.append(world)
    return out


def materialize(case: Case, base: Path) -> tuple[Path, Path]:
    """Writes the case below `base`: (the project, HOME)."""
    project = base / "p" / case.case_id
    home = base / "home"
    project.mkdir(parents=True)
    home.mkdir()
    for relative, data in case.files.items():
        write(project / relative, data)
    for relative, target in case.links.items():
        (project / relative).parent.mkdir(parents=True, exist_ok=True)
        os.symlink(target, project / relative)
    for relative, data in case.home.items():
        write(home / relative, data)
    for relative in case.git:
        subprocess.run(["git", "init", "-q", str(project / relative)], check=True, timeout=60, capture_output=True,
                       env={"PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": str(base)})
    return project, home


def lint_verdicts(binary: str, folder: Path, env: dict, off: tuple[str, ...] = ()) -> tuple[dict, list[str]]:
    """`skillforge lint --profile opencode` over the working folder's skill folders: verdicts by path."""
    verdicts: dict = {}
    problems: list[str] = []
    for root in ROOTS:
        if root in off:
            continue
        path = folder / root
        if not path.is_dir():
            continue
        out = subprocess.run([binary, "lint", "--profile", "opencode", "--format", "json", str(path)], env=env,
                             capture_output=True, timeout=300)
        stderr = out.stderr.decode(errors="replace")
        if out.returncode == 2 and "no SKILL.md found" in stderr:
            continue
        try:
            reports = json.loads(out.stdout)["files"]
        except (ValueError, KeyError):
            problems.append(f"skillforge lint {path} exited {out.returncode}: {stderr[:500]}")
            continue
        for report in reports:
            verdicts.setdefault(report["path"], report["verdicts"][0])
    return verdicts, problems


def expected_verdict(entry: dict | None) -> dict:
    """What the client did with one file, in the terms of lint's verdicts."""
    if entry is None:
        return {"outcome": "skipped"}
    if "description" in entry:
        return {"outcome": "loads", "name": entry["name"], "description": entry["description"]}
    return {"outcome": "unlisted", "name": entry["name"]}


def actual_verdict(verdict: dict) -> dict:
    outcome = verdict.get("outcome")
    if outcome == "loads":
        return {"outcome": "loads", "name": verdict["name"], "description": verdict["description"]}
    if outcome == "unlisted":
        return {"outcome": "unlisted", "name": verdict["name"]}
    return {"outcome": "skipped"}


def blocks(section: str) -> list[str]:
    """The `<skill>` blocks of a section, in order."""
    return re.findall(r"  <skill>\n.*?\n  </skill>", section, re.S)


def block_name(block: str) -> str:
    match = re.search(r"<name>(.*?)</name>\n    <description>", block, re.S)
    return match.group(1) if match else ""


def unescape(location: str) -> str:
    return (location.replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", '"').replace("&#39;", "'")
            .replace("&amp;", "&"))


def settle_duplicates(expected: str, actual: str, shared: dict, verdicts: dict, case: Case,
                      results: Results) -> str:
    """The client's section with each shared name's block replaced by skillforge's, once the client's block is
    checked to be one of the candidates (its location among them, its description that file's)."""
    ours = {block_name(block): block for block in blocks(actual)}
    for block in blocks(expected):
        name = block_name(block)
        if name not in shared:
            continue
        location = re.search(r"<location>(.*?)</location>", block, re.S)
        where = unescape(location.group(1)) if location else ""
        verdict = verdicts.get(where, {})
        description = re.search(r"<description>(.*?)</description>", block, re.S)
        fits = where in shared[name] and description is not None and \
            verdict.get("description") == description.group(1)
        results.check(f"{case.case_id}: {name!r} is one of the {len(shared[name])} files of that name, as written",
                      True, fits)
        if fits and name in ours:
            expected = expected.replace(block, ours[name], 1)
    return expected


# Cases whose skills sit in one root with no hidden folder and no shared name, where the ROOTS form (the app's
# preview of the open folders) must print the client's section without its built-in entry.
ROOTS_FORM_CASES = {"probes", "mutations", "order", "world"}


def check_roots_form(case: Case, cwd: Path, binary: str, env: dict, section: str, results: Results) -> None:
    roots = [str(cwd / root) for root in ROOTS if (cwd / root).is_dir()]
    out = subprocess.run([binary, "listing", "--dialect", "opencode", *roots], env=env, capture_output=True,
                         timeout=300)
    builtin = [block for block in blocks(section) if block_name(block) == "customize-opencode"]
    expected = section.replace(builtin[0] + "\n", "", 1) if builtin else section
    results.check(f"{case.case_id}: listing of the ROOTS form", expected, out.stdout.decode("utf-8", "replace"))


def run_case(case: Case, binary: str, results: Results, keep: Path | None) -> None:
    base = Path(tempfile.mkdtemp(prefix="sf-oc-"))
    try:
        project, home = materialize(case, base)
        cwd = project / case.cwd if case.cwd else project
        extra_env = {key: value.replace("{BASE}", str(base)) for key, value in case.env.items()}
        outcome = oc.run(cwd, home, extra_env=extra_env)
        for error in outcome.errors:
            results.fail(f"{case.case_id}: client run", error)
        env = oc.environment(home, base / "unused.json")
        env.update(extra_env)
        env["PATH"] = os.environ.get("PATH", env["PATH"])
        listing = subprocess.run([binary, "listing", "--dialect", "opencode", "--project", str(cwd),
                                  "--with-client-skills"], env=env, capture_output=True, timeout=300)
        stderr = listing.stderr.decode(errors="replace")
        actual_section = listing.stdout.decode("utf-8", "replace")
        verdicts, problems = lint_verdicts(binary, cwd, env, case.off)
        # Names several files load under: the client keeps one of them, a different one from run to run (its
        # files are parsed concurrently and the last to finish wins), so its pick is accepted when it is one of
        # them, with that file's description; skillforge's pick is then put in its place for the comparison.
        candidates: dict[str, list[str]] = {}
        for path, verdict in verdicts.items():
            if verdict.get("outcome") in ("loads", "unlisted"):
                candidates.setdefault(verdict["name"], []).append(path)
        shared = {name: paths for name, paths in candidates.items() if len(paths) > 1}
        expected_section = outcome.section
        if expected_section is not None and shared:
            expected_section = settle_duplicates(expected_section, actual_section, shared, verdicts, case, results)
        results.check(f"{case.case_id}: listing", expected_section, actual_section)
        if expected_section is not None and expected_section != actual_section:
            diff = difflib.unified_diff(expected_section.splitlines(), actual_section.splitlines(), "opencode",
                                        "skillforge", lineterm="", n=1)
            print("\n".join(list(diff)[:60]), file=sys.stderr)
        if case.case_id in ROOTS_FORM_CASES and outcome.section is not None:
            check_roots_form(case, cwd, binary, env, outcome.section, results)
        if outcome.loaded is None:
            return
        by_location = {entry["location"]: entry for entry in outcome.loaded}
        by_name = {entry["name"]: entry for entry in outcome.loaded}
        for problem in problems:
            results.fail(f"{case.case_id}: lint", problem)
        for path, verdict in sorted(verdicts.items()):
            label = f"{case.case_id}: {os.path.relpath(path, cwd)}"
            expected = expected_verdict(by_location.get(path))
            actual = actual_verdict(verdict)
            name = verdict.get("name")
            if name in shared and path not in by_location and by_name.get(name, {}).get("location") in shared[name]:
                # Another file of this name won the race in this run; this one loads in others.
                expected = actual
            reason = DEVIATIONS.get(f"{case.case_id}:{os.path.relpath(path, cwd)}")
            if reason:
                results.deviation(label, reason)
                results.check(f"{label} (still deviates)", True, expected != actual)
                continue
            if expected != actual and actual["outcome"] == "skipped":
                print(f"  lint's reason: {shorten(verdict.get('reason'), 300)}", file=sys.stderr)
            results.check(label, expected, actual)
        # Every skill the client loads from the working folder's skill folders was linted, except through a
        # link: lint never follows one out of the folder it lints (said and counted here, as test_codex does).
        roots = [str(cwd / root) + os.sep for root in ROOTS if root not in case.off]
        missed = sorted(location for location in by_location
                        if location.startswith(tuple(roots)) and location not in verdicts)
        linked = [location for location in missed if os.path.realpath(location) != location]
        for location in linked:
            print(f"note: {case.case_id}: {os.path.relpath(location, cwd)} is reached through a link; lint does not "
                  "follow links, so its verdict is not compared (the listing covers it)")
        results.check(f"{case.case_id}: every loaded skill was linted", [],
                      [location for location in missed if location not in linked])
        if keep is not None:
            shutil.copytree(base, keep / case.case_id, symlinks=True, dirs_exist_ok=True)
    except rc.ClientError as error:
        results.fail(f"{case.case_id}: client run", error)
    finally:
        shutil.rmtree(base, ignore_errors=True)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary", required=True)
    parser.add_argument("--keep", type=Path, help="copy every case's folders here")
    parser.add_argument("--only", action="append", default=[], help="run only these case ids")
    args = parser.parse_args(argv[1:])
    rc.isolate_network(argv)
    started = time.monotonic()
    results = Results()
    binary = str(Path(args.binary).resolve())
    todo = [case for case in cases() if not args.only or case.case_id in args.only]
    with ThreadPoolExecutor(max_workers=2) as pool:
        for future in [pool.submit(run_case, case, binary, results, args.keep) for case in todo]:
            future.result()
    for what, reason in NOT_MODELLED.items():
        print(f"not modelled: {what}: {reason}")
    print(f"opencode fidelity: {len(todo)} client starts in {time.monotonic() - started:.0f} s")
    return results.finish("opencode fidelity", MIN_CASES if not args.only else 0)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
