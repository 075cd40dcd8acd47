//! The composite source: several sources in order, the first one to name a skill wins.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};

use async_trait::async_trait;

use super::{SkillSource, SourceError, Survey};
use crate::clients::nagents::skill_catalog;
use crate::skill::Skill;

/// Combines sources with first-source precedence. Each discovery starts from scratch, so a
/// skill removed from a source never lingers; duplicates inside one source still fail it.
pub struct CompositeSource {
    sources: Vec<Arc<dyn SkillSource>>,
    /// Name → the skill and the index of the source that owns it.
    owners: Mutex<BTreeMap<String, (Skill, usize)>>,
}

impl std::fmt::Debug for CompositeSource {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter
            .debug_struct("CompositeSource")
            .field("sources", &self.sources.len())
            .finish_non_exhaustive()
    }
}

impl CompositeSource {
    pub fn new(sources: impl IntoIterator<Item = Arc<dyn SkillSource>>) -> Self {
        Self {
            sources: sources.into_iter().collect(),
            owners: Mutex::new(BTreeMap::new()),
        }
    }

    fn owners(&self) -> std::sync::MutexGuard<'_, BTreeMap<String, (Skill, usize)>> {
        self.owners
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

#[async_trait]
impl SkillSource for CompositeSource {
    async fn discover(&self) -> Result<Vec<Skill>, SourceError> {
        let mut owners = BTreeMap::new();
        for (index, source) in self.sources.iter().enumerate() {
            for (name, skill) in skill_catalog(source.discover().await?)? {
                owners.entry(name).or_insert((skill, index));
            }
        }
        let skills = owners.values().map(|(skill, _)| skill.clone()).collect();
        *self.owners() = owners;
        Ok(skills)
    }

    async fn load(&self, skill: &Skill) -> Result<String, SourceError> {
        let owner = match self.owners().get(&skill.name) {
            Some((known, index)) if known == skill => self.sources.get(*index).cloned(),
            _ => None,
        };
        match owner {
            Some(source) => source.load(skill).await,
            None => Err(SourceError::NotInCompositeCatalog(skill.name.clone())),
        }
    }

    fn diagnostics(&self) -> Vec<String> {
        self.sources
            .iter()
            .flat_map(|source| source.diagnostics())
            .collect()
    }

    /// Everything every source finds, in source order; shadowing is left to the report.
    async fn survey(&self) -> Result<Survey, SourceError> {
        let mut survey = Survey::default();
        for source in &self.sources {
            let part = source.survey().await?;
            survey.found.extend(part.found);
            survey.diagnostics.extend(part.diagnostics);
        }
        Ok(survey)
    }
}
