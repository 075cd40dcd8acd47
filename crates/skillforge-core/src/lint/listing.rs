//! What the walk saw of a skill's folder: the entries of every folder below it that the walk listed, so a
//! rule asking whether `references/guide.md` exists is answered without opening anything again. A folder
//! the walk did not list (hidden, ignored, past the depth limit, behind a link, inside a nested skill) is
//! unknown here, and the filesystem is asked as before.

use std::collections::HashMap;
use std::ffi::OsStr;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// The names in one listed folder.
type Names = Vec<Box<[u8]>>;

/// The listed folders of one skill folder, by their path below it (`""` for the skill folder itself).
#[derive(Debug, Default)]
pub struct Listing {
    folders: Mutex<HashMap<PathBuf, Names>>,
}

impl Listing {
    /// Records the entries of the folder at `relative` below the skill folder.
    pub fn record(&self, relative: PathBuf, entries: &[crate::fs::walk::Entry]) {
        let names = entries
            .iter()
            .map(|entry| Box::from(entry.name_bytes()))
            .collect();
        self.folders
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .insert(relative, names);
    }

    /// Whether `inside` (a relative path of plain names) is an entry of its folder, links included, as
    /// [`super::context::FileProbe::exists`] answers; `None` when the walk did not list that folder.
    pub fn has(&self, inside: &Path) -> Option<bool> {
        let name = inside.file_name()?;
        let folder = inside.parent().unwrap_or(Path::new(""));
        if folder
            .components()
            .any(|component| !matches!(component, std::path::Component::Normal(_)))
        {
            return None;
        }
        let folders = self
            .folders
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let entries = folders.get(folder)?;
        Some(entries.iter().any(|entry| OsStr::from_bytes(entry) == name))
    }
}
