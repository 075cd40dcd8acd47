use crate::lint::{Finding, SkillContext};
use crate::text::TextRange;

crate::declare_rule! {
    /// ## What it does
    /// Flags any `<` or `>` in the `description`: XML-like tags (`<form>`), and also `Epic > Feature` or
    /// `<500ms`.
    ///
    /// ## Why it matters
    /// `package_skill.py` runs `quick_validate.py`, which refuses a description holding either angle
    /// bracket ("Description cannot contain angle brackets (< or >)"), and claude.ai and API upload
    /// refuse them too: the description is placed inside the XML of the skills listing.
    ///
    /// ## Example
    /// ```yaml
    /// description: Fill <form> fields in PDFs, in under <500ms.
    /// ```
    ///
    /// ## Fix
    /// Write it without angle brackets: "Fill form fields in PDFs, in under 500 ms."
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
    let Some(start) = text.find(['<', '>']) else {
        return;
    };
    // Point at the tag, or at the bracket, when the value is written verbatim; else at the value.
    let shown = first_tag(text).map_or(&text[start..=start], |(_, tag)| tag);
    let written = range.slice(context.source);
    let at = written.find(shown).map_or(range, |offset| {
        TextRange::new(range.start() + offset, range.start() + offset + shown.len())
    });
    findings.push(Finding::new(
        at,
        format!(
            "`description` contains `{shown}`; quick_validate.py (package_skill.py) and upload refuse any `<` or `>` in it"
        ),
    ));
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
