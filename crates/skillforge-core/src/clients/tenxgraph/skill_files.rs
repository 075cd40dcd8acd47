//! Files inside one skill directory, reached only through directory descriptors.
//!
//! 10xGraph resolves a requested path with `Path.resolve()` (symlinks followed, `..` applied to the
//! resolved prefix) and accepts it when the result lies under the skill directory. The same
//! resolution is done here one component at a time through [`crate::fs::open`]: each directory is
//! opened relative to its already-open parent without following a link, a symbolic link is read
//! and its target walked the same way, and the final file is opened relative to its pinned parent. A link that a
//! string check would miss, or one swapped in between a check and an open, is therefore never
//! followed by the kernel.

use std::ffi::{OsStr, OsString};
use std::os::fd::OwnedFd;
use std::os::unix::ffi::{OsStrExt, OsStringExt};
use std::path::{Path, PathBuf};

use rustix::fs::FileType;
use rustix::io::Errno;

use crate::fs::{self as guarded, open, ReadError};

/// Python's `os.path.realpath` gives up after this many links in one resolution.
const MAX_LINKS: usize = 40;
/// Directory levels walked when listing; far beyond real skills, and it bounds open descriptors.
const MAX_LIST_DEPTH: usize = 64;
/// Directory names never listed (10xGraph's `_IGNORED_DIRS`).
const IGNORED_DIRS: [&str; 2] = ["node_modules", "__pycache__"];
/// File suffixes never listed.
const IGNORED_SUFFIXES: [&str; 2] = [".pyc", ".pyo"];
const SKILL_FILE: &str = "SKILL.md";

/// A resolved path: the descriptors of every directory from `/` down to its parent, the
/// resolved components, and whether the final component exists.
struct Resolved {
    /// Components of the resolved absolute path.
    components: Vec<OsString>,
    /// Open descriptors for `/` and for each existing directory prefix of `components`.
    directories: Vec<OwnedFd>,
}

fn open_root() -> Result<OwnedFd, Errno> {
    open::root_directory(Path::new("/"))
}

impl Resolved {
    /// Opens an absolute directory path without following any link in it.
    fn directory(path: &Path) -> Result<Self, Errno> {
        let mut resolved = Self {
            components: Vec::new(),
            directories: vec![open_root()?],
        };
        for part in path.components().skip(1) {
            let name = part.as_os_str();
            let parent = resolved.directories.last().ok_or(Errno::NOENT)?;
            let child = open::directory_at(parent, name)?;
            resolved.components.push(name.to_os_string());
            resolved.directories.push(child);
        }
        Ok(resolved)
    }

    /// Whether every component has an open directory (no missing tail).
    fn fully_open(&self) -> bool {
        self.directories.len() == self.components.len() + 1
    }

    fn pop(&mut self) {
        if self.fully_open() && self.directories.len() > 1 {
            self.directories.pop();
        }
        self.components.pop();
    }

    /// Applies `relative` as `os.path.realpath` would, following links through descriptors.
    fn walk(&mut self, relative: &[u8], links: &mut usize) -> Result<(), Errno> {
        for part in relative.split(|byte| *byte == b'/') {
            match part {
                b"" | b"." => continue,
                b".." => {
                    self.pop();
                    continue;
                }
                _ => {}
            }
            let name = OsStr::from_bytes(part);
            if !self.fully_open() {
                // Below a missing component nothing exists; Python keeps the text as written.
                self.components.push(name.to_os_string());
                continue;
            }
            let parent = self.directories.last().ok_or(Errno::NOENT)?;
            let kind = match open::kind_at(parent, name) {
                Ok(kind) => Some(kind),
                Err(Errno::NOENT | Errno::NOTDIR) => None,
                Err(error) => return Err(error),
            };
            match kind {
                Some(FileType::Symlink) => {
                    *links += 1;
                    if *links > MAX_LINKS {
                        return Err(Errno::LOOP);
                    }
                    let target = open::link_target_at(parent, name)?.into_vec();
                    if target.first() == Some(&b'/') {
                        *self = Self {
                            components: Vec::new(),
                            directories: vec![open_root()?],
                        };
                    }
                    self.walk(&target, links)?;
                }
                Some(FileType::Directory) => {
                    let child = open::directory_at(parent, name)?;
                    self.components.push(name.to_os_string());
                    self.directories.push(child);
                }
                _ => {
                    // A file (or nothing): later components cannot be opened beneath it.
                    self.components.push(name.to_os_string());
                }
            }
        }
        Ok(())
    }

    /// The path below `root`, `"."` for the root itself, or `None` when outside it.
    fn relative_to(&self, root: &[OsString]) -> Option<String> {
        if self.components.len() < root.len() || self.components[..root.len()] != *root {
            return None;
        }
        let rest: Vec<String> = self.components[root.len()..]
            .iter()
            .map(|part| part.to_string_lossy().into_owned())
            .collect();
        Some(if rest.is_empty() {
            ".".to_string()
        } else {
            rest.join("/")
        })
    }
}

/// What a requested path turned out to be.
pub(crate) enum Target {
    /// A directory inside the skill; `relative` is `"."` for the skill directory itself.
    Directory {
        relative: String,
        descriptor: OwnedFd,
    },
    /// A regular file inside the skill.
    File {
        relative: String,
        descriptor: OwnedFd,
        absolute: PathBuf,
    },
    /// Nothing there (or something that is neither a file nor a directory).
    Missing { relative: String },
    /// The resolved path leaves the skill directory.
    Outside,
}

