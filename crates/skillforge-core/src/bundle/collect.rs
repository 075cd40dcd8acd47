//! Reading a skill folder for export, with directory descriptors only.
//!
//! The folder is opened from `/` one component at a time, never through a link (the way discovery found
//! it), and everything below it is opened relative to its already-open parent through [`crate::fs`],
//! never by path; every file is read within [`Limit::RESOURCE`]. A symbolic link
//! anywhere in the folder is refused, or — when the author asked for it — copied as the regular file it
//! names, and only if that file lies inside the same skill folder. Nothing outside the folder is read.

use std::ffi::{CStr, OsString};
use std::os::fd::OwnedFd;
use std::path::{Path, PathBuf};

use rustix::fs::FileType;
use rustix::io::Errno;
use serde::{Deserialize, Serialize};

use super::names::{self, NameError};
use super::STAMP_FILE;
use crate::fs::read::{self, Limit};
use crate::fs::{open, walk};

/// The most bytes one skill may hold in total.
pub const MAX_SKILL_BYTES: u64 = 256 * 1024 * 1024;
/// The most files one skill may hold.
pub const MAX_FILES: usize = 20_000;
/// Folders nested deeper than this are refused rather than walked.
pub const MAX_DEPTH: usize = 32;

/// What to do with a symbolic link inside a skill.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "kebab-case")]
pub enum LinkPolicy {
    /// Every link is an error: the author decides what the export should contain.
    #[default]
    Refuse,
    /// A link to a regular file inside the same skill is copied as that file; any other link is an error.
    FollowInside,
}

/// Which files an export leaves out.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Exclusions {
    /// Leave out a top-level `evals/` folder (test data, not part of what an agent reads).
    pub top_level_evals: bool,
}

/// One file of a skill, with its path relative to the skill folder (`/`-separated, checked).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BundleFile {
    pub path: String,
    pub bytes: Vec<u8>,
    /// Whether any execute bit was set; archives keep only this, as 0755 or 0644.
    pub executable: bool,
}

/// Why a skill folder cannot be exported as it is.
#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    #[error("{}: is a symbolic link; exports copy no links (allow links to files inside the skill explicitly to copy it as that file)", .0.display())]
    Symlink(PathBuf),
    #[error("{}: symbolic link to `{target}` leaves the skill folder; it is not copied", path.display())]
    LinkEscapes { path: PathBuf, target: String },
    #[error("{}: symbolic link to `{target}` does not name a regular file inside the skill ({reason})", path.display())]
    LinkUnresolved {
        path: PathBuf,
        target: String,
        reason: String,
    },
    #[error("{}: the name {name:?} contains {reason}; rename it before exporting", parent.display())]
    BadName {
        parent: PathBuf,
        name: String,
        reason: NameError,
    },
    #[error("{}: not a regular file or folder (a FIFO, socket or device); remove it before exporting", .0.display())]
    Special(PathBuf),
    #[error("{}: is larger than the {} bytes an export copies of {}; make it smaller or leave it out of the skill", path.display(), .limit.bytes, .limit.what)]
    TooLarge { path: PathBuf, limit: Limit },
    #[error("{}: the skill holds more than {limit} files or {bytes_limit} bytes; export a smaller folder", .path.display(), limit = MAX_FILES, bytes_limit = MAX_SKILL_BYTES)]
    TooMuch { path: PathBuf },
    #[error("{}: folders nested more than {MAX_DEPTH} levels deep are not exported", .0.display())]
    TooDeep(PathBuf),
    #[error("{}: {source}", path.display())]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
}

impl ReadError {
    /// Why the guarded layer did not read the file at `path`, as an export problem.
    fn from_read(path: PathBuf, error: read::ReadError) -> ReadError {
        match error {
            read::ReadError::Symlink => ReadError::Symlink(path),
            read::ReadError::NotRegular(_) => ReadError::Special(path),
            read::ReadError::TooLarge { limit } => ReadError::TooLarge { path, limit },
            read::ReadError::NotFound => ReadError::Io {
                path,
                source: Errno::NOENT.into(),
            },
            read::ReadError::Io(errno) => ReadError::Io {
                path,
                source: errno.into(),
            },
        }
    }

