//! The directory source: SKILL.md files under explicitly selected roots, found exactly as
//! nagents' `DirectorySkillDiscoverer` finds them.
//!
//! Safety comes from how files are opened, not from checking paths: every directory is opened
//! with `O_NOFOLLOW` relative to its already-open parent, starting from the filesystem root, so
//! a symlink swapped in during the walk is refused by the kernel instead of followed (a path
//! check followed by an open would leave that race open). Skill files are opened with
//! `O_NONBLOCK` so that a FIFO named SKILL.md cannot stall discovery.
//!
//! Where the walk can be faster than nagents without changing any result, it is: the directory
//! stays open while its children are walked (nagents reopens the chain from `/` each time), and
//! the entry type reported by the directory listing is trusted, with a `stat` only when the
//! file system does not report it.

use std::cmp::Ordering;
use std::collections::{BTreeMap, HashSet};
use std::ffi::{CStr, OsStr, OsString};
use std::os::fd::{AsFd, OwnedFd};
use std::os::unix::ffi::{OsStrExt, OsStringExt};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use async_trait::async_trait;
use rustix::fs::{AtFlags, Dir, FileType, Mode, OFlags};
use rustix::io::Errno;

use super::{SkillSource, SourceError, Survey};
use crate::catalog::skill_catalog;
use crate::frontmatter::lite::parse_skill_metadata;
use crate::python;
use crate::skill::Skill;

/// The largest SKILL.md nagents reads, in bytes.
pub const MAX_FILE_BYTES: usize = 4_000_000;
/// How many diagnostics nagents keeps per discovery.
pub const MAX_DIAGNOSTICS: usize = 20;
/// How much of a path and of an error text each diagnostic keeps, in code points.
const DIAGNOSTIC_PART_CHARS: usize = 300;
const SKILL_FILE: &str = "SKILL.md";

/// The walk's bounds: entries (directories included) across all roots, and depth below a root.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DirectoryOptions {
    max_entries: usize,
    max_depth: usize,
}

impl Default for DirectoryOptions {
    fn default() -> Self {
        Self {
            max_entries: 10_000,
            max_depth: 16,
        }
    }
}

impl DirectoryOptions {
    /// Accepts what nagents accepts: at least one entry and a nonnegative depth.
    pub fn new(max_entries: i64, max_depth: i64) -> Result<Self, SourceError> {
        if max_entries < 1 || max_depth < 0 {
            return Err(SourceError::InvalidLimits);
        }
        Ok(Self {
            max_entries: usize::try_from(max_entries).unwrap_or(usize::MAX),
            max_depth: usize::try_from(max_depth).unwrap_or(usize::MAX),
        })
    }

    pub fn max_entries(&self) -> usize {
        self.max_entries
    }

    pub fn max_depth(&self) -> usize {
        self.max_depth
    }
}

#[derive(Debug, Default)]
struct Published {
    catalog: BTreeMap<String, Skill>,
    diagnostics: Vec<String>,
}

/// Discovers SKILL.md files under its roots without following symlinks.
#[derive(Debug)]
pub struct DirectorySource {
    roots: Arc<[PathBuf]>,
    options: DirectoryOptions,
    published: Mutex<Published>,
}

impl DirectorySource {
    /// Roots are made absolute the way nagents does it (`~` expanded, `.` and `..` collapsed
    /// lexically, links not resolved), so locations read exactly as nagents prints them.
    pub fn new(
        roots: impl IntoIterator<Item = impl AsRef<Path>>,
        options: DirectoryOptions,
    ) -> Self {
        let roots: Vec<PathBuf> = roots
            .into_iter()
            .map(|root| absolute_root(root.as_ref()))
            .collect();
        Self {
            roots: roots.into(),
            options,
            published: Mutex::new(Published::default()),
        }
    }

    /// The roots as they are walked.
    pub fn roots(&self) -> &[PathBuf] {
        &self.roots
    }

