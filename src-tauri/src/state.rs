//! State shared by the commands: the open engine workspace and the watchers that keep the UI current.

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use skillforge_core::workspace::Workspace;

use crate::watcher::WorkspaceWatcher;

/// What the app holds between commands.
#[derive(Default)]
pub struct AppState {
    /// The folders named on the command line (`--workspace`, repeatable) or in `SKILLFORGE_WORKSPACE`.
    pub launch_workspaces: Vec<PathBuf>,
    /// The workspace open now; every file the UI reads or writes must lie inside its roots.
    pub session: Mutex<Session>,
}

/// The open workspace and one watcher per root that could be watched, so closing a root stops only its own.
#[derive(Default)]
pub struct Session {
    pub workspace: Arc<Workspace>,
    pub watchers: Vec<WorkspaceWatcher>,
}

impl AppState {
    pub fn new(launch_workspaces: Vec<PathBuf>) -> Self {
        Self {
            launch_workspaces,
            session: Mutex::default(),
        }
    }

    /// The workspace open now (shared, so no lock is held while it works).
    pub fn workspace(&self) -> Arc<Workspace> {
        self.session
            .lock()
            .map(|session| session.workspace.clone())
            .unwrap_or_default()
    }

    /// Makes `workspace` the open one. Watchers of roots that stay open keep running; `watch` starts
    /// one for each new root (`None` when it cannot be watched).
    pub fn open(
        &self,
        workspace: Workspace,
        mut watch: impl FnMut(&std::path::Path) -> Option<WorkspaceWatcher>,
    ) -> Arc<Workspace> {
        let workspace = Arc::new(workspace);
        let Ok(mut session) = self.session.lock() else {
            return workspace;
        };
        let mut previous = std::mem::take(&mut session.watchers);
        let mut watchers = Vec::with_capacity(workspace.roots().as_slice().len());
        for root in workspace.roots().as_slice() {
            match previous.iter().position(|watcher| watcher.root() == root) {
                Some(index) => watchers.push(previous.swap_remove(index)),
                None => watchers.extend(watch(root)),
            }
        }
        *session = Session {
            workspace: workspace.clone(),
            watchers,
        };
        workspace
    }

    /// Replaces the open workspace with `fresh`, read again after its files changed, unless another
    /// workspace was opened meanwhile (`fresh` would then describe folders no longer open).
    pub fn refreshed(&self, fresh: Workspace) {
        if let Ok(mut session) = self.session.lock() {
            if session.workspace.source() == fresh.source() {
                session.workspace = Arc::new(fresh);
            }
        }
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

#[cfg(test)]
mod tests {
    use std::path::Path;
    use std::sync::Arc;

    use skillforge_core::workspace::Source;

    use super::*;
    use crate::events::testing::CapturedEvents;

    fn folders(roots: &[&Path]) -> Workspace {
        let source = Source::Folders(roots.iter().map(|root| root.to_path_buf()).collect());
        Workspace::open(source).expect("open").0
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
        let (a, b) = (first.path(), second.path());
        state.open(folders(&[a]), watch);
        state.open(folders(&[a, b]), watch);
        assert_eq!(*started.borrow(), [a.to_path_buf(), b.to_path_buf()]);
        state.open(folders(&[b]), watch);
        assert_eq!(started.borrow().len(), 2, "a watcher was restarted");
        let session = state.session.lock().expect("lock");
        assert_eq!(
            session
                .watchers
                .iter()
                .map(|watcher| watcher.root().to_path_buf())
                .collect::<Vec<_>>(),
            [b.to_path_buf()]
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
        state.open(folders(&[first.path(), second.path()]), |_| None);
        let file =
            |directory: &tempfile::TempDir| directory.path().join("SKILL.md").display().to_string();
        assert!(state.workspace().read_file(&file(&first)).is_ok());
        assert!(state.workspace().read_file(&file(&second)).is_ok());
        assert!(state.workspace().read_file(&file(&outside)).is_err());
        // Closing a root closes its files too.
        state.open(folders(&[second.path()]), |_| None);
        assert!(state.workspace().read_file(&file(&first)).is_err());
    }

    #[test]
    fn a_refresh_of_another_workspace_is_dropped() {
        let first = tempfile::tempdir().expect("temporary directory");
        let second = tempfile::tempdir().expect("temporary directory");
        let state = AppState::default();
        state.open(folders(&[first.path()]), |_| None);
        state.refreshed(folders(&[second.path()]));
        assert_eq!(
            state.workspace().roots().as_slice(),
            [first.path().to_path_buf()]
        );
    }
}
