//! The directory source: SKILL.md files under explicitly selected roots, found exactly as
//! nagents' `DirectorySkillDiscoverer` finds them.
//!
//! Safety comes from how files are opened, not from checking paths: every directory is opened
//! through [`crate::fs::open`], relative to its already-open parent and never through a link,
//! starting from the filesystem root, so a symlink swapped in during the walk is refused by the
//! kernel instead of followed (a path check followed by an open would leave that race open). Skill
//! files are opened the same way and never block, so a FIFO named SKILL.md cannot stall discovery;
//! they are read by [`crate::fs::read`] within nagents' own size limit.
//!
//! Where the walk can be faster than nagents without changing any result, it is: the directory
//! stays open while its children are walked (nagents reopens the chain from `/` each time), the
//! entry type reported by the directory listing is trusted, with a `stat` only when the file
//! system does not report it, and idle cores walk subdirectories while the walk goes on, their
//! findings put back in nagents' order (see `Shared` for when that is allowed).

use std::cmp::Ordering;
use std::collections::{BTreeMap, HashSet, VecDeque};
use std::ffi::{CStr, OsStr, OsString};
use std::mem::MaybeUninit;
use std::ops::ControlFlow;
use std::os::fd::{AsFd, OwnedFd};
use std::os::unix::ffi::{OsStrExt, OsStringExt};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering as AtomicOrdering};
use std::sync::{Arc, Condvar, Mutex};

use async_trait::async_trait;
use rustix::fs::FileType;
use rustix::io::Errno;

use super::{SkillSource, SourceError, Survey};
use crate::clients::nagents::metadata::parse_skill_metadata;
use crate::clients::nagents::skill_catalog;
use crate::fs::{self as guarded, ReadError};
use crate::python;
use crate::skill::Skill;

/// The largest SKILL.md nagents reads, in bytes.
pub const MAX_FILE_BYTES: usize = 4_000_000;
/// How many diagnostics nagents keeps per discovery.
pub const MAX_DIAGNOSTICS: usize = 20;
/// How much of a path and of an error text each diagnostic keeps, in code points.
const DIAGNOSTIC_PART_CHARS: usize = 300;
const SKILL_FILE: &str = "SKILL.md";

/// The walk's bounds: entries (directories included) across all roots, and depth below a root;
/// and how many threads may walk.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DirectoryOptions {
    max_entries: usize,
    max_depth: usize,
    /// 0: the available cores, at most [`MAX_WALK_THREADS`].
    threads: usize,
}

