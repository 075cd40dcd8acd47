//! The builtin source: the skills embedded from the repository's `skills/` folder.

use std::collections::BTreeMap;
use std::sync::Mutex;

use async_trait::async_trait;
use include_dir::Dir;

use super::{SkillSource, SourceError, Survey};
use crate::builtin::BUILTIN_SKILLS;
use crate::clients::nagents::metadata::parse_skill_metadata;
use crate::clients::nagents::skill_catalog;
use crate::python;
use crate::skill::Skill;

/// Skills compiled into the binary; each top-level folder holding a SKILL.md is one skill.
#[derive(Debug)]
pub struct BuiltinSource {
    root: &'static Dir<'static>,
    /// Name → the folder the skill came from, for loads.
    published: Mutex<BTreeMap<String, (Skill, &'static str)>>,
}

impl Default for BuiltinSource {
    fn default() -> Self {
        Self::new(&BUILTIN_SKILLS)
    }
}

impl BuiltinSource {
    /// A source over any embedded folder (tests use their own).
    pub fn new(root: &'static Dir<'static>) -> Self {
        Self {
            root,
            published: Mutex::new(BTreeMap::new()),
        }
    }

    /// Every skill with the folder it came from, in folder-name order. Like nagents' package
    /// source, one unreadable bundled skill fails the whole discovery: bundled skills are
    /// shipped, so a bad one is a build defect, not a user's typo.
    fn found(&self) -> Result<Vec<(Skill, &'static str)>, SourceError> {
        let mut directories: Vec<&'static Dir<'static>> = self.root.dirs().collect();
        directories.sort_by(|a, b| a.path().file_name().cmp(&b.path().file_name()));
        let mut found = Vec::new();
        for directory in directories {
            let Some(folder) = directory.path().file_name().and_then(|name| name.to_str()) else {
                continue;
            };
            let Some(file) = directory.get_file(directory.path().join("SKILL.md")) else {
                continue;
            };
            let location = format!("package:skillforge/skills/{folder}/SKILL.md");
            let content = std::str::from_utf8(file.contents())
                .map_err(|error| SourceError::Read(python::utf8_error(file.contents(), &error)))?;
            found.push((parse_skill_metadata(content, &location, folder)?, folder));
        }
        Ok(found)
    }

    /// Everything embedded, duplicates included, without publishing a snapshot.
    pub fn survey_now(&self) -> Result<Survey, SourceError> {
        Ok(Survey {
            found: self.found()?.into_iter().map(|(skill, _)| skill).collect(),
            diagnostics: Vec::new(),
        })
    }

    fn published(&self) -> std::sync::MutexGuard<'_, BTreeMap<String, (Skill, &'static str)>> {
        self.published
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

#[async_trait]
impl SkillSource for BuiltinSource {
    async fn discover(&self) -> Result<Vec<Skill>, SourceError> {
        let found = self.found()?;
        let folders: BTreeMap<String, &'static str> = found
            .iter()
            .map(|(skill, folder)| (skill.name.clone(), *folder))
            .collect();
        let catalog = skill_catalog(found.into_iter().map(|(skill, _)| skill))?;
        let skills: Vec<Skill> = catalog.values().cloned().collect();
        *self.published() = catalog
            .into_iter()
            .filter_map(|(name, skill)| {
                let folder = folders.get(&name).copied()?;
                Some((name, (skill, folder)))
            })
            .collect();
        Ok(skills)
    }

    async fn load(&self, skill: &Skill) -> Result<String, SourceError> {
        let folder = match self.published().get(&skill.name) {
            Some((known, folder)) if known == skill => *folder,
            _ => return Err(SourceError::NotInBundledCatalog(skill.name.clone())),
        };
        let file = self
            .root
            .get_file(format!("{folder}/SKILL.md"))
            .ok_or_else(|| SourceError::NotInBundledCatalog(skill.name.clone()))?;
        std::str::from_utf8(file.contents())
            .map(str::to_string)
            .map_err(|error| SourceError::Read(python::utf8_error(file.contents(), &error)))
    }

    async fn survey(&self) -> Result<Survey, SourceError> {
        self.survey_now()
    }
}
