use crate::frontmatter::yaml::double_quoted;
use crate::frontmatter::yaml::Value;
use crate::lint::rules::is_string_node;
use crate::lint::{Applicability, Finding, SkillContext, TextEdit};

crate::declare_rule! {
    /// ## What it does
    /// Flags a `metadata` field that is not a mapping of string keys to string values: numbers, booleans,
    /// lists or nested mappings inside it, or `metadata` itself written as a string or list.
    ///
    /// ## Why it matters
    /// The specification defines `metadata` as a string-to-string map. Clients that type it that way
    /// (10xGraph reports an error, OpenCode and upload validate it) refuse or coerce nested values.
    ///
    /// ## Example
    /// ```yaml
    /// metadata:
    ///   version: 1.2
    ///   tags:
    ///     - pdf
    /// ```
    ///
    /// ## Fix
    /// Quote scalar values (`version: "1.2"`, safe: the text stays as written). Lists and mappings must be
    /// rewritten by hand, for example as `tags: "pdf, text"`.
    RULE {
        name: "metadata-not-string-map",
        group: "fields",
        severity: Error,
        profiles: [Spec, Tenxgraph, ClaudeUpload, Opencode],
        fix: Safe,
        check: check,
    }
}

fn check(context: &SkillContext<'_>, findings: &mut Vec<Finding>) {
    let Some(entry) = context.field("metadata") else {
        return;
    };
    let Some(entries) = entry.value.entries() else {
        findings.push(Finding::new(
            entry.value.range,
            format!(
                "`metadata` is {}; it must be a mapping of keys to strings",
                entry.value.kind_name()
            ),
        ));
        return;
    };
    for item in entries {
        let key = item.key.as_scalar().map_or("?", |(text, _)| text);
        if is_string_node(&item.value) {
            continue;
        }
        let mut finding = Finding::new(
            item.value.range,
            format!(
                "`metadata.{key}` is {}, not a string",
                describe(&item.value)
            ),
        );
        if let Value::Scalar { text, .. } = &item.value.value {
            if !text.is_empty() {
                let written = item.value.range.slice(context.source);
                finding = finding.with_fix(
                    "Quote the value",
                    Applicability::Safe,
                    vec![TextEdit {
                        range: item.value.range,
                        replacement: double_quoted(written),
                    }],
                );
            }
        }
        findings.push(finding);
    }
}

fn describe(node: &crate::frontmatter::yaml::Node) -> &'static str {
    match &node.value {
        Value::Scalar { text, .. } if text.is_empty() => "empty",
        Value::Scalar { text, .. } if crate::lint::rules::looks_numeric(text) => "a number",
        Value::Scalar { .. } => "a boolean or null",
        _ => node.kind_name(),
    }
}