    /// Walks the roots now, on this thread, and publishes nothing.
    pub fn walk(&self) -> Survey {
        walk_roots(&self.roots, self.options)
    }

    fn published(&self) -> std::sync::MutexGuard<'_, Published> {
        // The lock only guards plain data; a panic elsewhere cannot leave it half-written.
        self.published
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    async fn walk_in_background(&self) -> Result<Survey, SourceError> {
        let roots = Arc::clone(&self.roots);
        let options = self.options;
        tokio::task::spawn_blocking(move || walk_roots(&roots, options))
            .await
            .map_err(|error| SourceError::Interrupted(error.to_string()))
    }
}

#[async_trait]
impl SkillSource for DirectorySource {
    async fn discover(&self) -> Result<Vec<Skill>, SourceError> {
        let survey = self.walk_in_background().await?;
        let catalog = skill_catalog(survey.found)?;
        let skills = catalog.values().cloned().collect();
        let mut published = self.published();
        published.catalog = catalog;
        published.diagnostics = survey.diagnostics;
        Ok(skills)
    }

    async fn load(&self, skill: &Skill) -> Result<String, SourceError> {
        if self.published().catalog.get(&skill.name) != Some(skill) {
            return Err(SourceError::NotInDirectoryCatalog(skill.name.clone()));
        }
        let path = PathBuf::from(&skill.location);
        if !self.roots.iter().any(|root| path.starts_with(root)) {
            return Err(SourceError::OutsideRoots);
        }
        let location = skill.location.clone();
        let content = tokio::task::spawn_blocking(move || read_skill_at(&path))
            .await
            .map_err(|error| SourceError::Interrupted(error.to_string()))?
            .map_err(SourceError::Read)?;
        let directory_name = Path::new(&location)
            .parent()
            .and_then(Path::file_name)
            .map(|name| name.to_string_lossy().into_owned())
            .unwrap_or_default();
        let current = parse_skill_metadata(&content, &location, &directory_name)?;
        if &current != skill {
            return Err(SourceError::Changed(skill.name.clone()));
        }
        Ok(content)
    }

    fn diagnostics(&self) -> Vec<String> {
        self.published().diagnostics.clone()
    }

    async fn survey(&self) -> Result<Survey, SourceError> {
        self.walk_in_background().await
    }
}

/// `Path(os.path.abspath(Path(root).expanduser()))`.
pub fn absolute_root(root: &Path) -> PathBuf {
    let expanded = expand_user(root.as_os_str());
    let bytes = expanded.as_bytes();
    let joined = if bytes.starts_with(b"/") {
        expanded.clone()
    } else {
        match std::env::current_dir() {
            Ok(current) => {
                let mut joined = current.into_os_string().into_vec();
                if !joined.ends_with(b"/") {
                    joined.push(b'/');
                }
                joined.extend_from_slice(bytes);
                OsString::from_vec(joined)
            }
            // Without a working directory Python would fail too; keep the path as given.
            Err(_) => expanded.clone(),
        }
    };
    PathBuf::from(OsString::from_vec(normalize(joined.as_bytes())))
}

/// `~` and `~/…` become `$HOME`; `~user` forms are left alone.
fn expand_user(path: &OsStr) -> OsString {
    let bytes = path.as_bytes();
    if bytes == b"~" || bytes.starts_with(b"~/") {
        if let Some(home) = std::env::var_os("HOME") {
            let home = home.into_vec();
            let mut trimmed = home.as_slice();
            while let Some(rest) = trimmed.strip_suffix(b"/") {
                trimmed = rest;
            }
            let mut expanded = trimmed.to_vec();
            expanded.extend_from_slice(&bytes[1..]);
            if expanded.is_empty() {
                expanded.push(b'/');
            }
            return OsString::from_vec(expanded);
        }
    }
    path.to_os_string()
}

