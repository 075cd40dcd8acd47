//! The folders opened lately, remembered in the app's config dir so the next start offers them again.
//!
//! The list is a small JSON file, replaced atomically. A file the app cannot read is left alone (and
//! nothing is remembered until it can be read); a file it cannot understand is kept under another name
//! before a new list replaces it, so nothing the user had is lost silently.

use std::path::{Path, PathBuf};

use crate::config_file::{ConfigFile, Unlocked};

use serde::{Deserialize, Serialize};

/// How many folders the list keeps.
pub const RECENT_LIMIT: usize = 10;

/// The file's name inside the config dir.
pub const RECENT_FILE: &str = "recent-workspaces.json";

const FORMAT_VERSION: u32 = 1;

/// A remembered folder as the UI shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, specta::Type)]
pub struct RecentFolder {
    /// The folder, absolute.
    pub path: String,
    /// Its name, for the menu.
    pub label: String,
    /// The folder no longer exists (or is no longer a folder); it can be removed from the list.
    pub missing: bool,
}

/// The remembered folders, most recent first, and why the list may be incomplete.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, specta::Type)]
pub struct RecentList {
    pub folders: Vec<RecentFolder>,
    /// What went wrong reading or writing the list, in words for the user; the app works without it.
    pub problem: Option<String>,
}

/// The file as stored.
#[derive(Debug, Serialize, Deserialize)]
struct StoredList {
    version: u32,
    folders: Vec<String>,
}

/// What reading the file gave.
enum Loaded {
    Folders(Vec<String>),
    /// The file exists but cannot be read: it must not be replaced.
    Unreadable(String),
    /// The file is not a list this app wrote: it is kept aside before a new one is written.
    Corrupt(String),
}

/// The recent-folders file.
pub struct RecentStore {
    file: ConfigFile,
}

impl RecentStore {
    /// Remembers folders in `dir` (created on the first write).
    pub fn in_dir(dir: &Path) -> Self {
        Self {
            file: ConfigFile::in_dir(dir, RECENT_FILE),
        }
    }

    /// Remembers nothing and says why.
    pub fn unavailable(reason: impl Into<String>) -> Self {
        Self {
            file: ConfigFile::unavailable(reason),
        }
    }

    /// The remembered folders as they are now.
    pub fn list(&self) -> RecentList {
        let listed = self.file.with(|file| match load(file) {
            Loaded::Folders(folders) => view(&folders, None),
            Loaded::Unreadable(problem) | Loaded::Corrupt(problem) => view(&[], Some(problem)),
        });
        listed.unwrap_or_else(unlocked_list)
    }

    /// Puts `folders` at the front of the list (the first most recent), without duplicates.
    pub fn remember(&self, folders: &[PathBuf]) -> RecentList {
        self.update(|list| {
            let added: Vec<String> = folders
                .iter()
                .filter_map(|folder| folder.to_str().map(str::to_string))
                .collect();
            list.retain(|folder| !added.contains(folder));
            let mut updated: Vec<String> = Vec::with_capacity(added.len() + list.len());
            for folder in added {
                if !updated.contains(&folder) {
                    updated.push(folder);
                }
            }
            updated.append(list);
            updated.truncate(RECENT_LIMIT);
            *list = updated;
        })
    }

    /// Removes `folder` from the list.
    pub fn forget(&self, folder: &Path) -> RecentList {
        let folder = folder.to_string_lossy().into_owned();
        self.update(|list| list.retain(|other| *other != folder))
    }

