//! LSP positions (line, UTF-16 column) against the engine's UTF-16 offsets, through the engine's line
//! index: lines end at `\n`, `\r\n` or `\r`, as the protocol says and as YAML reads them.

use lsp_types::{Position, Range};
use skillforge_core::frontmatter::yaml::lines::SourceLines;

/// A text's lines, for LSP positions: the engine's one line index, with the text it was built from.
pub struct LineIndex {
    lines: SourceLines,
    text: String,
}

fn saturating_u32(value: usize) -> u32 {
    u32::try_from(value).unwrap_or(u32::MAX)
}

impl LineIndex {
    pub fn new(text: &str) -> Self {
        Self {
            lines: SourceLines::new(text),
            text: text.to_string(),
        }
    }

    /// The position of a UTF-16 offset (clamped to the text).
    pub fn position(&self, offset: u32) -> Position {
        let (line, column) = self.lines.line_column_utf16(&self.text, offset as usize);
        Position::new(saturating_u32(line), saturating_u32(column))
    }

    pub fn range(&self, from: u32, to: u32) -> Range {
        Range::new(self.position(from), self.position(to))
    }

    /// The UTF-16 offset of a position; a column past the line's end means its end, a line past the
    /// last means the end of the text (as the protocol asks of servers).
    pub fn offset(&self, position: Position) -> u32 {
        saturating_u32(self.lines.offset_utf16_at(
            &self.text,
            position.line as usize,
            position.character as usize,
        ))
    }

    pub fn line_count(&self) -> usize {
        self.lines.line_count()
    }
}

/// The byte offset in `text` of a UTF-16 offset (at the character boundary at or before it).
pub fn byte_offset(text: &str, utf16: u32) -> usize {
    let mut units = 0u32;
    for (index, c) in text.char_indices() {
        if units >= utf16 {
            return index;
        }
        units += c.len_utf16() as u32;
        if units > utf16 {
            return index;
        }
    }
    text.len()
}

/// The UTF-16 offset of a byte offset in `text`.
pub fn utf16_offset(text: &str, byte: usize) -> u32 {
    text[..byte.min(text.len())]
        .chars()
        .map(|c| c.len_utf16() as u32)
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_round_trip_over_every_line_break_and_wide_characters() {
        let text = "a\r\nb😀c\rd\n\ne";
        let index = LineIndex::new(text);
        assert_eq!(index.line_count(), 5);
        assert_eq!(index.position(0), Position::new(0, 0));
        assert_eq!(index.position(3), Position::new(1, 0));
        // After the surrogate pair: column 3 in UTF-16 units.
        assert_eq!(index.position(6), Position::new(1, 3));
        assert_eq!(index.position(8), Position::new(2, 0));
        assert_eq!(index.position(11), Position::new(4, 0));
        for offset in [0, 1, 3, 4, 6, 7, 8, 9, 10, 11, 12] {
            assert_eq!(
                index.offset(index.position(offset)),
                offset,
                "offset {offset}"
            );
        }
        // Inside `\r\n`: the end of the line.
        assert_eq!(index.position(2), Position::new(0, 1));
        // Past a line's end or past the text: clamped.
        assert_eq!(index.offset(Position::new(0, 40)), 1);
        assert_eq!(index.offset(Position::new(40, 0)), 12);
        // A column at the limit of the type: the line's end, never a wrap onto another line.
        assert_eq!(index.offset(Position::new(3, u32::MAX)), 10);
    }

    #[test]
    fn byte_and_utf16_offsets_agree() {
        let text = "é😀x";
        assert_eq!(utf16_offset(text, text.len()), 4);
        assert_eq!(byte_offset(text, 1), 2);
        assert_eq!(byte_offset(text, 3), 6);
        // Between the halves of the pair: the character's start.
        assert_eq!(byte_offset(text, 2), 2);
        assert_eq!(byte_offset(text, 9), text.len());
    }
}
