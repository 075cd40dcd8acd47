//! The frontmatter as 10xGraph's retry reads it, for rules to check when the YAML fails as written.
//!
//! A frontmatter that fails only because plain values contain `: ` is repaired the way 10xGraph repairs
//! it (the lines its retry picks, quoted as [`double_quoted`] quotes them) and parsed again, so that one
//! `: ` does not hide every other finding. Quoting only inserts characters around and inside a value, so
//! an [`OffsetMap`] carries every range of the repaired tree back to the file as written, and the rules
//! keep reporting (and fixing) the original text.

use crate::clients::tenxgraph;
use crate::frontmatter::yaml::double_quoted;
use crate::frontmatter::yaml::lines::SourceLines;
use crate::frontmatter::yaml::{self, Layout, Node, Style, Value};
use crate::text::TextRange;

/// One top-level `key: value` line whose plain value contains `: ` — a line 10xGraph's retry quotes.
#[derive(Debug, Clone)]
pub struct ColonLine {
    pub key: String,
    /// The value as written, without surrounding blanks.
    pub value: TextRange,
}

/// The frontmatter lines 10xGraph's `_quote_plain_values` would quote ([`tenxgraph::quotable_value`]).
pub fn colon_lines(source: &str, lines: &SourceLines, layout: &Layout) -> Vec<ColonLine> {
    let first = lines.line_of(layout.yaml.start());
    let last = lines.line_of(layout.close.start());
    (first..last)
        .filter_map(|line| {
            let range = lines.line_range(source, line);
            let text = range.slice(source);
            let (key, value) = tenxgraph::quotable_value(text)?;
            Some(ColonLine {
                key: text[..key].to_string(),
                value: TextRange::new(range.start() + value.start, range.start() + value.end),
            })
        })
        .collect()
}

/// Characters inserted into the original text, in order; maps offsets of the repaired text back.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct OffsetMap {
    /// `(offset in the repaired text where an insertion starts, its length, inserted before it in total)`.
    insertions: Vec<(usize, usize, usize)>,
}

impl OffsetMap {
    fn insert(&mut self, repaired_at: usize, len: usize) {
        let before = self.inserted();
        match self.insertions.last_mut() {
            Some((start, length, _)) if *start + *length == repaired_at => *length += len,
            _ => self.insertions.push((repaired_at, len, before)),
        }
    }

    fn inserted(&self) -> usize {
        self.insertions
            .last()
            .map_or(0, |(_, length, before)| length + before)
    }

    /// The original offset of a repaired offset; an offset inside inserted text maps to where it was
    /// inserted, so a quoted value's range maps to the value as written.
    pub fn original(&self, repaired: usize) -> usize {
        let index = self
            .insertions
            .partition_point(|(start, _, _)| *start <= repaired);
        match index.checked_sub(1).map(|index| self.insertions[index]) {
            None => repaired,
            Some((start, length, before)) if repaired < start + length => start - before,
            Some((_, length, before)) => repaired - before - length,
        }
    }

    pub fn range(&self, range: TextRange) -> TextRange {
        TextRange::new(self.original(range.start()), self.original(range.end()))
    }
}

/// The whole text with the colon lines quoted, and the map back; `None` when there is nothing to quote
/// or a value's quoted spelling is not the value with characters inserted.
pub fn quote_colon_lines(source: &str, lines: &[ColonLine]) -> Option<(String, OffsetMap)> {
    if lines.is_empty() {
        return None;
    }
    let mut repaired = String::with_capacity(source.len() + lines.len() * 4);
    let mut map = OffsetMap::default();
    let mut at = 0;
    for line in lines {
        repaired.push_str(source.get(at..line.value.start())?);
        let value = line.value.slice(source);
        let quoted = double_quoted(value);
        // Align the quoted spelling with the value: every character of the value must appear in order,
        // everything else is an insertion.
        let mut pending = value.chars().peekable();
        for character in quoted.chars() {
            if pending.peek() == Some(&character) {
                pending.next();
            } else {
                map.insert(repaired.len(), character.len_utf8());
            }
            repaired.push(character);
        }
        if pending.next().is_some() {
            return None;
        }
        at = line.value.end();
    }
    repaired.push_str(source.get(at..)?);
    Some((repaired, map))
}

/// The frontmatter parsed after quoting its colon lines, with every range in the original text; `None`
/// when there is nothing to quote or the repaired text still fails.
pub fn parse_repaired(source: &str, lines: &SourceLines, layout: &Layout) -> Option<Option<Node>> {
    let (repaired, map) = quote_colon_lines(source, &colon_lines(source, lines, layout))?;
    let yaml_range = TextRange::new(layout.yaml.start(), layout.yaml.end() + map.inserted());
    let root = yaml::parse(&repaired, yaml_range).ok()?;
    Some(root.map(|mut root| {
        restore(&mut root, source, &map);
        root
    }))
}

/// Moves a repaired node's ranges to the original text; a value the repair quoted is plain again.
fn restore(node: &mut Node, source: &str, map: &OffsetMap) {
    node.range = map.range(node.range);
    match &mut node.value {
        Value::Scalar { style, .. } => {
            if *style == Style::DoubleQuoted && !node.range.slice(source).starts_with('"') {
                *style = Style::Plain;
            }
        }
        Value::Sequence { items, .. } => {
            for item in items {
                restore(item, source, map);
            }
        }
        Value::Mapping { entries, .. } => {
            for entry in entries {
                restore(&mut entry.key, source, map);
                restore(&mut entry.value, source, map);
            }
        }
        Value::Alias { .. } => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn repaired(source: &str) -> Option<Node> {
        let layout = yaml::layout(source).ok()?;
        parse_repaired(source, &SourceLines::new(source), &layout)?
    }

    #[test]
    fn offsets_inside_and_after_insertions_map_back() {
        let mut map = OffsetMap::default();
        map.insert(3, 1); // `"` before original 3
        map.insert(6, 1); // `\` before original 5
        assert_eq!(map.original(2), 2);
        assert_eq!(map.original(3), 3);
        assert_eq!(map.original(4), 3);
        assert_eq!(map.original(6), 5);
        assert_eq!(map.original(7), 5);
        assert_eq!(map.original(9), 7);
    }

    #[test]
    fn repaired_ranges_point_at_the_text_as_written() {
        let source =
            "---\nname: a\ndescription: Say \"hi\": then \\ go # x\nmetadata:\n  k: v\n---\n";
        let root = repaired(source).expect("repairs");
        let description = root.get("description").expect("description");
        assert_eq!(
            description.value.range.slice(source),
            "Say \"hi\": then \\ go # x"
        );
        assert_eq!(
            description.value.as_scalar(),
            Some(("Say \"hi\": then \\ go # x", Style::Plain))
        );
        let metadata = root.get("metadata").expect("metadata");
        let inner = metadata.value.get("k").expect("k");
        assert_eq!(inner.key.range.slice(source), "k");
        assert_eq!(inner.value.range.slice(source), "v");
    }

    #[test]
    fn nothing_to_quote_means_no_repair() {
        assert!(repaired("---\nname: [a\n---\n").is_none());
    }
}
