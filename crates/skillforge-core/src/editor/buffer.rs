//! The text of a buffer open in the editor, kept by the engine's client so that a keystroke sends only
//! its change. Versions guard the copy: a change made to another version than the one held is refused,
//! and the editor sends the whole text again.

use std::path::{Path, PathBuf};

use serde::Serialize;

use super::{BufferLint, EditorEdit};
use crate::frontmatter::yaml;
use crate::lint::context::{Placement, SkillFile};

/// One open buffer: its text as the editor has it, and the version of that text.
#[derive(Debug, Clone)]
pub struct EditorBuffer {
    file: SkillFile,
    version: u32,
    /// What the workspace facts in `file.placement` were computed from.
    placed_for: Option<PlacementKey>,
}

/// Why a change was not applied; the buffer is left as it was.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BufferError {
    #[error("the buffer is at version {current}, but the change was made to version {given}")]
    VersionMismatch { current: u32, given: u32 },
    #[error(
        "change {index} ({from}..{to}) does not fit the text ({length} UTF-16 units) or overlaps the change before it"
    )]
    OutOfRange {
        index: usize,
        from: u32,
        to: u32,
        length: usize,
    },
    #[error("change {index}: offset {offset} falls between the two halves of a character")]
    InsideCharacter { index: usize, offset: u32 },
}

/// What the editor hears back after opening or editing a buffer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum BufferAnswer {
    /// The buffer holds `version` now; the findings are about that text.
    Linted { version: u32, lint: BufferLint },
    /// The buffer is not at the version the change was made to, or the change does not fit its text:
    /// nothing was applied, and the editor should send its whole text again.
    Resend { message: String },
}

impl EditorBuffer {
    /// A buffer holding `text`, at version 0.
    pub fn new(path: PathBuf, text: String) -> Self {
        let display_path = path.display().to_string();
        let mut file = SkillFile::from_bytes(path, display_path, Vec::new());
        file.source = text;
        Self {
            file,
            version: 0,
            placed_for: None,
        }
    }

    pub fn path(&self) -> &Path {
        &self.file.path
    }

    pub fn text(&self) -> &str {
        &self.file.source
    }

    pub fn version(&self) -> u32 {
        self.version
    }

    /// The buffer's workspace facts (duplicate names, nesting) as of its last lint.
    pub fn placement(&self) -> &Placement {
        &self.file.placement
    }

    pub(super) fn file(&self) -> &SkillFile {
        &self.file
    }

    /// Applies `changes`, made to the text at `version`, and returns the new version. The changes are in
    /// UTF-16 offsets of that text (as CodeMirror's `ChangeSet.iterChanges` gives them: ascending and not
    /// overlapping), so they do not shift each other.
    pub fn apply(&mut self, version: u32, changes: &[EditorEdit]) -> Result<u32, BufferError> {
        if version != self.version {
            return Err(BufferError::VersionMismatch {
                current: self.version,
                given: version,
            });
        }
        let ranges = byte_ranges(&self.file.source, changes)?;
        let text = &mut self.file.source;
        if let [(range, change)] = ranges.as_slice() {
            // A keystroke: one move of the text after it, no new allocation.
            text.replace_range(range.clone(), &change.insert);
        } else if !ranges.is_empty() {
            let inserted: usize = changes.iter().map(|change| change.insert.len()).sum();
            let mut edited = String::with_capacity(text.len() + inserted);
            let mut kept = 0;
            for (range, change) in &ranges {
                edited.push_str(&text[kept..range.start]);
                edited.push_str(&change.insert);
                kept = range.end;
            }
            edited.push_str(&text[kept..]);
            *text = edited;
        }
        self.version = self.version.wrapping_add(1);
        Ok(self.version)
    }

    pub(super) fn needs_placing(&self, key: &PlacementKey) -> bool {
        self.placed_for.as_ref() != Some(key)
    }

    pub(super) fn placed(&mut self, key: PlacementKey, display_path: String, placement: Placement) {
        self.file.display_path = display_path;
        self.file.placement = placement;
        self.placed_for = Some(key);
    }
}

