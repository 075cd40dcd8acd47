"""Write a synthetic skills tree: 5,000 skills in 50 categories, four bundled files each.

Sizes imitate real skills: SKILL.md of 1-6 KB, references and scripts of 0.5-8 KB.
Deterministic, so every run walks the same tree.
"""

import random
import sys
from pathlib import Path

root = Path(sys.argv[1])
skills = int(sys.argv[2]) if len(sys.argv) > 2 else 5000
generator = random.Random(7)
words = "pdf form table chart deploy review test lint parse render budget catalog skill agent file".split()

for index in range(skills):
    directory = root / f"category-{index % 50:02d}" / f"skill-{index:05d}"
    (directory / "references").mkdir(parents=True, exist_ok=True)
    (directory / "scripts").mkdir(exist_ok=True)
    description = " ".join(generator.choice(words) for _ in range(generator.randint(10, 60)))
    body = "\n".join(" ".join(generator.choice(words) for _ in range(12)) for _ in range(generator.randint(10, 80)))
    (directory / "SKILL.md").write_text(
        f"---\nname: skill-{index:05d}\ndescription: Use when {description}.\nlicense: MIT\n---\n# Skill {index}\n\n{body}\n"
    )
    for name in ("references/guide.md", "references/api.md", "scripts/run.py", "scripts/check.sh"):
        (directory / name).write_text("x" * generator.randint(500, 8000))
