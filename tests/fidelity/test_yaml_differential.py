"""Differential test of the frontmatter verdicts: thousands of generated SKILL.md files, each a seeded
mutation of a real one, loaded by the REAL 10xgraph 0.10.3 (its `SkillsRegistry.discover`, which reads
YAML with PyYAML's `safe_load`) and the REAL nagents 0.25.2 (its directory discovery and its own
frontmatter reader), both in this one process, and by one `skillforge lint --profile 10xgraph
--profile nagents --format json` run over the whole tree. Every skill's verdict must agree: loads
(with the same name and description) or skipped, for each client.

Seeds: every SKILL.md under tests/fixtures and the repository's skills/. Each case gets a unique
`name` first (4% take an earlier case's name instead, so that 10xGraph's shadowing and nagents'
duplicate check are exercised between skills either client may or may not load), then one to three
mutations: quotes, `: ` in values, flow collections (multi-line, a
closing bracket at column 0, collections as keys, `?` keys), indentation shifts, tabs, control
characters (C0, C1, DEL, BOM, NEL, LS, PS), anchors and aliases, tags, duplicate keys, `---` / `...`
/ directives inside, unicode, block scalars, merge keys, comments and line endings. The random
generator is seeded, so a run is reproducible; `--seed` and `--cases` change it.

When PyYAML raises an exception that is not a `yaml.YAMLError` (a `ValueError` for `2024-13-01`, a
`KeyError` for `!!bool maybe`), 10xGraph's discovery stops altogether. Such cases are found with
10xGraph's own `load_skill`, moved to a second root that 10xGraph's discovery is not pointed at, and
our verdict must name the crash (tenxgraph::CRASH_PREFIX).
"""

import argparse
import json
import logging
import random
import shutil
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path

from tenxgraph.core.skills.loader import load_skill
from tenxgraph.core.skills.registry import SkillsRegistry

import nagents_peer
from fidelity_common import Results

logging.disable(logging.CRITICAL)

# Cases this suite generates and compares; fewer means the generator or the tree lost some.
MIN_CASES = 3000
DEFAULT_CASES = 3600
DEFAULT_SEED = 20261202

# Differences kept on purpose, checked to hold exactly as described (so the list cannot go stale):
SURROGATES = ("10xGraph's `: ` retry quotes with json.dumps, which escapes a character beyond U+FFFF as a "
              "surrogate pair; PyYAML decodes each half alone, so the loaded text holds two lone surrogates. "
              "A Rust string cannot hold them: ours has the character itself (and U+FFFD for a lone one)")


def joined_surrogates(value: tuple) -> tuple:
    """The verdict with surrogate pairs joined into the characters they encode, and a lone surrogate
    as U+FFFD (what the engine holds in its place)."""
    return tuple(item.encode("utf-16", "surrogatepass").decode("utf-16", "replace") if isinstance(item, str)
                 else item for item in value)


def has_surrogates(value: tuple) -> bool:
    return any(isinstance(item, str) and any("\ud800" <= c <= "\udfff" for c in item) for item in value)


# The engine's skip reason when 10xGraph's loader raises (crates/skillforge-core/src/clients/tenxgraph).
CRASH_PREFIX = "10xGraph's loader raises (its discovery stops, no skill loads) on this frontmatter: "

REPO = Path(__file__).resolve().parents[2]
SEED_ROOTS = (REPO / "tests" / "fixtures", REPO / "skills")

CONTROL = (
    [chr(code) for code in range(0x00, 0x20) if code not in (0x09, 0x0A, 0x0D)]
    + ["\x7f"]
    + [chr(code) for code in range(0x80, 0xA0)]
    + ["\ufeff", "\x85", "\u2028", "\u2029", "\t", "\r", "\x0b", "\x0c", "\ufffe", "\uffff", "\ud7ff", "\ue000"]
)
UNICODE = ["é", "ß", "日本", "🙂", "\u200b", "\u00a0", "\u3000", "עברית", "Ω", "\u0301", "ﬁ", "Ⅻ", "\U0001d400"]
SCALARS = ["yes", "no", "on", "~", "null", "12", "0x1F", "010", "1_000", "1:30", "1.5", ".inf", ".nan", "2024-01-02",
           "2024-1-2 10:00:00", "2024-13-01", "2023-02-30", "=", "<<", "true", "False", "-", "?", ":", "'", "\"", "#",
           "!", "&", "*", "|", ">", "%", "@", "`", "[", "]", "{", "}", ",", "0b_", "0x_", "1e3", "+5", "-.5"]
