//! The catalog holder: the last good snapshot of a source, refreshed atomically.

use std::collections::BTreeMap;
use std::sync::{Arc, RwLock};

use super::{SkillSource, SourceError};
use crate::clients::nagents::budget::{budget_skill_content, InvalidTokenLimit, SkillLoadResult};
use crate::clients::nagents::render_skill_manifest;
use crate::python;
use crate::skill::Skill;

/// One published catalog.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Snapshot {
    /// The skills by name.
    pub skills: BTreeMap<String, Skill>,
    /// The source's diagnostics for this snapshot.
    pub diagnostics: Vec<String>,
    /// The error of the latest refresh when it failed; the skills are then the last good ones.
    pub refresh_error: Option<String>,
    /// Counts successful refreshes, so a client can tell a new snapshot from the old one.
    pub generation: u64,
}

/// Why a named load fails; the unknown-name message is nagents' own.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LoadError {
    #[error("Unknown skill {}; refresh the available skills catalog", python::repr(.0))]
    Unknown(String),
    #[error(transparent)]
    Source(#[from] SourceError),
    #[error(transparent)]
    Limit(#[from] InvalidTokenLimit),
}

/// Holds a source and its last good snapshot. Refreshes are serialized; readers never see a
/// half-built catalog, and a failed refresh leaves the previous skills visible.
pub struct CatalogHolder {
    source: Arc<dyn SkillSource>,
    snapshot: RwLock<Arc<Snapshot>>,
    refreshing: tokio::sync::Mutex<()>,
}

impl std::fmt::Debug for CatalogHolder {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter
            .debug_struct("CatalogHolder")
            .field("snapshot", &self.snapshot())
            .finish_non_exhaustive()
    }
}

impl CatalogHolder {
    pub fn new(source: Arc<dyn SkillSource>) -> Self {
        Self {
            source,
            snapshot: RwLock::new(Arc::new(Snapshot::default())),
            refreshing: tokio::sync::Mutex::new(()),
        }
    }

    /// The current snapshot.
    pub fn snapshot(&self) -> Arc<Snapshot> {
        let guard = self
            .snapshot
            .read()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        Arc::clone(&guard)
    }

    fn publish(&self, snapshot: Snapshot) -> Arc<Snapshot> {
        let snapshot = Arc::new(snapshot);
        let mut guard = self
            .snapshot
            .write()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        *guard = Arc::clone(&snapshot);
        snapshot
    }

    /// Rediscovers. On failure the last good skills stay published, with the error attached,
    /// and the error is returned.
    pub async fn refresh(&self) -> Result<Arc<Snapshot>, SourceError> {
        let _serialized = self.refreshing.lock().await;
        let previous = self.snapshot();
        match self.source.discover().await {
            Ok(skills) => Ok(self.publish(Snapshot {
                skills: skills
                    .into_iter()
                    .map(|skill| (skill.name.clone(), skill))
                    .collect(),
                diagnostics: self.source.diagnostics(),
                refresh_error: None,
                generation: previous.generation + 1,
            })),
            Err(error) => {
                self.publish(Snapshot {
                    refresh_error: Some(error.to_string()),
                    ..(*previous).clone()
                });
                Err(error)
            }
        }
    }

    /// The manifest of the current snapshot.
    pub fn manifest(&self) -> String {
        render_skill_manifest(self.snapshot().skills.values())
    }

    /// Loads a skill by name within `token_limit`, refreshing first as nagents' agent does.
    pub async fn load(&self, name: &str, token_limit: u32) -> Result<SkillLoadResult, LoadError> {
        let snapshot = self.refresh().await?;
        let skill = snapshot
            .skills
            .get(name)
            .ok_or_else(|| LoadError::Unknown(name.to_string()))?;
        let content = self.source.load(skill).await?;
        Ok(budget_skill_content(skill, &content, token_limit)?)
    }
}