/// What a buffer's workspace facts depend on: the workspace snapshot, and the frontmatter block (the
/// declared name). The body plays no part, so editing it keeps them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct PlacementKey {
    session: u64,
    /// The text up to the end of the frontmatter's closing line; `None` without a frontmatter block.
    frontmatter: Option<String>,
}

impl PlacementKey {
    pub(super) fn of(session: u64, source: &str) -> Self {
        let frontmatter = yaml::layout(source)
            .ok()
            .and_then(|layout| source.get(..layout.body.start()))
            .map(str::to_string);
        Self {
            session,
            frontmatter,
        }
    }
}

/// The byte ranges of `changes` in `text`, found in one pass from the start.
fn byte_ranges<'a>(
    text: &str,
    changes: &'a [EditorEdit],
) -> Result<Vec<(std::ops::Range<usize>, &'a EditorEdit)>, BufferError> {
    let mut cursor = Utf16Cursor::new(text);
    let mut ranges = Vec::with_capacity(changes.len());
    let mut previous_end = 0;
    for (index, change) in changes.iter().enumerate() {
        let out_of_range = || BufferError::OutOfRange {
            index,
            from: change.from,
            to: change.to,
            // For the message only: decoding the whole text happens just on this error path.
            length: text.encode_utf16().count(),
        };
        if change.from > change.to || change.from < previous_end {
            return Err(out_of_range());
        }
        previous_end = change.to;
        let mut seek = |offset: u32| match cursor.seek(offset as usize) {
            Seek::Found(byte) => Ok(byte),
            Seek::PastEnd => Err(out_of_range()),
            Seek::InsideCharacter => Err(BufferError::InsideCharacter { index, offset }),
        };
        let start = seek(change.from)?;
        let end = seek(change.to)?;
        ranges.push((start..end, change));
    }
    Ok(ranges)
}

enum Seek {
    Found(usize),
    PastEnd,
    InsideCharacter,
}

/// Walks a text forward, translating UTF-16 offsets to byte offsets. ASCII stretches (most of a
/// SKILL.md) are skipped a block at a time; only blocks with other characters are decoded.
struct Utf16Cursor<'a> {
    text: &'a str,
    byte: usize,
    unit: usize,
}

const BLOCK: usize = 64;

impl<'a> Utf16Cursor<'a> {
    fn new(text: &'a str) -> Self {
        Self {
            text,
            byte: 0,
            unit: 0,
        }
    }

