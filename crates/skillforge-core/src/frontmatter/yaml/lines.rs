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

impl SourceLines {
    /// The UTF-16 offset where a 0-based line starts (the text's length past the last line).
    fn line_start_utf16(&self, text: &str, line: usize) -> usize {
        if self.ascii_lines.is_empty() {
            return self.line_start(line).unwrap_or(self.len);
        }
        match self.line_starts_utf16.get(line) {
            Some(start) => *start,
            None => {
                self.line_starts_utf16.last().copied().unwrap_or(0) + last_line_utf16(self, text)
            }
        }
    }

    /// The UTF-16 offset where a 0-based line's text ends, before its line break.
    fn line_end_utf16(&self, text: &str, line: usize) -> usize {
        let range = self.line_range(text, line);
        let start = self.line_start_utf16(text, line);
        let ascii =
            self.ascii_lines.is_empty() || self.ascii_lines.get(line).copied().unwrap_or(true);
        start
            + if ascii {
                range.len()
            } else {
                range.slice(text).encode_utf16().count()
            }
    }

    /// The UTF-16 length of the text.
    fn len_utf16(&self, text: &str) -> usize {
        let last = self.line_count() - 1;
        self.line_start_utf16(text, last) + last_line_utf16(self, text)
    }

    /// The 0-based line and UTF-16 column of a UTF-16 offset, as the Language Server Protocol counts them.
    /// An offset past the text is its end; one inside a line break, the end of that line.
    pub fn line_column_utf16(&self, text: &str, offset_utf16: usize) -> (usize, usize) {
        let offset = offset_utf16.min(self.len_utf16(text));
        let line = if self.ascii_lines.is_empty() {
            self.line_of(offset)
        } else {
            match self.line_starts_utf16.binary_search(&offset) {
                Ok(line) => line,
                Err(next) => next.saturating_sub(1),
            }
        };
        let column =
            offset.min(self.line_end_utf16(text, line)) - self.line_start_utf16(text, line);
        (line, column)
    }

    /// The UTF-16 offset of a 0-based line and UTF-16 column: a column past the line's end is its end
    /// (before the line break), a line past the last is the end of the text.
    pub fn offset_utf16_at(&self, text: &str, line: usize, column_utf16: usize) -> usize {
        if line >= self.line_count() {
            return self.len_utf16(text);
        }
        self.line_start_utf16(text, line)
            .saturating_add(column_utf16)
            .min(self.line_end_utf16(text, line))
    }
}

/// The UTF-16 length of the last line (it has no line break).
fn last_line_utf16(lines: &SourceLines, text: &str) -> usize {
    let start = lines.line_start(lines.line_count() - 1).unwrap_or(0);
    let rest = text.get(start..).unwrap_or("");
    if rest.is_ascii() {
        rest.len()
    } else {
        rest.encode_utf16().count()
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
    fn utf16_lines_and_columns_round_trip_over_every_line_break_and_wide_characters() {
        let text = "a\r\nb😀c\rd\n\ne";
        let lines = SourceLines::new(text);
        assert_eq!(lines.line_column_utf16(text, 0), (0, 0));
        assert_eq!(lines.line_column_utf16(text, 3), (1, 0));
        // After the surrogate pair: column 3 in UTF-16 units.
        assert_eq!(lines.line_column_utf16(text, 6), (1, 3));
        assert_eq!(lines.line_column_utf16(text, 8), (2, 0));
        assert_eq!(lines.line_column_utf16(text, 11), (4, 0));
        for offset in [0, 1, 3, 4, 6, 7, 8, 9, 10, 11, 12] {
            let (line, column) = lines.line_column_utf16(text, offset);
            assert_eq!(
                lines.offset_utf16_at(text, line, column),
                offset,
                "offset {offset}"
            );
        }
        // Inside `\r\n`: the end of the line; past the text: its end.
        assert_eq!(lines.line_column_utf16(text, 2), (0, 1));
        assert_eq!(lines.line_column_utf16(text, 99), (4, 1));
        // Past a line's end or past the text: clamped, never onto another line.
        assert_eq!(lines.offset_utf16_at(text, 0, 40), 1);
        assert_eq!(lines.offset_utf16_at(text, 40, 0), 12);
        assert_eq!(lines.offset_utf16_at(text, 3, usize::MAX), 10);
        // An ASCII text answers the same way without decoding.
        let ascii = "ab\r\ncd\ref";
        let lines = SourceLines::new(ascii);
        assert_eq!(lines.line_column_utf16(ascii, 5), (1, 1));
        assert_eq!(lines.offset_utf16_at(ascii, 2, 9), 9);
        assert_eq!(lines.line_column_utf16(ascii, 3), (0, 2));
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
