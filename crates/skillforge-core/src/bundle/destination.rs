//! Publishing a finished export: everything is written into a fresh folder next to the destination and
//! renamed into place, so a failed export leaves either the old destination or nothing — never half of
//! a new one.
//!
//! Replacing an earlier export (`--force`) deletes only what that export wrote, as its manifest
//! ([`super::MANIFEST_FILE`]) or install stamp ([`super::STAMP_FILE`]) records it: anything else in
//! the folder was put there by someone else and moves into the new export unchanged, or, when it
//! stands where the new export writes, stops the export.

use std::collections::{BTreeMap, BTreeSet};
use std::ffi::{OsStr, OsString};
use std::os::fd::OwnedFd;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};

use rustix::fs::{AtFlags, FileType, Mode, RenameFlags};
use rustix::io::Errno;
use serde::{Deserialize, Serialize};

use super::archive::Entry;
use super::{names, ManifestFile};
use crate::fs::read::{self, Limit};
use crate::fs::{open, walk, write};

/// What happened at a destination.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "lowercase")]
pub enum WriteAction {
    Created,
    /// An existing destination was replaced (`--force`).
    Replaced,
}

/// Why a destination cannot be written.
#[derive(Debug, thiserror::Error)]
pub enum DestinationError {
    #[error("{}: already exists; choose another destination, or replace it explicitly (--force)", .0.display())]
    Exists(PathBuf),
    #[error("{}: holds an earlier export; replacing it (--force) would delete {}{}", path.display(), list(removed, "nothing it wrote that this export does not write again"), kept_note(kept))]
    EarlierExport {
        path: PathBuf,
        /// What `--force` would delete: files the earlier export wrote and this one does not.
        removed: Vec<String>,
        /// What no export wrote, which `--force` keeps.
        kept: Vec<String>,
    },
    #[error("{}: the destination must name a folder inside an existing or creatable parent", .0.display())]
    NoParent(PathBuf),
    #[error("{}: holds files that no skillforge export wrote (no {} or {}); it is never replaced, not even with --force — choose a new or empty folder", .0.display(), super::MANIFEST_FILE, super::STAMP_FILE)]
    NotAnExport(PathBuf),
    #[error("{}: its {marker} cannot be read ({reason}), so what the earlier export wrote is unknown; nothing is replaced — move the folder away or choose another destination", folder.display())]
    UnreadableRecord {
        folder: PathBuf,
        marker: &'static str,
        reason: String,
    },
    #[error("{}: is inside {}, a folder being exported: every later catalog would find the exported skills twice and archives would nest earlier exports; choose an --out outside {}", out.display(), root.display(), root.display())]
    InsideRoot { out: PathBuf, root: PathBuf },
    #[error("{}: no export wrote it and {reason}; it is kept, so the export cannot be written — move it out of the way, then export again", path.display())]
    InTheWay { path: PathBuf, reason: String },
    #[error("export entry {path:?} has {reason}")]
    BadName {
        path: String,
        reason: names::NameError,
    },
    #[error("{}: {source}", path.display())]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
}

fn list(items: &[String], none: &str) -> String {
    if items.is_empty() {
        none.to_string()
    } else {
        items.join(", ")
    }
}

fn kept_note(kept: &[String]) -> String {
    if kept.is_empty() {
        String::new()
    } else {
        format!(" and keep what no export wrote: {}", kept.join(", "))
    }
}

fn io(path: &Path) -> impl FnOnce(std::io::Error) -> DestinationError + '_ {
    move |source| DestinationError::Io {
        path: path.to_path_buf(),
        source,
    }
}

fn errno_at(path: &Path) -> impl FnOnce(Errno) -> DestinationError + '_ {
    move |errno| DestinationError::Io {
        path: path.to_path_buf(),
        source: errno.into(),
    }
}

fn write_error_at(path: &Path) -> impl FnOnce(write::WriteError) -> DestinationError + '_ {
    move |error| DestinationError::Io {
        path: path.to_path_buf(),
        source: std::io::Error::other(error.to_string()),
    }
}