    /// Whether the problem is the skill's content (the author must change it) rather than the machine.
    pub fn is_content_problem(&self) -> bool {
        !matches!(self, ReadError::Io { .. })
    }
}

/// Reads every exportable file of the skill folder `directory`, sorted by path.
///
/// All problems are reported, not just the first, so one export attempt shows the author everything.
pub fn read_skill_folder(
    directory: &Path,
    links: LinkPolicy,
    exclusions: Exclusions,
) -> Result<Vec<BundleFile>, Vec<ReadError>> {
    // A relative path (an `--out` given relative to the working folder) is opened from `/` too.
    let absolute = std::path::absolute(directory).map_err(|source| {
        vec![ReadError::Io {
            path: directory.to_path_buf(),
            source,
        }]
    })?;
    let root = open_directory_chain(&absolute).map_err(|errno| {
        vec![ReadError::Io {
            path: directory.to_path_buf(),
            source: errno.into(),
        }]
    })?;
    let mut walker = Walker {
        base: &absolute,
        root: &root,
        links,
        exclusions,
        files: Vec::new(),
        problems: Vec::new(),
        total: 0,
    };
    walker.walk(&root, &[], 0);
    if !walker.problems.is_empty() {
        return Err(walker.problems);
    }
    let mut files = walker.files;
    files.sort_by(|left, right| left.path.cmp(&right.path));
    Ok(files)
}

/// Opens an absolute folder from `/`, refusing a symbolic link at every step (as discovery walks).
fn open_directory_chain(path: &Path) -> Result<OwnedFd, Errno> {
    crate::fs::open::directory_from_root(path).map_err(|(errno, _)| errno)
}

struct Walker<'a> {
    base: &'a Path,
    root: &'a OwnedFd,
    links: LinkPolicy,
    exclusions: Exclusions,
    files: Vec<BundleFile>,
    problems: Vec<ReadError>,
    total: u64,
}

/// Names that are never part of a skill's content: caches, dependency trees, VCS data, Finder
/// metadata, the temporary file of an interrupted rewrite, and the stamp a client-folder install leaves.
pub(super) fn excluded(name: &str, top_level: bool, exclusions: Exclusions) -> bool {
    matches!(name, "__pycache__" | "node_modules" | ".DS_Store" | ".git")
        || name.ends_with(".pyc")
        // Left only by a rewrite that was killed; never part of the skill.
        || crate::fs::write::is_temporary_name(name)
        || (top_level && name == STAMP_FILE)
        || (top_level && exclusions.top_level_evals && name == "evals")
}