    /// Moves to `target` (not before the current offset) and returns its byte offset.
    fn seek(&mut self, target: usize) -> Seek {
        let bytes = self.text.as_bytes();
        while self.unit < target {
            let wanted = target - self.unit;
            let block = &bytes[self.byte..bytes.len().min(self.byte + wanted.min(BLOCK))];
            if block.is_empty() {
                return Seek::PastEnd;
            }
            if block.is_ascii() {
                self.byte += block.len();
                self.unit += block.len();
                continue;
            }
            let Some(character) = self.text[self.byte..].chars().next() else {
                return Seek::PastEnd;
            };
            let width = character.len_utf16();
            if self.unit + width > target {
                return Seek::InsideCharacter;
            }
            self.byte += character.len_utf8();
            self.unit += width;
        }
        Seek::Found(self.byte)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn edit(from: u32, to: u32, insert: &str) -> EditorEdit {
        EditorEdit {
            from,
            to,
            insert: insert.to_string(),
        }
    }

    fn buffer(text: &str) -> EditorBuffer {
        EditorBuffer::new(PathBuf::from("/skills/a/SKILL.md"), text.to_string())
    }

    /// The reference: the same edits on a UTF-16 copy of the text.
    fn apply_utf16(text: &str, changes: &[EditorEdit]) -> String {
        let mut units: Vec<u16> = text.encode_utf16().collect();
        for change in changes.iter().rev() {
            units.splice(
                change.from as usize..change.to as usize,
                change.insert.encode_utf16(),
            );
        }
        String::from_utf16(&units).expect("valid UTF-16")
    }

    #[test]
    fn offsets_count_utf16_units_around_astral_characters_and_crlf() {
        // "😀" is two UTF-16 units and four bytes; "é" one unit and two bytes; "\r\n" two units.
        let text = "---\r\nname: 😀é\r\n---\r\nBody 😀 text\r\n";
        let mut open = buffer(text);
        let changes = [
            edit(11, 13, "x"),            // replaces the 😀 in the name
            edit(14, 16, "\n"),           // replaces the "\r\n" after é
            edit(28, 28, "🎉"),           // inserts after "Body 😀"
            edit(33, 35, "\r\nmore\r\n"), // replaces the final "\r\n"
        ];
        let expected = apply_utf16(text, &changes);
        assert_eq!(open.apply(0, &changes), Ok(1));
        assert_eq!(open.text(), expected);
        assert_eq!(
            open.text(),
            "---\r\nname: xé\n---\r\nBody 😀🎉 text\r\nmore\r\n"
        );
    }

    #[test]
    fn a_change_inside_a_surrogate_pair_or_past_the_end_is_refused_and_changes_nothing() {
        let text = "a😀b";
        let mut open = buffer(text);
        assert!(matches!(
            open.apply(0, &[edit(2, 2, "x")]),
            Err(BufferError::InsideCharacter {
                index: 0,
                offset: 2
            })
        ));
        assert!(matches!(
            open.apply(0, &[edit(0, 5, "x")]),
            Err(BufferError::OutOfRange { length: 4, .. })
        ));
        assert!(matches!(
            open.apply(0, &[edit(3, 4, ""), edit(1, 1, "x")]),
            Err(BufferError::OutOfRange { index: 1, .. })
        ));
        assert_eq!((open.text(), open.version()), (text, 0));
        assert_eq!(open.apply(0, &[edit(4, 4, "!")]), Ok(1));
        assert_eq!(open.text(), "a😀b!");
    }

    #[test]
    fn a_change_to_another_version_is_refused() {
        let mut open = buffer("abc");
        assert_eq!(open.apply(0, &[edit(3, 3, "d")]), Ok(1));
        // Lost: version 1 → 2 never arrived; this one was made to version 2.
        assert_eq!(
            open.apply(2, &[edit(4, 4, "f")]),
            Err(BufferError::VersionMismatch {
                current: 1,
                given: 2
            })
        );
        // Out of order: an older change arrives late.
        assert_eq!(
            open.apply(0, &[edit(0, 0, "z")]),
            Err(BufferError::VersionMismatch {
                current: 1,
                given: 0
            })
        );
        assert_eq!(open.text(), "abcd");
        assert_eq!(open.apply(1, &[]), Ok(2));
        assert_eq!(open.text(), "abcd");
    }

    #[test]
    fn long_ascii_stretches_and_scattered_characters_map_like_utf16() {
        let mut text = String::new();
        for line in 0..500 {
            text.push_str(&"plain words ".repeat(line % 13));
            if line % 7 == 0 {
                text.push_str("😀 é ü\r\n");
            } else {
                text.push('\n');
            }
        }
        let length = text.encode_utf16().count() as u32;
        let units: Vec<u16> = text.encode_utf16().collect();
        // Offsets on character boundaries only: skip low surrogates.
        let boundaries: Vec<u32> = (0..=length)
            .filter(|at| {
                units
                    .get(*at as usize)
                    .is_none_or(|unit| !(0xDC00..0xE000).contains(unit))
            })
            .collect();
        let picks: Vec<u32> = boundaries.iter().copied().step_by(997).collect();
        let changes: Vec<EditorEdit> = picks
            .windows(2)
            .map(|pair| edit(pair[0], pair[0] + (pair[1] - pair[0]) / 3, "«x»"))
            .filter(|change| boundaries.contains(&change.to))
            .collect();
        assert!(changes.len() > 5);
        let mut open = buffer(&text);
        assert_eq!(open.apply(0, &changes), Ok(1));
        assert_eq!(open.text(), apply_utf16(&text, &changes));
    }
}
