//! State shared by the commands.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use skillforge_core::catalog::session::CatalogSession;
use skillforge_core::editor::LintSession;
use skillforge_core::fs::Roots;

use crate::error::AppError;
use crate::watcher::WorkspaceWatcher;

/// What the app holds between commands.
#[derive(Default)]
pub struct AppState {
    /// The folders named on the command line (`--workspace`, repeatable) or in `SKILLFORGE_WORKSPACE`.
    pub launch_workspaces: Vec<PathBuf>,
    /// The folders open now; every file the UI reads or writes must lie inside them.
    pub session: Mutex<Session>,
}

/// The open workspace: its roots and the watchers that keep the UI current.
#[derive(Default)]
pub struct Session {
    pub roots: Roots,
    /// One watcher per root that could be watched, so closing a root stops only its own.
    pub watchers: Vec<WorkspaceWatcher>,
    /// The workspace's SKILL.md files as last read, linted with unsaved buffers swapped in.
    pub lint: Arc<LintSession>,
    /// Every client's view of the workspace, read on the first preview and dropped when the files
    /// change, so a keystroke re-reads only the edited buffers.
    pub catalog: Option<Arc<CatalogSession>>,
    /// The builtin skills are shown (read-only, no roots): previews read the embedded skills.
    pub builtin: bool,
}

impl Session {
    /// The read-only view of the builtin skills.
    pub fn builtin() -> Self {
        Self {
            builtin: true,
            ..Self::default()
        }
    }
}

impl AppState {
    pub fn new(launch_workspaces: Vec<PathBuf>) -> Self {
        Self {
            launch_workspaces,
            session: Mutex::default(),
        }
    }

    /// The roots open now (a copy, so no lock is held while the file system is touched).
    pub fn roots(&self) -> Roots {
        self.session
            .lock()
            .map(|session| session.roots.clone())
            .unwrap_or_default()
    }

    /// The lint snapshot of the open workspace (shared, so linting holds no lock).
    pub fn lint_session(&self) -> Arc<LintSession> {
        self.session
            .lock()
            .map(|session| session.lint.clone())
            .unwrap_or_default()
    }

    /// Replaces the lint snapshot after the files changed on disk, unless the roots were changed
    /// meanwhile (the snapshot would then describe folders no longer open).
    pub fn replace_lint_session(&self, roots: &[PathBuf], lint: LintSession) {
        if let Ok(mut session) = self.session.lock() {
            if session.roots.as_slice() == roots {
                session.lint = Arc::new(lint);
                session.catalog = None;
            }
        }
    }

    /// The open roots and their catalog snapshot, if one was read since the files last changed.
    pub fn cached_catalog(&self) -> (Roots, Option<Arc<CatalogSession>>) {
        self.session
            .lock()
            .map(|session| (session.roots.clone(), session.catalog.clone()))
            .unwrap_or_default()
    }

    /// Whether the builtin skills are shown instead of folders.
    pub fn is_builtin(&self) -> bool {
        self.session
            .lock()
            .map(|session| session.builtin)
            .unwrap_or_default()
    }

    /// Keeps a catalog snapshot read from `roots`, unless the workspace was switched meanwhile.
    pub fn keep_catalog(&self, roots: &Roots, catalog: Arc<CatalogSession>) {
        if let Ok(mut session) = self.session.lock() {
            if session.roots.as_slice() == roots.as_slice() {
                session.catalog = Some(catalog);
            }
        }
    }

    /// Forgets the catalog snapshot (the watcher saw the files change).
    pub fn invalidate_catalog(&self) {
        if let Ok(mut session) = self.session.lock() {
            session.catalog = None;
        }
    }

    /// Replaces the open workspace; the previous watchers stop when dropped.
    pub fn replace_session(&self, session: Session) {
        if let Ok(mut current) = self.session.lock() {
            *current = session;
        }
    }

