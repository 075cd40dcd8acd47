//! Byte ranges into a whole SKILL.md and the one line index that turns them into positions.
//!
//! Every diagnostic points into the file as the author saved it, so the CLI, the editor and SARIF viewers
//! agree on where a problem is. Editors disagree on units: terminals and SARIF count lines and UTF-8
//! characters, CodeMirror counts UTF-16 code units. The index answers in all of them from one scan.
//!
//! Also the one token estimate every client's listing and every request message is measured with.

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

/// Bytes per estimated token.
pub const BYTES_PER_TOKEN: usize = 4;

/// The token estimate the peers show and budget by: ceil(UTF-8 bytes / 4), not a tokenizer.
pub fn estimate_skill_tokens(content: &str) -> u64 {
    (content.len() as u64).div_ceil(BYTES_PER_TOKEN as u64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn estimates_round_up() {
        assert_eq!(estimate_skill_tokens(""), 0);
        assert_eq!(estimate_skill_tokens("abcd"), 1);
        assert_eq!(estimate_skill_tokens("abcde"), 2);
        assert_eq!(estimate_skill_tokens("é"), 1);
    }

    #[test]
    fn char_to_byte_handles_multibyte() {
        let map = CharToByte::new("aé b");
        assert_eq!(map.byte(2), 3);
        assert_eq!(map.byte(10), 5);
    }
}

/// The bytes as text with each invalid sequence replaced by U+FFFD, as the JavaScript and Rust clients
/// decode a file. Valid UTF-8 (nearly every SKILL.md) takes the standard library's fast validation
/// instead of the lossy decoder's byte-by-byte walk.
pub fn decode_lossy(bytes: &[u8]) -> std::borrow::Cow<'_, str> {
    match std::str::from_utf8(bytes) {
        Ok(text) => std::borrow::Cow::Borrowed(text),
        Err(_) => String::from_utf8_lossy(bytes),
    }
}

#[cfg(test)]
mod decode_tests {
    use super::decode_lossy;

    #[test]
    fn valid_text_is_borrowed_and_invalid_bytes_become_replacement_characters() {
        assert!(matches!(
            decode_lossy("café".as_bytes()),
            std::borrow::Cow::Borrowed("café")
        ));
        assert_eq!(decode_lossy(b"caf\xe9 ok"), "caf\u{FFFD} ok");
    }
}
