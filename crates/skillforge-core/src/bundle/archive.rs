//! Deterministic zip archives: the same entries always give the same bytes.
//!
//! Entries are written in sorted order, every timestamp is 1980-01-01 00:00 (the earliest a zip can
//! hold), permissions are reduced to 0644 or 0755, and no extra fields are written, so an archive
//! depends on nothing but the names and contents it holds.

use std::io::{Cursor, Write};

use zip::write::SimpleFileOptions;
use zip::{CompressionMethod, DateTime, ZipWriter};

use super::names::{self, NameError};

/// The deflate level: fixed, because a different level gives different bytes.
const DEFLATE_LEVEL: i64 = 6;

/// One member of an archive.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    /// `/`-separated path inside the archive.
    pub path: String,
    pub bytes: Vec<u8>,
    pub executable: bool,
}

/// Why an archive could not be built.
#[derive(Debug, thiserror::Error)]
pub enum ArchiveError {
    #[error("archive entry {path:?} has {reason}")]
    BadName { path: String, reason: NameError },
    #[error("archive entry {0:?} appears twice")]
    Duplicate(String),
    #[error("cannot write the archive: {0}")]
    Zip(#[from] zip::result::ZipError),
    #[error("cannot write the archive: {0}")]
    Io(#[from] std::io::Error),
}

/// Builds a zip in memory from `entries` (in any order).
pub fn build(mut entries: Vec<Entry>) -> Result<Vec<u8>, ArchiveError> {
    entries.sort_by(|left, right| left.path.cmp(&right.path));
    build_in_order(&entries)
}

/// Builds a zip with the entries in exactly the given order (a wheel wants its RECORD last).
pub fn build_in_order(entries: &[Entry]) -> Result<Vec<u8>, ArchiveError> {
    let mut seen = std::collections::HashSet::new();
    for entry in entries {
        // Checked again here, whatever the caller did: this is the last gate before bytes leave.
        names::check_relative(&entry.path).map_err(|reason| ArchiveError::BadName {
            path: entry.path.clone(),
            reason,
        })?;
        if !seen.insert(entry.path.as_str()) {
            return Err(ArchiveError::Duplicate(entry.path.clone()));
        }
    }
    let mut writer = ZipWriter::new(Cursor::new(Vec::new()));
    for entry in entries {
        let options = SimpleFileOptions::default()
            .compression_method(CompressionMethod::Deflated)
            .compression_level(Some(DEFLATE_LEVEL))
            .last_modified_time(DateTime::default())
            .unix_permissions(if entry.executable { 0o755 } else { 0o644 });
        writer.start_file(entry.path.as_str(), options)?;
        writer.write_all(&entry.bytes)?;
    }
    Ok(writer.finish()?.into_inner())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(path: &str, bytes: &[u8]) -> Entry {
        Entry {
            path: path.to_string(),
            bytes: bytes.to_vec(),
            executable: false,
        }
    }

    #[test]
    fn same_entries_in_any_order_give_the_same_bytes() {
        let first = build(vec![entry("b/x.txt", b"x"), entry("a/SKILL.md", b"text")]);
        let second = build(vec![entry("a/SKILL.md", b"text"), entry("b/x.txt", b"x")]);
        let (Ok(first), Ok(second)) = (first, second) else {
            panic!("archives not built");
        };
        assert_eq!(first, second);
        let reader = zip::ZipArchive::new(Cursor::new(first));
        let Ok(mut reader) = reader else {
            panic!("unreadable archive")
        };
        assert_eq!(reader.len(), 2);
        let Ok(member) = reader.by_index(0) else {
            panic!("no first member")
        };
        assert_eq!(member.name().ok().as_deref(), Some("a/SKILL.md"));
        assert_eq!(member.unix_mode(), Some(0o100644));
        assert_eq!(member.compression(), CompressionMethod::Deflated);
    }

    #[test]
    fn hostile_entry_names_never_reach_the_archive() {
        for hostile in ["../evil", "/abs", "a\\..\\evil", "a/\n/b"] {
            let built = build(vec![entry(hostile, b"x")]);
            assert!(
                matches!(built, Err(ArchiveError::BadName { .. })),
                "{hostile:?}"
            );
        }
        let twice = build(vec![entry("a", b"1"), entry("a", b"2")]);
        assert!(matches!(twice, Err(ArchiveError::Duplicate(_))));
    }
}
