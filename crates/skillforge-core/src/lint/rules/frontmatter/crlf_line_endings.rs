use crate::lint::{Applicability, Finding, SkillContext, TextEdit};
use crate::text::TextRange;

crate::declare_rule! {
    /// ## What it does
    /// Flags Windows (CRLF) line endings.
    ///
    /// ## Why it matters
    /// Anthropic's `quick_validate.py` (run by `package_skill.py` before upload) matches the frontmatter with
    /// `\n` only and reports CRLF files as having no valid frontmatter.
    ///
    /// ## Example
    /// A SKILL.md saved by an editor configured for `\r\n` line endings.
    ///
    /// ## Fix
    /// Convert the line endings to LF (safe: no client gives the `\r` any meaning).
    RULE {
        name: "crlf-line-endings",
        group: "frontmatter",
        severity: Error,
        profiles: [ClaudeUpload],
        fix: Safe,
        check: check,
    }
}

fn check(context: &SkillContext<'_>, findings: &mut Vec<Finding>) {
    let carriage_returns: Vec<usize> = context
        .source
        .match_indices("\r\n")
        .map(|(at, _)| at)
        .collect();
    let Some(first) = carriage_returns.first() else {
        return;
    };
    // A line may end in several carriage returns (`\r\r\n`); removing only the last would leave another
    // CRLF behind, so each edit takes the whole run.
    let bytes = context.source.as_bytes();
    let edits = carriage_returns
        .iter()
        .map(|at| {
            let mut start = *at;
            while start > 0 && bytes.get(start - 1) == Some(&b'\r') {
                start -= 1;
            }
            TextEdit {
                range: TextRange::new(start, at + 1),
                replacement: String::new(),
            }
        })
        .collect();
    findings.push(
        Finding::new(
            TextRange::new(*first, first + 2),
            format!(
                "{} lines end with CRLF; upload validation expects LF line endings",
                carriage_returns.len()
            ),
        )
        .with_fix("Convert line endings to LF", Applicability::Safe, edits),
    );
}
