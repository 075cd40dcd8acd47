use crate::frontmatter::yaml::double_quoted;
use crate::frontmatter::yaml::{Node, Style, Value};
use crate::lint::{Applicability, Finding, SkillContext, TextEdit};
use crate::text::TextRange;

crate::declare_rule! {
    /// ## What it does
    /// Flags a plain (unquoted) value followed on the same line by ` #`, which YAML reads as the start of
    /// a comment.
    ///
    /// ## Why it matters
    /// Everything after ` #` silently disappears: `description: Tips for C # and F#` loads as
    /// `Tips for C`. Nothing warns the author.
    ///
    /// ## Example
    /// ```yaml
    /// description: Format code in C # projects
    /// ```
    ///
    /// ## Fix
    /// Quote the whole value, comment included (unsafe: the text may really be a comment).
    RULE {
        name: "plain-scalar-comment",
        group: "frontmatter",
        severity: Warning,
        profiles: [Spec, Tenxgraph, ClaudeCode, ClaudeUpload, Codex, Copilot, Opencode],
        fix: Unsafe,
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
        Value::Mapping {
            entries,
            flow: false,
        } => {
            for entry in entries {
                visit(context, &entry.value, findings);
            }
        }
        Value::Sequence { items, flow: false } => {
            for item in items {
                visit(context, item, findings);
            }
        }
        Value::Scalar {
            text,
            style: Style::Plain,
        } if !text.is_empty() => {
            // The end of the scalar's line, found directly: building the file's line index for every
            // plain value would cost more than the whole rule.
            let line_end = crate::frontmatter::yaml::lines::next_break(
                context.source.as_bytes(),
                node.range.end(),
            )
            .unwrap_or(context.source.len());
            let rest = TextRange::new(node.range.end(), line_end);
            let after = rest.slice(context.source);
            let trimmed = after.trim_start_matches([' ', '\t']);
            if after.len() != trimmed.len()
                && trimmed.starts_with('#')
                && !trimmed.contains("skillforge:")
            {
                let comment = trimmed.trim_end();
                let whole = TextRange::new(node.range.start(), line_end);
                let written = whole.slice(context.source).trim_end();
                findings.push(
                    Finding::new(
                        TextRange::new(
                            rest.end() - trimmed.len(),
                            rest.end() - trimmed.len() + comment.len(),
                        ),
                        format!(
                            "` {comment}` is read as a YAML comment, so the value ends at `{text}`"
                        ),
                    )
                    .with_fix(
                        "Quote the value including the `#` text",
                        Applicability::Unsafe,
                        vec![TextEdit {
                            range: TextRange::new(
                                node.range.start(),
                                node.range.start() + written.len(),
                            ),
                            replacement: double_quoted(written),
                        }],
                    ),
                );
            }
        }
        _ => {}
    }
}
