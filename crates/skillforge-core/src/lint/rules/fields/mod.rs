//! The other frontmatter fields (SF4xx).

pub mod agent_without_fork;
pub mod allowed_tools_list;
pub mod allowed_tools_unknown_tool;
pub mod argument_hint_without_placeholder;
pub mod argument_index_skipped;
pub mod argument_placeholder_braced;
pub mod compatibility_empty;
pub mod compatibility_too_long;
pub mod context_not_fork;
pub mod effort_invalid;
pub mod field_not_string;
pub mod hooks_invalid;
pub mod invocation_flag_unrecognized;
pub mod metadata_not_string_map;
pub mod model_not_recognized;
pub mod priority_not_integer;
pub mod shell_unknown;
pub mod unknown_field;
pub mod user_invocable_misspelled;

use crate::clients::claude_code::frontmatter::{Js, Parsed};
use crate::lint::SkillContext;
use crate::text::TextRange;

/// The frontmatter as Claude Code reads it (its own YAML reading and retry), for the rules about its
/// fields.
pub(crate) fn claude_fields<'c>(context: &'c SkillContext<'_>) -> &'c Parsed {
    context.claude_code_frontmatter()
}

/// A Claude Code field's value and where to point at it: the value as written, else the key, else the
/// frontmatter's opening line.
pub(crate) fn claude_field<'p>(
    context: &SkillContext<'_>,
    parsed: &'p Parsed,
    key: &str,
) -> Option<(&'p Js, TextRange)> {
    let value = parsed.get(key)?;
    let range = match context.field(key) {
        Some(entry) if !entry.value.range.is_empty() => entry.value.range,
        Some(entry) => entry.key.range,
        None => context.frontmatter_anchor(),
    };
    Some((value, range))
}

/// `value` as YAML shows it in a message: a string quoted, anything else as its text.
pub(crate) fn shown(value: &Js) -> String {
    match value {
        Js::String(text) => format!("{text:?}"),
        Js::Array(_) => "a list".to_string(),
        Js::Object(_) => "a map".to_string(),
        other => other.to_js_string(),
    }
}
