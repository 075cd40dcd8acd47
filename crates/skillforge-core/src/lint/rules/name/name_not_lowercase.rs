use super::name_value;
use crate::lint::{Applicability, Finding, SkillContext, TextEdit};

crate::declare_rule! {
    /// ## What it does
    /// Flags a `name` with uppercase letters.
    ///
    /// ## Why it matters
    /// The specification allows lowercase letters, digits and hyphens only; skills-ref and upload reject
    /// `PDF-Tools`. nagents accepts it, so the same skill behaves differently per client.
    ///
    /// ## Example
    /// ```yaml
    /// name: PDF-Tools
    /// ```
    ///
    /// ## Fix
    /// Lowercase the name (unsafe: the folder must be renamed too, and references to the old name break).
    RULE {
        name: "name-not-lowercase",
        group: "name",
        severity: Error,
        profiles: [Spec, Tenxgraph, ClaudeUpload, Copilot, Opencode],
        fix: Unsafe,
        check: check,
    }
}

fn check(context: &SkillContext<'_>, findings: &mut Vec<Finding>) {
    let Some((name, range)) = name_value(context) else {
        return;
    };
    let lower = name.to_lowercase();
    if lower != name {
        findings.push(
            Finding::new(range, format!("`name` `{name}` must be lowercase")).with_fix(
                format!("Rename to `{lower}`"),
                Applicability::Unsafe,
                vec![TextEdit {
                    range,
                    replacement: lower.clone(),
                }],
            ),
        );
    }
}
