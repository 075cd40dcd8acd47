use crate::lint::{Finding, SkillContext};
use crate::text::TextRange;

crate::declare_rule! {
    /// ## What it does
    /// Flags a SKILL.md whose bytes are not valid UTF-8.
    ///
    /// ## Why it matters
    /// Python clients read the file with `encoding="utf-8"` and fail: 10xGraph reports `Cannot read file`
    /// and skips the skill, skills-ref crashes on it, nagents refuses it.
    ///
    /// ## Example
    /// A SKILL.md saved as Latin-1 with an accented letter in the description.
    ///
    /// ## Fix
    /// Re-save the file as UTF-8. The linter checks the rest of the file with the bad bytes replaced by
    /// `�`, so other findings still point at the right place.
    RULE {
        name: "content-not-utf8",
        group: "frontmatter",
        severity: Error,
        profiles: [Spec, Nagents, Tenxgraph, ClaudeCode, ClaudeUpload, Codex, Copilot, Opencode, Gemini],
        fix: None,
        check: check,
    }
}

fn check(context: &SkillContext<'_>, findings: &mut Vec<Finding>) {
    if let Some(at) = context.file.invalid_utf8_at {
        // The replacement character takes the place of the first bad sequence at the same offset.
        findings.push(Finding::new(
            TextRange::new(at, at + '\u{fffd}'.len_utf8()),
            format!("the file is not valid UTF-8 (first invalid byte at offset {at}); clients cannot read it"),
        ));
    }
}