impl Default for DirectoryOptions {
    fn default() -> Self {
        Self {
            max_entries: 10_000,
            max_depth: 16,
            threads: 0,
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
            threads: 0,
        })
    }

    /// How many threads may walk: 1 walks on the calling thread only; 0 (the default) uses the
    /// available cores, at most [`MAX_WALK_THREADS`]. The result is the same either way.
    pub fn with_threads(self, threads: usize) -> Self {
        Self { threads, ..self }
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
/// Threads a walk uses at most unless told otherwise. Listing directories is mostly kernel work;
/// the walk was measured on two cores only, so the cap stays modest.
pub const MAX_WALK_THREADS: usize = 4;

/// What a walk produces, in nagents' order.
#[derive(Debug)]
enum Event {
    Found(Skill),
    Diagnostic(String),
    /// A subdirectory handed to another thread; its walk's own log goes here.
    Deferred(usize),
}

/// One walk's events. Each log keeps at most [`MAX_DIAGNOSTICS`] diagnostics: however logs are
/// put together, nagents' first twenty are among them.
#[derive(Debug, Default)]
struct Log {
    events: Vec<Event>,
    diagnostics: usize,
}

impl Log {
    /// `diagnose()`: at most 20, each `"{path[:300]}: {error[:300]}"`.
    fn diagnose(&mut self, path: &[u8], error: &str) {
        if self.diagnostics < MAX_DIAGNOSTICS {
            self.diagnostics += 1;
            let path = String::from_utf8_lossy(path);
            self.events.push(Event::Diagnostic(format!(
                "{}: {}",
                python::char_prefix(&path, DIAGNOSTIC_PART_CHARS),
                python::char_prefix(error, DIAGNOSTIC_PART_CHARS)
            )));
        }
    }
}

/// Puts a walk's logs back together in nagents' order: each deferred walk where it was
/// deferred. `None` when a deferred walk left no log.
fn assemble(main: Log, mut deferred: Vec<Option<Log>>) -> Option<Survey> {
    let mut survey = Survey::default();
    let mut stack = vec![main.events.into_iter()];
    while let Some(events) = stack.last_mut() {
        match events.next() {
            None => {
                stack.pop();
            }
            Some(Event::Found(skill)) => survey.found.push(skill),
            Some(Event::Diagnostic(text)) => {
                if survey.diagnostics.len() < MAX_DIAGNOSTICS {
                    survey.diagnostics.push(text);
                }
            }
            Some(Event::Deferred(index)) => {
                let log = deferred.get_mut(index)?.take()?;
                stack.push(log.events.into_iter());
            }
        }
    }
    Some(survey)
}

/// A directory opened by one thread for another to walk.
struct Task {
    index: usize,
    path: Vec<u8>,
    depth: usize,
    directory: OwnedFd,
}

#[derive(Default)]
struct Queue {
    tasks: VecDeque<Task>,
    /// Logs of deferred walks, by task index; `None` until the walk is done.
    logs: Vec<Option<Log>>,
    /// Walks in progress, the walk of the roots included.
    busy: usize,
    sleeping: usize,
}

/// What the threads of a parallel walk share.
///
/// A parallel walk ignores the entry budget while it runs and counts every entry instead. Its
/// result is nagents' only when the budget never bites: when fewer entries exist than
/// `max_entries` (with exactly as many, the budget reaches zero and nagents stops opening
/// directories). The walk is abandoned as soon as the count reaches the budget, so it never
/// costs more than that many entries before the walk starts again on one thread, in order.
struct Shared {
    max_entries: usize,
    entries: AtomicUsize,
    abandoned: AtomicBool,
    /// Hand a subdirectory to the other threads while fewer than this many wait.
    eager_below: usize,
    waiting: AtomicUsize,
    queue: Mutex<Queue>,
    ready: Condvar,
}

impl Shared {
    fn queue(&self) -> std::sync::MutexGuard<'_, Queue> {
        // The queue holds plain data; a panic elsewhere cannot leave it half-written.
        self.queue
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    fn count(&self, entries: usize) {
        let before = self.entries.fetch_add(entries, AtomicOrdering::Relaxed);
        if before.saturating_add(entries) >= self.max_entries {
            self.abandoned.store(true, AtomicOrdering::Relaxed);
        }
    }

    fn abandoned(&self) -> bool {
        self.abandoned.load(AtomicOrdering::Relaxed)
    }

    fn wants_work(&self) -> bool {
        self.waiting.load(AtomicOrdering::Relaxed) < self.eager_below
    }

    fn defer(&self, path: Vec<u8>, depth: usize, directory: OwnedFd) -> usize {
        let mut queue = self.queue();
        let index = queue.logs.len();
        queue.logs.push(None);
        queue.tasks.push_back(Task {
            index,
            path,
            depth,
            directory,
        });
        self.waiting
            .store(queue.tasks.len(), AtomicOrdering::Relaxed);
        if queue.sleeping > 0 {
            self.ready.notify_one();
        }
        index
    }

    /// The next directory to walk, waiting while other walks may still defer one; `None` when
    /// all is done.
    fn next_task(&self) -> Option<Task> {
        let mut queue = self.queue();
        loop {
            if let Some(task) = queue.tasks.pop_front() {
                queue.busy += 1;
                self.waiting
                    .store(queue.tasks.len(), AtomicOrdering::Relaxed);
                return Some(task);
            }
            if queue.busy == 0 {
                return None;
            }
            queue.sleeping += 1;
            queue = self
                .ready
                .wait(queue)
                .unwrap_or_else(|poisoned| poisoned.into_inner());
            queue.sleeping -= 1;
        }
    }

    fn finish(&self, index: Option<usize>, log: Log) {
        let mut queue = self.queue();
        if let Some(slot) = index.and_then(|index| queue.logs.get_mut(index)) {
            *slot = Some(log);
        }
        queue.busy -= 1;
        if queue.busy == 0 && queue.tasks.is_empty() {
            self.ready.notify_all();
        }
    }
}

struct Walker<'a> {
    options: DirectoryOptions,
    roots: &'a [PathBuf],
    remaining: usize,
    /// Walked directories that are roots or lie above one. nagents remembers every directory
    /// it walks, but only these can be reached a second time (see `is_on_root_path`).
    visited: HashSet<Vec<u8>>,
    log: Log,
    /// Set in a parallel walk.
    shared: Option<&'a Shared>,
    /// The path of the directory or entry at hand, as bytes; names are pushed and popped.
    path: Vec<u8>,
    /// Names and entries of every directory on the current branch, the innermost last.
    names: Vec<u8>,
    entries: Vec<Entry>,
    listing: Vec<MaybeUninit<u8>>,
}

