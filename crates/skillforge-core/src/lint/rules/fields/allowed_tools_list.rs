use crate::frontmatter::yaml::Value;
use crate::lint::{Applicability, Finding, SkillContext, TextEdit};

crate::declare_rule! {
    /// ## What it does
    /// Flags `allowed-tools` written as a YAML list instead of a space-separated string.
    ///
    /// ## Why it matters
    /// The specification defines a space-delimited string; skills-ref, upload and 10xGraph report a list as
    /// an error. Claude Code accepts both, which hides the problem until the skill is used elsewhere.
    ///
    /// ## Example
    /// ```yaml
    /// allowed-tools:
    ///   - Bash(git:*)
    ///   - Read
    /// ```
    ///
    /// ## Fix
    /// Join the items with spaces: `allowed-tools: "Bash(git:*) Read"` (unsafe when an item contains a
    /// space, which would split it).
    RULE {
        name: "allowed-tools-list",
        group: "fields",
        severity: Error,
        profiles: [Spec, Tenxgraph, ClaudeUpload],
        fix: Unsafe,
        check: check,
    }
}

fn check(context: &SkillContext<'_>, findings: &mut Vec<Finding>) {
    let Some(entry) = context.field("allowed-tools") else {
        return;
    };
    let Value::Sequence { items, .. } = &entry.value.value else {
        return;
    };
    let mut finding = Finding::new(
        entry.value.range,
        "`allowed-tools` is a list; the specification wants a space-separated string",
    );
    let texts: Option<Vec<&str>> = items
        .iter()
        .map(|item| item.as_scalar().map(|(text, _)| text))
        .collect();
    if let Some(texts) = texts.filter(|texts| !texts.is_empty()) {
        let joined = texts.join(" ");
        // A block list starts on the next line; replace from just after the colon so the string sits on the key's line.
        let start = entry.key.range.end() + 1;
        let range = crate::text::TextRange::new(start, entry.value.range.end());
        finding = finding.with_fix(
            "Join the tools into one space-separated string",
            Applicability::Unsafe,
            vec![TextEdit {
                range,
                replacement: format!(" {}", crate::frontmatter::yaml::double_quoted(&joined)),
            }],
        );
    }
    findings.push(finding);
}
