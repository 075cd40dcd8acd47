use crate::lint::{Finding, SkillContext};
use crate::text::TextRange;

crate::declare_rule! {
    /// ## What it does
    /// Flags XML-like tags (`<tag>`, `</tag>`, `<tag/>`) in the `description`.
    ///
    /// ## Why it matters
    /// claude.ai and API upload refuse descriptions with XML tags, because the description is placed inside
    /// the XML of the skills listing.
    ///
    /// ## Example
    /// ```yaml
    /// description: Fill <form> fields in PDFs.
    /// ```
    ///
    /// ## Fix
    /// Write the word without angle brackets: "Fill form fields in PDFs."
    RULE {
        name: "description-xml-tags",
        group: "description",
        severity: Error,
        profiles: [ClaudeUpload],
        fix: None,
        check: check,
    }
}

fn check(context: &SkillContext<'_>, findings: &mut Vec<Finding>) {
    let Some((text, range)) = context.string_field("description") else {
        return;
    };
    if let Some((start, tag)) = first_tag(text) {
        // Point at the tag itself when the value is written verbatim (plain or single-line), else at the value.
        let written = range.slice(context.source);
        let at = written.find(tag).map_or(range, |offset| {
            TextRange::new(range.start() + offset, range.start() + offset + tag.len())
        });
        let _ = start;
        findings.push(Finding::new(
            at,
            format!("`description` contains the XML tag `{tag}`; upload refuses it"),
        ));
    }
}

/// The first `<name…>`, `</name>` or `<name/>` in the text.
fn first_tag(text: &str) -> Option<(usize, &str)> {
    let bytes = text.as_bytes();
    let mut from = 0;
    while let Some(found) = text.get(from..).and_then(|rest| rest.find('<')) {
        let start = from + found;
        let mut at = start + 1;
        if bytes.get(at) == Some(&b'/') {
            at += 1;
        }
        if bytes.get(at).is_some_and(u8::is_ascii_alphabetic) {
            if let Some(close) = text.get(at..).and_then(|rest| rest.find('>')) {
                let inner = &text[at..at + close];
                if !inner.contains('<') && !inner.contains('\n') {
                    return Some((start, &text[start..at + close + 1]));
                }
            }
        }
        from = start + 1;
    }
    None
}
