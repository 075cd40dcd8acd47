use std::collections::HashMap;

use crate::frontmatter::yaml::{Node, Value};
use crate::lint::{Finding, SkillContext};

crate::declare_rule! {
    /// ## What it does
    /// Flags a key written twice in the same mapping.
    ///
    /// ## Why it matters
    /// strictyaml (skills-ref) and Codex refuse duplicate keys; PyYAML (10xGraph) and most lenient
    /// loaders silently keep the last value, so the author's first value is lost without a word.
    ///
    /// ## Example
    /// ```yaml
    /// name: pdf-tools
    /// description: Extract text.
    /// description: Fill forms.
    /// ```
    ///
    /// ## Fix
    /// Keep one of the values and delete the other line.
    RULE {
        name: "duplicate-key",
        group: "frontmatter",
        severity: Error,
        profiles: [Spec, Tenxgraph, ClaudeUpload, Codex, Gemini],
        fix: None,
        check: check,
    }
}

fn check(context: &SkillContext<'_>, findings: &mut Vec<Finding>) {
    if let Some(root) = context.frontmatter() {
        visit(context, root, findings);
    }
}

fn visit(context: &SkillContext<'_>, node: &Node, findings: &mut Vec<Finding>) {
    match &node.value {
        Value::Mapping { entries, .. } => {
            let mut first_seen: HashMap<&str, usize> = HashMap::new();
            for entry in entries {
                if let Some((key, _)) = entry.key.as_scalar() {
                    if let Some(first) = first_seen.get(key) {
                        let line = context.lines().position(context.source, *first).line;
                        findings.push(Finding::new(
                            entry.key.range,
                            format!("`{key}` is already defined on line {line}; lenient parsers keep only this later value"),
                        ));
                    } else {
                        first_seen.insert(key, entry.key.range.start());
                    }
                }
                visit(context, &entry.value, findings);
            }
        }
        Value::Sequence { items, .. } => {
            for item in items {
                visit(context, item, findings);
            }
        }
        _ => {}
    }
}
