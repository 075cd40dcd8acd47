use crate::lint::{Finding, SkillContext};

crate::declare_rule! {
    /// ## What it does
    /// Flags a `# skillforge: ignore[SF123]` frontmatter comment that silences nothing: the code is unknown,
    /// or the rule it names found nothing in this file.
    ///
    /// ## Why it matters
    /// Stale suppressions hide future problems and mislead readers about what the skill needs.
    ///
    /// ## Example
    /// ```yaml
    /// # skillforge: ignore[SF302]
    /// description: A short description.
    /// ```
    ///
    /// ## Fix
    /// Remove the code from the comment, or the whole comment line (safe).
    RULE {
        name: "unused-ignore-comment",
        group: "suppression",
        severity: Warning,
        profiles: [Spec, Nagents, Tenxgraph, ClaudeCode, ClaudeUpload, Codex, Copilot, Opencode, Gemini],
        fix: Safe,
        check: check,
    }
}

// The runner reports unused suppressions itself once every other rule has run; this check has nothing to
// look at on its own.
fn check(_context: &SkillContext<'_>, _findings: &mut Vec<Finding>) {}
