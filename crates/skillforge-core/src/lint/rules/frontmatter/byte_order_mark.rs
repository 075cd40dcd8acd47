use crate::lint::{Applicability, Finding, SkillContext, TextEdit};
use crate::text::TextRange;

crate::declare_rule! {
    /// ## What it does
    /// Flags a UTF-8 byte-order mark at the start of the file.
    ///
    /// ## Why it matters
    /// nagents does not strip it, so the first line is not `---` and the frontmatter is ignored: the skill
    /// gets its folder name and the text `---` as its description. skills-ref reports that the file does
    /// not start with frontmatter. 10xGraph strips it.
    ///
    /// ## Example
    /// A SKILL.md saved as "UTF-8 with BOM".
    ///
    /// ## Fix
    /// Remove the byte-order mark (safe).
    RULE {
        name: "byte-order-mark",
        group: "frontmatter",
        severity: Error,
        profiles: [Spec, Nagents, ClaudeUpload, Codex],
        fix: Safe,
        check: check,
    }
}

fn check(context: &SkillContext<'_>, findings: &mut Vec<Finding>) {
    if context.source.starts_with('\u{feff}') {
        let bom = TextRange::new(0, 3);
        findings.push(
            Finding::new(bom, "the file starts with a UTF-8 byte-order mark, which hides the frontmatter from strict clients")
                .with_fix(
                    "Remove the byte-order mark",
                    Applicability::Safe,
                    vec![TextEdit {
                        range: bom,
                        replacement: String::new(),
                    }],
                ),
        );
    }
}
