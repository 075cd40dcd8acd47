//! Events the backend pushes to the UI: one tagged enum per domain, sent through a small trait so
//! tests can capture them without a window.

use serde::Serialize;
use tauri_specta::Event;

/// Something changed in the opened folders, outside the app or through it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, specta::Type, Event)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum WorkspaceEvent {
    /// Files or folders were created, modified, renamed or removed (absolute paths, sorted, unique).
    FilesChanged { paths: Vec<String> },
    /// The file watcher failed; changes made outside the app will not show up until the workspace is reopened.
    WatchFailed { message: String },
}

/// Where events go: the window in the app, a list in tests.
pub trait EventSink: Send + Sync + 'static {
    fn workspace(&self, event: WorkspaceEvent);
}

/// Sends events to every window of the running app.
pub struct WindowSink(pub tauri::AppHandle);

impl EventSink for WindowSink {
    fn workspace(&self, event: WorkspaceEvent) {
        // A window that is closing cannot receive events; nothing else is affected, so this is not an error.
        let _ = event.emit(&self.0);
    }
}

#[cfg(test)]
pub mod testing {
    use std::sync::Mutex;

    use super::{EventSink, WorkspaceEvent};

    /// Collects events for assertions.
    #[derive(Default)]
    pub struct CapturedEvents(pub Mutex<Vec<WorkspaceEvent>>);

    impl EventSink for std::sync::Arc<CapturedEvents> {
        fn workspace(&self, event: WorkspaceEvent) {
            if let Ok(mut events) = self.0.lock() {
                events.push(event);
            }
        }
    }
}
