//! Watches the opened folders so that edits made outside the app show up in the tree, the
//! diagnostics and clean buffers within about half a second.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::time::Duration;

use notify::RecursiveMode;
use notify_debouncer_full::{new_debouncer, DebounceEventResult, Debouncer, RecommendedCache};

use crate::events::{EventSink, WorkspaceEvent};

/// Long enough to fold an editor's write-rename-chmod burst into one event, short enough to feel live.
const DEBOUNCE: Duration = Duration::from_millis(200);

/// A running watcher of one root; dropping it stops watching.
pub struct WorkspaceWatcher {
    root: PathBuf,
    _debouncer: Debouncer<notify::RecommendedWatcher, RecommendedCache>,
}

impl WorkspaceWatcher {
    /// Starts watching `root` recursively and reports changes to `sink`.
    pub fn start(root: &Path, sink: impl EventSink) -> Result<Self, notify::Error> {
        let mut debouncer =
            new_debouncer(
                DEBOUNCE,
                None,
                move |result: DebounceEventResult| match result {
                    Ok(events) => {
                        let paths: BTreeSet<String> = events
                            .iter()
                            // Opening and reading a file is not a change; counting it would make every
                            // rescan (which reads every SKILL.md) trigger the next one, forever.
                            .filter(|event| !matches!(event.kind, notify::EventKind::Access(_)))
                            .flat_map(|event| event.paths.iter())
                            .map(|path| path.display().to_string())
                            .collect();
                        if !paths.is_empty() {
                            sink.workspace(WorkspaceEvent::FilesChanged {
                                paths: paths.into_iter().collect(),
                            });
                        }
                    }
                    Err(errors) => {
                        let message = errors
                            .iter()
                            .map(ToString::to_string)
                            .collect::<Vec<_>>()
                            .join("; ");
                        sink.workspace(WorkspaceEvent::WatchFailed { message });
                    }
                },
            )?;
        debouncer.watch(root, RecursiveMode::Recursive)?;
        Ok(Self {
            root: root.to_path_buf(),
            _debouncer: debouncer,
        })
    }

    /// The folder this watcher watches.
    pub fn root(&self) -> &Path {
        &self.root
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;
    use std::time::Instant;

    use super::*;
    use crate::events::testing::CapturedEvents;

    fn wait_for(events: &CapturedEvents, wanted: impl Fn(&WorkspaceEvent) -> bool) -> bool {
        // A bound on waiting, not a timing assertion: file events normally arrive well within it.
        let deadline = Instant::now() + Duration::from_secs(20);
        while Instant::now() < deadline {
            if events.0.lock().is_ok_and(|seen| seen.iter().any(&wanted)) {
                return true;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        false
    }

    #[test]
    fn reading_files_is_not_a_change() {
        let directory = tempfile::tempdir().expect("temporary directory");
        let root = directory.path().to_path_buf();
        let file = root.join("SKILL.md");
        std::fs::write(&file, "---\nname: x\n---\n").expect("write");
        let events = Arc::new(CapturedEvents::default());
        let _watcher = WorkspaceWatcher::start(&root, events.clone()).expect("watch");
        for _ in 0..20 {
            std::fs::read_to_string(&file).expect("read");
        }
        // A later real change proves the watcher is running, and that the reads before it raised nothing.
        let marker = root.join("marker.md");
        std::fs::write(&marker, "changed").expect("write");
        let marker_path = marker.display().to_string();
        assert!(wait_for(
            &events,
            |event| matches!(event, WorkspaceEvent::FilesChanged { paths } if paths.contains(&marker_path))
        ));
        let seen = events.0.lock().expect("lock").clone();
        let file_path = file.display().to_string();
        assert!(
            !seen.iter().any(|event| matches!(event, WorkspaceEvent::FilesChanged { paths } if paths.contains(&file_path))),
            "reads were reported as changes: {seen:?}"
        );
    }

    #[test]
    fn reports_files_created_and_removed_outside_the_app() {
        let directory = tempfile::tempdir().expect("temporary directory");
        let root = directory.path().to_path_buf();
        let events = Arc::new(CapturedEvents::default());
        let _watcher = WorkspaceWatcher::start(&root, events.clone()).expect("watch");
        let skill = root.join("new-skill/SKILL.md");
        let mentions = |path: &PathBuf| {
            let path = path.display().to_string();
            move |event: &WorkspaceEvent| matches!(event, WorkspaceEvent::FilesChanged { paths } if paths.contains(&path))
        };
        // A folder created together with its file can race the watch on the new folder (the UI
        // rescans on the folder's event anyway); here the file is written once the folder is seen.
        std::fs::create_dir(root.join("new-skill")).expect("mkdir");
        let folder = root.join("new-skill");
        assert!(
            wait_for(&events, mentions(&folder)),
            "no event for the created folder"
        );
        std::fs::write(&skill, "---\nname: new-skill\n---\n").expect("write");
        assert!(
            wait_for(&events, mentions(&skill)),
            "no event for the created file"
        );
        events.0.lock().expect("lock").clear();
        std::fs::remove_file(&skill).expect("remove");
        assert!(
            wait_for(&events, mentions(&skill)),
            "no event for the removed file"
        );
    }
}