TAGS = ["!!str", "!!int", "!!float", "!!bool", "!!null", "!!binary", "!!timestamp", "!!seq", "!!map", "!!set",
        "!!omap", "!!pairs", "!", "!custom", "!<tag:yaml.org,2002:str>", "!e!x", "!!python/name:os.system",
        "!<!>", "!!merge", "!!value"]


def seeds() -> list[str]:
    texts = []
    for root in SEED_ROOTS:
        for path in sorted(root.rglob("SKILL.md")):
            if not path.is_file() or path.is_symlink():
                continue
            try:
                text = path.read_bytes().decode("utf-8")
            except UnicodeDecodeError:
                continue
            if len(text) > 20_000:
                text = text[:20_000]
            texts.append(text)
    return texts


# -- mutations ------------------------------------------------------------------------------------
# Each takes (rng, lines of the frontmatter) and returns new lines; `lines` never holds the delimiters.


def pick(rng: random.Random, lines: list[str]) -> int:
    return rng.randrange(len(lines)) if lines else 0


def top_keys(lines: list[str]) -> list[int]:
    return [index for index, line in enumerate(lines) if line and line[0].isalpha() and ":" in line]


def value_line(rng, lines, key=None) -> int | None:
    candidates = [index for index in top_keys(lines) if key is None or lines[index].startswith(key + ":")]
    return rng.choice(candidates) if candidates else None


def split_value(line: str) -> tuple[str, str]:
    key, _, value = line.partition(":")
    return key, value.strip()


def m_quote(rng, lines):
    index = value_line(rng, lines)
    if index is None:
        return lines
    key, value = split_value(lines[index])
    style = rng.choice(["'{}'", '"{}"', "'{}", '"{}', "'{}'x", '"{}" # c', "'{}''s'", '"{}\\""', '"\\{}"',
                        '"{}\\x4"', '"{}\\u00e9"', '"{}\\U0001F600"', '"{}\\q"', '"{}\\\n  more"', "'{}\n  more'",
                        '"{}\n\n  more"', "'{}\n---\n'"])
    lines[index] = f"{key}: {style.format(value)}"
    return "\n".join(lines).split("\n")


def m_colon(rng, lines):
    index = value_line(rng, lines)
    if index is None:
        return lines
    key, value = split_value(lines[index])
    words = value.split(" ")
    at = rng.randrange(len(words) + 1)
    insert = rng.choice(["Use when:", "note: x", "a:b", "key: value: more", ":", "x :y", "- item:", "url: http://x"])
    lines[index] = f"{key}: {' '.join(words[:at] + [insert] + words[at:])}".rstrip()
    return lines


FLOWS = [
    'metadata: {"a": "b",\n}',
    'metadata: {"a": "b"\n}',
    'metadata: {a: b,\n  c: d}',
    'metadata: {a: b,\nc: d}',
    'metadata: {"bins":["bc"],["touch"]}',
    'metadata: {["a"]: b}',
    'metadata: {{a: b}: c}',
    'metadata: {? a : b}',
    'metadata: {? [a, b] : c}',
    'metadata: {a, b: c}',
    'metadata: {a: b,}',
    'metadata: {a: b,,}',
    'metadata: [a, b,\n]',
    'metadata: [a,\nb]',
    'metadata: [a: b, c]',
    'metadata: [? a : b]',
    'metadata: {a: [b, {c: d}]}',
    'metadata: {a: b}}',
    'metadata: {a: b]',
    'metadata: [a, b]]',
    'metadata: {a: "b: c"}',
    'metadata: {a: b: c}',
    'metadata: {a:b}',
    'metadata: {a:[b]}',
    'metadata: {"a":b}',
    'metadata: {a: b #c\n}',
    'metadata: {a: b}\n  c: d',
    'metadata: {\n}',
    'metadata: {}',
    'metadata: []',
    'metadata: {a: -b, c: ?d}',
    'metadata: {a: - b}',
    'metadata: {a: |b}',
    'metadata: {triggers: [x, y], priority: 2}',
    'metadata: {priority: [1]}',
    'metadata: {a: b\n,c: d}',
    'metadata: {a: b} # x',
    'metadata: {a: b}x',
    'metadata: [a]: b',
    'metadata:\n  - {a: b}\n  - [c]',
    '? metadata\n: {a: b}',
    '? [a, b]\n: c',
    '? {a: b}\n: c',
    '? a\n? b',
    '[a, b]: c',
    '{a: b}: c',
    'metadata: {a: b,\n\tc: d}',
    'metadata: {a: "b\n}',
    'metadata: { ? }',
    'metadata: {a: *x}',
    'metadata: [&x a, *x]',
    'metadata:\n  sub: {a: b,\n}',
    'metadata:\n  sub: [a,\n b]',
    'metadata:\n  sub: {a: b,\n  c: d}',
    'metadata:\n  - [a,\n  b]',
]