    fn update(&self, change: impl FnOnce(&mut Vec<String>)) -> RecentList {
        let updated = self.file.with(|file| {
            let (mut folders, mut problem) = match load(file) {
                Loaded::Folders(folders) => (folders, None),
                Loaded::Unreadable(problem) => return view(&[], Some(problem)),
                Loaded::Corrupt(problem) => match keep_aside(file) {
                    Ok(kept) => (
                        Vec::new(),
                        Some(format!(
                            "{problem}; it was kept as {} and a new list was started",
                            kept.display()
                        )),
                    ),
                    Err(error) => {
                        return view(
                            &[],
                            Some(format!(
                                "{problem}; it could not be moved aside ({error}), so it was left as it is"
                            )),
                        )
                    }
                },
            };
            change(&mut folders);
            let stored = StoredList {
                version: FORMAT_VERSION,
                folders,
            };
            if let Err(error) = serde_json::to_vec_pretty(&stored)
                .map_err(std::io::Error::other)
                .and_then(|bytes| write_atomically(file, &bytes))
            {
                problem = Some(format!(
                    "{}: the list of recent workspaces could not be saved ({error})",
                    file.display()
                ));
            }
            view(&stored.folders, problem)
        });
        updated.unwrap_or_else(unlocked_list)
    }
}

/// An empty list that says why the file could not be used.
fn unlocked_list(unlocked: Unlocked) -> RecentList {
    let problem = match unlocked {
        Unlocked::Unavailable(reason) => format!("recent workspaces are not remembered: {reason}"),
        Unlocked::Poisoned => {
            "the list of recent workspaces is unavailable after an internal error".into()
        }
    };
    view(&[], Some(problem))
}

fn load(file: &Path) -> Loaded {
    use skillforge_core::fs::read::{input, Limit, ReadError};
    let bytes = match input(file, Limit::INPUT) {
        Ok(read) => read.bytes,
        Err(error) if error.source == ReadError::NotFound => return Loaded::Folders(Vec::new()),
        Err(error) => {
            return Loaded::Unreadable(format!(
                "{}: cannot be read ({}); recent workspaces are not remembered until it can be",
                file.display(),
                error.source
            ))
        }
    };
    match serde_json::from_slice::<StoredList>(&bytes) {
        Ok(stored) if stored.version == FORMAT_VERSION => Loaded::Folders(stored.folders),
        Ok(stored) => Loaded::Corrupt(format!(
            "{}: written by another version of Skillforge (format {})",
            file.display(),
            stored.version
        )),
        Err(error) => Loaded::Corrupt(format!(
            "{}: not a valid list of recent workspaces ({error})",
            file.display()
        )),
    }
}

/// Renames a file the app cannot understand to the first free `NAME.corrupt-N` beside it.
fn keep_aside(file: &Path) -> std::io::Result<PathBuf> {
    for number in 1..=1000 {
        let mut name = file.as_os_str().to_owned();
        name.push(format!(".corrupt-{number}"));
        let kept = PathBuf::from(name);
        if std::fs::symlink_metadata(&kept).is_err() {
            std::fs::rename(file, &kept)?;
            return Ok(kept);
        }
    }
    Err(std::io::Error::other("too many earlier copies"))
}

/// The one atomic write of the engine, for the app's own file.
fn write_atomically(file: &Path, bytes: &[u8]) -> std::io::Result<()> {
    skillforge_core::fs::write::replace_file(file, bytes)
        .map(drop)
        .map_err(|error| std::io::Error::other(error.to_string()))
}

