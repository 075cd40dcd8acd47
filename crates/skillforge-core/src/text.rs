//! Byte ranges into a whole SKILL.md and the one line index that turns them into positions.
//!
//! Every diagnostic points into the file as the author saved it, so the CLI, the editor and SARIF viewers
//! agree on where a problem is. Editors disagree on units: terminals and SARIF count lines and UTF-8
//! characters, CodeMirror counts UTF-16 code units. The index answers in all of them from one scan.

use serde::{Deserialize, Serialize};

/// A half-open byte range `start..end` into the whole file.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default, Serialize, Deserialize,
)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct TextRange {
    pub start: u32,
    pub end: u32,
}

impl TextRange {
    /// A range from two byte offsets; a reversed pair is normalised rather than trusted.
    pub fn new(start: usize, end: usize) -> Self {
        let (low, high) = if start <= end {
            (start, end)
        } else {
            (end, start)
        };
        Self {
            start: clamp_u32(low),
            end: clamp_u32(high),
        }
    }

    /// An empty range at one offset, for "something is missing here" findings.
    pub fn empty(at: usize) -> Self {
        Self::new(at, at)
    }

    pub fn start(self) -> usize {
        self.start as usize
    }

    pub fn end(self) -> usize {
        self.end as usize
    }

    pub fn len(self) -> usize {
        self.end().saturating_sub(self.start())
    }

    pub fn is_empty(self) -> bool {
        self.start == self.end
    }

    /// Shifts a range that was measured inside a slice starting at `offset`.
    pub fn shifted(self, offset: usize) -> Self {
        Self::new(self.start() + offset, self.end() + offset)
    }

    pub fn contains_range(self, other: TextRange) -> bool {
        self.start <= other.start && other.end <= self.end
    }

    /// The text under the range, or `""` when the range does not fall on character boundaries.
    pub fn slice(self, text: &str) -> &str {
        text.get(self.start()..self.end()).unwrap_or("")
    }
}

// Files above 4 GiB are refused long before linting; saturating keeps the type small without a panic path.
fn clamp_u32(value: usize) -> u32 {
    u32::try_from(value).unwrap_or(u32::MAX)
}

/// One position, in every unit a consumer may need. Lines and columns are 1-based, as editors show them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct Position {
    /// 1-based line number.
    pub line: u32,
    /// 1-based column counted in Unicode scalar values (what terminals and SARIF show).
    pub column: u32,
    /// 1-based column counted in UTF-16 code units.
    pub column_utf16: u32,
    /// Offset from the start of the file in UTF-16 code units (what CodeMirror takes directly).
    pub offset_utf16: u32,
}

/// Start and end of a range as positions.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct Span {
    pub start: Position,
    pub end: Position,
}

/// Line starts of one text plus, per line, whether it is pure ASCII (then all units coincide and no
/// character has to be decoded to answer).
#[derive(Debug, Clone)]
pub struct LineIndex {
    line_starts: Vec<usize>,
    /// UTF-16 offset of each line start, so a position needs only its own line decoded.
    line_starts_utf16: Vec<usize>,
    ascii_lines: Vec<bool>,
    len: usize,
}

impl LineIndex {
    pub fn new(text: &str) -> Self {
        let mut line_starts = vec![0];
        let mut line_starts_utf16 = vec![0];
        let mut ascii_lines = Vec::new();
        let mut utf16 = 0usize;
        // Line by line on bytes: `is_ascii` and `\n` search are vectorised, and only non-ASCII lines are decoded.
        let mut start = 0;
        loop {
            let rest = text.get(start..).unwrap_or("");
            let (line, next) = match rest.as_bytes().iter().position(|byte| *byte == b'\n') {
                Some(newline) => (&rest[..=newline], Some(start + newline + 1)),
                None => (rest, None),
            };
            let ascii = line.is_ascii();
            utf16 += if ascii {
                line.len()
            } else {
                line.encode_utf16().count()
            };
            ascii_lines.push(ascii);
            match next {
                Some(next) => {
                    line_starts.push(next);
                    line_starts_utf16.push(utf16);
                    start = next;
                }
                None => break,
            }
        }
        Self {
            line_starts,
            line_starts_utf16,
            ascii_lines,
            len: text.len(),
        }
    }

    /// Number of lines; a trailing newline opens an empty last line, as editors count it.
    pub fn line_count(&self) -> usize {
        self.line_starts.len()
    }

