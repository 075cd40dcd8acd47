//! The rules, one file each, grouped as in the code table. Shared helpers live here.

pub mod body;
pub mod description;
pub mod fields;
pub mod frontmatter;
pub mod name;
pub mod suppression;
pub mod workspace;

use super::{SkillContext, TextEdit};
use crate::frontmatter::yaml::{double_quoted, Entry, Node, Style, Value};
use crate::text::TextRange;

/// Whether a plain scalar resolves to something other than a string under YAML 1.2's core schema
/// (null, booleans, integers, floats), which strict string-map clients refuse.
pub fn plain_is_not_string(text: &str) -> bool {
    let lower = text.to_ascii_lowercase();
    if matches!(
        lower.as_str(),
        "" | "~" | "null" | "true" | "false" | ".inf" | "-.inf" | "+.inf" | ".nan"
    ) {
        return true;
    }
    looks_numeric(text)
}

/// Integers and floats as YAML 1.2 core writes them (decimal, `0o`, `0x`, exponent).
pub fn looks_numeric(text: &str) -> bool {
    let unsigned = text.strip_prefix(['-', '+']).unwrap_or(text);
    if let Some(hex) = unsigned.strip_prefix("0x") {
        return !hex.is_empty() && hex.bytes().all(|byte| byte.is_ascii_hexdigit());
    }
    if let Some(octal) = unsigned.strip_prefix("0o") {
        return !octal.is_empty() && octal.bytes().all(|byte| (b'0'..=b'7').contains(&byte));
    }
    let (mantissa, exponent) = match unsigned.find(['e', 'E']) {
        Some(at) => (&unsigned[..at], Some(&unsigned[at + 1..])),
        None => (unsigned, None),
    };
    let digits = mantissa.bytes().filter(u8::is_ascii_digit).count();
    let dots = mantissa.bytes().filter(|byte| *byte == b'.').count();
    let mantissa_ok = digits > 0
        && dots <= 1
        && mantissa
            .bytes()
            .all(|byte| byte.is_ascii_digit() || byte == b'.');
    let exponent_ok = exponent.is_none_or(|exponent| {
        let exponent = exponent.strip_prefix(['-', '+']).unwrap_or(exponent);
        !exponent.is_empty() && exponent.bytes().all(|byte| byte.is_ascii_digit())
    });
    mantissa_ok && exponent_ok
}

/// Whether a node is a string for a strict client: a quoted or block scalar, or a plain one that does not
/// resolve to null, a boolean or a number.
pub fn is_string_node(node: &Node) -> bool {
    match &node.value {
        Value::Scalar { text, style } => *style != Style::Plain || !plain_is_not_string(text),
        _ => false,
    }
}

/// The whole lines an entry occupies (key line through the value's last line, terminator included).
pub fn entry_lines(context: &SkillContext<'_>, entry: &Entry) -> TextRange {
    let first = context.lines().line_of(entry.key.range.start());
    let value_end = entry.value.range.end().max(entry.key.range.end());
    // A block value's range ends after its last line break already.
    let last_offset = if value_end > 0
        && matches!(
            context.source.as_bytes().get(value_end - 1),
            Some(b'\n' | b'\r')
        ) {
        value_end - 1
    } else {
        value_end
    };
    let last = context.lines().line_of(last_offset);
    let start = context.lines().line_start(first).unwrap_or(0);
    let end = context
        .lines()
        .line_start(last + 1)
        .unwrap_or(context.source.len());
    TextRange::new(start, end)
}

/// An edit replacing a value node with a double-quoted scalar holding `text`.
pub fn quote_value_edit(node: &Node, text: &str) -> TextEdit {
    TextEdit {
        range: node.range,
        replacement: double_quoted(text),
    }
}

/// Keeps the findings pushed from `from` on that name no profiles of their own away from Gemini CLI, for
/// a rule in which Gemini's own model speaks for it with a finding of its own.
pub fn not_for_gemini(findings: &mut [super::Finding], from: usize) {
    for finding in findings.iter_mut().skip(from) {
        if finding.only_profiles.is_none() {
            finding.only_profiles = Some(
                super::ProfileId::ALL
                    .into_iter()
                    .filter(|profile| *profile != super::ProfileId::Gemini)
                    .collect(),
            );
        }
    }
}

/// Whether `needle` occurs in `haystack` as a whole word (ASCII word boundaries).
pub fn contains_word(haystack: &str, needle: &str) -> bool {
    let bytes = haystack.as_bytes();
    let mut from = 0;
    while let Some(found) = haystack.get(from..).and_then(|rest| rest.find(needle)) {
        let start = from + found;
        let end = start + needle.len();
        let before = start.checked_sub(1).and_then(|at| bytes.get(at));
        let after = bytes.get(end);
        let boundary = |byte: Option<&u8>| byte.is_none_or(|byte| !byte.is_ascii_alphanumeric());
        if boundary(before) && boundary(after) {
            return true;
        }
        from = end;
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn core_schema_non_strings() {
        for text in ["", "~", "null", "True", "12", "-3.5", "1e3", "0x1F", ".inf"] {
            assert!(plain_is_not_string(text), "{text}");
        }
        for text in ["yes", "1.2.3", "v1", "12a", "e3", "-"] {
            assert!(!plain_is_not_string(text), "{text}");
        }
    }
}
