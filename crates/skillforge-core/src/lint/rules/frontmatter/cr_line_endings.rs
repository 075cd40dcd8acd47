use crate::frontmatter::yaml::lines::lone_carriage_returns;
use crate::lint::{Applicability, Finding, SkillContext, TextEdit};
use crate::text::TextRange;

crate::declare_rule! {
    /// ## What it does
    /// Flags line breaks written as a carriage return on its own (`\r` not followed by `\n`): classic Mac OS
    /// line endings, or stray ones in a file with mixed endings.
    ///
    /// ## Why it matters
    /// YAML 1.2 and CommonMark read a lone `\r` as a line break, and so do skills-ref, 10xGraph and
    /// nagents (Python reads the file with universal newlines or splits it with `str.splitlines`). Tools that
    /// split lines at `\n` only do not: Codex (`str::lines` in `codex-rs/core/src/skills/loader.rs`) reads
    /// such a file as one long line, finds no `---` line and skips the skill (reported as
    /// `frontmatter-missing` or `frontmatter-unterminated` for `codex`). Many editors, `grep` and diff tools
    /// show the file as a single line, too.
    ///
    /// ## Example
    /// ```text
    /// ---\rname: pdf-tools\rdescription: Extract text from PDF files.\r---\r# Steps\r
    /// ```
    ///
    /// ## Fix
    /// Replace each lone `\r` with `\n` (safe: YAML, Markdown and every client above read both as the same
    /// line break, so no value changes).
    RULE {
        name: "cr-line-endings",
        group: "frontmatter",
        severity: Warning,
        profiles: [Spec, ClaudeCode, ClaudeUpload, Codex, Copilot, Opencode, Gemini],
        fix: Safe,
        check: check,
    }
}

fn check(context: &SkillContext<'_>, findings: &mut Vec<Finding>) {
    if !context.has_carriage_return {
        return;
    }
    let mut breaks = lone_carriage_returns(context.source).peekable();
    let Some(first) = breaks.peek().copied() else {
        return;
    };
    let edits: Vec<TextEdit> = breaks
        .map(|at| TextEdit {
            range: TextRange::new(at, at + 1),
            replacement: "\n".to_string(),
        })
        .collect();
    let count = edits.len();
    let lines = if count == 1 { "line ends" } else { "lines end" };
    findings.push(
        // Empty, at the end of the first such line: the `\r` itself is the line break, so a range over it
        // would reach into the next line.
        Finding::new(
            TextRange::empty(first),
            format!(
                "{count} {lines} in a lone carriage return (CR); YAML reads it as a line break, but tools \
                 that split lines at LF only, Codex among them, read the lines around it as one"
            ),
        )
        .with_fix("Convert lone CR line endings to LF", Applicability::Safe, edits),
    );
}
