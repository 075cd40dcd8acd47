"""Write a skills tree the size and shape of a large public registry.

4,500 skills (by default) under `skills/<owner>/<skill>/` and a project's `.claude/skills/`, about 30 MB of
SKILL.md in all (2-11 KB each: frontmatter with the fields authors use, a body with headings, lists, code
fences and links to the skill's own files, a few to files that do not exist) and four or five bundled files
per skill (references, scripts, assets): over 20,000 files. Deterministic, so every run walks the same tree.

Usage: generate_registry.py ROOT [SKILLS]
"""

import random
import sys
from pathlib import Path

root = Path(sys.argv[1])
skills = int(sys.argv[2]) if len(sys.argv) > 2 else 4500
generator = random.Random(11)
words = ("pdf form table chart deploy review test lint parse render budget catalog skill agent file report "
         "invoice schema migrate query cluster release changelog notebook slide spreadsheet image audio").split()


def sentence(low, high):
    return " ".join(generator.choice(words) for _ in range(generator.randint(low, high)))


for index in range(skills):
    if index % 10 == 9:
        directory = root / ".claude" / "skills" / f"project-skill-{index:05d}"
    else:
        directory = root / "skills" / f"owner-{index % 90:02d}" / f"skill-{index:05d}"
    (directory / "references").mkdir(parents=True, exist_ok=True)
    (directory / "scripts").mkdir(exist_ok=True)
    bundled = ["references/guide.md", "references/api.md", "scripts/run.py", "scripts/check.sh"]
    if index % 3 == 0:
        (directory / "assets").mkdir(exist_ok=True)
        bundled.append("assets/template.txt")
    name = directory.name
    frontmatter = [
        "---",
        f"name: {name}",
        f"description: {sentence(8, 30).capitalize()}. Use when the user asks to {sentence(4, 14)}.",
        "license: Apache-2.0",
    ]
    if index % 4 == 0:
        frontmatter.append("allowed-tools: Read Grep Bash(python:*)")
    if index % 5 == 0:
        frontmatter += ["metadata:", f"  author: owner-{index % 90:02d}", f'  version: "1.{index % 7}"']
    frontmatter.append("---")
    body = [f"# {name.replace('-', ' ').title()}", ""]
    target = generator.randint(2 * 1024, 11 * 1024)
    section = 0
    while sum(len(line) + 1 for line in body) < target:
        section += 1
        body += [f"## Step {section}", "", sentence(20, 60).capitalize() + ".", ""]
        body += [f"- {sentence(5, 12)}" for _ in range(generator.randint(2, 6))]
        body.append("")
        if section % 2 == 0:
            body += ["```bash", f"python scripts/run.py --{generator.choice(words)} {section}", "```", ""]
        link = generator.choice(bundled) if section % 7 else "references/missing.md"
        body += [f"See [the {generator.choice(words)} notes]({link}) before you go on.", ""]
    (directory / "SKILL.md").write_text("\n".join(frontmatter + body) + "\n")
    for relative in bundled:
        (directory / relative).write_text(sentence(80, 1200) + "\n")