fn view(folders: &[String], problem: Option<String>) -> RecentList {
    RecentList {
        folders: folders
            .iter()
            .map(|folder| {
                let path = Path::new(folder);
                RecentFolder {
                    path: folder.clone(),
                    label: path.file_name().map_or_else(
                        || folder.clone(),
                        |name| name.to_string_lossy().into_owned(),
                    ),
                    missing: !path.is_dir(),
                }
            })
            .collect(),
        problem,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn paths(list: &RecentList) -> Vec<String> {
        list.folders
            .iter()
            .map(|folder| folder.path.clone())
            .collect()
    }

    #[test]
    fn remembers_most_recent_first_without_duplicates_and_bounded() {
        let config = tempfile::tempdir().expect("temporary directory");
        let store = RecentStore::in_dir(&config.path().join("nested/config"));
        assert_eq!(store.list(), RecentList::default());
        for number in 0..15 {
            store.remember(&[PathBuf::from(format!("/work/{number}"))]);
        }
        let list = store.remember(&[PathBuf::from("/work/12")]);
        assert_eq!(list.problem, None);
        assert_eq!(list.folders.len(), RECENT_LIMIT);
        assert_eq!(
            paths(&list)[..3],
            ["/work/12", "/work/14", "/work/13"].map(String::from)
        );
        // A new store reads what the previous one wrote.
        let again = RecentStore::in_dir(&config.path().join("nested/config")).list();
        assert_eq!(paths(&again), paths(&list));
        let several = store.remember(&[
            PathBuf::from("/a"),
            PathBuf::from("/b"),
            PathBuf::from("/a"),
        ]);
        assert_eq!(
            paths(&several)[..3],
            ["/a", "/b", "/work/12"].map(String::from)
        );
    }

    #[test]
    fn marks_vanished_folders_and_forgets_them() {
        let config = tempfile::tempdir().expect("temporary directory");
        let workspace = tempfile::tempdir().expect("temporary directory");
        let store = RecentStore::in_dir(config.path());
        let gone = workspace.path().join("gone");
        std::fs::create_dir(&gone).expect("mkdir");
        store.remember(&[gone.clone(), workspace.path().to_path_buf()]);
        std::fs::remove_dir(&gone).expect("rmdir");
        let list = store.list();
        assert_eq!(
            list.folders
                .iter()
                .map(|folder| (folder.label.as_str(), folder.missing))
                .collect::<Vec<_>>(),
            [
                ("gone", true),
                (
                    workspace
                        .path()
                        .file_name()
                        .and_then(|name| name.to_str())
                        .expect("name"),
                    false
                )
            ]
        );
        let list = store.forget(&gone);
        assert_eq!(paths(&list), [workspace.path().display().to_string()]);
    }

    #[test]
    fn a_corrupt_file_is_reported_and_kept_before_a_new_list_replaces_it() {
        let config = tempfile::tempdir().expect("temporary directory");
        let file = config.path().join(RECENT_FILE);
        std::fs::write(&file, "{ not json").expect("write");
        let store = RecentStore::in_dir(config.path());
        let listed = store.list();
        assert!(listed.folders.is_empty());
        assert!(
            listed
                .problem
                .as_deref()
                .is_some_and(|problem| problem.contains("not a valid list")),
            "{listed:?}"
        );
        // Listing alone changes nothing on disk.
        assert_eq!(std::fs::read_to_string(&file).expect("read"), "{ not json");

        let list = store.remember(&[PathBuf::from("/work/a")]);
        assert_eq!(paths(&list), ["/work/a"]);
        assert!(
            list.problem
                .as_deref()
                .is_some_and(|problem| problem.contains("corrupt-1")),
            "{list:?}"
        );
        let kept = config.path().join(format!("{RECENT_FILE}.corrupt-1"));
        assert_eq!(std::fs::read_to_string(kept).expect("backup"), "{ not json");
        assert_eq!(paths(&store.list()), ["/work/a"]);
        assert_eq!(store.list().problem, None);
    }

    #[test]
    fn an_unreadable_file_is_never_replaced() {
        let config = tempfile::tempdir().expect("temporary directory");
        // A folder where the file should be: reading fails the way an unreadable file does, even as root.
        std::fs::create_dir(config.path().join(RECENT_FILE)).expect("mkdir");
        let store = RecentStore::in_dir(config.path());
        let list = store.remember(&[PathBuf::from("/work/a")]);
        assert!(list.folders.is_empty());
        assert!(
            list.problem
                .as_deref()
                .is_some_and(|problem| problem.contains("cannot be read")),
            "{list:?}"
        );
        assert!(config.path().join(RECENT_FILE).is_dir());
    }

    #[test]
    fn without_a_config_dir_nothing_is_remembered_and_the_reason_is_given() {
        let store = RecentStore::unavailable("no home folder");
        let list = store.remember(&[PathBuf::from("/work/a")]);
        assert!(list.folders.is_empty());
        assert!(list
            .problem
            .as_deref()
            .is_some_and(|problem| problem.contains("no home folder")));
    }
}
