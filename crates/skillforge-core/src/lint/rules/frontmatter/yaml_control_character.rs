use crate::frontmatter::yaml::is_printable;
use crate::lint::{Applicability, Finding, SkillContext, TextEdit};
use crate::text::TextRange;

crate::declare_rule! {
    /// ## What it does
    /// Flags a character in the frontmatter that YAML does not allow anywhere in a document: a C0 control
    /// other than tab, LF and CR, DEL, a C1 control (U+0080–U+009F) other than NEL, or U+FFFE/U+FFFF.
    ///
    /// ## Why it matters
    /// YAML readers check every character before they parse, and refuse the whole frontmatter for one of
    /// these: PyYAML (10xGraph, `quick_validate.py`) with `unacceptable character #x0080: special
    /// characters are not allowed`, libyaml (Codex) with `control characters are not allowed`, and
    /// skills-ref 0.1.1 fails with an exception. The character is usually invisible: pasted from a
    /// Windows-1252 document or a terminal.
    ///
    /// ## Example
    /// `description: Fills forms` followed by U+0080 before the end of the line.
    ///
    /// ## Fix
    /// Remove the character (unsafe: it may have stood for a letter that was lost in a conversion).
    RULE {
        name: "yaml-control-character",
        group: "frontmatter",
        severity: Error,
        profiles: [Spec, Tenxgraph, ClaudeUpload, Codex, Copilot, Opencode, Gemini],
        fix: Unsafe,
        check: check,
    }
}

fn check(context: &SkillContext<'_>, findings: &mut Vec<Finding>) {
    let Ok(layout) = &context.layout else {
        return;
    };
    let yaml = layout.yaml;
    for (offset, c) in yaml.slice(context.source).char_indices() {
        if is_printable(c) {
            continue;
        }
        let at = yaml.start() + offset;
        let range = TextRange::new(at, at + c.len_utf8());
        findings.push(
            Finding::new(
                range,
                format!(
                    "U+{:04X} is not allowed in YAML: PyYAML, libyaml and strictyaml refuse the whole frontmatter",
                    u32::from(c)
                ),
            )
            .with_fix(
                "Remove the character",
                Applicability::Unsafe,
                vec![TextEdit {
                    range,
                    replacement: String::new(),
                }],
            ),
        );
    }
}