def m_flow(rng, lines):
    snippet = rng.choice(FLOWS)
    index = value_line(rng, lines, "metadata")
    if index is not None:
        end = index + 1
        while end < len(lines) and (lines[end].startswith((" ", "\t")) or not lines[end].strip()):
            end += 1
        lines[index:end] = snippet.split("\n")
    else:
        at = rng.randrange(len(lines) + 1)
        lines[at:at] = snippet.split("\n")
    return lines


def m_indent(rng, lines):
    if not lines:
        return lines
    index = pick(rng, lines)
    line = lines[index]
    choice = rng.random()
    if choice < 0.4:
        lines[index] = " " * rng.choice([1, 2, 3, 4]) + line
    elif choice < 0.7 and line.startswith(" "):
        lines[index] = line[1:]
    elif choice < 0.85:
        lines[index] = line.lstrip()
    else:
        lines.insert(index + 1, " " * rng.choice([0, 1, 2, 4]) + rng.choice(["continued text", "- item", "k: v", "#c"]))
    return lines


def m_tab(rng, lines):
    if not lines:
        return lines
    index = pick(rng, lines)
    line = lines[index]
    choice = rng.random()
    if choice < 0.3:
        lines[index] = "\t" + line
    elif choice < 0.55 and ": " in line:
        lines[index] = line.replace(": ", ":\t", 1)
    elif choice < 0.75 and line.startswith(" "):
        lines[index] = "\t" + line.lstrip(" ")
    elif choice < 0.9:
        at = rng.randrange(len(line) + 1)
        lines[index] = line[:at] + "\t" + line[at:]
    else:
        lines[index] = line + "\t"
    return lines


def m_control(rng, lines):
    if not lines:
        return [rng.choice(CONTROL)]
    index = value_line(rng, lines) if rng.random() < 0.6 else pick(rng, lines)
    index = pick(rng, lines) if index is None else index
    line = lines[index]
    at = rng.randrange(len(line) + 1)
    if rng.random() < 0.3:
        # A `: ` too, so that 10xGraph's retry (which json.dumps-quotes the value) sees the character:
        # one the reader refuses raw but json.dumps escapes, half the time.
        character = rng.choice(["\ufffe", "\uffff", "\x80", "\x7f", "\x01"] + CONTROL[:5])
        lines[index] = line[:at] + character + line[at:] + " note: x"
    else:
        lines[index] = line[:at] + rng.choice(CONTROL) + line[at:]
    return lines


def m_anchor(rng, lines):
    choice = rng.random()
    index = value_line(rng, lines, "description")
    if choice < 0.3 and index is not None:
        key, value = split_value(lines[index])
        lines[index] = f"{key}: *d"
        lines.insert(0, f"x-text: &d {value}" if value else "x-text: &d")
    elif choice < 0.45:
        name = value_line(rng, lines, "name")
        if name is not None:
            key, value = split_value(lines[name])
            lines[name] = f"{key}: &n {value}"
            lines.append(rng.choice(["metadata:\n  triggers: [*n, *n]", "alias: *n", "*n : x", "? *n\n: y"]))
    elif choice < 0.6:
        lines.append(rng.choice(["a: *undefined", "a: &x 1\nb: &x 2", "a: &x\nb: *x", "a: & x", "a: &x [*x]",
                                 "a: &x {b: *x}", "a: *x&", "a: &a-b_c 1\nb: *a-b_c", "a: &é 1"]))
    elif choice < 0.8:
        lines.append(rng.choice(["base: &b {name: merged, description: from merge}\n<<: *b",
                                 "<<: {description: merged}", "<<: [{a: 1}, {b: 2}]", "<<: 5", "<<: [5]",
                                 "metadata:\n  <<: {priority: 3}", "=: x", "a: =", "metadata: {=: 3}",
                                 "x: !!str {=: 3}"]))
    else:
        index = value_line(rng, lines)
        if index is not None:
            key, value = split_value(lines[index])
            lines[index] = f"{key}: &{rng.choice(['a', 'b1', 'x_y'])} {value}"
    return "\n".join(lines).split("\n")


