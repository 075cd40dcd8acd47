//! Validation before export: each skill is linted under the profile of the client that will read the
//! export, and any error blocks the export.
//!
//! The check sits behind [`Validator`] so that the export logic does not depend on how the linter is
//! put together, and tests can substitute a validator with known answers.

use std::path::Path;

use serde::Serialize;

use crate::lint::config::Config;
use crate::lint::context::{RealFiles, SkillFile};
use crate::lint::workspace::{lint_file, LintOptions};
use crate::lint::{ProfileId, Severity};

/// How serious a validation problem is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "lowercase")]
pub enum ProblemLevel {
    Warning,
    /// Blocks the export.
    Error,
}

/// One thing the author should know before (or instead of) exporting.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct Problem {
    pub level: ProblemLevel,
    /// The skill's name, when the problem belongs to one skill.
    pub skill: Option<String>,
    /// The file or folder concerned.
    pub path: String,
    /// 1-based line in `path`, when known.
    pub line: Option<u32>,
    /// The lint code (`SF…`) when the linter reported it.
    pub code: Option<String>,
    pub message: String,
}

impl Problem {
    pub fn error(skill: Option<&str>, path: impl Into<String>, message: impl Into<String>) -> Self {
        Self {
            level: ProblemLevel::Error,
            skill: skill.map(str::to_string),
            path: path.into(),
            line: None,
            code: None,
            message: message.into(),
        }
    }

    pub fn warning(
        skill: Option<&str>,
        path: impl Into<String>,
        message: impl Into<String>,
    ) -> Self {
        Self {
            level: ProblemLevel::Warning,
            ..Self::error(skill, path, message)
        }
    }
}

/// A skill as the validator sees it.
#[derive(Debug, Clone, Copy)]
pub struct SkillToCheck<'a> {
    pub name: &'a str,
    /// The SKILL.md on disk (its folder is where link targets are looked up).
    pub skill_md: &'a Path,
    /// The exact bytes that will be exported.
    pub bytes: &'a [u8],
}

/// Checks one skill under the given profiles.
pub trait Validator {
    fn check(&self, skill: SkillToCheck<'_>, profiles: &[ProfileId]) -> Vec<Problem>;
}

/// The linter, with the author's `skillforge.toml` rule settings but the export's profiles.
#[derive(Debug, Default, Clone, Copy)]
pub struct LintValidator;

impl Validator for LintValidator {
    fn check(&self, skill: SkillToCheck<'_>, profiles: &[ProfileId]) -> Vec<Problem> {
        let display = skill.skill_md.display().to_string();
        let mut problems = Vec::new();
        let config = match skill.skill_md.parent().map(Config::discover) {
            Some(Ok(Some(config))) => config,
            Some(Ok(None)) | None => Config::default(),
            Some(Err(error)) => {
                problems.push(Problem::error(
                    Some(skill.name),
                    display.clone(),
                    format!("cannot use the lint configuration: {error}"),
                ));
                Config::default()
            }
        };
        let file = SkillFile::from_bytes(
            skill.skill_md.to_path_buf(),
            display.clone(),
            skill.bytes.to_vec(),
        );
        let options = LintOptions {
            profiles: profiles.to_vec(),
            config,
        };
        let report = lint_file(&file, &options, &RealFiles);
        for diagnostic in report.diagnostics {
            let level = match diagnostic.severity {
                Severity::Error => ProblemLevel::Error,
                Severity::Warning => ProblemLevel::Warning,
                Severity::Info => continue,
            };
            problems.push(Problem {
                level,
                skill: Some(skill.name.to_string()),
                path: display.clone(),
                line: Some(diagnostic.span.start.line),
                code: Some(diagnostic.code),
                message: format!("{} [{}]", diagnostic.message, diagnostic.rule),
            });
        }
        problems
    }
}