/// Whether something is at `path` that an export would replace. An empty folder holds nothing an author
/// could lose, so it counts as free.
pub fn occupied(path: &Path) -> Result<bool, DestinationError> {
    let (Some(parent), Some(name)) = (path.parent(), path.file_name()) else {
        return Ok(true);
    };
    let parent = if parent.as_os_str().is_empty() {
        Path::new(".")
    } else {
        parent
    };
    let directory = match open::root_directory(parent) {
        Ok(directory) => directory,
        Err(Errno::NOENT) => return Ok(false),
        Err(errno) => return Err(errno_at(parent)(errno)),
    };
    occupied_at(&directory, name, path)
}

fn occupied_at(parent: &OwnedFd, name: &OsStr, path: &Path) -> Result<bool, DestinationError> {
    match open::kind_at(parent, name) {
        Ok(FileType::Directory) => {
            let folder = open::directory_at(parent, name).map_err(errno_at(path))?;
            Ok(!walk::list(&folder).map_err(errno_at(path))?.is_empty())
        }
        Ok(_) => Ok(true),
        Err(Errno::NOENT) => Ok(false),
        Err(errno) => Err(errno_at(path)(errno)),
    }
}

/// What an earlier export recorded having written: the `files` of its manifest or stamp.
#[derive(Debug, Deserialize)]
struct Record {
    files: Vec<ManifestFile>,
}

/// The files the earlier export in `folder` wrote, with the name of the file that records them;
/// `None` when no export wrote the folder.
fn record_of(
    folder: &OwnedFd,
    path: &Path,
) -> Result<Option<(&'static str, Vec<ManifestFile>)>, DestinationError> {
    for marker in [super::MANIFEST_FILE, super::STAMP_FILE] {
        let unreadable = |reason: String| DestinationError::UnreadableRecord {
            folder: path.to_path_buf(),
            marker,
            reason,
        };
        let bytes = match read::regular_at(folder, marker, Limit::RESOURCE) {
            Ok(read) => read.bytes,
            Err(read::ReadError::NotFound) => continue,
            Err(error) => return Err(unreadable(error.to_string())),
        };
        let record: Record =
            serde_json::from_slice(&bytes).map_err(|error| unreadable(error.to_string()))?;
        return Ok(Some((marker, record.files)));
    }
    Ok(None)
}

/// How a folder an export wrote compares with what that export recorded.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Comparison {
    /// Recorded files still as recorded.
    pub unchanged: Vec<String>,
    /// Recorded files whose content changed since.
    pub edited: Vec<String>,
    /// What no export wrote: files, links and folders holding nothing recorded (a folder ends
    /// with `/`). `paths` may name folders to look into anyway.
    pub added: Vec<String>,
    /// Recorded files no longer there (or no longer regular files).
    pub missing: Vec<String>,
}

impl Comparison {
    /// The differences, one line each, as a refusal or a report names them.
    pub fn changes(&self) -> Vec<String> {
        let mut changes: Vec<String> = Vec::new();
        changes.extend(self.edited.iter().map(|path| format!("{path} (edited)")));
        changes.extend(self.added.iter().map(|path| format!("{path} (added)")));
        changes.extend(self.missing.iter().map(|path| format!("{path} (removed)")));
        changes.sort();
        changes
    }
}

/// One thing found in a folder an export wrote.
struct Found {
    path: String,
    kind: FileType,
    /// For a regular file the export recorded: whether it still holds what was recorded.
    as_recorded: Option<bool>,
}

fn within(folder: &str, candidate: &str) -> bool {
    candidate.len() > folder.len()
        && candidate.starts_with(folder)
        && candidate.as_bytes()[folder.len()] == b'/'
}

