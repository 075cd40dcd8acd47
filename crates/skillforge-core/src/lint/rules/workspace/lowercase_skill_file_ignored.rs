use crate::lint::{Finding, SkillContext};

crate::declare_rule! {
    /// ## What it does
    /// Flags a `SKILL.md` whose folder also holds a lowercase `skill.md`.
    ///
    /// ## Why it matters
    /// Every reader takes `SKILL.md` and never opens the other file: nagents and Codex compare names
    /// exactly, skills-ref 0.1.1 (`find_skill_md`) tries `SKILL.md` first, and 10xGraph and
    /// `package_skill.py` open `SKILL.md`. Edits made to `skill.md` change nothing any client sees. On a
    /// case-insensitive filesystem (macOS, Windows by default) the two names are one file, so a checkout
    /// there keeps only one of them, and which one depends on the tool that wrote it.
    ///
    /// ## Example
    /// `skills/pdf-tools/SKILL.md` and `skills/pdf-tools/skill.md`
    ///
    /// ## Fix
    /// Move what `skill.md` adds into `SKILL.md`, then delete `skill.md`. The app and `--fix` leave both
    /// files alone: which text is wanted is the author's call.
    RULE {
        name: "lowercase-skill-file-ignored",
        group: "workspace",
        severity: Warning,
        profiles: [Spec, Nagents, Tenxgraph, ClaudeCode, ClaudeUpload, Codex, Copilot, Opencode, Gemini],
        fix: None,
        check: check,
    }
}

fn check(context: &SkillContext<'_>, findings: &mut Vec<Finding>) {
    if context.file.placement.lowercase_beside {
        findings.push(Finding::new(
            context.frontmatter_anchor(),
            "this folder also holds `skill.md`, which no client reads while SKILL.md is here; move what it \
             adds into SKILL.md and delete it",
        ));
    }
}
