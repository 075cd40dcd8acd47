use crate::lint::{Finding, SkillContext};
use crate::text::TextRange;

crate::declare_rule! {
    /// ## What it does
    /// Flags frontmatter that parses as YAML but is not a mapping of keys to values (a list, a lone string,
    /// or nothing at all).
    ///
    /// ## Why it matters
    /// Clients look up `name` and `description` as keys. skills-ref reports `SKILL.md frontmatter must be a
    /// YAML mapping`; 10xGraph skips the skill.
    ///
    /// ## Example
    /// ```markdown
    /// ---
    /// - name: pdf-tools
    /// ---
    /// ```
    ///
    /// ## Fix
    /// Write the fields as `key: value` lines without a leading `-`.
    RULE {
        name: "frontmatter-not-mapping",
        group: "frontmatter",
        severity: Error,
        profiles: [Spec, Tenxgraph, ClaudeUpload, Codex, Copilot, Opencode],
        fix: None,
        check: check,
    }
}

fn check(context: &SkillContext<'_>, findings: &mut Vec<Finding>) {
    match context.yaml() {
        Some(Ok(Some(node))) if node.entries().is_none() => findings.push(Finding::new(
            node.range,
            format!(
                "the frontmatter is {}, not a mapping of fields",
                node.kind_name()
            ),
        )),
        Some(Ok(None)) => {
            let anchor = context
                .layout
                .as_ref()
                .map_or(TextRange::empty(0), |layout| layout.open);
            findings.push(Finding::new(
                anchor,
                "the frontmatter is empty: add `name` and `description` fields",
            ));
        }
        _ => {}
    }
}
