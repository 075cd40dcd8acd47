//! The lines of a SKILL.md as YAML 1.2 and CommonMark read them: a line ends at LF, at CRLF, or at a
//! carriage return on its own (classic Mac OS endings, or a stray `\r` in a file with mixed endings).
//!
//! The frontmatter split, every rule that looks at lines and every line and column a diagnostic shows use
//! this one model, so a file whose lines end in a lone `\r` is read exactly as a YAML parser reads it
//! instead of as one long line. The editor's UTF-16 offsets come from here too.

use crate::text::{Position, Span, TextRange};

/// Length of the line break starting at `at` (2 for CRLF, 1 for LF or a lone CR), or 0 when there is none.
pub fn break_len(bytes: &[u8], at: usize) -> usize {
    match bytes.get(at) {
        Some(b'\n') => 1,
        Some(b'\r') if bytes.get(at + 1) == Some(&b'\n') => 2,
        Some(b'\r') => 1,
        _ => 0,
    }
}

/// Offset of the next line break at or after `from`, or `None`.
pub fn next_break(bytes: &[u8], from: usize) -> Option<usize> {
    bytes
        .get(from..)?
        .iter()
        .position(|byte| *byte == b'\n' || *byte == b'\r')
        .map(|offset| from + offset)
}

/// Offsets of every carriage return that ends a line on its own (not followed by LF).
pub fn lone_carriage_returns(text: &str) -> impl Iterator<Item = usize> + '_ {
    let bytes = text.as_bytes();
    text.match_indices('\r')
        .map(|(at, _)| at)
        .filter(move |at| bytes.get(at + 1) != Some(&b'\n'))
}

/// Line starts of one text plus, per line, whether it is pure ASCII (then all column units coincide and no
/// character has to be decoded to answer).
#[derive(Debug, Clone)]
pub struct SourceLines {
    line_starts: Vec<usize>,
    /// UTF-16 offset of each line start, so a position needs only its own line decoded; empty when the
    /// whole text is ASCII (then every unit is a byte and the line starts serve).
    line_starts_utf16: Vec<usize>,
    /// Per line, whether it is ASCII; empty when the whole text is.
    ascii_lines: Vec<bool>,
    len: usize,
}

impl SourceLines {
    pub fn new(text: &str) -> Self {
        let bytes = text.as_bytes();
        // Most files are ASCII and have no `\r`: then only the line starts are kept, and `find('\n')` (a
        // vectorised byte search) finds every break.
        let all_ascii = text.is_ascii();
        let has_carriage_return = text.contains('\r');
        let mut line_starts = Vec::with_capacity(text.len() / 32 + 2);
        line_starts.push(0);
        let mut line_starts_utf16 = Vec::new();
        let mut ascii_lines = Vec::new();
        if !all_ascii {
            line_starts_utf16.push(0);
        }
        let mut utf16 = 0usize;
        let mut start = 0;
        loop {
            let found = if has_carriage_return {
                next_break(bytes, start)
            } else {
                text.get(start..)
                    .and_then(|rest| rest.find('\n'))
                    .map(|offset| start + offset)
            };
            let (line_end, next) = match found {
                Some(at) => (at + break_len(bytes, at), Some(at + break_len(bytes, at))),
                None => (bytes.len(), None),
            };
            if !all_ascii {
                let line = text.get(start..line_end).unwrap_or("");
                let ascii = line.is_ascii();
                utf16 += if ascii {
                    line.len()
                } else {
                    line.encode_utf16().count()
                };
                ascii_lines.push(ascii);
            }
            match next {
                Some(next) => {
                    line_starts.push(next);
                    if !all_ascii {
                        line_starts_utf16.push(utf16);
                    }
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

    /// Number of lines; a trailing line break opens an empty last line, as editors count it.
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
        let all_ascii = self.ascii_lines.is_empty();
        let line_start_utf16 = if all_ascii {
            line_start
        } else {
            self.line_starts_utf16.get(line).copied().unwrap_or(0)
        };
        let (chars, utf16) = if all_ascii || self.ascii_lines.get(line).copied().unwrap_or(false) {
            let width = offset - line_start;
            (width, width)
        } else {
            let prefix = text.get(line_start..offset).unwrap_or("");
            (prefix.chars().count(), prefix.encode_utf16().count())
        };
        Position {
            line: saturating_u32(line + 1),
            column: saturating_u32(chars + 1),
            column_utf16: saturating_u32(utf16 + 1),
            offset_utf16: saturating_u32(line_start_utf16 + utf16),
        }
    }

    pub fn span(&self, text: &str, range: TextRange) -> Span {
        Span {
            start: self.position(text, range.start()),
            end: self.position(text, range.end()),
        }
    }

    /// The byte range of a 0-based line without its line break.
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

fn saturating_u32(value: usize) -> u32 {
    u32::try_from(value).unwrap_or(u32::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn starts(text: &str) -> Vec<usize> {
        let lines = SourceLines::new(text);
        (0..lines.line_count())
            .filter_map(|line| lines.line_start(line))
            .collect()
    }

    #[test]
    fn positions_count_utf8_and_utf16_separately() {
        let text = "ab\né😀x\n";
        let index = SourceLines::new(text);
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
        let index = SourceLines::new(text);
        assert_eq!(index.position(text, 1).column, 1);
        assert_eq!(index.position(text, 99).column, 2);
        assert_eq!(index.line_count(), 1);
    }

    #[test]
    fn lf_crlf_and_a_lone_cr_each_end_one_line() {
        assert_eq!(starts("a\nb\r\nc\rd"), [0, 2, 5, 7]);
        // `\r\r\n` is a lone CR and then a CRLF: two line breaks, as YAML reads it.
        assert_eq!(starts("a\r\r\nb"), [0, 2, 4]);
        assert_eq!(starts("a\r"), [0, 2]);
        assert_eq!(starts(""), [0]);
    }

    #[test]
    fn line_ranges_drop_every_kind_of_break() {
        let text = "ab\r\ncd\ref\n\r";
        let lines = SourceLines::new(text);
        let ranges: Vec<&str> = (0..lines.line_count())
            .map(|line| lines.line_range(text, line).slice(text))
            .collect();
        assert_eq!(ranges, ["ab", "cd", "ef", "", ""]);
    }

    #[test]
    fn positions_on_cr_only_lines_count_utf8_and_utf16() {
        let text = "ab\ré😀x\r";
        let lines = SourceLines::new(text);
        let x = text.find('x').unwrap_or_default();
        let position = lines.position(text, x);
        assert_eq!(
            (position.line, position.column, position.column_utf16),
            (2, 3, 4)
        );
        assert_eq!(position.offset_utf16, 3 + 3);
        assert_eq!(lines.position(text, 99).line, 3);
    }

    #[test]
    fn ascii_and_non_ascii_texts_give_the_same_positions_for_ascii_lines() {
        for text in ["ab\ncd\r\nef\rgh", "ab\ncd\r\nef\rgh\né"] {
            let lines = SourceLines::new(text);
            let g = text.find('g').unwrap_or_default();
            let position = lines.position(text, g);
            assert_eq!(
                (position.line, position.column, position.offset_utf16),
                (4, 1, 10)
            );
        }
    }

    #[test]
    fn lone_carriage_returns_skip_crlf() {
        let found: Vec<usize> = lone_carriage_returns("a\r\nb\rc\r\r\n").collect();
        assert_eq!(found, [4, 6]);
    }
}
