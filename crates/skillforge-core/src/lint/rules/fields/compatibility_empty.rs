use crate::lint::{Applicability, Finding, SkillContext, TextEdit};
use crate::text::TextRange;

crate::declare_rule! {
    /// ## What it does
    /// Flags a `compatibility` field that is present but empty (`compatibility: ""`, or only spaces).
    ///
    /// ## Why it matters
    /// The specification asks for 1 to 500 characters when the field is given. skills-ref 0.1.1 accepts
    /// an empty one, so this is a warning; clients that show `compatibility` to the model on activation
    /// (10xGraph) show nothing, which says nothing.
    ///
    /// ## Example
    /// ```yaml
    /// compatibility: ""
    /// ```
    ///
    /// ## Fix
    /// Remove the line (safe: an absent field and an empty one mean the same to every client), or say what
    /// the skill needs.
    RULE {
        name: "compatibility-empty",
        group: "fields",
        severity: Warning,
        profiles: [Spec, Tenxgraph, ClaudeUpload],
        fix: Safe,
        check: check,
    }
}

fn check(context: &SkillContext<'_>, findings: &mut Vec<Finding>) {
    let Some(entry) = context.field("compatibility") else {
        return;
    };
    let Some((text, _)) = entry.value.as_scalar() else {
        return;
    };
    if !text.trim().is_empty() {
        return;
    }
    // Only a quoted empty value: a bare `compatibility:` is null, which field-not-string reports.
    let written = entry.value.range.slice(context.source);
    if !(written.starts_with('"') || written.starts_with('\'')) {
        return;
    }
    let mut finding = Finding::new(
        entry.value.range,
        "`compatibility` is empty; the specification asks for 1 to 500 characters when it is given",
    );
    // The whole line goes, its line break included, when it holds this entry and nothing else.
    let lines = context.lines();
    let line = lines.line_of(entry.key.range.start());
    let start = lines.line_start(line).unwrap_or(entry.key.range.start());
    let end = lines.line_start(line + 1).unwrap_or(context.source.len());
    let rest = context
        .source
        .get(entry.value.range.end()..end)
        .unwrap_or("x");
    if start == entry.key.range.start() && entry.value.range.end() <= end && rest.trim().is_empty()
    {
        finding = finding.with_fix(
            "Remove the empty `compatibility` line",
            Applicability::Safe,
            vec![TextEdit {
                range: TextRange::new(start, end),
                replacement: String::new(),
            }],
        );
    }
    findings.push(finding);
}
