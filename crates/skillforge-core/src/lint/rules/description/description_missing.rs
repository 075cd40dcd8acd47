use crate::lint::{Finding, SkillContext};
use crate::text::TextRange;

crate::declare_rule! {
    /// ## What it does
    /// Flags frontmatter without a `description`, or with an empty one.
    ///
    /// ## Why it matters
    /// The description is the only text a model sees before it decides to load a skill. It is required by
    /// the specification; 10xGraph skips the skill (`Skipped: 'description' is missing or empty`) and upload
    /// refuses it. nagents falls back to the first body line.
    ///
    /// ## Example
    /// ```yaml
    /// name: pdf-tools
    /// ```
    ///
    /// ## Fix
    /// Add `description:` saying what the skill does and when to use it.
    RULE {
        name: "description-missing",
        group: "description",
        severity: Error,
        profiles: [Spec, Tenxgraph, ClaudeUpload, Codex, Copilot, Opencode, Gemini],
        fix: None,
        check: check,
    }
}

fn check(context: &SkillContext<'_>, findings: &mut Vec<Finding>) {
    let Some(root) = context.frontmatter() else {
        return;
    };
    match root.get("description") {
        Some(entry) => {
            if entry
                .value
                .as_scalar()
                .is_some_and(|(text, _)| text.trim().is_empty())
            {
                findings.push(Finding::new(
                    TextRange::new(entry.key.range.start(), entry.value.range.end()),
                    "`description` is empty",
                ));
            }
        }
        None => {
            if let Ok(layout) = &context.layout {
                findings.push(Finding::new(
                    layout.open,
                    "the frontmatter has no `description` field",
                ));
            }
        }
    }
}
