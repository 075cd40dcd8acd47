use super::name_value;
use crate::lint::{Applicability, Finding, SkillContext, TextEdit};

crate::declare_rule! {
    /// ## What it does
    /// Flags a `name` that starts or ends with a hyphen or contains two hyphens in a row.
    ///
    /// ## Why it matters
    /// The specification forbids these forms; skills-ref and upload reject the skill.
    ///
    /// ## Example
    /// ```yaml
    /// name: -pdf--tools-
    /// ```
    ///
    /// ## Fix
    /// Trim the outer hyphens and collapse repeated ones (unsafe), except where the folder has the old
    /// name: there the rename would trade this error for `name-directory-mismatch`.
    RULE {
        name: "name-hyphen-misplaced",
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
    let edge = name.starts_with('-') || name.ends_with('-');
    let double = name.contains("--");
    if !edge && !double {
        return;
    }
    let message = match (edge, double) {
        (true, true) => "`name` must not start or end with a hyphen or contain `--`",
        (true, false) => "`name` must not start or end with a hyphen",
        _ => "`name` must not contain consecutive hyphens",
    };
    let fixed = name
        .split('-')
        .filter(|part| !part.is_empty())
        .collect::<Vec<_>>()
        .join("-");
    let mut finding = Finding::new(range, message);
    if !fixed.is_empty() {
        finding = finding.with_fix(
            format!("Rename to `{fixed}`"),
            Applicability::Unsafe,
            vec![TextEdit {
                range,
                replacement: fixed,
            }],
        );
    }
    findings.push(finding);
}
