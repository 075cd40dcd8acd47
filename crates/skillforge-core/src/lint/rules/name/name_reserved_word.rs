use super::name_value;
use crate::lint::{Finding, SkillContext};

crate::declare_rule! {
    /// ## What it does
    /// Flags a `name` containing the reserved words "anthropic" or "claude".
    ///
    /// ## Why it matters
    /// Skill upload through claude.ai and the API refuses such names.
    ///
    /// ## Example
    /// ```yaml
    /// name: claude-pdf-helper
    /// ```
    ///
    /// ## Fix
    /// Choose a name without the reserved words: `pdf-helper`.
    RULE {
        name: "name-reserved-word",
        group: "name",
        severity: Error,
        profiles: [ClaudeUpload],
        fix: None,
        check: check,
    }
}

fn check(context: &SkillContext<'_>, findings: &mut Vec<Finding>) {
    let Some((name, range)) = name_value(context) else {
        return;
    };
    let lower = name.to_lowercase();
    if let Some(word) = ["anthropic", "claude"]
        .into_iter()
        .find(|word| lower.contains(word))
    {
        findings.push(Finding::new(
            range,
            format!("`name` contains the reserved word \"{word}\"; upload refuses it"),
        ));
    }
}