def m_tag(rng, lines):
    index = value_line(rng, lines)
    tag = rng.choice(TAGS)
    if index is None or rng.random() < 0.3:
        value = rng.choice(SCALARS + ["aGk=", "aGk", "a", "[a, b]", "{a: b}", "- a"])
        lines.append(f"x-tagged: {tag} {value}")
        return "\n".join(lines).split("\n")
    key, value = split_value(lines[index])
    lines[index] = f"{key}: {tag} {value}".rstrip()
    return lines


def m_duplicate(rng, lines):
    index = value_line(rng, lines)
    if index is None:
        return lines
    key, value = split_value(lines[index])
    other = rng.choice([value, "second " + value, "", "~", "[x]", "\"\""])
    lines.insert(rng.randrange(len(lines) + 1), f"{key}: {other}".rstrip())
    return lines


def m_document(rng, lines):
    at = rng.randrange(len(lines) + 1)
    lines[at:at] = rng.choice(["...", "--- x", "--- ", "---x", "... x", "%YAML 1.1", "%YAML 2.0", "%TAG !e! tag:e,2000:",
                               "%FOO bar", "% x", "...\n---", "--- |\n  text", "description: a --- b", "name: ---",
                               "x: ...", " ---", "\t---"]).split("\n")
    return lines


def m_unicode(rng, lines):
    index = value_line(rng, lines)
    if index is None:
        return lines
    line = lines[index]
    at = rng.randrange(len(line) + 1)
    lines[index] = line[:at] + rng.choice(UNICODE) + line[at:]
    return lines


def m_block(rng, lines):
    index = value_line(rng, lines, rng.choice(["description", "name", "license", "metadata"]))
    if index is None:
        return lines
    key, value = split_value(lines[index])
    indicator = rng.choice(["|", ">", "|-", ">+", "|2", ">1-", "|0", "|+ # c", "|x", "> ", "|\t"])
    indent = " " * rng.choice([0, 1, 2, 3, 4])
    body = [indent + value, indent + rng.choice(["", "second line", "  deeper", "k: v", "- x"]), indent + "end"]
    lines[index:index + 1] = [f"{key}: {indicator}", *body]
    return lines


def m_scalar(rng, lines):
    index = value_line(rng, lines)
    if index is None:
        return lines
    key, value = split_value(lines[index])
    replacement = rng.choice(SCALARS)
    choice = rng.random()
    if choice < 0.4:
        lines[index] = f"{key}: {replacement}"
    elif choice < 0.7:
        lines[index] = f"{key}: {replacement}{value}"
    else:
        lines[index] = f"{key}: {value} {replacement}"
    return lines


def m_comment(rng, lines):
    index = pick(rng, lines)
    if not lines:
        return ["# only a comment"]
    lines[index] = lines[index] + rng.choice([" # c", "# c", " #", "\t# c", " #: x"])
    return lines


def m_key(rng, lines):
    index = value_line(rng, lines)
    if index is None:
        return lines
    key, value = split_value(lines[index])
    lines[index] = rng.choice([f"? {key}\n: {value}", f"\"{key}\": {value}", f"'{key}' : {value}", f"{key} : {value}",
                               f"{key}:{value}", f"{key.upper()}: {value}", f"- {key}: {value}", f"{key}:: {value}",
                               f"? {key}: {value}", f"{key}: - {value}", f"{key}: ? {value}", f"{key}:"])
    return "\n".join(lines).split("\n")


MUTATIONS = {
    "quote": m_quote, "colon": m_colon, "flow": m_flow, "indent": m_indent, "tab": m_tab, "control": m_control,
    "anchor": m_anchor, "tag": m_tag, "duplicate": m_duplicate, "document": m_document, "unicode": m_unicode,
    "block": m_block, "scalar": m_scalar, "comment": m_comment, "key": m_key,
}


