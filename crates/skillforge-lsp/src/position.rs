//! LSP positions (line, UTF-16 column) against the engine's UTF-16 offsets. Lines end at `\n`, `\r\n`
//! or `\r`, as the protocol says.

use lsp_types::{Position, Range};

/// Where each line of a text starts, in UTF-16 units, and its length.
pub struct LineIndex {
    /// UTF-16 offset of each line's first unit.
    starts: Vec<u32>,
    /// UTF-16 offset of each line's end (before its line break).
    ends: Vec<u32>,
    length: u32,
}

impl LineIndex {
    pub fn new(text: &str) -> Self {
        let mut starts = vec![0];
        let mut ends = Vec::new();
        let mut offset: u32 = 0;
        let mut chars = text.chars().peekable();
        while let Some(c) = chars.next() {
            match c {
                '\r' => {
                    ends.push(offset);
                    offset += 1;
                    if chars.peek() == Some(&'\n') {
                        chars.next();
                        offset += 1;
                    }
                    starts.push(offset);
                }
                '\n' => {
                    ends.push(offset);
                    offset += 1;
                    starts.push(offset);
                }
                c => offset += c.len_utf16() as u32,
            }
        }
        ends.push(offset);
        Self {
            starts,
            ends,
            length: offset,
        }
    }

    /// The position of a UTF-16 offset (clamped to the text).
    pub fn position(&self, offset: u32) -> Position {
        let offset = offset.min(self.length);
        let line = self.starts.partition_point(|start| *start <= offset) - 1;
        // An offset inside a `\r\n` pair counts as the end of its line.
        let column = offset.min(self.ends[line]) - self.starts[line];
        Position::new(line as u32, column)
    }

    pub fn range(&self, from: u32, to: u32) -> Range {
        Range::new(self.position(from), self.position(to))
    }

    /// The UTF-16 offset of a position; a column past the line's end means its end, a line past the
    /// last means the end of the text (as the protocol asks of servers).
    pub fn offset(&self, position: Position) -> u32 {
        let line = position.line as usize;
        if line >= self.starts.len() {
            return self.length;
        }
        self.starts[line]
            .saturating_add(position.character)
            .min(self.ends[line])
    }

    pub fn line_count(&self) -> usize {
        self.starts.len()
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
