//! A workspace: the folders an author opened, checked up front so that a wrong path gets a clear
//! error instead of an empty catalog.

use std::path::{Path, PathBuf};

use serde::Serialize;

use std::collections::HashSet;

use crate::catalog::partition;
use crate::discovery::directory::absolute_root;
use crate::discovery::{BuiltinSource, DirectoryOptions, DirectorySource, Survey};
use crate::skill::Skill;

/// Why a workspace root cannot be opened.
#[derive(Debug, thiserror::Error)]
pub enum WorkspaceError {
    #[error("{}: no such folder; check the path or create it", .0.display())]
    NotFound(PathBuf),
    #[error("{}: is a file, not a folder; open the folder that contains your skills", .0.display())]
    NotADirectory(PathBuf),
    #[error("{}: cannot be read ({source}); check its permissions", path.display())]
    Unreadable {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
}

/// Everything discovery found, including what a strict client would refuse, so one bad skill
/// never blanks the author's view.
///
/// Only serialized: a report flows out to the UI and the CLI's JSON, never back in, and one
/// direction keeps the generated TypeScript to a single type.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct CatalogReport {
    /// The skills in catalog (name) order.
    pub skills: Vec<Skill>,
    /// Bounded discovery diagnostics, as the client reports them.
    pub diagnostics: Vec<String>,
    /// The message with which the client would fail the whole catalog, if it would.
    pub error: Option<String>,
    /// Skills whose name an earlier skill of the same source already uses.
    pub duplicates: Vec<Skill>,
    /// Builtin skills hidden by a workspace skill of the same name (the first source wins).
    pub shadowed: Vec<Skill>,
}

/// Checks that `path` is a readable folder and returns it made absolute as nagents makes roots
/// absolute (`~` expanded, `.`/`..` collapsed lexically, links not resolved).
pub fn check_root(path: &Path) -> Result<PathBuf, WorkspaceError> {
    let absolute = absolute_root(path);
    let metadata = match std::fs::metadata(&absolute) {
        Ok(metadata) => metadata,
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => {
            return Err(WorkspaceError::NotFound(absolute))
        }
        Err(source) => {
            return Err(WorkspaceError::Unreadable {
                path: absolute,
                source,
            })
        }
    };
    if !metadata.is_dir() {
        return Err(WorkspaceError::NotADirectory(absolute));
    }
    std::fs::read_dir(&absolute).map_err(|source| WorkspaceError::Unreadable {
        path: absolute.clone(),
        source,
    })?;
    Ok(absolute)
}

/// What to scan, for clients that expose the directory source's bounds.
#[derive(Debug, Clone, Default)]
pub struct ScanOptions {
    pub roots: Vec<PathBuf>,
    /// Also list the builtin skills, after (and shadowed by) the roots' skills.
    pub builtin: bool,
    pub limits: DirectoryOptions,
}

/// Discovers the skills under `roots` the way the nagents directory source does.
pub fn scan(roots: &[PathBuf]) -> Result<CatalogReport, WorkspaceError> {
    scan_with(&ScanOptions {
        roots: roots.to_vec(),
        ..ScanOptions::default()
    })
}

/// Like [`scan`], with the builtin skills and the walk's bounds under the caller's control.
pub fn scan_with(options: &ScanOptions) -> Result<CatalogReport, WorkspaceError> {
    let roots = options
        .roots
        .iter()
        .map(|root| check_root(root))
        .collect::<Result<Vec<_>, _>>()?;
    let mut report = report_from(DirectorySource::new(&roots, options.limits).walk(), None);
    if options.builtin {
        let builtin = scan_builtin();
        let taken: HashSet<String> = report
            .skills
            .iter()
            .map(|skill| skill.name.clone())
            .collect();
        for skill in builtin.skills {
            if taken.contains(&skill.name) {
                report.shadowed.push(skill);
            } else {
                report.skills.push(skill);
            }
        }
        report.skills.sort_by(|a, b| a.name.cmp(&b.name));
        report.diagnostics.extend(builtin.diagnostics);
        report.duplicates.extend(builtin.duplicates);
        report.error = report.error.or(builtin.error);
    }
    Ok(report)
}

/// The builtin skills, as a report.
pub fn scan_builtin() -> CatalogReport {
    match BuiltinSource::default().survey_now() {
        Ok(survey) => report_from(survey, None),
        Err(error) => report_from(Survey::default(), Some(error.to_string())),
    }
}

fn report_from(survey: Survey, error: Option<String>) -> CatalogReport {
    let parts = partition(survey.found);
    CatalogReport {
        skills: parts.skills,
        diagnostics: survey.diagnostics,
        error: error.or(parts.error.map(|error| error.to_string())),
        duplicates: parts.duplicates,
        shadowed: Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(path: &Path, text: &str) {
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).ok();
        }
        std::fs::write(path, text).ok();
    }

    #[test]
    fn report_keeps_everything_and_names_the_duplicate() {
        let Ok(temp) = tempfile::tempdir() else {
            return;
        };
        write(
            &temp.path().join("a/SKILL.md"),
            "---\nname: same\n---\nfirst",
        );
        write(
            &temp.path().join("b/SKILL.md"),
            "---\nname: same\n---\nsecond",
        );
        write(&temp.path().join("c/SKILL.md"), "no frontmatter");
        let report = scan(&[temp.path().to_path_buf()]).map_err(|e| e.to_string());
        let Ok(report) = report else {
            panic!("{report:?}")
        };
        assert_eq!(report.skills.len(), 3);
        assert_eq!(report.duplicates.len(), 1);
        let location = temp.path().join("b/SKILL.md").display().to_string();
        assert_eq!(
            report.error,
            Some(format!("Duplicate skill name 'same' at {location}"))
        );
    }

    #[test]
    fn missing_root_is_a_clear_error() {
        let error =
            scan(&[PathBuf::from("/nonexistent/skillforge/root")]).map_err(|e| e.to_string());
        assert!(matches!(error, Err(message) if message.contains("no such folder")));
    }
}
