"""Writes the probe projects on which Skillforge is compared with the real Codex and Claude Code.

Standard library only, deterministic (a seed for the generated part). Usage:

  client_probes.py OUT [--seed N] [--count N] [--chunk N]

OUT is created (it must not exist, or be empty). Every project below it is a folder to start both clients in;
each skill is written byte for byte the same under `.agents/skills/<dir>/` (Codex) and `.claude/skills/<dir>/`
(Claude Code), so both clients read the same files:

- `probe-<id>/`: one parse or limit rule each, one skill per project (so a skill that a client drops or that
  fails to parse is seen alone): block scalars, `: ` in values, comments, BOM, CRLF, tabs, duplicate keys, flow
  collections, null/empty/list descriptions, long names and descriptions around each client's limits, name ≠
  folder, non-ASCII, Claude Code's own fields.
- `tree-<id>/`: layouts: nested and hidden folders, a symlinked skill, many skills in one root, ordering.
- `world-NN/`: `--count` real-world-shaped skills (default 500), `--chunk` to a project (default 25).
- `world-all/`: all of them in one project, which runs both clients' listing budgets.

`manifest.json` in OUT lists every project with what it covers. Expected outputs never live here: the fidelity
suite gets them from the binaries (tests/fidelity/real_clients.py).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
from pathlib import Path

CLIENT_ROOTS = (".agents/skills", ".claude/skills")


def fm(*lines: str, body: str = "Body.\n") -> bytes:
    """A SKILL.md with the given frontmatter lines (LF endings) and body."""
    return ("---\n" + "".join(line + "\n" for line in lines) + "---\n" + body).encode()


# (id, folder name, SKILL.md bytes, what it covers). The folder is the id unless the probe is about the folder.
PROBES: list[tuple[str, str, bytes, str]] = [
    # Plain and quoted scalars, `: ` in values
    ("plain", "plain", fm("name: plain", "description: A plain description."), "baseline"),
    ("colon-unquoted", "colon-unquoted", fm("name: colon-unquoted", "description: Use when: the user asks"), ": in a plain value"),
    ("colon-twice", "colon-twice", fm("name: colon-twice", "description: a: b: c"), "two : in a plain value"),
    ("colon-quoted", "colon-quoted", fm("name: colon-quoted", 'description: "quoted: ok"'), ": inside double quotes"),
    ("colon-single", "colon-single", fm("name: colon-single", "description: 'single: ok'"), ": inside single quotes"),
    ("colon-quote-start", "colon-quote-start", fm("name: colon-quote-start", 'description: "starts quoted" then: more'), "quoted start, then text"),
    ("colon-single-then", "colon-single-then", fm("name: colon-single-then", "description: 'single: q' extra: x"), "single quoted start, then text"),
    ("colon-end", "colon-end", fm("name: colon-end", "description: ends with a colon:"), "value ending in :"),
    ("colon-flow", "colon-flow", fm("name: colon-flow", "description: when: x, [y]"), ": and a flow indicator"),
    ("colon-tab", "colon-tab", fm("name: colon-tab", "description: a:\tb"), "colon then tab"),
    ("colon-comment", "colon-comment", fm("name: colon-comment", "description: foo: bar # comment"), ": and a trailing comment"),
    ("colon-in-name", "colon-in-name", fm("name: a: b", "description: colon in name"), ": in the name"),
    ("colon-multiline", "colon-multiline", fm("name: colon-multiline", "description: first line", "  second: line"), ": on a continuation line"),
    ("colon-nested-meta", "colon-nested-meta", fm("name: colon-nested-meta", "description: ok", "metadata:", "  note: a: b"), ": in a nested value"),
    ("colon-other-key", "colon-other-key", fm("name: colon-other-key", "description: plain ok", "license: MIT: or not"), ": in another key's value"),
    ("embedded-dquote", "embedded-dquote", fm("name: embedded-dquote", 'description: say "hi": now'), "embedded double quotes and :"),
    ("backslash", "backslash", fm("name: backslash", "description: path C:\\\\dir: x"), "backslashes"),
    ("dquote-escapes", "dquote-escapes", fm("name: dquote-escapes", 'description: "tab\\there \\u00e9 \\x41"'), "double-quoted escapes"),
    ("dquote-multiline", "dquote-multiline", fm("name: dquote-multiline", 'description: "line one', '  line two"'), "double-quoted over two lines"),
    # Block scalars
    ("literal", "literal", fm("name: literal", "description: |", "  literal line1", "  literal line2"), "literal block"),
    ("literal-blank", "literal-blank", fm("name: literal-blank", "description: |", "  para one", "", "  para two"), "literal block with a blank line"),
    ("literal-keep", "literal-keep", fm("name: literal-keep", "description: |+", "  kept", "", "name2: x"), "literal, keep chomping"),
    ("literal-strip", "literal-strip", fm("name: literal-strip", "description: |-", "  stripped"), "literal, strip chomping"),
    ("folded", "folded", fm("name: folded", "description: >", "  folded line1", "  folded line2"), "folded block"),
    ("folded-strip", "folded-strip", fm("name: folded-strip", "description: >-", "  folded", "  stripped", "", "  para"), "folded, strip, blank line"),
    ("folded-indent", "folded-indent", fm("name: folded-indent", "description: >2", "   indented more", "  base"), "explicit indentation indicator"),
    ("literal-colon", "literal-colon", fm("name: literal-colon", "description: |", "  x: y"), ": inside a block scalar"),
    ("plain-multiline", "plain-multiline", fm("name: plain-multiline", "description: line one", "  continues here"), "plain scalar over two lines"),
    # Comments
    ("comment-line", "comment-line", fm("# leading comment", "name: comment-line", "# between", "description: has comment"), "comment lines"),
    ("comment-trailing", "comment-trailing", fm("name: comment-trailing", "description: text # trailing"), "trailing comment"),
    ("hash-start", "hash-start", fm("name: hash-start", "description: #not a value"), "value starting with #"),
    ("hash-no-space", "hash-no-space", fm("name: hash-no-space", "description: a#b c"), "# without space"),
    # Encodings and whitespace
    ("bom", "bom", b"\xef\xbb\xbf" + fm("name: bom", "description: has BOM"), "UTF-8 BOM"),
    ("crlf", "crlf", fm("name: crlf", "description: crlf endings").replace(b"\n", b"\r\n"), "CRLF line endings"),
    ("cr-only", "cr-only", fm("name: cr-only", "description: cr endings").replace(b"\n", b"\r"), "CR-only line endings"),
    ("tab-indent", "tab-indent", fm("name: tab-indent", "description: |", "\tindented by tab"), "tab as indentation"),
    ("tab-value", "tab-value", fm("name: tab-value", "description:\ttab before value"), "tab after the key's colon"),
    ("trailing-spaces", "trailing-spaces", fm("name: trailing-spaces   ", "description: trailing   "), "trailing spaces on values"),
    ("delims-spaces", "delims-spaces", b"--- \nname: delims-spaces\ndescription: trailing spaces on delimiters\n---  \nBody.\n", "spaces after ---"),
    ("indented-key", "indented-key", fm("name: indented-key", " description: indented"), "indented second key"),
    ("leading-blank", "leading-blank", b"\n" + fm("name: leading-blank", "description: blank line first"), "blank line before ---"),
    ("indented-delim", "indented-delim", b"  ---\nname: indented-delim\ndescription: indented opener\n---\nBody.\n", "indented opening ---"),
    ("dots-close", "dots-close", b"---\nname: dots-close\ndescription: closed by dots\n...\nBody.\n", "closed by ..."),
    ("no-frontmatter", "no-frontmatter", b"# Title\n\njust markdown\n", "no frontmatter"),
    ("unclosed", "unclosed", b"---\nname: unclosed\ndescription: never closed\n", "frontmatter never closed"),
    ("empty-frontmatter", "empty-frontmatter", b"---\n---\nbody only\n", "empty frontmatter"),
    ("no-trailing-newline", "no-trailing-newline", b"---\nname: no-trailing-newline\ndescription: eof after ---\n---", "file ends at ---"),
    ("nul-byte", "nul-byte", fm("name: nul-byte", "description: has a \x00 byte"), "NUL in a value"),
    ("latin1", "latin1", b"---\nname: latin1\ndescription: caf\xe9\n---\nBody.\n", "invalid UTF-8"),
    # Keys
    ("dup-description", "dup-description", fm("name: dup-description", "description: first", "description: second"), "duplicate description"),
    ("dup-name", "dup-name", fm("name: dup-name", "name: dup-name-2", "description: dup name"), "duplicate name"),
    ("unknown-keys", "unknown-keys", fm("name: unknown-keys", "description: extra keys", "foo: bar", "x-y: [1, 2]"), "unknown keys"),
    ("desc-first", "desc-first", fm("description: first key: colon", "name: desc-first"), "description before name"),
    ("no-name", "no-name", fm("description: no name key"), "name missing"),
    ("empty-name", "empty-name", fm("name:", "description: empty name falls back?"), "empty name"),
    ("quoted-empty-name", "quoted-empty-name", fm('name: ""', "description: quoted empty name"), "quoted empty name"),
    # Flow collections, anchors, tags, indicators
    ("flow-seq-desc", "flow-seq-desc", fm("name: flow-seq-desc", "description: [a, b]"), "flow sequence description"),
    ("flow-map-desc", "flow-map-desc", fm("name: flow-map-desc", "description: {a: b}"), "flow map description"),
    ("flow-unclosed", "flow-unclosed", fm("name: flow-unclosed", "description: [unclosed"), "unclosed flow sequence"),
    ("flow-allowed-tools", "flow-allowed-tools", fm("name: flow-allowed-tools", "description: tools as a flow list", "allowed-tools: [Read, Grep]"), "flow list in another key"),
    ("anchor-alias", "anchor-alias", fm("name: anchor-alias", "description: &d anchored", "when_to_use: *d"), "anchor and alias"),
    ("alias-unknown", "alias-unknown", fm("name: alias-unknown", "description: *alias"), "unknown alias"),
    ("tag-str", "tag-str", fm("name: tag-str", "description: !!str 123"), "explicit tag"),
    ("percent-start", "percent-start", fm("name: percent-start", "description: %percent"), "value starting with %"),
    ("at-start", "at-start", fm("name: at-start", "description: @mention something"), "value starting with @"),
    ("backtick-start", "backtick-start", fm("name: backtick-start", "description: `code` thing"), "value starting with `"),
    ("dash-start", "dash-start", fm("name: dash-start", "description: - dash: x"), "value starting with - "),
    ("pipe-in-value", "pipe-in-value", fm("name: pipe-in-value", "description: a | b > c"), "| and > inside a value"),
    # Typed and missing descriptions
    ("desc-missing", "desc-missing", fm("name: desc-missing"), "no description"),
    ("desc-null", "desc-null", fm("name: desc-null", "description: null"), "description: null"),
    ("desc-tilde", "desc-tilde", fm("name: desc-tilde", "description: ~"), "description: ~"),
    ("desc-empty", "desc-empty", fm("name: desc-empty", "description:"), "empty description"),
    ("desc-empty-quoted", "desc-empty-quoted", fm("name: desc-empty-quoted", 'description: ""'), "empty quoted description"),
    ("desc-spaces", "desc-spaces", fm("name: desc-spaces", 'description: "   "'), "whitespace-only description"),
    ("desc-list", "desc-list", fm("name: desc-list", "description:", "  - one", "  - two"), "block list description"),
    ("desc-map", "desc-map", fm("name: desc-map", "description:", "  a: b"), "map description"),
    ("desc-number", "desc-number", fm("name: desc-number", "description: 123"), "number description"),
    ("desc-float", "desc-float", fm("name: desc-float", "description: 1.50"), "float description"),
    ("desc-bool", "desc-bool", fm("name: desc-bool", "description: yes"), "yes (YAML 1.1 bool)"),
    ("desc-true", "desc-true", fm("name: desc-true", "description: true"), "true"),
    ("desc-date", "desc-date", fm("name: desc-date", "description: 2024-01-02"), "date-like description"),
    ("name-number", "name-number", fm("name: 42", "description: numeric name"), "numeric name"),
    # Lengths around the limits (Codex: name 64, description 1024; Claude Code: listing cut 1536)
    ("name-64", "n" * 64, fm("name: " + "n" * 64, "description: name of 64"), "64-character name"),
    ("name-65", "n" * 65, fm("name: " + "n" * 65, "description: name of 65"), "65-character name"),
    ("desc-1024", "desc-1024", fm("name: desc-1024", "description: " + "d" * 1024), "1,024-character description"),
    ("desc-1025", "desc-1025", fm("name: desc-1025", "description: " + "d" * 1025), "1,025-character description"),
    ("desc-1536", "desc-1536", fm("name: desc-1536", "description: " + "e" * 1536), "1,536 characters"),
    ("desc-1537", "desc-1537", fm("name: desc-1537", "description: " + "e" * 1537), "1,537 characters"),
    ("desc-5000-words", "desc-5000-words", fm("name: desc-5000-words", "description: " + " ".join(["word"] * 1000)), "5,000 characters of words"),
    ("desc-1537-multibyte", "desc-1537-multibyte", fm("name: desc-1537-multibyte", "description: " + "é" * 1537), "1,537 two-byte characters"),
    ("desc-astral", "desc-astral", fm("name: desc-astral", "description: " + "😀" * 1000), "astral-plane characters (UTF-16 pairs)"),
    # Names and folders
    ("name-differs", "name-differs", fm("name: other-name", "description: name differs from dir"), "name ≠ folder"),
    ("name-upper", "NameUpper", fm("name: Bad Name_X", "description: uppercase name with space"), "invalid name characters"),
    ("name-case", "case-dir", fm("name: Case-Dir", "description: differs only in case"), "name differs only by case"),
    ("name-dots", "dots.dir", fm("name: dots.dir", "description: dots in the name"), "dots in name and folder"),
    ("name-leading-dash", "-lead", fm("name: -lead", "description: leading dash"), "leading dash"),
    ("name-double-dash", "double--dash", fm("name: double--dash", "description: double dash"), "double dash"),
    ("dir-space", "dir with space", fm("name: dir-with-space", "description: folder with spaces"), "space in the folder"),
    ("non-ascii-name", "café-skill", fm("name: café-skill", "description: accented name"), "non-ASCII name"),
    ("non-ascii-desc", "non-ascii-desc", fm("name: non-ascii-desc", "description: Übersetzt 日本語 текст — emoji 🎉"), "non-ASCII description"),
    ("cjk-dir", "日本語", fm("name: 日本語", "description: CJK folder and name"), "CJK folder"),
    ("nfd-name", "cafe\u0301", fm("name: cafe\u0301", "description: decomposed accent"), "NFD name"),
    # Claude Code's own fields
    ("when-to-use", "when-to-use", fm("name: when-to-use", "description: does a thing", "when_to_use: when asked"), "when_to_use"),
    ("when-to-use-only", "when-to-use-only", fm("name: when-to-use-only", "when_to_use: only this"), "when_to_use without description"),
    ("disable-model", "disable-model", fm("name: disable-model", "description: hidden from the model", "disable-model-invocation: true"), "disable-model-invocation"),
    ("disable-model-str", "disable-model-str", fm("name: disable-model-str", "description: string true", 'disable-model-invocation: "true"'), "disable-model-invocation as a string"),
    ("user-invocable-false", "user-invocable-false", fm("name: user-invocable-false", "description: not user invocable", "user-invocable: false"), "user-invocable: false"),
    ("claude-fields", "claude-fields", fm("name: claude-fields", "description: all fields", "model: sonnet", "effort: high", "context: fork", "agent: Explore", "allowed-tools: Read, Grep", "argument-hint: [file]", "shell: bash"), "Claude Code fields"),
    ("bad-model", "bad-model", fm("name: bad-model", "description: unknown model", "model: gpt-9"), "unknown model"),
    ("hooks-field", "hooks-field", fm("name: hooks-field", "description: with hooks", "hooks:", "  PreToolUse:", "    - matcher: Bash", "      hooks:", "        - type: command", "          command: echo hi"), "hooks"),
    ("arguments-body", "arguments-body", fm("name: arguments-body", "description: uses arguments", body="Do $ARGUMENTS now.\n"), "$ARGUMENTS in the body"),
    # Codex's own fields
    ("short-description", "short-description", fm("name: short-description", "description: the long one", "metadata:", "  short-description: the short one"), "metadata.short-description"),
    ("openai-yaml", "openai-yaml", fm("name: openai-yaml", "description: with agents/openai.yaml"), "agents/openai.yaml beside SKILL.md"),
]

# Extra files some probes carry.
EXTRA_FILES = {
    "openai-yaml": {"agents/openai.yaml": b"interface:\n  display_name: Shown Name\n  short_description: from openai.yaml\npolicy:\n  allow_implicit_invocation: true\n"},
}


def write_skill(project: Path, folder: str, content: bytes, extra: dict[str, bytes] | None = None) -> None:
    for root in CLIENT_ROOTS:
        skill = project / root / folder
        skill.mkdir(parents=True, exist_ok=True)
        (skill / "SKILL.md").write_bytes(content)
        for relative, data in (extra or {}).items():
            (skill / relative).parent.mkdir(parents=True, exist_ok=True)
            (skill / relative).write_bytes(data)


def simple(name: str, description: str) -> bytes:
    return fm(f"name: {name}", f"description: {description}")


def write_trees(out: Path) -> list[dict]:
    """Layouts: each a project with several skills."""
    entries = []

    def tree(tree_id: str, covers: str) -> Path:
        project = out / f"tree-{tree_id}"
        project.mkdir()
        entries.append({"project": project.name, "kind": "tree", "covers": covers})
        return project

    project = tree("nested", "skills in subfolders, a skill inside a skill, depth")
    write_skill(project, "top", simple("top", "top level"))
    write_skill(project, "top/child", simple("child", "inside another skill"))
    write_skill(project, "group/inner", simple("inner", "parent folder has no SKILL.md"))
    write_skill(project, "a/b/c/d/e/f/deep7", simple("deep7", "seven folders down"))
    write_skill(project, "a/b/c/d/e/f/g/h/i/j/deep11", simple("deep11", "eleven folders down"))

    project = tree("hidden", "hidden folders at the root and nested")
    write_skill(project, ".hidden", simple("hidden", "hidden folder"))
    write_skill(project, "visible", simple("visible", "a visible one"))
    write_skill(project, "visible/.inner", simple("inner-hidden", "hidden inside a skill"))
    write_skill(project, ".group/nested", simple("nested-in-hidden", "under a hidden folder"))

    project = tree("symlink", "a symlinked skill folder, a symlinked SKILL.md, a dangling link")
    target = project / "outside" / "linked-target"
    target.mkdir(parents=True)
    (target / "SKILL.md").write_bytes(simple("linked", "through a folder symlink"))
    file_target = project / "outside" / "file-target.md"
    file_target.write_bytes(simple("file-linked", "SKILL.md is a symlink"))
    for root in CLIENT_ROOTS:
        skills = project / root
        skills.mkdir(parents=True)
        os.symlink(os.path.relpath(target, skills), skills / "linked")
        (skills / "file-linked").mkdir()
        os.symlink(os.path.relpath(file_target, skills / "file-linked"), skills / "file-linked" / "SKILL.md")
        os.symlink("does-not-exist", skills / "dangling")
    write_skill(project, "plain", simple("plain", "a plain one"))

    project = tree("order", "listing order: case, digits, punctuation, names that differ from folders")
    for folder, name in [("zeta", "zeta"), ("Alpha", "Alpha"), ("alpha", "alpha"), ("b10", "b10"), ("b9", "b9"),
                         ("_under", "_under"), ("dash-x", "dash-x"), ("dash_x", "dash_x"), ("m-dir", "a-name"),
                         ("ü-dir", "ü-dir"), ("0-first", "0-first")]:
        write_skill(project, folder, simple(name, f"order probe {folder}"))

    project = tree("duplicate-names", "two folders declaring the same name")
    write_skill(project, "one", simple("same", "first of two"))
    write_skill(project, "two", simple("same", "second of two"))

    project = tree("non-skill-files", "files that are not SKILL.md")
    write_skill(project, "real", simple("real", "the real one"))
    for root in CLIENT_ROOTS:
        (project / root / "real" / "README.md").write_bytes(simple("readme", "not a skill file"))
        (project / root / "lower").mkdir(parents=True)
        (project / root / "lower" / "skill.md").write_bytes(simple("lower", "lower-case file name"))
        (project / root / "loose.md").write_bytes(simple("loose", "a file at the root"))
        (project / root / "SKILL.md").write_bytes(simple("root-file", "SKILL.md at the root itself"))

    project = tree("many-long", "100 skills with 700-character descriptions: both listing budgets")
    for index in range(100):
        words = " ".join(f"w{index:03d}x{k}" for k in range(100))[:700]
        write_skill(project, f"s{index:03d}", simple(f"s{index:03d}", words))

    project = tree("many-short", "600 skills with short descriptions: Codex drops skills, Claude Code lists names")
    for index in range(600):
        write_skill(project, f"k{index:03d}", simple(f"k{index:03d}", f"Short skill number {index}."))
    return entries


# --- Real-world-shaped skills ----------------------------------------------------------------------------------

VERBS = ["analyze", "build", "check", "convert", "debug", "deploy", "document", "draft", "extract", "format",
         "generate", "index", "lint", "migrate", "monitor", "optimize", "plan", "profile", "publish", "refactor",
         "release", "review", "scaffold", "search", "summarize", "sync", "test", "translate", "triage", "validate"]
OBJECTS = ["api", "changelog", "commit", "component", "config", "csv", "dashboard", "database", "docker", "docs",
           "email", "excel", "figma", "git", "graphql", "invoice", "issue", "k8s", "log", "markdown", "notebook",
           "pdf", "pptx", "pr", "query", "readme", "report", "schema", "slides", "spec", "sql", "terraform",
           "ticket", "typescript", "ui", "video", "webhook", "wiki", "xlsx", "yaml"]
QUALIFIERS = ["fast", "safe", "team", "local", "cloud", "legacy", "mobile", "web", "python", "rust", "go",
              "react", "svelte", "aws", "gcp", "azure", "internal", "brand", "weekly", "audit"]
PHRASES = [
    "Use when the user asks to {verb} a {obj}",
    "Helps {verb} {obj} files for the {qual} workflow",
    "Guides Claude through how to {verb} the {obj} step by step",
    "Automates the {qual} {obj} pipeline",
    "Provides templates and scripts to {verb} {obj} artifacts",
    "Covers conventions for {obj} work in {qual} projects",
    "Triggers on requests like \"{verb} my {obj}\" or \"{verb} this {obj}\"",
    "Reads the {obj} and reports problems before you {verb} it",
    "Do not use for unrelated {obj} tasks",
    "Includes checklists, examples and edge cases for {obj}",
]
NON_ASCII = ["café", "naïve", "über", "日本語", "emoji ✨", "—", "“quoted”", "Straße", "ñ", "→"]


def world_skill(rng: random.Random, index: int) -> tuple[str, bytes]:
    """One real-world-shaped skill: (folder, SKILL.md bytes)."""
    verb, obj, qual = rng.choice(VERBS), rng.choice(OBJECTS), rng.choice(QUALIFIERS)
    parts = [verb, obj] if rng.random() < 0.6 else [qual, obj, verb] if rng.random() < 0.5 else [obj, verb]
    folder = "-".join(parts) + f"-{index:03d}"
    name = folder
    roll = rng.random()
    if roll < 0.04:
        name = folder + "-skill"  # name differs from the folder
    elif roll < 0.06:
        name = folder.replace("-", "_")  # underscores: invalid for the spec, common in the wild
    sentences = []
    for _ in range(rng.choice([1, 1, 2, 2, 3, 4, 6])):
        text = rng.choice(PHRASES).format(verb=verb, obj=obj, qual=qual)
        if rng.random() < 0.08:
            text += " " + rng.choice(NON_ASCII)
        sentences.append(text + ".")
    description = " ".join(sentences)
    if rng.random() < 0.03:
        description = (description + " ") * rng.randint(4, 8)  # long, past 1,024 and sometimes 1,536
        description = description.strip()
    style = rng.random()
    lines = [f"name: {name}"]
    if style < 0.55:
        # A plain scalar; real skills often carry an unquoted ": " (e.g. "Triggers: ...").
        if rng.random() < 0.15:
            description = "Triggers: " + description
        lines.append(f"description: {description}")
    elif style < 0.75:
        lines.append("description: " + json.dumps(description, ensure_ascii=False))
    elif style < 0.85:
        lines.append("description: >-")
        lines += ["  " + chunk for chunk in wrap(description, rng.randint(50, 100))]
    elif style < 0.92:
        lines.append("description: |")
        lines += ["  " + chunk for chunk in wrap(description, rng.randint(50, 100))]
    else:
        lines.append("description: '" + description.replace("'", "''") + "'")
    if rng.random() < 0.3:
        lines.append("license: " + rng.choice(["MIT", "Apache-2.0", "Proprietary. LICENSE.txt has complete terms"]))
    if rng.random() < 0.2:
        tools = rng.sample(["Read", "Write", "Edit", "Bash", "Grep", "Glob", "WebFetch", "Bash(git:*)"], rng.randint(1, 4))
        lines.append("allowed-tools: " + (", ".join(tools) if rng.random() < 0.5 else "[" + ", ".join(tools) + "]"))
    if rng.random() < 0.15:
        lines += ["metadata:", f"  version: \"{rng.randint(0, 3)}.{rng.randint(0, 9)}\"", f"  author: {qual}-team"]
    if rng.random() < 0.08:
        lines.append(f"when_to_use: When working on {obj} files.")
    if rng.random() < 0.03:
        lines.append("disable-model-invocation: true")
    if rng.random() < 0.05:
        lines.insert(rng.randint(0, len(lines)), f"# {qual} skill")
    body = f"# {name}\n\n## Steps\n\n1. Read the {obj}.\n2. {verb.capitalize()} it.\n\nRun `scripts/{verb}.py` when present.\n"
    data = fm(*lines, body=body)
    if rng.random() < 0.03:
        data = data.replace(b"\n", b"\r\n")
    return folder, data


def wrap(text: str, width: int) -> list[str]:
    lines, current = [], ""
    for word in text.split(" "):
        if current and len(current) + 1 + len(word) > width:
            lines.append(current)
            current = word
        else:
            current = f"{current} {word}" if current else word
    if current:
        lines.append(current)
    return lines


def write_world(out: Path, seed: int, count: int, chunk: int) -> list[dict]:
    rng = random.Random(seed)
    skills = [world_skill(rng, index) for index in range(count)]
    entries = []
    for start in range(0, count, chunk):
        project = out / f"world-{start // chunk:02d}"
        for folder, data in skills[start : start + chunk]:
            write_skill(project, folder, data)
            if rng.random() < 0.2:
                for root in CLIENT_ROOTS:
                    references = project / root / folder / "references"
                    references.mkdir(exist_ok=True)
                    (references / "guide.md").write_bytes(b"# Guide\n\nDetails.\n")
        entries.append({"project": project.name, "kind": "world", "covers": f"generated skills {start}..{start + len(skills[start:start + chunk]) - 1}", "seed": seed})
    project = out / "world-all"
    for folder, data in skills:
        write_skill(project, folder, data)
    entries.append({"project": project.name, "kind": "world-all", "covers": f"all {count} generated skills in one project (budgets)", "seed": seed})
    return entries


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("out", type=Path)
    parser.add_argument("--seed", type=int, default=14)
    parser.add_argument("--count", type=int, default=500)
    parser.add_argument("--chunk", type=int, default=25)
    args = parser.parse_args(argv[1:])
    if args.out.exists() and any(args.out.iterdir()):
        parser.error(f"{args.out} exists and is not empty")
    args.out.mkdir(parents=True, exist_ok=True)
    ids = [probe_id for probe_id, *_ in PROBES]
    if len(ids) != len(set(ids)):
        parser.error("duplicate probe ids")
    manifest = []
    for probe_id, folder, content, covers in PROBES:
        project = args.out / f"probe-{probe_id}"
        write_skill(project, folder, content, EXTRA_FILES.get(probe_id))
        manifest.append({"project": project.name, "kind": "probe", "covers": covers, "folder": folder})
    manifest += write_trees(args.out)
    manifest += write_world(args.out, args.seed, args.count, args.chunk)
    (args.out / "manifest.json").write_text(json.dumps(manifest, indent=1, ensure_ascii=False) + "\n")
    print(f"{len(manifest)} projects in {args.out} ({len(PROBES)} probes, {args.count} generated skills)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