fn walk_roots(roots: &[PathBuf], options: DirectoryOptions) -> Survey {
    let threads = match options.threads {
        0 => std::thread::available_parallelism()
            .map_or(1, std::num::NonZeroUsize::get)
            .min(MAX_WALK_THREADS),
        threads => threads,
    };
    walk_roots_on(roots, options, threads, threads)
}

/// Walks on `threads` threads when the entry budget allows it, on one thread otherwise.
fn walk_roots_on(
    roots: &[PathBuf],
    options: DirectoryOptions,
    threads: usize,
    eager_below: usize,
) -> Survey {
    if threads > 1 {
        if let Some(survey) = walk_in_parallel(roots, options, threads, eager_below) {
            return survey;
        }
    }
    let mut walker = Walker::new(roots, options, None);
    walker.walk_roots();
    // One thread defers nothing, so every event is in this one log.
    assemble(walker.log, Vec::new()).unwrap_or_default()
}

/// The walk of the roots hands subdirectories that lie below every root to idle threads while
/// it goes on; the logs are put back together in nagents' order.
fn walk_in_parallel(
    roots: &[PathBuf],
    options: DirectoryOptions,
    threads: usize,
    eager_below: usize,
) -> Option<Survey> {
    let shared = Shared {
        max_entries: options.max_entries,
        entries: AtomicUsize::new(0),
        abandoned: AtomicBool::new(false),
        eager_below,
        waiting: AtomicUsize::new(0),
        queue: Mutex::new(Queue {
            busy: 1,
            ..Queue::default()
        }),
        ready: Condvar::new(),
    };
    let main = std::thread::scope(|scope| {
        for _ in 1..threads {
            // Without another thread the walk is only slower.
            let _ = std::thread::Builder::new()
                .spawn_scoped(scope, || Walker::new(roots, options, Some(&shared)).work());
        }
        let mut walker = Walker::new(roots, options, Some(&shared));
        walker.walk_roots();
        let main = std::mem::take(&mut walker.log);
        shared.finish(None, Log::default());
        walker.work();
        main
    });
    if shared.abandoned() {
        return None;
    }
    let logs = std::mem::take(&mut shared.queue().logs);
    assemble(main, logs)
}

impl<'a> Walker<'a> {
    fn new(roots: &'a [PathBuf], options: DirectoryOptions, shared: Option<&'a Shared>) -> Self {
        Self {
            options,
            roots,
            // A parallel walk counts entries in `shared` instead.
            remaining: if shared.is_some() {
                usize::MAX
            } else {
                options.max_entries
            },
            visited: HashSet::new(),
            log: Log::default(),
            shared,
            path: Vec::new(),
            names: Vec::new(),
            entries: Vec::new(),
            listing: vec![MaybeUninit::uninit(); LISTING_BUFFER_BYTES],
        }
    }

    fn walk_roots(&mut self) {
        for root in self.roots {
            if self.remaining == 0 {
                break;
            }
            self.path.clear();
            self.path.extend_from_slice(root.as_os_str().as_bytes());
            if self.first_visit(true) {
                let opened = open_directory_chain(root);
                self.walk(0, true, opened);
            }
        }
    }

