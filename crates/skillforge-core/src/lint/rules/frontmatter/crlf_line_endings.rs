use crate::lint::{Applicability, Finding, SkillContext, TextEdit};
use crate::text::TextRange;

crate::declare_rule! {
    /// ## What it does
    /// Flags Windows (CRLF) line endings.
    ///
    /// ## Why it matters
    /// Upload tooling and many hand-written frontmatter splitters match `---\n` literally. The published
    /// `quick_validate.py` (run by `package_skill.py`) reads the file with Python's universal newlines, so it
    /// sees LF and passes; the upload service's own check is not public. A warning, so the file is portable
    /// without claiming a refusal nobody has observed.
    ///
    /// ## Example
    /// A SKILL.md saved by an editor configured for `\r\n` line endings.
    ///
    /// ## Fix
    /// Convert the line endings to LF (safe: no client gives the `\r` any meaning).
    RULE {
        name: "crlf-line-endings",
        group: "frontmatter",
        severity: Warning,
        profiles: [ClaudeUpload],
        fix: Safe,
        check: check,
    }
}

fn check(context: &SkillContext<'_>, findings: &mut Vec<Finding>) {
    if !context.has_carriage_return {
        return;
    }
    let carriage_returns: Vec<usize> = context
        .source
        .match_indices("\r\n")
        .map(|(at, _)| at)
        .collect();
    let Some(first) = carriage_returns.first() else {
        return;
    };
    // Only the `\r` right before the `\n`: in `\r\r\n` the first `\r` is a line break of its own (a lone CR,
    // which cr-line-endings turns into `\n`), so the two fixes never overlap and the line count is kept.
    let edits = carriage_returns
        .iter()
        .map(|at| TextEdit {
            range: TextRange::new(*at, at + 1),
            replacement: String::new(),
        })
        .collect();
    findings.push(
        Finding::new(
            TextRange::new(*first, first + 2),
            format!(
                "{} lines end with CRLF; upload tooling and LF-only splitters expect LF line endings",
                carriage_returns.len()
            ),
        )
        .with_fix("Convert line endings to LF", Applicability::Safe, edits),
    );
}
