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
use std::mem::MaybeUninit;
use std::os::fd::{AsFd, OwnedFd};
use std::os::unix::ffi::{OsStrExt, OsStringExt};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use async_trait::async_trait;
use rustix::fs::{AtFlags, FileType, Mode, OFlags, RawDir};
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

/// One listed entry. Its name sits NUL-terminated in `Walker::names`, so it can be sorted and
/// handed to `openat` without an allocation of its own.
#[derive(Debug, Clone, Copy)]
struct Entry {
    start: usize,
    /// The name's length in bytes, without the NUL.
    len: usize,
    kind: Kind,
    /// Whether the name is valid UTF-8; only other names need Python's code point ordering.
    utf8: bool,
}

/// The buffer `getdents64` fills: a few hundred entries, so most directories list in one call.
const LISTING_BUFFER_BYTES: usize = 32 * 1024;

struct Walker<'roots> {
    options: DirectoryOptions,
    roots: &'roots [PathBuf],
    remaining: usize,
    /// Walked directories that are roots or lie above one. nagents remembers every directory
    /// it walks, but only these can be reached a second time (see `is_on_root_path`).
    visited: HashSet<Vec<u8>>,
    survey: Survey,
    /// The path of the directory or entry at hand, as bytes; names are pushed and popped.
    path: Vec<u8>,
    /// Names and entries of every directory on the current branch, the innermost last.
    names: Vec<u8>,
    entries: Vec<Entry>,
    listing: Vec<MaybeUninit<u8>>,
}

fn walk_roots(roots: &[PathBuf], options: DirectoryOptions) -> Survey {
    let mut walker = Walker {
        options,
        roots,
        remaining: options.max_entries,
        visited: HashSet::new(),
        survey: Survey::default(),
        path: Vec::new(),
        names: Vec::new(),
        entries: Vec::new(),
        listing: vec![MaybeUninit::uninit(); LISTING_BUFFER_BYTES],
    };
    for root in roots {
        if walker.remaining == 0 {
            break;
        }
        walker.path.clear();
        walker.path.extend_from_slice(root.as_os_str().as_bytes());
        if walker.first_visit(true) {
            let opened = open_directory_chain(root);
            walker.walk(0, true, opened);
        }
    }
    walker.survey
}

impl Walker<'_> {
    /// Records a diagnostic about the path at hand.
    fn diagnose(&mut self, error: &str) {
        diagnose(&mut self.survey, &self.path, error);
    }

    /// nagents' `visited` check. A directory below every root on the way to it can only be
    /// reached once: reaching it again would mean passing through a root (or a directory above
    /// one) that was already walked, and that one is remembered and refused first.
    fn first_visit(&mut self, on_root_path: bool) -> bool {
        !on_root_path || self.visited.insert(self.path.clone())
    }

    /// Whether the path at hand is a root or lies above one.
    fn is_on_root_path(&self) -> bool {
        let here = self.path.as_slice();
        self.roots.iter().any(|root| {
            let root = root.as_os_str().as_bytes();
            root.starts_with(here)
                && (root.len() == here.len() || here.ends_with(b"/") || root[here.len()] == b'/')
        })
    }

    fn push_name(&mut self, entry: Entry) {
        if !self.path.ends_with(b"/") {
            self.path.push(b'/');
        }
        self.path
            .extend_from_slice(&self.names[entry.start..entry.start + entry.len]);
    }

    fn name(&self, entry: Entry) -> &CStr {
        // Each name was stored with its NUL and contains no other, as the kernel listed it.
        CStr::from_bytes_with_nul(&self.names[entry.start..=entry.start + entry.len])
            .unwrap_or_default()
    }

    /// Walks the directory at `self.path`, already opened (or not) by the caller.
    fn walk(&mut self, depth: usize, on_root_path: bool, opened: Result<OwnedFd, String>) {
        let directory = match opened {
            Ok(directory) => directory,
            Err(error) => return self.diagnose(&error),
        };
        let base = self.entries.len();
        let names_base = self.names.len();
        let limit_hit = match self.list(&directory, base) {
            Ok(limit_hit) => limit_hit,
            Err(error) => {
                // nagents abandons a directory whose listing fails, counting nothing.
                self.entries.truncate(base);
                self.names.truncate(names_base);
                return self.diagnose(&error);
            }
        };
        if limit_hit {
            self.diagnose("discovery entry limit reached; increase max_entries");
            self.entries.truncate(base);
            self.names.truncate(names_base);
            self.remaining = 0;
        }
        self.remaining -= self.entries.len() - base;
        let names = &self.names;
        self.entries[base..].sort_by(|a, b| compare_names(names, a, b));
        let directory_length = self.path.len();
        let directory_name_start = self
            .path
            .iter()
            .rposition(|byte| *byte == b'/')
            .map_or(0, |slash| slash + 1);
        for index in base..self.entries.len() {
            let entry = self.entries[index];
            match entry.kind {
                Kind::Directory => {
                    self.push_name(entry);
                    if depth < self.options.max_depth && self.remaining > 0 {
                        let on_root_path = on_root_path && self.is_on_root_path();
                        if self.first_visit(on_root_path) {
                            let opened = open_child_directory(&directory, self.name(entry));
                            self.walk(depth + 1, on_root_path, opened);
                        }
                    } else {
                        self.diagnose("discovery depth/entry limit reached");
                    }
                }
                Kind::Regular
                    if &self.names[entry.start..entry.start + entry.len]
                        == SKILL_FILE.as_bytes() =>
                {
                    self.push_name(entry);
                    let result =
                        read_skill_file(&directory, self.name(entry)).and_then(|content| {
                            let location = String::from_utf8_lossy(&self.path);
                            let directory_name = String::from_utf8_lossy(
                                &self.path[directory_name_start..directory_length],
                            );
                            parse_skill_metadata(&content, &location, &directory_name)
                                .map_err(|error| error.to_string())
                        });
                    match result {
                        Ok(skill) => self.survey.found.push(skill),
                        Err(error) => self.diagnose(&error),
                    }
                }
                _ => continue,
            }
            self.path.truncate(directory_length);
        }
        self.entries.truncate(base);
        self.names.truncate(names_base);
    }

    /// Appends the directory's entries to the branch's, in listing order, stopping (and saying
    /// so) when one more exists than the entry budget allows. Errors read as Python's OSError.
    fn list(&mut self, directory: &OwnedFd, base: usize) -> Result<bool, String> {
        let Self {
            remaining,
            survey,
            path,
            names,
            entries,
            listing,
            ..
        } = self;
        let mut reader = RawDir::new(directory, listing.as_mut_slice());
        while let Some(listed) = reader.next() {
            let listed = listed.map_err(|errno| python::os_error(errno.raw_os_error(), None))?;
            let name = listed.file_name();
            let bytes = name.to_bytes();
            if bytes == b"." || bytes == b".." {
                continue;
            }
            // The limit bites only when one more entry exists than the budget allows; then the
            // directory publishes nothing rather than an arbitrary filesystem-order subset.
            if entries.len() - base >= *remaining {
                return Ok(true);
            }
            let kind = kind_of(directory, name, listed.file_type()).unwrap_or_else(|errno| {
                let shown = name.to_string_lossy();
                let mut entry_path = path.clone();
                if !entry_path.ends_with(b"/") {
                    entry_path.push(b'/');
                }
                entry_path.extend_from_slice(bytes);
                let message = python::os_error(errno.raw_os_error(), Some(&shown));
                diagnose(survey, &entry_path, &message);
                Kind::Other
            });
            let start = names.len();
            names.extend_from_slice(name.to_bytes_with_nul());
            entries.push(Entry {
                start,
                len: bytes.len(),
                kind,
                utf8: std::str::from_utf8(bytes).is_ok(),
            });
        }
        Ok(false)
    }
}

