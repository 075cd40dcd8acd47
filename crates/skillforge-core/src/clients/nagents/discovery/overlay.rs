//! The overlay source: unsaved editor text laid over another source, so a preview of an edit
//! goes through exactly the code a saved file would.

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::{Arc, Mutex};

use async_trait::async_trait;

use super::{SkillSource, SourceError, Survey};
use crate::clients::nagents::metadata::parse_skill_metadata;
use crate::clients::nagents::skill_catalog;
use crate::skill::Skill;

#[derive(Debug, Default)]
struct State {
    /// Location → unsaved text.
    texts: BTreeMap<String, String>,
    catalog: BTreeMap<String, Skill>,
    diagnostics: Vec<String>,
}

/// Replaces the text of some skill files (by location) with in-memory text. Overlaid files
/// that the inner source does not know are added as new skills.
pub struct OverlaySource {
    inner: Arc<dyn SkillSource>,
    state: Mutex<State>,
}

impl std::fmt::Debug for OverlaySource {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter
            .debug_struct("OverlaySource")
            .finish_non_exhaustive()
    }
}

impl OverlaySource {
    pub fn new(inner: Arc<dyn SkillSource>) -> Self {
        Self {
            inner,
            state: Mutex::new(State::default()),
        }
    }

    /// Sets the unsaved text of the file at `location`; seen at the next discovery.
    pub fn set(&self, location: impl Into<String>, text: impl Into<String>) {
        self.state().texts.insert(location.into(), text.into());
    }

    /// Drops the unsaved text of `location` (saved or discarded).
    pub fn clear(&self, location: &str) {
        self.state().texts.remove(location);
    }

    fn state(&self) -> std::sync::MutexGuard<'_, State> {
        self.state
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// The inner snapshot with overlaid files re-read from their unsaved text.
    async fn overlaid(&self) -> Result<Survey, SourceError> {
        // A duplicate on disk may be exactly what the unsaved edit fixes, so fall back to
        // everything the inner source found rather than failing before the overlay applies.
        let inner_found = match self.inner.discover().await {
            Ok(skills) => Survey {
                found: skills,
                diagnostics: self.inner.diagnostics(),
            },
            Err(SourceError::Duplicate(_)) => self.inner.survey().await?,
            Err(error) => return Err(error),
        };
        let texts = self.state().texts.clone();
        let mut survey = Survey {
            found: Vec::new(),
            diagnostics: inner_found.diagnostics,
        };
        let mut known = std::collections::HashSet::new();
        for skill in inner_found.found {
            known.insert(skill.location.clone());
            match texts.get(&skill.location) {
                None => survey.found.push(skill),
                Some(text) => parse_overlay(&skill.location, text, &mut survey),
            }
        }
        for (location, text) in &texts {
            if !known.contains(location) {
                parse_overlay(location, text, &mut survey);
            }
        }
        Ok(survey)
    }
}

fn parse_overlay(location: &str, text: &str, survey: &mut Survey) {
    let directory_name = Path::new(location)
        .parent()
        .and_then(Path::file_name)
        .map(|name| name.to_string_lossy().into_owned())
        .unwrap_or_default();
    match parse_skill_metadata(text, location, &directory_name) {
        Ok(skill) => survey.found.push(skill),
        Err(error) => survey.diagnostics.push(format!("{location}: {error}")),
    }
}

#[async_trait]
impl SkillSource for OverlaySource {
    async fn discover(&self) -> Result<Vec<Skill>, SourceError> {
        let survey = self.overlaid().await?;
        let catalog = skill_catalog(survey.found)?;
        let skills = catalog.values().cloned().collect();
        let mut state = self.state();
        state.catalog = catalog;
        state.diagnostics = survey.diagnostics;
        Ok(skills)
    }

    async fn load(&self, skill: &Skill) -> Result<String, SourceError> {
        let text = {
            let state = self.state();
            if state.catalog.get(&skill.name) != Some(skill) {
                return Err(SourceError::NotInOverlayCatalog(skill.name.clone()));
            }
            state.texts.get(&skill.location).cloned()
        };
        match text {
            Some(text) => Ok(text),
            None => self.inner.load(skill).await,
        }
    }

    fn diagnostics(&self) -> Vec<String> {
        self.state().diagnostics.clone()
    }

    async fn survey(&self) -> Result<Survey, SourceError> {
        self.overlaid().await
    }
}