/// `posixpath.normpath`: collapses `.`, `..` and repeated slashes without touching the disk,
/// keeping exactly two leading slashes as POSIX allows.
fn normalize(path: &[u8]) -> Vec<u8> {
    if path.is_empty() {
        return b".".to_vec();
    }
    let leading = if path.starts_with(b"//") && !path.starts_with(b"///") {
        2
    } else if path.starts_with(b"/") {
        1
    } else {
        0
    };
    let mut parts: Vec<&[u8]> = Vec::new();
    for part in path.split(|byte| *byte == b'/') {
        if part.is_empty() || part == b"." {
            continue;
        }
        if part != b".." || (leading == 0 && parts.is_empty()) || parts.last() == Some(&&b".."[..])
        {
            parts.push(part);
        } else if !parts.is_empty() {
            parts.pop();
        }
    }
    let mut out = vec![b'/'; leading];
    out.extend_from_slice(&parts.join(&b'/'));
    if out.is_empty() {
        out.push(b'.');
    }
    out
}

/// What the walk needs to know about one directory entry.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Directory,
    Regular,
    /// Symlinks, devices, sockets, FIFOs, and entries that could not be inspected.
    Other,
}

struct Entry {
    name: std::ffi::CString,
    kind: Kind,
    /// Whether the name is valid UTF-8; only other names need Python's code point ordering.
    utf8: bool,
}

struct Walker {
    options: DirectoryOptions,
    remaining: usize,
    visited: HashSet<PathBuf>,
    survey: Survey,
}

fn walk_roots(roots: &[PathBuf], options: DirectoryOptions) -> Survey {
    let mut walker = Walker {
        options,
        remaining: options.max_entries,
        visited: HashSet::new(),
        survey: Survey::default(),
    };
    for root in roots {
        if walker.remaining > 0 {
            walker.walk(root, 0, &|_| open_directory_chain(root));
        }
    }
    walker.survey
}

impl Walker {
    fn diagnose(&mut self, path: &Path, error: &str) {
        if self.survey.diagnostics.len() < MAX_DIAGNOSTICS {
            let path = path.to_string_lossy();
            self.survey.diagnostics.push(format!(
                "{}: {}",
                python::char_prefix(&path, DIAGNOSTIC_PART_CHARS),
                python::char_prefix(error, DIAGNOSTIC_PART_CHARS)
            ));
        }
    }

