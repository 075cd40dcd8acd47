//! The buffers open in the editor, held here so that a keystroke sends only its change.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use skillforge_core::editor::EditorBuffer;

/// Open buffers by id. One buffer per path: opening a path again replaces its buffer, so a window that
/// resends its text (or reloads) leaves nothing behind.
#[derive(Default)]
pub struct Buffers {
    open: Mutex<Open>,
}

#[derive(Default)]
struct Open {
    next_id: u32,
    by_id: HashMap<u32, Arc<Mutex<EditorBuffer>>>,
}

impl Buffers {
    /// Holds `text` as the buffer of `path`, at version 0, under a new id.
    pub fn open(&self, path: PathBuf, text: String) -> (u32, Arc<Mutex<EditorBuffer>>) {
        let buffer = Arc::new(Mutex::new(EditorBuffer::new(path.clone(), text)));
        let Ok(mut open) = self.open.lock() else {
            // A poisoned table is only lost bookkeeping: the editor resends the text on the next change.
            return (0, buffer);
        };
        open.by_id.retain(|_, other| {
            other
                .lock()
                .map(|other| other.path() != path)
                .unwrap_or(false)
        });
        open.next_id = open.next_id.wrapping_add(1).max(1);
        let id = open.next_id;
        open.by_id.insert(id, buffer.clone());
        (id, buffer)
    }

    pub fn get(&self, id: u32) -> Option<Arc<Mutex<EditorBuffer>>> {
        self.open.lock().ok()?.by_id.get(&id).cloned()
    }

    pub fn close(&self, id: u32) {
        if let Ok(mut open) = self.open.lock() {
            open.by_id.remove(&id);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn opening_a_path_again_replaces_its_buffer() {
        let buffers = Buffers::default();
        let (first, _) = buffers.open(PathBuf::from("/a/SKILL.md"), "one".into());
        let (other, _) = buffers.open(PathBuf::from("/b/SKILL.md"), "two".into());
        let (second, _) = buffers.open(PathBuf::from("/a/SKILL.md"), "three".into());
        assert_ne!(first, second);
        assert!(buffers.get(first).is_none());
        let held = buffers.get(second).expect("reopened");
        assert_eq!(held.lock().expect("lock").text(), "three");
        buffers.close(other);
        assert!(buffers.get(other).is_none());
    }
}