def frontmatter_of(text: str) -> tuple[list[str], str] | None:
    lines = text.split("\n")
    if not lines or lines[0].strip() != "---":
        return None
    for index in range(1, len(lines)):
        if lines[index].strip() == "---":
            return lines[1:index], "\n".join(lines[index + 1:])
    return None


def unique_name(lines: list[str], case: int, earlier: list[str], rng: random.Random, used: Counter) -> list[str]:
    """Gives the `name` line a value no other case has, except in a few cases that take an earlier
    case's name on purpose: shadowing (10xGraph keeps the first skill it loads under a name) and
    duplicates (nagents refuses its catalog) then happen, between skills each client may or may not
    load."""
    for index, line in enumerate(lines):
        if line.startswith("name:"):
            value = line[5:].strip().strip("'\"") or "skill"
            name = f"{value[:40]}-c{case:05d}"
            if earlier and rng.random() < 0.04:
                name = rng.choice(earlier)
                used["same-name"] += 1
            earlier.append(name)
            lines[index] = f"name: {name}"
            return lines
    return lines


def generate(rng: random.Random, seed_texts: list[str], case: int, used: Counter, earlier: list[str]) -> str:
    text = rng.choice(seed_texts).replace("\r\n", "\n").replace("\r", "\n")
    split = frontmatter_of(text)
    if split is None:
        # A seed without frontmatter: give it a small one to mutate.
        lines, body = ["name: plain", "description: A seed without frontmatter."], text
    else:
        lines, body = split
    lines = unique_name(list(lines), case, earlier, rng, used)
    for _ in range(rng.choice([1, 1, 2, 2, 3])):
        name = rng.choice(list(MUTATIONS))
        used[name] += 1
        lines = MUTATIONS[name](rng, lines)
    ending = rng.choices(["\n", "\r\n", "\r"], weights=[90, 8, 2])[0]
    head = "---"
    if rng.random() < 0.03:
        head = rng.choice(["\ufeff---", "--- ", "---\t"])
    return ending.join([head, *lines, "---", body[:400]])


# -- peers ----------------------------------------------------------------------------------------


def tenxgraph_crash(directory: Path) -> str | None:
    """The exception 10xGraph's own `load_skill` lets through for this skill, if any."""
    try:
        load_skill(directory)
    except Exception as error:  # noqa: BLE001 - any exception stops 10xGraph's discovery
        return f"{type(error).__name__}: {error}"
    return None


def lint(binary: str, roots: list[Path]) -> dict:
    command = [binary, "lint", *map(str, roots), "--profile", "10xgraph", "--profile", "nagents", "--format",
               "json", "--no-config"]
    completed = subprocess.run(command, capture_output=True, timeout=600)
    if completed.returncode not in (0, 1) or completed.stderr:
        raise SystemExit(f"{' '.join(command)} failed ({completed.returncode}): {completed.stderr[:2000]!r}")
    return json.loads(completed.stdout.decode("utf-8"))