    /// Byte offset where a 0-based line starts.
    pub fn line_start(&self, line: usize) -> Option<usize> {
        self.line_starts.get(line).copied()
    }

    /// The 0-based line holding a byte offset.
    pub fn line_of(&self, offset: usize) -> usize {
        let offset = offset.min(self.len);
        match self.line_starts.binary_search(&offset) {
            Ok(line) => line,
            Err(next) => next.saturating_sub(1),
        }
    }

    /// The position of a byte offset. `text` must be the text the index was built from; an offset inside a
    /// character is moved back to that character's start instead of failing.
    pub fn position(&self, text: &str, offset: usize) -> Position {
        let mut offset = offset.min(self.len).min(text.len());
        while offset > 0 && !text.is_char_boundary(offset) {
            offset -= 1;
        }
        let line = self.line_of(offset);
        let line_start = self.line_starts.get(line).copied().unwrap_or(0);
        let line_start_utf16 = self.line_starts_utf16.get(line).copied().unwrap_or(0);
        let (chars, utf16) = if self.ascii_lines.get(line).copied().unwrap_or(false) {
            let width = offset - line_start;
            (width, width)
        } else {
            let prefix = text.get(line_start..offset).unwrap_or("");
            (prefix.chars().count(), prefix.encode_utf16().count())
        };
        Position {
            line: clamp_u32(line + 1),
            column: clamp_u32(chars + 1),
            column_utf16: clamp_u32(utf16 + 1),
            offset_utf16: clamp_u32(line_start_utf16 + utf16),
        }
    }

    pub fn span(&self, text: &str, range: TextRange) -> Span {
        Span {
            start: self.position(text, range.start()),
            end: self.position(text, range.end()),
        }
    }

    /// The byte range of a 0-based line without its line terminator (`\n` or `\r\n`).
    pub fn line_range(&self, text: &str, line: usize) -> TextRange {
        let start = self.line_start(line).unwrap_or(self.len);
        let mut end = self.line_start(line + 1).unwrap_or(self.len);
        let bytes = text.as_bytes();
        if end > start && bytes.get(end - 1) == Some(&b'\n') {
            end -= 1;
        }
        if end > start && bytes.get(end - 1) == Some(&b'\r') {
            end -= 1;
        }
        TextRange::new(start, end)
    }
}

/// Maps character indexes (what the YAML scanner counts) to byte offsets within one slice.
#[derive(Debug, Clone)]
pub struct CharToByte {
    /// Byte offset of every character, plus the slice length as a sentinel; empty when the slice is ASCII.
    offsets: Vec<usize>,
    len: usize,
}

impl CharToByte {
    pub fn new(text: &str) -> Self {
        let offsets = if text.is_ascii() {
            Vec::new()
        } else {
            text.char_indices()
                .map(|(offset, _)| offset)
                .chain(std::iter::once(text.len()))
                .collect()
        };
        Self {
            offsets,
            len: text.len(),
        }
    }

    pub fn byte(&self, char_index: usize) -> usize {
        if self.offsets.is_empty() {
            char_index.min(self.len)
        } else {
            self.offsets.get(char_index).copied().unwrap_or(self.len)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_count_utf8_and_utf16_separately() {
        let text = "ab\né😀x\n";
        let index = LineIndex::new(text);
        let x = text.find('x').unwrap_or_default();
        let position = index.position(text, x);
        assert_eq!(position.line, 2);
        assert_eq!(position.column, 3);
        assert_eq!(position.column_utf16, 4);
        assert_eq!(position.offset_utf16, 3 + 3);
    }

    #[test]
    fn offsets_past_the_end_or_inside_a_character_do_not_panic() {
        let text = "é";
        let index = LineIndex::new(text);
        assert_eq!(index.position(text, 1).column, 1);
        assert_eq!(index.position(text, 99).column, 2);
        assert_eq!(index.line_count(), 1);
    }

    #[test]
    fn line_range_drops_crlf() {
        let text = "a\r\nb";
        let index = LineIndex::new(text);
        assert_eq!(index.line_range(text, 0), TextRange::new(0, 1));
        assert_eq!(index.line_range(text, 1), TextRange::new(3, 4));
    }

    #[test]
    fn char_to_byte_handles_multibyte() {
        let map = CharToByte::new("aé b");
        assert_eq!(map.byte(2), 3);
        assert_eq!(map.byte(10), 5);
    }
}
