use super::name_value;
use crate::lint::{Finding, SkillContext};

crate::declare_rule! {
    /// ## What it does
    /// Flags a `name` with characters other than letters `a-z`, digits and hyphens (spaces, underscores,
    /// dots, slashes, accented letters).
    ///
    /// ## Why it matters
    /// The specification allows `a-z`, `0-9` and `-`. 10xGraph skips a name with whitespace, `/`, `\` or
    /// control characters; nagents refuses anything outside `[A-Za-z0-9_-]`; upload rejects the rest.
    /// skills-ref accepts any Unicode letter (a documented deviation from the specification).
    ///
    /// ## Example
    /// ```yaml
    /// name: pdf tools
    /// ```
    ///
    /// ## Fix
    /// Use hyphens between words: `pdf-tools`. Offered as a rename to the conforming name (unsafe:
    /// references to the old name break), except where the folder has the old name: there the rename
    /// would trade this error for `name-directory-mismatch`.
    RULE {
        name: "name-invalid-characters",
        group: "name",
        severity: Error,
        profiles: [Spec, Nagents, Tenxgraph, ClaudeUpload, Codex, Copilot, Opencode],
        fix: Unsafe,
        check: check,
    }
}

fn check(context: &SkillContext<'_>, findings: &mut Vec<Finding>) {
    let Some((name, range)) = name_value(context) else {
        return;
    };
    let mut bad: Vec<char> = name
        .trim()
        .chars()
        .filter(|character| !(character.is_ascii_alphanumeric() || *character == '-'))
        .collect();
    bad.dedup();
    if bad.is_empty() {
        return;
    }
    let shown: Vec<String> = bad
        .iter()
        .take(5)
        .map(|character| format!("{character:?}"))
        .collect();
    let finding = Finding::new(
        range,
        format!(
            "`name` may only use a-z, 0-9 and `-`; found {}",
            shown.join(", ")
        ),
    );
    // An upper-case name is SF203's to fix (with the same conforming name); here only the others.
    let fix = super::conforming(name).filter(|_| name.to_lowercase() == name);
    findings.push(super::with_rename(finding, range, fix));
}