/// `diagnose()`: at most 20, each `"{path[:300]}: {error[:300]}"`.
fn diagnose(survey: &mut Survey, path: &[u8], error: &str) {
    if survey.diagnostics.len() < MAX_DIAGNOSTICS {
        let path = String::from_utf8_lossy(path);
        survey.diagnostics.push(format!(
            "{}: {}",
            python::char_prefix(&path, DIAGNOSTIC_PART_CHARS),
            python::char_prefix(error, DIAGNOSTIC_PART_CHARS)
        ));
    }
}

/// What nagents' `entry.stat(follow_symlinks=False)` says about an entry, taken from the type
/// the listing reports; a `stat` (that never follows a link) only when the file system does
/// not report one.
fn kind_of(directory: impl AsFd, name: &CStr, listed: FileType) -> Result<Kind, Errno> {
    let file_type = match listed {
        FileType::Unknown => FileType::from_raw_mode(
            rustix::fs::statat(directory, name, AtFlags::SYMLINK_NOFOLLOW)?.st_mode,
        ),
        known => known,
    };
    Ok(match file_type {
        FileType::Directory => Kind::Directory,
        FileType::RegularFile => Kind::Regular,
        _ => Kind::Other,
    })
}

/// Python sorts names as `str`: by code point, with undecodable bytes as surrogate escapes
/// (U+DC80..U+DCFF). For UTF-8 names that is plain byte order.
fn compare_names(names: &[u8], a: &Entry, b: &Entry) -> Ordering {
    let a_name = &names[a.start..a.start + a.len];
    let b_name = &names[b.start..b.start + b.len];
    if a.utf8 && b.utf8 {
        return a_name.cmp(b_name);
    }
    python_code_points(a_name).cmp(&python_code_points(b_name))
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

fn open_child_directory(parent: impl AsFd, name: &CStr) -> Result<OwnedFd, String> {
    rustix::fs::openat(
        parent,
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
    fn unknown_listed_types_are_looked_up_without_following_links() {
        let Ok(temp) = tempfile::tempdir() else {
            return;
        };
        let root = temp.path();
        std::fs::write(root.join("file"), "text").ok();
        std::fs::create_dir(root.join("folder")).ok();
        std::os::unix::fs::symlink(root.join("folder"), root.join("link")).ok();
        let Ok(directory) = crate::files::open_directory_from_root(root) else {
            panic!("cannot open {}", root.display());
        };
        let kind = |name: &CStr, listed| kind_of(&directory, name, listed);
        // What a file system without d_type reports: the kind comes from lstat.
        assert_eq!(kind(c"file", FileType::Unknown), Ok(Kind::Regular));
        assert_eq!(kind(c"folder", FileType::Unknown), Ok(Kind::Directory));
        assert_eq!(kind(c"link", FileType::Unknown), Ok(Kind::Other));
        assert_eq!(kind(c"gone", FileType::Unknown), Err(Errno::NOENT));
        // A reported type is trusted without a system call (the entry need not even exist).
        assert_eq!(kind(c"gone", FileType::Directory), Ok(Kind::Directory));
        assert_eq!(kind(c"gone", FileType::Symlink), Ok(Kind::Other));
        assert_eq!(kind(c"gone", FileType::Fifo), Ok(Kind::Other));
    }

    #[test]
    fn surrogate_escapes_sort_like_python() {
        // U+E000 (EE 80 80) sorts after the surrogate escape of 0xFF in Python, before it in bytes.
        assert!(python_code_points(b"\xff") < python_code_points("\u{e000}".as_bytes()));
        assert!(python_code_points(b"a\xffb") > python_code_points(b"a"));
    }
}
