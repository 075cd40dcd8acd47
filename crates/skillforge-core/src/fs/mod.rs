//! The one guarded file layer: every file the engine, the CLI or the app reads or writes goes
//! through here.
//!
//! - [`open`]: folders and files opened with directory descriptors, never following a link below a
//!   root, never blocking on a FIFO;
//! - [`read`]: bounded reads of regular files only, with named size limits ([`read::Limit`]);
//! - [`write`]: the one atomic write, which keeps mode and owner and never replaces a file that
//!   changed since it was read;
//! - [`walk`]: the one walker of a folder tree, reporting what it could not enter instead of
//!   dropping it;
//! - [`roots`]: paths checked against the folders an author opened, for the app and the CLI.

pub mod open;
pub mod read;
pub mod roots;
pub mod walk;
pub mod write;

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

pub use read::{Limit, ReadError};
pub use roots::{FileError, Roots, SaveGuard, TextFile};

/// A short, stable digest of a file's bytes, used to notice edits made elsewhere.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct Fingerprint(pub String);

impl Fingerprint {
    pub fn of(bytes: &[u8]) -> Self {
        let digest = Sha256::digest(bytes);
        Self(digest.iter().map(|byte| format!("{byte:02x}")).collect())
    }
}