/// Compares the folder an export wrote (`folder`, at `path`) with the files it `recorded`, never
/// following a link. `marker` (the record itself) counts as written by the export; a folder holding
/// one of `also_inside` is looked into rather than counted as added whole.
pub fn compare(
    folder: &OwnedFd,
    path: &Path,
    marker: &str,
    recorded: &[ManifestFile],
    also_inside: &BTreeSet<&str>,
) -> Result<Comparison, DestinationError> {
    let recorded: BTreeMap<&str, &ManifestFile> = recorded
        .iter()
        .map(|file| (file.path.as_str(), file))
        .collect();
    let options = walk::Options {
        max_depth: usize::MAX,
        skip: |_| false,
        parallel: false,
    };
    let walked = walk::walk(folder, Path::new(""), &options, &|visited, found| {
        for entry in visited.entries {
            let relative = visited.path_of(&entry.name);
            let relative = relative.to_string_lossy().into_owned();
            let as_recorded = match (entry.kind, recorded.get(relative.as_str())) {
                (FileType::RegularFile, Some(file)) => {
                    let limit = Limit::RESOURCE.with_bytes(file.size);
                    Some(
                        read::regular_at(visited.descriptor, entry.name.as_c_str(), limit)
                            .is_ok_and(|read| super::sha256_hex(&read.bytes) == file.sha256),
                    )
                }
                _ => None,
            };
            found.push(Found {
                path: relative,
                kind: entry.kind,
                as_recorded,
            });
        }
        true
    });
    if let Some(problem) = walked.problems.first() {
        return Err(errno_at(&path.join(&problem.path))(problem.errno));
    }
    let mut found = walked.found;
    found.sort_by(|left, right| left.path.cmp(&right.path));
    let mut comparison = Comparison::default();
    let mut added_whole: Vec<&str> = Vec::new();
    for entry in &found {
        if entry.path == marker || added_whole.iter().any(|folder| within(folder, &entry.path)) {
            continue;
        }
        match (entry.kind, entry.as_recorded) {
            (FileType::RegularFile, Some(true)) => comparison.unchanged.push(entry.path.clone()),
            (FileType::RegularFile, Some(false)) => comparison.edited.push(entry.path.clone()),
            (FileType::Directory, _) => {
                let looked_into = recorded.keys().any(|file| within(&entry.path, file))
                    || also_inside.iter().any(|file| within(&entry.path, file));
                if !looked_into {
                    added_whole.push(&entry.path);
                    comparison.added.push(format!("{}/", entry.path));
                }
            }
            _ => comparison.added.push(entry.path.clone()),
        }
    }
    let seen: BTreeSet<&str> = comparison
        .unchanged
        .iter()
        .chain(&comparison.edited)
        .map(String::as_str)
        .collect();
    comparison.missing = recorded
        .keys()
        .filter(|file| !seen.contains(*file))
        .map(|file| file.to_string())
        .collect();
    Ok(comparison)
}

/// What replacing an earlier export does with what is in its folder.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Replacement {
    /// Files the earlier export wrote that go: those this export no longer writes, and those edited
    /// since (marked so), relative to the folder.
    pub removed: Vec<String>,
    /// What no export wrote, moved into the new export unchanged (a folder ends with `/`).
    pub kept: Vec<String>,
    /// The earlier export's files, deleted once the new export is in place.
    delete: Vec<String>,
}