    /// Makes `roots` the open roots with their fresh lint snapshot. Watchers of roots that stay open
    /// keep running; `watch` starts one for each new root (`None` when it cannot be watched).
    pub fn set_roots(
        &self,
        roots: Vec<PathBuf>,
        lint: LintSession,
        mut watch: impl FnMut(&Path) -> Option<WorkspaceWatcher>,
    ) {
        let Ok(mut session) = self.session.lock() else {
            return;
        };
        let mut previous = std::mem::take(&mut session.watchers);
        let mut watchers = Vec::with_capacity(roots.len());
        for root in &roots {
            match previous.iter().position(|watcher| watcher.root() == root) {
                Some(index) => watchers.push(previous.swap_remove(index)),
                None => watchers.extend(watch(root)),
            }
        }
        *session = Session {
            roots: Roots::new(roots),
            watchers,
            lint: Arc::new(lint),
            catalog: None,
            builtin: false,
        };
    }
}

/// Hands the memory a scan or a workspace lint freed back to the system, a moment after the answer was sent.
///
/// Those passes allocate tens of megabytes for a few thousand skills and free them all; the allocator keeps the
/// pages otherwise, so the app would hold its peak for good. Calls within the delay share one release.
pub fn release_freed_memory_soon() {
    static PENDING: AtomicBool = AtomicBool::new(false);
    if PENDING.swap(true, Ordering::AcqRel) {
        return;
    }
    // The delay lets the answer be serialized and sent first: its copies are freed by then too.
    tauri::async_runtime::spawn_blocking(|| {
        std::thread::sleep(std::time::Duration::from_secs(1));
        PENDING.store(false, Ordering::Release);
        release_freed_memory();
    });
}

#[cfg(all(target_os = "linux", target_env = "gnu"))]
fn release_freed_memory() {
    extern "C" {
        fn malloc_trim(pad: usize) -> std::ffi::c_int;
    }
    // SAFETY: glibc's malloc_trim takes no pointers and only returns free heap pages to the kernel; it is
    // thread-safe (it locks each arena it trims).
    unsafe {
        malloc_trim(0);
    }
}

#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
fn release_freed_memory() {}

/// The roots after adding `root` (absolute, checked): unchanged when it is open already; refused when
/// it lies inside an open root or contains one, since its skills would then be found twice.
pub fn roots_with(open: &[PathBuf], root: PathBuf) -> Result<Vec<PathBuf>, AppError> {
    if open.contains(&root) {
        return Ok(open.to_vec());
    }
    if let Some(outer) = open.iter().find(|other| root.starts_with(other)) {
        return Err(AppError::invalid_input(format!(
            "{}: already open as part of {}",
            root.display(),
            outer.display()
        )));
    }
    if let Some(inner) = open.iter().find(|other| other.starts_with(&root)) {
        return Err(AppError::invalid_input(format!(
            "{}: contains the open folder {}; close it first, then open this one",
            root.display(),
            inner.display()
        )));
    }
    let mut roots = open.to_vec();
    roots.push(root);
    Ok(roots)
}

/// The roots after closing `root`.
pub fn roots_without(open: &[PathBuf], root: &Path) -> Result<Vec<PathBuf>, AppError> {
    if !open.iter().any(|other| other == root) {
        return Err(AppError::not_found(format!(
            "{}: not open in this workspace",
            root.display()
        )));
    }
    Ok(open
        .iter()
        .filter(|other| *other != root)
        .cloned()
        .collect())
}

