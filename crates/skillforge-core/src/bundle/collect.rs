//! Reading a skill folder for export, with directory descriptors only.
//!
//! The folder is opened from `/` one component at a time with `O_NOFOLLOW` (the way discovery found it),
//! and everything below it is opened relative to its already-open parent, never by path. A symbolic link
//! anywhere in the folder is refused, or — when the author asked for it — copied as the regular file it
//! names, and only if that file lies inside the same skill folder. Nothing outside the folder is read.

use std::ffi::{CString, OsStr};
use std::io::Read;
use std::os::fd::OwnedFd;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};

use rustix::fs::{AtFlags, Dir, FileType, Mode, OFlags};
use rustix::io::Errno;
use serde::{Deserialize, Serialize};

use super::names::{self, NameError};
use super::STAMP_FILE;

/// The largest single file an export copies.
pub const MAX_FILE_BYTES: u64 = 64 * 1024 * 1024;
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
    #[error("{}: {size} bytes is more than the {limit} bytes an export copies", path.display())]
    TooLarge {
        path: PathBuf,
        size: u64,
        limit: u64,
    },
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
    let root = open_directory_chain(directory).map_err(|errno| {
        vec![ReadError::Io {
            path: directory.to_path_buf(),
            source: errno.into(),
        }]
    })?;
    let mut walker = Walker {
        base: directory,
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
/// metadata, and the stamp a client-folder install leaves.
fn excluded(name: &str, top_level: bool, exclusions: Exclusions) -> bool {
    matches!(name, "__pycache__" | "node_modules" | ".DS_Store" | ".git")
        || name.ends_with(".pyc")
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
        let mut listing = match Dir::read_from(directory) {
            Ok(listing) => listing,
            Err(errno) => return self.io(prefix, errno),
        };
        let mut names: Vec<CString> = Vec::new();
        while let Some(entry) = listing.read() {
            match entry {
                Ok(entry) => {
                    let name = entry.file_name();
                    if name != c"." && name != c".." {
                        names.push(name.to_owned());
                    }
                }
                Err(errno) => return self.io(prefix, errno),
            }
        }
        names.sort();
        for raw in names {
            if self.problems.len() > 100 {
                // Enough to act on; a folder of thousands of bad names would drown the report.
                return;
            }
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
            let stat =
                match rustix::fs::statat(directory, raw.as_c_str(), AtFlags::SYMLINK_NOFOLLOW) {
                    Ok(stat) => stat,
                    Err(errno) => {
                        self.io(&parts, errno);
                        continue;
                    }
                };
            match FileType::from_raw_mode(stat.st_mode) {
                FileType::Directory => {
                    let flags =
                        OFlags::RDONLY | OFlags::DIRECTORY | OFlags::NOFOLLOW | OFlags::CLOEXEC;
                    match rustix::fs::openat(directory, raw.as_c_str(), flags, Mode::empty()) {
                        Ok(child) => self.walk(&child, &parts, depth + 1),
                        Err(Errno::LOOP | Errno::NOTDIR) => {
                            // Swapped for a link between the listing and the open.
                            let path = self.shown(&parts);
                            self.problems.push(ReadError::Symlink(path));
                        }
                        Err(errno) => self.io(&parts, errno),
                    }
                }
                FileType::RegularFile => {
                    if let Some(file) = self.read_regular(directory, raw.as_c_str(), &parts) {
                        self.add(file, &parts);
                    }
                }
                FileType::Symlink => self.follow(directory, raw.as_c_str(), &parts),
                _ => {
                    let path = self.shown(&parts);
                    self.problems.push(ReadError::Special(path));
                }
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

    /// Reads a regular file; `O_NONBLOCK` keeps a FIFO swapped in after the listing from hanging.
    fn read_regular(
        &mut self,
        directory: &OwnedFd,
        name: &std::ffi::CStr,
        parts: &[String],
    ) -> Option<(Vec<u8>, bool)> {
        let flags = OFlags::RDONLY | OFlags::NOFOLLOW | OFlags::NONBLOCK | OFlags::CLOEXEC;
        let descriptor = match rustix::fs::openat(directory, name, flags, Mode::empty()) {
            Ok(descriptor) => descriptor,
            Err(Errno::LOOP) => {
                let path = self.shown(parts);
                self.problems.push(ReadError::Symlink(path));
                return None;
            }
            Err(errno) => {
                self.io(parts, errno);
                return None;
            }
        };
        self.read_descriptor(descriptor, parts)
    }

    fn read_descriptor(
        &mut self,
        descriptor: OwnedFd,
        parts: &[String],
    ) -> Option<(Vec<u8>, bool)> {
        let stat = match rustix::fs::fstat(&descriptor) {
            Ok(stat) => stat,
            Err(errno) => {
                self.io(parts, errno);
                return None;
            }
        };
        if FileType::from_raw_mode(stat.st_mode) != FileType::RegularFile {
            let path = self.shown(parts);
            self.problems.push(ReadError::Special(path));
            return None;
        }
        let size = u64::try_from(stat.st_size).unwrap_or(0);
        if size > MAX_FILE_BYTES {
            let path = self.shown(parts);
            self.problems.push(ReadError::TooLarge {
                path,
                size,
                limit: MAX_FILE_BYTES,
            });
            return None;
        }
        let mut bytes = Vec::with_capacity(usize::try_from(size).unwrap_or(0));
        let mut file = std::fs::File::from(descriptor);
        // The file may grow after fstat: never read past the limit.
        if let Err(source) = Read::by_ref(&mut file)
            .take(MAX_FILE_BYTES + 1)
            .read_to_end(&mut bytes)
        {
            let path = self.shown(parts);
            self.problems.push(ReadError::Io { path, source });
            return None;
        }
        if bytes.len() as u64 > MAX_FILE_BYTES {
            let path = self.shown(parts);
            self.problems.push(ReadError::TooLarge {
                path,
                size: bytes.len() as u64,
                limit: MAX_FILE_BYTES,
            });
            return None;
        }
        Some((bytes, stat.st_mode & 0o111 != 0))
    }

    /// A link inside the skill: refused, or copied as the regular file it names inside the skill.
    fn follow(&mut self, directory: &OwnedFd, name: &std::ffi::CStr, parts: &[String]) {
        let path = self.shown(parts);
        if self.links == LinkPolicy::Refuse {
            self.problems.push(ReadError::Symlink(path));
            return;
        }
        let target = match rustix::fs::readlinkat(directory, name, Vec::new()) {
            Ok(target) => target,
            Err(errno) => return self.io(parts, errno),
        };
        let target_text = String::from_utf8_lossy(target.to_bytes()).into_owned();
        // Resolve lexically against the link's folder; a target that climbs above the skill folder or
        // starts at `/` leaves the skill, whatever the disk says.
        let mut resolved: Vec<Vec<u8>> = parts[..parts.len().saturating_sub(1)]
            .iter()
            .map(|part| part.as_bytes().to_vec())
            .collect();
        if target.to_bytes().starts_with(b"/") {
            self.problems.push(ReadError::LinkEscapes {
                path,
                target: target_text,
            });
            return;
        }
        for component in target.to_bytes().split(|byte| *byte == b'/') {
            match component {
                b"" | b"." => {}
                b".." => {
                    if resolved.pop().is_none() {
                        self.problems.push(ReadError::LinkEscapes {
                            path,
                            target: target_text,
                        });
                        return;
                    }
                }
                other => resolved.push(other.to_vec()),
            }
        }
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
        // Walk from the skill folder with O_NOFOLLOW: a chain of links is not followed either.
        let mut current: Option<OwnedFd> = None;
        for folder in folders {
            let parent = current.as_ref().unwrap_or(self.root);
            let flags = OFlags::RDONLY | OFlags::DIRECTORY | OFlags::NOFOLLOW | OFlags::CLOEXEC;
            match rustix::fs::openat(parent, OsStr::from_bytes(folder), flags, Mode::empty()) {
                Ok(child) => current = Some(child),
                Err(errno) => {
                    self.problems.push(unresolved(describe(errno)));
                    return;
                }
            }
        }
        let parent = current.as_ref().unwrap_or(self.root);
        let flags = OFlags::RDONLY | OFlags::NOFOLLOW | OFlags::NONBLOCK | OFlags::CLOEXEC;
        match rustix::fs::openat(parent, OsStr::from_bytes(last), flags, Mode::empty()) {
            Ok(descriptor) => {
                if let Some(file) = self.read_descriptor(descriptor, parts) {
                    self.add(file, parts);
                }
            }
            Err(errno) => self.problems.push(unresolved(describe(errno))),
        }
    }
}

fn describe(errno: Errno) -> String {
    match errno {
        Errno::LOOP => "it is another link; chains of links are not followed".to_string(),
        Errno::NOENT => "no such file".to_string(),
        Errno::NOTDIR => "a folder on the way is not a folder".to_string(),
        other => std::io::Error::from(other).to_string(),
    }
}