    fn walk(
        &mut self,
        directory: &Path,
        depth: usize,
        open: &dyn Fn(&Path) -> Result<OwnedFd, String>,
    ) {
        if !self.visited.insert(directory.to_path_buf()) {
            return;
        }
        let listed = open(directory).and_then(|descriptor| {
            let dir = Dir::new(descriptor)
                .map_err(|errno| python::os_error(errno.raw_os_error(), None))?;
            Ok(dir)
        });
        let mut dir = match listed {
            Ok(dir) => dir,
            Err(error) => return self.diagnose(directory, &error),
        };
        let mut entries: Vec<Entry> = Vec::new();
        let mut limit_hit = false;
        loop {
            let entry = match dir.read() {
                None => break,
                Some(Ok(entry)) => entry,
                Some(Err(errno)) => {
                    // nagents abandons a directory whose listing fails, counting nothing.
                    return self.diagnose(directory, &python::os_error(errno.raw_os_error(), None));
                }
            };
            let name = entry.file_name();
            if name == c"." || name == c".." {
                continue;
            }
            // The limit bites only when one more entry exists than the budget allows; then the
            // directory publishes nothing rather than an arbitrary filesystem-order subset.
            if entries.len() >= self.remaining {
                limit_hit = true;
                break;
            }
            let kind = match entry.file_type() {
                FileType::Directory => Kind::Directory,
                FileType::RegularFile => Kind::Regular,
                FileType::Unknown => match dir
                    .fd()
                    .and_then(|fd| rustix::fs::statat(fd, name, AtFlags::SYMLINK_NOFOLLOW))
                {
                    Ok(stat) => match FileType::from_raw_mode(stat.st_mode) {
                        FileType::Directory => Kind::Directory,
                        FileType::RegularFile => Kind::Regular,
                        _ => Kind::Other,
                    },
                    Err(errno) => {
                        let shown = name.to_string_lossy();
                        let message = python::os_error(errno.raw_os_error(), Some(&shown));
                        self.diagnose(
                            &directory.join(OsStr::from_bytes(name.to_bytes())),
                            &message,
                        );
                        Kind::Other
                    }
                },
                _ => Kind::Other,
            };
            let utf8 = std::str::from_utf8(name.to_bytes()).is_ok();
            entries.push(Entry {
                name: name.to_owned(),
                kind,
                utf8,
            });
        }
        if limit_hit {
            self.diagnose(
                directory,
                "discovery entry limit reached; increase max_entries",
            );
            entries.clear();
            self.remaining = 0;
        }
        self.remaining -= entries.len();
        entries.sort_by(compare_names);
        for entry in &entries {
            let path = directory.join(OsStr::from_bytes(entry.name.to_bytes()));
            match entry.kind {
                Kind::Directory => {
                    if depth < self.options.max_depth && self.remaining > 0 {
                        let parent = &dir;
                        self.walk(&path, depth + 1, &|_| {
                            open_child_directory(parent, &entry.name)
                        });
                    } else {
                        self.diagnose(&path, "discovery depth/entry limit reached");
                    }
                }
                Kind::Regular if entry.name.to_bytes() == SKILL_FILE.as_bytes() => {
                    let result = dir
                        .fd()
                        .map_err(|errno| python::os_error(errno.raw_os_error(), None))
                        .and_then(|fd| read_skill_file(fd, &entry.name))
                        .and_then(|content| {
                            let location = path.to_string_lossy();
                            let directory_name = directory
                                .file_name()
                                .map(|name| name.to_string_lossy())
                                .unwrap_or_default();
                            parse_skill_metadata(&content, &location, &directory_name)
                                .map_err(|error| error.to_string())
                        });
                    match result {
                        Ok(skill) => self.survey.found.push(skill),
                        Err(error) => self.diagnose(&path, &error),
                    }
                }
                _ => {}
            }
        }
    }
}

/// Python sorts names as `str`: by code point, with undecodable bytes as surrogate escapes
/// (U+DC80..U+DCFF). For UTF-8 names that is plain byte order.
fn compare_names(a: &Entry, b: &Entry) -> Ordering {
    if a.utf8 && b.utf8 {
        return a.name.to_bytes().cmp(b.name.to_bytes());
    }
    python_code_points(a.name.to_bytes()).cmp(&python_code_points(b.name.to_bytes()))
}

/// `os.fsdecode` code points: UTF-8, each undecodable byte mapped to U+DC00 + byte.
fn python_code_points(mut bytes: &[u8]) -> Vec<u32> {
    let mut points = Vec::with_capacity(bytes.len());
    loop {
        match std::str::from_utf8(bytes) {
            Ok(text) => {
                points.extend(text.chars().map(u32::from));
                return points;
            }
            Err(error) => {
                let (valid, rest) = bytes.split_at(error.valid_up_to());
                // The prefix was just validated, so this never falls back.
                points.extend(
                    std::str::from_utf8(valid)
                        .unwrap_or_default()
                        .chars()
                        .map(u32::from),
                );
                let bad = error.error_len().unwrap_or(rest.len());
                points.extend(rest[..bad].iter().map(|byte| 0xDC00 + u32::from(*byte)));
                bytes = &rest[bad..];
            }
        }
    }
}

fn os_error(errno: Errno, filename: &OsStr) -> String {
    python::os_error(errno.raw_os_error(), Some(&filename.to_string_lossy()))
}

/// Opens an absolute directory path from `/` down, refusing a symlink at every step; errors read
/// as Python's OSError for the component that failed.
fn open_directory_chain(path: &Path) -> Result<OwnedFd, String> {
    crate::files::open_directory_from_root(path).map_err(|(errno, name)| os_error(errno, &name))
}

