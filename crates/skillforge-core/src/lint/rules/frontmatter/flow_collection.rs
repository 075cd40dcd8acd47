use crate::frontmatter::yaml::{Node, Value};
use crate::lint::{Finding, SkillContext};

crate::declare_rule! {
    /// ## What it does
    /// Flags flow-style collections: `[a, b]` lists and `{k: v}` mappings.
    ///
    /// ## Why it matters
    /// skills-ref parses frontmatter with strictyaml, which refuses flow style, so the skill is reported
    /// invalid; other strict string-map clients refuse the nested value too.
    ///
    /// ## Example
    /// ```yaml
    /// metadata:
    ///   tags: [pdf, text]
    /// ```
    ///
    /// ## Fix
    /// Write a string (`tags: "pdf, text"`) or a block list with one `- item` per line.
    RULE {
        name: "flow-collection",
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
    match &node.value {
        Value::Mapping { entries, flow } => {
            if *flow {
                findings.push(Finding::new(
                    node.range,
                    "flow-style mapping `{…}`: strictyaml (skills-ref) refuses it",
                ));
                return;
            }
            for entry in entries {
                visit(&entry.value, findings);
            }
        }
        Value::Sequence { items, flow } => {
            if *flow {
                findings.push(Finding::new(
                    node.range,
                    "flow-style list `[…]`: strictyaml (skills-ref) refuses it",
                ));
                return;
            }
            for item in items {
                visit(item, findings);
            }
        }
        _ => {}
    }
}
