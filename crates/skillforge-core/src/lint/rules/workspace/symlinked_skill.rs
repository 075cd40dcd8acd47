use crate::clients::codex;
use crate::lint::{Finding, ProfileId, Severity, SkillContext};

crate::declare_rule! {
    /// ## What it does
    /// Flags a skill folder or SKILL.md that is a symbolic link.
    ///
    /// ## Why it matters
    /// nagents skips symbolic links during discovery (it opens every entry without following links) and
    /// upload packaging rejects them; Codex follows a linked folder but never reads a SKILL.md that is a
    /// link (an error under its profile); other clients follow them. The skill appears in some clients
    /// only.
    ///
    /// ## Example
    /// `skills/pdf -> ../../shared/pdf`.
    ///
    /// ## Fix
    /// Copy the skill instead of linking it, or point each client at the real folder.
    RULE {
        name: "symlinked-skill",
        group: "workspace",
        severity: Warning,
        profiles: [Nagents, Codex, ClaudeUpload],
        fix: None,
        check: check,
    }
}

fn check(context: &SkillContext<'_>, findings: &mut Vec<Finding>) {
    let placement = &context.file.placement;
    let what = match (placement.symlinked_dir, placement.symlinked_file) {
        (true, _) => "the skill folder is a symbolic link",
        (false, true) => "SKILL.md is a symbolic link",
        (false, false) => return,
    };
    findings.push(
        Finding::new(
            context.frontmatter_anchor(),
            format!("{what}; clients that do not follow links skip this skill"),
        )
        .for_profiles(vec![ProfileId::Nagents, ProfileId::ClaudeUpload]),
    );
    // Codex follows a linked folder but never reads a linked SKILL.md.
    if placement.symlinked_file {
        findings.push(
            Finding::new(context.frontmatter_anchor(), codex::LINKED_FILE_IGNORED)
                .for_profiles(vec![ProfileId::Codex])
                .with_severity(Severity::Error),
        );
    }
}
