//! Skill sources: where skills come from, behind one async interface.
//!
//! Every source follows nagents' contract: `discover()` returns one complete snapshot (or fails
//! as a whole), `load()` returns the current text of a skill from that snapshot, and problems
//! that only cost one skill are reported as bounded diagnostics instead of failing discovery.

pub mod builtin;
pub mod composite;
pub mod directory;
pub mod holder;
pub mod overlay;

use async_trait::async_trait;

use crate::clients::nagents::metadata::MetadataError;
use crate::clients::nagents::DuplicateSkill;
use crate::python;
use crate::skill::Skill;

pub use builtin::BuiltinSource;
pub use composite::CompositeSource;
pub use directory::{DirectoryOptions, DirectorySource};
pub use holder::{CatalogHolder, LoadError, Snapshot};
pub use overlay::OverlaySource;

/// Why a source fails a discovery or a load. Messages are the ones nagents raises.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SourceError {
    #[error(transparent)]
    Duplicate(#[from] DuplicateSkill),
    #[error(transparent)]
    Metadata(#[from] MetadataError),
    #[error("max_entries must be positive and max_depth nonnegative")]
    InvalidLimits,
    #[error("Skill {} is not in this directory catalog; refresh discovery", python::repr(.0))]
    NotInDirectoryCatalog(String),
    #[error("Skill {} is not in the bundled catalog; refresh discovery", python::repr(.0))]
    NotInBundledCatalog(String),
    #[error("Skill {} is not in this composite catalog; refresh discovery", python::repr(.0))]
    NotInCompositeCatalog(String),
    #[error("Skill {} is not in this overlay catalog; refresh discovery", python::repr(.0))]
    NotInOverlayCatalog(String),
    #[error("Skill location is outside the configured roots")]
    OutsideRoots,
    #[error("Skill {} changed; refresh discovery and retry", python::repr(.0))]
    Changed(String),
    /// A file could not be read; the text is what Python's `str(error)` would print.
    #[error("{0}")]
    Read(String),
    /// The blocking walk could not run to completion (its thread panicked or was cancelled).
    #[error("discovery was interrupted: {0}")]
    Interrupted(String),
}

/// What a source finds before the duplicate check: everything, for a report that must never
/// blank the author's view because of one bad skill.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Survey {
    /// Skills in discovery order, duplicates included.
    pub found: Vec<Skill>,
    /// Bounded diagnostics, in the order the source produced them.
    pub diagnostics: Vec<String>,
}

/// A place skills come from.
#[async_trait]
pub trait SkillSource: Send + Sync {
    /// One complete, validated snapshot in name order; it replaces the previous one only on
    /// success.
    async fn discover(&self) -> Result<Vec<Skill>, SourceError>;

    /// The current text of a skill from the last snapshot, frontmatter included.
    async fn load(&self, skill: &Skill) -> Result<String, SourceError>;

    /// Diagnostics of the last successful discovery.
    fn diagnostics(&self) -> Vec<String> {
        Vec::new()
    }

    /// Everything the source would find, duplicates included; publishes no snapshot.
    async fn survey(&self) -> Result<Survey, SourceError> {
        let found = self.discover().await?;
        Ok(Survey {
            found,
            diagnostics: self.diagnostics(),
        })
    }
}

#[cfg(test)]
mod tests;