/// Resolves `relative` (already cleaned of `./` prefixes and backslashes) inside `skill_dir`.
pub(crate) fn resolve(skill_dir: &Path, relative: &str) -> Result<Target, Errno> {
    let root = Resolved::directory(skill_dir)?;
    let root_components = root.components.clone();
    let mut resolved = root;
    let mut links = 0;
    resolved.walk(relative.as_bytes(), &mut links)?;
    let Some(relative) = resolved.relative_to(&root_components) else {
        return Ok(Target::Outside);
    };
    if resolved.fully_open() {
        let descriptor = resolved.directories.pop().ok_or(Errno::NOENT)?;
        return Ok(Target::Directory {
            relative,
            descriptor,
        });
    }
    let parent_is_open = resolved.directories.len() == resolved.components.len();
    let (Some(name), true) = (resolved.components.last(), parent_is_open) else {
        return Ok(Target::Missing { relative });
    };
    let Some(parent) = resolved.directories.last() else {
        return Ok(Target::Missing { relative });
    };
    let descriptor = match open::file_at(parent, name.as_os_str()) {
        Ok(descriptor) => descriptor,
        Err(Errno::NOENT | Errno::LOOP | Errno::NOTDIR) => return Ok(Target::Missing { relative }),
        Err(error) => return Err(error),
    };
    let stat = rustix::fs::fstat(&descriptor)?;
    if FileType::from_raw_mode(stat.st_mode) != FileType::RegularFile {
        return Ok(Target::Missing { relative });
    }
    let mut absolute = PathBuf::from("/");
    absolute.extend(&resolved.components);
    Ok(Target::File {
        relative,
        descriptor,
        absolute,
    })
}

/// Reads at most `limit` bytes of an open file and reports its size when opened.
pub(crate) fn read_prefix(descriptor: OwnedFd, limit: usize) -> Result<(u64, Vec<u8>), Errno> {
    let prefix = guarded::read::prefix(descriptor, limit).map_err(errno_of)?;
    Ok((prefix.size, prefix.bytes))
}

/// Reads the whole regular file `name` in `directory`, without following a link below `/`, within
/// the engine's limit for a SKILL.md.
pub(crate) fn read_file_in(directory: &Path, name: &str) -> Result<Vec<u8>, ReadError> {
    let parent = Resolved::directory(directory).map_err(ReadError::from_open)?;
    let parent = parent.directories.last().ok_or(ReadError::NotFound)?;
    guarded::read::regular_at(parent, name, guarded::Limit::SKILL_FILE).map(|read| read.bytes)
}

/// The `errno` a Python client would have seen for a failed read.
fn errno_of(error: ReadError) -> Errno {
    match error {
        ReadError::NotFound => Errno::NOENT,
        ReadError::Symlink => Errno::LOOP,
        ReadError::NotRegular(FileType::Directory) => Errno::ISDIR,
        ReadError::NotRegular(_) => Errno::INVAL,
        ReadError::TooLarge { .. } => Errno::FBIG,
        ReadError::Io(errno) => errno,
    }
}

fn is_listed(parts: &[String]) -> bool {
    let Some(name) = parts.last() else {
        return false;
    };
    !(parts
        .iter()
        .any(|part| part.starts_with('.') || IGNORED_DIRS.contains(&part.as_str()))
        || IGNORED_SUFFIXES.iter().any(|suffix| name.ends_with(suffix)))
}

/// 10xGraph's `list_skill_files`: files below `start` (a directory of the skill whose path
/// relative to the skill directory is `prefix`), hidden and ignored entries left out, SKILL.md
/// itself left out, sorted; at most `limit`, plus whether more exist.
pub(crate) fn list_files(skill_dir: &Path, subdir: &str, limit: usize) -> (Vec<String>, bool) {
    let start = match resolve(skill_dir, subdir) {
        Ok(Target::Directory { descriptor, .. }) => descriptor,
        _ => return (Vec::new(), false),
    };
    let prefix: Vec<String> = subdir
        .split('/')
        .filter(|part| !part.is_empty() && *part != ".")
        .map(str::to_string)
        .collect();
    let mut found = Vec::new();
    walk_directory(&start, &prefix, 0, &mut found);
    found.sort();
    let truncated = found.len() > limit;
    found.truncate(limit);
    (found, truncated)
}

fn walk_directory(directory: &OwnedFd, prefix: &[String], depth: usize, found: &mut Vec<String>) {
    let Ok(entries) = guarded::walk::list(directory) else {
        return;
    };
    let mut directories = Vec::new();
    for entry in &entries {
        let name = entry.name.to_string_lossy().into_owned();
        let is_file = match entry.kind {
            FileType::Directory => {
                directories.push((name, entry));
                continue;
            }
            // os.walk counts a link to a directory as a directory it does not enter, and any
            // other link (broken ones included) as a file.
            FileType::Symlink => !open::target_kind_at(directory, entry.name.as_c_str())
                .is_ok_and(|kind| kind == FileType::Directory),
            _ => true,
        };
        if is_file {
            let mut parts = prefix.to_vec();
            parts.push(name);
            let relative = parts.join("/");
            if relative != SKILL_FILE && is_listed(&parts) {
                found.push(relative);
            }
        }
    }
    if depth >= MAX_LIST_DEPTH {
        return;
    }
    for (name, entry) in directories {
        if name.starts_with('.') || IGNORED_DIRS.contains(&name.as_str()) {
            continue;
        }
        if let Ok(child) = open::directory_at(directory, entry.name.as_c_str()) {
            let mut parts = prefix.to_vec();
            parts.push(name);
            walk_directory(&child, &parts, depth + 1, found);
        }
    }
}