/// A short name for a root: its folder name, or the whole path for `/`.
pub fn root_label(root: &Path) -> String {
    root.file_name().map_or_else(
        || root.display().to_string(),
        |name| name.to_string_lossy().into_owned(),
    )
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::error::ErrorCode;
    use crate::events::testing::CapturedEvents;

    fn path(text: &str) -> PathBuf {
        PathBuf::from(text)
    }

    #[test]
    fn adding_a_root_keeps_order_and_refuses_overlaps() {
        let open = vec![path("/work/a"), path("/work/b")];
        assert_eq!(
            roots_with(&open, path("/work/c")).expect("added"),
            [path("/work/a"), path("/work/b"), path("/work/c")]
        );
        assert_eq!(roots_with(&open, path("/work/b")).expect("same"), open);
        let inside = roots_with(&open, path("/work/a/nested")).expect_err("nested");
        assert_eq!(inside.code, ErrorCode::InvalidInput);
        assert!(inside.message.contains("/work/a"), "{}", inside.message);
        let around = roots_with(&open, path("/work")).expect_err("contains");
        assert_eq!(around.code, ErrorCode::InvalidInput);
        // A sibling whose name merely starts like an open root is not inside it.
        assert!(roots_with(&open, path("/work/ab")).is_ok());
    }

    #[test]
    fn closing_a_root_keeps_the_others() {
        let open = vec![path("/work/a"), path("/work/b")];
        assert_eq!(
            roots_without(&open, Path::new("/work/a")).expect("closed"),
            [path("/work/b")]
        );
        assert_eq!(
            roots_without(&open, Path::new("/work/c"))
                .expect_err("not open")
                .code,
            ErrorCode::NotFound
        );
    }

    #[test]
    fn labels_are_folder_names() {
        assert_eq!(root_label(Path::new("/work/skills")), "skills");
        assert_eq!(root_label(Path::new("/")), "/");
    }

    #[test]
    fn watchers_of_roots_that_stay_open_keep_running() {
        let first = tempfile::tempdir().expect("temporary directory");
        let second = tempfile::tempdir().expect("temporary directory");
        let events = Arc::new(CapturedEvents::default());
        let state = AppState::default();
        let started = std::cell::RefCell::new(Vec::new());
        let watch = |root: &Path| {
            started.borrow_mut().push(root.to_path_buf());
            WorkspaceWatcher::start(root, events.clone()).ok()
        };
        let a = first.path().to_path_buf();
        let b = second.path().to_path_buf();
        state.set_roots(vec![a.clone()], LintSession::default(), watch);
        state.set_roots(vec![a.clone(), b.clone()], LintSession::default(), watch);
        assert_eq!(*started.borrow(), [a.clone(), b.clone()]);
        assert_eq!(state.roots().as_slice(), [a.clone(), b.clone()]);
        state.set_roots(vec![b.clone()], LintSession::default(), watch);
        assert_eq!(started.borrow().len(), 2, "a watcher was restarted");
        let session = state.session.lock().expect("lock");
        assert_eq!(
            session
                .watchers
                .iter()
                .map(|watcher| watcher.root().to_path_buf())
                .collect::<Vec<_>>(),
            [b]
        );
    }

    #[test]
    fn files_of_every_open_root_are_reachable_and_nothing_else() {
        let first = tempfile::tempdir().expect("temporary directory");
        let second = tempfile::tempdir().expect("temporary directory");
        let outside = tempfile::tempdir().expect("temporary directory");
        for directory in [&first, &second, &outside] {
            std::fs::write(directory.path().join("SKILL.md"), "text").expect("write");
        }
        let state = AppState::default();
        state.set_roots(
            vec![first.path().to_path_buf(), second.path().to_path_buf()],
            LintSession::default(),
            |_| None,
        );
        let roots = state.roots();
        assert!(roots.read_text(&first.path().join("SKILL.md")).is_ok());
        assert!(roots.read_text(&second.path().join("SKILL.md")).is_ok());
        assert!(roots.read_text(&outside.path().join("SKILL.md")).is_err());
        // Closing a root closes its files too.
        state.set_roots(
            vec![second.path().to_path_buf()],
            LintSession::default(),
            |_| None,
        );
        assert!(state
            .roots()
            .read_text(&first.path().join("SKILL.md"))
            .is_err());
    }

    #[test]
    fn a_lint_snapshot_of_other_roots_is_dropped() {
        let state = AppState::default();
        state.set_roots(vec![path("/work/a")], LintSession::default(), |_| None);
        state.keep_catalog(
            &Roots::new([path("/work/a")]),
            Arc::new(CatalogSession::open(&[])),
        );
        state.replace_lint_session(&[path("/work/b")], LintSession::default());
        assert!(state.cached_catalog().1.is_some(), "stale snapshot applied");
        state.replace_lint_session(&[path("/work/a")], LintSession::default());
        assert!(state.cached_catalog().1.is_none());
    }
}