    /// Walks deferred directories until there are none left.
    fn work(&mut self) {
        let Some(shared) = self.shared else {
            return;
        };
        while let Some(task) = shared.next_task() {
            self.path = task.path;
            self.walk(task.depth, false, Ok(task.directory));
            shared.finish(Some(task.index), std::mem::take(&mut self.log));
        }
    }

    /// Records a diagnostic about the path at hand.
    fn diagnose(&mut self, error: &str) {
        self.log.diagnose(&self.path, error);
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
        if self.shared.is_some_and(Shared::abandoned) {
            return;
        }
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
        let listed = self.entries.len() - base;
        self.remaining -= listed;
        if let Some(shared) = self.shared {
            shared.count(listed);
        }
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
                            match (self.shared, opened) {
                                // Directories below every root can be walked by anyone.
                                (Some(shared), Ok(child))
                                    if !on_root_path && shared.wants_work() =>
                                {
                                    let index = shared.defer(self.path.clone(), depth + 1, child);
                                    self.log.events.push(Event::Deferred(index));
                                }
                                (_, opened) => self.walk(depth + 1, on_root_path, opened),
                            }
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
                        Ok(skill) => self.log.events.push(Event::Found(skill)),
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
            log,
            path,
            names,
            entries,
            listing,
            ..
        } = self;
        let flow = guarded::walk::each_entry(directory, listing.as_mut_slice(), |name, listed| {
            let bytes = name.to_bytes();
            // The limit bites only when one more entry exists than the budget allows; then the
            // directory publishes nothing rather than an arbitrary filesystem-order subset.
            if entries.len() - base >= *remaining {
                return ControlFlow::Break(());
            }
            let kind = kind_of(directory, name, listed).unwrap_or_else(|errno| {
                let shown = name.to_string_lossy();
                let mut entry_path = path.clone();
                if !entry_path.ends_with(b"/") {
                    entry_path.push(b'/');
                }
                entry_path.extend_from_slice(bytes);
                let message = python::os_error(errno.raw_os_error(), Some(&shown));
                log.diagnose(&entry_path, &message);
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
            ControlFlow::Continue(())
        })
        .map_err(|errno| python::os_error(errno.raw_os_error(), None))?;
        // The listing stops early only when the budget is spent.
        Ok(flow.is_break())
    }
}

/// What nagents' `entry.stat(follow_symlinks=False)` says about an entry, taken from the type
/// the listing reports; a `stat` (that never follows a link) only when the file system does
/// not report one.
fn kind_of(directory: impl AsFd, name: &CStr, listed: FileType) -> Result<Kind, Errno> {
    let file_type = match listed {
        FileType::Unknown => guarded::open::kind_at(directory, name)?,
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
    crate::fs::open::directory_from_root(path).map_err(|(errno, name)| os_error(errno, &name))
}

fn open_child_directory(parent: impl AsFd, name: &CStr) -> Result<OwnedFd, String> {
    guarded::open::directory_at(parent, name)
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
/// strict UTF-8 with the BOM kept. Errors read as nagents reports them.
fn read_skill_file(directory: impl AsFd, name: &CStr) -> Result<String, String> {
    let file = guarded::open::file_at(directory, name)
        .map_err(|errno| os_error(errno, OsStr::from_bytes(name.to_bytes())))?;
    let read = guarded::read::regular(file, nagents_file_limit()).map_err(|error| match error {
        ReadError::NotRegular(_) => "SKILL.md must be a regular file".to_string(),
        ReadError::TooLarge { .. } => format!("SKILL.md exceeds {MAX_FILE_BYTES} bytes"),
        ReadError::Io(errno) => python::os_error(errno.raw_os_error(), None),
        // Only an open reports these, and the file is already open.
        ReadError::NotFound | ReadError::Symlink => error.to_string(),
    })?;
    String::from_utf8(read.bytes)
        .map_err(|error| python::utf8_error(error.as_bytes(), &error.utf8_error()))
}

/// nagents' cap, within the engine's own limit for a SKILL.md.
fn nagents_file_limit() -> guarded::Limit {
    let limit = guarded::Limit::SKILL_FILE;
    limit.with_bytes(limit.bytes.min(MAX_FILE_BYTES as u64))
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
        let Ok(directory) = crate::fs::open::directory_from_root(root) else {
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

    /// A tree with skills at several depths, broken skills (more than twenty diagnostics),
    /// links, a FIFO, an empty directory and names that are not UTF-8.
    fn varied_tree(root: &Path) {
        let write = |path: &Path, text: &str| {
            if let Some(parent) = path.parent() {
                std::fs::create_dir_all(parent).ok();
            }
            std::fs::write(path, text).ok();
        };
        for group in 0..4 {
            for index in 0..11 {
                let directory = root.join(format!("group-{group}/skill-{group}-{index}"));
                let text = if index % 2 == 0 {
                    format!("---\nname: s{group}x{index}\ndescription: d\n---\nbody\n")
                } else {
                    // Unterminated frontmatter: a diagnostic.
                    "---\nname: broken\n".to_string()
                };
                write(&directory.join("SKILL.md"), &text);
                write(&directory.join("references/guide.md"), "guide");
                write(
                    &directory.join("references/deeper/SKILL.md"),
                    "# Nested\n\nA nested skill.\n",
                );
            }
        }
        std::fs::create_dir_all(root.join("empty")).ok();
        std::fs::create_dir_all(root.join(OsStr::from_bytes(b"caf\xe9"))).ok();
        write(
            &root.join(OsStr::from_bytes(b"caf\xe9/SKILL.md")),
            "Latin-1 folder.\n",
        );
        std::os::unix::fs::symlink(root.join("group-0"), root.join("group-link")).ok();
        let _ = rustix::fs::mknodat(
            rustix::fs::CWD,
            root.join("group-1/SKILL.md"),
            FileType::Fifo,
            rustix::fs::Mode::from_raw_mode(0o644),
            0,
        );
    }

    #[test]
    fn parallel_walks_find_what_one_thread_finds() {
        let Ok(temp) = tempfile::tempdir() else {
            return;
        };
        let root = temp.path().join("root");
        varied_tree(&root);
        let everything = DirectoryOptions::new(1_000_000, 16).unwrap_or_default();
        let alone = walk_roots_on(std::slice::from_ref(&root), everything, 1, 1);
        // The folder that is not UTF-8 gives no valid name, so a diagnostic.
        assert_eq!(alone.found.len(), 4 * 6 + 4 * 11);
        assert_eq!(alone.diagnostics.len(), MAX_DIAGNOSTICS);
        // 273 entries: with a budget of one more the parallel walk stands; with exactly that
        // many, nagents' budget reaches zero, so the parallel walk gives way.
        let single = std::slice::from_ref(&root);
        let budget = |max_entries| DirectoryOptions {
            max_entries,
            ..everything
        };
        assert_eq!(
            walk_in_parallel(single, budget(274), 2, usize::MAX).as_ref(),
            Some(&alone)
        );
        assert_eq!(walk_in_parallel(single, budget(273), 2, usize::MAX), None);
        let root_sets = [
            vec![root.clone()],
            vec![root.join("group-1"), root.clone()],
            vec![root.clone(), root.join("group-2/skill-2-0"), root.clone()],
        ];
        for roots in &root_sets {
            for max_depth in [0, 2, 16] {
                // Budgets from one entry to more than the tree holds, every one near its size
                // (273 entries): the parallel walk is valid only below the budget, abandoned
                // and redone on one thread otherwise.
                let budgets = (1..=12).chain((13..260).step_by(17)).chain(268..=278);
                for max_entries in budgets.chain([1_000_000]) {
                    let options = DirectoryOptions {
                        max_entries,
                        max_depth,
                        threads: 0,
                    };
                    let expected = walk_roots_on(roots, options, 1, 1);
                    for (threads, eager_below) in [(2, 2), (2, usize::MAX), (4, 1)] {
                        assert_eq!(
                            walk_roots_on(roots, options, threads, eager_below),
                            expected,
                            "{roots:?} {max_entries} {max_depth} {threads} {eager_below}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn surrogate_escapes_sort_like_python() {
        // U+E000 (EE 80 80) sorts after the surrogate escape of 0xFF in Python, before it in bytes.
        assert!(python_code_points(b"\xff") < python_code_points("\u{e000}".as_bytes()));
        assert!(python_code_points(b"a\xffb") > python_code_points(b"a"));
    }
}
