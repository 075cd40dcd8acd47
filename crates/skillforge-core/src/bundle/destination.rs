//! Publishing a finished export: everything is written into a fresh folder next to the destination and
//! renamed into place, so a failed export leaves either the old destination or nothing — never half of
//! a new one.

use std::io::Write;
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};

use serde::Serialize;

use super::archive::Entry;
use super::names;

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
    #[error("{}: the destination must name a folder inside an existing or creatable parent", .0.display())]
    NoParent(PathBuf),
    #[error("{}: holds files that no skillforge export wrote (no {} or {}); it is never replaced, not even with --force — choose a new or empty folder", .0.display(), super::MANIFEST_FILE, super::STAMP_FILE)]
    NotAnExport(PathBuf),
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

fn io(path: &Path) -> impl FnOnce(std::io::Error) -> DestinationError + '_ {
    move |source| DestinationError::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// Whether something is at `path` that an export would replace. An empty folder holds nothing an author
/// could lose, so it counts as free.
pub fn occupied(path: &Path) -> Result<bool, DestinationError> {
    match std::fs::symlink_metadata(path) {
        Ok(metadata) if metadata.is_dir() => {
            let mut entries = std::fs::read_dir(path).map_err(io(path))?;
            Ok(entries.next().is_some())
        }
        Ok(_) => Ok(true),
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => Ok(false),
        Err(source) => Err(DestinationError::Io {
            path: path.to_path_buf(),
            source,
        }),
    }
}

/// Whether `folder` is the output of an earlier export: it has the manifest or the install stamp every
/// export writes at its top.
fn written_by_an_export(folder: &Path) -> bool {
    [super::MANIFEST_FILE, super::STAMP_FILE]
        .iter()
        .any(|marker| {
            std::fs::symlink_metadata(folder.join(marker)).is_ok_and(|metadata| metadata.is_file())
        })
}

/// A sibling name that does not exist yet, reserved by creating it (a folder) atomically.
fn reserve_sibling(parent: &Path, name: &str, purpose: &str) -> Result<PathBuf, DestinationError> {
    let process = std::process::id();
    for attempt in 0..1000u32 {
        let candidate = parent.join(format!(".{name}.skillforge-{purpose}-{process}-{attempt}"));
        match std::fs::create_dir(&candidate) {
            Ok(()) => return Ok(candidate),
            Err(error) if error.kind() == std::io::ErrorKind::AlreadyExists => continue,
            Err(source) => {
                return Err(DestinationError::Io {
                    path: candidate,
                    source,
                })
            }
        }
    }
    Err(DestinationError::Io {
        path: parent.to_path_buf(),
        source: std::io::Error::other("no free temporary name"),
    })
}

/// Writes `files` as the folder `destination`, replacing an occupied destination only when `replace`.
pub fn publish_folder(
    destination: &Path,
    files: &[Entry],
    replace: bool,
) -> Result<WriteAction, DestinationError> {
    let destination = std::path::absolute(destination).map_err(io(destination))?;
    let (Some(parent), Some(name)) = (destination.parent(), destination.file_name()) else {
        return Err(DestinationError::NoParent(destination));
    };
    let name = name.to_string_lossy().into_owned();
    let was_occupied = occupied(&destination)?;
    if was_occupied && !replace {
        return Err(DestinationError::Exists(destination));
    }
    // Replacing moves the whole folder aside and deletes it: only ever do that to an earlier export,
    // never to a folder the author pointed at by mistake (their home, a project).
    if was_occupied && !written_by_an_export(&destination) {
        return Err(DestinationError::NotAnExport(destination));
    }
    std::fs::create_dir_all(parent).map_err(io(parent))?;
    let staging = reserve_sibling(parent, &name, "new")?;
    if let Err(error) = write_tree(&staging, files) {
        let _ = std::fs::remove_dir_all(&staging);
        return Err(error);
    }
    let result = swap_into_place(parent, &name, &staging, &destination, was_occupied);
    if result.is_err() {
        let _ = std::fs::remove_dir_all(&staging);
    }
    result
}

fn swap_into_place(
    parent: &Path,
    name: &str,
    staging: &Path,
    destination: &Path,
    was_occupied: bool,
) -> Result<WriteAction, DestinationError> {
    if !was_occupied {
        // rename(2) replaces an empty folder, and fails on a non-empty one that appeared meanwhile.
        return match std::fs::rename(staging, destination) {
            Ok(()) => Ok(WriteAction::Created),
            Err(error)
                if matches!(
                    error.kind(),
                    std::io::ErrorKind::DirectoryNotEmpty | std::io::ErrorKind::AlreadyExists
                ) =>
            {
                Err(DestinationError::Exists(destination.to_path_buf()))
            }
            Err(source) => Err(DestinationError::Io {
                path: destination.to_path_buf(),
                source,
            }),
        };
    }
    // Move the old destination aside first so the new one appears in a single rename; put it back if
    // that rename fails.
    let aside = reserve_sibling(parent, name, "old")?;
    std::fs::remove_dir(&aside).map_err(io(&aside))?;
    std::fs::rename(destination, &aside).map_err(io(destination))?;
    if let Err(source) = std::fs::rename(staging, destination) {
        let _ = std::fs::rename(&aside, destination);
        return Err(DestinationError::Io {
            path: destination.to_path_buf(),
            source,
        });
    }
    let removed = match std::fs::symlink_metadata(&aside) {
        Ok(metadata) if metadata.is_dir() => std::fs::remove_dir_all(&aside),
        _ => std::fs::remove_file(&aside),
    };
    // The new export is in place; an old copy that cannot be removed is left for the author to delete.
    drop(removed);
    Ok(WriteAction::Replaced)
}

fn write_tree(root: &Path, files: &[Entry]) -> Result<(), DestinationError> {
    for file in files {
        names::check_relative(&file.path).map_err(|reason| DestinationError::BadName {
            path: file.path.clone(),
            reason,
        })?;
        // Checked components only, inside a folder this export just created: nothing can redirect it.
        let path = root.join(&file.path);
        if let Some(folder) = path.parent() {
            std::fs::create_dir_all(folder).map_err(io(folder))?;
        }
        let mut handle = std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .mode(if file.executable { 0o755 } else { 0o644 })
            .open(&path)
            .map_err(io(&path))?;
        handle.write_all(&file.bytes).map_err(io(&path))?;
        handle.sync_all().map_err(io(&path))?;
    }
    Ok(())
}
