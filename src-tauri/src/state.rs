//! State shared by the commands.

use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use skillforge_core::catalog::session::CatalogSession;
use skillforge_core::editor::LintSession;
use skillforge_core::files::Roots;

use crate::watcher::WorkspaceWatcher;

/// What the app holds between commands.
#[derive(Default)]
pub struct AppState {
    /// The workspace named on the command line or in `SKILLFORGE_WORKSPACE`.
    pub launch_workspace: Option<PathBuf>,
    /// The folders open now; every file the UI reads or writes must lie inside them.
    pub session: Mutex<Session>,
}

/// The open workspace: its roots and the watcher that keeps the UI current.
#[derive(Default)]
pub struct Session {
    pub roots: Roots,
    pub watcher: Option<WorkspaceWatcher>,
    /// The workspace's SKILL.md files as last read, linted with unsaved buffers swapped in.
    pub lint: Arc<LintSession>,
    /// Every client's view of the workspace, read on the first preview and dropped when the files
    /// change, so a keystroke re-reads only the edited buffers.
    pub catalog: Option<Arc<CatalogSession>>,
}

impl AppState {
    pub fn new(launch_workspace: Option<PathBuf>) -> Self {
        Self {
            launch_workspace,
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

    /// Replaces the lint snapshot after the files changed on disk.
    pub fn replace_lint_session(&self, lint: LintSession) {
        if let Ok(mut session) = self.session.lock() {
            session.lint = Arc::new(lint);
            session.catalog = None;
        }
    }

    /// The open roots and their catalog snapshot, if one was read since the files last changed.
    pub fn cached_catalog(&self) -> (Roots, Option<Arc<CatalogSession>>) {
        self.session
            .lock()
            .map(|session| (session.roots.clone(), session.catalog.clone()))
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

    /// Replaces the open workspace; the previous watcher stops when dropped.
    pub fn replace_session(&self, session: Session) {
        if let Ok(mut current) = self.session.lock() {
            *current = session;
        }
    }
}
