//! One of the app's files in its config folder, read and written under one lock so that two commands
//! never interleave a read and a write; or no file at all, and why, when no config folder was found.

use std::path::{Path, PathBuf};
use std::sync::Mutex;

pub struct ConfigFile {
    /// The file, or why there is none.
    path: Result<PathBuf, String>,
    lock: Mutex<()>,
}

/// Why a file's work could not be done.
pub enum Unlocked {
    /// There is no config folder: the reason.
    Unavailable(String),
    /// An earlier command panicked while holding the lock.
    Poisoned,
}

impl ConfigFile {
    /// The file `name` in `dir` (the folder is created on the first write).
    pub fn in_dir(dir: &Path, name: &str) -> Self {
        Self {
            path: Ok(dir.join(name)),
            lock: Mutex::new(()),
        }
    }

    /// No file: every use says `reason`.
    pub fn unavailable(reason: impl Into<String>) -> Self {
        Self {
            path: Err(reason.into()),
            lock: Mutex::new(()),
        }
    }

    /// Runs `work` on the file's path while no other command uses the file.
    pub fn with<T>(&self, work: impl FnOnce(&Path) -> T) -> Result<T, Unlocked> {
        let path = self
            .path
            .as_ref()
            .map_err(|reason| Unlocked::Unavailable(reason.clone()))?;
        let _guard = self.lock.lock().map_err(|_| Unlocked::Poisoned)?;
        Ok(work(path))
    }
}