/// Sorts out what is in the earlier export `folder` (at `path`) before writing `files` over it.
fn plan_replacement(
    folder: &OwnedFd,
    path: &Path,
    marker: &str,
    recorded: &[ManifestFile],
    files: &[Entry],
) -> Result<Replacement, DestinationError> {
    let new: BTreeSet<&str> = files.iter().map(|file| file.path.as_str()).collect();
    let comparison = compare(folder, path, marker, recorded, &new)?;
    for kept in &comparison.added {
        let kept = kept.trim_end_matches('/');
        let in_the_way = |reason: String| DestinationError::InTheWay {
            path: path.join(kept),
            reason,
        };
        if new.contains(kept) {
            return Err(in_the_way(format!("this export writes {kept}")));
        }
        if let Some(file) = new.iter().find(|file| within(kept, file)) {
            return Err(in_the_way(format!(
                "this export needs a folder there for {file}"
            )));
        }
        if let Some(file) = new.iter().find(|file| within(file, kept)) {
            return Err(in_the_way(format!(
                "it is inside {file}, which this export writes as a file"
            )));
        }
    }
    let mut removed: Vec<String> = comparison
        .unchanged
        .iter()
        .filter(|file| !new.contains(file.as_str()))
        .cloned()
        .collect();
    removed.extend(
        comparison
            .edited
            .iter()
            .map(|file| format!("{file} (edited since the earlier export)")),
    );
    removed.sort();
    let mut delete: Vec<String> = comparison.unchanged;
    delete.extend(comparison.edited);
    delete.push(marker.to_string());
    Ok(Replacement {
        removed,
        kept: comparison.added,
        delete,
    })
}

/// A sibling name that does not exist yet, reserved by creating it (a folder) atomically.
fn reserve_sibling(
    parent: &OwnedFd,
    parent_path: &Path,
    name: &OsStr,
    purpose: &str,
) -> Result<OsString, DestinationError> {
    let process = std::process::id();
    for attempt in 0..1000u32 {
        let mut candidate = OsString::from(".");
        // Long names are cut so the sibling's name stays within NAME_MAX.
        candidate.push(OsStr::from_bytes(&name.as_bytes()[..name.len().min(200)]));
        candidate.push(format!(".skillforge-{purpose}-{process}-{attempt}"));
        match rustix::fs::mkdirat(parent, candidate.as_os_str(), Mode::from_raw_mode(0o755)) {
            Ok(()) => return Ok(candidate),
            Err(Errno::EXIST) => continue,
            Err(errno) => return Err(errno_at(&parent_path.join(&candidate))(errno)),
        }
    }
    Err(DestinationError::Io {
        path: parent_path.to_path_buf(),
        source: std::io::Error::other("no free temporary name"),
    })
}

/// What publishing did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Published {
    pub action: WriteAction,
    pub replacement: Replacement,
}