def verdict_tuple(verdict: dict | None) -> tuple:
    if verdict is None:
        return ("missing from our report",)
    if verdict["outcome"] == "loads":
        return ("loads", verdict["name"], verdict["description"])
    return (verdict["outcome"],)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", required=True)
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED)
    parser.add_argument("--cases", type=int, default=DEFAULT_CASES)
    parser.add_argument("--show", type=int, default=8, help="disagreements printed in full")
    parser.add_argument("--keep", help="write the tree here and keep it (for debugging)")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    seed_texts = seeds()
    results = Results()
    used: Counter = Counter()
    with tempfile.TemporaryDirectory() as temporary:
        base = Path(args.keep).resolve() if args.keep else Path(temporary).resolve()
        if args.keep and base.exists():
            shutil.rmtree(base)
        cases_root, crashes_root = base / "cases", base / "crashes"
        cases_root.mkdir(parents=True)
        crashes_root.mkdir()
        texts: dict[str, str] = {}
        earlier: list[str] = []
        for case in range(args.cases):
            folder = f"c{case:05d}"
            text = generate(rng, seed_texts, case, used, earlier)
            texts[folder] = text
            (cases_root / folder).mkdir()
            (cases_root / folder / "SKILL.md").write_bytes(text.encode("utf-8"))
        crashes = {}
        for folder in texts:
            crash = tenxgraph_crash(cases_root / folder)
            if crash is not None:
                crashes[folder] = crash
                shutil.move(str(cases_root / folder), str(crashes_root / folder))
        root_of = {folder: (crashes_root if folder in crashes else cases_root) for folder in texts}

        registry = SkillsRegistry()
        registry.discover([str(cases_root)])
        tenxgraph_loaded = {Path(meta.skill_dir).name: meta for meta in registry.get_all()}

        found, diagnostics = nagents_peer.survey([cases_root, crashes_root], max_entries=100_000)
        limits = [line for line in diagnostics if "limit" in line]
        if limits:
            results.fail("nagents discovery hit a limit; the tree is too large for this comparison", limits[:3])
        _, refused = nagents_peer.duplicates(found)
        refused_names = {skill.name for skill in refused}
        nagents_parsed = {nagents_peer.skill_dir_of(skill).name: skill for skill in found}

        report = lint(args.binary, [cases_root, crashes_root])
        ours = {}
        for file in report["files"]:
            path = Path(file["path"])
            ours[path.parent.name] = {verdict["profile"]: verdict for verdict in file["verdicts"]}

        counts = Counter()
        disagreements = []
        for folder, text in texts.items():
            verdicts = ours.get(folder, {})
            if folder in crashes:
                expected = ("skipped", CRASH_PREFIX + crashes[folder].split(":", 1)[0])
                verdict = verdicts.get("10xgraph")
                actual = (verdict or {}).get("outcome"), (verdict or {}).get("reason", "")[:len(expected[1])]
                counts["10xgraph crash"] += 1
            else:
                meta = tenxgraph_loaded.get(folder)
                expected = ("loads", meta.name, meta.description) if meta else ("skipped",)
                actual = verdict_tuple(verdicts.get("10xgraph"))
                counts["10xgraph " + expected[0]] += 1
            if expected != actual and has_surrogates(expected) and joined_surrogates(expected) == actual:
                counts["10xgraph deviation: lone surrogates"] += 1
            elif expected != actual:
                disagreements.append(("10xgraph", folder, expected, actual, verdicts.get("10xgraph")))
            skill = nagents_parsed.get(folder)
            if skill is not None and skill.name in refused_names:
                expected = ("fails-catalog",)
            elif skill is not None:
                expected = ("loads", skill.name, skill.description)
            else:
                expected = ("skipped",)
            counts["nagents " + expected[0]] += 1
            actual = verdict_tuple(verdicts.get("nagents"))
            if expected != actual:
                disagreements.append(("nagents", folder, expected, actual, verdicts.get("nagents")))
            # One check per case: both clients agree on it. Disagreements are printed below, the first few
            # in full, rather than one failure line per case.
            if any(entry[1] == folder for entry in disagreements[-2:]):
                results.failed += 1
            else:
                results.passed += 1

        print(f"yaml differential: seed {args.seed}, {len(seed_texts)} seed files, {len(texts)} cases")
        print("yaml differential: mutations " + ", ".join(f"{name} {count}" for name, count in sorted(used.items())))
        print("yaml differential: " + ", ".join(f"{name} {count}" for name, count in sorted(counts.items())))
        if counts["10xgraph deviation: lone surrogates"]:
            results.deviation(f"10xgraph, {counts['10xgraph deviation: lone surrogates']} cases", SURROGATES)
        for client, folder, expected, actual, verdict in disagreements[:args.show]:
            print(f"DISAGREE {client} {folder}", file=sys.stderr)
            print(f"  peer:  {expected!r}", file=sys.stderr)
            print(f"  ours:  {actual!r} {verdict.get('reason', '') if verdict else ''!r}", file=sys.stderr)
            print(f"  file:  {texts[folder][:1200]!r}", file=sys.stderr)
        if disagreements:
            by_client = Counter(entry[0] for entry in disagreements)
            print(f"yaml differential: {len(disagreements)} disagreements ({dict(by_client)})", file=sys.stderr)
        if len(texts) < MIN_CASES:
            results.fail(f"only {len(texts)} cases generated; the suite commits to at least {MIN_CASES}")
    return results.finish("yaml differential", MIN_CASES)


if __name__ == "__main__":
    sys.exit(main())
