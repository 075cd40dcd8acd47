use crate::frontmatter::yaml::LayoutError;
use crate::lint::{Applicability, Finding, SkillContext, TextEdit};
use crate::text::TextRange;

crate::declare_rule! {
    /// ## What it does
    /// Flags a frontmatter block that starts below line 1 (after blank lines or other text).
    ///
    /// ## Why it matters
    /// Every client looks for `---` on the very first line. A block further down is read as Markdown, so
    /// the skill has no name or description as far as the client is concerned.
    ///
    /// ## Example
    /// ```markdown
    ///
    /// ---
    /// name: pdf-tools
    /// ---
    /// ```
    ///
    /// ## Fix
    /// Remove what precedes the opening `---`. When only blank lines precede it the fix is safe.
    RULE {
        name: "frontmatter-not-at-start",
        group: "frontmatter",
        severity: Error,
        profiles: [Spec, Nagents, Tenxgraph, ClaudeCode, ClaudeUpload, Codex, Copilot, Opencode],
        fix: Safe,
        check: check,
    }
}

fn check(context: &SkillContext<'_>, findings: &mut Vec<Finding>) {
    let Err(LayoutError::NotAtStart { open }) = &context.layout else {
        return;
    };
    let start = if context.source.starts_with('\u{feff}') {
        3
    } else {
        0
    };
    let before = TextRange::new(start, open.start());
    let line = context.lines().position(context.source, open.start()).line;
    let mut finding = Finding::new(
        *open,
        format!("the frontmatter starts on line {line}; clients only read a `---` block on line 1"),
    );
    if before.slice(context.source).trim().is_empty() {
        finding = finding.with_fix(
            "Remove the blank lines before the frontmatter",
            Applicability::Safe,
            vec![TextEdit {
                range: before,
                replacement: String::new(),
            }],
        );
    }
    findings.push(finding);
}
