#!/usr/bin/env python3
"""Check that relative Markdown links in a skill resolve to files inside the skill folder.

Usage:
    python3 check_links.py SKILL_DIR_OR_SKILL_MD... [--all-markdown]

For each skill, every inline link or image (`[text](target)`, `![alt](target)`) and every
reference definition (`[id]: target`) in SKILL.md is checked. With --all-markdown, the other
.md files of the skill are checked too, each relative to its own folder. Links with a URL
scheme (https:, mailto:, ...) and pure #anchors are skipped; code blocks and code spans are
ignored.

A link is reported when it is absolute, uses a backslash, contains a `..` segment, resolves
outside the skill folder (symlinks included), or points to nothing. SKILL.md is also scanned for
bare `references/...`, `scripts/...` and `assets/...` mentions that do not exist, which
10xGraph's validator reports as warnings.

Output: one `path:line:column: message` per problem. Exit codes: 0 clean, 1 problems found,
2 bad usage or an unreadable file. Standard library only; Python 3.8 or later.
"""

import os
import re
import sys
from urllib.parse import unquote

INLINE_LINK = re.compile(r"!?\[(?:[^\[\]\\]|\\.)*\]\(\s*(<[^>\n]*>|[^\s()]*(?:\([^\s()]*\)[^\s()]*)*)")
REFERENCE_DEFINITION = re.compile(r"^ {0,3}\[[^\]]+\]:\s*(<[^>\n]*>|\S+)")
FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
CODE_SPAN = re.compile(r"(`+)(?:(?!\1).)+?\1")
SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")
# The same pattern 10xGraph's validate_skill uses to spot bundled-file mentions in the body.
BUNDLED_MENTION = re.compile(r"(?<![\w./-])((?:scripts|references|assets)/[\w./-]*[\w-])")


def find_skill_root(argument):
    """Return (skill_root, skill_md) for a skill folder or a SKILL.md path."""
    path = os.path.abspath(argument)
    if os.path.isdir(path):
        for candidate in ("SKILL.md", "skill.md"):
            skill_md = os.path.join(path, candidate)
            if os.path.isfile(skill_md):
                return path, skill_md
        raise OSError("no SKILL.md in " + argument)
    if os.path.isfile(path):
        return os.path.dirname(path), path
    raise OSError("no such file or folder: " + argument)


def body_lines(text):
    """Yield (line_number, line) outside fenced code blocks, with code spans blanked out."""
    fence = None
    for number, line in enumerate(text.split("\n"), start=1):
        match = FENCE.match(line)
        if fence is None and match:
            fence = match.group(1)
            continue
        if fence is not None:
            stripped = line.strip()
            if stripped.startswith(fence[0] * len(fence)) and set(stripped) == {fence[0]}:
                fence = None
            continue
        yield number, CODE_SPAN.sub(lambda span: " " * len(span.group(0)), line)


def skip_frontmatter(text):
    """Return the text with YAML frontmatter replaced by blank lines, keeping line numbers."""
    lines = text.split("\n")
    if lines and lines[0].strip() == "---":
        for index in range(1, len(lines)):
            if lines[index].rstrip() == "---":
                return "\n" * index + "\n" + "\n".join(lines[index + 1:])
    return text


def link_targets(line):
    """Yield (start, end, target) for every link target on one Markdown line."""
    for match in INLINE_LINK.finditer(line):
        yield match.start(1), match.end(1), match.group(1)
    definition = REFERENCE_DEFINITION.match(line)
    if definition:
        yield definition.start(1), definition.end(1), definition.group(1)


def is_inside(path, root):
    return path == root or path.startswith(root.rstrip(os.sep) + os.sep)


def check_target(target, base_dir, skill_root):
    """Return a problem description for one link target, or None when it is fine."""
    if target.startswith("<") and target.endswith(">"):
        target = target[1:-1]
    if not target or target.startswith("#") or SCHEME.match(target):
        return None
    path_part = unquote(target.split("#", 1)[0].split("?", 1)[0])
    if not path_part:
        return None
    if "\\" in path_part:
        return "use forward slashes in links: " + target
    if path_part.startswith("/"):
        return "absolute link; use a path relative to the skill: " + target
    resolved = os.path.realpath(os.path.join(base_dir, path_part))
    if not is_inside(resolved, os.path.realpath(skill_root)):
        return "link resolves outside the skill folder: " + target
    if ".." in path_part.split("/"):
        return "link uses '..', which 10xGraph's read_skill_resource rejects; use a path without it: " + target
    if not os.path.exists(resolved):
        return "link target does not exist: " + target
    return None


def check_file(markdown_path, skill_root, is_skill_md):
    with open(markdown_path, encoding="utf-8") as handle:
        text = handle.read()
    if is_skill_md:
        text = skip_frontmatter(text)
    problems = []
    base_dir = os.path.dirname(markdown_path)
    for number, line in body_lines(text):
        spans = []
        for start, end, target in link_targets(line):
            spans.append((start, end))
            problem = check_target(target, base_dir, skill_root)
            if problem:
                problems.append((number, start + 1, problem))
        if not is_skill_md:
            continue
        for match in BUNDLED_MENTION.finditer(line):
            # Link targets were checked above; only bare mentions in the text are left.
            if any(start <= match.start(1) < end for start, end in spans):
                continue
            if not os.path.exists(os.path.join(skill_root, match.group(1))):
                problems.append((number, match.start(1) + 1,
                                 "mentioned file does not exist in the skill: " + match.group(1)))
    return sorted(set(problems))


def markdown_files(skill_root, skill_md):
    for folder, subfolders, files in os.walk(skill_root):
        subfolders[:] = sorted(name for name in subfolders
                               if not name.startswith(".") and name not in ("node_modules", "__pycache__"))
        for name in sorted(files):
            path = os.path.join(folder, name)
            if name.lower().endswith(".md") and path != skill_md:
                yield path


def main(arguments):
    all_markdown = "--all-markdown" in arguments
    targets = [argument for argument in arguments if argument != "--all-markdown"]
    if not targets or any(argument.startswith("-") for argument in targets):
        print(__doc__.strip().split("\n\n")[1], file=sys.stderr)
        return 2
    found = False
    for argument in targets:
        try:
            skill_root, skill_md = find_skill_root(argument)
            files = [(skill_md, True)]
            if all_markdown:
                files += [(path, False) for path in markdown_files(skill_root, skill_md)]
            for path, is_skill_md in files:
                for line, column, message in check_file(path, skill_root, is_skill_md):
                    print("%s:%d:%d: %s" % (os.path.relpath(path), line, column, message))
                    found = True
        except (OSError, UnicodeDecodeError) as error:
            print("error: %s" % error, file=sys.stderr)
            return 2
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
