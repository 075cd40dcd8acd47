//! Frontmatter block and YAML syntax (SF1xx).

pub mod byte_order_mark;
pub mod content_not_utf8;
pub mod crlf_line_endings;
pub mod duplicate_key;
pub mod flow_collection;
pub mod frontmatter_missing;
pub mod frontmatter_not_at_start;
pub mod frontmatter_not_mapping;
pub mod frontmatter_unterminated;
pub mod key_case_conflict;
pub mod plain_scalar_colon;
pub mod plain_scalar_comment;
pub mod yaml_invalid;

use crate::frontmatter::yaml::{self, Node};
use crate::lint::SkillContext;
use crate::text::TextRange;

/// One top-level `key: value` line whose plain value contains `: ` — the lines 10xGraph's retry quotes.
#[derive(Debug, Clone)]
pub struct ColonLine {
    pub key: String,
    /// The value as written, without surrounding blanks.
    pub value: TextRange,
}

/// Finds the lines 10xGraph's `_quote_plain_values` would quote: `^([A-Za-z0-9_-]+):[ \t]+(.+?)[ \t]*$` with
/// `: ` in the value and no YAML indicator first.
pub fn colon_lines(context: &SkillContext<'_>) -> Vec<ColonLine> {
    let Ok(layout) = &context.layout else {
        return Vec::new();
    };
    let mut found = Vec::new();
    let first = context.lines.line_of(layout.yaml.start());
    let last = context.lines.line_of(layout.close.start());
    for line in first..last {
        let range = context.lines.line_range(context.source, line);
        let text = range.slice(context.source);
        let Some(colon) = text.find(':') else {
            continue;
        };
        let key = &text[..colon];
        if key.is_empty()
            || !key
                .bytes()
                .all(|byte| byte.is_ascii_alphanumeric() || byte == b'_' || byte == b'-')
        {
            continue;
        }
        let after = &text[colon + 1..];
        let value = after.trim_start_matches([' ', '\t']);
        if value.len() == after.len() {
            continue;
        }
        let value = value.trim_end_matches([' ', '\t']);
        if value.is_empty()
            || !value.contains(": ")
            || value.starts_with(['\'', '"', '|', '>', '[', '{', '&', '*', '!', '#'])
        {
            continue;
        }
        let start =
            range.start() + colon + 1 + (after.len() - after.trim_start_matches([' ', '\t']).len());
        found.push(ColonLine {
            key: key.to_string(),
            value: TextRange::new(start, start + value.len()),
        });
    }
    found
}

/// The frontmatter parsed after quoting the `: ` lines, as 10xGraph's retry does; `None` when it still fails.
pub fn parse_after_quoting(context: &SkillContext<'_>) -> Option<Option<Node>> {
    let layout = context.layout.as_ref().ok()?;
    let lines = colon_lines(context);
    if lines.is_empty() {
        return None;
    }
    let mut fixed = String::with_capacity(context.source.len() + lines.len() * 4);
    let mut at = 0;
    for line in &lines {
        fixed.push_str(context.source.get(at..line.value.start())?);
        fixed.push_str(&super::double_quoted(line.value.slice(context.source)));
        at = line.value.end();
    }
    fixed.push_str(context.source.get(at..)?);
    let shift = fixed.len() - context.source.len();
    let yaml_range = TextRange::new(layout.yaml.start(), layout.yaml.end() + shift);
    yaml::parse(&fixed, yaml_range).ok()
}