fn open_child_directory(parent: &Dir, name: &CStr) -> Result<OwnedFd, String> {
    let fd = parent
        .fd()
        .map_err(|errno| python::os_error(errno.raw_os_error(), None))?;
    rustix::fs::openat(
        fd,
        name,
        OFlags::RDONLY | OFlags::DIRECTORY | OFlags::NOFOLLOW | OFlags::CLOEXEC,
        Mode::empty(),
    )
    .map_err(|errno| os_error(errno, OsStr::from_bytes(name.to_bytes())))
}

/// Reads a skill file by its absolute path, opening its directory from `/` down.
fn read_skill_at(path: &Path) -> Result<String, String> {
    let parent = path.parent().unwrap_or(Path::new("/"));
    let name = path.file_name().unwrap_or(OsStr::new(""));
    // Python refuses a name with a NUL byte before any system call, with this message.
    let name =
        std::ffi::CString::new(name.as_bytes()).map_err(|_| "embedded null byte".to_string())?;
    let directory = open_directory_chain(parent)?;
    read_skill_file(&directory, &name)
}

/// nagents' `_read`: no symlink, never blocks, regular files only, at most 4,000,000 bytes,
/// strict UTF-8 with the BOM kept.
fn read_skill_file(directory: impl AsFd, name: &CStr) -> Result<String, String> {
    let file = rustix::fs::openat(
        directory,
        name,
        OFlags::RDONLY | OFlags::NOFOLLOW | OFlags::NONBLOCK | OFlags::CLOEXEC,
        Mode::empty(),
    )
    .map_err(|errno| os_error(errno, OsStr::from_bytes(name.to_bytes())))?;
    let stat =
        rustix::fs::fstat(&file).map_err(|errno| python::os_error(errno.raw_os_error(), None))?;
    if FileType::from_raw_mode(stat.st_mode) != FileType::RegularFile {
        return Err("SKILL.md must be a regular file".to_string());
    }
    // One byte more than the size fstat reports, so that a whole file arrives in one read and
    // a short read (which for a regular file means end of file) ends the loop without another
    // system call. The size is only a hint: a file that grows while read is read on.
    let expected = usize::try_from(stat.st_size)
        .unwrap_or(0)
        .saturating_add(1)
        .clamp(1, MAX_FILE_BYTES + 1);
    let mut content = vec![0_u8; expected];
    let mut filled = 0;
    loop {
        if filled == content.len() {
            if content.len() > MAX_FILE_BYTES {
                break;
            }
            let grown = (content.len() * 2).clamp(8192, MAX_FILE_BYTES + 1);
            content.resize(grown, 0);
        }
        let wanted = content.len() - filled;
        match rustix::io::read(&file, &mut content[filled..]) {
            Ok(0) => break,
            Ok(count) => {
                filled += count;
                if count < wanted {
                    break;
                }
            }
            Err(Errno::INTR) => continue,
            Err(errno) => return Err(python::os_error(errno.raw_os_error(), None)),
        }
    }
    content.truncate(filled);
    if content.len() > MAX_FILE_BYTES {
        return Err(format!("SKILL.md exceeds {MAX_FILE_BYTES} bytes"));
    }
    String::from_utf8(content)
        .map_err(|error| python::utf8_error(error.as_bytes(), &error.utf8_error()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normalize_matches_posixpath() {
        let cases: &[(&str, &str)] = &[
            ("/a/./b/../c//d/", "/a/c/d"),
            ("//a/b", "//a/b"),
            ("///a", "/a"),
            ("/..", "/"),
            ("/a/../..", "/"),
            ("/", "/"),
        ];
        for (input, expected) in cases {
            assert_eq!(normalize(input.as_bytes()), expected.as_bytes(), "{input}");
        }
    }

    #[test]
    fn surrogate_escapes_sort_like_python() {
        // U+E000 (EE 80 80) sorts after the surrogate escape of 0xFF in Python, before it in bytes.
        assert!(python_code_points(b"\xff") < python_code_points("\u{e000}".as_bytes()));
        assert!(python_code_points(b"a\xffb") > python_code_points(b"a"));
    }
}