/// Writes `files` as the folder `destination`, replacing an occupied destination only when `replace`
/// and only when an export wrote it (see the module documentation for what is kept).
pub fn publish_folder(
    destination: &Path,
    files: &[Entry],
    replace: bool,
) -> Result<Published, DestinationError> {
    let destination = std::path::absolute(destination).map_err(io(destination))?;
    let (Some(parent_path), Some(name)) = (destination.parent(), destination.file_name()) else {
        return Err(DestinationError::NoParent(destination));
    };
    let parent = match open::root_directory(parent_path) {
        Ok(parent) => Some(parent),
        Err(Errno::NOENT) => None,
        Err(errno) => return Err(errno_at(parent_path)(errno)),
    };
    let was_occupied = match &parent {
        Some(parent) => occupied_at(parent, name, &destination)?,
        None => false,
    };
    if was_occupied && !replace {
        // Say what a replacement would do, so the author decides on it before asking for it.
        let folder = parent
            .as_ref()
            .and_then(|parent| open::directory_at(parent, name).ok());
        if let Some(folder) = folder {
            if let Ok(Some((marker, recorded))) = record_of(&folder, &destination) {
                if let Ok(plan) = plan_replacement(&folder, &destination, marker, &recorded, files)
                {
                    return Err(DestinationError::EarlierExport {
                        path: destination,
                        removed: plan.removed,
                        kept: plan.kept,
                    });
                }
            }
        }
        return Err(DestinationError::Exists(destination));
    }
    let mut replacement = Replacement::default();
    if was_occupied {
        // Replacing only ever touches an earlier export, never a folder the author pointed at by
        // mistake (their home, a project).
        let folder = parent
            .as_ref()
            .and_then(|parent| open::directory_at(parent, name).ok())
            .ok_or_else(|| DestinationError::NotAnExport(destination.clone()))?;
        let Some((marker, recorded)) = record_of(&folder, &destination)? else {
            return Err(DestinationError::NotAnExport(destination));
        };
        replacement = plan_replacement(&folder, &destination, marker, &recorded, files)?;
    }
    let parent = match parent {
        Some(parent) => parent,
        None => {
            std::fs::create_dir_all(parent_path).map_err(io(parent_path))?;
            open::root_directory(parent_path).map_err(errno_at(parent_path))?
        }
    };
    let staging = reserve_sibling(&parent, parent_path, name, "new")?;
    let staging_path = parent_path.join(&staging);
    let remove_staging = || {
        let _ = std::fs::remove_dir_all(&staging_path);
    };
    let staged = open::directory_at(&parent, staging.as_os_str())
        .map_err(errno_at(&staging_path))
        .and_then(|staged| write_tree(&staged, &staging_path, files).map(|()| staged));
    let staged = match staged {
        Ok(staged) => staged,
        Err(error) => {
            remove_staging();
            return Err(error);
        }
    };
    if !was_occupied {
        // rename(2) replaces an empty folder, and fails on a non-empty one that appeared meanwhile.
        return match rustix::fs::renameat(&parent, staging.as_os_str(), &parent, name) {
            Ok(()) => {
                let _ = rustix::fs::fsync(&parent);
                Ok(Published {
                    action: WriteAction::Created,
                    replacement,
                })
            }
            Err(errno) => {
                remove_staging();
                Err(match errno {
                    Errno::NOTEMPTY | Errno::EXIST => DestinationError::Exists(destination),
                    other => errno_at(&destination)(other),
                })
            }
        };
    }
    // Move the old destination aside first so the new one appears in a single rename; put it back if
    // that rename fails.
    let aside = match reserve_sibling(&parent, parent_path, name, "old") {
        Ok(aside) => aside,
        Err(error) => {
            remove_staging();
            return Err(error);
        }
    };
    let remove_aside = || {
        let _ = rustix::fs::unlinkat(&parent, aside.as_os_str(), AtFlags::REMOVEDIR);
    };
    let old = open::directory_at(&parent, name).map_err(errno_at(&destination));
    let old = match old
        .and_then(|old| move_entries(&old, &staged, &replacement.kept, &destination).map(|()| old))
    {
        Ok(old) => old,
        Err(error) => {
            remove_staging();
            remove_aside();
            return Err(error);
        }
    };
    // What was kept sits in the staged folder now: it goes back before the staged folder is removed,
    // and if it cannot, the staged folder stays, named in the error.
    let undo = |errno: Errno| {
        remove_aside();
        if move_entries(&staged, &old, &replacement.kept, &destination).is_ok() {
            remove_staging();
            return errno_at(&destination)(errno);
        }
        DestinationError::Io {
            path: destination.clone(),
            source: std::io::Error::other(format!(
                "{} (the files kept from the earlier export are in {})",
                std::io::Error::from(errno),
                staging_path.display()
            )),
        }
    };
    let swapped = rustix::fs::renameat_with(
        &parent,
        staging.as_os_str(),
        &parent,
        name,
        RenameFlags::EXCHANGE,
    );
    let old_name = match swapped {
        // The old export now sits under the staging name.
        Ok(()) => {
            remove_aside();
            staging.clone()
        }
        Err(Errno::INVAL | Errno::NOSYS | Errno::NOTSUP) => {
            if let Err(errno) = rustix::fs::renameat(&parent, name, &parent, aside.as_os_str()) {
                return Err(undo(errno));
            }
            if let Err(errno) = rustix::fs::renameat(&parent, staging.as_os_str(), &parent, name) {
                let _ = rustix::fs::renameat(&parent, aside.as_os_str(), &parent, name);
                return Err(undo(errno));
            }
            aside.clone()
        }
        Err(errno) => return Err(undo(errno)),
    };
    let _ = rustix::fs::fsync(&parent);
    // The new export is in place. Of the old one, only what it wrote is deleted; anything that
    // appeared in it meanwhile is left where it is, and said so.
    delete_recorded(&old, &replacement.delete);
    if rustix::fs::unlinkat(&parent, old_name.as_os_str(), AtFlags::REMOVEDIR).is_err() {
        replacement.kept.push(format!(
            "{} (what was left of the earlier export: written there during this export; check it, then delete it)",
            parent_path.join(&old_name).display()
        ));
    }
    Ok(Published {
        action: WriteAction::Replaced,
        replacement,
    })
}