impl Walker<'_> {
    fn shown(&self, parts: &[String]) -> PathBuf {
        let mut path = self.base.to_path_buf();
        for part in parts {
            path.push(part);
        }
        path
    }

    fn io(&mut self, parts: &[String], errno: Errno) {
        let path = self.shown(parts);
        self.problems.push(ReadError::Io {
            path,
            source: errno.into(),
        });
    }

    fn walk(&mut self, directory: &OwnedFd, prefix: &[String], depth: usize) {
        if depth > MAX_DEPTH {
            let path = self.shown(prefix);
            self.problems.push(ReadError::TooDeep(path));
            return;
        }
        let entries = match walk::list(directory) {
            Ok(entries) => entries,
            Err(errno) => return self.io(prefix, errno),
        };
        for entry in entries {
            if self.problems.len() > 100 {
                // Enough to act on; a folder of thousands of bad names would drown the report.
                return;
            }
            let raw = entry.name.as_c_str();
            let lossy = String::from_utf8_lossy(raw.to_bytes()).into_owned();
            if excluded(&lossy, prefix.is_empty(), self.exclusions) {
                continue;
            }
            let name = match names::component_from_bytes(raw.to_bytes()) {
                Ok(name) => name.to_string(),
                Err(reason) => {
                    let parent = self.shown(prefix);
                    self.problems.push(ReadError::BadName {
                        parent,
                        name: lossy,
                        reason,
                    });
                    continue;
                }
            };
            let mut parts = prefix.to_vec();
            parts.push(name);
            match entry.kind {
                FileType::Directory => match open::directory_at(directory, raw) {
                    Ok(child) => self.walk(&child, &parts, depth + 1),
                    Err(Errno::LOOP | Errno::NOTDIR) => {
                        // Swapped for a link between the listing and the open.
                        let path = self.shown(&parts);
                        self.problems.push(ReadError::Symlink(path));
                    }
                    Err(errno) => self.io(&parts, errno),
                },
                FileType::RegularFile => {
                    let read = open::file_at(directory, raw)
                        .map_err(read::ReadError::from_open)
                        .and_then(|descriptor| read::regular(descriptor, Limit::RESOURCE));
                    self.add_read(read, &parts);
                }
                FileType::Symlink => self.follow(directory, raw, &parts),
                _ => {
                    let path = self.shown(&parts);
                    self.problems.push(ReadError::Special(path));
                }
            }
        }
    }

    /// Adds a file read by the guarded layer, or records why it was not read.
    fn add_read(&mut self, read: Result<read::Read, read::ReadError>, parts: &[String]) {
        match read {
            Ok(read) => {
                let executable = read.identity.mode & 0o111 != 0;
                self.add((read.bytes, executable), parts);
            }
            Err(error) => {
                let path = self.shown(parts);
                self.problems.push(ReadError::from_read(path, error));
            }
        }
    }

    fn add(&mut self, (bytes, executable): (Vec<u8>, bool), parts: &[String]) {
        self.total += bytes.len() as u64;
        if self.files.len() >= MAX_FILES || self.total > MAX_SKILL_BYTES {
            if !self
                .problems
                .iter()
                .any(|problem| matches!(problem, ReadError::TooMuch { .. }))
            {
                self.problems.push(ReadError::TooMuch {
                    path: self.base.to_path_buf(),
                });
            }
            return;
        }
        self.files.push(BundleFile {
            path: parts.join("/"),
            bytes,
            executable,
        });
    }

    /// A link inside the skill: refused, or copied as the regular file it names inside the skill.
    fn follow(&mut self, directory: &OwnedFd, name: &CStr, parts: &[String]) {
        let path = self.shown(parts);
        if self.links == LinkPolicy::Refuse {
            self.problems.push(ReadError::Symlink(path));
            return;
        }
        let target = match open::link_target_at(directory, name) {
            Ok(target) => PathBuf::from(target),
            Err(errno) => return self.io(parts, errno),
        };
        let target_text = target.to_string_lossy().into_owned();
        // Resolved as the kernel would, one component at a time from the skill folder and never past
        // it: a target that climbs above the skill folder (or starts at `/` outside it) leaves the skill.
        let link_folder: Vec<OsString> = parts[..parts.len().saturating_sub(1)]
            .iter()
            .map(OsString::from)
            .collect();
        let resolved = match walk::resolve_beneath(self.root, self.base, &link_folder, &target) {
            Ok(resolved) => resolved,
            Err(walk::Unresolved::Outside) => {
                self.problems.push(ReadError::LinkEscapes {
                    path,
                    target: target_text,
                });
                return;
            }
            Err(walk::Unresolved::Io { errno, .. }) => {
                self.problems.push(ReadError::LinkUnresolved {
                    path,
                    target: target_text,
                    reason: describe(errno),
                });
                return;
            }
        };
        let Some((last, folders)) = resolved.split_last() else {
            self.problems.push(ReadError::LinkUnresolved {
                path,
                target: target_text,
                reason: "it names the skill folder itself".to_string(),
            });
            return;
        };
        let unresolved = |reason: String| ReadError::LinkUnresolved {
            path: path.clone(),
            target: target_text.clone(),
            reason,
        };
        // Opened from the skill folder without following links.
        let parent =
            match open::directory_beneath(self.root, folders.iter().map(OsString::as_os_str)) {
                Ok(parent) => parent,
                Err((errno, _)) => return self.problems.push(unresolved(describe(errno))),
            };
        match open::file_at(&parent, last.as_os_str()) {
            Ok(descriptor) => self.add_read(read::regular(descriptor, Limit::RESOURCE), parts),
            Err(errno) => self.problems.push(unresolved(describe(errno))),
        }
    }
}

fn describe(errno: Errno) -> String {
    format!("it {}", walk::Unresolved::why(errno))
}
