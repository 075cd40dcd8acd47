use super::name_value;
use crate::lint::{Finding, SkillContext};

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
    /// Rename to the conforming name: lowercase, other characters as hyphens (`A11y Auditor` →
    /// `a11y-auditor`; unsafe: references to the old name break). Not offered where the folder has the
    /// old name: there the rename would trade this error for `name-directory-mismatch`.
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
    if name.to_lowercase() != name {
        let finding = Finding::new(range, format!("`name` `{name}` must be lowercase"));
        // The offered name follows every naming rule at once, so the fix leaves no next finding
        // (`A11y Auditor` becomes `a11y-auditor`, not `a11y auditor`).
        findings.push(super::with_rename(finding, range, super::conforming(name)));
    }
}
