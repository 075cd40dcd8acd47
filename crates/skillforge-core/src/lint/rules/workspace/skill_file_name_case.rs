use crate::lint::{Finding, ProfileId, SkillContext};

crate::declare_rule! {
    /// ## What it does
    /// Flags a skill whose file is named `skill.md` instead of `SKILL.md`.
    ///
    /// ## Why it matters
    /// skills-ref 0.1.1 accepts the lowercase name (`find_skill_md` tries `SKILL.md`, then `skill.md`), so
    /// `spec` only warns. The clients look for `SKILL.md` only: nagents and Codex compare directory entry
    /// names with `SKILL.md` exactly, so they never load the skill, on any filesystem; 10xGraph and
    /// `package_skill.py` open `<folder>/SKILL.md`, which finds `skill.md` on a case-insensitive filesystem
    /// (macOS, Windows by default) but not on Linux. The same folder then works on one machine and silently
    /// disappears on another. Claude Code, Copilot and OpenCode document `SKILL.md` as the file name.
    ///
    /// ## Example
    /// `skills/pdf-tools/skill.md`
    ///
    /// ## Fix
    /// Rename the file to `SKILL.md` (`git mv skill.md SKILL.md`; on a case-insensitive filesystem, rename
    /// through a temporary name). Renaming is left to the author: it is a file operation, not a text edit.
    RULE {
        name: "skill-file-name-case",
        group: "workspace",
        severity: Error,
        profiles: [Spec, Nagents, Tenxgraph, ClaudeCode, ClaudeUpload, Codex, Copilot, Opencode, Gemini],
        fix: None,
        check: check,
    }
}

fn check(context: &SkillContext<'_>, findings: &mut Vec<Finding>) {
    if !context.file.is_lowercase_skill_file() {
        return;
    }
    // Two findings so that each keeps its own severity: a warning for `spec` (skills-ref validates the
    // file), an error for the clients that never load it.
    findings.push(
        Finding::new(
            context.frontmatter_anchor(),
            "the file is named `skill.md`: skills-ref accepts it, but the specification and every client name \
             it `SKILL.md`; rename it to SKILL.md",
        )
        .for_profiles(vec![ProfileId::Spec]),
    );
    let clients: Vec<ProfileId> = ProfileId::ALL
        .into_iter()
        .filter(|profile| *profile != ProfileId::Spec)
        .collect();
    findings
        .push(Finding::new(context.frontmatter_anchor(), LOWERCASE_SKIPPED).for_profiles(clients));
}

/// Why a client does not load a lowercase `skill.md`; also the reason in those clients' verdicts.
pub const LOWERCASE_SKIPPED: &str = "the file is named `skill.md`, but clients look for `SKILL.md` only \
     (nagents and Codex on every filesystem, the others on case-sensitive ones) and do not load this skill; \
     rename it to SKILL.md";
