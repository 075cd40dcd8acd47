use crate::frontmatter::yaml::{Node, Value};
use crate::lint::{Finding, SkillContext};

crate::declare_rule! {
    /// ## What it does
    /// Flags YAML anchors (`&name`), aliases (`*name`) and explicit tags (`!!str`, `!custom`).
    ///
    /// ## Why it matters
    /// skills-ref parses frontmatter with strictyaml, which refuses all three ("confusing disallowed
    /// anchor token", "disallowed tag tokens"), so the skill is reported invalid even where other clients
    /// read it.
    ///
    /// ## Example
    /// ```yaml
    /// name: &n pdf-tools
    /// description: !!str Extract text from PDF files.
    /// ```
    ///
    /// ## Fix
    /// Write the value out in full, without `&`, `*` or `!` before it (quote it if it starts with one
    /// of them).
    RULE {
        name: "yaml-anchor-or-tag",
        group: "frontmatter",
        severity: Error,
        profiles: [Spec],
        fix: None,
        check: check,
    }
}

fn check(context: &SkillContext<'_>, findings: &mut Vec<Finding>) {
    if let Some(root) = context.frontmatter() {
        visit(root, findings);
    }
}

fn visit(node: &Node, findings: &mut Vec<Finding>) {
    let refused =
        |what: &str| format!("{what}: strictyaml (skills-ref) refuses anchors, aliases and tags");
    if node.anchor != 0 {
        findings.push(Finding::new(node.range, refused("YAML anchor `&…`")));
    }
    if node.tagged {
        findings.push(Finding::new(node.range, refused("YAML tag `!…`")));
    }
    match &node.value {
        Value::Alias { .. } => findings.push(Finding::new(node.range, refused("YAML alias `*…`"))),
        Value::Mapping { entries, .. } => {
            for entry in entries {
                visit(&entry.key, findings);
                visit(&entry.value, findings);
            }
        }
        Value::Sequence { items, .. } => {
            for item in items {
                visit(item, findings);
            }
        }
        Value::Scalar { .. } => {}
    }
}
