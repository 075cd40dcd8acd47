use super::colon_lines;
use crate::frontmatter::yaml::double_quoted;
use crate::lint::{Applicability, Finding, SkillContext, TextEdit};

crate::declare_rule! {
    /// ## What it does
    /// Flags a top-level plain (unquoted) value that contains `: `, such as
    /// `description: Use when: the user asks`.
    ///
    /// ## Why it matters
    /// Strict YAML reads the second `: ` as a nested mapping and fails. Codex and skills-ref refuse the
    /// skill, 10xGraph loads it only after its own retry that quotes the value (with an error diagnostic),
    /// and Claude Code silently drops the metadata.
    ///
    /// ## Example
    /// ```yaml
    /// description: Extract text from PDFs. Use when: the user mentions PDFs.
    /// ```
    ///
    /// ## Fix
    /// Quote the value (safe: it then means exactly what the lenient clients already read):
    /// ```yaml
    /// description: "Extract text from PDFs. Use when: the user mentions PDFs."
    /// ```
    RULE {
        name: "plain-scalar-colon",
        group: "frontmatter",
        severity: Error,
        profiles: [Spec, Tenxgraph, ClaudeCode, ClaudeUpload, Codex, Copilot, Opencode, Gemini],
        fix: Safe,
        check: check,
    }
}

fn check(context: &SkillContext<'_>, findings: &mut Vec<Finding>) {
    // A line inside a block scalar or a quoted multi-line value is not a key line; only report when the
    // YAML does not parse as written, which is exactly when the quoting retry matters.
    if context.yaml_parsed() {
        return;
    }
    for line in colon_lines(context) {
        let value = line.value.slice(context.source);
        findings.push(
            Finding::new(
                line.value,
                format!(
                    "the value of `{}` contains `: ` without quotes; strict YAML parsers refuse it",
                    line.key
                ),
            )
            .with_fix(
                "Quote the value",
                Applicability::Safe,
                vec![TextEdit {
                    range: line.value,
                    replacement: double_quoted(value),
                }],
            ),
        );
    }
}
