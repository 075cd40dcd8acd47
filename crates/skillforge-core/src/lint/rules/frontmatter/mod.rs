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

use crate::lint::repair;
use crate::lint::SkillContext;

pub use crate::lint::repair::ColonLine;

/// The frontmatter lines 10xGraph's retry would quote.
pub fn colon_lines(context: &SkillContext<'_>) -> Vec<ColonLine> {
    match &context.layout {
        Ok(layout) => repair::colon_lines(context.source, &context.lines, layout),
        Err(_) => Vec::new(),
    }
}
