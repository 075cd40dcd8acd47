//! The skill descriptor: the metadata a client shows a model, and nothing more.

use serde::{Deserialize, Serialize};

/// Immutable discovery metadata; `location` is an opaque identifier owned by the source.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct Skill {
    pub name: String,
    pub description: String,
    pub location: String,
}