fn components(path: &str) -> Vec<&OsStr> {
    path.split('/').map(OsStr::new).collect()
}

/// Moves `paths` (relative, a folder ending with `/`) from the tree `from` to the same places in the
/// tree `to`, never over anything and never through a link; on failure moves back what it moved.
fn move_entries(
    from_root: &OwnedFd,
    to_root: &OwnedFd,
    paths: &[String],
    destination: &Path,
) -> Result<(), DestinationError> {
    let mut moved: Vec<(OwnedFd, OwnedFd, &OsStr)> = Vec::new();
    for relative in paths {
        let relative = relative.trim_end_matches('/');
        let parts = components(relative);
        let Some((last, folders)) = parts.split_last() else {
            continue;
        };
        let path = destination.join(relative);
        let result = open::directory_beneath(from_root, folders.iter().copied())
            .map_err(|(errno, _)| errno_at(&path)(errno))
            .and_then(|from| {
                let to = write::create_directories(to_root, folders.iter().copied())
                    .map_err(write_error_at(&path))?;
                rustix::fs::renameat_with(&from, *last, &to, *last, RenameFlags::NOREPLACE)
                    .map_err(errno_at(&path))?;
                Ok((from, to))
            });
        match result {
            Ok((from, to)) => moved.push((from, to, last)),
            Err(error) => {
                for (from, to, name) in moved.into_iter().rev() {
                    let _ = rustix::fs::renameat(&to, name, &from, name);
                }
                return Err(error);
            }
        }
    }
    Ok(())
}

/// Deletes the earlier export's files from its old folder, then the folders they leave empty.
fn delete_recorded(old: &OwnedFd, delete: &[String]) {
    let mut folders = BTreeSet::new();
    for path in delete {
        let parts = components(path);
        let Some((last, parents)) = parts.split_last() else {
            continue;
        };
        if let Ok(folder) = open::directory_beneath(old, parents.iter().copied()) {
            let _ = rustix::fs::unlinkat(&folder, *last, AtFlags::empty());
        }
        for depth in 1..=parents.len() {
            folders.insert(parents[..depth].to_vec());
        }
    }
    // Deepest first; a folder still holding something is left alone.
    for folder in folders.iter().rev() {
        let Some((last, parents)) = folder.split_last() else {
            continue;
        };
        if let Ok(parent) = open::directory_beneath(old, parents.iter().copied()) {
            let _ = rustix::fs::unlinkat(&parent, *last, AtFlags::REMOVEDIR);
        }
    }
}

fn write_tree(root: &OwnedFd, root_path: &Path, files: &[Entry]) -> Result<(), DestinationError> {
    for file in files {
        names::check_relative(&file.path).map_err(|reason| DestinationError::BadName {
            path: file.path.clone(),
            reason,
        })?;
        // Checked components only, inside a folder this export just created, opened without links.
        let path = root_path.join(&file.path);
        let parts = components(&file.path);
        let Some((name, folders)) = parts.split_last() else {
            continue;
        };
        let folder = write::create_directories(root, folders.iter().copied())
            .map_err(write_error_at(&path))?;
        let mode = Mode::from_raw_mode(if file.executable { 0o755 } else { 0o644 });
        write::create_at(&folder, name, &file.bytes, mode).map_err(write_error_at(&path))?;
    }
    rustix::fs::fsync(root).map_err(errno_at(root_path))
}
