//! Frontmatter block and YAML syntax (SF1xx).

pub mod byte_order_mark;
pub mod content_not_utf8;
pub mod cr_line_endings;
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
pub mod yaml_anchor_or_tag;
pub mod yaml_control_character;
pub mod yaml_invalid;

use crate::clients::tenxgraph::repair;
use crate::lint::SkillContext;

pub use crate::clients::tenxgraph::repair::ColonLine;

/// The frontmatter lines 10xGraph's retry would quote.
pub fn colon_lines(context: &SkillContext<'_>) -> Vec<ColonLine> {
    match &context.layout {
        Ok(layout) => repair::colon_lines(context.source, context.lines(), layout),
        Err(_) => Vec::new(),
    }
}

/// Where Codex finds the frontmatter of a file, as its `extract_frontmatter`
/// (`codex-rs/core/src/skills/loader.rs`) reads it: lines from Rust's `str::lines`, which ends a line at LF
/// (dropping a `\r` before it) but not at a lone CR; line 1 trimmed must be `---`; the block closes at the
/// first later line that trims to `---`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LfOnlySplit {
    /// Line 1 is not `---`.
    Missing,
    /// No later line is `---`.
    Unterminated,
    /// The closing `---` line starts at this byte offset.
    Closes { at: usize },
}

/// [`LfOnlySplit`] of `source`, after a byte-order mark (which the BOM rule reports on its own).
pub fn lf_only_split(source: &str) -> LfOnlySplit {
    let start = if source.starts_with('\u{feff}') { 3 } else { 0 };
    let mut at = start;
    let mut lines = source[start..].split_inclusive('\n').map(|line| {
        let line_start = at;
        at += line.len();
        let content = line.strip_suffix('\n').unwrap_or(line);
        (line_start, content.strip_suffix('\r').unwrap_or(content))
    });
    match lines.next() {
        Some((_, first)) if first.trim() == "---" => {}
        _ => return LfOnlySplit::Missing,
    }
    lines
        .find(|(_, line)| line.trim() == "---")
        .map_or(LfOnlySplit::Unterminated, |(at, _)| LfOnlySplit::Closes {
            at,
        })
}

/// How Codex's split differs from the frontmatter block YAML's line model finds, when a lone `\r` is the
/// cause: `None` when the file has no lone `\r` or Codex finds the same block.
pub fn lf_only_difference(context: &SkillContext<'_>) -> Option<LfOnlySplit> {
    if !context.has_carriage_return || !context.selects(&[crate::lint::ProfileId::Codex]) {
        return None;
    }
    let layout = context.layout.as_ref().ok()?;
    crate::frontmatter::yaml::lines::lone_carriage_returns(context.source).next()?;
    match lf_only_split(context.source) {
        LfOnlySplit::Closes { at } if at == layout.close.start() => None,
        split => Some(split),
    }
}
