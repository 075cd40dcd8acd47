use crate::lint::{Finding, SkillContext};

crate::declare_rule! {
    /// ## What it does
    /// Flags a skill folder inside another skill's folder.
    ///
    /// ## Why it matters
    /// Clients disagree: 10xGraph scans one level and never sees the inner skill, recursive scanners load
    /// both, and the outer skill's file listing includes the inner skill's files.
    ///
    /// ## Example
    /// `skills/pdf/SKILL.md` and `skills/pdf/forms/SKILL.md`.
    ///
    /// ## Fix
    /// Move the inner skill next to the outer one, or turn it into a reference file of the outer skill.
    RULE {
        name: "nested-skill",
        group: "workspace",
        severity: Warning,
        profiles: [Spec, Tenxgraph, ClaudeCode, Codex, Copilot],
        fix: None,
        check: check,
    }
}

fn check(context: &SkillContext<'_>, findings: &mut Vec<Finding>) {
    if let Some(outer) = &context.file.placement.nested_in {
        findings.push(Finding::new(
            context.frontmatter_anchor(),
            format!("this skill sits inside the skill at {outer}; clients that scan one level never see it"),
        ));
    }
}
